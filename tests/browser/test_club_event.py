"""A club event run from the organiser's phone: six players, three Swiss rounds, two players
confirming their results on their own phones, the board and the standings at the end.

Lean on purpose: one organiser page and two player contexts for the whole event; games are
finished through the API (the game screen has its own tests) and the other tables' results
are entered on the console, as for games scored on paper.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, Served
from tests.browser.helpers import CONSOLE, PLAYER, brings

pytestmark = pytest.mark.browser

PASSWORD = "club-night-browser"


def _finish(page: Page, base: str, link: str) -> None:
    """End the table's First Blood game in round 1 (the second-named army is wiped out)."""
    match = re.search(r"/games/([^/]+)/join/([^/?#]+)", link)
    assert match, link
    sent = page.request.post(
        f"{base}/api/v1/games/{match[1]}/events",
        data={"id": str(uuid.uuid4()), "type": "round", "round": 1, "players": [{}, {"wiped_out": True}]},
        headers={"X-Edit-Token": match[2]},
    )
    assert sent.status == 201, sent.text()


def test_a_six_player_three_round_event_from_the_organisers_phone(
    page: Page, browser: Browser, served: Served, shot: Any
) -> None:
    served.app.config.update(ADMIN_PASSWORD=PASSWORD, EVENT_SEED=11)
    base = served.url
    # The organiser creates the event on their phone, after the admin login.
    page.goto(f"{base}/admin")
    page.get_by_label("Password").fill(PASSWORD)
    with brings(page, r"^/admin$"):
        page.get_by_role("button", name=re.compile("Log in", re.I)).click()
    expect(page.get_by_role("button", name=re.compile("Log out", re.I))).to_be_visible()
    page.goto(f"{base}/events/new")
    page.get_by_label("Name", exact=True).fill("Tuesday league")
    page.get_by_label("Rulepack").select_option("conquest-first-blood")
    page.get_by_label("Points limit").fill("500")
    page.get_by_label("Rounds").fill("3")
    page.get_by_label("Minutes per round").fill("90")
    # Created, then on to the console by the organiser's link: its answer, however slow, first.
    with brings(page, r"/console$"):
        page.get_by_role("button", name="Create the event").click()
    expect(page.locator("h1")).to_have_text("Tuesday league: console")
    event_url = page.get_by_role("link", name="Event page").get_attribute("href")
    assert event_url

    # Two players sign up on their own phones from the event page (its QR code's address).
    phones: dict[str, Page] = {}
    for name in ("Ann", "Bo"):
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        phone = context.new_page()
        phone.goto(base + event_url)
        expect(phone.locator("img.qr")).to_be_visible()
        if name == "Ann":
            shot("event-signup-form", phone)
        phone.get_by_label("Your name").fill(name)
        phone.get_by_label("Club (optional)").fill("Hammer")
        with brings(phone, PLAYER):
            phone.get_by_role("button", name="Sign up").click()
        expect(phone.locator("h1")).to_have_text(name)
        phones[name] = phone
    shot("event-signup-phone", phones["Ann"])

    # Four more are added on the console, then sign-up closes.
    page.reload()
    for name in ("Cy", "Di", "Ed", "Flo"):
        form = page.locator("form.add-player")
        form.get_by_label("Name").fill(name)
        with brings(page, CONSOLE):
            form.get_by_role("button", name="Add the player").click()
        expect(page.locator(".added")).to_contain_text(f"{name} is signed up")
    with brings(page, CONSOLE):
        page.get_by_role("button", name="Close sign-up").click()
    expect(page.get_by_role("button", name="Open sign-up")).to_be_visible()

    for number in (1, 2, 3):
        with brings(page, CONSOLE):
            page.get_by_role("button", name=f"Pair round {number}").click()
        # The tables are shown first, each with its reason, then made.
        expect(page.locator("#preview-h")).to_contain_text(f"Round {number}")
        with brings(page, CONSOLE):
            page.get_by_role("button", name="Make these tables").click()
        expect(page.locator(".pairing-preview")).to_have_count(0)
        expect(page.locator("#round-h")).to_have_text(f"Round {number}")
        with brings(page, CONSOLE):
            page.get_by_role("button", name=f"Start round {number}").click()
        expect(page.locator(".time-left")).to_contain_text(":")
        if number == 1:
            shot("event-console", page)
        pairings = page.request.get(f"{base}/api/v1/events/{event_url.split('/')[-1]}/rounds/{number}").json()
        tables = [p for p in pairings["pairings"] if "table" in p]
        assert len(tables) == 3
        # Ann and Bo find their table on their phones, play, and confirm the result there.
        played = set()
        for name, phone in phones.items():
            phone.reload()
            table = next(t for t in tables if name in t["names"])
            expect(phone.locator(".my-table")).to_contain_text(f"Table {table['table']}")
            opponent = next(n for n in table["names"] if n != name)
            expect(phone.locator(".opponent")).to_have_text(opponent)
            if table["table"] not in played:
                _finish(
                    page, base, phone.get_by_role("link", name="Open my game").get_attribute("href") or ""
                )
                played.add(table["table"])
        for name, phone in phones.items():
            phone.reload()
            if number == 1 and name == "Ann":
                shot("event-phone-confirm", phone)
            with brings(phone, PLAYER):
                phone.get_by_role("button", name="Confirm this result").click()
            expect(phone.locator(".confirmed")).to_be_visible()
        # The organiser confirms for the players without a phone here, and enters the
        # other tables' results from their paper slips.
        page.reload()
        for table in tables:
            if table["table"] in played:
                confirm = page.get_by_role("button", name=f"Confirm table {table['table']}")
                if confirm.count():
                    with brings(page, CONSOLE):
                        confirm.click()
                    expect(page.locator(f'.waiting-table[data-table="{table["table"]}"]')).to_have_count(0)
                continue
            # One row a table: each player's VP under their name; more VP wins.
            row = page.locator(f"#result-{table['table']}")
            row.get_by_label(f"{table['names'][0]}'s VP").fill("12")
            row.get_by_label(f"{table['names'][1]}'s VP").fill(str(3 + number))
            with brings(page, CONSOLE):
                row.get_by_role("button", name=f"Save table {table['table']}").click()
            expect(page.locator(f'.waiting-table[data-table="{table["table"]}"]')).to_have_count(0)
            expect(page.locator(f"#result-{table['table']} .result-status")).to_contain_text(
                f"{table['names'][0]} wins, 12–{3 + number}"
            )
        expect(page.locator(".waiting-table")).to_have_count(0)

    # Three rounds in: no rematch, the standings the same on the board and the API.
    event_id = event_url.split("/")[-1]
    met = set()
    for number in (1, 2, 3):
        for p in page.request.get(f"{base}/api/v1/events/{event_id}/rounds/{number}").json()["pairings"]:
            pair = frozenset(p["players"])
            assert pair not in met
            met.add(pair)
    standings = page.request.get(f"{base}/api/v1/events/{event_id}/standings").json()
    assert sum(r["wins"] for r in standings) == 9 and all(r["wins"] + r["losses"] == 3 for r in standings)
    board = browser.new_context(viewport={"width": 1280, "height": 720}, color_scheme="light")
    screen = board.new_page()
    screen.goto(f"{base}/events/{event_id}/board")
    rows = screen.locator(".standings tbody tr td:nth-child(2)")
    expect(rows).to_have_text([r["name"] for r in standings])
    # Dark by default, even in a light room's browser.
    assert screen.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(11, 13, 16)"
    shot("event-board", screen)
    page.goto(base + event_url)
    expect(page.locator(".standings tbody tr td:nth-child(2)")).to_have_text([r["name"] for r in standings])
    shot("event-page", page)
    board.close()
    for phone in phones.values():
        phone.context.close()
