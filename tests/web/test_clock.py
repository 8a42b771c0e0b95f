"""The game clock over HTTP: the JSON contract, replays, access, refusals, and the strip's forms."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.store import Store
from tests.setups import join, new_game, pitched_battle
from tests.web.conftest import soup

HX = {"HX-Request": "true"}


def uid() -> str:
    return str(uuid.uuid4())


class Clock:
    """Taps on one game's clock through the JSON API."""

    def __init__(self, client: FlaskClient, game: dict[str, Any]) -> None:
        self.client, self.id, self.token = client, game["id"], game["edit_token"]

    def tap(self, token: str | None = None, live: bool = False, **body: Any) -> Any:
        """A tap through the API, as a phone replays it from its outbox (``live``: made now)."""
        body = {"id": uid(), **body}
        headers = {"X-Edit-Token": token if token is not None else self.token}
        if not live:
            headers["X-Muster-Replay"] = "outbox"
        return self.client.post(f"/api/v1/games/{self.id}/clock", json=body, headers=headers)

    def ok(self, **body: Any) -> dict[str, Any]:
        answer = self.tap(**body)
        assert answer.status_code == 201, answer.json
        return answer.json

    def state(self) -> dict[str, Any]:
        return self.client.get(f"/api/v1/games/{self.id}").json["clock"]


def stamp(when: datetime) -> str:
    return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")


@pytest.fixture
def clock(client: FlaskClient) -> Clock:
    return Clock(client, new_game(client))


def opened_earlier(app: Flask, minutes: int, players: int = 2) -> tuple[dict[str, Any], datetime]:
    """A game stored ``minutes`` ago (so taps can carry earlier times), with its set-up's players."""
    opened = datetime.now(UTC) - timedelta(minutes=minutes)
    setup = pitched_battle()
    setup["players"] = [{"name": n, "side": None} for n in ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"][:players]]
    store = Store(app.config["DATABASE"])
    try:
        game_id, token = store.games.create(setup, created=stamp(opened))
    finally:
        store.close()
    return {"id": game_id, "edit_token": token}, opened


# --- the JSON contract ------------------------------------------------------------------------
def test_a_new_games_clock_is_stopped(clock):
    assert clock.state() == {
        "running": None,
        "used": [0.0, 0.0],
        "limit": None,
        "out_of_time": [],
        "since": None,
        "as_of": None,
        "next": None,
        "last": None,
        "taps": 0,
    }


def test_start_pass_pause_and_limit_answer_201_with_the_clock(app, client):
    game, opened = opened_earlier(app, minutes=12)
    clock = Clock(client, game)
    t = lambda minutes: stamp(opened + timedelta(minutes=minutes))  # noqa: E731
    started = clock.ok(action="start", at=t(1))
    assert started["status"] == "recorded" and started["time"] == "client"
    assert started["clock"]["running"] == 0 and started["clock"]["since"] == t(1)
    passed = clock.ok(action="pass", at=t(4))  # Ann used 3 minutes
    assert passed["clock"]["running"] == 1 and passed["clock"]["next"] == 0
    paused = clock.ok(action="pause", at=t(6))  # Bo used 2
    assert paused["clock"]["running"] is None
    assert paused["clock"]["used"] == [180.0, 120.0]
    limited = clock.ok(action="limit", seconds=150)
    assert limited["clock"]["limit"] == 150 and limited["clock"]["out_of_time"] == [0]
    # The game's answer holds the same clock, counted to the pause while it is stopped.
    state = clock.state()
    assert state["used"] == [180.0, 120.0] and state["as_of"] == t(6) and state["out_of_time"] == [0]
    assert clock.ok(action="limit", seconds=None)["clock"]["out_of_time"] == []
    resumed = clock.ok(action="start")
    assert resumed["clock"]["running"] == 1  # the player who had it before the pause


def test_a_pass_goes_to_the_next_player_round_any_table(app, client):
    game, _ = opened_earlier(app, minutes=5, players=5)
    clock = Clock(client, game)
    clock.ok(action="start", player=3)
    assert clock.ok(action="pass")["clock"]["running"] == 4
    assert clock.ok(action="pass")["clock"]["running"] == 0  # wraps to the first
    assert clock.ok(action="pass", player=2)["clock"]["running"] == 2
    assert clock.tap(action="pass", player=5).json == {
        "error": "player must be a player's index in this game, 0 to 4, or left out."
    }


def test_clock_taps_are_not_the_games_events(clock, client):
    clock.ok(action="start")
    clock.ok(action="pass")
    assert client.get(f"/api/v1/games/{clock.id}/events").json == []
    game = client.get(f"/api/v1/games/{clock.id}").json
    assert game["clock"]["taps"] == 2 and game["clock"]["running"] == 1


# --- replays and access -------------------------------------------------------------------------
def test_the_same_tap_twice_changes_nothing(clock):
    tap = {"id": uid(), "action": "start"}
    first = clock.client.post(
        f"/api/v1/games/{clock.id}/clock", json=tap, headers={"X-Edit-Token": clock.token}
    )
    again = clock.client.post(
        f"/api/v1/games/{clock.id}/clock", json=tap, headers={"X-Edit-Token": clock.token}
    )
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json["status"] == "duplicate" and again.json["id"] == tap["id"]
    assert clock.state()["taps"] == 1 and clock.state()["running"] == 0


def test_a_tap_id_of_another_games_clock_is_refused(client, clock):
    other = Clock(client, new_game(client))
    tap = {"id": uid(), "action": "start"}
    assert clock.tap(**tap).status_code == 201
    refused = other.tap(**tap)
    assert refused.status_code == 422 and "another game's clock" in refused.json["error"]
    assert other.state()["taps"] == 0


def test_only_the_edit_token_taps_the_clock(clock, client):
    assert clock.tap(token="", action="start").status_code == 403
    wrong = clock.tap(token="not-the-token", action="start")
    assert wrong.status_code == 403 and wrong.json == {
        "error": "X-Edit-Token must hold this game's edit token (or X-Seat-Token a seat's) to use its clock."
    }
    missing = client.post("/api/v1/games/no-such-game/clock", json={"id": uid(), "action": "start"})
    assert missing.status_code == 404
    assert clock.state()["taps"] == 0


# --- refusals -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("before", "body", "message"),
    [
        ([], {"action": "pass"}, "The clock is paused, so there is nothing to pass: start it first."),
        (["start", "pause"], {"action": "pass"}, "The clock is paused, so there is nothing to pass"),
        ([], {"action": "pause"}, "The clock is not running, so there is nothing to pause."),
        (["start"], {"action": "start"}, "The clock is already running (Ann's time): pass it or pause it."),
        (["start"], {"action": "pass", "player": 0}, "Ann already has the clock: pass it to another player."),
        ([], {"action": "start", "player": 2}, "player must be a player's index in this game, 0 to 1"),
        ([], {"action": "wind"}, "action must be one of start, pass, pause, limit."),
        ([], {"action": "limit", "seconds": -5}, "seconds must be a whole number from 1 to 86400"),
        ([], {"action": "start", "at": "soon"}, "at must be a time in ISO 8601 with its offset"),
        ([], {"action": "start", "id": "tap-1"}, "id must be a UUID made by the client"),
    ],
    ids=[
        "pass-before-start",
        "pass-while-paused",
        "pause-while-stopped",
        "start-while-running",
        "pass-to-the-running-player",
        "player-out-of-range",
        "unknown-action",
        "negative-limit",
        "at-not-a-time",
        "id-not-a-uuid",
    ],
)
def test_bad_taps_are_422_with_one_sentence(clock, before, body, message):
    for action in before:
        clock.ok(action=action)
    answer = clock.tap(**body)
    assert answer.status_code == 422
    assert answer.json["error"].startswith(message) and answer.json["error"].count(".") <= 3
    assert clock.state()["taps"] == len(before)


def test_a_body_that_is_not_json_is_400(clock):
    answer = clock.client.post(
        f"/api/v1/games/{clock.id}/clock", data="start", headers={"X-Edit-Token": clock.token}
    )
    assert answer.status_code == 400


# --- the client's time of a tap --------------------------------------------------------------------
def test_a_tap_replayed_from_the_outbox_counts_from_when_it_was_made(app, client):
    game, opened = opened_earlier(app, minutes=10)
    clock = Clock(client, game)
    clock.ok(action="start", at=stamp(opened + timedelta(minutes=1)))
    made = clock.ok(action="pause", at=stamp(opened + timedelta(minutes=3, seconds=30)))
    assert made["time"] == "client" and "note" not in made
    assert made["clock"]["used"] == [150.0, 0.0]


@pytest.mark.parametrize("when", ["future", "before-previous", "before-the-game"])
def test_a_client_time_out_of_bounds_gives_way_to_the_servers(app, client, when):
    game, opened = opened_earlier(app, minutes=10)
    clock = Clock(client, game)
    clock.ok(action="start", at=stamp(opened + timedelta(minutes=5)))
    at = {
        "future": datetime.now(UTC) + timedelta(minutes=2),
        "before-previous": opened + timedelta(minutes=4),
        "before-the-game": opened - timedelta(minutes=1),
    }[when]
    answer = clock.ok(action="pause", at=stamp(at))
    assert answer["time"] == "server"
    assert answer["note"] == (
        "at was not between the clock's previous tap and the server's time, "
        "so the tap counts from the server's time."
    )
    # Ann ran from minute 5 until the server received the pause, about five minutes.
    assert 299 <= answer["clock"]["used"][0] <= 320


def test_a_live_taps_backdated_time_is_not_taken(app, client):
    """Issue 27 item 9: Ann runs for 4 minutes, then passes with an `at` a second after her
    start: live, it would have charged Bo her minutes. Only an outbox replay brings its time."""
    game, opened = opened_earlier(app, minutes=10)
    clock = Clock(client, game)
    clock.ok(action="start", at=stamp(opened + timedelta(minutes=5)))  # replayed: Ann from minute 5
    answer = clock.tap(live=True, action="pass", at=stamp(opened + timedelta(minutes=5, seconds=1)))
    assert answer.status_code == 201 and answer.json["time"] == "server"
    assert answer.json["note"] == (
        "at counts only for a tap replayed from the phone's outbox (X-Muster-Replay: outbox), "
        "so this tap counts from the server's time."
    )
    used = answer.json["clock"]["used"]
    assert used[0] >= 299 and used[1] < 5  # Ann's five minutes stay hers


def test_the_strips_live_tap_counts_from_the_server_and_its_replay_from_when_it_was_made(app, client):
    game, opened = opened_earlier(app, minutes=10)
    join(client, game)
    url = f"/games/{game['id']}/clock"
    token = soup(client.get(f"/games/{game['id']}")).select_one('meta[name="csrf-token"]')["content"]
    start = {"csrf_token": token, "id": uid(), "action": "start", "player": "0"}
    start["at"] = stamp(opened + timedelta(minutes=1))
    assert client.post(url, data=start, headers=HX).status_code == 200  # live: from now, not minute 1
    assert Clock(client, game).state()["since"] > stamp(opened + timedelta(minutes=9))
    passed = {
        "csrf_token": token,
        "id": uid(),
        "action": "pass",
        "at": stamp(datetime.now(UTC) - timedelta(seconds=30)),
    }
    assert client.post(url, data=passed, headers={**HX, "X-Muster-Replay": "outbox"}).status_code == 200
    assert Clock(client, game).state()["running"] == 1


def test_a_tap_replayed_long_after_it_was_made_counts_from_its_arrival(app, client):
    game, _ = opened_earlier(app, minutes=40)
    clock = Clock(client, game)
    clock.ok(action="start", at=stamp(datetime.now(UTC) - timedelta(minutes=30)))
    answer = clock.ok(action="pause", at=stamp(datetime.now(UTC) - timedelta(minutes=20)))
    assert answer["time"] == "server"
    assert answer["note"] == (
        "at was more than 15 minutes before the server received the tap, so the tap counts from the server's time."
    )


# --- the strip on the game page -----------------------------------------------------------------------
def _page_game(client: FlaskClient) -> tuple[dict[str, Any], Any]:
    made = new_game(client)
    join(client, made)
    return made, soup(client.get(f"/games/{made['id']}"))


def test_the_game_page_shows_the_clock_with_a_button_per_player(client):
    _, page = _page_game(client)
    strip = page.select_one("#clock")
    buttons = strip.select(".clock-tap button.clock-player")
    assert [b.select_one(".clock-name").text for b in buttons] == ["Ann", "Bo"]
    assert [b.select_one(".clock-time").text for b in buttons] == ["0:00", "0:00"]
    assert strip.select_one("[data-clock-when=stopped] button").text.strip() == "Start: Ann"
    assert all(f.select_one('input[name="csrf_token"]')["value"] for f in strip.select("form"))


def test_a_watcher_sees_the_clock_but_no_buttons(app, client):
    made, _ = _page_game(client)
    Clock(client, made).ok(action="start", player=1)
    watcher = app.test_client()
    strip = soup(watcher.get(f"/games/{made['id']}")).select_one("#clock")
    assert strip.select("form") == [] and strip.select("button") == []
    assert [d.select_one(".clock-name").text for d in strip.select(".clock-player")] == ["Ann", "Bo"]
    assert "running" in strip.select(".clock-player")[1]["class"]
    # With the page's own form token but no edit token, a tap is refused and changes nothing.
    page = soup(watcher.get(f"/games/{made['id']}"))
    form = {
        "csrf_token": page.select_one('meta[name="csrf-token"]')["content"],
        "id": uid(),
        "action": "pause",
    }
    answer = watcher.post(f"/games/{made['id']}/clock", data=form, headers=HX)
    assert answer.status_code == 403
    assert Clock(client, made).state()["running"] == 1


def test_a_tap_without_the_forms_token_is_refused(client):
    made, page = _page_game(client)
    form = _form(page.select_one("#clock"), '[data-clock-player="0"]')
    del form["csrf_token"]
    answer = client.post(f"/games/{made['id']}/clock", data=form, headers=HX)
    assert answer.status_code == 400
    assert Clock(client, made).state()["taps"] == 0


def _form(strip: Any, selector: str) -> dict[str, str]:
    form = strip.select_one(selector)
    return {i["name"]: i.get("value", "") for i in form.select("input[name]")}


def test_tapping_the_strip_answers_the_new_strip(client):
    made, page = _page_game(client)
    strip = page.select_one("#clock")
    url = f"/games/{made['id']}/clock"
    answer = client.post(url, data=_form(strip, '[data-clock-player="1"]'), headers=HX)
    assert answer.status_code == 200
    fresh = soup(answer).select_one("#clock")
    assert fresh["data-running"] == "1"
    running = fresh.select_one(".clock-player.running")
    assert (
        running.select_one(".clock-name").text == "Bo" and running.select_one("[data-hint]").text == "running"
    )
    # One verb for every player: tap your time when you finish.
    assert fresh.select_one("[data-clock-how]").text == "Tap your time when you finish."
    assert not fresh.select_one("[data-clock-how]").has_attr("hidden")
    # Bo taps his own time: the clock passes to the next player, Ann.
    passed = soup(client.post(url, data=_form(fresh, '[data-clock-player="1"]'), headers=HX)).select_one(
        "#clock"
    )
    assert passed["data-running"] == "0"
    assert passed.select_one(".clock-player.running .clock-name").text == "Ann"
    assert json.loads(passed["data-used"])[1] > 0


def test_a_refused_tap_shows_its_sentence_in_the_strip(client):
    made, page = _page_game(client)
    form = _form(page.select_one("#clock"), "[data-clock-when=running]")  # Pause, while stopped
    answer = client.post(f"/games/{made['id']}/clock", data=form, headers=HX)
    assert answer.status_code == 422
    sentence = "The clock is not running, so there is nothing to pause."
    assert soup(answer).select_one("#clock .alert").text == sentence
    assert answer.headers["X-Muster-Refusal"] == sentence


def test_the_limit_form_takes_minutes(client):
    made, page = _page_game(client)
    form = {**_form(page.select_one("#clock"), ".clock-limit-form"), "minutes": "45"}
    strip = soup(client.post(f"/games/{made['id']}/clock", data=form, headers=HX)).select_one("#clock")
    assert strip["data-limit"] == "2700"
    assert [t.text for t in strip.select(".clock-time")] == ["45:00", "45:00"]
    bad = client.post(f"/games/{made['id']}/clock", data={**form, "id": uid(), "minutes": "0"}, headers=HX)
    assert bad.status_code == 422
    assert (
        bad.headers["X-Muster-Refusal"]
        == "minutes must be a whole number from 1 to 1440, or empty for no limit."
    )


def test_without_scripts_a_tap_goes_back_to_the_game(client):
    made, page = _page_game(client)
    answer = client.post(
        f"/games/{made['id']}/clock", data=_form(page.select_one("#clock"), '[data-clock-player="0"]')
    )
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/games/{made['id']}")
    assert soup(client.get(f"/games/{made['id']}")).select_one("#clock")["data-running"] == "0"


def test_the_strip_alone_for_a_refresh(client, app):
    made, _ = _page_game(client)
    Clock(client, made).ok(action="start")
    strip = client.get(f"/games/{made['id']}/clock", headers=HX)
    assert strip.status_code == 200 and strip.headers["Cache-Control"] == "private, no-cache"
    assert soup(strip).select_one("#clock")["data-running"] == "0"
    assert app.test_client().get("/games/nothing-here/clock").status_code == 404


def test_what_the_clock_holds_for_a_refused_offline_tap(client):
    made, _ = _page_game(client)
    Clock(client, made).ok(action="start", player=1)
    held = soup(client.get(f"/games/{made['id']}/held?action=pass&player=1"))
    assert held.select_one("#clock") is None  # not a second live strip on the page
    assert held.select_one(".clock-player.running .clock-name").text == "Bo"


def test_deleting_a_game_deletes_its_clock(app, clock):
    clock.ok(action="start")
    store = Store(app.config["DATABASE"])
    try:
        assert store.games.delete(clock.id)
        assert store.clocks.taps(clock.id) == []
        assert store.backups.export_all()["tables"]["clock_events"] == []
    finally:
        store.close()


def test_a_backup_keeps_the_clock(app, clock):
    clock.ok(action="start")
    store = Store(app.config["DATABASE"])
    try:
        rows = store.backups.export_all()["tables"]["clock_events"]
    finally:
        store.close()
    assert [(r["game_id"], r["action"]) for r in rows] == [(clock.id, "start")]


def test_the_strip_says_who_is_out_of_time(app, client):
    game, opened = opened_earlier(app, minutes=12, players=3)
    clock = Clock(client, game)
    at = lambda minutes: stamp(opened + timedelta(minutes=minutes))  # noqa: E731
    clock.ok(action="start", at=at(1))
    clock.ok(action="pass", at=at(7))  # Ann used 6 minutes of her 5
    clock.ok(action="pass", at=at(9))  # Bo used 2
    clock.ok(action="pause", at=at(10))  # Cy used 1
    clock.ok(action="limit", seconds=300)  # set afterwards, it applies to the time used before
    client.get(f"/games/{game['id']}/join/{game['edit_token']}")
    strip = soup(client.get(f"/games/{game['id']}/clock")).select_one("#clock")
    assert strip.select_one(".clock-out").text == "Out of time: Ann."
    assert [t.text for t in strip.select(".clock-time")] == ["0:00", "3:00", "4:00"]
    assert ["out" in b["class"] for b in strip.select(".clock-player")] == [True, False, False]
    assert strip.select_one("h2").text == "Clock 5:00 each"
    assert strip.select_one("[data-start-label]").text == "Start: Cy"
