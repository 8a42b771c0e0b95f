"""Names a player types lose control and direction characters wherever they come in.

U+202E (RIGHT-TO-LEFT OVERRIDE) would make "Ann" read as the start of a reversed line on
the other player's phone; an ESC or NUL shows as garbage in prints and exports.
"""

from __future__ import annotations

import uuid

from tests.setups import new_game, new_game_form, terrain_game
from tests.web.conftest import csrf_token, soup

HOSTILE = "\u202eAnn\u2066\x00\x1b\u0085 the\tBold\u2069\u200f"
CLEAN = "Ann the Bold"


def test_player_names_through_the_api_and_the_new_game_form(client):
    game = new_game(client, names=(HOSTILE, "Bo"))
    assert client.get(f"/api/v1/games/{game['id']}").json["players"][0]["name"] == CLEAN
    form = new_game_form(csrf_token(client, "/games/new"), names=(HOSTILE, "Bo"))
    made = client.post("/games", data=form)
    assert made.status_code == 303
    page = client.get(made.headers["Location"]).text
    assert CLEAN in page and "\u202e" not in page and "\x1b" not in page
    # A name of nothing but controls is no name.
    form["name0"] = "\u202e\x00"
    refused = client.post("/games", data=form)
    assert refused.status_code == 422
    assert soup(refused).select_one("#form-error").text == "Player 1's name must be 1 to 40 characters."


def test_roster_and_unit_names_through_the_api_and_the_screens(client):
    roster = {
        "pack": "aos-ghb-2021",
        "name": HOSTILE,
        "points_limit": 1000,
        "entries": [{"name": HOSTILE, "points": 10, "notes": "line\u202e one\nline two\x07"}],
    }
    made = client.post("/api/v1/rosters", json=roster).json
    stored = client.get(f"/api/v1/rosters/{made['id']}").json["roster"]
    assert (stored["name"], stored["entries"][0]["name"]) == (CLEAN, CLEAN)
    assert stored["entries"][0]["notes"] == "line one\nline two"
    csrf = csrf_token(client, "/rosters/new")
    created = client.post(
        "/rosters",
        data={"csrf_token": csrf, "pack": "aos-ghb-2021", "name": HOSTILE, "points_preset": "1000"},
    )
    url = created.headers["Location"]
    page = soup(client.get(url))
    version = page.select_one('input[name="version"]')["value"]
    client.post(
        f"{url}/entries",
        data={"csrf_token": csrf, "version": version, "name": HOSTILE, "points": "5", "faction": HOSTILE},
    )
    page = soup(client.get(url))
    assert page.select_one("h1").text == CLEAN
    assert page.select_one(".entry-name").text == CLEAN
    assert "\u202e" not in client.get(f"{url}/roster.txt").text


def test_terrain_piece_and_saved_set_names(client):
    _made, url = terrain_game(client)
    csrf = csrf_token(client, url)
    added = client.post(
        f"{url}/pieces",
        data={"id": str(uuid.uuid4()), "csrf_token": csrf, "name": HOSTILE, "kind": "zonal", "size": "1"},
        headers={"HX-Request": "true"},
    )
    assert [e.text for e in soup(added).select(".entry-name")] == [CLEAN]
    client.post(
        f"{url}/library",
        data={"csrf_token": csrf, "name": "\u202eTable\x00 3"},
        headers={"HX-Request": "true"},
    )
    page = client.get(terrain_game(client, "raid")[1]).text
    assert "Table 3" in page and "\u202e" not in page
    checked = client.post(
        "/api/v1/terrain/check", json={"pack": "conquest-first-blood", "pieces": [{"name": HOSTILE}]}
    )
    assert checked.status_code == 200 and "\u202e" not in checked.text
