"""Sieges (Siege Warfare, The Relief Force): secret siege tactics, siege rolls, a relief force.

The state is :class:`.state.SiegeGame`; :mod:`.engine` applies one event and says what may be
recorded now. Each player's siege tactic is a secret of their seat: nobody else sees it until
both are in; then neither is taken back, unless both players ask to pick again.
"""

from __future__ import annotations

from typing import Any

from app.rules.army import RosterUnit
from app.rules.facts import FactSpec
from app.rules.game import Setup
from app.rules.pack import Pack, Scenario
from app.rules.speech import say
from app.rules.systems import EngineSystem, SeatsBySecretTypes, register
from app.rules.systems.siege import engine
from app.rules.systems.siege.state import SIDES, SiegeGame
from app.rules.terrain import Piece


class Siege(SeatsBySecretTypes, EngineSystem):
    """The game system of sieges: two players, seated, with one secret each; its rosters and
    its objectives are checked (the seats, roster and terrain capabilities)."""

    round_word = "battle round"

    def facts(self, pack: Pack, scenario: Scenario) -> list[FactSpec]:
        return [
            FactSpec("first", "battle_round", "player", say("Player taking the first turn")),
            FactSpec("attacker_objectives", "end", "count", say("Objectives the attacker controls"), True, 3),
        ]

    def scoring(self, pack: Pack, scenario: Scenario) -> list[str]:
        total = max((r.count for r in scenario.objective_results), default=0)
        return [
            engine.holds(r.kind, r.side, r.count, total)
            for r in sorted(scenario.objective_results, key=lambda r: -r.count)
        ]

    # The defender's garrison and relief force, and the attacker's units sent into a tunnel,
    # named from that player's attached roster.
    roster_events = ("contingents", "tunnel_party")

    def roster_problems(
        self, scenario: Scenario, event: dict[str, Any], units: list[RosterUnit]
    ) -> list[str]:
        if event.get("type") == "tunnel_party":
            return engine.party_roster_problems(event, units)
        return engine.roster_problems(event, [u.name for u in units])

    def roster_player(self, setup: Setup, event: dict[str, Any]) -> int | None:
        """Neither event names a player: the contingents are the defender's army, the tunnel
        party the attacker's."""
        attacker, defender = engine.sides(setup)
        return attacker if event.get("type") == "tunnel_party" else defender

    # Each objective goes on a terrain feature wholly within the defender's territory.
    terrain_events = ("objective",)

    def terrain_problems(self, state: SiegeGame, event: dict[str, Any], pieces: list[Piece]) -> list[str]:
        return engine.terrain_problems(state, event, pieces)

    def revealed(self, event: dict[str, Any], state: SiegeGame) -> bool:
        """Both tactics are in: each is shown to everyone."""
        return state.revealed

    def summary(self, state: SiegeGame, seat: int | None = None) -> dict[str, Any]:
        """The siege as ``seat`` may see it (``None``: a watcher, or the table's edit token)."""
        g = state
        current = g.current_round
        return {
            "status": g.status,
            "battle_rounds": g.battle_rounds,
            "round": min(current, g.battle_rounds),
            "stage": g.stage,
            "next": None if g.finished else {"round": current, "players": g.next_players()},
            "players": [
                {"name": pl.name, "side": g.side(i), "seat": i == seat}
                for i, pl in enumerate(g.setup.players)
            ],
            "siege": _siege(g, seat),
            "contingents": _split(g),
            "rounds": [r.as_dict() for r in g.rounds.values()],
            "turns": [t.as_dict() for t in g.turns],
            "relief": {
                "arrived": g.arrived,
                "edge": g.edge.edge if g.edge else None,
                "edge_die": g.edge.die if g.edge else None,
                "target": g.scenario.relief.target if g.scenario.relief else None,
                "rolls": [
                    {
                        "event": x.event,
                        "round": x.round,
                        "dice": list(x.dice),
                        "total": x.total,
                        "arrived": x.arrived,
                    }
                    for x in g.relief_rolls
                ],
            },
            # The objectives go on terrain features in the defender's territory, in turn.
            "objectives": [
                {"id": f"objective-{o.number}", "label": str(o.number), "event": o.event}
                | {"player": o.player, "feature": o.feature}
                for o in g.objectives
            ],
            "objectives_total": g.objective_count,
            "next_objective": (
                {"number": len(g.objectives) + 1, "player": g.next_placer}
                if g.next_placer is not None and not g.finished and not g.rounds and not g.turns
                else None
            ),
            "control_exception": _rule(g.scenario, "controlling-objectives"),
            "reminders": [{"id": r.id, "name": r.name, "summary": r.summary} for r in g.scenario.rules],
            "attacker_objectives": g.ending.attacker_objectives if g.ending else None,
            "result": g.result.as_dict() if g.result else None,
            "rolls": [r.as_dict() for r in g.rolls],
        }


def _rule(scenario: Scenario, rule_id: str) -> str | None:
    found = next((r for r in scenario.rules if r.id == rule_id), None)
    return found.summary if found else None


def _siege(g: SiegeGame, seat: int | None) -> dict[str, Any]:
    """The siege phase: tactics hidden from all but their holder until both are in."""
    tactics: dict[str, int | None] = {}
    names: dict[str, str | None] = {}
    for side in SIDES:
        pick = g.picks.get(g.of_side(side))
        shown = pick is not None and (g.revealed or pick.player == seat)
        tactics[side] = pick.die if shown and pick else None
        found = g.rules.tactic(pick.die) if shown and pick else None
        names[side] = found.name if found else None
    cell = g.modifiers
    tunnel = g.tunnel
    return {
        "picked": {side: g.of_side(side) in g.picks for side in SIDES},
        "revealed": g.revealed,
        # Who has asked to pick the tactics again (both: both pick again, in secret).
        "repick": {side: g.of_side(side) in g.repick for side in SIDES},
        "tactics": tactics,
        "tactic_names": names,
        "modifiers": {"batter": cell.batter, "starve": cell.starve, "tunnel": cell.tunnel} if cell else None,
        "batter": [r.as_dict() for r in g.batter] if g.batter is not None else None,
        "starve": [r.as_dict() for r in g.starve] if g.starve is not None else None,
        "tunnel": (
            {
                "attacker_die": tunnel.attacker_die,
                "defender_die": tunnel.defender_die,
                "modified": tunnel.modified,
                "completed": tunnel.completed,
            }
            if tunnel
            else None
        ),
        "tunnel_party": list(g.party) if g.party is not None else None,
    }


def _split(g: SiegeGame) -> dict[str, Any] | None:
    s = g.split
    if s is None:
        return None
    return {
        "garrison": s.garrison,
        "relief": s.relief,
        "garrison_units": list(s.garrison_units),
        "relief_units": list(s.relief_units),
    }


SYSTEM = register(Siege("siege", engine))
