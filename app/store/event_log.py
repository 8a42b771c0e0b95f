"""The append-only event tables (a game's events, a terrain set's changes) and their one append.

Both logs are written the same way: an event carries an id its sender made, a resent id is
recognised as already recorded, and a new event is judged by the caller's ``refuse`` against
exactly the events it follows, all under the write lock so two phones at once never judge
against a stale log. The database refuses any rewrite of a stored event (see the migrations'
triggers).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from app.store.connection import Connection, now

# What a new event is: its id, its type and its body (stored as JSON).
Entry = tuple[str, str, dict[str, Any]]
Refuse = Callable[[list[dict[str, Any]]], str | None]


@dataclass(frozen=True)
class Appended:
    """What became of events sent to :meth:`EventLog.append`."""

    status: str  # "recorded" | "duplicate" | "refused"
    error: str | None = None
    # The owner's log version after the events were recorded (see ``EventLog``), if it has one.
    version: str | None = None


class EventLog:
    """One append-only table of events, each belonging to one owner (a game, a terrain set).

    ``owner`` and ``time`` name the table's columns for the owner's id and the time an event
    was recorded; ``decode`` turns a stored row, the ``columns`` read (a tuple), into the
    event the rules read; ``keep``, if given, stores what the owner's summary is after an
    event (given with the event's seq), in the same transaction as the event. ``version``, if
    given, is a statement reading the owner's log version by its id: a mark the database changes
    with every event the owner's log takes (a trigger), so a reader that kept the log at one
    version knows it is still the whole log while the mark is the same.
    """

    def __init__(
        self,
        connection: Connection,
        table: str,
        owner: str,
        time: str,
        columns: str,
        decode: Callable[[tuple[Any, ...]], dict[str, Any]],
        keep: Callable[[sqlite3.Connection, str, Any, int], None] | None = None,
        version: str | None = None,
    ) -> None:
        self._c = connection
        self._table, self._owner = table, owner
        self._decode, self._keep = decode, keep
        self._version = version
        # Only the columns the events are made of, as tuples: every judged event reads the whole log.
        self._read = f"SELECT {columns} FROM {table} WHERE {owner} = ? ORDER BY seq"  # noqa: S608
        # The log and its version in one statement, so both are of the same moment.
        self._read_versioned = (
            f"SELECT {columns}, ({version}) FROM {table} WHERE {owner} = ? ORDER BY seq"  # noqa: S608
            if version
            else None
        )
        self._insert = f"INSERT INTO {table} (id, {owner}, type, body, {time}) VALUES (?, ?, ?, ?, ?)"  # noqa: S608
        # One statement that checks as it writes: the id is new and the owner still has the
        # number of events the new one was judged against.
        self._insert_unchanged = (
            f"INSERT INTO {table} (id, {owner}, type, body, {time}) SELECT ?, ?, ?, ?, ? "  # noqa: S608
            f"WHERE NOT EXISTS (SELECT 1 FROM {table} WHERE id = ?) "
            f"AND (SELECT count(*) FROM {table} WHERE {owner} = ?) = ?"
        )
        # The same, and the log is still at the version it was judged at.
        self._insert_at_version = f"{self._insert_unchanged} AND ({version}) IS ?" if version else None

    def events(self, owner_id: str) -> list[dict[str, Any]]:
        """The owner's events in the order they were recorded."""
        decode = self._decode
        return [decode(row) for row in self._c.db.conn.execute(self._read, [owner_id])]

    def versioned(self, owner_id: str) -> tuple[list[dict[str, Any]], str | None]:
        """The owner's events and the log version they are (``None``: no version to tell)."""
        if self._read_versioned is None:
            return self.events(owner_id), None
        try:
            rows = self._c.db.conn.execute(self._read_versioned, [owner_id, owner_id]).fetchall()
        except sqlite3.OperationalError:  # a database from before log versions, not migrated yet
            return self.events(owner_id), None
        decode = self._decode
        return [decode(row[:-1]) for row in rows], (rows[-1][-1] if rows else None)

    def _version_now(self, conn: sqlite3.Connection, owner_id: str) -> str | None:
        if self._version is None:
            return None
        try:
            found = conn.execute(self._version, [owner_id]).fetchone()
        except sqlite3.OperationalError:  # a database from before log versions, not migrated yet
            return None
        return found[0] if found else None

    def insert(
        self,
        owner_id: str,
        entries: Sequence[Entry],
        recorded: str | None = None,
        conn: sqlite3.Connection | None = None,
    ) -> int:
        """Insert events as they are, unchecked, inside the caller's transaction; the last seq."""
        stamp = recorded or now()
        conn = conn or self._c.db.conn
        seq = 0
        for eid, kind, body in entries:
            cursor = conn.execute(self._insert, self._row(eid, owner_id, kind, body, stamp))
            seq = int(cursor.lastrowid or 0)
        return seq

    def append(
        self,
        owner_id: str,
        entries: Sequence[Entry],
        refuse: Refuse,
        summarise: Callable[[], Any] = lambda: None,
        seen: list[dict[str, Any]] | None = None,
        version: str | None = None,
    ) -> Appended:
        """Append events together (all or none) unless the first id is known or ``refuse`` objects.

        ``refuse`` gets the owner's current events and returns ``None`` to accept or a
        sentence saying why not. It is first asked outside the write lock, so that the lock
        is held only to insert; if another event arrived meanwhile it is asked again inside
        the lock, so it always judges exactly the events the new ones follow. ``summarise``,
        asked after ``refuse`` accepted, gives what ``keep`` stores with the events (``None``:
        nothing). A first id already stored for this owner means a resend: nothing is added.

        ``seen`` with its ``version`` is the log as the caller kept it at that log version: it
        is not read again, and the events go in only while the log is still at that version.
        """
        if not entries:
            return Appended("recorded")
        if seen is None or version is None:
            seen, version = self.events(owner_id), None
        # A resent id is found inside the lock below; judging it first costs only a replay.
        problem = refuse(seen)
        if problem is None:
            inserted, made = self._append_if_unchanged(owner_id, entries, len(seen), summarise, version)
            if inserted:
                return Appended("recorded", version=made)
        first = entries[0][0]
        with self._c.immediate():
            found = self._c.query(
                f"SELECT (SELECT {self._owner} FROM {self._table} WHERE id = ?) AS owner, "  # noqa: S608
                f"(SELECT count(*) FROM {self._table} WHERE {self._owner} = ?) AS n",
                [first, owner_id],
            )[0]
            if found["owner"] is not None:
                if found["owner"] == owner_id:
                    return Appended("duplicate")
                return Appended("refused", "id is already used by an event of another game; make a new UUID.")
            conn = self._c.db.conn
            if found["n"] != len(seen) or (
                version is not None and self._version_now(conn, owner_id) != version
            ):
                problem = refuse(self.events(owner_id))
            if problem:
                return Appended("refused", problem)
            seq = self.insert(owner_id, entries)
            self._kept(conn, owner_id, summarise(), seq)
            made = self._version_now(conn, owner_id)
        return Appended("recorded", version=made)

    def _append_if_unchanged(
        self,
        owner_id: str,
        entries: Sequence[Entry],
        length: int,
        summarise: Callable[[], Any],
        version: str | None = None,
    ) -> tuple[bool, str | None]:
        """Insert the events if the first id is new and the owner still has ``length`` events
        (and, with ``version``, its log is still at that version): whether they went in, and
        the log's new version (``None`` when it has none).

        The check is in the first insert itself, and the write joins the process's next group
        commit (app/store/group_commit.py): under load the writes of many phones share one
        transaction and one sync to disk. What ``keep`` stores goes in the same transaction.
        """
        summary = summarise() if self._keep is not None else None
        stamp = now()
        (eid, kind, body), rest = entries[0], entries[1:]
        params = [*self._row(eid, owner_id, kind, body, stamp), eid, owner_id, length]
        insert = self._insert_unchanged
        if version is not None and self._insert_at_version is not None:
            insert, params = self._insert_at_version, [*params, owner_id, version]

        def write(connection: Connection) -> tuple[bool, str | None]:
            # Every statement on the leader's connection: it holds the shared transaction.
            conn = connection.db.conn
            cursor = conn.execute(insert, params)
            if cursor.rowcount != 1:
                return False, None
            seq = self.insert(owner_id, rest, stamp, conn) if rest else int(cursor.lastrowid or 0)
            self._kept(conn, owner_id, summary, seq)
            return True, self._version_now(conn, owner_id)

        return self._c.group.run(self._c, write)

    def _kept(self, conn: sqlite3.Connection, owner_id: str, summary: Any, seq: int) -> None:
        if summary is not None and self._keep is not None:
            self._keep(conn, owner_id, summary, seq)

    @staticmethod
    def _row(eid: str, owner_id: str, kind: str, body: dict[str, Any], stamp: str) -> list[Any]:
        return [eid, owner_id, kind, json.dumps(body, sort_keys=True), stamp]
