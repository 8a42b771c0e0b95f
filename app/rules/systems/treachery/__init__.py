"""Triumph & Treachery: three to six players, each on their own phone with their own secrets.

The state is :class:`.state.TreacheryGame`; :mod:`.events` applies one event, :mod:`.allowed`
says what may be recorded now (and refuses the rest), :mod:`.standing` holds the purchase
limits and the ranking, :mod:`.plan` the next steps, :mod:`.describe` the facts and scoring
lines. Buying a ploy, a bonus ploy, a discard and a player's contingents are secrets of that
player's seat (contingents until their reinforcements are on the table); a ploy given in a deal
is the giver's and the receiver's secret. A held ploy is shown to everyone once it is played.
"""

from __future__ import annotations

from typing import Any

from app.rules.army import RosterUnit
from app.rules.facts import FactSpec
from app.rules.pack import Pack, Scenario
from app.rules.systems import CheckedByPlayer, EngineSystem, register, seat_of, undo_entry
from app.rules.systems.treachery import allowed, describe, events, plan
from app.rules.systems.treachery.state import TreacheryGame

#: The events only their player's seat may record, and the fields another seat never sees.
SECRET_FIELDS: dict[str, tuple[str, ...]] = {
    "buy": ("ploy",),
    # The bonus roll is thrown at the table for all to see; the ploy it gains is secret.
    "bonus_ploy": ("ploy",),
    "discard": ("ploy",),
    # Every contingent's units or count (the fields are the scenario's contingent ids).
    "contingents": (),
}

#: Public events only their player's seat may record: a ploy is played from its holder's hand,
#: so nobody else can spend it, or learn from a refusal which ploys that player lacks.
SIGNED: tuple[str, ...] = ("play",)

#: A deal spends its giver's points (``from``): their seat records it, or the table's edit token;
#: one that gives a ploy is the giver's secret (and the receiver's), for the giver's seat only.
DEAL = "deal"


class Treachery(CheckedByPlayer, EngineSystem):
    """The game system of multiplayer battles with command points, deals and secret ploys (the
    seats capability, its own way), the contingents checked against the player's roster."""

    round_word = "battle round"

    def facts(self, pack: Pack, scenario: Scenario) -> list[FactSpec]:
        return describe.facts(pack, scenario)

    def scoring(self, pack: Pack, scenario: Scenario) -> list[str]:
        return describe.scoring(pack, scenario)

    def holder(self, event: dict[str, Any]) -> int | None:
        kind = event.get("type")
        if kind == DEAL:
            return seat_of(event.get("from"))
        if not isinstance(kind, str) or (kind not in SECRET_FIELDS and kind not in SIGNED):
            return None
        # A malformed player is no seat's secret; the rules refuse the event for it.
        return seat_of(event.get("player"))

    def secret(self, event: dict[str, Any]) -> bool:
        if self.holder(event) is None:
            return False
        kind = event.get("type")
        return kind in SECRET_FIELDS or (kind == DEAL and event.get("ploy") is not None)

    def table_may_record(self, event: dict[str, Any]) -> bool:
        """A deal of command points and VP only: the table's edit token records it for its giver."""
        return event.get("type") == DEAL and not self.secret(event)

    def visible_event(
        self, event: dict[str, Any], seat: int | None, state: TreacheryGame | None = None
    ) -> dict[str, Any]:
        # A bought ploy stays secret in the log for good: playing it is an event of its own.
        holder = self.holder(event)
        if holder is None or holder == seat or not self.secret(event):
            return event
        kind = str(event["type"])
        if kind == DEAL:  # the receiver knows what they were given; the others that a ploy was
            if seat == seat_of(event.get("to")):
                return event
            return {k: v for k, v in event.items() if k != "ploy"} | {"hidden": True}
        hidden = SECRET_FIELDS[kind]
        if not hidden:  # contingents: everything but who recorded them, until they are shown
            if state is not None and state.contingents_shown(holder):
                return event
            return {k: v for k, v in event.items() if k in ("id", "type", "round", "player")}
        return {k: v for k, v in event.items() if k not in hidden}

    # Convergence of Fate's vanguard and reinforcements, named from an attached roster.
    roster_events = ("contingents",)

    def roster_problems(
        self, scenario: Scenario, event: dict[str, Any], units: list[RosterUnit]
    ) -> list[str]:
        return events.contingent_roster_problems(scenario, event, [u.name for u in units])

    def summary(self, state: TreacheryGame, seat: int | None = None) -> dict[str, Any]:
        return describe.summary(state, seat)

    def next_steps(self, state: TreacheryGame) -> dict[str, Any]:
        return plan.next_steps(state)

    def open_entries(self, state: TreacheryGame, seat: int | None) -> dict[str, Any]:
        """What may be recorded now from ``seat`` (``None``: the table), and why not the rest."""
        return {**allowed.open_entries(state, seat), "undo": undo_entry(self, state, seat)}


SYSTEM = register(Treachery("treachery", events))
