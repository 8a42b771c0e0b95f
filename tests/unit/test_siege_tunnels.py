"""Tunnel Fighting and Tunnel Wars (seed 000): contingents, secret picks, the denizen, the dangers.

Ann is player 0 and Bo player 1; their armies are split into three contingents each.
"""

from __future__ import annotations

import pytest

from app.rules import contingents
from tests.unit.siege_play import ANN, BO, PACK, Play


@pytest.fixture
def series(packs) -> Play:
    return Play(packs[PACK], "tunnel-wars", "tunnels")


def pick(play: Play, battle: int, ann: int, bo: int) -> Play:
    play.ok(
        {"type": "contingent", "battle": battle, "player": ANN, "contingent": ann},
        {"type": "contingent", "battle": battle, "player": BO, "contingent": bo},
    )
    return play


def fight(play: Play, battle: int, winner: int | None) -> Play:
    pick(play, battle, battle, battle)
    play.ok({"type": "battle_result", "battle": battle, "winner": winner})
    return play


# --- contingents: a quarter to a half of the army's units each ---------------------------------
@pytest.mark.parametrize(
    ("sizes", "sentence"),
    [
        ([2, 3, 3], None),  # 8 units: a quarter is 2, a half 4
        ([2, 2, 4], None),
        ([1, 3, 4], "contingent 1 has 1 of 8 units: fewer than 1/4"),
        ([2, 1, 5], "contingent 2 has 1 of 8 units: fewer than 1/4"),
        ([3, 3, 4], None),  # 10 units: 2.5 to 5
        ([2, 3, 5], "contingent 1 has 2 of 10 units: fewer than 1/4"),
        ([3, 1, 6], "contingent 2 has 1 of 10 units: fewer than 1/4"),
        ([3, 3, 6], None),  # 12 units: 6 is a half exactly, allowed
    ],
    ids=["8-233", "8-224", "8-134", "8-215", "10-334", "10-235", "10-316", "12-336"],
)
def test_each_contingent_holds_a_quarter_to_a_half_of_the_units(series, sizes, sentence):
    event = {"type": "contingents", "player": ANN, "contingents": sizes}
    if sentence is None:
        assert series.ok(event).splits[ANN].sizes == tuple(sizes)
    else:
        assert sentence in series.refused(event)


def test_a_contingent_over_half_is_named_too(packs):
    # With three contingents, one over a half leaves another under a quarter: both are named.
    rules = packs[PACK].scenario("tunnel-wars").contingents
    labels = ["contingent 1", "contingent 2", "contingent 3"]
    assert contingents.split_problems(rules, [2, 2, 5], labels) == [
        "The contingent 1 has 2 of 9 units: fewer than 1/4 of the army.",
        "The contingent 2 has 2 of 9 units: fewer than 1/4 of the army.",
        "The contingent 3 has 5 of 9 units: more than 1/2 of the army.",
    ]


def test_contingents_may_name_their_units(series):
    parts = [
        ["Liberators", "Judicators"],
        ["Sequitors", "Retributors"],
        ["Vanguard-Hunters", "Knight-Questor"],
    ]
    series.ok({"type": "contingents", "player": ANN, "contingents": parts})
    assert series.summary()["contingents"]["0"]["units"] == parts
    # Two units of one warscroll are two names alike: without a roster nothing says otherwise.
    twice = [["Liberators"], ["Liberators"], ["Judicators"]]
    series.ok({"type": "contingents", "player": BO, "contingents": twice})
    assert series.summary()["contingents"]["1"]["units"] == twice


# --- the secret pick before each battle --------------------------------------------------------
def test_a_contingent_is_hidden_until_both_are_in(series):
    series.ok({"type": "contingent", "battle": 1, "player": BO, "contingent": 2, "general": "Lord-Relictor"})
    stored = series.log[0]
    for seat in (None, ANN):
        battle = series.summary(seat)["series"][0]
        assert battle["contingents"] == {"0": None, "1": None} and battle["generals"] == {
            "0": None,
            "1": None,
        }
        assert battle["picked"] == {"0": False, "1": True}
        assert series.summary(seat)["used"] == {"0": [], "1": []}
        shown = series.system.visible_event(stored, seat, series.game)
        assert shown == {"id": stored["id"], "type": "contingent", "battle": 1, "player": BO, "hidden": True}
    assert series.summary(BO)["series"][0]["contingents"] == {"0": None, "1": 2}
    assert series.summary(BO)["series"][0]["generals"]["1"] == "Lord-Relictor"
    series.ok({"type": "contingent", "battle": 1, "player": ANN, "contingent": 3})
    battle = series.summary()["series"][0]
    assert battle["contingents"] == {"0": 3, "1": 2} and battle["revealed"] is True
    assert series.system.visible_event(stored, ANN, series.game)["contingent"] == 2
    assert series.system.holder(stored) == BO and series.system.seated is True


def test_a_contingent_used_again_is_refused(series):
    pick(series, 1, 1, 2)
    series.ok({"type": "battle_result", "battle": 1, "winner": ANN})
    message = series.refused({"type": "contingent", "battle": 2, "player": ANN, "contingent": 1})
    assert message == "contingent 1 already fought in battle 1; each contingent fights in one battle only."
    assert (
        series.refused({"type": "contingent", "battle": 2, "player": ANN, "contingent": 4})
        == "contingent must be one of the army's contingents, 1 to 3."
    )
    assert "battle 2 is being fought now" in series.refused(
        {"type": "contingent", "battle": 3, "player": ANN, "contingent": 2}
    )


def test_a_battle_starts_once_both_contingents_are_in(series):
    series.ok({"type": "contingent", "battle": 1, "player": ANN, "contingent": 1})
    assert "starts once both players have picked" in series.refused(
        {"type": "battle_result", "battle": 1, "winner": ANN}
    )
    series.ok({"type": "contingent", "battle": 1, "player": BO, "contingent": 1})
    series.ok({"type": "battle_round", "battle": 1, "round": 1, "first": BO})
    assert "the next battle round of battle 1 is 2" in series.refused(
        {"type": "battle_round", "battle": 1, "round": 3}
    )


# --- the series --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("winners", "kind", "winner"),
    [
        ([ANN, ANN, ANN], "major", ANN),
        ([BO, BO, BO], "major", BO),
        ([ANN, BO, ANN], "minor", ANN),
        ([None, BO, BO], "minor", BO),
        ([ANN, BO, None], "draw", None),
        ([None, None, ANN], "draw", None),
        ([None, None, None], "draw", None),
    ],
    ids=["ann-3", "bo-3", "ann-2-1", "bo-2-null", "1-1-null", "1-null-null", "all-null"],
)
def test_the_series_result_after_the_third_battle(series, winners, kind, winner):
    for b, w in enumerate(winners, start=1):
        assert series.summary()["result"] is None
        fight(series, b, w)
    out = series.summary()
    assert out["status"] == "finished"
    assert (out["result"]["kind"], out["result"]["winner"]) == (kind, winner)
    assert [p["battles_won"] for p in out["players"]] == [winners.count(ANN), winners.count(BO)]
    assert "All 3 battles are fought" in series.refused(
        {"type": "contingent", "battle": 3, "player": ANN, "contingent": 1}
    )


def test_a_battle_result_names_the_winner_or_null(series):
    pick(series, 1, 1, 1)
    assert series.refused({"type": "battle_result", "battle": 1}).startswith(
        "winner must be a player's index"
    )
    assert "winner must be a player's index" in series.refused(
        {"type": "battle_result", "battle": 1, "winner": 2}
    )


# --- the monstrous denizen ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("dice", "winner"),
    [([[5, 2]], ANN), ([[2, 5]], BO), ([[3, 3], [1, 4]], BO), ([[6, 6], [2, 2], [4, 3]], ANN)],
    ids=["ann", "bo", "tie-then-bo", "two-ties-then-ann"],
)
def test_the_denizen_roll_off_is_kept_with_its_ties(series, dice, winner):
    pick(series, 1, 1, 1)
    series.ok({"type": "denizen", "battle": 1, "round": 1, "dice": dice})
    (row,) = series.summary()["series"][0]["denizen"]
    assert row["roll_off"] == dice and row["winner"] == winner and row["commander"] == winner


@pytest.mark.parametrize("dice", [[[3, 3]], [[4, 2], [5, 1]], []], ids=["tie-last", "untied-first", "empty"])
def test_a_roll_off_must_end_untied_after_ties(series, dice):
    pick(series, 1, 1, 1)
    assert series.refused({"type": "denizen", "battle": 1, "round": 1, "dice": dice})


def test_the_set_up_roll_off_comes_before_the_contingents(series):
    series.ok({"type": "denizen", "battle": 1, "round": 0, "dice": [[2, 6]]})
    assert series.summary()["series"][0]["denizen"][0]["winner"] == BO


def test_attacking_and_taming_the_denizen_change_its_side_for_the_round(series):
    pick(series, 1, 1, 1)
    series.ok({"type": "denizen", "battle": 1, "round": 1, "dice": [[6, 1]]})
    attack = {"type": "denizen_attack", "battle": 1, "round": 1, "player": BO}
    assert "only the denizen's commanding player may attack it" in series.refused(attack)
    series.ok({**attack, "player": ANN})
    row = series.summary()["series"][0]["denizen"][0]
    assert row["commander"] == BO and row["attacked_by"] == ANN
    series.ok({"type": "tame", "battle": 1, "round": 1, "player": ANN})
    row = series.summary()["series"][0]["denizen"][0]
    assert row["commander"] == ANN and row["tamed_by"] == ANN
    # Next round the roll-off decides afresh.
    series.ok({"type": "denizen", "battle": 1, "round": 2, "dice": [[1, 6]]})
    assert series.summary()["series"][0]["denizen"][1]["commander"] == BO


# --- unstable surroundings and Cunning Traps -----------------------------------------------------
def test_unstable_surroundings_only_on_a_6(series):
    pick(series, 1, 1, 1)
    base = {"type": "unstable", "battle": 1, "round": 1, "player": ANN}
    assert series.refused({**base, "die": 5, "choice": "cave-in", "point": "Centre"}) == (
        "choice must be left out: the die needed 6 or more."
    )
    series.ok({**base, "die": 5})
    assert "already recorded" in series.refused({**base, "die": 6})
    series.ok({**base, "player": BO, "die": 6, "choice": "cave-in", "point": "Between the two pillars"})
    rows = series.summary()["series"][0]["unstable"]
    assert [(r["die"], r["choice"], r["point"]) for r in rows] == [
        (5, None, None),
        (6, "cave-in", "Between the two pillars"),
    ]


def test_falling_stalactites_wound_on_2_or_more_up_to_d3_units(series):
    pick(series, 1, 1, 1)
    base = {
        "type": "unstable",
        "battle": 1,
        "round": 1,
        "player": ANN,
        "die": 6,
        "choice": "stalactites",
        "d3": 2,
    }
    three = [{"unit": "Orruks", "die": 2}, {"unit": "Grots", "die": 1}, {"unit": "Trolls", "die": 4}]
    assert series.refused({**base, "units": three}) == "units must be a list of 1 to 2 entries."
    series.ok({**base, "units": three[:2]})
    (row,) = series.summary()["series"][0]["unstable"]
    assert row["units"] == [
        {"unit": "Orruks", "die": 2, "mortal_wounds": 1},
        {"unit": "Grots", "die": 1, "mortal_wounds": 0},
    ]


@pytest.mark.parametrize(
    ("distance", "dice", "sprung"),
    [(7, [3, 4], True), (7, [3, 3], False), (7.5, [4, 4], True), (7.5, [3, 4], False), (12, [6, 6], True)],
)
def test_cunning_traps_spring_when_2d6_reaches_the_distance(series, distance, dice, sprung):
    pick(series, 1, 1, 1)
    trap = {"type": "trap", "battle": 1, "player": BO, "target": "Orruks", "distance": distance, "dice": dice}
    if sprung:
        assert "mortal_wounds must be a D3 as it landed, 1 to 3" in series.refused(trap)
        trap["mortal_wounds"] = 3
    else:
        assert "mortal_wounds must be left out" in series.refused({**trap, "mortal_wounds": 1})
    series.ok(trap)
    (row,) = series.summary()["series"][0]["traps"]
    assert row["sprung"] is sprung and row["mortal_wounds"] == (3 if sprung else 0)


def test_a_trap_reaches_12_inches_at_most(series):
    pick(series, 1, 1, 1)
    trap = {"type": "trap", "battle": 1, "player": BO, "distance": 12.5, "dice": [6, 6], "mortal_wounds": 1}
    assert series.refused(trap).startswith(
        'distance must be the measured distance in inches, more than 0 and at most 12"'
    )


def test_the_rules_in_force_are_reminders(series):
    names = [r["id"] for r in series.summary()["reminders"]]
    assert {"impenetrable-gloom", "low-ceilings", "monstrous-denizen", "unstable-surroundings"} <= set(names)


def test_named_tunnel_contingents_are_checked_against_the_attached_roster():
    """Tunnel Wars: the three contingents named from a roster hold its units, each once."""
    from app.rules.systems.tunnels.engine import roster_problems

    roster = ["Lord Kroak", "Saurus Guard", "Skinks", "Skinks"]
    split = {"player": 0, "contingents": [["Lord Kroak"], ["Saurus Guard", "Skinks"], ["Skinks"]]}
    assert roster_problems(split, roster) == []
    extra = {"player": 0, "contingents": [["Lord Kroak", "Stegadon"], ["Saurus Guard", "Skinks"], ["Skinks"]]}
    assert roster_problems(extra, roster) == ["Stegadon is not in the attached roster."]
    left_out = {"player": 0, "contingents": [["Lord Kroak"], ["Saurus Guard"], ["Skinks"]]}
    assert roster_problems(left_out, roster) == ["Skinks from the attached roster is in no contingent."]
    # Both Skinks units in one contingent is fine; a third is one more than the roster holds.
    both = {"player": 0, "contingents": [["Lord Kroak"], ["Saurus Guard"], ["Skinks", "Skinks"]]}
    assert roster_problems(both, roster) == []
    third = {"player": 0, "contingents": [["Lord Kroak", "Skinks"], ["Saurus Guard"], ["Skinks", "Skinks"]]}
    assert roster_problems(third, roster) == [
        "Skinks is placed in contingent 1 and contingent 3 more times than the roster holds it."
    ]
    # Counted by hand: nothing to check against.
    assert roster_problems({"player": 0, "contingents": [1, 2, 1]}, roster) == []
