"""SQLite through sqlite-utils: one module per aggregate over one shared connection.

``Store(path)`` opens the connection and gives each aggregate its part of the database:
``store.games`` (set-ups, event logs, the home's cards, export and import of a game),
``store.rosters`` (rosters, typed units, rosters attached to games), ``store.terrain``
(terrain sets and their change logs, saved sets, presets), ``store.backups`` (whole-database
copies and JSON dumps), ``store.admin`` (login attempts, admin sessions), ``store.clocks``
(each game's clock taps), ``store.club`` (club events: players, rounds, tables, results,
roll-offs) and ``store.drafts`` (form answers kept a day so a reload shows them again). Both event logs
append through one helper (app/store/event_log.py); the schema (its numbered migrations) is in app/store/schema.py.

Writes are transactions: an event is checked against the existing events and inserted under
one write lock, so two phones recording at once are serialised and neither update is lost.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from app.store.admin import Admin
from app.store.backups import Backups
from app.store.clock import Clocks
from app.store.club import Events
from app.store.connection import Connection
from app.store.drafts import Drafts
from app.store.games import GameRow, Games
from app.store.rosters import RosterRow, Rosters
from app.store.schema import migrations
from app.store.terrain import Terrain

__all__ = ["GameRow", "RosterRow", "Store"]


class Store:
    """One connection to the Muster database, and the aggregates that read and write through it."""

    def __init__(self, path: str | Path) -> None:
        self.connection = Connection(path)
        self.db = self.connection.db
        self.games = Games(self.connection)
        self.rosters = Rosters(self.connection)
        self.terrain = Terrain(self.connection)
        self.backups = Backups(self.connection)
        self.admin = Admin(self.connection)
        self.clocks = Clocks(self.connection)
        self.club = Events(self.connection)
        self.drafts = Drafts(self.connection)

    @classmethod
    def initialise(cls, path: str | Path) -> None:
        """Create or migrate the database file and switch it to WAL mode."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        store = cls(path)
        try:
            store.db.enable_wal()
            _migrate(store)
        finally:
            store.close()

    def close(self) -> None:
        """Close the connection."""
        self.connection.close()


def _migrate(store: Store, attempts: int = 5) -> None:
    # Under Litestream the server starts while Litestream writes its own tables: a migration
    # that began reading before that write cannot take the write lock, and SQLite refuses at
    # once ("database is locked") without waiting. The migrations already recorded are
    # skipped, so trying again a moment later is safe; any other error still stops the start.
    for attempt in range(attempts):
        try:
            migrations.apply(store.db)
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            time.sleep(0.5)
