"""The scoring blocks a First Blood scenario names (``scoring``), read by the rounds system
through the registry; each is scored in a Victory Phase (app/rules/systems/rounds/scoring.py)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.rules.pack_base import Model


class ZoneSeized(Model):
    block: Literal["zone-seized"]
    vp: int = Field(ge=0)
    diameter: float | None = None


class ZonesHeldBonus(Model):
    block: Literal["zones-held-bonus"]
    count: int = Field(ge=1)
    vp: int = Field(ge=0)


class EnemyZone(Model):
    block: Literal["enemy-zone"]
    vp: int = Field(ge=0)


class MarkerDestroyed(Model):
    block: Literal["marker-destroyed"]
    vp: int = Field(ge=0)
    whose: Literal["enemy", "any"] = "enemy"
    outside_zones: bool = False


class MarkersDestroyedBonus(Model):
    block: Literal["markers-destroyed-bonus"]
    count: int = Field(ge=2)
    vp: int = Field(ge=0)


class ZoneBonusAfterMarker(Model):
    block: Literal["zone-bonus-after-marker"]
    vp: int = Field(ge=0)


class CharacterSlain(Model):
    block: Literal["character-slain"]
    vp: int = Field(ge=0)


class RegimentsDestroyed(Model):
    block: Literal["regiments-destroyed"]
    vp: int = Field(ge=0)


class OfficersSlain(Model):
    block: Literal["officers-slain"]
    vp: int = Field(ge=0)


class MarkerSeized(Model):
    block: Literal["marker-seized"]
    vp: int = Field(ge=0)


class EnemyZoneAndMarker(Model):
    block: Literal["enemy-zone-and-marker"]
    vp: int = Field(ge=0)


class MarkerHome(Model):
    block: Literal["marker-home"]
    vp: int = Field(ge=0)


class PointsHeld(Model):
    block: Literal["points-held"]
    vp: int = Field(ge=0)


class ChainBonus(Model):
    block: Literal["chain-bonus"]
    length: int = Field(ge=2)
    vp: int = Field(ge=0)


#: The scoring blocks the rounds system scores.
BLOCKS = (
    ZoneSeized,
    ZonesHeldBonus,
    EnemyZone,
    MarkerDestroyed,
    MarkersDestroyedBonus,
    ZoneBonusAfterMarker,
    CharacterSlain,
    RegimentsDestroyed,
    OfficersSlain,
    MarkerSeized,
    EnemyZoneAndMarker,
    MarkerHome,
    PointsHeld,
    ChainBonus,
)
