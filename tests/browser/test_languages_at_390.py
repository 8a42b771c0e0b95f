"""Every screen the accessibility sweep visits, and every game system's screen, in German, in
French and in the pseudo-language (tests/pseudo.py: each string 40% longer and bracketed) on a
390 px phone: nothing runs past the screen's edge, no button or label cuts its words, and in the
pseudo-language no English is left on a screen but the names players typed and the packs' own
words (issue 30 item 5)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from flask import Flask
from playwright.sync_api import APIRequestContext, Browser, Page, expect

from tests import pseudo
from tests.browser.conftest import Served
from tests.browser.helpers import picture
from tests.setups import FIRST_BLOOD, live_game, start_live

pytestmark = pytest.mark.browser

UNBOUND = "aos-conquest-unbound"
OLD_WORLD = "tow-triumph-treachery"
TYPED = {"Ann", "Bo", "Cy", "Hammerfest", "Lord Kroak", "Saurus Guard", "Skinks 70 points", "Seraphon"}
# Words that are the same in every language Muster speaks (its name, formats).
SAME_EVERYWHERE = {"Muster", "PDF", "JSON", "CSV", "QR", "HTTPS", "VP"}
# The book's name for its siege rules, a heading on the siege's screen.
BOOK_NAMES = {"Siege Warfare"}

# What runs past the screen or cuts its words, as a person would say it: an element's tag and
# text, and how far it goes. A sideways scroller (a wide score table) may hold more than the screen.
OVERFLOW = r"""
() => {
  const width = window.innerWidth;
  const found = [];
  // What a tap opens is measured open: its form must fit as well as the screen.
  document.querySelectorAll("details").forEach((d) => { d.open = true; });
  const named = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + " '" +
    (el.innerText || el.getAttribute("aria-label") || "").trim().slice(0, 40) + "'";
  const scroller = (el) => {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const x = getComputedStyle(up).overflowX;
      if (x === "auto" || x === "scroll") return true;
    }
    return false;
  };
  if (document.documentElement.scrollWidth > width) {
    found.push("the page is " + document.documentElement.scrollWidth + " px wide");
  }
  for (const el of document.body.querySelectorAll("*")) {
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden" || el.closest("[hidden], dialog:not([open])")) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || box.right <= 0) continue;  // hidden for the eye, read aloud
    if (style.position === "absolute" && style.clip !== "auto") continue;
    if (box.right > width + 1 && !scroller(el)) found.push(named(el) + " ends at " + Math.round(box.right) + " px");
    const words = el.matches("button, a.button, summary, label, legend, select, th, .tag, .pill");
    if (words && el.scrollWidth > el.clientWidth + 1 && style.overflowX !== "visible") {
      found.push(named(el) + " cuts its words (" + el.scrollWidth + " px in " + el.clientWidth + ")");
    }
    if (words) {
      // A word split over two lines ("Nouvell|e partie") reads as two words on a button.
      for (const node of el.childNodes) {
        if (node.nodeType !== Node.TEXT_NODE) continue;
        for (const match of node.textContent.matchAll(/[^\s·\[\]]{2,}/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (lines.size > 1) found.push(named(el) + " breaks the word '" + match[0] + "'");
        }
      }
    }
  }
  return [...new Set(found)];
}
"""


@pytest.fixture
def served_config(pseudo_language: Path) -> dict[str, Any]:
    """Muster speaks the pseudo-language too."""
    return {"TRANSLATION_FOLDERS": [str(pseudo_language)]}


def _pack_words(app: Flask) -> set[str]:
    """Every text the installed packs give (names from the books, their own-words summaries,
    their home cards) and their unit catalogues: the packs' words, not Muster's, stay as the pack
    wrote them in a language it gives no translation for."""
    from app.web.services import packs

    words: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            if len(value) > 1:
                words.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item)

    with app.test_request_context():
        for pack in packs().values():
            walk(pack.model_dump())
            walk([card.model_dump() for card in pack.home_cards()])
            if pack.unit_catalogue is not None:
                walk(pack.unit_catalogue.as_dict())
    return words


def _post(request: APIRequestContext, base: str, game: dict, event: dict) -> None:
    answer = request.post(
        f"{base}/api/v1/games/{game['id']}/events",
        data={"id": str(uuid.uuid4()), **event},
        headers={"X-Edit-Token": game["edit_token"]},
    )
    assert answer.status == 201, answer.text()


def _games(request: APIRequestContext, base: str) -> dict[str, dict]:
    """A game of each system, the Pitched Battle some way in (so its score table shows)."""
    aos = live_game(request, base)
    _post(request, base, aos, {"type": "battle_round", "round": 1, "first": 0})
    _post(request, base, aos, {"type": "turn", "round": 1, "player": 0, "control": {}, "tactic": "conquer"})

    def plain(pack: str, scenario: str, players: list[dict]) -> dict:
        body = {"pack": pack, "scenario": scenario, "points_limit": 2000, "players": players}
        return start_live(request, base, body)

    three = [{"name": n} for n in ("Ann", "Bo", "Cy")]
    return {
        "game-aos": aos,
        "game-first-blood": live_game(request, base, FIRST_BLOOD, "twin-contested-zones"),
        "game-siege": plain(
            UNBOUND,
            "the-relief-force",
            [{"name": "Ann", "side": "attacker"}, {"name": "Bo", "side": "defender"}],
        ),
        "game-tunnels": plain(UNBOUND, "tunnel-wars", [{"name": "Ann"}, {"name": "Bo"}]),
        "game-treachery-aos": plain(UNBOUND, "convergence-of-fate", three),
        "game-treachery-old-world": plain(OLD_WORLD, "altar-of-the-gods", three),
    }


def _screens(
    page: Page, base: str, games: dict[str, dict], roster: dict
) -> list[tuple[str, Callable[[], Any]]]:
    def game(name: str) -> Callable[[], Any]:
        return lambda: page.goto(games[name]["join_url"])

    def import_preview() -> None:
        page.goto(base + "/rosters/import")
        page.locator("textarea").first.fill(
            "Allegiance: Seraphon\n\nLeaders\nLord Kroak (430)\n- General\nSkinks 70 points\n\nTotal: 430 / 1000\n"
        )
        page.locator("form button[type=submit]").first.click()
        expect(page.locator(".unread")).to_have_count(1)

    return [
        ("home", lambda: page.goto(base + "/")),
        ("new-game", lambda: page.goto(base + "/games/new")),
        ("new-game-unbound", lambda: page.goto(base + f"/games/new?pack={UNBOUND}")),
        *((name, game(name)) for name in games),
        ("terrain", lambda: page.goto(base + f"/games/{games['game-first-blood']['id']}/terrain")),
        ("pack", lambda: page.goto(base + "/packs/aos-ghb-2021")),
        ("rosters", lambda: page.goto(base + "/rosters")),
        ("roster", lambda: page.goto(roster["edit_url"])),
        ("roster-new", lambda: page.goto(base + "/rosters/new")),
        ("roster-import", import_preview),
        ("error", lambda: page.goto(base + "/games/no-such-game")),
        ("offline", lambda: page.goto(base + "/offline")),
    ]


@pytest.mark.parametrize("language", ["de", "fr", pseudo.CODE])
def test_every_screen_holds_the_language_at_390_px(
    browser: Browser, browser_context_args: dict[str, Any], served: Served, shot_in: Any, language: str
) -> None:
    context = browser.new_context(
        **{**browser_context_args, "locale": language, "extra_http_headers": {"Accept-Language": language}}
    )
    page = context.new_page()
    base = served.url
    try:
        games = _games(page.request, base)
        roster = page.request.post(
            f"{base}/api/v1/rosters",
            data={
                "pack": "aos-ghb-2021",
                "name": "Hammerfest",
                "points_limit": 1000,
                "faction": "Seraphon",
                "entries": [
                    {"name": "Lord Kroak", "points": 430, "roles": ["Leader"], "general": True},
                    {"name": "Saurus Guard", "points": 115, "roles": ["Battleline"]},
                ],
            },
        ).json()
        allowed = TYPED | SAME_EVERYWHERE | BOOK_NAMES | _pack_words(served.app)
        overflowing: dict[str, list[str]] = {}
        english: dict[str, list[str]] = {}
        for name, show in _screens(page, base, games, roster):
            show()
            expect(page.locator("html")).to_have_attribute("lang", language)
            expect(page.locator("main")).to_be_visible()
            overflowing[name] = page.evaluate(OVERFLOW)
            if language == pseudo.CODE:
                main = BeautifulSoup(page.content(), "html.parser").select_one("main")
                english[name] = pseudo.english_left(main, allowed)
            shot_in(page, f"language-{language}-{name}")
    finally:
        context.close()
    too_wide = {name: lines for name, lines in overflowing.items() if lines}
    assert not too_wide, "\n".join(f"{name}: {line}" for name, lines in too_wide.items() for line in lines)
    left = {name: lines for name, lines in english.items() if lines}
    assert not left, "\n".join(f"{name}: {line!r}" for name, lines in left.items() for line in lines)


@pytest.fixture
def shot_in() -> Callable[[Page, str], None]:
    """Save a screenshot of a page of this test's own context for a person to look at (make shots)."""

    def take(page: Page, name: str) -> None:
        picture(page, name, full_page=True, scale="css")

    return take
