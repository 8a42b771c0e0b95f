"""The games this phone started, joined or took a seat in: their ids in one cookie, newest first.

A game's edit and seat tokens are kept under the game's own path (``/games/<id>``), so no other
page sees them; this list, kept under ``/games``, is what "This phone's games" reads. It grants
nothing: opening a game from it still needs the game's own token to record.
"""

from __future__ import annotations

import re
from typing import Any

from flask import request

COOKIE = "muster_games"
KEPT = 30
DAYS = 400
_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


def ids() -> list[str]:
    """The ids of this phone's games, newest first."""
    return [i for i in request.cookies.get(COOKIE, "").split(".") if _ID.fullmatch(i)][:KEPT]


def remember(response: Any, game_id: str) -> Any:
    """Put the game first on this phone's list (at most ``KEPT`` are kept)."""
    kept = [game_id, *(i for i in ids() if i != game_id)][:KEPT]
    response.set_cookie(
        COOKIE,
        ".".join(kept),
        max_age=DAYS * 24 * 3600,
        path="/games",
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )
    return response
