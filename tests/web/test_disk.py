"""The admin page shows what the database takes and what is left on its disk, and warns in time."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from app.infra import disk
from tests.setups import new_game
from tests.web.conftest import soup


def test_the_admin_page_shows_the_database_size_and_free_disk(club, admin) -> None:
    new_game(admin)
    admin.get("/packs/aos-ghb-2021/scenarios/savage-gains/scoresheet.pdf")
    database = Path(club.config["DATABASE"])
    page = soup(admin.get("/admin"))
    line = page.select_one("#disk").text
    free = shutil.disk_usage(database.parent)
    shown = re.match(r"Database (\d+) KB, PDF cache (\d+) KB; ", line)
    assert shown, line
    # The write-ahead log is counted while open, then folded into the file when the page closes it.
    assert database.stat().st_size / 1000 - 1 <= int(shown[1]) <= database.stat().st_size / 1000 + 4200
    assert int(shown[2]) > 0  # the score sheet printed above is kept
    assert f"free of {disk.readable(free.total)} on its disk" in line
    assert (page.select_one("#disk-low") is not None) == (free.free / free.total < 0.10)


def test_under_a_tenth_free_the_admin_is_warned(club, admin, monkeypatch) -> None:
    # The disk cannot really be filled in a test: its free space is what shutil is told.
    total = 32 * 1000**3
    usage = shutil._ntuple_diskusage(total, total - 3_100_000_000, 3_100_000_000)  # 9.7% free
    monkeypatch.setattr(disk.shutil, "disk_usage", lambda path: usage)
    page = soup(admin.get("/admin"))
    assert "3.1 GB free of 32.0 GB on its disk (9.7%)" in page.select_one("#disk").text
    assert "under 10% is free" in page.select_one("#disk-low").text


@pytest.mark.parametrize(("free", "low"), [(1000, False), (999, True), (0, True), (1001, False)])
def test_the_warning_starts_just_under_a_tenth(free, low) -> None:
    assert disk.DiskUsage(database=1, pdf_cache=0, free=free, total=10_000).low is low


def test_sizes_read_as_people_say_them() -> None:
    assert [disk.readable(n) for n in (0, 820_000, 12_400_000, 28_900_000_000)] == [
        "0 KB",
        "820 KB",
        "12.4 MB",
        "28.9 GB",
    ]


def test_the_database_size_counts_its_write_ahead_log(tmp_path) -> None:
    db = tmp_path / "m.sqlite"
    db.write_bytes(b"x" * 4096)
    (tmp_path / "m.sqlite-wal").write_bytes(b"y" * 8192)
    os.mkdir(tmp_path / "cache")
    (tmp_path / "cache" / "a.pdf").write_bytes(b"%PDF" * 100)
    found = disk.usage(db, tmp_path / "cache")
    assert (found.database, found.pdf_cache) == (4096 + 8192, 400)
