"""A Victory Phase in the words of the table (the registry's ``words``: app/rules/entry_words.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.rules.entry_words import Said
from app.rules.pack import Pack


def said(event: dict[str, Any], names: Sequence[str], pack: Pack) -> Said | None:
    """A round's Victory Phase, scored for every player at once."""
    if event.get("type") != "round":
        return None
    round_ = event.get("round")
    return Said(f"round {round_}'s Victory Phase", f"Round {round_}'s Victory Phase recorded", None)
