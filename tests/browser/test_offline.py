"""Muster as an installed app on a phone that loses the connection: nothing recorded is lost."""

from __future__ import annotations

import struct
import uuid
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import Served
from tests.browser.helpers import (
    controlled,
    kept,
    open_game,
    record_turn,
    sent,
    server_events,
    server_state,
    start_round,
    tap_until,
    until,
)
from tests.setups import live_game

pytestmark = pytest.mark.browser


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_installable_with_a_service_worker_in_control(page: Page, live_server: str, shot) -> None:
    page.goto(live_server + "/")
    controlled(page)
    registration = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)")
    assert registration == live_server + "/"

    # What Chromium asks of an installable app: no installability errors, but for the test
    # browser's own profile being incognito.
    cdp = page.context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == live_server + "/manifest.webmanifest"
    assert not manifest.get("errors")
    cdp.detach()

    data = page.evaluate("fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())")
    assert data["display"] == "standalone" and data["start_url"] == "/" and data["scope"] == "/"
    assert data["short_name"] == "Muster" and data["theme_color"] and data["background_color"]
    sizes = {(icon["sizes"], icon["purpose"]) for icon in data["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable")} <= sizes
    for icon in data["icons"]:
        response = page.request.get(live_server + icon["src"])
        assert response.headers["content-type"] == "image/png"
        width, height = png_size(response.body())
        assert f"{width}x{height}" == icon["sizes"]

    # The shell is precached: the home page and the offline page load with no network.
    page.context.set_offline(True)
    response = page.reload()
    assert response is not None and response.from_service_worker
    expect(page.get_by_role("link", name="Start a new game")).to_be_visible()
    expect(page.locator(".note-net")).to_contain_text("Offline")
    page.goto(live_server + "/rosters/never-opened-here")
    expect(page.get_by_role("heading", name="Muster cannot be reached")).to_be_visible()
    expect(page.locator("main")).to_contain_text("Starting a new game needs the server once")
    shot("offline-page")


def test_two_turns_recorded_offline_reach_the_server_once(page: Page, live_server: str, shot) -> None:
    game = live_game(page.request, live_server)
    open_game(page, game)
    start_round(page, 1, "Ann")
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Ann's turn")
    kept(page, "turn-1-0")

    # The club Wi-Fi drops; the phone reloads the game from what it kept.
    page.context.set_offline(True)
    response = page.reload()
    assert response is not None and response.from_service_worker
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Ann's turn")

    record_turn(page, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
    outbox = page.locator("#outbox")
    expect(outbox).to_contain_text("Waiting to sync (1)")
    first = outbox.locator(".pending").first
    expect(first).to_contain_text("Battle round 1: Ann's turn")
    expect(first).to_contain_text("Battle tactic: Conquer")
    expect(first).to_contain_text("A border: Ann")
    expect(first).to_contain_text("Battle tactic completed")
    # The next step is there at once: Bo's turn, with the objectives as Ann left them.
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Bo's turn")
    tap_until(page, "D border", "Bo")
    a_border = page.locator(".objective-row", has=page.locator("label", has_text="A border"))
    expect(a_border.locator("button.cycle")).to_have_text("Ann")
    record_turn(page, 1, "Bo")
    expect(outbox).to_contain_text("Waiting to sync (2)")
    expect(outbox.locator(".pending").nth(1)).to_contain_text("D border: Bo")
    expect(page.locator("#round-form h2")).to_have_text("Battle round 2 begins")
    expect(page.locator("#sync-note")).to_have_text("Totals as of the last sync · 2 waiting")
    expect(page.get_by_test_id("vp-0")).to_have_text("0")
    shot("offline-two-turns-waiting")

    # Reloading offline keeps them, and the game goes on from the right step.
    page.reload()
    expect(outbox).to_contain_text("Waiting to sync (2)")
    expect(outbox).to_contain_text("Battle round 1: Ann's turn")
    expect(outbox).to_contain_text("Battle round 1: Bo's turn")
    expect(page.locator("#round-form h2")).to_have_text("Battle round 2 begins")
    queued = page.evaluate("MusterOutbox.list()")
    assert [e["title"] for e in queued] == ["Battle round 1: Ann's turn", "Battle round 1: Bo's turn"]
    assert server_state(page, live_server, game["id"])["turns"] == []

    # Back online: sent in order, the totals come from the server, nothing is waiting.
    page.context.set_offline(False)
    expect(page.get_by_test_id("vp-0")).to_have_text("3")
    expect(page.get_by_test_id("vp-1")).to_have_text("1")
    expect(outbox).to_be_hidden()
    expect(page.locator("#sync-note")).to_be_hidden()
    expect(page.locator("#round-form h2")).to_have_text("Battle round 2 begins")
    state = server_state(page, live_server, game["id"])
    assert [(t["round"], t["player"], t["vp"]) for t in state["turns"]] == [(1, 0, 3), (1, 1, 1)]
    ids = [e["id"] for e in server_events(page, live_server, game["id"])]
    assert {e["id"] for e in queued} <= set(ids) and len(ids) == len(set(ids)) == 3
    shot("offline-synced")

    # The phone never heard the answers and sends them all again, twice at once: harmless.
    page.evaluate("entries => Promise.all(entries.map(e => MusterOutbox.put(e)))", queued)
    results = page.evaluate("Promise.all([MusterOutbox.flush(), MusterOutbox.flush()])")
    assert sum(len(r["sent"]) for r in results) == 2 and not any(r["refused"] for r in results)
    assert page.evaluate("MusterOutbox.list()") == []
    assert [e["id"] for e in server_events(page, live_server, game["id"])] == ids
    page.reload()
    expect(page.get_by_test_id("vp-0")).to_have_text("3")
    expect(page.locator("#outbox")).to_be_hidden()


def test_an_offline_entry_the_other_phone_beat_is_shown_with_both_versions(
    page: Page, browser: Browser, browser_context_args: dict, live_server: str, shot
) -> None:
    game = live_game(page.request, live_server)
    open_game(page, game)
    start_round(page, 1, "Ann")
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Ann's turn")
    sent(page)

    # Phone A loses the connection and records Ann's turn: Conquer, A border held.
    page.context.set_offline(True)
    record_turn(page, 1, "Ann", tactic="conquer", taps={"A border": "Ann"})
    expect(page.locator("#outbox")).to_contain_text("Waiting to sync (1)")

    # Meanwhile phone B, joined with the link, records Ann's turn differently.
    other = browser.new_context(**browser_context_args)
    phone_b = other.new_page()
    phone_b.goto(game["join_url"])
    record_turn(phone_b, 1, "Ann", taps={"W": "Ann"})
    expect(phone_b.get_by_test_id("vp-0")).to_have_text("2")
    other.close()

    # A comes back: its entry is refused, shown with the reason and both versions, kept. The
    # first ask for what Muster holds fails (the connection is still settling): the phone asks again.
    failed: list[str] = []

    def fail_once(route: Any) -> None:
        if failed:
            route.continue_()
        else:
            failed.append(route.request.url)
            route.abort("failed")

    page.context.route("**/held?**", fail_once)
    page.context.set_offline(False)
    refused = page.locator("#outbox .pending.refused")
    expect(refused).to_contain_text("Not recorded")
    expect(refused).to_contain_text("Ann has already taken their turn in battle round 1.")
    expect(refused.locator(".version").first).to_contain_text("Battle tactic: Conquer")
    expect(refused.locator(".version").first).to_contain_text("A border: Ann")
    expect(refused.locator(".version").nth(1)).to_contain_text("Battle round 1: Ann's turn, 2 VP")
    expect(refused.locator(".version").nth(1)).to_contain_text("W: Ann")
    assert len(failed) == 1
    expect(page.get_by_test_id("vp-0")).to_have_text("2")
    expect(page.locator("#sync-note")).to_contain_text("1 not recorded")
    shot("offline-conflict")
    page.reload()
    expect(page.locator("#outbox .pending.refused")).to_contain_text("Ann has already taken their turn")

    # Only the player removes it; the game then shows the next step from the server.
    refused.get_by_role("button", name="Remove it from this phone").click()
    expect(page.locator("#outbox")).to_be_hidden()
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 1: Bo's turn")
    assert len(server_state(page, live_server, game["id"])["turns"]) == 1


def test_first_blood_victory_phases_recorded_offline(page: Page, live_server: str, shot) -> None:
    game = live_game(page.request, live_server, "conquest-first-blood", "twin-contested-zones")
    open_game(page, game)
    page.context.set_offline(True)
    page.reload()
    page.get_by_role("button", name="Record round 1").click()
    expect(page.locator("#outbox")).to_contain_text("Round 1: Victory Phase")
    expect(page.locator("#phase-form h2")).to_have_text("Round 2: Victory Phase")
    # The map of the next round is there to tap, as of the last sync.
    page.get_by_text("Destroyed marker B (W)").click()
    page.locator('#phase-map g.tap[data-objective="west-zone"]').click()
    expect(page.locator('#phase-map g.tap[data-objective="west-zone"]')).to_have_attribute("data-holder", "0")
    page.get_by_role("button", name="Record round 2").click()
    outbox = page.locator("#outbox")
    expect(outbox).to_contain_text("Waiting to sync (2)")
    expect(outbox.locator(".pending").nth(1)).to_contain_text(
        "What Ann did this round: Destroyed marker B (W)"
    )
    expect(page.locator("#phase-form h2")).to_have_text("Round 3: Victory Phase")
    shot("offline-first-blood-waiting")

    page.context.set_offline(False)
    expect(page.get_by_test_id("vp-0")).to_have_text("5")
    expect(outbox).to_be_hidden()
    state = server_state(page, live_server, game["id"])
    assert [r["round"] for r in state["rounds"]] == [1, 2]


def test_dice_at_a_tap_and_a_roll_kept_in_the_log(page: Page, live_server: str, shot) -> None:
    game = live_game(page.request, live_server)
    open_game(page, game)
    page.get_by_role("button", name="Dice", exact=True).click()
    dialog = page.get_by_role("dialog", name="Dice")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="D3").click()
    die = dialog.locator(".dice-out .die")
    expect(die).to_have_count(1)
    assert 1 <= int(die.inner_text()) <= 3
    dialog.get_by_role("button", name="2D6").click()
    expect(die).to_have_count(2)
    faces = [int(t) for t in die.all_inner_texts()]
    expect(dialog.locator(".dice-total")).to_have_text(f"Total {sum(faces)}.")

    # A roll-off between four: ties roll again until one player is left.
    dialog.get_by_text("4 players", exact=True).click()
    dialog.get_by_role("button", name="Roll off").click()
    expect(dialog.locator(".dice-total")).to_contain_text("wins the roll-off")
    first_round = dialog.locator(".dice-line").first.locator(".die")
    expect(first_round).to_have_count(4)
    expect(dialog.locator("#roll-record")).to_be_hidden()  # this game has two players

    dialog.get_by_text("2 players", exact=True).click()
    dialog.get_by_role("button", name="Roll off").click()
    winner = dialog.locator(".dice-total").inner_text().split(" wins")[0]
    expect(dialog.get_by_label("What did it decide?")).to_have_value(
        "Who takes the first turn in battle round 1"
    )
    shot("dice-roll-off")
    dialog.get_by_role("button", name="Keep this roll in the game's log").click()
    expect(dialog).to_be_hidden()
    rolls = page.locator(".rolls")
    expect(rolls).to_contain_text("Who takes the first turn in battle round 1")
    expect(rolls).to_contain_text(winner)
    state = server_state(page, live_server, game["id"])
    assert [(r["dice"], r["purpose"]) for r in state["rolls"]] == [
        ("roll-off", "Who takes the first turn in battle round 1")
    ]
    assert state["players"][state["rolls"][0]["winner"]]["name"] == winner

    # Offline, a roll is kept on the phone with the rest.
    page.context.set_offline(True)
    page.get_by_role("button", name="Dice", exact=True).click()
    dialog.get_by_role("button", name="D6", exact=True).click()
    dialog.get_by_label("What did it decide?").fill("Priority")
    dialog.get_by_role("button", name="Keep this roll in the game's log").click()
    expect(page.locator("#outbox .pending")).to_contain_text("D6:")
    expect(page.locator("#outbox .pending")).to_contain_text("What did it decide? Priority")
    page.context.set_offline(False)
    expect(page.locator("#outbox")).to_be_hidden()
    expect(rolls).to_contain_text("Priority")


def test_a_new_release_replaces_the_cache_and_says_so(page: Page, served: Served) -> None:
    page.goto(served.url + "/")
    controlled(page)
    before = page.evaluate("caches.keys()")
    old_shell = [n for n in before if n.startswith("muster-shell-")]
    assert len(old_shell) == 1

    served.app.config["MUSTER_RELEASE"] = "next"
    served.app.extensions.pop("muster.pwa_version", None)
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    banner = page.locator(".note-update")
    expect(banner).to_contain_text("A new version of Muster is ready.")
    banner.get_by_role("button", name="Reload to update").click()
    until(
        page,
        "old => caches.keys().then(k => k.filter(n => n.startsWith('muster-shell-')).length === 1 && !k.includes(old))",
        old_shell[0],
    )
    expect(page.get_by_role("link", name="Start a new game")).to_be_visible()
    expect(page.locator(".note-update")).to_have_count(0)


def test_screens_change_without_reloading_and_back_works(page: Page, live_server: str) -> None:
    page.goto(live_server + "/")
    page.evaluate("window.stillTheSamePage = true")
    page.get_by_role("link", name="Rosters", exact=True).click()
    expect(page.get_by_role("heading", name="Rosters", exact=True)).to_be_visible()
    assert page.url == live_server + "/rosters"
    page.get_by_role("link", name="New game").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    assert page.evaluate("window.stillTheSamePage") is True
    page.go_back()
    expect(page.get_by_role("heading", name="Rosters", exact=True)).to_be_visible()
    assert page.url == live_server + "/rosters"
    page.go_back()
    expect(page.get_by_role("link", name="Start a new game")).to_be_visible()
    assert page.evaluate("window.stillTheSamePage") is True

    # Back to a roster page restores the whole screen, not a fragment of it.
    roster = page.request.post(
        f"{live_server}/api/v1/rosters",
        data={"pack": "aos-ghb-2021", "name": "Hammerfest", "points_limit": 1000, "entries": []},
    )
    page.goto(roster.json()["edit_url"])
    expect(page.get_by_role("heading", name="Share and export")).to_be_visible()
    page.get_by_role("link", name="New game").click()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    page.go_back()
    expect(page.get_by_role("heading", name="Hammerfest")).to_be_visible()
    expect(page.get_by_role("heading", name="Share and export")).to_be_visible()
    # The builder's unit search (issue 33: the typed-unit form sits under "A unit not in the list").
    expect(page.get_by_label("Find a unit")).to_be_visible()
    expect(page.get_by_text("A unit not in the list")).to_be_visible()

    # A PDF link still downloads (it is not swapped into the page).
    page.goto(live_server + "/packs/aos-ghb-2021")
    page.locator("details#savage-gains summary").click()
    with page.expect_download() as download:
        page.locator("details#savage-gains").get_by_role("link", name="A4").click()
    assert download.value.path().read_bytes()[:4] == b"%PDF"


def test_theme_switch_is_kept(page: Page, live_server: str) -> None:
    page.emulate_media(color_scheme="light")
    page.goto(live_server + "/")
    switch = page.get_by_role("button", name="Theme: follows the phone. Tap for dark.")
    background = "getComputedStyle(document.body).backgroundColor"
    assert page.evaluate(background) == "rgb(244, 241, 234)"
    switch.click()
    assert page.evaluate(background) == "rgb(20, 23, 28)"
    page.reload()
    expect(page.get_by_role("button", name="Theme: dark. Tap for light.")).to_be_visible()
    assert page.evaluate(background) == "rgb(20, 23, 28)"
    # Through a boosted move to another screen the choice holds.
    page.get_by_role("link", name="Rosters", exact=True).click()
    expect(page.get_by_role("heading", name="Rosters", exact=True)).to_be_visible()
    assert page.evaluate(background) == "rgb(20, 23, 28)"
    page.get_by_role("button", name="Theme: dark. Tap for light.").click()
    page.emulate_media(color_scheme="dark")
    assert page.evaluate(background) == "rgb(244, 241, 234)"
    page.get_by_role("button", name="Theme: light. Tap to follow the phone.").click()
    assert page.evaluate(background) == "rgb(20, 23, 28)"


def test_the_last_turn_and_grand_strategies_recorded_offline(page: Page, live_server: str) -> None:
    game = live_game(page.request, live_server)
    token = {"X-Edit-Token": game["edit_token"]}
    events = f"{live_server}/api/v1/games/{game['id']}/events"
    for r in range(1, 6):
        page.request.post(
            events,
            headers=token,
            data={"id": str(uuid.uuid4()), "type": "battle_round", "round": r, "first": 0},
        )
        for player in (0, 1) if r < 5 else (0,):
            turn = {
                "id": str(uuid.uuid4()),
                "type": "turn",
                "round": r,
                "player": player,
                "control": {"west": player},
            }
            assert page.request.post(events, headers=token, data=turn).status == 201
    open_game(page, game)
    expect(page.locator("#turn-form h2")).to_have_text("Battle round 5: Bo's turn")

    page.context.set_offline(True)
    record_turn(page, 5, "Bo")
    ends = page.locator(".end-form")
    expect(ends).to_have_count(2)
    ends.filter(has_text="Ann").get_by_role("button", name="Completed", exact=True).click()
    expect(ends).to_have_count(1)
    ends.filter(has_text="Bo").get_by_role("button", name="Not completed").click()
    expect(page.locator("#step")).to_contain_text("Every entry of the battle is kept on this phone")
    expect(page.locator("#outbox")).to_contain_text("Waiting to sync (3)")
    expect(page.locator("#outbox")).to_contain_text(
        "Did Ann complete their grand strategy (Hold the Line)? Completed"
    )

    page.context.set_offline(False)
    expect(page.locator(".result")).to_contain_text("victory: Ann")
    expect(page.locator("#outbox")).to_be_hidden()
    state = server_state(page, live_server, game["id"])
    assert state["status"] == "finished"
    assert [p["grand_strategy_completed"] for p in state["players"]] == [True, False]


def test_a_phone_keeps_the_newest_pages_and_every_game_with_entries_waiting(
    page: Page, served: Served
) -> None:
    served.app.config["OFFLINE_PAGES"] = 3
    games = [live_game(page.request, served.url) for _ in range(5)]
    open_game(page, games[0])
    # An entry for the first game that the server has not taken (here: refused, kept with
    # its reason): the phone must keep that game's page whatever else it opens.
    page.evaluate(
        """game => MusterOutbox.add({id: MusterOutbox.uuid(), game: game, action: '/games/' + game + '/nowhere',
                                    body: 'type=turn', type: 'turn', title: 'A turn the server never took'})""",
        games[0]["id"],
    )
    for game in games[1:]:
        open_game(page, game)
    wanted = sorted(f"/games/{games[i]['id']}" for i in (0, 2, 3, 4))
    until(
        page,
        """wanted => caches.open('muster-pages-1').then(c => c.keys()).then(keys =>
             JSON.stringify(keys.map(r => new URL(r.url).pathname).sort()) === JSON.stringify(wanted))""",
        wanted,
    )
    # The dropped game still opens online, and is kept again.
    open_game(page, games[1])
    until(
        page,
        "id => caches.open('muster-pages-1').then(c => c.match(location.origin + '/games/' + id)).then(r => !!r)",
        games[1]["id"],
    )


def test_a_predators_and_prey_claim_recorded_offline(page: Page, live_server: str, shot) -> None:
    game = live_game(page.request, live_server)
    open_game(page, game)
    start_round(page, 1, "Ann")
    record_turn(page, 1, "Ann")
    kept(page, "turn-1-1")
    sent(page)
    page.context.set_offline(True)
    page.reload()
    claims = page.locator("section.claims")
    ann = claims.get_by_role("button", name="+1 VP for Ann: an enemy MONSTER was slain")
    bo = claims.get_by_role("button", name="+1 VP for Bo: an enemy MONSTER was slain")
    record_turn(page, 1, "Bo")
    expect(page.locator("#round-form h2")).to_have_text("Battle round 2 begins")
    # Round 1 is still in play until round 2 starts: Ann claims it, offline.
    expect(claims.locator('[data-claim-round="1"]')).to_be_visible()
    ann.first.click()
    expect(page.locator("#outbox")).to_contain_text("Waiting to sync (2)")
    expect(page.locator("#outbox .pending").nth(1)).to_contain_text("Predators and Prey")
    expect(claims.locator('[data-claim-round="1"] form[data-claim-player="0"]')).to_be_hidden()
    expect(claims.locator('[data-claim-round="1"] form[data-claim-player="1"]')).to_be_visible()
    shot("offline-claim-waiting")
    # Round 2 starts on this phone: the card moves on to round 2, both players again.
    start_round(page, 2, "Bo")
    expect(claims.locator('[data-claim-round="1"]')).to_be_hidden()
    expect(claims.locator('[data-claim-round="2"] form[data-claim-player="0"]')).to_be_visible()
    expect(bo).to_have_count(1)  # hidden blocks are out of the accessibility tree
    page.context.set_offline(False)
    expect(page.get_by_test_id("vp-0")).to_have_text("1")
    expect(page.locator("#outbox")).to_be_hidden()
    state = server_state(page, live_server, game["id"])
    assert [(c["round"], c["player"], c["vp"]) for c in state["claims"]] == [(1, 0, 1)]
