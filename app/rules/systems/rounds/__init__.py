"""Victory Phases (Conquest: First Blood): one event a round scores every player at once.

The state is :class:`.scoring.RoundGame`; :mod:`.scoring` applies one event and holds the
scoring blocks the packs declare.
"""

from __future__ import annotations

from typing import Any

from app.rules.facts import FactSpec
from app.rules.pack import Pack, Scenario
from app.rules.speech import say
from app.rules.systems import EngineSystem, register
from app.rules.systems.rounds import scoring
from app.rules.systems.rounds.scoring import RoundGame
from app.rules.systems.turns.sentence import said


class Rounds(EngineSystem):
    """The game system of Victory Phases; a Victory Phase is played in the open."""

    def unknown_event(self, state: RoundGame, kind: Any) -> str | None:
        if kind == "claim":
            # The claim event exists for rules such as Predators and Prey; no First Blood rule has one.
            return say(
                "rule: {scenario} has no rule a player claims (such as predators-and-prey), "
                "so no claim can be recorded.",
                scenario=state.scenario.name,
            )
        return None

    def facts(self, pack: Pack, scenario: Scenario) -> list[FactSpec]:
        return scoring.round_facts(pack, scenario)

    def scoring(self, pack: Pack, scenario: Scenario) -> list[str]:
        return scoring.describe_scoring(pack, scenario)

    def summary(self, state: RoundGame, seat: int | None = None) -> dict[str, Any]:
        result = state.result
        holders = scoring.map_state(state).holders
        return {
            "status": state.status,
            "battle_rounds": state.last_round,
            "vp_threshold": state.threshold(),
            "round": min(state.current_round, state.last_round),
            "next": None if state.finished else {"round": state.current_round},
            "players": [
                {"name": pl.name, "side": pl.side, "vp": state.vp(i)}
                for i, pl in enumerate(state.setup.players)
            ],
            "rounds": [
                {
                    "event": ph.event,
                    "round": ph.round,
                    "seized": ph.seized,
                    "players": [part.as_dict() for part in ph.players],
                }
                for ph in state.phases
            ],
            "objectives": [
                {
                    "id": o.id,
                    "label": o.label,
                    "kind": o.kind,
                    "holder": holders.get(o.id),
                    "destroyed": (
                        {"round": state.destroyed[o.id][0], "by": state.destroyed[o.id][1]}
                        if o.id in state.destroyed
                        else None
                    ),
                    "wounds": {str(pl): n for (mid, pl), n in sorted(state.wounds.items()) if mid == o.id},
                    "x": state.where(o)[0] if state.where(o) else None,
                    "y": state.where(o)[1] if state.where(o) else None,
                }
                for o in state.scenario.objectives
            ],
            "rolls": [r.as_dict() for r in state.rolls],
            "result": {**result.as_dict(), "reason": said(result.reason)} if result else None,
        }


SYSTEM = register(Rounds("rounds", scoring))
