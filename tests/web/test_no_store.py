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


def test_the_editors_game_page_carries_no_token_and_its_join_link_is_no_store(client: FlaskClient) -> None:
    """Issue 27 item 13: the game page a phone keeps for offline play holds no token; the join
    link is fetched when "Score on a second phone" is shown, and that answer is no-store."""
    game = new_game(client)
    client.get(game["join_url"].replace("http://localhost", ""))
    page = client.get(f"/games/{game['id']}")
    assert game["edit_token"] not in page.get_data(as_text=True)
    assert page.headers["Cache-Control"] == "private, no-cache"
    loader = soup(page).select_one("details.share .token-link")
    link = client.get(loader["hx-get"], headers={"HX-Request": "true"})
    assert link.headers["Cache-Control"] == "no-store"
    assert soup(link).select_one("input.copy")["value"] == game["join_url"]
    # Without scripts the same address is a page of its own, no-store too.
    whole = client.get(loader.select_one("a")["href"])
    assert whole.headers["Cache-Control"] == "no-store" and game["join_url"] in whole.get_data(as_text=True)
    # A watcher gets no join link.
    assert client.application.test_client().get(loader["hx-get"]).status_code == 403


def test_admin_pages_are_no_store(tmp_path) -> None:
    from app import create_app

    club = create_app(
        {"DATABASE": str(tmp_path / "m.sqlite"), "TESTING": True, "SECRET_KEY": "t", "ADMIN_PASSWORD": "pw"}
    )
    admin = club.test_client()
    assert admin.get("/admin").headers["Cache-Control"] == "no-store"  # the login form
    token = soup(admin.get("/admin")).select_one("input[name=csrf_token]")["value"]
    assert admin.post("/admin/login", data={"csrf_token": token, "password": "pw"}).status_code == 303
    dashboard = admin.get("/admin")
    assert "backup.sqlite" in dashboard.get_data(as_text=True)
    assert dashboard.headers["Cache-Control"] == "no-store"
