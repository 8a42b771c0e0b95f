"""What the service worker does for entries with no page open, and what a phone keeps
(issue 25, items 2, 4, 11 and 12).

- An entry whose page was closed before Muster answered is sent by the worker.
- After Background Sync sent entries with no page open, the game's kept copy is Muster's: the
  game reopened offline shows the step after them and the server's totals.
- A page carrying tokens (the table screen's seats, the join link) is kept without them.
- The phone asks to keep its storage for good, and says so when the outbox has gone (its storage
  cleared) while entries waited in it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import Served
from tests.browser.helpers import (
    controlled,
    kept,
    open_game,
    picture,
    record_turn,
    sent,
    server_events,
    start_round,
    until,
)
from tests.setups import live_game, start_live

pytestmark = pytest.mark.browser


@pytest.fixture
def requests_seen(served: Served) -> Iterator[list[tuple[str, str]]]:
    """Every request Muster receives, as (method, path), the worker's own included."""
    seen: list[tuple[str, str]] = []
    plain = served.app.wsgi_app

    def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
        seen.append((environ["REQUEST_METHOD"], environ.get("PATH_INFO", "")))
        return plain(environ, start_response)

    served.app.wsgi_app = wsgi  # type: ignore[method-assign]
    yield seen
    served.app.wsgi_app = plain  # type: ignore[method-assign]


def wait_for(check: Any, what: str, timeout: float = 20.0) -> None:
    """Wait for something Muster's side sees (a request the worker makes with no page open)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"still not {what} after {timeout:g} s"
        time.sleep(0.05)


def ann_kept_offline(page: Page, base: str) -> dict:
    """Round 1 begun online on a phone with its worker, then Ann's turn kept offline."""
    game = live_game(page.request, base)
    open_game(page, game)
    start_round(page, 1, "Ann")
    kept(page, "turn-1-0")
    sent(page)
    page.context.set_offline(True)
    record_turn(page, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
    expect(page.locator("#outbox")).to_contain_text("Waiting to sync (1)")
    return game


def background_sync(context: BrowserContext, base: str) -> None:
    """Fire the worker's Background Sync, as Chromium does when the connection is back."""
    blank = next(p for p in context.pages if p.url == "about:blank")
    cdp = context.new_cdp_session(blank)
    registrations: list[dict] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"])
    )
    cdp.send("ServiceWorker.enable")

    def listed() -> bool:
        blank.evaluate("0")  # a round trip to the browser lets its events in
        return bool(registrations)

    wait_for(listed, "listed")
    scope = next(r for r in registrations if r["scopeURL"] == base + "/" and not r["isDeleted"])
    cdp.send(
        "ServiceWorker.dispatchSyncEvent",
        {
            "origin": base,
            "registrationId": scope["registrationId"],
            "tag": "muster-outbox",
            "lastChance": False,
        },
    )


def test_the_worker_brings_the_kept_game_up_to_date_after_its_replay(page: Page, served: Served) -> None:
    game = ann_kept_offline(page, served.url)
    # The phone is put away: no page of Muster is open when the connection comes back.
    context = page.context
    context.new_page()  # about:blank keeps the browser open
    page.close()
    context.set_offline(False)
    background_sync(context, served.url)
    wait_for(
        lambda: len([e for e in server_events_of(context, served, game) if e["type"] == "turn"]) == 1, "sent"
    )

    # The kept copy is Muster's game after the replay (read from a page that shows no game).
    reader = context.new_page()
    reader.goto(served.url + "/offline")
    until(
        reader,
        "url => caches.open('muster-pages-1').then(c => c.match(url)).then(r => r.text()).then(t => t.includes('data-version=\"2\"'))",
        game["url"],
        timeout=20,
    )
    reader.close()

    # Reopened offline, the game offers the step after Ann's turn and shows the server's totals.
    context.set_offline(True)
    again = context.new_page()
    again.goto(game["url"])
    expect(again.locator("#turn-form h2")).to_have_text("Battle round 1: Bo's turn")
    expect(again.get_by_test_id("vp-0")).to_have_text("3")
    expect(again.locator("#outbox")).to_be_hidden()
    picture(again, "offline-reopened-after-sync")


def server_events_of(context: BrowserContext, served: Served, game: dict) -> list[dict]:
    return context.request.get(f"{served.url}/api/v1/games/{game['id']}/events").json()


def test_an_entry_whose_page_closed_before_the_answer_is_sent_by_the_worker(
    page: Page, served: Served
) -> None:
    game = live_game(page.request, served.url)
    open_game(page, game)
    start_round(page, 1, "Ann")
    kept(page, "turn-1-0")
    sent(page)

    # The club's Wi-Fi loses the next entry on its way: Muster sees nothing of it for a while,
    # then the request is lost (a 503 from the front server, to a tab long closed).
    plain = served.app.wsgi_app
    lost = threading.Event()
    tab_closed = threading.Event()

    def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
        if (
            environ["REQUEST_METHOD"] == "POST"
            and environ.get("PATH_INFO", "").endswith("/events")
            and not lost.is_set()
        ):
            lost.set()
            tab_closed.wait(20)  # the answer comes only once nobody is there to read it
            start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
            return [b"lost on the way"]
        return plain(environ, start_response)

    served.app.wsgi_app = wsgi  # type: ignore[method-assign]
    try:
        with page.expect_request(lambda r: r.url.endswith("/events") and r.method == "POST"):
            record_turn(page, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
        # The player puts the phone away: the tab is closed before any answer.
        context = page.context
        context.new_page()  # about:blank keeps the browser open
        page.close()
        tab_closed.set()

        # The worker sends it; Muster holds it once.
        def turns() -> list[dict]:
            return [e for e in server_events_of(context, served, game) if e["type"] == "turn"]

        wait_for(lambda: len(turns()) == 1, "sent")
        assert lost.is_set()
        assert [(e["round"], e["player"], e.get("tactic")) for e in turns()] == [(1, 0, "conquer")]
    finally:
        tab_closed.set()
        served.app.wsgi_app = plain  # type: ignore[method-assign]


def test_the_table_screen_is_kept_without_its_seat_links(page: Page, live_server: str) -> None:
    body = {
        "pack": "tow-triumph-treachery",
        "scenario": "altar-of-the-gods",
        "points_limit": 2000,
        "players": [{"name": n} for n in ("Ann", "Bo", "Cy")],
    }
    game = start_live(page.request, live_server, body)
    tokens = [game["edit_token"], *(s["token"] for s in game["seats"])]
    page.goto(game["join_url"])
    expect(page.locator("#seats details.seat")).to_have_count(3)  # on screen, as before
    html = page.content()
    assert all(s["token"] in html for s in game["seats"])  # the join link is fetched when opened
    # While it shows a seat's link, the table screen is no-store (issue 27): not kept at all.
    shown = page.request.get(page.url)
    assert "no-store" in shown.headers["cache-control"] and game["seats"][0]["token"] in shown.text()

    # Each player opens their own seat on their phone; the table then shows each seat taken,
    # with no link, and its page is kept: still without anything the server marked not kept.
    assert page.context.browser is not None
    for seat in game["seats"]:
        phone = page.context.browser.new_context(service_workers="block")
        phone.new_page().goto(seat["url"])
        phone.close()
    page.reload()
    expect(page.locator("#seats details.seat", has_text="Taken")).to_have_count(3)
    controlled(page)

    def kept_copy() -> str:
        return page.evaluate(
            "caches.open('muster-pages-1').then(c => c.match(location.href)).then(r => r.text())"
        )

    copy = kept_copy()
    assert 'id="game"' in copy and not [t for t in tokens if t in copy]
    # An entry later, the server's new game goes into the kept copy: still without them.
    page.get_by_role("button", name="Start battle round 1").click()
    expect(page.locator(".history")).to_contain_text("Battle round 1 begins")
    until(
        page,
        "caches.open('muster-pages-1').then(c => c.match(location.href)).then(r => r.text()).then(t => t.includes('data-version=\"1\"'))",
    )
    copy = kept_copy()
    assert "Battle round 1 begins" in copy and not [t for t in tokens if t in copy]

    # Offline, the table screen opens from what the phone kept, without the seats.
    page.context.set_offline(True)
    page.reload()
    expect(page.locator(".history")).to_contain_text("Battle round 1 begins")
    expect(page.locator("#seats")).to_have_count(0)
    assert not [t for t in tokens if t in page.content()]


# What the browser is asked, seen as the browser sees it: Firefox shows the player a prompt for
# it, Chromium decides by itself (an installed app gets it).
ASKED = """
window.__asked = [];
const persist = navigator.storage.persist.bind(navigator.storage);
navigator.storage.persist = () => { window.__asked.push(location.pathname); return persist(); };
"""


def test_the_phone_asks_to_keep_its_storage_and_says_when_it_was_cleared(
    page: Page, live_server: str
) -> None:
    game = live_game(page.request, live_server)
    page.add_init_script(ASKED)
    page.goto(game["join_url"])
    assert page.evaluate("window.__asked") == []

    # The first entry kept on the phone asks the browser to keep its storage for good.
    start_round(page, 1, "Ann")
    sent(page)
    until(page, "window.__asked.length === 1")

    # Offline, Ann's turn waits; then the phone's storage is cleared (the player, or a browser
    # short of room): the page says what is gone, once.
    page.context.set_offline(True)
    record_turn(page, 1, "Ann")
    expect(page.locator("#outbox")).to_contain_text("Waiting to sync (1)")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Storage.clearDataForOrigin", {"origin": live_server, "storageTypes": "indexeddb"})
    cdp.detach()
    page.context.set_offline(False)
    gone = page.locator(".note-gone")
    expect(gone).to_have_text(
        "1 entry kept on this phone to send to Muster is gone: the phone's storage was cleared before "
        "Muster had it. Check the game and record again what it does not show."
    )
    page.evaluate("window.scrollTo(0, 0)")
    picture(page, "offline-storage-cleared")
    assert [e for e in server_events(page, live_server, game["id"]) if e["type"] == "turn"] == []
    page.reload()
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Ann's turn")
    expect(gone).to_have_count(0)

    # The same when no page is open as it goes: the game opened later says so.
    page.context.set_offline(True)
    record_turn(page, 1, "Ann")
    expect(page.locator("#outbox")).to_contain_text("Waiting to sync (1)")
    page.goto("about:blank")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Storage.clearDataForOrigin", {"origin": live_server, "storageTypes": "indexeddb"})
    cdp.detach()
    page.context.set_offline(False)
    page.goto(game["url"])
    expect(gone).to_contain_text("1 entry kept on this phone to send to Muster is gone")


def test_the_worker_fetches_the_app_shell_without_the_phones_cookies(page: Page, served: Served) -> None:
    # The shell (the offline page, the home page, the catalogues) is the same for everyone. Sent
    # with the phone's cookies, a precache answer that came back after a log-in put the session
    # from before it back, and the organiser's next form was refused as expired.
    cookies: dict[str, bool] = {}
    plain = served.app.wsgi_app

    def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
        cookies.setdefault(environ.get("PATH_INFO", ""), "HTTP_COOKIE" in environ)
        return plain(environ, start_response)

    served.app.wsgi_app = wsgi  # type: ignore[method-assign]
    try:
        page.goto(served.url + "/")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        assert page.context.cookies(), "the home page gave the phone its session"
        wait_for(
            lambda: "/offline" in cookies and any(p.startswith("/catalogues/") for p in cookies), "precached"
        )
        shell = {p: c for p, c in cookies.items() if p == "/offline" or p.startswith("/catalogues/")}
        assert shell and not any(shell.values()), shell
    finally:
        served.app.wsgi_app = plain  # type: ignore[method-assign]
