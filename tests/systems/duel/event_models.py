"""A duel's events as models: a bout won, or a player conceding; checked before the rules."""

from __future__ import annotations

from typing import ClassVar, Literal

from app.rules.event_models import EventModel, EventSet, Player, Round


class BoutEvent(EventModel):
    """One bout fought: who won it."""

    what: ClassVar[str] = "a bout"
    type: Literal["bout"]
    round: Round
    player: Player


class ConcedeEvent(EventModel):
    """A player gives the duel up."""

    what: ClassVar[str] = "conceding"
    type: Literal["concede"]
    player: Player


EVENTS = EventSet("duel", BoutEvent, ConcedeEvent, limits=lambda game: {"rounds": game.last_round})
