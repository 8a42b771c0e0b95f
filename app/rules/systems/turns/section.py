"""The scoring blocks a Pitched Battles scenario names (``scoring``), read by the turns system
through the registry; each is scored in app/rules/systems/turns/blocks.py."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.rules.pack_base import CountBlock, FactName, Model, Prose, VpBlock


class Counted(CountBlock):
    """VP for ``count`` objectives controlled (``control-count``) or held (``held-count``)."""

    block: Literal["control-count", "held-count"]


class Scored(VpBlock):
    """A block whose ``vp`` is all it needs: its name says what scores them (blocks.py)."""

    block: Literal["control-more", "tactic", "grand-strategy"]


class ControlByTerritory(Model):
    block: Literal["control-by-territory"]
    own: int = Field(ge=0)
    neutral: int = Field(ge=0)
    opponent: int = Field(ge=0)


class AlphaBeta(Model):
    block: Literal["alpha-beta"]
    alpha_vp: int = Field(ge=0)
    beta_vp: int = Field(ge=0)


class ControlRoundMultiplied(Model):
    block: Literal["control-round-multiplied"]


class FactCount(Model):
    block: Literal["fact-count"]
    fact: FactName
    label: Prose
    vp: int = Field(ge=0)
    max_total: int | None = Field(default=None, ge=0)


class Raid(VpBlock):
    block: Literal["raid"]
    from_round: int = Field(default=1, ge=1)


class DestroyHeld(Model):
    block: Literal["destroy-held"]
    from_round: int = Field(default=1, ge=1)
    # VP for an objective taken this turn, held since your last turn, since the one before.
    ladder: tuple[int, int, int]
    # VP for one taken in battle round 1 and held to the end of your last-round turn.
    full_hold_vp: int = Field(ge=0)


class PredatorsAndPrey(Model):
    block: Literal["predators-and-prey"]
    vp: int = Field(default=1, ge=0)


class SeismicShift(Model):
    block: Literal["seismic-shift"]
    round: int = Field(default=3, ge=1)


# The victory checks the turns system decides, beside the most VP every system knows.
VICTORY_CHECKS = ("most-tactics", "only-grand-strategy")

#: The scoring blocks the turns system scores.
BLOCKS = (
    Counted,
    Scored,
    ControlByTerritory,
    AlphaBeta,
    ControlRoundMultiplied,
    FactCount,
    Raid,
    DestroyHeld,
    PredatorsAndPrey,
    SeismicShift,
)
