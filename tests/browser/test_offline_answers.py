"""An entry is the phone's until Muster has answered it (issue 25, items 1, 2 and 6).

- A 429 or a 408 (any answer that is not Muster's refusal) leaves the entry waiting: it is sent
  again no sooner than the answer's Retry-After, and nothing after it waits for ever.
- An entry sent while online, whose answer never came before the page reloaded, waits on the
  phone after the reload and is sent again (a game entry and a clock tap alike).
- A late answer no newer than the game shown changes nothing: the step being filled in stays.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.browser.conftest import Served
from tests.browser.helpers import (
    HeldAnswers,
    game_page_asked,
    handled,
    picture,
    quick_pauses,
    record_turn,
    sent,
    server_events,
    server_state,
    start_round,
)
from tests.setups import live_game

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(browser: Browser, browser_context_args: dict) -> Iterator[Page]:
    """A phone whose page sends its outbox itself: no worker, so no Background Sync races it."""
    context = browser.new_context(**browser_context_args, service_workers="block")
    yield context.new_page()
    context.close()


def round_one_begun(page: Page, base: str) -> dict:
    game = live_game(page.request, base)
    page.goto(game["join_url"])
    start_round(page, 1, "Ann")
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Ann's turn")
    sent(page)
    return game


def first_answered(status: int, headers: dict[str, str]) -> Callable[[Route], None]:
    """A route handler: the first entry posted gets ``status`` (as a busy server or a proxy would
    answer, with no refusal sentence); the rest reach Muster."""
    answered: list[str] = []

    def handle(route: Route) -> None:
        if route.request.method == "POST" and not answered:
            answered.append(route.request.url)
            route.fulfill(status=status, headers=headers, body="<p>Please wait a moment.</p>")
        else:
            route.continue_()

    return handle


def turns_on_server(page: Page, base: str, game: dict) -> list[tuple[int, int]]:
    return [(e["round"], e["player"]) for e in server_events(page, base, game["id"]) if e["type"] == "turn"]


def test_a_busy_answer_to_a_kept_entry_is_not_a_refusal(phone: Page, live_server: str) -> None:
    page = phone
    game = round_one_begun(page, live_server)
    page.context.set_offline(True)
    record_turn(page, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
    record_turn(page, 1, "Bo")
    outbox = page.locator("#outbox")
    expect(outbox).to_contain_text("Waiting to sync (2)")

    # The first replayed entry meets a 429 asking for two seconds: it waits, and so does Bo's.
    page.route(f"**/games/{game['id']}/events", first_answered(429, {"Retry-After": "2"}))
    page.context.set_offline(False)
    ann = outbox.locator(".pending").first
    expect(ann).to_contain_text("Muster is busy just now; it is sent again in")
    expect(ann.locator(".badge")).to_have_text("Waiting")
    expect(outbox).not_to_contain_text("Not recorded")
    expect(outbox.get_by_role("button", name="Remove it from this phone")).to_have_count(0)
    picture(page, "offline-busy-answer", full_page=True)

    # Past its Retry-After both are sent, in order, once.
    expect(outbox).to_be_hidden(timeout=10000)
    assert turns_on_server(page, live_server, game) == [(1, 0), (1, 1)]
    expect(page.get_by_test_id("vp-0")).to_have_text("3")
    expect(page.locator("#round-form h2")).to_have_text("Battle round 2 begins")


def test_a_proxy_timeout_answer_to_a_kept_entry_is_sent_again(phone: Page, live_server: str) -> None:
    page = phone
    # The pause before the entry is sent again (5 s for a player) is a tenth of a second here,
    # and the second try is held on its way until the phone's note has been read.
    page.context.add_init_script(quick_pauses(retry=100))
    game = round_one_begun(page, live_server)
    page.context.set_offline(True)
    record_turn(page, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
    proxy = first_answered(408, {})
    tries: list[Route] = []

    def handle(route: Route) -> None:
        if route.request.method == "POST":
            tries.append(route)
        if len(tries) < 2 or route.request.method != "POST":
            proxy(route)

    page.route(f"**/games/{game['id']}/events", handle)
    page.context.set_offline(False)
    ann = page.locator("#outbox .pending").first
    expect(ann).to_contain_text("The answer took too long; it is sent again in")
    expect(ann.locator(".badge")).to_have_text("Waiting")
    # It is sent again by itself, and reaches Muster once.
    handled(page, lambda: len(tries) >= 2, "the entry's second try")
    tries[1].continue_()
    page.unroute(f"**/games/{game['id']}/events", handle)
    expect(page.locator("#outbox")).to_be_hidden()
    assert turns_on_server(page, live_server, game) == [(1, 0)]


def test_a_busy_answer_to_an_entry_sent_online_keeps_the_game_on_screen(
    phone: Page, live_server: str
) -> None:
    page = phone
    game = round_one_begun(page, live_server)
    page.route(f"**/games/{game['id']}/events", first_answered(429, {"Retry-After": "1"}))
    record_turn(page, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
    # The answer is not shown in place of the game: the entry waits, the next step is there.
    expect(page.locator("#outbox .pending").first).to_contain_text("Battle round 1: Ann's turn")
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Bo's turn")
    expect(page.locator("main")).not_to_contain_text("Please wait a moment.")
    record_turn(page, 1, "Bo")
    expect(page.locator("#outbox")).to_be_hidden(timeout=10000)
    assert turns_on_server(page, live_server, game) == [(1, 0), (1, 1)]
    expect(page.get_by_test_id("vp-0")).to_have_text("3")


def test_an_entry_whose_answer_never_came_is_sent_after_a_reload(phone: Page, live_server: str) -> None:
    page = phone
    game = round_one_begun(page, live_server)
    # The club Wi-Fi is slow: nothing comes back for what the phone sends, so the player pulls
    # to refresh before the answers come (the requests die with the page; Muster never had them).
    network = {"posts": "hold"}
    held: list[Route] = []

    def slow(route: Route) -> None:
        if route.request.method != "POST" or network["posts"] == "pass":
            route.continue_()
        elif network["posts"] == "hold":
            held.append(route)
        else:
            route.abort("failed")

    page.route(f"**/games/{game['id']}/**", slow)
    with page.expect_request(lambda r: r.url.endswith("/clock") and r.method == "POST"):
        page.get_by_test_id("clock-0").click()  # Ann starts her time
    with page.expect_request(lambda r: r.url.endswith("/events") and r.method == "POST"):
        record_turn(page, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
    network["posts"] = "fail"  # the page's own try right after the reload fails too
    page.reload()

    # After the reload both wait on the phone, each saying what it is.
    outbox = page.locator("#outbox")
    expect(outbox).to_contain_text("Waiting to sync (2)")
    expect(outbox).to_contain_text("Start the clock for Ann")
    expect(outbox).to_contain_text("Battle round 1: Ann's turn")
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Bo's turn")
    expect(page.get_by_test_id("clock-0")).to_have_class(re.compile(r"\brunning\b"))
    picture(page, "offline-sent-after-reload", full_page=True)

    # The connection is good again: each reaches Muster once.
    network["posts"] = "pass"
    # The phone may already be trying again by itself (the button goes with the outbox it sits
    # in): ask the page to send, which waits for a replay under way to end.
    page.evaluate("MusterOffline.flush()")
    expect(outbox).to_be_hidden()
    assert turns_on_server(page, live_server, game) == [(1, 0)]
    clock = server_state(page, live_server, game["id"])["clock"]
    assert clock["taps"] == 1 and clock["running"] == 0


@pytest.fixture
def late_game_page(served: Served) -> Iterator[HeldAnswers]:
    """The game page's answers, once held, come late, as made when asked for: the server reads
    the game at once and the answer then waits on its way until the test lets it go."""
    held = HeldAnswers(served.app, game_page_asked, made_first=True)
    yield held
    held.restore()


# Whatever the screen shows at any moment, noted: a step Muster already holds put back, or a
# notice that the step being filled in was recorded elsewhere.
WATCH = """() => {
  window.seenOnScreen = [];
  new MutationObserver(() => {
    const heading = document.querySelector("#turn-form h2");
    if (heading && heading.textContent.includes("Ann's turn")) window.seenOnScreen.push("Ann's turn again");
    if (document.getElementById("step-kept")) window.seenOnScreen.push("a notice that Bo's turn was taken");
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def test_a_late_answer_no_newer_than_the_game_shown_changes_nothing(
    phone: Page, served: Served, late_game_page: HeldAnswers
) -> None:
    page = phone
    game = round_one_begun(page, served.url)
    page.context.set_offline(True)
    record_turn(page, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
    expect(page.locator("#outbox")).to_contain_text("Waiting to sync (1)")
    # Back online, but the page's own sending fails: another sender will take it.
    page.route(f"**/games/{game['id']}/events", lambda route: route.abort("failed"))
    page.context.set_offline(False)
    expect(page.locator("#outbox")).to_contain_text("Waiting to sync (1)")

    # The worker says it sent something: the page asks for the game, whose answer (the game as
    # it was: Ann's turn not in yet) is made at once and held on its way.
    late_game_page.hold()
    with page.expect_response(lambda r: r.url == game["url"]) as late:
        page.evaluate(
            """id => navigator.serviceWorker.dispatchEvent(
                 new MessageEvent("message", {data: {type: "outbox", games: [id], sent: 1, refused: 0}}))""",
            game["id"],
        )
        late_game_page.wait_asked(1)
        # Meanwhile Ann's turn does reach Muster (the worker's replay), and the player goes on.
        page.unroute(f"**/games/{game['id']}/events")
        page.evaluate(
            """() => MusterOutbox.flush({csrf: document.querySelector('meta[name=csrf-token]').content})
                 .then(() => MusterOffline.render(false))"""
        )
        form = page.locator("#turn-form")
        expect(form.get_by_role("heading")).to_have_text("Battle round 1: Bo's turn")
        # From now on the screen must never go back to Ann's turn nor say Bo's was taken.
        page.evaluate(WATCH)
        form.locator("#tactic").select_option("conquer")
        form.get_by_text("Battle tactic completed").click()
        # Bo's step touched, the old answer lands.
        late_game_page.release()
    assert late.value.ok
    # The page follows the game and gets Muster's newer game: then the totals are the server's,
    # and Bo's turn is as the player left it, with no false notice.
    expect(page.get_by_test_id("vp-0")).to_have_text("3", timeout=15000)
    expect(page.locator("#step-kept")).to_have_count(0)
    expect(form.get_by_role("heading")).to_have_text("Battle round 1: Bo's turn")
    expect(form.locator("#tactic")).to_have_value("conquer")
    assert page.evaluate("window.seenOnScreen") == []
    form.get_by_role("button", name="Record Bo's turn").click()
    expect(page.locator("#round-form h2")).to_have_text("Battle round 2 begins")
    assert turns_on_server(page, served.url, game) == [(1, 0), (1, 1)]
