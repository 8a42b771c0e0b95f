"""A secret pick is not changed once both are shown (issue 23 item 1): siege tactics and Tunnel
Wars contingents (seed 000). Either player takes back their own pick while the other's is still
hidden; once both are in, neither is taken back, unless both players ask to pick again
(``repick``, each from their own seat), and then both pick again, in secret.

Ann attacks (player 0), Bo defends (player 1).
"""

from __future__ import annotations

from typing import Any

import pytest

from app.rules.systems.siege import engine as siege_engine
from app.rules.systems.tunnels import engine as tunnels_engine
from tests.unit.siege_play import ANN, BO, PACK, Play


@pytest.fixture
def siege(packs) -> Play:
    return Play(packs[PACK], "the-relief-force", "siege", ("attacker", "defender"))


@pytest.fixture
def series(packs) -> Play:
    return Play(packs[PACK], "tunnel-wars", "tunnels")


def tactic(player: int, die: int) -> dict[str, Any]:
    return {"type": "siege_tactic", "player": player, "tactic": die}


def contingent(player: int, number: int, battle: int = 1) -> dict[str, Any]:
    return {"type": "contingent", "battle": battle, "player": player, "contingent": number}


def undo_last(play: Play) -> str | None:
    return play.send({"type": "undo", "event": play.game.effective[-1]})


# --- the siege tactics -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("picks", "taken_back"),
    [
        ([tactic(ANN, 3)], True),  # Bo has not picked: Ann may change her mind
        ([tactic(BO, 4)], True),
        ([tactic(ANN, 3), tactic(BO, 4)], False),  # both shown: Bo may not pick again knowing Ann's
        ([tactic(BO, 4), tactic(ANN, 3)], False),
    ],
    ids=["first-ann", "first-bo", "second-bo", "second-ann"],
)
def test_a_siege_tactic_is_taken_back_only_while_the_other_is_hidden(siege, picks, taken_back):
    siege.ok(*picks)
    problem = undo_last(siege)
    assert (problem is None) is taken_back
    if not taken_back:
        assert problem == (
            "event: both siege tactics are shown, so neither may be taken back; to pick again, both "
            "players ask for it on their own phones."
        )
        assert siege.game.revealed and len(siege.log) == 2


def test_a_second_pick_by_the_same_player_names_the_rule(siege):
    siege.ok(tactic(ANN, 3), tactic(BO, 4))
    assert siege.refused(tactic(BO, 6)).startswith("Bo has already picked a siege tactic, and both are shown")


def test_both_players_ask_to_pick_again_and_then_both_pick_in_secret(siege):
    siege.ok(tactic(ANN, 3), tactic(BO, 4))
    siege.ok({"type": "repick", "player": ANN})
    assert siege.summary()["siege"]["repick"] == {"attacker": True, "defender": False}
    # Asking is not picking: the tactics stand, and the second pick still stays.
    assert siege.game.revealed and undo_last(siege) is None  # Ann takes back her own request
    siege.ok({"type": "repick", "player": ANN}, {"type": "repick", "player": BO})
    game = siege.game
    assert game.picks == {} and game.stage == "tactics" and not game.revealed
    # Bo picks again, in secret: nobody else sees it until Ann's new pick is in.
    siege.ok(tactic(BO, 6))
    assert siege.summary(ANN)["siege"]["tactics"] == {"attacker": None, "defender": None}
    siege.ok(tactic(ANN, 1))
    assert siege.summary()["siege"]["tactics"] == {"attacker": 1, "defender": 6}
    assert siege.summary()["siege"]["modifiers"] == {"batter": 0, "starve": 1, "tunnel": -2}


@pytest.mark.parametrize(
    ("before", "player", "rule"),
    [
        ([tactic(ANN, 3)], ANN, "repick"),  # not both in: undo your own pick instead
        ([tactic(ANN, 3), tactic(BO, 4)], ANN, None),
        ([tactic(ANN, 3), tactic(BO, 4), {"type": "repick", "player": ANN}], ANN, "repick"),  # asked already
        ([tactic(ANN, 3), tactic(BO, 4), {"type": "batter", "features": []}], BO, "repick"),  # rolls begun
    ],
    ids=["hidden", "shown", "twice", "after-batter"],
)
def test_when_a_player_may_ask_to_pick_again(packs, before, player, rule):
    play = Play(packs[PACK], "the-relief-force", "siege", ("attacker", "defender"))
    play.ok(*before)
    game = play.game
    problem = siege_engine.repick_problem(game, player)
    assert (problem.rule if problem else None) == rule
    assert (play.send({"type": "repick", "player": player}) is None) is (rule is None)


def test_asking_to_pick_again_is_its_players_own_entry(siege):
    event = {"type": "repick", "player": BO}
    assert siege.system.holder(event) == BO and not siege.system.secret(event)
    assert not siege.system.table_may_record(event)


def test_the_seat_is_offered_the_request_and_the_undo_says_why_not(siege):
    siege.ok(tactic(ANN, 3))
    assert siege.system.open_entries(siege.game, ANN)["repick"]["open"] is False
    # Ann's hidden pick is hers to take back: her seat may, the table may not.
    assert siege.system.open_entries(siege.game, ANN)["undo"] == {"open": True, "why": None, "theirs": False}
    assert siege.system.open_entries(siege.game, None)["undo"] == {"open": False, "why": None, "theirs": True}
    siege.ok(tactic(BO, 4))
    offered = siege.system.open_entries(siege.game, BO)
    assert offered["undo"]["open"] is False
    assert offered["undo"]["why"].startswith("Both siege tactics are shown, so neither may be taken back")
    assert offered["repick"]["open"] is True and "tactic" in offered and offered["tactic"]["open"] is False


# --- Tunnel Wars' contingents ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("picks", "taken_back"),
    [
        ([contingent(ANN, 1)], True),
        ([contingent(ANN, 1), contingent(BO, 2)], False),
        ([contingent(BO, 2), contingent(ANN, 1)], False),
    ],
    ids=["first", "second-bo", "second-ann"],
)
def test_a_contingent_is_taken_back_only_while_the_other_is_hidden(series, picks, taken_back):
    series.ok(*picks)
    problem = undo_last(series)
    assert (problem is None) is taken_back
    if not taken_back:
        assert problem == (
            "event: both contingents for battle 1 are shown, so neither may be taken back; to pick "
            "again, both players ask for it on their own phones."
        )


def test_both_players_ask_to_pick_the_battles_contingents_again(series):
    series.ok(contingent(ANN, 1), contingent(BO, 2))
    assert "both are shown" in series.refused(contingent(ANN, 3))
    series.ok({"type": "repick", "battle": 1, "player": BO})
    assert series.summary()["series"][0]["repick"] == {"0": False, "1": True}
    series.ok({"type": "repick", "battle": 1, "player": ANN})
    battle = series.summary()["series"][0]
    assert battle["picked"] == {"0": False, "1": False} and battle["revealed"] is False
    # Both contingents are free again: each picks anew, hidden until both are in.
    series.ok(contingent(ANN, 3))
    assert series.summary(BO)["series"][0]["contingents"] == {"0": None, "1": None}
    series.ok(contingent(BO, 1))
    assert series.summary()["series"][0]["contingents"] == {"0": 3, "1": 1}
    assert series.summary()["used"] == {"0": [3], "1": [1]}


@pytest.mark.parametrize(
    ("before", "rule"),
    [
        ([contingent(ANN, 1)], "repick"),
        ([contingent(ANN, 1), contingent(BO, 2)], None),
        # The set-up roll-off for the denizen comes before the battle: asking is still open.
        (
            [
                contingent(ANN, 1),
                contingent(BO, 2),
                {"type": "denizen", "battle": 1, "round": 0, "dice": [[5, 2]]},
            ],
            None,
        ),
        (
            [
                contingent(ANN, 1),
                contingent(BO, 2),
                {"type": "battle_round", "battle": 1, "round": 1, "first": 0},
            ],
            "repick",
        ),
    ],
    ids=["hidden", "shown", "after-set-up-roll-off", "under-way"],
)
def test_when_a_battles_contingents_may_be_picked_again(packs, before, rule):
    play = Play(packs[PACK], "tunnel-wars", "tunnels")
    play.ok(*before)
    problem = tunnels_engine.repick_problem(play.game, 1, BO)
    assert (problem.rule if problem else None) == rule


def test_an_agreement_to_pick_again_stays_with_its_battle(series):
    series.ok(contingent(ANN, 1), contingent(BO, 1), {"type": "repick", "battle": 1, "player": ANN})
    series.ok({"type": "battle_result", "battle": 1, "winner": ANN})
    series.ok(contingent(ANN, 2, battle=2), contingent(BO, 2, battle=2))
    # Ann asked in battle 1, not battle 2: Bo's request alone changes nothing.
    series.ok({"type": "repick", "battle": 2, "player": BO})
    assert series.summary()["series"][1]["revealed"] is True
