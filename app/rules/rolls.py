"""Dice rolls recorded in a game's log when they decide something (who goes first, a D3...).

A roll changes no score: it is kept so both phones and the audit see what was rolled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.rules.log import Refused
from app.rules.speech import say

FACES = {"d3": 3, "d6": 6, "d12": 12, "2d6": 6, "roll-off": 6}
MAX_DICE = 24


@dataclass(frozen=True)
class Roll:
    """One recorded roll: which dice, what they showed, and what it was for."""

    event: str
    dice: str
    results: tuple[int, ...]
    purpose: str
    winner: int | None = None

    @property
    def total(self) -> int:
        return sum(self.results)

    def as_dict(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "dice": self.dice,
            "results": list(self.results),
            "total": self.total,
            "purpose": self.purpose,
            "winner": self.winner,
        }


def parse_roll(event: dict[str, Any], eid: str, players: int) -> Roll:
    """A ``roll`` event as :class:`~app.rules.event_models.RollEvent` read it, checked against
    its dice (each die within its faces, two for 2D6); raise :class:`Refused` when it is wrong."""
    dice, results = event["dice"], event["results"]
    top = FACES[dice]
    if any(r > top for r in results):
        raise Refused(
            say("results must be a list of 1 to {most} dice, each from 1 to {top}.", most=MAX_DICE, top=top)
        )
    if dice == "2d6" and len(results) != 2:
        raise Refused(say("results must hold the two dice of a 2D6 roll."))
    purpose = event.get("purpose") or ""
    return Roll(eid, dice, tuple(results), purpose.strip(), event.get("winner"))
