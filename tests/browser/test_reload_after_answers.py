"""A phone reloads a tab after the player switched apps: never "GET is not allowed here", and
the answer comes back with its draft (issue 24 item 2): the list-import preview with the
pasted list and its fixes, a refused new game, the organiser's refused result row."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Served

pytestmark = pytest.mark.browser

PASSWORD = "reload-browser"
LIST = "Allegiance: Seraphon\n\nLeaders\nLord Kroak (430)\n- General\nSkinks 70 points\n\nTotal: 430 / 1000\n"


def _reload(page: Page) -> None:
    response = page.reload()
    assert response is not None and response.status != 405, response and response.status
    expect(page.locator("main")).not_to_contain_text("is not allowed here")


def test_the_import_preview_survives_a_reload_with_its_fixes(page: Page, live_server: str, shot) -> None:
    page.goto(live_server + "/rosters/import")
    page.get_by_label("The list as text").fill(LIST)
    page.get_by_role("button", name="Read the list").click()
    expect(page.locator(".unread")).to_have_count(1)
    assert re.search(r"/rosters/import/drafts/[\w-]+$", page.url), page.url
    _reload(page)
    expect(page.get_by_label("The list as text")).to_have_value(LIST)
    expect(page.locator(".unread")).to_have_count(1)
    # The player says what the unread line is (issue 24: buttons, not typing), reads again,
    # switches away.
    page.locator("#unread-6").get_by_text("Skinks", exact=True).click()
    page.get_by_role("button", name="Read the list again").click()
    expect(page.locator(".unread")).to_have_count(0)
    expect(page.locator(".import-entries")).to_contain_text("Skinks")
    _reload(page)
    expect(page.locator(".import-entries")).to_contain_text("Skinks")
    expect(page.locator(".verdict")).to_contain_text("500 / 1,000 points")
    shot("import-preview-reloaded")
    page.get_by_role("button", name="Save roster").click()
    # Named after its faction (issue 24): the list names none.
    expect(page.get_by_role("heading", name="Seraphon", exact=True)).to_be_visible()


def test_a_refused_new_game_survives_a_reload_with_what_was_typed(page: Page, live_server: str) -> None:
    page.goto(live_server + "/games/new")
    page.locator("#scenario").select_option("the-vice")
    page.locator("#name0").fill("Ann")
    page.locator("#name1").fill("   ")  # only spaces: the browser lets it through, Muster does not
    page.locator("#strategy0").select_option("hold-the-line")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#form-error")).to_have_text("Player 2's name must be 1 to 40 characters.")
    _reload(page)
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    expect(page.locator("#name0")).to_have_value("Ann")
    expect(page.locator("#scenario")).to_have_value("the-vice")
    expect(page.locator("#strategy0")).to_have_value("hold-the-line")


def test_a_refused_result_row_survives_a_reload(page: Page, served: Served, shot) -> None:
    served.app.config.update(ADMIN_PASSWORD=PASSWORD, EVENT_SEED=5)
    base = served.url
    made = page.request.post(
        f"{base}/api/v1/events",
        data={"name": "Club night", "pack": "conquest-first-blood", "points_limit": 500, "rounds": 2},
        headers={"Authorization": f"Bearer {PASSWORD}"},
    ).json()
    org = {"X-Organiser-Token": made["organiser_token"]}
    for name in ("Annabel Fairweather", "Bo", "Cy", "Di"):
        page.request.post(f"{base}/api/v1/events/{made['id']}/players", data={"name": name}, headers=org)
    assert page.request.post(f"{base}/api/v1/events/{made['id']}/rounds", headers=org).status == 201
    page.goto(made["organiser_url"])
    row = page.locator("#result-1")
    names = row.locator(".vp-name").all_inner_texts()
    row.get_by_label(f"{names[0]}'s VP").fill("14")
    row.get_by_label(f"{names[1]}'s VP").fill("l2")  # a letter typed for a digit
    row.get_by_role("button", name="Save table 1").click()
    expect(page.locator("#form-error")).to_have_text(
        f"{names[1]}'s VP must be a whole number from 0 to 10,000."
    )
    shot("console-result-refused")
    _reload(page)
    expect(page.locator("#result-1").get_by_label(f"{names[0]}'s VP")).to_have_value("14")
    expect(page.locator("#result-1").get_by_label(f"{names[1]}'s VP")).to_have_value("l2")
    page.locator("#result-1").get_by_label(f"{names[1]}'s VP").fill("12")
    page.locator("#result-1").get_by_role("button", name="Save table 1").click()
    expect(page.locator("#result-1 .result-status")).to_contain_text(f"{names[0]} wins, 14–12")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot("console-result-rows")
