"""Drafts: a form's answer kept for a day under a random id, so that a reload shows it again.

A form whose answer is a page (the list-import preview) stores what it was sent here and
redirects to a GET of the draft: reloading, going back, or a phone restoring its tab after the
player switched apps all show the same page, never "GET is not allowed". Only the id's hash is
stored; the id is in the page's address. Drafts are not backed up and are pruned as new ones come.
"""

from __future__ import annotations

import json
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from app.store.connection import Connection, now, token_hash

KEPT_HOURS = 24
# Room for a club night's imports; the oldest go first past it (each is at most one request).
KEPT_AT_MOST = 200


class Drafts:
    """Kept form answers, by kind (``import``)."""

    def __init__(self, connection: Connection) -> None:
        self._c = connection

    def keep(self, kind: str, body: dict[str, Any]) -> str:
        """Store a draft and return its new id; drafts past their day, or past the most kept, go."""
        draft_id = secrets.token_urlsafe(16)
        since = (datetime.now(UTC) - timedelta(hours=KEPT_HOURS)).isoformat(timespec="milliseconds")
        since = since.replace("+00:00", "Z")  # as now() writes it
        with self._c.writer():
            conn = self._c.db.conn
            conn.execute("DELETE FROM drafts WHERE created < ?", [since])
            conn.execute(
                "DELETE FROM drafts WHERE id_hash NOT IN "
                "(SELECT id_hash FROM drafts ORDER BY created DESC LIMIT ?)",
                [KEPT_AT_MOST - 1],
            )
            conn.execute(
                "INSERT INTO drafts (id_hash, kind, body, created) VALUES (?, ?, ?, ?)",
                [token_hash(draft_id), kind, json.dumps(body), now()],
            )
        return draft_id

    def get(self, kind: str, draft_id: str) -> dict[str, Any] | None:
        """The draft of that kind with that id, if it is still kept."""
        rows = self._c.query(
            "SELECT body FROM drafts WHERE id_hash = ? AND kind = ?", [token_hash(draft_id), kind]
        )
        return json.loads(rows[0]["body"]) if rows else None
