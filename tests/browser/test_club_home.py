"""Club night on the home screen: tonight's tables, their scores following the games live."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Served
from tests.setups import NO_STRATEGIES, pitched_battle, start_live

pytestmark = pytest.mark.browser


def _game(page: Page, url: str, names: tuple[str, str], scenario: str = "savage-gains") -> dict:
    return start_live(page.request, url, pitched_battle(scenario, names=names, strategies=NO_STRATEGIES))


def _event(page: Page, url: str, game: dict, event: dict) -> None:
    sent = page.request.post(
        f"{url}/api/v1/games/{game['id']}/events",
        data={"id": str(uuid.uuid4()), **event},
        headers={"X-Edit-Token": game["edit_token"]},
    )
    assert sent.status == 201, sent.text()


def test_the_room_follows_every_table_from_the_home_screen(page: Page, served: Served, shot) -> None:
    served.app.config["HOME_REFRESH_SECONDS"] = 1
    url = served.url
    first = _game(page, url, ("Annabelle Fairweather", "Bartholomew Quill"))
    _game(page, url, ("Cai", "Dee"), "the-vice")
    _game(page, url, ("Eve", "Fox"), "marking-territory")
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(url + "/")
    cards = page.locator("#tables .table-card")
    expect(cards).to_have_count(3)
    expect(cards.first.locator(".game-title")).to_have_text("Savage Gains")
    expect(cards.first.locator(".vp")).to_have_text(["0", "0"])
    # Long names keep whole words on a small phone.
    for who in cards.first.locator(".who").all():
        assert who.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    shot("club-home")

    # Table 1 records a turn on its own phone; the home screen shows it without a reload.
    _event(page, url, first, {"type": "battle_round", "round": 1, "first": 0})
    _event(page, url, first, {"type": "turn", "round": 1, "player": 0, "control": {"west": 0}})
    vp = page.request.get(f"{url}/api/v1/games/{first['id']}").json()["players"][0]["vp"]
    assert vp > 0
    expect(cards.first.locator(".vp").first).to_have_text(str(vp), timeout=5000)

    # Anyone can open a table to watch: the score, and nothing to change it with.
    cards.first.click()
    expect(page).to_have_url(f"{url}/games/{first['id']}")
    expect(page.locator(".notice", has_text="You are watching this game")).to_be_visible()
    expect(page.locator("main form[method=post]")).to_have_count(0)
    # The long names squeeze into the score table instead of pushing it off the screen.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot("club-home-watching")
