"""Scoring building blocks: each named block a scenario may declare, implemented once.

A block can declare the facts it needs, check and apply a battle round's start, check and
score a turn, change the battlefield after it, and score the end of the battle.
"""

from __future__ import annotations

from typing import Any

from app.rules import pack as p
from app.rules.facts import FactSpec
from app.rules.log import Refused
from app.rules.outcome import Award
from app.rules.systems.turns.state import Claim, End, Game, Removal, RoundStart, Turn

COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


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

    def choices(self, game: Game, fact: str, round_: int, player: int | None) -> list[p.Objective]:
        """The objectives a player may name for one of this block's facts (all in play here)."""
        return game.in_play(round_)

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

    # A rule a player may claim while a battle round is in play, by a ``claim`` event, and the
    # turn flag that counts as the claim on the player's own turn.
    claimable = False
    claim_flag: str | None = None

    def claimed(self, game: Game, round_: int, player: int) -> bool:
        """Whether the player has already claimed this rule for that battle round."""
        return False

    def check_claim(self, game: Game, claim: Claim) -> None:
        """Raise :class:`Refused` if this claim may not be made now."""

    def score_claim(self, game: Game, claim: Claim) -> list[Award]:
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
                block=self.block.block,
            )
        ]

    def check_round(self, game: Game, start: RoundStart) -> None:
        alpha = start.facts.get("alpha")
        if alpha is None:
            raise Refused(
                f"alpha is required: roll a D3 for battle round {start.round} and name that objective."
            )
        check_objective_in_play(game, "alpha", alpha, start.round)

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
                block=self.block.block,
            )
        ]

    def choices(self, game: Game, fact: str, round_: int, player: int | None) -> list[p.Objective]:
        mine = game.territory_of(player) if player is not None else None
        return [o for o in game.in_play(round_) if o.territory and o.territory != mine]

    def check_turn(self, game: Game, turn: Turn) -> None:
        oid = turn.facts.get("raided")
        if oid is None:
            return
        (obj,) = _held_at_turn_end(game, turn, "raided", "raid", [oid], self.block.from_round)
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
                block=self.block.block,
            )
        ]

    def check_turn(self, game: Game, turn: Turn) -> None:
        ids = turn.facts.get("destroyed") or []
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids) or len(set(ids)) != len(ids):
            raise Refused("destroyed must be a list of different objective ids.")
        if ids:
            _held_at_turn_end(game, turn, "destroyed", "destroy", ids, self.block.from_round)

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
    """Once per battle round, each player scores if enemy MONSTERS were slain in that round.

    Whoever's turn the MONSTER died in, the player claims it for the round in play: with the
    flag on their own turn, or with a ``claim`` event until the next round starts.
    """

    claimable = True
    claim_flag = "enemy_monsters_slain"
    LABEL = "Predators and Prey: enemy MONSTERS slain this battle round"

    def describe(self) -> str:
        return f"Predators and Prey: {self.block.vp} VP once per battle round if enemy MONSTERS were slain in it."

    def facts(self, game_pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
        reading = next((r.reading for r in game_pack.realm_rules if r.id == self.block.block), None)
        return [
            FactSpec(
                self.claim_flag,
                "turn",
                "flag",
                "Enemy MONSTERS slain this battle round",
                hint=reading,
                block=self.block.block,
            )
        ]

    def claimed(self, game: Game, round_: int, player: int) -> bool:
        """Whether the player has scored it for that round: by their turn's flag or a claim."""
        by_turn = any(
            t.round == round_ and t.player == player and t.facts.get(self.claim_flag) for t in game.turns
        )
        by_claim = any(c.rule == self.block.block for c in game.claims_in(round_, player))
        return by_turn or by_claim

    def _once(self, game: Game, round_: int, player: int, field_name: str) -> None:
        if self.claimed(game, round_, player):
            raise Refused(
                f"{field_name}: {game.name(player)} has already scored Predators and Prey in battle "
                f"round {round_}; it scores once per player per battle round."
            )

    def check_turn(self, game: Game, turn: Turn) -> None:
        if turn.facts.get(self.claim_flag):
            self._once(game, turn.round, turn.player, self.claim_flag)

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        if not turn.facts.get(self.claim_flag) or not self.block.vp:
            return []
        return [Award(self.LABEL, self.block.vp)]

    def check_claim(self, game: Game, claim: Claim) -> None:
        self._once(game, claim.round, claim.player, "rule")

    def score_claim(self, game: Game, claim: Claim) -> list[Award]:
        return [Award(self.LABEL, self.block.vp)] if self.block.vp else []


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
                until_round=self.block.round,
                none_label="Nothing removed",
                block=self.block.block,
            )
        ]

    def choices(self, game: Game, fact: str, round_: int, player: int | None) -> list[p.Objective]:
        return [o for o in game.in_play(round_) if not o.prime]

    def check_round(self, game: Game, start: RoundStart) -> None:
        oid = start.facts.get("removed")
        if oid is None:
            return
        if start.round != self.block.round:
            raise Refused(
                f"removed: Seismic Shift removes an objective only at the start of "
                f"battle round {self.block.round}."
            )
        obj = check_objective_in_play(game, "removed", oid, start.round)
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


def _held_at_turn_end(
    game: Game, turn: Turn, field_name: str, verb: str, ids: list[Any], from_round: int
) -> list[p.Objective]:
    """The objectives named, if the player may act on them: from that round, and theirs now."""
    if turn.round < from_round:
        raise Refused(f"{field_name}: objectives can be {field_name} from battle round {from_round}.")
    found = []
    for oid in ids:
        obj = check_objective_in_play(game, field_name, oid, turn.round)
        if turn.control.get(oid) != turn.player:
            raise Refused(
                f"{field_name}: {game.name(turn.player)} must control {obj.label} at the end of the turn "
                f"to {verb} it."
            )
        found.append(obj)
    return found


def check_objective_in_play(game: Game, field_name: str, oid: Any, round_: int) -> p.Objective:
    """The objective ``oid`` if it is on the battlefield in that round; else :class:`Refused`."""
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
    if all(o.id != oid for o in game.scheduled(round_)):  # ids: pydantic's == compares every field
        raise Refused(f"{field_name}: {obj.label} is not on the battlefield in battle round {round_}.")
    return obj
