"""The real server in a thread, and Debian's headless Chromium on a phone viewport."""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page
from werkzeug.serving import make_server

from app import create_app
from tests import pseudo
from tests.browser.helpers import ARTIFACTS, picture
from tests.conftest import fresh_database


def chromium() -> str:
    """The Chromium the browser tests drive: MUSTER_CHROMIUM when set, else Debian's headless
    shell (Playwright's own choice for headless runs: the same build without the windowed
    browser's parts, about a third less CPU a test file), else Debian's whole Chromium."""
    return (
        os.environ.get("MUSTER_CHROMIUM")
        or shutil.which("chromium-headless-shell")
        or shutil.which("chromium")
        or "/usr/bin/chromium"
    )


CHROMIUM = chromium()
# How Chromium is started, for the browser tests and for the benchmark that loads a page in it.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    args = {**browser_type_launch_args, "args": CHROMIUM_ARGS}
    # Debian's where there is one (chromium()); elsewhere Playwright's own (playwright install chromium).
    if os.environ.get("MUSTER_CHROMIUM") or Path(CHROMIUM).exists():
        args["executable_path"] = CHROMIUM
    return args


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_context_args,
        "viewport": PHONE,
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
        "accept_downloads": True,
    }


def serve(app: Flask) -> tuple[Any, threading.Thread]:
    """Serve the app on a free port in a thread (templates compiled once a process: tests/conftest.py)."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    # The server looks for shutdown() every 50 ms instead of every half second, so that a
    # test's end does not wait for it.
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    return server, thread


@dataclass
class Served:
    """A running Muster: its address and the Flask app behind it (to change its config)."""

    url: str
    app: Flask


@pytest.fixture
def served_config() -> dict[str, Any]:
    """Settings a test file gives its Muster beside the usual ones (it overrides this fixture)."""
    return {}


@pytest.fixture(scope="session")
def pseudo_language(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of the pseudo-language's catalogues (tests/pseudo.py), written once a test process."""
    return pseudo.build(tmp_path_factory.mktemp("pseudo"))


@pytest.fixture
def served(tmp_path: Path, migrated: Path, served_config: dict[str, Any]) -> Iterator[Served]:
    """Muster on a free port, on its own SQLite file, for one test."""
    database = fresh_database(migrated, tmp_path / "muster.sqlite")
    # Game screens follow other phones every second (5 s in play): a test waits no longer.
    app = create_app(
        {"DATABASE": str(database), "SECRET_KEY": "browser-tests", "GAME_FOLLOW_SECONDS": 1, **served_config}
    )
    server, thread = serve(app)
    try:
        yield Served(f"http://127.0.0.1:{server.server_port}", app)
    finally:
        server.shutdown()
        thread.join(timeout=5)


@pytest.fixture
def live_server(served: Served) -> str:
    """The address of Muster on a free port, on its own SQLite file, for one test."""
    return served.url


@pytest.fixture
def shot(page: Any) -> Any:
    """Save a screenshot of the page for a person to look at, when MUSTER_SHOTS asks for them.

    One image pixel a CSS pixel (the phone's 390 px width), not the phone's two: a whole page
    at twice the size took the browser about twice as long to encode, a hundred times a run.
    """

    def take(name: str, target: Any = None) -> Path | None:
        return picture(target or page, name, full_page=True, scale="css")

    return take


@pytest.fixture(autouse=True)
def no_phone_left_open(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close the browser contexts a test left open once it has ended (after its own fixtures).

    A page left open goes on running for the rest of the test process: following a game every
    second, ticking its clock, asking a server that has stopped. Under load every later test
    shares the browser with them."""
    yield
    browser = getattr(request.node, "funcargs", {}).get("browser")
    for context in list(browser.contexts if browser is not None else []):
        context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A browser test that failed leaves a picture of every page its browser still shows, in
    test-artifacts/failed-<test>-<n>.png, whether or not screenshots were asked for."""
    report = yield
    browser = getattr(item, "funcargs", {}).get("browser")
    if report.when == "call" and report.failed and browser is not None:
        pages = [page for context in browser.contexts for page in context.pages if not page.is_closed()]
        name = re.sub(r"[^\w.-]+", "-", item.name).strip("-")
        ARTIFACTS.mkdir(exist_ok=True)
        for number, page in enumerate(pages, 1):
            path = ARTIFACTS / f"failed-{name}-{number}.png"
            try:
                page.screenshot(path=str(path), full_page=True, scale="css", timeout=5000)
            except PlaywrightError:  # a page that cannot draw now: the failure says the rest
                continue
            report.sections.append(("screenshot", str(path)))
            held = _what_the_phone_holds(page)
            if held:
                path.with_suffix(".txt").write_text(held)
                report.sections.append((f"what page {number} holds", held))
    return report


# What a failed test's page holds beside its picture: the game shown, its step, the outbox.
HOLDS = """async () => {
  const game = document.getElementById("game");
  const step = document.getElementById("step");
  const outbox = window.MusterOutbox ? await MusterOutbox.list() : [];
  return JSON.stringify({
    url: location.href,
    online: navigator.onLine,
    worker: !!(navigator.serviceWorker && navigator.serviceWorker.controller),
    game: game ? { ...game.dataset } : null,
    step: step ? { ...step.dataset, heading: (step.querySelector("h2") || {}).textContent } : null,
    outbox: outbox.map(e => ({ id: e.id, queue: e.queue, status: e.status, title: e.title,
                               reason: e.reason })),
  }, null, 1);
}"""


def _what_the_phone_holds(page: Page) -> str:
    try:
        return page.evaluate(HOLDS)
    except PlaywrightError:
        return ""
