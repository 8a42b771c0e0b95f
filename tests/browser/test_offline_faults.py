"""A game played on a flaky network: every entry reaches the server exactly once, in order, and
every clock tap made arrives once or is shown refused with its reason.

Each seed plays the same short game (two battle rounds of Savage Gains: six entries) on a
fresh phone while the network misbehaves at random: an entry's or a clock tap's POST is dropped
before the server, or reaches the server and loses its answer on the way back, and the phone
drops offline for a step or two now and then. After each step a player taps the clock (their
own time, another's, or Pause), chosen at random among what the strip offers. At the end the
network is healthy again and the outbox is sent; the server must hold each entry once, and each
tap the phone kept once unless Muster refused it with its sentence (on the phone, Not recorded;
or, answered while the strip was on screen, in the strip as the answer came); the phone shows the
server's totals and clock. Each seed runs with the service worker off and on (its Background Sync may
then send what waits too).

``MUSTER_FAULT_SEEDS`` (default 2 in ``make test``, 10 in ``make soak``) sets how many seeds run, ``MUSTER_FAULT_SEED_BASE``
(default 0) where they start: a rerun with other random faults keeps the test ids stable.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from playwright.sync_api import Browser, Page, Response, Route, expect
from playwright.sync_api import Error as PlaywrightError

from app import create_app
from tests import soak
from tests.browser.conftest import serve
from tests.browser.helpers import record_turn, server_events, server_state, start_round
from tests.setups import live_game

pytestmark = [pytest.mark.browser, pytest.mark.soak]

BASE = int(os.environ.get("MUSTER_FAULT_SEED_BASE", "0"))
SEEDS = range(BASE + 1, BASE + 1 + int(os.environ.get("MUSTER_FAULT_SEEDS") or soak.size(2, 10)))

# The game each seed plays: who starts each battle round, then each turn with its taps.
SCRIPT: list[tuple[Any, ...]] = [
    ("round", 1, "Ann"),
    ("turn", 1, "Ann", {"A border": "Ann"}),
    ("turn", 1, "Bo", {"D border": "Bo"}),
    ("round", 2, "Bo"),
    ("turn", 2, "Bo", {"W": "Bo"}),
    ("turn", 2, "Ann", {"A border": "Bo"}),
]
RUNNING = re.compile(r"\brunning\b")
# Each clock tap the phone keeps (every tap goes into the outbox before it is sent), told to the test.
KEPT_TAPS = """
document.addEventListener("muster:outbox", (event) => {
  const added = event.detail && event.detail.added;
  if (added && /\\/clock$/.test(added.queue || added.action)) window.musterTapKept(added.id);
});
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One Muster for every seed (each plays its own game): its templates compile once."""
    db: Path = tmp_path_factory.mktemp("faults") / "muster.sqlite"
    # A game a seed, from one address: no limit on games started a minute.
    served, thread = serve(create_app({"DATABASE": str(db), "SECRET_KEY": "browser-tests", "LIMIT_GAMES": 0}))
    yield f"http://127.0.0.1:{served.server_port}"
    served.shutdown()
    thread.join(timeout=5)


@dataclass
class Faults:
    """Random faults on a game's entry and clock POSTs, and what was done (for the failure message)."""

    rng: random.Random
    log: list[str] = field(default_factory=list)

    def handle(self, route: Route) -> None:
        # The phone may be closed with a request still on its way: nothing left to fault then.
        with contextlib.suppress(PlaywrightError):
            self.fault(route)

    def fault(self, route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        what = route.request.url.rsplit("/", 1)[-1]
        roll = self.rng.random()
        if roll < 0.25:
            self.log.append(f"{what} dropped")
            route.abort("failed")
        elif roll < 0.5:
            # The server records it; the answer never reaches the phone.
            self.log.append(f"{what} answer lost")
            route.fetch()
            route.abort("failed")
        else:
            self.log.append(f"{what} passed")
            route.continue_()


@dataclass
class Taps:
    """The clock taps the phone kept, and those Muster refused while the strip was on screen: the
    strip shows the sentence in place and the tap leaves the outbox, as a refused step does."""

    kept: set[str] = field(default_factory=set)
    refused_live: list[str] = field(default_factory=list)

    def keep(self, tap_id: str) -> None:
        self.kept.add(tap_id)

    def answered(self, response: Response) -> None:
        request = response.request
        # Replays from the outbox are counted on the phone (a refused one stays there, shown).
        if (
            request.method != "POST"
            or not request.url.endswith("/clock")
            or "x-muster-replay" in request.headers
        ):
            return
        sentence = response.headers.get("x-muster-refusal")
        if 400 <= response.status < 500 and sentence:
            self.refused_live.append(unquote(sentence))


def waiting(page: Page) -> int:
    """Entries still to send (a tap Muster refused stays, shown refused, until the player removes it)."""
    return page.evaluate("MusterOutbox.list().then(all => all.filter(e => e.status !== 'refused').length)")


def tap_the_clock(page: Page, rng: random.Random) -> None:
    """A player taps the clock: a player's time (their own passes it on, another's gives it
    them, a stopped clock starts), or Pause when it runs."""
    choices = ["clock-0", "clock-1"]
    if page.locator("#clock").get_by_role("button", name="Pause").is_visible():
        choices.append("pause")
    choice = rng.choice(choices)
    if choice == "pause":
        page.locator("#clock").get_by_role("button", name="Pause").click()
    else:
        page.locator("#clock").get_by_test_id(choice).click()


@pytest.mark.parametrize("worker", ["off", "on"])
@pytest.mark.parametrize("seed", SEEDS)
def test_a_flaky_network_loses_and_repeats_no_entry(
    browser: Browser, browser_context_args: dict, server: str, seed: int, worker: str
) -> None:
    rng = random.Random(seed)
    faults = Faults(rng)
    context = browser.new_context(
        **browser_context_args, service_workers="allow" if worker == "on" else "block"
    )
    # Left open when the test ends: conftest closes it after a failure's pictures are taken.
    page = context.new_page()
    made = Taps()
    page.expose_function("musterTapKept", made.keep)
    page.add_init_script(KEPT_TAPS)
    page.on("response", made.answered)
    game = live_game(page.request, server)
    page.goto(game["join_url"])
    if worker == "on":
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.route(f"**/games/{game['id']}/*", faults.handle)
    offline = False
    taps = 0
    for step in SCRIPT:
        # Now and then the phone drops offline for a step or two.
        if not offline and rng.random() < 0.25:
            offline = True
            faults.log.append("offline")
        elif offline and rng.random() < 0.6:
            offline = False
            faults.log.append("online")
        context.set_offline(offline)
        print(f"seed {seed}, worker {worker}, {step}: {faults.log}")  # shown when the test fails
        if step[0] == "round":
            start_round(page, step[1], step[2])
        else:
            record_turn(page, step[1], step[2], taps=step[3])
        tap_the_clock(page, rng)
        taps += 1
    expect(page.locator("#round-form h2")).to_have_text("Battle round 3 begins")

    # The network heals: what waits is sent, each entry once.
    page.unroute(f"**/games/{game['id']}/*")
    context.set_offline(False)
    deadline = time.monotonic() + 20
    while waiting(page):
        assert time.monotonic() < deadline, f"seed {seed}: still waiting; {faults.log}"
        page.evaluate("MusterOffline.flush()")  # resolves when that replay has ended
    events = server_events(page, server, game["id"])
    placed = [(e["type"], e["round"], e.get("player")) for e in events]
    assert placed == [
        ("battle_round", 1, None),
        ("turn", 1, 0),
        ("turn", 1, 1),
        ("battle_round", 2, None),
        ("turn", 2, 1),
        ("turn", 2, 0),
    ], f"seed {seed}: {faults.log}"
    assert len({e["id"] for e in events}) == len(SCRIPT)
    state = server_state(page, server, game["id"])
    for i, player in enumerate(state["players"]):
        expect(page.get_by_test_id(f"vp-{i}")).to_have_text(str(player["vp"]))
    expect(page.locator("#round-form h2")).to_have_text("Battle round 3 begins")

    # Every tap made arrived once, or is on the phone, refused, with Muster's sentence.
    refused = page.evaluate(
        "MusterOutbox.list().then(all => all.filter(e => e.status === 'refused').map(e => e.reason))"
    )
    said = f"{taps} tapped, {len(made.kept)} kept, {len(refused)} refused on the phone: {refused}, {len(made.refused_live)} refused on screen: {made.refused_live}"
    print(f"seed {seed}, worker {worker}: {said}")
    # A tap on a button the clock had just moved past makes no tap (the strip says so):
    # every tap the phone kept arrived once or was refused with Muster's sentence.
    assert len(made.kept) <= taps, said
    assert state["clock"]["taps"] + len(refused) + len(made.refused_live) == len(made.kept), (
        f"seed {seed}: {said}; {faults.log}"
    )
    for reason in refused:
        assert reason
        expect(page.locator("#outbox .pending.refused", has_text=reason).first).to_be_visible()
    if not refused:
        expect(page.locator("#outbox")).to_be_hidden()
        running = state["clock"]["running"]
        for i in range(2):
            button = page.locator("#clock").get_by_test_id(f"clock-{i}")
            if running == i:
                expect(button).to_have_class(RUNNING)
            else:
                expect(button).not_to_have_class(RUNNING)
