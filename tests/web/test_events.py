"""Club events through the API and the screens: the contract of issue 18, confirmation paths,
the organiser's corrections, swaps and re-pairing, sign-up, the board and the prints."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import fresh_database
from tests.pdfs import pdf_text
from tests.web.conftest import csrf_token, soup
from tests.web.helpers import ADMIN, EVENTS_PASSWORD, FB, FB_LIST, Organiser


@pytest.fixture
def app(tmp_path: Path, migrated: Path) -> Flask:
    from app import create_app

    return create_app(
        {
            "DATABASE": str(fresh_database(migrated, tmp_path / "muster.sqlite")),
            "TESTING": True,
            "SECRET_KEY": "test",
            "ADMIN_PASSWORD": EVENTS_PASSWORD,
            "EVENT_SEED": 7,
        }
    )


def make_event(client: FlaskClient, **extra: Any) -> dict[str, Any]:
    body = {"name": "Club night", "pack": FB, "points_limit": 500, "rounds": 3, **extra}
    made = client.post("/api/v1/events", json=body, headers=ADMIN)
    assert made.status_code == 201, made.json
    return made.json


def finish_game(client: FlaskClient, game_id: str, token: str, loser: int) -> None:
    """A First Blood game ended in round 1: ``loser``'s army is wiped out."""
    players = [{}, {}]
    players[loser] = {"wiped_out": True}
    answer = client.post(
        f"/api/v1/games/{game_id}/events",
        json={"id": str(uuid.uuid4()), "type": "round", "round": 1, "players": players},
        headers={"X-Edit-Token": token},
    )
    assert answer.status_code == 201, answer.json


def test_creating_an_event_needs_the_admin_password(client):
    body = {"name": "Club night", "pack": FB, "points_limit": 500, "rounds": 3}
    assert client.post("/api/v1/events", json=body).status_code == 403
    wrong = client.post("/api/v1/events", json=body, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 403 and "Authorization" in wrong.json["error"]
    made = client.post("/api/v1/events", json=body, headers=ADMIN)
    assert made.status_code == 201 and set(made.json) >= {"id", "organiser_token", "url"}
    assert made.headers["Cache-Control"] == "no-store"


def test_wrong_bearers_are_counted_with_the_login_failures(app):
    """Issue 27 item 3: the API's bearer is the admin password, so a wrong one is a guess
    counted under the login's lockout (five from an address in 15 minutes), before comparing."""
    body = {"name": "Club night", "pack": FB, "points_limit": 500, "rounds": 3}
    guesser = app.test_client()
    for n in range(5):
        wrong = guesser.post("/api/v1/events", json=body, headers={"Authorization": f"Bearer guess-{n}"})
        assert wrong.status_code == 403, n
    locked = guesser.post("/api/v1/events", json=body, headers=ADMIN)  # even the right one now
    assert locked.status_code == 429 and "Too many wrong passwords" in locked.json["error"]
    # The same lockout holds the login form from that address, and spares another address.
    login = guesser.post(
        "/admin/login", data={"csrf_token": csrf_token(guesser, "/admin"), "password": EVENTS_PASSWORD}
    )
    assert login.status_code == 429
    other = app.test_client()
    made = other.post("/api/v1/events", json=body, headers=ADMIN, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert made.status_code == 201


def test_wrong_logins_lock_the_bearer_too(app):
    client = app.test_client()
    for _ in range(5):
        client.post("/admin/login", data={"csrf_token": csrf_token(client, "/admin"), "password": "guess"})
    body = {"name": "Club night", "pack": FB, "points_limit": 500, "rounds": 3}
    assert client.post("/api/v1/events", json=body, headers=ADMIN).status_code == 429


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"name": ""}, "name"),
        ({"pack": "chess"}, "pack"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": 13}, "rounds"),
        ({"points_limit": "many"}, "points_limit"),
        ({"scenarios": ["no-such-scenario"]}, "scenarios[0]"),
        ({"scoring": {"win": 1, "draw": 3}}, "scoring"),
        ({"round_minutes": 0}, "round_minutes"),
    ],
)
def test_a_bad_event_is_refused_naming_the_field(client, change, field):
    body = {"name": "Club night", "pack": FB, "points_limit": 500, "rounds": 3, **change}
    answer = client.post("/api/v1/events", json=body, headers=ADMIN)
    assert answer.status_code == 422 and answer.json["error"].startswith(field)


def test_organiser_actions_need_the_organiser_token_and_an_event_that_exists(client):
    event = make_event(client)
    path = f"/api/v1/events/{event['id']}/players"
    assert client.post(path, json={"name": "Ann"}).status_code == 403
    assert client.post(path, json={"name": "Ann"}, headers={"X-Organiser-Token": "x"}).status_code == 403
    answer = client.post(
        "/api/v1/events/nope/players", json={"name": "Ann"}, headers={"X-Organiser-Token": "x"}
    )
    assert answer.status_code == 404
    assert client.get("/api/v1/events/nope/standings").status_code == 404


def test_a_three_round_event_from_pairing_to_standings(client):
    org = Organiser(client, make_event(client))
    ids = {name: org.add(name)["player"] for name in ("Ann", "Bo", "Cy", "Di", "Ed")}
    made = org.post("/rounds", status=201).json
    assert made["round"] == 1
    tables = [p for p in made["pairings"] if "table" in p]
    byes = [p["bye"] for p in made["pairings"] if "bye" in p]
    assert (
        len(tables) == 2
        and len(byes) == 1
        and made["pairings"][-1] == {"bye": byes[0], "name": made["pairings"][-1]["name"]}
    )
    assert sorted([*byes, *(p for t in tables for p in t["players"])]) == sorted(ids.values())
    for t in tables:
        game = client.get(f"/api/v1/games/{t['game']}").json
        assert [p["name"] for p in game["players"]] == t["names"]
    # The next round waits for every result.
    waiting = org.post("/rounds", status=409).json["error"]
    assert "table(s) 1, 2" in waiting
    for t in tables:
        org.post(
            "/results", {"round": 1, "table": t["table"], "winner": t["players"][0], "vp": [20, 10]}, 201
        )
    standings = org.get("/standings")
    second = org.post("/rounds", status=201).json
    assert second["round"] == 2
    met = {frozenset(t["players"]) for t in tables}
    assert all(frozenset(p["players"]) not in met for p in second["pairings"] if "table" in p)
    assert all(p["bye"] != byes[0] for p in second["pairings"] if "bye" in p)
    assert [
        set(r)
        >= {
            "rank",
            "player",
            "name",
            "wins",
            "draws",
            "losses",
            "points",
            "vp_for",
            "vp_against",
            "vp_diff",
            "sos",
        }
        for r in standings
    ] == [True] * 5
    # By default a bye is a crushing win: VP for as many as the event's points (500), none
    # against, so the bye's player leads the two winners (+10 each) on VP difference.
    winners = {t["players"][0] for t in tables}
    assert standings[0]["player"] == byes[0]
    bye_row = standings[0]
    assert (bye_row["wins"], bye_row["points"], bye_row["vp_diff"], bye_row["sos"]) == (1, 3, 500, 0)
    assert bye_row["tp_reason"] == ["round 1: bye (a win by 500 VP): 3 TP"]
    top = {r["player"] for r in standings[1:3]}
    assert top == winners and all(r["points"] == 3 and r["vp_diff"] == 10 for r in standings[1:3])


def test_a_finished_game_sends_its_result_and_both_players_confirm_it(client, app):
    org = Organiser(client, make_event(client))
    ann, bo = org.add("Ann"), org.add("Bo")
    table = org.post("/rounds", status=201).json["pairings"][0]
    phone = soup(client.get(ann["url"]))
    link = phone.select_one("a.button.primary")["href"]
    game_token = link.rsplit("/", 1)[1]
    finish_game(client, table["game"], game_token, loser=1)
    pairing = org.get("/rounds/1")["pairings"][0]
    assert pairing["result"]["source"] == "game" and pairing["result"]["final"] is False
    assert pairing["result"]["winner"] == table["players"][0]
    assert org.get("/standings")[0]["points"] == 0  # not counted until confirmed
    # The first player confirms on their phone; the second through the API with their token.
    first = ann if table["players"][0] == ann["player"] else bo
    second = bo if first is ann else ann
    page = client.get(first["url"])
    form_token = soup(page).select_one('form[action$="/confirm"] input[name="csrf_token"]')["value"]
    path = first["url"].replace("http://localhost", "") + "/confirm"
    assert client.post(path, data={"csrf_token": form_token}).status_code == 303
    assert "waiting for your opponent" in client.get(first["url"]).get_data(True)
    assert org.get("/rounds/1")["pairings"][0]["result"]["confirmed"] == [True, False]
    other = client.post(
        f"/api/v1/events/{org.id}/results/confirm",
        json={"round": 1, "table": 1},
        headers={"X-Player-Token": second["token"]},
    )
    assert other.status_code == 200 and other.json["pairings"][0]["result"]["final"] is True
    assert org.get("/standings")[0]["player"] == table["players"][0]


def test_a_confirmation_of_a_result_since_corrected_is_refused_with_its_sentence(client):
    """A phone's confirmation may arrive late and twice (kept offline in its outbox, then sent
    again): it confirms the result the player saw, once, never one the organiser corrected."""
    org = Organiser(client, make_event(client))
    ann, bo = org.add("Ann"), org.add("Bo")
    table = org.post("/rounds", status=201).json["pairings"][0]
    link = soup(client.get(ann["url"])).select_one("a.button.primary")["href"]
    finish_game(client, table["game"], link.rsplit("/", 1)[1], loser=1)

    def confirm_form(player: dict[str, Any]) -> dict[str, str]:
        form = soup(client.get(player["url"])).select_one('form[action$="/confirm"]')
        assert "data-outbox" in form.attrs
        return {field["name"]: field["value"] for field in form.select("input[type=hidden]")}

    def path(player: dict[str, Any]) -> str:
        return player["url"].replace("http://localhost", "") + "/confirm"

    seen_by_ann, seen_by_bo = confirm_form(ann), confirm_form(bo)
    assert seen_by_ann["result"] == seen_by_bo["result"]
    assert client.post(path(ann), data=seen_by_ann).status_code == 303
    assert client.post(path(ann), data=seen_by_ann).status_code == 303  # sent again: no harm
    side = table["players"].index(ann["player"])
    assert org.get("/rounds/1")["pairings"][0]["result"]["confirmed"][side] is True

    # The organiser corrects the result before Bo's confirmation (kept offline) arrives.
    org.post("/results", {"round": 1, "table": 1, "winner": table["players"][1], "vp": [10, 25]}, 201)
    late = client.post(path(bo), data=seen_by_bo)
    sentence = "The result changed after you confirmed it on your phone: check it and confirm again."
    assert late.status_code == 422 and unquote(late.headers["X-Muster-Refusal"]) == sentence
    assert sentence in late.get_data(True)
    result = org.get("/rounds/1")["pairings"][0]["result"]
    assert result["source"] == "organiser" and result["confirmed"] == [False, False]


def test_a_stranger_cannot_confirm_and_the_organiser_can(client):
    org = Organiser(client, make_event(client))
    org.add("Ann"), org.add("Bo")
    cy = org.add("Cy")
    org.add("Di")
    made = org.post("/rounds", status=201).json
    table = next(t for t in made["pairings"] if cy["player"] not in t["players"])
    org.post("/results", {"round": 1, "table": table["table"], "winner": None, "vp": [7, 7]}, 201)
    answer = client.post(
        f"/api/v1/events/{org.id}/results/confirm",
        json={"round": 1, "table": table["table"]},
        headers={"X-Player-Token": cy["token"]},
    )
    assert answer.status_code == 403
    assert (
        client.post(f"/api/v1/events/{org.id}/results/confirm", json={"round": 1, "table": 1}).status_code
        == 403
    )
    confirmed = org.post("/results/confirm", {"round": 1, "table": table["table"]}, 200).json
    assert next(p for p in confirmed["pairings"] if p.get("table") == table["table"])["result"]["final"]


def test_the_organiser_corrects_a_result_and_the_newest_counts(client):
    org = Organiser(client, make_event(client))
    a, b = org.add("Ann")["player"], org.add("Bo")["player"]
    table = org.post("/rounds", status=201).json["pairings"][0]
    org.post("/results", {"round": 1, "table": 1, "winner": table["players"][0], "vp": [20, 10]}, 201)
    org.post("/results", {"round": 1, "table": 1, "winner": table["players"][1], "vp": [10, 25]}, 201)
    rows = {r["player"]: r for r in org.get("/standings")}
    assert rows[table["players"][1]]["points"] == 3 and rows[table["players"][1]]["vp_diff"] == 15
    assert rows[table["players"][0]]["losses"] == 1
    exported = org.get("/export")
    assert exported["format"] == "muster-event/1" and len(exported["results"]) == 2
    assert {a, b} == {p["player"] for p in exported["players"]}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"round": 2, "table": 1, "winner": None, "vp": [1, 1]}, "round"),
        ({"round": 1, "table": 9, "winner": None, "vp": [1, 1]}, "table"),
        ({"round": 1, "table": 1, "winner": 999, "vp": [1, 1]}, "winner"),
        ({"round": 1, "table": 1, "vp": [1, 1]}, "winner"),
        ({"round": 1, "table": 1, "winner": None, "vp": [1]}, "vp"),
        ({"round": 1, "table": 1, "winner": None, "vp": [-1, 2]}, "vp"),
        ({"round": True, "table": 1, "winner": None, "vp": [1, 2]}, "round"),
    ],
)
def test_a_bad_result_is_refused_naming_the_field(client, body, field):
    org = Organiser(client, make_event(client))
    org.add("Ann"), org.add("Bo")
    org.post("/rounds", status=201)
    answer = org.post("/results", body, 422)
    assert answer.json["error"].startswith(field)


def test_swap_before_the_round_starts_and_repair_until_a_result_is_in(client):
    org = Organiser(client, make_event(client, round_minutes=90))
    players = [org.add(n)["player"] for n in ("Ann", "Bo", "Cy", "Di")]
    first = org.post("/rounds", status=201).json["pairings"]
    a, c = first[0]["players"][0], first[1]["players"][0]
    swapped = org.post("/rounds/1/swap", {"players": [a, c]}, 200).json["pairings"]
    assert c in swapped[0]["players"] and a in swapped[1]["players"]
    assert swapped[0]["game"] != first[0]["game"]
    assert client.get(f"/api/v1/games/{swapped[0]['game']}").json["players"][0]["name"] in (
        "Ann",
        "Bo",
        "Cy",
        "Di",
    )
    org.post("/rounds/1/swap", {"players": [a, a]}, 422)
    org.post("/rounds/2/swap", {"players": [a, c]}, 404)
    again = org.post("/rounds/1/repair", status=201).json
    assert {g["game"] for g in again["pairings"]}.isdisjoint({g["game"] for g in swapped})
    # The replaced games leave the club home; the round's games are on it.
    home = client.get("/").get_data(True)
    assert all(g["game"] in home for g in again["pairings"])
    assert not any(g["game"] in home for g in first + swapped)
    started = org.post("/rounds/1/start", status=200).json
    assert started["started"] and started["ends"]
    org.post("/rounds/1/swap", {"players": [a, c]}, 409)
    org.post("/results", {"round": 1, "table": 1, "winner": None, "vp": [5, 5]}, 201)
    assert "result" in org.post("/rounds/1/repair", status=409).json["error"]
    assert sorted(p["player"] for p in org.get()["players"]) == sorted(players)


def test_drop_and_rejoin_between_rounds(client):
    org = Organiser(client, make_event(client))
    ids = [org.add(n)["player"] for n in ("Ann", "Bo", "Cy", "Di")]
    made = org.post("/rounds", status=201).json
    for t in made["pairings"]:
        org.post("/results", {"round": 1, "table": t["table"], "winner": t["players"][0], "vp": [3, 1]}, 201)
    org.post(f"/players/{ids[0]}", {"dropped": True}, 200)
    second = org.post("/rounds", status=201).json["pairings"]
    assert ids[0] not in [p for t in second for p in t.get("players", [t.get("bye")])]
    assert [p for p in second if "bye" in p]
    org.post(f"/players/{ids[0]}", {"dropped": "yes"}, 422)
    org.post(f"/players/{ids[0]}", {"dropped": False}, 200)
    for t in second:
        if "table" in t:
            org.post("/results", {"round": 2, "table": t["table"], "winner": None, "vp": [2, 2]}, 201)
    third = org.post("/rounds", status=201).json["pairings"]
    assert ids[0] in [p for t in third for p in t.get("players", [t.get("bye")])]
    assert next(r for r in org.get("/standings") if r["player"] == ids[0])["dropped"] is False
    org.post("/rounds", status=409)


def test_a_rolloff_orders_players_level_on_everything(client):
    org = Organiser(client, make_event(client, rounds=1))
    ids = [org.add(n)["player"] for n in ("Ann", "Bo", "Cy", "Di")]
    made = org.post("/rounds", status=201).json["pairings"]
    for t in made:
        org.post("/results", {"round": 1, "table": t["table"], "winner": t["players"][0], "vp": [10, 5]}, 201)
    rows = org.get("/standings")
    assert rows[0]["tied"] and rows[0]["rank"] == rows[1]["rank"] == 1
    winners = [r["player"] for r in rows[:2]]
    after = org.post("/rolloffs", {"players": winners[::-1]}, 201).json
    assert [r["player"] for r in after[:2]] == winners[::-1] and [r["rank"] for r in after[:2]] == [1, 2]
    org.post("/rolloffs", {"players": [ids[0]]}, 422)


def test_the_console_rolloff_picks_tied_players_by_name(client):
    event = make_event(client, rounds=1)
    org = Organiser(client, event)
    for name in ("Ann", "Bo", "Cy", "Di"):
        org.add(name)
    for t in org.post("/rounds", status=201).json["pairings"]:
        org.post("/results", {"round": 1, "table": t["table"], "winner": t["players"][0], "vp": [10, 5]}, 201)
    client.get(f"/events/{event['id']}/organiser/{event['organiser_token']}")
    console = f"/events/{event['id']}/console"
    page = soup(client.get(console))
    form = page.select_one("form.rolloff")
    assert form.select_one("legend").text.startswith("Roll-off for place 1: ")
    selects = form.select("select[name=order]")
    tied = [o.text for o in selects[0].select("option")]
    assert (
        len(selects) == 2
        and set(tied) <= {"Ann", "Bo", "Cy", "Di"}
        and "id" not in page.select_one("#standings-h").parent.text
    )
    values = {o.text: o["value"] for o in selects[0].select("option")}
    token = csrf_token(client, console)
    twice = client.post(f"{console}/rolloff", data={"csrf_token": token, "order": [values[tied[0]]] * 2})
    assert twice.status_code == 422
    assert "Pick each tied player once, the roll-off's winner first." in soup(twice).text
    done = client.post(
        f"{console}/rolloff", data={"csrf_token": token, "order": [values[tied[1]], values[tied[0]]]}
    )
    assert done.status_code == 303
    assert [r["name"] for r in org.get("/standings")[:2]] == [tied[1], tied[0]]


def test_signup_is_open_until_the_organiser_closes_it(client, app):
    event = make_event(client)
    org = Organiser(client, event)
    page = client.get(f"/events/{event['id']}")
    assert page.status_code == 200 and soup(page).select_one("form.signup-form")
    token = csrf_token(client, f"/events/{event['id']}")
    signed = client.post(
        f"/events/{event['id']}/signup", data={"csrf_token": token, "name": "Ann", "club": "Hammer"}
    )
    assert signed.status_code == 303 and "/me/" in signed.headers["Location"]
    assert "Ann" in client.get(signed.headers["Location"]).get_data(True)
    assert client.get(f"/events/{event['id']}/qr.svg").mimetype == "image/svg+xml"
    org.post("/signup", {"open": False}, 200)
    assert not soup(client.get(f"/events/{event['id']}")).select_one("form.signup-form")
    late = client.post(f"/events/{event['id']}/signup", data={"csrf_token": token, "name": "Bo"})
    assert late.status_code == 409 and "closed" in late.get_data(True)
    assert [p["name"] for p in org.get()["players"]] == ["Ann"]


@pytest.mark.parametrize("again", ["Dee", "dee ", "  DEE", "Dee\t"])
def test_a_name_already_signed_up_is_refused(client, again):
    """Issue 27 item 11: two players the pairings would show as one name cannot be told apart."""
    event = make_event(client)
    org = Organiser(client, event)
    token = csrf_token(client, f"/events/{event['id']}")
    first = client.post(f"/events/{event['id']}/signup", data={"csrf_token": token, "name": "Dee"})
    assert first.status_code == 303
    second = client.post(f"/events/{event['id']}/signup", data={"csrf_token": token, "name": again})
    assert second.status_code == 409
    alert = soup(second).select_one("[role=alert]").text
    assert "name: Dee is already signed up for this event" in alert
    # The organiser cannot add a second one either (the API names the field the same way).
    added = org.post("/players", {"name": again}, 409).json
    assert added["error"].startswith("name: Dee is already signed up")
    assert [p["name"] for p in org.get()["players"]] == ["Dee"]
    assert org.add("Dee K")["player"] > 0  # a name told apart is welcome


def test_an_event_players_link_opens_their_own_seat_of_a_game_with_seats(app, client):
    """Issue 27 item 4: in an event game of a seated system (Tunnel Wars), each player's page
    opens that player's own seat, never the table's link (which listed every seat)."""
    event = make_event(client, pack="aos-conquest-unbound", scenarios=["tunnel-wars"], points_limit=2000)
    org = Organiser(client, event)
    players = {name: org.add(name) for name in ("Ann", "Bo")}
    table = org.post("/rounds", status=201).json["pairings"][0]
    for me in players.values():
        phone = app.test_client()
        page = soup(phone.get(me["url"].replace("http://localhost", "")))
        link = page.find("a", string="Open my game")["href"]
        assert "/seat/" in link and "/join/" not in link
        opened = phone.get(link)
        assert opened.status_code == 303
        game_page = phone.get(opened.headers["Location"])
        # Player a of the table is the game's first player (seat 0), b the second.
        assert soup(game_page).select_one("#game")["data-seat"] == str(table["players"].index(me["player"]))
        assert not soup(game_page).select("#seats")  # no seat's link, the opponent's least of all
        assert table["game"] in opened.headers["Location"]


def test_the_console_runs_a_round_and_needs_the_organiser_link(client):
    event = make_event(client)
    assert client.get(f"/events/{event['id']}/console").status_code == 403
    assert client.get(f"/events/{event['id']}/organiser/wrong").status_code == 403
    opened = client.get(f"/events/{event['id']}/organiser/{event['organiser_token']}")
    assert opened.status_code == 303
    console = f"/events/{event['id']}/console"
    token = csrf_token(client, console)
    for name in ("Ann", "Bo"):
        added = client.post(f"{console}/player", data={"csrf_token": token, "name": name})
        assert added.status_code == 200 and "/me/" in soup(added).select_one(".added a")["href"]
        qr = client.get(soup(added).select_one(".added img.qr")["src"])
        assert qr.mimetype == "image/svg+xml" and qr.headers["Cache-Control"] == "no-store"
    assert client.get(f"/events/{event['id']}/me/not-a-token/qr.svg").status_code == 403
    assert client.post(f"{console}/pair", data={"csrf_token": token}).status_code == 303
    page = soup(client.get(console))
    assert "Round 1" in page.select_one("#round-h").text and page.select_one(".waiting-table")
    done = client.post(
        f"{console}/result",
        data={"csrf_token": token, "round": "1", "table": "1", "draw": "1", "vp_a": "4", "vp_b": "4"},
    )
    assert done.status_code == 303
    bad = client.post(
        f"{console}/result",
        data={"csrf_token": token, "round": "1", "table": "1", "draw": "1", "vp_a": "x", "vp_b": "4"},
    )
    assert bad.status_code == 422
    assert soup(bad).select_one("#form-error").text.endswith("'s VP must be a whole number from 0 to 10,000.")
    assert not soup(client.get(console)).select_one(".waiting-table")


def test_the_console_says_how_many_rounds_before_the_first_is_paired(client):
    event = make_event(client)
    client.get(f"/events/{event['id']}/organiser/{event['organiser_token']}")
    console = f"/events/{event['id']}/console"
    said = {
        code: soup(client.get(console, headers={"Accept-Language": code})).select_one("main .muted").text
        for code in ("en", "de", "fr")
    }
    assert said["en"] == "0 players · 3 rounds, not started yet"
    assert said["de"].endswith("3 Runden, noch nicht begonnen")
    assert said["fr"].endswith("3 rondes, pas encore commencées")
    token = csrf_token(client, console)
    for name in ("Ann", "Bo"):
        client.post(f"{console}/player", data={"csrf_token": token, "name": name})
    client.post(f"{console}/pair", data={"csrf_token": token})
    assert soup(client.get(console)).select_one("main .muted").text.startswith("2 players · round 1 of 3 · ")


def test_the_board_shows_tables_standings_and_refreshes_itself(client):
    event = make_event(client, round_minutes=60)
    org = Organiser(client, event)
    for name in ("Ann", "Bo", "Cy"):
        org.add(name)
    org.post("/rounds", status=201)
    org.post("/rounds/1/start", status=200)
    page = soup(client.get(f"/events/{event['id']}/board"))
    board = page.select_one("#board")
    assert "every 10s" in board["hx-trigger"] and page.select_one("body.board")
    assert page.select_one(".pairings .table-no").text == "1" and "Bye" in page.select_one(".pairings").text
    assert page.select_one("[data-round-ends]") and "59:" in page.select_one(".time-left").text
    part = client.get(f"/events/{event['id']}/board?part=board", headers={"HX-Request": "true"})
    assert part.get_data(True).lstrip().startswith('<div id="board"')


def test_the_exports_and_prints(client):
    event = make_event(client)
    org = Organiser(client, event)
    for name in ("Ann", "=Bo", "Cy", "Di"):
        org.add(name)
    org.post("/rounds", status=201)
    org.post("/results", {"round": 1, "table": 1, "winner": None, "vp": [3, 3]}, 201)
    csv_text = client.get(f"/api/v1/events/{event['id']}/export.csv").get_data(True)
    assert csv_text.startswith("rank,player,name,wins") and "'=Bo" in csv_text
    for sheet, words in (("pairings", "Table"), ("standings", "VP against"), ("slips", "Signature")):
        for chosen in ("a4", "letter"):
            answer = client.get(f"/events/{event['id']}/{sheet}.pdf?paper={chosen}")
            assert answer.status_code == 200 and answer.mimetype == "application/pdf"
            assert words in pdf_text(answer.data)


def test_creating_an_event_on_the_screens_needs_the_admin_login(client):
    assert client.get("/events/new").status_code == 403
    token = csrf_token(client, "/admin")
    client.post("/admin/login", data={"csrf_token": token, "password": EVENTS_PASSWORD})
    form = csrf_token(client, "/events/new")
    made = client.post(
        "/events/new",
        data={
            "csrf_token": form,
            "name": "Tuesday",
            "pack": FB,
            "points_limit": "500",
            "rounds": "3",
            "win": "3",
            "draw": "1",
            "loss": "0",
        },
    )
    assert made.status_code == 303 and "/organiser/" in made.headers["Location"]
    assert "Tuesday" in client.get("/events").get_data(True)


def test_event_answers_conform_to_openapi(client):
    from tests.web.openapi import Conformance, spec_routes

    api = Conformance(client)
    made = api.call(
        "POST",
        "/api/v1/events",
        201,
        json={
            "name": "Night",
            "pack": FB,
            "points_limit": 500,
            "rounds": 1,
            "scoring": {"preset": "tow-bands"},
            "soft": {"painting": {"weight": 1}, "sportsmanship": {"prize": True}},
        },
        headers=ADMIN,
    )
    api.call("POST", "/api/v1/events", 403, json={"name": "Night"})
    api.call("POST", "/api/v1/events", 422, json={"name": ""}, headers=ADMIN)
    e, org = f"/api/v1/events/{made['id']}", {"X-Organiser-Token": made["organiser_token"]}
    players = [
        api.call("POST", f"{e}/players", 201, json={"name": n}, headers=org) for n in ("Ann", "Bo", "Cy")
    ]
    api.call("POST", f"{e}/players", 403, json={"name": "Di"})
    api.call("POST", f"{e}/signup", 200, json={"open": False}, headers=org)
    api.call("POST", f"{e}/players/{players[2]['player']}", 200, json={"dropped": True}, headers=org)
    api.call("POST", f"{e}/players/{players[2]['player']}", 200, json={"dropped": False}, headers=org)
    roster = client.post("/api/v1/rosters", json=FB_LIST).json["id"]
    mine = {"X-Player-Token": players[0]["token"]}
    api.call("POST", f"{e}/lists", 201, json={"roster": roster}, headers=mine)
    api.call("POST", f"{e}/lists", 403, json={"roster": roster})
    api.call("POST", f"{e}/lists", 422, json={"roster": "nope"}, headers=mine)
    api.call("GET", f"{e}/lists", 200, headers=org)
    api.call("POST", f"{e}/lists/lock", 200, json={"locked": True}, headers=org)
    api.call("POST", f"{e}/lists", 409, json={"roster": roster}, headers=mine)
    api.call(
        "POST",
        f"{e}/players/{players[0]['player']}",
        200,
        json={"checked_in": True, "painting": 40},
        headers=org,
    )
    preview = api.call("POST", f"{e}/rounds/preview", 201, json={}, headers=org)
    first = api.call("POST", f"{e}/rounds", 201, json={"preview": preview["preview"]}, headers=org)
    api.call("POST", f"{e}/rounds", 409, headers=org)
    api.call("POST", f"{e}/rounds/preview", 409, json={}, headers=org)
    api.call("GET", f"{e}/rounds/1", 200)
    api.call("GET", f"{e}/rounds/5", 404)
    again = api.call("POST", f"{e}/rounds/preview", 201, json={"again": True}, headers=org)
    api.call("POST", f"{e}/rounds/1/repair", 201, json={"preview": again["preview"]}, headers=org)
    table = next(p for p in api.call("GET", f"{e}/rounds/1", 200)["pairings"] if "table" in p)
    bye = next(p for p in api.call("GET", f"{e}/rounds/1", 200)["pairings"] if "bye" in p)
    api.call(
        "POST", f"{e}/rounds/1/swap", 200, json={"players": [table["players"][0], bye["bye"]]}, headers=org
    )
    api.call("POST", f"{e}/rounds/1/start", 200, headers=org)
    table = next(p for p in api.call("GET", e, 200)["rounds_paired"][0]["pairings"] if "table" in p)
    api.call(
        "POST",
        f"{e}/results",
        201,
        json={"round": 1, "table": table["table"], "winner": None, "vp": [5, 5]},
        headers=org,
    )
    api.call(
        "POST", f"{e}/results", 422, json={"round": 1, "table": 99, "winner": None, "vp": [5, 5]}, headers=org
    )
    api.call("POST", f"{e}/results/confirm", 200, json={"round": 1, "table": table["table"]}, headers=org)
    api.call(
        "POST",
        f"{e}/rolloffs",
        201,
        json={"players": [players[0]["player"], players[1]["player"]]},
        headers=org,
    )
    voter = next(p for p in players if p["player"] in table["players"])
    other = next(p for p in table["players"] if p != voter["player"])
    api.call("POST", f"{e}/votes", 201, json={"player": other}, headers={"X-Player-Token": voter["token"]})
    api.call("POST", f"{e}/votes", 409, json={"player": other}, headers={"X-Player-Token": voter["token"]})
    api.call("GET", f"{e}/votes", 200, headers=org)
    api.call("GET", f"{e}/votes", 403)
    api.call("GET", f"{e}/standings", 200)
    api.call("GET", f"{e}/standings", 200, headers=org)
    api.call("GET", f"{e}/export", 200)
    api.call("GET", f"{e}/export.csv", 200)
    api.call("GET", f"{e}/ranking.json", 200)
    api.call("GET", f"{e}/ranking.csv", 200)
    api.call("GET", f"{e}/summary.txt", 200)
    api.call("GET", f"{e}/lists", 200)
    api.call("GET", "/api/v1/events/nope", 404)
    assert first["round"] == 1
    met = {(m, t) for (m, t, s) in api.seen if s < 300}
    assert met == {(m, t) for m, t in spec_routes(api.spec) if t.startswith("/api/v1/events")}


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/rounds/1/swap", {"players": [[1], {"a": 2}]}),
        ("/rolloffs", {"players": [[1], [2]]}),
        ("/results", {"round": [1], "table": {"x": 1}, "winner": [2], "vp": [[1], 2]}),
        ("/results/confirm", {"round": [1], "table": [1]}),
        ("/players", {"name": ["Ann"], "club": {"x": 1}, "roster": [1]}),
        ("/signup", ["open"]),
    ],
)
def test_odd_json_is_a_sentence_never_a_500(client, path, body):
    org = Organiser(client, make_event(client))
    org.add("Ann"), org.add("Bo"), org.add("Cy")
    org.post("/rounds", status=201)
    answer = org.post(path, body)
    assert answer.status_code in (403, 409, 422) and answer.json["error"].endswith(".")
