"""Tunnel Fighting's dice at their edges (seed 000): the denizen attacked once a round, what a
6 on the unstable surroundings die may bring down, and how many units a D3 of stalactites hits.

Ann is player 0 and Bo player 1; both have sent contingent 1 into battle 1.
"""

from __future__ import annotations

import pytest

from tests.unit.siege_play import ANN, BO, PACK, Play


@pytest.fixture
def battle(packs) -> Play:
    play = Play(packs[PACK], "tunnel-wars", "tunnels")
    play.ok(
        {"type": "contingent", "battle": 1, "player": ANN, "contingent": 1},
        {"type": "contingent", "battle": 1, "player": BO, "contingent": 1},
    )
    return play


UNSTABLE = {"type": "unstable", "battle": 1, "round": 1, "player": ANN, "die": 6}


def test_the_commanding_player_turns_on_the_denizen_once_a_round(battle):
    battle.ok({"type": "denizen", "battle": 1, "round": 1, "dice": [[5, 2]]})
    attack = {"type": "denizen_attack", "battle": 1, "round": 1}
    battle.ok({**attack, "player": ANN})
    # Bo now has it; he may turn on it in his turn, and then it is Ann's again for the round.
    battle.ok({**attack, "player": BO})
    assert battle.summary()["series"][0]["denizen"][0]["commander"] == ANN
    assert (
        battle.refused({**attack, "player": ANN})
        == "Ann has already turned on the denizen in battle round 1."
    )


def test_a_6_may_bring_down_nothing(battle):
    battle.ok(UNSTABLE)
    (row,) = battle.summary()["series"][0]["unstable"]
    assert (row["die"], row["choice"], row["units"]) == (6, None, [])


def test_a_cave_in_is_noted_where_it_falls_and_only_a_cave_in_has_a_point(battle):
    assert battle.refused({**UNSTABLE, "choice": "cave-in"}) == (
        "point must be a name of 1 to 120 characters: where the cave-in is."
    )
    units = [{"unit": "Orruks", "die": 3}]
    assert battle.refused(
        {**UNSTABLE, "choice": "stalactites", "d3": 1, "units": units, "point": "Bend"}
    ) == ("point is only noted for a cave-in.")
    assert (
        battle.refused({**UNSTABLE, "choice": "rockfall"})
        == "choice must be cave-in or stalactites, or left out."
    )


@pytest.mark.parametrize(
    ("d3", "units", "refused"),
    [
        (3, 3, None),  # a D3 of 3: three units
        (3, 4, "units must be a list of 1 to 3 entries."),
        (1, 1, None),
        (1, 2, "units must be a list of 1 to 1 entries."),
        (4, 1, "d3 must be a D3 as it landed, 1 to 3."),
    ],
    ids=["3-of-3", "4-of-3", "1-of-1", "2-of-1", "d3-of-4"],
)
def test_falling_stalactites_hit_up_to_the_d3_in_units(battle, d3, units, refused):
    picked = [{"unit": f"Unit {k}", "die": 2} for k in range(units)]
    event = {**UNSTABLE, "choice": "stalactites", "d3": d3, "units": picked}
    if refused:
        assert battle.refused(event) == refused
    else:
        (row,) = battle.ok(event).unstable
        assert [w for _, _, w in row.units] == [1] * units


def test_stalactites_fall_on_different_units(battle):
    twice = [{"unit": "Orruks", "die": 2}, {"unit": "Orruks", "die": 5}]
    assert battle.refused({**UNSTABLE, "choice": "stalactites", "d3": 2, "units": twice}) == (
        "units must name different enemy units."
    )
