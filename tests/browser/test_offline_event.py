"""A club event's result confirmed on a phone with no connection joins the outbox like a game
entry, and reaches Muster when it answers (issue 25, item 10)."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import Served
from tests.browser.helpers import picture

pytestmark = pytest.mark.browser

PASSWORD = "club-night-offline"


def test_a_result_confirmed_offline_is_kept_and_sent(
    browser: Browser, browser_context_args: dict, served: Served
) -> None:
    served.app.config.update(ADMIN_PASSWORD=PASSWORD, EVENT_SEED=3)
    base = served.url
    phone = browser.new_context(**browser_context_args, service_workers="block")
    page = phone.new_page()
    api = page.request
    admin = {"Authorization": f"Bearer {PASSWORD}"}
    made = api.post(
        f"{base}/api/v1/events",
        data={"name": "Tuesday league", "pack": "conquest-first-blood", "points_limit": 500, "rounds": 1},
        headers=admin,
    ).json()
    organiser = {"X-Organiser-Token": made["organiser_token"]}
    ann = api.post(
        f"{base}/api/v1/events/{made['id']}/players", data={"name": "Ann"}, headers=organiser
    ).json()
    api.post(f"{base}/api/v1/events/{made['id']}/players", data={"name": "Bo"}, headers=organiser)
    assert api.post(f"{base}/api/v1/events/{made['id']}/rounds", headers=organiser).status == 201

    # The table's game ends (its army wiped out in round 1): the result is Ann's to confirm.
    page.goto(ann["url"])
    link = page.get_by_role("link", name="Open my game").get_attribute("href") or ""
    game_id, token = re.search(r"/games/([^/]+)/join/([^/?#]+)", link).groups()  # type: ignore[union-attr]
    ended = api.post(
        f"{base}/api/v1/games/{game_id}/events",
        data={"id": str(uuid.uuid4()), "type": "round", "round": 1, "players": [{}, {"wiped_out": True}]},
        headers={"X-Edit-Token": token},
    )
    assert ended.status == 201, ended.text()
    page.reload()

    # The Wi-Fi drops as Ann confirms: her confirmation is kept on the phone, and says so.
    phone.set_offline(True)
    page.get_by_role("button", name="Confirm this result").click()
    kept = page.locator("[data-outbox-note]")
    expect(kept).to_have_text(
        "Kept on this phone: Your confirmation of this result. It will be sent when Muster can be reached."
    )
    expect(page.get_by_role("button", name="Confirm this result")).to_be_hidden()
    picture(page, "offline-event-confirm-kept")

    # Back online it reaches Muster, and the phone shows the result as Muster holds it.
    phone.set_offline(False)
    expect(page.locator(".confirmed")).to_have_text("You confirmed it; waiting for your opponent.")
    table = api.get(f"{base}/api/v1/events/{made['id']}/rounds/1").json()["pairings"][0]
    assert table["result"]["confirmed"] == [
        table["players"][0] == ann["player"],
        table["players"][1] == ann["player"],
    ]
    phone.close()
