"""Tunnel Fighting and Tunnel Wars: three battles, a secret contingent for each, a beast below.

The state is :class:`.state.TunnelGame`; :mod:`.engine` applies one event. A contingent
picked for a battle is a secret of its player's seat until both players' picks are in; then
neither is taken back, unless both players ask to pick again.
"""

from __future__ import annotations

from typing import Any

from app.rules.army import RosterUnit
from app.rules.facts import FactSpec
from app.rules.pack import Pack, Scenario
from app.rules.speech import say, words
from app.rules.systems import CheckedByPlayer, EngineSystem, SeatsBySecretTypes, register
from app.rules.systems.tunnels import engine
from app.rules.systems.tunnels.state import TunnelGame

# How the series ends, one whole sentence for each kind of victory.
_WINS = {
    "major": words("Win {won} of the {battles} battles: a major victory."),
    "minor": words("Win {won} of the {battles} battles: a minor victory."),
}


class Tunnels(SeatsBySecretTypes, CheckedByPlayer, EngineSystem):
    """The game system of Tunnel Wars: two players, seated, a secret contingent each battle,
    the contingents checked against the player's roster."""

    round_word = "battle"

    def facts(self, pack: Pack, scenario: Scenario) -> list[FactSpec]:
        return [
            FactSpec(
                "winner", "battle_result", "player", say("Player whose opponent's contingent was destroyed")
            )
        ]

    def scoring(self, pack: Pack, scenario: Scenario) -> list[str]:
        out = [say(_WINS[s.kind], won=s.won, battles=scenario.battles or 3) for s in scenario.series]
        return [*out, say("Otherwise the series is a draw.")]

    # An army's three contingents, named from its attached roster.
    roster_events = ("contingents",)

    def roster_problems(
        self, scenario: Scenario, event: dict[str, Any], units: list[RosterUnit]
    ) -> list[str]:
        return engine.roster_problems(event, [u.name for u in units])

    def revealed(self, event: dict[str, Any], state: TunnelGame) -> bool:
        """Both contingents of the pick's battle are in: each is shown (with its general)."""
        battle = event.get("battle")
        return isinstance(battle, int) and state.revealed(battle)

    def summary(self, state: TunnelGame, seat: int | None = None) -> dict[str, Any]:
        """The series as ``seat`` may see it (``None``: a watcher, or the table's edit token)."""
        g = state
        result = g.result
        return {
            "status": g.status,
            "battles": g.battles,
            "battle": min(g.current_battle, g.battles),
            # As every game says them: a battle has no round limit, so the most Muster records.
            "battle_rounds": g.scenario.battle_rounds or 20,
            "round": len(g.rounds_in(min(g.current_battle, g.battles))) or 1,
            "rounds": [
                {"event": r.event, "battle": r.battle, "round": r.round, "first": r.first} for r in g.rounds
            ],
            "objectives": [],
            "next": (
                None
                if g.finished
                else {"battle": g.current_battle, "round": len(g.rounds_in(g.current_battle)) + 1}
            ),
            "players": [
                {"name": pl.name, "side": pl.side, "seat": i == seat, "battles_won": g.wins(i)}
                for i, pl in enumerate(g.setup.players)
            ],
            "contingents": {
                str(i): {"sizes": list(s.sizes), "units": [list(u) for u in s.units]}
                for i, s in g.splits.items()
            },
            "used": {str(i): _used(g, i, seat) for i in range(g.player_count)},
            "series": [_battle(g, b, seat) for b in range(1, min(g.current_battle, g.battles) + 1)],
            "reminders": [{"id": r.id, "name": r.name, "summary": r.summary} for r in g.scenario.rules],
            "result": result.as_dict() if result else None,
            "rolls": [r.as_dict() for r in g.rolls],
        }


def _used(g: TunnelGame, player: int, seat: int | None) -> list[int]:
    """The contingents a player has sent, as ``seat`` may know them (a hidden pick left out)."""
    return sorted(
        k.contingent for k in g.picks if k.player == player and (player == seat or g.revealed(k.battle))
    )


def _battle(g: TunnelGame, b: int, seat: int | None) -> dict[str, Any]:
    picks = g.picks_in(b)
    shown = g.revealed(b)
    out_contingents: dict[str, int | None] = {}
    generals: dict[str, str | None] = {}
    for i in range(g.player_count):
        pick = picks.get(i)
        visible = pick is not None and (shown or i == seat)
        out_contingents[str(i)] = pick.contingent if visible and pick else None
        generals[str(i)] = pick.general if visible and pick else None
    result = next((r for r in g.results if r.battle == b), None)
    denizen = []
    for r in sorted(
        {x.round for x in g.roll_offs if x.battle == b} | {c.round for c in g.changes if c.battle == b}
    ):
        off = next((x for x in g.roll_offs if (x.battle, x.round) == (b, r)), None)
        changes = [c for c in g.changes if (c.battle, c.round) == (b, r)]
        denizen.append(
            {
                "round": r,
                "roll_off": [list(pair) for pair in off.dice] if off else None,
                "winner": off.winner if off else None,
                "commander": g.commander(b, r),
                "attacked_by": next((c.player for c in changes if c.kind == "attack"), None),
                "tamed_by": next((c.player for c in changes if c.kind == "tame"), None),
            }
        )
    return {
        "battle": b,
        "picked": {str(i): i in picks for i in range(g.player_count)},
        "revealed": shown,
        # Who has asked to pick this battle's contingents again (both: both pick again, in secret).
        "repick": {str(i): i in g.repick_asked(b) for i in range(g.player_count)},
        "contingents": out_contingents,
        "generals": generals,
        "rounds": [{"event": r.event, "round": r.round, "first": r.first} for r in g.rounds_in(b)],
        "denizen": denizen,
        "unstable": [u.as_dict() for u in g.unstable if u.battle == b],
        "traps": [t.as_dict() for t in g.traps if t.battle == b],
        "finished": result is not None,
        "winner": result.winner if result else None,
    }


SYSTEM = register(Tunnels("tunnels", engine))
