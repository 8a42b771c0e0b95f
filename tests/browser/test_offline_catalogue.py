"""The unit catalogues stay on the phone with the app (issue 33): offline, they still load."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.helpers import until

pytestmark = pytest.mark.browser


def test_the_catalogues_load_offline(page: Page, live_server: str) -> None:
    page.goto(live_server + "/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    # The worker precached every catalogue when it installed.
    until(page, "caches.keys().then(k => k.some(n => n.startsWith('muster-shell-')))")
    until(
        page,
        "caches.keys().then(ks => caches.open(ks.find(n => n.startsWith('muster-shell-'))))"
        ".then(c => c.match('/catalogues/aos-3.json')).then(r => !!r)",
    )
    page.context.set_offline(True)
    factions = page.evaluate(
        "fetch('/catalogues/aos-3.json').then(r => r.json()).then(c => c.factions.length)"
    )
    assert factions == 26
    units = page.evaluate(
        "fetch('/catalogues/old-world.json').then(r => r.json())"
        ".then(c => c.factions.find(f => f.name === 'Empire of Man').units.map(u => u.name))"
    )
    assert "State Troops" in units
    page.context.set_offline(False)
