"""What the web tests share: games with seats (Triumph & Treachery, a siege), the club admin,
club events, htmx posts, and a club's own packs."""

from __future__ import annotations

import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask, template_rendered
from flask.testing import FlaskClient

from tests.conftest import ROOT
from tests.web.conftest import csrf_token, parsed, soup

# --- games with seats ---------------------------------------------------------------------
TREACHERY = "tow-triumph-treachery"
UNBOUND = "aos-conquest-unbound"
NAMES = ("Ann", "Bo", "Cy")


def body(players: tuple[str, ...] = NAMES, scenario: str = "altar-of-the-gods") -> dict[str, Any]:
    """A Triumph & Treachery game's set-up as the API takes it."""
    return {
        "pack": TREACHERY,
        "scenario": scenario,
        "points_limit": 2000,
        "players": [{"name": name} for name in players],
    }


def made(client: FlaskClient, players: tuple[str, ...] = NAMES) -> dict[str, Any]:
    answer = client.post("/api/v1/games", json=body(players))
    assert answer.status_code == 201, answer.json
    return {**answer.json, "creator": client}


def post(client: FlaskClient, game: dict[str, Any], event: dict[str, Any], **headers: str) -> Any:
    """Record one event through the API with the headers given (edit= / seat=)."""
    sent = {}
    if "edit" in headers:
        sent["X-Edit-Token"] = headers["edit"]
    if "seat" in headers:
        sent["X-Seat-Token"] = headers["seat"]
    return client.post(
        f"/api/v1/games/{game['id']}/events", json={"id": str(uuid.uuid4()), **event}, headers=sent
    )


def seat(game: dict[str, Any], player: int) -> str:
    return game["seats"][player]["token"]


def phone(app: Flask, game: dict[str, Any], who: str | int | None) -> FlaskClient:
    """A phone: the table's (the phone that made the game, ``"table"``, with the join link's
    cookie too), another phone that joined by the join link (``"joined"``), a seat's (by its
    link) or a watcher's."""
    client = game["creator"] if who == "table" else app.test_client()
    if who in ("table", "joined"):
        assert client.get(f"/games/{game['id']}/join/{game['edit_token']}").status_code == 303
    elif who is not None:
        link = game["seats"][who]["url"].split("localhost", 1)[1]
        assert client.get(link).status_code == 303
    return client


def catalogue_free(html: bytes) -> str:
    """A page's text with the pack's list of ploys to buy (public, on every seat) taken out."""
    page = parsed(html)
    for listed in page.select("[data-catalogue]"):
        listed.decompose()
    return str(page)


def siege(client: FlaskClient) -> dict[str, Any]:
    answer = client.post(
        "/api/v1/games",
        json={
            "pack": UNBOUND,
            "scenario": "the-relief-force",
            "points_limit": 2000,
            "players": [{"name": "Ann", "side": "attacker"}, {"name": "Bo", "side": "defender"}],
        },
    )
    assert answer.status_code == 201, answer.json
    assert [s["player"] for s in answer.json["seats"]] == [0, 1]
    return {**answer.json, "creator": client}


def tactic(client: FlaskClient, game: dict[str, Any], player: int, die: int, **headers: str) -> Any:
    return post(client, game, {"type": "siege_tactic", "player": player, "tactic": die}, **headers)


# --- htmx ---------------------------------------------------------------------------------
def htmx_post(client: FlaskClient, url: str, **data: Any) -> Any:
    """Post a form as htmx does, with a fresh entry id."""
    return client.post(url, data={"id": str(uuid.uuid4()), **data}, headers={"HX-Request": "true"})


# --- club events ------------------------------------------------------------------------------
EVENTS_PASSWORD = "club-night-pw"


ADMIN = {"Authorization": f"Bearer {EVENTS_PASSWORD}"}


def events_config(database: Path, **extra: Any) -> dict[str, Any]:
    """An app's settings for club events: the admin password the API's bearer is, repeatable draws."""
    return {
        "DATABASE": str(database),
        "TESTING": True,
        "SECRET_KEY": "test",
        "ADMIN_PASSWORD": EVENTS_PASSWORD,
        "EVENT_SEED": 7,
        **extra,
    }


FB = "conquest-first-blood"


# A First Blood list of 270 points: its Character Regiment and one regiment.
FB_LIST = {
    "pack": FB,
    "name": "Hold the line",
    "points_limit": 500,
    "faction": "Hundred Kingdoms",
    "entries": [
        {"name": "Marshal", "kind": "character", "points": 120, "models": 1},
        {"name": "Men-at-Arms", "kind": "regiment", "type": "infantry", "points": 150, "models": 4},
    ],
}


class Organiser:
    """The organiser's API calls for one event."""

    def __init__(self, client: FlaskClient, event: dict[str, Any]) -> None:
        self.client, self.id = client, event["id"]
        self.headers = {"X-Organiser-Token": event["organiser_token"]}

    def post(self, path: str, body: Any = None, status: int | None = None) -> Any:
        answer = self.client.post(f"/api/v1/events/{self.id}{path}", json=body or {}, headers=self.headers)
        if status is not None:
            assert answer.status_code == status, answer.json
        return answer

    def add(self, name: str, club: str | None = None) -> dict[str, Any]:
        return self.post("/players", {"name": name, "club": club}, 201).json

    def get(self, path: str = "") -> Any:
        return self.client.get(f"/api/v1/events/{self.id}{path}").json


# --- a club's own packs -------------------------------------------------------------------------


def rolling_club_packs(folder: Path) -> Path:
    """The installed packs, with a club's Conquest Unbound that rolls a D6 for one of its two
    two-player battleplans (The Relief Force is 1, Tunnel Wars 2, any other number is rolled
    again): a roll always picks a scenario seated otherwise than the pack's three to six."""
    shutil.copytree(ROOT / "rulepacks", folder)
    pack = folder / f"{UNBOUND}.yaml"
    text = pack.read_text().replace(
        "system: treachery\n",
        "system: treachery\nscenario_roll: {summary: A D6 for a two-player night; past 2 roll again., die: 6}\n",
        1,
    )
    for number, name in ((1, "The Relief Force"), (2, "Tunnel Wars")):
        text = text.replace(f"    name: {name}\n", f"    name: {name}\n    number: {number}\n", 1)
    pack.write_text(text)
    return folder


def roster_csrf(client: FlaskClient) -> str:
    """A CSRF token for the roster screens' forms."""
    return csrf_token(client, "/rosters/new")


def new_roster(client: FlaskClient, **form: Any) -> str:
    """A Pitched Battles roster made on the new-roster screen (``form`` overrides its fields);
    the address of its editor."""
    data = {
        "csrf_token": roster_csrf(client),
        "pack": "aos-ghb-2021",
        "name": "Hammerfest",
        "points_preset": "1000",
        "faction": "Seraphon",
        "grand_strategy": "beast-master",
        **form,
    }
    response = client.post("/rosters", data=data)
    assert response.status_code == 303
    return response.headers["Location"]


# --- the page cache -----------------------------------------------------------------------------
@contextmanager
def renders(app: Flask) -> Iterator[list[str]]:
    """The names of the templates rendered while the block runs."""
    seen: list[str] = []

    def record(sender: Any, template: Any, context: Any, **extra: Any) -> None:
        seen.append(template.name)

    with template_rendered.connected_to(record, app):
        yield seen


def tokens(page: Any) -> set[str]:
    """Every CSRF token a page holds: its forms' and the one htmx sends."""
    html = soup(page)
    found = {i["value"] for i in html.select('input[name="csrf_token"]')}
    found.add(html.select_one('meta[name="csrf-token"]')["content"])
    return found
