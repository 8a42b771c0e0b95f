"""Two phones at one table: each tap is answered in one line on both, Undo names what it takes
back and asks once before taking back the other phone's entry."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, Served
from tests.browser.helpers import HeldAnswers, controlled, picture, problems, start_round
from tests.setups import live_game

pytestmark = pytest.mark.browser


def _phone(browser: Browser, base: str) -> Page:
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True, base_url=base
    )
    page = context.new_page()
    return page


def test_two_phones_hear_each_entry_and_undo_asks_once(browser: Browser, live_server: str) -> None:
    ann, bo = _phone(browser, live_server), _phone(browser, live_server)
    game = live_game(ann.request, live_server)
    for page in (ann, bo):
        page.goto(game["join_url"])
    line = {p: p.get_by_test_id("last-entry") for p in (ann, bo)}

    form = ann.locator("#round-form")
    form.locator("label", has_text="Ann").click()
    form.get_by_role("button", name="Start battle round 1").click()
    expect(line[ann]).to_have_text("Round 1 started: Ann goes first")
    turn = ann.locator("#turn-form")
    turn.locator(".objective-row", has=ann.locator("label", has_text="A border")).locator(
        "button.cycle"
    ).click()
    turn.get_by_role("button", name="Record Ann's turn").click()
    # The phone that recorded says so and shows the next step under the line.
    expect(line[ann]).to_have_text("Ann's turn recorded: +1 VP")
    expect(ann.locator("#turn-form h2")).to_have_text("Battle round 1: Bo's turn")
    expect(ann.locator("#last-entry")).to_be_in_viewport()
    picture(ann, "feedback-recorded")
    assert problems(ann) == []
    # The other phone, following the table, says it too.
    expect(line[bo]).to_have_text("Ann's turn recorded: +1 VP")

    # Bo's phone did not record Ann's turn: its Undo asks once, in the page.
    bo.get_by_role("button", name="Undo Ann's turn, round 1 (1 VP)").click()
    expect(bo.get_by_text("Another phone recorded this entry. Take it back for everyone?")).to_be_visible()
    picture(bo, "feedback-undo-asks")
    assert problems(bo) == []
    expect(bo.get_by_test_id("vp-0")).to_have_text("1")
    bo.get_by_role("button", name="Yes, undo it").click()
    expect(line[bo]).to_have_text("Undone: Ann's turn, round 1 (1 VP)")
    expect(bo.get_by_test_id("vp-0")).to_have_text("0")
    # Ann's phone is told.
    expect(line[ann]).to_have_text("Undone: Ann's turn, round 1 (1 VP)")
    expect(ann.get_by_test_id("vp-0")).to_have_text("0")

    # Ann's own entry is taken back at one tap.
    ann.locator("#turn-form").get_by_role("button", name="Record Ann's turn").click()
    expect(line[ann]).to_have_text("Ann's turn recorded")
    ann.get_by_role("button", name="Undo Ann's turn, round 1").click()
    expect(line[ann]).to_have_text("Undone: Ann's turn, round 1")
    expect(ann.get_by_text("Another phone recorded this entry.")).to_have_count(0)


def round_one_started(page: Page, live_server: str) -> dict:
    """A new game on a phone its worker controls, round 1 started (Ann first) and shown so."""
    game = live_game(page.request, live_server)
    page.goto(game["join_url"])
    controlled(page)
    start_round(page, 1, "Ann")
    expect(page.get_by_test_id("last-entry")).to_have_text("Round 1 started: Ann goes first")
    return game


def test_undo_tapped_while_the_entry_is_on_its_way_says_to_wait_for_its_answer(
    page: Page, live_server: str, served: Served
) -> None:
    game = round_one_started(page, live_server)
    line = page.get_by_test_id("last-entry")
    slow = HeldAnswers(served.app, lambda environ: environ["REQUEST_METHOD"] == "POST")
    try:
        slow.hold()
        page.locator("#turn-form").get_by_role("button", name="Record Ann's turn").click()
        slow.wait_asked(1)
        # The round's Undo, tapped while Ann's turn has no answer yet: nothing is undone, and
        # the phone says why (not that Muster cannot be reached).
        page.get_by_role("button", name=re.compile(r"^Undo ")).click()
        said = page.get_by_text("Still waiting for Muster's answer to Battle round 1: Ann's turn.")
        expect(said).to_contain_text("Undo it once the answer shows.")
        expect(page.get_by_text("Undo needs Muster")).to_have_count(0)
    finally:
        slow.restore()
    expect(line).to_have_text("Ann's turn recorded")
    page.get_by_role("button", name="Undo Ann's turn, round 1").click()
    expect(line).to_have_text("Undone: Ann's turn, round 1")
    events = page.request.get(f"{live_server}/api/v1/games/{game['id']}/events").json()
    assert [e["type"] for e in events] == ["battle_round", "turn", "undo"]


def test_undo_tapped_the_moment_the_entry_shows_takes_it_back(page: Page, live_server: str) -> None:
    round_one_started(page, live_server)
    line = page.get_by_test_id("last-entry")
    # The phone's storage is slow: an entry answered and shown takes a while to leave the outbox
    # (under load, a few hundred milliseconds). An Undo tapped meanwhile still goes to Muster.
    page.evaluate(
        """() => {
          const mark = MusterOutbox.markSent;
          MusterOutbox.markSent = (...args) => new Promise((done) => setTimeout(done, 1500)).then(() => mark(...args));
        }"""
    )
    page.locator("#turn-form").get_by_role("button", name="Record Ann's turn").click()
    expect(line).to_have_text("Ann's turn recorded")
    page.get_by_role("button", name="Undo Ann's turn, round 1").click()
    expect(line).to_have_text("Undone: Ann's turn, round 1")
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Ann's turn")
    expect(page.get_by_text("Undo needs Muster")).to_have_count(0)
