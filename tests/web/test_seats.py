"""Seats and secrets: a token per player in Triumph & Treachery, 403s for another's secret,
and a held ploy shown to nobody but its holder in any page, fragment, export or PDF."""

from __future__ import annotations

import io
import uuid
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from tests.pdfs import pdf_text
from tests.web.conftest import csrf_token, form_fields, parsed, qr_text_matches, soup
from tests.web.helpers import body, catalogue_free, made, phone, post, seat

PACK = "tow-triumph-treachery"
# The ploy Ann buys and holds: its id and name must reach nobody else.
HELD = ("hidden-pitfalls", "Hidden Pitfalls")
# A ploy Bo buys, then plays: once played, everyone sees it.
PLAYED = ("caltrops", "Caltrops")


def bought(client: FlaskClient) -> dict[str, Any]:
    """A game in round 1 where Ann (seat 0) has bought Hidden Pitfalls."""
    game = made(client)
    assert (
        post(client, game, {"type": "battle_round", "round": 1}, edit=game["edit_token"]).status_code == 201
    )
    answer = post(client, game, {"type": "buy", "round": 1, "player": 0, "ploy": HELD[0]}, seat=seat(game, 0))
    assert answer.status_code == 201, answer.json
    return game


def leaks(text: str | bytes, ploy: tuple[str, str] = HELD) -> list[str]:
    """Which of the ploy's id and name a text holds (case-insensitive)."""
    found = text.decode() if isinstance(text, bytes) else text
    return [word for word in ploy if word.lower() in found.lower()]


# --- seats in the create answer -----------------------------------------------------------------
def test_a_game_with_secrets_answers_a_seat_per_player_and_stores_no_token(client, app):
    game = made(client)
    assert [s["player"] for s in game["seats"]] == [0, 1, 2]
    tokens = [s["token"] for s in game["seats"]]
    assert len(set(tokens)) == 3 and game["edit_token"] not in tokens
    assert all(len(t) >= 32 for t in tokens)  # 192 random bits, as the edit token
    for s in game["seats"]:
        assert s["url"] == f"http://localhost/games/{game['id']}/seat/{s['token']}"
    database = Path(app.config["DATABASE"])
    stored = b"".join(p.read_bytes() for p in database.parent.glob(database.name + "*"))
    assert not any(t.encode() in stored for t in tokens), "a seat token is stored as itself"


def test_a_game_without_secrets_has_no_seats(client):
    from tests.setups import new_game

    assert "seats" not in new_game(client)


def test_a_seat_link_opens_the_seat_and_a_wrong_one_is_refused(app):
    game = made(app.test_client())
    bo = phone(app, game, 1)
    page = soup(bo.get(f"/games/{game['id']}"))
    assert page.select_one("#game")["data-seat"] == "1"
    assert "Bo's ploys" in page.select_one("#hand h2").text
    wrong = app.test_client().get(f"/games/{game['id']}/seat/{game['edit_token']}")
    assert wrong.status_code == 403 and b"seat link is not valid" in wrong.data


def test_the_table_screen_shows_each_seats_link_and_qr_code(app):
    game = made(app.test_client())
    table = phone(app, game, "table")
    page = soup(table.get(f"/games/{game['id']}"))
    seats = page.select("#seats details.seat")
    assert [s.select_one("summary").text for s in seats] == ["Ann's seat", "Bo's seat", "Cy's seat"]
    for s, given in zip(seats, game["seats"], strict=True):
        assert s.select_one("input.copy")["value"] == given["url"]
        assert qr_text_matches(table, s.select_one("img.qr")["src"], given["url"])
    # Only the table shows the seats: a seat's phone and a watcher see no other seat's link.
    for other in (phone(app, game, 0), phone(app, game, None)):
        html = other.get(f"/games/{game['id']}").data
        assert not soup(type("R", (), {"data": html})()).select("#seats")
        assert not any(s["token"].encode() in html for s in game["seats"][1:])
        assert other.get(f"/games/{game['id']}/seats/1.svg").status_code == 403


def test_a_phone_that_joined_by_the_join_link_is_shown_no_seat(app):
    """Issue 27 item 5: the edit token is no master key: only the phone that made the game (the
    table) shows the seats' links; another phone holding the join link records, but sees none."""
    game = made(app.test_client())
    joined = phone(app, game, "joined")
    page = joined.get(f"/games/{game['id']}")
    assert page.status_code == 200 and soup(page).select_one("form.step-form, #game form")
    assert not soup(page).select("#seats")
    assert not any(s["token"].encode() in page.data for s in game["seats"])
    for player in range(3):
        assert joined.get(f"/games/{game['id']}/seats/{player}.svg").status_code == 403
    # Its join link still works, fetched when shown (it carries no seat).
    link = joined.get(f"/games/{game['id']}/join-link", headers={"HX-Request": "true"})
    assert link.status_code == 200 and game["edit_token"].encode() in link.data
    assert not any(s["token"].encode() in link.data for s in game["seats"])


def test_a_taken_seat_is_not_shown_again_until_the_table_invites_it(app):
    game = made(app.test_client())
    table = phone(app, game, "table")
    ann = phone(app, game, 0)  # Ann opens her seat on her phone
    page = soup(table.get(f"/games/{game['id']}"))
    seats = page.select("#seats details.seat")
    assert [s.select_one("summary").text for s in seats] == ["Ann's seat", "Bo's seat", "Cy's seat"]
    assert not seats[0].select("img.qr, input.copy")
    assert "Taken: Ann's phone has opened this seat." in seats[0].text
    assert game["seats"][0]["token"] not in str(page)
    assert seats[1].select_one("input.copy")["value"] == game["seats"][1]["url"]
    assert table.get(f"/games/{game['id']}/seats/0.svg").status_code == 403
    # Her seat still works on her phone.
    assert soup(ann.get(f"/games/{game['id']}")).select_one("#game")["data-seat"] == "0"
    # The table invites Ann's seat again on purpose (her phone died): its link and code are back.
    invite = seats[0].select_one("form")
    again = table.post(invite["action"], data={"csrf_token": invite.select_one("[name=csrf_token]")["value"]})
    assert again.status_code == 303
    page = soup(table.get(f"/games/{game['id']}"))
    assert page.select("#seats details.seat")[0].select_one("input.copy")["value"] == game["seats"][0]["url"]
    assert qr_text_matches(
        table, page.select("#seats details.seat")[0].select_one("img.qr")["src"], game["seats"][0]["url"]
    )
    # Nobody but the table invites a seat again.
    other = phone(app, game, "joined")
    refused = other.post(invite["action"], data={"csrf_token": csrf_token(other, f"/games/{game['id']}")})
    assert refused.status_code == 403


def test_the_table_screen_is_no_store_while_it_shows_a_seat_link(app):
    """Issue 27 item 13: a page carrying a token is kept by no cache; the others stay private
    (kept on the phone for offline play) and carry none."""
    game = made(app.test_client())
    table = phone(app, game, "table")
    assert table.get(f"/games/{game['id']}").headers["Cache-Control"] == "no-store"
    for player in range(3):
        phone(app, game, player)
    page = table.get(f"/games/{game['id']}")  # every seat taken: no link left on it
    assert page.headers["Cache-Control"] == "private, no-cache"
    assert not any(s["token"].encode() in page.data for s in game["seats"])
    assert game["edit_token"].encode() not in page.data
    seat = phone(app, game, "joined")
    assert seat.get(f"/games/{game['id']}").headers["Cache-Control"] == "private, no-cache"
    assert seat.get(f"/games/{game['id']}/join-link").headers["Cache-Control"] == "no-store"


# --- who may record what --------------------------------------------------------------------------
def test_a_seat_token_records_public_events(client):
    game = made(client)
    answer = post(client, game, {"type": "battle_round", "round": 1}, seat=seat(game, 2))
    assert answer.status_code == 201, answer.json
    assert post(client, game, {"type": "battle_round", "round": 1}).status_code == 403


@pytest.mark.parametrize("who", ["table", "other seat", "no token"])
def test_a_secret_event_needs_its_holders_seat(client, who):
    game = made(client)
    post(client, game, {"type": "battle_round", "round": 1}, edit=game["edit_token"])
    buy = {"type": "buy", "round": 1, "player": 0, "ploy": HELD[0]}
    headers = {"table": {"edit": game["edit_token"]}, "other seat": {"seat": seat(game, 1)}, "no token": {}}[
        who
    ]
    answer = post(client, game, buy, **headers)
    assert answer.status_code == 403
    assert "." in answer.json["error"] and answer.json["error"].count(". ") == 0
    assert "X-Seat-Token" in answer.json["error"] or "X-Edit-Token" in answer.json["error"]
    assert post(client, game, buy, seat=seat(game, 0)).status_code == 201


@pytest.mark.parametrize("kind", ["discard", "bonus_ploy"])
def test_a_discard_and_a_bonus_ploy_are_secrets_too(client, kind):
    game = bought(client)
    event = {"type": kind, "player": 0, "ploy": HELD[0]}
    if kind == "bonus_ploy":
        event.update(round=1, roll=6)
    answer = post(client, game, event, edit=game["edit_token"])
    assert answer.status_code == 403 and "Ann" in answer.json["error"]


@pytest.mark.parametrize("who", ["table", "other seat"])
def test_only_its_holder_plays_a_ploy_so_nobody_probes_another_hand(client, who):
    game = bought(client)
    headers = {"table": {"edit": game["edit_token"]}, "other seat": {"seat": seat(game, 1)}}[who]
    # Asking to play a ploy Ann does not hold must not tell anyone else what she lacks.
    for ploy in (HELD[0], PLAYED[0]):
        answer = post(client, game, {"type": "play", "round": 1, "player": 0, "ploy": ploy}, **headers)
        assert answer.status_code == 403 and "Ann" in answer.json["error"]
        assert not leaks(answer.data, HELD) and not leaks(answer.data, PLAYED)
    mine = post(client, game, {"type": "play", "round": 1, "player": 0, "ploy": HELD[0]}, seat=seat(game, 0))
    assert mine.status_code == 201, mine.json


def test_only_the_holder_undoes_a_secret_entry(client):
    game = bought(client)
    last = client.get(f"/api/v1/games/{game['id']}/events", headers={"X-Seat-Token": seat(game, 0)}).json[-1]
    undo = {"type": "undo", "event": last["id"]}
    for headers in ({"edit": game["edit_token"]}, {"seat": seat(game, 1)}):
        answer = post(client, game, undo, **headers)
        assert answer.status_code == 403 and "Taking back a secret entry" in answer.json["error"]
    assert post(client, game, undo, seat=seat(game, 0)).status_code == 201
    state = client.get(f"/api/v1/games/{game['id']}", headers={"X-Seat-Token": seat(game, 0)}).json
    assert state["players"][0]["ploys"] == []
    # A public entry is undone by anyone who records.
    first = client.get(f"/api/v1/games/{game['id']}/events").json[0]
    assert post(client, game, {"type": "undo", "event": first["id"]}, seat=seat(game, 2)).status_code == 201


def test_the_html_path_gives_a_seat_its_secrets_and_refuses_the_table(app):
    game = made(app.test_client())
    post(app.test_client(), game, {"type": "battle_round", "round": 1}, edit=game["edit_token"])
    ann = phone(app, game, 0)
    action, fields = form_fields(ann.get(f"/games/{game['id']}"), "#buy-form")
    fields["ploy"] = HELD[0]
    answer = ann.post(action, data=fields, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    assert [li["data-ploy"] for li in soup(answer).select("#hand li.ploy")] == [HELD[0]]
    # The table's phone posts the same form for Ann: 403, the sentence in the refusal header.
    table = phone(app, game, "table")
    token = csrf_token(table, f"/games/{game['id']}")
    fields.update(csrf_token=token, id=str(uuid.uuid4()), player="0")
    refused = table.post(action, data=fields, headers={"HX-Request": "true"})
    assert refused.status_code == 403
    assert "Ann" in refused.headers["X-Muster-Refusal"]
    assert not leaks(refused.data)


# --- redaction ------------------------------------------------------------------------------------
VIEWERS = ["other seat", "table", "no token"]


def _api_headers(game: dict[str, Any], who: str) -> dict[str, str]:
    return {
        "other seat": {"X-Seat-Token": seat(game, 1)},
        "table": {"X-Edit-Token": game["edit_token"]},
        "no token": {},
    }[who]


def _phone_of(app: Flask, game: dict[str, Any], who: str) -> FlaskClient:
    return phone(app, game, {"other seat": 1, "table": "table", "no token": None}[who])


@pytest.mark.parametrize("who", VIEWERS)
def test_a_held_ploy_is_in_no_answer_page_fragment_export_or_pdf_but_its_holders(app, who):
    client = app.test_client()
    game = bought(client)
    gid = game["id"]
    headers = _api_headers(game, who)
    seen: dict[str, str | bytes] = {
        "game": client.get(f"/api/v1/games/{gid}", headers=headers).data,
        "events": client.get(f"/api/v1/games/{gid}/events", headers=headers).data,
        "export": client.get(f"/api/v1/games/{gid}/export", headers=headers).data,
        "pdf a4": pdf_text(client.get(f"/games/{gid}/scoresheet.pdf?paper=a4").data),
        "pdf letter": pdf_text(client.get(f"/games/{gid}/scoresheet.pdf?paper=letter").data),
        "club home": client.get("/").data,
        "club home tables": client.get("/?part=tables", headers={"HX-Request": "true"}).data,
        "held": client.get(f"/games/{gid}/held?type=buy&round=1&player=0").data,
    }
    viewer = _phone_of(app, game, who)
    page = viewer.get(f"/games/{gid}")
    assert page.status_code == 200
    # The page, its step data and the steps rendered ahead for offline use (all in the page);
    # a seat's own buy form lists the pack's ploys, public data, taken out for this check.
    seen["page"] = catalogue_free(page.data)
    steps = parsed(seen["page"]).select("template, [data-plan], [data-plans]")
    assert steps, "the page carries no step data"
    seen["step data"] = " ".join(str(t) for t in steps)
    if who != "no token":
        # An htmx entry from this phone: the fragment it gets back (a deal from Bo, whose seat
        # the other seat's phone is; the table records it for him too).
        fields = {
            "csrf_token": csrf_token(viewer, f"/games/{gid}"),
            "id": str(uuid.uuid4()),
            "type": "deal",
            "round": "1",
            "from": "1",
            "to": "2",
            "cp": "1",
            "vp": "0",
            "note": "",
        }
        fragment = viewer.post(f"/games/{gid}/events", data=fields, headers={"HX-Request": "true"})
        assert fragment.status_code == 200, fragment.headers.get("X-Muster-Refusal")
        seen["fragment"] = catalogue_free(fragment.data)
    found = {where: leaks(text) for where, text in seen.items() if leaks(text)}
    assert found == {}
    # Held ploys show as a count to everyone.
    state = client.get(f"/api/v1/games/{gid}", headers=headers).json
    assert state["players"][0]["ploys_held"] == 1 and "ploys" not in state["players"][0]


def test_the_holder_sees_their_ploy_everywhere_it_is_theirs(app):
    client = app.test_client()
    game = bought(client)
    gid = game["id"]
    mine = {"X-Seat-Token": seat(game, 0)}
    answer = client.get(f"/api/v1/games/{gid}", headers=mine)
    assert answer.json["players"][0]["ploys"] == [HELD[0]]
    # No cache between the phone and Muster keeps a seat's answer or hands it to another seat.
    assert answer.headers["Cache-Control"] == "private, no-store" and "X-Seat-Token" in answer.headers["Vary"]
    events = client.get(f"/api/v1/games/{gid}/events", headers=mine).json
    assert events[-1]["ploy"] == HELD[0]
    assert leaks(client.get(f"/api/v1/games/{gid}/export", headers=mine).data)
    page = phone(app, game, 0).get(f"/games/{gid}")
    hand = soup(page).select_one("#hand")
    assert HELD[1] in hand.text and "1 CP" in hand.text


def test_playing_a_ploy_reveals_it_to_everyone(app):
    client = app.test_client()
    game = made(client)
    gid = game["id"]
    post(client, game, {"type": "battle_round", "round": 1}, edit=game["edit_token"])
    assert (
        post(
            client, game, {"type": "buy", "round": 1, "player": 1, "ploy": PLAYED[0]}, seat=seat(game, 1)
        ).status_code
        == 201
    )
    before = client.get(f"/api/v1/games/{gid}").data
    assert not leaks(before, PLAYED)
    answer = post(
        client, game, {"type": "play", "round": 1, "player": 1, "ploy": PLAYED[0]}, seat=seat(game, 1)
    )
    assert answer.status_code == 201, answer.json
    state = client.get(f"/api/v1/games/{gid}").json
    assert [(p["player"], p["ploy"]) for p in state["plays"]] == [(1, PLAYED[0])]
    assert state["players"][1]["ploys_held"] == 0
    for who in ("table", None, 0):
        page = phone(app, game, who).get(f"/games/{gid}")
        entries = [li.text for li in soup(page).select(".history li[data-type=play]")]
        assert any(f"Bo played {PLAYED[1]}" in text for text in entries), entries
    assert PLAYED[1] in pdf_text(client.get(f"/games/{gid}/scoresheet.pdf").data)


# --- screens and prints ---------------------------------------------------------------------------
def test_the_new_game_form_takes_three_to_six_players(app):
    client = app.test_client()
    page = soup(client.get(f"/games/new?pack={PACK}"))
    names = page.select("fieldset.player input[name^=name]")
    assert len(names) == 6 and [n.has_attr("required") for n in names] == [True] * 3 + [False] * 3
    form = {
        "csrf_token": page.select_one("input[name=csrf_token]")["value"],
        "pack": PACK,
        "points_limit": "2000",
        "scenario": "altar-of-the-gods",
        **{f"name{i}": name for i, name in enumerate(["Ann", "Bo", "Cy", "Di"])},
    }
    answer = client.post("/games", data=form)
    assert answer.status_code == 303
    table = soup(client.get(answer.headers["Location"]))
    assert len(table.select(".score")) == 4
    assert len(table.select("#seats details.seat")) == 4


@pytest.mark.parametrize("players", [3, 6])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_blank_multiplayer_sheet_has_a_column_per_player(client, players, paper):
    answer = client.get(
        f"/packs/{PACK}/scenarios/altar-of-the-gods/scoresheet.pdf?paper={paper}&players={players}"
    )
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(answer.data))
    width = float(reader.pages[0].mediabox.width)
    assert round(width) == (595 if paper == "a4" else 612)
    text = pdf_text(answer.data)
    assert (
        all(f"Player {i + 1} VP" in text for i in range(players)) and f"Player {players + 1} VP" not in text
    )


def test_a_blank_sheet_for_too_many_players_is_refused(client):
    answer = client.get(f"/packs/{PACK}/scenarios/altar-of-the-gods/scoresheet.pdf?players=7")
    assert answer.status_code == 400 and b"players must be a whole number from 3 to 6" in answer.data


@pytest.mark.parametrize("kind", [[], {}, 3, None])
def test_an_event_whose_type_is_not_text_is_refused_not_a_500(client, kind):
    game = made(client)
    answer = post(client, game, {"type": kind, "player": 0, "ploy": HELD[0]}, seat=seat(game, 1))
    assert answer.status_code == 422 and "type" in answer.json["error"]


@pytest.mark.parametrize(
    ("pack", "scenario"),
    [
        (PACK, "altar-of-the-gods"),
        (PACK, "relic-of-power"),
        (PACK, "rain-of-stars"),
        (PACK, "blood-in-the-badlands"),
        ("aos-conquest-unbound", "convergence-of-fate"),
    ],
)
def test_every_scenario_opens_on_the_table_a_seat_and_to_watch(app, pack, scenario):
    client = app.test_client()
    answer = client.post("/api/v1/games", json={**body(scenario=scenario), "pack": pack})
    assert answer.status_code == 201, answer.json
    game = {**answer.json, "creator": client}
    screens = {who: soup(phone(app, game, who).get(f"/games/{game['id']}")) for who in ("table", 0, None)}
    assert screens["table"].select_one("#round-form, #turn-form") is not None
    assert screens[0].select_one("#hand") is not None and screens["table"].select_one("#hand") is None
    assert screens[None].select_one("#step") is None
    assert client.get(f"/games/{game['id']}/scoresheet.pdf").status_code == 200


def test_the_pack_page_offers_a_blank_sheet_for_three_to_six_players(client):
    page = soup(client.get(f"/packs/{PACK}"))
    form = page.select_one("#altar-of-the-gods form.prints")
    assert [o["value"] for o in form.select("select[name=players] option")] == ["3", "4", "5", "6"]
    assert [b["value"] for b in form.select("button[name=paper]")] == ["a4", "letter"]
    assert form["action"] == f"/packs/{PACK}/scenarios/altar-of-the-gods/scoresheet.pdf"


def test_a_seat_fields_its_own_players_roster_only_through_the_api(client):
    """Issue 27 item 6: the screen refused a seat fielding another's roster; the API does too."""
    game = made(client)
    roster = client.post(
        "/api/v1/rosters",
        json={"pack": "old-world-rosters", "name": "Grudgebearers", "points_limit": 2000, "entries": []},
    )
    assert roster.status_code == 201, roster.json
    url = f"/api/v1/games/{game['id']}/rosters"
    for player in (1, 2):
        other = client.post(
            url, json={"player": player, "roster": roster.json["id"]}, headers={"X-Seat-Token": seat(game, 0)}
        )
        assert other.status_code == 403
        assert (
            other.json["error"]
            == "player must be 0, this seat's own player: a seat fields its own roster only."
        )
    assert all(a is None for a in client.get(f"/api/v1/games/{game['id']}").json["armies"])
    own = client.post(
        url, json={"player": 0, "roster": roster.json["id"]}, headers={"X-Seat-Token": seat(game, 0)}
    )
    assert own.status_code == 201, own.json
    # The table's edit token fields any player's, as on the table's screen.
    table = client.post(
        url, json={"player": 2, "roster": roster.json["id"]}, headers={"X-Edit-Token": game["edit_token"]}
    )
    assert table.status_code == 201, table.json


# --- contingents against an attached roster ------------------------------------------------------
def test_convergence_contingents_are_checked_against_the_attached_roster(client):
    """Named vanguard and reinforcements must be the attached roster's units, each once."""
    made_game = client.post(
        "/api/v1/games",
        json={**body(), "pack": "aos-conquest-unbound", "scenario": "convergence-of-fate"},
    )
    assert made_game.status_code == 201, made_game.json
    game = made_game.json
    roster = client.post(
        "/api/v1/rosters",
        json={
            "pack": "aos-conquest-unbound",
            "name": "Hammerfest",
            "points_limit": 2000,
            "faction": "Seraphon",
            "entries": [
                {
                    "name": "Lord Kroak",
                    "points": 430,
                    "roles": ["Leader"],
                    "general": True,
                    "single_model": True,
                },
                {"name": "Saurus Guard", "points": 115, "roles": ["Battleline"]},
                {"name": "Skinks", "points": 70, "roles": ["Battleline"]},
            ],
        },
    )
    assert roster.status_code == 201, roster.json
    attach = client.post(
        f"/api/v1/games/{game['id']}/rosters",
        json={"player": 0, "roster": roster.json["id"]},
        headers={"X-Edit-Token": game["edit_token"]},
    )
    assert attach.status_code == 201, attach.json
    # Stegadon is not in Ann's roster; Skinks are left out of both contingents.
    wrong = {
        "type": "contingents",
        "player": 0,
        "vanguard": ["Lord Kroak", "Stegadon"],
        "reinforcements": ["Saurus Guard"],
    }
    answer = post(client, game, wrong, seat=seat(game, 0))
    assert answer.status_code == 422 and answer.json["error"] == "Stegadon is not in the attached roster."
    short = {
        "type": "contingents",
        "player": 0,
        "vanguard": ["Lord Kroak", "Saurus Guard"],
        "reinforcements": [],
    }
    answer = post(client, game, short, seat=seat(game, 0))
    assert answer.status_code == 422 and "Skinks" in answer.json["error"]
    right = {
        "type": "contingents",
        "player": 0,
        "vanguard": ["Lord Kroak", "Saurus Guard"],
        "reinforcements": ["Skinks"],
    }
    assert post(client, game, right, seat=seat(game, 0)).status_code == 201
    # Bo has no roster attached: counted by hand, nothing to check them against.
    counted = {"type": "contingents", "player": 1, "vanguard": 3, "reinforcements": 2}
    assert post(client, game, counted, seat=seat(game, 1)).status_code == 201


def test_a_seat_phone_starts_the_game_clock(app):
    """Issue 24 item 8: a seat's phone has the clock's buttons and its tap counts; a watcher has none."""
    game = made(app.test_client())
    ann = phone(app, game, 0)
    page = soup(ann.get(f"/games/{game['id']}"))
    strip = page.select_one("#clock")
    assert "clock-idle" in strip["class"]
    form = strip.select_one('form[data-clock-player="0"]')
    fields = {i["name"]: i.get("value", "") for i in form.select("input[name]")}
    answer = ann.post(form["action"], data=fields, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    running = soup(answer).select_one("#clock")
    assert running["data-running"] == "0" and "clock-idle" not in running["class"]
    watcher = phone(app, game, None)
    assert not soup(watcher.get(f"/games/{game['id']}")).select("#clock form.clock-tap")
    fields["csrf_token"] = csrf_token(watcher, "/games/new")
    assert watcher.post(form["action"], data=fields).status_code == 403


def test_a_seat_token_taps_the_clock_through_the_api(client):
    game = made(client)
    tap = {"id": str(uuid.uuid4()), "action": "start", "player": 1}
    answer = client.post(
        f"/api/v1/games/{game['id']}/clock", json=tap, headers={"X-Seat-Token": seat(game, 1)}
    )
    assert answer.status_code == 201 and answer.json["clock"]["running"] == 1
    wrong = client.post(
        f"/api/v1/games/{game['id']}/clock",
        json={**tap, "id": str(uuid.uuid4())},
        headers={"X-Seat-Token": "nope"},
    )
    assert wrong.status_code == 403
