"""A duel's rules: two players fight a bout a round; the one who wins more bouts wins the duel.

Plain data in, plain data out, like every engine in app/rules/systems/: no Flask here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.rules.game import GameState, Setup
from app.rules.log import Refused, open_entry
from app.rules.pack import Pack
from tests.systems.duel.event_models import EVENTS

__all__ = ["EVENTS"]


@dataclass(frozen=True)
class Result:
    """How the duel ended: ``win`` or ``draw``, the winner, and why in one sentence."""

    kind: str
    winner: int | None
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "winner": self.winner, "reason": self.reason}


@dataclass
class DuelGame(GameState):
    """A duel so far: the winner of each bout fought, in order, and who conceded, if anyone."""

    bouts: list[int] = field(default_factory=list)
    conceded: int | None = None

    @property
    def last_round(self) -> int:
        return self.scenario.battle_rounds or 1

    @property
    def current_round(self) -> int:
        return min(len(self.bouts) + 1, self.last_round)

    def vp(self, player: int) -> int:
        return self.bouts.count(player)

    @property
    def result(self) -> Result | None:
        if self.conceded is not None:
            winner = 1 - self.conceded
            return Result("win", winner, f"{self.name(self.conceded)} conceded the duel.")
        if len(self.bouts) < self.last_round:
            return None
        a, b = self.vp(0), self.vp(1)
        if a == b:
            return Result("draw", None, f"Both won {a} bouts.")
        winner = 0 if a > b else 1
        return Result("win", winner, f"{self.name(winner)} won {max(a, b)} bouts of {self.last_round}.")


def new_game(pack: Pack, setup: Setup) -> DuelGame:
    """An empty duel for that set-up."""
    return DuelGame(setup, pack, pack.scenario(setup.scenario))


def over_problem(game: DuelGame) -> Refused | None:
    """Why nothing more may be recorded: the duel is over."""
    if game.finished:
        return Refused(
            "type: the duel is over, so nothing more can be recorded; undo the last entry to change it."
        )
    return None


def apply_event(game: DuelGame, event: dict[str, Any], eid: str) -> None:
    """Change ``game`` by one event, or raise :class:`Refused` with the sentence why not."""
    if problem := over_problem(game):
        raise problem
    if event["type"] == "bout":
        round_ = event["round"]
        if round_ != game.current_round:
            raise Refused(
                f"round must be {game.current_round}, the bout being fought now; this one says {round_!r}."
            )
        game.bouts.append(event["player"])
    else:
        game.conceded = event["player"]


def open_entries(game: DuelGame, seat: int | None = None) -> dict[str, Any]:
    """What may be recorded now: the bout of this round, or conceding; both close when it is over."""
    problem = over_problem(game)
    return {"bout": open_entry(problem, round=game.current_round), "concede": open_entry(problem)}


def next_steps(game: DuelGame) -> dict[str, Any]:
    """The bouts a phone may record next (the offline layer follows the plan)."""
    if game.finished:
        return {"plan": ["over"], "in_play": None, "steps": {"over": {}}}
    plan = [f"bout-{r}" for r in range(game.current_round, game.last_round + 1)] + ["over"]
    return {"plan": plan, "in_play": None, "steps": {key: {} for key in plan}}
