"""Play a First Blood scenario on a phone by tapping the map."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import picture
from tests.pdfs import pdf_text

pytestmark = pytest.mark.browser


def tap_zone(page: Page, objective: str) -> None:
    page.locator(f'#phase-map g.tap[data-objective="{objective}"]').click()


def test_tap_the_map_to_score_twin_contested_zones(page: Page, live_server: str, shot) -> None:
    page.goto(live_server + "/games/new")
    page.get_by_role("link", name="Conquest: First Blood").click()
    # The screen changes in place (htmx boost): wait for the First Blood form before typing.
    expect(page.locator(".switch strong")).to_have_text("Conquest: First Blood")
    page.get_by_label("Name").first.fill("Ann")
    page.get_by_label("Name").nth(1).fill("Bo")
    page.locator("#scenario").select_option("twin-contested-zones")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".scorebar")).to_contain_text("Twin Contested Zones")
    expect(page.locator(".scorebar")).to_contain_text("first to 16 VP")
    page.get_by_role("button", name="Roll off for deployment").click()
    expect(page.locator(".dice-result")).to_contain_text("rolled lowest")
    shot("first-blood-round-1")

    page.get_by_role("button", name="Record round 1").click()
    expect(page.locator("#phase-form h2")).to_have_text("Round 2: Victory Phase")

    # Round 2: Ann destroys Bo's marker by the west zone, then taps the zone on the map.
    page.get_by_text("Destroyed marker B (W)").click()
    tap_zone(page, "west-zone")
    west = page.locator('#phase-map g.tap[data-objective="west-zone"]')
    expect(west).to_have_attribute("data-holder", "0")
    expect(page.locator('button.cycle[data-holder="0"]')).to_have_text("Ann")
    shot("first-blood-tapped")
    page.get_by_role("button", name="Record round 2").click()
    expect(page.get_by_test_id("vp-0")).to_have_text("5")  # marker 2 + zone 3

    # Round 3: the east zone is still contested for Ann by Bo's marker: refused, taps kept.
    tap_zone(page, "west-zone")
    tap_zone(page, "east-zone")
    page.get_by_role("button", name="Record round 3").click()
    expect(page.locator("#error")).to_contain_text("contested for Ann")
    expect(page.locator('#phase-map g.tap[data-objective="east-zone"]')).to_have_attribute("data-holder", "0")
    # Tap twice more: nobody for the east zone (Ann -> Bo -> nobody), then record.
    tap_zone(page, "east-zone")
    tap_zone(page, "east-zone")
    page.get_by_role("button", name="Record round 3").click()
    expect(page.get_by_test_id("vp-0")).to_have_text("8")

    page.reload()
    expect(page.get_by_test_id("vp-0")).to_have_text("8")
    expect(page.locator("#phase-form h2")).to_have_text("Round 4: Victory Phase")
    shot("first-blood-round-4")

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Score sheet A4").click()
    text = pdf_text(download_info.value.path().read_bytes())
    assert "Twin Contested Zones" in text and "Destroyed marker B (W)" in text and "Ann" in text


def test_roll_the_scenario_and_the_last_round_reminder(page: Page, live_server: str, shot) -> None:
    page.goto(live_server + "/games/new?pack=conquest-first-blood")
    page.get_by_label("Name").first.fill("Ann")
    page.get_by_label("Name").nth(1).fill("Bo")
    page.get_by_role("button", name="Roll for the scenario").click()
    result = page.locator(".dice-result")
    expect(result).to_contain_text("D12:")
    shot("first-blood-scenario-rolled")
    picked = page.locator("#scenario option:checked").inner_text()
    number, name = picked.split(". ", 1)
    assert 1 <= int(number) <= 11 and name in result.inner_text()
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".scorebar")).to_contain_text(name)
    rolls = page.locator(".history")
    expect(rolls).to_contain_text(f"Scenario roll: {number}, {name}")
    # Quiet Victory Phases up to the last round, which reminds of regiments never brought on.
    last = int(page.locator("#game").get_attribute("data-last-round") or "0")
    for r in range(1, last):
        page.get_by_role("button", name=f"Record round {r}").click()
        expect(page.locator("#phase-form h2")).to_have_text(f"Round {r + 1}: Victory Phase")
    reminder = page.locator("#phase-form .reminder")
    expect(reminder).to_contain_text(f"Round {last} is the last: regiments that never came on")
    page.evaluate("document.querySelector('#phase-form .reminder').scrollIntoView({block: 'center'})")
    picture(page, "first-blood-last-round")  # what the phone shows there, not the whole page
