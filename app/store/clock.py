"""Game clocks: each game's clock taps, append-only, apart from the game's rules events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.store.connection import Connection, now
from app.store.event_log import Appended

# Judges a new tap against the game's taps so far: ``None`` to take it, else why not.
Judge = Callable[[list[dict[str, Any]]], str | None]


class Clocks:
    """The clock_events table: one row per tap, with the client's UUID and both times."""

    def __init__(self, connection: Connection) -> None:
        self._c = connection

    def taps(self, game_id: str) -> list[dict[str, Any]]:
        """The game's taps in the order they were received, as stored."""
        return self._c.query(
            "SELECT id, action, player, seconds, at, received FROM clock_events WHERE game_id = ? ORDER BY seq",
            [game_id],
        )

    def append(self, game_id: str, tap: dict[str, Any], judge: Judge) -> Appended:
        """Append one tap unless its id is already stored or ``judge`` objects, in one transaction.

        A tap is a touch at the table, seconds apart: one write lock for the check and the
        insert is cheap, and the judge always sees exactly the taps the new one follows.
        ``tap`` holds id, action, player, seconds and at (the client's time, or ``None``).
        """
        with self._c.immediate():
            found = self._c.query("SELECT game_id FROM clock_events WHERE id = ?", [tap["id"]])
            if found:
                if found[0]["game_id"] == game_id:
                    return Appended("duplicate")
                return Appended(
                    "refused", "id is already used by a tap of another game's clock; make a new UUID."
                )
            problem = judge(self.taps(game_id))
            if problem:
                return Appended("refused", problem)
            self._c.db.conn.execute(
                "INSERT INTO clock_events (id, game_id, action, player, seconds, at, received) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [tap["id"], game_id, tap["action"], tap["player"], tap["seconds"], tap["at"], now()],
            )
        return Appended("recorded")
