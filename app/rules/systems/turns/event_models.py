"""Pitched Battles' events as models: the fields each takes (docs/api.md), checked before the rules.

A turn, a battle round's start and the end also carry the scenario's own facts (its scoring
blocks' and round facts, named in the pack): the ones Muster's packs use are described here,
and the rules refuse a fact the scenario does not record (``scoring._extra_facts``).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import ConfigDict, Field

from app.rules.event_models import (
    SAYS,
    BattleRoundStart,
    EventModel,
    EventSet,
    Flag,
    ObjectiveId,
    Part,
    Player,
    Round,
    TurnEnd,
    ids,
    whole,
)
from app.rules.speech import words

#: Who controls each objective: objective id -> player, or none for nobody.
Holder = Annotated[
    Player | None,
    Field(
        json_schema_extra={
            SAYS: words("a player's index in this game, 0 to {last_player}, or none for nobody")
        }
    ),
]
Control = Annotated[
    dict[str, Holder] | None,
    Field(
        description="Who controls each objective: objective id -> player index, or null for nobody. "
        "An objective left out is controlled by nobody.",
        json_schema_extra={"x-muster-keys": "objectives"},
    ),
]
#: The pack's facts are named by its scenarios: the model keeps them for the rules to judge,
#: and the schema (closed) lists the ones Muster's packs use.
FACTS = ConfigDict(extra="allow", json_schema_extra={"additionalProperties": False})


class ControlledTurn(TurnEnd):
    """The end of a player's turn in a battle round, with who controls each objective then:
    the fields a turn has in every system that scores objectives turn by turn."""

    control: Control = None


class TurnEvent(ControlledTurn):
    """Age of Sigmar: the end of a player's turn."""

    model_config = FACTS
    tactic: Annotated[
        str | None,
        Field(
            description="The battle tactic picked this turn, once per battle.",
            json_schema_extra={"x-muster-vocabulary": "tactics"},
        ),
    ] = None
    tactic_completed: Flag = None
    tactic_bonus: Flag = None
    enemy_monsters_slain: Flag = None
    predators_destroyed: Annotated[whole(0) | None, Field(description="Survival of the Fittest.")] = None
    raided: Annotated[
        str | None,
        Field(
            description="Feral Foray, from the pack's round; an objective the player controls in enemy territory.",
            json_schema_extra={"x-muster-vocabulary": "objectives"},
        ),
    ] = None
    destroyed: Annotated[
        ids("objectives", "a list of different objective ids"),
        Field(description="Power in Numbers; different objective ids the player controls."),
    ] = None


class Placement(Part):
    """An objective set up this battle round, with its 2D6 roll."""

    objective: ObjectiveId
    roll: whole(2, 12)


class BattleRoundEvent(BattleRoundStart):
    """Age of Sigmar: the start of a battle round, before its first turn."""

    model_config = FACTS
    alpha: Annotated[
        str | None,
        Field(
            description="Tectonic Interference (required there) - the D3 roll's objective.",
            json_schema_extra={"x-muster-vocabulary": "objectives"},
        ),
    ] = None
    removed: Annotated[
        str | None,
        Field(
            description="Seismic Shift, round 3 only; never a prime objective.",
            json_schema_extra={"x-muster-vocabulary": "objectives"},
        ),
    ] = None
    vantage: Annotated[str | None, Field(json_schema_extra={"x-muster-vocabulary": "objectives"})] = None
    placed: Annotated[
        list[Placement] | None,
        Field(description="The Veins of Ghur - objectives set up this round with their 2D6 roll."),
    ] = None


class EndEvent(EventModel):
    """Age of Sigmar: the end of the battle, once per player."""

    model_config = FACTS
    what: ClassVar[str] = words("the end")
    type: Literal["end"]
    player: Player
    grand_strategy_completed: Annotated[bool | None, Field(json_schema_extra={SAYS: words("true or false")})]


class ClaimEvent(EventModel):
    """Age of Sigmar: a player claims a rule scored once per battle round (Predators and Prey)
    for the round in play, from its `battle_round` event until the next round's start or the
    first `end`; once per player per round (their turn's `enemy_monsters_slain` counts). 422
    for a second claim, a finished round, or a battleplan without the rule."""

    what: ClassVar[str] = words("a claim")
    type: Literal["claim"]
    round: Round
    player: Player
    # The schema's choices are the packs'; the rules name the ones the scenario takes.
    rule: Annotated[str, Field(json_schema_extra={"enum": ["predators-and-prey"]})]


def _limits(game: Any) -> dict[str, int]:
    # A battle over refuses any entry with why, not with the battle round's range.
    return {} if game.finished else {"rounds": game.scenario.battle_rounds}


EVENTS = EventSet("turns", TurnEvent, BattleRoundEvent, EndEvent, ClaimEvent, limits=_limits)
