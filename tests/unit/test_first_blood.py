"""Conquest: First Blood scenarios: worked examples computed by hand from seed 004.

Ann is Player 1 (player 0), Bo is Player 2 (player 1). Each Victory Phase is written as the
facts a player would record; the comments give the arithmetic from the scenario's VP list.
"""

from __future__ import annotations

import math
import uuid

import pytest

from app.rules import grid, seizing
from app.rules.game import Player, Setup
from app.rules.systems.rounds import scoring as rounds
from tests.conftest import refusal
from tests.engine import Engine
from tests.setups import first_blood_setup

ANN, BO = 0, 1


class Phases(Engine):
    """Plays a First Blood game through the rules engine (tests/engine.py), a Victory Phase at a time."""

    def __init__(self, pack, scenario: str) -> None:
        super().__init__(pack, first_blood_setup(scenario))

    def event(
        self, r: int, control: dict | None = None, ann: dict | None = None, bo: dict | None = None
    ) -> dict:
        return {
            "id": str(uuid.uuid4()),
            "type": "round",
            "round": r,
            "control": control or {},
            "players": [ann or {}, bo or {}],
        }

    def ok(self, r: int, control: dict | None = None, ann: dict | None = None, bo: dict | None = None):
        phase = self.record(self.event(r, control, ann, bo)).phases[-1]
        return phase.players[ANN].vp, phase.players[BO].vp

    def refused(
        self, r: int, control: dict | None = None, ann: dict | None = None, bo: dict | None = None
    ) -> str:
        return self.refuse(self.event(r, control, ann, bo))

    def quiet(self, first: int, last: int) -> None:
        for r in range(first, last + 1):
            self.ok(r)

    def totals(self) -> tuple[int, int]:
        game = self.game
        return game.vp(ANN), game.vp(BO)


@pytest.fixture
def fb(packs):
    pack = packs["conquest-first-blood"]
    return lambda scenario: Phases(pack, scenario)


# --- the opening scenario ------------------------------------------------------------------------
def test_twin_contested_zones(fb):
    t = fb("twin-contested-zones")
    assert "round 1" in t.refused(1, {"west-zone": ANN})
    assert "round 1" in t.refused(1, ann={"markers_destroyed": ["b-west"]})
    t.ok(1)
    # Bo's marker B (W) stands in range of the west zone: it is contested for Ann.
    assert "contested for Ann while the enemy marker B (W)" in t.refused(2, {"west-zone": ANN})
    # Destroying it the same round lifts the block: marker 2 + zone 3 = 5, and the same for Bo.
    assert t.ok(
        2,
        {"west-zone": ANN, "east-zone": BO},
        ann={"markers_destroyed": ["b-west"]},
        bo={"markers_destroyed": ["a-east"]},
    ) == (5, 5)
    assert "contested for Ann" in t.refused(3, {"east-zone": ANN})
    assert t.ok(3, {"west-zone": ANN, "east-zone": BO}) == (3, 3)
    # Ann: marker 2 + two zones 3 + 3 + both 2 = 10, total 18: past 16, the game ends.
    assert t.ok(4, {"west-zone": ANN, "east-zone": ANN}, ann={"markers_destroyed": ["b-east"]}) == (10, 0)
    game = t.game
    assert t.totals() == (18, 8) and game.status == "finished"
    assert (game.result.kind, game.result.winner) == ("win", ANN)
    assert game.result.reason == "16 VP reached in round 4: Ann has the most VP (18 to 8)."
    assert "The game is over" in t.refused(5)


def test_markers_fall_to_one_players_own_wounds(fb):
    t = fb("twin-contested-zones")
    t.ok(1)
    # Ann 3 wounds, Bo cannot hurt his own marker.
    assert "friendly to Bo" in t.refused(2, bo={"marker_wounds": {"b-west": 1}})
    t.ok(2, ann={"marker_wounds": {"b-west": 3}})
    assert t.game.wounds[("b-west", ANN)] == 3 and "b-west" not in t.game.destroyed
    # Two more of Ann's own wounds make 5: the marker falls and scores 2.
    assert t.ok(3, ann={"marker_wounds": {"b-west": 2}}) == (2, 0)
    assert t.game.destroyed["b-west"] == (3, ANN)
    assert "already destroyed by Ann in round 3" in t.refused(4, ann={"markers_destroyed": ["b-west"]})


def test_character_regiment_scores_once(fb):
    t = fb("twin-contested-zones")
    assert t.ok(1, bo={"character_slain": True}) == (0, 2)
    assert "already slew" in t.refused(2, bo={"character_slain": True})


# --- Scenarios One to Eleven -----------------------------------------------------------------------
def test_meeting_engagement(fb):
    t = fb("meeting-engagement")
    t.ok(1)
    assert "friendly to Ann" in t.refused(2, ann={"markers_destroyed": ["marker-a"]})
    # Ann: zone 3. Bo: the enemy marker 3.
    assert t.ok(2, {"first-zone": ANN}, bo={"markers_destroyed": ["marker-a"]}) == (3, 3)
    # Bo: two zones 3 + 3, +1 each with the enemy marker down, both zones +2 = 10.
    assert t.ok(3, {"first-zone": BO, "second-zone": BO}) == (0, 10)
    t.quiet(4, 8)
    game = t.game
    assert t.totals() == (3, 13) and (game.result.kind, game.result.winner) == ("win", BO)
    assert game.result.reason == "End of round 8, the last: Bo has the most VP (13 to 3)."


def test_outflank(fb):
    t = fb("outflank")
    t.ok(1)
    for r in (2, 3):
        # Ann: two zones 2 + 2, two or more +2 = 6; Bo: one zone 2.
        assert t.ok(r, {"west-zone": ANN, "centre-zone": ANN, "east-zone": BO}) == (6, 2)
    assert t.game.status == "in_progress"
    t.ok(4, {"west-zone": ANN, "centre-zone": ANN, "east-zone": BO})
    assert t.totals() == (18, 6) and t.game.result.winner == ANN  # 18 reached in round 4


def test_shieldwall(fb):
    t = fb("shieldwall")
    t.ok(1)
    assert "friendly to Ann" in t.refused(2, ann={"markers_destroyed": ["player1-corner"]})
    # Ann: two enemy markers 3 + 3, more than one +2, two regiments 2 = 10.
    # Bo: one marker 3, the Character Regiment 2 = 5.
    assert t.ok(
        2,
        ann={"markers_destroyed": ["player2-centre", "player2-corner"], "regiments_destroyed": 2},
        bo={"markers_destroyed": ["player1-centre"], "character_slain": True},
    ) == (10, 5)
    t.quiet(3, 7)
    # Last round: regiments that never arrived count as destroyed; Bo records 3.
    assert t.ok(8, bo={"regiments_destroyed": 3}) == (0, 3)
    assert t.totals() == (10, 8) and t.game.result.winner == ANN


def test_raid(fb):
    t = fb("raid")
    t.ok(1)
    assert "friendly to Ann" in t.refused(2, {"zone-a": ANN})
    # Ann: zone B 3 + enemy zone 5, far centre 3, two or more 2 = 13. Bo: zone A 3 + 5 = 8.
    assert t.ok(2, {"zone-b": ANN, "far-centre": ANN, "zone-a": BO}) == (13, 8)
    assert t.ok(3, {"zone-b": ANN}) == (8, 0)
    game = t.game
    assert (
        t.totals() == (21, 8)
        and game.result.reason == "16 VP reached in round 3: Ann has the most VP (21 to 8)."
    )


def test_area_control(fb):
    t = fb("area-control")
    t.ok(1)
    # Markers A and B have no position: they contest nothing. Bo: marker A 4.
    # Ann: zone D 3 + enemy zone 5, near centre 3, two or more 2 = 13.
    assert t.ok(2, {"zone-d": ANN, "near-centre": ANN}, bo={"markers_destroyed": ["marker-a"]}) == (13, 4)
    t.ok(3, {"zone-d": ANN, "near-centre": ANN})
    assert t.totals() == (26, 4) and t.game.result.winner == ANN


def test_broken_lines_marker_walks_home(fb):
    t = fb("broken-lines")
    t.ok(1)
    home = (6, 6)
    # Each round Ann seizes the marker (2 VP) and it moves 6" toward her zone A.
    assert t.ok(2, {"marker": ANN}) == (2, 0)
    x, y = t.game.moved["marker"]
    assert grid.distance((x, y), (24, 24)) == pytest.approx(6, abs=0.01)
    assert grid.distance((x, y), home) == pytest.approx(math.hypot(18, 18) - 6, abs=0.01)
    # Seizing zone B (Bo's) as well: 2 + enemy zone 3 + zone and marker 2 = 7.
    assert t.ok(3, {"marker": ANN, "zone-b": ANN}) == (7, 0)
    assert t.ok(4, {"marker": ANN}) == (2, 0)
    # Seed 004 gives no order; Muster moves, then scores (README's readings). After the fourth
    # move the marker is 1.46" from the centre of zone A: in range, +15 in this same phase.
    # A round earlier it stood 7.46" away, beyond the 3" zone and the 1" base: nothing.
    assert t.ok(5, {"marker": ANN}) == (17, 0)
    assert grid.distance(t.game.moved["marker"], home) == pytest.approx(math.hypot(18, 18) - 24, abs=0.01)
    assert t.totals() == (28, 0) and t.game.result.reason.startswith("25 VP reached in round 5")


def test_broken_lines_marker_stops_at_the_centre(fb):
    t = fb("broken-lines")
    t.ok(1)
    for r in range(2, 7):
        t.ok(r, {"marker": BO})
    assert t.game.moved["marker"] == (42, 42)


def test_tug_of_war_points_and_chains(fb):
    t = fb("tug-of-war")
    assert t.game.holders["a"] == ANN and t.game.holders["b"] == BO
    assert "round 1" in t.refused(1, {"centre": ANN})
    # Each player controls their own end point from the start: 2 VP each in round 1.
    assert t.ok(1) == (2, 2)
    # Ann holds A, NC, ML: a chain of 3: 3 points x 2 + 1 = 7. Bo holds B and FC: 2 x 2 = 4.
    assert t.ok(2, {"near-centre": ANN, "mid-left": ANN, "far-centre": BO}) == (7, 4)
    # Ann adds C and FL: five linked points: 10 + 1 + 2 = 13, total 22: past 21, the game ends.
    assert t.ok(3, {"centre": ANN, "far-left": ANN}) == (13, 4)
    assert t.totals() == (22, 10) and t.game.result.winner == ANN
    assert t.game.result.reason == "21 VP reached in round 3: Ann has the most VP (22 to 10)."


def test_tug_of_war_taking_a_point_from_the_opponent(fb):
    t = fb("tug-of-war")
    t.ok(1)
    t.ok(2, {"far-centre": BO})
    # Ann takes FC from Bo: she holds A and FC (not linked): 4; Bo is back to B alone: 2.
    assert t.ok(3, {"far-centre": ANN}) == (4, 2)
    assert t.game.holders["far-centre"] == ANN


def test_tug_of_war_chain_from_a_to_b_wins_at_once(fb):
    t = fb("tug-of-war")
    t.ok(1)  # 2 VP each for the starting points
    # Ann links A-NC-NR-MR and takes B: 5 points 10 + 1 + 2 = 13 (total 15), and the chain
    # wins at once, counting as 21: 6 more VP that round.
    assert t.ok(2, {"near-centre": ANN, "near-right": ANN, "mid-right": ANN, "b": ANN}) == (19, 0)
    game = t.game
    assert (game.result.kind, game.result.winner) == ("win", ANN)
    assert "chain from A to B in round 2" in game.result.reason
    assert game.vp(ANN) == 21


def test_tug_of_war_end_points_change_hands_like_any_point(fb):
    # Seed 004, Scenario Seven: a point stays with whoever captured it until an opponent
    # seizes it. A and B are points too: "friendly" sets who holds them at the start only.
    t = fb("tug-of-war")
    assert t.ok(1) == (2, 2)  # A is Ann's, B is Bo's: 2 VP each
    # Ann seizes B: she holds A and B (not linked, 24" apart): 4. Bo holds nothing: 0.
    assert t.ok(2, {"b": ANN}) == (4, 0)
    # Edge: Bo seizes his own B back: 2 VP each again.
    assert t.ok(3, {"b": BO}) == (2, 2)
    # Bo seizes A, friendly to Ann: Bo holds A and B: 4; Ann 0.
    assert t.ok(4, {"a": BO}) == (0, 4)
    # Beyond: Ann retakes her own A, and Bo naming B, which he holds, captures nothing.
    assert t.ok(5, {"a": ANN, "b": BO}) == (2, 2)
    assert t.game.holders == {**t.game.holders, "a": ANN, "b": BO}
    assert t.totals() == (10, 10)


def test_tug_of_war_a_chain_through_the_enemy_end_point_wins(fb):
    # Bo captures Ann's A and links it to his B through MR, NR and NC: the chain joins A
    # and B, so Bo wins at once; his 5 points (10 + 1 + 2 = 13, total 15) count as 21.
    t = fb("tug-of-war")
    t.ok(1)
    assert t.ok(2, {"a": BO, "near-centre": BO, "near-right": BO, "mid-right": BO}) == (0, 19)
    assert (t.game.result.winner, t.game.vp(BO)) == (BO, 21)


def test_regiments_never_brought_on_reminder_before_the_last_victory_phase(fb):
    # Seed 004: regiments that never came on from reinforcements count as destroyed in the
    # final round for VP. Shieldwall (8 rounds) pays 1 VP per enemy regiment destroyed and
    # 2 VP for the enemy Character Regiment, so the reminder names both on round 8 only.
    t = fb("shieldwall")
    t.quiet(1, 6)
    assert t.game.end_reminder(7) is None  # edge: the round before the last
    reminder = t.game.end_reminder(8)
    assert reminder.startswith("Round 8 is the last: regiments that never came on")
    assert "enemy regiment destroyed (1 VP each)" in reminder and "counts as slain (2 VP)" in reminder
    t.ok(7)
    # Bo's Character Regiment and two regiments never came on: Ann records them in round 8.
    assert t.ok(8, ann={"regiments_destroyed": 2, "character_slain": True}) == (1 + 1 + 2, 0)
    # Pincer scores slain officers too; Tug-of-War only the Character Regiment.
    pincer = fb("pincer").game.end_reminder(8)
    assert "officers as slain (2 VP each)" in pincer and "regiment destroyed" not in pincer
    tug = fb("tug-of-war").game
    assert tug.end_reminder(9) is None
    assert "regiment destroyed" not in tug.end_reminder(10) and "(2 VP)" in tug.end_reminder(10)


def test_a_game_ended_early_by_vp_reminds_of_regiments_never_brought_on(fb):
    t = fb("tug-of-war")
    t.ok(1)
    assert t.game.early_end_reminder() is None  # beyond: not over yet
    t.ok(2, {"near-centre": ANN, "mid-left": ANN, "far-centre": BO})
    t.ok(3, {"centre": ANN, "far-left": ANN})  # 21 VP reached in round 3
    assert t.game.early_end_reminder().startswith("The game ended in round 3: regiments that never came on")
    # A chain from A to B wins regardless of VP: nothing to remind.
    chain = fb("tug-of-war")
    chain.ok(1)
    chain.ok(2, {"near-centre": ANN, "near-right": ANN, "mid-right": ANN, "b": ANN})
    assert chain.game.finished and chain.game.early_end_reminder() is None


def test_tic_tac_blood(fb):
    t = fb("tic-tac-blood")
    t.ok(1)
    # Ann: two zones 3 + 3, both +2 = 8. Bo: an enemy marker 2.
    assert t.ok(2, {"near-zone": ANN, "far-zone": ANN}, bo={"markers_destroyed": ["a-near"]}) == (8, 2)
    t.quiet(3, 8)
    assert t.totals() == (8, 2) and t.game.result.winner == ANN


def test_advanced_maneuvers(fb):
    t = fb("advanced-maneuvers")
    t.ok(1)
    # Ann: the enemy marker 3, a zone 3 with +2 for the marker down = 8.
    assert t.ok(2, {"near-zone": ANN}, ann={"markers_destroyed": ["marker-b"]}) == (8, 0)
    # Both zones: 3 + 3, +2 + 2 for the marker, both +2 = 12.
    assert t.ok(3, {"near-zone": ANN, "far-zone": ANN}) == (12, 0)
    t.quiet(4, 8)
    assert t.totals() == (20, 0)


def test_pincer(fb):
    t = fb("pincer")
    t.ok(1)
    assert "contested for Ann while the enemy marker B" in t.refused(2, {"centre-zone": ANN})
    assert "contested for Bo while the enemy marker A" in t.refused(2, {"centre-zone": BO})
    # Ann: the west marker (outside any zone) 5; marker B is in range of the zone: no VP,
    # but with it down Ann seizes the zone 3; two officers 2 + 2 = 12.
    # Bo: the east marker 5 and the Character Regiment 2 = 7.
    assert t.ok(
        2,
        {"centre-zone": ANN},
        ann={"markers_destroyed": ["west-marker", "marker-b"], "officers_slain": 2},
        bo={"markers_destroyed": ["east-marker"], "character_slain": True},
    ) == (12, 7)
    t.quiet(3, 8)
    assert t.totals() == (12, 7)


def test_into_the_grinder(fb):
    t = fb("into-the-grinder")
    t.ok(1)
    assert "contested" in t.refused(2, {"centre-zone": BO})
    # Ann: two 6" zones 4 + 4, two or more 2 = 10. Bo: enemy marker A 3.
    assert t.ok(2, {"near-zone": ANN, "far-zone": ANN}, bo={"markers_destroyed": ["marker-a"]}) == (10, 3)
    # With A down Bo takes the 12" zone: 3. Ann again 10: 20, past 18.
    assert t.ok(3, {"near-zone": ANN, "far-zone": ANN, "centre-zone": BO}) == (10, 3)
    assert t.totals() == (20, 6) and t.game.result.reason.startswith("18 VP reached in round 3")


def test_fall_into_rank_is_listed_but_not_playable(packs):
    scenario = packs["conquest-first-blood"].scenario("fall-into-rank")
    assert scenario.playable is False and "stops at this scenario's title" in scenario.not_playable_reason


# --- ends: wipe-out, draws ---------------------------------------------------------------------------
def test_a_wiped_out_army_loses(fb):
    t = fb("outflank")
    t.ok(1)
    t.ok(2, {"centre-zone": BO}, ann={"wiped_out": True})
    assert (t.game.result.kind, t.game.result.winner) == ("win", BO)
    assert "wiped out" in t.game.result.reason


def test_level_at_the_last_round_is_a_draw(fb):
    t = fb("tic-tac-blood")
    t.ok(1)
    t.ok(2, {"near-zone": ANN, "far-zone": BO})
    t.quiet(3, 8)
    assert t.game.result.kind == "draw" and t.game.result.winner is None
    assert t.game.result.reason == "End of round 8, the last: level on VP (3 to 3)."


def test_both_past_the_threshold_in_one_round_most_vp_wins(fb):
    t = fb("raid")
    t.ok(1)
    t.ok(2, {"zone-b": ANN, "zone-a": BO})  # 8 each
    t.ok(3, {"zone-b": ANN, "far-centre": ANN, "zone-a": BO})  # Ann 13, Bo 8: 21 to 16
    assert t.totals() == (21, 16) and t.game.result.winner == ANN


@pytest.mark.parametrize(
    ("event", "sentence"),
    [
        ({"round": 3}, "round 2 comes first"),
        ({"round": 11}, "round must be a round from 1 to 10"),
        ({"control": {"hill": 0}}, "not a zone or point"),
        ({"control": {"west-zone": 2}}, "must be a player's index"),
        ({"players": [{"markers_destroyed": "b-west"}, {}]}, "must be a list of different marker ids"),
        ({"players": [{"markers_destroyed": ["west-zone"]}, {}]}, "not a marker that can be destroyed"),
        ({"players": [{"marker_wounds": {"b-west": 9}}, {}]}, "from 0 to 5"),
        ({"players": [{"regiments_destroyed": -1}, {}]}, "whole number"),
        ({"players": [{"dice": 6}, {}]}, "dice is not part of players[0]"),
        (
            {"players": [{"markers_destroyed": ["b-west"]}, {"markers_destroyed": ["b-west"]}]},
            "friendly to Bo",
        ),
        ({"weather": "rain"}, "weather is not part of a Victory Phase"),
    ],
)
def test_bad_victory_phases_get_a_sentence(fb, event, sentence):
    t = fb("twin-contested-zones")
    t.ok(1)
    base = {"id": str(uuid.uuid4()), "type": "round", "round": 2, "control": {}, "players": [{}, {}]}
    problem = refusal(t.game, {**base, **event})
    assert problem is not None and sentence in problem


def test_undo_the_last_round(fb):
    t = fb("outflank")
    t.ok(1)
    t.ok(2, {"centre-zone": ANN})
    last = t.log[-1]["id"]
    assert refusal(t.game, {"id": str(uuid.uuid4()), "type": "undo", "event": t.log[0]["id"]}) is not None
    t.log.append({"id": str(uuid.uuid4()), "type": "undo", "event": last})
    assert t.game.current_round == 2 and t.totals() == (0, 0)


# --- seizing -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("ann", "bo", "counts", "winner"),
    [
        ({"light-infantry": 4}, {"medium-infantry": 2}, (2, 2), None),  # pairs: 4 light = 2
        ({"light-infantry": 5}, {"medium-infantry": 2}, (2, 2), None),  # the odd one adds nothing
        ({"light-infantry": 6}, {"medium-infantry": 2}, (3, 2), ANN),
        ({"light-cavalry": 1}, {"heavy-infantry": 1}, (2, 1), ANN),
        ({"light-brute": 1, "officer": 1}, {"heavy-cavalry": 1}, (3, 3), None),
        ({"medium-brute": 2}, {"monster": 1}, (6, 6), None),
        ({"character": 1, "retinue": 2}, {"monster": 1}, (3, 6), BO),
        ({}, {}, (0, 0), None),
    ],
)
def test_seizing_weights(packs, ann, bo, counts, winner):
    result = seizing.seize(packs["conquest-first-blood"], [ann, bo])
    assert result.counts == counts and result.winner == winner


# --- geometry: the seed's distances -------------------------------------------------------------------
def _at(pack, scenario, oid):
    return grid.position(pack.scenario(scenario).objective(oid))


def test_every_map_fits_the_board(packs):
    pack = packs["conquest-first-blood"]
    for scenario in pack.scenarios:
        assert grid.check_board(scenario) == [], scenario.id


def test_positions_follow_the_seeds_distances(packs):
    pack = packs["conquest-first-blood"]
    # Opening: 12" zones 24" from each player edge and 12" from the sides; markers 6" from them.
    assert _at(pack, "twin-contested-zones", "west-zone") == (12, 24)
    assert _at(pack, "twin-contested-zones", "east-zone") == (36, 24)
    assert grid.distance(_at(pack, "twin-contested-zones", "a-west"), (12, 24)) == 6
    assert grid.distance(_at(pack, "twin-contested-zones", "b-east"), (36, 24)) == 6
    # Outflank: centre zone, and two 6" from the sides, 24" from the edges.
    assert {_at(pack, "outflank", z) for z in ("west-zone", "centre-zone", "east-zone")} == {
        (6, 24),
        (24, 24),
        (42, 24),
    }
    # Shieldwall, Raid, Area Control: corner items 6"/6", central items 18"/18" from the nearest edge and side.
    for scenario, ids in (
        ("shieldwall", ["player1-corner", "player1-centre", "player2-centre", "player2-corner"]),
        ("raid", ["zone-a", "near-centre", "far-centre", "zone-b"]),
        ("area-control", ["zone-c", "near-centre", "far-centre", "zone-d"]),
    ):
        for oid in ids:
            x, y = _at(pack, scenario, oid)
            edge, side = min(y, 48 - y), min(x, 48 - x)
            assert (edge, side) in ((6, 6), (18, 18)), (scenario, oid)
    # Broken Lines: corner zones 6" from edge and side; the marker at the centre.
    assert _at(pack, "broken-lines", "zone-a") == (6, 6) and _at(pack, "broken-lines", "marker") == (24, 24)
    # Tug-of-War: the nine corners of the four central squares; A in Player 1's deployment zone.
    points = {_at(pack, "tug-of-war", o.id) for o in pack.scenario("tug-of-war").objectives}
    assert points == {(x, y) for x in (12, 24, 36) for y in (12, 24, 36)}
    # Tic-Tac-Blood: zones 12" from edge and side; markers 12" from the centre, 24" apart.
    assert {_at(pack, "tic-tac-blood", z) for z in ("near-zone", "far-zone")} == {(12, 12), (36, 36)}
    markers = [_at(pack, "tic-tac-blood", m) for m in ("a-near", "b-far", "a-left", "b-right")]
    assert all(grid.distance(m, (24, 24)) == 12 for m in markers)
    assert grid.distance(markers[0], markers[1]) == 24 and grid.distance(markers[2], markers[3]) == 24
    # Advanced Maneuvers: zones and markers 18" from each edge, 12" from opposite sides.
    for oid in ("near-zone", "far-zone", "marker-a", "marker-b"):
        x, y = _at(pack, "advanced-maneuvers", oid)
        assert min(y, 48 - y) == 18 and min(x, 48 - x) == 12
    # Pincer: A 6" below, B 6" above the centre, 12" apart; neutral markers 6" from the sides.
    a, b = _at(pack, "pincer", "marker-a"), _at(pack, "pincer", "marker-b")
    assert a == (24, 18) and b == (24, 30) and grid.distance(a, b) == 12
    assert {_at(pack, "pincer", "west-marker"), _at(pack, "pincer", "east-marker")} == {(6, 24), (42, 24)}
    # Into the Grinder: markers 6" either side of the centre, small zones 12" from edge and side.
    assert {_at(pack, "into-the-grinder", "marker-a"), _at(pack, "into-the-grinder", "marker-b")} == {
        (18, 24),
        (30, 24),
    }
    # Meeting Engagement and Area Control's markers: no position in the seed.
    assert (
        _at(pack, "meeting-engagement", "first-zone") is None
        and _at(pack, "area-control", "marker-a") is None
    )


def test_zone_diameters(packs):
    pack = packs["conquest-first-blood"]
    sizes = {s.id: sorted(o.diameter for o in s.objectives if o.kind == "zone") for s in pack.scenarios}
    assert sizes["twin-contested-zones"] == [12, 12] and sizes["meeting-engagement"] == [9, 9]
    assert (
        sizes["outflank"] == [6, 6, 6] and sizes["raid"] == [6, 6, 6, 6] and sizes["broken-lines"] == [6, 6]
    )
    assert sizes["tic-tac-blood"] == [12, 12] and sizes["advanced-maneuvers"] == [9, 9]
    assert sizes["pincer"] == [12] and sizes["into-the-grinder"] == [6, 6, 12]


def test_map_svg_draws_every_item(packs):
    pack = packs["conquest-first-blood"]
    scenario = pack.scenario("tug-of-war")
    state = grid.MapState(holders={"a": 0, "b": 1}, destroyed=set(), moved={})
    svg = grid.svg(scenario, pack.sides, ["Ann", "Bo"], state, interactive=True)
    assert svg.count('data-objective="') == 9
    assert 'fill="url(#hatch)"' in svg and 'fill="url(#dots)"' in svg  # both deployment styles
    assert "stroke-dasharray" in svg  # Player 2's reinforcement bars are dashed
    assert "Ann&#x27;s edge" in svg or "Ann's edge" in svg
    assert "Ann: deployment zone, reinforcement zone" in svg


def test_map_legend_names_only_what_the_map_draws(packs):
    """A Pitched Battles map (for placing terrain) has no zones: its legend names none."""
    ghb = packs["aos-ghb-2021"]
    scenario = ghb.scenario("savage-gains")
    assert not scenario.deployment_zones and not scenario.reinforcement_zones
    svg = grid.svg(scenario, ghb.sides, ["Ann", "Bo"])
    assert "deployment zone" not in svg and "reinforcement zone" not in svg
    assert "Bo&#x27;s edge" in svg or "Bo's edge" in svg


def test_chains_are_grid_neighbours_only():
    where = {"a": (12, 12), "b": (24, 12), "c": (24, 24), "d": (36, 36)}
    groups = grid.chains(["a", "b", "c", "d"], where, 12)
    assert sorted(sorted(g) for g in groups) == [["a", "b", "c"], ["d"]]


def test_the_reinforcement_schedule_is_the_packs(packs):
    # Seed 004: none in round 1, own reinforcement zone in rounds 2-3, any edge but the
    # opponent's zone from round 4; a club pack with another schedule needs no code.
    fb_pack = packs["conquest-first-blood"]
    game = rounds.new_game(
        fb_pack,
        Setup("conquest-first-blood", "outflank", 800, (Player("A", "player1"), Player("B", "player2"))),
    )
    assert game.reinforcements(1) == "No reinforcements arrive in round 1."
    assert game.reinforcements(3) == "Round 3: reinforcements march on through your own reinforcement zone."
    assert game.reinforcements(6).startswith("Round 6: reinforcements march on from any table edge")
    club = fb_pack.model_copy(update={"reinforcements": fb_pack.reinforcements[:1]})
    other = rounds.new_game(club, game.setup)
    assert (
        other.reinforcements(1) == "No reinforcements arrive in round 1." and other.reinforcements(2) is None
    )
