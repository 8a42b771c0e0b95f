"""A Victory Phase in the words of the table (the registry's ``words``: app/rules/entry_words.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.rules.entry_words import Said
from app.rules.pack import Pack
from app.rules.speech import say


def said(event: dict[str, Any], names: Sequence[str], pack: Pack) -> Said | None:
    """A round's Victory Phase, scored for every player at once."""
    if event.get("type") != "round":
        return None
    round_ = event.get("round")
    return Said(
        say("round {round}'s Victory Phase", round=round_),
        say("Round {round}'s Victory Phase recorded", round=round_),
        None,
    )
