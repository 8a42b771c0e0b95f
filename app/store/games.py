"""Games: each a stored set-up and its append-only event log, plus its card for the club home.

Nothing derived from the events is stored as truth. The one copy kept, a game's card for
the club home (VP, round, result), names the last event it folds and is used only while that
is still the log's last event (and the rulepack it was scored with is still installed).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.store.connection import Connection, new_edit_token, new_id, now, token_hash, token_matches
from app.store.event_log import Appended, EventLog, Refuse
from app.store.seats import Seats


@dataclass(frozen=True)
class GameRow:
    """A stored game's set-up as plain data."""

    id: str
    pack: str
    scenario: str
    points_limit: int
    players: list[dict[str, Any]]
    created: str
    archived: str | None = None
    # The stored summary (see m006) when it folds the game's whole log, else None.
    summary: dict[str, Any] | None = None
    # The mark its event log had when the row was read (m018): another mark, another log.
    log_version: str | None = None

    def setup_dict(self) -> dict[str, Any]:
        return {
            "pack": self.pack,
            "scenario": self.scenario,
            "points_limit": self.points_limit,
            "players": self.players,
        }


class Games:
    """The games table and the game events log."""

    def __init__(self, connection: Connection) -> None:
        self._c = connection
        self.seats = Seats(connection)
        self._log = EventLog(
            connection,
            "events",
            owner="game_id",
            time="recorded",
            columns="body",
            decode=lambda row: json.loads(row[0]),
            keep=self._keep_summary,
            version="SELECT log_version FROM games WHERE id = ?",
        )

    def create(
        self,
        setup: dict[str, Any],
        game_id: str | None = None,
        created: str | None = None,
        seats: int = 0,
        table_phone: str | None = None,
    ) -> tuple[str, str]:
        """Store a new game's set-up; return its id and its edit token.

        ``seats`` players get a seat token each (read back with ``seats.tokens`` and the edit
        token); ``table_phone`` is the hash of the phone that made it, the only one shown them.
        """
        game_id = game_id or new_id()
        token = new_edit_token()
        with self._c.immediate():
            self._insert(setup, game_id, token, created or now())
            if seats:
                self.seats.insert(game_id, token, seats, table_phone)
        return game_id, token

    def import_game(
        self,
        setup: dict[str, Any],
        game_id: str,
        created: str,
        events: list[dict[str, Any]],
        summary: dict[str, Any] | None = None,
        seats: int = 0,
    ) -> str:
        """Store an exported game with its events as they were; return a new edit token
        (``seats`` players get new seat tokens: an export carries none).

        ``summary`` is what the club home shows of the game after all its events.
        """
        token = new_edit_token()
        with self._c.immediate():
            self._insert(setup, game_id, token, created)
            if seats:
                self.seats.insert(game_id, token, seats)
            seq = None
            for event in events:
                body = {k: v for k, v in event.items() if k != "recorded"}
                seq = self._log.insert(game_id, [(body["id"], body["type"], body)], event.get("recorded"))
            if summary is not None:
                self._c.db.execute(
                    "UPDATE games SET summary = ?, summary_seq = ? WHERE id = ?",
                    [json.dumps(summary), seq, game_id],
                )
        return token

    def _insert(self, setup: dict[str, Any], game_id: str, token: str, created: str) -> None:
        self._c.db["games"].insert(
            {
                "id": game_id,
                "edit_token_hash": token_hash(token),
                "pack": setup["pack"],
                "scenario": setup["scenario"],
                "points_limit": setup["points_limit"],
                "players": json.dumps(setup["players"]),
                "created": created,
            }
        )

    def get(self, game_id: str) -> GameRow | None:
        """The game's stored set-up, or ``None``."""
        rows = self._c.query("SELECT * FROM games WHERE id = ?", [game_id])
        return _game_row(rows[0]) if rows else None

    def get_many(self, game_ids: list[str]) -> dict[str, GameRow]:
        """The stored set-ups of these games, by id (one query; ids not found are left out)."""
        if not game_ids:
            return {}
        marks = ", ".join("?" for _ in game_ids)
        rows = self._c.query(f"SELECT * FROM games WHERE id IN ({marks})", list(game_ids))  # noqa: S608 - marks only
        return {row["id"]: _game_row(row) for row in rows}

    def get_for_edit(self, game_id: str, token: str | None) -> tuple[GameRow | None, bool]:
        """The game and whether ``token`` is its edit token, in one query (the write path's)."""
        rows = self._c.query("SELECT * FROM games WHERE id = ?", [game_id])
        if not rows:
            return None, False
        return _game_row(rows[0]), token_matches(rows[0]["edit_token_hash"], token)

    def exists(self, game_id: str) -> bool:
        """Whether there is a game with this id."""
        return bool(self._c.query("SELECT 1 FROM games WHERE id = ?", [game_id]))

    def token_ok(self, game_id: str, token: str | None) -> bool:
        """Whether ``token`` is the game's edit token (compared in constant time)."""
        if not token:
            return False
        rows = self._c.query("SELECT edit_token_hash FROM games WHERE id = ?", [game_id])
        return bool(rows) and token_matches(rows[0]["edit_token_hash"], token)

    def recent(
        self,
        limit: int = 50,
        since: str | None = None,
        before: str | None = None,
        archived: bool = False,
    ) -> list[GameRow]:
        """The newest games first, created in ``[since, before)`` when given; archived ones if asked."""
        where = ["1 = 1"]
        params: list[Any] = []
        if since:
            where.append("created >= ?")
            params.append(since)
        if before:
            where.append("created < ?")
            params.append(before)
        if not archived:
            where.append("archived IS NULL")
        # The summary counts only when it folds the log up to its last event (an index lookup).
        current = (
            "CASE WHEN summary_seq IS (SELECT max(seq) FROM events WHERE game_id = games.id) THEN summary END"
        )
        sql = f"SELECT *, {current} AS current_summary FROM games WHERE {' AND '.join(where)} ORDER BY created DESC, rowid DESC LIMIT ?"  # noqa: S608
        return [_game_row(r) for r in self._c.query(sql, [*params, limit])]

    def count(self) -> int:
        """How many games are stored, archived ones included."""
        return int(self._c.query("SELECT count(*) AS n FROM games")[0]["n"])

    def delete(self, game_id: str) -> bool:
        """Remove a game and everything recorded for it (admin only); ``False`` if there was none."""
        with self._c.immediate():
            if not self.exists(game_id):
                return False
            db = self._c.db
            for set_row in self._c.query("SELECT id FROM terrain_sets WHERE game_id = ?", [game_id]):
                db.execute("DELETE FROM terrain_events WHERE set_id = ?", [set_row["id"]])
            db.execute("DELETE FROM terrain_sets WHERE game_id = ?", [game_id])
            db.execute("DELETE FROM game_rosters WHERE game_id = ?", [game_id])
            self.seats.delete(game_id)
            db.execute("DELETE FROM clock_events WHERE game_id = ?", [game_id])
            db.execute("DELETE FROM events WHERE game_id = ?", [game_id])
            db.execute("DELETE FROM games WHERE id = ?", [game_id])
        return True

    def archive(self, before: str | None = None) -> int:
        """Take every game not yet archived (created before a time, if given) off the home screen."""
        stamp = now()
        with self._c.immediate():
            cursor = self._c.db.execute(
                "UPDATE games SET archived = ? WHERE archived IS NULL AND created <= ?",
                [stamp, before or stamp],
            )
        return cursor.rowcount

    # --- the event log ---------------------------------------------------------------------
    def events(self, game_id: str, with_time: bool = False) -> list[dict[str, Any]]:
        """The game's events in the order they were recorded (each with its time, if asked)."""
        if not with_time:
            return self._log.events(game_id)
        rows = self._c.query("SELECT body, recorded FROM events WHERE game_id = ? ORDER BY seq", [game_id])
        return [{**json.loads(row["body"]), "recorded": row["recorded"]} for row in rows]

    def versioned_events(self, game_id: str) -> tuple[list[dict[str, Any]], str | None]:
        """The game's events in order and the log version they are, read at the same moment."""
        return self._log.versioned(game_id)

    def log(self, game_id: str) -> tuple[list[dict[str, Any]], int | None]:
        """The game's events in order and the seq of the last one (``None`` when there is none)."""
        rows = self._c.query("SELECT seq, body FROM events WHERE game_id = ? ORDER BY seq", [game_id])
        return [json.loads(r["body"]) for r in rows], (rows[-1]["seq"] if rows else None)

    def mark_joined(self, game_id: str) -> None:
        """A second phone opened the game's join link: the first time is kept."""
        with self._c.writer():
            self._c.db.conn.execute(
                "UPDATE games SET joined = ? WHERE id = ? AND joined IS NULL", [now(), game_id]
            )

    def joined(self, game_id: str) -> bool:
        """Whether a second phone has opened the game's join link."""
        rows = self._c.query("SELECT joined FROM games WHERE id = ?", [game_id])
        return bool(rows and rows[0]["joined"])

    def log_length(self, game_id: str) -> int | None:
        """How many events the game's log holds (``None``: no such game); an index lookup."""
        if not self.exists(game_id):
            return None
        rows = self._c.query("SELECT count(*) AS n FROM events WHERE game_id = ?", [game_id])
        return int(rows[0]["n"])

    def events_exist(self, event_ids: list[str]) -> bool:
        """Whether any of these event ids is already recorded (in any game)."""
        for start in range(0, len(event_ids), 500):
            chunk = event_ids[start : start + 500]
            marks = ",".join("?" for _ in chunk)
            if self._c.query(f"SELECT 1 FROM events WHERE id IN ({marks}) LIMIT 1", chunk):  # noqa: S608
                return True
        return False

    def append(
        self,
        game_id: str,
        event: dict[str, Any],
        refuse: Refuse,
        summarise: Callable[[], dict[str, Any] | None] = lambda: None,
        seen: list[dict[str, Any]] | None = None,
        version: str | None = None,
    ) -> Appended:
        """Append one event unless its id is already recorded or ``refuse`` objects.

        ``summarise`` gives the game's card with the event (or ``None``), stored in the same
        transaction; see :meth:`EventLog.append` for how ``refuse`` is asked, and for ``seen``,
        the log as the caller kept it at the log version ``version`` (not read again).
        """

        def card() -> str | None:
            # Turned into JSON here, before the write lock is taken.
            summary = summarise()
            return None if summary is None else json.dumps(summary)

        # An event with no type is refused by ``refuse`` before anything is stored.
        return self._log.append(
            game_id, [(event["id"], event.get("type"), event)], refuse, card, seen, version
        )

    def save_summary(self, game_id: str, summary: dict[str, Any], seq: int | None) -> None:
        """Keep what the home shows of a game as of the event ``seq``, unless a newer one is kept."""
        with self._c.writer():
            self._c.db.conn.execute(
                "UPDATE games SET summary = ?, summary_seq = ? WHERE id = ? "
                "AND (summary IS NULL OR coalesce(summary_seq, 0) <= coalesce(?, 0))",
                [json.dumps(summary), seq, game_id, seq],
            )

    @staticmethod
    def _keep_summary(conn: sqlite3.Connection, game_id: str, summary_json: str, seq: int) -> None:
        conn.execute(
            "UPDATE games SET summary = ?, summary_seq = ? WHERE id = ?", [summary_json, seq, game_id]
        )


def _game_row(row: dict[str, Any]) -> GameRow:
    return GameRow(
        id=row["id"],
        pack=row["pack"],
        scenario=row["scenario"],
        points_limit=row["points_limit"],
        players=json.loads(row["players"]),
        created=row["created"],
        archived=row.get("archived"),
        summary=json.loads(row["current_summary"]) if row.get("current_summary") else None,
        log_version=row.get("log_version"),
    )
