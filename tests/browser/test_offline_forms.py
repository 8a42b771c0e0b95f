"""What a player types or records on a game screen stays theirs (issue 25, items 3, 8 and 9).

- Every form on a game screen is kept while touched when the page follows another phone:
  Triumph & Treachery's deal (whom, CP, the promise) and the ploy being bought, its details open.
- A ploy played offline leaves the hand at once; the waiting entry says "Play Caltrops", and
  refused, it still shows what was entered.
- A siege tactic picked offline leaves the pick form: the step says the pick waits on the phone.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE
from tests.browser.helpers import picture
from tests.setups import start_live

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bo", "Cy"]


def _phone(browser: Browser, base: str) -> Page:
    """A phone with no service worker: its page sends what waits itself, in the test's time."""
    context = browser.new_context(
        viewport=PHONE,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        base_url=base,
        service_workers="block",
    )
    return context.new_page()


def _treachery(page: Page, base: str) -> dict[str, Any]:
    """A three-player Triumph & Treachery game whose first battle round has begun."""
    body = {
        "pack": "tow-triumph-treachery",
        "scenario": "altar-of-the-gods",
        "points_limit": 2000,
        "players": [{"name": n} for n in NAMES],
    }
    game = start_live(page.request, base, body)
    _post(page, base, game, {"type": "battle_round", "round": 1}, {"X-Edit-Token": game["edit_token"]})
    return game


def _post(page: Page, base: str, game: dict, event: dict, headers: dict[str, str]) -> dict:
    event = {"id": str(uuid.uuid4()), **event}
    answer = page.request.post(f"{base}/api/v1/games/{game['id']}/events", data=event, headers=headers)
    assert answer.status == 201, answer.text()
    return event


def test_forms_being_filled_in_stay_while_the_screen_follows_the_table(
    browser: Browser, live_server: str
) -> None:
    table = _phone(browser, live_server)
    game = _treachery(table, live_server)
    table.goto(game["join_url"])
    ann = _phone(browser, live_server)
    ann.goto(game["seats"][0]["url"])
    expect(ann.locator("#hand h2")).to_contain_text("Ann's ploys")

    # On the table screen a deal is being written; on Ann's phone, the ploy she means to buy.
    table.locator("#deal summary").click()
    table.locator("#deal-from").select_option(label="Ann")
    table.locator("#deal-to").select_option(label="Bo")
    table.locator("#deal-cp").fill("5")
    table.locator("#deal-note").fill("Bo leaves my flank alone")
    ann.locator("#buy-ploy").select_option("caltrops")

    # Meanwhile Cy's phone records a deal of its own (an entry that leaves deals and buying
    # open, as the rules do before the round's roll-off): both screens follow it by themselves.
    _post(
        table,
        live_server,
        game,
        {"type": "deal", "round": 1, "from": 2, "to": 1, "cp": 2},
        {"X-Seat-Token": game["seats"][2]["token"]},
    )
    for page in (table, ann):
        expect(page.locator("#game")).to_contain_text("Cy gives Bo 2 CP")

    # Nothing the players had typed or picked was wiped, and the deal is still open.
    expect(table.locator("#deal")).to_have_attribute("open", "")
    expect(table.locator("#deal-from")).to_have_value("0")
    expect(table.locator("#deal-to")).to_have_value("1")
    expect(table.locator("#deal-cp")).to_have_value("5")
    expect(table.locator("#deal-note")).to_have_value("Bo leaves my flank alone")
    expect(ann.locator("#buy-ploy")).to_have_value("caltrops")
    table.locator("#deal").scroll_into_view_if_needed()
    picture(table, "offline-forms-deal-kept")

    # Each is recorded as it was left.
    table.get_by_role("button", name="Record the deal").click()
    expect(table.locator(".history")).to_contain_text("Deal: Ann gives Bo 5 CP")
    ann.get_by_role("button", name="Buy", exact=True).click()
    expect(ann.locator("#hand li.ploy")).to_contain_text("Caltrops")
    events = table.request.get(f"{live_server}/api/v1/games/{game['id']}/events").json()
    deal = next(e for e in events if e["type"] == "deal" and e["from"] == 0)
    assert (deal["from"], deal["to"], deal["cp"], deal["note"]) == (0, 1, 5, "Bo leaves my flank alone")
    for page in (table, ann):
        page.context.close()


def test_a_ploy_played_offline_leaves_the_hand_and_says_what_it_is(
    browser: Browser, live_server: str
) -> None:
    cy = _phone(browser, live_server)
    game = _treachery(cy, live_server)
    seat = {"X-Seat-Token": game["seats"][2]["token"]}
    bought = _post(cy, live_server, game, {"type": "buy", "round": 1, "player": 2, "ploy": "caltrops"}, seat)
    cy.goto(game["seats"][2]["url"])
    caltrops = cy.locator("#hand li.ploy", has_text="Caltrops")
    expect(caltrops.get_by_role("button", name="Play it")).to_be_visible()

    # Offline, Cy plays it: it leaves the hand at once, and what waits says what it is.
    cy.context.set_offline(True)
    caltrops.get_by_role("button", name="Play it").click()
    cy.get_by_role("button", name="Yes, play it").click()
    expect(caltrops).to_be_hidden()
    waiting = cy.locator("#outbox .pending").first
    expect(waiting.locator(".entry-head")).to_have_text("Play CaltropsWaiting")
    picture(cy, "offline-ploy-played")

    # Before it arrives, Cy's buy is taken back on another of Cy's phones: Muster refuses the
    # play, and the refused entry shows what was entered.
    _post(cy, live_server, game, {"type": "undo", "event": bought["id"]}, seat)
    cy.context.set_offline(False)
    refused = cy.locator("#outbox .pending.refused")
    expect(refused.locator(".entry-head")).to_contain_text("Play Caltrops")
    expect(refused.locator(".version.mine")).to_contain_text("Play Caltrops")
    expect(cy.locator("#hand")).to_contain_text("No ploys in hand")
    picture(cy, "offline-ploy-refused")
    cy.context.close()


def test_a_siege_tactic_picked_offline_says_it_waits(browser: Browser, live_server: str) -> None:
    body = {
        "pack": "aos-conquest-unbound",
        "scenario": "the-relief-force",
        "points_limit": 2000,
        "players": [{"name": "Ann", "side": "attacker"}, {"name": "Bo", "side": "defender"}],
    }
    ann = _phone(browser, live_server)
    game = start_live(ann.request, live_server, body)
    ann.goto(game["seats"][0]["url"])
    ann.context.set_offline(True)
    ann.locator("#tactic-form label", has_text="Mine").click()
    ann.get_by_role("button", name="Pick in secret").click()

    # The pick form gives way to what is true: the pick waits on this phone.
    expect(ann.locator("#tactic-form")).to_have_count(0)
    expect(ann.locator("#step")).to_have_text(
        "Your siege tactic waits on this phone: it is sent when Muster can be reached. "
        "The next step needs Muster: it shows when the connection is back."
    )
    expect(ann.locator("#outbox .pending").first).to_contain_text("Your siege tactic")
    picture(ann, "offline-siege-tactic-waiting")

    ann.context.set_offline(False)
    expect(ann.locator("#outbox")).to_be_hidden()
    expect(ann.get_by_test_id("tactic-attacker")).to_contain_text("3: Mine")
    ann.context.close()
