"""Whole five-round games through the JSON API, one for each battleplan.

Every turn repeats a simple pattern so the totals can be checked by hand; the arithmetic is
in the comments. Ann (0) attacks, Bo (1) defends. Ann completes a tactic in rounds 1 and 2
(4 VP where tactics score), Bo in round 1 (2 VP); Ann completes her grand strategy (3 VP).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.setups import new_game
from tests.web.conftest import Api

A, B = 0, 1

# scenario -> per round: (round-start facts, Ann's turn, Bo's turn); then expected VP and result.
PLAYS: dict[str, dict[str, Any]] = {
    "marking-territory": {
        "rounds": [
            (
                {},
                {"control": {"north-west": A, "north-east": A}},
                {"control": {"north-west": A, "north-east": A, "south-west": B}},
            )
        ]
        * 5,
        # No VP at all; tactics 2 to 1 decide.
        "vp": (0, 0),
        "result": ("minor", A, "Most battle tactics completed (2 to 1)."),
    },
    "savage-gains": {
        "rounds": [
            (
                {},
                {"control": {"attacker-border": A, "west": A}},
                {"control": {"defender-border": B, "attacker-border": A}},
            )
        ]
        * 5,
        # Ann (1 own border + 2 west) x 5 + 4 + 3 = 22; Bo 1 x 5 + 2 = 7
        "vp": (22, 7),
        "result": ("major", A, "Most victory points (22 to 7)."),
    },
    "first-blood": {
        "rounds": [
            (
                {"vantage": "centre"},
                {"control": {"south-west": A, "centre": A}},
                {"control": {"south-west": A, "centre": A, "north-east": B}},
            )
        ]
        * 5,
        # Ann 3 x 5 + 4 + 3 = 22; Bo 1 x 5 + 2 = 7
        "vp": (22, 7),
        "result": ("major", A, "Most victory points (22 to 7)."),
    },
    "power-struggle": {
        "rounds": [
            (
                {},
                {"control": {"north-west": A, "north-east": A}},
                {"control": {"north-west": A, "north-east": A, "centre": B}},
            )
        ]
        * 5,
        # Ann: round 1 only "more" (1), then held 2 (2) + more (1) x 4 = 13; + 4 + 3 = 20
        # Bo: round 1 nothing, then the centre held twice (1) x 4 = 4; + 2 = 6
        "vp": (20, 6),
        "result": ("major", A, "Most victory points (20 to 6)."),
    },
    "survival-of-the-fittest": {
        "rounds": [
            (
                {},
                {"control": {"south-west": A, "centre": A}, "predators_destroyed": 1},
                {"control": {"south-west": A, "centre": A, "north-east": B}},
            )
        ]
        + [
            (
                {},
                {"control": {"south-west": A, "centre": A}},
                {"control": {"south-west": A, "centre": A, "north-east": B}},
            )
        ]
        * 4,
        # Ann 3 x 5 + 1 predator + 4 + 3 = 23; Bo 1 x 5 + 2 = 7
        "vp": (23, 7),
        "result": ("major", A, "Most victory points (23 to 7)."),
    },
    "tectonic-interference": {
        "rounds": [
            (
                {"alpha": alpha},
                {"control": {"objective-1": A, "objective-2": A}},
                {"control": {"objective-1": A, "objective-2": A, "objective-3": B}},
            )
            for alpha in ("objective-1", "objective-2", "objective-3", "objective-1", "objective-2")
        ],
        # Ann: 3, 3, 2 (alpha is Bo's), 3, 3 = 14; + 4 + 3 = 21
        # Bo: beta 1, 1, alpha 2, 1, 1 = 6; + 2 = 8
        "vp": (21, 8),
        "result": ("major", A, "Most victory points (21 to 8)."),
    },
    "apex-predators": {
        "rounds": [
            (
                {},
                {"control": {"south-west": A, "centre": A}},
                {"control": {"south-west": A, "centre": A, "north-east": B}},
            )
        ]
        * 5,
        "vp": (22, 7),
        "result": ("major", A, "Most victory points (22 to 7)."),
    },
    "the-vice": {
        "rounds": [
            (
                {},
                {"control": {"north-west": A, "north-east": A}},
                {"control": {"north-west": A, "north-east": A, "south-west": B}},
            )
        ]
        * 3
        + [({}, {"control": {"centre": A}}, {"control": {"centre": B}})] * 2,
        # Ann 3 x 3 + 2 x 2 = 13; + 4 + 3 = 20. Bo 1 x 3 + 2 x 2 = 7; + 2 = 9
        "vp": (20, 9),
        "result": ("major", A, "Most victory points (20 to 9)."),
    },
    "tooth-and-nail": {
        "rounds": [
            (
                {},
                {"control": {"north-west": A, "north-east": A}},
                {"control": {"north-west": A, "north-east": A, "south-west": B}},
            )
        ]
        * 5,
        "vp": (22, 7),
        "result": ("major", A, "Most victory points (22 to 7)."),
    },
    "feral-foray": {
        "rounds": [
            (
                {},
                {"control": {"attacker-west": A, "defender-west": A, "attacker-centre": B}},
                {"control": {"attacker-west": A, "defender-west": A, "attacker-centre": B}},
            ),
            (
                {},
                {
                    "control": {"attacker-west": A, "defender-west": A, "attacker-centre": B},
                    "raided": "defender-west",
                },
                {"control": {"attacker-west": A, "attacker-centre": B}},
            ),
        ]
        + [
            (
                {},
                {"control": {"attacker-west": A, "attacker-centre": B}},
                {"control": {"attacker-west": A, "attacker-centre": B}},
            )
        ]
        * 3,
        # Ann: 3, 3 + 1 raid, 1, 1, 1 = 10; + 4 + 3 = 17. Bo: 1 x 5 = 5; + 2 = 7
        "vp": (17, 7),
        "result": ("major", A, "Most victory points (17 to 7)."),
    },
    "power-in-numbers": {
        "rounds": [
            (
                {},
                {"control": {"north": A, "south": A}},
                {"control": {"north": A, "south": A, "north-east": B}},
            ),
            (
                {},
                {"control": {"north": A, "south": A, "north-east": B}, "destroyed": ["north"]},
                {"control": {"south": A, "north-east": B}, "destroyed": ["north-east"]},
            ),
            ({}, {"control": {"south": A}}, {"control": {"south": A}}),
            ({}, {"control": {"south": A}}, {"control": {"south": A}}),
            ({}, {"control": {"south": A}, "destroyed": ["south"]}, {"control": {}}),
        ],
        # Ann: north held since her last turn 2; south held from round 1 to round 5: 8; + 4 + 3 = 17
        # Bo: north-east held since his last turn 2; + 2 = 4
        "vp": (17, 4),
        "result": ("major", A, "Most victory points (17 to 4)."),
    },
    "the-veins-of-ghur": {
        "rounds": [
            ({}, {"control": {}}, {"control": {}}),
            (
                {"placed": [{"objective": "vein-1", "roll": 7}]},
                {"control": {"vein-1": A}},
                {"control": {"vein-1": B}},
            ),
            (
                {"placed": [{"objective": "vein-2", "roll": 5}, {"objective": "vein-3", "roll": 9}]},
                {"control": {"vein-1": B, "vein-2": A}},
                {"control": {"vein-1": B, "vein-2": A, "vein-3": B}},
            ),
            (
                {},
                {"control": {"vein-1": A, "vein-2": A, "vein-3": B}},
                {"control": {"vein-1": A, "vein-2": A, "vein-3": B}},
            ),
            ({}, {"control": {"vein-1": A}}, {"control": {"vein-1": A}}),
        ],
        # Ann: 2 + 3 + 8 + 5 = 18; + 4 + 3 = 25. Bo: 2 + 6 + 4 + 0 = 12; + 2 = 14
        "vp": (25, 14),
        "result": ("major", A, "Most victory points (25 to 14)."),
    },
}

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
