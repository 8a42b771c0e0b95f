"""A six-player club event to the ranking sites' standard (issue 31), from the organiser's
phone and three players' own: The Old World's bands, painting in the standings and a secret
sportsmanship vote, lists sent from the phones (one imported by paste, one built), verdicts
on the console, the lock and a change after it shown at check-in, the pairing preview, a
drop between rounds, then the board on a 1920 x 1080 projector and the PDFs with the new
columns. With `make shots`, its screenshots and PDFs land in test-artifacts/.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PHONE, Served
from tests.browser.helpers import CONSOLE, PLAYER, brings, keep_file
from tests.list_texts import CONQUEST
from tests.pdfs import pdf_text

pytestmark = pytest.mark.browser

PASSWORD = "club-lists-browser"
# Bo's list, built in Muster: his Character Regiment and two regiments, 600 points.
BO_LIST = {
    "pack": "conquest-first-blood",
    "name": "Shieldwall",
    "points_limit": 800,
    "faction": "Hundred Kingdoms",
    "entries": [
        {"name": "Marshal", "kind": "character", "points": 120, "models": 1},
        {"name": "Men-at-Arms", "kind": "regiment", "type": "infantry", "points": 150, "models": 4},
        {"name": "Mercenary Crossbows", "kind": "regiment", "type": "infantry", "points": 330, "models": 4},
    ],
}


def _phone(browser: Browser) -> Page:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    return context.new_page()


def _make_tables(page: Page, number: int, shot: Any = None) -> None:
    """Pair the round on the console: the preview with its reasons, then the tables."""
    with brings(page, CONSOLE):
        page.get_by_role("button", name=f"Pair round {number}").click()
    expect(page.locator("#preview-h")).to_contain_text(f"Round {number}")
    reasons = page.locator(".pairing-preview td.reason")
    expect(reasons.first).to_contain_text("vs")
    if shot:
        shot(f"event31-preview-round-{number}", page)
    with brings(page, CONSOLE):
        page.get_by_role("button", name="Make these tables").click()
    expect(page.locator(".pairing-preview")).to_have_count(0)
    expect(page.get_by_role("button", name=f"Start round {number}")).to_be_visible()


def _enter_results(page: Page, base: str, event_id: str, number: int) -> None:
    """Each table's result in its row: the first-named player wins 500 to 100 (6-0 at 800 points)."""
    pairings = page.request.get(f"{base}/api/v1/events/{event_id}/rounds/{number}").json()["pairings"]
    for table in (p for p in pairings if "table" in p):
        row = page.locator(f"#result-{table['table']}")
        row.get_by_label(f"{table['names'][0]}'s VP").fill("500")
        row.get_by_label(f"{table['names'][1]}'s VP").fill("100")
        with brings(page, CONSOLE):
            row.get_by_role("button", name=f"Save table {table['table']}").click()
        expect(page.locator(f"#result-{table['table']} .result-status")).to_contain_text("TP 6–0")
    expect(page.locator(".waiting-table")).to_have_count(0)


def test_a_six_player_event_with_lists_soft_scores_and_a_drop(
    page: Page, browser: Browser, served: Served, shot: Any
) -> None:
    served.app.config.update(ADMIN_PASSWORD=PASSWORD, EVENT_SEED=4)
    base = served.url
    page.goto(f"{base}/admin")
    page.get_by_label("Password").fill(PASSWORD)
    with brings(page, r"^/admin$"):
        page.get_by_role("button", name=re.compile("Log in", re.I)).click()
    expect(page.get_by_role("button", name=re.compile("Log out", re.I))).to_be_visible()

    # The event: The Old World's bands, painting in the standings, sportsmanship a prize.
    page.goto(f"{base}/events/new")
    page.get_by_label("Name", exact=True).fill("Winter league")
    page.get_by_label("Rulepack").select_option("conquest-first-blood")
    page.get_by_label("Points limit").fill("800")
    page.get_by_label("Rounds").fill("2")
    page.locator("#scoring-settings summary").click()
    page.get_by_label("Tournament points").select_option("tow-bands")
    page.locator("#soft-settings summary").click()
    page.get_by_label("Painting scores (0 to 100, you enter them)").select_option("standings")
    page.get_by_label("Sportsmanship votes (secret, one a player)").select_option("prize")
    shot("event31-new-event", page)
    with brings(page, r"/console$"):
        page.get_by_role("button", name="Create the event").click()
    expect(page.locator("h1")).to_have_text("Winter league: console")
    event_url = page.get_by_role("link", name="Event page").get_attribute("href") or ""
    event_id = event_url.rsplit("/", 1)[-1]
    expect(page.locator(".card .hint").first).to_contain_text("band 0–120, 3–3")

    # Ann, Bo and Cy sign up on their own phones; Di, Ed and Flo are added on the console.
    phones: dict[str, Page] = {}
    for name in ("Ann", "Bo", "Cy"):
        phone = _phone(browser)
        phone.goto(base + event_url)
        phone.get_by_label("Your name").fill(name)
        with brings(phone, PLAYER):
            phone.get_by_role("button", name="Sign up").click()
        expect(phone.locator("h1")).to_have_text(name)
        phones[name] = phone
    for name in ("Di", "Ed", "Flo"):
        form = page.locator("form.add-player")
        form.get_by_label("Name").fill(name)
        with brings(page, CONSOLE):
            form.get_by_role("button", name="Add the player").click()
        expect(page.locator(".added")).to_contain_text(f"{name} is signed up")

    # Ann imports her list by pasting it on her phone, then sends it from her event page.
    ann = phones["Ann"]
    ann_page = ann.url
    ann.get_by_role("link", name="Import a list").click()
    ann.get_by_label("The list as text").fill(CONQUEST)
    ann.get_by_role("button", name="Read the list").click()
    expect(ann.locator("#import-preview .verdict")).to_contain_text("760 / 800 points")
    ann.get_by_role("button", name="Save roster").click()
    expect(ann.get_by_test_id("roster-points")).to_have_text("760")
    ann.goto(ann_page)
    with brings(ann, PLAYER):
        ann.get_by_role("button", name="Send this list").click()
    expect(ann.locator(".my-list")).to_contain_text("760 points")
    expect(ann.locator(".my-list .valid")).to_have_text("valid")
    shot("event31-phone-list", ann)
    # Bo's list was built in Muster on his phone (its API, as the builder saves it).
    bo = phones["Bo"]
    built = bo.request.post(f"{base}/api/v1/rosters", data=BO_LIST)
    assert built.status == 201, built.text()
    bo_roster = built.json()
    bo.reload()
    bo.get_by_label("Roster on this phone").select_option(label="Shieldwall · Hundred Kingdoms")
    with brings(bo, PLAYER):
        bo.get_by_role("button", name="Send this list").click()
    expect(bo.locator(".my-list")).to_contain_text("600 points")

    # The organiser sees each list's verdict, locks them, and Bo's change after the lock
    # shows when he is checked in.
    page.reload()
    rows = {name: page.locator(".player-row", has_text=name).first for name in ("Ann", "Bo", "Cy")}
    expect(rows["Ann"].locator(".list-verdict")).to_contain_text("760 points")
    expect(rows["Ann"].locator(".valid")).to_have_text("valid")
    expect(rows["Cy"].locator(".list-verdict")).to_contain_text("no list yet")
    with brings(page, CONSOLE):
        page.get_by_role("button", name="Lock the lists").click()
    expect(page.get_by_role("button", name="Open the lists again")).to_be_visible()
    expect(bo.locator(".list-form")).to_have_count(1)  # his page is as he left it
    bo.reload()
    expect(bo.locator(".list-form")).to_have_count(0)
    expect(bo.locator(".my-list")).to_contain_text("The organiser has locked the lists.")
    changed = {
        **BO_LIST,
        "entries": [*BO_LIST["entries"][:2], {"name": "Militia", "kind": "regiment", "points": 90}],
    }
    saved = bo.request.put(
        f"{base}/api/v1/rosters/{bo_roster['id']}",
        data=changed,
        headers={"X-Edit-Token": bo_roster["edit_token"]},
    )
    assert saved.status == 200, saved.text()
    with brings(page, CONSOLE):
        page.get_by_role("button", name="Check in Bo").click()
    bo_row = page.locator(".player-row", has_text="Bo").first
    expect(bo_row.locator(".checked-in")).to_have_text("here")
    expect(bo_row.locator(".list-changes")).to_contain_text("added: Militia (90 points)")
    expect(bo_row.locator(".list-changes")).to_contain_text("points: 600 → 360")
    with brings(page, CONSOLE):
        page.get_by_role("button", name="Close sign-up").click()
    shot("event31-console-lists", page)

    # Round 1: the preview's reasons, then the tables; Ann sees her opponent's list if sent.
    _make_tables(page, 1, shot)
    pairings = page.request.get(f"{base}/api/v1/events/{event_id}/rounds/1").json()["pairings"]
    ann.goto(ann_page)
    table = next(t for t in pairings if "table" in t and "Ann" in t["names"])
    opponent = next(n for n in table["names"] if n != "Ann")
    expect(ann.locator(".opponent")).to_have_text(opponent)
    if opponent == "Bo":
        expect(ann.locator(".their-list summary")).to_contain_text("Bo's list: Hundred Kingdoms")
    else:
        expect(ann.locator(".their-list")).to_have_count(0)
    _enter_results(page, base, event_id, 1)

    ann.reload()
    expect(ann.locator(".my-tp")).to_contain_text("Your TP:")
    expect(ann.locator(".my-vote")).to_contain_text("Once the last round is paired, vote here")

    # Painting for Ann, a drop between rounds, and round 2.
    page.reload()
    page.get_by_label("Ann's painting score").fill("12")
    with brings(page, CONSOLE):
        page.get_by_role("button", name="Save Ann's painting").click()
    expect(page.get_by_label("Ann's painting score")).to_have_value("12")
    with brings(page, CONSOLE):
        page.get_by_role("button", name="Drop Flo").click()
    expect(page.get_by_role("button", name="Re-join Flo")).to_be_visible()
    _make_tables(page, 2)
    second = page.request.get(f"{base}/api/v1/events/{event_id}/rounds/2").json()["pairings"]
    seated = [n for t in second for n in t.get("names", [t.get("name")])]
    assert "Flo" not in seated and len(seated) == 5

    # The last round is paired: Ann votes on her phone for her first opponent, secretly, once.
    ann.reload()
    ann.get_by_label(opponent, exact=True).check()
    with brings(ann, PLAYER):
        ann.get_by_role("button", name="Cast my vote").click()
    expect(ann.locator(".my-vote .confirmed")).to_contain_text(f"You voted for {opponent}")
    expect(ann.locator(".vote-form")).to_have_count(0)
    shot("event31-phone-vote", ann)
    other = phones["Cy"] if opponent != "Cy" else phones["Bo"]
    other.reload()
    expect(other.locator(".vote-form")).to_be_visible()
    expect(other.locator(".my-vote")).not_to_contain_text("You voted for")
    _enter_results(page, base, event_id, 2)
    expect(page.locator("#prizes-h")).to_have_text("Prizes")
    expect(page.locator(".card", has=page.locator("#prizes-h"))).to_contain_text(
        f"Best sport: {opponent} (1)"
    )
    shot("event31-console-end", page)

    # The board on a projector: the new columns, the order, painting; no sportsmanship.
    standings = page.request.get(f"{base}/api/v1/events/{event_id}/standings").json()
    board = browser.new_context(viewport={"width": 1920, "height": 1080})
    screen = board.new_page()
    screen.goto(f"{base}/events/{event_id}/board")
    heads = screen.locator(".standings thead th")
    expect(heads).to_have_text(["#", "Player", "W-L-D", "TP", "VP ±", "SOS", "Paint"])
    expect(screen.locator(".standings-order")).to_be_hidden()  # the order is on the event page
    expect(screen.locator(".podium")).to_be_visible()
    ann_row = next(r for r in standings if r["name"] == "Ann")
    assert ann_row["soft"] == {"painting": 12} and ann_row["total"] == ann_row["points"] + 12
    expect(screen.locator("body")).not_to_contain_text(re.compile("vote|sportsmanship", re.I))
    assert screen.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
    shot("event31-board", screen)
    board.close()
    page.goto(base + event_url)
    expect(page.locator(".standings-order")).to_have_text(
        "Ranked by W-L-D, tournament points (with painting), VP difference, strength of schedule "
        "(opponents' average tournament points), head-to-head, roll-off."
    )
    shot("event31-event-page", page)

    # The PDFs: the standings with the order, TP, SOS and painting; results round by round; the lists.
    standings_pdf = page.request.get(f"{base}/events/{event_id}/standings.pdf")
    keep_file("event31-standings.pdf", standings_pdf.body())
    text = " ".join(pdf_text(standings_pdf.body()).split())
    for words in ("Ranked by W-L-D, tournament points (with painting)", "W-L-D", "TP", "SOS", "Paint"):
        assert words in text, words
    results_pdf = page.request.get(f"{base}/events/{event_id}/results.pdf")
    keep_file("event31-results.pdf", results_pdf.body())
    text = " ".join(pdf_text(results_pdf.body()).split())
    for words in ("Round 1", "Round 2", "W 6 TP", "lost by 400 VP: band 381+, 6–0", "Bye 6 TP"):
        assert words in text, words
    lists_pdf = page.request.get(f"{base}/events/{event_id}/lists.pdf")
    keep_file("event31-lists.pdf", lists_pdf.body())
    lists_text = pdf_text(lists_pdf.body())
    assert "Pheromancer" in lists_text and "Mercenary Crossbows" in lists_text
    for phone in phones.values():
        phone.context.close()
