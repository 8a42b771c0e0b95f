"""A game's state as the events build it: turns, round starts, ends, and the result.

Pure data plus the questions the rules ask of it (who is next, which objectives are on the
battlefield, who has how many VP). :mod:`app.rules.systems.turns.scoring` builds it from the events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from app.rules import battle_rounds
from app.rules import pack as p
from app.rules.facts import FactSpec
from app.rules.game import GameState
from app.rules.outcome import Award, Result
from app.rules.speech import say, words

if TYPE_CHECKING:
    from app.rules.systems.turns.blocks import Rule


@dataclass
class Turn:
    event: str
    round: int
    player: int
    control: dict[str, int | None]
    tactic: str | None
    tactic_completed: bool
    tactic_bonus: bool
    facts: dict[str, Any]
    awards: list[Award] = field(default_factory=list)

    @property
    def vp(self) -> int:
        return sum(a.vp for a in self.awards)

    def controlled_by(self, player: int) -> list[str]:
        return [o for o, who in self.control.items() if who == player]


@dataclass
class RoundStart:
    event: str
    round: int
    first: int | None
    facts: dict[str, Any]


@dataclass
class Claim:
    """VP a player claims under a rule while a battle round is in play (Predators and Prey)."""

    event: str
    round: int
    player: int
    rule: str
    awards: list[Award] = field(default_factory=list)

    @property
    def vp(self) -> int:
        return sum(a.vp for a in self.awards)


@dataclass
class End:
    event: str
    player: int
    grand_strategy_completed: bool
    awards: list[Award] = field(default_factory=list)

    @property
    def vp(self) -> int:
        return sum(a.vp for a in self.awards)


@dataclass(frozen=True)
class Removal:
    round: int
    why: str


@dataclass
class Game(GameState):
    """Everything the events say about a game, computed afresh on every replay."""

    rules: list[Rule]
    facts: list[FactSpec] = field(default_factory=list)
    rounds: dict[int, RoundStart] = field(default_factory=dict)
    turns: list[Turn] = field(default_factory=list)
    ends: dict[int, End] = field(default_factory=dict)
    claims: list[Claim] = field(default_factory=list)
    removed: dict[str, Removal] = field(default_factory=dict)
    placed: dict[str, int] = field(default_factory=dict)
    immediate: Result | None = None
    _round_memo: tuple[int, int] | None = field(default=None, repr=False, compare=False)

    # --- who and when -------------------------------------------------------------------
    def turns_in(self, round_: int) -> list[Turn]:
        return battle_rounds.within(self.turns, round_)

    @property
    def current_round(self) -> int:
        """The battle round now being played (last round + 1 once all turns are in)."""
        # Asked many times per event while the log is folded: counted once per turn added.
        known = self._round_memo
        if known is not None and known[0] == len(self.turns):
            return known[1]
        r = battle_rounds.current_round(self.turns, self.player_count)
        self._round_memo = (len(self.turns), r)
        return r

    @property
    def turns_complete(self) -> bool:
        return self.current_round > self.scenario.battle_rounds

    def next_players(self) -> list[int]:
        """Players who may record the next turn (in order of the round's first player)."""
        if self.finished or self.turns_complete:
            return []
        r = self.current_round
        start = self.rounds.get(r)
        return battle_rounds.next_players(self.turns, r, self.player_count, start.first if start else None)

    @property
    def round_in_play(self) -> int | None:
        """The battle round claims may be made for: started, with no later round begun yet.

        A round is in play from its ``battle_round`` event until the next round's start (or
        its first turn) or the first ``end`` event; ``None`` when no round is open.
        """
        if self.finished or self.ends:
            return None
        latest = max([*self.rounds, *(t.round for t in self.turns)], default=0)
        return latest if latest in self.rounds else None

    def claims_in(self, round_: int, player: int) -> list[Claim]:
        return [c for c in self.claims if c.round == round_ and c.player == player]

    def round_awards(self, round_: int, player: int) -> list[Award]:
        """Every VP the player scored in that battle round: their turn's, then their claims'."""
        out = [a for t in self.turns if t.round == round_ and t.player == player for a in t.awards]
        return out + [a for c in self.claims_in(round_, player) for a in c.awards]

    def round_vp(self, round_: int, player: int) -> int:
        return sum(a.vp for a in self.round_awards(round_, player))

    def previous_own_turn(self, turn: Turn) -> Turn | None:
        """The same player's turn before this one, if any."""
        idx = self.turns.index(turn) if turn in self.turns else len(self.turns)
        for t in reversed(self.turns[:idx]):
            if t.player == turn.player:
                return t
        return None

    # --- objectives ----------------------------------------------------------------------
    def scheduled(self, round_: int) -> list[p.Objective]:
        """Objectives the scenario puts on the battlefield in that round."""
        return [
            o
            for o in self.scenario.objectives
            if o.from_round <= round_ and (o.until_round is None or round_ <= o.until_round)
        ]

    def in_play(self, round_: int) -> list[p.Objective]:
        """Objectives on the battlefield now, in that round: scheduled and not removed."""
        return [o for o in self.scheduled(round_) if o.id not in self.removed]

    def objective(self, objective_id: str) -> p.Objective | None:
        return self.scenario.objective(objective_id)

    @staticmethod
    def position(objective: p.Objective, round_: int) -> tuple[float | None, float | None]:
        """Where the objective stands in that round, after any scheduled moves."""
        x, y = objective.x, objective.y
        for move in sorted(objective.moves, key=lambda m: m.round):
            if move.round <= round_:
                x, y = move.x, move.y
        return x, y

    def territory_of(self, player: int) -> str | None:
        return self.setup.players[player].side

    # --- totals and result -----------------------------------------------------------------
    def vp(self, player: int) -> int:
        total = sum(t.vp for t in self.turns if t.player == player)
        total += sum(c.vp for c in self.claims if c.player == player)
        end = self.ends.get(player)
        return total + (end.vp if end else 0)

    def tactics_completed(self, player: int) -> int:
        return sum(1 for t in self.turns if t.player == player and t.tactic_completed)

    def tactics_used(self, player: int) -> list[str]:
        return [t.tactic for t in self.turns if t.player == player and t.tactic]

    def awards(self, player: int) -> list[Award]:
        out = [a for t in self.turns if t.player == player for a in t.awards]
        out += [a for c in self.claims if c.player == player for a in c.awards]
        end = self.ends.get(player)
        return out + (end.awards if end else [])

    @property
    def finished(self) -> bool:
        if self.immediate is not None:
            return True
        return self.turns_complete and len(self.ends) == self.player_count

    @property
    def result(self) -> Result | None:
        if self.immediate is not None:
            return self.immediate
        if not self.finished:
            return None
        return decide(self)


# ---------------------------------------------------------------------------------------
# Result
# ---------------------------------------------------------------------------------------
def _leader(values: list[int]) -> int | None:
    best = max(values)
    return values.index(best) if values.count(best) == 1 else None


def _score(values: list[int]) -> str:
    """The scores from the highest, "12 to 8" (the reader's words)."""
    ordered = sorted(values, reverse=True)
    said = str(ordered[0])
    for value in ordered[1:]:
        said = say("{high} to {low}", high=said, low=value)
    return said


def decide(game: Game) -> Result:
    """The result at the end of the battle, from the scenario's victory order (said when read:
    a finished game's result is decided anew each time it is asked for)."""
    n = game.player_count
    vp = [game.vp(i) for i in range(n)]
    tactics = [game.tactics_completed(i) for i in range(n)]
    done = [bool(game.ends.get(i) and game.ends[i].grand_strategy_completed) for i in range(n)]
    for step in game.pack.victory(game.scenario).order:
        if step.check == "most-vp":
            winner = _leader(vp)
            if winner is not None:
                return Result(step.kind, winner, say("Most victory points ({score}).", score=_score(vp)))
        elif step.check == "most-tactics":
            winner = _leader(tactics)
            if winner is not None:
                return Result(
                    step.kind, winner, say("Most battle tactics completed ({score}).", score=_score(tactics))
                )
        elif step.check == "only-grand-strategy" and done.count(True) == 1:
            winner = done.index(True)
            return Result(step.kind, winner, say("Only player to complete their grand strategy."))
    checks = {s.check for s in game.pack.victory(game.scenario).order}
    tied = _DRAWS[("most-vp" in checks, "most-tactics" in checks)]
    if all(done):
        strategies = (
            say("both completed their grand strategy")
            if n == 2
            else say("all {count} players completed their grand strategy", count=n)
        )
    elif not any(done):
        strategies = (
            say("neither completed their grand strategy")
            if n == 2
            else say("none of them completed their grand strategy")
        )
    else:
        strategies = say("grand strategies were split")
    return Result("draw", None, say(tied, strategies=strategies))


# What a draw was level on, by the checks the scenario makes (most VP, most tactics).
_DRAWS = {
    (True, True): words("Level on victory points and battle tactics completed, and {strategies}."),
    (True, False): words("Level on victory points, and {strategies}."),
    (False, True): words("Level on battle tactics completed, and {strategies}."),
    (False, False): words("Level on everything, and {strategies}."),
}
