"""Dice rolls recorded in a game's log when they decide something (who goes first, a D3...).

A roll changes no score: it is kept so both phones and the audit see what was rolled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.rules.log import Refused, extra_key

FACES = {"d3": 3, "d6": 6, "d12": 12, "2d6": 6, "roll-off": 6}
MAX_DICE = 24
MAX_PURPOSE = 120


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
    """Check a ``roll`` event; raise :class:`Refused` with one sentence when it is wrong."""
    if key := extra_key(event, {"id", "type", "dice", "results", "purpose", "winner"}):
        raise Refused(f"{key} is not part of a roll; it takes dice, results, purpose and winner.")
    dice = event.get("dice")
    # A list or an object is not a key of FACES; asking would raise TypeError, not refuse.
    if not isinstance(dice, str) or dice not in FACES:
        raise Refused(f"dice must be one of {', '.join(FACES)}.")
    results = event.get("results")
    top = FACES[dice]
    if (
        not isinstance(results, list)
        or not 1 <= len(results) <= MAX_DICE
        or any(isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= top for r in results)
    ):
        raise Refused(f"results must be a list of 1 to {MAX_DICE} dice, each from 1 to {top}.")
    if dice == "2d6" and len(results) != 2:
        raise Refused("results must hold the two dice of a 2D6 roll.")
    purpose = event.get("purpose") or ""
    if not isinstance(purpose, str) or len(purpose) > MAX_PURPOSE:
        raise Refused(f"purpose must be text of at most {MAX_PURPOSE} characters.")
    winner = event.get("winner")
    if winner is not None and (
        isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < players
    ):
        raise Refused(f"winner must be a player's index, 0 to {players - 1}, or left out.")
    return Roll(eid, dice, tuple(results), purpose.strip(), winner)
