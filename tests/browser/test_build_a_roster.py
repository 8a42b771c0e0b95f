"""Build a Pitched Battles roster by tapping on a phone; watch a problem appear and clear."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.pdfs import pdf_text

pytestmark = pytest.mark.browser


def open_custom(page: Page) -> None:
    """The form for a unit the catalogue does not list sits under its own heading (issue 33)."""
    custom = page.locator("details.custom-unit")
    if custom.count() and custom.get_attribute("open") is None:
        custom.locator("summary").first.click()


def add_entry(page: Page, name: str, points: str, roles: tuple[str, ...] = (), **toggles: bool) -> None:
    open_custom(page)
    form = page.locator("#add-form")
    form.get_by_label("Name").fill(name)
    form.get_by_label("Points").fill(points)
    for role in roles:
        form.locator(".roles label", has_text=role).click()
    for label, on in toggles.items():
        if on:
            form.get_by_text(label).click()
    form.get_by_role("button", name="Add to roster").click()
    expect(page.locator(".entry-name", has_text=name).first).to_be_visible()


def test_build_a_roster_on_a_phone(page: Page, live_server: str, shot) -> None:
    page.goto(live_server + "/rosters")
    page.get_by_role("link", name="New Pitched Battles 2021 roster").click()
    page.get_by_label("Roster name").fill("Hammerfest")
    page.locator("label", has_text="1,000").click()
    page.get_by_label("Faction", exact=True).select_option("Seraphon")
    page.get_by_label("Grand strategy").select_option("prized-sorcery")
    page.get_by_role("button", name="Start building").click()
    status = page.locator("#roster-status")
    expect(page.get_by_test_id("roster-points")).to_have_text("0")

    # The total follows what is typed, before anything is saved.
    open_custom(page)
    form = page.locator("#add-form")
    form.get_by_label("Name").fill("Lord Kroak")
    form.get_by_label("Points").fill("430")
    expect(page.get_by_test_id("roster-points")).to_have_text("430")
    expect(status).to_contain_text("not saved yet")
    form.locator(".roles label", has_text="Leader").click()
    form.get_by_label("Keywords").fill("HERO, WIZARD")
    form.get_by_text("This model is the general").click()
    form.get_by_role("button", name="Add to roster").click()
    expect(page.locator(".entry-name", has_text="Lord Kroak")).to_be_visible()
    # One Battleline short of the two a 1000-point army needs.
    expect(page.get_by_test_id("roster-verdict")).to_have_text("1 problem")
    expect(status).to_contain_text("needs at least 2")
    shot("roster-problem")

    add_entry(page, "Saurus Guard", "115", ("Battleline",))
    add_entry(page, "Skinks", "70", ("Battleline",))
    expect(page.get_by_test_id("roster-verdict")).to_have_text("Valid")
    expect(page.get_by_test_id("roster-points")).to_have_text("615")

    # A problem appears with a unit reinforced twice that is not Battleline...
    add_entry(page, "Stegadon", "270", ("Behemoth",))
    entry = page.locator(".entry", has=page.locator(".entry-name", has_text="Stegadon"))
    # An entry's actions are behind its one menu.
    entry.get_by_label("Actions: Stegadon").click()
    entry.get_by_role("link", name="Edit").click()
    page.locator("#edit-form").get_by_label("Size").select_option("reinforced-twice")
    page.locator("#edit-form").get_by_role("button", name="Save entry").click()
    expect(page.get_by_test_id("roster-verdict")).to_have_text("1 problem")
    expect(page.locator(".entry-problem")).to_contain_text("only Battleline units may be")
    # ...and clears when the entry goes.
    page.get_by_label("Actions: Stegadon").click()
    page.get_by_role("button", name="Remove: Stegadon").click()
    expect(page.get_by_test_id("roster-verdict")).to_have_text("Valid")
    shot("roster-valid")

    with page.expect_download() as download_info:
        page.get_by_role("link", name="PDF A4").click()
    text = pdf_text(download_info.value.path().read_bytes())
    for expected in (
        "Hammerfest",
        "Lord Kroak",
        "Saurus Guard",
        "Skinks",
        "615",
        "Valid",
        "Prized Sorcery",
        "Seraphon",
    ):
        assert expected in text
    assert "Stegadon" not in text
