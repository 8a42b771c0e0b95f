"""Triumph & Treachery's events as models: the fields each takes (docs/api.md), checked before the rules.

buy, bonus_ploy, discard and contingents are secrets of the seat of the player they name.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, Strict

from app.rules.event_models import (
    SAYS,
    Die,
    EventModel,
    EventSet,
    ObjectiveId,
    Part,
    Player,
    PlayerInRound,
    Round,
    name,
    text,
    whole,
    within,
)
from app.rules.speech import words
from app.rules.systems.siege.event_models import Contingent
from app.rules.systems.turns.event_models import ControlledTurn

ROLL_OFF_PURPOSES = ("order", "ranking", "deployment", "other")
MAX_NOTE = 200
MAX_UNIT = 80
MAX_POSITION = 60
MAX_ZONES = 12
MAX_POINTS = 10_000
MAX_UNITS = 60
PloyId = Annotated[str, Field(description="A ploy's id in the pack (`caltrops`, `misheard-orders`, ...).")]
#: A die of VP: the scenario names its faces (a D3 or a D6).
Roll = Annotated[int, Field(ge=1, le=6, json_schema_extra={SAYS: words("a die from 1 to 6")})]


class Arrival(Part):
    """An objective arriving this round, with the die that placed it."""

    objective: ObjectiveId
    die: Die
    position: text(MAX_POSITION) = ""


class TreacheryBattleRoundEvent(EventModel):
    """Triumph & Treachery: a battle round starts (the standing for buying ploys)."""

    what: ClassVar[str] = words("a battle_round")
    type: Literal["battle_round"]
    round: Round
    arrivals: Annotated[list[Arrival], Field(max_length=3)] = Field(default_factory=list)


#: One throw of a roll-off: a player and their die.
Throw = Annotated[
    tuple[
        Annotated[int, Strict(), Field(ge=0, le=5), within("players", -1)],
        Annotated[int, Strict(), Field(ge=1, le=6)],
    ],
    Field(strict=False, json_schema_extra={SAYS: words("a [player, die] pair")}),
]


class RollOffEvent(EventModel):
    """One throw of a roll-off; tied leaders roll again in the next one."""

    what: ClassVar[str] = words("a roll_off")
    type: Literal["roll_off"]
    round: Round
    purpose: Literal[ROLL_OFF_PURPOSES]
    rolls: Annotated[
        list[Throw],
        Field(
            min_length=2,
            max_length=6,
            json_schema_extra={SAYS: words("a list of [player, die] pairs, one for each player rolling")},
        ),
    ]
    next: Player | None = None


class EnemyEvent(PlayerInRound):
    """The player taking a turn picks their enemy for a phase."""

    what: ClassVar[str] = words("an enemy pick")
    type: Literal["enemy"]
    phase: str
    enemy: Player


class DealEvent(EventModel):
    """A deal at the start of a turn: from's seat (X-Seat-Token) or the table's edit token; one
    that gives a ploy, from's seat only, and the ploy is shown to from and to only."""

    what: ClassVar[str] = words("a deal")
    type: Literal["deal"]
    round: Round
    from_: Annotated[Player, Field(alias="from")]
    to: Player
    cp: whole(0) = 0
    vp: whole(0) = 0
    ploy: PloyId | None = None
    note: text(MAX_NOTE, notes=True) = ""


class BuyEvent(EventModel):
    """A ploy bought before the round's first turn (secret)."""

    what: ClassVar[str] = words("a buy")
    type: Literal["buy"]
    round: Round
    player: Player
    ploy: PloyId


class BonusPloyEvent(EventModel):
    """A neutral player's bonus ploy right after an enemy pick (the ploy is secret, the roll public)."""

    what: ClassVar[str] = words("a bonus_ploy")
    type: Literal["bonus_ploy"]
    round: Round
    player: Player
    roll: Die
    ploy: PloyId


class DiscardEvent(EventModel):
    """A held ploy discarded (secret)."""

    what: ClassVar[str] = words("a discard")
    type: Literal["discard"]
    round: Round | None = None
    player: Player
    ploy: PloyId


class PlayEvent(EventModel):
    """A held ploy played and shown to everyone."""

    what: ClassVar[str] = words("a play")
    type: Literal["play"]
    round: Round
    player: Player
    ploy: PloyId


class DestroyedEvent(EventModel):
    """A unit destroyed, for the scenarios that score its points."""

    what: ClassVar[str] = words("a destroyed unit")
    type: Literal["destroyed"]
    round: Round
    by: Player
    owner: Player
    unit: name(MAX_UNIT)
    points: whole(0, MAX_POINTS, says=f"the unit's points cost, 0 to {MAX_POINTS}")


class ContingentsEvent(EventModel):
    """Convergence of Fate: a player's vanguard and reinforcements, counts or unit names (secret)."""

    what: ClassVar[str] = words("contingents")
    type: Literal["contingents"]
    player: Player
    vanguard: Contingent | None = None
    reinforcements: Contingent | None = None


class Zone(Part):
    """A border zone held alone, and its die of VP."""

    player: Player
    die: Roll


class TreacheryTurnEvent(ControlledTurn):
    """Triumph & Treachery: the end of a player's turn and the scenario's facts."""

    dice: Annotated[
        dict[str, Roll] | None,
        Field(
            description="Each held objective's die of VP.", json_schema_extra={"x-muster-keys": "objectives"}
        ),
    ] = None
    zones: Annotated[list[Zone] | None, Field(max_length=MAX_ZONES)] = None


class Renown(Part):
    """A unit gaining renown."""

    player: Player
    unit: name(MAX_UNIT)


class TreacheryEndEvent(EventModel):
    """The end: tie_break and renown (The Old World), or monolith and closest (Convergence of Fate)."""

    what: ClassVar[str] = words("the end")
    type: Literal["end"]
    tie_break: Annotated[
        list[Player],
        Field(
            max_length=6,
            json_schema_extra={
                SAYS: words("a list of players' indexes in the order the roll-off placed them")
            },
        ),
    ] = Field(default_factory=list)
    renown: Annotated[list[Renown], Field(max_length=MAX_UNITS * 6)] = Field(default_factory=list)
    monolith: Player | None = None
    closest: Annotated[
        list[Player],
        Field(
            max_length=6,
            json_schema_extra={
                SAYS: words("a list of the players whose models are closest to the monolith (tied: each)")
            },
        ),
    ] = Field(default_factory=list)


def _limits(game: Any) -> dict[str, int]:
    return {"rounds": game.last_round}


EVENTS = EventSet(
    "treachery",
    TreacheryBattleRoundEvent,
    RollOffEvent,
    DealEvent,
    BuyEvent,
    DiscardEvent,
    EnemyEvent,
    BonusPloyEvent,
    PlayEvent,
    DestroyedEvent,
    ContingentsEvent,
    TreacheryTurnEvent,
    TreacheryEndEvent,
    limits=_limits,
)
