"""Every game system's game starts from the home page by taps alone, as a new club member
would: Pitched Battles, First Blood, Triumph & Treachery in both packs, The Relief Force and
Tunnel Wars (issue 24 item 1). No API call: the cards, the form and the game screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Served
from tests.browser.helpers import brings
from tests.web.helpers import rolling_club_packs

pytestmark = pytest.mark.browser

# The game's own page, where starting a game brings the phone.
GAME = r"^/games/[\w-]+$"

# (home card, scenario to pick or None to keep the card's, names, the screen's own mark)
GAMES = [
    ("Age of Sigmar matched play", "savage-gains", ("Ann", "Bo"), "#round-form"),
    ("Conquest: First Blood", "outflank", ("Ann", "Bo"), "#phase-form"),
    ("Age of Sigmar Triumph & Treachery", None, ("Ann", "Bo", "Cy"), ".seats"),
    ("Old World Triumph & Treachery", "altar-of-the-gods", ("Ann", "Bo", "Cy"), ".seats"),
    ("Age of Sigmar siege", None, ("Ann", "Bo"), '[data-testid="siege"]'),
    ("Tunnel Wars", None, ("Ann", "Bo"), "section#seats"),
]


def _no_overflow(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize(("card", "scenario", "names", "mark"), GAMES, ids=[g[0] for g in GAMES])
def test_each_game_starts_from_its_home_card(
    page: Page, live_server: str, shot, card: str, scenario: str | None, names: tuple[str, ...], mark: str
) -> None:
    page.goto(live_server + "/")
    page.locator(".game-card", has_text=card).click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    rows = page.locator("fieldset.player")
    if scenario is not None:
        page.locator("#scenario").select_option(scenario)
    picked = page.locator("#scenario option:checked").inner_text()
    # Exactly the rows the game needs are asked for (the others are optional).
    expect(page.locator("#seating-line")).to_contain_text(f"{len(names)}")
    expect(rows.locator("input[required]")).to_have_count(len(names))
    for i, name in enumerate(names):
        page.locator(f"#name{i}").fill(name)
    _no_overflow(page)
    shot(f"new-game-{card.lower().replace(' ', '-').replace(':', '').replace('&', 'and')}")
    with brings(page, GAME):
        page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".scorebar")).to_contain_text(picked.split(". ", 1)[-1])
    expect(page.locator(mark).first).to_be_visible()
    for name in names:
        expect(page.locator(".scorebar")).to_contain_text(name)
    _no_overflow(page)


def test_the_siege_asks_who_attacks_and_switches_from_the_multiplayer_form(
    page: Page, live_server: str, shot
) -> None:
    # The long way: New game, the Conquest Unbound button, then The Relief Force from its list.
    page.goto(live_server + "/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="New game").click()
    # Home has a Conquest Unbound link of its own (the pack's page): tap the form's, once it shows.
    expect(page.locator(".switch")).to_be_visible()
    page.locator(".switch").get_by_role("link", name="Conquest Unbound").click()
    expect(page.locator(".switch strong")).to_have_text("Conquest Unbound")
    expect(page.locator("fieldset.player")).to_have_count(6)  # Triumph & Treachery's three to six
    page.locator("#name0").fill("Ann")
    page.locator("#scenario").select_option("the-relief-force")
    # The players' part follows the scenario: two rows, the name kept, and who attacks.
    expect(page.locator("fieldset.player")).to_have_count(2)
    expect(page.locator("#first-side legend")).to_have_text("Who attacks?")
    expect(page.locator("#name0")).to_have_value("Ann")
    page.locator("#name1").fill("Bo")
    expect(page.locator("#first-side")).to_contain_text("Bo")
    page.locator("#first-side label", has_text="Bo").click()
    shot("new-game-siege-who-attacks")
    with brings(page, GAME):
        page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".scorebar")).to_contain_text("The Relief Force")
    scores = page.locator(".scorebar .score")
    expect(scores.filter(has_text="Bo")).to_contain_text("Attacker")
    expect(scores.filter(has_text="Ann")).to_contain_text("Defender")
    shot("game-siege-started")
    # The phone keeps the game in its list.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="My games").click()
    expect(page.locator(".game-list .table-card")).to_have_count(1)
    expect(page.locator(".game-list")).to_contain_text("The Relief Force")
    shot("my-games")


def test_a_rolled_scenario_redraws_the_players(page: Page, served: Served, tmp_path: Path, shot) -> None:
    served.app.config["RULEPACKS"] = str(rolling_club_packs(tmp_path / "rulepacks"))
    served.app.extensions.pop("muster.pack_checked", None)  # look at the folder on the next request
    page.goto(served.url + "/games/new?pack=aos-conquest-unbound")
    expect(page.locator("fieldset.player")).to_have_count(6)
    page.locator("#name0").fill("Ann")
    page.get_by_role("button", name="Roll for the scenario").click()
    expect(page.locator(".dice-result")).to_contain_text("D6:")
    # The rolled battleplan is for two: the rows follow it, the name typed kept.
    expect(page.locator("fieldset.player")).to_have_count(2)
    expect(page.locator("#name0")).to_have_value("Ann")
    shot("new-game-rolled-for-two")
    page.locator("#name1").fill("Bo")
    picked = page.locator("#scenario option:checked").inner_text().split(". ", 1)[1]
    with brings(page, GAME):
        page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".scorebar")).to_contain_text(picked)
    # The dice that picked it are kept in the game's log.
    game = page.url.rstrip("/").rsplit("/", 1)[1]
    rolls = page.request.get(f"{served.url}/api/v1/games/{game}").json()["rolls"]
    assert any(picked in roll["purpose"] for roll in rolls), rolls
