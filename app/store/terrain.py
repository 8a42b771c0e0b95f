"""Terrain: each game's terrain set with its log of changes, saved sets and piece presets."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from app.store.connection import Connection, new_id, now
from app.store.event_log import Appended, Entry, EventLog, Refuse

# The owner of club-wide terrain presets and saved sets (a phone's own are "phone:<hash>").
CLUB = "club"


class Terrain:
    """The terrain sets and their change log, the terrain library and the presets."""

    def __init__(self, connection: Connection) -> None:
        self._c = connection
        self._log = EventLog(
            connection,
            "terrain_events",
            owner="set_id",
            time="at",
            columns="id, type, at, body",
            decode=lambda row: {"id": row[0], "type": row[1], "at": row[2], **json.loads(row[3])},
        )

    # --- a game's set and its changes ------------------------------------------------------
    def get_or_create_set(self, game_id: str, pack: str) -> str:
        """The id of the game's terrain set, made on first use."""
        with self._c.immediate():
            rows = self._c.query("SELECT id FROM terrain_sets WHERE game_id = ?", [game_id])
            if rows:
                return rows[0]["id"]
            set_id = new_id()
            self._c.db["terrain_sets"].insert(
                {"id": set_id, "game_id": game_id, "pack": pack, "created": now()}
            )
            return set_id

    def find_set(self, game_id: str) -> str | None:
        """The id of the game's terrain set, if it has one (makes none)."""
        rows = self._c.query("SELECT id FROM terrain_sets WHERE game_id = ?", [game_id])
        return rows[0]["id"] if rows else None

    def events(self, set_id: str) -> list[dict[str, Any]]:
        """The set's events in order, each with its id, type, time and body fields."""
        return self._log.events(set_id)

    def append(self, set_id: str, entries: list[Entry], refuse: Refuse) -> Appended:
        """Append changes ``(id, type, body)`` together, unless the first id is known or ``refuse`` objects.

        One transaction and one check for the lot: adding a saved set of sixty pieces costs one
        read of the set, not sixty. A first id already stored means a double tap: nothing is added.
        """
        return self._log.append(set_id, entries, refuse)

    # --- the library: sets saved by name ---------------------------------------------------
    def save_to_library(
        self, pack: str, owner: str, name: str, pieces: list[dict[str, Any]], most: int
    ) -> str | None:
        """Keep a set of pieces under a name (replacing the owner's set of that name); its id.

        ``None`` when the owner already keeps ``most`` sets of other names.
        """
        with self._c.immediate():
            same = self._c.query(
                "SELECT id FROM terrain_library WHERE pack = ? AND owner = ? AND name = ?",
                [pack, owner, name],
            )
            if same:
                self._c.db.execute("DELETE FROM terrain_library WHERE id = ?", [same[0]["id"]])
            else:
                count = self._c.query(
                    "SELECT count(*) AS n FROM terrain_library WHERE pack = ? AND owner = ?", [pack, owner]
                )[0]["n"]
                if count >= most:
                    return None
            lib_id = new_id()
            self._c.db.execute(
                "INSERT INTO terrain_library (id, pack, owner, name, pieces, created) VALUES (?, ?, ?, ?, ?, ?)",
                [lib_id, pack, owner, name, json.dumps(pieces), now()],
            )
        return lib_id

    def library(self, pack: str, owners: Sequence[str], limit: int) -> list[dict[str, Any]]:
        """The saved sets of a pack these owners keep, club-wide first, then newest first."""
        rows = self._kept("* FROM terrain_library", pack, owners, "created DESC", limit)
        return [{**r, "pieces": json.loads(r["pieces"])} for r in rows]

    def delete_from_library(self, lib_id: str, owner: str) -> bool:
        """Forget a saved set, if this owner keeps it."""
        with self._c.immediate():
            cursor = self._c.db.execute(
                "DELETE FROM terrain_library WHERE id = ? AND owner = ?", [lib_id, owner]
            )
        return cursor.rowcount > 0

    # --- presets: single pieces kept by name -----------------------------------------------
    def save_preset(self, pack: str, owner: str, piece: dict[str, Any], most: int) -> bool:
        """Remember a piece as the owner's preset (by name, the newest wins); ``False`` when full."""
        body = {k: v for k, v in piece.items() if k not in ("uid", "x", "y", "mysterious")}
        with self._c.immediate():
            known = self._c.query(
                "SELECT 1 FROM terrain_presets WHERE pack = ? AND owner = ? AND name = ?",
                [pack, owner, body["name"]],
            )
            if not known:
                count = self._c.query(
                    "SELECT count(*) AS n FROM terrain_presets WHERE pack = ? AND owner = ?", [pack, owner]
                )[0]["n"]
                if count >= most:
                    return False
            self._c.db.execute(
                "INSERT INTO terrain_presets (pack, owner, name, body, updated) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (pack, owner, name) DO UPDATE SET body = excluded.body, updated = excluded.updated",
                [pack, owner, body["name"], json.dumps(body), now()],
            )
        return True

    def presets(self, pack: str, owners: Sequence[str], limit: int) -> list[dict[str, Any]]:
        """The presets of a pack these owners keep, club-wide first, each by name."""
        rows = self._kept("owner, body FROM terrain_presets", pack, owners, "name", limit)
        return [{**json.loads(r["body"]), "owner": r["owner"]} for r in rows]

    def _kept(
        self, what: str, pack: str, owners: Sequence[str], then: str, limit: int
    ) -> list[dict[str, Any]]:
        """``what`` (its columns ``FROM`` its table) of a pack these owners keep: club-wide first,
        then in the order ``then`` names."""
        marks = ", ".join("?" for _ in owners)
        return self._c.query(
            f"SELECT {what} WHERE pack = ? AND owner IN ({marks}) ORDER BY owner = ? DESC, {then} LIMIT ?",
            [pack, *owners, CLUB, limit],
        )

    def delete_preset(self, pack: str, owner: str, name: str) -> bool:
        """Forget one preset of this owner."""
        with self._c.immediate():
            cursor = self._c.db.execute(
                "DELETE FROM terrain_presets WHERE pack = ? AND owner = ? AND name = ?", [pack, owner, name]
            )
        return cursor.rowcount > 0
