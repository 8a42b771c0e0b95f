"""Tunnel Wars' events as models: the fields each takes (docs/api.md), checked before the rules."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from app.rules.event_models import (
    D3,
    SAYS,
    Battle,
    BattleRoundStart,
    Dice2,
    Die,
    EventModel,
    EventSet,
    Part,
    PickAgain,
    Player,
    name,
    whole,
    within,
)
from app.rules.systems.siege.event_models import Contingent, Wounds

MAX_ROLL_OFFS = 12
MAX_ROUND = 99
BattleRound = whole(1, MAX_ROUND)
#: The player whose opponent's contingent was destroyed; none when both were.
Winner = Annotated[
    Player | None,
    Field(
        json_schema_extra={
            SAYS: "a player's index in this game, 0 to {last_player}, or none when both contingents were destroyed"
        }
    ),
]


class TunnelContingentsEvent(EventModel):
    """Tunnel Wars: a player's army in three contingents, counts or unit names."""

    what: ClassVar[str] = "an army's contingents"
    type: Literal["contingents"]
    player: Player
    contingents: Annotated[list[Contingent], Field(min_length=3, max_length=3)]


class ContingentEvent(EventModel):
    """Tunnel Wars: the contingent a player sends into a battle, secret until both are in (X-Seat-Token)."""

    what: ClassVar[str] = "a contingent's pick"
    type: Literal["contingent"]
    battle: Battle
    player: Player
    contingent: Annotated[
        int,
        Field(ge=1, le=3, json_schema_extra={SAYS: "one of the army's contingents, 1 to {contingents}"}),
        within("contingents"),
    ]
    general: name(empty=True) | None = None


class TunnelRepickEvent(PickAgain):
    """A player asks to pick the battle's shown contingents again (their X-Seat-Token); when both have, both pick again."""

    battle: Battle


class TunnelBattleRoundEvent(BattleRoundStart):
    """A battle round of the battle being fought starts."""

    battle: Battle
    round: BattleRound


class DenizenEvent(EventModel):
    """The denizen's roll-off (round 0: at set-up), every pair of dice in turn."""

    what: ClassVar[str] = "the denizen's roll-off"
    type: Literal["denizen"]
    battle: Battle
    round: whole(0, MAX_ROUND)
    dice: Annotated[list[Dice2], Field(min_length=1, max_length=MAX_ROLL_OFFS)]


class DenizenChangeEvent(EventModel):
    """denizen_attack (its commander attacks it) or tame (Tame the Raging Beast)."""

    what: ClassVar[str] = "an attack on the denizen or its taming"
    type: Literal["denizen_attack", "tame"]
    battle: Battle
    round: BattleRound
    player: Player


class StalactiteRoll(Part):
    """An enemy unit under falling stalactites, and its die."""

    unit: name()
    die: Die


class UnstableEvent(EventModel):
    """Unstable surroundings: a player's die, and a cave-in or falling stalactites when it is high enough."""

    what: ClassVar[str] = "unstable surroundings"
    type: Literal["unstable"]
    battle: Battle
    round: BattleRound
    player: Player
    die: Die
    choice: Literal["cave-in", "stalactites"] | None = None
    point: name(120, empty=True) | None = None
    d3: D3 | None = None
    units: Annotated[
        list[StalactiteRoll] | None, Field(max_length=3, json_schema_extra={SAYS: "a list of 1 to 3 entries"})
    ] = None


class TrapEvent(EventModel):
    """Cunning Traps: 2D6 against the distance; mortal_wounds (a D3) when they reach it."""

    what: ClassVar[str] = "Cunning Traps"
    type: Literal["trap"]
    battle: Battle
    round: BattleRound | None = None
    player: Player
    target: name(empty=True) | None = None
    distance: Annotated[
        float,
        Field(
            gt=0,
            le=12,
            json_schema_extra={SAYS: 'the measured distance in inches, more than 0 and at most 12"'},
        ),
    ]
    dice: Dice2
    mortal_wounds: Wounds = None


class BattleResultEvent(EventModel):
    """A battle's end: who won it (none when both contingents were destroyed at once)."""

    what: ClassVar[str] = "a battle's result"
    type: Literal["battle_result"]
    battle: Battle
    winner: Winner


def _limits(game: Any) -> dict[str, int]:
    return {"battles": game.battles, "contingents": game.contingent_count}


EVENTS = EventSet(
    "tunnels",
    TunnelContingentsEvent,
    ContingentEvent,
    TunnelRepickEvent,
    TunnelBattleRoundEvent,
    DenizenEvent,
    DenizenChangeEvent,
    UnstableEvent,
    TrapEvent,
    BattleResultEvent,
    limits=_limits,
)
