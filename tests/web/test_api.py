"""The JSON API v1 contract (docs/api.md)."""

from __future__ import annotations

import re
import uuid

import pytest

from tests.setups import NO_STRATEGIES, game_of, new_game, pitched_battle, start
from tests.web.conftest import Api


def test_packs_list(client):
    packs = {p["id"]: p for p in client.get("/api/v1/packs").json}
    assert {"aos-ghb-2021", "conquest-first-blood"} <= set(packs)  # a club may add its own
    assert packs["aos-ghb-2021"] == {
        "id": "aos-ghb-2021",
        "name": "Pitched Battles 2021",
        "game": "Warhammer Age of Sigmar (3rd edition)",
        "source": packs["aos-ghb-2021"]["source"],
    }
    assert packs["aos-ghb-2021"]["source"]["book"] == "General's Handbook 2021: Pitched Battles"


def test_pack_detail(client):
    pack = client.get("/api/v1/packs/aos-ghb-2021").json
    assert pack["points_limits"] == [1000, 2000]
    assert {t["id"]: t["bonus"] for t in pack["tactics"]}["bring-it-down"] is True
    assert {t["id"]: t["bonus"] for t in pack["tactics"]}["conquer"] is False
    assert len(pack["grand_strategies"]) == 8
    savage = next(s for s in pack["scenarios"] if s["id"] == "savage-gains")
    assert savage["battle_rounds"] == 5
    assert {o["id"]: o["territory"] for o in savage["objectives"]} == {
        "attacker-border": "attacker",
        "west": None,
        "east": None,
        "defender-border": "defender",
    }
    tectonic = next(s for s in pack["scenarios"] if s["id"] == "tectonic-interference")
    assert {"name": "alpha", "event": "battle_round", "kind": "objective", "required": True}.items() <= next(
        f for f in tectonic["facts"] if f["name"] == "alpha"
    ).items()
    assert client.get("/api/v1/packs/nope").status_code == 404


@pytest.mark.parametrize(
    ("change", "sentence"),
    [
        # Which packs it names: test_an_unknown_pack_is_refused_naming_the_installed_ones.
        ({"pack": "chess"}, "pack must be one of the installed rulepacks with scenarios: "),
        ({"scenario": "picnic"}, "scenario must be the id of a scenario in Pitched Battles 2021"),
        ({"points_limit": 1500}, "points_limit must be 1000 or 2000 in Pitched Battles 2021."),
        ({"points_limit": "lots"}, "points_limit must be a whole number"),
        ({"players": []}, "players must be a list of 2 players for Pitched Battles 2021."),
        (
            {"players": [{"name": "", "side": "attacker"}, {"name": "Bo", "side": "defender"}]},
            "players[0].name must be 1 to 40 characters.",
        ),
        (
            {"players": [{"name": "A", "side": "attacker"}, {"name": "Bo", "side": "attacker"}]},
            "players[*].side must differ",
        ),
        (
            {"players": [{"name": "A", "side": "left"}, {"name": "Bo", "side": "defender"}]},
            "players[0].side must be attacker or defender.",
        ),
        (
            {
                "players": [
                    {"name": "A", "side": "attacker", "grand_strategy": "win"},
                    {"name": "Bo", "side": "defender"},
                ]
            },
            "players[0].grand_strategy must be one of",
        ),
    ],
)
def test_create_game_refusals(client, change, sentence):
    response = client.post("/api/v1/games", json=pitched_battle(strategies=NO_STRATEGIES, **change))
    assert response.status_code == 422
    assert sentence in response.json["error"]


def test_an_unknown_pack_is_refused_naming_the_installed_ones(client):
    error = client.post("/api/v1/games", json=pitched_battle(pack="chess")).json["error"]
    named = error.removeprefix("pack must be one of the installed rulepacks with scenarios: ")
    assert named != error and named.endswith(".")
    # A club may add its own packs: ours must be among those named.
    assert {"aos-ghb-2021", "conquest-first-blood"} <= set(re.split(r", | or ", named[:-1]))


def test_create_game_answers_id_token_and_url(client):
    made = new_game(client)
    assert len(made["id"]) >= 22 and len(made["edit_token"]) >= 22
    assert made["url"].endswith(f"/games/{made['id']}")
    game = client.get(f"/api/v1/games/{made['id']}").json
    assert game["status"] == "in_progress" and game["result"] is None
    assert [p["name"] for p in game["players"]] == ["Ann", "Bo"]
    assert "edit_token" not in str(game)


def test_event_status_codes(client):
    api = Api(client, new_game(client))
    event = {"id": str(uuid.uuid4()), "type": "turn", "round": 1, "player": 0, "control": {"west": 0}}
    first = client.post(f"/api/v1/games/{api.id}/events", json=event, headers={"X-Edit-Token": api.token})
    assert first.status_code == 201 and first.json["status"] == "recorded"
    assert first.json["game"]["players"][0]["vp"] == 2
    # The same id again changes nothing, even with other content.
    again = client.post(
        f"/api/v1/games/{api.id}/events",
        json={**event, "control": {"west": 0, "east": 0}},
        headers={"X-Edit-Token": api.token},
    )
    assert again.status_code == 200 and again.json["status"] == "duplicate"
    assert len(api.state()["turns"]) == 1 and api.state()["players"][0]["vp"] == 2
    assert (
        api.post({"type": "turn", "round": 1, "player": 1, "control": {}}, token="wrong").status_code == 403
    )
    no_token = client.post(f"/api/v1/games/{api.id}/events", json={**event, "id": str(uuid.uuid4())})
    assert no_token.status_code == 403 and "X-Edit-Token" in no_token.json["error"]
    assert (
        client.post("/api/v1/games/nope/events", json=event, headers={"X-Edit-Token": api.token}).status_code
        == 404
    )
    refused = api.post({"type": "turn", "round": 1, "player": 0, "control": {}})
    assert refused.status_code == 422
    assert refused.json == {"error": "Ann has already taken their turn in battle round 1."}


@pytest.mark.parametrize(
    ("event", "sentence"),
    [
        ({"control": {"hill": 0}}, "control names 'hill', which is not an objective in Savage Gains"),
        (
            {"control": {"west": 7}},
            "control.west must be a player's index in this game, 0 to 1, or none for nobody.",
        ),
        ({"tactic": "win-the-game"}, "tactic must be one of"),
    ],
)
def test_rules_refusals_are_422_sentences(client, event, sentence):
    api = Api(client, new_game(client))
    response = api.post({"type": "turn", "round": 1, "player": 0, "control": {}, **event})
    assert response.status_code == 422
    assert sentence in response.json["error"]


def test_reused_tactic_is_refused(client):
    api = Api(client, new_game(client))
    api.ok({"type": "turn", "round": 1, "player": 0, "control": {}, "tactic": "conquer"})
    api.ok({"type": "turn", "round": 1, "player": 1, "control": {}})
    response = api.post({"type": "turn", "round": 2, "player": 0, "control": {}, "tactic": "conquer"})
    assert response.status_code == 422 and "already used the battle tactic Conquer" in response.json["error"]


def test_bad_bodies_are_4xx_not_500(client):
    api = Api(client, new_game(client))
    url = f"/api/v1/games/{api.id}/events"
    headers = {"X-Edit-Token": api.token}
    assert (
        client.post(
            url, data="{not json", headers={**headers, "Content-Type": "application/json"}
        ).status_code
        == 400
    )
    assert client.post(url, json=[1, 2], headers=headers).status_code == 422
    assert (
        client.post(url, json={"type": "turn"}, headers=headers).json["error"].startswith("id must be a UUID")
    )
    assert (
        client.post(
            url, json={"id": str(uuid.uuid4()), "type": "turn", "round": "one"}, headers=headers
        ).status_code
        == 422
    )
    big = {"id": str(uuid.uuid4()), "type": "turn", "padding": "x" * 300_000}
    assert client.post(url, json=big, headers=headers).status_code == 413
    assert client.post("/api/v1/games", data="x", headers={"Content-Type": "text/plain"}).status_code == 400
    assert client.get("/api/v1/games/nope").status_code == 404
    assert client.delete(f"/api/v1/games/{api.id}").status_code == 405


def test_undo_through_the_api(client):
    api = Api(client, new_game(client))
    game = api.ok({"type": "turn", "round": 1, "player": 0, "control": {"west": 0}})
    last = game["turns"][-1]["event"]
    game = api.ok({"type": "undo", "event": last})
    assert game["turns"] == [] and game["players"][0]["vp"] == 0
    # The log keeps both entries: nothing is ever deleted.
    assert [e["type"] for e in client.get(f"/api/v1/games/{api.id}/events").json] == ["turn", "undo"]


def test_an_unknown_key_is_named_on_one_line(client):
    # A fuzzer sent an undo with a key holding a line break; the refusal echoed it whole.
    api = Api(client, new_game(client))
    last = api.ok({"type": "turn", "round": 1, "player": 0, "control": {"west": 0}})["turns"][-1]["event"]
    for event in (
        {"type": "undo", "event": last, "bad\nkey\u202e": 1},
        {"type": "claim", "round": 1, "player": 0, "rule": "predators-and-prey", "x" * 300: 1},
    ):
        response = api.post(event)
        message = response.json["error"]
        assert response.status_code == 422 and "\n" not in message and "\u202e" not in message, message
        assert "is not part of" in message and len(message) < 160, message


def test_a_top_level_key_with_a_line_break_and_half_a_character_is_named_on_one_line(client):
    # The fuzzer's case: {"\n": "\ud800"} was answered "\n holds half a character ...".
    api = Api(client, new_game(client))
    raw = '{"id": "' + str(uuid.uuid4()) + '", "type": "turn", "\\n": "\\ud800"}'
    response = client.post(
        f"/api/v1/games/{api.id}/events",
        data=raw,
        headers={"X-Edit-Token": api.token, "Content-Type": "application/json"},
    )
    message = response.json["error"]
    assert response.status_code == 400 and "\n" not in message and "half a character" in message, message


def test_export_import_round_trip(app, client, tmp_path):
    from app import create_app

    api = Api(client, new_game(client, "tectonic-interference"))
    api.ok({"type": "battle_round", "round": 1, "first": 1, "alpha": "objective-3"})
    api.ok(
        {
            "type": "turn",
            "round": 1,
            "player": 1,
            "control": {"objective-3": 1},
            "tactic": "conquer",
            "tactic_completed": True,
        }
    )
    turn = api.ok({"type": "turn", "round": 1, "player": 0, "control": {"objective-3": 1}})["turns"][-1][
        "event"
    ]
    api.ok({"type": "undo", "event": turn})
    exported = client.get(f"/api/v1/games/{api.id}/export").json
    assert exported["format"] == "muster-game/1" and len(exported["events"]) == 4

    # The same id on the same server is a conflict.
    assert client.post("/api/v1/games/import", json=exported).status_code == 409

    other = create_app(
        {"DATABASE": str(tmp_path / "other.sqlite"), "TESTING": True, "SECRET_KEY": "x"}
    ).test_client()
    made = other.post("/api/v1/games/import", json=exported)
    assert made.status_code == 201 and made.json["id"] == api.id
    assert other.get(f"/api/v1/games/{api.id}/export").json == exported
    assert other.get(f"/api/v1/games/{api.id}").json == client.get(f"/api/v1/games/{api.id}").json


def test_import_refuses_a_log_the_rules_refuse(client, tmp_path):
    from app import create_app

    api = Api(client, new_game(client))
    api.ok({"type": "turn", "round": 1, "player": 0, "control": {}, "tactic": "conquer"})
    exported = client.get(f"/api/v1/games/{api.id}/export").json
    exported["events"].append({**exported["events"][0], "id": str(uuid.uuid4()), "player": 1})
    exported["events"].append({**exported["events"][0], "id": str(uuid.uuid4())})
    other = create_app(
        {"DATABASE": str(tmp_path / "other.sqlite"), "TESTING": True, "SECRET_KEY": "x"}
    ).test_client()
    refused = other.post("/api/v1/games/import", json=exported)
    assert refused.status_code == 422
    assert (
        refused.json["error"] == "events[2] is refused: Ann has already taken their turn in battle round 1."
    )
    assert other.get(f"/api/v1/games/{api.id}").status_code == 404


# --- Predators and Prey claims (issue 11) ----------------------------------------------------
PREY = {"type": "claim", "rule": "predators-and-prey"}


def test_claims_through_the_api(client):
    api = Api(client, new_game(client, "first-blood"))
    api.ok({"type": "battle_round", "round": 1, "first": 0})
    api.ok({"type": "turn", "round": 1, "player": 0, "control": {}})
    # Ann went first; Bo's MONSTER dies in Bo's turn: Ann claims after Bo's turn is in.
    api.ok({"type": "turn", "round": 1, "player": 1, "control": {}})
    game = api.ok({**PREY, "round": 1, "player": 0})
    assert game["claims"] == [
        {
            "event": game["claims"][0]["event"],
            "round": 1,
            "player": 0,
            "rule": "predators-and-prey",
            "vp": 1,
            "breakdown": [{"rule": "Predators and Prey: enemy MONSTERS slain this battle round", "vp": 1}],
        }
    ]
    assert [p["vp"] for p in game["players"]] == [1, 0]
    second = api.post({**PREY, "round": 1, "player": 0})
    assert second.status_code == 422 and "once per player per battle round" in second.json["error"]
    api.ok({"type": "battle_round", "round": 2, "first": 1})
    late = api.post({**PREY, "round": 1, "player": 1})
    assert late.status_code == 422 and late.json["error"].startswith("round: battle round 1 is over")
    # The claim is an entry like any other: undone as the last one, the turn before it next.
    claim = api.post({**PREY, "round": 2, "player": 0}).json["game"]["claims"][-1]["event"]
    assert api.ok({"type": "undo", "event": claim})["claims"] == api.state()["claims"][:1]


@pytest.mark.parametrize(
    ("pack", "scenario", "sentence"),
    [
        ("aos-ghb-2021", "marking-territory", "Marking Territory has no rule a player claims"),
        ("conquest-first-blood", "tug-of-war", "Tug-of-War has no rule a player claims"),
    ],
)
def test_claims_where_the_rule_is_not_played_are_422(client, pack, scenario, sentence):
    api = Api(client, start(client, game_of(pack, scenario)))
    answer = api.post({**PREY, "round": 1, "player": 0})
    assert answer.status_code == 422 and sentence in answer.json["error"]
