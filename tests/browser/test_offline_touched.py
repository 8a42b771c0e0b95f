"""A step the player is filling in is never wiped when entries made offline reach the server."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Served
from tests.browser.helpers import (
    HeldAnswers,
    count_merges,
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
    # Whatever the step shows at any moment from now on is noted.
    page.evaluate(
        """() => {
          window.stepsSeen = [];
          new MutationObserver(() => {
            const h = document.querySelector("#turn-form h2, #round-form h2");
            const text = h ? h.textContent : "";
            if (window.stepsSeen.at(-1) !== text) window.stepsSeen.push(text);
          }).observe(document.body, {subtree: true, childList: true, characterData: true});
        }"""
    )
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
    assert all("Ann's turn" not in text for text in page.evaluate("window.stepsSeen"))
    expect(heading).to_have_text("Battle round 1: Bo's turn")
    fill_in_bo(page)
    bo_recorded_with_the_tactic(page, live_server, game)
