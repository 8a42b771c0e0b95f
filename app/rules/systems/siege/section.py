"""A siege pack's own sections, read by the siege system through the registry: the siege
tactics and table (the pack's ``siege``), and a battleplan's relief force, the results its
held objectives give and its fortress (a scenario's ``relief``, ``objective_results`` and
``siege_terrain``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from app.rules.pack_base import Id, Model, Prose, Text, unique


class SiegeTactic(Model):
    """A siege tactic: the die a player hides behind their hand, and what it stands for."""

    die: int = Field(ge=1, le=6)
    side: Literal["attacker", "defender"]
    id: Id
    name: Text
    summary: Prose


class SiegeCell(Model):
    """One cell of the siege table: the modifiers an attacker's and a defender's tactic give."""

    attacker: int = Field(ge=1, le=6)
    defender: int = Field(ge=1, le=6)
    batter: int = Field(default=0, ge=-6, le=6)
    starve: int = Field(default=0, ge=-6, le=6)
    tunnel: int = Field(default=0, ge=-6, le=6)


class SiegeRules(Model):
    """Siege Warfare: the tactics, the siege table and the thresholds of the siege rolls."""

    summary: Prose
    tactics: list[SiegeTactic] = Field(min_length=2)
    table: list[SiegeCell] = Field(min_length=1)
    # A batter or starve die (modified) at or above this succeeds.
    batter_on: int = Field(default=5, ge=2, le=6)
    starve_on: int = Field(default=5, ge=2, le=6)
    # Added to a starve die rolled for a HERO.
    starve_hero: int = Field(default=-1, ge=-6, le=6)
    # How many units may go through a completed tunnel: HEROES, then other units.
    tunnel_heroes: int = Field(default=1, ge=0)
    tunnel_others: int = Field(default=2, ge=0)

    @model_validator(mode="after")
    def _every_pair_once(self) -> SiegeRules:
        unique([t.id for t in self.tactics], "siege tactic id")
        dice = {t.die: t.side for t in self.tactics}
        if len(dice) != len(self.tactics):
            raise ValueError("two siege tactics share a die")
        pairs = [(c.attacker, c.defender) for c in self.table]
        for a, d in pairs:
            if dice.get(a) != "attacker" or dice.get(d) != "defender":
                raise ValueError(
                    f"siege table cell {a}/{d} does not pair an attacker's tactic with a defender's"
                )
        wanted = {
            (a, d)
            for a, sa in dice.items()
            for d, sd in dice.items()
            if sa == "attacker" and sd == "defender"
        }
        if len(set(pairs)) != len(pairs) or set(pairs) != wanted:
            raise ValueError("the siege table needs exactly one cell for each attacker and defender tactic")
        return self

    def tactic(self, die: int) -> SiegeTactic | None:
        """The tactic a die stands for, if any."""
        return next((t for t in self.tactics if t.die == die), None)

    def dice(self, side: str) -> list[int]:
        """The dice a side may hide, in order."""
        return sorted(t.die for t in self.tactics if t.side == side)

    def cell(self, attacker: int, defender: int) -> SiegeCell:
        """The table's cell for two picks (the validator makes sure there is one)."""
        return next(c for c in self.table if (c.attacker, c.defender) == (attacker, defender))


class EdgeRoll(Model):
    """Which battlefield edge a die from ``low`` to ``high`` names."""

    low: int = Field(ge=1, le=6)
    high: int = Field(ge=1, le=6)
    edge: Id


class Relief(Model):
    """The Relief Force: 2D6 plus the battle round at the end of the defender's movement phase."""

    summary: Prose
    target: int = Field(ge=2)
    edges: list[EdgeRoll] = Field(min_length=1)

    @model_validator(mode="after")
    def _every_face(self) -> Relief:
        faces = [f for e in self.edges for f in range(e.low, e.high + 1)]
        if sorted(faces) != list(range(1, 7)):
            raise ValueError("the relief edges must cover each face of a die once")
        return self

    def edge(self, die: int) -> str:
        """The edge a die names."""
        return next(e.edge for e in self.edges if e.low <= die <= e.high)


class ObjectiveResult(Model):
    """The result when the attacker holds ``count`` objectives at the end."""

    count: int = Field(ge=0)
    kind: Literal["major", "minor"]
    side: Literal["attacker", "defender"]


class SiegeTerrain(Model):
    """A siege battleplan's terrain rules: the fortress and the features outside it."""

    summary: Prose
    fortress_min: int = Field(ge=1)
    outside_max: int | None = Field(default=None, ge=0)
    # Each feature outside the fortress stands more than these distances (inches) away from
    # the battlefield edge, the defender's territory and every other feature.
    edge_gap: float | None = Field(default=None, ge=0)
    territory_gap: float | None = Field(default=None, ge=0)
    terrain_gap: float | None = Field(default=None, ge=0)


# The sections the siege system reads, each key with its model and its value when left out:
# a pack's ``siege``; a scenario's ``relief``, ``objective_results`` and ``siege_terrain``
# (the Age of Sigmar terrain checks measure by it).
PACK_SECTIONS = {"siege": (SiegeRules | None, None)}
SCENARIO_SECTIONS = {
    "relief": (Relief | None, None),
    "objective_results": (list[ObjectiveResult], []),
    "siege_terrain": (SiegeTerrain | None, None),
}
# A siege is decided by the objectives the attacker holds at the end (``objective_results``).
VICTORY_CHECKS = ("attacker-objectives",)
