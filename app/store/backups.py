"""Backups: the whole database copied or restored, and every table dumped to JSON and loaded back."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from app.rules.speech import say
from app.store.connection import Connection, now

BACKUP_FORMAT = "muster-backup/1"
# In the order they can be loaded (a table after the ones it refers to).
EXPORTED_TABLES = (
    "games",
    "events",
    "clock_events",
    "rosters",
    "custom_units",
    "game_rosters",
    "game_seats",
    "terrain_sets",
    "terrain_events",
    "terrain_library",
    "terrain_presets",
    "club_events",
    "event_players",
    "event_rounds",
    "event_tables",
    "event_results",
    "event_rolloffs",
    "event_lists",
    "event_marks",
    "event_votes",
)


def check_backup(path: str | Path) -> str | None:
    """Why a file is not a Muster backup (one sentence), or ``None`` when it is one."""
    if not Path(path).is_file():
        return say("{path} is not a file.", path=path)
    try:
        conn = sqlite3.connect(f"file:{Path(path)}?mode=ro", uri=True)
        try:
            ok = conn.execute("PRAGMA integrity_check").fetchone()[0]
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return say("{path} is not an SQLite database.", path=path)
    if ok != "ok":
        return say("{path} fails SQLite's integrity check: {answer}.", path=path, answer=ok)
    if not {"games", "events"} <= names:
        return say("{path} is not a Muster database (it has no games and events).", path=path)
    return None


class Backups:
    """Copies of the whole database, as a file or as JSON."""

    def __init__(self, connection: Connection) -> None:
        self._c = connection

    def backup(self, target: str | Path) -> None:
        """Copy the whole database to ``target`` with SQLite's online backup (safe while serving)."""
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        out = sqlite3.connect(str(target))
        try:
            self._c.db.conn.backup(out)
        finally:
            out.close()

    def restore(self, source: str | Path) -> None:
        """Replace the whole database with a backup file, after checking that it is one."""
        problem = check_backup(source)
        if problem:
            raise ValueError(problem)
        src = sqlite3.connect(f"file:{Path(source)}?mode=ro", uri=True)
        try:
            src.backup(self._c.db.conn)
        finally:
            src.close()

    def export_all(self) -> dict[str, Any]:
        """Every table's rows as JSON (edit tokens only as their hashes)."""
        db = self._c.db
        tables = {}
        # One read transaction: every table as of the same moment, so each game's log version
        # (m018) is the version of the events written beside it.
        db.execute("BEGIN")
        try:
            for name in EXPORTED_TABLES:
                order = "seq" if "seq" in db[name].columns_dict else "rowid"
                tables[name] = self._c.query(f"SELECT * FROM [{name}] ORDER BY {order}")  # noqa: S608
        finally:
            db.conn.rollback()
        return {"format": BACKUP_FORMAT, "exported": now(), "tables": tables}

    def import_all(self, data: dict[str, Any]) -> None:
        """Load an :meth:`export_all` dump into an empty database, all or nothing."""
        if not isinstance(data, dict) or data.get("format") != BACKUP_FORMAT:
            raise ValueError(
                say("format must be {format}: a file made by export-json.", format=repr(BACKUP_FORMAT))
            )
        db = self._c.db
        if any(db[name].count for name in EXPORTED_TABLES):
            raise ValueError(say("The database is not empty; import into a new database file."))
        tables = data.get("tables") or {}
        with self._c.immediate():
            for name in EXPORTED_TABLES:
                rows = tables.get(name) or []
                if rows:
                    db[name].insert_all(rows)
            # Inserting the events gave each game a new log version (m018's trigger): each gets
            # back the one exported with it, which names the very log imported.
            for row in tables.get("games") or []:
                if isinstance(row, dict) and row.get("log_version") is not None:
                    db.execute(
                        "UPDATE games SET log_version = ? WHERE id = ?", [row["log_version"], row.get("id")]
                    )
