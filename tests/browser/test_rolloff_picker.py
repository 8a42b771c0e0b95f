"""The organiser's roll-off among tied players is a picker of their names (issue 24 item 6)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Served

pytestmark = pytest.mark.browser

PASSWORD = "rolloff-browser"


def test_the_organiser_picks_the_rolloff_winner_by_name(page: Page, served: Served, shot: Any) -> None:
    served.app.config.update(ADMIN_PASSWORD=PASSWORD)
    api = page.request
    body = {"name": "Club night", "pack": "conquest-first-blood", "points_limit": 500, "rounds": 1}
    event = api.post(
        f"{served.url}/api/v1/events", data=body, headers={"Authorization": f"Bearer {PASSWORD}"}
    ).json()
    org = {"X-Organiser-Token": event["organiser_token"]}
    base = f"{served.url}/api/v1/events/{event['id']}"
    for name in ("Ann", "Bo", "Cara", "Dan"):
        assert api.post(f"{base}/players", data={"name": name}, headers=org).ok
    for t in api.post(f"{base}/rounds", data={}, headers=org).json()["pairings"]:
        result = {"round": 1, "table": t["table"], "winner": t["players"][0], "vp": [10, 5]}
        assert api.post(f"{base}/results", data=result, headers=org).ok
    page.goto(f"{served.url}/events/{event['id']}/organiser/{event['organiser_token']}")
    form = page.locator("form.rolloff").first
    expect(form.locator("legend")).to_contain_text("Roll-off for place 1:")
    tied = form.locator("select").first.locator("option").all_inner_texts()
    assert len(tied) == 2 and "id" not in form.inner_text().lower().split()
    shot("event-rolloff-picker")
    form.locator("select").first.select_option(label=tied[1])
    form.locator("select").nth(1).select_option(label=tied[0])
    form.get_by_role("button", name="Record the roll-off").click()
    standings = page.locator("table.standings tbody tr")
    expect(standings.first).to_contain_text(tied[1])
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
