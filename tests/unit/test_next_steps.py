"""The next steps a phone may record offline, worked out by hand for both game systems.

Pitched Battles (Savage Gains: 5 battle rounds, Ann and Bo): a battle round starts, the
first player named takes their turn, then the other; after round 5 each player records the
grand strategy on their own form. First Blood (Twin Contested Zones: 10 rounds): one Victory
Phase a round, nothing to choose between them.
"""

from __future__ import annotations

import uuid

import pytest

from app.rules.game import Player, Setup
from app.rules.systems.rounds import scoring as rounds
from app.rules.systems.turns import scoring
from tests.conftest import ANN, BO, replay


def test_a_new_battle_waits_for_round_one_and_its_first_player(table):
    steps = scoring.next_steps(table("savage-gains").game)
    assert steps["plan"] == ["round-1"]
    assert steps["in_play"] is None
    # Who goes first decides the order of the round's turns, then round 2 starts.
    assert steps["steps"]["round-1"] == {
        "in_play": 1,
        "choice": "first",
        "plans": {"0": ["turn-1-0", "turn-1-1", "round-2"], "1": ["turn-1-1", "turn-1-0", "round-2"]},
    }
    assert steps["steps"]["turn-3-1"] == {"in_play": 3}
    # Every later step: 5 round starts, 10 turns, the grand strategies and the end.
    assert len(steps["steps"]) == 5 + 10 + 2
    assert steps["steps"]["end"] == {"in_play": None, "parts": [ANN, BO]}
    assert steps["steps"]["over"] == {}


def test_the_turns_follow_the_first_player_then_the_next_round_starts(table):
    t = table("savage-gains")
    t.start(1, first=BO)
    steps = scoring.next_steps(t.game)
    assert steps["plan"] == ["turn-1-1", "turn-1-0", "round-2"]
    assert steps["in_play"] == 1
    assert "round-1" not in steps["steps"]
    t.turn(1, BO)
    steps = scoring.next_steps(t.game)
    assert steps["plan"] == ["turn-1-0", "round-2"]
    assert "turn-1-1" not in steps["steps"] and "turn-1-0" in steps["steps"]
    # Edge: both turns in, round 2 not started: round 1's claims are still open.
    t.turn(1, ANN)
    steps = scoring.next_steps(t.game)
    assert steps["plan"] == ["round-2"]
    assert steps["in_play"] == 1
    assert steps["steps"]["round-2"]["plans"]["0"] == ["turn-2-0", "turn-2-1", "round-3"]


def test_after_the_last_round_come_the_grand_strategies_one_form_each(table):
    t = table("savage-gains")
    t.quiet_rounds(1, 3)
    # Round 4's start still leads to round 5; round 5's leads to the end.
    steps = scoring.next_steps(t.game)["steps"]
    assert steps["round-4"]["plans"]["1"] == ["turn-4-1", "turn-4-0", "round-5"]
    assert steps["round-5"]["plans"]["1"] == ["turn-5-1", "turn-5-0", "end", "over"]
    t.quiet_rounds(4, 4)
    t.start(5, first=ANN)
    assert scoring.next_steps(t.game)["plan"] == ["turn-5-0", "turn-5-1", "end", "over"]
    t.turn(5, ANN)
    t.turn(5, BO)
    steps = scoring.next_steps(t.game)
    assert steps["plan"] == ["end", "over"]
    assert steps["in_play"] == 5  # claims for round 5 stay open until an end is recorded
    assert list(steps["steps"]) == ["end", "over"]
    t.end(ANN, True)
    steps = scoring.next_steps(t.game)
    assert steps["plan"] == ["end", "over"]
    assert steps["steps"]["end"] == {"in_play": None, "parts": [BO]}
    assert steps["in_play"] is None
    t.end(BO, False)
    assert scoring.next_steps(t.game) == {"plan": ["over"], "in_play": None, "steps": {"over": {}}}


def test_a_round_started_without_a_first_player_asks_whose_turn_it_is(table):
    t = table("savage-gains")
    t.ok({"type": "battle_round", "round": 1})
    steps = scoring.next_steps(t.game)
    assert steps["plan"] == ["turn-1-0", "turn-1-1", "round-2"]
    assert steps["steps"]["turn-1-0"] == {
        "in_play": 1,
        "choice": "player",
        "plans": {"0": ["turn-1-1", "round-2"], "1": ["turn-1-0", "round-2"]},
    }
    t.turn(1, BO)
    steps = scoring.next_steps(t.game)
    assert steps["plan"] == ["turn-1-0", "round-2"]
    assert steps["steps"]["turn-1-0"] == {"in_play": 1}


def _phase(r: int) -> dict:
    return {"id": str(uuid.uuid4()), "type": "round", "round": r, "control": {}, "players": [{}, {}]}


@pytest.mark.parametrize(
    ("recorded", "plan"),
    [
        (0, [f"phase-{r}" for r in range(1, 11)] + ["over"]),
        (9, ["phase-10", "over"]),  # edge: the last round is next
        (10, ["over"]),  # beyond: the game is over
    ],
)
def test_first_blood_steps_are_each_later_victory_phase(packs, recorded, plan):
    setup = Setup(
        "conquest-first-blood",
        "twin-contested-zones",
        500,
        (Player("Ann", "player1"), Player("Bo", "player2")),
    )
    game = replay(packs["conquest-first-blood"], setup, [_phase(r) for r in range(1, recorded + 1)])
    steps = rounds.next_steps(game)
    assert steps["plan"] == plan
    assert steps["in_play"] is None
    assert list(steps["steps"]) == plan
    assert all(value == {} for value in steps["steps"].values())
