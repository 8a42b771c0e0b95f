"""The club-night board on a 1920 x 1080 projector (issue 24 item 11): the lists side by side
filling the screen, a page at a time turning by itself, a sign-up code to scan across the room,
no tie marks before any result, one time format, and the final standings as a podium."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import Served
from tests.browser.helpers import problems

pytestmark = pytest.mark.browser

PASSWORD = "board-browser"
PROJECTOR = {"width": 1920, "height": 1080}
NAMES = [
    "Annabel Fairweather", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit",
    "Lu", "Max", "Ned", "Oz", "Pip", "Quin", "Ros", "Sam", "Tove", "Uma", "Vic",
]  # fmt: skip


def _box(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box


def _fits(page: Page) -> None:
    """Nothing below or beside the projector's screen: the board is read, never scrolled."""
    heights = page.evaluate("[document.documentElement.scrollHeight, window.innerHeight]")
    assert heights[0] <= heights[1] + 1, heights
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_board_fills_a_projector_and_ends_on_a_podium(
    browser: Browser, served: Served, shot: Any
) -> None:
    served.app.config.update(ADMIN_PASSWORD=PASSWORD, EVENT_SEED=9, BOARD_REFRESH_SECONDS=1)
    base = served.url
    context = browser.new_context(viewport=PROJECTOR, color_scheme="light")
    page = context.new_page()
    made = page.request.post(
        f"{base}/api/v1/events",
        data={
            "name": "Tuesday league",
            "pack": "aos-ghb-2021",
            "points_limit": 2000,
            "rounds": 1,
            "round_minutes": 150,
        },
        headers={"Authorization": f"Bearer {PASSWORD}"},
    ).json()
    api = f"{base}/api/v1/events/{made['id']}"
    org = {"X-Organiser-Token": made["organiser_token"]}
    for name in NAMES:
        assert page.request.post(f"{api}/players", data={"name": name}, headers=org).status == 201

    # Sign-up: the code to scan beside the first page of names; nobody is tied before a result.
    page.goto(made["board_url"])
    qr = _box(page, ".board-qr")
    standings = _box(page, "#board-standings-h")
    assert qr["width"] >= 400 and qr["height"] >= 400, qr
    assert standings["x"] > qr["x"] + qr["width"]
    expect(page.locator(".standings tbody tr")).to_have_count(12)
    expect(page.locator(".standings")).not_to_contain_text("=")
    _fits(page)
    assert problems(page) == []
    shot("board-sign-up", page)

    # Round 1 paired and started: tables and standings side by side, the time as the clock ticks it.
    assert page.request.post(f"{api}/signup", data={"open": False}, headers=org).status == 200
    assert page.request.post(f"{api}/rounds", headers=org).status == 201
    assert page.request.post(f"{api}/rounds/1/start", headers=org).status == 200
    expect(page.locator(".pairings")).to_be_visible()
    tables, ranked = _box(page, ".pairings"), _box(page, ".standings")
    assert abs(tables["y"] - ranked["y"]) < 2 and ranked["x"] >= tables["x"] + tables["width"]
    assert tables["width"] + ranked["width"] > 0.8 * PROJECTOR["width"]
    expect(page.locator(".time-left")).to_have_text(re.compile(r"^2:[0-5]\d:[0-5]\d$"))
    _fits(page)
    shot("board-round", page)
    # The lists longer than the screen turn their pages by themselves, and come round again.
    expect(page.locator("#board-standings-h")).to_have_text("Standings 13–22 of 22", timeout=10_000)
    expect(page.locator("#board-pairings-h")).to_have_text("Tables")  # eleven fit on one page
    _fits(page)
    expect(page.locator("#board-standings-h")).to_have_text("Standings 1–12 of 22", timeout=10_000)

    # The last result in: the final standings on a podium, the winner in the middle and highest.
    pairings = page.request.get(f"{api}/rounds/1").json()["pairings"]
    for n, table in enumerate(p for p in pairings if "table" in p):
        body = {"round": 1, "table": table["table"], "winner": table["players"][0], "vp": [20 + n, 3]}
        assert page.request.post(f"{api}/results", data=body, headers=org).status == 201
    expect(page.locator(".podium")).to_be_visible(timeout=10_000)
    expect(page.locator(".board-head p")).to_have_text("Final standings")
    first, second, third = (_box(page, f".podium-steps li:nth-child({n})") for n in (1, 2, 3))
    assert second["x"] < first["x"] < third["x"]
    assert first["height"] > second["height"] > third["height"]
    leader = page.request.get(f"{api}/standings").json()[0]["name"]
    expect(page.locator(".podium-steps li").first.locator(".podium-name")).to_have_text(leader)
    _fits(page)
    assert problems(page) == []
    shot("board-podium", page)
    context.close()
