"""A duel's entries in its own words (the registry's ``words``): "Bo won bout 1"."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.rules.entry_words import Said, who
from app.rules.pack import Pack


def said(event: dict[str, Any], names: Sequence[str], pack: Pack) -> Said | None:
    """A bout won, or a fighter conceding, as the table says it."""
    name = who(names, event.get("player")) or "A fighter"
    if event.get("type") == "bout":
        bout = event.get("round")
        return Said(f"{name}'s win of bout {bout}", f"{name} won bout {bout}", event.get("player"))
    if event.get("type") == "concede":
        return Said(f"{name}'s concession", f"{name} threw down the sword", event.get("player"))
    return None
