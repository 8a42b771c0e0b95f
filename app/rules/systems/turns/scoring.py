"""A game's events -> turns, VP breakdowns, end and result.

A game is its set-up plus an append-only list of events (:mod:`app.rules.log` folds them);
:func:`apply_event` changes a :class:`Game` by one event or says why not (one sentence).

Scoring is declared by each scenario as a list of named building blocks (see
``app/rules/pack.py``); each block is implemented once, in :mod:`.blocks`.
"""

from __future__ import annotations

from typing import Any

from app.rules import pack as p
from app.rules.facts import FactSpec
from app.rules.game import GameState, Setup
from app.rules.log import Refused, by_type, open_entry
from app.rules.outcome import Result
from app.rules.problems import field_name
from app.rules.speech import say, told, words
from app.rules.systems.turns.blocks import RULES, Rule, check_objective_in_play
from app.rules.systems.turns.event_models import EVENTS
from app.rules.systems.turns.sentence import Sentence
from app.rules.systems.turns.state import Claim, End, Game, RoundStart, Turn

__all__ = ["EVENTS"]


# ---------------------------------------------------------------------------------------
# Facts a scenario takes
# ---------------------------------------------------------------------------------------
def scenario_facts(pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
    """Every fact a player records in this scenario, by event type."""
    facts = [
        FactSpec("first", "battle_round", "player", say("Player taking the first turn")),
        FactSpec(
            "control",
            "turn",
            "control",
            say("Who controls each objective at the end of the turn"),
            required=True,
        ),
    ]
    if pack.tactics:
        facts += [
            FactSpec("tactic", "turn", "tactic", say("Battle tactic picked this turn")),
            FactSpec("tactic_completed", "turn", "flag", say("Battle tactic completed")),
        ]
    for rule in _rules(scenario):
        facts += rule.facts(pack, scenario)
    for rf in scenario.round_facts:
        facts.append(
            FactSpec(rf.name, "battle_round", rf.kind, told(rf.label), none_label=say("Not recorded"))
        )
    if any(o.placed_by_roll for o in scenario.objectives):
        facts.append(
            FactSpec(
                "placed",
                "battle_round",
                "placements",
                say("Objectives set up this round, each with its 2D6 roll"),
            )
        )
    if scenario.block("grand-strategy") is not None or pack.grand_strategies:
        facts.append(
            FactSpec(
                "grand_strategy_completed", "end", "flag", say("Grand strategy completed"), required=True
            )
        )
    return facts


def _rules(scenario: p.Scenario) -> list[Rule]:
    return [RULES[b.block](b) for b in scenario.scoring]


def fact_choices(game: Game, fact: FactSpec, round_: int, player: int | None = None) -> list[p.Objective]:
    """The objectives a player may name for an objective fact in that round (its block decides)."""
    rule = next((r for r in game.rules if fact.block and r.block.block == fact.block), None)
    return rule.choices(game, fact.name, round_, player) if rule else game.in_play(round_)


def describe_scoring(scenario: p.Scenario) -> list[str]:
    """One short sentence per scoring block of the scenario, in the order they apply."""
    return [text for rule in _rules(scenario) if (text := rule.describe())]


# ---------------------------------------------------------------------------------------
# Parsing events
# ---------------------------------------------------------------------------------------
# The fields of the events themselves (read by :data:`EVENTS`); any other key is a
# battleplan fact, taken only where the scenario records it. Whether a fact scores depends on
# the scenario's blocks.
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
            takes = ", ".join(sorted(allowed - known))
            field, scenario = field_name(key), game.scenario.name
            if not takes:
                raise Refused(say(_TAKES_NONE[kind], field=field, scenario=scenario))
            raise Refused(say(_TAKES[kind], field=field, scenario=scenario, takes=takes))
        facts[key] = value
    return facts


# ---------------------------------------------------------------------------------------
# Applying events
# ---------------------------------------------------------------------------------------
OVER_NOW = words("The battle is over; undo the last entry to change it.")
# A fact another battleplan records, refused by the kind of entry it came with.
_TAKES = {
    "turn": words("{field} is not recorded in {scenario}; its turn takes {takes}."),
    "battle_round": words("{field} is not recorded in {scenario}; its battle round takes {takes}."),
    "end": words("{field} is not recorded in {scenario}; its end takes {takes}."),
}
_TAKES_NONE = {
    "turn": words("{field} is not recorded in {scenario}; its turn takes no battleplan facts."),
    "battle_round": words(
        "{field} is not recorded in {scenario}; its battle round takes no battleplan facts."
    ),
    "end": words("{field} is not recorded in {scenario}; its end takes no battleplan facts."),
}
#: The entry of :func:`open_entries` each event type belongs to: closed, it refuses the event.
ENTRIES = {"battle_round": "battle", "turn": "battle"}


def round_problem(game: Game, round_: int) -> Refused | None:
    """Why battle round ``round_`` may not start now (once, in order, before its first turn)."""
    now = game.current_round
    if round_ in game.rounds:
        return Refused(
            say("Battle round {round} has already been started; undo that entry to change it.", round=round_)
        )
    if round_ < now or game.turns_in(round_):
        return Refused(
            say(
                "Battle round {round} is already under way; its start must be recorded before its first turn.",
                round=round_,
            )
        )
    if round_ > now:
        return Refused(
            say(
                "Battle round {round} cannot start yet: battle round {now} is not finished.",
                round=round_,
                now=now,
            )
        )
    return None


def _apply_round(game: Game, event: dict[str, Any], eid: str) -> None:
    if game.finished:
        raise Refused(say(OVER_NOW))
    round_ = event["round"]
    first = event.get("first")
    if problem := round_problem(game, round_):
        raise problem
    facts = _extra_facts(game, event, ROUND_KEYS, "battle_round")
    start = RoundStart(eid, round_, first, facts)
    for declared in game.scenario.round_facts:
        if facts.get(declared.name) is not None:
            check_objective_in_play(game, declared.name, facts[declared.name], round_)
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
    seen: set[str] = set()
    for item in placed:
        oid = item["objective"]
        obj = game.objective(oid)
        if obj is None or not obj.placed_by_roll:
            ids = ", ".join(o.id for o in game.scenario.objectives if o.placed_by_roll)
            raise Refused(
                say("placed names {id}; the objectives placed by a roll are {ids}.", id=repr(oid), ids=ids)
            )
        if obj.from_round != round_:
            raise Refused(
                say(
                    "placed: {objective} is set up at the start of battle round {round}.",
                    objective=obj.label,
                    round=obj.from_round,
                )
            )
        if oid in seen or oid in game.placed:
            raise Refused(say("placed: {objective} is already placed.", objective=obj.label))
        seen.add(oid)


def turn_problem(game: Game, round_: int, player: int) -> Refused | None:
    """Why ``player``'s turn of battle round ``round_`` may not be recorded now: each player's
    turn once a round, the rounds in order, the first player's turn first."""
    now = game.current_round
    if round_ < now or any(t.player == player for t in game.turns_in(round_)):
        return Refused(
            say(
                "{name} has already taken their turn in battle round {round}.",
                name=game.name(player),
                round=round_,
            )
        )
    if round_ > now:
        missing = ", ".join(game.name(q) for q in game.next_players())
        return Refused(
            say(
                "Battle round {round} cannot be recorded yet: battle round {now} still needs the turn of {names}.",
                round=round_,
                now=now,
                names=missing,
            )
        )
    expected = game.next_players()
    if player not in expected:
        return Refused(
            say(
                "{name} takes the first turn in battle round {round}, so their turn is recorded first.",
                name=game.name(expected[0]),
                round=round_,
            )
        )
    return None


def _apply_turn(game: Game, event: dict[str, Any], eid: str) -> None:
    if game.finished:
        raise Refused(say(OVER_NOW))
    round_ = event["round"]
    player = event["player"]
    if problem := turn_problem(game, round_, player):
        raise problem
    name = game.name(player)
    control = _parse_control(game, event.get("control"), round_)
    tactic = event.get("tactic") or None
    completed = bool(event.get("tactic_completed"))
    bonus = bool(event.get("tactic_bonus"))
    if tactic is not None:
        found = game.pack.tactic(tactic)
        if found is None:
            ids = ", ".join(t.id for t in game.pack.tactics)
            raise Refused(say("tactic must be one of {ids}.", ids=ids))
        if tactic in game.tactics_used(player):
            raise Refused(
                say(
                    "{name} has already used the battle tactic {tactic}; each tactic can be picked once per battle.",
                    name=name,
                    tactic=found.name,
                )
            )
        if bonus and found.bonus is None:
            raise Refused(say("tactic_bonus: {tactic} has no bonus.", tactic=found.name))
    elif completed or bonus:
        raise Refused(say("tactic_completed needs the tactic that was picked."))
    if bonus and not completed:
        raise Refused(say("tactic_bonus needs tactic_completed: the bonus comes with a completed tactic."))
    facts = _extra_facts(game, event, TURN_KEYS, "turn")
    facts["enemy_monsters_slain"] = bool(event.get("enemy_monsters_slain"))
    turn = Turn(eid, round_, player, control, tactic, completed, bonus, facts)
    for rule in game.rules:
        rule.check_turn(game, turn)
    for rule in game.rules:
        turn.awards.extend(rule.score_turn(game, turn))
    game.turns.append(turn)
    for rule in game.rules:
        rule.after_turn(game, turn)
    _check_immediate(game, turn)


def _parse_control(game: Game, raw: dict[str, int | None] | None, round_: int) -> dict[str, int | None]:
    control: dict[str, int | None] = {o.id: None for o in game.in_play(round_)}
    for oid, who in (raw or {}).items():
        check_objective_in_play(game, "control", oid, round_)
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
            Sentence(
                words(
                    "{winner} controlled every objective at the end of {name}'s turn in battle round {round}."
                ),
                winner=game.name(winner),
                name=game.name(turn.player),
                round=turn.round,
            ),
        )


def end_problem(game: Game, player: int) -> Refused | None:
    """Why ``player``'s grand strategy may not be recorded now: once each."""
    if player in game.ends:
        return Refused(
            say(
                "{name}'s grand strategy is already recorded; undo that entry to change it.",
                name=game.name(player),
            )
        )
    return None


def _apply_end(game: Game, event: dict[str, Any], eid: str) -> None:
    player = event["player"]
    if problem := end_problem(game, player):
        raise problem
    completed = bool(event["grand_strategy_completed"])
    _extra_facts(game, event, END_KEYS, "end")
    end = End(eid, player, completed)
    for rule in game.rules:
        end.awards.extend(rule.score_end(game, end))
    game.ends[player] = end


def _claimable(game: Game) -> dict[str, Rule]:
    return {rule.block.block: rule for rule in game.rules if rule.claimable}


def _rule_name(game: Game, rule_id: str) -> str:
    found = next((r for r in game.pack.realm_rules if r.id == rule_id), None)
    return found.name if found else rule_id


def _apply_claim(game: Game, event: dict[str, Any], eid: str) -> None:
    rules = _claimable(game)
    rule_id = event.get("rule")
    if not rules:
        raise Refused(
            say(
                "rule: {scenario} has no rule a player claims (such as predators-and-prey), "
                "so no claim can be recorded.",
                scenario=game.scenario.name,
            )
        )
    if rule_id not in rules:
        raise Refused(
            say(
                "rule must be {rules} in {scenario}.",
                rules=", ".join(sorted(rules)),
                scenario=game.scenario.name,
            )
        )
    if game.finished:
        raise Refused(say(OVER_NOW))
    round_ = event["round"]
    player = event["player"]
    open_round = game.round_in_play
    if game.ends or (open_round is not None and round_ < open_round):
        raise Refused(
            say(
                "round: battle round {round} is over; a claim for it can be recorded only until the next "
                "battle round starts (or, after the last one, until the end of the battle is recorded).",
                round=round_,
            )
        )
    if open_round is None or round_ > open_round:
        raise Refused(
            say(
                "round: battle round {round} has not started; record its start (who goes first) before a claim for it.",
                round=round_,
            )
        )
    claim = Claim(eid, round_, player, rule_id)
    rule = rules[rule_id]
    rule.check_claim(game, claim)
    claim.awards.extend(rule.score_claim(game, claim))
    game.claims.append(claim)


def open_claims(game: Game) -> list[tuple[str, str, int | None, list[int]]]:
    """What may be claimed now: ``(rule id, rule name, battle round in play, players)`` per rule.

    The screens offer these; a player who has already scored the rule this round is left out.
    The round is ``None`` (and nobody may claim) while no battle round is in play; the list is
    empty once the battle's end is being recorded or the scenario has no such rule.
    """
    if game.finished or game.ends:
        return []
    round_ = game.round_in_play
    out = []
    for rule_id, rule in sorted(_claimable(game).items()):
        players = (
            []
            if round_ is None
            else [i for i in range(game.player_count) if not rule.claimed(game, round_, i)]
        )
        out.append((rule_id, _rule_name(game, rule_id), round_, players))
    return out


def open_entries(game: Game, seat: int | None = None) -> dict[str, Any]:
    """What may be recorded now, and why not the rest (any phone of the game records any entry:
    Pitched Battles has no seats, so ``seat`` changes nothing).

    ``battle_round``: the start of the round now being played; ``turn``: the players whose turn
    may come next in it (more than one: nobody named the first player); ``claim``: each rule
    claimed in the round in play (:func:`open_claims`); ``end``: the players whose grand
    strategy is still to record (after the last round's turns). Each ``why`` is the sentence
    the rules would refuse with (``None``: open).
    """
    r = game.current_round
    over = _over(game)
    done = (
        Refused(say("Every battle round is played; record the end of the battle."))
        if game.turns_complete
        else None
    )
    players = game.next_players()
    turn = over or done or (turn_problem(game, r, players[0]) if players else None)
    ends = [i for i in range(game.player_count) if end_problem(game, i) is None]
    end = over or (
        None
        if game.turns_complete
        else Refused(say("The end of the battle comes after the last round's turns."))
    )
    claims = open_claims(game)
    return {
        # The battle: its rounds and turns, until it is over.
        "battle": _battle(game),
        "battle_round": open_entry(over or done or round_problem(game, r), round=r),
        "turn": open_entry(turn, round=r, players=players),
        "claim": {"open": any(who for *_, who in claims), "rules": claims},
        "end": open_entry(end, players=ends),
    }


def one_entry(game: Game, seat: int | None, key: str) -> Any:
    """The entry ``key`` of :func:`open_entries` alone: the log asks the battle's before every
    battle round and turn (:data:`ENTRIES`), and it needs none of the others worked out."""
    if key == "battle":
        return _battle(game)
    return open_entries(game, seat).get(key)


def _over(game: Game) -> Refused | None:
    return Refused(say(OVER_NOW)) if game.finished else None


def _battle(game: Game) -> dict[str, Any]:
    return open_entry(_over(game))


def claim_flags(game: Game) -> dict[str, str]:
    """Each claimable rule's turn flag, which counts as the player's claim for that round."""
    return {rid: rule.claim_flag for rid, rule in _claimable(game).items() if rule.claim_flag}


APPLY = {
    "turn": _apply_turn,
    "battle_round": _apply_round,
    "end": _apply_end,
    "claim": _apply_claim,
    "roll": GameState.add_roll,
}

#: Change a game by one event of its type (as :data:`EVENTS` read it); raise ``Refused``.
apply_event = by_type(APPLY)


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


# ---------------------------------------------------------------------------------------
# Next steps: what a phone may record without asking the server (docs/offline.md)
# ---------------------------------------------------------------------------------------
OVER = "over"


def _after_round(game: Game, round_: int) -> list[str]:
    """The steps that follow the last turn of a battle round."""
    if round_ < game.scenario.battle_rounds:
        return [f"round-{round_ + 1}"]
    return ["end", OVER]


def _turn_order(game: Game, round_: int, first: int | None, done: set[int]) -> list[str]:
    """The turns still to come in a round: the first player's, then the others by seat."""
    order = [first] if first is not None and first not in done else []
    order += [i for i in range(game.player_count) if i not in done and i not in order]
    return [f"turn-{round_}-{i}" for i in order]


def _choice_plans(game: Game, round_: int, done: set[int]) -> dict[str, list[str]]:
    """For a form whose choice is who plays next: each choice's turns and what follows them."""
    return {
        str(i): _turn_order(game, round_, i, done) + _after_round(game, round_)
        for i in range(game.player_count)
        if i not in done
    }


def next_steps(game: Game) -> dict[str, Any]:
    """The steps a phone may record next, as plain data for the offline layer.

    ``plan``: the step the server expects now, then those that follow it, as far as the next
    step whose choice decides the rest. ``in_play``: the battle round whose claims are open.
    ``steps``: for every step from now on, ``in_play`` once an entry of that step waits;
    ``choice`` and ``plans`` where a field of the form decides the steps after it (its value
    -> those steps); ``parts`` where each player records the step on their own form.
    Steps are ``round-R`` (round R starts), ``turn-R-P`` (player P's turn in round R),
    ``end`` (the grand strategies) and ``over``. Built on :func:`open_entries`: what is open
    now is the plan's first step, and who may record it.
    """
    last = game.scenario.battle_rounds
    if game.finished:
        return {"plan": [OVER], "in_play": None, "steps": {OVER: {}}}
    entries = open_entries(game)
    current = game.current_round
    end = {"in_play": None, "parts": entries["end"]["players"]}
    steps: dict[str, dict[str, Any]] = {}
    for r in range(current, last + 1):
        done = {t.player for t in game.turns_in(r)} if r == current else set()
        if r > current or r not in game.rounds:
            steps[f"round-{r}"] = {"in_play": r, "choice": "first", "plans": _choice_plans(game, r, done)}
        for i in range(game.player_count):
            if i not in done:
                steps[f"turn-{r}-{i}"] = {"in_play": r}
    steps.update({"end": end, OVER: {}})
    if game.turns_complete:
        plan = ["end", OVER]
    elif current not in game.rounds:
        plan = [f"round-{current}"]
    else:
        done = {t.player for t in game.turns_in(current)}
        plan = _turn_order(game, current, game.rounds[current].first, done) + _after_round(game, current)
        waiting = entries["turn"]["players"]
        if len(waiting) > 1:  # nobody named the first player: the turn form asks whose turn it is
            after = {
                str(i): _turn_order(game, current, None, done | {i}) + _after_round(game, current)
                for i in waiting
            }
            steps[plan[0]] = {"in_play": current, "choice": "player", "plans": after}
    return {"plan": plan, "in_play": game.round_in_play, "steps": steps}
