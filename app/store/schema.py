"""The database's schema as numbered migrations, applied in order by sqlite-utils.

Their names and order are what an existing database file records in ``_sqlite_migrations``:
never rename, reorder or change one that has shipped; add the next instead.

A migration is frozen with it: it imports nothing from the live rules or services (whose
limits and wording move on), only what it needs copied below as it was when it shipped, so
an old database upgraded next year changes exactly as one upgraded the day it shipped.
"""

from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

migrations = Migrations("muster")

# --- frozen copies: what the migrations below used of the live code when they shipped ----

# The owner of club-wide terrain (app/store/terrain.py's CLUB when m008 shipped).
_CLUB = "club"

# m009's roster limits and text cleaning: app/rules/army.py's fit_roster and app/rules/text.py's
# clean_text as they were on 2026-12-01 (commit 0786b22).
_MAX_ENTRIES = 100
_MAX_NAME = 60
_MAX_NOTES = 300
_BIDI = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_CONTROLS = [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)]
_LINE_BREAKS = [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029]
_DROP = dict.fromkeys([*_BIDI, *_CONTROLS])
_NAME = {**_DROP, **dict.fromkeys([0x09, *_LINE_BREAKS], " ")}
_NOTES = {**_DROP, 0x09: "\t", 0x0A: "\n", **dict.fromkeys([0x0B, 0x0C, 0x85, 0x2028, 0x2029], "\n")}


def _m009_clean(text: str, *, notes: bool = False) -> str:
    if notes:
        return text.replace("\r\n", "\n").replace("\r", "\n").translate(_NOTES).strip()
    return " ".join(text.translate(_NAME).split())


def _m009_fit_roster(body: Any) -> Any:
    """A stored roster body cut to the limits m009 brought in: entries, names and notes."""
    if isinstance(body, list):
        return [_m009_fit_roster(item) for item in body]
    if not isinstance(body, dict):
        return body
    out: dict[str, Any] = {}
    for key, value in body.items():
        if key in ("name", "faction", "command_trait", "grand_strategy") and isinstance(value, str):
            out[key] = _m009_clean(value)[:_MAX_NAME]
        elif key == "notes" and isinstance(value, str):
            out[key] = _m009_clean(value, notes=True)[:_MAX_NOTES]
        elif key == "entries" and isinstance(value, list):
            out[key] = _m009_fit_roster(value[:_MAX_ENTRIES])
        elif key in ("officers", "retinue") and isinstance(value, list):
            out[key] = _m009_fit_roster(value)
        else:
            out[key] = value
    return out


# The append-only logs (m001's game events, m013's clock taps, m016's lists, marks and votes):
# the database itself refuses to rewrite them. Frozen like the copies above: the shipped
# migrations that call these must create exactly what they did.
def _append_only(db: Database, table: str, what: str) -> None:
    db.execute(
        f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{what} are append-only'); END"
    )


def _game_log(db: Database, table: str, columns: dict[str, type], not_null: set[str], what: str) -> None:
    """A game's append-only log: rows by ``seq``, each with its unique ``id``, read by game in order."""
    db[table].create(columns, pk="seq", not_null=not_null, foreign_keys=[("game_id", "games", "id")])
    db[table].create_index(["id"], unique=True)
    db[table].create_index(["game_id", "seq"])
    _append_only(db, table, what)


# --- the migrations ---------------------------------------------------------------------


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
    _game_log(
        db,
        "events",
        {"seq": int, "id": str, "game_id": str, "type": str, "body": str, "recorded": str},
        {"id", "game_id", "type", "body", "recorded"},
        "events",
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
    db["terrain_presets"].add_column("owner", str, not_null_default=_CLUB)
    db["terrain_presets"].transform(pk=("pack", "owner", "name"))
    db["terrain_library"].add_column("owner", str, not_null_default=_CLUB)
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
        fitted = _m009_fit_roster(body)
        if fitted != body:
            db.execute("UPDATE rosters SET body = ? WHERE id = ?", [json.dumps(fitted), row["id"]])


@migrations()
def m010_roster_owners(db: Database) -> None:
    # Which phone made a roster, so a game screen offers a phone its own rosters to attach and
    # not every player's; rosters from before belong to no phone (their links still work).
    db["rosters"].add_column("owner", str)
    db["rosters"].create_index(["owner", "pack", "updated"], if_not_exists=True)


@migrations()
def m013_clock(db: Database) -> None:
    # A game's clock: its taps (start, pass, pause, limit), append-only, apart from the game's
    # rules events so they never count toward its event limit nor meet undo. ``received`` is the
    # server's time, ``at`` the client's time of a tap replayed from a phone's outbox.
    _game_log(
        db,
        "clock_events",
        {
            "seq": int,
            "id": str,
            "game_id": str,
            "action": str,
            "player": int,
            "seconds": int,
            "at": str,
            "received": str,
        },
        {"id", "game_id", "action", "received"},
        "clock events",
    )


@migrations()
def m012_events(db: Database) -> None:
    # Club events: the event, its players, rounds, the tables of each round, results (a
    # correction is a new row; the newest row of a table counts) and recorded roll-offs.
    db["club_events"].create(
        {
            "id": str,
            "organiser_token_hash": str,
            "name": str,
            "pack": str,
            "points_limit": int,
            "rounds": int,
            "scenarios": str,
            "scoring": str,
            "round_minutes": int,
            "signup_open": int,
            "created": str,
        },
        pk="id",
        not_null={"organiser_token_hash", "name", "pack", "points_limit", "rounds", "scenarios", "scoring"},
    )
    db["event_players"].create(
        {
            "id": int,
            "event_id": str,
            "token_hash": str,
            "name": str,
            "club": str,
            "roster": str,
            "dropped": int,
            "created": str,
        },
        pk="id",
        not_null={"event_id", "token_hash", "name", "dropped", "created"},
        foreign_keys=[("event_id", "club_events", "id")],
    )
    db["event_players"].create_index(["event_id", "id"])
    db["event_rounds"].create(
        {"event_id": str, "number": int, "scenario": str, "paired": str, "started": str},
        pk=("event_id", "number"),
        not_null={"paired"},
        foreign_keys=[("event_id", "club_events", "id")],
    )
    db["event_tables"].create(
        {
            "id": int,
            "event_id": str,
            "round": int,
            "number": int,
            "player_a": int,
            "player_b": int,
            "game_id": str,
            "game_token": str,
        },
        pk="id",
        not_null={"event_id", "round", "player_a"},
        foreign_keys=[("event_id", "club_events", "id")],
    )
    db["event_tables"].create_index(["event_id", "round", "number"])
    db["event_results"].create(
        {
            "id": int,
            "event_id": str,
            "round": int,
            "table_no": int,
            "players": str,
            "winner": int,
            "vp_a": int,
            "vp_b": int,
            "source": str,
            "confirmed_a": str,
            "confirmed_b": str,
            "confirmed_organiser": str,
            "recorded": str,
        },
        pk="id",
        not_null={"event_id", "round", "table_no", "players", "vp_a", "vp_b", "source", "recorded"},
        foreign_keys=[("event_id", "club_events", "id")],
    )
    db["event_results"].create_index(["event_id", "round", "table_no", "id"])
    db["event_rolloffs"].create(
        {"id": int, "event_id": str, "players": str, "recorded": str},
        pk="id",
        not_null={"event_id", "players", "recorded"},
        foreign_keys=[("event_id", "club_events", "id")],
    )


@migrations()
def m011_seats(db: Database) -> None:
    # Games with secrets give each player a seat token. Stored as its hash (to check it) and
    # sealed with the game's edit token (so the table screen, which holds that token, can show
    # every seat's link again), never as itself.
    db["game_seats"].create(
        {"game_id": str, "player": int, "token_hash": str, "sealed": str},
        pk=("game_id", "player"),
        not_null={"token_hash", "sealed"},
        foreign_keys=[("game_id", "games", "id")],
    )


@migrations()
def m014_drafts(db: Database) -> None:
    # A form's answer kept for a while so that reloading its page shows it again (a pasted list
    # and its fixes in the import preview): post, redirect, get. Not part of any backup.
    db["drafts"].create(
        {"id_hash": str, "kind": str, "body": str, "created": str},
        pk="id_hash",
        not_null={"kind", "body", "created"},
    )
    db["drafts"].create_index(["created"])


@migrations()
def m015_seat_invites(db: Database) -> None:
    # The phone that created a game with seats is its table: only it shows the seats' links
    # (as a hash of its phone id, like every phone id Muster keeps). A seat's link, once
    # opened on a phone, is not shown again until the table invites that seat again.
    db["game_seats"].add_column("table_phone", str)
    db["game_seats"].add_column("taken", str)


@migrations()
def m016_event_settings(db: Database) -> None:
    # Club events to the ranking sites' standard (issue 31): each event's settings beyond its
    # scoring (tie-breaks, byes, late players, soft scores, lists, pairing) as JSON; players who
    # joined late (rounds already paired when they signed up), a spare player, check-in; bonus
    # points on a result; submitted lists (a snapshot of the roster, newest counts), the
    # organiser's painting marks (newest counts) and sportsmanship ballots (one per player).
    db["club_events"].add_column("settings", str)
    db["club_events"].add_column("lists_locked", str)
    # Events made before these settings keep the order they were published in: points, VP
    # difference, strength of schedule, roll-off; a bye a win with no VP.
    legacy = {"tie_breaks": ["points", "vp_diff", "sos", "roll_off"], "bye": {"points": None, "vp": 0}}
    db.execute("UPDATE club_events SET settings = ? WHERE settings IS NULL", [json.dumps(legacy)])
    db["event_players"].add_column("joined_after", int, not_null_default=0)
    db["event_players"].add_column("spare", int, not_null_default=0)
    db["event_players"].add_column("checked_in", str)
    db["event_results"].add_column("bonus_a", int, not_null_default=0)
    db["event_results"].add_column("bonus_b", int, not_null_default=0)
    db["event_lists"].create(
        {
            "id": int,
            "event_id": str,
            "player": int,
            "roster_id": str,
            "body": str,
            "verdict": str,
            "submitted": str,
        },
        pk="id",
        not_null={"event_id", "player", "roster_id", "body", "verdict", "submitted"},
        foreign_keys=[("event_id", "club_events", "id")],
    )
    db["event_lists"].create_index(["event_id", "player", "id"])
    db["event_marks"].create(
        {"id": int, "event_id": str, "player": int, "kind": str, "value": int, "recorded": str},
        pk="id",
        not_null={"event_id", "player", "kind", "value", "recorded"},
        foreign_keys=[("event_id", "club_events", "id")],
    )
    db["event_marks"].create_index(["event_id", "player", "kind", "id"])
    db["event_votes"].create(
        {"event_id": str, "voter": int, "player": int, "cast": str},
        pk=("event_id", "voter"),
        not_null={"player", "cast"},
        foreign_keys=[("event_id", "club_events", "id")],
    )
    for table in ("event_lists", "event_marks", "event_votes"):
        _append_only(db, table, table)


@migrations()
def m017_game_joined(db: Database) -> None:
    # When a second phone first opened a game's join link: until then the game screen opens
    # with the invite panel (issue 24 item 5).
    db["games"].add_column("joined", str)


@migrations()
def m018_game_log_version(db: Database) -> None:
    # A mark that changes with every event a game's log takes, whoever writes it: a worker's
    # kept replay of the game is used while the game row still holds the mark it was folded at,
    # so an event POST need not read and decode the whole log to know its kept state is
    # current. Random, not a count or a seq: a database restored from a backup (or a promoted
    # replica) can take other events at the same count and seq as the log a worker kept.
    db["games"].add_column("log_version", str)
    db.execute(
        "CREATE TRIGGER events_log_version AFTER INSERT ON events BEGIN "
        "UPDATE games SET log_version = lower(hex(randomblob(8))) WHERE id = NEW.game_id; END"
    )
    db.execute(
        "UPDATE games SET log_version = lower(hex(randomblob(8))) "
        "WHERE id IN (SELECT DISTINCT game_id FROM events)"
    )
