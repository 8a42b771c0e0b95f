"""Sieges and Tunnel Wars through the API and the pages: seats, secret picks, the card and sheet.

Ann attacks (seat 0) and picks Mine (3); Bo defends (seat 1) and picks Gather Supplies (4).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.pdfs import pdf_text
from tests.setups import seraphon_roster
from tests.web.conftest import csrf_token, form_fields, parsed, soup
from tests.web.helpers import phone, post, seat, siege, tactic

PACK = "aos-conquest-unbound"


def test_a_siege_tactic_needs_its_holders_seat(client):
    game = siege(client)
    assert tactic(client, game, 0, 3, edit=game["edit_token"]).status_code == 403
    assert tactic(client, game, 0, 3, seat=seat(game, 1)).status_code == 403
    refused = tactic(client, game, 0, 4, seat=seat(game, 0))
    assert refused.status_code == 422 and refused.json["error"].startswith(
        "tactic must be the attacker's die"
    )
    assert tactic(client, game, 0, 3, seat=seat(game, 0)).status_code == 201


VIEWERS = {"other seat": 1, "table": "table", "no token": None}


def _headers(game: dict[str, Any], who: str) -> dict[str, str]:
    return {
        "other seat": {"X-Seat-Token": seat(game, 1)},
        "table": {"X-Edit-Token": game["edit_token"]},
        "no token": {},
    }[who]


@pytest.mark.parametrize("who", sorted(VIEWERS))
def test_a_siege_tactic_is_hidden_until_both_are_in(app: Flask, who: str):
    client = app.test_client()
    game = siege(client)
    gid = game["id"]
    assert tactic(client, game, 0, 3, seat=seat(game, 0)).status_code == 201
    headers = _headers(game, who)
    state = client.get(f"/api/v1/games/{gid}", headers=headers).json
    assert state["siege"]["tactics"] == {"attacker": None, "defender": None}
    assert state["siege"]["modifiers"] is None and state["siege"]["picked"]["attacker"] is True
    for path in ("events", "export"):
        text = client.get(f"/api/v1/games/{gid}/{path}", headers=headers).data.decode()
        assert '"tactic"' not in text, path
    page = soup(phone(app, game, VIEWERS[who]).get(f"/games/{gid}"))
    assert page.select_one("[data-testid=tactic-attacker]").text.strip() == "Picked, hidden until both are in"
    assert "▶" not in pdf_text(client.get(f"/games/{gid}/scoresheet.pdf?paper=a4").data)
    # Ann's own seat sees her pick; once Bo's is in, everyone sees both and the table's modifiers.
    mine = client.get(f"/api/v1/games/{gid}", headers={"X-Seat-Token": seat(game, 0)}).json
    assert mine["siege"]["tactics"] == {"attacker": 3, "defender": None}
    assert tactic(client, game, 1, 4, seat=seat(game, 1)).status_code == 201
    state = client.get(f"/api/v1/games/{gid}", headers=headers).json
    assert state["siege"]["tactics"] == {"attacker": 3, "defender": 4}
    assert state["siege"]["modifiers"] == {"batter": 0, "starve": -1, "tunnel": 2}
    page = soup(phone(app, game, VIEWERS[who]).get(f"/games/{gid}"))
    assert page.select_one("[data-testid=tactic-attacker]").text.strip() == "3: Mine"
    # The log says it too: the events and the export show both picks, and the card marks the cell.
    events = client.get(f"/api/v1/games/{gid}/events", headers=headers).json
    exported = client.get(f"/api/v1/games/{gid}/export", headers=headers).json["events"]
    for log in (events, exported):
        picks = {e["player"]: e.get("tactic") for e in log if e["type"] == "siege_tactic"}
        assert picks == {0: 3, 1: 4} and not any(e.get("hidden") for e in log)
    if who == "no token":  # the card is the same for everyone: printed once
        assert "▶ -1 Starve, +2 Tunnel" in pdf_text(client.get(f"/games/{gid}/scoresheet.pdf?paper=a4").data)
    # Once both are shown neither is taken back (issue 23 item 1), not even by its holder.
    last = events[-1]["id"]
    refused = post(client, game, {"type": "undo", "event": last}, seat=seat(game, 1))
    assert refused.status_code == 422
    assert refused.json["error"].startswith(
        "event: both siege tactics are shown, so neither may be taken back"
    )
    # Both players ask to pick again, each from their own seat: both picks are hidden again.
    for player in (0, 1):
        answer = post(client, game, {"type": "repick", "player": player}, seat=seat(game, player))
        assert answer.status_code == 201, answer.json
    exported = client.get(f"/api/v1/games/{gid}/export", headers=headers).json["events"]
    for log in (client.get(f"/api/v1/games/{gid}/events", headers=headers).json, exported):
        ann = next(e for e in log if e["type"] == "siege_tactic" and e["player"] == 0)
        assert "tactic" not in ann and ann["hidden"] is True


def test_the_seat_screen_picks_in_secret_and_the_table_cannot(app: Flask):
    game = siege(app.test_client())
    gid = game["id"]
    table = soup(phone(app, game, "table").get(f"/games/{gid}"))
    assert table.select_one("#tactic-form") is None
    ann = phone(app, game, 0)
    action, fields = form_fields(ann.get(f"/games/{gid}"), "#tactic-form")
    fields["tactic"] = "2"
    answer = ann.post(action, data=fields, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    shown = soup(answer)
    assert shown.select_one("[data-testid=tactic-attacker]").text.strip().startswith("2: Demolish")
    assert shown.select_one("#tactic-form") is None


def _played(client: FlaskClient) -> dict[str, Any]:
    game = siege(client)
    tactic(client, game, 0, 2, seat=seat(game, 0))
    tactic(client, game, 1, 5, seat=seat(game, 1))
    edit = game["edit_token"]
    for event in (
        {"type": "batter", "features": [{"feature": "Gatehouse", "defensible": True, "die": 6}]},
        {"type": "starve", "units": [{"unit": "Liberators", "die": 5, "mortal_wounds": 2}]},
        {"type": "tunnel", "dice": [2, 5]},
        {"type": "battle_round", "round": 1, "first": 1},
        {"type": "relief_roll", "round": 1, "dice": [6, 5]},
        {"type": "relief_edge", "die": 5},
        {"type": "end", "attacker_objectives": 2},
    ):
        answer = post(client, game, event, edit=edit)
        assert answer.status_code == 201, answer.json
    return game


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_siege_card_prints_every_roll_and_the_result(client, paper):
    game = _played(client)
    text = pdf_text(client.get(f"/games/{game['id']}/scoresheet.pdf?paper={paper}").data)
    for words in ("siege card", "Gatehouse", "demolished", "Liberators", "west", "Minor victory: Ann"):
        assert words in text, words
    blank = client.get(f"/packs/{PACK}/scenarios/the-relief-force/scoresheet.pdf?paper={paper}")
    assert blank.status_code == 200 and "Counter-mine" in pdf_text(blank.data)
    # Two players, named by the battleplan's sides (the pack's own games take three or more).
    assert "Attacker Defender" in pdf_text(blank.data).replace("\n", " ") and "Player 3" not in pdf_text(
        blank.data
    )


def test_the_game_page_shows_the_relief_force_and_the_control_exception(app: Flask):
    client = app.test_client()
    game = _played(client)
    page = soup(phone(app, game, None).get(f"/games/{game['id']}"))
    assert "Arrived in battle round 1 from the west edge" in page.select_one("[data-testid=relief]").text
    assert '3"' in page.select_one("[data-testid=control-exception]").text


# --- the defender's contingents, from the attached roster ------------------------------------
def attach(client: FlaskClient, game: dict[str, Any], player: int, **extra: Any) -> None:
    """Attach a Seraphon roster (Lord Kroak, Saurus Guard, Saurus Warriors, Skinks, Stegadon) of
    the siege's pack to a player, with ``extra`` replacing its fields."""
    roster = client.post("/api/v1/rosters", json=seraphon_roster(pack=PACK, **extra))
    assert roster.status_code == 201, roster.json
    answer = client.post(
        f"/api/v1/games/{game['id']}/rosters",
        json={"player": player, "roster": roster.json["id"]},
        headers={"X-Edit-Token": game["edit_token"]},
    )
    assert answer.status_code == 201, answer.json


SERAPHON = ["Lord Kroak", "Saurus Guard", "Saurus Warriors", "Skinks", "Stegadon"]


def test_named_contingents_are_checked_against_the_defenders_roster(app: Flask):
    client = app.test_client()
    game = siege(client)
    edit = game["edit_token"]
    split = {
        "type": "contingents",
        "garrison": ["Lord Kroak", "Skinks"],
        "relief": [*SERAPHON[1:3], "Stegadon"],
    }
    attach(client, game, 0)  # the attacker's roster is not the one the contingents come from
    assert post(client, game, {**split, "relief": ["Gryph-hounds"] * 2}, edit=edit).status_code == 201
    assert post(client, game, {"type": "undo", "event": _last(client, game)}, edit=edit).status_code == 201
    attach(client, game, 1)
    refused = post(client, game, {**split, "relief": ["Saurus Guard", "Gryph-hounds", "Stegadon"]}, edit=edit)
    assert refused.status_code == 422
    assert refused.json["error"] == (
        "garrison and relief must name each unit of the defender's attached roster once: "
        "Gryph-hounds is not in it; Saurus Warriors is left out."
    )
    assert (
        post(client, game, {"type": "contingents", "garrison": 2, "relief": 3}, edit=edit).status_code == 201
    )
    assert post(client, game, {"type": "undo", "event": _last(client, game)}, edit=edit).status_code == 201
    # The table screen offers each of Bo's units: garrison or relief force.
    table = phone(app, game, "table")
    page = soup(table.get(f"/games/{game['id']}"))
    assert [f.legend.text for f in page.select("[data-testid=split-unit]")] == SERAPHON
    action, fields = form_fields(table.get(f"/games/{game['id']}"), "#contingents-form")
    for i, part in enumerate(["garrison", "relief", "relief", "garrison"]):  # the Stegadon left out
        fields[f"part.{i}"] = part
    answer = table.post(action, data=fields, headers={"HX-Request": "true"})
    assert answer.status_code == 422
    assert soup(answer).select_one("#error").text.endswith("Stegadon is left out.")
    fields["part.4"] = "relief"
    shown = soup(table.post(action, data=fields, headers={"HX-Request": "true"}))
    assert [dd.text for dd in shown.select("[data-testid=contingents] dd")] == [
        "2: Lord Kroak, Skinks",
        "3: Saurus Guard, Saurus Warriors, Stegadon",
    ]


def test_the_tunnel_party_is_picked_from_the_attackers_roster(app: Flask):
    client = app.test_client()
    game = siege(client)
    edit = game["edit_token"]
    attach(client, game, 0)
    tactic(client, game, 0, 3, seat=seat(game, 0))  # Mine: the attacker's tunnel die +2
    tactic(client, game, 1, 4, seat=seat(game, 1))
    for event in (
        {"type": "batter", "features": []},
        {"type": "starve", "units": []},
        {"type": "tunnel", "dice": [4, 5]},  # 4 + 2 = 6 beats 5: a tunnel
    ):
        assert post(client, game, event, edit=edit).status_code == 201
    refused = post(client, game, {"type": "tunnel_party", "units": [{"name": "Stegadon"}]}, edit=edit)
    assert refused.status_code == 422 and refused.json["error"].startswith(
        "units[0]: Stegadon is a MONSTER in the attacker's attached roster"
    )
    table = phone(app, game, "table")
    page = soup(table.get(f"/games/{game['id']}"))
    offered = {
        group: [label.text.strip() for label in page.select(f"[data-testid=party-{group}] label")]
        for group in ("heroes", "others")
    }
    assert offered == {"heroes": ["Lord Kroak"], "others": ["Saurus Guard", "Saurus Warriors", "Skinks"]}
    assert (
        page.select_one("[data-testid=party-unfit]").text == "Not through the tunnel: Stegadon (a MONSTER)."
    )
    action, fields = form_fields(table.get(f"/games/{game['id']}"), "#party-form")
    fields.update({"send.0": "on", "send.1": "on", "send.2": "on", "send.3": "on"})
    answer = table.post(action, data=fields, headers={"HX-Request": "true"})
    assert answer.status_code == 422
    # On screen the form names the field; the sentence says what is allowed.
    assert soup(answer).select_one("#error").text == "At most 1 HERO and 2 other units go through the tunnel."
    del fields["send.2"]
    shown = soup(table.post(action, data=fields, headers={"HX-Request": "true"}))
    assert (
        shown.select_one("[data-testid=tunnel-party]").text
        == "Through the tunnel: Lord Kroak, Saurus Guard, Skinks."
    )
    party = client.get(f"/api/v1/games/{game['id']}").json["siege"]["tunnel_party"]
    assert [(u["name"], u["hero"]) for u in party] == [
        ("Lord Kroak", True),
        ("Saurus Guard", False),
        ("Skinks", False),
    ]


def test_the_objectives_are_placed_in_turn_on_the_fortress(app: Flask):
    client = app.test_client()
    game = siege(client)
    gid, edit = game["id"], game["edit_token"]
    table = phone(app, game, "table")
    url = f"/games/{gid}/terrain"
    token = csrf_token(table, url)
    for name, fortress in (("Gatehouse", "on"), ("Keep", "on"), ("Ruined Chapel", "")):
        piece = {"id": str(uuid.uuid4()), "csrf_token": token, "name": name, "fortress": fortress}
        assert table.post(f"{url}/pieces", data=piece).status_code in (200, 303)
    refused = post(client, game, {"type": "objective", "player": 0, "feature": "Ruined Chapel"}, edit=edit)
    assert refused.status_code == 422 and refused.json["error"].startswith(
        "feature: Ruined Chapel is not wholly within the defender's territory"
    )
    # The table screen offers the fortress's features; the attacker places first.
    action, fields = form_fields(table.get(f"/games/{gid}"), "#objective-form")
    page = soup(table.get(f"/games/{gid}"))
    assert [x["value"] for x in page.select("#objective-form [name=feature]")] == ["Gatehouse", "Keep"]
    assert fields["player"] == "0"
    shown = soup(table.post(action, data={**fields, "feature": "Keep"}, headers={"HX-Request": "true"}))
    assert [li.text for li in shown.select("[data-testid=objectives] li")] == ["Keep (placed by Ann)"]
    assert [x["value"] for x in shown.select("#objective-form [name=feature]")] == ["Gatehouse"]
    out_of_turn = post(client, game, {"type": "objective", "player": 0, "feature": "Gatehouse"}, edit=edit)
    assert out_of_turn.json["error"].startswith("player: Bo places the 2nd objective of 3")
    assert (
        post(client, game, {"type": "objective", "player": 1, "feature": "Gatehouse"}, edit=edit).status_code
        == 201
    )
    text = pdf_text(client.get(f"/games/{gid}/scoresheet.pdf?paper=letter").data)
    assert "1 Keep Ann" in text and "2 Gatehouse Bo" in text


def test_the_siege_screen_carries_its_steps_for_recording_offline(app: Flask):
    client = app.test_client()
    game = siege(client)
    tactic(client, game, 0, 1, seat=seat(game, 0))
    tactic(client, game, 1, 4, seat=seat(game, 1))
    page = soup(phone(app, game, "table").get(f"/games/{game['id']}"))
    board = page.select_one("#game")
    assert (board["data-step"], board["data-plan"]) == ("batter", "batter starve tunnel round-1")
    assert page.select_one("#step form")["data-step"] == "batter"
    later = {t["data-step"]: t for t in page.select("template[data-step]")}
    assert {"starve", "tunnel", "round-1", "turn-1-0", "turn-5-1", "end", "over"} <= set(later)
    round_1 = _inside(later["round-1"]).select_one("form")
    assert (round_1["data-step"], round_1["data-choice"]) == ("round-1", "first")
    assert json.loads(round_1["data-plans"])["1"] == ["turn-1-1", "turn-1-0", "round-2"]
    # Bo's turn carries the relief roll of its round, offered once (not a step: the plan stands).
    bo_turn = _inside(later["turn-2-1"])
    assert [f["data-once"] for f in bo_turn.select("form[data-once]")] == ["relief-2"]
    assert bo_turn.select_one("form[data-step]")["data-step"] == "turn-2-1"
    assert _inside(later["turn-2-0"]).select_one("form[data-once]") is None
    # On the screen, the relief roll waits for the defender's turn of a round under way.
    edit = game["edit_token"]
    for event in (
        {"type": "batter", "features": []},
        {"type": "starve", "units": []},
        {"type": "tunnel", "dice": [1, 6]},
    ):
        assert post(client, game, event, edit=edit).status_code == 201
    shown = soup(phone(app, game, "table").get(f"/games/{game['id']}"))
    assert shown.select_one("#step form")["data-step"] == "round-1" and not shown.select("#step [data-once]")
    post(client, game, {"type": "battle_round", "round": 1, "first": 1}, edit=edit)
    shown = soup(phone(app, game, "table").get(f"/games/{game['id']}"))
    assert [f.get("data-once") or f["data-step"] for f in shown.select("#step form")] == [
        "relief-1",
        "turn-1-1",
    ]


def _inside(template: Any) -> Any:
    return parsed(template.decode_contents())


def _last(client: FlaskClient, game: dict[str, Any]) -> str:
    return client.get(f"/api/v1/games/{game['id']}/events").json[-1]["id"]


# --- Tunnel Wars -------------------------------------------------------------------------------
def tunnels(client: FlaskClient) -> dict[str, Any]:
    answer = client.post(
        "/api/v1/games",
        json={
            "pack": PACK,
            "scenario": "tunnel-wars",
            "points_limit": 2000,
            "players": [{"name": "Ann"}, {"name": "Bo"}],
        },
    )
    assert answer.status_code == 201, answer.json
    return {**answer.json, "creator": client}


def test_a_contingent_is_secret_until_both_are_in_and_used_once(app: Flask):
    client = app.test_client()
    game = tunnels(client)
    gid = game["id"]
    pick = {"type": "contingent", "battle": 1, "player": 1, "contingent": 2, "general": "Warchanter"}
    assert post(client, game, pick, edit=game["edit_token"]).status_code == 403
    assert post(client, game, pick, seat=seat(game, 1)).status_code == 201
    for headers in ({}, {"X-Seat-Token": seat(game, 0)}):
        state = client.get(f"/api/v1/games/{gid}", headers=headers).json
        assert state["series"][0]["contingents"] == {"0": None, "1": None}
        events = client.get(f"/api/v1/games/{gid}/events", headers=headers).json
        assert all("contingent" not in e and "general" not in e for e in events)
        assert "Warchanter" not in phone(app, game, None).get(f"/games/{gid}").data.decode()
    assert post(client, game, {**pick, "player": 0}, seat=seat(game, 0)).status_code == 201
    for path in ("events", "export"):
        answer = client.get(f"/api/v1/games/{gid}/{path}").json
        log = answer if path == "events" else answer["events"]
        assert [(e["contingent"], e["general"]) for e in log] == [(2, "Warchanter")] * 2, path
    post(client, game, {"type": "battle_result", "battle": 1, "winner": 0}, edit=game["edit_token"])
    again = post(client, game, {**pick, "battle": 2}, seat=seat(game, 1))
    assert again.status_code == 422
    assert (
        again.json["error"]
        == "contingent 2 already fought in battle 1; each contingent fights in one battle only."
    )
    state = client.get(f"/api/v1/games/{gid}").json
    assert state["series"][0]["contingents"] == {"0": 2, "1": 2}
    assert state["series"][0]["generals"] == {"0": "Warchanter", "1": "Warchanter"}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_series_sheet_prints_battles_and_result(client, paper):
    game = tunnels(client)
    for b, winner in ((1, 0), (2, 1), (3, 0)):
        for player in (0, 1):
            event = {"type": "contingent", "battle": b, "player": player, "contingent": b}
            assert post(client, game, event, seat=seat(game, player)).status_code == 201
        assert (
            post(
                client,
                game,
                {"type": "battle_result", "battle": b, "winner": winner},
                edit=game["edit_token"],
            ).status_code
            == 201
        )
    text = pdf_text(client.get(f"/games/{game['id']}/scoresheet.pdf?paper={paper}").data)
    assert "series sheet" in text and "Minor: Ann" in text
