"""A game's events -> turns, VP breakdowns, end and result.

A game is its set-up plus an append-only list of events. Nothing derived is stored:
:func:`replay` folds the events into a :class:`Game` every time, and :func:`check` says
whether one more event may be appended (``None``) or why not (one plain sentence).

Scoring is declared by each scenario as a list of named building blocks (see
``app/rules/pack.py``); each block is implemented once here, as a :class:`Rule`.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.rules import pack as p
from app.rules.game import Setup

EVENT_TYPES = ("turn", "battle_round", "end", "undo")
COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


class Refused(Exception):
    """An event the rules do not allow; the message is one plain sentence."""


@dataclass(frozen=True)
class Award:
    """VP given by one rule."""

    rule: str
    vp: int

    def as_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "vp": self.vp}


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
class End:
    event: str
    player: int
    grand_strategy_completed: bool
    awards: list[Award] = field(default_factory=list)

    @property
    def vp(self) -> int:
        return sum(a.vp for a in self.awards)


@dataclass(frozen=True)
class Result:
    kind: str  # "major" | "minor" | "draw"
    winner: int | None
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "winner": self.winner, "reason": self.reason}


@dataclass(frozen=True)
class Removal:
    round: int
    why: str


@dataclass(frozen=True)
class FactSpec:
    """A fact a player records, for the API description and the screens."""

    name: str
    event: str  # "turn" | "battle_round" | "end"
    kind: str  # "flag" | "count" | "objective" | "objectives" | "tactic" | "control" | "placements"
    label: str
    required: bool = False
    max: int | None = None
    from_round: int | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "label": self.label}
        if self.required:
            out["required"] = True
        if self.max is not None:
            out["max"] = self.max
        if self.from_round is not None:
            out["from_round"] = self.from_round
        return out


@dataclass
class Game:
    """Everything the events say about a game, computed afresh on every replay."""

    setup: Setup
    pack: p.Pack
    scenario: p.Scenario
    rules: list[Rule]
    facts: list[FactSpec] = field(default_factory=list)
    rounds: dict[int, RoundStart] = field(default_factory=dict)
    turns: list[Turn] = field(default_factory=list)
    ends: dict[int, End] = field(default_factory=dict)
    removed: dict[str, Removal] = field(default_factory=dict)
    placed: dict[str, int] = field(default_factory=dict)
    immediate: Result | None = None
    effective: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)

    # --- who and when -------------------------------------------------------------------
    @property
    def player_count(self) -> int:
        return len(self.setup.players)

    def name(self, player: int) -> str:
        return self.setup.player_name(player)

    def turns_in(self, round_: int) -> list[Turn]:
        return [t for t in self.turns if t.round == round_]

    @property
    def current_round(self) -> int:
        """The battle round now being played (last round + 1 once all turns are in)."""
        r = 1
        while len(self.turns_in(r)) >= self.player_count:
            r += 1
        return r

    @property
    def turns_complete(self) -> bool:
        return self.current_round > self.scenario.battle_rounds

    def next_players(self) -> list[int]:
        """Players who may record the next turn (in order of the round's first player)."""
        if self.finished or self.turns_complete:
            return []
        r = self.current_round
        done = {t.player for t in self.turns_in(r)}
        start = self.rounds.get(r)
        if not done and start is not None and start.first is not None:
            return [start.first]
        return [i for i in range(self.player_count) if i not in done]

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
        end = self.ends.get(player)
        return total + (end.vp if end else 0)

    def tactics_completed(self, player: int) -> int:
        return sum(1 for t in self.turns if t.player == player and t.tactic_completed)

    def tactics_used(self, player: int) -> list[str]:
        return [t.tactic for t in self.turns if t.player == player and t.tactic]

    def awards(self, player: int) -> list[Award]:
        out = [a for t in self.turns if t.player == player for a in t.awards]
        end = self.ends.get(player)
        return out + (end.awards if end else [])

    @property
    def finished(self) -> bool:
        if self.immediate is not None:
            return True
        return self.turns_complete and len(self.ends) == self.player_count

    @property
    def status(self) -> str:
        return "finished" if self.finished else "in_progress"

    @property
    def result(self) -> Result | None:
        if self.immediate is not None:
            return self.immediate
        if not self.finished:
            return None
        return decide(self)


# ---------------------------------------------------------------------------------------
# Building blocks
# ---------------------------------------------------------------------------------------
class Rule:
    """One scoring building block. Subclasses override only what they do."""

    def __init__(self, block: Any) -> None:
        self.block = block

    def describe(self) -> str:
        """What the block scores or does, in a short sentence for sheets and screens."""
        return ""

    def facts(self, game_pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
        return []

    def check_round(self, game: Game, start: RoundStart) -> None:
        """Raise :class:`Refused` if the round's start facts break this rule."""

    def apply_round(self, game: Game, start: RoundStart) -> None:
        """Change the battlefield at the start of a round."""

    def check_turn(self, game: Game, turn: Turn) -> None:
        """Raise :class:`Refused` if the turn's facts break this rule."""

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        return []

    def after_turn(self, game: Game, turn: Turn) -> None:
        """Change the battlefield once the turn is scored."""

    def score_end(self, game: Game, end: End) -> list[Award]:
        return []


def _count_word(n: int) -> str:
    return COUNT_WORDS.get(n, str(n))


class ControlCount(Rule):
    def describe(self) -> str:
        what = (
            "at least one objective" if self.block.count == 1 else f"{_count_word(self.block.count)} or more"
        )
        return f"{self.block.vp} VP if you control {what} at the end of your turn."

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        n = len(turn.controlled_by(turn.player))
        if n < self.block.count or not self.block.vp:
            return []
        what = (
            "at least one objective"
            if self.block.count == 1
            else (f"{_count_word(self.block.count)} or more objectives")
        )
        return [Award(f"Controls {what}", self.block.vp)]


class ControlMore(Rule):
    def describe(self) -> str:
        return f"{self.block.vp} VP if you control more objectives than the opponent at the end of your turn."

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        mine = len(turn.controlled_by(turn.player))
        others = [len(turn.controlled_by(q)) for q in range(game.player_count) if q != turn.player]
        if mine > max(others, default=0) and self.block.vp:
            return [Award("Controls more objectives than the opponent", self.block.vp)]
        return []


class ControlByTerritory(Rule):
    def describe(self) -> str:
        b = self.block
        return (
            f"At the end of your turn: {b.own} VP for the objective on your own border, {b.neutral} VP "
            f"for each objective off the borders, {b.opponent} VP for the one on the enemy border."
        )

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        mine = game.territory_of(turn.player)
        out = []
        for oid in turn.controlled_by(turn.player):
            obj = game.objective(oid)
            if obj is None:
                continue
            place = "border" if obj.border else "territory"
            if obj.territory is None:
                vp, where = self.block.neutral, "in neither territory"
            elif obj.territory == mine:
                vp, where = self.block.own, f"on your own {place}"
            else:
                vp, where = self.block.opponent, f"on the enemy {place}"
            if vp:
                out.append(Award(f"Controls {obj.label} ({where})", vp))
        return out


class HeldCount(Rule):
    def describe(self) -> str:
        what = (
            "at least one objective" if self.block.count == 1 else f"{_count_word(self.block.count)} or more"
        )
        return f"{self.block.vp} VP if you have held {what} at the end of two of your turns in a row."

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        before = game.previous_own_turn(turn)
        if before is None:
            return []
        held = [o for o in turn.controlled_by(turn.player) if before.control.get(o) == turn.player]
        if len(held) < self.block.count or not self.block.vp:
            return []
        what = (
            "at least one objective"
            if self.block.count == 1
            else (f"{_count_word(self.block.count)} or more objectives")
        )
        return [Award(f"Held {what} for two of your turns in a row", self.block.vp)]


class AlphaBeta(Rule):
    def describe(self) -> str:
        return (
            f"At the end of your turn: {self.block.alpha_vp} VP for the alpha objective, "
            f"{self.block.beta_vp} VP for each beta objective you control."
        )

    def facts(self, game_pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
        return [
            FactSpec(
                "alpha",
                "battle_round",
                "objective",
                "Alpha objective for this battle round (roll a D3)",
                required=True,
            )
        ]

    def check_round(self, game: Game, start: RoundStart) -> None:
        alpha = start.facts.get("alpha")
        if alpha is None:
            raise Refused(
                f"alpha is required: roll a D3 for battle round {start.round} and name that objective."
            )
        _check_objective_in_play(game, "alpha", alpha, start.round)

    def check_turn(self, game: Game, turn: Turn) -> None:
        start = game.rounds.get(turn.round)
        if start is None or start.facts.get("alpha") is None:
            raise Refused(
                f"Record battle round {turn.round}'s alpha objective (the D3 roll) before its turns."
            )

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        alpha = game.rounds[turn.round].facts["alpha"]
        out = []
        for oid in turn.controlled_by(turn.player):
            obj = game.objective(oid)
            label = obj.label if obj else oid
            if oid == alpha and self.block.alpha_vp:
                out.append(Award(f"Controls the alpha objective ({label})", self.block.alpha_vp))
            elif oid != alpha and self.block.beta_vp:
                out.append(Award(f"Controls a beta objective ({label})", self.block.beta_vp))
        return out


class ControlRoundMultiplied(Rule):
    def describe(self) -> str:
        return "At the end of your turn: VP equal to the battle round number for each objective you control."

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        out = []
        for oid in turn.controlled_by(turn.player):
            obj = game.objective(oid)
            label = obj.label if obj else oid
            out.append(
                Award(f"Controls {label} in battle round {turn.round} ({turn.round} VP each)", turn.round)
            )
        return out


class TacticRule(Rule):
    def describe(self) -> str:
        return f"{self.block.vp} VP if you completed the battle tactic picked that turn (some add a MONSTER bonus)."

    def facts(self, game_pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
        return [FactSpec("tactic_bonus", "turn", "flag", "MONSTER bonus earned (where the tactic has one)")]

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        if not turn.tactic_completed or turn.tactic is None:
            return []
        tactic = game.pack.tactic(turn.tactic)
        name = tactic.name if tactic else turn.tactic
        out = [Award(f"Battle tactic completed: {name}", self.block.vp)] if self.block.vp else []
        if turn.tactic_bonus and tactic is not None and tactic.bonus is not None:
            out.append(Award(f"MONSTER bonus: {name}", tactic.bonus.vp))
        return out


class FactCount(Rule):
    def describe(self) -> str:
        return f"{self.block.vp} VP for each: {self.block.label.lower()}."

    def facts(self, game_pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
        return [FactSpec(self.block.fact, "turn", "count", self.block.label, max=self.block.max_total)]

    def _value(self, turn: Turn) -> int:
        return turn.facts.get(self.block.fact) or 0

    def check_turn(self, game: Game, turn: Turn) -> None:
        value = turn.facts.get(self.block.fact)
        if value is None:
            return
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise Refused(f"{self.block.fact} must be a whole number, 0 or more.")
        cap = self.block.max_total
        if cap is not None:
            before = sum(self._value(t) for t in game.turns if t.player == turn.player)
            if before + value > cap:
                raise Refused(
                    f"{self.block.fact} would bring {game.name(turn.player)} to "
                    f"{before + value}, but there are only {cap} to destroy in the battle."
                )

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        n = self._value(turn)
        if n and self.block.vp:
            return [Award(f"{self.block.label}: {n}", n * self.block.vp)]
        return []


class Raid(Rule):
    def describe(self) -> str:
        return (
            f"From battle round {self.block.from_round}: {self.block.vp} VP for raiding one objective you control "
            "wholly inside the enemy territory (then it is removed)."
        )

    def facts(self, game_pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
        return [
            FactSpec(
                "raided",
                "turn",
                "objective",
                "Objective raided (yours, wholly in the enemy territory)",
                from_round=self.block.from_round,
            )
        ]

    def check_turn(self, game: Game, turn: Turn) -> None:
        oid = turn.facts.get("raided")
        if oid is None:
            return
        if turn.round < self.block.from_round:
            raise Refused(f"raided: objectives can be raided from battle round {self.block.from_round}.")
        obj = _check_objective_in_play(game, "raided", oid, turn.round)
        if turn.control.get(oid) != turn.player:
            raise Refused(
                f"raided: {game.name(turn.player)} must control {obj.label} "
                "at the end of the turn to raid it."
            )
        mine = game.territory_of(turn.player)
        if obj.territory is None or obj.territory == mine:
            raise Refused(f"raided: {obj.label} is not wholly within the enemy territory.")

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        oid = turn.facts.get("raided")
        if oid is None:
            return []
        obj = game.objective(oid)
        return [Award(f"Raided {obj.label if obj else oid}", self.block.vp)]

    def after_turn(self, game: Game, turn: Turn) -> None:
        oid = turn.facts.get("raided")
        if oid is not None:
            game.removed[oid] = Removal(turn.round, f"raided by {game.name(turn.player)}")


class DestroyHeld(Rule):
    def describe(self) -> str:
        a, b, c = self.block.ladder
        return (
            f"From battle round {self.block.from_round}, destroy objectives you control: {a} VP if taken this "
            f"turn, {b} VP if held since your last turn, {c} VP since the turn before, "
            f"{self.block.full_hold_vp} VP if held from battle round 1 to the last battle round."
        )

    def facts(self, game_pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
        return [
            FactSpec(
                "destroyed",
                "turn",
                "objectives",
                "Objectives you control and destroy for VP",
                from_round=self.block.from_round,
            )
        ]

    def check_turn(self, game: Game, turn: Turn) -> None:
        ids = turn.facts.get("destroyed") or []
        if not ids:
            return
        if turn.round < self.block.from_round:
            raise Refused(
                f"destroyed: objectives can be destroyed from battle round {self.block.from_round}."
            )
        for oid in ids:
            obj = _check_objective_in_play(game, "destroyed", oid, turn.round)
            if turn.control.get(oid) != turn.player:
                raise Refused(
                    f"destroyed: {game.name(turn.player)} must control {obj.label} "
                    "at the end of the turn to destroy it."
                )

    def held_since(self, game: Game, turn: Turn, oid: str) -> tuple[int, str]:
        """VP and reason for destroying ``oid`` at the end of ``turn``."""
        history = [*game.turns, turn] if turn not in game.turns else game.turns[: game.turns.index(turn) + 1]
        streak: list[Turn] = []
        for t in reversed(history):
            if t.control.get(oid) != turn.player:
                break
            streak.append(t)
        own_before = [t for t in streak[1:] if t.player == turn.player]
        first, second, third = self.block.ladder
        best, why = first, "taken this turn"
        if own_before:
            best, why = second, "held since the end of your previous turn"
        if len(own_before) >= 2:
            best, why = third, "held since the end of your turn before last"
        last = game.scenario.battle_rounds
        if turn.round == last and streak and streak[-1].round == 1 and self.block.full_hold_vp > best:
            best, why = self.block.full_hold_vp, f"held from battle round 1 to battle round {last}"
        return best, why

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        out = []
        for oid in turn.facts.get("destroyed") or []:
            vp, why = self.held_since(game, turn, oid)
            obj = game.objective(oid)
            out.append(Award(f"Destroyed {obj.label if obj else oid} ({why})", vp))
        return out

    def after_turn(self, game: Game, turn: Turn) -> None:
        for oid in turn.facts.get("destroyed") or []:
            game.removed[oid] = Removal(turn.round, f"destroyed by {game.name(turn.player)}")


class PredatorsAndPrey(Rule):
    def describe(self) -> str:
        return f"Predators and Prey: {self.block.vp} VP once per battle round if enemy MONSTERS were slain in it."

    def facts(self, game_pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
        return [FactSpec("enemy_monsters_slain", "turn", "flag", "Enemy MONSTERS slain this battle round")]

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        if not turn.facts.get("enemy_monsters_slain") or not self.block.vp:
            return []
        label = "Predators and Prey: enemy MONSTERS slain this battle round"
        # At most once per battle round for each player.
        for t in game.turns_in(turn.round):
            if t is not turn and t.player == turn.player and any(a.rule == label for a in t.awards):
                return []
        return [Award(label, self.block.vp)]


class SeismicShift(Rule):
    def describe(self) -> str:
        return (
            f"Seismic Shift: at the start of battle round {self.block.round} the player going second may "
            "remove one objective that is not prime."
        )

    def facts(self, game_pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
        return [
            FactSpec(
                "removed",
                "battle_round",
                "objective",
                f"Seismic Shift: objective removed by the player going second "
                f"(battle round {self.block.round}, not a prime objective)",
                from_round=self.block.round,
            )
        ]

    def check_round(self, game: Game, start: RoundStart) -> None:
        oid = start.facts.get("removed")
        if oid is None:
            return
        if start.round != self.block.round:
            raise Refused(
                f"removed: Seismic Shift removes an objective only at the start of "
                f"battle round {self.block.round}."
            )
        obj = _check_objective_in_play(game, "removed", oid, start.round)
        if obj.prime:
            raise Refused(f"removed: {obj.label} is a prime objective and cannot be removed.")

    def apply_round(self, game: Game, start: RoundStart) -> None:
        oid = start.facts.get("removed")
        if oid is not None:
            game.removed[oid] = Removal(start.round, "removed by Seismic Shift")


class GrandStrategy(Rule):
    def describe(self) -> str:
        return f"{self.block.vp} VP once the battle is over for a completed grand strategy."

    def score_end(self, game: Game, end: End) -> list[Award]:
        if not end.grand_strategy_completed or not self.block.vp:
            return []
        strategy_id = game.setup.players[end.player].grand_strategy
        strategy = game.pack.grand_strategy(strategy_id) if strategy_id else None
        name = f": {strategy.name}" if strategy else ""
        return [Award(f"Grand strategy completed{name}", self.block.vp)]


RULES: dict[str, type[Rule]] = {
    "control-count": ControlCount,
    "control-more": ControlMore,
    "control-by-territory": ControlByTerritory,
    "held-count": HeldCount,
    "alpha-beta": AlphaBeta,
    "control-round-multiplied": ControlRoundMultiplied,
    "tactic": TacticRule,
    "fact-count": FactCount,
    "raid": Raid,
    "destroy-held": DestroyHeld,
    "predators-and-prey": PredatorsAndPrey,
    "seismic-shift": SeismicShift,
    "grand-strategy": GrandStrategy,
}


def _check_objective_in_play(game: Game, field_name: str, oid: Any, round_: int) -> p.Objective:
    if not isinstance(oid, str) or game.objective(oid) is None:
        ids = ", ".join(o.id for o in game.scenario.objectives) or "none"
        raise Refused(
            f"{field_name} names {oid!r}, which is not an objective in "
            f"{game.scenario.name} (objectives: {ids})."
        )
    obj = game.objective(oid)
    assert obj is not None
    if oid in game.removed:
        removal = game.removed[oid]
        raise Refused(
            f"{field_name}: {obj.label} left the battlefield in battle round {removal.round} ({removal.why})."
        )
    if obj not in game.scheduled(round_):
        raise Refused(f"{field_name}: {obj.label} is not on the battlefield in battle round {round_}.")
    return obj


# ---------------------------------------------------------------------------------------
# Facts a scenario takes
# ---------------------------------------------------------------------------------------
def scenario_facts(pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
    """Every fact a player records in this scenario, by event type."""
    facts = [
        FactSpec("first", "battle_round", "player", "Player taking the first turn"),
        FactSpec(
            "control", "turn", "control", "Who controls each objective at the end of the turn", required=True
        ),
    ]
    if pack.tactics:
        facts += [
            FactSpec("tactic", "turn", "tactic", "Battle tactic picked this turn"),
            FactSpec("tactic_completed", "turn", "flag", "Battle tactic completed"),
        ]
    for rule in _rules(scenario):
        facts += rule.facts(pack, scenario)
    for rf in scenario.round_facts:
        facts.append(FactSpec(rf.name, "battle_round", rf.kind, rf.label))
    if any(o.placed_by_roll for o in scenario.objectives):
        facts.append(
            FactSpec(
                "placed", "battle_round", "placements", "Objectives set up this round, each with its 2D6 roll"
            )
        )
    if scenario.block("grand-strategy") is not None or pack.grand_strategies:
        facts.append(
            FactSpec("grand_strategy_completed", "end", "flag", "Grand strategy completed", required=True)
        )
    return facts


def _rules(scenario: p.Scenario) -> list[Rule]:
    return [RULES[b.block](b) for b in scenario.scoring]


def describe_scoring(scenario: p.Scenario) -> list[str]:
    """One short sentence per scoring block of the scenario, in the order they apply."""
    return [text for rule in _rules(scenario) if (text := rule.describe())]


# ---------------------------------------------------------------------------------------
# Parsing events
# ---------------------------------------------------------------------------------------
# Facts every turn may carry; whether they score depends on the scenario's blocks.
TURN_KEYS = {
    "id",
    "type",
    "round",
    "player",
    "control",
    "tactic",
    "tactic_completed",
    "tactic_bonus",
    "enemy_monsters_slain",
}
ROUND_KEYS = {"id", "type", "round", "first"}
END_KEYS = {"id", "type", "player", "grand_strategy_completed"}
UNDO_KEYS = {"id", "type", "event"}


def event_id(event: Any) -> str:
    """The event's UUID in canonical form; raises :class:`Refused` if it has none."""
    if not isinstance(event, dict):
        raise Refused("The body must be one JSON object, the event.")
    raw = event.get("id")
    try:
        return str(uuid.UUID(str(raw))) if isinstance(raw, str) else _bad_id()
    except ValueError:
        return _bad_id()


def _bad_id() -> str:
    raise Refused("id must be a UUID made by the client, such as 'a6f0c2de-1b9e-4c35-9d55-0f0e7f1c2b11'.")


def _flag(event: dict[str, Any], name: str) -> bool:
    value = event.get(name, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise Refused(f"{name} must be true or false.")
    return value


def _player(game: Game, event: dict[str, Any], name: str = "player", optional: bool = False) -> int | None:
    value = event.get(name)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < game.player_count:
        top = game.player_count - 1
        raise Refused(f"{name} must be a player's index in this game, 0 to {top}.")
    return value


def _round(game: Game, event: dict[str, Any]) -> int:
    value = event.get("round")
    last = game.scenario.battle_rounds
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= last:
        raise Refused(
            f"round must be a battle round from 1 to {last} ({game.scenario.name} "
            f"lasts {last} battle rounds)."
        )
    return value


def _extra_facts(game: Game, event: dict[str, Any], known: set[str], kind: str) -> dict[str, Any]:
    """The event's battleplan facts, refusing names this scenario does not take."""
    allowed = {f.name for f in game.facts if f.event == kind}
    facts: dict[str, Any] = {}
    for key, value in event.items():
        if key in known:
            continue
        if key not in allowed:
            # A fact of another battleplan left empty is harmless; a set one is a mistake.
            if value in (None, False, 0, [], {}):
                continue
            takes = ", ".join(sorted(allowed - known)) or "no battleplan facts"
            raise Refused(
                f"{key} is not recorded in {game.scenario.name}; its {kind.replace('_', ' ')} takes {takes}."
            )
        facts[key] = value
    return facts


# ---------------------------------------------------------------------------------------
# Applying events
# ---------------------------------------------------------------------------------------
def _apply_round(game: Game, event: dict[str, Any], eid: str) -> None:
    if game.finished:
        raise Refused("The battle is over; undo the last entry to change it.")
    round_ = _round(game, event)
    first = _player(game, event, "first", optional=True)
    now = game.current_round
    if round_ in game.rounds:
        raise Refused(f"Battle round {round_} has already been started; undo that entry to change it.")
    if round_ < now or game.turns_in(round_):
        raise Refused(
            f"Battle round {round_} is already under way; its start must be recorded before its first turn."
        )
    if round_ > now:
        raise Refused(f"Battle round {round_} cannot start yet: battle round {now} is not finished.")
    facts = _extra_facts(game, event, ROUND_KEYS, "battle_round")
    start = RoundStart(eid, round_, first, facts)
    for declared in game.scenario.round_facts:
        if facts.get(declared.name) is not None:
            _check_objective_in_play(game, declared.name, facts[declared.name], round_)
    if "placed" in facts:
        _check_placements(game, facts, round_)
    for rule in game.rules:
        rule.check_round(game, start)
    game.rounds[round_] = start
    for rule in game.rules:
        rule.apply_round(game, start)
    for item in facts.get("placed") or []:
        game.placed[item["objective"]] = item["roll"]


def _check_placements(game: Game, facts: dict[str, Any], round_: int) -> None:
    placed = facts.get("placed")
    if placed is None:
        return
    if not isinstance(placed, list):
        raise Refused('placed must be a list such as [{"objective": "vein-1", "roll": 7}].')
    seen: set[str] = set()
    for item in placed:
        if not isinstance(item, dict):
            raise Refused('placed must be a list such as [{"objective": "vein-1", "roll": 7}].')
        oid, roll = item.get("objective"), item.get("roll")
        obj = game.objective(oid) if isinstance(oid, str) else None
        if obj is None or not obj.placed_by_roll:
            ids = ", ".join(o.id for o in game.scenario.objectives if o.placed_by_roll)
            raise Refused(f"placed names {oid!r}; the objectives placed by a roll are {ids}.")
        if obj.from_round != round_:
            raise Refused(f"placed: {obj.label} is set up at the start of battle round {obj.from_round}.")
        if oid in seen or oid in game.placed:
            raise Refused(f"placed: {obj.label} is already placed.")
        if isinstance(roll, bool) or not isinstance(roll, int) or not 2 <= roll <= 12:
            raise Refused(f"placed: the roll for {obj.label} must be a 2D6 total from 2 to 12.")
        seen.add(oid)


def _apply_turn(game: Game, event: dict[str, Any], eid: str) -> None:
    if game.finished:
        raise Refused("The battle is over; undo the last entry to change it.")
    round_ = _round(game, event)
    player = _player(game, event)
    assert player is not None
    name = game.name(player)
    now = game.current_round
    if round_ < now or any(t.player == player for t in game.turns_in(round_)):
        raise Refused(f"{name} has already taken their turn in battle round {round_}.")
    if round_ > now:
        missing = ", ".join(game.name(q) for q in game.next_players())
        raise Refused(
            f"Battle round {round_} cannot be recorded yet: battle round {now} still "
            f"needs the turn of {missing}."
        )
    expected = game.next_players()
    if player not in expected:
        raise Refused(
            f"{game.name(expected[0])} takes the first turn in battle round {round_}, "
            "so their turn is recorded first."
        )
    control = _parse_control(game, event.get("control"), round_)
    tactic = event.get("tactic") or None
    completed = _flag(event, "tactic_completed")
    bonus = _flag(event, "tactic_bonus")
    if tactic is not None:
        found = game.pack.tactic(tactic) if isinstance(tactic, str) else None
        if found is None:
            ids = ", ".join(t.id for t in game.pack.tactics)
            raise Refused(f"tactic must be one of {ids}.")
        if tactic in game.tactics_used(player):
            raise Refused(
                f"{name} has already used the battle tactic {found.name}; "
                "each tactic can be picked once per battle."
            )
        if bonus and found.bonus is None:
            raise Refused(f"tactic_bonus: {found.name} has no bonus.")
    elif completed or bonus:
        raise Refused("tactic_completed needs the tactic that was picked.")
    if bonus and not completed:
        raise Refused("tactic_bonus needs tactic_completed: the bonus comes with a completed tactic.")
    facts = _extra_facts(game, event, TURN_KEYS, "turn")
    facts["enemy_monsters_slain"] = _flag(event, "enemy_monsters_slain")
    turn = Turn(eid, round_, player, control, tactic, completed, bonus, facts)
    for rule in game.rules:
        rule.check_turn(game, turn)
    for rule in game.rules:
        turn.awards.extend(rule.score_turn(game, turn))
    game.turns.append(turn)
    for rule in game.rules:
        rule.after_turn(game, turn)
    _check_immediate(game, turn)


def _parse_control(game: Game, raw: Any, round_: int) -> dict[str, int | None]:
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise Refused('control must be an object such as {"north-west": 0, "centre": null}.')
    control: dict[str, int | None] = {o.id: None for o in game.in_play(round_)}
    for oid, who in raw.items():
        _check_objective_in_play(game, "control", oid, round_)
        if who is not None and (
            isinstance(who, bool) or not isinstance(who, int) or not 0 <= who < game.player_count
        ):
            raise Refused(
                f"control[{oid!r}] must be a player's index, 0 to "
                f"{game.player_count - 1}, or null for nobody."
            )
        control[oid] = who
    return control


def _check_immediate(game: Game, turn: Turn) -> None:
    immediate = game.pack.victory(game.scenario).immediate
    if immediate is None or turn.round < immediate.from_round:
        return
    on_table = game.in_play(turn.round)
    holders = {turn.control.get(o.id) for o in on_table}
    if on_table and len(holders) == 1 and None not in holders:
        (winner,) = holders
        assert winner is not None
        game.immediate = Result(
            immediate.kind,
            winner,
            f"{game.name(winner)} controlled every objective at the end of "
            f"{game.name(turn.player)}'s turn in battle round {turn.round}.",
        )


def _apply_end(game: Game, event: dict[str, Any], eid: str) -> None:
    player = _player(game, event)
    assert player is not None
    if player in game.ends:
        raise Refused(
            f"{game.name(player)}'s grand strategy is already recorded; undo that entry to change it."
        )
    if "grand_strategy_completed" not in event:
        raise Refused("grand_strategy_completed is required: true or false.")
    completed = _flag(event, "grand_strategy_completed")
    _extra_facts(game, event, END_KEYS, "end")
    end = End(eid, player, completed)
    for rule in game.rules:
        end.awards.extend(rule.score_end(game, end))
    game.ends[player] = end


APPLY = {"turn": _apply_turn, "battle_round": _apply_round, "end": _apply_end}


def _event_type(event: dict[str, Any]) -> str:
    kind = event.get("type")
    if kind not in EVENT_TYPES:
        raise Refused(f"type must be one of {', '.join(EVENT_TYPES)}.")
    return kind


def effective_events(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events still in force: undo events and the entries they undid are left out."""
    kept: list[dict[str, Any]] = []
    for event in events:
        if event.get("type") == "undo":
            target = event.get("event")
            if kept and kept[-1].get("id") == target:
                kept.pop()
        else:
            kept.append(event)
    return kept


def new_game(pack: p.Pack, setup: Setup) -> Game:
    """An empty game for that set-up."""
    scenario = pack.scenario(setup.scenario)
    if scenario is None:
        raise ValueError(f"pack {pack.id} has no scenario {setup.scenario}")
    return Game(
        setup=setup,
        pack=pack,
        scenario=scenario,
        rules=_rules(scenario),
        facts=scenario_facts(pack, scenario),
    )


def replay(pack: p.Pack, setup: Setup, events: Sequence[dict[str, Any]]) -> Game:
    """Fold a game's stored events into its current state.

    Stored events were checked when they were appended; one that no longer fits (say the
    pack changed since) is skipped and listed in ``game.skipped`` rather than lost.
    """
    game = new_game(pack, setup)
    for event in effective_events(events):
        eid = str(event.get("id"))
        try:
            APPLY[_event_type(event)](game, event, eid)
        except Refused as exc:
            game.skipped.append((eid, str(exc)))
            continue
        game.effective.append(eid)
    return game


def check(game: Game, event: Any) -> str | None:
    """Whether ``event`` may be appended to the game: ``None``, or why not in one sentence.

    The game is changed as if the event had been appended only when the answer is ``None``;
    callers that need the old state should replay again.
    """
    try:
        eid = event_id(event)
        kind = _event_type(event)
        if kind == "undo":
            target = event.get("event")
            if set(event) - UNDO_KEYS:
                extra = sorted(set(event) - UNDO_KEYS)[0]
                raise Refused(f"{extra} is not part of an undo; it takes only id, type and event.")
            if not game.effective:
                raise Refused("There is nothing to undo.")
            if target != game.effective[-1]:
                raise Refused(
                    "event must be the id of the last entry still in force: "
                    "only the last entry can be undone."
                )
            return None
        APPLY[kind](game, event, eid)
        game.effective.append(eid)
        return None
    except Refused as exc:
        return str(exc)


# ---------------------------------------------------------------------------------------
# Result
# ---------------------------------------------------------------------------------------
def _leader(values: list[int]) -> int | None:
    best = max(values)
    return values.index(best) if values.count(best) == 1 else None


def decide(game: Game) -> Result:
    """The result at the end of the battle, from the scenario's victory order."""
    n = game.player_count
    vp = [game.vp(i) for i in range(n)]
    tactics = [game.tactics_completed(i) for i in range(n)]
    done = [bool(game.ends.get(i) and game.ends[i].grand_strategy_completed) for i in range(n)]
    for step in game.pack.victory(game.scenario).order:
        if step.check == "most-vp":
            winner = _leader(vp)
            if winner is not None:
                score = " to ".join(str(v) for v in sorted(vp, reverse=True))
                return Result(step.kind, winner, f"Most victory points ({score}).")
        elif step.check == "most-tactics":
            winner = _leader(tactics)
            if winner is not None:
                score = " to ".join(str(v) for v in sorted(tactics, reverse=True))
                return Result(step.kind, winner, f"Most battle tactics completed ({score}).")
        elif step.check == "only-grand-strategy" and done.count(True) == 1:
            winner = done.index(True)
            return Result(step.kind, winner, "Only player to complete their grand strategy.")
    parts = []
    checks = [s.check for s in game.pack.victory(game.scenario).order]
    if "most-vp" in checks:
        parts.append("victory points")
    if "most-tactics" in checks:
        parts.append("battle tactics completed")
    tied = " and ".join(parts) if parts else "everything"
    strategies = (
        "both completed their grand strategy"
        if all(done)
        else ("neither completed their grand strategy" if not any(done) else "grand strategies were split")
    )
    return Result("draw", None, f"Level on {tied}, and {strategies}.")
