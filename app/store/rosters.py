"""Rosters: each a JSON body saved with a version, the units a phone typed, and game attachments."""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from app.store.connection import Connection, new_edit_token, new_id, now, row_as, token_hash, token_matches

# How many rosters one phone's list shows, and how many typed units a phone keeps per pack.
ROSTERS_LISTED = 100
UNITS_KEPT = 200


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


class Rosters:
    """The rosters, the custom units remembered per phone, and which roster a game's player fields."""

    def __init__(self, connection: Connection) -> None:
        self._c = connection

    def create(self, pack: str, body: dict[str, Any], phone: str | None = None) -> tuple[str, str]:
        """Store a new roster; return its id and its edit token.

        ``phone`` is the id of the phone that made it: its entries are remembered for that
        phone only (none are remembered without one).
        """
        roster_id, token, stamp = new_id(), new_edit_token(), now()
        with self._c.immediate():
            self._c.db["rosters"].insert(
                {
                    "id": roster_id,
                    "edit_token_hash": token_hash(token),
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

    def get(self, roster_id: str) -> RosterRow | None:
        """The stored roster, or ``None``."""
        rows = self._c.query("SELECT * FROM rosters WHERE id = ?", [roster_id])
        return _roster_row(rows[0]) if rows else None

    def token_ok(self, roster_id: str, token: str | None) -> bool:
        """Whether ``token`` is the roster's edit token (compared in constant time)."""
        if not token:
            return False
        rows = self._c.query("SELECT edit_token_hash FROM rosters WHERE id = ?", [roster_id])
        return bool(rows) and token_matches(rows[0]["edit_token_hash"], token)

    def update(
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
        with self._c.immediate():
            current = self.get(roster_id)
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
            self._c.db.execute(
                "UPDATE rosters SET body = ?, version = version + 1, updated = ? WHERE id = ?",
                [json.dumps(body), now(), roster_id],
            )
            self._remember(current.pack, phone, body.get("entries", []))
        return Saved(self.get(roster_id))

    def of_phone(self, phone: str | None, packs: Sequence[str], limit: int = 30) -> list[RosterRow]:
        """The rosters this phone made in any of ``packs``, the most recently saved first."""
        if not phone or not packs:
            return []
        rows = self._c.query(
            "SELECT * FROM rosters WHERE owner = ? AND pack IN (SELECT value FROM json_each(?)) "
            "ORDER BY updated DESC LIMIT ?",
            [phone, json.dumps(list(packs)), limit],
        )
        return [_roster_row(r) for r in rows]

    def by_ids(self, ids: Sequence[str], tokens: dict[str, str] | None = None) -> list[RosterRow]:
        """The stored rosters among ``ids``, the most recently saved first.

        With ``tokens`` (``{roster id: edit token}``), only those whose token is right.
        """
        ids = list(dict.fromkeys(ids))[:ROSTERS_LISTED]
        if not ids:
            return []
        rows = self._c.query(
            "SELECT * FROM rosters WHERE id IN (SELECT value FROM json_each(?)) ORDER BY updated DESC",
            [json.dumps(ids)],
        )
        if tokens is not None:
            rows = [r for r in rows if token_matches(r["edit_token_hash"], tokens.get(r["id"], ""))]
        return [_roster_row(r) for r in rows]

    def _remember(self, pack: str, phone: str | None, entries: list[dict[str, Any]]) -> None:
        if not phone:
            return
        owner, stamp = token_hash(phone), now()
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
            self._c.db.execute(
                "INSERT INTO custom_units (pack, owner, key, body, uses, updated) VALUES (?, ?, ?, ?, 1, ?) "
                "ON CONFLICT (pack, owner, key) DO UPDATE SET body = excluded.body, uses = uses + 1, "
                "updated = excluded.updated",
                [pack, owner, key, json.dumps(body), stamp],
            )
        # A phone keeps its most used units; the rest of a flood is forgotten.
        self._c.db.execute(
            "DELETE FROM custom_units WHERE pack = ? AND owner = ? AND key NOT IN ("
            "SELECT key FROM custom_units WHERE pack = ? AND owner = ? "
            "ORDER BY uses DESC, updated DESC LIMIT ?)",
            [pack, owner, pack, owner, UNITS_KEPT],
        )

    def custom_units(self, pack: str, phone: str | None, limit: int = 200) -> list[dict[str, Any]]:
        """Entries this phone typed in its earlier rosters of this pack, the most used first."""
        if not phone:
            return []
        rows = self._c.query(
            "SELECT body FROM custom_units WHERE pack = ? AND owner = ? "
            "ORDER BY uses DESC, updated DESC LIMIT ?",
            [pack, token_hash(phone), limit],
        )
        return [json.loads(r["body"]) for r in rows]

    def attach(self, game_id: str, player: int, roster_id: str, snapshot: dict[str, Any]) -> None:
        """Record that a player of a game fields this roster (a copy of it as it is now)."""
        with self._c.immediate():
            self._c.db["game_rosters"].insert(
                {
                    "game_id": game_id,
                    "player": player,
                    "roster_id": roster_id,
                    "snapshot": json.dumps(snapshot),
                    "attached": now(),
                }
            )

    def of_game(self, game_id: str) -> dict[int, dict[str, Any]]:
        """Each player's latest attached roster: ``{player: {"roster_id", "roster", "attached", "mark"}}``.

        ``mark`` is a hash of the roster as stored with the game: the same mark, the same roster.
        """
        out: dict[int, dict[str, Any]] = {}
        for row in self._c.query("SELECT * FROM game_rosters WHERE game_id = ? ORDER BY seq", [game_id]):
            mark, roster = _snapshot(row["snapshot"])
            out[row["player"]] = {
                "roster_id": row["roster_id"],
                "roster": roster,
                "attached": row["attached"],
                "mark": mark,
            }
        return out


# Attached rosters as read, by their stored text: every event POST and game page reads the
# game's attachments, and decoding and hashing two rosters was a tenth of a POST's CPU. The
# same text is the same roster, so its mark and parsed form are made once; the parsed roster
# is shared by every reader and changed by none.
_SNAPSHOTS_KEPT = 256  # two players of each of a club night's tables, with room to spare
_snapshots: OrderedDict[str, tuple[bytes, dict[str, Any]]] = OrderedDict()
_snapshots_lock = threading.Lock()


def _snapshot(text: str) -> tuple[bytes, dict[str, Any]]:
    """A stored roster snapshot's mark (a hash of its text) and its parsed form."""
    with _snapshots_lock:
        kept = _snapshots.get(text)
        if kept is not None:
            _snapshots.move_to_end(text)
            return kept
    made = (hashlib.sha256(text.encode()).digest(), json.loads(text))
    with _snapshots_lock:
        _snapshots[text] = made
        while len(_snapshots) > _SNAPSHOTS_KEPT:
            _snapshots.popitem(last=False)
    return made


def _roster_row(row: dict[str, Any]) -> RosterRow:
    return row_as(RosterRow, row, body=json.loads(row["body"]))
