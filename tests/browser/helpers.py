"""What the browser tests share: playing a Savage Gains game on its screens, reading what Muster
holds, waiting for the outbox and the service worker, screenshots, and axe-core."""

from __future__ import annotations

import functools
import json
import os
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, Response, expect


# --- playing a Savage Gains game on its screens ----------------------------------------------
def start_round(page: Page, r: int, first: str) -> None:
    form = page.locator("#round-form")
    expect(form.get_by_role("heading")).to_have_text(f"Battle round {r} begins")
    form.locator("label", has_text=first).click()
    form.get_by_role("button", name=f"Start battle round {r}").click()


def tap_until(page: Page, objective: str, holder: str) -> None:
    """Tap an objective's button until it shows the holder (one tap cycles it)."""
    row = page.locator(".objective-row", has=page.locator("label", has_text=objective))
    button = row.locator("button.cycle")
    for _ in range(3):
        if button.inner_text() == holder:
            return
        button.click()
    expect(button).to_have_text(holder)


def record_turn(
    page: Page,
    r: int,
    name: str,
    tactic: str | None = None,
    bonus: bool = False,
    taps: dict[str, str] | None = None,
) -> None:
    form = page.locator("#turn-form")
    expect(form.get_by_role("heading")).to_have_text(f"Battle round {r}: {name}'s turn")
    for objective, holder in (taps or {}).items():
        tap_until(page, objective, holder)
    if tactic:
        form.locator("#tactic").select_option(tactic)
        form.get_by_text("Battle tactic completed").click()
        if bonus:
            form.get_by_text("MONSTER bonus earned").click()
    form.get_by_role("button", name=f"Record {name}'s turn").click()


# --- waiting for Muster's answer ---------------------------------------------------------------
def brings(page: Page, path: str) -> Any:
    """Inside the block, wait for the answer to a form sent there that brings the page at
    ``path`` (a regular expression searched in the address's path, after any redirect).

    It waits Playwright's default time (30 s), so the five seconds of the ``expect`` after it
    count from the answer, not from the tap: on a busy machine the server, not the page, is slow.
    Only a POST's answer, or a page it redirected to, counts: not a screen following the table.
    """
    wanted = re.compile(path)

    def arrived(response: Response) -> bool:
        request = response.request
        sent = request.method == "POST" or request.redirected_from is not None
        return sent and response.status == 200 and bool(wanted.search(urlsplit(response.url).path))

    return page.expect_response(arrived)


# What a club event's console buttons bring back: the console, or their own answer in its place.
CONSOLE = r"/console(/[\w-]+)?$"
# A player's own page on a club event (after signing up, sending a list, confirming, voting).
PLAYER = r"/me/[^/]+$"


# --- what Muster holds, and the phone's outbox and worker --------------------------------------
def server_state(page: Page, base: str, game_id: str) -> dict:
    return page.request.get(f"{base}/api/v1/games/{game_id}").json()


def server_events(page: Page, base: str, game_id: str) -> list[dict]:
    return page.request.get(f"{base}/api/v1/games/{game_id}/events").json()


def until(page: Page, expression: str, arg: Any = None, timeout: float = 10.0) -> None:
    """Poll a page expression until it is true; unlike wait_for_function, promises are awaited."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if page.evaluate(expression, arg):
                return
        except PlaywrightError as exc:  # the page was navigating: ask the next one
            if "context was destroyed" not in str(exc):
                raise
        assert time.monotonic() < deadline, f"still false after {timeout:g} s: {expression}"
        page.wait_for_timeout(50)


def handled(page: Page, done: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Wait until ``done()`` is true of what the test's own handlers saw (a route, a request):
    Playwright hands them the page's events while the page waits here."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"not seen after {timeout:g} s: {what}"
        page.wait_for_timeout(50)


def quick_pauses(**pauses: int) -> str:
    """A script for ``add_init_script``: the page's own pauses (MusterPauses, static/outbox.js)
    set to these, in ms, so that a test waits for what follows them instead of sitting them out:
    ``retry``, before an entry is sent again after an answer that named no Retry-After (5 s for a
    player); ``follow``, between two looks at what the other phones recorded (the server's
    GAME_FOLLOW_SECONDS)."""
    return f"window.MusterPauses = {json.dumps(pauses)};"


def sent(page: Page) -> None:
    """Wait until the outbox is empty: every entry made online has had Muster's answer.

    An entry goes into the outbox before it is sent: a test that drops the connection right
    after a tap waits for its answer first, or the entry (rightly) waits on the phone.
    """
    until(page, "MusterOutbox.list().then(all => all.length === 0)")


def controlled(page: Page) -> None:
    """Wait until the service worker controls the page and keeps a copy of it."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    until(page, "caches.open('muster-pages-1').then(c => c.match(location.href)).then(r => !!r)")


def kept(page: Page, step: str) -> None:
    """The game page says this phone keeps it, at the step it shows."""
    note = page.locator("#offline-ready")
    expect(note).to_have_text("Kept on this phone: this game can go on offline.")
    expect(note).to_have_attribute("data-step", step)


def open_game(page: Page, game: dict) -> None:
    page.goto(game["join_url"])
    expect(page.locator(".scorebar")).to_be_visible()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    kept(page, page.locator("#game").get_attribute("data-step") or "")


# --- answers held back on the server ------------------------------------------------------------
class HeldAnswers:
    """Muster's answers to some requests held back until the test lets them go: a slow club
    Wi-Fi, a hung server, without a fixed wait.

    Requests that ``which(environ)`` picks wait while the answers are held, and at most ``cap``
    seconds (so a test that fails never leaves the server hanging). ``made_first``: the server
    makes the answer when asked and only its way back is held (it shows the game as it was);
    otherwise the request reaches Muster only once let go. The test waits on the server's side
    for what was asked and answered (threading.Condition), never for a fixed time.
    """

    def __init__(
        self, app: Flask, which: Callable[[dict[str, Any]], bool], made_first: bool = False, cap: float = 20.0
    ) -> None:
        self.app, self.which, self.made_first, self.cap = app, which, made_first, cap
        self.plain = app.wsgi_app
        self.changed = threading.Condition()
        self.asked = 0  # held requests that arrived
        self.answered = 0  # held requests whose answer has gone back
        self.go = threading.Event()
        self.go.set()
        app.wsgi_app = self._wsgi  # type: ignore[method-assign]

    def _wsgi(self, environ: dict[str, Any], start_response: Any) -> Any:
        if self.go.is_set() or not self.which(environ):
            return self.plain(environ, start_response)
        with self.changed:
            self.asked += 1
            self.changed.notify_all()
        try:
            if self.made_first:
                body = b"".join(self.plain(environ, start_response))
                self.go.wait(self.cap)
                return [body]
            self.go.wait(self.cap)
            return self.plain(environ, start_response)
        finally:
            with self.changed:
                self.answered += 1
                self.changed.notify_all()

    def hold(self) -> None:
        """Hold the answers to the requests picked from now on."""
        self.go.clear()

    def release(self) -> None:
        """Let every held answer go, and the later ones pass."""
        self.go.set()

    def wait_asked(self, count: int, timeout: float = 15.0) -> None:
        """Wait until ``count`` requests have been held (in all)."""
        with self.changed:
            assert self.changed.wait_for(lambda: self.asked >= count, timeout), (
                f"{self.asked} of {count} asked"
            )

    def wait_answered(self, timeout: float = 15.0) -> None:
        """Wait until every held request has had its answer sent back."""
        with self.changed:
            assert self.changed.wait_for(lambda: self.answered >= self.asked, timeout), (
                f"{self.answered} of {self.asked} answered"
            )

    def restore(self) -> None:
        """Let everything go and serve as before."""
        self.release()
        self.app.wsgi_app = self.plain  # type: ignore[method-assign]


def game_page_asked(environ: dict[str, Any]) -> bool:
    """A GET of a game's page (``/games/<id>``), not of its parts."""
    path = environ.get("PATH_INFO", "")
    return environ["REQUEST_METHOD"] == "GET" and path.startswith("/games/") and path.count("/") == 2


def page_refresh_asked(environ: dict[str, Any]) -> bool:
    """The page's own ask for its game (X-Muster-Refresh), not the worker's nor a navigation."""
    return game_page_asked(environ) and bool(environ.get("HTTP_X_MUSTER_REFRESH"))


def count_merges(page: Page) -> None:
    """From now on ``window.merges`` counts the server's games the page has merged (muster:merged)."""
    page.evaluate(
        "() => { window.merges = 0; document.addEventListener('muster:merged', () => window.merges++); }"
    )


def merges(page: Page) -> int:
    return page.evaluate("window.merges")


def merged_after(page: Page, count: int, timeout: float = 15000) -> None:
    """Wait until the page has merged a game from the server after the first ``count``."""
    page.wait_for_function("n => window.merges > n", arg=count, timeout=timeout)


def watch_steps(page: Page) -> None:
    """From now on the page notes every step heading it shows, however briefly (steps_seen)."""
    page.evaluate(
        """() => {
          window.stepsSeen = [];
          new MutationObserver(() => {
            const h = document.querySelector("#turn-form h2, #round-form h2");
            const text = h ? h.textContent : "";
            if (window.stepsSeen.at(-1) !== text) window.stepsSeen.push(text);
          }).observe(document.body, {subtree: true, childList: true, characterData: true});
        }"""
    )


def steps_seen(page: Page) -> list[str]:
    return page.evaluate("window.stepsSeen")


# --- screenshots for a person to look at -------------------------------------------------------
ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "test-artifacts"
# Taken only when asked (`make shots`): a hundred screenshots cost a run 10-30 s. A failed test
# always leaves its pages' pictures (tests/browser/conftest.py).
SHOTS = os.environ.get("MUSTER_SHOTS", "") not in ("", "0")


def picture(target: Page | Locator, name: str, **options: Any) -> Path | None:
    """Save a screenshot of the page (or of one part of it) as test-artifacts/<name>.png when
    MUSTER_SHOTS is set; ``options`` go to Playwright's screenshot (full_page, scale)."""
    if not SHOTS:
        return None
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    target.screenshot(path=str(path), **options)
    return path


def keep_file(name: str, data: bytes) -> None:
    """Save a file Muster gave (a PDF) as test-artifacts/<name> when MUSTER_SHOTS is set."""
    if SHOTS:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / name).write_bytes(data)


# --- accessibility ----------------------------------------------------------------------------
# Vendored by `make vendor-axe`, its version in the file name.
AXE = next((Path(__file__).resolve().parent / "vendor").glob("axe-core-*.min.js"))
SERIOUS = ("serious", "critical")


@functools.cache
def _axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


def problems(page: Page) -> list[str]:
    """Serious and critical axe-core violations on the page, one line each.

    axe-core (650 KB of script) is put into the page when it is first asked of it, not into
    every page the browser opens: evaluated through DevTools, which the site's CSP allows."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_axe_source())
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    found = []
    for violation in result["violations"]:
        if violation["impact"] not in SERIOUS:
            continue
        for node in violation["nodes"]:
            found.append(
                f"{violation['id']} ({violation['impact']}): {node['target']} {node['failureSummary']}"
            )
    return found
