"""Each rule of the score sheet on its own: limits, refusals, undo, end and result."""

from __future__ import annotations

import pytest

from app.rules.systems.turns import scoring
from tests.conftest import ANN, BO, ROOT, replay, vp_by_rule


# --- objective counts: at the limit, under, over ---------------------------------------
@pytest.mark.parametrize(
    ("held_by_ann", "held_by_bo", "expected"),
    [
        (0, 0, 0),  # nothing
        (1, 0, 2),  # one (1) + more (1)
        (1, 1, 1),  # one, level
        (2, 1, 3),  # one + two or more + more
        (1, 2, 1),  # one, fewer than the opponent
        (3, 0, 3),  # three is still "two or more"
        (0, 3, 0),
    ],
)
def test_first_blood_objective_points(table, held_by_ann, held_by_bo, expected):
    ids = ["south-west", "centre", "north-east"]
    control = {}
    for oid in ids[:held_by_ann]:
        control[oid] = ANN
    for oid in ids[held_by_ann : held_by_ann + held_by_bo]:
        control[oid] = BO
    t = table("first-blood")
    t.start(1)
    assert t.turn(1, ANN, control).vp == expected


# --- battle tactics ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("tactic", "completed", "bonus", "expected"),
    [
        ("conquer", False, False, 0),
        ("conquer", True, False, 2),
        ("broken-ranks", True, False, 2),
        ("broken-ranks", True, True, 3),
        ("slay-the-warlord", True, True, 3),
        ("ferocious-advance", True, True, 3),
        ("savage-spearhead", True, True, 3),
    ],
)
def test_tactic_points_and_monster_bonus(table, tactic, completed, bonus, expected):
    t = table("first-blood")
    t.start(1)
    assert t.turn(1, ANN, tactic=tactic, tactic_completed=completed, tactic_bonus=bonus).vp == expected


@pytest.mark.parametrize(
    ("event", "sentence"),
    [
        ({"tactic": "monstrous-takeover", "tactic_completed": True, "tactic_bonus": True}, "has no bonus"),
        (
            {"tactic": "broken-ranks", "tactic_completed": False, "tactic_bonus": True},
            "needs tactic_completed",
        ),
        ({"tactic_completed": True}, "needs the tactic"),
        ({"tactic": "take-a-nap"}, "tactic must be one of"),
        ({"tactic_completed": "yes", "tactic": "conquer"}, "tactic_completed must be true or false"),
    ],
)
def test_tactic_refusals(table, event, sentence):
    t = table("first-blood")
    t.start(1)
    problem = t.refused({"type": "turn", "round": 1, "player": ANN, "control": {}, **event})
    assert sentence in problem


def test_a_tactic_is_used_once_per_battle_per_player(table):
    t = table("first-blood")
    t.start(1)
    t.turn(1, ANN, tactic="conquer", tactic_completed=False)
    t.turn(1, BO, tactic="conquer")  # the other player may pick it
    t.start(2)
    problem = t.refused({"type": "turn", "round": 2, "player": ANN, "control": {}, "tactic": "conquer"})
    assert (
        problem
        == "Ann has already used the battle tactic Conquer; each tactic can be picked once per battle."
    )
    assert t.game.tactics_used(ANN) == ["conquer"]


# --- Predators and Prey -----------------------------------------------------------------
def test_predators_and_prey_one_vp_on_your_turn(table):
    t = table("first-blood")
    t.start(1)
    turn = t.turn(1, ANN, enemy_monsters_slain=True)
    assert vp_by_rule(turn) == {"Predators and Prey: enemy MONSTERS slain this battle round": 1}
    assert t.turn(1, BO, enemy_monsters_slain=False).vp == 0


PREY = "Predators and Prey: enemy MONSTERS slain this battle round"


def claim(round_: int, player: int, rule: str = "predators-and-prey") -> dict:
    return {"type": "claim", "round": round_, "player": player, "rule": rule}


def test_predators_and_prey_claimed_after_your_turn(table):
    # Seed 002: once per battle round, 1 VP if any enemy MONSTER was slain in that round,
    # whoever's turn it died in. Ann goes first in round 1; Bo's MONSTER dies in Bo's turn.
    t = table("first-blood")
    t.start(1)
    t.turn(1, ANN)
    t.turn(1, BO, enemy_monsters_slain=False)
    # Edge: round 1's turns are all in but round 2 has not started: round 1 is still in play.
    game = t.ok(claim(1, ANN))
    assert [(c.round, c.player, c.vp) for c in game.claims] == [(1, ANN, 1)]
    assert game.round_awards(1, ANN)[-1].rule == PREY and game.round_vp(1, ANN) == 1
    assert game.vp(ANN) == 1 and game.vp(BO) == 0
    # Beyond: a second claim in the same round, by claim or by the turn flag, is refused.
    assert "Ann has already scored Predators and Prey in battle round 1" in t.refused(claim(1, ANN))
    t.start(2)
    assert "battle round 1 is over" in t.refused(claim(1, BO))
    # Ann's own turn flag counts as her claim for round 2; Bo claims in Ann's turn's wake.
    t.turn(2, ANN, enemy_monsters_slain=True)
    assert "once per player per battle round" in t.refused(claim(2, ANN))
    assert t.ok(claim(2, BO)).vp(BO) == 1
    assert "Bo has already scored" in t.refused(
        {"type": "turn", "round": 2, "player": BO, "control": {}, "enemy_monsters_slain": True}
    )
    t.turn(2, BO)
    assert (t.game.vp(ANN), t.game.vp(BO)) == (2, 1)


def test_predators_and_prey_claims_in_the_last_round_close_with_the_end(table):
    t = table("first-blood")
    t.quiet_rounds(1, 5)
    # Edge: after the last turn of round 5, before the end: still open for both players.
    assert [players for *_, players in scoring.open_claims(t.game)] == [[ANN, BO]]
    t.ok(claim(5, BO))
    assert scoring.open_claims(t.game)[0][1:] == ("Predators and Prey", 5, [ANN])
    t.end(ANN, False)
    # Beyond: once an end is recorded the round is over.
    assert "battle round 5 is over" in t.refused(claim(5, ANN))
    assert scoring.open_claims(t.game) == []


@pytest.mark.parametrize(
    ("scenario", "event", "sentence"),
    [
        ("first-blood", claim(1, ANN), "battle round 1 has not started"),
        ("first-blood", claim(6, ANN), "round must be a battle round from 1 to 5"),
        ("first-blood", claim(1, 2), "player must be a player's index"),
        ("first-blood", claim(1, ANN, "seismic-shift"), "rule must be predators-and-prey in First Blood."),
        ("first-blood", {**claim(1, ANN), "vp": 3}, "vp is not part of a claim"),
        ("marking-territory", claim(1, ANN), "Marking Territory has no rule a player claims"),
    ],
)
def test_bad_claims_get_one_plain_sentence(table, scenario, event, sentence):
    t = table(scenario)
    if "not started" not in sentence:
        t.start(1)
    assert sentence in t.refused(event)


def test_undoing_a_turn_with_a_claim_after_it(table):
    # The old reading refused to let Ann change her turn once Bo's was in; now a claim is an
    # entry like any other: undo it, then the turn, and record both again.
    t = table("first-blood")
    t.start(1)
    turn = t.turn(1, ANN, {"centre": ANN})
    made = t.ok(claim(1, BO)).claims[-1]
    t.ok({"type": "undo", "event": made.event})
    t.ok({"type": "undo", "event": turn.event})
    assert t.game.claims == [] and t.game.turns == []
    t.turn(1, ANN, {"centre": ANN}, enemy_monsters_slain=True)
    t.ok(claim(1, BO))
    # Ann: one objective 1 + more than Bo 1 + Predators and Prey 1; Bo: his claim 1.
    assert (t.game.vp(ANN), t.game.vp(BO)) == (1 + 1 + 1, 1)


# --- turn order and round structure ------------------------------------------------------
def test_a_third_turn_in_a_round_is_refused(table):
    t = table("first-blood")
    t.start(1)
    t.turn(1, ANN)
    t.turn(1, BO)
    assert t.refused({"type": "turn", "round": 1, "player": ANN, "control": {}}) == (
        "Ann has already taken their turn in battle round 1."
    )


def test_a_round_cannot_be_skipped(table):
    t = table("first-blood")
    t.start(1)
    t.turn(1, ANN)
    problem = t.refused({"type": "turn", "round": 2, "player": ANN, "control": {}})
    assert problem == "Battle round 2 cannot be recorded yet: battle round 1 still needs the turn of Bo."


def test_the_first_player_of_the_round_goes_first(table):
    t = table("first-blood")
    t.start(1, first=BO)
    problem = t.refused({"type": "turn", "round": 1, "player": ANN, "control": {}})
    assert "Bo takes the first turn in battle round 1" in problem
    t.turn(1, BO)
    t.turn(1, ANN)


def test_round_start_must_come_before_its_turns(table):
    t = table("first-blood")
    t.turn(1, ANN)  # the start of the round is optional
    assert "already under way" in t.refused({"type": "battle_round", "round": 1, "first": ANN})


@pytest.mark.parametrize(
    ("event", "sentence"),
    [
        ({"round": 6}, "round must be a battle round from 1 to 5"),
        ({"round": 0}, "round must be a battle round from 1 to 5"),
        ({"player": 2}, "player must be a player's index in this game, 0 to 1."),
        ({"player": True}, "player must be a player's index"),
        (
            {"control": {"the-moon": ANN}},
            "control names 'the-moon', which is not an objective in First Blood",
        ),
        (
            {"control": {"centre": 2}},
            "control.centre must be a player's index in this game, 0 to 1, or none for nobody.",
        ),
        ({"control": {"centre": "Ann"}}, "must be a player's index"),
        ({"control": ["centre"]}, "control must be an object"),
        ({"predators_destroyed": 2}, "predators_destroyed is not recorded in First Blood"),
        ({"type": "move"}, "type must be one of turn, battle_round, end, claim, roll, undo."),
        ({"id": "not-a-uuid"}, "id must be a UUID"),
    ],
)
def test_bad_turns_get_one_plain_sentence(table, event, sentence):
    t = table("first-blood")
    t.start(1)
    problem = t.refused({"type": "turn", "round": 1, "player": ANN, "control": {}, **event})
    assert sentence in problem
    assert problem.endswith(".") and "\n" not in problem


def test_facts_of_other_battleplans_left_empty_are_harmless(table):
    t = table("first-blood")
    t.start(1)
    assert t.turn(1, ANN, predators_destroyed=0, raided=None, destroyed=[]).vp == 0


# --- undo -----------------------------------------------------------------------------------
def test_undo_takes_back_the_last_entry_only(table):
    t = table("first-blood")
    t.start(1)
    first = t.turn(1, ANN, {"centre": ANN}).event
    second = t.turn(1, BO, {"centre": BO}).event
    assert "only the last entry" in t.refused({"type": "undo", "event": first})
    t.ok({"type": "undo", "event": second})
    game = t.game
    assert [turn.event for turn in game.turns] == [first]
    assert game.vp(BO) == 0
    # Bo records his turn again, differently.
    assert t.turn(1, BO, {"centre": BO, "north-east": BO}).vp == 3


def test_undo_of_a_tactic_frees_it(table):
    t = table("first-blood")
    t.start(1)
    turn = t.turn(1, ANN, tactic="conquer")
    t.ok({"type": "undo", "event": turn.event})
    assert t.turn(1, ANN, tactic="conquer", tactic_completed=True).vp == 2


def test_undo_with_nothing_to_undo(table):
    t = table("first-blood")
    assert t.refused({"type": "undo", "event": "x"}) == "There is nothing to undo."


def test_replay_is_a_pure_function_of_the_events(table):
    t = table("savage-gains")
    t.start(1)
    t.turn(1, ANN, {"west": ANN}, tactic="conquer", tactic_completed=True)
    again = replay(t.pack, t.setup, list(t.log))
    assert [x.vp for x in again.turns] == [x.vp for x in t.game.turns] == [4]


# --- end of the battle and the result ----------------------------------------------------
def _five_rounds(t, ann_vp_turn=None, ann_tactics=0, bo_tactics=0):
    tactics = ["conquer", "broken-ranks", "slay-the-warlord", "bring-it-down", "savage-spearhead"]
    for r in range(1, 6):
        t.start(r)
        t.turn(r, ANN, ann_vp_turn or {}, tactic=tactics[r - 1], tactic_completed=r <= ann_tactics)
        t.turn(r, BO, {}, tactic=tactics[r - 1], tactic_completed=r <= bo_tactics)


def test_game_finishes_when_last_turns_and_both_ends_are_in(table):
    t = table("first-blood")
    _five_rounds(t)
    assert t.game.status == "in_progress" and t.game.turns_complete
    t.end(ANN, True)
    assert t.game.result is None
    assert "already recorded" in t.refused({"type": "end", "player": ANN, "grand_strategy_completed": False})
    t.end(BO, False)
    game = t.game
    assert game.status == "finished"
    # Grand strategy: 3 VP. Ann 3 v Bo 0: major victory.
    assert (game.vp(ANN), game.vp(BO)) == (3, 0)
    assert (game.result.kind, game.result.winner, game.result.reason) == (
        "major",
        ANN,
        "Most victory points (3 to 0).",
    )
    assert "over" in t.refused({"type": "battle_round", "round": 5, "first": ANN})


@pytest.mark.parametrize(
    ("ann_tactics", "bo_tactics", "ann_gs", "bo_gs", "kind", "winner", "reason"),
    [
        # One tactic each (2 VP each); Bo's grand strategy adds 3: 5 to 2.
        (1, 1, False, True, "major", BO, "Most victory points (5 to 2)."),
        (
            1,
            1,
            True,
            True,
            "draw",
            None,
            "Level on victory points and battle tactics completed, and both completed their grand strategy.",
        ),
        (
            1,
            1,
            False,
            False,
            "draw",
            None,
            "Level on victory points and battle tactics completed, and neither completed their grand strategy.",
        ),
        (2, 1, False, False, "major", ANN, "Most victory points (4 to 2)."),
    ],
)
def test_result_order(table, ann_tactics, bo_tactics, ann_gs, bo_gs, kind, winner, reason):
    t = table("first-blood")
    _five_rounds(t, ann_tactics=ann_tactics, bo_tactics=bo_tactics)
    t.end(ANN, ann_gs)
    t.end(BO, bo_gs)
    result = t.game.result
    assert (result.kind, result.winner, result.reason) == (kind, winner, reason)


@pytest.mark.parametrize(
    ("ann_gs", "bo_gs", "kind", "winner"),
    [
        (False, True, "minor", BO),
        (True, False, "minor", ANN),
        (True, True, "draw", None),
        (False, False, "draw", None),
    ],
)
def test_only_grand_strategy_decides_when_it_gives_no_vp(table, ann_gs, bo_gs, kind, winner):
    # Marking Territory gives no VP, so a lone grand strategy decides level tactics.
    t = table("marking-territory")
    _five_rounds(t, ann_tactics=1, bo_tactics=1)
    t.end(ANN, ann_gs)
    t.end(BO, bo_gs)
    result = t.game.result
    assert (result.kind, result.winner) == (kind, winner)
    if kind == "minor":
        assert result.reason == "Only player to complete their grand strategy."


def test_level_vp_decided_by_tactics_is_a_minor_victory(table):
    # Ann: 2 tactics (4 VP). Bo: 1 tactic (2 VP) + 1 objective and more (2 VP) = 4 VP.
    t = table("first-blood")
    t.start(1)
    t.turn(1, ANN, {}, tactic="conquer", tactic_completed=True)
    t.turn(1, BO, {"centre": BO}, tactic="conquer", tactic_completed=True)
    t.start(2)
    t.turn(2, ANN, {"centre": BO}, tactic="broken-ranks", tactic_completed=True)
    t.turn(2, BO, {})
    t.quiet_rounds(3, 5)
    t.end(ANN, False)
    t.end(BO, False)
    game = t.game
    assert game.vp(ANN) == game.vp(BO) == 4
    assert (game.result.kind, game.result.winner) == ("minor", ANN)
    assert game.result.reason == "Most battle tactics completed (2 to 1)."


def test_end_needs_the_grand_strategy_answer(table):
    t = table("first-blood")
    assert t.refused({"type": "end", "player": ANN}) == "grand_strategy_completed must be true or false."


def test_scenario_facts_describe_what_each_plan_records(ghb):
    facts = {s.id: {(f.event, f.name) for f in scoring.scenario_facts(ghb, s)} for s in ghb.scenarios}
    assert ("battle_round", "alpha") in facts["tectonic-interference"]
    assert ("turn", "predators_destroyed") in facts["survival-of-the-fittest"]
    assert ("turn", "raided") in facts["feral-foray"]
    assert ("turn", "destroyed") in facts["power-in-numbers"]
    assert ("battle_round", "placed") in facts["the-veins-of-ghur"]
    assert ("battle_round", "vantage") in facts["first-blood"]
    assert ("turn", "enemy_monsters_slain") not in facts["marking-territory"]
    assert all(("battle_round", "removed") in f for f in facts.values())


@pytest.mark.parametrize(
    ("roll", "sentence"),
    [
        ({"dice": "d6", "results": [4], "purpose": "Who goes first"}, None),
        ({"dice": "roll-off", "results": [3, 5], "winner": 1, "purpose": "Priority"}, None),
        ({"dice": "d3", "results": [4]}, "each from 1 to 3"),
        ({"dice": "2d6", "results": [3]}, "two dice of a 2D6 roll"),
        ({"dice": "d20", "results": [4]}, "dice must be one of d3, d6, d12, 2d6, roll-off."),
        ({"dice": "d6", "results": [4], "winner": 3}, "winner must be a player's index"),
    ],
)
def test_rolls_are_kept_in_the_log_and_score_nothing(table, roll, sentence):
    t = table("first-blood")
    problem = t.send({"type": "roll", **roll})
    if sentence is None:
        assert problem is None
        game = t.game
        assert [r.results for r in game.rolls] == [tuple(roll["results"])] and game.vp(ANN) == game.vp(
            BO
        ) == 0
    else:
        assert sentence in problem


def test_each_block_names_the_objectives_its_fact_may_take(table):
    # Feral Foray (raid from battle round 2): Ann attacks, so she may raid only the three
    # defender-territory objectives, Bo only the attacker's. Savage Gains' Seismic Shift
    # (battle round 3) may remove W or E, never the two prime border objectives.
    t = table("feral-foray")
    game = t.game
    raided = next(f for f in game.facts if f.name == "raided")
    assert [o.id for o in scoring.fact_choices(game, raided, 2, ANN)] == [
        "defender-west",
        "defender-centre",
        "defender-east",
    ]
    assert [o.id for o in scoring.fact_choices(game, raided, 2, BO)] == [
        "attacker-west",
        "attacker-centre",
        "attacker-east",
    ]
    assert (raided.applies(1), raided.applies(2), raided.applies(5)) == (False, True, True)
    game = table("savage-gains").game
    removed = next(f for f in game.facts if f.name == "removed")
    assert [o.id for o in scoring.fact_choices(game, removed, 3)] == ["west", "east"]
    assert (removed.applies(2), removed.applies(3), removed.applies(4)) == (False, True, False)
    assert removed.none_label == "Nothing removed"


def test_a_pack_fact_may_not_take_an_events_own_key(ghb):
    from app.rules.pack import parse_pack

    text = (ROOT / "rulepacks" / "aos-ghb-2021.yaml").read_text()
    assert (
        parse_pack(text.replace("fact: predators_destroyed", "fact: monsters_eaten"), "x.yaml")[0] is not None
    )
    pack, errors = parse_pack(text.replace("fact: predators_destroyed", "fact: player"), "x.yaml")
    assert pack is None and "is a field every event has" in errors[0].message
