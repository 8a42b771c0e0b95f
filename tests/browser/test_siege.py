"""Two phones pick their siege tactics in secret; a third phone watching sees neither until both
are in, then both and the siege table's modifiers."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE
from tests.browser.helpers import picture
from tests.setups import start_live

pytestmark = pytest.mark.browser


def _phone(browser: Browser, base: str) -> Page:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True, base_url=base
    )
    return context.new_page()


def test_two_phones_pick_siege_tactics_in_secret_and_a_watcher_sees_neither_until_both(
    browser: Browser, live_server: str
) -> None:
    body: dict[str, Any] = {
        "pack": "aos-conquest-unbound",
        "scenario": "the-relief-force",
        "points_limit": 2000,
        "players": [{"name": "Ann", "side": "attacker"}, {"name": "Bo", "side": "defender"}],
    }
    watcher = _phone(browser, live_server)
    game = start_live(watcher.request, live_server, body)
    watcher.goto(f"/games/{game['id']}")
    ann, bo = _phone(browser, live_server), _phone(browser, live_server)
    ann.goto(game["seats"][0]["url"])
    bo.goto(game["seats"][1]["url"])

    # Ann hides a 3 (Mine): her phone shows it, the watcher's and Bo's only that she picked.
    ann.locator("#tactic-form label", has_text="Mine").click()
    ann.get_by_role("button", name="Pick in secret").click()
    expect(ann.get_by_test_id("tactic-attacker")).to_contain_text("3: Mine")
    picture(ann, "siege-seat-picked", full_page=True)
    for page in (watcher, bo):
        page.reload()
        expect(page.get_by_test_id("tactic-attacker")).to_have_text("Picked, hidden until both are in")
        assert "3: Mine" not in page.content()
    expect(watcher.get_by_test_id("modifiers")).to_have_count(0)

    # Bo hides a 4 (Gather Supplies): now every phone shows both and the modifiers.
    bo.locator("#tactic-form label", has_text="Gather Supplies").click()
    # The others reload once the server has Bo's pick, not while it is on its way.
    with bo.expect_response(lambda r: r.url.endswith("/events") and r.request.method == "POST"):
        bo.get_by_role("button", name="Pick in secret").click()
    for page in (watcher, ann, bo):
        page.reload()
        expect(page.get_by_test_id("tactic-attacker")).to_have_text("3: Mine")
        expect(page.get_by_test_id("tactic-defender")).to_have_text("4: Gather Supplies")
        expect(page.get_by_test_id("modifiers")).to_have_text("Batter +0, starve -1, tunnel +2")
    picture(watcher, "siege-watcher-revealed", full_page=True)

    # The club Wi-Fi drops: Ann's phone records the siege rolls from the step data it was sent.
    ann.context.set_offline(True)
    ann.locator("#batter-form button[type=submit]").click()
    ann.locator("#starve-form button[type=submit]").click()
    ann.locator("#tunnel-a").fill("4")
    ann.locator("#tunnel-d").fill("5")
    ann.locator("#tunnel-form button[type=submit]").click()
    expect(ann.locator("#round-form h2")).to_have_text("Battle round 1 begins")
    expect(ann.locator("#outbox")).to_contain_text("Tunnel")
    picture(ann, "siege-seat-offline", full_page=True)
    ann.context.set_offline(False)
    expect(ann.get_by_test_id("relief")).to_be_visible()  # the server's answer: the battle is on
    state = ann.request.get(f"{live_server}/api/v1/games/{game['id']}").json()
    assert state["stage"] == "battle" and state["siege"]["tunnel"]["completed"] is True
    for page in (watcher, ann, bo):
        page.context.close()


def test_a_shown_tactic_stays_until_both_phones_ask_to_pick_again(browser: Browser, live_server: str) -> None:
    """Issue 23 item 1: the second to pick sees both and may not take theirs back; a pick sent
    from a screen still showing the form is refused beside it; both phones ask, both pick again."""
    body: dict[str, Any] = {
        "pack": "aos-conquest-unbound",
        "scenario": "the-relief-force",
        "points_limit": 2000,
        "players": [{"name": "Ann", "side": "attacker"}, {"name": "Bo", "side": "defender"}],
    }
    ann = _phone(browser, live_server)
    game = start_live(ann.request, live_server, body)
    ann.goto(game["seats"][0]["url"])
    bo = _phone(browser, live_server)
    bo.goto(game["seats"][1]["url"])
    # Bo's seat also open on a tablet that keeps the pick form: it does not follow the table (as
    # a device asleep). Not a second tab of his phone: tabs share what waits (issue 25 item 7).
    kept = _phone(browser, live_server)
    kept.route("**/version", lambda route: route.abort())
    kept.goto(game["seats"][1]["url"])
    expect(kept.locator("#tactic-form")).to_be_visible()

    ann.locator("#tactic-form label", has_text="Mine").click()
    ann.get_by_role("button", name="Pick in secret").click()
    expect(ann.get_by_test_id("tactic-attacker")).to_contain_text("3: Mine")
    bo.reload()
    bo.locator("#tactic-form label", has_text="Gather Supplies").click()
    bo.get_by_role("button", name="Pick in secret").click()
    # Bo sees both; no undo on his phone, the reason instead, and the request to pick again.
    expect(bo.get_by_test_id("tactic-attacker")).to_have_text("3: Mine")
    expect(bo.locator("form.undo-form")).to_have_count(0)
    expect(bo.get_by_test_id("no-undo")).to_contain_text("Both siege tactics are shown")
    expect(bo.locator("#repick-form")).to_be_visible()
    picture(bo, "siege-seat-both-shown", full_page=True)

    # The kept tab picks again, knowing Ann's: refused, the rule beside the tactics.
    kept.locator("#tactic-form label", has_text="Counter-mine").click()
    kept.get_by_role("button", name="Pick in secret").click()
    alert = kept.get_by_test_id("siege").get_by_role("alert")
    expect(alert).to_have_text(
        "Bo has already picked a siege tactic, and both are shown; to pick again, both players ask "
        "for it on their own phones."
    )
    expect(kept.get_by_test_id("tactic-defender")).to_have_text("4: Gather Supplies")
    picture(kept, "siege-seat-second-pick-refused", full_page=True)

    # Both ask on their own phones; then both pick again, in secret.
    bo.get_by_role("button", name="Ask to pick the tactics again").click()
    expect(bo.get_by_test_id("repick")).to_contain_text("Bo asked")
    ann.reload()
    expect(ann.get_by_test_id("repick")).to_contain_text("Bo asked")
    ann.get_by_role("button", name="Ask to pick the tactics again").click()
    expect(ann.locator("#tactic-form")).to_be_visible()
    expect(ann.get_by_test_id("tactic-defender")).to_have_text("Not picked yet")
    picture(ann, "siege-seat-pick-again", full_page=True)
    for page in (ann, bo, kept):
        page.context.close()
