"""Script in every text a player can type is shown as text, never run, in a real browser.

(What the server writes, pages and prints, is checked without a browser in
tests/web/test_hostile_output.py; here the browser shows that nothing runs.)

Each field gets its own payload, so a page that showed one unescaped would be caught by name:
the payloads must appear literally on the page, no element may carry an event-handler
attribute or be an inline script, nothing may open a dialog, and Chromium must report no
Content-Security-Policy violation (which an unescaped handler would trigger).
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.hostile import PAYLOADS, first_blood_roster, pitched_battle_roster
from tests.setups import first_blood, start_live

pytestmark = pytest.mark.browser


# What a page's DOM holds that could run script: handler attributes, inline scripts, js: URLs.
DANGER = """() => {
  const found = [];
  for (const el of document.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      if (attr.name.startsWith('on')) found.push(el.tagName + ' ' + attr.name);
      if (/^\\s*javascript:/i.test(attr.value) && ['href', 'src', 'action', 'formaction'].includes(attr.name))
        found.push(el.tagName + ' ' + attr.name + '=' + attr.value);
    }
    if (el.tagName === 'SCRIPT' && !el.src && el.type !== 'application/json' && el.type !== 'application/ld+json')
      found.push('inline script: ' + el.textContent.slice(0, 60));
    if (['IFRAME', 'MARQUEE', 'VIDEO', 'STYLE'].includes(el.tagName) && el.closest('main'))
      found.push('injected ' + el.tagName);
  }
  return found;
}"""


VIOLATION_REPORT = """document.addEventListener('securitypolicyviolation', (e) => {
  const el = e.target && e.target.outerHTML ? e.target.outerHTML.slice(0, 200) : String(e.target);
  console.log('CSP violation: ' + e.violatedDirective + ' by ' + e.sourceFile + ':' + e.lineNumber +
              ' sample=' + e.sample + ' element=' + el);
}, true);"""


class Watch:
    """Collects dialogs and CSP reports on a page while the test walks through screens."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.alarms: list[str] = []
        page.on("dialog", lambda d: (self.alarms.append(f"dialog: {d.message}"), d.dismiss()))
        page.on(
            "console",
            lambda m: (
                self.alarms.append(f"{m.text} (at {m.location}, on {page.url})")
                if "Content Security Policy" in m.text or m.text.startswith("CSP violation")
                else None
            ),
        )
        # Chromium's console line does not say what broke the policy; the DOM event does, so a
        # failure names the element, the file and line, and the start of what was refused.
        page.add_init_script(VIOLATION_REPORT)

    def inert(self, where: str, *labels: str) -> None:
        """The page shows each labelled payload as text and holds nothing that could run."""
        self.page.wait_for_load_state("networkidle")
        text = self.page.locator("body").inner_text() + " ".join(
            self.page.locator("input, textarea").evaluate_all("els => els.map(e => e.value)")
        )
        for label in labels:
            assert PAYLOADS[label] in text, f"{where}: the {label} is not shown as typed"
        assert self.page.evaluate(DANGER) == [], where
        assert self.alarms == [], where


def test_hostile_text_everywhere_is_shown_not_run(page: Page, live_server: str, shot) -> None:
    watch = Watch(page)

    # A game started on the phone, the players' names typed into the form.
    page.goto(live_server + "/games/new")
    page.locator("#name0").fill(PAYLOADS["player 1"])
    page.locator("#name1").fill(PAYLOADS["player 2"])
    page.locator("#scenario").select_option("savage-gains")
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]{22,}$"))
    game_url = page.url.split("#")[0]
    game_id = game_url.rstrip("/").rsplit("/", 1)[-1]
    watch.inert("game page", "player 1", "player 2")
    token = _edit_token(page, game_id)

    # The dice roller's purpose, recorded with the game.
    roll = page.request.post(
        f"{live_server}/api/v1/games/{game_id}/events",
        data={
            "id": str(uuid.uuid4()),
            "type": "roll",
            "dice": "d6",
            "results": [4],
            "purpose": PAYLOADS["roll"],
        },
        headers={"X-Edit-Token": token},
    )
    assert roll.status == 201, roll.text()
    page.reload()
    watch.inert("game page with a roll", "player 1", "roll")
    shot("hostile-game")
    page.goto(live_server + "/")
    watch.inert("home", "player 1", "player 2")

    # A Pitched Battles roster with hostile text in every field, attached to the game.
    aos = page.request.post(
        live_server + "/api/v1/rosters",
        data=pitched_battle_roster(),
    ).json()
    page.goto(aos["url"])
    watch.inert("roster page", "roster name", "faction", "unit", "keyword", "trait", "notes")
    page.goto(aos["edit_url"])
    watch.inert("roster editor", "roster name", "faction", "unit", "notes")
    # An entry's actions are behind its one menu (issue 33).
    page.locator(".entry").first.locator(".entry-menu summary").click()
    page.locator(".entry").first.get_by_role("link", name="Edit").click()
    watch.inert("entry editor", "unit", "trait", "notes")
    shot("hostile-roster")
    attached = page.request.post(
        f"{live_server}/api/v1/games/{game_id}/rosters",
        data={"player": 0, "roster": aos["id"]},
        headers={"X-Edit-Token": token},
    )
    assert attached.status == 201, attached.text()
    page.goto(game_url)
    watch.inert("game page with an army", "player 1", "unit")

    # A First Blood roster: officers and retinue have names of their own.
    fb = page.request.post(
        live_server + "/api/v1/rosters",
        data=first_blood_roster(),
    )
    assert fb.status == 201, fb.text()
    page.goto(fb.json()["url"])
    watch.inert("First Blood roster", "roster name", "unit", "officer", "retinue")

    # Terrain: a piece described by hand, and the set saved under a hostile name.
    made = start_live(page.request, live_server, first_blood("outflank"))
    page.goto(made["join_url"])
    page.goto(f"{live_server}/games/{made['id']}/terrain")
    page.locator(".seat label").filter(has=page.get_by_text("Ann", exact=True)).click()
    # The seat is sent with a boosted form: wait for the screen it brings back, or a slow
    # server swaps it in after the section below is opened, closing it again.
    page.locator(".seat").evaluate("form => { form.dataset.sent = '1'; }")
    page.get_by_role("button", name="Use this phone for that").click()
    expect(page.locator(".seat:not([data-sent])")).to_have_count(1)
    page.get_by_text("Describe a piece").click()
    describe = page.locator("details.describe")
    describe.locator("input[name=name]").fill(PAYLOADS["piece"])
    describe.locator("input[name=notes]").fill(PAYLOADS["piece notes"])
    describe.get_by_role("button", name="Add piece").click()
    expect(page.locator(".entry-name", has_text="marquee")).to_be_visible()
    page.get_by_text("Saved sets", exact=True).click()
    page.locator("#lib-name").fill(PAYLOADS["set"])
    page.get_by_role("button", name="Save the set").click()
    # The screen is swapped for one listing the saved set; open its section once it has come.
    expect(page.locator("button", has_text="Add the pieces of")).to_have_count(1)
    page.get_by_text("Saved sets", exact=True).click()
    watch.inert("terrain screen", "piece", "piece notes", "set")
    shot("hostile-terrain")


def test_a_swap_after_an_inline_style_breaks_no_policy(page: Page, live_server: str) -> None:
    """htmx's settle step copied an element's style attribute onto its replacement, which the
    CSP refuses: under load a screenshot's caret hiding (an inline style) met a late swap."""
    watch = Watch(page)
    roster = page.request.post(
        live_server + "/api/v1/rosters",
        data={
            "pack": "aos-ghb-2021",
            "name": "Hammerfest",
            "points_limit": 2000,
            "entries": [{"name": "Lord"}],
        },
    ).json()
    page.goto(roster["edit_url"])
    # What Playwright does to hide the caret in a screenshot (or a script, or the browser).
    page.evaluate(
        "() => document.querySelectorAll('input[id]').forEach((i) => { i.style.caretColor = 'red'; })"
    )
    page.locator(".entry").first.locator(".entry-menu summary").click()
    page.locator(".entry").first.get_by_role("link", name="Edit").click()
    expect(page.locator("#edit-form")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert watch.alarms == []


def _edit_token(page: Page, game_id: str) -> str:
    """The edit token this phone holds for the game, read from the join link it was shown
    (a new game's invite panel fetches it for Copy and Share; later, "Score on a second phone"
    fetches it when opened: the page itself carries no token)."""
    invite = page.locator("#invite[data-link]")
    if invite.count():
        address = page.url.split("/games/", 1)[0] + str(invite.get_attribute("data-link"))
        answer = page.request.get(address, headers={"HX-Request": "true"})
        found = re.search(r'value="([^"]*/join/[^"]*)"', answer.text())
        value: Any = found.group(1) if found else None
    else:
        page.locator("details.share summary", has_text="Score on a second phone").click()
        link = page.locator('input[aria-label="Join link"]')
        expect(link).to_have_count(1)
        value = link.input_value()
    if value and "/join/" in value:
        return str(value).rsplit("/join/", 1)[1]
    raise AssertionError(f"the game page of {game_id} shows this phone no join link")
