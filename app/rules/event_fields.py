"""Reading one field of an event: a player, a die, a whole number, a name or a flag.

Each reader returns the value or raises :class:`~app.rules.log.Refused` with one plain
sentence naming the field and what it may be; the siege and tunnel systems read their
events with these, so the same mistake is refused in the same words.
"""

from __future__ import annotations

from typing import Any

from app.rules.log import Refused, extra_key
from app.rules.text import clean_text

MAX_NAME = 60


def only(event: dict[str, Any], allowed: set[str], what: str) -> None:
    """Refuse a key the event type does not take, naming what it does take."""
    if key := extra_key(event, allowed | {"id", "type"}):
        takes = ", ".join(sorted(allowed)) or "nothing more"
        raise Refused(f"{key} is not part of {what}; it takes {takes}.")


def whole(value: Any, name: str, low: int, high: int | None = None) -> int:
    """A whole number from ``low`` to ``high`` (no upper bound when ``high`` is ``None``)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < low
        or (high is not None and value > high)
    ):
        span = f"from {low} to {high}" if high is not None else f"of {low} or more"
        raise Refused(f"{name} must be a whole number {span}.")
    return value


def die(value: Any, name: str, faces: int = 6) -> int:
    """One die as it landed: 1 to ``faces``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= faces:
        raise Refused(f"{name} must be the die as it landed, 1 to {faces}.")
    return value


def dice(value: Any, name: str, count: int) -> tuple[int, ...]:
    """Exactly ``count`` dice as they landed, each 1 to 6."""
    if (
        not isinstance(value, list)
        or len(value) != count
        or any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6 for d in value)
    ):
        words = "the die" if count == 1 else f"the {count} dice"
        raise Refused(f"{name} must be a list of {words} as they landed, each 1 to 6.")
    return tuple(value)


def player(value: Any, name: str, players: int, optional: bool = False) -> int | None:
    """A player's index in the game (``None`` allowed when ``optional``)."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        tail = ", or null" if optional else ""
        raise Refused(f"{name} must be a player's index in this game, 0 to {players - 1}{tail}.")
    return value


def flag(value: Any, name: str) -> bool:
    """True or false (left out: false)."""
    if value is None:
        return False
    if not isinstance(value, bool):
        raise Refused(f"{name} must be true or false.")
    return value


def name(value: Any, field: str, limit: int = MAX_NAME) -> str:
    """A short name a player typed (a unit, a terrain feature, a point on the battlefield)."""
    text = " ".join(clean_text(value).split()) if isinstance(value, str) else ""
    if not text or len(text) > limit:
        raise Refused(f"{field} must be a name of 1 to {limit} characters.")
    return text


def items(value: Any, field: str, high: int, low: int = 0) -> list[Any]:
    """A list of ``low`` to ``high`` items (each read by the caller)."""
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise Refused(f"{field} must be a list of {low} to {high} entries.")
    return value
