"""Two phones agree a First Blood terrain set piece by piece; one reopens a piece.

Each phone joins by the link and is its own phone (its own browser context and cookie): the
first agrees for Ann, the second for Bo, and neither can agree for the other.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE
from tests.setups import first_blood, start_live

pytestmark = pytest.mark.browser


def phone(browser: Browser) -> Page:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    return context.new_page()


def sit(page: Page, name: str) -> None:
    page.locator(".seat label").filter(has=page.get_by_text(name, exact=True)).click()
    page.get_by_role("button", name="Use this phone for that").click()
    # The seat's answer replaces the terrain screen: a tap before it lands hits the old one.
    expect(page.get_by_test_id("seat")).to_contain_text(f"This phone agrees for {name}.")


def test_two_phones_agree_and_one_reopens(browser: Browser, live_server: str, shot) -> None:
    ann, bo = phone(browser), phone(browser)
    made = start_live(ann.request, live_server, first_blood("outflank"))
    terrain = f"{live_server}/games/{made['id']}/terrain"
    for page in (ann, bo):
        page.goto(made["join_url"])
        page.goto(terrain)

    sit(ann, "Ann")
    ann.get_by_role("button", name="+ Forest").click()
    expect(ann.locator(".entry-name")).to_have_text(["Forest"])
    ann.get_by_role("button", name="+ Hill").click()
    expect(ann.locator(".entry-name")).to_have_text(["Forest", "Hill"])
    # Each tap waits for its swap: a second tap on the old page would hit the same piece again.
    for left in (1, 0):
        ann.get_by_role("button", name="Ann agrees").first.click()
        expect(ann.get_by_role("button", name="Ann agrees")).to_have_count(left)
    expect(ann.get_by_test_id("seat")).to_have_text(
        "This phone agrees for Ann. Bo agrees on their own phone, joined by the game's link."
    )
    expect(ann.get_by_test_id("agreement")).to_have_text("2 of 2 pieces still to agree.")

    # Ann's phone holds Ann: Bo's phone is offered Bo's seat only.
    bo.reload()
    expect(bo.locator(".seat label")).to_have_text(["Bo"])
    shot("terrain-seat-choice", bo)
    sit(bo, "Bo")
    expect(bo.get_by_role("button", name="Bo agrees")).to_have_count(2)
    expect(bo.get_by_role("button", name="Ann agrees")).to_have_count(0)
    for left in (1, 0):
        bo.get_by_role("button", name="Bo agrees").first.click()
        expect(bo.get_by_role("button", name="Bo agrees")).to_have_count(left)
    expect(bo.get_by_test_id("agreement")).to_contain_text("Agreed by both and locked at")
    shot("terrain-locked", bo)

    # Ann moves the hill: it alone reopens, on both phones.
    ann.reload()
    expect(ann.get_by_test_id("agreement")).to_contain_text("Agreed by both")
    hill = ann.locator(".piece-entry", has=ann.locator(".entry-name", has_text="Hill"))
    hill.get_by_role("link", name="Edit").click()
    form = ann.locator(".piece-form").first
    form.get_by_label('x (")').fill("36")
    form.get_by_label('y (")').fill("12")
    form.get_by_role("button", name="Save piece").click()
    expect(ann.get_by_test_id("agreement")).to_have_text("1 of 2 pieces still to agree.")
    expect(ann.locator("#terrain-map g.piece")).to_have_count(1)
    bo.reload()
    expect(bo.get_by_test_id("agreement")).to_have_text("1 of 2 pieces still to agree.")
    expect(bo.get_by_role("button", name="Bo agrees")).to_have_count(1)
    expect(
        bo.locator(".piece-entry", has=bo.locator(".entry-name", has_text="Hill")).get_by_role(
            "button", name="Bo agrees"
        )
    ).to_be_visible()
    bo.get_by_text("What changed, when").click()
    expect(bo.locator("details ol")).to_contain_text("Changed Hill (agreement reopened)")
    shot("terrain-reopened", bo)
