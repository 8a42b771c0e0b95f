"""Who seizes a zone or point: models in range, weighted by regiment class."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.rules.pack import Pack
from app.rules.speech import say

# More models of one class than any table holds: counts are refused above it (API) or read as
# it (screens), so a huge number never overflows the float arithmetic of the weights.
MAX_MODELS = 1000


@dataclass(frozen=True)
class Seizure:
    """Each player's weighted count, and the index of the player who seizes (``None``: nobody)."""

    counts: tuple[float, ...]
    winner: int | None


def weighted(pack: Pack, models: dict[str, Any]) -> float:
    """One player's weighted count; ``models`` maps a class id to how many models are in range.

    Classes counted in pairs (light infantry) only score whole pairs: an odd model adds nothing.
    Unknown classes and negative or non-numeric counts are ignored; counts above MAX_MODELS
    count as MAX_MODELS.
    """
    total = 0.0
    for weight in pack.seizing:
        raw = models.get(weight.id, 0)
        count = min(raw, MAX_MODELS) if isinstance(raw, int) and not isinstance(raw, bool) and raw > 0 else 0
        total += (count // 2) if weight.pairs else count * weight.weight
    return total


def count_problem(pack: Pack, models_by_player: list[dict[str, Any]]) -> str | None:
    """Why the counts are not models in range (one sentence naming the count), or ``None``.

    Only the pack's classes are read; names that are not classes are left alone.
    """
    for i, models in enumerate(models_by_player):
        for weight in pack.seizing:
            raw = models.get(weight.id, 0)
            if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= MAX_MODELS:
                return say(
                    "{field} must be a whole number of models from 0 to {most}.",
                    field=f"players[{i}][{weight.id!r}]",
                    most=MAX_MODELS,
                )
    return None


def seize(pack: Pack, models_by_player: list[dict[str, Any]]) -> Seizure:
    """The player with strictly the most weighted models in range seizes; a tie seizes nothing."""
    counts = tuple(weighted(pack, models) for models in models_by_player)
    best = max(counts, default=0)
    leaders = [i for i, c in enumerate(counts) if c == best]
    winner = leaders[0] if best > 0 and len(leaders) == 1 else None
    return Seizure(counts, winner)
