"""Issue 12, item 10: the service worker never keeps what the server marked no-store.

A phone opens a page the server marks ``no-store`` (as it marks every answer that carries an
edit token) and a game page (``private, no-cache``): the worker keeps the game for offline
use and no copy of the other, so offline that address shows the offline page instead.
"""

from __future__ import annotations

import pytest
from flask import make_response
from playwright.sync_api import Page, expect

from tests.browser.conftest import Served
from tests.browser.helpers import controlled, open_game, until
from tests.setups import live_game

pytestmark = pytest.mark.browser

SECRET = "a page that holds an edit token"


def test_a_no_store_page_is_never_kept(page: Page, served: Served) -> None:
    def secret() -> object:
        response = make_response(f"<!doctype html><html><body><h1>{SECRET}</h1></body></html>")
        response.headers["Cache-Control"] = "no-store"
        return response

    # A page of the same kind as the token answers, served before the first request.
    served.app.add_url_rule("/test-no-store", "test_no_store", secret)
    page.goto(served.url + "/")
    controlled(page)
    game = live_game(page.request, served.url)
    open_game(page, game)  # a game page (private, no-cache) is kept, as before
    page.goto(served.url + "/test-no-store")
    expect(page.get_by_role("heading", name=SECRET)).to_be_visible()
    page.goto(served.url + "/")
    until(
        page,
        "id => caches.open('muster-pages-1').then(c => c.match(location.origin + '/games/' + id)).then(r => !!r)",
        game["id"],
    )
    kept = page.evaluate(
        "caches.open('muster-pages-1').then(c => c.keys()).then(keys => keys.map(r => new URL(r.url).pathname))"
    )
    assert "/test-no-store" not in kept and f"/games/{game['id']}" in kept
    page.context.set_offline(True)
    page.goto(served.url + "/test-no-store")
    expect(page.get_by_role("heading", name="Muster cannot be reached")).to_be_visible()
    page.goto(served.url + f"/games/{game['id']}")
    expect(page.locator(".scorebar")).to_be_visible()
