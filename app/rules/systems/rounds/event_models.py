"""Conquest: First Blood's events as models: a Victory Phase (docs/api.md), checked before the rules."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from app.rules.event_models import SAYS, EventModel, EventSet, Flag, Part, Round, ids, whole, within
from app.rules.speech import words
from app.rules.systems.turns.event_models import Control

MAX_COUNT = 200
Count = whole(0, MAX_COUNT)


class PlayerPhase(Part):
    """One player's part of a Victory Phase."""

    markers_destroyed: ids("markers", "a list of different marker ids") = None
    marker_wounds: Annotated[
        dict[
            str,
            Annotated[
                int | None,
                Field(json_schema_extra={SAYS: words("a whole number from 0 to {marker_wounds}")}),
                Field(ge=0, le=5),
                within("marker_wounds"),
            ],
        ]
        | None,
        Field(
            description="Wounds dealt to each marker this round (up to the pack's marker wounds).",
            json_schema_extra={"x-muster-keys": "markers"},
        ),
    ] = None
    character_slain: Flag = None
    regiments_destroyed: Count | None = None
    officers_slain: Count | None = None
    wiped_out: Flag = None


class VictoryPhaseEvent(EventModel):
    """First Blood: one round's Victory Phase."""

    what: ClassVar[str] = words("a Victory Phase")
    type: Literal["round"]
    round: Annotated[Round, Field(json_schema_extra={SAYS: words("a round from 1 to {rounds}")})]
    control: Control = None
    players: Annotated[
        list[PlayerPhase | None] | None,
        Field(max_length=4, description="One part per player, in game order."),
    ] = None


def _limits(game: Any) -> dict[str, int]:
    # A game over refuses any round with why (its result), not with the round's range.
    rounds = {} if game.finished else {"rounds": game.last_round}
    return {**rounds, "marker_wounds": game.pack.markers.wounds if game.pack.markers else 5}


EVENTS = EventSet("rounds", VictoryPhaseEvent, limits=_limits)
