"""Duel: a sixth game system living outside app/, in one folder, as a test's fixture.

Its rules are :mod:`.engine`, its web side :mod:`.web` (the only module here that knows Flask),
its screens ``templates/``, its score sheet ``pdf/sheet.html`` with its own ``pdf/sheet.css``,
its pack ``rulepacks/duel-test.yaml`` with the pack section and victory check of
:mod:`.section`, and its entries' words :mod:`.words`. An app finds it when its ``SYSTEMS``
(or ``MUSTER_SYSTEMS``) names ``tests.systems.duel``; nothing in app/ lists it.
"""

from __future__ import annotations

from typing import Any

from app.rules.facts import FactSpec
from app.rules.pack import Pack, Scenario
from app.rules.systems import EngineSystem, register
from tests.systems.duel import engine
from tests.systems.duel.engine import DuelGame


class Duel(EngineSystem):
    """Two players, a bout a round, played in the open."""

    round_word = "bout"

    def facts(self, pack: Pack, scenario: Scenario) -> list[FactSpec]:
        return []

    def scoring(self, pack: Pack, scenario: Scenario) -> list[str]:
        checks = [c.check for c in pack.victory(scenario).order]
        most = "bouts won" if "most-bouts" in checks else "VP"
        return [f"A bout won scores 1 VP; after {scenario.battle_rounds} bouts the most {most} wins."]

    def summary(self, state: DuelGame, seat: int | None = None) -> dict[str, Any]:
        result = state.result
        return {
            "status": state.status,
            "battle_rounds": state.last_round,
            "round": state.current_round,
            "players": [
                {"name": pl.name, "side": pl.side, "vp": state.vp(i)}
                for i, pl in enumerate(state.setup.players)
            ],
            "bouts": [{"round": r + 1, "winner": w} for r, w in enumerate(state.bouts)],
            "conceded": state.conceded,
            "rolls": [r.as_dict() for r in state.rolls],
            "result": result.as_dict() if result else None,
        }


SYSTEM = register(Duel("duel", engine))
