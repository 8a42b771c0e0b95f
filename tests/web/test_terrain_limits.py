"""Issue 12: one phone must not spoil the terrain screens for the others.

Each test replays an attack from the report (a flood of pieces, a huge library, a position of
1e308, a made-up piece uid, someone else's preset overwritten, one phone agreeing as both)
and checks that it now fails to do harm.
"""

from __future__ import annotations

import io
import json
import uuid
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from app import create_app
from app.store import Store
from tests.conftest import fresh_database
from tests.setups import second_phone, terrain_game
from tests.web.conftest import csrf_token, soup
from tests.web.helpers import htmx_post

PASSWORD = "club-night-secret"


def stack(app: Flask, game_id: str, count: int) -> None:
    """Put ``count`` 2"x2" pieces on one spot of the game's set, straight into its SQLite file."""
    db = Store(app.config["DATABASE"])
    try:
        set_id = db.terrain.get_or_create_set(game_id, "conquest-first-blood")
        piece = {"name": "Rock", "kind": "zonal", "size": 1, "footprint": [2, 2], "x": 20, "y": 20}
        entries = [
            (str(uuid.uuid4()), "piece", {"piece_uid": f"rock{i}", "piece": {**piece, "name": f"Rock {i}"}})
            for i in range(count)
        ]
        db.terrain.append(set_id, entries, lambda events: None)
    finally:
        db.close()


def test_the_sixty_first_piece_is_refused(app, client):
    made, url = terrain_game(client)
    stack(app, made["id"], 60)
    answer = htmx_post(client, f"{url}/pieces", csrf_token=csrf_token(client, url), preset="Forest")
    assert answer.status_code == 422
    assert soup(answer).select_one("#error").text == (
        "A terrain set holds at most 60 pieces and this one is full; remove a piece before adding another."
    )
    assert len(client.get(f"/api/v1/games/{made['id']}/terrain").json["pieces"]) == 60


def test_sixty_stacked_pieces_give_one_line_per_piece_and_a_linear_page(app, client):
    sizes = {}
    for count in (20, 60):
        made, url = terrain_game(client)
        stack(app, made["id"], count)
        api = client.get(f"/api/v1/games/{made['id']}/terrain").json
        gaps = [p for p in api["problems"] if p["rule"] == "min-gap"]
        # 1,770 close pairs among 60 pieces; one line for each piece after the first.
        assert len(gaps) == count - 1
        assert all(len(p["pieces"]) == 2 for p in gaps)
        page = client.get(url)
        assert page.status_code == 200
        assert len(soup(page).select(".problems li[data-rule='min-gap']")) == count - 1
        sizes[count] = len(page.data)
    # Three times the pieces, about three times the page (n² would be nine times).
    assert sizes[60] < 3.6 * sizes[20], sizes


def test_the_terrain_card_of_sixty_stacked_pieces_lists_each_piece_once(app, client):
    made, url = terrain_game(client)
    stack(app, made["id"], 60)
    pdf = client.get(f"{url}/card.pdf")
    assert pdf.status_code == 200
    pages = PdfReader(io.BytesIO(pdf.data)).pages
    text = " ".join(" ".join(p.extract_text().split()) for p in pages)
    assert text.count('pieces stand at least 3" apart') == 59, text[:3000]


def test_a_saved_set_over_the_limit_is_refused_in_one_request(app, client):
    """The report loaded a 200-piece library (17 s, then 72 s); now one request refuses it."""
    made, url = terrain_game(client)
    # A set saved before the limit existed, owned by the club so every phone is offered it.
    db = Store(app.config["DATABASE"])
    piece = {"name": "Rock", "kind": "zonal", "size": 1, "footprint": [2, 2], "x": 20, "y": 20}
    db.db["terrain_library"].insert(
        {
            "id": "big",
            "pack": "conquest-first-blood",
            "owner": "club",
            "name": "Flood",
            "pieces": json.dumps([piece] * 200),
            "created": "2026-12-01T18:00:00.000Z",
        }
    )
    db.close()
    answer = htmx_post(client, f"{url}/library/big", csrf_token=csrf_token(client, url))
    assert answer.status_code == 422
    assert "at most 60 pieces" in soup(answer).select_one("#error").text
    assert client.get(f"/api/v1/games/{made['id']}/terrain").json["pieces"] == []


def test_a_saved_set_loads_as_one_write(app, client):
    made, url = terrain_game(client)
    stack(app, made["id"], 40)
    token = csrf_token(client, url)
    assert htmx_post(client, f"{url}/library", csrf_token=token, name="Forty rocks").status_code == 200
    other, other_url = terrain_game(client, "raid")
    page = soup(client.get(other_url))
    form = next(f for f in page.select("form") if "Forty rocks" in f.text)
    # A double tap on the same form (one id) adds the pieces once.
    tap = {"csrf_token": token, "id": form.select_one('input[name="id"]')["value"]}
    for _ in range(2):
        loaded = client.post(form["action"], data=tap, headers={"HX-Request": "true"})
        assert loaded.status_code == 200 and len(soup(loaded).select(".piece-entry")) == 40
    db = Store(app.config["DATABASE"])
    times = {e["at"] for e in db.terrain.events(db.terrain.find_set(other["id"]))}
    db.close()
    assert len(times) == 1  # forty events, one transaction
    # 40 + 40 would pass the limit: another load is refused whole.
    again = htmx_post(client, form["action"], csrf_token=token)
    assert again.status_code == 422
    assert len(client.get(f"/api/v1/games/{other['id']}/terrain").json["pieces"]) == 40


@pytest.mark.parametrize(
    ("x", "y"), [("1e308", "10"), ("10", "-1e308"), ("inf", "1"), ("nan", "1"), ("49", "10"), ("10", "-0.5")]
)
def test_a_move_off_the_table_is_a_sentence_not_a_500(client, x, y):
    _made, url = terrain_game(client)
    token = csrf_token(client, url)
    uid = soup(htmx_post(client, f"{url}/pieces", csrf_token=token, preset="Hill")).select_one(
        ".piece-entry"
    )["data-uid"]
    answer = htmx_post(client, f"{url}/pieces/{uid}/move", csrf_token=token, x=x, y=y)
    assert answer.status_code == 422
    assert soup(answer).select_one("#error").text == (
        "x and y must be inches on the table: x from 0 to 48, y from 0 to 48."
    )
    assert htmx_post(client, f"{url}/pieces/{uid}/move", csrf_token=token, x="48", y="0").status_code == 200


def test_a_typed_position_far_off_the_table_is_refused(client):
    _made, url = terrain_game(client)
    answer = htmx_post(
        client, f"{url}/pieces", csrf_token=csrf_token(client, url), name="Far", x="1e308", y="1"
    )
    assert answer.status_code == 422 and "piece.x" in soup(answer).select_one("#error").text


@pytest.mark.parametrize("action", ["", "/move", "/remove", "/agree", "/mysterious"])
def test_a_made_up_piece_uid_is_a_404(client, action):
    made, url = terrain_game(client)
    answer = htmx_post(
        client,
        f"{url}/pieces/not-a-piece{action}",
        csrf_token=csrf_token(client, url),
        name="Ghost",
        x="1",
        y="1",
        player="0",
    )
    assert answer.status_code == 404
    assert client.get(f"/api/v1/games/{made['id']}/terrain").json["pieces"] == []
    assert client.get(f"{url}/pieces/not-a-piece/edit").status_code == 404


# --- what a phone saves is its own ---------------------------------------------------------------
def test_a_preset_is_kept_on_the_phone_that_saved_it(app, client):
    made, url = terrain_game(client)
    htmx_post(
        client,
        f"{url}/pieces",
        csrf_token=csrf_token(client, url),
        name="Club Forest",
        size="3",
        save_preset="on",
    )
    stranger = second_phone(app, made)
    surl = url
    # The stranger's "Club Forest" is theirs; it does not replace the first phone's.
    htmx_post(
        stranger,
        f"{surl}/pieces",
        csrf_token=csrf_token(stranger, surl),
        name="Club Forest",
        size="0",
        save_preset="on",
    )
    _other, other_url = terrain_game(client, "raid")
    htmx_post(client, f"{other_url}/pieces", csrf_token=csrf_token(client, other_url), preset="Club Forest")
    sizes = [p["size"] for p in client.get(f"/api/v1/games/{_other['id']}/terrain").json["pieces"]]
    assert sizes == [3]
    # A third phone that saved nothing is offered neither.
    third = second_phone(app, made)
    assert "+ Club Forest" not in [b.text for b in soup(third.get(url)).select(".quick-add button")]


def test_a_flood_of_presets_stays_on_its_phone_and_is_capped(app, client):
    made, url = terrain_game(client)
    token = csrf_token(client, url)
    answers = [
        htmx_post(client, f"{url}/pieces", csrf_token=token, name=f"Spam {i}", save_preset="on").status_code
        for i in range(22)
    ]
    assert answers == [200] * 20 + [422] * 2
    mine = [b.text for b in soup(client.get(url)).select(".quick-add button") if "Spam" in b.text]
    assert len(mine) == 20
    other = second_phone(app, made)
    assert not [b.text for b in soup(other.get(url)).select(".quick-add button") if "Spam" in b.text]


def test_a_saved_set_is_offered_only_to_its_phone(app, client):
    made, url = terrain_game(client)
    token = csrf_token(client, url)
    htmx_post(client, f"{url}/pieces", csrf_token=token, preset="Forest")
    htmx_post(client, f"{url}/library", csrf_token=token, name="Table 3")
    lib = next(f for f in soup(client.get(url)).select("form") if "Table 3" in f.text)["action"]
    other = second_phone(app, made)
    assert not [f for f in soup(other.get(url)).select("form") if "Table 3" in f.text]
    assert htmx_post(other, lib, csrf_token=csrf_token(other, url)).status_code == 404


# --- club-wide presets are the admin's -------------------------------------------------------------
@pytest.fixture
def club(tmp_path: Path, migrated: Path) -> Flask:
    return create_app(
        {
            "DATABASE": str(fresh_database(migrated, tmp_path / "muster.sqlite")),
            "TESTING": True,
            "SECRET_KEY": "test",
            "ADMIN_PASSWORD": PASSWORD,
        }
    )


def _admin(club: Flask) -> FlaskClient:
    admin = club.test_client()
    token = csrf_token(admin, "/admin")
    admin.post("/admin/login", data={"csrf_token": token, "password": PASSWORD})
    return admin


def test_club_presets_are_an_admin_action(club):
    admin = _admin(club)
    token = csrf_token(admin, "/admin")
    added = admin.post(
        "/admin/terrain/conquest-first-blood/presets",
        data={
            "csrf_token": token,
            "name": "Club Ruin",
            "kind": "zonal",
            "size": "2",
            "keywords": "obstructing, cover",
            "footprint_w": "6",
            "footprint_h": "4",
        },
    )
    assert added.status_code == 303
    assert "Club Ruin" in soup(admin.get("/admin")).select_one("#terrain-h").parent.text
    refused = admin.post(
        "/admin/terrain/conquest-first-blood/presets",
        data={"csrf_token": token, "name": "Bad", "keywords": "lava"},
    )
    assert (
        refused.status_code == 422
        and "'lava' is not a terrain keyword" in soup(refused).select_one("#error").text
    )
    # Every phone is offered it, and a player cannot write club presets.
    player = club.test_client()
    made, url = terrain_game(player)
    assert "+ Club Ruin" in [b.text for b in soup(player.get(url)).select(".quick-add button")]
    ptoken = csrf_token(player, url)
    assert (
        player.post(
            "/admin/terrain/conquest-first-blood/presets", data={"csrf_token": ptoken, "name": "Mine"}
        ).status_code
        == 403
    )
    assert (
        player.post(
            "/admin/terrain/conquest-first-blood/presets/remove",
            data={"csrf_token": ptoken, "name": "Club Ruin"},
        ).status_code
        == 403
    )
    # A player's own preset of the same name stays theirs; the club's is unchanged for others.
    htmx_post(player, f"{url}/pieces", csrf_token=ptoken, name="Club Ruin", size="0", save_preset="on")
    other = second_phone(club, made)
    htmx_post(other, f"{url}/pieces", csrf_token=csrf_token(other, url), preset="Club Ruin")
    sizes = [p["size"] for p in player.get(f"/api/v1/games/{made['id']}/terrain").json["pieces"]]
    assert sizes == [0, 2]
    # The admin removes it.
    assert (
        admin.post(
            "/admin/terrain/conquest-first-blood/presets/remove",
            data={"csrf_token": token, "name": "Club Ruin"},
        ).status_code
        == 303
    )
    assert "+ Club Ruin" not in [b.text for b in soup(other.get(url)).select(".quick-add button")]


def test_an_admin_saves_a_set_for_the_whole_club(club):
    admin = _admin(club)
    _made, url = terrain_game(admin)
    token = csrf_token(admin, url)
    htmx_post(admin, f"{url}/pieces", csrf_token=token, preset="Hill")
    assert (
        htmx_post(admin, f"{url}/library", csrf_token=token, name="Club table 1", club="on").status_code
        == 200
    )
    player = club.test_client()
    _m, purl = terrain_game(player)
    buttons = [b.text for b in soup(player.get(purl)).select("details.card form button")]
    assert 'Add the pieces of "Club table 1" (1, club)' in buttons
    # A player asking for "club" gets a set on their own phone only.
    ptoken = csrf_token(player, purl)
    htmx_post(player, f"{purl}/pieces", csrf_token=ptoken, preset="Forest")
    htmx_post(player, f"{purl}/library", csrf_token=ptoken, name="Not the club's", club="on")
    stranger = club.test_client()
    _s, surl = terrain_game(stranger)
    assert not [
        b for b in soup(stranger.get(surl)).select("details.card form button") if "Not the club" in b.text
    ]


def test_an_admin_removes_a_club_set(club):
    admin = _admin(club)
    _made, url = terrain_game(admin)
    token = csrf_token(admin, url)
    htmx_post(admin, f"{url}/pieces", csrf_token=token, preset="Hill")
    htmx_post(admin, f"{url}/library", csrf_token=token, name="Club table 2", club="on")
    player = club.test_client()
    _m, purl = terrain_game(player)

    def offered() -> list[str]:
        return [
            b.text
            for b in soup(player.get(purl)).select("details.card form button")
            if "Club table" in b.text
        ]

    assert offered() == ['Add the pieces of "Club table 2" (1, club)']
    forms = soup(admin.get("/admin")).select('form[action*="/sets/"]')
    assert len(forms) == 1
    removed = admin.post(forms[0]["action"], data={"csrf_token": token})
    assert removed.status_code == 303
    assert not soup(admin.get("/admin")).select('form[action*="/sets/"]')
    assert offered() == []
    again = admin.post(forms[0]["action"], data={"csrf_token": token})
    assert again.status_code == 404


def test_a_set_keeps_at_most_a_thousand_changes(app, client):
    """A phone dragging a piece for ever cannot grow the log (and every page's replay) without end."""
    made, url = terrain_game(client)
    db = Store(app.config["DATABASE"])
    set_id = db.terrain.get_or_create_set(made["id"], "conquest-first-blood")
    moves = [
        (str(uuid.uuid4()), "piece", {"piece_uid": "rock", "piece": {"name": "Rock", "x": i % 40, "y": 5}})
        for i in range(1000)
    ]
    db.terrain.append(set_id, moves, lambda events: None)
    db.close()
    answer = htmx_post(client, f"{url}/pieces", csrf_token=csrf_token(client, url), preset="Hill")
    assert answer.status_code == 422
    assert soup(answer).select_one("#error").text == (
        "This terrain set has recorded 1,000 changes and keeps at most 1,000; start a new game for a new battlefield."
    )
    assert client.get(url).status_code == 200
