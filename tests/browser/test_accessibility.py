"""Every screen in the light theme, and in the dark theme those with colours of their own
(tests/unit/test_palette.py checks the dark palette's pairs for the rest): axe-core finds
nothing serious, and a person can look at each one (`make shots`: in test-artifacts/)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import problems, record_turn, start_round
from tests.setups import live_game

pytestmark = pytest.mark.browser

BACKGROUND = {"light": "rgb(244, 241, 234)", "dark": "rgb(20, 23, 28)"}

ROSTER = {
    "pack": "aos-ghb-2021",
    "name": "Hammerfest",
    "points_limit": 1000,
    "faction": "Seraphon",
    "entries": [
        {
            "name": "Lord Kroak",
            "points": 430,
            "roles": ["Leader"],
            "keywords": ["HERO", "WIZARD"],
            "general": True,
        },
        {"name": "Saurus Guard", "points": 115, "roles": ["Battleline"]},
        {
            "name": "Stegadon",
            "points": 270,
            "roles": ["Behemoth"],
            "keywords": ["MONSTER"],
            "size": "reinforced-twice",
        },
    ],
}


# A pasted list with one line the import cannot read: the preview highlights it.
IMPORTED = (
    "Allegiance: Seraphon\n\nLeaders\nLord Kroak (430)\n- General\nSkinks 70 points\n\nTotal: 430 / 1000\n"
)


# The dark theme's screens with colours of their own: the score table's current round (a mix of
# the accent), the dice dialog and its backdrop, the import preview's marked lines, and home.
DARK_SCREENS = ("home", "game-aos", "game-aos-dice", "roster-import")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_screen_passes_axe_in_both_themes(page: Page, live_server: str, shot, theme: str) -> None:
    page.emulate_media(color_scheme=theme)
    aos = live_game(page.request, live_server)
    blood = live_game(page.request, live_server, "conquest-first-blood", "twin-contested-zones")
    roster = page.request.post(f"{live_server}/api/v1/rosters", data=ROSTER).json()

    def game_in_progress() -> None:
        page.goto(aos["join_url"])
        start_round(page, 1, "Ann")
        record_turn(page, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
        expect(page.get_by_test_id("vp-0")).to_have_text("3")

    def dice_open() -> None:
        page.goto(aos["url"])
        page.get_by_role("button", name="Dice", exact=True).click()
        page.get_by_role("dialog", name="Dice").get_by_role("button", name="Roll off").click()
        expect(page.locator(".dice-total")).to_contain_text("wins the roll-off")

    def waiting_offline() -> None:
        page.goto(aos["url"])
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        expect(page.locator("#offline-ready")).to_be_visible()
        page.context.set_offline(True)
        record_turn(page, 1, "Bo")
        expect(page.locator("#outbox")).to_contain_text("Waiting to sync (1)")
        expect(page.locator("#round-form")).to_be_visible()

    def back_online() -> None:
        page.context.set_offline(False)
        expect(page.locator("#outbox")).to_be_hidden()

    def import_preview() -> None:
        page.goto(live_server + "/rosters/import")
        page.get_by_label("The list as text").fill(IMPORTED)
        page.get_by_role("button", name="Read the list").click()
        expect(page.locator(".unread")).to_have_count(1)

    screens = [
        ("home", lambda: page.goto(live_server + "/")),
        ("new-game", lambda: page.goto(live_server + "/games/new")),
        ("game-aos", game_in_progress),
        ("game-aos-dice", dice_open),
        ("game-aos-offline", waiting_offline),
        ("game-first-blood", lambda: page.goto(blood["join_url"])),
        ("pack", lambda: page.goto(live_server + "/packs/aos-ghb-2021")),
        ("rosters", lambda: page.goto(live_server + "/rosters")),
        ("roster", lambda: page.goto(roster["edit_url"])),
        ("roster-new", lambda: page.goto(live_server + "/rosters/new")),
        ("roster-import", import_preview),
        ("error", lambda: page.goto(live_server + "/games/no-such-game")),
        ("offline", lambda: page.goto(live_server + "/offline")),
    ]
    if theme == "dark":
        # The palette's pairs are checked for every screen in tests/unit/test_palette.py; in the
        # dark theme axe sees the screens that paint more than the palette's surfaces.
        screens = [(name, show) for name, show in screens if name in DARK_SCREENS]
    found: dict[str, list[str]] = {}
    for name, show in screens:
        show()
        expect(page.locator("main")).to_be_visible()
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == BACKGROUND[theme]
        found[name] = problems(page)
        shot(f"screen-{name}-{theme}")
        if name == "game-aos-offline":
            back_online()
    bad = {name: lines for name, lines in found.items() if lines}
    assert not bad, "\n".join(f"{name}: {line}" for name, lines in bad.items() for line in lines)
