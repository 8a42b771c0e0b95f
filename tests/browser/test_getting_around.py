"""Getting around on a 390 px phone (issue 24 item 7): the top bar's five places and each
screen's back button are real 44 px targets, nothing spills past the screen's edge, and the
changed screens are axe clean in both themes."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Served
from tests.browser.helpers import problems
from tests.setups import pitched_battle, start_live

pytestmark = pytest.mark.browser

PASSWORD = "around-browser"


def _tall_enough(page: Page, selector: str) -> None:
    for target in page.locator(selector).all():
        box = target.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, (selector, box)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_screen_has_the_top_bar_and_a_back_button(
    page: Page, served: Served, shot: Any, theme: str
) -> None:
    served.app.config.update(ADMIN_PASSWORD=PASSWORD)
    base = served.url
    page.emulate_media(color_scheme=theme)
    game = start_live(page.request, base, pitched_battle("the-vice"))
    page.goto(game["join_url"])  # this phone joins: the game is on its list
    event = page.request.post(
        f"{base}/api/v1/events",
        data={"name": "Club night", "pack": "conquest-first-blood", "points_limit": 500, "rounds": 2},
        headers={"Authorization": f"Bearer {PASSWORD}"},
    ).json()
    org = {"X-Organiser-Token": event["organiser_token"]}
    for name in ("Ann", "Bo", "Cy", "Di"):
        page.request.post(f"{base}/api/v1/events/{event['id']}/players", data={"name": name}, headers=org)
    page.request.post(f"{base}/api/v1/events/{event['id']}/rounds", headers=org)
    page.goto(event["organiser_url"])  # the console's key, kept in this phone's session

    # Home, then each of the top bar's places by a tap, and back by the screen's own button.
    page.goto(base + "/")
    expect(page.locator(".game-card")).to_have_count(7)
    _tall_enough(page, ".topbar nav a")
    _tall_enough(page, ".game-card")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert problems(page) == []
    shot(f"home-cards-{theme}")
    nav = page.get_by_role("navigation", name="Main")
    for place, heading in (
        ("New game", "New game"),
        ("My games", "This phone's games"),
        ("Rosters", "Rosters"),
        ("Events", "Club events"),
    ):
        nav.get_by_role("link", name=place).click()
        expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
        expect(nav.get_by_role("link", name=place)).to_have_attribute("aria-current", "page")
        _tall_enough(page, ".topbar a.back")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert problems(page) == [], place
        shot(f"{place.lower().replace(' ', '-')}-{theme}")
        page.get_by_role("link", name="Back to Tonight's games").click()
        expect(page.get_by_role("heading", name="Start a game")).to_be_visible()

    # Deeper screens go back to their parent.
    for url, back, heading in (
        (f"{base}/games/{game['id']}/terrain", "Back to The game", None),
        (f"{base}/events/{event['id']}/console", "Back to The event", "Club night"),
        (f"{base}/events/{event['id']}", "Back to Events", "Club events"),
    ):
        page.goto(url)
        _tall_enough(page, ".topbar a.back")
        assert problems(page) == [], url
        if url.endswith("/console"):
            shot(f"console-{theme}")
        page.get_by_role("link", name=back).click()
        if heading:
            expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
        else:
            expect(page.locator(".scorebar")).to_contain_text("The Vice")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="My games").click()
    expect(page.locator(".game-list")).to_contain_text("The Vice")
