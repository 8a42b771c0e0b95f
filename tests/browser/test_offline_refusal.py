"""A First Blood Victory Phase kept offline that the other phone beat: the refusal's sentence
comes from its header and what the server holds is the server's own HTML (a name outside
latin-1 included)."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import open_game

pytestmark = pytest.mark.browser


def test_a_refused_victory_phase_shows_the_servers_own_view(page: Page, live_server: str, shot) -> None:
    made = page.request.post(
        f"{live_server}/api/v1/games",
        data={
            "pack": "conquest-first-blood",
            "scenario": "twin-contested-zones",
            "points_limit": 500,
            "players": [{"name": "Zoë", "side": "player1"}, {"name": "Bo", "side": "player2"}],
        },
    ).json()
    open_game(page, made)
    page.context.set_offline(True)
    page.get_by_text("Slew the enemy Character Regiment").first.click()
    page.get_by_role("button", name="Record round 1").click()
    expect(page.locator("#outbox")).to_contain_text("Waiting to sync (1)")
    expect(page.locator("#phase-form h2")).to_have_text("Round 2: Victory Phase")

    # The other phone records round 1 first, with nothing scored.
    other = page.request.post(
        f"{live_server}/api/v1/games/{made['id']}/events",
        headers={"X-Edit-Token": made["edit_token"]},
        data={"id": str(uuid.uuid4()), "type": "round", "round": 1, "control": {}, "players": [{}, {}]},
    )
    assert other.status == 201

    page.context.set_offline(False)
    refused = page.locator("#outbox .pending.refused")
    expect(refused).to_contain_text(
        "Muster refused it: Round 1's Victory Phase is already recorded; undo it to change it."
    )
    expect(refused.locator(".version").first).to_contain_text(
        "What Zoë did this round: Slew the enemy Character Regiment"
    )
    held = refused.locator(".version").nth(1)
    expect(held.locator("li").first).to_have_text("Round 1: Zoë +0 VP, Bo +0 VP")
    expect(held.locator(".totals")).to_have_text("Totals: Zoë 0 VP, Bo 0 VP")
    shot("offline-first-blood-refused")
    # The next step is what the server expects: round 2, the refused phase held aside.
    expect(page.locator("#phase-form h2")).to_have_text("Round 2: Victory Phase")
