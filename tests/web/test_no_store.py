"""Issue 12, item 10: answers that carry an edit token are kept by no cache.

A token left in a browser's or a proxy's cache, or in the service worker's page cache, is a
token a later user of the phone (or of the proxy) can read. The pages the worker must keep
for offline use are marked for this phone alone instead.
"""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.savage_gains import SETUP
from tests.setups import new_game
from tests.web.conftest import soup


def test_a_new_games_links_are_no_store(client: FlaskClient) -> None:
    made = client.post("/api/v1/games", json=SETUP)
    assert made.status_code == 201 and "edit_token" in made.json
    assert made.headers["Cache-Control"] == "no-store"


def test_an_imports_links_are_no_store(client: FlaskClient) -> None:
    game = new_game(client)
    exported = client.get(f"/api/v1/games/{game['id']}/export").json
    client.post(f"/api/v1/games/{game['id']}")  # 405: nothing stored, the next import is its own
    made = client.post("/api/v1/games/import", json={**exported, "id": "imported-game-0001"})
    assert made.status_code == 201 and "edit_token" in made.json
    assert made.headers["Cache-Control"] == "no-store"


def test_the_join_redirect_and_the_join_qr_are_no_store(client: FlaskClient) -> None:
    game = new_game(client)
    joined = client.get(game["join_url"].replace("http://localhost", ""))
    assert joined.status_code == 303 and "muster_edit_" in joined.headers["Set-Cookie"]
    assert joined.headers["Cache-Control"] == "no-store"
    page = client.get(f"/games/{game['id']}")
    qr = soup(page).select_one('img[src$="join.svg"]')["src"]
    code = client.get(qr)
    assert code.status_code == 200 and code.mimetype == "image/svg+xml"
    assert code.headers["Cache-Control"] == "no-store"
    # The watch code carries no token: any cache may keep it.
    assert client.get(f"/games/{game['id']}/watch.svg").headers["Cache-Control"] == "public, max-age=86400"


def test_a_new_rosters_links_are_no_store(client: FlaskClient) -> None:
    made = client.post(
        "/api/v1/rosters",
        json={"pack": "aos-ghb-2021", "name": "Hammerfest", "points_limit": 2000, "entries": []},
    )
    assert made.status_code == 201, made.json
    assert made.headers["Cache-Control"] == "no-store"


def test_pages_kept_offline_are_private_not_no_store(client: FlaskClient) -> None:
    game = new_game(client)
    client.get(game["join_url"].replace("http://localhost", ""))
    for path in (f"/games/{game['id']}", f"/games/{game['id']}/terrain"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers["Cache-Control"] == "private, no-cache", path
