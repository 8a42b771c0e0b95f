"""First Blood offline: the next Victory Phase accounts for the phases still waiting."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import open_game, server_state
from tests.setups import live_game

pytestmark = pytest.mark.browser


def test_a_marker_destroyed_in_a_waiting_phase_is_offered_no_more(page: Page, live_server: str, shot) -> None:
    game = live_game(page.request, live_server, "conquest-first-blood", "twin-contested-zones")
    open_game(page, game)
    page.context.set_offline(True)
    page.get_by_role("button", name="Record round 1").click()
    expect(page.locator("#phase-form h2")).to_have_text("Round 2: Victory Phase")
    expect(page.locator("#phase-map .map-as-of")).to_have_text(
        "Map as of the last sync: what waits on this phone is not drawn on it."
    )
    ann = page.locator("#phase-form fieldset.player-part").first
    ann.get_by_text("Destroyed marker B (W)").click()
    page.get_by_role("button", name="Record round 2").click()

    # Round 3: Ann destroyed marker B in round 2, still waiting: it is not offered again, nor
    # its wounds; the other markers are.
    expect(page.locator("#phase-form h2")).to_have_text("Round 3: Victory Phase")
    ann = page.locator("#phase-form fieldset.player-part").first
    expect(ann.get_by_text("Destroyed marker B (W)")).to_be_hidden()
    expect(ann.get_by_label("Wounds dealt to B (W)")).to_be_disabled()
    expect(ann.locator(".marker-row:not([hidden])").first).to_be_visible()
    shot("offline-first-blood-marker-withdrawn")
    page.get_by_role("button", name="Record round 3").click()
    expect(page.locator("#outbox")).to_contain_text("Waiting to sync (3)")

    # Back online: the three phases reach the server and none is refused.
    page.context.set_offline(False)
    expect(page.locator("#outbox")).to_be_hidden()
    assert [r["round"] for r in server_state(page, live_server, game["id"])["rounds"]] == [1, 2, 3]
