"""First Blood games through the JSON API and the screens, one script per scenario.

The arithmetic of each script is worked in tests/unit/test_first_blood.py; here every
scenario is played end to end over HTTP and must end in the same round with the same VP.
"""

from __future__ import annotations

import io
import uuid

import pytest
from pypdf import PdfReader

from tests.pdfs import pdf_text
from tests.setups import first_blood_game, join
from tests.web.conftest import csrf_token, form_fields, soup
from tests.web.games_played import SCRIPTS

A, B = 0, 1


def _post(client, made, event):
    return client.post(
        f"/api/v1/games/{made['id']}/events",
        json={"id": str(uuid.uuid4()), **event},
        headers={"X-Edit-Token": made["edit_token"]},
    )


def test_every_playable_scenario_has_a_script(client):
    pack = client.get("/api/v1/packs/conquest-first-blood").json
    playable = [s["id"] for s in pack["scenarios"] if s["playable"]]
    assert sorted(playable) == sorted(SCRIPTS)
    assert [s["id"] for s in pack["scenarios"] if not s["playable"]] == ["fall-into-rank"]


@pytest.mark.parametrize("scenario", sorted(SCRIPTS))
def test_a_whole_first_blood_game_through_the_api(client, scenario):
    phases, vp, last, winner = SCRIPTS[scenario]
    made = first_blood_game(client, scenario)
    for r, (control, ann, bo) in enumerate(phases, start=1):
        answer = _post(client, made, {"type": "round", "round": r, "control": control, "players": [ann, bo]})
        assert answer.status_code == 201, answer.json
    game = client.get(f"/api/v1/games/{made['id']}").json
    assert game["status"] == "finished" and len(game["rounds"]) == last
    assert (game["players"][0]["vp"], game["players"][1]["vp"]) == vp
    assert (
        game["result"]["kind"] == ("draw" if winner is None else "win") and game["result"]["winner"] == winner
    )
    for phase in game["rounds"]:
        for part in phase["players"]:
            assert part["vp"] == sum(item["vp"] for item in part["breakdown"])
    after = _post(client, made, {"type": "round", "round": last + 1, "control": {}, "players": []})
    assert after.status_code == 422 and "The game is over" in after.json["error"]


@pytest.mark.parametrize(
    ("event", "sentence"),
    [
        ({"round": 1, "control": {"west-zone": 0}}, "nothing can be seized in round 1"),
        ({"round": 1, "players": [{"markers_destroyed": ["b-west"]}, {}]}, "round 1"),
        ({"round": 1, "control": {"swamp": 0}}, "not a zone or point"),
    ],
)
def test_first_blood_refusals_are_422(client, event, sentence):
    made = first_blood_game(client, "twin-contested-zones")
    answer = _post(client, made, {"type": "round", **event})
    assert answer.status_code == 422 and sentence in answer.json["error"]


def test_pack_lists_objectives_with_owner_and_size(client):
    pack = client.get("/api/v1/packs/conquest-first-blood").json
    assert pack["play"] == "rounds" and pack["sides"] == ["player1", "player2"]
    twin = next(s for s in pack["scenarios"] if s["id"] == "twin-contested-zones")
    assert twin["vp_threshold"] == 16 and twin["battle_rounds"] == 10
    by_id = {o["id"]: o for o in twin["objectives"]}
    assert (
        by_id["west-zone"].items()
        >= {"kind": "zone", "x": 12, "y": 24, "diameter": 12, "friendly_to": None}.items()
    )
    assert by_id["a-west"]["friendly_to"] == 0 and by_id["b-west"]["friendly_to"] == 1
    meeting = next(s for s in pack["scenarios"] if s["id"] == "meeting-engagement")
    assert all(o["x"] is None and o["y"] is None for o in meeting["objectives"])
    assert {f["name"] for f in twin["facts"]} >= {
        "control",
        "markers_destroyed",
        "character_slain",
        "wiped_out",
    }


def test_seizing_calculator_endpoint(client):
    answer = client.post(
        "/api/v1/packs/conquest-first-blood/seize",
        json={"players": [{"medium-infantry": 4, "officer": 1}, {"light-infantry": 5}]},
    )
    assert answer.json == {"counts": [5, 2], "winner": 0}
    assert client.post("/api/v1/packs/conquest-first-blood/seize", json={"players": 3}).status_code == 422
    assert client.post("/api/v1/packs/aos-ghb-2021/seize", json={"players": [{}]}).status_code == 404


# --- screens and print ----------------------------------------------------------------------------------
def _join(client, made):
    join(client, made)
    return f"/games/{made['id']}"


def test_victory_phase_through_the_screen(client):
    made = first_blood_game(client, "twin-contested-zones")
    url = _join(client, made)
    page = client.get(url)
    doc = soup(page)
    assert len(doc.select("#phase-map g.tap[data-objective]")) == 2
    assert doc.select_one("#phase-form h2").text == "Round 1: Victory Phase"
    assert "No reinforcements arrive in round 1." in doc.select_one("#phase-form .hint").text
    action, data = form_fields(page, "#phase-form")
    page = client.post(action, data=data, headers={"HX-Request": "true"})
    action, data = form_fields(page, "#phase-form")
    data.update({"control.west-zone": "0", "p0.markers_destroyed": "b-west"})
    page = client.post(action, data=data, headers={"HX-Request": "true"})
    fragment = soup(page)
    assert fragment.select_one('[data-testid="vp-0"]').text == "5"
    assert "Destroyed marker B (W)" in fragment.select_one(".breakdown").text
    # The destroyed marker is no longer offered to Ann, and the map marks it.
    assert fragment.select_one('input[value="b-west"]') is None
    assert "destroyed" in fragment.select_one("#phase-map g.marker.destroyed")["class"]


def test_refused_phase_keeps_the_taps(client):
    made = first_blood_game(client, "twin-contested-zones")
    url = _join(client, made)
    _post(client, made, {"type": "round", "round": 1, "control": {}, "players": []})
    action, data = form_fields(client.get(url), "#phase-form")
    data["control.east-zone"] = "0"
    response = client.post(action, data=data, headers={"HX-Request": "true"})
    assert response.status_code == 422
    fragment = soup(response)
    assert "contested for Ann" in fragment.select_one("#error").text
    assert fragment.select_one('select[name="control.east-zone"] option[selected]')["value"] == "0"


def test_seize_and_deploy_helpers_on_the_screen(client):
    made = first_blood_game(client, "outflank")
    url = _join(client, made)
    csrf = csrf_token(client, url)
    result = soup(
        client.post(f"{url}/seize", data={"csrf_token": csrf, "s0.monster": "1", "s1.heavy-cavalry": "2"})
    )
    assert result.text.split() == [
        "Ann",
        "6",
        "v",
        "Bo",
        "6:",
        "nobody",
        "seizes",
        "(a",
        "tie",
        "or",
        "no",
        "models)",
    ]
    rolled = soup(client.post(f"{url}/deploy-roll", data={"csrf_token": csrf}))
    assert len(rolled.select(".die")) >= 2 and "rolled lowest" in rolled.text


def test_pack_page_shows_every_map(client):
    page = soup(client.get("/packs/conquest-first-blood"))
    assert len(page.select("details svg.map")) == 12
    assert "not playable" in page.text


def test_map_and_score_sheet_pdfs(client):
    map_pdf = client.get("/packs/conquest-first-blood/scenarios/pincer/map.pdf?paper=letter")
    reader = PdfReader(io.BytesIO(map_pdf.data))
    assert len(reader.pages) == 1 and round(float(reader.pages[0].mediabox.width)) == 612
    text = reader.pages[0].extract_text()
    assert "Pincer" in text and "Centre" in text and '12"' in text
    made = first_blood_game(client, "raid")
    for r, (control, ann, bo) in enumerate(SCRIPTS["raid"][0], start=1):
        _post(client, made, {"type": "round", "round": r, "control": control, "players": [ann, bo]})
    sheet = client.get(f"/games/{made['id']}/scoresheet.pdf")
    text = pdf_text(sheet.data)
    for expected in ("Raid", "Ann", "Bo", "21", "16 VP reached in round 3", "Seizes the enemy zone B"):
        assert expected in text
    blank = client.get("/packs/conquest-first-blood/scenarios/raid/scoresheet.pdf")
    assert "Raid" in pdf_text(blank.data, between="")
    assert (
        client.get("/packs/conquest-first-blood/scenarios/fall-into-rank/scoresheet.pdf").status_code == 404
    )


def test_home_lists_first_blood_games_with_their_score(client):
    made = first_blood_game(client, "outflank")
    for r, (control, ann, bo) in enumerate(SCRIPTS["outflank"][0][:2], start=1):
        _post(client, made, {"type": "round", "round": r, "control": control, "players": [ann, bo]})
    item = soup(client.get("/")).select_one(f'a[href="/games/{made["id"]}"]')
    assert item.select_one(".game-title").text == "Outflank"
    assert [b.text for b in item.select(".score .vp")] == ["6", "2"]
    assert "round 3 of 10" in item.text


def test_tug_of_war_end_point_retaken_through_the_api(client):
    made = first_blood_game(client, "tug-of-war")
    for r, control in enumerate([{}, {"b": A}, {"b": B}], start=1):
        answer = _post(client, made, {"type": "round", "round": r, "control": control, "players": []})
        assert answer.status_code == 201, answer.json
    game = client.get(f"/api/v1/games/{made['id']}").json
    # Bo took back his own B in round 3: 2 VP each that round (2 + 4 + 2 for Ann, 2 + 0 + 2 for Bo).
    assert [part["vp"] for part in game["rounds"][2]["players"]] == [2, 2]
    assert (game["players"][0]["vp"], game["players"][1]["vp"]) == (8, 4)
    assert next(o for o in game["objectives"] if o["id"] == "b")["holder"] == B


def test_last_victory_phase_reminds_of_regiments_never_brought_on(client):
    made = first_blood_game(client, "shieldwall")
    url = _join(client, made)
    for r in range(1, 8):
        assert "regiments that never came on" not in soup(client.get(url)).select_one("#phase-form").text
        _post(client, made, {"type": "round", "round": r, "control": {}, "players": []})
    form = soup(client.get(url)).select_one("#phase-form")
    assert form.select_one("h2").text == "Round 8: Victory Phase"
    note = form.select_one(".reminder").text
    assert "Round 8 is the last" in note and "(1 VP each)" in note


def test_phase_forms_kept_for_offline_remind_on_the_last_round_only(client):
    made = first_blood_game(client, "shieldwall")
    page = soup(client.get(_join(client, made)))
    assert "Round 8 is the last" in page.select_one('template[data-step="phase-8"]').decode_contents()
    assert "never came on" not in page.select_one('template[data-step="phase-7"]').decode_contents()


def test_scenario_roll_in_the_pack_and_d12_rolls_in_the_log(client):
    pack = client.get("/api/v1/packs/conquest-first-blood").json
    assert pack["scenario_roll"]["die"] == 12 and "rolled again" in pack["scenario_roll"]["reading"]
    assert client.get("/api/v1/packs/aos-ghb-2021").json["scenario_roll"] is None
    made = first_blood_game(client, "tug-of-war")
    roll = {"type": "roll", "dice": "d12", "results": [12], "purpose": "Scenario roll: 12, again"}
    assert _post(client, made, roll).status_code == 201
    # Edge 12 is a face of the D12; beyond it is refused.
    bad = _post(client, made, {**roll, "results": [13]})
    assert bad.status_code == 422 and "each from 1 to 12" in bad.json["error"]
