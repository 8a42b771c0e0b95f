"""A phone in French offline: the scripts' notices speak French, from the words the worker keeps."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import controlled, sent, until
from tests.setups import live_game

pytestmark = pytest.mark.browser

OFFLINE = (
    "Hors ligne. Ce que vous enregistrez est gardé sur ce téléphone et envoyé dès que Muster est joignable."
)
KEPT = "Gardée sur ce téléphone : cette partie peut continuer hors ligne."


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """A phone whose own language is French (its Accept-Language and navigator.language)."""
    return {**browser_context_args, "locale": "fr-FR"}


def open_in_french(page: Page, live_server: str) -> dict:
    game = live_game(page.request, live_server)
    page.goto(game["join_url"])
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    controlled(page)
    expect(page.locator("#offline-ready")).to_have_text(KEPT)
    return game


def test_a_phone_in_french_is_told_in_french_that_it_is_offline(page: Page, live_server: str) -> None:
    open_in_french(page, live_server)
    page.context.set_offline(True)
    expect(page.locator(".note-net")).to_have_text(OFFLINE)

    # An entry made offline: kept, said in French, and counted in French once it is sent.
    form = page.locator("#round-form")
    form.locator("label", has_text="Ann").click()
    form.locator("button[type=submit]").click()
    expect(page.locator(".note-sync")).to_contain_text("Gardé sur ce téléphone : ")
    expect(page.locator(".note-sync")).to_contain_text(". Envoyé dès que Muster sera joignable.")
    expect(page.locator("#outbox-h")).to_have_text("En attente de synchronisation (1)")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    sent(page)
    expect(page.locator(".note-sync")).to_have_text("1 entrée envoyée à Muster.")
    expect(page.locator(".note-net")).to_have_count(0)


def test_offline_the_words_come_from_the_workers_cache(page: Page, live_server: str) -> None:
    open_in_french(page, live_server)
    words: list[Any] = []
    page.on("response", lambda r: words.append(r) if "/words/" in r.url else None)
    page.context.set_offline(True)
    response = page.reload()
    assert response is not None and response.from_service_worker
    expect(page.locator(".note-net")).to_have_text(OFFLINE)
    expect(page.locator("#offline-ready")).to_have_text(KEPT)
    assert [r.url for r in words] == [live_server + "/words/fr.js"]
    assert words[0].from_service_worker and words[0].ok
    until(page, "window.musterSay('Try sending now') === 'Essayer d\\'envoyer maintenant'")

    # A page never opened here: the offline page the worker keeps with the shell, in French too.
    page.goto(live_server + "/rosters/never-opened-here")
    expect(page.get_by_role("heading", name="Muster est injoignable")).to_be_visible()
    expect(page.locator("main")).to_contain_text("Commencer une nouvelle partie demande le serveur une fois")


def test_the_switch_chooses_the_offline_page_too(page: Page, live_server: str) -> None:
    """A French phone that chose German with the switch gets the German offline page."""
    open_in_french(page, live_server)
    page.select_option("#language-choice", "de")
    page.locator(".language-switch button").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    controlled(page)
    # The worker has heard the phone's pages are German now (offline.js tells it once).
    until(
        page,
        "caches.open('muster-settings').then(c => c.match('/__muster/language')).then(r => r && r.text()).then(t => t === 'de')",
    )
    page.context.set_offline(True)
    page.goto(live_server + "/rosters/never-opened-here")
    expect(page.get_by_role("heading", name="Muster ist nicht erreichbar")).to_be_visible()
