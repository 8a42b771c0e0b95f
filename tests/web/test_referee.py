"""A referee the table can trust (issue 23): the API refuses what the rules refuse, with one
sentence naming the rule, and the seat screens show the refusal beside the form it came from.

Triumph & Treachery (The Old World): Ann, Bo and Cy at seats 0, 1 and 2. The siege and Tunnel
Wars: Ann attacks (seat 0), Bo defends (seat 1).
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.pdfs import pdf_text
from tests.web.conftest import form_fields, soup
from tests.web.helpers import catalogue_free, made, phone, post, seat, siege, tactic

PACK = "aos-conquest-unbound"
ANN, BO, CY = 0, 1, 2


def ok(client: FlaskClient, game: dict[str, Any], event: dict[str, Any], **headers: str) -> None:
    answer = post(client, game, event, **headers)
    assert answer.status_code == 201, answer.json


def state(client: FlaskClient, game: dict[str, Any], who: int | None = None) -> dict[str, Any]:
    headers = {"X-Seat-Token": seat(game, who)} if who is not None else {}
    return client.get(f"/api/v1/games/{game['id']}", headers=headers).json


def started(client: FlaskClient, *buys: tuple[int, str]) -> dict[str, Any]:
    """An Altar of the Gods game in round 1, with each (player, ploy) bought from its seat."""
    game = made(client)
    ok(client, game, {"type": "battle_round", "round": 1}, edit=game["edit_token"])
    for player, ploy in buys:
        ok(client, game, {"type": "buy", "round": 1, "player": player, "ploy": ploy}, seat=seat(game, player))
    return game


def refused(
    client: FlaskClient, game: dict[str, Any], event: dict[str, Any], start: str, **headers: str
) -> None:
    """The event is a 422 whose one sentence starts with ``start``."""
    answer = post(client, game, event, **headers)
    assert answer.status_code == 422, answer.json
    error = answer.json["error"]
    assert error.startswith(start), error
    assert error.endswith(".") and "\n" not in error


def seat_post(app: Flask, game: dict[str, Any], who: int | str, selector: str, **fields: str) -> Any:
    """Fill and send the form at ``selector`` on a phone's game page (htmx), as a player would."""
    client = phone(app, game, who)
    action, data = form_fields(client.get(f"/games/{game['id']}"), selector)
    data.update(fields)
    return client.post(action, data=data, headers={"HX-Request": "true"})


# --- item 1: a secret pick shown is not changed; both seats ask to pick again -------------------
def test_a_shown_siege_tactic_is_not_taken_back_and_repick_needs_both_seats_api(client):
    game = siege(client)
    assert tactic(client, game, ANN, 3, seat=seat(game, ANN)).status_code == 201
    assert tactic(client, game, BO, 4, seat=seat(game, BO)).status_code == 201
    last = client.get(f"/api/v1/games/{game['id']}/events").json[-1]["id"]
    refused(
        client,
        game,
        {"type": "undo", "event": last},
        "event: both siege tactics are shown",
        seat=seat(game, BO),
    )
    refused(
        client,
        game,
        {"type": "siege_tactic", "player": BO, "tactic": 6},
        "Bo has already picked",
        seat=seat(game, BO),
    )
    # Asking to pick again is each player's own: the table and the other seat get 403.
    for headers in ({"edit": game["edit_token"]}, {"seat": seat(game, ANN)}):
        assert post(client, game, {"type": "repick", "player": BO}, **headers).status_code == 403
    ok(client, game, {"type": "repick", "player": BO}, seat=seat(game, BO))
    assert state(client, game)["siege"]["repick"] == {"attacker": False, "defender": True}
    ok(client, game, {"type": "repick", "player": ANN}, seat=seat(game, ANN))
    assert state(client, game)["siege"]["picked"] == {"attacker": False, "defender": False}
    assert tactic(client, game, BO, 6, seat=seat(game, BO)).status_code == 201
    assert state(client, game, ANN)["siege"]["tactics"] == {"attacker": None, "defender": None}


def test_a_shown_contingent_is_not_taken_back_api(client):
    answer = client.post(
        "/api/v1/games",
        json={
            "pack": PACK,
            "scenario": "tunnel-wars",
            "points_limit": 2000,
            "players": [{"name": "Ann"}, {"name": "Bo"}],
        },
    )
    game = answer.json
    pick = {"type": "contingent", "battle": 1}
    ok(client, game, {**pick, "player": ANN, "contingent": 1}, seat=seat(game, ANN))
    ok(client, game, {**pick, "player": BO, "contingent": 2}, seat=seat(game, BO))
    last = client.get(f"/api/v1/games/{game['id']}/events").json[-1]["id"]
    refused(
        client,
        game,
        {"type": "undo", "event": last},
        "event: both contingents for battle 1 are shown",
        seat=seat(game, BO),
    )
    for player in (ANN, BO):
        ok(client, game, {"type": "repick", "battle": 1, "player": player}, seat=seat(game, player))
    assert state(client, game)["series"][0]["picked"] == {"0": False, "1": False}


def test_the_siege_seat_screens_offer_no_undo_but_a_request_and_refuse_a_second_pick_beside_it(app):
    client = app.test_client()
    game = siege(client)
    gid = game["id"]
    assert tactic(client, game, ANN, 3, seat=seat(game, ANN)).status_code == 201
    # Bo's phone shows the pick form (another tab of his keeps it too) and he picks.
    bo = phone(app, game, BO)
    action, stale = form_fields(bo.get(f"/games/{gid}"), "#tactic-form")
    assert bo.post(action, data={**stale, "tactic": "4"}, headers={"HX-Request": "true"}).status_code == 200
    # Both are shown; the kept form picks again: refused, the rule beside the tactics, in his words.
    answer = bo.post(
        action, data={**stale, "id": str(uuid.uuid4()), "tactic": "6"}, headers={"HX-Request": "true"}
    )
    assert answer.status_code == 422
    page = soup(answer)
    alert = page.select_one("[data-testid=siege] #error")
    assert alert is not None and alert["data-refused"] == "siege_tactic" and len(page.select("#error")) == 1
    assert alert.text == (
        "Bo has already picked a siege tactic, and both are shown; to pick again, both players ask for it "
        "on their own phones."
    )
    # Every seat offers no undo, says why, and offers the request to pick again; the table neither.
    for who in (ANN, BO):
        shown = soup(phone(app, game, who).get(f"/games/{gid}"))
        assert shown.select_one("form.undo-form") is None
        assert shown.select_one("[data-testid=no-undo]").text.startswith("Both siege tactics are shown")
        assert shown.select_one("#repick-form button").text == "Ask to pick the tactics again"
    table = soup(phone(app, game, "table").get(f"/games/{gid}"))
    assert table.select_one("#repick-form") is None and table.select_one("form.undo-form") is None
    # Both ask from their own screens: both pick again, in secret.
    assert seat_post(app, game, ANN, "#repick-form").status_code == 200
    shown = soup(phone(app, game, BO).get(f"/games/{gid}"))
    assert "Ann asked" in shown.select_one("[data-testid=repick]").text
    after = seat_post(app, game, BO, "#repick-form")
    assert after.status_code == 200 and soup(after).select_one("#tactic-form") is not None


def test_the_tunnel_seat_screens_refuse_a_second_pick_beside_its_form_and_offer_the_request(app):
    client = app.test_client()
    answer = client.post(
        "/api/v1/games",
        json={
            "pack": PACK,
            "scenario": "tunnel-wars",
            "points_limit": 2000,
            "players": [{"name": "Ann"}, {"name": "Bo"}],
        },
    )
    game = answer.json
    gid = game["id"]
    ok(
        client,
        game,
        {"type": "contingent", "battle": 1, "player": ANN, "contingent": 1},
        seat=seat(game, ANN),
    )
    bo = phone(app, game, BO)
    action, stale = form_fields(bo.get(f"/games/{gid}"), "#contingent-form")
    assert (
        bo.post(action, data={**stale, "contingent": "2"}, headers={"HX-Request": "true"}).status_code == 200
    )
    again = bo.post(
        action, data={**stale, "id": str(uuid.uuid4()), "contingent": "3"}, headers={"HX-Request": "true"}
    )
    assert again.status_code == 422
    page = soup(again)
    alert = page.select_one("[data-testid=repick] #error")
    assert alert is not None and len(page.select("#error")) == 1
    assert alert.text == (
        "Bo has already picked a contingent for battle 1, and both are shown; to pick again, both players "
        "ask for it on their own phones."
    )
    for who in (ANN, BO):
        shown = soup(phone(app, game, who).get(f"/games/{gid}"))
        assert shown.select_one("form.undo-form") is None
        assert shown.select_one("[data-testid=no-undo]").text.startswith(
            "Both contingents for battle 1 are shown"
        )
        assert shown.select_one("#repick-form button").text == "Ask to pick the contingents again"
    assert seat_post(app, game, ANN, "#repick-form").status_code == 200
    after = seat_post(app, game, BO, "#repick-form")
    assert after.status_code == 200 and soup(after).select_one("#contingent-form") is not None
    assert "Ann asks to pick the contingents again" in soup(after).select_one(".history").text


# --- item 2: buying ends with the round's turn-order roll-off ----------------------------------
def test_buying_after_the_turn_order_roll_off_is_refused_api_and_the_seat_says_why(app):
    client = app.test_client()
    game = started(client)
    roll = {"type": "roll_off", "round": 1, "purpose": "order", "rolls": [[0, 6], [1, 2], [2, 1]], "next": 2}
    ok(client, game, roll, edit=game["edit_token"])
    refused(
        client,
        game,
        {"type": "buy", "round": 1, "player": BO, "ploy": "caltrops"},
        "round: ploys are bought before the roll-off for round 1's first turn",
        seat=seat(game, BO),
    )
    page = soup(phone(app, game, BO).get(f"/games/{game['id']}"))
    assert page.select_one("#buy-form") is None
    assert page.select_one("#buy-closed").text.startswith("Ploys are bought before the roll-off")


# --- item 3: one enemy a phase; Allies of Convenience sends the pick back --------------------------
def test_a_second_pick_for_a_phase_is_refused_unless_allies_of_convenience_api(client):
    game = started(client, (BO, "allies-of-convenience"))
    edit = game["edit_token"]
    ok(client, game, {"type": "enemy", "round": 1, "player": ANN, "phase": "charge", "enemy": BO}, edit=edit)
    again = {"type": "enemy", "round": 1, "player": ANN, "phase": "charge", "enemy": CY}
    refused(
        client, game, again, "phase: Ann has already picked Bo as the enemy for the Charge phase", edit=edit
    )
    ok(
        client,
        game,
        {"type": "play", "round": 1, "player": BO, "ploy": "allies-of-convenience"},
        seat=seat(game, BO),
    )
    refused(client, game, {**again, "enemy": BO}, "enemy: Bo played Allies of Convenience", edit=edit)
    ok(client, game, again, edit=edit)
    assert [p["enemy"] for p in state(client, game)["picks"]] == [BO, CY]


def test_the_seat_screen_shows_a_stale_second_pick_refused_beside_the_enemy_form(app):
    client = app.test_client()
    game = started(client, (BO, "allies-of-convenience"))
    gid = game["id"]
    ann = phone(app, game, ANN)
    action, fields = form_fields(ann.get(f"/games/{gid}"), "#enemy-form")
    fields.update(player="0", phase="charge", enemy="1")
    assert ann.post(action, data=fields, headers={"HX-Request": "true"}).status_code == 200
    # The form no longer offers the charge phase; a phone still showing it sends it again.
    page = soup(ann.get(f"/games/{gid}"))
    assert [o["value"] for o in page.select("#enemy-phase option")] == ["movement", "shooting", "combat"]
    fields.update(id=str(uuid.uuid4()), enemy="2")
    answer = ann.post(action, data=fields, headers={"HX-Request": "true"})
    assert answer.status_code == 422
    alert = soup(answer).select_one("#enemy-form #error")
    assert alert is not None and alert.text.startswith(
        "Ann has already picked Bo as the enemy for the Charge phase"
    )
    assert "only Allies of Convenience played by Bo lets them pick again" in alert.text
    # Bo plays Allies of Convenience from his hand: Ann's form offers the charge again, not Bo.
    bo = seat_post(app, game, BO, "li.ploy[data-ploy=allies-of-convenience] form:has(button.primary)")
    assert bo.status_code == 200
    page = soup(ann.get(f"/games/{gid}"))
    assert page.select_one("#enemy-form input[name=phase]")["value"] == "charge"
    assert [i["value"] for i in page.select("#enemy-form input[name=enemy]")] == ["2"]
    assert "Bo played Allies of Convenience" in page.select_one("[data-testid=pick-again]").text


# --- items 4 and 5: who may play a ploy ------------------------------------------------------------
def test_allies_from_a_neutral_player_and_a_neutral_ploy_from_the_enemy_are_refused_api(app):
    client = app.test_client()
    game = started(client, (CY, "allies-of-convenience"), (BO, "ambushing-fire"))
    ok(
        client,
        game,
        {"type": "enemy", "round": 1, "player": ANN, "phase": "shooting", "enemy": BO},
        edit=game["edit_token"],
    )
    refused(
        client,
        game,
        {"type": "play", "round": 1, "player": CY, "ploy": "allies-of-convenience"},
        "ploy: Allies of Convenience is played by the player just picked as the enemy, Bo, not by Cy.",
        seat=seat(game, CY),
    )
    refused(
        client,
        game,
        {"type": "play", "round": 1, "player": BO, "ploy": "ambushing-fire"},
        "ploy: Ambushing Fire is for neutral players, and Bo is the enemy this phase.",
        seat=seat(game, BO),
    )
    # The seats offer neither: each ploy says why instead of a Play button.
    for who, ploy, why in (
        (CY, "allies-of-convenience", "played by the player just picked"),
        (BO, "ambushing-fire", "for neutral players"),
    ):
        page = soup(phone(app, game, who).get(f"/games/{game['id']}"))
        item = page.select_one(f"li.ploy[data-ploy={ploy}]")
        assert item.select_one("button.primary") is None and why in item.select_one(".not-now").text


# --- item 6: turn order ---------------------------------------------------------------------------
def test_a_turn_for_another_player_than_the_roll_off_named_is_refused_api(client):
    game = started(client)
    edit = game["edit_token"]
    ok(
        client,
        game,
        {"type": "roll_off", "round": 1, "purpose": "order", "rolls": [[0, 1], [1, 6], [2, 2]], "next": CY},
        edit=edit,
    )
    refused(
        client,
        game,
        {"type": "turn", "round": 1, "player": ANN},
        "player: the roll-off sent Cy to take the next turn",
        edit=edit,
    )
    ok(client, game, {"type": "turn", "round": 1, "player": CY}, edit=edit)


# --- items 7 and 8: deals at the start of a turn, from the giver's seat or the table -------------
def test_a_deal_after_the_turns_first_pick_is_refused_api(client):
    game = started(client)
    edit = game["edit_token"]
    ok(
        client,
        game,
        {"type": "enemy", "round": 1, "player": ANN, "phase": "movement", "enemy": BO},
        edit=edit,
    )
    refused(
        client,
        game,
        {"type": "deal", "round": 1, "from": BO, "to": CY, "cp": 2},
        "round: deals are made at the start of a turn, and Ann's turn already has an enemy pick.",
        edit=edit,
    )


@pytest.mark.parametrize(
    ("who", "status"), [("giver", 201), ("table", 201), ("receiver", 403), ("another seat", 403)]
)
def test_a_deal_needs_the_givers_seat_or_the_table_api(client, who, status):
    game = started(client)
    headers = {
        "giver": {"seat": seat(game, BO)},
        "table": {"edit": game["edit_token"]},
        "receiver": {"seat": seat(game, CY)},
        "another seat": {"seat": seat(game, ANN)},
    }[who]
    answer = post(client, game, {"type": "deal", "round": 1, "from": BO, "to": CY, "cp": 5}, **headers)
    assert answer.status_code == status, answer.json
    if status == 403:
        assert answer.json["error"] == (
            "This entry is Bo's: it needs the seat token of player 1 (Bo) in X-Seat-Token, or the table's "
            "edit token in X-Edit-Token."
        )
        assert state(client, game)["players"][BO]["cp"] == 50


def test_taking_back_a_deal_is_for_its_givers_seat_or_the_table_api(client):
    game = started(client)
    ok(client, game, {"type": "deal", "round": 1, "from": BO, "to": CY, "cp": 5}, seat=seat(game, BO))
    last = client.get(f"/api/v1/games/{game['id']}/events").json[-1]["id"]
    undo = {"type": "undo", "event": last}
    for other in (ANN, CY):
        answer = post(client, game, undo, seat=seat(game, other))
        assert answer.status_code == 403 and answer.json["error"].startswith("Taking back this entry is Bo's")
    ok(client, game, undo, edit=game["edit_token"])
    assert state(client, game)["players"][BO]["cp"] == 50


# --- item 9: the end's tie_break follows the ranking roll-offs ---------------------------------
def test_a_tie_break_contradicting_the_ranking_roll_off_is_refused_api(client):
    game = made(client)
    edit = game["edit_token"]
    for r in range(1, 5):
        for player in (ANN, BO, CY):
            ok(client, game, {"type": "turn", "round": r, "player": player}, edit=edit)
    ok(
        client,
        game,
        {"type": "roll_off", "round": 4, "purpose": "ranking", "rolls": [[0, 2], [1, 5], [2, 3]]},
        edit=edit,
    )
    refused(
        client,
        game,
        {"type": "end", "tie_break": [ANN, BO, CY]},
        "tie_break: Bo won the ranking roll-off against Ann and Cy, so Bo comes before Ann.",
        edit=edit,
    )
    ok(client, game, {"type": "end", "tie_break": [BO, CY, ANN]}, edit=edit)


# --- item 10: a ploy changes hands in a deal --------------------------------------------------------
def _given(client: FlaskClient) -> dict[str, Any]:
    """Ann (seat 0) gives Bo the Hidden Pitfalls she bought, with 2 CP."""
    game = started(client, (ANN, "hidden-pitfalls"))
    ok(
        client,
        game,
        {
            "type": "deal",
            "round": 1,
            "from": ANN,
            "to": BO,
            "ploy": "hidden-pitfalls",
            "cp": 2,
            "note": "Spare me",
        },
        seat=seat(game, ANN),
    )
    return game


def test_a_ploy_deal_needs_the_givers_seat_api(client):
    game = started(client, (ANN, "hidden-pitfalls"))
    give = {"type": "deal", "round": 1, "from": ANN, "to": BO, "ploy": "hidden-pitfalls"}
    for headers in ({"edit": game["edit_token"]}, {"seat": seat(game, BO)}):
        answer = post(client, game, give, **headers)
        assert answer.status_code == 403 and "Hidden Pitfalls" not in answer.json["error"]
    ok(client, game, give, seat=seat(game, ANN))
    assert state(client, game, BO)["players"][BO]["ploys"] == ["hidden-pitfalls"]
    assert state(client, game, ANN)["players"][ANN]["ploys"] == []


def test_a_ploy_given_is_shown_to_the_giver_and_the_receiver_only(app):
    client = app.test_client()
    game = _given(client)
    gid = game["id"]
    words = ("hidden-pitfalls", "hidden pitfalls")
    for who in (ANN, BO):
        headers = {"X-Seat-Token": seat(game, who)}
        assert state(client, game, who)["deals"][0]["ploy"] == "hidden-pitfalls"
        for path in ("events", "export"):
            text = client.get(f"/api/v1/games/{gid}/{path}", headers=headers).data.decode().lower()
            assert "hidden-pitfalls" in text, (who, path)
        history = soup(phone(app, game, who).get(f"/games/{gid}")).select_one(".history").text
        assert "Deal: Ann gives Bo 2 CP and Hidden Pitfalls (only the two of you see which ploy)" in history
    for who in (CY, None):
        headers = {"X-Seat-Token": seat(game, who)} if who is not None else {}
        seen = {
            "game": client.get(f"/api/v1/games/{gid}", headers=headers).data,
            "events": client.get(f"/api/v1/games/{gid}/events", headers=headers).data,
            "export": client.get(f"/api/v1/games/{gid}/export", headers=headers).data,
            "page": catalogue_free(phone(app, game, who).get(f"/games/{gid}").data).encode(),
            "pdf": pdf_text(client.get(f"/games/{gid}/scoresheet.pdf").data).encode(),
            "home": client.get("/").data,
        }
        leaked = {
            where: text for where, text in seen.items() if any(w in text.decode().lower() for w in words)
        }
        assert leaked == {}, (who, sorted(leaked))
        deal = state(client, game, who)["deals"][0]
        assert deal["gives_ploy"] is True and "ploy" not in deal
        history = soup(phone(app, game, who).get(f"/games/{gid}")).select_one(".history").text
        assert "Deal: Ann gives Bo 2 CP and a ploy" in history
    assert "A ploy (which stays secret)" in pdf_text(client.get(f"/games/{gid}/scoresheet.pdf").data)


def test_which_ploy_was_given_changes_no_answers_length_for_the_others(app):
    """Two games alike but for the ploy Ann gives: every answer Cy or a watcher gets is as long."""
    client = app.test_client()
    lengths = []
    for ploy in ("hidden-pitfalls", "obfuscations-of-smoke-and-bombs"):
        game = started(client, (ANN, ploy))
        ok(
            client,
            game,
            {"type": "deal", "round": 1, "from": ANN, "to": BO, "ploy": ploy},
            seat=seat(game, ANN),
        )
        gid = game["id"]
        sizes = []
        for headers in ({"X-Seat-Token": seat(game, CY)}, {}):
            for path in ("", "/events", "/export"):
                sizes.append(len(client.get(f"/api/v1/games/{gid}{path}", headers=headers).data))
        lengths.append(sizes)
    assert lengths[0] == lengths[1]


def test_a_ploy_given_to_a_player_who_holds_it_is_refused_beside_the_deal_form(app):
    client = app.test_client()
    game = started(client, (ANN, "caltrops"), (BO, "caltrops"))
    gid = game["id"]
    page = soup(phone(app, game, ANN).get(f"/games/{gid}"))
    form = page.select_one("#deal form")
    assert [o["value"] for o in form.select("#deal-ploy option")] == ["", "caltrops"]
    assert form.select_one("input[name=from]")["value"] == "0" and not form.select("#deal-from")
    answer = seat_post(app, game, ANN, "#deal form", to="1", ploy="caltrops")
    assert answer.status_code == 422
    alert = soup(answer).select_one("#deal #error")
    assert alert is not None and alert.text == "Bo already holds Caltrops; nobody holds two of the same ploy."
    assert seat_post(app, game, ANN, "#deal form", to="2", ploy="caltrops").status_code == 200
    hand = soup(phone(app, game, CY).get(f"/games/{gid}")).select_one("#hand")
    assert [li["data-ploy"] for li in hand.select("li.ploy")] == ["caltrops"]
    # The table's deal form gives points only: it never sees a hand.
    table = soup(phone(app, game, "table").get(f"/games/{gid}"))
    assert table.select_one("#deal-ploy") is None and len(table.select("#deal-from option")) == 4


# --- item 11: Convergence of Fate's contingents come out with the reinforcements ------------------
def test_convergence_contingents_are_shown_once_the_reinforcements_arrive_api(app):
    client = app.test_client()
    answer = client.post(
        "/api/v1/games",
        json={
            "pack": PACK,
            "scenario": "convergence-of-fate",
            "points_limit": 2000,
            "players": [{"name": n} for n in ("Ann", "Bo", "Cy")],
        },
    )
    game = answer.json
    edit = game["edit_token"]
    split = {
        "type": "contingents",
        "player": BO,
        "vanguard": ["Liberators", "Prosecutors"],
        "reinforcements": ["Lord-Celestant"],
    }
    ok(client, game, split, seat=seat(game, BO))
    for player in (ANN, BO, CY):
        ok(client, game, {"type": "turn", "round": 1, "player": player}, edit=edit)
    events = client.get(f"/api/v1/games/{game['id']}/events", headers={"X-Seat-Token": seat(game, ANN)}).json
    assert "vanguard" not in events[0]
    assert "contingent_units" not in state(client, game, ANN)["players"][BO]
    shown = soup(phone(app, game, ANN).get(f"/games/{game['id']}")).select_one("[data-testid=contingents]")
    assert "Bo: set, shown once their reinforcements arrive" in shown.text and "Liberators" not in shown.text
    ok(client, game, {"type": "turn", "round": 2, "player": BO}, edit=edit)
    shown = soup(phone(app, game, None).get(f"/games/{game['id']}")).select_one("[data-testid=contingents]")
    assert "Bo: vanguard Liberators, Prosecutors; reinforcements Lord-Celestant" in shown.text
    assert state(client, game)["players"][BO]["contingent_units"] == {
        "vanguard": ["Liberators", "Prosecutors"],
        "reinforcements": ["Lord-Celestant"],
    }
    events = client.get(f"/api/v1/games/{game['id']}/events").json
    assert events[0]["vanguard"] == ["Liberators", "Prosecutors"]
