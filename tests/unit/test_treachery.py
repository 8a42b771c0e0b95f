"""Triumph & Treachery (seed 003, The Old World): worked examples for every rule, by hand.

Three players unless a test says otherwise: Ann (0), Bo (1), Cy (2). Each refusal is checked
by its rule id (the sentence names the field; see test_treachery_protocol for sentences).
"""

from __future__ import annotations

import json

import pytest

from app.rules import log
from app.rules.systems.treachery.standing import buy_limits, ranking
from tests.unit.treachery_play import ANN, BO, CY, DI, Treachery

TOW = "tow-triumph-treachery"


@pytest.fixture
def tow(packs):
    return packs[TOW]


def altar(pack, players: int = 3) -> Treachery:
    return Treachery(pack, "altar-of-the-gods", players)


# --- standing: how many ploys each may buy ---------------------------------------------------
@pytest.mark.parametrize(
    ("standing", "limits"),
    [
        ((0, 0, 0), (2, 2, 2)),  # all tied: 2 each
        ((3, 3, 3, 3), (2, 2, 2, 2)),
        ((4, 2, 0), (1, 2, 3)),  # most, other, fewest
        ((4, 4, 0), (1, 1, 3)),  # tied for the most count as most
        ((4, 0, 0), (1, 3, 3)),  # tied for the fewest count as fewest
        ((6, 4, 4, 2), (1, 2, 2, 3)),
        ((5, 5, 5, 1), (1, 1, 1, 3)),
    ],
    ids=["all-tied-3", "all-tied-4", "spread", "tied-most", "tied-fewest", "four-players", "three-tied-most"],
)
def test_buy_limits_by_standing_at_the_start_of_the_round(tow, standing, limits):
    assert buy_limits(tow.treachery, standing) == limits


def test_the_standing_is_taken_when_the_round_starts_and_limits_each_player(tow):
    game = altar(tow)
    # Round 1: Ann holds the altar at the end of her turn and Bo's (3 + 3), Bo at the end of Cy's.
    game.ok(
        {"type": "battle_round", "round": 1},
        {"type": "turn", "round": 1, "player": ANN, "control": {"altar": ANN}},
        {"type": "turn", "round": 1, "player": BO, "control": {"altar": ANN}},
        {"type": "turn", "round": 1, "player": CY, "control": {"altar": BO}},
        {"type": "battle_round", "round": 2},
    )
    assert game.vp() == [6, 3, 0]
    assert game.summary()["rounds"][1]["buy_limits"] == [1, 2, 3]
    # Most VP: 1 ploy, the second refused.
    assert game.rule({"type": "buy", "round": 2, "player": ANN, "ploy": "caltrops"}) is None
    assert game.rule({"type": "buy", "round": 2, "player": ANN, "ploy": "sabotage"}) == "buy-limit"
    # In between: 2.
    game.ok(
        {"type": "buy", "round": 2, "player": BO, "ploy": "caltrops"},
        {"type": "buy", "round": 2, "player": BO, "ploy": "sabotage"},
    )
    assert game.rule({"type": "buy", "round": 2, "player": BO, "ploy": "opportune-fury"}) == "buy-limit"
    # Fewest: 3, the fourth refused by the limit (before the most-held rule).
    game.ok(
        {"type": "buy", "round": 2, "player": CY, "ploy": "caltrops"},
        {"type": "buy", "round": 2, "player": CY, "ploy": "sabotage"},
        {"type": "buy", "round": 2, "player": CY, "ploy": "opportune-fury"},
    )
    assert game.rule({"type": "buy", "round": 2, "player": CY, "ploy": "hidden-pitfalls"}) == "buy-limit"
    # Each paid the cost: caltrops 2, sabotage 2, opportune fury 1.
    assert [p["cp"] for p in game.summary()["players"]] == [48, 46, 45]


def test_buying_needs_the_round_started_and_no_turn_in_it(tow):
    game = altar(tow)
    assert game.rule({"type": "buy", "round": 1, "player": ANN, "ploy": "caltrops"}) == "round"
    game.ok({"type": "battle_round", "round": 1}, {"type": "turn", "round": 1, "player": BO})
    assert game.rule({"type": "buy", "round": 1, "player": ANN, "ploy": "caltrops"}) == "round"


# --- the restrictions ---------------------------------------------------------------------------
def test_one_ploy_per_table_a_turn_except_miscellaneous(tow):
    game = altar(tow)
    game.ok(
        {"type": "battle_round", "round": 1}, {"type": "buy", "round": 1, "player": ANN, "ploy": "caltrops"}
    )
    # Caltrops and Favourable Winds are both charge-phase ploys.
    assert game.rule({"type": "buy", "round": 1, "player": ANN, "ploy": "favourable-winds"}) == "same-table"
    assert game.rule({"type": "buy", "round": 1, "player": ANN, "ploy": "sabotage"}) is None
    # Two from Miscellaneous are fine.
    game.ok(
        {"type": "buy", "round": 1, "player": BO, "ploy": "projection-of-strength"},
        {"type": "buy", "round": 1, "player": BO, "ploy": "misheard-orders"},
    )


def test_the_same_ploy_is_not_gained_twice_in_a_turn(tow):
    game = altar(tow)
    game.ok(
        {"type": "battle_round", "round": 1},
        {"type": "buy", "round": 1, "player": CY, "ploy": "projection-of-strength"},
        {"type": "discard", "round": 1, "player": CY, "ploy": "projection-of-strength"},
    )
    assert (
        game.rule({"type": "buy", "round": 1, "player": CY, "ploy": "projection-of-strength"}) == "same-ploy"
    )


def test_nobody_holds_two_of_the_same_ploy(tow):
    game = altar(tow)
    game.ok(
        {"type": "battle_round", "round": 1}, {"type": "buy", "round": 1, "player": ANN, "ploy": "caltrops"}
    )
    for player in (ANN, BO, CY):
        game.ok({"type": "turn", "round": 1, "player": player})
    game.ok({"type": "battle_round", "round": 2})
    assert game.rule({"type": "buy", "round": 2, "player": ANN, "ploy": "caltrops"}) == "held-twice"
    # Once played (in round 2's first turn, which ends its buying) it may be bought again in round 3.
    game.ok({"type": "play", "round": 2, "player": ANN, "ploy": "caltrops"})
    for player in (ANN, BO, CY):
        game.ok({"type": "turn", "round": 2, "player": player})
    game.ok({"type": "battle_round", "round": 3})
    assert game.rule({"type": "buy", "round": 3, "player": ANN, "ploy": "caltrops"}) is None


def test_at_most_three_ploys_held_and_a_discard_makes_room(tow):
    game = altar(tow)
    game.ok(
        {"type": "battle_round", "round": 1},
        {"type": "buy", "round": 1, "player": CY, "ploy": "caltrops"},
        {"type": "buy", "round": 1, "player": CY, "ploy": "sabotage"},
    )
    for player in (ANN, BO, CY):
        game.ok({"type": "turn", "round": 1, "player": player})
    game.ok(
        {"type": "battle_round", "round": 2},
        {"type": "buy", "round": 2, "player": CY, "ploy": "opportune-fury"},
    )
    assert game.summary()["players"][CY]["ploys_held"] == 3
    assert game.rule({"type": "buy", "round": 2, "player": CY, "ploy": "hidden-pitfalls"}) == "max-held"
    game.ok({"type": "discard", "round": 2, "player": CY, "ploy": "sabotage"})
    assert game.rule({"type": "buy", "round": 2, "player": CY, "ploy": "hidden-pitfalls"}) is None
    assert game.summary(CY)["players"][CY]["ploys"] == ["caltrops", "opportune-fury", "hidden-pitfalls"]


def test_a_ploy_costs_command_points_the_buyer_holds(tow):
    game = altar(tow)
    game.ok(
        {"type": "battle_round", "round": 1},
        {
            "type": "deal",
            "round": 1,
            "from": ANN,
            "to": BO,
            "cp": 49,
            "vp": 0,
            "note": "Leave my flank alone",
        },
    )
    # One command point left: Caltrops (2) is too dear, Smuggled Nullstone (1) is not.
    assert game.rule({"type": "buy", "round": 1, "player": ANN, "ploy": "caltrops"}) == "cp"
    assert game.rule({"type": "buy", "round": 1, "player": ANN, "ploy": "smuggled-nullstone"}) is None
    assert [p["cp"] for p in game.summary()["players"]] == [0, 99, 50]


def test_a_discard_needs_the_ploy_held(tow):
    game = altar(tow)
    assert game.rule({"type": "discard", "round": 1, "player": ANN, "ploy": "caltrops"}) == "ploy"
    game.ok(
        {"type": "battle_round", "round": 1}, {"type": "buy", "round": 1, "player": ANN, "ploy": "caltrops"}
    )
    assert game.rule({"type": "discard", "round": 2, "player": ANN, "ploy": "caltrops"}) == "round"
    assert game.rule({"type": "discard", "player": ANN, "ploy": "caltrops"}) is None  # round may be left out
    assert game.summary()["players"][ANN]["ploys_held"] == 0


# --- the neutral bonus ploy ----------------------------------------------------------------------
def _charge(game: Treachery, active: int = ANN, enemy: int = BO) -> None:
    game.ok({"type": "battle_round", "round": 1})
    game.ok({"type": "enemy", "round": 1, "player": active, "phase": "charge", "enemy": enemy})


def test_bonus_ploy_at_three_players_needs_five(tow):
    game = altar(tow)
    _charge(game)
    bonus = {"type": "bonus_ploy", "round": 1, "player": CY, "ploy": "caltrops"}
    assert game.rule({**bonus, "roll": 4}) == "bonus-roll"
    assert game.rule({**bonus, "roll": 5}) is None
    # Free: Cy's command points are untouched; a second roll for the same pick is refused.
    cy = game.summary()["players"][CY]
    assert (cy["cp"], cy["ploys_held"]) == (50, 1)
    assert game.rule({**bonus, "roll": 6, "ploy": "sabotage"}) == "bonus-once"


def test_bonus_ploy_at_four_players_needs_six(tow):
    game = altar(tow, players=4)
    _charge(game)
    bonus = {"type": "bonus_ploy", "round": 1, "player": DI, "ploy": "caltrops"}
    assert game.rule({**bonus, "roll": 5}) == "bonus-roll"
    assert game.rule({**bonus, "roll": 6}) is None
    assert game.rule({**bonus, "player": CY, "roll": 6}) is None


def test_no_bonus_ploy_for_the_enemy_the_active_player_or_out_of_turn(tow):
    game = altar(tow)
    bonus = {"type": "bonus_ploy", "round": 1, "roll": 6, "ploy": "caltrops"}
    game.ok({"type": "battle_round", "round": 1})
    assert game.rule({**bonus, "player": CY}) == "bonus-after-pick"
    game.ok({"type": "enemy", "round": 1, "player": ANN, "phase": "charge", "enemy": BO})
    assert game.rule({**bonus, "player": BO}) == "bonus-neutral"
    assert game.rule({**bonus, "player": ANN}) == "bonus-neutral"
    # The next pick (a new phase) opens new rolls: Bo is neutral now, Cy the enemy.
    game.ok({"type": "enemy", "round": 1, "player": ANN, "phase": "shooting", "enemy": CY})
    assert game.rule({**bonus, "player": BO}) is None
    # Anything else recorded in between closes the pick's rolls.
    game.ok({"type": "enemy", "round": 1, "player": ANN, "phase": "combat", "enemy": BO})
    game.ok({"type": "play", "round": 1, "player": BO, "ploy": "caltrops"})
    assert game.rule({**bonus, "player": CY, "ploy": "sabotage"}) == "bonus-after-pick"


def test_a_bonus_ploy_keeps_the_restrictions(tow):
    game = altar(tow)
    game.ok(
        {"type": "battle_round", "round": 1},
        {"type": "buy", "round": 1, "player": CY, "ploy": "caltrops"},
        {"type": "enemy", "round": 1, "player": ANN, "phase": "charge", "enemy": BO},
    )
    assert (
        game.rule({"type": "bonus_ploy", "round": 1, "player": CY, "roll": 6, "ploy": "caltrops"})
        == "held-twice"
    )


# --- playing ploys: Misheard Orders -------------------------------------------------------------
def _bought(pack) -> Treachery:
    game = altar(pack)
    game.ok(
        {"type": "battle_round", "round": 1},
        {"type": "buy", "round": 1, "player": ANN, "ploy": "misheard-orders"},
        {"type": "buy", "round": 1, "player": BO, "ploy": "caltrops"},
        {"type": "buy", "round": 1, "player": BO, "ploy": "misheard-orders"},
    )
    return game


def test_misheard_orders_cancels_the_ploy_just_played_which_is_still_spent(tow):
    game = _bought(tow)
    game.ok(
        {"type": "play", "round": 1, "player": BO, "ploy": "caltrops"},
        {"type": "play", "round": 1, "player": ANN, "ploy": "misheard-orders"},
    )
    plays = game.summary()["plays"]
    assert [(p["player"], p["ploy"]) for p in plays] == [(BO, "caltrops"), (ANN, "misheard-orders")]
    assert plays[0]["cancelled_by"] == plays[1]["event"] and plays[1]["cancels"] == plays[0]["event"]
    assert [p["ploys_held"] for p in game.summary()["players"]] == [0, 1, 0]
    # A Misheard Orders may itself be cancelled by the next one.
    game.ok({"type": "play", "round": 1, "player": BO, "ploy": "misheard-orders"})
    assert game.summary()["plays"][1]["cancelled_by"] == game.summary()["plays"][2]["event"]


def test_misheard_orders_needs_another_players_play_just_before(tow):
    game = _bought(tow)
    play = {"type": "play", "round": 1, "player": ANN, "ploy": "misheard-orders"}
    assert game.rule(play) == "cancel-just-played"
    game.ok({"type": "play", "round": 1, "player": BO, "ploy": "caltrops"})
    game.ok({"type": "turn", "round": 1, "player": CY})
    assert game.rule(play) == "cancel-just-played"
    # Nor one's own play.
    game = _bought(tow)
    game.ok({"type": "play", "round": 1, "player": BO, "ploy": "caltrops"})
    assert game.rule({**play, "player": BO}) == "cancel-just-played"


def test_playing_a_ploy_not_held_is_refused(tow):
    game = _bought(tow)
    assert game.rule({"type": "play", "round": 1, "player": CY, "ploy": "caltrops"}) == "ploy"


# --- the scenarios' VP -------------------------------------------------------------------------
def test_altar_three_vp_each_turn_end_to_whoever_controls_it(tow):
    game = altar(tow)
    game.ok(
        {"type": "battle_round", "round": 1},
        # Cy holds the altar at the end of Ann's turn: the controller scores, not the player.
        {"type": "turn", "round": 1, "player": ANN, "control": {"altar": CY}},
        {"type": "turn", "round": 1, "player": BO, "control": {"altar": None}},
        {"type": "turn", "round": 1, "player": CY, "control": {"altar": CY}},
    )
    assert game.vp() == [0, 0, 6]
    assert game.summary()["players"][CY]["vp_breakdown"] == [{"rule": "altar", "vp": 6}]


def test_relic_gives_the_battle_round_in_vp(tow):
    game = Treachery(tow, "relic-of-power")
    game.ok({"type": "turn", "round": 1, "player": ANN, "control": {"relic": ANN}})
    game.ok({"type": "turn", "round": 1, "player": BO}, {"type": "turn", "round": 1, "player": CY})
    game.ok({"type": "turn", "round": 2, "player": BO, "control": {"relic": BO}})
    game.ok({"type": "turn", "round": 2, "player": ANN}, {"type": "turn", "round": 2, "player": CY})
    game.ok({"type": "turn", "round": 3, "player": CY, "control": {"relic": CY}})
    assert game.vp() == [1, 2, 3]


def test_rain_of_stars_objectives_arrive_and_score_a_die_each(tow):
    game = Treachery(tow, "rain-of-stars")
    game.ok({"type": "battle_round", "round": 1})
    assert game.rule({"type": "turn", "round": 1, "player": ANN, "control": {"star-1": ANN}}) == "control"
    for player in (ANN, BO, CY):
        game.ok({"type": "turn", "round": 1, "player": player})
    # Round 2: only the first star arrives.
    arrival = {"objective": "star-2", "die": 3, "position": "south"}
    assert game.rule({"type": "battle_round", "round": 2, "arrivals": [arrival]}) == "arrivals"
    game.ok(
        {
            "type": "battle_round",
            "round": 2,
            "arrivals": [{"objective": "star-1", "die": 4, "position": "north-east"}],
        }
    )
    held = {"type": "turn", "round": 2, "player": ANN, "control": {"star-1": ANN}}
    assert game.rule(held) == "dice"  # the die is recorded
    assert (
        game.rule({**held, "control": {"star-1": None}, "dice": {"star-1": 5}}) == "dice"
    )  # nobody holds it
    game.ok({**held, "dice": {"star-1": 5}})
    game.ok({"type": "turn", "round": 2, "player": BO}, {"type": "turn", "round": 2, "player": CY})
    # Round 3: two more; Bo holds two of the three.
    game.ok(
        {
            "type": "battle_round",
            "round": 3,
            "arrivals": [
                {"objective": "star-2", "die": 1, "position": "west"},
                {"objective": "star-3", "die": 6, "position": "centre"},
            ],
        },
        {
            "type": "turn",
            "round": 3,
            "player": CY,
            "control": {"star-1": BO, "star-2": BO, "star-3": None},
            "dice": {"star-1": 2, "star-2": 6},
        },
    )
    assert game.vp() == [5, 8, 0]
    summary = game.summary()
    assert summary["objectives"][0]["arrival"] == {"round": 2, "die": 4, "position": "north-east"}
    assert [(a["player"], a["what"], a["die"]) for a in summary["awards"]] == [
        (ANN, "star-1", 5),
        (BO, "star-1", 2),
        (BO, "star-2", 6),
    ]


def test_blood_in_the_badlands_scores_a_die_per_zone_held_alone(tow):
    game = Treachery(tow, "blood-in-the-badlands")
    zones = [{"player": ANN, "die": 3}, {"player": BO, "die": 6}, {"player": ANN, "die": 1}]
    game.ok({"type": "turn", "round": 1, "player": CY, "zones": zones})
    assert game.vp() == [4, 6, 0]
    assert game.summary()["turns"][0]["zones"] == zones
    assert (
        game.rule({"type": "turn", "round": 1, "player": ANN, "zones": [{"player": ANN, "die": 7}]})
        == "zones"
    )


@pytest.mark.parametrize(
    ("points", "vp"), [(99, 0), (100, 1), (199, 1), (250, 2)], ids=["99", "100", "199", "250"]
)
def test_a_destroyed_unit_gives_a_vp_per_hundred_points_to_the_destroyer(tow, points, vp):
    game = altar(tow)
    game.ok(
        {"type": "destroyed", "round": 1, "by": BO, "owner": CY, "unit": "Black Knights", "points": points}
    )
    assert game.vp() == [0, vp, 0]


def test_a_player_does_not_score_their_own_unit(tow):
    game = altar(tow)
    assert (
        game.rule({"type": "destroyed", "round": 1, "by": BO, "owner": BO, "unit": "x", "points": 300})
        == "by"
    )


# --- deals ---------------------------------------------------------------------------------------
def test_deals_move_cp_and_vp_never_more_than_held(tow):
    game = altar(tow)
    deal = {"type": "deal", "round": 1, "from": ANN, "to": BO, "cp": 0, "vp": 0, "note": ""}
    assert game.rule({**deal, "cp": 51}) == "cp"
    assert game.rule({**deal, "vp": 1}) == "vp"  # Ann has no VP yet
    assert game.rule(deal) == "cp"  # a deal gives something
    game.ok({"type": "turn", "round": 1, "player": ANN, "control": {"altar": ANN}})
    game.ok({**deal, "cp": 50, "vp": 3, "note": "No charge at me this turn"})
    assert game.rule({**deal, "cp": 1}) == "cp"
    assert game.vp() == [0, 3, 0]
    assert [p["cp"] for p in game.summary()["players"]] == [0, 100, 50]
    assert game.summary()["players"][ANN]["vp_breakdown"] == [
        {"rule": "altar", "vp": 3},
        {"rule": "deal", "vp": -3},
    ]
    assert game.summary()["deals"][0]["note"] == "No charge at me this turn"


# --- turns, order, roll-offs, enemies -----------------------------------------------------------
def test_any_player_yet_to_play_may_take_a_turn_but_not_twice(tow):
    game = altar(tow)
    game.ok({"type": "turn", "round": 1, "player": CY})
    assert game.rule({"type": "turn", "round": 1, "player": CY}) == "player"
    game.ok({"type": "turn", "round": 1, "player": ANN}, {"type": "turn", "round": 1, "player": BO})
    assert game.summary()["turn_order"] == [{"round": 1, "order": [CY, ANN, BO]}, {"round": 2, "order": []}]
    assert game.rule({"type": "turn", "round": 1, "player": ANN}) == "round"


def test_turn_order_roll_offs_reroll_ties_among_the_tied_and_the_winner_picks(tow):
    game = altar(tow)
    roll = {"type": "roll_off", "round": 1, "purpose": "order"}
    # Everyone yet to play rolls.
    assert game.rule({**roll, "rolls": [[ANN, 5], [BO, 5]]}) == "roll-off"
    game.ok({**roll, "rolls": [[ANN, 5], [BO, 5], [CY, 3]]})
    assert game.rule({**roll, "rolls": [[ANN, 4], [BO, 2], [CY, 6]]}) == "roll-off"  # only the tied
    assert game.rule({**roll, "rolls": [[ANN, 4], [BO, 2]], "next": DI}) == "next"
    game.ok({**roll, "rolls": [[ANN, 4], [BO, 2]], "next": CY})  # Ann wins and sends Cy first
    assert game.summary()["active"] == CY
    assert (
        game.rule({"type": "enemy", "round": 1, "player": ANN, "phase": "movement", "enemy": BO}) == "player"
    )
    game.ok({"type": "enemy", "round": 1, "player": CY, "phase": "movement", "enemy": BO})
    enemy = game.summary()["enemy"]
    assert (enemy["player"], enemy["enemy"], enemy["neutral"]) == (CY, BO, [ANN])
    assert enemy["neutral_rule"] == tow.treachery.phase("movement").neutral
    game.ok({"type": "turn", "round": 1, "player": CY})
    # Cy has played: the next roll-off is Ann's and Bo's; the log kept every throw.
    assert game.rule({**roll, "rolls": [[ANN, 1], [BO, 2], [CY, 3]]}) == "roll-off"
    game.ok({**roll, "rolls": [[ANN, 1], [BO, 2]], "next": BO})
    assert [r["winner"] for r in game.summary()["roll_offs"]] == [None, ANN, BO]


def test_an_enemy_is_another_player_and_a_phase_of_the_pack(tow):
    game = altar(tow)
    pick = {"type": "enemy", "round": 1, "player": ANN, "phase": "charge", "enemy": ANN}
    assert game.rule(pick) == "enemy"
    assert game.rule({**pick, "enemy": BO, "phase": "hero"}) == "phase"  # The Old World has no hero phase


# --- the end: a ranking of every player ----------------------------------------------------------
def _scored(pack, vp: tuple[int, int, int]) -> Treachery:
    game = altar(pack)
    for player, points in zip((ANN, BO, CY), vp, strict=True):
        if points:
            game.ok(
                {
                    "type": "destroyed",
                    "round": 1,
                    "by": player,
                    "owner": (player + 1) % 3,
                    "unit": "x",
                    "points": points * 100,
                }
            )
    for r in range(1, 5):
        for player in (ANN, BO, CY):
            game.ok({"type": "turn", "round": r, "player": player})
    return game


def test_ranking_with_a_tie_broken_by_the_roll_off(tow):
    game = _scored(tow, (5, 8, 5))
    assert game.rule({"type": "end", "tie_break": []}) == "tie_break"
    assert game.rule({"type": "end", "tie_break": [CY, ANN, BO]}) == "tie_break"  # Bo is not tied
    game.ok({"type": "end", "tie_break": [CY, ANN], "renown": [{"player": ANN, "unit": "Knights"}]})
    result = game.summary()["result"]
    assert (result["kind"], result["ranking"], result["major"], result["minor"]) == (
        "ranking",
        [BO, CY, ANN],
        BO,
        CY,
    )
    assert game.summary()["renown"] == [{"player": ANN, "unit": "Knights"}]
    assert game.system.next_steps(game.state)["plan"] == ["over"]


@pytest.mark.parametrize(
    ("vp", "tie_break", "order"),
    [
        ((8, 8, 3), [BO, ANN], [BO, ANN, CY]),  # tied for first
        ((2, 7, 4), [], [BO, CY, ANN]),  # nobody tied
        ((0, 0, 0), [CY, ANN, BO], [CY, ANN, BO]),  # everyone tied
    ],
    ids=["tied-first", "no-tie", "all-tied"],
)
def test_ranking_of_every_player(tow, vp, tie_break, order):
    game = _scored(tow, vp)
    game.ok({"type": "end", "tie_break": tie_break})
    assert game.summary()["result"]["ranking"] == order
    assert ranking(list(vp), tie_break) == order


def test_the_battle_ends_after_the_last_turn_of_round_four(tow):
    game = altar(tow)
    for r in range(1, 4):
        for player in (ANN, BO, CY):
            game.ok({"type": "turn", "round": r, "player": player})
    game.ok({"type": "turn", "round": 4, "player": ANN}, {"type": "turn", "round": 4, "player": BO})
    assert game.rule({"type": "end", "tie_break": [ANN, BO, CY]}) == "end"
    game.ok({"type": "turn", "round": 4, "player": CY})
    assert game.rule({"type": "turn", "round": 5, "player": CY}) == "round"


def test_replaying_the_log_gives_the_same_game(tow):
    game = _bought(tow)
    game.ok(
        {"type": "enemy", "round": 1, "player": ANN, "phase": "charge", "enemy": BO},
        {"type": "bonus_ploy", "round": 1, "player": CY, "roll": 5, "ploy": "sabotage"},
        {"type": "play", "round": 1, "player": BO, "ploy": "caltrops"},
        {"type": "play", "round": 1, "player": ANN, "ploy": "misheard-orders"},
        {"type": "turn", "round": 1, "player": ANN, "control": {"altar": ANN}},
    )
    again = log.replay(game.system, tow, game.setup, game.log)
    assert game.system.summary(again, CY) == game.summary(CY)
    assert json.dumps(game.summary())  # plain data
