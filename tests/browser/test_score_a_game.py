"""A whole five-round Savage Gains game played through the screens on a phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import record_turn, start_round, tap_until
from tests.pdfs import pdf_text

pytestmark = pytest.mark.browser


def test_play_savage_gains_on_a_phone(page: Page, live_server: str, shot) -> None:
    page.goto(live_server + "/")
    shot("home")
    page.get_by_role("link", name="Start a new game").click()
    page.get_by_label("Name").first.fill("Ann")
    page.get_by_label("Name").nth(1).fill("Bo")
    page.locator("#strategy0").select_option("hold-the-line")
    page.locator("#strategy1").select_option("beast-master")
    page.get_by_role("button", name="Roll for the battleplan").click()
    expect(page.locator(".dice-result")).to_contain_text("rolls for the battleplan")
    shot("new-game-rolled")
    page.locator("#scenario").select_option("savage-gains")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".scorebar")).to_contain_text("Savage Gains")
    shot("game-round-1")

    # Round 1: Ann takes her own border and completes Conquer: 1 + 2 = 3.
    start_round(page, 1, "Ann")
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Ann's turn")
    shot("turn-form")
    record_turn(page, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
    expect(page.get_by_test_id("vp-0")).to_have_text("3")
    # Bo takes his own border: 1.
    record_turn(page, 1, "Bo", taps={"D border": "Bo"})
    expect(page.get_by_test_id("vp-1")).to_have_text("1")

    # Round 2: Ann completes Broken Ranks with a MONSTER: 1 + 2 + 1 = 4 (total 7).
    start_round(page, 2, "Ann")
    record_turn(page, 2, "Ann", tactic="broken-ranks", bonus=True)
    expect(page.get_by_test_id("vp-0")).to_have_text("7")
    record_turn(page, 2, "Bo")
    expect(page.get_by_test_id("vp-1")).to_have_text("2")
    # Bo's MONSTER fell in Bo's own turn: Ann, who went first, claims Predators and Prey: 8.
    claims = page.locator("section.claims")
    expect(claims.locator('[data-claim-round="2"]')).to_be_visible()
    shot("predators-and-prey")
    claims.get_by_role("button", name="+1 VP for Ann: an enemy MONSTER was slain").click()
    expect(page.get_by_test_id("vp-0")).to_have_text("8")
    expect(claims).to_contain_text("Ann: scored for battle round 2.")

    # A mistake, undone: Ann records round 3 holding the west objective too, then undoes it.
    start_round(page, 3, "Ann")
    record_turn(page, 3, "Ann", taps={"W": "Ann"})
    expect(page.get_by_test_id("vp-0")).to_have_text("11")
    # The screen says what was recorded, and the Undo beside it names what it takes back.
    expect(page.get_by_test_id("last-entry")).to_have_text("Ann's turn recorded: +3 VP")
    page.get_by_role("button", name="Undo Ann's turn, round 3 (3 VP)").click()
    expect(page.get_by_test_id("vp-0")).to_have_text("8")
    expect(page.get_by_test_id("last-entry")).to_have_text("Undone: Ann's turn, round 3 (3 VP)")

    # Reload mid-game: the game is all there.
    page.reload()
    expect(page.get_by_test_id("vp-0")).to_have_text("8")
    expect(page.get_by_test_id("vp-1")).to_have_text("2")
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 3: Ann's turn")
    tap_until(page, "W", "Nobody")
    record_turn(page, 3, "Ann")
    record_turn(page, 3, "Bo")
    for r in (4, 5):
        start_round(page, r, "Bo")
        record_turn(page, r, "Bo")
        record_turn(page, r, "Ann")
    # Ann: 3 + (4 + 1) + 1 + 1 + 1 = 11; Bo: 1 x 5 = 5.
    expect(page.get_by_test_id("vp-0")).to_have_text("11")
    expect(page.get_by_test_id("vp-1")).to_have_text("5")

    end = page.locator(".end-form")
    end.filter(has_text="Ann").get_by_role("button", name="Completed", exact=True).click()
    # Bo's form is on the screen before and after Ann's answer swaps the game in: a tap on the
    # one about to be swapped out is lost (seen on a loaded machine), so wait for the swap.
    expect(page.get_by_text("Ann: grand strategy completed.")).to_be_visible()
    page.locator(".end-form").filter(has_text="Bo").get_by_role("button", name="Not completed").click()
    result = page.locator(".result")
    expect(result).to_contain_text("Major victory: Ann")
    expect(result).to_contain_text("Most victory points (14 to 5).")
    shot("game-finished")

    with page.expect_download() as download_info:
        page.get_by_role("link", name="A4").click()
    data = download_info.value.path().read_bytes()
    text = pdf_text(data)
    for expected in (
        "Savage Gains",
        "Ann",
        "Bo",
        "Hold the Line",
        "Beast Master",
        "Conquer",
        "Broken Ranks",
        "Most victory points (14 to 5).",
        "Predators and Prey",
    ):
        assert expected in text
    assert re.search(r"Total VP\s*14", text) and re.search(r"Total VP\s*5", text)


def test_pack_page_on_a_phone(page: Page, live_server: str, shot) -> None:
    page.goto(live_server + "/packs/aos-ghb-2021")
    expect(page.get_by_role("heading", name="Pitched Battles 2021")).to_be_visible()
    page.locator("details#power-struggle summary").click()
    expect(page.locator("details#power-struggle .reading")).to_contain_text("previous turn")
    shot("pack")
