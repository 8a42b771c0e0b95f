"""Seats: a token per player of a game with secrets, the key to that player's secrets.

A seat token is random like an edit token and stored the same way, as its SHA-256, compared
in constant time. Beside the hash sits the token sealed with the game's edit token (XOR with
an HMAC of the edit token), so that the table screen, which holds the edit token, can show
every seat's link and QR code again while the database alone gives no seat away.
"""

from __future__ import annotations

import hashlib
import hmac

from app.store.connection import Connection, new_edit_token, now, token_hash, token_matches


def _pad(edit_token: str, game_id: str, player: int, size: int) -> bytes:
    """The key stream that seals one seat: HMAC-SHA256 of the seat's place under the edit token."""
    digest = hmac.new(edit_token.encode(), f"seat/{game_id}/{player}".encode(), hashlib.sha256).digest()
    return digest[:size]


def seal(token: str, edit_token: str, game_id: str, player: int) -> str:
    """A seat token sealed with the game's edit token, as hex."""
    raw = token.encode()
    return bytes(a ^ b for a, b in zip(raw, _pad(edit_token, game_id, player, len(raw)), strict=True)).hex()


def unseal(sealed: str, edit_token: str, game_id: str, player: int) -> str | None:
    """The seat token back from its sealed form, or ``None`` when the edit token is not the key."""
    try:
        raw = bytes.fromhex(sealed)
        pad = _pad(edit_token, game_id, player, len(raw))
        return bytes(a ^ b for a, b in zip(raw, pad, strict=True)).decode("ascii")
    except (ValueError, UnicodeDecodeError):
        return None


class Seats:
    """The game_seats table: who holds which seat of a game."""

    def __init__(self, connection: Connection) -> None:
        self._c = connection

    def insert(self, game_id: str, edit_token: str, count: int, table_phone: str | None = None) -> list[str]:
        """Give each of ``count`` players a new seat token (inside the caller's transaction);
        ``table_phone`` is the hash of the phone that made the game, its table."""
        tokens = [new_edit_token() for _ in range(count)]
        self._c.db["game_seats"].insert_all(
            {
                "game_id": game_id,
                "player": player,
                "token_hash": token_hash(token),
                "sealed": seal(token, edit_token, game_id, player),
                "table_phone": table_phone,
                "taken": None,
            }
            for player, token in enumerate(tokens)
        )
        return tokens

    def is_table(self, game_id: str, phone_hash: str | None) -> bool:
        """Whether the phone of this hash made the game (it alone shows the seats' links)."""
        if not phone_hash:
            return False
        rows = self._c.query("SELECT table_phone FROM game_seats WHERE game_id = ? LIMIT 1", [game_id])
        return bool(rows and rows[0]["table_phone"]) and hmac.compare_digest(
            rows[0]["table_phone"], phone_hash
        )

    def taken(self, game_id: str) -> set[int]:
        """The players whose seat link has been opened on a phone (and not invited again since)."""
        rows = self._c.query(
            "SELECT player FROM game_seats WHERE game_id = ? AND taken IS NOT NULL", [game_id]
        )
        return {row["player"] for row in rows}

    def take(self, game_id: str, player: int) -> None:
        """A phone opened this seat's link: the table stops showing it."""
        with self._c.writer():
            self._c.db.conn.execute(
                "UPDATE game_seats SET taken = ? WHERE game_id = ? AND player = ? AND taken IS NULL",
                [now(), game_id, player],
            )

    def invite_again(self, game_id: str, player: int) -> None:
        """The table shows this seat's link again (a player's new phone, a lost tab)."""
        with self._c.writer():
            self._c.db.conn.execute(
                "UPDATE game_seats SET taken = NULL WHERE game_id = ? AND player = ?", [game_id, player]
            )

    def player_of(self, game_id: str, token: str | None) -> int | None:
        """Which player's seat ``token`` opens, or ``None`` (every seat compared in constant time)."""
        if not token:
            return None
        found = None
        for row in self._c.query("SELECT player, token_hash FROM game_seats WHERE game_id = ?", [game_id]):
            if token_matches(row["token_hash"], token):
                found = row["player"]
        return found

    def tokens(self, game_id: str, edit_token: str) -> list[str]:
        """Every seat's token in player order, for the holder of the game's edit token; [] if none."""
        rows = self._c.query(
            "SELECT player, token_hash, sealed FROM game_seats WHERE game_id = ? ORDER BY player", [game_id]
        )
        tokens = []
        for row in rows:
            token = unseal(row["sealed"], edit_token, game_id, row["player"])
            if token is None or not token_matches(row["token_hash"], token):
                return []  # not this game's edit token: no seat is opened
            tokens.append(token)
        return tokens

    def player_count(self, game_id: str) -> int:
        """How many seats the game has (0 for a game without secrets)."""
        return int(self._c.query("SELECT count(*) AS n FROM game_seats WHERE game_id = ?", [game_id])[0]["n"])

    def delete(self, game_id: str) -> None:
        """Forget a game's seats (inside the caller's transaction)."""
        self._c.db.execute("DELETE FROM game_seats WHERE game_id = ?", [game_id])
