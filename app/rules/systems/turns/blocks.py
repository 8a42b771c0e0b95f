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
from app.rules.speech import say, told, words
from app.rules.systems.turns.sentence import Sentence, said
from app.rules.systems.turns.state import Claim, End, Game, Removal, RoundStart, Turn

COUNT_WORDS = {
    1: words("one"),
    2: words("two"),
    3: words("three"),
    4: words("four"),
    5: words("five"),
    6: words("six"),
}


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
    """A small count as a word ("two"), in the reader's language; a larger one as digits."""
    return say(COUNT_WORDS[n]) if n in COUNT_WORDS else str(n)


class ControlCount(Rule):
    def describe(self) -> str:
        if self.block.count == 1:
            return say(
                "{vp} VP if you control at least one objective at the end of your turn.", vp=self.block.vp
            )
        return say(
            "{vp} VP if you control {count} or more at the end of your turn.",
            vp=self.block.vp,
            count=_count_word(self.block.count),
        )

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        n = len(turn.controlled_by(turn.player))
        if n < self.block.count or not self.block.vp:
            return []
        if self.block.count == 1:
            return [Award(Sentence(words("Controls at least one objective")), self.block.vp)]
        count = (
            Sentence(COUNT_WORDS[self.block.count]) if self.block.count in COUNT_WORDS else self.block.count
        )
        return [Award(Sentence(words("Controls {count} or more objectives"), count=count), self.block.vp)]


class ControlMore(Rule):
    def describe(self) -> str:
        return say(
            "{vp} VP if you control more objectives than the opponent at the end of your turn.",
            vp=self.block.vp,
        )

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        mine = len(turn.controlled_by(turn.player))
        others = [len(turn.controlled_by(q)) for q in range(game.player_count) if q != turn.player]
        if mine > max(others, default=0) and self.block.vp:
            return [Award(Sentence(words("Controls more objectives than the opponent")), self.block.vp)]
        return []


class ControlByTerritory(Rule):
    def describe(self) -> str:
        b = self.block
        return say(
            "At the end of your turn: {own} VP for the objective on your own border, {neutral} VP "
            "for each objective off the borders, {opponent} VP for the one on the enemy border.",
            own=b.own,
            neutral=b.neutral,
            opponent=b.opponent,
        )

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        mine = game.territory_of(turn.player)
        out = []
        for oid in turn.controlled_by(turn.player):
            obj = game.objective(oid)
            if obj is None:
                continue
            if obj.territory is None:
                vp, where = self.block.neutral, words("Controls {objective} (in neither territory)")
            elif obj.territory == mine:
                vp = self.block.own
                where = (
                    words("Controls {objective} (on your own border)")
                    if obj.border
                    else words("Controls {objective} (on your own territory)")
                )
            else:
                vp = self.block.opponent
                where = (
                    words("Controls {objective} (on the enemy border)")
                    if obj.border
                    else words("Controls {objective} (on the enemy territory)")
                )
            if vp:
                out.append(Award(Sentence(where, objective=obj.label), vp))
        return out


class HeldCount(Rule):
    def describe(self) -> str:
        if self.block.count == 1:
            return say(
                "{vp} VP if you have held at least one objective at the end of two of your turns in a row.",
                vp=self.block.vp,
            )
        return say(
            "{vp} VP if you have held {count} or more at the end of two of your turns in a row.",
            vp=self.block.vp,
            count=_count_word(self.block.count),
        )

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        before = game.previous_own_turn(turn)
        if before is None:
            return []
        held = [o for o in turn.controlled_by(turn.player) if before.control.get(o) == turn.player]
        if len(held) < self.block.count or not self.block.vp:
            return []
        if self.block.count == 1:
            return [
                Award(
                    Sentence(words("Held at least one objective for two of your turns in a row")),
                    self.block.vp,
                )
            ]
        count = (
            Sentence(COUNT_WORDS[self.block.count]) if self.block.count in COUNT_WORDS else self.block.count
        )
        held_for = words("Held {count} or more objectives for two of your turns in a row")
        return [Award(Sentence(held_for, count=count), self.block.vp)]


class AlphaBeta(Rule):
    def describe(self) -> str:
        return say(
            "At the end of your turn: {alpha} VP for the alpha objective, {beta} VP for each beta objective you control.",
            alpha=self.block.alpha_vp,
            beta=self.block.beta_vp,
        )

    def facts(self, game_pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
        return [
            FactSpec(
                "alpha",
                "battle_round",
                "objective",
                say("Alpha objective for this battle round (roll a D3)"),
                required=True,
                block=self.block.block,
            )
        ]

    def check_round(self, game: Game, start: RoundStart) -> None:
        alpha = start.facts.get("alpha")
        if alpha is None:
            raise Refused(
                say(
                    "alpha is required: roll a D3 for battle round {round} and name that objective.",
                    round=start.round,
                )
            )
        check_objective_in_play(game, "alpha", alpha, start.round)

    def check_turn(self, game: Game, turn: Turn) -> None:
        start = game.rounds.get(turn.round)
        if start is None or start.facts.get("alpha") is None:
            raise Refused(
                say(
                    "Record battle round {round}'s alpha objective (the D3 roll) before its turns.",
                    round=turn.round,
                )
            )

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        alpha = game.rounds[turn.round].facts["alpha"]
        out = []
        for oid in turn.controlled_by(turn.player):
            obj = game.objective(oid)
            label = obj.label if obj else oid
            if oid == alpha and self.block.alpha_vp:
                out.append(
                    Award(
                        Sentence(words("Controls the alpha objective ({objective})"), objective=label),
                        self.block.alpha_vp,
                    )
                )
            elif oid != alpha and self.block.beta_vp:
                out.append(
                    Award(
                        Sentence(words("Controls a beta objective ({objective})"), objective=label),
                        self.block.beta_vp,
                    )
                )
        return out


class ControlRoundMultiplied(Rule):
    def describe(self) -> str:
        return say(
            "At the end of your turn: VP equal to the battle round number for each objective you control."
        )

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        out = []
        for oid in turn.controlled_by(turn.player):
            obj = game.objective(oid)
            label = obj.label if obj else oid
            out.append(
                Award(
                    Sentence(
                        words("Controls {objective} in battle round {round} ({round} VP each)"),
                        objective=label,
                        round=turn.round,
                    ),
                    turn.round,
                )
            )
        return out


class TacticRule(Rule):
    def describe(self) -> str:
        return say(
            "{vp} VP if you completed the battle tactic picked that turn (some add a MONSTER bonus).",
            vp=self.block.vp,
        )

    def facts(self, game_pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
        return [
            FactSpec("tactic_bonus", "turn", "flag", say("MONSTER bonus earned (where the tactic has one)"))
        ]

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        if not turn.tactic_completed or turn.tactic is None:
            return []
        tactic = game.pack.tactic(turn.tactic)
        name = tactic.name if tactic else turn.tactic
        out = (
            [Award(Sentence(words("Battle tactic completed: {tactic}"), tactic=name), self.block.vp)]
            if self.block.vp
            else []
        )
        if turn.tactic_bonus and tactic is not None and tactic.bonus is not None:
            out.append(Award(Sentence(words("MONSTER bonus: {tactic}"), tactic=name), tactic.bonus.vp))
        return out


class FactCount(Rule):
    def describe(self) -> str:
        label = told(self.block.label)
        # The pack's English label reads lower-case inside the sentence; a translation as it is.
        what = label.lower() if label == self.block.label else label
        return say("{vp} VP for each: {what}.", vp=self.block.vp, what=what)

    def facts(self, game_pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
        return [FactSpec(self.block.fact, "turn", "count", told(self.block.label), max=self.block.max_total)]

    def _value(self, turn: Turn) -> int:
        return turn.facts.get(self.block.fact) or 0

    def check_turn(self, game: Game, turn: Turn) -> None:
        value = turn.facts.get(self.block.fact)
        if value is None:
            return
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise Refused(say("{field} must be a whole number, 0 or more.", field=self.block.fact))
        cap = self.block.max_total
        if cap is not None:
            before = sum(self._value(t) for t in game.turns if t.player == turn.player)
            if before + value > cap:
                raise Refused(
                    say(
                        "{field} would bring {name} to {total}, but there are only {cap} to destroy in the battle.",
                        field=self.block.fact,
                        name=game.name(turn.player),
                        total=before + value,
                        cap=cap,
                    )
                )

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        n = self._value(turn)
        if n and self.block.vp:
            return [
                Award(
                    Sentence(words("{what}: {count}"), what=_Told(self.block.label), count=n),
                    n * self.block.vp,
                )
            ]
        return []


class Raid(Rule):
    def describe(self) -> str:
        return say(
            "From battle round {round}: {vp} VP for raiding one objective you control "
            "wholly inside the enemy territory (then it is removed).",
            round=self.block.from_round,
            vp=self.block.vp,
        )

    def facts(self, game_pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
        return [
            FactSpec(
                "raided",
                "turn",
                "objective",
                say("Objective raided (yours, wholly in the enemy territory)"),
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
            raise Refused(
                say("raided: {objective} is not wholly within the enemy territory.", objective=obj.label)
            )

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        oid = turn.facts.get("raided")
        if oid is None:
            return []
        obj = game.objective(oid)
        return [
            Award(Sentence(words("Raided {objective}"), objective=obj.label if obj else oid), self.block.vp)
        ]

    def after_turn(self, game: Game, turn: Turn) -> None:
        oid = turn.facts.get("raided")
        if oid is not None:
            game.removed[oid] = Removal(
                turn.round, Sentence(words("raided by {name}"), name=game.name(turn.player))
            )


class DestroyHeld(Rule):
    def describe(self) -> str:
        a, b, c = self.block.ladder
        return say(
            "From battle round {round}, destroy objectives you control: {a} VP if taken this turn, "
            "{b} VP if held since your last turn, {c} VP since the turn before, "
            "{full} VP if held from battle round 1 to the last battle round.",
            round=self.block.from_round,
            a=a,
            b=b,
            c=c,
            full=self.block.full_hold_vp,
        )

    def facts(self, game_pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
        return [
            FactSpec(
                "destroyed",
                "turn",
                "objectives",
                say("Objectives you control and destroy for VP"),
                from_round=self.block.from_round,
                block=self.block.block,
            )
        ]

    def check_turn(self, game: Game, turn: Turn) -> None:
        ids = turn.facts.get("destroyed") or []
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids) or len(set(ids)) != len(ids):
            raise Refused(say("destroyed must be a list of different objective ids."))
        if ids:
            _held_at_turn_end(game, turn, "destroyed", "destroy", ids, self.block.from_round)

    def held_since(self, game: Game, turn: Turn, oid: str) -> tuple[int, Sentence]:
        """VP and reason for destroying ``oid`` at the end of ``turn``."""
        history = [*game.turns, turn] if turn not in game.turns else game.turns[: game.turns.index(turn) + 1]
        streak: list[Turn] = []
        for t in reversed(history):
            if t.control.get(oid) != turn.player:
                break
            streak.append(t)
        own_before = [t for t in streak[1:] if t.player == turn.player]
        first, second, third = self.block.ladder
        best, why = first, Sentence(words("taken this turn"))
        if own_before:
            best, why = second, Sentence(words("held since the end of your previous turn"))
        if len(own_before) >= 2:
            best, why = third, Sentence(words("held since the end of your turn before last"))
        last = game.scenario.battle_rounds
        if turn.round == last and streak and streak[-1].round == 1 and self.block.full_hold_vp > best:
            best = self.block.full_hold_vp
            why = Sentence(words("held from battle round 1 to battle round {last}"), last=last)
        return best, why

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        out = []
        for oid in turn.facts.get("destroyed") or []:
            vp, why = self.held_since(game, turn, oid)
            obj = game.objective(oid)
            destroyed = Sentence(
                words("Destroyed {objective} ({why})"), objective=obj.label if obj else oid, why=why
            )
            out.append(Award(destroyed, vp))
        return out

    def after_turn(self, game: Game, turn: Turn) -> None:
        for oid in turn.facts.get("destroyed") or []:
            game.removed[oid] = Removal(
                turn.round, Sentence(words("destroyed by {name}"), name=game.name(turn.player))
            )


class PredatorsAndPrey(Rule):
    """Once per battle round, each player scores if enemy MONSTERS were slain in that round.

    Whoever's turn the MONSTER died in, the player claims it for the round in play: with the
    flag on their own turn, or with a ``claim`` event until the next round starts.
    """

    claimable = True
    claim_flag = "enemy_monsters_slain"
    LABEL = words("Predators and Prey: enemy MONSTERS slain this battle round")

    def describe(self) -> str:
        return say(
            "Predators and Prey: {vp} VP once per battle round if enemy MONSTERS were slain in it.",
            vp=self.block.vp,
        )

    def facts(self, game_pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
        reading = next((r.reading for r in game_pack.realm_rules if r.id == self.block.block), None)
        return [
            FactSpec(
                self.claim_flag,
                "turn",
                "flag",
                say("Enemy MONSTERS slain this battle round"),
                hint=told(reading) if reading else None,
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
                say(
                    "{field}: {name} has already scored Predators and Prey in battle round {round}; "
                    "it scores once per player per battle round.",
                    field=field_name,
                    name=game.name(player),
                    round=round_,
                )
            )

    def check_turn(self, game: Game, turn: Turn) -> None:
        if turn.facts.get(self.claim_flag):
            self._once(game, turn.round, turn.player, self.claim_flag)

    def score_turn(self, game: Game, turn: Turn) -> list[Award]:
        if not turn.facts.get(self.claim_flag) or not self.block.vp:
            return []
        return [Award(Sentence(self.LABEL), self.block.vp)]

    def check_claim(self, game: Game, claim: Claim) -> None:
        self._once(game, claim.round, claim.player, "rule")

    def score_claim(self, game: Game, claim: Claim) -> list[Award]:
        return [Award(Sentence(self.LABEL), self.block.vp)] if self.block.vp else []


class SeismicShift(Rule):
    def describe(self) -> str:
        return say(
            "Seismic Shift: at the start of battle round {round} the player going second may "
            "remove one objective that is not prime.",
            round=self.block.round,
        )

    def facts(self, game_pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
        return [
            FactSpec(
                "removed",
                "battle_round",
                "objective",
                say(
                    "Seismic Shift: objective removed by the player going second "
                    "(battle round {round}, not a prime objective)",
                    round=self.block.round,
                ),
                from_round=self.block.round,
                until_round=self.block.round,
                none_label=say("Nothing removed"),
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
                say(
                    "removed: Seismic Shift removes an objective only at the start of battle round {round}.",
                    round=self.block.round,
                )
            )
        obj = check_objective_in_play(game, "removed", oid, start.round)
        if obj.prime:
            raise Refused(
                say("removed: {objective} is a prime objective and cannot be removed.", objective=obj.label)
            )

    def apply_round(self, game: Game, start: RoundStart) -> None:
        oid = start.facts.get("removed")
        if oid is not None:
            game.removed[oid] = Removal(start.round, Sentence(words("removed by Seismic Shift")))


class GrandStrategy(Rule):
    def describe(self) -> str:
        return say("{vp} VP once the battle is over for a completed grand strategy.", vp=self.block.vp)

    def score_end(self, game: Game, end: End) -> list[Award]:
        if not end.grand_strategy_completed or not self.block.vp:
            return []
        strategy_id = game.setup.players[end.player].grand_strategy
        strategy = game.pack.grand_strategy(strategy_id) if strategy_id else None
        if strategy is None:
            return [Award(Sentence(words("Grand strategy completed")), self.block.vp)]
        return [Award(Sentence(words("Grand strategy completed: {name}"), name=strategy.name), self.block.vp)]


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


# Why an objective may not be raided or destroyed: the player does not control it.
_MUST_CONTROL = {
    "raid": words("{field}: {name} must control {objective} at the end of the turn to raid it."),
    "destroy": words("{field}: {name} must control {objective} at the end of the turn to destroy it."),
}


class _Told(Sentence):
    """A pack's own label inside a kept sentence, told in the reader's language when said."""

    def said(self) -> str:
        return told(str.__str__(self))


def _held_at_turn_end(
    game: Game, turn: Turn, field_name: str, verb: str, ids: list[Any], from_round: int
) -> list[p.Objective]:
    """The objectives named, if the player may act on them: from that round, and theirs now."""
    if turn.round < from_round:
        raise Refused(
            say(
                "{field}: objectives can be {field} from battle round {round}.",
                field=field_name,
                round=from_round,
            )
        )
    found = []
    for oid in ids:
        obj = check_objective_in_play(game, field_name, oid, turn.round)
        if turn.control.get(oid) != turn.player:
            raise Refused(
                say(_MUST_CONTROL[verb], field=field_name, name=game.name(turn.player), objective=obj.label)
            )
        found.append(obj)
    return found


def check_objective_in_play(game: Game, field_name: str, oid: Any, round_: int) -> p.Objective:
    """The objective ``oid`` if it is on the battlefield in that round; else :class:`Refused`."""
    if not isinstance(oid, str) or game.objective(oid) is None:
        ids = ", ".join(o.id for o in game.scenario.objectives) or "none"
        raise Refused(
            say(
                "{field} names {id}, which is not an objective in {scenario} (objectives: {ids}).",
                field=field_name,
                id=repr(oid),
                scenario=game.scenario.name,
                ids=ids,
            )
        )
    obj = game.objective(oid)
    assert obj is not None
    if oid in game.removed:
        removal = game.removed[oid]
        raise Refused(
            say(
                "{field}: {objective} left the battlefield in battle round {round} ({why}).",
                field=field_name,
                objective=obj.label,
                round=removal.round,
                why=said(removal.why),
            )
        )
    if all(o.id != oid for o in game.scheduled(round_)):  # ids: pydantic's == compares every field
        raise Refused(
            say(
                "{field}: {objective} is not on the battlefield in battle round {round}.",
                field=field_name,
                objective=obj.label,
                round=round_,
            )
        )
    return obj
