"""How much room the database takes and how much is left on its disk (for the admin page).

A club's Pi runs from an SD card: a card that fills up stops every game's writes at once, so
the organiser is warned while there is still room to archive or back up.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

LOW_FRACTION = 0.10  # warn when less than a tenth of the disk is free


@dataclass(frozen=True)
class DiskUsage:
    """Bytes the database takes (with its WAL), the PDF cache takes, and free and total on its disk."""

    database: int
    pdf_cache: int
    free: int
    total: int

    @property
    def free_fraction(self) -> float:
        """The free share of the disk, from 0 to 1."""
        return self.free / self.total if self.total else 0.0

    @property
    def low(self) -> bool:
        """Whether less than LOW_FRACTION of the disk is free."""
        return self.free_fraction < LOW_FRACTION


def usage(database: str | Path, pdf_cache: str | Path | None = None) -> DiskUsage:
    """The sizes for the database file at ``database`` and the disk it is on."""
    path = Path(database)
    files = [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]
    size = sum(f.stat().st_size for f in files if f.exists())
    cache = Path(pdf_cache) if pdf_cache else None
    cached = sum(f.stat().st_size for f in cache.iterdir() if f.is_file()) if cache and cache.is_dir() else 0
    disk = shutil.disk_usage(path.parent)
    return DiskUsage(database=size, pdf_cache=cached, free=disk.free, total=disk.total)


def readable(size: int, written: Callable[[float], str] = str) -> str:
    """A byte count as people read it: 820 KB, 12.4 MB, 28.9 GB (``written`` writes the number
    the reader's way: 12,4 MB in German)."""
    if size < 1000 * 1000:
        return f"{written(round(size / 1000))} KB"
    if size < 1000**3:
        return f"{written(round(size / 1000**2, 1))} MB"
    return f"{written(round(size / 1000**3, 1))} GB"
