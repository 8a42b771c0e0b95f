"""A Tunnel Wars scenario's own sections, read by the tunnels system through the registry: the
series of battles' results (``series``) and Tunnel Fighting's dice (``tunnel_fighting``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.rules.pack_base import Model, Prose


class SeriesResult(Model):
    """A series of battles: the result for a player who won ``won`` of them."""

    won: int = Field(ge=1)
    kind: Literal["major", "minor"]


class TunnelFighting(Model):
    """Tunnel Fighting's dice: unstable surroundings, falling stalactites and Cunning Traps."""

    summary: Prose
    # The hero-phase die that lets a player pick a cave-in or falling stalactites.
    unstable_on: int = Field(default=6, ge=1, le=6)
    # Each stalactite die at or above this deals one mortal wound.
    stalactite_on: int = Field(default=2, ge=1, le=6)
    # Cunning Traps: the enemy unit is within this range; 2D6 at least the distance wounds.
    trap_range: float = Field(default=12, gt=0)
    # What changes underground, one short line each, shown on every screen and sheet of the battle.
    reminders: list[Prose] = []


# The sections the tunnels system reads, each key with its model and its value when left out:
# a scenario's ``battles`` (how many the series has), ``series`` and ``tunnel_fighting``.
SCENARIO_SECTIONS = {
    "battles": (Annotated[int, Field(ge=1, le=9)] | None, None),
    "series": (list[SeriesResult], []),
    "tunnel_fighting": (TunnelFighting | None, None),
}
# A series of battles is decided by how many each player won (``series``).
VICTORY_CHECKS = ("battles-won",)
