"""A replay the server never answers gives up like htmx's own requests, says so, and tries again."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import Served
from tests.browser.helpers import record_turn, sent, server_events, start_round
from tests.setups import live_game

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(browser: Browser, browser_context_args: dict) -> Iterator[Page]:
    """A phone whose page replays the outbox itself: no worker, so no Background Sync races it."""
    context = browser.new_context(**browser_context_args, service_workers="block")
    yield context.new_page()
    context.close()


def test_a_hung_replay_gives_up_says_so_and_is_sent_again(phone: Page, served: Served) -> None:
    page = phone
    game = live_game(page.request, served.url)
    page.goto(game["join_url"])
    start_round(page, 1, "Ann")
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Ann's turn")
    sent(page)
    # htmx's timeout, which replays follow, made short for the test (15 s in base.html).
    page.evaluate("htmx.config.defaultTimeout = 2000")

    page.context.set_offline(True)
    record_turn(page, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
    expect(page.locator("#outbox")).to_contain_text("Waiting to sync (1)")

    # The server hangs on the first entry it is sent until the test lets it go (well past the
    # timeout; 20 s at most, should the test fail first).
    plain = served.app.wsgi_app
    hung = {"left": 1}
    let_go = threading.Event()
    over = threading.Event()  # the hung request has been answered

    def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
        if (
            environ["REQUEST_METHOD"] == "POST"
            and environ.get("PATH_INFO", "").endswith("/events")
            and hung["left"]
        ):
            hung["left"] -= 1
            let_go.wait(20)
            try:
                return plain(environ, start_response)
            finally:
                over.set()
        return plain(environ, start_response)

    served.app.wsgi_app = wsgi  # type: ignore[method-assign]
    try:
        page.context.set_offline(False)
        expect(page.locator(".note-sending")).to_have_text("Sending what waits on this phone to Muster…")
        expect(page.locator(".note-sync")).to_have_text(
            "Muster did not answer within 2 s. What you recorded stays on this phone and is sent again.",
            timeout=6000,
        )
        expect(page.locator(".note-sending")).to_be_hidden()
        expect(page.locator("#outbox")).to_contain_text("Waiting to sync (1)")
        # Try sending now works at once: the hung request no longer holds the outbox.
        page.get_by_role("button", name="Try sending now").click()
        expect(page.locator("#outbox")).to_be_hidden(timeout=4000)
        expect(page.get_by_test_id("vp-0")).to_have_text("3")
    finally:
        let_go.set()
        served.app.wsgi_app = plain  # type: ignore[method-assign]
    assert over.wait(10)  # the hung request ends on the server: it changes nothing
    turns = [e for e in server_events(page, served.url, game["id"]) if e["type"] == "turn"]
    assert [(e["round"], e["player"]) for e in turns] == [(1, 0)]
