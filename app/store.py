"""SQLite through sqlite-utils: schema, migrations and the queries the app needs.

A game is stored as its set-up plus an append-only list of events; nothing derived from
the events is stored as truth. The one copy kept, a game's card for the club home (VP,
round, result), names the last event it folds and is used only while that is still the
log's last event (and the rulepack it was scored with is still installed).

Writes are transactions: an event is checked against the game's existing events and
inserted under one write lock, so two phones recording at once are serialised and neither
update is lost.
"""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from app.rules.army import fit_roster

migrations = Migrations("muster")

# The owner of club-wide terrain presets and saved sets (a phone's own are "phone:<hash>").
CLUB = "club"


@migrations()
def m001_games_and_events(db: Database) -> None:
    db["games"].create(
        {
            "id": str,
            "edit_token_hash": str,
            "pack": str,
            "scenario": str,
            "points_limit": int,
            "players": str,
            "created": str,
        },
        pk="id",
        not_null={"edit_token_hash", "pack", "scenario", "points_limit", "players", "created"},
    )
    db["events"].create(
        {"seq": int, "id": str, "game_id": str, "type": str, "body": str, "recorded": str},
        pk="seq",
        not_null={"id", "game_id", "type", "body", "recorded"},
        foreign_keys=[("game_id", "games", "id")],
    )
    db["events"].create_index(["id"], unique=True)
    db["events"].create_index(["game_id", "seq"])
    # The log is append-only: the database itself refuses to rewrite history.
    db.execute(
        "CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
        "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"
    )


@migrations()
def m002_rosters(db: Database) -> None:
    db["rosters"].create(
        {
            "id": str,
            "edit_token_hash": str,
            "pack": str,
            "body": str,
            "version": int,
            "created": str,
            "updated": str,
        },
        pk="id",
        not_null={"edit_token_hash", "pack", "body", "version", "created", "updated"},
    )
    db["rosters"].create_index(["updated"])
    # Custom entries typed at the table, offered again in later rosters of the same pack.
    db["custom_units"].create(
        {"pack": str, "key": str, "body": str, "uses": int, "updated": str},
        pk=("pack", "key"),
        not_null={"body", "uses", "updated"},
    )
    # Which roster a player of a game fields: a copy taken when it was attached.
    db["game_rosters"].create(
        {"seq": int, "game_id": str, "player": int, "roster_id": str, "snapshot": str, "attached": str},
        pk="seq",
        not_null={"game_id", "player", "roster_id", "snapshot", "attached"},
        foreign_keys=[("game_id", "games", "id")],
    )
    db["game_rosters"].create_index(["game_id", "seq"])


@migrations()
def m003_terrain(db: Database) -> None:
    # A game's terrain set: its pieces and agreement live in an append-only event list.
    db["terrain_sets"].create(
        {"id": str, "game_id": str, "pack": str, "created": str},
        pk="id",
        not_null={"game_id", "pack", "created"},
        foreign_keys=[("game_id", "games", "id")],
    )
    db["terrain_sets"].create_index(["game_id"], unique=True)
    db["terrain_events"].create(
        {"seq": int, "id": str, "set_id": str, "type": str, "body": str, "at": str},
        pk="seq",
        not_null={"id", "set_id", "type", "body", "at"},
        foreign_keys=[("set_id", "terrain_sets", "id")],
    )
    db["terrain_events"].create_index(["id"], unique=True)
    db["terrain_events"].create_index(["set_id", "seq"])
    db.execute(
        "CREATE TRIGGER terrain_events_no_update BEFORE UPDATE ON terrain_events "
        "BEGIN SELECT RAISE(ABORT, 'terrain events are append-only'); END"
    )
    # Sets saved for reuse at a club table, and players' own piece presets.
    db["terrain_library"].create(
        {"id": str, "pack": str, "name": str, "pieces": str, "created": str},
        pk="id",
        not_null={"pack", "name", "pieces", "created"},
    )
    db["terrain_presets"].create(
        {"pack": str, "name": str, "body": str, "updated": str},
        pk=("pack", "name"),
        not_null={"body", "updated"},
    )


@migrations()
def m004_club(db: Database) -> None:
    # Club night: a game can be archived off the home screen; failed admin logins are counted.
    db["games"].add_column("archived", str)
    db["login_failures"].create({"id": int, "address": str, "at": str}, pk="id", not_null={"address", "at"})
    db["login_failures"].create_index(["address", "at"])


@migrations()
def m005_games_by_night(db: Database) -> None:
    # The club home lists tonight's unarchived games, newest first, out of thousands.
    db["games"].create_index(["archived", "created"], if_not_exists=True)


@migrations()
def m006_summaries_and_admin_sessions(db: Database) -> None:
    # What the club home shows of a game (scores, round, result), kept as events arrive, with
    # the seq of the last event it folds: the home reads it instead of replaying every log.
    db["games"].add_column("summary", str)
    db["games"].add_column("summary_seq", int)
    # An admin login lives here, not only in its cookie, so logging out ends every copy.
    db["admin_sessions"].create(
        {"id_hash": str, "password_mark": str, "created": str},
        pk="id_hash",
        not_null={"password_mark", "created"},
    )


@migrations()
def m008_terrain_owners(db: Database) -> None:
    # What a phone saves (presets, sets for a table) is that phone's own; rows owned by "club"
    # are the club-wide ones only the admin writes. Rows saved before are kept as the club's,
    # where the admin can delete them.
    db["terrain_presets"].add_column("owner", str, not_null_default=CLUB)
    db["terrain_presets"].transform(pk=("pack", "owner", "name"))
    db["terrain_library"].add_column("owner", str, not_null_default=CLUB)
    db["terrain_library"].create_index(["pack", "owner", "created"], if_not_exists=True)


@migrations()
def m009_roster_limits_and_owners(db: Database) -> None:
    # A unit a player typed is remembered for the phone that typed it, not for the whole club:
    # rows from before have no phone and are offered to nobody.
    db["custom_units"].add_column("owner", str, not_null_default="")
    db["custom_units"].transform(pk=("pack", "owner", "key"))
    db["custom_units"].create_index(["pack", "owner", "uses"], if_not_exists=True)
    # Rosters stored before the limits on entries, names and notes are cut to them, so every
    # stored roster still opens.
    for row in db.query("SELECT id, body FROM rosters"):
        body = json.loads(row["body"])
        fitted = fit_roster(body)
        if fitted != body:
            db.execute("UPDATE rosters SET body = ? WHERE id = ?", [json.dumps(fitted), row["id"]])


@migrations()
def m010_roster_owners(db: Database) -> None:
    # Which phone made a roster, so a game screen offers a phone its own rosters to attach and
    # not every player's; rosters from before belong to no phone (their links still work).
    db["rosters"].add_column("owner", str)
    db["rosters"].create_index(["owner", "pack", "updated"], if_not_exists=True)


# How many rosters one phone's list shows, and how many typed units a phone keeps per pack.
ROSTERS_LISTED = 100
UNITS_KEPT = 200

BACKUP_FORMAT = "muster-backup/1"
# In the order they can be loaded (a table after the ones it refers to).
EXPORTED_TABLES = (
    "games",
    "events",
    "rosters",
    "custom_units",
    "game_rosters",
    "terrain_sets",
    "terrain_events",
    "terrain_library",
    "terrain_presets",
)


def check_backup(path: str | Path) -> str | None:
    """Why a file is not a Muster backup (one sentence), or ``None`` when it is one."""
    if not Path(path).is_file():
        return f"{path} is not a file."
    try:
        conn = sqlite3.connect(f"file:{Path(path)}?mode=ro", uri=True)
        try:
            ok = conn.execute("PRAGMA integrity_check").fetchone()[0]
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return f"{path} is not an SQLite database."
    if ok != "ok":
        return f"{path} fails SQLite's integrity check: {ok}."
    if not {"games", "events"} <= names:
        return f"{path} is not a Muster database (it has no games and events)."
    return None


def now() -> str:
    """The current UTC time as an ISO 8601 string, to the millisecond."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_game_id() -> str:
    """A random game id: 128 bits, 22 URL-safe characters."""
    return secrets.token_urlsafe(16)


def new_edit_token() -> str:
    """A random edit token: 192 bits, 32 URL-safe characters."""
    return secrets.token_urlsafe(24)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


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

    def setup_dict(self) -> dict[str, Any]:
        return {
            "pack": self.pack,
            "scenario": self.scenario,
            "points_limit": self.points_limit,
            "players": self.players,
        }


@dataclass(frozen=True)
class RosterRow:
    """A stored roster: its JSON body and the version each save increments."""

    id: str
    pack: str
    body: dict[str, Any]
    version: int
    created: str
    updated: str


@dataclass(frozen=True)
class Saved:
    """What became of a roster change: the roster now, and why not when it was not saved."""

    row: RosterRow | None
    problem: str | None = None
    conflict: bool = False


@dataclass(frozen=True)
class Appended:
    """What became of an event sent to :meth:`Store.append`."""

    status: str  # "recorded" | "duplicate" | "refused"
    error: str | None = None


class Store:
    """One connection to the Muster database."""

    def __init__(self, path: str | Path) -> None:
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

    @classmethod
    def initialise(cls, path: str | Path) -> None:
        """Create or migrate the database file and switch it to WAL mode."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        store = cls(path)
        try:
            store.db.enable_wal()
            migrations.apply(store.db)
        finally:
            store.close()

    def close(self) -> None:
        self.db.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    # --- backups ---------------------------------------------------------------------------
    def backup(self, target: str | Path) -> None:
        """Copy the whole database to ``target`` with SQLite's online backup (safe while serving)."""
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        out = sqlite3.connect(str(target))
        try:
            self.db.conn.backup(out)
        finally:
            out.close()

    def restore(self, source: str | Path) -> None:
        """Replace the whole database with a backup file, after checking that it is one."""
        problem = check_backup(source)
        if problem:
            raise ValueError(problem)
        src = sqlite3.connect(f"file:{Path(source)}?mode=ro", uri=True)
        try:
            src.backup(self.db.conn)
        finally:
            src.close()

    def export_all(self) -> dict[str, Any]:
        """Every table's rows as JSON (edit tokens only as their hashes)."""
        tables = {}
        for name in EXPORTED_TABLES:
            order = "seq" if "seq" in self.db[name].columns_dict else "rowid"
            tables[name] = list(self._query(f"SELECT * FROM [{name}] ORDER BY {order}"))  # noqa: S608
        return {"format": BACKUP_FORMAT, "exported": now(), "tables": tables}

    def import_all(self, data: dict[str, Any]) -> None:
        """Load an :meth:`export_all` dump into an empty database, all or nothing."""
        if not isinstance(data, dict) or data.get("format") != BACKUP_FORMAT:
            raise ValueError(f"format must be {BACKUP_FORMAT!r}: a file made by export-json.")
        if any(self.db[name].count for name in EXPORTED_TABLES):
            raise ValueError("The database is not empty; import into a new database file.")
        tables = data.get("tables") or {}
        with self._immediate():
            for name in EXPORTED_TABLES:
                rows = tables.get(name) or []
                if rows:
                    self.db[name].insert_all(rows)

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """The rows of a SELECT as dicts, straight from the connection.

        Every statement here is a plain read: sqlite-utils' ``query()`` would wrap each in a
        savepoint, two more calls into SQLite, which on the event path were a third of a query.
        """
        cursor = self.db.conn.execute(sql, params)
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor]

    @contextmanager
    def _immediate(self) -> Iterator[None]:
        """A write transaction that takes the lock at once, so checks and inserts agree.

        Writers first queue on a lock file: the kernel wakes the next one the moment the last
        commits, where SQLite's own busy handler sleeps and retries in steps of up to 100 ms,
        which under sixty phones turned a 1 ms write into a second's wait.
        """
        with self._writer():
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self.db.conn.rollback()
                raise
            else:
                self.db.conn.commit()

    @contextmanager
    def _writer(self) -> Iterator[None]:
        if self._lock_fd is None:
            yield
            return
        fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    # --- games ---------------------------------------------------------------------------
    def create_game(
        self,
        setup: dict[str, Any],
        game_id: str | None = None,
        created: str | None = None,
    ) -> tuple[str, str]:
        """Store a new game's set-up; return its id and its edit token."""
        game_id = game_id or new_game_id()
        token = new_edit_token()
        with self._immediate():
            self.db["games"].insert(
                {
                    "id": game_id,
                    "edit_token_hash": _hash(token),
                    "pack": setup["pack"],
                    "scenario": setup["scenario"],
                    "points_limit": setup["points_limit"],
                    "players": json.dumps(setup["players"]),
                    "created": created or now(),
                }
            )
        return game_id, token

    def import_game(
        self,
        setup: dict[str, Any],
        game_id: str,
        created: str,
        events: list[dict[str, Any]],
        summary: dict[str, Any] | None = None,
    ) -> str:
        """Store an exported game with its events as they were; return a new edit token.

        ``summary`` is what the club home shows of the game after all its events.
        """
        token = new_edit_token()
        with self._immediate():
            self.db["games"].insert(
                {
                    "id": game_id,
                    "edit_token_hash": _hash(token),
                    "pack": setup["pack"],
                    "scenario": setup["scenario"],
                    "points_limit": setup["points_limit"],
                    "players": json.dumps(setup["players"]),
                    "created": created,
                }
            )
            seq = None
            for event in events:
                body = {k: v for k, v in event.items() if k != "recorded"}
                seq = self._insert_event(game_id, body, event.get("recorded") or now())
            if summary is not None:
                self.db.execute(
                    "UPDATE games SET summary = ?, summary_seq = ? WHERE id = ?",
                    [json.dumps(summary), seq, game_id],
                )
        return token

    def game(self, game_id: str) -> GameRow | None:
        """The game's stored set-up, or ``None``."""
        rows = list(self._query("SELECT * FROM games WHERE id = ?", [game_id]))
        if not rows:
            return None
        return _game_row(rows[0])

    def game_for_edit(self, game_id: str, token: str | None) -> tuple[GameRow | None, bool]:
        """The game and whether ``token`` is its edit token, in one query (the write path's)."""
        rows = list(self._query("SELECT * FROM games WHERE id = ?", [game_id]))
        if not rows:
            return None, False
        ok = bool(token) and hmac.compare_digest(rows[0]["edit_token_hash"], _hash(token or ""))
        return _game_row(rows[0]), ok

    def game_exists(self, game_id: str) -> bool:
        return bool(list(self._query("SELECT 1 FROM games WHERE id = ?", [game_id])))

    def token_ok(self, game_id: str, token: str | None) -> bool:
        """Whether ``token`` is the game's edit token (compared in constant time)."""
        if not token:
            return False
        rows = list(self._query("SELECT edit_token_hash FROM games WHERE id = ?", [game_id]))
        return bool(rows) and hmac.compare_digest(rows[0]["edit_token_hash"], _hash(token))

    def recent_games(
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
        return [_game_row(r) for r in self._query(sql, [*params, limit])]

    def log(self, game_id: str) -> tuple[list[dict[str, Any]], int | None]:
        """The game's events in order and the seq of the last one (``None`` when there is none)."""
        rows = self._query("SELECT seq, body FROM events WHERE game_id = ? ORDER BY seq", [game_id])
        return [json.loads(r["body"]) for r in rows], (rows[-1]["seq"] if rows else None)

    def save_summary(self, game_id: str, summary: dict[str, Any], seq: int | None) -> None:
        """Keep what the home shows of a game as of the event ``seq``, unless a newer one is kept."""
        with self._writer():
            self.db.conn.execute(
                "UPDATE games SET summary = ?, summary_seq = ? WHERE id = ? "
                "AND (summary IS NULL OR coalesce(summary_seq, 0) <= coalesce(?, 0))",
                [json.dumps(summary), seq, game_id, seq],
            )

    def count_games(self) -> int:
        return int(next(iter(self._query("SELECT count(*) AS n FROM games")))["n"])

    def delete_game(self, game_id: str) -> bool:
        """Remove a game and everything recorded for it (admin only); ``False`` if there was none."""
        with self._immediate():
            if not self.game_exists(game_id):
                return False
            for set_row in self._query("SELECT id FROM terrain_sets WHERE game_id = ?", [game_id]):
                self.db.execute("DELETE FROM terrain_events WHERE set_id = ?", [set_row["id"]])
            self.db.execute("DELETE FROM terrain_sets WHERE game_id = ?", [game_id])
            self.db.execute("DELETE FROM game_rosters WHERE game_id = ?", [game_id])
            self.db.execute("DELETE FROM events WHERE game_id = ?", [game_id])
            self.db.execute("DELETE FROM games WHERE id = ?", [game_id])
        return True

    def archive_games(self, before: str | None = None) -> int:
        """Take every game not yet archived (created before a time, if given) off the home screen."""
        stamp = now()
        with self._immediate():
            cursor = self.db.execute(
                "UPDATE games SET archived = ? WHERE archived IS NULL AND created <= ?",
                [stamp, before or stamp],
            )
        return cursor.rowcount

    # --- admin logins ----------------------------------------------------------------------
    def claim_login_attempt(self, address: str, since: str, limit: int) -> int | None:
        """Count a login attempt from ``address`` if it made fewer than ``limit`` since ``since``.

        The count and the insert are one statement under the write lock, so a burst of
        simultaneous guesses cannot all pass the count before any is recorded. Returns the
        attempt's id (give it back with :meth:`forget_login_attempt` when the password was
        right), or ``None`` when the address must wait.
        """
        with self._writer():
            cursor = self.db.conn.execute(
                "INSERT INTO login_failures (address, at) SELECT ?, ? "
                "WHERE (SELECT count(*) FROM login_failures WHERE address = ? AND at >= ?) < ?",
                [address, now(), address, since, limit],
            )
        return cursor.lastrowid if cursor.rowcount == 1 else None

    def forget_login_attempt(self, attempt: int) -> None:
        """A right password does not count towards the address's limit."""
        with self._writer():
            self.db.conn.execute("DELETE FROM login_failures WHERE id = ?", [attempt])

    def start_admin_session(self, session_id: str, password_mark: str) -> None:
        """Record a new admin login (only a hash of its id is kept)."""
        with self._writer():
            self.db.conn.execute(
                "INSERT INTO admin_sessions (id_hash, password_mark, created) VALUES (?, ?, ?)",
                [_hash(session_id), password_mark, now()],
            )

    def admin_session_ok(self, session_id: str, password_mark: str, since: str) -> bool:
        """Whether the login is still open: not ended, not older than ``since``, same password."""
        rows = self._query(
            "SELECT password_mark FROM admin_sessions WHERE id_hash = ? AND created >= ?",
            [_hash(session_id), since],
        )
        return bool(rows) and hmac.compare_digest(rows[0]["password_mark"], password_mark)

    def end_admin_sessions(self, session_id: str | None = None, before: str | None = None) -> None:
        """End one admin login (every copy of its cookie), or every login older than ``before``."""
        with self._writer():
            if session_id is not None:
                self.db.conn.execute("DELETE FROM admin_sessions WHERE id_hash = ?", [_hash(session_id)])
            if before is not None:
                self.db.conn.execute("DELETE FROM admin_sessions WHERE created < ?", [before])

    # --- events --------------------------------------------------------------------------
    def events_exist(self, event_ids: list[str]) -> bool:
        """Whether any of these event ids is already recorded (in any game)."""
        for start in range(0, len(event_ids), 500):
            chunk = event_ids[start : start + 500]
            marks = ",".join("?" for _ in chunk)
            if list(self._query(f"SELECT 1 FROM events WHERE id IN ({marks}) LIMIT 1", chunk)):  # noqa: S608
                return True
        return False

    def events(self, game_id: str, with_time: bool = False) -> list[dict[str, Any]]:
        """The game's events in the order they were recorded."""
        rows = self._query("SELECT body, recorded FROM events WHERE game_id = ? ORDER BY seq", [game_id])
        out = []
        for row in rows:
            body = json.loads(row["body"])
            if with_time:
                body["recorded"] = row["recorded"]
            out.append(body)
        return out

    def append(
        self,
        game_id: str,
        event: dict[str, Any],
        refuse: Callable[[list[dict[str, Any]]], str | None],
        summarise: Callable[[], dict[str, Any] | None] = lambda: None,
    ) -> Appended:
        """Append one event unless its id is already recorded or ``refuse`` objects.

        ``refuse`` gets the game's current events and returns ``None`` to accept or a
        sentence saying why not. It is first asked outside the write lock, so that the lock
        is held only to insert; if another event arrived meanwhile it is asked again inside
        the lock, so it always judges exactly the events the new one follows. ``summarise``,
        asked after ``refuse`` accepted, gives the game's summary with the event (or ``None``),
        stored in the same transaction.
        """
        seen = self.events(game_id)
        # A replayed id is found inside the lock below; judging it first costs only a replay.
        problem = refuse(seen)
        if problem is None and self._append_if_unchanged(game_id, event, len(seen), summarise()):
            return Appended("recorded")
        with self._immediate():
            found = next(
                iter(
                    self._query(
                        "SELECT (SELECT game_id FROM events WHERE id = ?) AS owner, "
                        "(SELECT count(*) FROM events WHERE game_id = ?) AS n",
                        [event["id"], game_id],
                    )
                )
            )
            if found["owner"] is not None:
                if found["owner"] == game_id:
                    return Appended("duplicate")
                return Appended("refused", "id is already used by an event of another game; make a new UUID.")
            if found["n"] != len(seen):
                problem = refuse(self.events(game_id))
            if problem:
                return Appended("refused", problem)
            seq = self._insert_event(game_id, event, now())
            self._set_summary(game_id, summarise(), seq)
        return Appended("recorded")

    # --- rosters -------------------------------------------------------------------------
    def create_roster(self, pack: str, body: dict[str, Any], phone: str | None = None) -> tuple[str, str]:
        """Store a new roster; return its id and its edit token.

        ``phone`` is the id of the phone that made it: its entries are remembered for that
        phone only (none are remembered without one).
        """
        roster_id, token, stamp = new_game_id(), new_edit_token(), now()
        with self._immediate():
            self.db["rosters"].insert(
                {
                    "id": roster_id,
                    "edit_token_hash": _hash(token),
                    "pack": pack,
                    "body": json.dumps(body),
                    "version": 1,
                    "created": stamp,
                    "updated": stamp,
                    "owner": phone,
                }
            )
            self._remember(pack, phone, body.get("entries", []))
        return roster_id, token

    def roster(self, roster_id: str) -> RosterRow | None:
        """The stored roster, or ``None``."""
        rows = list(self._query("SELECT * FROM rosters WHERE id = ?", [roster_id]))
        return _roster_row(rows[0]) if rows else None

    def roster_token_ok(self, roster_id: str, token: str | None) -> bool:
        """Whether ``token`` is the roster's edit token (compared in constant time)."""
        if not token:
            return False
        rows = list(self._query("SELECT edit_token_hash FROM rosters WHERE id = ?", [roster_id]))
        return bool(rows) and hmac.compare_digest(rows[0]["edit_token_hash"], _hash(token))

    def update_roster(
        self,
        roster_id: str,
        change: Callable[[dict[str, Any]], dict[str, Any] | str],
        version: int | None = None,
        phone: str | None = None,
    ) -> Saved:
        """Apply ``change`` to the roster's body and save it, in one transaction.

        ``change`` returns the new body or a sentence refusing the change. When ``version``
        is given and the roster has been saved since, nothing is written: the other save is
        never overwritten unseen. The entries are remembered for ``phone``, if given.
        """
        with self._immediate():
            current = self.roster(roster_id)
            if current is None:
                return Saved(None, "There is no such roster.")
            if version is not None and version != current.version:
                return Saved(
                    current,
                    "The roster was changed on another screen; reload it to see the change first.",
                    True,
                )
            body = change(current.body)
            if isinstance(body, str):
                return Saved(current, body)
            self.db.execute(
                "UPDATE rosters SET body = ?, version = version + 1, updated = ? WHERE id = ?",
                [json.dumps(body), now(), roster_id],
            )
            self._remember(current.pack, phone, body.get("entries", []))
        return Saved(self.roster(roster_id))

    def phone_rosters(self, phone: str | None, pack: str, limit: int = 30) -> list[RosterRow]:
        """The rosters this phone made in a pack, the most recently saved first."""
        if not phone:
            return []
        rows = self._query(
            "SELECT * FROM rosters WHERE owner = ? AND pack = ? ORDER BY updated DESC LIMIT ?",
            [phone, pack, limit],
        )
        return [_roster_row(r) for r in rows]

    def rosters_by_id(self, ids: Sequence[str], tokens: dict[str, str] | None = None) -> list[RosterRow]:
        """The stored rosters among ``ids``, the most recently saved first.

        With ``tokens`` (``{roster id: edit token}``), only those whose token is right.
        """
        ids = list(dict.fromkeys(ids))[:ROSTERS_LISTED]
        if not ids:
            return []
        rows = self._query(
            "SELECT * FROM rosters WHERE id IN (SELECT value FROM json_each(?)) ORDER BY updated DESC",
            [json.dumps(ids)],
        )
        if tokens is not None:
            rows = [
                r for r in rows if hmac.compare_digest(r["edit_token_hash"], _hash(tokens.get(r["id"], "")))
            ]
        return [_roster_row(r) for r in rows]

    def _remember(self, pack: str, phone: str | None, entries: list[dict[str, Any]]) -> None:
        if not phone:
            return
        owner, stamp = _hash(phone), now()
        # A unit repeated in one roster is one use: a list of 100 copies outweighs nothing.
        bodies: dict[str, dict[str, Any]] = {}
        for entry in entries:
            if not isinstance(entry, dict) or not entry.get("name"):
                continue
            body = {
                k: v
                for k, v in entry.items()
                if k not in ("uid", "general", "command_trait", "enhancements", "notes")
            }
            bodies[f"{body.get('kind', '')}:{str(body['name']).casefold()}"] = body
        for key, body in bodies.items():
            self.db.execute(
                "INSERT INTO custom_units (pack, owner, key, body, uses, updated) VALUES (?, ?, ?, ?, 1, ?) "
                "ON CONFLICT (pack, owner, key) DO UPDATE SET body = excluded.body, uses = uses + 1, "
                "updated = excluded.updated",
                [pack, owner, key, json.dumps(body), stamp],
            )
        # A phone keeps its most used units; the rest of a flood is forgotten.
        self.db.execute(
            "DELETE FROM custom_units WHERE pack = ? AND owner = ? AND key NOT IN ("
            "SELECT key FROM custom_units WHERE pack = ? AND owner = ? "
            "ORDER BY uses DESC, updated DESC LIMIT ?)",
            [pack, owner, pack, owner, UNITS_KEPT],
        )

    def custom_units(self, pack: str, phone: str | None, limit: int = 200) -> list[dict[str, Any]]:
        """Entries this phone typed in its earlier rosters of this pack, the most used first."""
        if not phone:
            return []
        rows = self._query(
            "SELECT body FROM custom_units WHERE pack = ? AND owner = ? "
            "ORDER BY uses DESC, updated DESC LIMIT ?",
            [pack, _hash(phone), limit],
        )
        return [json.loads(r["body"]) for r in rows]

    def attach_roster(self, game_id: str, player: int, roster_id: str, snapshot: dict[str, Any]) -> None:
        """Record that a player of a game fields this roster (a copy of it as it is now)."""
        with self._immediate():
            self.db["game_rosters"].insert(
                {
                    "game_id": game_id,
                    "player": player,
                    "roster_id": roster_id,
                    "snapshot": json.dumps(snapshot),
                    "attached": now(),
                }
            )

    def game_rosters(self, game_id: str) -> dict[int, dict[str, Any]]:
        """Each player's latest attached roster: ``{player: {"roster_id", "roster", "attached"}}``."""
        out: dict[int, dict[str, Any]] = {}
        for row in self._query("SELECT * FROM game_rosters WHERE game_id = ? ORDER BY seq", [game_id]):
            out[row["player"]] = {
                "roster_id": row["roster_id"],
                "roster": json.loads(row["snapshot"]),
                "attached": row["attached"],
            }
        return out

    # --- terrain -------------------------------------------------------------------------
    def terrain_set(self, game_id: str, pack: str) -> str:
        """The id of the game's terrain set, made on first use."""
        with self._immediate():
            rows = list(self._query("SELECT id FROM terrain_sets WHERE game_id = ?", [game_id]))
            if rows:
                return rows[0]["id"]
            set_id = new_game_id()
            self.db["terrain_sets"].insert({"id": set_id, "game_id": game_id, "pack": pack, "created": now()})
            return set_id

    def find_terrain_set(self, game_id: str) -> str | None:
        """The id of the game's terrain set, if it has one (makes none)."""
        rows = list(self._query("SELECT id FROM terrain_sets WHERE game_id = ?", [game_id]))
        return rows[0]["id"] if rows else None

    def terrain_events(self, set_id: str) -> list[dict[str, Any]]:
        """The set's events in order, each with its type, time and body fields."""
        rows = self._query(
            "SELECT id, type, body, at FROM terrain_events WHERE set_id = ? ORDER BY seq", [set_id]
        )
        return [{"id": r["id"], "type": r["type"], "at": r["at"], **json.loads(r["body"])} for r in rows]

    def append_terrain(
        self,
        set_id: str,
        entries: list[tuple[str, str, dict[str, Any]]],
        refuse: Callable[[list[dict[str, Any]]], str | None],
    ) -> Appended:
        """Append terrain events ``(id, type, body)`` together, unless known or ``refuse`` objects.

        One transaction and one check for the lot: adding a saved set of sixty pieces costs one
        read of the set, not sixty. A first id already stored means a double tap: nothing is added.
        """
        if not entries:
            return Appended("recorded")
        with self._immediate():
            if list(self._query("SELECT 1 FROM terrain_events WHERE id = ?", [entries[0][0]])):
                return Appended("duplicate")
            problem = refuse(self.terrain_events(set_id))
            if problem:
                return Appended("refused", problem)
            at = now()
            self.db.conn.executemany(
                "INSERT INTO terrain_events (id, set_id, type, body, at) VALUES (?, ?, ?, ?, ?)",
                [(eid, set_id, kind, json.dumps(body, sort_keys=True), at) for eid, kind, body in entries],
            )
        return Appended("recorded")

    def save_terrain_library(
        self, pack: str, owner: str, name: str, pieces: list[dict[str, Any]], most: int
    ) -> str | None:
        """Keep a set of pieces under a name (replacing the owner's set of that name); its id.

        ``None`` when the owner already keeps ``most`` sets of other names.
        """
        with self._immediate():
            same = self._query(
                "SELECT id FROM terrain_library WHERE pack = ? AND owner = ? AND name = ?",
                [pack, owner, name],
            )
            if same:
                self.db.execute("DELETE FROM terrain_library WHERE id = ?", [same[0]["id"]])
            else:
                count = self._query(
                    "SELECT count(*) AS n FROM terrain_library WHERE pack = ? AND owner = ?", [pack, owner]
                )[0]["n"]
                if count >= most:
                    return None
            lib_id = new_game_id()
            self.db.execute(
                "INSERT INTO terrain_library (id, pack, owner, name, pieces, created) VALUES (?, ?, ?, ?, ?, ?)",
                [lib_id, pack, owner, name, json.dumps(pieces), now()],
            )
        return lib_id

    def terrain_library(self, pack: str, owners: Sequence[str], limit: int) -> list[dict[str, Any]]:
        """The saved sets of a pack these owners keep, club-wide first, then newest first."""
        marks = ", ".join("?" for _ in owners)
        rows = self._query(
            f"SELECT * FROM terrain_library WHERE pack = ? AND owner IN ({marks}) "  # noqa: S608
            "ORDER BY owner = ? DESC, created DESC LIMIT ?",
            [pack, *owners, CLUB, limit],
        )
        return [{**r, "pieces": json.loads(r["pieces"])} for r in rows]

    def delete_terrain_library(self, lib_id: str, owner: str) -> bool:
        """Forget a saved set, if this owner keeps it."""
        with self._immediate():
            cursor = self.db.execute(
                "DELETE FROM terrain_library WHERE id = ? AND owner = ?", [lib_id, owner]
            )
        return cursor.rowcount > 0

    def save_terrain_preset(self, pack: str, owner: str, piece: dict[str, Any], most: int) -> bool:
        """Remember a piece as the owner's preset (by name, the newest wins); ``False`` when full."""
        body = {k: v for k, v in piece.items() if k not in ("uid", "x", "y", "mysterious")}
        with self._immediate():
            known = self._query(
                "SELECT 1 FROM terrain_presets WHERE pack = ? AND owner = ? AND name = ?",
                [pack, owner, body["name"]],
            )
            if not known:
                count = self._query(
                    "SELECT count(*) AS n FROM terrain_presets WHERE pack = ? AND owner = ?", [pack, owner]
                )[0]["n"]
                if count >= most:
                    return False
            self.db.execute(
                "INSERT INTO terrain_presets (pack, owner, name, body, updated) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (pack, owner, name) DO UPDATE SET body = excluded.body, updated = excluded.updated",
                [pack, owner, body["name"], json.dumps(body), now()],
            )
        return True

    def terrain_presets(self, pack: str, owners: Sequence[str], limit: int) -> list[dict[str, Any]]:
        """The presets of a pack these owners keep, club-wide first, each by name."""
        marks = ", ".join("?" for _ in owners)
        rows = self._query(
            f"SELECT owner, body FROM terrain_presets WHERE pack = ? AND owner IN ({marks}) "  # noqa: S608
            "ORDER BY owner = ? DESC, name LIMIT ?",
            [pack, *owners, CLUB, limit],
        )
        return [{**json.loads(r["body"]), "owner": r["owner"]} for r in rows]

    def delete_terrain_preset(self, pack: str, owner: str, name: str) -> bool:
        """Forget one preset of this owner."""
        with self._immediate():
            cursor = self.db.execute(
                "DELETE FROM terrain_presets WHERE pack = ? AND owner = ? AND name = ?", [pack, owner, name]
            )
        return cursor.rowcount > 0

    def _append_if_unchanged(
        self, game_id: str, event: dict[str, Any], length: int, summary: dict[str, Any] | None
    ) -> bool:
        """Insert the event if its id is new and the game still has ``length`` events.

        The insert is one statement that checks as it writes, so the write lock is held for
        few calls into SQLite: under load every extra step inside the lock is another wait
        for Python's GIL while all other writers queue. The summary goes in the same
        transaction (one sync to disk for both).
        """
        summary_json = json.dumps(summary) if summary is not None else None
        insert = (
            "INSERT INTO events (id, game_id, type, body, recorded) SELECT ?, ?, ?, ?, ? "
            "WHERE NOT EXISTS (SELECT 1 FROM events WHERE id = ?) "
            "AND (SELECT count(*) FROM events WHERE game_id = ?) = ?"
        )
        params = [event["id"], game_id, event["type"], json.dumps(event, sort_keys=True), now()]
        params += [event["id"], game_id, length]
        with self._writer():
            if summary_json is None:  # autocommitted: one call into SQLite
                return self.db.conn.execute(insert, params).rowcount == 1
            self.db.conn.execute("BEGIN IMMEDIATE")
            try:
                cursor = self.db.conn.execute(insert, params)
                inserted = cursor.rowcount == 1
                if inserted:
                    self.db.conn.execute(
                        "UPDATE games SET summary = ?, summary_seq = ? WHERE id = ?",
                        [summary_json, cursor.lastrowid, game_id],
                    )
            except BaseException:
                self.db.conn.rollback()
                raise
            self.db.conn.commit()
        return inserted

    def _set_summary(self, game_id: str, summary: dict[str, Any] | None, seq: int) -> None:
        if summary is not None:
            self.db.execute(
                "UPDATE games SET summary = ?, summary_seq = ? WHERE id = ?",
                [json.dumps(summary), seq, game_id],
            )

    def _insert_event(self, game_id: str, event: dict[str, Any], recorded: str) -> int:
        cursor = self.db.conn.execute(
            "INSERT INTO events (id, game_id, type, body, recorded) VALUES (?, ?, ?, ?, ?)",
            [event["id"], game_id, event["type"], json.dumps(event, sort_keys=True), recorded],
        )
        return int(cursor.lastrowid or 0)


def _roster_row(row: dict[str, Any]) -> RosterRow:
    return RosterRow(
        id=row["id"],
        pack=row["pack"],
        body=json.loads(row["body"]),
        version=row["version"],
        created=row["created"],
        updated=row["updated"],
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
    )
