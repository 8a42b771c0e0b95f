"""A step the player is filling in is never wiped when entries made offline reach the server."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Served
from tests.browser.helpers import (
    HeldAnswers,
    count_merges,
    game_page_asked,
    merged_after,
    merges,
    open_game,
    page_refresh_asked,
    picture,
    record_turn,
    sent,
    server_events,
    server_state,
    start_round,
    steps_seen,
    until,
    watch_steps,
)
from tests.setups import live_game

pytestmark = pytest.mark.browser


@pytest.fixture
def late_refresh(served: Served) -> Iterator[HeldAnswers]:
    """The page's own asks for the game answer late, as on a busy club Wi-Fi: held until the test
    lets them go (entries, the worker's requests and the version checks are not held)."""
    held = HeldAnswers(served.app, page_refresh_asked)
    yield held
    held.restore()


def ann_offline_then_bo_started(page: Page, base: str) -> dict:
    """Round 1 begun online, Ann's turn kept offline, Bo's turn being filled in."""
    game = live_game(page.request, base)
    open_game(page, game)
    start_round(page, 1, "Ann")
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Ann's turn")
    sent(page)
    page.context.set_offline(True)
    record_turn(page, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
    expect(page.locator("#outbox")).to_contain_text("Waiting to sync (1)")
    return game


def fill_in_bo(page: Page) -> None:
    form = page.locator("#turn-form")
    expect(form.get_by_role("heading")).to_have_text("Battle round 1: Bo's turn")
    form.locator("#tactic").select_option("conquer")
    form.get_by_text("Battle tactic completed").click()


def bo_still_there(page: Page) -> None:
    form = page.locator("#turn-form")
    expect(form.get_by_role("heading")).to_have_text("Battle round 1: Bo's turn")
    expect(form.locator("#tactic")).to_have_value("conquer")
    expect(form.get_by_label("Battle tactic completed")).to_be_checked()


def bo_recorded_with_the_tactic(page: Page, base: str, game: dict) -> None:
    page.locator("#turn-form").get_by_role("button", name="Record Bo's turn").click()
    expect(page.locator("#round-form h2")).to_have_text("Battle round 2 begins")
    turns = [e for e in server_events(page, base, game["id"]) if e["type"] == "turn"]
    assert [(e["player"], e.get("tactic"), e.get("tactic_completed")) for e in turns] == [
        (0, "conquer", True),
        (1, "conquer", True),
    ]


def test_the_step_being_filled_in_stays_when_the_connection_returns(
    page: Page, live_server: str, shot
) -> None:
    game = ann_offline_then_bo_started(page, live_server)
    fill_in_bo(page)

    page.context.set_offline(False)
    # Ann's turn is sent; the totals are the server's, and Bo's turn is still as the player left it.
    expect(page.locator(".note-sync")).to_contain_text("1 entry sent to Muster.")
    expect(page.get_by_test_id("vp-0")).to_have_text("3")
    expect(page.locator("#outbox")).to_be_hidden()
    bo_still_there(page)
    shot("offline-touched-step-kept")
    bo_recorded_with_the_tactic(page, live_server, game)


def test_a_late_refresh_never_wipes_the_step_being_filled_in(
    page: Page, live_server: str, late_refresh: HeldAnswers
) -> None:
    game = ann_offline_then_bo_started(page, live_server)
    count_merges(page)
    late_refresh.hold()
    page.context.set_offline(False)
    # The player goes on the moment the phone says the entry went through.
    expect(page.locator(".note-sync")).to_contain_text("1 entry sent to Muster.")
    fill_in_bo(page)
    # Muster's game reaches the page: the answer to the page's replay at once, or, when the
    # worker replayed it first, the page's own ask, held until now. Either is merged around Bo's
    # touched step.
    late_refresh.release()
    late_refresh.wait_answered()
    merged_after(page, 0)
    expect(page.get_by_test_id("vp-0")).to_have_text("3")
    bo_still_there(page)

    # The worker's Background Sync replays too, and says so to the page, which then asks for the
    # game: that answer comes late as well and updates the totals around the touched step.
    late_refresh.hold()
    asked = late_refresh.asked
    page.evaluate(
        """id => navigator.serviceWorker.dispatchEvent(
             new MessageEvent("message", {data: {type: "outbox", games: [id], sent: 1, refused: 0}}))""",
        game["id"],
    )
    late_refresh.wait_asked(asked + 1)
    before = merges(page)
    late_refresh.release()
    merged_after(page, before)
    expect(page.get_by_test_id("vp-0")).to_have_text("3")
    bo_still_there(page)
    bo_recorded_with_the_tactic(page, live_server, game)


def test_a_refresh_answered_after_the_players_own_entry_leaves_the_newer_game(
    page: Page, live_server: str, late_refresh: HeldAnswers
) -> None:
    game = ann_offline_then_bo_started(page, live_server)
    page.context.set_offline(False)
    expect(page.get_by_test_id("vp-0")).to_have_text("3")
    count_merges(page)
    # The worker says it sent entries: the page asks for the game, whose answer is held...
    late_refresh.hold()
    page.evaluate(
        """id => navigator.serviceWorker.dispatchEvent(
             new MessageEvent("message", {data: {type: "outbox", games: [id], sent: 1, refused: 0}}))""",
        game["id"],
    )
    late_refresh.wait_asked(1)
    before = merges(page)
    # ...while the player records Bo's turn, whose answer shows at once.
    record_turn(page, 1, "Bo")
    expect(page.locator("#round-form h2")).to_have_text("Battle round 2 begins")
    # The late answer, from before Bo's turn, is dealt with (and said so), and changes nothing.
    late_refresh.release()
    merged_after(page, before)
    expect(page.locator("#round-form h2")).to_have_text("Battle round 2 begins")
    assert [
        (e["round"], e["player"]) for e in server_events(page, live_server, game["id"]) if e["type"] == "turn"
    ] == [
        (1, 0),
        (1, 1),
    ]


def test_a_touched_step_the_other_phone_recorded_keeps_the_values_in_sight(
    page: Page, live_server: str, browser: Any, browser_context_args: dict, shot
) -> None:
    game = ann_offline_then_bo_started(page, live_server)
    fill_in_bo(page)

    # Meanwhile phone B records Ann's and Bo's turns.
    other = browser.new_context(**browser_context_args)
    phone_b = other.new_page()
    phone_b.goto(game["join_url"])
    record_turn(phone_b, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
    record_turn(phone_b, 1, "Bo")
    expect(phone_b.locator("#round-form h2")).to_have_text("Battle round 2 begins")
    other.close()

    page.context.set_offline(False)
    kept = page.locator("#step-kept")
    expect(kept).to_contain_text("Muster already holds Battle round 1: Bo's turn (recorded on another phone)")
    expect(kept).to_contain_text("Battle tactic: Conquer")
    expect(kept).to_contain_text("Battle tactic completed")
    expect(page.locator("#round-form h2")).to_have_text("Battle round 2 begins")
    kept.scroll_into_view_if_needed()
    picture(page, "offline-touched-step-taken")
    assert [(t["round"], t["player"]) for t in server_state(page, live_server, game["id"])["turns"]] == [
        (1, 0),
        (1, 1),
    ]


def test_an_entry_the_worker_sent_is_never_asked_for_again_while_the_game_reloads(
    page: Page, live_server: str, late_refresh: HeldAnswers
) -> None:
    game = ann_offline_then_bo_started(page, live_server)
    # The connection comes back, but this page's own replay fails: the worker sends it instead.
    page.route(f"**/games/{game['id']}/events", lambda route: route.abort("failed"))
    page.context.set_offline(False)
    expect(page.locator("#outbox")).to_contain_text("Waiting to sync (1)")
    page.unroute(f"**/games/{game['id']}/events")
    count_merges(page)
    heading = page.locator("#turn-form").get_by_role("heading")
    expect(heading).to_have_text("Battle round 1: Bo's turn")
    watch_steps(page)
    late_refresh.hold()
    page.evaluate(
        """id => MusterOutbox.flush({csrf: document.querySelector('meta[name=csrf-token]').content, timeout: 15000})
             .then(() => navigator.serviceWorker.dispatchEvent(
               new MessageEvent("message", {data: {type: "outbox", games: [id], sent: 1, refused: 0}})))""",
        game["id"],
    )
    # While the game page is on its way, the screen drawn from what the phone holds (the entry
    # gone from the outbox, the server's game not here yet) shows Bo's turn, never Ann's again.
    late_refresh.wait_asked(1)
    page.evaluate("MusterOffline.render(false)")
    expect(heading).to_have_text("Battle round 1: Bo's turn")
    before = merges(page)
    late_refresh.release()
    merged_after(page, before)
    expect(page.get_by_test_id("vp-0")).to_have_text("3")
    assert all("Ann's turn" not in text for text in steps_seen(page))
    expect(heading).to_have_text("Battle round 1: Bo's turn")
    fill_in_bo(page)
    bo_recorded_with_the_tactic(page, live_server, game)


def worker_keeps_page(environ: dict[str, Any]) -> bool:
    """The worker's ask for a game's page to keep (no X-Muster-Refresh): the news it sends the
    pages waits for it."""
    return game_page_asked(environ) and not environ.get("HTTP_X_MUSTER_REFRESH")


def test_an_entry_sent_behind_the_pages_back_is_not_asked_for_again_when_an_older_game_arrives(
    page: Page, live_server: str, served: Served
) -> None:
    game = live_game(page.request, live_server)
    open_game(page, game)
    start_round(page, 1, "Ann")
    record_turn(page, 1, "Ann")
    record_turn(page, 1, "Bo")
    expect(page.locator("#round-form h2")).to_have_text("Battle round 2 begins")
    sent(page)
    # Bo starts round 2 on this phone, but no send reaches Muster (the page's nor the worker's):
    # it waits on the phone.
    events = f"**/games/{game['id']}/events"
    page.context.route(events, lambda route: route.abort("failed"))
    start_round(page, 2, "Bo")
    heading = page.locator("#turn-form").get_by_role("heading")
    expect(heading).to_have_text("Battle round 2: Bo's turn")
    expect(page.locator("#outbox")).to_contain_text("Waiting to sync (1)")
    # The other phone starts round 2 and takes it back: Muster's game grows, its step is the same.
    api = f"{live_server}/api/v1/games/{game['id']}/events"
    token = {"X-Edit-Token": game["edit_token"]}
    started = {"id": str(uuid.uuid4()), "type": "battle_round", "round": 2, "first": 0}
    assert page.request.post(api, headers=token, data=started).ok
    assert page.request.post(
        api, headers=token, data={"id": str(uuid.uuid4()), "type": "undo", "event": started["id"]}
    ).ok
    watch_steps(page)
    count_merges(page)
    stale = HeldAnswers(served.app, page_refresh_asked, made_first=True)
    keeping = HeldAnswers(served.app, worker_keeps_page)
    try:
        stale.hold()
        keeping.hold()
        # The page asks for the game (news of the other phone): Muster's answer is made now,
        # without Bo's round, and is slow on its way.
        page.evaluate(
            """id => navigator.serviceWorker.dispatchEvent(
                 new MessageEvent("message", {data: {type: "outbox", games: [id], sent: 0, refused: 0}}))""",
            game["id"],
        )
        stale.wait_asked(1)
        # Meanwhile the worker sends Bo's round (the page's own sends still fail); its news to the
        # page waits for the page it keeps.
        page.route(events, lambda route: route.abort("failed"))
        page.context.unroute(events)
        page.evaluate("navigator.serviceWorker.controller.postMessage({type: 'flush'})")
        until(page, "MusterOutbox.list().then(all => all.length === 0)")
        assert [e["type"] for e in server_events(page, live_server, game["id"])][-1] == "battle_round"
        # The older game arrives: the phone still counts Bo's round, which left it for Muster.
        stale.release()
        merged_after(page, 0)
        expect(heading).to_have_text("Battle round 2: Bo's turn")
        assert "Battle round 2 begins" not in steps_seen(page)
    finally:
        keeping.restore()
        stale.restore()
    page.unroute(events)
    record_turn(page, 2, "Bo")
    expect(page.locator("#turn-form").get_by_role("heading")).to_have_text("Battle round 2: Ann's turn")
    rounds = [e for e in server_events(page, live_server, game["id"]) if e["type"] == "battle_round"]
    assert [(e["round"], e["first"]) for e in rounds][-1] == (2, 1)
