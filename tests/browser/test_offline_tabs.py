"""Two tabs of one game on one phone see each other's waiting entries (issue 25, item 7)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.helpers import picture, record_turn, sent, server_state, start_round
from tests.setups import live_game

pytestmark = pytest.mark.browser


def test_two_tabs_of_one_game_share_what_waits(
    browser: Browser, browser_context_args: dict, live_server: str
) -> None:
    # One phone (one browser context, so one outbox), no worker: the tabs send what waits.
    phone = browser.new_context(**browser_context_args, service_workers="block")
    try:
        first, second = phone.new_page(), phone.new_page()
        game = live_game(first.request, live_server)
        first.goto(game["join_url"])
        second.goto(game["url"])
        start_round(first, 1, "Ann")
        sent(first)
        expect(second.locator("#turn-form h2")).to_have_text("Battle round 1: Ann's turn")  # it follows

        # Offline, Ann's turn is recorded in the first tab: the second shows it waiting at once,
        # and moves on to Bo's turn.
        phone.set_offline(True)
        record_turn(first, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
        expect(second.locator("#outbox")).to_contain_text("Waiting to sync (1)")
        expect(second.locator("#outbox")).to_contain_text("Battle round 1: Ann's turn")
        expect(second.locator("#turn-form h2")).to_have_text("Battle round 1: Bo's turn")
        picture(second, "offline-second-tab")

        # Bo's turn in the second tab: the first one shows both, and the next step.
        record_turn(second, 1, "Bo")
        expect(first.locator("#outbox")).to_contain_text("Waiting to sync (2)")
        expect(first.locator("#round-form h2")).to_have_text("Battle round 2 begins")

        # Back online: each is sent once, and both tabs show Muster's totals.
        phone.set_offline(False)
        for tab in (first, second):
            expect(tab.locator("#outbox")).to_be_hidden()
            expect(tab.get_by_test_id("vp-0")).to_have_text("3")
            expect(tab.locator("#round-form h2")).to_have_text("Battle round 2 begins")
        turns = server_state(first, live_server, game["id"])["turns"]
        assert [(t["round"], t["player"]) for t in turns] == [(1, 0), (1, 1)]
    finally:
        phone.close()
