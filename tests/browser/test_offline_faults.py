"""A game played on a flaky network: every entry reaches the server exactly once, in order.

Each seed plays the same short game (two battle rounds of Savage Gains: six entries) on a
fresh phone while the network misbehaves at random: an entry's POST is dropped before the
server, or reaches the server and loses its answer on the way back, and the phone drops
offline for a step or two now and then. At the end the network is healthy again and the
outbox is sent; the server must hold each entry once, the phone show the server's totals.

``MUSTER_FAULT_SEEDS`` (default 10) sets how many seeds run, ``MUSTER_FAULT_SEED_BASE``
(default 0) where they start: a rerun with other random faults keeps the test ids stable.
"""

from __future__ import annotations

import contextlib
import os
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError

from app import create_app
from tests.browser.conftest import serve
from tests.browser.test_offline import server_events, server_state
from tests.browser.test_score_a_game import record_turn, start_round
from tests.setups import live_game

pytestmark = pytest.mark.browser

BASE = int(os.environ.get("MUSTER_FAULT_SEED_BASE", "0"))
SEEDS = range(BASE + 1, BASE + 1 + int(os.environ.get("MUSTER_FAULT_SEEDS", "10")))

# The game each seed plays: who starts each battle round, then each turn with its taps.
SCRIPT: list[tuple[Any, ...]] = [
    ("round", 1, "Ann"),
    ("turn", 1, "Ann", {"A border": "Ann"}),
    ("turn", 1, "Bo", {"D border": "Bo"}),
    ("round", 2, "Bo"),
    ("turn", 2, "Bo", {"W": "Bo"}),
    ("turn", 2, "Ann", {"A border": "Bo"}),
]


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
    """Random faults on a game's entry POSTs, and what was done (for the failure message)."""

    rng: random.Random
    log: list[str] = field(default_factory=list)

    def handle(self, route: Route) -> None:
        # The phone may be closed with a request still on its way: nothing left to fault then.
        with contextlib.suppress(PlaywrightError):
            self.fault(route)

    def fault(self, route: Route) -> None:
        roll = self.rng.random()
        if roll < 0.25:
            self.log.append("dropped")
            route.abort("failed")
        elif roll < 0.5:
            # The server records it; the answer never reaches the phone.
            self.log.append("answer lost")
            route.fetch()
            route.abort("failed")
        else:
            self.log.append("passed")
            route.continue_()


def outbox_size(page: Page) -> int:
    return page.evaluate("MusterOutbox.list().then(all => all.length)")


@pytest.mark.parametrize("seed", SEEDS)
def test_a_flaky_network_loses_and_repeats_no_entry(
    browser: Browser, browser_context_args: dict, server: str, seed: int
) -> None:
    rng = random.Random(seed)
    faults = Faults(rng)
    context = browser.new_context(**browser_context_args, service_workers="block")
    page = context.new_page()
    try:
        game = live_game(page.request, server)
        page.goto(game["join_url"])
        page.route(f"**/games/{game['id']}/events", faults.handle)
        offline = False
        for step in SCRIPT:
            # Now and then the phone drops offline for a step or two.
            if not offline and rng.random() < 0.25:
                offline = True
                faults.log.append("offline")
            elif offline and rng.random() < 0.6:
                offline = False
                faults.log.append("online")
            context.set_offline(offline)
            print(f"seed {seed}, {step}: {faults.log}")  # shown when the test fails
            if step[0] == "round":
                start_round(page, step[1], step[2])
            else:
                record_turn(page, step[1], step[2], taps=step[3])
        expect(page.locator("#round-form h2")).to_have_text("Battle round 3 begins")

        # The network heals: what waits is sent, each entry once.
        page.unroute(f"**/games/{game['id']}/events")
        context.set_offline(False)
        deadline = time.monotonic() + 15
        while outbox_size(page):
            assert time.monotonic() < deadline, f"seed {seed}: still waiting; {faults.log}"
            page.evaluate("MusterOffline.flush()")
            page.wait_for_timeout(100)
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
        expect(page.locator("#outbox")).to_be_hidden()
        expect(page.locator("#round-form h2")).to_have_text("Battle round 3 begins")
    finally:
        context.close()
