"""After a refusal, a held entry can be edited in its step's form: re-held with the change, then sent."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import Served
from tests.browser.helpers import picture, record_turn, server_events
from tests.setups import live_game

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(browser: Browser, browser_context_args: dict) -> Iterator[Page]:
    """A phone whose page replays its own outbox (no worker racing it)."""
    context = browser.new_context(**browser_context_args, service_workers="block")
    yield context.new_page()
    context.close()


def test_a_held_entry_is_edited_in_its_form_then_sent_with_the_change(phone: Page, served: Served) -> None:
    page, base = phone, served.url
    game = live_game(page.request, base)
    events = f"{base}/api/v1/games/{game['id']}/events"
    token = {"X-Edit-Token": game["edit_token"]}
    start = {"id": str(uuid.uuid4()), "type": "battle_round", "round": 1, "first": 0}
    assert page.request.post(events, headers=token, data=start).ok
    page.goto(game["join_url"])

    # Offline: Ann's turn, then Bo's turn built on it (Conquer, D border held).
    page.context.set_offline(True)
    record_turn(page, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
    record_turn(page, 1, "Bo", tactic="conquer", taps={"D border": "Bo"})
    # The other phone records Ann's turn first.
    other = {"id": str(uuid.uuid4()), "type": "turn", "round": 1, "player": 0, "control": {"west": 0}}
    assert page.request.post(events, headers=token, data=other).ok
    page.context.set_offline(False)
    outbox = page.locator("#outbox")
    expect(outbox.locator(".pending.refused")).to_contain_text("Ann has already taken their turn")
    bo = outbox.locator(".pending").nth(1)
    expect(bo.locator(".badge")).to_have_text("Held")

    # Edit it: Bo's turn opens in its form with the values Bo's entry holds.
    bo.get_by_role("button", name="Edit it").click()
    form = bo.locator("form.entry-form")
    expect(form.get_by_role("heading")).to_have_text("Battle round 1: Bo's turn")
    expect(form.locator("select[name=tactic]")).to_have_value("conquer")
    expect(form.get_by_label("Battle tactic completed")).to_be_checked()
    d_border = form.locator(".objective-row", has=page.locator("label", has_text="D border"))
    expect(d_border.locator("button.cycle")).to_have_text("Bo")
    # The live step's form is still there, apart (no id twice on the page).
    assert page.evaluate("document.querySelectorAll('#turn-form, #tactic').length") <= 2
    picture(page, "offline-edit-held-entry")

    # Changed: no tactic completed, W held by Bo; kept, and still held behind the refusal.
    form.get_by_label("Battle tactic completed").uncheck()
    west = form.locator(".objective-row", has=page.get_by_text("W", exact=True)).locator("button.cycle")
    while west.inner_text() != "Bo":
        west.click()
    form.get_by_role("button", name="Keep the change (still held)").click()
    expect(form).to_have_count(0)
    expect(bo.locator(".badge")).to_have_text("Held")
    expect(bo).to_contain_text("W: Bo")
    expect(bo).not_to_contain_text("Battle tactic completed")
    expect(page.locator(".note-sync")).to_have_text(
        "Changed on this phone: Battle round 1: Bo's turn. It stays held behind the entry Muster refused."
    )
    assert [e["player"] for e in server_events(page, base, game["id"]) if e["type"] == "turn"] == [0]

    # Once the refused entry is removed, the edited entry (already looked at) is sent as changed.
    outbox.get_by_role("button", name="Remove it from this phone").click()
    expect(outbox).to_be_hidden()
    expect(page.locator("#round-form h2")).to_have_text("Battle round 2 begins")
    turns = [e for e in server_events(page, base, game["id"]) if e["type"] == "turn"]
    assert [
        (e["player"], e.get("tactic"), e.get("tactic_completed"), e["control"].get("west")) for e in turns
    ] == [
        (0, None, None, 0),
        (1, "conquer", False, 1),
    ]


def test_an_entry_to_check_is_sent_with_the_change(phone: Page, served: Served) -> None:
    page, base = phone, served.url
    game = live_game(page.request, base)
    events = f"{base}/api/v1/games/{game['id']}/events"
    token = {"X-Edit-Token": game["edit_token"]}
    start = {"id": str(uuid.uuid4()), "type": "battle_round", "round": 1, "first": 0}
    assert page.request.post(events, headers=token, data=start).ok
    page.goto(game["join_url"])
    page.context.set_offline(True)
    record_turn(page, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
    record_turn(page, 1, "Bo", taps={"D border": "Bo"})
    other = {"id": str(uuid.uuid4()), "type": "turn", "round": 1, "player": 0, "control": {"west": 0}}
    assert page.request.post(events, headers=token, data=other).ok
    page.context.set_offline(False)
    outbox = page.locator("#outbox")
    outbox.get_by_role("button", name="Remove it from this phone").click()
    bo = outbox.locator(".pending").first
    expect(bo.locator(".badge")).to_have_text("Check it")

    bo.get_by_role("button", name="Edit it").click()
    form = bo.locator("form.entry-form")
    form.locator("select[name=tactic]").select_option("conquer")
    form.get_by_role("button", name="Send it with the change").click()
    expect(outbox).to_be_hidden()
    turns = [e for e in server_events(page, base, game["id"]) if e["type"] == "turn"]
    assert [(e["player"], e.get("tactic"), e["control"].get("defender-border")) for e in turns][1] == (
        1,
        "conquer",
        1,
    )
