"""Three phones and a table screen play a round of Triumph & Treachery: a deal, a ploy bought,
an enemy pick, a bonus ploy and a ploy played; no phone ever shows another player's held ploy."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE
from tests.browser.helpers import picture
from tests.setups import start_live

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bo", "Cy"]
# The page as it stands, without the pack's list of ploys to buy (public, on every seat).
PAGE_HTML = """() => {
  const copy = document.documentElement.cloneNode(true);
  copy.querySelectorAll('[data-catalogue]').forEach((el) => el.remove());
  return copy.outerHTML.toLowerCase();
}"""


def _context(browser: Browser, base: str, viewport: dict[str, int], mobile: bool = True) -> Page:
    context = browser.new_context(
        viewport=viewport, device_scale_factor=1, is_mobile=mobile, has_touch=True, base_url=base
    )
    return context.new_page()


def _check(pages: dict[str, Page], held: dict[str, tuple[str, str]]) -> None:
    """Every screen as it stands and as its phone would load it now: none but the holder's
    holds a held ploy's id or name (the pack's list of ploys to buy aside)."""
    for who, page in pages.items():
        shown = page.evaluate(PAGE_HTML)
        loaded = page.context.request.get(page.url).text()
        fresh = re.sub(r"<select[^>]*data-catalogue.*?</select>", "", loaded, flags=re.S).lower()
        for holder, ploy in held.items():
            if holder == who:
                assert ploy[1] in fresh, f"{who}'s own {ploy[1]} is missing from their phone"
                continue
            for html in (shown, fresh):
                assert not [w for w in ploy if w in html], f"{who}'s screen shows {holder}'s {ploy[1]}"


def test_three_phones_and_a_table_play_a_round_keeping_their_ploys(
    browser: Browser, live_server: str
) -> None:
    table = _context(browser, live_server, {"width": 820, "height": 1180}, mobile=False)
    body: dict[str, Any] = {
        "pack": "tow-triumph-treachery",
        "scenario": "altar-of-the-gods",
        "points_limit": 2000,
        "players": [{"name": n} for n in NAMES],
    }
    game = start_live(table.request, live_server, body)
    table.goto(game["join_url"])
    phones = {}
    for s in game["seats"]:
        phone = _context(browser, live_server, PHONE)
        # Each phone scans its own seat's code: the QR on the table encodes this link.
        phone.goto(s["url"])
        expect(phone.locator("#hand h2")).to_contain_text(f"{NAMES[s['player']]}'s ploys")
        phones[NAMES[s["player"]]] = phone
    screens = {"table": table, **phones}
    expect(table.locator("#seats details.seat")).to_have_count(3)

    # The round begins on the table; a deal: Ann gives Bo 5 CP for a promise.
    table.get_by_role("button", name="Start battle round 1").click()
    expect(table.locator(".history")).to_contain_text("Battle round 1 begins")
    expect(table.locator("#buy-form")).to_have_count(0)
    table.locator("#deal summary").click()
    table.locator("#deal-from").select_option(label="Ann")
    table.locator("#deal-to").select_option(label="Bo")
    table.locator("#deal-cp").fill("5")
    table.locator("#deal-note").fill("Bo leaves my flank alone")
    table.get_by_role("button", name="Record the deal").click()
    expect(table.locator(".history")).to_contain_text("Deal: Ann gives Bo 5 CP")
    # The table screen and the phones following it announce the deal.
    for page in screens.values():
        expect(page.get_by_test_id("last-entry")).to_have_text("Ann deals Bo 5 CP")
    _check(screens, {})

    # Ann buys Hidden Pitfalls on her phone.
    ann = phones["Ann"]
    ann.reload()
    ann.locator("#buy-ploy").select_option("hidden-pitfalls")
    # What it does shows before it is bought.
    expect(ann.locator("[data-effect-of=buy-ploy]")).to_have_text(
        "Hidden Pitfalls: A unit about to march may not march this phase."
    )
    picture(ann, "seats-ploy-effect", full_page=True)
    ann.get_by_role("button", name="Buy", exact=True).click()
    expect(ann.locator("#hand li.ploy")).to_contain_text("Hidden Pitfalls")
    picture(ann, "seats-seat-screen", full_page=True)
    held = {"Ann": ("hidden-pitfalls", "hidden pitfalls")}
    _check(screens, held)
    # The table follows the phones by itself (no reload): Ann now holds one ploy.
    expect(table.get_by_test_id("held-0")).to_have_text("1")

    # The table: Ann's turn, movement phase, Bo is her enemy; Cy is neutral.
    form = table.locator("#enemy-form")
    form.locator("label", has_text="Ann").first.click()
    form.locator("#enemy-phase").select_option("movement")
    form.locator("fieldset", has_text="Enemy this phase").locator("label", has_text="Bo").click()
    form.get_by_role("button", name="Record the enemy").click()
    expect(table.get_by_test_id("enemy-pick")).to_contain_text("enemy Bo")
    expect(table.locator(".neutral-rule")).to_contain_text("Neutral models")
    picture(table, "seats-table-screen", full_page=True)
    _check(screens, held)

    # Cy rolls a 5 for the neutral bonus ploy (three players: 5 or 6) and gains Caltrops.
    cy = phones["Cy"]
    expect(cy.locator("#bonus-form")).to_be_visible()  # Cy's phone followed the table's pick
    expect(phones["Bo"].locator("#bonus-form")).to_have_count(0)
    cy.locator("#bonus-roll").fill("5")
    cy.locator("#bonus-ploy").select_option("caltrops")
    cy.get_by_role("button", name="Record the bonus roll").click()
    expect(cy.locator("#hand li.ploy")).to_contain_text("Caltrops")
    held["Cy"] = ("caltrops", "caltrops")
    _check(screens, held)

    # Ann plays Hidden Pitfalls: now everyone sees it; Cy's Caltrops stays hers.
    ann.locator("li.ploy", has_text="Hidden Pitfalls").get_by_role("button", name="Play it").click()
    # Playing asks once.
    expect(ann.get_by_text("Play Hidden Pitfalls now? Every phone will see it.")).to_be_visible()
    picture(ann, "seats-play-asks", full_page=True)
    ann.get_by_role("button", name="Yes, play it").click()
    expect(ann.locator("#hand")).to_contain_text("No ploys in hand")
    del held["Ann"]
    _check(screens, held)
    for page in screens.values():
        expect(page.locator(".history")).to_contain_text("Ann played Hidden Pitfalls")
        expect(page.get_by_test_id("last-entry")).to_have_text("Ann plays Hidden Pitfalls")
    expect(ann.locator(".score").first).to_contain_text("44 CP")
    picture(table, "seats-table-after-play", full_page=True)
    for page in screens.values():
        page.context.close()


def test_a_ploy_given_on_a_seat_and_a_second_enemy_pick_are_refused_beside_their_forms(
    browser: Browser, live_server: str
) -> None:
    """Issue 23 items 3 and 10 on the seat screens: Ann gives a ploy from her phone (refused for
    Bo, who holds one, taken by Cy, whose phone alone shows which); a second enemy pick for the
    charge sent from a screen still offering it is refused beside the enemy form, until Bo plays
    Allies of Convenience and Ann's phone offers the charge again without him."""
    table = _context(browser, live_server, {"width": 820, "height": 1180}, mobile=False)
    body: dict[str, Any] = {
        "pack": "tow-triumph-treachery",
        "scenario": "altar-of-the-gods",
        "points_limit": 2000,
        "players": [{"name": n} for n in NAMES],
    }
    game = start_live(table.request, live_server, body)
    table.goto(game["join_url"])
    phones = {}
    for s in game["seats"]:
        phones[NAMES[s["player"]]] = phone = _context(browser, live_server, PHONE)
        phone.goto(s["url"])
    ann, bo, cy = phones["Ann"], phones["Bo"], phones["Cy"]
    table.get_by_role("button", name="Start battle round 1").click()
    expect(table.locator(".history")).to_contain_text("Battle round 1 begins")
    for page, ploys in ((ann, ["caltrops"]), (bo, ["caltrops", "allies-of-convenience"])):
        for ploy in ploys:
            expect(page.locator("#buy-ploy")).to_be_visible()
            page.locator("#buy-ploy").select_option(ploy)
            page.get_by_role("button", name="Buy", exact=True).click()
            expect(page.locator(f"#hand li.ploy[data-ploy={ploy}]")).to_be_visible()

    # Ann gives Caltrops to Bo, who holds one: refused beside her deal form, in her words.
    expect(ann.get_by_test_id("held-1")).to_have_text("2")  # her phone has followed Bo's buys
    ann.locator("#deal summary").click()
    deal = ann.locator("#deal")
    expect(deal).to_contain_text("Ann gives")
    deal.locator("#deal-to").select_option(label="Bo")
    deal.locator("#deal-ploy").select_option(label="Caltrops")
    deal.get_by_role("button", name="Record the deal").click()
    expect(ann.locator("#deal").get_by_role("alert")).to_have_text(
        "Bo already holds Caltrops; nobody holds two of the same ploy."
    )
    picture(ann, "seats-deal-refused", full_page=True)
    # To Cy, who holds none: Cy's phone shows it in her hand; the others that a ploy changed hands.
    ann.locator("#deal-to").select_option(label="Cy")
    ann.locator("#deal-ploy").select_option(label="Caltrops")
    ann.locator("#deal").get_by_role("button", name="Record the deal").click()
    expect(ann.locator(".history")).to_contain_text(
        "Deal: Ann gives Cy Caltrops (only the two of you see which ploy)"
    )
    expect(cy.locator("#hand li.ploy[data-ploy=caltrops]")).to_be_visible()
    for page in (table, bo):
        expect(page.locator(".history")).to_contain_text("Deal: Ann gives Cy a ploy")
        expect(page.locator(".history")).not_to_contain_text("Ann gives Cy Caltrops")
    _check({"table": table}, {"Cy": ("caltrops", "caltrops")})  # Ann gave it, Bo holds his own
    picture(cy, "seats-ploy-received", full_page=True)

    # A second tab of Ann's keeps the enemy form as it is now (it does not follow the table).
    kept = ann.context.new_page()
    kept.route("**/version", lambda route: route.abort())
    kept.goto(f"/games/{game['id']}")
    form = table.locator("#enemy-form")
    form.locator("label", has_text="Ann").first.click()
    form.locator("#enemy-phase").select_option("charge")
    form.locator("fieldset", has_text="Enemy this phase").locator("label", has_text="Bo").click()
    form.get_by_role("button", name="Record the enemy").click()
    expect(table.get_by_test_id("enemy-pick")).to_contain_text("enemy Bo")
    stale = kept.locator("#enemy-form")
    stale.locator("fieldset", has_text="Whose turn is it?").locator("label", has_text="Ann").click()
    stale.locator("#enemy-phase").select_option("charge")
    stale.locator("fieldset", has_text="Enemy this phase").locator("label", has_text="Cy").click()
    stale.get_by_role("button", name="Record the enemy").click()
    expect(kept.locator("#enemy-form").get_by_role("alert")).to_have_text(
        "Ann has already picked Bo as the enemy for the Charge phase of this turn; only Allies of "
        "Convenience played by Bo lets them pick again."
    )
    picture(kept, "seats-second-pick-refused", full_page=True)

    # Bo, picked as the enemy, plays Allies of Convenience; Ann's phone offers the charge again, not Bo.
    bo.locator("li.ploy", has_text="Allies of Convenience").get_by_role("button", name="Play it").click()
    bo.get_by_role("button", name="Yes, play it").click()
    expect(bo.locator(".history")).to_contain_text("Bo played Allies of Convenience")
    expect(ann.get_by_test_id("pick-again")).to_have_text(
        "Bo played Allies of Convenience: pick another enemy for the Charge phase."
    )
    enemies = ann.locator("#enemy-form fieldset", has_text="Enemy this phase").locator("label")
    expect(enemies).to_have_text(["Cy"])
    picture(ann, "seats-pick-again", full_page=True)
    enemies.first.click()
    ann.locator("#enemy-form").get_by_role("button", name="Record the enemy").click()
    expect(table.get_by_test_id("enemy-pick")).to_contain_text("enemy Cy")
    for page in (table, ann, bo, cy):
        page.context.close()
