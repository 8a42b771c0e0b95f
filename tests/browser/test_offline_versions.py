"""A refused entry's two versions, the phone's and the server's, come from one server partial:
the same lines in the same order and words; the refusal names the field in player words."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import Served
from tests.browser.helpers import picture, record_turn
from tests.setups import live_game

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(browser: Browser, browser_context_args: dict) -> Iterator[Page]:
    """A phone whose page replays its own outbox (no worker: the refusal is the page's)."""
    context = browser.new_context(**browser_context_args, service_workers="block")
    yield context.new_page()
    context.close()


def post(page: Page, game: dict, base: str, event: dict) -> str:
    """Record an event as the other phone does (through the API); its id."""
    event = {"id": str(uuid.uuid4()), **event}
    answer = page.request.post(
        f"{base}/api/v1/games/{game['id']}/events", headers={"X-Edit-Token": game["edit_token"]}, data=event
    )
    assert answer.status == 201, answer.text()
    return event["id"]


def lines(version) -> list[str]:
    return [" ".join(t.split()) for t in version.locator("li").all_inner_texts()]


def test_both_versions_of_a_refused_turn_read_alike(phone: Page, served: Served) -> None:
    page, base = phone, served.url
    game = live_game(page.request, base)
    post(page, game, base, {"type": "battle_round", "round": 1, "first": 0})
    page.goto(game["join_url"])

    # Offline, this phone records Ann's turn: Slay the Warlord (which has a MONSTER bonus), not completed.
    page.context.set_offline(True)
    form = page.locator("#turn-form")
    expect(form.get_by_role("heading")).to_have_text("Battle round 1: Ann's turn")
    form.locator("#tactic").select_option("slay-the-warlord")
    record_turn(page, 1, "Ann", taps={"A border": "Ann"})
    # The other phone records Ann's turn first: Conquer, completed.
    post(
        page,
        game,
        base,
        {
            "type": "turn",
            "round": 1,
            "player": 0,
            "control": {"west": 0},
            "tactic": "conquer",
            "tactic_completed": True,
        },
    )
    page.context.set_offline(False)

    refused = page.locator("#outbox .pending.refused")
    expect(refused.locator(".alert")).to_have_text(
        "Muster refused it: Ann has already taken their turn in battle round 1."
    )
    mine, theirs = refused.locator(".version.mine"), refused.locator(".version.theirs")
    expect(mine.locator("h3")).to_have_text("What you entered")
    expect(theirs.locator("h3")).to_have_text("What Muster holds now")
    expect(theirs.locator("li").first).to_contain_text("Battle round 1: Ann's turn, ")
    ours, held = lines(mine), lines(theirs)
    assert ours[0] == "Battle round 1: Ann's turn"
    # Tactics named alike (no bonus note on one side), "not completed" as plainly as "completed".
    assert ours[1] == "Battle tactic: Slay the Warlord, not completed"
    assert held[1] == "Battle tactic: Conquer, completed"
    # The objectives in the same order on both sides.
    objectives = [line.split(":")[0] for line in ours[2:]]
    assert objectives == [line.split(":")[0] for line in held[2:]] and len(objectives) >= 4
    assert "A border: Ann" in ours and "W: Ann" in held
    refused.scroll_into_view_if_needed()
    picture(page, "offline-versions-turn")


def test_a_refusal_names_the_field_in_player_words(phone: Page, served: Served) -> None:
    page, base = phone, served.url
    game = live_game(page.request, base, "conquest-first-blood", "twin-contested-zones")
    first = post(page, game, base, {"type": "round", "round": 1, "control": {}, "players": [{}, {}]})
    page.goto(game["join_url"])
    expect(page.locator("#phase-form h2")).to_have_text("Round 2: Victory Phase")

    # Offline, Ann slays the enemy Character Regiment in round 2.
    page.context.set_offline(True)
    page.locator("#phase-form fieldset.player-part").first.get_by_text(
        "Slew the enemy Character Regiment"
    ).click()
    page.get_by_role("button", name="Record round 2").click()
    expect(page.locator("#outbox")).to_contain_text("Waiting to sync (1)")
    # The other phone takes round 1 back and records it again: Ann slew it in round 1.
    post(page, game, base, {"type": "undo", "event": first})
    post(
        page,
        game,
        base,
        {"type": "round", "round": 1, "control": {}, "players": [{"character_slain": True}, {}]},
    )
    page.context.set_offline(False)

    refused = page.locator("#outbox .pending.refused")
    expect(refused.locator(".alert")).to_have_text(
        "Muster refused it: Slew the enemy Character Regiment this round (Ann): "
        "Ann already slew the enemy Character Regiment."
    )
    assert lines(refused.locator(".version.mine")) == [
        "Round 2: Victory Phase",
        "W zone: Nobody",
        "E zone: Nobody",
        "What Ann did this round: Slew the enemy Character Regiment",
        "What Bo did this round: nothing recorded",
    ]
    expect(refused.locator(".version.theirs")).to_contain_text("No Victory Phase for round 2.")
    expect(refused.locator(".version.theirs .totals")).to_have_text("Totals: Ann 2 VP, Bo 0 VP")
