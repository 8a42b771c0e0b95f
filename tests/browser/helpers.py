"""What the browser tests share: playing a Savage Gains game on its screens, reading what Muster
holds, waiting for the outbox and the service worker, and axe-core."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect


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
        page.wait_for_timeout(200)


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


# --- accessibility ----------------------------------------------------------------------------
# Vendored by `make vendor-axe`, its version in the file name.
AXE = next((Path(__file__).resolve().parent / "vendor").glob("axe-core-*.min.js"))
SERIOUS = ("serious", "critical")


def problems(page: Page) -> list[str]:
    """Serious and critical axe-core violations on the page, one line each."""
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
