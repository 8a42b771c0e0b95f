"""Inviting the other phone (issue 24 item 5): a new game opens with an invite panel (QR code,
Copy, Share) until a second phone joins; the joining phone is told it can record; a seated
game's table screen opens with each seat's code and marks a seat taken."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE
from tests.browser.helpers import picture, problems
from tests.setups import start_live

pytestmark = pytest.mark.browser


def _phone(browser: Browser, base: str) -> Page:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True, base_url=base
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    return page


def _overflows(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth > window.innerWidth")


def test_a_new_game_invites_the_other_phone_until_it_joins(browser: Browser, live_server: str) -> None:
    ann, bo = _phone(browser, live_server), _phone(browser, live_server)
    ann.goto("/games/new")
    ann.locator("#name0").fill("Ann")
    ann.locator("#name1").fill("Bo")
    ann.locator("#scenario").select_option("savage-gains")
    ann.get_by_role("button", name="Start the game").click()
    panel = ann.locator("#invite")
    expect(panel.get_by_role("heading")).to_have_text("Invite the other player")
    expect(panel.locator("img.qr")).to_be_visible()
    expect(panel.locator("img.qr")).to_have_js_property("complete", True)
    assert panel.locator("img.qr").evaluate("img => img.naturalWidth") > 0
    assert not _overflows(ann)
    picture(ann, "invite-panel")
    assert problems(ann) == []
    # Copy puts the join link on the clipboard.
    panel.get_by_role("button", name="Copy the link").click()
    expect(panel.locator("[data-invite-said]")).to_have_text(
        "Link copied: paste it in a message to the other player."
    )
    link = ann.evaluate("navigator.clipboard.readText()")
    assert "/join/" in link

    # Bo opens it: his phone is told it can record; Ann's panel closes by itself.
    bo.goto(link)
    expect(bo.locator("#welcome")).to_have_text("This phone can now record in this game.")
    picture(bo, "invite-joined")
    assert problems(bo) == []
    # Said once: it leaves when the phone records, and a reload does not say it again.
    bo.locator("#round-form label", has_text="Bo").click()
    bo.get_by_role("button", name="Start battle round 1").click()
    expect(bo.get_by_test_id("last-entry")).to_have_text("Round 1 started: Bo goes first")
    expect(bo.locator("#welcome")).to_have_count(0)
    bo.reload()
    expect(bo.get_by_test_id("last-entry")).to_be_visible()
    expect(bo.locator("#welcome")).to_have_count(0)
    expect(ann.locator("#invite")).to_have_text("The other phone has joined: it can record in this game now.")
    ann.reload()
    expect(ann.locator("#invite")).to_have_count(0)
    expect(ann.locator("summary", has_text="Score on a second phone")).to_be_visible()


def test_a_seated_game_opens_with_each_seats_code(browser: Browser, live_server: str) -> None:
    table, cy = _phone(browser, live_server), _phone(browser, live_server)
    body = {
        "pack": "tow-triumph-treachery",
        "scenario": "altar-of-the-gods",
        "points_limit": 2000,
        "players": [{"name": n} for n in ("Ann", "Bo", "Cy")],
    }
    game = start_live(table.request, live_server, body)
    table.goto(game["join_url"])
    seats = table.locator("#seats details.seat")
    expect(seats).to_have_count(3)
    for i in range(3):
        expect(seats.nth(i).locator("img.qr")).to_be_visible()  # open, no tap needed
    expect(table.locator("#invite")).to_have_count(0)  # the seats are the invitation
    # Until it starts, the clock of three players is one line on a phone (issue 24 item 8).
    assert table.locator("#clock").bounding_box()["height"] < 80
    cy.goto(game["seats"][2]["url"])
    expect(cy.locator("#welcome")).to_have_text("This phone can now record in this game as Cy.")
    table.reload()
    expect(seats.nth(2)).to_contain_text("Taken: Cy's phone has opened this seat.")
    expect(seats.nth(0).locator("img.qr")).to_be_visible()
    picture(table, "invite-seats", full_page=True)
