"""Player turns (Age of Sigmar Pitched Battles): each player's turn scores, battle rounds in order.

The state is :class:`.state.Game`; :mod:`.scoring` applies one event, :mod:`.blocks` holds
the named scoring blocks the packs declare.
"""

from __future__ import annotations

from typing import Any

from app.rules.facts import FactSpec
from app.rules.pack import Pack, Scenario
from app.rules.systems import EngineSystem, register
from app.rules.systems.turns import scoring
from app.rules.systems.turns.sentence import said
from app.rules.systems.turns.state import Game


class Turns(EngineSystem):
    """The game system of player turns; nothing in Pitched Battles is hidden."""

    round_word = "battle round"

    def facts(self, pack: Pack, scenario: Scenario) -> list[FactSpec]:
        return scoring.scenario_facts(pack, scenario)

    def scoring(self, pack: Pack, scenario: Scenario) -> list[str]:
        return scoring.describe_scoring(scenario)

    def summary(self, state: Game, seat: int | None = None) -> dict[str, Any]:
        result = state.result
        players = []
        for i, player in enumerate(state.setup.players):
            end = state.ends.get(i)
            players.append(
                {
                    "name": player.name,
                    "side": player.side,
                    "vp": state.vp(i),
                    "tactics_completed": state.tactics_completed(i),
                    "tactics_used": state.tactics_used(i),
                    "grand_strategy": player.grand_strategy,
                    "grand_strategy_completed": end.grand_strategy_completed if end else None,
                    "grand_strategy_vp": end.vp if end else 0,
                }
            )
        current = state.current_round
        last = state.scenario.battle_rounds
        # Compared by id: pydantic compares two models field by field.
        in_play = {o.id for o in state.in_play(min(current, last))}
        return {
            "status": state.status,
            "battle_rounds": last,
            "round": min(current, last),
            "next": {"round": current, "players": state.next_players()} if not state.finished else None,
            "players": players,
            "rounds": [
                {"event": r.event, "round": r.round, "first": r.first, **r.facts}
                for r in sorted(state.rounds.values(), key=lambda r: r.round)
            ],
            "turns": [
                _scored(t, tactic=t.tactic, tactic_completed=t.tactic_completed, control=t.control)
                for t in state.turns
            ],
            # Claims score in their battle round (round_vp adds them to the player's turn there).
            "claims": [_scored(c, rule=c.rule) for c in state.claims],
            "objectives": [
                {
                    "id": o.id,
                    "label": o.label,
                    "in_play": o.id in in_play,
                    "removed": (
                        {"round": state.removed[o.id].round, "why": said(state.removed[o.id].why)}
                        if o.id in state.removed
                        else None
                    ),
                }
                for o in state.scenario.objectives
            ],
            "result": {**result.as_dict(), "reason": said(result.reason)} if result else None,
            "rolls": [r.as_dict() for r in state.rolls],
        }


def _scored(entry: Any, **facts: Any) -> dict[str, Any]:
    """A turn or a claim as the API lists it: who, when, what was recorded and the VP it gave."""
    return {
        "event": entry.event,
        "round": entry.round,
        "player": entry.player,
        **facts,
        "vp": entry.vp,
        "breakdown": [{**a.as_dict(), "rule": said(a.rule)} for a in entry.awards],
    }


SYSTEM = register(Turns("turns", scoring))
