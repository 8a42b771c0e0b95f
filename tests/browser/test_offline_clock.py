"""The clock's taps beside the game's entries (issue 25, item 5).

- Clock taps and game entries wait in separate queues: a refused tap never holds back a turn.
- A tap is made from the newest clock Muster sent, with the taps still waiting on the phone
  folded over it: after a reload a waiting tap still counts, and the next tap means what the
  player saw.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.browser.helpers import picture, sent, server_state, start_round
from tests.setups import live_game

pytestmark = pytest.mark.browser

RUNNING = re.compile(r"\brunning\b")


@pytest.fixture
def phone(browser: Browser, browser_context_args: dict) -> Iterator[Page]:
    """A phone whose page sends its outbox itself: no worker, so no Background Sync races it."""
    context = browser.new_context(**browser_context_args, service_workers="block")
    yield context.new_page()
    context.close()


def tap(page: Page, base: str, game: dict, body: dict) -> None:
    """A tap from the other phone at the table (through the API, as its page would)."""
    answer = page.request.post(
        f"{base}/api/v1/games/{game['id']}/clock",
        data={"id": str(uuid.uuid4()), **body},
        headers={"X-Edit-Token": game["edit_token"]},
    )
    assert answer.status == 201, answer.text()


def test_a_refused_clock_tap_never_holds_back_a_turn(phone: Page, live_server: str) -> None:
    page = phone
    game = live_game(page.request, live_server)
    page.goto(game["join_url"])
    page.get_by_test_id("clock-0").click()  # Ann's time runs
    expect(page.get_by_test_id("clock-0")).to_have_class(RUNNING)
    sent(page)

    # Offline: Ann passes the clock to Bo, then the battle round is started.
    page.context.set_offline(True)
    page.get_by_test_id("clock-0").click()
    expect(page.get_by_test_id("clock-1")).to_have_class(RUNNING)
    start_round(page, 1, "Ann")
    outbox = page.locator("#outbox")
    expect(outbox).to_contain_text("Waiting to sync (2)")
    expect(outbox.locator(".pending").first.locator(".entry-head")).to_have_text(
        "Pass the clock to BoWaiting"
    )

    # Meanwhile the other phone paused the clock: Muster refuses the pass, and takes the round.
    tap(page, live_server, game, {"action": "pause"})
    page.context.set_offline(False)
    refused = outbox.locator(".pending.refused")
    expect(refused).to_contain_text("Pass the clock to Bo")
    expect(refused).to_contain_text("The clock is paused, so there is nothing to pass: start it first.")
    expect(outbox.locator(".pending")).to_have_count(1)
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Ann's turn")
    state = server_state(page, live_server, game["id"])
    assert [r["round"] for r in state["rounds"]] == [1]
    picture(page, "offline-clock-refused")


def test_a_tap_after_a_reload_counts_the_tap_still_waiting(phone: Page, live_server: str) -> None:
    page = phone
    game = live_game(page.request, live_server)
    page.goto(game["join_url"])
    page.get_by_test_id("clock-0").click()  # Ann's time runs
    expect(page.get_by_test_id("clock-0")).to_have_class(RUNNING)
    sent(page)

    # Ann passes to Bo, but the tap gets no answer; the page is reloaded with it still waiting.
    failing = {"on": True}

    def network(route: Route) -> None:
        if failing["on"] and route.request.method == "POST":
            route.abort("failed")
        else:
            route.continue_()

    page.route(f"**/games/{game['id']}/clock", network)
    page.get_by_test_id("clock-0").click()
    expect(page.locator("#outbox")).to_contain_text("Pass the clock to Bo")
    page.reload()
    # The strip shows the clock as it is on the phone: Bo's time runs.
    expect(page.get_by_test_id("clock-1")).to_have_class(RUNNING)
    expect(page.get_by_test_id("clock-0")).not_to_have_class(RUNNING)

    # Bo taps his own time: it passes back to Ann (not "give Bo the clock", which Muster refuses).
    page.get_by_test_id("clock-1").click()
    expect(page.get_by_test_id("clock-0")).to_have_class(RUNNING)
    expect(page.locator("#outbox .pending").nth(1).locator(".entry-head")).to_have_text(
        "Pass the clock to AnnWaiting"
    )
    failing["on"] = False
    # The phone tries again by itself after a failed send, and may already be sending when a
    # finger reaches "Try sending now" (the button then goes with the outbox it sits in): ask the
    # page to send, which waits for a replay under way to end.
    page.evaluate("MusterOffline.flush()")
    expect(page.locator("#outbox")).to_be_hidden()
    clock = server_state(page, live_server, game["id"])["clock"]
    assert clock["taps"] == 3 and clock["running"] == 0
