"""The Dice button covers nothing on a 390 px phone: not a score, not the outbox's buttons, not a label."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import Served
from tests.browser.helpers import picture, record_turn, sent, start_round
from tests.setups import live_game, pitched_battle, start_live

pytestmark = pytest.mark.browser

# For each element matched, scrolled to the bottom of the screen, then to its middle: the boxes
# of the element and of the Dice button as the player sees it (an overlap is a covered part).
COVERED = """selector => {
  const dice = [...document.querySelectorAll("[data-open-dice]")].filter(b => b.checkVisibility());
  if (dice.length !== 1) return ["Dice buttons on screen: " + dice.length];
  const found = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!el.checkVisibility()) continue;
    for (const block of ["end", "center"]) {
      el.scrollIntoView({block: block, inline: "nearest"});
      const a = el.getBoundingClientRect(), b = dice[0].getBoundingClientRect();
      const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
      if (!apart) found.push(block + ": " + (el.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 40));
    }
  }
  return found;
}"""


def look(page: Page, name: str) -> None:
    """A screenshot of what the phone's screen shows now, for a person to look at."""
    picture(page, name)


@pytest.fixture
def phone(browser: Browser, browser_context_args: dict) -> Iterator[Page]:
    """A phone with no service worker: this test looks at the screen, not at the caches."""
    context = browser.new_context(**browser_context_args, service_workers="block")
    yield context.new_page()
    context.close()


def test_the_dice_button_covers_nothing_on_a_phone(phone: Page, served: Served) -> None:
    page = phone
    # Long names make long labels and a wide second score column.
    game = start_live(
        page.request,
        served.url,
        pitched_battle(names=("Annabel of the Long Marches", "Bo the Unrelenting Defender")),
    )
    events = f"{served.url}/api/v1/games/{game['id']}/events"
    token = {"X-Edit-Token": game["edit_token"]}
    for event in (
        {"type": "battle_round", "round": 1, "first": 0},
        {"type": "turn", "round": 1, "player": 0, "control": {"west": 0}},
        {"type": "turn", "round": 1, "player": 1, "control": {"west": 1}},
        {"type": "battle_round", "round": 2, "first": 1},
    ):
        assert page.request.post(events, headers=token, data={"id": str(uuid.uuid4()), **event}).ok
    page.goto(game["join_url"])
    expect(page.locator("#turn-form")).to_be_visible()
    dice = page.get_by_role("button", name="Dice", exact=True)
    expect(dice).to_be_visible()

    # Entries waiting on the phone: Try sending now.
    page.context.set_offline(True)
    add = """([game, status]) => MusterOutbox.add({id: MusterOutbox.uuid(), game: game, status: status,
               action: "/games/" + game + "/events", body: "type=turn", title: "A turn kept on this phone",
               lines: ["Battle tactic: none"], reason: "Muster refused it."}).then(() => MusterOffline.render(false))"""
    page.evaluate(add, [game["id"], "waiting"])
    expect(page.get_by_role("button", name="Try sending now")).to_be_visible()
    for selector in (
        '.score[data-player="1"]',
        "table.rounds td:last-child",
        "[data-send-now]",
        "#step label",
        "#step button",
    ):
        assert page.evaluate(COVERED, selector) == [], selector
    look(page, "dice-room-waiting")

    # A refused entry ahead of it: the entry behind is held, with Discard it.
    page.evaluate(
        "() => MusterOutbox.list().then(all => Promise.all(all.map(e => MusterOutbox.remove(e.id))))"
    )
    page.evaluate(add, [game["id"], "refused"])
    page.evaluate(add, [game["id"], "waiting"])
    expect(page.get_by_role("button", name="Discard it")).to_be_visible()
    for selector in ("[data-dismiss]", ".pending .badge", ".scorebar .score"):
        assert page.evaluate(COVERED, selector) == [], selector
    look(page, "dice-room-held")
    dice.click()
    expect(page.get_by_role("dialog", name="Dice")).to_be_visible()


def test_first_blood_has_the_dice_button_too(phone: Page, served: Served) -> None:
    game = live_game(phone.request, served.url, "conquest-first-blood", "twin-contested-zones")
    phone.goto(game["join_url"])
    expect(phone.locator("#phase-form")).to_be_visible()
    assert phone.evaluate(COVERED, "#phase-form label") == []
    phone.get_by_role("button", name="Dice", exact=True).click()
    expect(phone.get_by_role("dialog", name="Dice")).to_be_visible()


def test_the_step_an_entry_kept_offline_moves_to_shows_its_heading_below_the_score_bar(
    phone: Page, served: Served
) -> None:
    page = phone
    # A battleplan whose name takes two lines of the score bar: the bar at its tallest.
    game = live_game(page.request, served.url, scenario="marking-territory")
    page.goto(game["join_url"])
    start_round(page, 1, "Ann")
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Ann's turn")
    sent(page)
    # Offline, the turn waits on the phone: the score bar grows by its sync line, and the
    # phone scrolls to Bo's turn. Its heading is seen whole, not under the bar.
    page.context.set_offline(True)
    record_turn(page, 1, "Ann")
    heading = page.locator("#turn-form h2")
    expect(heading).to_have_text("Battle round 1: Bo's turn")
    expect(page.locator("#sync-note")).to_be_visible()
    bar = page.locator(".scorebar").bounding_box()
    box = heading.bounding_box()
    assert bar and box and box["y"] >= bar["y"] + bar["height"], (bar, box)
    page.context.set_offline(False)
