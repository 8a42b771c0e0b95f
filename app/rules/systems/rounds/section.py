"""The scoring blocks a First Blood scenario names (``scoring``), read by the rounds system
through the registry; each is scored in a Victory Phase (app/rules/systems/rounds/scoring.py)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.rules.pack_base import CountBlock, VpBlock


class ZoneSeized(VpBlock):
    block: Literal["zone-seized"]
    diameter: float | None = None


class ZonesHeldBonus(CountBlock):
    block: Literal["zones-held-bonus"]


class MarkerDestroyed(VpBlock):
    block: Literal["marker-destroyed"]
    whose: Literal["enemy", "any"] = "enemy"
    outside_zones: bool = False


class MarkersDestroyedBonus(CountBlock):
    block: Literal["markers-destroyed-bonus"]
    count: int = Field(ge=2)


class Scored(VpBlock):
    """A block whose ``vp`` is all it needs: its name says what scores them (scoring.py)."""

    block: Literal[
        "enemy-zone",
        "zone-bonus-after-marker",
        "character-slain",
        "regiments-destroyed",
        "officers-slain",
        "marker-seized",
        "enemy-zone-and-marker",
        "marker-home",
        "points-held",
    ]


class ChainBonus(VpBlock):
    block: Literal["chain-bonus"]
    length: int = Field(ge=2)


#: The scoring blocks the rounds system scores.
BLOCKS = (
    ZoneSeized,
    ZonesHeldBonus,
    MarkerDestroyed,
    MarkersDestroyedBonus,
    Scored,
    ChainBonus,
)
