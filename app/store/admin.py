"""The admin's side: failed login attempts counted per address, and open admin logins."""

from __future__ import annotations

import hmac

from app.store.connection import Connection, now, token_hash


class Admin:
    """Login attempts and admin sessions."""

    def __init__(self, connection: Connection) -> None:
        self._c = connection

    def claim_login_attempt(self, address: str, since: str, limit: int) -> int | None:
        """Count a login attempt from ``address`` if it made fewer than ``limit`` since ``since``.

        The count and the insert are one statement under the write lock, so a burst of
        simultaneous guesses cannot all pass the count before any is recorded. Returns the
        attempt's id (give it back with :meth:`forget_login_attempt` when the password was
        right), or ``None`` when the address must wait.
        """
        with self._c.writer():
            cursor = self._c.db.conn.execute(
                "INSERT INTO login_failures (address, at) SELECT ?, ? "
                "WHERE (SELECT count(*) FROM login_failures WHERE address = ? AND at >= ?) < ?",
                [address, now(), address, since, limit],
            )
        return cursor.lastrowid if cursor.rowcount == 1 else None

    def forget_login_attempt(self, attempt: int) -> None:
        """A right password does not count towards the address's limit."""
        with self._c.writer():
            self._c.db.conn.execute("DELETE FROM login_failures WHERE id = ?", [attempt])

    def start_session(self, session_id: str, password_mark: str) -> None:
        """Record a new admin login (only a hash of its id is kept)."""
        with self._c.writer():
            self._c.db.conn.execute(
                "INSERT INTO admin_sessions (id_hash, password_mark, created) VALUES (?, ?, ?)",
                [token_hash(session_id), password_mark, now()],
            )

    def session_ok(self, session_id: str, password_mark: str, since: str) -> bool:
        """Whether the login is still open: not ended, not older than ``since``, same password."""
        rows = self._c.query(
            "SELECT password_mark FROM admin_sessions WHERE id_hash = ? AND created >= ?",
            [token_hash(session_id), since],
        )
        return bool(rows) and hmac.compare_digest(rows[0]["password_mark"], password_mark)

    def end_sessions(self, session_id: str | None = None, before: str | None = None) -> None:
        """End one admin login (every copy of its cookie), or every login older than ``before``."""
        with self._c.writer():
            if session_id is not None:
                self._c.db.conn.execute(
                    "DELETE FROM admin_sessions WHERE id_hash = ?", [token_hash(session_id)]
                )
            if before is not None:
                self._c.db.conn.execute("DELETE FROM admin_sessions WHERE created < ?", [before])
