"""A Tunnel Wars table screen on a phone: a refused die is told beside its form, and a die
recorded with no connection is kept, the screen saying the next step needs Muster, then sent."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import picture
from tests.setups import start_live

pytestmark = pytest.mark.browser


def test_a_refused_die_shows_by_its_form_and_one_kept_offline_reaches_muster(
    page: Page, live_server: str
) -> None:
    body = {
        "pack": "aos-conquest-unbound",
        "scenario": "tunnel-wars",
        "points_limit": 2000,
        "players": [{"name": "Ann"}, {"name": "Bo"}],
    }
    game = start_live(page.request, live_server, body)
    for s in game["seats"]:
        pick = {
            "id": f"00000000-0000-4000-8000-00000000000{s['player']}",
            "type": "contingent",
            "battle": 1,
            "player": s["player"],
            "contingent": 1,
        }
        answer = page.request.post(
            f"{live_server}/api/v1/games/{game['id']}/events", data=pick, headers={"X-Seat-Token": s["token"]}
        )
        assert answer.status == 201, answer.text()
    page.goto(game["join_url"])
    page.locator("#round-form label", has_text="Ann").click()
    page.get_by_role("button", name="Start round 1").click()
    expect(page.locator(".history .turn-entry").first).to_have_text(
        "Battle 1, round 1 begins: Ann takes the first turn"
    )

    # A 5 with a cave-in: the server's sentence shows inside the form, with the die as typed.
    form = page.locator("#unstable-form")
    form.locator(".segmented label", has_text="Ann").click()
    form.get_by_label("The die").fill("5")
    form.locator(".segmented label", has_text="Cave-in").click()
    form.get_by_label("Cave-in: where").fill("The narrow bend")
    form.get_by_role("button", name="Record the die").click()
    expect(form.get_by_role("alert")).to_have_text("choice must be left out: the die needed 6 or more.")
    expect(form.get_by_label("The die")).to_have_value("5")
    picture(page, "tunnels-table-refused", full_page=True)

    # Offline, the die is kept on the phone; no form whose round may be stale is left to fill.
    page.context.set_offline(True)
    form.locator(".segmented label", has_text="None").click()
    form.get_by_role("button", name="Record the die").click()
    expect(page.locator("#step")).to_have_text(
        "Unstable surroundings, round 1 waits on this phone: it is sent when Muster can be reached. "
        "The next step needs Muster: it shows when the connection is back."
    )
    expect(page.locator("#outbox")).to_contain_text("Unstable surroundings, round 1")
    page.context.set_offline(False)
    expect(page.locator(".history .turn-entry").first).to_have_text(
        "Unstable surroundings, hero phase of Ann, battle 1 round 1: 5, nothing falls"
    )
    expect(page.locator("#unstable-form [name=player]")).to_have_value("1")
