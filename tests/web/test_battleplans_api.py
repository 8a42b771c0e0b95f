"""Whole five-round games through the JSON API, one for each battleplan.

Every turn repeats a simple pattern so the totals can be checked by hand; the arithmetic is
in the comments. Ann (0) attacks, Bo (1) defends. Ann completes a tactic in rounds 1 and 2
(4 VP where tactics score), Bo in round 1 (2 VP); Ann completes her grand strategy (3 VP).
"""

from __future__ import annotations

import pytest

from tests.setups import new_game
from tests.web.conftest import Api
from tests.web.games_played import PLAYS

A, B = 0, 1

ANN_TACTICS = {1: "conquer", 2: "broken-ranks"}
BO_TACTICS = {1: "conquer"}


def test_every_battleplan_has_a_worked_game(client):
    plans = [s["id"] for s in client.get("/api/v1/packs/aos-ghb-2021").json["scenarios"]]
    assert sorted(plans) == sorted(PLAYS)


@pytest.mark.parametrize("scenario", sorted(PLAYS))
def test_a_whole_game_through_the_api(client, scenario):
    play = PLAYS[scenario]
    api = Api(client, new_game(client, scenario))
    for r, (start, ann, bo) in enumerate(play["rounds"], start=1):
        api.ok({"type": "battle_round", "round": r, "first": A, **start})
        tactic = {"tactic": ANN_TACTICS[r], "tactic_completed": True} if r in ANN_TACTICS else {}
        api.ok({"type": "turn", "round": r, "player": A, **ann, **tactic})
        tactic = {"tactic": BO_TACTICS[r], "tactic_completed": True} if r in BO_TACTICS else {}
        api.ok({"type": "turn", "round": r, "player": B, **bo, **tactic})
    assert api.state()["status"] == "in_progress"
    api.ok({"type": "end", "player": A, "grand_strategy_completed": True})
    game = api.ok({"type": "end", "player": B, "grand_strategy_completed": False})
    assert game["status"] == "finished"
    assert (game["players"][0]["vp"], game["players"][1]["vp"]) == play["vp"]
    kind, winner, reason = play["result"]
    assert game["result"] == {"kind": kind, "winner": winner, "reason": reason}
    # Every VP comes with the rule that gave it.
    for turn in game["turns"]:
        assert turn["vp"] == sum(item["vp"] for item in turn["breakdown"])
        assert all(item["rule"] for item in turn["breakdown"])
