"""Issue 31's scoring presets, tie-breaks, byes, late players, spares and soft scores, from
worked examples computed by hand (each row at a band's limit, just under and just over)."""

from __future__ import annotations

import pytest

from app.rules.club import settings as es
from app.rules.club import tournament_points as tp
from app.rules.club.settings import Bye, Settings, Soft
from app.rules.club.standings import Entry, Result, standings
from app.rules.club.tournament_points import Scoring, award

ANN, BO, CY, DI, ED = 1, 2, 3, 4, 5
ROOM = [Entry(ANN, "Ann"), Entry(BO, "Bo"), Entry(CY, "Cy"), Entry(DI, "Di")]


def names(rows):
    return [r.name for r in rows]


# --- presets --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("winner", "vp", "expected", "reasons"),
    [
        (0, (20, 10), (3, 0), ("win: 3 TP", "loss: 0 TP")),
        (1, (20, 21), (0, 3), ("loss: 0 TP", "win: 3 TP")),
        (None, (15, 15), (1, 1), ("draw: 1 TP", "draw: 1 TP")),
        # W-D-L goes by who won, not by VP (a tiebreak won on level VP is a win).
        (1, (12, 12), (0, 3), ("loss: 0 TP", "win: 3 TP")),
    ],
)
def test_wdl_gives_the_win_draw_and_loss_points(winner, vp, expected, reasons):
    given = award(Scoring(), winner, vp)
    assert given.tp == expected and given.reasons == reasons


TOW_2000 = es.read_scoring({"preset": "tow-bands"}, 2000)


@pytest.mark.parametrize(
    ("vp", "expected", "band"),
    [
        ((1000, 1000), (3, 3), "band 0–300, 3–3"),
        ((1300, 1000), (3, 3), "band 0–300, 3–3"),  # 300: the draw band's top
        ((1301, 1000), (4, 2), "band 301–600, 4–2"),  # 301: a minor victory
        ((1000, 1600), (2, 4), "band 301–600, 4–2"),  # the second player ahead by 600
        ((1601, 1000), (5, 1), "band 601–950, 5–1"),
        ((1950, 1000), (5, 1), "band 601–950, 5–1"),
        ((1951, 1000), (6, 0), "band 951+, 6–0"),
        ((2000, 0), (6, 0), "band 951+, 6–0"),
    ],
)
def test_the_old_worlds_bands_on_the_vp_difference_at_2000_points(vp, expected, band):
    assert isinstance(TOW_2000, Scoring)
    given = award(TOW_2000, 0 if vp[0] >= vp[1] else 1, vp)
    assert given.tp == expected
    assert given.band is not None and given.band.label() == band
    assert band in given.reasons[0] and band in given.reasons[1]


def test_a_bands_reason_names_who_won_by_how_much():
    given = award(TOW_2000, 0, (1420, 1000))
    assert given.reasons == ("won by 420 VP: band 301–600, 4–2", "lost by 420 VP: band 301–600, 4–2")


def test_the_bands_scale_to_the_points_the_event_is_played_at():
    # At 1,000 points each band's top is halved: 150, 300, 475.
    bands = tp.default_bands(1000)
    assert [b.as_list() for b in bands] == [
        [0, 150, 3, 3],
        [151, 300, 4, 2],
        [301, 475, 5, 1],
        [476, None, 6, 0],
    ]
    at_1000 = Scoring("tow-bands", bands=bands)
    assert award(at_1000, 0, (650, 500)).tp == (3, 3)
    assert award(at_1000, 0, (651, 500)).tp == (4, 2)
    assert award(at_1000, 0, (975, 500)).tp == (5, 1)
    assert award(at_1000, 0, (976, 500)).tp == (6, 0)


def test_bands_are_data_the_organiser_edits():
    custom = es.read_scoring({"preset": "tow-bands", "bands": [[0, 5, 10, 10], [6, None, 20, 0]]}, 2000)
    assert isinstance(custom, Scoring)
    assert award(custom, 0, (25, 20)).tp == (10, 10) and award(custom, 0, (26, 20)).tp == (20, 0)


@pytest.mark.parametrize(
    "bands",
    [
        [[1, 300, 3, 3], [301, None, 6, 0]],  # not from 0
        [[0, 300, 3, 3], [302, None, 6, 0]],  # a gap
        [[0, 300, 3, 3], [301, 600, 6, 0]],  # the last has a top
        [[0, 300, 2, 3], [301, None, 6, 0]],  # fewer VP worth more
        [],
        "0-300",
    ],
)
def test_bands_that_do_not_cover_every_difference_are_refused(bands):
    problem = es.read_scoring({"preset": "tow-bands", "bands": bands}, 2000)
    assert isinstance(problem, str) and problem.startswith("scoring.bands")


@pytest.mark.parametrize(
    ("vp", "expected"),
    [
        ((500, 500), (10, 10)),
        ((649, 500), (10, 10)),  # 149: not a full step
        ((650, 500), (11, 9)),  # 150: one point moves
        ((920, 500), (12, 8)),  # 420: two
        ((500, 1999), (1, 19)),  # 1,499: nine
        ((2000, 500), (20, 0)),  # 1,500: ten
        ((3500, 0), (20, 0)),  # never past 20-0
    ],
)
def test_twenty_zero_on_the_vp_difference(vp, expected):
    given = award(Scoring("twenty-zero", step=150), 0, vp)
    assert given.tp == expected
    assert sum(given.tp) == 20


def test_twenty_zeros_step_scales_with_the_points_and_may_be_set():
    assert tp.default_step(2000) == 150 and tp.default_step(1000) == 75
    made = es.read_scoring({"preset": "twenty-zero", "step": 5}, 2000)
    assert isinstance(made, Scoring) and award(made, 0, (30, 14)).tp == (13, 7)


def test_win_loss_plus_bonus_points():
    bonus = Scoring("wl-bonus", win=3, draw=1, loss=0)
    given = award(bonus, 0, (20, 18), (2, 1))
    assert given.tp == (5, 1)
    assert given.reasons == ("win: 3 TP + 2 bonus", "loss: 0 TP + 1 bonus")
    assert award(bonus, None, (5, 5), (0, 0)).tp == (1, 1)
    assert bonus.takes_bonus and not Scoring().takes_bonus


def test_todays_win_draw_loss_body_means_wdl():
    made = es.read_scoring({"win": 2, "draw": 1, "loss": 0}, 2000)
    assert made == Scoring("wdl", 2, 1, 0, (), 150)
    assert (
        es.read_scoring({"preset": "chess"}, 2000)
        == "scoring.preset must be one of wdl, tow-bands, twenty-zero, wl-bonus."
    )


# --- tie-breaks -------------------------------------------------------------------------------
def settings(*tie_breaks: str, **extra) -> Settings:
    return Settings(tie_breaks=tie_breaks, **extra)


def test_wins_then_draws_before_points():
    # Win 2, draw 1. Ann: W, L = 2 TP, one win, VP 10-29. Bo: D, D = 2 TP, no win, VP 40-20.
    # Di: D, W = 3 TP. Cy: L, D = 1 TP.
    scoring = Scoring(win=2, draw=1, loss=0)
    results = [
        Result(1, (ANN, CY), 0, (10, 9)),
        Result(1, (BO, DI), None, (10, 10)),
        Result(2, (ANN, DI), 1, (0, 20)),
        Result(2, (BO, CY), None, (30, 10)),
    ]
    by_wins = standings(ROOM, results, settings=settings("wins", "vp_diff", scoring=scoring))
    assert names(by_wins) == ["Di", "Ann", "Bo", "Cy"]  # (1 win, 1 draw), (1, 0), (0, 2), (0, 1)
    by_points = standings(ROOM, results, settings=settings("points", "vp_diff", scoring=scoring))
    assert names(by_points) == ["Di", "Bo", "Ann", "Cy"]  # Bo and Ann level on 2 TP: +20 before -19


def test_fewer_losses_count_in_w_l_d():
    # Ann 1-1, Cy and Di 1-0 (one game each): level on wins and draws; Ann has a loss.
    results = [
        Result(1, (ANN, BO), 0, (5, 4)),
        Result(2, (ANN, DI), 1, (4, 5)),
        Result(2, (CY, BO), 0, (5, 5)),
    ]
    rows = standings(ROOM, results, settings=settings("wins"))
    assert [(r.name, r.rank) for r in rows] == [("Cy", 1), ("Di", 1), ("Ann", 3), ("Bo", 4)]


def test_tournament_points_before_wins_under_the_bands():
    # Ann wins twice by 100 VP (3-3 each: 6 TP, 2 wins); Bo wins once by 1,000 (6 TP) and
    # loses once by 100 (3 TP): 9 TP, 1 win.
    results = [
        Result(1, (ANN, CY), 0, (1100, 1000)),
        Result(1, (BO, DI), 0, (1500, 500)),
        Result(2, (ANN, DI), 0, (1100, 1000)),
        Result(2, (BO, CY), 1, (1000, 1100)),
    ]
    bands = Settings(scoring=TOW_2000)
    assert names(standings(ROOM, results, settings=bands))[:2] == ["Ann", "Bo"]  # the default: W-L-D first
    by_points = Settings(scoring=TOW_2000, tie_breaks=("points", "wins"))
    rows = standings(ROOM, results, settings=by_points)
    assert names(rows)[:2] == ["Bo", "Ann"] and [r.points for r in rows[:2]] == [9, 6]


def test_vp_difference_or_vp_scored():
    # Both 1-0: Ann won 20-0 (+20, 20 scored), Bo won 30-15 (+15, 30 scored).
    results = [Result(1, (ANN, CY), 0, (20, 0)), Result(1, (BO, DI), 0, (30, 15))]
    assert names(standings(ROOM, results, settings=settings("wins", "vp_diff")))[:2] == ["Ann", "Bo"]
    assert names(standings(ROOM, results, settings=settings("wins", "vp_for")))[:2] == ["Bo", "Ann"]


def test_strength_of_schedule_by_opponents_average_points_or_wins():
    # Win 3, draw 2. Round 1: Ann beats Cy, Bo beats Di (both 10-5). Then Cy beats Ed (1 win,
    # 3 TP) while Di draws twice (no win, 4 TP). Ann and Bo are level on all but SOS.
    room = [*ROOM, Entry(ED, "Ed"), Entry(6, "Flo")]
    results = [
        Result(1, (ANN, CY), 0, (10, 5)),
        Result(1, (BO, DI), 0, (10, 5)),
        Result(2, (CY, ED), 0, (10, 5)),
        Result(2, (DI, 6), None, (5, 5)),
        Result(3, (DI, ED), None, (5, 5)),
    ]
    scoring = Scoring(win=3, draw=2, loss=0)
    by_points = standings(
        room, results, settings=settings("wins", "points", "vp_diff", "sos", scoring=scoring)
    )
    rows = {r.name: r for r in by_points}
    assert (rows["Ann"].sos, rows["Bo"].sos) == (3, 4)
    assert names(by_points)[:2] == ["Bo", "Ann"]
    by_wins = standings(
        room, results, settings=settings("wins", "points", "vp_diff", "sos", scoring=scoring, sos_by="wins")
    )
    rows = {r.name: r for r in by_wins}
    assert (rows["Ann"].sos, rows["Bo"].sos) == (1, 0)
    assert names(by_wins)[:2] == ["Ann", "Bo"]


def test_strength_of_schedule_is_an_average_over_the_opponents_met():
    # Cy met Ann (3 TP) and Bo (0): 1.5, whatever the number of rounds.
    results = [Result(1, (ANN, CY), 0, (5, 0)), Result(2, (CY, BO), 0, (5, 0))]
    assert {r.name: r.sos for r in standings(ROOM, results)}["Cy"] == 1.5


def test_head_to_head_separates_two_who_met():
    # Ann beat Bo 12-10, then lost to Cy 10-12; Bo beat Di 12-10: Ann and Bo both 1-1 with VP
    # level (44-44... each 22-22), and Ann won their game.
    results = [
        Result(1, (ANN, BO), 0, (12, 10)),
        Result(2, (ANN, CY), 1, (10, 12)),
        Result(2, (BO, DI), 0, (12, 10)),
    ]
    order = settings("wins", "vp_diff", "h2h", "roll_off")
    rows = [r for r in standings(ROOM, results, settings=order) if r.name in ("Ann", "Bo")]
    assert [(r.name, r.tied) for r in rows] == [("Ann", False), ("Bo", False)]
    # Without head-to-head they stay tied, in sign-up order.
    rows = [
        r for r in standings(ROOM, results, settings=settings("wins", "vp_diff")) if r.name in ("Ann", "Bo")
    ]
    assert [(r.name, r.tied, r.rank) for r in rows] == [
        ("Ann", True, rows[0].rank),
        ("Bo", True, rows[0].rank),
    ]


def test_head_to_head_does_not_separate_a_group_not_all_of_whom_met():
    # Ann, Bo and Cy each 1-0; none met the others: head-to-head leaves them tied.
    room = [*ROOM, Entry(ED, "Ed"), Entry(6, "Flo")]
    results = [Result(1, (ANN, DI), 0, (5, 0)), Result(1, (BO, ED), 0, (5, 0)), Result(1, (CY, 6), 0, (5, 0))]
    rows = standings(room, results, settings=settings("wins", "vp_diff", "h2h"))
    assert [(r.name, r.rank, r.tied) for r in rows[:3]] == [
        ("Ann", 1, True),
        ("Bo", 1, True),
        ("Cy", 1, True),
    ]


def test_roll_off_last_separates_players_level_on_everything():
    results = [Result(1, (ANN, BO), 0, (10, 5)), Result(1, (CY, DI), 0, (10, 5))]
    rows = standings(ROOM, results, rolloffs=[[CY, ANN]])
    assert [(r.name, r.rank, r.tied) for r in rows[:2]] == [("Cy", 1, False), ("Ann", 2, False)]
    # Left out of the order, a roll-off is not consulted.
    rows = standings(ROOM, results, rolloffs=[[CY, ANN]], settings=settings("wins", "vp_diff"))
    assert [(r.name, r.tied) for r in rows[:2]] == [("Ann", True), ("Cy", True)]


def test_the_order_is_stated_in_words():
    assert Settings().order_words() == (
        "W-L-D, tournament points, VP difference, "
        "strength of schedule (opponents' average tournament points), head-to-head, roll-off"
    )
    weighted = Settings(tie_breaks=("points", "sos"), sos_by="wins", soft={"painting": Soft(weight=2)})
    assert weighted.order_words() == (
        "tournament points (with painting), strength of schedule (opponents' average wins)"
    )


@pytest.mark.parametrize("raw", [["wins", "wins"], ["speed"], [], "wins", ["points", None]])
def test_a_tie_break_list_names_each_known_one_at_most_once(raw):
    assert es.read_tie_breaks(raw).startswith("tie_breaks must list")


# --- byes, late players, spares ---------------------------------------------------------------
def test_the_default_bye_is_a_crushing_win_with_the_points_played_at():
    # At 2,000 points under the bands: VP 2,000 to 0, the 951+ band: 6 TP.
    rows = {
        r.name: r
        for r in standings(ROOM, [], byes=[(1, ANN)], settings=Settings(scoring=TOW_2000), points_limit=2000)
    }
    ann = rows["Ann"]
    assert (ann.wins, ann.byes, ann.points, ann.vp_for, ann.vp_against) == (1, 1, 6, 2000, 0)
    assert ann.rounds[0]["tp_reason"] == "bye (a win by 2,000 VP): band 951+, 6–0"


def test_a_bye_set_to_points_and_vp():
    bye = Settings(bye=Bye(points=2, vp=10))
    ann = standings(ROOM, [], byes=[(1, ANN)], settings=bye, points_limit=2000)[0]
    assert (ann.name, ann.points, ann.vp_for, ann.rounds[0]["tp_reason"]) == ("Ann", 2, 10, "bye: 2 TP")


def test_a_late_players_missed_rounds_count_as_losses_or_byes():
    results = [Result(1, (ANN, BO), 0, (10, 5)), Result(2, (ANN, CY), 0, (10, 5))]
    loss = {r.name: r for r in standings(ROOM, results, missed=[(1, CY)], points_limit=500)}
    assert (loss["Cy"].wins, loss["Cy"].losses, loss["Cy"].points, loss["Cy"].vp_diff) == (0, 2, 0, -5)
    assert loss["Cy"].rounds[0]["tp_reason"] == "missed (joined late): a loss, 0 TP"
    as_bye = {
        r.name: r
        for r in standings(ROOM, results, missed=[(1, CY)], settings=Settings(late="bye"), points_limit=500)
    }
    assert (as_bye["Cy"].wins, as_bye["Cy"].byes, as_bye["Cy"].points, as_bye["Cy"].vp_for) == (1, 1, 3, 505)


def test_a_spare_is_not_ranked_nor_counted_in_strength_of_schedule():
    room = [*ROOM, Entry(ED, "Sam", spare=True)]
    results = [Result(1, (ANN, ED), 0, (10, 5)), Result(1, (BO, CY), 0, (10, 5))]
    rows = {r.name: r for r in standings(room, results)}
    assert "Sam" not in rows
    assert (rows["Ann"].wins, rows["Ann"].points, rows["Ann"].sos) == (1, 3, 0)
    assert rows["Bo"].sos == 0 and rows["Cy"].sos == 3


# --- soft scores ------------------------------------------------------------------------------
def test_soft_scores_weigh_in_the_total_or_stay_a_prize():
    room = [Entry(ANN, "Ann", painting=10), Entry(BO, "Bo", painting=30), Entry(CY, "Cy"), Entry(DI, "Di")]
    results = [Result(1, (ANN, CY), 0, (10, 5)), Result(1, (BO, DI), 0, (10, 9))]
    weighted = Settings(
        tie_breaks=("points", "vp_diff"), soft={"painting": Soft(weight=1), "sportsmanship": Soft(prize=True)}
    )
    rows = standings(room, results, settings=weighted, votes={ANN: 3})
    assert [(r.name, r.points, r.total, r.soft) for r in rows[:2]] == [
        ("Bo", 3, 33, {"painting": 30, "sportsmanship": 0}),
        ("Ann", 3, 13, {"painting": 10, "sportsmanship": 3}),
    ]
    # Sportsmanship is the organiser's only: left out of the answer others see.
    assert rows[1].as_dict(("sportsmanship",))["soft"] == {"painting": 10}
    plain = standings(room, results, settings=Settings(tie_breaks=("points", "vp_diff")))
    assert [r.name for r in plain[:2]] == ["Ann", "Bo"] and plain[0].total == 3


# --- reading settings -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"bye": {"vp": "all"}}, "bye.vp"),
        ({"bye": {"points": -1}}, "bye.points"),
        ({"late": "win"}, "late"),
        ({"sos_by": "vp"}, "sos_by"),
        ({"soft": {"painting": {"weight": 0}}}, "soft.painting"),
        ({"soft": {"charm": {"prize": True}}}, "soft"),
        ({"lists": {"reveal": "never"}}, "lists.reveal"),
        ({"lists": {"deadline": "tomorrow"}}, "lists.deadline"),
        ({"pairing": {"avoid_club_mates": "yes"}}, "pairing.avoid_club_mates"),
        ({"scoring": {"preset": "twenty-zero", "step": 0}}, "scoring.step"),
    ],
)
def test_a_bad_setting_is_one_sentence_naming_its_field(body, field):
    problem = es.read(body, 2000)
    assert isinstance(problem, str) and problem.startswith(field) and problem.endswith(".")


def test_settings_read_back_as_they_were_stored():
    made = es.read(
        {
            "scoring": {"preset": "tow-bands"},
            "tie_breaks": ["points", "h2h"],
            "bye": {"points": 4, "vp": 100},
            "late": "bye",
            "soft": {"painting": {"weight": 2}, "sportsmanship": {"prize": True}},
            "lists": {"reveal": "start", "deadline": "2026-12-05T18:00:00+01:00"},
            "pairing": {"avoid_club_mates": False},
        },
        1000,
    )
    assert isinstance(made, Settings) and made.lists.deadline == "2026-12-05T17:00:00Z"
    scoring, rest = made.stored()
    assert es.stored(scoring, rest, 1000) == made


def test_an_event_stored_before_these_settings_reads_as_it_was_run():
    legacy = es.stored({"win": 3, "draw": 1, "loss": 0}, None, 500)
    assert legacy.tie_breaks == ("points", "vp_diff", "sos", "roll_off") and legacy.bye.vp_for(500) == 0
