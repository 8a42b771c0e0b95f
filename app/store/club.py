"""Club events: the event, its players, its rounds and tables, results and roll-offs.

Every change is one transaction under the store's write lock, so a re-pairing, a swap or a
result never meets a half-written round. Results are never rewritten: a correction is a new
row and the newest row of a table counts (confirmations are marked on the row they confirm).
Secrets (the organiser's and each player's token) are kept as hashes only; a table keeps
its game's edit token, which the players' phones are handed as their game link.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.store.connection import Connection, new_edit_token, new_id, now, row_as, token_hash, token_matches


@dataclass(frozen=True)
class EventRow:
    """A stored event's settings."""

    id: str
    name: str
    pack: str
    points_limit: int
    rounds: int
    scenarios: list[str]
    scoring: dict[str, int]
    round_minutes: int | None
    signup_open: bool
    created: str
    settings: dict[str, Any] | None = None
    lists_locked: str | None = None


@dataclass(frozen=True)
class PlayerRow:
    """A player of an event: ``joined_after`` counts the rounds already paired when they
    signed up (a late player missed them); a ``spare`` plays only to fill an odd round."""

    id: int
    name: str
    club: str | None
    roster: str | None
    dropped: bool
    joined_after: int = 0
    spare: bool = False
    checked_in: str | None = None


@dataclass(frozen=True)
class TableRow:
    """One table of a round (``player_b`` is ``None`` for the bye)."""

    id: int
    round: int
    number: int
    player_a: int
    player_b: int | None
    game_id: str | None
    game_token: str | None


def seating(number: int, a: int, b: int | None, game: tuple[str, str] | None) -> dict[str, Any]:
    """A table as a round's tables are stored (:meth:`Events.save_round`, :meth:`Events.swap`): its
    number, its players and its game's id and token (``b`` and ``game`` are ``None`` for the bye)."""
    game_id, game_token = (game[0], game[1]) if game else (None, None)
    return {"number": number, "player_a": a, "player_b": b, "game_id": game_id, "game_token": game_token}


@dataclass(frozen=True)
class ResultRow:
    """The newest result recorded for a table."""

    id: int
    round: int
    table_no: int
    players: tuple[int, int]
    winner: int | None
    vp: tuple[int, int]
    source: str
    confirmed: tuple[bool, bool]
    confirmed_organiser: bool
    recorded: str
    bonus: tuple[int, int] = (0, 0)

    @property
    def final(self) -> bool:
        """Whether the result counts: entered or confirmed by the organiser, or by both players."""
        return self.source == "organiser" or self.confirmed_organiser or all(self.confirmed)


@dataclass(frozen=True)
class RoundRow:
    """A paired round: its scenario, when it was paired and when the organiser started it."""

    number: int
    scenario: str
    paired: str
    started: str | None


@dataclass(frozen=True)
class ListRow:
    """A player's newest submitted list: the roster it came from, a copy of it then, and its
    verdict then (points, valid, problems)."""

    id: int
    player: int
    roster_id: str
    body: dict[str, Any]
    verdict: dict[str, Any]
    submitted: str


@dataclass
class Snapshot:
    """Everything stored of one event, read in one go."""

    event: EventRow
    players: list[PlayerRow] = field(default_factory=list)
    rounds: list[RoundRow] = field(default_factory=list)
    tables: list[TableRow] = field(default_factory=list)
    results: list[ResultRow] = field(default_factory=list)
    rolloffs: list[list[int]] = field(default_factory=list)
    lists: dict[int, ListRow] = field(default_factory=dict)
    marks: dict[int, dict[str, int]] = field(default_factory=dict)
    votes: dict[int, int] = field(default_factory=dict)  # voter -> the player they voted for


class Events:
    """The event tables."""

    def __init__(self, connection: Connection) -> None:
        self._c = connection

    # --- events -------------------------------------------------------------------------
    def create(self, settings: dict[str, Any]) -> tuple[str, str]:
        """Store a new event (sign-up open); return its id and the organiser's token."""
        event_id, token = new_id(), new_edit_token()
        with self._c.immediate():
            self._c.db["club_events"].insert(
                {
                    "id": event_id,
                    "organiser_token_hash": token_hash(token),
                    "name": settings["name"],
                    "pack": settings["pack"],
                    "points_limit": settings["points_limit"],
                    "rounds": settings["rounds"],
                    "scenarios": json.dumps(settings["scenarios"]),
                    "scoring": json.dumps(settings["scoring"]),
                    "settings": json.dumps(settings.get("settings") or {}),
                    "round_minutes": settings.get("round_minutes"),
                    "signup_open": 1,
                    "created": now(),
                }
            )
        return event_id, token

    def get(self, event_id: str) -> EventRow | None:
        """The event's settings, or ``None``."""
        rows = self._c.query("SELECT * FROM club_events WHERE id = ?", [event_id])
        return _event(rows[0]) if rows else None

    def organiser_ok(self, event_id: str, token: str | None) -> bool:
        """Whether ``token`` is the event's organiser token."""
        rows = self._c.query("SELECT organiser_token_hash FROM club_events WHERE id = ?", [event_id])
        return bool(rows) and token_matches(rows[0]["organiser_token_hash"], token)

    def set_signup(self, event_id: str, open_: bool) -> None:
        """Open or close self sign-up."""
        with self._c.immediate():
            self._c.db.execute("UPDATE club_events SET signup_open = ? WHERE id = ?", [int(open_), event_id])

    def recent(self, limit: int = 20) -> list[EventRow]:
        """The newest events, newest first."""
        rows = self._c.query("SELECT * FROM club_events ORDER BY created DESC LIMIT ?", [limit])
        return [_event(r) for r in rows]

    def snapshot(self, event_id: str) -> Snapshot | None:
        """The event with its players, rounds, tables, newest results and roll-offs."""
        event = self.get(event_id)
        if event is None:
            return None
        snap = Snapshot(event)
        q = self._c.query
        snap.players = [
            row_as(PlayerRow, r, dropped=bool(r["dropped"]), spare=bool(r["spare"]))
            for r in q("SELECT * FROM event_players WHERE event_id = ? ORDER BY id", [event_id])
        ]
        snap.rounds = [
            row_as(RoundRow, r)
            for r in q("SELECT * FROM event_rounds WHERE event_id = ? ORDER BY number", [event_id])
        ]
        snap.tables = [
            row_as(TableRow, r)
            for r in q("SELECT * FROM event_tables WHERE event_id = ? ORDER BY round, number", [event_id])
        ]
        newest = q(
            "SELECT * FROM event_results WHERE id IN (SELECT max(id) FROM event_results WHERE event_id = ? "
            "GROUP BY round, table_no) ORDER BY round, table_no",
            [event_id],
        )
        snap.results = [_result(r) for r in newest]
        snap.rolloffs = [
            json.loads(r["players"])
            for r in q("SELECT players FROM event_rolloffs WHERE event_id = ? ORDER BY id", [event_id])
        ]
        lists = q(
            "SELECT * FROM event_lists WHERE id IN (SELECT max(id) FROM event_lists WHERE event_id = ? "
            "GROUP BY player) ORDER BY player",
            [event_id],
        )
        snap.lists = {
            r["player"]: row_as(ListRow, r, body=json.loads(r["body"]), verdict=json.loads(r["verdict"]))
            for r in lists
        }
        marks = q(
            "SELECT player, kind, value FROM event_marks WHERE id IN (SELECT max(id) FROM event_marks "
            "WHERE event_id = ? GROUP BY player, kind)",
            [event_id],
        )
        for r in marks:
            snap.marks.setdefault(r["player"], {})[r["kind"]] = r["value"]
        snap.votes = {
            r["voter"]: r["player"]
            for r in q("SELECT voter, player FROM event_votes WHERE event_id = ? ORDER BY voter", [event_id])
        }
        return snap

    def history(self, event_id: str) -> list[dict[str, Any]]:
        """Every result row ever recorded, corrections included, oldest first (for the export)."""
        rows = self._c.query("SELECT * FROM event_results WHERE event_id = ? ORDER BY id", [event_id])
        return [{k: v for k, v in r.items() if k != "event_id"} for r in rows]

    # --- players ------------------------------------------------------------------------
    def add_player(
        self,
        event_id: str,
        name: str,
        club: str | None,
        roster: str | None,
        judge: Callable[[list[str]], str | None] | None = None,
        spare: bool = False,
    ) -> tuple[int, str] | str:
        """Sign a player up; return their id and their own token (their phone's link). The
        rounds paired so far are the ones a late player missed.

        ``judge`` is given the names already signed up, inside the transaction, so that two
        sign-ups at once are judged one after the other; the sentence it returns (if any) is
        returned instead and nobody is added.
        """
        token = new_edit_token()
        with self._c.immediate():
            if judge is not None:
                names = [
                    r["name"]
                    for r in self._c.query("SELECT name FROM event_players WHERE event_id = ?", [event_id])
                ]
                refusal = judge(names)
                if refusal is not None:
                    return refusal
            cursor = self._c.db.conn.execute(
                "INSERT INTO event_players (event_id, token_hash, name, club, roster, dropped, created, "
                "joined_after, spare) VALUES (?, ?, ?, ?, ?, 0, ?, "
                "(SELECT coalesce(max(number), 0) FROM event_rounds WHERE event_id = ?), ?)",
                [event_id, token_hash(token), name, club, roster, now(), event_id, int(spare)],
            )
        return int(cursor.lastrowid or 0), token

    def player_by_token(self, event_id: str, token: str | None) -> int | None:
        """The id of the event's player whose token this is, or ``None``."""
        if not token:
            return None
        rows = self._c.query(
            "SELECT id FROM event_players WHERE event_id = ? AND token_hash = ?",
            [event_id, token_hash(token)],
        )
        return rows[0]["id"] if rows else None

    def set_dropped(self, event_id: str, player: int, dropped: bool) -> None:
        """Drop a player from the next pairings, or bring them back."""
        with self._c.immediate():
            self._c.db.execute(
                "UPDATE event_players SET dropped = ? WHERE event_id = ? AND id = ?",
                [int(dropped), event_id, player],
            )

    # --- rounds -------------------------------------------------------------------------
    def save_round(
        self,
        event_id: str,
        number: int,
        scenario: str,
        tables: Sequence[dict[str, Any]],
        replace: bool = False,
    ) -> bool:
        """Store a round's tables (``replace``: instead of its present ones). ``False`` when the
        round changed meanwhile: a result arrived, it started, or another pairing got in first."""
        with self._c.immediate():
            exists = self._c.query(
                "SELECT started FROM event_rounds WHERE event_id = ? AND number = ?", [event_id, number]
            )
            if replace:
                results = self._c.query(
                    "SELECT 1 FROM event_results WHERE event_id = ? AND round = ? LIMIT 1", [event_id, number]
                )
                if not exists or results:
                    return False
                self._c.db.execute(
                    "DELETE FROM event_tables WHERE event_id = ? AND round = ?", [event_id, number]
                )
                self._c.db.execute(
                    "UPDATE event_rounds SET scenario = ?, paired = ? WHERE event_id = ? AND number = ?",
                    [scenario, now(), event_id, number],
                )
            else:
                last = self._c.query(
                    "SELECT max(number) AS n FROM event_rounds WHERE event_id = ?", [event_id]
                )
                if exists or (last[0]["n"] or 0) != number - 1:
                    return False
                self._c.db["event_rounds"].insert(
                    {
                        "event_id": event_id,
                        "number": number,
                        "scenario": scenario,
                        "paired": now(),
                        "started": None,
                    }
                )
            for table in tables:
                self._c.db["event_tables"].insert({"event_id": event_id, "round": number, **table})
        return True

    def swap(self, event_id: str, number: int, tables: Sequence[dict[str, Any]]) -> bool:
        """Replace the given tables of an unstarted round (by their number); ``False`` when it started."""
        with self._c.immediate():
            rows = self._c.query(
                "SELECT started FROM event_rounds WHERE event_id = ? AND number = ?", [event_id, number]
            )
            if not rows or rows[0]["started"]:
                return False
            for table in tables:
                self._c.db.execute(
                    "UPDATE event_tables SET player_a = ?, player_b = ?, game_id = ?, game_token = ? "
                    "WHERE event_id = ? AND round = ? AND number = ?",
                    [
                        table["player_a"],
                        table["player_b"],
                        table["game_id"],
                        table["game_token"],
                        event_id,
                        number,
                        table["number"],
                    ],
                )
        return True

    def start_round(self, event_id: str, number: int) -> None:
        """The organiser starts the round: its clock runs from now."""
        with self._c.immediate():
            self._c.db.execute(
                "UPDATE event_rounds SET started = ? WHERE event_id = ? AND number = ? AND started IS NULL",
                [now(), event_id, number],
            )

    # --- results ------------------------------------------------------------------------
    def add_result(
        self,
        event_id: str,
        round_: int,
        table_no: int,
        players: tuple[int, int],
        winner: int | None,
        vp: tuple[int, int],
        source: str,
        bonus: tuple[int, int] = (0, 0),
        only_first: bool = False,
    ) -> int:
        """Record a table's result (a new row: the newest counts); its id. With ``only_first`` (a
        finished game's result), only while the table has none: 0 when it has one."""
        with self._c.immediate():
            if only_first and self._c.query(
                "SELECT 1 FROM event_results WHERE event_id = ? AND round = ? AND table_no = ?",
                [event_id, round_, table_no],
            ):
                return 0
            cursor = self._c.db.conn.execute(
                "INSERT INTO event_results (event_id, round, table_no, players, winner, vp_a, vp_b, source, "
                "recorded, bonus_a, bonus_b) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    event_id,
                    round_,
                    table_no,
                    json.dumps(list(players)),
                    winner,
                    vp[0],
                    vp[1],
                    source,
                    now(),
                    bonus[0],
                    bonus[1],
                ],
            )
            return int(cursor.lastrowid or 0)

    def confirm(self, event_id: str, result_id: int, by: str) -> None:
        """Mark a result confirmed by ``a``, ``b`` or ``organiser`` (only the newest row of its table)."""
        column = {"a": "confirmed_a", "b": "confirmed_b", "organiser": "confirmed_organiser"}[by]
        with self._c.immediate():
            self._c.db.execute(
                f"UPDATE event_results SET {column} = coalesce({column}, ?) WHERE event_id = ? AND id = ?",  # noqa: S608
                [now(), event_id, result_id],
            )

    def archive_games(self, game_ids: Sequence[str]) -> None:
        """Take the games of a replaced pairing off the club home (kept, never deleted)."""
        with self._c.immediate():
            for game_id in game_ids:
                self._c.db.execute(
                    "UPDATE games SET archived = ? WHERE id = ? AND archived IS NULL", [now(), game_id]
                )

    # --- lists, check-in, soft scores -----------------------------------------------------
    def submit_list(
        self, event_id: str, player: int, roster_id: str, body: dict[str, Any], verdict: dict[str, Any]
    ) -> bool:
        """Keep a copy of a player's list as submitted (the newest counts); ``False`` when the
        organiser locked the lists meanwhile."""
        with self._c.immediate():
            locked = self._c.query("SELECT lists_locked FROM club_events WHERE id = ?", [event_id])
            if not locked or locked[0]["lists_locked"]:
                return False
            self._c.db.conn.execute(
                "INSERT INTO event_lists (event_id, player, roster_id, body, verdict, submitted) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [event_id, player, roster_id, json.dumps(body), json.dumps(verdict), now()],
            )
        return True

    def lock_lists(self, event_id: str, locked: bool) -> None:
        """Lock the lists (no more submissions) or open them again."""
        with self._c.immediate():
            self._c.db.execute(
                "UPDATE club_events SET lists_locked = ? WHERE id = ?", [now() if locked else None, event_id]
            )

    def check_in(self, event_id: str, player: int, present: bool) -> None:
        """Mark a player present (now) or not yet."""
        with self._c.immediate():
            self._c.db.execute(
                "UPDATE event_players SET checked_in = ? WHERE event_id = ? AND id = ?",
                [now() if present else None, event_id, player],
            )

    def change_player(
        self,
        event_id: str,
        player: int,
        dropped: bool | None = None,
        checked_in: bool | None = None,
        painting: int | None = None,
    ) -> None:
        """The organiser's changes to one player, in one transaction (``None``: left as it is)."""
        with self._c.immediate():
            if dropped is not None:
                self._c.db.execute(
                    "UPDATE event_players SET dropped = ? WHERE event_id = ? AND id = ?",
                    [int(dropped), event_id, player],
                )
            if checked_in is not None:
                self._c.db.execute(
                    "UPDATE event_players SET checked_in = ? WHERE event_id = ? AND id = ?",
                    [now() if checked_in else None, event_id, player],
                )
            if painting is not None:
                self._c.db["event_marks"].insert(
                    {
                        "event_id": event_id,
                        "player": player,
                        "kind": "painting",
                        "value": painting,
                        "recorded": now(),
                    }
                )

    def add_mark(self, event_id: str, player: int, kind: str, value: int) -> None:
        """Record an organiser's mark for a player (painting): a new row, the newest counts."""
        with self._c.immediate():
            self._c.db["event_marks"].insert(
                {"event_id": event_id, "player": player, "kind": kind, "value": value, "recorded": now()}
            )

    def cast_vote(self, event_id: str, voter: int, player: int) -> bool:
        """A player's one sportsmanship ballot; ``False`` when they had already voted."""
        with self._c.immediate():
            cursor = self._c.db.conn.execute(
                "INSERT OR IGNORE INTO event_votes (event_id, voter, player, cast) VALUES (?, ?, ?, ?)",
                [event_id, voter, player, now()],
            )
        return cursor.rowcount == 1

    def add_rolloff(self, event_id: str, order: Sequence[int]) -> None:
        """Record a roll-off among tied players, winner first."""
        with self._c.immediate():
            self._c.db["event_rolloffs"].insert(
                {"event_id": event_id, "players": json.dumps(list(order)), "recorded": now()}
            )


def _event(row: dict[str, Any]) -> EventRow:
    return row_as(
        EventRow,
        row,
        scenarios=json.loads(row["scenarios"]),
        scoring=json.loads(row["scoring"]),
        signup_open=bool(row["signup_open"]),
        settings=json.loads(row["settings"]) if row.get("settings") else None,
    )


def _result(row: dict[str, Any]) -> ResultRow:
    players = json.loads(row["players"])
    return ResultRow(
        row["id"],
        row["round"],
        row["table_no"],
        (players[0], players[1]),
        row["winner"],
        (row["vp_a"], row["vp_b"]),
        row["source"],
        (row["confirmed_a"] is not None, row["confirmed_b"] is not None),
        row["confirmed_organiser"] is not None,
        row["recorded"],
        (row.get("bonus_a") or 0, row.get("bonus_b") or 0),
    )
