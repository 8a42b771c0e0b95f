"""SQLite through sqlite-utils: schema, migrations and the queries the app needs.

A game is stored as its set-up plus an append-only list of events; nothing derived from
the events (VP, result) is ever written. Writes are transactions: an event is checked
against the game's existing events and inserted inside one ``BEGIN IMMEDIATE``, so two
phones recording at once are serialised and neither update is lost.
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

    def integrity(self) -> str:
        """SQLite's own integrity check: "ok" when the file is sound."""
        return str(next(iter(self._query("PRAGMA integrity_check")))["integrity_check"])

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
        self, setup: dict[str, Any], game_id: str, created: str, events: list[dict[str, Any]]
    ) -> str:
        """Store an exported game with its events as they were; return a new edit token."""
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
            for event in events:
                body = {k: v for k, v in event.items() if k != "recorded"}
                self._insert_event(game_id, body, event.get("recorded") or now())
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
        sql = f"SELECT * FROM games WHERE {' AND '.join(where)} ORDER BY created DESC, rowid DESC LIMIT ?"  # noqa: S608
        return [_game_row(r) for r in self._query(sql, [*params, limit])]

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

    def login_failures(self, address: str, since: str) -> int:
        rows = self._query(
            "SELECT count(*) AS n FROM login_failures WHERE address = ? AND at >= ?", [address, since]
        )
        return int(next(iter(rows))["n"])

    def record_login_failure(self, address: str) -> None:
        with self._immediate():
            self.db.execute("INSERT INTO login_failures (address, at) VALUES (?, ?)", [address, now()])

    def events_of(self, game_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
        """Events of several games at once, keyed by game id (for lists of live scores)."""
        out: dict[str, list[dict[str, Any]]] = {g: [] for g in game_ids}
        if not game_ids:
            return out
        marks = ",".join("?" for _ in game_ids)
        for row in self._query(
            f"SELECT game_id, body FROM events WHERE game_id IN ({marks}) ORDER BY seq",  # noqa: S608
            game_ids,
        ):
            out[row["game_id"]].append(json.loads(row["body"]))
        return out

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
    ) -> Appended:
        """Append one event unless its id is already recorded or ``refuse`` objects.

        ``refuse`` gets the game's current events and returns ``None`` to accept or a
        sentence saying why not. It is first asked outside the write lock, so that the lock
        is held only to insert; if another event arrived meanwhile it is asked again inside
        the lock, so it always judges exactly the events the new one follows.
        """
        seen = self.events(game_id)
        # A replayed id is found inside the lock below; judging it first costs only a replay.
        problem = refuse(seen)
        if problem is None and self._append_if_unchanged(game_id, event, len(seen)):
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
            self._insert_event(game_id, event, now())
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

    def recent_rosters(self, limit: int = 50, pack: str | None = None) -> list[RosterRow]:
        """The most recently saved rosters first, of one pack or all."""
        if pack:
            rows = self._query(
                "SELECT * FROM rosters WHERE pack = ? ORDER BY updated DESC LIMIT ?", [pack, limit]
            )
        else:
            rows = self._query("SELECT * FROM rosters ORDER BY updated DESC LIMIT ?", [limit])
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
        event_id: str,
        kind: str,
        body: dict[str, Any],
        refuse: Callable[[list[dict[str, Any]]], str | None],
    ) -> Appended:
        """Append one terrain event unless its id is known (a double tap) or ``refuse`` objects."""
        with self._immediate():
            if list(self._query("SELECT 1 FROM terrain_events WHERE id = ?", [event_id])):
                return Appended("duplicate")
            problem = refuse(self.terrain_events(set_id))
            if problem:
                return Appended("refused", problem)
            self.db.execute(
                "INSERT INTO terrain_events (id, set_id, type, body, at) VALUES (?, ?, ?, ?, ?)",
                [event_id, set_id, kind, json.dumps(body, sort_keys=True), now()],
            )
        return Appended("recorded")

    def save_terrain_library(self, pack: str, name: str, pieces: list[dict[str, Any]]) -> str:
        """Keep a set of pieces for reuse at a club table; return its id."""
        lib_id = new_game_id()
        with self._immediate():
            self.db["terrain_library"].insert(
                {"id": lib_id, "pack": pack, "name": name, "pieces": json.dumps(pieces), "created": now()}
            )
        return lib_id

    def terrain_library(self, pack: str) -> list[dict[str, Any]]:
        """Saved sets of a pack, newest first."""
        rows = self._query(
            "SELECT * FROM terrain_library WHERE pack = ? ORDER BY created DESC LIMIT 50", [pack]
        )
        return [{**r, "pieces": json.loads(r["pieces"])} for r in rows]

    def save_terrain_preset(self, pack: str, piece: dict[str, Any]) -> None:
        """Remember a piece as the players' own preset (by name, the newest wins)."""
        body = {k: v for k, v in piece.items() if k not in ("uid", "x", "y", "mysterious")}
        self.db.execute(
            "INSERT INTO terrain_presets (pack, name, body, updated) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (pack, name) DO UPDATE SET body = excluded.body, updated = excluded.updated",
            [pack, body["name"], json.dumps(body), now()],
        )

    def terrain_presets(self, pack: str) -> list[dict[str, Any]]:
        rows = self._query("SELECT body FROM terrain_presets WHERE pack = ? ORDER BY name", [pack])
        return [json.loads(r["body"]) for r in rows]

    def _append_if_unchanged(self, game_id: str, event: dict[str, Any], length: int) -> bool:
        """Insert the event if its id is new and the game still has ``length`` events.

        One autocommitted statement, so the write lock is held for a single call into SQLite:
        under load every extra step inside the lock is another wait for Python's GIL while
        all other writers queue.
        """
        with self._writer():
            cursor = self.db.conn.execute(
                "INSERT INTO events (id, game_id, type, body, recorded) SELECT ?, ?, ?, ?, ? "
                "WHERE NOT EXISTS (SELECT 1 FROM events WHERE id = ?) "
                "AND (SELECT count(*) FROM events WHERE game_id = ?) = ?",
                [
                    event["id"],
                    game_id,
                    event["type"],
                    json.dumps(event, sort_keys=True),
                    now(),
                    event["id"],
                    game_id,
                    length,
                ],
            )
        return cursor.rowcount == 1

    def _insert_event(self, game_id: str, event: dict[str, Any], recorded: str) -> None:
        self.db.execute(
            "INSERT INTO events (id, game_id, type, body, recorded) VALUES (?, ?, ?, ?, ?)",
            [event["id"], game_id, event["type"], json.dumps(event, sort_keys=True), recorded],
        )


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
    )
