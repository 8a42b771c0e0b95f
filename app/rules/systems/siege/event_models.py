"""A siege's events as models: the fields each takes (docs/api.md, sieges), checked before the rules."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from app.rules.event_models import (
    SAYS,
    BattleRoundStart,
    Dice2,
    Die,
    EventModel,
    EventSet,
    Flag,
    Part,
    PickAgain,
    Player,
    Round,
    TurnEnd,
    name,
    whole,
)

MAX_FEATURES = 60
MAX_UNITS = 120
MAX_CONTINGENT = 200
#: A contingent as an event gives it: a count of units, or the list of their names.
Contingent = Annotated[
    Annotated[int, Field(ge=0, le=MAX_CONTINGENT)]
    | Annotated[list[name()], Field(max_length=MAX_CONTINGENT)],
    Field(
        json_schema_extra={SAYS: f"the number of units (0 to {MAX_CONTINGENT}) or the list of their names"}
    ),
]


#: Mortal wounds a D3 dealt (none, or 0, when nothing struck).
Wounds = Annotated[whole(0, 3) | None, Field(json_schema_extra={SAYS: "a D3 as it landed, 1 to 3"})]


class SiegeTacticEvent(EventModel):
    """A siege tactic, secret until both are in (the player's X-Seat-Token): attacker 1-3, defender 4-6."""

    what: ClassVar[str] = "a siege tactic"
    type: Literal["siege_tactic"]
    player: Player
    # The bounds are the schema's; the rules name the player's side's own dice.
    tactic: Annotated[
        int,
        Field(
            json_schema_extra={
                "minimum": 1,
                "maximum": 6,
                SAYS: "the attacker's die (1 to 3) or the defender's (4 to 6)",
            }
        ),
    ]


class SiegeRepickEvent(PickAgain):
    """A player asks to pick the shown siege tactics again (their X-Seat-Token); when both have, both pick again."""


class SiegeContingentsEvent(EventModel):
    """The Relief Force: the defender's garrison and relief force, counts or unit names."""

    what: ClassVar[str] = "the defender's contingents"
    type: Literal["contingents"]
    garrison: Contingent
    relief: Contingent


class SiegeObjectiveEvent(EventModel):
    """The Relief Force: one objective set up on a terrain feature wholly within the defender's
    territory (a piece of the game's terrain set by its uid or name, where the set has a
    fortress), placed in turn starting with the attacker, before the first battle round."""

    what: ClassVar[str] = "an objective's placement"
    type: Literal["objective"]
    player: Player
    feature: name()


class FeatureRoll(Part):
    """A terrain feature's batter die."""

    feature: name()
    defensible: Flag = None
    die: Die


class BatterEvent(EventModel):
    """The attacker's batter rolls: a die per terrain feature of the fortress."""

    what: ClassVar[str] = "the batter rolls"
    type: Literal["batter"]
    features: Annotated[list[FeatureRoll], Field(max_length=MAX_FEATURES)]


class UnitRoll(Part):
    """A defending unit's starve die, and the mortal wounds (a D3) when it starves."""

    unit: name()
    hero: Flag = None
    die: Die
    mortal_wounds: Wounds = None


class StarveEvent(EventModel):
    """The starve rolls: a die per unit of the garrison."""

    what: ClassVar[str] = "the starve rolls"
    type: Literal["starve"]
    units: Annotated[list[UnitRoll], Field(max_length=MAX_UNITS)]


class TunnelEvent(EventModel):
    """The tunnel roll: the attacker's die, then the defender's."""

    what: ClassVar[str] = "the tunnel roll"
    type: Literal["tunnel"]
    dice: Dice2


class PartyUnit(Part):
    """A unit sent through a completed tunnel, with what decides whether it may go."""

    name: name()
    keywords: Annotated[list[str], Field(max_length=40)] | None = None
    mounted: Flag = None


class TunnelPartyEvent(EventModel):
    """The units the attacker sends through a completed tunnel."""

    what: ClassVar[str] = "the tunnel party"
    type: Literal["tunnel_party"]
    units: Annotated[list[PartyUnit], Field(min_length=1, max_length=10)]


class SiegeBattleRoundEvent(BattleRoundStart):
    """A battle round starts, before its first turn."""


class SiegeTurnEvent(TurnEnd):
    """The end of a player's turn."""


class ReliefRollEvent(EventModel):
    """The relief roll, inside the defender's turn: both dice as they landed."""

    what: ClassVar[str] = "a relief roll"
    type: Literal["relief_roll"]
    round: Round
    dice: Dice2


class ReliefEdgeEvent(EventModel):
    """The die that says which edge the relief force arrives on."""

    what: ClassVar[str] = "the relief force's edge"
    type: Literal["relief_edge"]
    die: Die


class SiegeEndEvent(EventModel):
    """The end: how many objectives the attacker controls."""

    what: ClassVar[str] = "the end"
    type: Literal["end"]
    attacker_objectives: whole(0, 3)


def _limits(game: Any) -> dict[str, int]:
    # A battle over refuses any entry with why, not with the battle round's range.
    return {} if game.finished else {"rounds": game.battle_rounds}


EVENTS = EventSet(
    "siege",
    SiegeTacticEvent,
    SiegeRepickEvent,
    SiegeContingentsEvent,
    SiegeObjectiveEvent,
    BatterEvent,
    StarveEvent,
    TunnelEvent,
    TunnelPartyEvent,
    SiegeBattleRoundEvent,
    SiegeTurnEvent,
    ReliefRollEvent,
    ReliefEdgeEvent,
    SiegeEndEvent,
    limits=_limits,
)
