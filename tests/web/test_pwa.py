"""The installable app's server side: service worker, manifest, offline page, steps rendered
ahead for recording offline, and the dice roller's form."""

from __future__ import annotations

import json
import re

import pytest

from tests.setups import new_game
from tests.web.conftest import Api, soup


def test_service_worker_is_served_from_the_root_with_its_version_and_shell(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["Service-Worker-Allowed"] == "/"
    body = response.get_data(as_text=True)
    version = json.loads(re.search(r"const VERSION = (\S+);", body).group(1))
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", body).group(1))
    assert re.fullmatch(r"[0-9a-f]{12}", version)
    assert "/offline" in shell and "/manifest.webmanifest" in shell and "/" in shell
    assert any(url.startswith("/static/htmx-4.0.1.min.js?v=") for url in shell)
    for url in shell:  # everything precached exists, or the worker would never install
        assert client.get(url).status_code == 200, url
    assert "__" not in body.split("importScripts(")[1].split(")")[0]


def test_a_new_release_gets_a_new_worker(app, client):
    before = client.get("/sw.js").get_data(as_text=True)
    app.config["MUSTER_RELEASE"] = "2026-12"
    app.extensions.pop("muster.pwa_version", None)
    after = client.get("/sw.js").get_data(as_text=True)
    assert before != after


def test_manifest_names_the_app_and_its_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.get_data(as_text=True))
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/" and manifest["scope"] == "/"
    purposes = {(i["sizes"], i["purpose"]) for i in manifest["icons"]}
    assert {
        ("192x192", "maskable"),
        ("512x512", "maskable"),
        ("192x192", "any"),
        ("512x512", "any"),
    } <= purposes
    page = soup(client.get("/"))
    assert page.select_one('link[rel="manifest"]')["href"] == "/manifest.webmanifest"
    assert {m.get("content") for m in page.select('meta[name="theme-color"]')} == {"#14171c", "#f4f1ea"}


def test_offline_page_says_a_new_game_needs_the_server(client):
    page = soup(client.get("/offline"))
    assert "Starting a new game needs the server once" in page.text
    assert page.select_one("[data-kept-pages]") is not None


def test_every_later_step_is_rendered_ahead_inert(client):
    game = new_game(client)
    client.get(game["join_url"])
    page = soup(client.get(f"/games/{game['id']}"))
    board = page.select_one("#game")
    assert board["data-step"] == "round-1" and board["data-round"] == "1" and board["data-last-round"] == "5"
    assert page.select_one("#step")["data-step"] == "round-1"
    steps = [t["data-step"] for t in page.select(".ahead template")]
    assert steps[:3] == ["round-1", "turn-1-0", "turn-1-1"] and steps[-1] == "end" and "turn-5-1" in steps
    # Each step has its own form with its own UUID, ready to be shown offline.
    assert (
        page.select_one('template[data-step="turn-2-1"]').find("h2").decode_contents()
        == "Battle round 2: Bo's turn"
    )
    ids = re.findall(r'name="id" value="([0-9a-f-]{36})"', str(page))
    assert len(ids) == len(set(ids))


def test_game_position_follows_the_log(client):
    game = new_game(client)
    api = Api(client, game)
    api.ok({"type": "battle_round", "round": 1, "first": 1})
    api.ok({"type": "turn", "round": 1, "player": 1, "control": {}})
    client.get(game["join_url"])
    board = soup(client.get(f"/games/{game['id']}")).select_one("#game")
    # Bo went first and has played: Ann's turn, then round 2 starts; round 1's claims are open.
    assert (board["data-step"], board["data-plan"], board["data-in-play"]) == (
        "turn-1-0",
        "turn-1-0 round-2",
        "1",
    )


def _roll_form(client, game, **fields):
    page = soup(client.get(f"/games/{game['id']}"))
    form = page.select_one("form#roll-record")
    data = {i["name"]: i.get("value", "") for i in form.select("input[name]")}
    data.update(fields)
    return client.post(form["action"], data=data, headers={"HX-Request": "true"})


@pytest.mark.parametrize(
    ("fields", "kept"),
    [
        (
            {"dice": "roll-off", "results": "3,3,5,2", "winner": "0", "purpose": "First turn"},
            (0, [3, 3, 5, 2]),
        ),
        ({"dice": "2d6", "results": "4,6", "winner": "", "purpose": "Priority"}, (None, [4, 6])),
    ],
)
def test_the_dice_roller_keeps_a_roll_in_the_log(client, fields, kept):
    game = new_game(client)
    client.get(game["join_url"])
    response = _roll_form(client, game, **fields)
    assert response.status_code == 200
    assert fields["purpose"] in soup(response).select_one(".rolls").text
    roll = Api(client, game).state()["rolls"][0]
    assert (roll["winner"], roll["results"], roll["dice"]) == (kept[0], kept[1], fields["dice"])


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"dice": "d6", "results": "seven"}, "results must list the dice as whole numbers"),
        ({"dice": "d3", "results": "4"}, "results must be a list of 1 to 24 dice, each from 1 to 3."),
        (
            {"dice": "roll-off", "results": "3,5", "winner": "2"},
            "winner must be one of the players (Ann or Bo)",
        ),
    ],
)
def test_a_roll_the_rules_refuse_is_answered_with_the_reason(client, fields, error):
    game = new_game(client)
    client.get(game["join_url"])
    response = _roll_form(client, game, purpose="Priority", **fields)
    assert response.status_code == 422
    assert error in soup(response).select_one("#error").text
    assert Api(client, game).state()["rolls"] == []


def test_the_unit_catalogues_are_precached_once_each(app, client):
    body = client.get("/sw.js").get_data(as_text=True)
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", body).group(1))
    # Two Age of Sigmar packs share one catalogue, two Old World packs another: each once.
    assert [u for u in shell if u.startswith("/catalogues/")] == [
        "/catalogues/aos-3.json",
        "/catalogues/conquest.json",
        "/catalogues/old-world.json",
    ]
    answer = client.get("/catalogues/aos-3.json")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-cache"
    api = client.get("/api/v1/packs/aos-ghb-2021/catalogue").json
    # The API's answer, less the fields of one pack.
    assert answer.json == {k: v for k, v in api.items() if k not in ("pack", "pack_season", "pack_note")}
    assert client.get("/catalogues/chess.json").status_code == 404


def test_a_changed_catalogue_is_a_new_release(tmp_path, migrated):
    import shutil

    from app import create_app
    from tests.conftest import ROOT

    folder = tmp_path / "rulepacks"
    shutil.copytree(ROOT / "rulepacks", folder)
    config = {
        "DATABASE": str(tmp_path / "m.sqlite"),
        "RULEPACKS": str(folder),
        "TESTING": True,
        "SECRET_KEY": "x",
        "RULEPACKS_CHECK_SECONDS": 0,  # the folder looked at on every request
    }
    shutil.copyfile(migrated, tmp_path / "m.sqlite")
    running = create_app(config).test_client()
    before = running.get("/sw.js").get_data(as_text=True)
    militia = "/catalogues/conquest.json"
    points = [
        u["points"]
        for f in running.get(militia).json["factions"]
        for u in f["units"]
        if u["name"] == "Militia"
    ]
    catalogue = folder / "catalogues" / "conquest.yaml"
    catalogue.write_text(catalogue.read_text().replace('"points": 90,', '"points": 95,', 1))
    after = create_app(config).test_client().get("/sw.js").get_data(as_text=True)
    version = re.compile(r"const VERSION = (\S+);")
    assert version.search(before).group(1) != version.search(after).group(1)
    # The server that served the old catalogue serves the new one once the file changed.
    changed = [
        u["points"]
        for f in running.get(militia).json["factions"]
        for u in f["units"]
        if u["name"] == "Militia"
    ]
    assert points[0] == 90 and changed[0] == 95
