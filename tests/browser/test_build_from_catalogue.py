"""Build a 2,000-point Stormcast Eternals roster from the catalogue on a 390 px phone, counting
every tap (issue 33: nine units in at most 30 taps, no unit typed by hand).

Points from rulepacks/catalogues/aos-3.yaml (BSData at b92ceb9, General's Handbook 2021):
Lord-Imperatant 175, Knight-Arcanum 135, Lord-Arcanum on Tauralon 285, Liberators 115 (+115
reinforced) twice, Sequitors 145 (+145), Judicators with Boltstorm Crossbows 190, Annihilators
200 (+200), Celestar Ballista 140: 175 + 135 + 285 + 230 + 115 + 290 + 190 + 400 + 140 = 1960.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser


class Taps:
    """Every tap the player makes, and every character typed."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.taps = 0
        self.typed = 0

    def tap(self, target: Locator) -> None:
        self.taps += 1
        target.click()

    def choose(self, target: Locator, value: str) -> None:
        self.taps += 1  # a select opens and picks in one tap on a phone's picker
        target.select_option(value)

    def type(self, target: Locator, text: str) -> None:
        self.typed += len(text)
        target.press_sequentially(text)


def _add(player: Taps, page: Page, name: str, entries: int) -> None:
    player.tap(page.locator("#unit-list .pick", has=page.locator(".pick-name", has_text=name)).first)
    expect(page.locator(".entry")).to_have_count(entries)


def _reinforce(player: Taps, page: Page, name: str, nth: int = 0) -> None:
    before = page.get_by_test_id("roster-points").inner_text()
    player.tap(page.get_by_role("button", name=f"Reinforce: {name}").nth(nth))
    expect(page.get_by_test_id("roster-points")).not_to_have_text(before)


def test_a_2000_point_list_of_nine_units_in_at_most_30_taps(page: Page, live_server: str, shot) -> None:
    player = Taps(page)
    page.goto(live_server + "/rosters")
    player.tap(page.get_by_role("link", name="New Pitched Battles 2021 roster"))
    player.choose(page.get_by_label("Faction", exact=True), "Stormcast Eternals")
    player.choose(page.get_by_label("Grand strategy"), "prized-sorcery")
    player.tap(page.get_by_role("button", name="Start building"))
    expect(page.get_by_test_id("roster-points")).to_have_text("0")
    # The faction's units, grouped by role, each with its points: a tap adds one.
    expect(page.locator(".unit-group").first).to_have_text("Leaders")
    shot("builder-catalogue")

    _add(player, page, "Lord-Imperatant", 1)
    _add(player, page, "Knight-Arcanum", 2)
    # Search as you type: the list narrows to what is typed.
    player.type(page.get_by_label("Find a unit"), "tauralon")
    expect(page.locator("#unit-list .pick")).to_have_count(1)
    shot("builder-search")
    _add(player, page, "Lord-Arcanum on Tauralon", 3)
    _add(player, page, "Liberators", 4)
    _add(player, page, "Liberators", 5)
    _add(player, page, "Sequitors", 6)
    _add(player, page, "Judicators with Boltstorm Crossbows", 7)
    _add(player, page, "Annihilators", 8)
    _add(player, page, "Celestar Ballista", 9)

    # Sizes step on the entry: points and models follow the catalogue.
    _reinforce(player, page, "Liberators")
    _reinforce(player, page, "Sequitors")
    _reinforce(player, page, "Annihilators")
    annihilators = page.locator(".entry", has=page.locator(".entry-name", has_text="Annihilators"))
    expect(annihilators.locator(".entry-name")).to_have_text("6 × Annihilators")
    expect(annihilators.locator(".size")).to_have_text("reinforced")

    # Every action on an entry is behind its one menu: the general is made there.
    expect(page.get_by_test_id("roster-verdict")).to_have_text("1 problem")
    player.tap(page.get_by_label("Actions: Lord-Imperatant"))
    shot("builder-entry-menu")
    player.tap(page.get_by_role("button", name="Make general: Lord-Imperatant"))
    expect(page.get_by_test_id("roster-verdict")).to_have_text("Valid")
    expect(page.get_by_test_id("roster-points")).to_have_text("1,960")
    # Keywords and roles came with the units: nothing typed but the search.
    lord = page.locator(".entry", has=page.locator(".entry-name", has_text="Lord-Arcanum on Tauralon"))
    expect(lord.locator(".tag", has_text="Leader")).to_be_visible()
    expect(lord.locator(".tag.kw", has_text="MONSTER")).to_be_visible()
    expect(page.locator("#roster-status .chips")).to_contain_text("Battleline 4")
    shot("builder-valid")

    assert player.taps == 18, player.taps
    assert player.taps <= 30
    assert player.typed == len("tauralon")


def test_a_unit_not_in_the_catalogue_is_still_added_by_hand(page: Page, live_server: str) -> None:
    page.goto(live_server + "/rosters/new?pack=aos-ghb-2021")
    page.get_by_label("Faction", exact=True).select_option("Seraphon")
    page.get_by_role("button", name="Start building").click()
    page.get_by_text("A unit not in the list").click()
    form = page.locator("#add-form")
    form.get_by_label("Name").fill("Converted Saurian Warlord")
    form.get_by_label("Points").fill("150")
    form.locator(".roles label", has_text="Leader").click()
    form.get_by_role("button", name="Add to roster").click()
    expect(page.locator(".entry-name", has_text="Converted Saurian Warlord")).to_be_visible()
    expect(page.get_by_test_id("roster-points")).to_have_text("150")
    # A custom unit has no size steps: its points are the player's.
    entry = page.locator(".entry", has=page.locator(".entry-name", has_text="Converted Saurian Warlord"))
    expect(entry.locator(".size-steps")).to_have_count(0)
