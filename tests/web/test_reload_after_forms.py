"""Reloading after a form's answer never gives "GET is not allowed here" (issue 24 item 2).

A phone reloads a tab after the player switches apps. htmx puts the address a boosted form
was posted to in the history; each answer shown in place now names the address a reload
opens (``HX-Push-Url``): the form again with its draft. The list-import preview is a post,
redirect, get of a kept draft. Any POST-only address opened with GET goes to its screen.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from tests.conftest import fresh_database
from tests.setups import new_game, new_game_form
from tests.web.conftest import csrf_token, soup

BOOSTED = {"HX-Request": "true", "HX-Boosted": "true"}
PASSWORD = "reload-pw"


@pytest.fixture
def app(tmp_path: Path, migrated: Path) -> Flask:
    return create_app(
        {
            "DATABASE": str(fresh_database(migrated, tmp_path / "muster.sqlite")),
            "TESTING": True,
            "SECRET_KEY": "test",
            "ADMIN_PASSWORD": PASSWORD,
            "EVENT_SEED": 7,
        }
    )


def _reload(client: FlaskClient, answer: Any) -> Any:
    """What a reload of the phone's address shows after this answer: a GET of the address htmx
    put in the history (the pushed one, else the one the form was posted to)."""
    address = answer.headers.get("HX-Push-Url") or urlsplit(answer.request.url).path
    return client.get(address, follow_redirects=True)


@pytest.mark.parametrize(
    ("posted", "screen"),
    [
        ("/games", "/games/new"),
        ("/games/new/roll", "/games/new"),
        ("/rosters/import/preview", "/rosters/import"),
        ("/rosters/import/save", "/rosters/import"),
        ("/admin/login", "/admin"),
        ("/events/new", "/events/new"),
    ],
)
def test_a_form_address_opened_with_get_opens_its_screen(
    client: FlaskClient, posted: str, screen: str
) -> None:
    answer = client.get(posted)
    assert answer.status_code in (200, 303, 403), answer.status_code
    assert answer.status_code != 405
    if answer.status_code == 303:
        assert urlsplit(answer.headers["Location"]).path == screen


def test_a_game_form_address_opened_with_get_opens_the_game(client: FlaskClient) -> None:
    game = new_game(client)
    for posted in ("events", "armies", "terrain/pieces", "seize", "deploy-roll"):
        answer = client.get(f"/games/{game['id']}/{posted}")
        assert answer.status_code == 303, posted
        assert answer.headers["Location"] in (f"/games/{game['id']}", f"/games/{game['id']}/terrain")
    # The JSON API keeps its plain 405: a club tool wants to know.
    assert client.get("/api/v1/terrain/check").status_code == 405


def test_a_refused_new_game_reloads_as_the_form_with_its_draft(client: FlaskClient) -> None:
    form = new_game_form(csrf_token(client, "/games/new"), names=("Ann", ""))
    answer = client.post("/games", data=form, headers=BOOSTED)
    assert answer.status_code == 422
    again = _reload(client, answer)
    assert again.status_code == 200
    page = soup(again)
    assert page.select_one("h1").text == "New game"
    assert page.select_one("#name0")["value"] == "Ann"
    assert page.select_one('#scenario option[value="savage-gains"]').has_attr("selected")
    assert page.select_one("#strategy1 option[selected]")["value"] == form["strategy1"]
    assert page.select_one('#first-side input[value="1"]').has_attr("checked")


def test_a_refused_entry_on_the_game_screen_reloads_as_the_game(client: FlaskClient) -> None:
    game = new_game(client)
    client.get(f"/games/{game['id']}/join/{game['edit_token']}")
    token = csrf_token(client, f"/games/{game['id']}")
    # Round 2 before round 1: refused, with the game page (a boosted form's answer).
    answer = client.post(
        f"/games/{game['id']}/events",
        data={
            "csrf_token": token,
            "id": "b3a7d4c2-0d5e-4a63-9a55-4b6f8a2f0c11",
            "type": "battle_round",
            "round": "2",
        },
        headers=BOOSTED,
    )
    assert answer.status_code == 422
    again = _reload(client, answer)
    assert again.status_code == 200 and soup(again).select_one("#game") is not None


def test_the_import_preview_is_kept_and_a_reload_shows_the_list_and_its_fixes(client: FlaskClient) -> None:
    text = "Allegiance: Seraphon\n\nLeaders\nLord Kroak (430)\n- General\nSkinks 70 points\n\nTotal: 430 / 1000\n"
    csrf = csrf_token(client, "/rosters/import")
    answer = client.post(
        "/rosters/import/preview", data={"csrf_token": csrf, "pack": "aos-ghb-2021", "text": text}
    )
    assert answer.status_code == 303
    draft = answer.headers["Location"]
    assert draft.startswith("/rosters/import/drafts/")
    first = soup(client.get(draft))
    assert first.select_one("#text").text == text
    unread = first.select_one(".unread input[name^='fix_']")
    # The player fixes the line and reads the list again: a new draft, which a reload shows again.
    fixed = {"csrf_token": csrf, "pack": "aos-ghb-2021", "text": text, unread["name"]: "Skinks (70)"}
    again = client.post("/rosters/import/preview", data=fixed)
    reloaded = soup(client.get(again.headers["Location"]))
    assert "Skinks" in reloaded.select_one(".import-entries").text
    assert reloaded.select(".unread") == []
    assert (
        soup(client.get(again.headers["Location"])).select_one("#text").text
        == reloaded.select_one("#text").text
    )
    # Saving with a line still unread comes back to the kept list, saying which.
    refused = client.post(
        "/rosters/import/save", data={"csrf_token": csrf, "pack": "aos-ghb-2021", "text": text}
    )
    assert refused.status_code == 303
    page = client.get(refused.headers["Location"])
    assert page.status_code == 422
    assert soup(page).select_one("#form-error").text.startswith("Line 6 is still unread")
    assert soup(page).select_one("#text").text == text
    # A draft past its day (or never made) says so in a sentence and offers the form.
    gone = client.get("/rosters/import/drafts/no-such-draft-aaaaaaaa")
    assert gone.status_code == 404
    assert "paste it or choose its file again" in soup(gone).select_one("#form-error").text
    assert soup(gone).select_one("#text") is not None


def _event_with_a_round(client: FlaskClient) -> tuple[str, str]:
    made = client.post(
        "/api/v1/events",
        json={"name": "Club night", "pack": "conquest-first-blood", "points_limit": 500, "rounds": 3},
        headers={"Authorization": f"Bearer {PASSWORD}"},
    ).json
    org = {"X-Organiser-Token": made["organiser_token"]}
    for name in ("Ann", "Bo"):
        client.post(f"/api/v1/events/{made['id']}/players", json={"name": name}, headers=org)
    assert client.post(f"/api/v1/events/{made['id']}/rounds", headers=org).status_code == 201
    client.get(f"/events/{made['id']}/organiser/{made['organiser_token']}")
    return made["id"], f"/events/{made['id']}/console"


def test_a_refused_result_row_reloads_as_the_console_with_the_row_typed(client: FlaskClient) -> None:
    _event_id, console = _event_with_a_round(client)
    token = csrf_token(client, console)
    row = {"csrf_token": token, "round": "1", "table": "1", "vp_a": "12", "vp_b": "twelve"}
    answer = client.post(f"{console}/result", data=row, headers=BOOSTED)
    assert answer.status_code == 422
    page = soup(_reload(client, answer))
    assert page.select_one("h1").text.endswith(": console")
    typed = page.select_one("#result-1")
    assert typed.select_one('input[name="vp_a"]')["value"] == "12"
    assert typed.select_one('input[name="vp_b"]')["value"] == "twelve"


def test_a_refused_new_roster_and_event_reload_with_what_was_typed(client: FlaskClient) -> None:
    form = {"csrf_token": csrf_token(client, "/rosters/new"), "pack": "aos-ghb-2021", "name": "Hammerfest"}
    answer = client.post(
        "/rosters", data={**form, "points_limit": "lots", "points_preset": ""}, headers=BOOSTED
    )
    assert answer.status_code == 422
    assert soup(_reload(client, answer)).select_one("#name")["value"] == "Hammerfest"
    client.post("/admin/login", data={"csrf_token": csrf_token(client, "/admin"), "password": PASSWORD})
    event = {"csrf_token": csrf_token(client, "/events/new"), "name": "Winter league", "pack": "nope"}
    answer = client.post("/events/new", data={**event, "points_limit": "500", "rounds": "3"}, headers=BOOSTED)
    assert answer.status_code == 422
    assert soup(_reload(client, answer)).select_one('input[name="name"]')["value"] == "Winter league"


def test_a_refused_roster_file_reloads_as_the_new_roster_form(client: FlaskClient) -> None:
    csrf = csrf_token(client, "/rosters/new")
    answer = client.post(
        "/rosters/import", data={"csrf_token": csrf, "json": "not a roster"}, headers=BOOSTED
    )
    assert answer.status_code == 422
    page = soup(_reload(client, answer))
    assert page.select_one("h1").text == "New roster"
