"""A game started on the phone can go on offline at once, before the server has any entry."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import kept, start_round, until

pytestmark = pytest.mark.browser


def test_a_game_started_on_the_phone_is_kept_as_soon_as_it_shows(page: Page, live_server: str) -> None:
    page.goto(live_server + "/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.get_by_role("link", name="Start a new game").click()
    page.get_by_label("Name").first.fill("Ann")
    page.get_by_label("Name").nth(1).fill("Bo")
    page.locator("#strategy0").select_option("hold-the-line")
    page.locator("#strategy1").select_option("beast-master")
    page.locator("#scenario").select_option("savage-gains")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".scorebar")).to_contain_text("Savage Gains")
    kept(page, "round-1")
    until(page, "caches.open('muster-pages-1').then(c => c.match(location.href)).then(r => !!r)")

    # The connection drops before anything reached the server: the game reloads from the phone.
    page.context.set_offline(True)
    response = page.reload()
    assert response is not None and response.from_service_worker
    expect(page.locator(".scorebar")).to_contain_text("Savage Gains")
    start_round(page, 1, "Ann")
    expect(page.locator("#outbox")).to_contain_text("Waiting to sync (1)")
    page.reload()
    expect(page.locator("#outbox")).to_contain_text("Waiting to sync (1)")
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Ann's turn")

    page.context.set_offline(False)
    expect(page.locator("#outbox")).to_be_hidden()
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Ann's turn")
