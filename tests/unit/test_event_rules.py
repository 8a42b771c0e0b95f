"""The event engines, rule by rule: Swiss pairing, byes, tables, and the standings' order."""

from __future__ import annotations

import random

import pytest

from app.rules.club.pairing import Entrant, Options, assign_tables, first_round, swiss_round
from app.rules.club.settings import Bye, Settings
from app.rules.club.standings import Entry, Result, standings
from app.rules.club.tournament_points import Scoring


def pairs_of(round_):
    return [t.players for t in round_.tables]


# --- round 1 ----------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(20))
def test_round_one_keeps_club_mates_apart_when_half_the_room_is_one_club(seed):
    # Four of Hammer Club among eight: the most a pairing can keep apart (each meets an outsider).
    players = [Entrant(i, club="Hammer" if i < 4 else None) for i in range(8)]
    made = first_round(players, random.Random(seed))
    assert made.club_clashes == 0 and made.bye is None
    assert all(not (a < 4 and b < 4) for a, b in pairs_of(made))


@pytest.mark.parametrize("seed", range(10))
def test_round_one_with_one_club_past_half_pairs_only_its_surplus_together(seed):
    # Six of one club among eight: 6 - 8/2 = 2 pairs of club-mates are unavoidable, and no more.
    players = [Entrant(i, club="Anvil" if i < 6 else "Forge") for i in range(8)]
    made = first_round(players, random.Random(seed))
    assert made.club_clashes == 2
    assert sum(1 for a, b in pairs_of(made) if a < 6 and b < 6) == 2


def test_round_one_bye_goes_to_a_player_of_the_biggest_club_with_an_odd_count():
    players = [
        Entrant(0, club="A"),
        Entrant(1, club="A"),
        Entrant(2, club="A"),
        Entrant(3, club="B"),
        Entrant(4),
    ]
    made = first_round(players, random.Random(3))
    assert made.bye in (0, 1, 2) and made.club_clashes == 0


def test_round_one_is_the_same_for_the_same_seed():
    players = [Entrant(i, club=str(i % 3)) for i in range(12)]
    assert first_round(players, random.Random(7)) == first_round(players, random.Random(7))


# --- Swiss ------------------------------------------------------------------------------
def test_swiss_pairs_down_the_standings_inside_score_groups():
    players = [Entrant(i, points=p) for i, p in enumerate([3, 3, 0, 0])]
    made = swiss_round(players)
    assert pairs_of(made) == [(0, 1), (2, 3)] and made.rematches == 0


def test_swiss_floats_the_lowest_of_an_odd_group_down():
    # 6, 3, 3, 3, 0, 0: the leader floats down to meet the first 3; the third 3 floats to a 0.
    players = [Entrant(i, points=p) for i, p in enumerate([6, 3, 3, 3, 0, 0])]
    assert pairs_of(swiss_round(players)) == [(0, 1), (2, 3), (4, 5)]
    players = [Entrant(i, points=p) for i, p in enumerate([3, 3, 3, 0, 0, 0])]
    assert pairs_of(swiss_round(players)) == [(0, 1), (2, 3), (4, 5)]


def test_swiss_takes_the_next_opponent_not_met():
    players = [
        Entrant(0, points=3, opponents=frozenset({1})),
        Entrant(1, points=3, opponents=frozenset({0})),
        Entrant(2, points=0, opponents=frozenset({3})),
        Entrant(3, points=0, opponents=frozenset({2})),
    ]
    assert pairs_of(swiss_round(players)) == [(0, 2), (1, 3)]


def test_swiss_backtracks_rather_than_leave_a_rematch_at_the_bottom():
    # Greedy 0-1 leaves 2-3, a rematch; 0-2 leaves 1-3, another; backing up twice gives 0-3, 1-2.
    players = [
        Entrant(0, opponents=frozenset()),
        Entrant(1, opponents=frozenset({3})),
        Entrant(2, opponents=frozenset({3})),
        Entrant(3, opponents=frozenset({1, 2})),
    ]
    made = swiss_round(players)
    assert made.rematches == 0 and sorted(map(sorted, pairs_of(made))) == [[0, 3], [1, 2]]


def test_swiss_allows_a_rematch_only_when_every_pairing_has_one():
    everyone = frozenset(range(4))
    players = [Entrant(i, opponents=everyone - {i}) for i in range(4)]
    made = swiss_round(players)
    assert made.rematches == 2 and sorted(p for t in pairs_of(made) for p in t) == [0, 1, 2, 3]


def test_the_bye_goes_to_the_lowest_ranked_player_without_one():
    players = [
        Entrant(0, 6),
        Entrant(1, 3),
        Entrant(2, 3, had_bye=True),
        Entrant(3, 0),
        Entrant(4, 0, had_bye=True),
    ]
    assert swiss_round(players).bye == 3


def test_the_bye_moves_up_when_the_lowest_would_leave_a_forced_rematch():
    # 3 is the lowest without a bye, but without 3 both 1 and 2 could meet only 0: the bye
    # moves up to 2, the next lowest without one, and 0-1, 3-4 pair cleanly.
    players = [
        Entrant(0, 3),
        Entrant(1, 3, opponents=frozenset({2, 4})),
        Entrant(2, 0, opponents=frozenset({1, 4})),
        Entrant(3, 0),
        Entrant(4, 0, had_bye=True, opponents=frozenset({1, 2})),
    ]
    made = swiss_round(players)
    assert made.bye == 2 and made.rematches == 0


# --- tables -----------------------------------------------------------------------------
def test_tables_follow_the_standings_when_nobody_played_there():
    tables, repeated = assign_tables([(0, 1), (2, 3)], {})
    assert [(t.number, t.players) for t in tables] == [(1, (0, 1)), (2, (2, 3))] and repeated == 0


def test_a_pair_is_moved_off_a_table_one_of_them_used():
    tables, repeated = assign_tables([(0, 1), (2, 3)], {0: frozenset({1})})
    assert [(t.number, t.players) for t in tables] == [(1, (2, 3)), (2, (0, 1))] and repeated == 0


def test_a_table_is_repeated_only_when_every_table_was_used():
    tables, repeated = assign_tables([(0, 1)], {0: frozenset({1})})
    assert tables[0].number == 1 and repeated == 1


# --- standings --------------------------------------------------------------------------
ANN, BO, CY, DI = 1, 2, 3, 4
ROOM = [Entry(ANN, "Ann"), Entry(BO, "Bo"), Entry(CY, "Cy"), Entry(DI, "Di")]


def test_points_vp_and_sos_after_two_rounds():
    # Round 1: Ann beats Bo 20-10, Cy and Di draw 15-15. Round 2: Ann beats Cy 18-12, Di beats Bo 11-9.
    results = [
        Result(1, (ANN, BO), 0, (20, 10)),
        Result(1, (CY, DI), None, (15, 15)),
        Result(2, (ANN, CY), 0, (18, 12)),
        Result(2, (DI, BO), 0, (11, 9)),
    ]
    # SOS is the average of the opponents' tournament points.
    rows = {r.name: r for r in standings(ROOM, results)}
    assert (rows["Ann"].points, rows["Ann"].vp_diff, rows["Ann"].sos) == (6, 16, (0 + 1) / 2)
    assert (rows["Di"].points, rows["Di"].vp_diff, rows["Di"].sos) == (4, 2, (1 + 0) / 2)
    assert (rows["Cy"].points, rows["Cy"].vp_diff, rows["Cy"].sos) == (1, -6, (4 + 6) / 2)
    assert (rows["Bo"].points, rows["Bo"].vp_diff) == (0, -12)
    assert [r.name for r in standings(ROOM, results)] == ["Ann", "Di", "Cy", "Bo"]
    assert [r.rank for r in standings(ROOM, results)] == [1, 2, 3, 4]


def test_the_event_sets_what_a_win_draw_and_loss_are_worth():
    results = [Result(1, (ANN, BO), 0, (1, 0)), Result(1, (CY, DI), None, (5, 5))]
    two = Settings(scoring=Scoring(win=2, draw=1, loss=0))
    rows = {r.name: r.points for r in standings(ROOM, results, settings=two)}
    assert rows == {"Ann": 2, "Bo": 0, "Cy": 1, "Di": 1}
    many = Settings(scoring=Scoring(win=1000, draw=500, loss=1))
    rows = {r.name: r.points for r in standings(ROOM, results, settings=many)}
    assert rows == {"Ann": 1000, "Bo": 1, "Cy": 500, "Di": 500}


def test_a_bye_set_to_no_vp_is_a_win_with_no_vp_and_no_opponent():
    no_vp = Settings(bye=Bye(vp=0))
    rows = {
        r.name: r for r in standings(ROOM, [Result(1, (ANN, BO), 0, (10, 4))], byes=[(1, CY)], settings=no_vp)
    }
    assert (rows["Cy"].wins, rows["Cy"].points, rows["Cy"].vp_diff, rows["Cy"].sos) == (1, 3, 0, 0)
    assert rows["Bo"].sos == 3  # Ann's win; Cy's bye adds to nobody's schedule


def test_vp_difference_then_sos_break_a_tie_on_points():
    results = [
        Result(1, (ANN, BO), 0, (12, 10)),  # Ann +2
        Result(1, (CY, DI), 0, (13, 10)),  # Cy +3: above Ann on VP difference
    ]
    assert [r.name for r in standings(ROOM, results)][:2] == ["Cy", "Ann"]
    # Equal VP difference: SOS decides. Round 2 gives Bo points, which Ann's schedule holds.
    results = [
        Result(1, (ANN, BO), 0, (12, 10)),
        Result(1, (CY, DI), 0, (12, 10)),
        Result(2, (BO, DI), 0, (10, 10)),
    ]
    rows = standings(ROOM, results)
    assert [r.name for r in rows][:2] == ["Ann", "Cy"] and rows[0].sos == 3 and rows[1].sos == 0


def test_players_level_on_everything_share_a_rank_until_a_roll_off():
    results = [Result(1, (ANN, BO), 0, (10, 5)), Result(1, (CY, DI), 0, (10, 5))]
    rows = standings(ROOM, results)
    assert [(r.name, r.rank, r.tied) for r in rows[:2]] == [("Ann", 1, True), ("Cy", 1, True)]
    rows = standings(ROOM, results, rolloffs=[[CY, ANN]])
    assert [(r.name, r.rank, r.tied) for r in rows[:2]] == [("Cy", 1, False), ("Ann", 2, False)]
    # A later roll-off among the same players counts.
    rows = standings(ROOM, results, rolloffs=[[CY, ANN], [ANN, CY]])
    assert [r.name for r in rows[:2]] == ["Ann", "Cy"]


# --- reasons, warnings and the spare (issue 31) ---------------------------------------------
def test_each_table_says_why_it_was_paired():
    players = [
        Entrant(1, 3, "Hammer", name="Ann", record="1–0"),
        Entrant(2, 3, "Hammer", name="Bo", record="1–0"),
        Entrant(3, 3, "Anvil", name="Cy", record="1–0", tables=frozenset({1})),
        Entrant(4, 3, None, name="Di", record="1–0"),
    ]
    made = swiss_round(players)
    assert made.club_clashes == 0 and made.warnings == ()
    notes = {t.players: t.notes for t in made.tables}
    # Ann and Bo are club-mates: each meets someone else; Cy used table 1 and gets table 2.
    assert all("club-mates avoided" in n for p, n in notes.items() if {1, 2} & set(p))
    assert all(n[0] == "1–0 vs 1–0" for n in notes.values())
    assert all(n[-1] == "new table" for n in notes.values())
    assert next(t.number for t in made.tables if 3 in t.players) == 2


def test_a_forced_rematch_and_a_second_bye_are_warned_by_name():
    everyone = frozenset({1, 2, 3})
    players = [
        Entrant(1, 3, name="Ann", record="1–0", opponents=everyone - {1}, had_bye=True),
        Entrant(2, 0, name="Bo", record="0–1", opponents=everyone - {2}, had_bye=True),
        Entrant(3, 0, name="Cy", record="0–1", opponents=everyone - {3}, had_bye=True),
    ]
    made = swiss_round(players)
    assert made.rematches == 1
    assert any(w.endswith("meet again: no pairing avoids every rematch.") for w in made.warnings)
    assert any("has a second bye" in w for w in made.warnings)
    assert made.bye_note is not None and "a second one" in made.bye_note


def test_the_bye_note_says_when_the_lowest_could_not_take_it():
    players = [
        Entrant(0, 3, name="Ann"),
        Entrant(1, 3, name="Bo", opponents=frozenset({2, 4})),
        Entrant(2, 0, name="Cy", opponents=frozenset({1, 4})),
        Entrant(3, 0, name="Di"),
        Entrant(4, 0, name="Ed", had_bye=True, opponents=frozenset({1, 2})),
    ]
    made = swiss_round(players)
    assert made.bye == 2 and "a lower-ranked player's bye would have cost" in (made.bye_note or "")


def test_a_spare_plays_whoever_would_have_had_the_bye():
    players = [Entrant(i, points=p, name=f"P{i}", record="x") for i, p in enumerate([6, 3, 3, 0, 0])]
    made = swiss_round(players, Options(spare=Entrant(99, name="Sam")))
    assert made.bye is None and (4, 99) in pairs_of(made)
    assert any("plays the spare" in n for t in made.tables for n in t.notes)
    # Who played the spare before (had_bye) is passed over while another could play them.
    players[4] = Entrant(4, 0, had_bye=True, opponents=frozenset({99}))
    again = swiss_round(players, Options(spare=Entrant(99, opponents=frozenset({4}))))
    assert (3, 99) in pairs_of(again) and again.rematches == 0


def test_club_mates_may_meet_when_the_event_allows_it():
    # Four of Hammer among four: kept apart is impossible anyway; with two clubs of two, the
    # standings order (1 v 2) wins when club-mates are not kept apart.
    players = [Entrant(0, club="A"), Entrant(1, club="A"), Entrant(2, club="B"), Entrant(3, club="B")]
    assert pairs_of(swiss_round(players, Options(club_mates=False))) == [(0, 1), (2, 3)]
    assert sorted(pairs_of(swiss_round(players))) == [(0, 2), (1, 3)]


def test_tables_may_repeat_when_the_event_allows_it():
    tables, repeated = assign_tables([(0, 1), (2, 3)], {0: frozenset({1})}, avoid=False)
    assert [(t.number, t.players) for t in tables] == [(1, (0, 1)), (2, (2, 3))] and repeated == 1
