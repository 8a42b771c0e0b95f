"""Which phone is asking: a random id kept in a long-lived cookie, told apart from the others.

The edit token says a phone may change a game, but the creator's phone and a phone that
joined by link hold the same token. The phone id tells them apart: terrain agreement binds a
player to one phone, and presets and saved terrain sets belong to the phone that saved them.
It is not a secret capability (it grants nothing on its own), so only its hash is stored.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Any

from flask import g, request

COOKIE = "muster_phone"
# Browsers keep a cookie at most 400 days.
DAYS = 400
_SHAPE = re.compile(r"[0-9a-f]{32}")


def current() -> str:
    """This phone's id: the cookie's, or a new one that :func:`keep` sets on the answer."""
    if "phone_id" not in g:
        held = request.cookies.get(COOKIE, "")
        g.phone_id = held if _SHAPE.fullmatch(held) else secrets.token_hex(16)
    return str(g.phone_id)


def current_hash() -> str:
    """The hash under which this phone's agreements and saved things are stored."""
    return _digest(current())


def known_hash() -> str | None:
    """This phone's hash if it already holds a phone id; ``None`` (and no new id) if not."""
    held = request.cookies.get(COOKIE, "")
    return _digest(held) if _SHAPE.fullmatch(held) else None


def keep(response: Any) -> Any:
    """Set the phone cookie on an answer when this request made or read the id."""
    if "phone_id" in g and request.cookies.get(COOKIE) != g.phone_id:
        response.set_cookie(
            COOKIE,
            g.phone_id,
            max_age=DAYS * 86400,
            path="/",
            httponly=True,
            samesite="Lax",
            secure=request.is_secure,
        )
    return response


def _digest(phone_id: str) -> str:
    return hashlib.sha256(phone_id.encode()).hexdigest()[:24]
