"""The one SQLite connection every part of the store shares, and its write transactions."""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import os
import secrets
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from sqlite_utils import Database

from app.store.group_commit import group_for

Row = TypeVar("Row")


def row_as(kind: type[Row], row: Mapping[str, Any], **read: Any) -> Row:
    """A stored row as ``kind``, a dataclass whose fields are the row's columns of the same names;
    ``read`` gives the fields stored otherwise (JSON text, a 0 or 1 for a flag) as they read."""
    return kind(**{f.name: read[f.name] if f.name in read else row.get(f.name) for f in fields(kind)})  # type: ignore[arg-type]


def now() -> str:
    """The current UTC time as an ISO 8601 string, to the millisecond."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_id() -> str:
    """A random id for a stored thing: 128 bits, 22 URL-safe characters."""
    return secrets.token_urlsafe(16)


def new_edit_token() -> str:
    """A random edit token: 192 bits, 32 URL-safe characters."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What is stored of a secret (an edit token, a phone's or a session's id): its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(stored_hash: str, token: str | None) -> bool:
    """Whether ``token`` is the secret behind ``stored_hash`` (compared in constant time)."""
    return bool(token) and hmac.compare_digest(stored_hash, token_hash(token or ""))


class Connection:
    """One connection to the Muster database, with the write lock shared by every writer."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        # Writes of events from this process's threads share commits (one sync for many).
        self.group = group_for(self.path)
        # Each connection has its own open lock file, so flock() queues threads and processes alike.
        try:
            self._lock_fd: int | None = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            self._lock_fd = None  # a read-only place: SQLite's busy timeout still guards writes
        # isolation_level=None: no implicit BEGIN, so a lone write statement commits itself
        # (one call into SQLite) and transactions are always the explicit BEGIN IMMEDIATE below.
        conn = sqlite3.connect(str(path), timeout=15, check_same_thread=False, isolation_level=None)
        self.db = Database(conn, recursive_triggers=False, execute_plugins=False)
        self.db.execute("PRAGMA busy_timeout = 15000")
        self.db.execute("PRAGMA foreign_keys = ON")
        # FULL: an acknowledged event survives a power cut, WAL or not.
        self.db.execute("PRAGMA synchronous = FULL")
        # A server thread keeps its connection: 256 KB of page cache each, not SQLite's 2 MB,
        # keeps a worker's connections small on a Pi (the OS caches the file anyway).
        self.db.execute("PRAGMA cache_size = -256")

    def close(self) -> None:
        """Close the database and the lock file."""
        self.db.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """The rows of a SELECT as dicts, straight from the connection.

        Every statement here is a plain read: sqlite-utils' ``query()`` would wrap each in a
        savepoint, two more calls into SQLite, which on the event path were a third of a query.
        """
        cursor = self.db.conn.execute(sql, params)
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor]

    @contextmanager
    def immediate(self) -> Iterator[None]:
        """A write transaction that takes the lock at once, so checks and inserts agree.

        Writers first queue on a lock file: the kernel wakes the next one the moment the last
        commits, where SQLite's own busy handler sleeps and retries in steps of up to 100 ms,
        which under sixty phones turned a 1 ms write into a second's wait.
        """
        with self.writer():
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self.db.conn.rollback()
                raise
            else:
                self.db.conn.commit()

    @contextmanager
    def writer(self) -> Iterator[None]:
        """Hold the write lock (for a lone statement that commits itself, or a transaction)."""
        if self._lock_fd is None:
            yield
            return
        fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
