"""The game clock on two phones at one table: start, pass by tapping one's own time, pause,
a reload showing the same time on both, a limit run out, and a tap made offline that the
outbox replays with the time it was made."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.helpers import picture
from tests.setups import live_game

pytestmark = pytest.mark.browser


def faces(page: Page) -> list[str]:
    return page.locator("#clock .clock-time").all_text_contents()


def test_two_phones_share_one_clock(browser: Browser, live_server: str) -> None:
    # Two phones with no service worker: the outbox needs none, and the worker's install would
    # only slow the server the test is timing.
    phones = [
        browser.new_context(
            viewport={"width": 390, "height": 844},
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            service_workers="block",
        )
        for _ in range(2)
    ]
    try:
        page, phone = phones[0].new_page(), phones[1].new_page()
        made = live_game(page.request, live_server)
        page.goto(made["join_url"])
        ann, bo = page.get_by_test_id("clock-0"), page.get_by_test_id("clock-1")
        expect(page.locator("#clock h2")).to_have_text("Clock not started")
        phone.goto(made["join_url"])  # the second phone joined by the link
        expect(phone.locator("#clock h2")).to_have_text("Clock not started")

        # Until it starts, the clock is one line: each player's name starts their time.
        expect(ann.locator(".clock-time")).to_be_hidden()
        assert page.locator("#clock").bounding_box()["height"] < 80
        picture(page, "clock-idle")
        ann.click()  # Ann starts her time
        expect(page.locator("#clock .clock-how")).to_have_text("Tap your time when you finish.")
        expect(ann).to_have_class(re.compile(r"\brunning\b"))
        shown = ann.locator(".clock-time").text_content()
        expect(ann.locator(".clock-time")).not_to_have_text(
            shown or "", timeout=2500
        )  # it ticks in the browser
        picture(page, "clock-running")  # the phone's screen, not the whole page
        ann.click()  # Ann taps her own time: the clock passes to Bo
        expect(bo).to_have_class(re.compile(r"\brunning\b"))
        with page.expect_response(lambda r: "/clock" in r.url and r.request.method == "POST"):
            page.get_by_role("button", name="Pause").click()
        expect(page.get_by_role("button", name="Start: Bo")).to_be_visible()
        stopped = faces(page)
        assert stopped[0] != "0:00" and stopped[1] == "0:00"

        # The other phone shows the same clock after a reload.
        phone.reload()
        expect(phone.locator("#clock .clock-time")).to_have_text(stopped)

        # A limit of one minute each, then Bo runs: the other phone counts his time down too.
        page.locator("#clock summary").click()
        page.get_by_label("Minutes each player may use").fill("1")
        page.get_by_role("button", name="Set the limit").click()
        expect(page.locator("#clock h2")).to_have_text("Clock 1:00 each")
        started = time.monotonic()
        # The other phone reloads once the server has the tap, not while it is on its way.
        with page.expect_response(lambda r: "/clock" in r.url and r.request.method == "POST"):
            page.get_by_role("button", name="Start: Bo").click()
        phone.reload()
        expect(phone.get_by_test_id("clock-1")).to_have_class(re.compile(r"\brunning\b"))
        expect(phone.get_by_test_id("clock-1").locator(".clock-time")).to_have_text(
            re.compile(r"0:5\d"), timeout=3000
        )

        # Offline, Bo passes to Ann: kept on the phone, the strip moves on at once, and the
        # replay counts the tap from when it was made.
        page.context.set_offline(True)
        expect(page.locator(".note-net")).to_contain_text("Offline")  # the page knows it
        page.get_by_test_id("clock-1").click()
        tapped = time.monotonic()
        expect(page.locator("#outbox")).to_contain_text("Waiting to sync (1)")
        expect(ann).to_have_class(re.compile(r"\brunning\b"))
        picture(page, "clock-offline")
        # The scenario itself, not a wait for something: the phone stays offline 3 s so that the
        # tap reaches the server well after it was made, and the times can tell them apart.
        page.wait_for_timeout(3000)
        online = time.monotonic()
        page.context.set_offline(False)
        expect(page.locator("#outbox")).to_be_hidden(timeout=8000)
        clock = page.request.get(f"{live_server}/api/v1/games/{made['id']}").json()["clock"]
        assert clock["running"] == 0 and clock["taps"] == 6
        # Bo ran from his start until the offline tap, not until it was replayed.
        # (within a second: the phone knows the server's time only as well as its pages came)
        assert 0.5 <= clock["used"][1] <= tapped - started + 1.0 < online - started - 1.5, clock
        phone.reload()
        expect(phone.get_by_test_id("clock-0")).to_have_class(re.compile(r"\brunning\b"))
    finally:
        for context in phones:
            context.close()
