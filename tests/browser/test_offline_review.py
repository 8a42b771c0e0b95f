"""After a refusal, the entries made behind it wait for the player to check each one."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import open_game, record_turn, sent, server_state, start_round
from tests.setups import live_game

pytestmark = pytest.mark.browser


def other_phone_records_anns_turn(page: Page, base: str, game: dict) -> None:
    """Phone B records Ann's turn (W held) first, through the API as its page would post it.

    (Phone B as a second browser is in test_offline.py; here it only sets the scene.)
    """
    answer = page.request.post(
        f"{base}/api/v1/games/{game['id']}/events",
        headers={"X-Edit-Token": game["edit_token"]},
        data={"id": str(uuid.uuid4()), "type": "turn", "round": 1, "player": 0, "control": {"west": 0}},
    )
    assert answer.status == 201, answer.text()


def test_entries_held_behind_a_removed_refusal_are_sent_only_once_checked(
    page: Page, live_server: str, shot
) -> None:
    game = live_game(page.request, live_server)
    open_game(page, game)
    start_round(page, 1, "Ann")
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Ann's turn")
    sent(page)

    # Phone A, offline, records Ann's turn and Bo's turn after it.
    page.context.set_offline(True)
    record_turn(page, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
    record_turn(page, 1, "Bo", taps={"D border": "Bo"})
    expect(page.locator("#outbox")).to_contain_text("Waiting to sync (2)")

    # Phone B records Ann's turn first.
    other_phone_records_anns_turn(page, live_server, game)

    page.context.set_offline(False)
    outbox = page.locator("#outbox")
    expect(outbox.locator(".pending.refused")).to_contain_text("Ann has already taken their turn")
    expect(outbox.locator(".pending").nth(1).locator(".badge")).to_have_text("Held")

    # Removing the refused entry does not send Bo's turn: it was made on A's version of Ann's.
    # (The replay the removal starts is counted: muster:flushed says when it has ended.)
    expect(page.locator(".note-sending")).to_be_hidden()
    page.evaluate(
        "() => { window.flushes = 0; document.addEventListener('muster:flushed', () => window.flushes++); }"
    )
    outbox.get_by_role("button", name="Remove it from this phone").click()
    expect(outbox.locator("#outbox-h")).to_have_text("Check before sending (1)")
    bo = outbox.locator(".pending").first
    expect(bo.locator(".badge")).to_have_text("Check it")
    expect(bo).to_contain_text("Check this one first: it is sent only once you keep it.")
    expect(outbox.get_by_role("button", name="Try sending now")).to_have_count(0)
    shot("offline-review-after-refusal")
    # The replay the removal started has ended: had it sent Bo's turn, Muster would hold it.
    page.wait_for_function("() => window.flushes > 0")
    assert [(t["round"], t["player"]) for t in server_state(page, live_server, game["id"])["turns"]] == [
        (1, 0)
    ]

    # Kept: sent, and the totals are the server's.
    bo.get_by_role("button", name="Keep it and send it").click()
    expect(outbox).to_be_hidden()
    expect(page.locator("#round-form h2")).to_have_text("Battle round 2 begins")
    turns = server_state(page, live_server, game["id"])["turns"]
    assert [(t["round"], t["player"]) for t in turns] == [(1, 0), (1, 1)]


def test_a_checked_entry_can_be_discarded_instead(page: Page, live_server: str) -> None:
    game = live_game(page.request, live_server)
    open_game(page, game)
    start_round(page, 1, "Ann")
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Ann's turn")
    sent(page)
    page.context.set_offline(True)
    record_turn(page, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
    record_turn(page, 1, "Bo", taps={"D border": "Bo"})
    other_phone_records_anns_turn(page, live_server, game)

    page.context.set_offline(False)
    outbox = page.locator("#outbox")
    outbox.get_by_role("button", name="Remove it from this phone").click()
    outbox.locator(".pending").first.get_by_role("button", name="Discard it").click()
    expect(outbox).to_be_hidden()
    # Nothing of A's was sent; Bo's turn is there to record again.
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Bo's turn")
    assert [(t["round"], t["player"]) for t in server_state(page, live_server, game["id"])["turns"]] == [
        (1, 0)
    ]


def test_an_entry_made_online_behind_a_refusal_says_what_holds_it(page: Page, live_server: str) -> None:
    game = live_game(page.request, live_server)
    open_game(page, game)
    start_round(page, 1, "Ann")
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Ann's turn")
    sent(page)
    page.context.set_offline(True)
    record_turn(page, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
    other_phone_records_anns_turn(page, live_server, game)
    page.context.set_offline(False)
    expect(page.locator("#outbox .pending.refused")).to_contain_text("Ann has already taken their turn")

    # Online, Bo's turn is kept behind the refused entry: the phone says so, not "when reachable".
    record_turn(page, 1, "Bo")
    expect(page.locator(".note-sync")).to_have_text(
        "Kept on this phone: Battle round 1: Bo's turn. It is held behind the entry Muster refused: "
        "see Not recorded in the game."
    )
    expect(page.locator("#outbox .pending").nth(1).locator(".badge")).to_have_text("Held")
