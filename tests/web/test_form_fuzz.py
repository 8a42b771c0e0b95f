"""Every form on every screen, every field given hostile values: never a 500.

The API has its own fuzz (test_openapi.py); the screens read forms with their own code, so
they get theirs: each form a player can reach is submitted once per field per hostile value,
with the other fields as the page filled them in.
"""

from __future__ import annotations

from typing import Any

import pytest
from bs4 import BeautifulSoup
from flask.testing import FlaskClient

from tests.setups import join, new_game, seraphon_roster, terrain_game
from tests.web.conftest import Api, csrf_token, soup

# Each reaches a different mistake: a digit int() refuses, more digits than int() reads, floats
# that are not numbers, a number too large for a float, a negative, text far too long.
HOSTILE = ("²", "9" * 5000, "nan", "1e400", "-1", "x" * 3000)


def _forms(page: BeautifulSoup) -> list[tuple[str, dict[str, str]]]:
    """Each POST form on the page: its action and the values the page filled in."""
    found = []
    # Forms, and the live parts of a form that post on their own (the seizing calculator).
    for form in page.select("form, [hx-post]"):
        action = form.get("hx-post") or form.get("action")
        if (
            form.name == "form"
            and (form.get("method") or "get").lower() != "post"
            and not form.get("hx-post")
        ):
            continue
        if not action or action.startswith("/admin"):
            continue
        data: dict[str, str] = {}
        for field in form.select("input, select, textarea"):
            name = field.get("name")
            if not name or field.get("type") == "file":
                continue
            if field.name == "select":
                option = field.select_one("option[selected]") or field.select_one("option")
                data[name] = option.get("value", option.text) if option else ""
            elif field.get("type") in ("checkbox", "radio"):
                if field.has_attr("checked") or name not in data:
                    data[name] = field.get("value", "on")
            elif field.name == "textarea":
                data[name] = field.text
            else:
                data[name] = field.get("value", "")
        found.append((action, data))
    return found


@pytest.fixture
def screens(app, client: FlaskClient) -> list[str]:
    """Pages of every kind, each holding forms, seen by a phone that may edit them all."""
    aos = new_game(client)
    join(client, aos)
    Api(client, aos).ok({"type": "battle_round", "round": 1, "first": 0})
    fb, terrain = terrain_game(client)
    csrf = csrf_token(client, terrain)
    client.post(f"{terrain}/seat", data={"csrf_token": csrf, "seat": "0"})
    client.post(f"{terrain}/pieces", data={"csrf_token": csrf, "preset": "forest", "name": "Forest"})
    roster = client.post("/api/v1/rosters", json=seraphon_roster()).json
    client.get(roster["edit_url"])
    edit = soup(client.get(f"/rosters/{roster['id']}")).select_one('a[href$="/edit"]')["href"]
    return [
        "/games/new",
        f"/games/{aos['id']}",
        f"/games/{fb['id']}",
        terrain,
        "/rosters/new",
        edit,  # before the roster's own forms, whose Remove buttons take the entry away
        f"/rosters/{roster['id']}",
    ]


def test_no_form_field_can_make_a_500(client: FlaskClient, screens: list[str]) -> None:
    # Every hostile value reaches the form's own code, not the per-address limit (test_limits.py).
    client.application.config.update(LIMIT_GAMES=0, LIMIT_ROSTERS=0, LIMIT_IMPORTS=0, LIMIT_TERRAIN=0)
    sent = 0
    reached: set[str] = set()
    tried: set[tuple[str, frozenset[str]]] = set()
    for screen in screens:
        page = client.get(screen)
        assert page.status_code == 200, screen
        for action, defaults in _forms(soup(page)):
            # One of each form: a roster's Remove button is the same code for every entry.
            ids = (
                "*" if len(p) >= 8 and any(c.isdigit() for c in p) else p
                for p in action.split("?")[0].split("/")
            )
            shape = ("/".join(ids), frozenset(defaults))
            if shape in tried:
                continue
            tried.add(shape)
            reached.add(action.split("?")[0])
            for name in defaults:
                if name == "csrf_token":
                    continue
                for value in HOSTILE:
                    data: dict[str, Any] = {**defaults, name: value}
                    answer = client.post(action, data=data, headers={"HX-Request": "true"})
                    sent += 1
                    assert answer.status_code < 500, f"{action} {name}={value[:20]!r}: {answer.status_code}"
    print(f"{sent} hostile form posts to {len(reached)} form actions on {len(screens)} screens")
    # The forms worth attacking were found: recording, rosters, terrain, seizing, armies.
    kinds = {a.rsplit("/", 1)[-1] for a in reached}
    assert {"events", "entries", "pieces", "seize", "armies", "line-of-sight", "details"} <= kinds
    assert sent > 1000
