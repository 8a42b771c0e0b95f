"""The game clock, from worked examples: passes, pauses, limits, out of time, client times."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from app.rules import clock
from app.rules.clock import Tap

OPENED = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)
NAMES = ["Ann", "Bo", "Cy"]


def t(seconds: float) -> datetime:
    """A time ``seconds`` after the game opened."""
    return OPENED + timedelta(seconds=seconds)


def taps(*rows: tuple[Any, ...]) -> list[Tap]:
    """Taps from rows (received second, action, player?, seconds?, at second?)."""
    out = []
    for i, row in enumerate(rows):
        received, action, *rest = row
        player = rest[0] if len(rest) > 0 else None
        seconds = rest[1] if len(rest) > 1 else None
        at = t(rest[2]) if len(rest) > 2 and rest[2] is not None else None
        out.append(Tap(f"id-{i}", action, t(received), player, seconds, at))
    return out


def state(rows: list[Tap], now: float, players: int = 3) -> clock.ClockState:
    return clock.fold(rows, players, OPENED, t(now))


def test_a_new_clock_is_stopped_with_nothing_used():
    s = state([], now=100)
    assert (s.running, s.used, s.limit, s.since, s.started) == (None, (0.0, 0.0, 0.0), None, None, False)
    assert s.as_dict()["out_of_time"] == [] and s.as_dict()["since"] is None


def test_the_running_player_uses_time_until_now():
    s = state(taps((10, "start", 0)), now=70)
    assert s.running == 0 and s.used == (60.0, 0.0, 0.0) and s.since == t(10)


def test_passes_go_round_the_table_in_order_and_wrap():
    # Ann 10-40 (30 s), Bo 40-100 (60 s), Cy 100-110 (10 s), Ann again from 110 to now (5 s).
    rows = taps((10, "start", 0), (40, "pass"), (100, "pass"), (110, "pass"))
    s = state(rows, now=115)
    assert s.running == 0
    assert s.used == (35.0, 60.0, 10.0)
    assert s.next_player() == 1


def test_a_pass_to_a_named_player_skips_the_others():
    rows = taps((0, "start", 0), (20, "pass", 2))
    s = state(rows, now=50)
    assert s.running == 2 and s.used == (20.0, 0.0, 30.0) and s.next_player() == 0


def test_pause_stops_every_clock_and_start_resumes_the_player_who_had_it():
    rows = taps((0, "start", 1), (30, "pause"), (90, "start"))
    s = state(rows, now=100)
    # Bo used 30 s before the pause and 10 s since the start; the minute paused counts for nobody.
    assert s.running == 1 and s.used == (0.0, 40.0, 0.0)
    paused = state(rows[:2], now=100)
    assert paused.running is None and paused.last == 1 and paused.since == t(30)


def test_a_start_without_a_player_at_the_first_tap_is_the_first_player():
    assert state(taps((5, "start")), now=6).running == 0


@pytest.mark.parametrize(
    ("used_by_ann", "out"),
    [(599, []), (600, [0]), (601, [0])],
    ids=["a-second-under", "at-the-limit", "a-second-over"],
)
def test_out_of_time_at_the_limit_and_past_it(used_by_ann, out):
    rows = taps((0, "limit", None, 600), (0, "start", 0))
    s = state(rows, now=used_by_ann)
    assert s.out_of_time == out
    assert s.left(0) == max(600 - used_by_ann, 0)
    assert s.left(1) == 600


def test_the_limit_can_change_or_go_while_the_clock_runs():
    rows = taps((0, "start", 0), (100, "limit", None, 60))
    assert state(rows, now=120).out_of_time == [0]
    cleared = state([*rows, Tap("id-9", "limit", t(130))], now=140)
    assert cleared.limit is None and cleared.out_of_time == [] and cleared.left(0) is None


def test_a_limit_tap_does_not_move_the_running_players_start():
    rows = taps((0, "start", 0), (50, "limit", None, 300))
    s = state(rows, now=80)
    assert s.used[0] == 80.0 and s.since == t(0)


# --- refusals ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("before", "tap", "message"),
    [
        ([], Tap("x", "pass", t(1)), "The clock is paused, so there is nothing to pass: start it first."),
        ([], Tap("x", "pause", t(1)), "The clock is not running, so there is nothing to pause."),
        (
            taps((0, "start", 1)),
            Tap("x", "start", t(1)),
            "The clock is already running (Bo's time): pass it or pause it.",
        ),
        (
            taps((0, "start", 1)),
            Tap("x", "pass", t(1), 1),
            "Bo already has the clock: pass it to another player.",
        ),
        (
            taps((0, "start", 1), (5, "pause")),
            Tap("x", "pass", t(6)),
            "The clock is paused, so there is nothing to pass: start it first.",
        ),
    ],
    ids=[
        "pass-before-start",
        "pause-before-start",
        "start-while-running",
        "pass-to-self",
        "pass-while-paused",
    ],
)
def test_refusals(before, tap, message):
    assert clock.refusal(state(before, now=10), tap, NAMES) == message


@pytest.mark.parametrize(
    ("before", "tap"),
    [
        ([], Tap("x", "start", t(1), 2)),
        ([], Tap("x", "limit", t(1), None, 60)),
        (taps((0, "start", 1)), Tap("x", "pass", t(1))),
        (taps((0, "start", 1)), Tap("x", "pause", t(1))),
        (taps((0, "start", 1), (5, "pause")), Tap("x", "start", t(6), 0)),
    ],
    ids=["start", "limit-before-start", "pass", "pause", "start-after-pause"],
)
def test_taps_the_clock_takes(before, tap):
    assert clock.refusal(state(before, now=10), tap, NAMES) is None


def test_a_clock_holds_at_most_its_number_of_taps():
    full = clock.ClockState(None, (0.0, 0.0), None, None, t(0), None, clock.MOST_TAPS)
    assert "holds 5000 taps" in (clock.refusal(full, Tap("x", "limit", t(1), None, 5), NAMES) or "")
    one_less = clock.ClockState(None, (0.0, 0.0), None, None, t(0), None, clock.MOST_TAPS - 1)
    assert clock.refusal(one_less, Tap("x", "limit", t(1), None, 5), NAMES) is None


# --- the client's time of a tap made offline ----------------------------------------------
def test_an_offline_tap_counts_from_when_it_was_made():
    # Ann started at 0; the phone went offline, passed at 40 and reached the server at 100.
    rows = taps((0, "start", 0), (100, "pass", None, None, 40))
    assert clock.times(rows, OPENED)[1] == (t(40), True)
    s = state(rows, now=100)
    assert s.used == (40.0, 60.0, 0.0)


@pytest.mark.parametrize(
    ("at", "counts", "client"),
    [
        (30, 30, True),  # right at the previous tap: still taken
        (29.999, 100, False),  # just before the previous tap: the server's time
        (100, 100, True),  # exactly when received
        (100.001, 100, False),  # in the future of the server: its own time
    ],
    ids=["at-previous-tap", "before-previous-tap", "at-receipt", "after-receipt"],
)
def test_a_client_time_counts_only_between_the_previous_tap_and_receipt(at, counts, client):
    rows = taps((30, "start", 0), (100, "pass", None, None, at))
    assert clock.times(rows, OPENED)[1] == (t(counts), client)


def test_a_client_time_before_the_game_began_is_not_taken():
    rows = taps((10, "start", 0, None, -5))
    assert clock.times(rows, OPENED) == [(t(10), False)]
    assert clock.times(taps((10, "start", 0, None, 0)), OPENED) == [(t(0), True)]


def test_times_never_go_back_when_the_server_clock_does():
    # The server's own clock stepped back 5 s between two taps: the second counts at the first's time.
    rows = taps((50, "start", 0), (45, "pass"))
    assert clock.times(rows, OPENED) == [(t(50), False), (t(50), False)]


# --- the shape of a request -----------------------------------------------------------------
ID = "a6f0c2de-1b9e-4c35-9d55-0f0e7f1c2b11"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ([], 'The body must be one JSON object such as {"id": "<uuid>", "action": "pass"}.'),
        ({"action": "pass"}, "id must be a UUID made by the client"),
        ({"id": ID, "action": "stop"}, "action must be one of start, pass, pause, limit."),
        (
            {"id": ID, "action": "pass", "player": 3},
            "player must be a player's index in this game, 0 to 2, or left out.",
        ),
        ({"id": ID, "action": "pass", "player": -1}, "player must be a player's index in this game, 0 to 2"),
        (
            {"id": ID, "action": "pass", "player": True},
            "player must be a player's index in this game, 0 to 2",
        ),
        ({"id": ID, "action": "pause", "player": 0}, "player goes only with start and pass, not with pause."),
        ({"id": ID, "action": "limit"}, "seconds must be given with limit"),
        ({"id": ID, "action": "limit", "seconds": 0}, "seconds must be a whole number from 1 to 86400"),
        ({"id": ID, "action": "limit", "seconds": 86401}, "seconds must be a whole number from 1 to 86400"),
        ({"id": ID, "action": "limit", "seconds": 1.5}, "seconds must be a whole number from 1 to 86400"),
        ({"id": ID, "action": "start", "seconds": 60}, "seconds goes only with limit, not with start."),
        ({"id": ID, "action": "pass", "at": "yesterday"}, "at must be a time in ISO 8601 with its offset"),
        (
            {"id": ID, "action": "pass", "at": "2026-12-01T20:15:00"},
            "at must be a time in ISO 8601 with its offset",
        ),
        ({"id": ID, "action": "pass", "colour": "red"}, "colour is not part of a clock tap"),
    ],
    ids=[
        "not-an-object",
        "no-id",
        "unknown-action",
        "player-one-past",
        "player-negative",
        "player-boolean",
        "player-with-pause",
        "limit-without-seconds",
        "limit-zero",
        "limit-one-past-a-day",
        "limit-fraction",
        "seconds-with-start",
        "at-not-a-time",
        "at-without-offset",
        "unknown-field",
    ],
)
def test_requests_refused_for_their_shape(body, message):
    request, problem = clock.parse(body, 3)
    assert request is None and problem is not None and problem.startswith(message)


def test_requests_taken():
    request, problem = clock.parse(
        {"id": ID.upper(), "action": "pass", "player": 2, "at": "2026-12-01T21:15:00+01:00"}, 3
    )
    assert problem is None and request == clock.Request(
        ID, "pass", 2, None, datetime(2026, 12, 1, 20, 15, tzinfo=UTC)
    )
    limit, _ = clock.parse({"id": ID, "action": "limit", "seconds": 86400}, 3)
    assert limit is not None and limit.seconds == 86400
    none, _ = clock.parse({"id": ID, "action": "limit", "seconds": None}, 3)
    assert none is not None and none.seconds is None
