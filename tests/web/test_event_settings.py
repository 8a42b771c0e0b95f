"""Issue 31 through the API and the screens: scoring presets and TP on results, the tie-break
order stated, byes, the spare and late players, the pairing preview, lists (submission,
verdict, lock, deadline, when they are shown, changes at check-in), painting and secret
sportsmanship ballots, the ranking exports and summary, and events made before it."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import fresh_database
from tests.pdfs import pdf_text
from tests.web.conftest import csrf_token, soup
from tests.web.helpers import ADMIN, EVENTS_PASSWORD, FB, FB_LIST, Organiser

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")


@pytest.fixture
def app(tmp_path: Path, migrated: Path) -> Flask:
    from app import create_app

    return create_app(
        {
            "DATABASE": str(fresh_database(migrated, tmp_path / "muster.sqlite")),
            "TESTING": True,
            "SECRET_KEY": "test",
            "ADMIN_PASSWORD": EVENTS_PASSWORD,
            "EVENT_SEED": 5,
        }
    )


def event(client: FlaskClient, **extra: Any) -> Organiser:
    body = {"name": "Club night", "pack": FB, "points_limit": 500, "rounds": 3, **extra}
    made = client.post("/api/v1/events", json=body, headers=ADMIN)
    assert made.status_code == 201, made.json
    return Organiser(client, made.json)


def play_round(org: Organiser, number: int, vp: tuple[int, int] = (20, 10)) -> list[dict[str, Any]]:
    """Pair the next round and enter each table's result: the first-named wins with ``vp``."""
    pairings = org.post("/rounds", status=201).json["pairings"]
    for t in pairings:
        if "table" in t:
            org.post(
                "/results",
                {"round": number, "table": t["table"], "winner": t["players"][0], "vp": list(vp)},
                201,
            )
    return pairings


# --- scoring and standings --------------------------------------------------------------------
def test_a_result_shows_its_tp_with_the_band_that_gave_them(client):
    org = event(client, points_limit=2000, pack="aos-ghb-2021", scoring={"preset": "tow-bands"})
    assert org.get()["scoring"]["bands"] == [
        [0, 300, 3, 3],
        [301, 600, 4, 2],
        [601, 950, 5, 1],
        [951, None, 6, 0],
    ]
    a, b = org.add("Ann")["player"], org.add("Bo")["player"]
    table = org.post("/rounds", status=201).json["pairings"][0]
    first = table["players"][0]
    answer = org.post("/results", {"round": 1, "table": 1, "winner": first, "vp": [1420, 1000]}, 201).json
    result = answer["pairings"][0]["result"]
    assert result["tp"] == [4, 2]
    assert result["tp_reason"] == ["won by 420 VP: band 301–600, 4–2", "lost by 420 VP: band 301–600, 4–2"]
    rows = {r["player"]: r for r in org.get("/standings")}
    assert rows[first]["points"] == 4 and rows[first]["tp_reason"] == [
        "round 1: won by 420 VP: band 301–600, 4–2"
    ]
    other = b if first == a else a
    assert rows[other]["rounds"] == [
        {
            "round": 1,
            "opponent": first,
            "table": 1,
            "tp_reason": "lost by 420 VP: band 301–600, 4–2",
            "result": "loss",
            "vp": [1000, 1420],
            "tp": 2,
        }
    ]
    # The console's result row says the same.
    client.get(f"/events/{org.id}/organiser/{org.headers['X-Organiser-Token']}")
    status = soup(client.get(f"/events/{org.id}/console")).select_one("#result-1 .result-status").text
    assert "TP 4–2" in " ".join(status.split()) and "band 301–600" in status


def test_todays_scoring_body_stays_valid_and_means_wdl(client):
    org = event(client, scoring={"win": 2, "draw": 1, "loss": 0})
    assert org.get()["scoring"] == {"preset": "wdl", "win": 2, "draw": 1, "loss": 0}


def test_bonus_points_under_win_loss_plus_bonus_and_refused_elsewhere(client):
    org = event(client, scoring={"preset": "wl-bonus"})
    org.add("Ann"), org.add("Bo")
    t = org.post("/rounds", status=201).json["pairings"][0]
    answer = org.post(
        "/results", {"round": 1, "table": 1, "winner": t["players"][0], "vp": [12, 8], "bonus": [2, 1]}, 201
    ).json
    assert answer["pairings"][0]["result"]["tp"] == [5, 1]
    org.post("/results", {"round": 1, "table": 1, "winner": None, "vp": [1, 1], "bonus": [101, 0]}, 422)
    # The result slips have a box for each player's bonus.
    slips = pdf_text(client.get(f"/events/{org.id}/slips.pdf").data)
    assert "Bonus" in slips and "plus bonus points" in slips
    plain = event(client)
    plain.add("Ann"), plain.add("Bo")
    plain.post("/rounds", status=201)
    assert "Bonus" not in pdf_text(client.get(f"/events/{plain.id}/slips.pdf").data)
    refused = plain.post(
        "/results", {"round": 1, "table": 1, "winner": None, "vp": [1, 1], "bonus": [1, 0]}, 422
    )
    assert refused.json["error"].startswith("bonus")


def test_the_organisers_tie_break_order_is_used_and_stated(client):
    # Four players, everyone wins or loses by 10: W-L-D and TP level the winners; VP scored
    # (the organiser's second tie-break) puts the bigger scorer first.
    org = event(client, tie_breaks=["wins", "vp_for", "roll_off"], bye={"vp": 0})
    for name in NAMES[:4]:
        org.add(name)
    pairings = org.post("/rounds", status=201).json["pairings"]
    org.post("/results", {"round": 1, "table": 1, "winner": pairings[0]["players"][0], "vp": [20, 10]}, 201)
    org.post("/results", {"round": 1, "table": 2, "winner": pairings[1]["players"][0], "vp": [30, 20]}, 201)
    rows = org.get("/standings")
    assert [r["player"] for r in rows[:2]] == [pairings[1]["players"][0], pairings[0]["players"][0]]
    assert org.get()["order"] == "W-L-D, VP scored, roll-off"
    page = soup(client.get(f"/events/{org.id}"))
    assert page.select_one(".standings-order").text == "Ranked by W-L-D, VP scored, roll-off."
    for sheet in ("standings", "results"):
        text = pdf_text(client.get(f"/events/{org.id}/{sheet}.pdf").data)
        assert "Ranked by W-L-D, VP scored, roll-off." in " ".join(text.split())


def test_a_bad_setting_is_refused_naming_it(client):
    for body, field in (
        ({"tie_breaks": ["wins", "speed"]}, "tie_breaks"),
        ({"scoring": {"preset": "tow-bands", "bands": [[0, 10, 3, 3]]}}, "scoring.bands"),
        ({"bye": {"vp": "lots"}}, "bye.vp"),
        ({"soft": {"painting": {"weight": 500}}}, "soft.painting"),
    ):
        answer = client.post(
            "/api/v1/events",
            json={"name": "N", "pack": FB, "points_limit": 500, "rounds": 1, **body},
            headers=ADMIN,
        )
        assert answer.status_code == 422 and answer.json["error"].startswith(field)


# --- byes, the spare, late players ------------------------------------------------------------
def test_the_default_bye_is_a_crushing_win_with_the_points_played_at(client):
    org = event(client, scoring={"preset": "tow-bands"})
    for name in NAMES[:3]:
        org.add(name)
    made = org.post("/rounds", status=201).json["pairings"]
    bye = made[-1]["bye"]
    row = next(r for r in org.get("/standings") if r["player"] == bye)
    assert (row["wins"], row["byes"], row["points"], row["vp_for"], row["vp_against"]) == (1, 1, 6, 500, 0)


def test_a_spare_plays_whoever_would_have_had_the_bye_and_is_not_ranked(client):
    org = event(client)
    ids = [org.add(n)["player"] for n in NAMES[:5]]
    sam = org.post("/players", {"name": "Sam", "spare": True}, 201).json["player"]
    assert org.post("/players", {"name": "Tim", "spare": True}, 409).json["error"].startswith("spare")
    made = org.post("/rounds", status=201).json["pairings"]
    assert not any("bye" in p for p in made) and len(made) == 3
    spare_table = next(t for t in made if sam in t["players"])
    assert spare_table["players"][1] == sam
    for t in made:
        org.post("/results", {"round": 1, "table": t["table"], "winner": t["players"][0], "vp": [10, 5]}, 201)
    rows = org.get("/standings")
    assert sam not in [r["player"] for r in rows] and sorted(r["player"] for r in rows) == sorted(ids)
    # A self sign-up cannot name itself the spare.
    assert (
        client.post(
            f"/events/{org.id}/signup",
            data={"csrf_token": csrf_token(client, f"/events/{org.id}"), "name": "X"},
        ).status_code
        == 303
    )


def test_a_late_player_gets_a_loss_or_a_bye_for_each_round_missed(client):
    for late, expected in (("loss", (0, 1, 0, 0)), ("bye", (1, 0, 3, 1))):
        org = event(client, late=late, bye={"vp": 0})
        for name in NAMES[:4]:
            org.add(name)
        play_round(org, 1)
        cy = org.add("Late")["player"]
        assert next(p for p in org.get()["players"] if p["player"] == cy)["joined_after"] == 1
        row = next(r for r in org.get("/standings") if r["player"] == cy)
        assert (row["wins"], row["losses"], row["points"], row["byes"]) == expected
        second = org.post("/rounds", status=201).json["pairings"]
        assert cy in [p for t in second for p in t.get("players", [t.get("bye")])]


# --- the pairing preview ----------------------------------------------------------------------
def test_the_preview_gives_a_reason_per_table_and_pairing_with_it_makes_exactly_it(client):
    org = event(client)
    for name, club in zip(NAMES, ("Hammer", "Hammer", "Anvil", None, None, None), strict=True):
        org.add(name, club)
    shown = org.post("/rounds/preview", {}, 201).json
    assert shown["round"] == 1 and shown["warnings"] == []
    tables = [p for p in shown["pairings"] if "table" in p]
    assert len(tables) == 3 and all(p["reason"].startswith("0–0 vs 0–0") for p in tables)
    assert any("club-mates avoided" in p["reason"] for p in tables)
    assert all(p["reason"].endswith("new table") for p in tables)
    made = org.post("/rounds", {"preview": shown["preview"]}, 201).json
    assert [(p["table"], p["players"]) for p in made["pairings"]] == [
        (p["table"], p["players"]) for p in tables
    ]
    assert org.get("/rounds/1")["scenario"] == shown["scenario"]
    # A preview is for one event, one round, as the event stood.
    org.post("/rounds", {"preview": shown["preview"]}, 409)
    for t in made["pairings"]:
        org.post("/results", {"round": 1, "table": t["table"], "winner": t["players"][0], "vp": [9, 3]}, 201)
    second = org.post("/rounds/preview", {}, 201).json
    # Three winners and three losers: one pair crosses the score groups, and says so.
    reasons = sorted(p["reason"].split(";")[0] for p in second["pairings"])
    assert reasons == ["0–1 vs 0–1", "1–0 vs 0–1: paired across scores", "1–0 vs 1–0"]
    org.post(f"/players/{made['pairings'][0]['players'][0]}", {"dropped": True}, 200)
    stale = org.post("/rounds", {"preview": second["preview"]}, 409).json["error"]
    assert stale.startswith("The event changed since this preview")
    assert org.post("/rounds", {"preview": "nope"}, 422).json["error"].startswith("preview")


def test_the_preview_warns_of_what_no_pairing_avoids(client):
    # Two players, two rounds: round 2 can only be a rematch.
    org = event(client, rounds=2)
    org.add("Ann"), org.add("Bo")
    play_round(org, 1)
    shown = org.post("/rounds/preview", {}, 201).json
    a, b = shown["pairings"][0]["names"]
    assert shown["warnings"] == [
        f"{a} and {b} meet again: no pairing avoids every rematch.",
        f"{a} and {b} play at table 1 again: no numbering avoids it.",
    ]
    assert (
        shown["pairings"][0]["reason"]
        == "1–0 vs 0–1: paired across scores; a rematch; table 1 again for " + f"{a} and {b}"
    )


def test_the_console_shows_the_preview_before_the_tables_are_made(client):
    org = event(client)
    for name in NAMES[:4]:
        org.add(name)
    client.get(f"/events/{org.id}/organiser/{org.headers['X-Organiser-Token']}")
    console = f"/events/{org.id}/console"
    token = csrf_token(client, console)
    shown = client.post(f"{console}/preview", data={"csrf_token": token})
    assert shown.status_code == 303 and "preview=" in shown.headers["Location"]
    page = soup(client.get(shown.headers["Location"]))
    assert page.select_one("#preview-h").text.startswith("Round 1")
    assert len(page.select(".pairing-preview tbody tr")) == 2
    assert all(td.text.endswith("new table") for td in page.select(".pairing-preview td.reason"))
    assert org.get()["round"] == 0  # nothing made yet
    buttons = [b.text for b in page.select(".pairing-preview button")]
    assert buttons == ["Make these tables", "Draw again"]  # round 1 is a draw; Swiss rounds are not
    preview = page.select_one('.pairing-preview input[name="preview"]')["value"]
    made = client.post(f"{console}/pair", data={"csrf_token": token, "preview": preview})
    assert made.status_code == 303 and org.get()["round"] == 1


# --- lists ------------------------------------------------------------------------------------
def roster(client: FlaskClient, **change: Any) -> str:
    made = client.post("/api/v1/rosters", json={**FB_LIST, **change})
    assert made.status_code == 201, made.json
    return made.json["id"]


def submit(client: FlaskClient, org: Organiser, player: dict[str, Any], roster_id: str, status: int) -> Any:
    answer = client.post(
        f"/api/v1/events/{org.id}/lists",
        json={"roster": roster_id},
        headers={"X-Player-Token": player["token"]},
    )
    assert answer.status_code == status, answer.json
    return answer.json


def test_a_list_is_submitted_checked_for_the_event_and_locked(client):
    org = event(client)
    ann, bo = org.add("Ann"), org.add("Bo")
    submit(client, org, ann, roster(client), 201)
    heavy = roster(client, entries=[*FB_LIST["entries"], {"name": "Big", "kind": "regiment", "points": 300}])
    submit(client, org, bo, heavy, 201)
    seen = client.get(f"/api/v1/events/{org.id}/lists", headers=org.headers).json
    verdicts = {entry["player"]: entry for entry in seen["lists"]}
    assert verdicts[ann["player"]]["valid"] is True and verdicts[ann["player"]]["points"] == 270
    assert verdicts[bo["player"]]["valid"] is False
    assert (
        "The list is 570 points, over the 500 the event is played at." in verdicts[bo["player"]]["problems"]
    )
    # Before the pairing nobody else sees them: not the public, not the other player.
    assert client.get(f"/api/v1/events/{org.id}/lists").json["lists"] == []
    mine = client.get(f"/api/v1/events/{org.id}/lists", headers={"X-Player-Token": ann["token"]}).json[
        "lists"
    ]
    assert [entry["player"] for entry in mine] == [ann["player"]] and "valid" not in mine[0]
    org.post("/lists/lock", {"locked": True}, 200)
    refused = submit(client, org, ann, roster(client), 409)
    assert refused["error"] == "The organiser has locked the lists; ask them if yours must change."
    assert submit(client, org, ann, "nope", 409)["error"].startswith("The organiser has locked")
    org.post("/lists/lock", {"locked": False}, 200)
    assert (
        submit(client, org, ann, "nope", 422)["error"]
        == "roster must be one of your rosters for Conquest: First Blood."
    )


def test_a_list_after_the_deadline_is_refused(client):
    org = event(client, lists={"deadline": "2020-01-01T18:00:00Z"})
    ann = org.add("Ann")
    refused = submit(client, org, ann, roster(client), 409)
    assert refused["error"] == "Lists were due by 2020-01-01 18:00:00 UTC; ask the organiser."


@pytest.mark.parametrize("reveal", ["pairing", "start"])
def test_opponents_see_lists_when_the_event_says_and_the_prints_and_exports_follow(client, reveal):
    org = event(client, lists={"reveal": reveal})
    ann, bo = org.add("Ann"), org.add("Bo")
    submit(client, org, ann, roster(client, faction="Hundred Kingdoms"), 201)
    submit(client, org, bo, roster(client, faction="Nords"), 201)

    def shown() -> tuple[list[int], str, str, list[str]]:
        public = [entry["player"] for entry in client.get(f"/api/v1/events/{org.id}/lists").json["lists"]]
        # Ann's phone: what it says of her opponent's list (one test client is every phone here).
        page = soup(client.get(ann["url"]))
        phone = " ".join(t.text for t in page.select(".my-table .their-list, .my-table p.muted"))
        pack = pdf_text(client.get(f"/events/{org.id}/lists.pdf").data).casefold()
        factions = [r["faction"] for r in org.get("/export")["standings"]]
        return public, phone, pack, factions

    public, phone, pack, factions = shown()
    assert public == [] and "Nords" not in phone and "nords" not in pack and factions == ["", ""]
    org.post("/rounds", status=201)
    public, phone, pack, factions = shown()
    if reveal == "start":
        assert public == [] and "Nords" not in phone and "nords" not in pack
        assert "list shows here when your round starts" in phone
        org.post("/rounds/1/start", status=200)
        public, phone, pack, factions = shown()
    assert sorted(public) == sorted([ann["player"], bo["player"]])
    assert "Bo's list: Nords" in " ".join(
        soup(client.get(ann["url"])).select_one(".their-list summary").text.split()
    )
    assert "men-at-arms" in pack and "nords" in pack
    assert sorted(factions) == ["Hundred Kingdoms", "Nords"]
    exported = org.get("/export")["lists_shown"]
    assert sorted(entry["faction"] for entry in exported) == ["Hundred Kingdoms", "Nords"]


def test_a_change_after_the_lock_shows_at_check_in(client):
    org = event(client)
    ann = org.add("Ann")
    made = client.post("/api/v1/rosters", json=FB_LIST).json
    submit(client, org, ann, made["id"], 201)
    org.post("/lists/lock", {"locked": True}, 200)
    changed = {
        **FB_LIST,
        "entries": [FB_LIST["entries"][0], {"name": "Militia", "kind": "regiment", "points": 90}],
    }
    saved = client.put(
        f"/api/v1/rosters/{made['id']}", json=changed, headers={"X-Edit-Token": made["edit_token"]}
    )
    assert saved.status_code == 200, saved.json
    checked = org.post(f"/players/{ann['player']}", {"checked_in": True}, 200).json
    assert checked["checked_in"] is True
    assert checked["list_changes"] == [
        "added: Militia (90 points)",
        "removed: Men-at-Arms (150 points)",
        "points: 270 → 210",
    ]
    client.get(f"/events/{org.id}/organiser/{org.headers['X-Organiser-Token']}")
    page = soup(client.get(f"/events/{org.id}/console"))
    row = page.select_one(f'.player-row[data-player="{ann["player"]}"]')
    assert row.select_one(".checked-in").text == "here"
    assert [li.text for li in row.select(".list-changes li")] == checked["list_changes"]


def test_a_player_sends_a_list_from_this_phones_rosters(client):
    org = event(client)
    ann = org.add("Ann")
    token = csrf_token(client, "/rosters/new?pack=conquest-first-blood")
    made = client.post(
        "/rosters", data={"csrf_token": token, "pack": FB, "name": "My army", "points_limit": "500"}
    )
    assert made.status_code in (302, 303)
    page = soup(client.get(ann["url"]))
    options = page.select('.list-form select[name="roster"] option')
    assert [o.text for o in options] == ["My army"]
    form_token = page.select_one('.list-form input[name="csrf_token"]')["value"]
    path = ann["url"].replace("http://localhost", "")
    sent = client.post(f"{path}/list", data={"csrf_token": form_token, "roster": options[0]["value"]})
    assert sent.status_code == 303
    mine = soup(client.get(ann["url"])).select_one(".my-list")
    assert "My army" in mine.text and "1 problem" in mine.text  # no Character Regiment yet
    assert "The army has no Character Regiment; it needs exactly one." in mine.select_one(".problems").text


# --- soft scores ------------------------------------------------------------------------------
def test_painting_weighs_in_the_standings(client):
    org = event(client, soft={"painting": {"weight": 1}}, tie_breaks=["points", "vp_diff"], bye={"vp": 0})
    ann, bo = org.add("Ann")["player"], org.add("Bo")["player"]
    t = org.post("/rounds", status=201).json["pairings"][0]
    org.post("/results", {"round": 1, "table": 1, "winner": None, "vp": [5, 5]}, 201)
    org.post(f"/players/{bo}", {"painting": 7}, 200)
    rows = org.get("/standings")
    assert [(r["player"], r["points"], r["total"], r["soft"]) for r in rows] == [
        (bo, 1, 8, {"painting": 7}),
        (ann, 1, 1, {"painting": 0}),
    ]
    assert (
        org.post(f"/players/{ann}", {"painting": 101}, 422).json["error"]
        == "painting must be a whole number from 0 to 100."
    )
    plain = event(client)
    cy = plain.add("Cy")["player"]
    assert plain.post(f"/players/{cy}", {"painting": 3}, 409).json["error"].startswith("painting")
    assert t["table"] == 1


def test_sportsmanship_ballots_are_secret_and_counted_once(client):
    # One vote a player for the whole event: it opens once the last (second) round is paired.
    org = event(client, soft={"sportsmanship": {"prize": True}}, rounds=2)
    players = {n: org.add(n) for n in NAMES[:4]}
    by_id = {p["player"]: p for p in players.values()}
    play_round(org, 1)
    early = client.post(
        f"/api/v1/events/{org.id}/votes",
        json={"player": 1},
        headers={"X-Player-Token": players["Ann"]["token"]},
    )
    assert early.status_code == 409
    assert (
        early.json["error"] == "Voting opens once the last round is paired, so every opponent can be chosen."
    )
    table = org.post("/rounds", status=201).json["pairings"][0]
    voter, choice = by_id[table["players"][0]], table["players"][1]
    met = {
        q
        for number in (1, 2)
        for t in org.get(f"/rounds/{number}")["pairings"]
        if voter["player"] in t.get("players", [])
        for q in t["players"]
    }
    stranger = next(p for p in by_id if p not in met)
    wrong = client.post(
        f"/api/v1/events/{org.id}/votes",
        json={"player": stranger},
        headers={"X-Player-Token": voter["token"]},
    )
    assert wrong.status_code == 422 and wrong.json["error"].startswith(
        "player must be one of the opponents you played"
    )
    cast = client.post(
        f"/api/v1/events/{org.id}/votes", json={"player": choice}, headers={"X-Player-Token": voter["token"]}
    )
    assert cast.status_code == 201
    again = client.post(
        f"/api/v1/events/{org.id}/votes", json={"player": choice}, headers={"X-Player-Token": voter["token"]}
    )
    assert again.status_code == 409 and again.json["error"] == "You have voted already: a vote counts once."
    # Only the organiser sees it: not the standings anyone reads, not the export, not the board.
    assert client.get(f"/api/v1/events/{org.id}/votes").status_code == 403
    assert (
        client.get(f"/api/v1/events/{org.id}/votes", headers={"X-Player-Token": voter["token"]}).status_code
        == 403
    )
    ballots = client.get(f"/api/v1/events/{org.id}/votes", headers=org.headers).json
    name = next(n for n, p in players.items() if p["player"] == choice)
    assert ballots["count"] == [{"player": choice, "name": name, "votes": 1}]
    assert ballots["votes"][0]["voter"] == voter["player"]
    public = org.client.get(f"/api/v1/events/{org.id}/standings").json
    assert all("sportsmanship" not in r.get("soft", {}) for r in public)
    organiser = client.get(f"/api/v1/events/{org.id}/standings", headers=org.headers).json
    assert next(r for r in organiser if r["player"] == choice)["soft"]["sportsmanship"] == 1
    everything = json.dumps(org.get("/export")) + client.get(f"/events/{org.id}/board").get_data(True)
    assert "sportsmanship" not in everything.replace('"sportsmanship": {"prize": true}', "")
    other_phone = client.get(by_id[choice]["url"]).get_data(True)
    assert "You voted for" not in other_phone


# --- exports ----------------------------------------------------------------------------------
def test_the_ranking_exports_and_the_summary(client):
    org = event(client, rounds=2, scoring={"preset": "tow-bands"})
    ids = {n: org.add(n)["player"] for n in ("Ann", "=Bo", "Cy")}
    first = play_round(org, 1, (300, 100))
    data = org.get("/ranking.json")
    assert data["format"] == "muster-ranking/1" and data["event"]["tie_breaks"] == [
        "wins",
        "points",
        "vp_diff",
        "sos",
        "h2h",
        "roll_off",
    ]
    winner = first[0]["players"][0]
    top = next(p for p in data["players"] if p["player"] == winner)
    assert top["rounds"] == [
        {
            "round": 1,
            "opponent": first[0]["players"][1],
            "opponent_name": next(n for n, i in ids.items() if i == first[0]["players"][1]),
            "table": 1,
            "vp_for": 300,
            "vp_against": 100,
            # At 500 points the bands are 0-75, 76-150, 151-237, 238+: 200 VP is a 5-1.
            "tp": 5,
            "tp_reason": "won by 200 VP: band 151–237, 5–1",
            "result": "win",
        }
    ]
    rows = list(csv.reader(io.StringIO(client.get(f"/api/v1/events/{org.id}/ranking.csv").get_data(True))))
    head = rows[0]
    assert head[:14] == [
        "rank",
        "player",
        "name",
        "club",
        "faction",
        "wins",
        "losses",
        "draws",
        "tp",
        "vp_for",
        "vp_against",
        "vp_diff",
        "sos",
        "dropped",
    ]
    assert head[14:] == [
        f"r{n}_{f}" for n in (1, 2) for f in ("opponent", "table", "vp_for", "vp_against", "tp", "result")
    ]
    assert all(len(r) == len(head) for r in rows[1:]) and len(rows) == 4
    assert "'=Bo" in [r[2] for r in rows]
    bye_row = next(r for r in rows[1:] if r[19] == "bye")
    assert bye_row[14:20] == ["bye", "", "500", "0", "6", "bye"]
    text = client.get(f"/api/v1/events/{org.id}/summary.txt")
    assert text.mimetype == "text/plain"
    lines = text.get_data(True).splitlines()
    assert lines[0] == "Club night" and "Round 1 · " in lines[5]
    assert any(line.startswith("  Table 1: ") and "300 – 100" in line and "TP " in line for line in lines)
    assert any(line.startswith("  Bye: ") for line in lines)
    assert "Standings after round 1" in lines


# --- events made before -----------------------------------------------------------------------
def test_an_event_made_before_keeps_the_order_it_was_published_in(tmp_path):
    from sqlite_utils import Database

    from app import create_app
    from app.store.schema import migrations

    path = tmp_path / "old.sqlite"
    db = Database(path)
    migrations.apply(db, stop_before="m015_event_settings")
    db["club_events"].insert(
        {
            "id": "old-event",
            "organiser_token_hash": "x",
            "name": "Last season",
            "pack": FB,
            "points_limit": 500,
            "rounds": 1,
            "scenarios": "[]",
            "scoring": json.dumps({"win": 3, "draw": 1, "loss": 0}),
            "signup_open": 0,
            "created": "2026-01-01T00:00:00.000Z",
        }
    )
    for i, name in enumerate(("Ann", "Bo", "Cy"), start=1):
        db["event_players"].insert(
            {
                "id": i,
                "event_id": "old-event",
                "token_hash": f"h{i}",
                "name": name,
                "dropped": 0,
                "created": "x",
            }
        )
    db["event_rounds"].insert(
        {"event_id": "old-event", "number": 1, "scenario": "first-blood", "paired": "x"}
    )
    db["event_tables"].insert_all(
        [
            {"event_id": "old-event", "round": 1, "number": 1, "player_a": 1, "player_b": 2},
            {"event_id": "old-event", "round": 1, "number": 2, "player_a": 3, "player_b": None},
        ]
    )
    db["event_results"].insert(
        {
            "event_id": "old-event",
            "round": 1,
            "table_no": 1,
            "players": "[1, 2]",
            "winner": 0,
            "vp_a": 12,
            "vp_b": 2,
            "source": "organiser",
            "recorded": "x",
        }
    )
    db.close()
    client = create_app({"DATABASE": str(path), "TESTING": True, "SECRET_KEY": "t"}).test_client()
    rows = client.get("/api/v1/events/old-event/standings").json
    # As it was run: points, VP difference (Ann +10 before the bye's 0), a bye without VP.
    assert [(r["name"], r["points"], r["vp_diff"]) for r in rows] == [
        ("Ann", 3, 10),
        ("Cy", 3, 0),
        ("Bo", 0, -10),
    ]
    assert client.get("/api/v1/events/old-event").json["order"] == (
        "tournament points, VP difference, strength of schedule (opponents' average tournament points), roll-off"
    )
