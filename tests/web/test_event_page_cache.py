"""Issue 32: the event's page and its projector board are rendered once per change of the event
and served to every phone in the room, never stale, each with its own CSRF token and clock.

Each test runs the app on a real SQLite file with CSRF checked as served; every write goes
through the organiser's API or a table's game, as on club night.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from app.services.club import Events
from tests.conftest import fresh_database
from tests.web.conftest import soup
from tests.web.helpers import ADMIN, FB, Organiser, events_config, renders, tokens

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")


@pytest.fixture
def app(tmp_path: Path, migrated: Path) -> Flask:
    database = fresh_database(migrated, tmp_path / "muster.sqlite")
    return create_app(events_config(database, WTF_CSRF_ENABLED=True))


def paired_event(app: Flask, **extra: Any) -> Organiser:
    """Six players signed up and round 1 paired, sign-up still open."""
    client = app.test_client()
    body = {"name": "Club night", "pack": FB, "points_limit": 500, "rounds": 3, **extra}
    made = client.post("/api/v1/events", json=body, headers=ADMIN)
    assert made.status_code == 201, made.json
    org = Organiser(client, made.json)
    org.players = {}  # type: ignore[attr-defined]
    for name in NAMES:
        added = org.add(name)
        org.players[added["player"]] = added  # type: ignore[attr-defined]
    org.post("/rounds", status=201)
    return org


def board(client: FlaskClient, org: Organiser) -> Any:
    return soup(client.get(f"/events/{org.id}/board"))


def standings(page: Any) -> list[tuple[str, str]]:
    """Each standings row's name and its tournament points, top first."""
    return [(r.select("td")[1].text, r.select("td")[3].text) for r in page.select(".standings tbody tr")]


def test_the_board_and_the_event_page_are_rendered_once_for_the_room(app: Flask) -> None:
    org = paired_event(app)
    phones = [app.test_client() for _ in range(3)]
    first = board(phones[0], org)
    assert len(first.select(".pairings tbody tr")) == 3
    page = phones[0].get(f"/events/{org.id}")
    with renders(app) as seen:
        boards = [board(p, org) for p in phones]
        pages = [p.get(f"/events/{org.id}") for p in phones]
    assert seen == []  # kept: one rendering each served the room
    assert all(str(b.select_one("#board")) == str(first.select_one("#board")) for b in boards)
    assert all(standings(soup(p)) == standings(soup(page)) for p in pages)
    # Each phone's page holds its own session's token, and it signs up with it.
    held = [tokens(p) for p in pages]
    assert all(len(t) == 1 for t in held) and len(set().union(*held)) == 3
    token = held[2].pop()
    signed = phones[2].post(f"/events/{org.id}/signup", data={"csrf_token": token, "name": "Gus"})
    assert signed.status_code == 303
    assert "Gus" in [name for name, _ in standings(board(phones[0], org))]


def test_the_kept_board_shows_every_write_to_the_event(app: Flask) -> None:
    org = paired_event(app)
    watcher = app.test_client()
    assert board(watcher, org).select_one(".board-signup") is not None
    table = org.get("/rounds/1")["pairings"][0]
    winner = table["players"][0]
    org.post("/results", {"round": 1, "table": table["table"], "winner": winner, "vp": [20, 10]}, 201)
    org.post("/results/confirm", {"round": 1, "table": table["table"]}, 200)
    top = standings(board(watcher, org))[0]
    assert top == (table["names"][0], "3")
    # A player dropped, sign-up closed: each shows on the next read of the kept board.
    dropped = table["players"][1]
    org.post(f"/players/{dropped}", {"dropped": True}, 200)
    event_page = soup(watcher.get(f"/events/{org.id}"))
    assert "dropped" in event_page.select(".standings tbody tr")[-1].text.lower()
    org.post("/signup", {"open": False}, 200)
    assert board(watcher, org).select_one(".board-signup") is None
    assert soup(watcher.get(f"/events/{org.id}")).select_one("form.signup-form") is None


def test_a_game_finished_at_a_table_shows_on_the_kept_board(app: Flask) -> None:
    """The result of a game played on Muster reaches the board without the organiser's hand."""
    org = paired_event(app)
    watcher = app.test_client()
    table = org.get("/rounds/1")["pairings"][0]
    before = _row(board(watcher, org), table)
    # The first player's phone opens their table's game and ends it: the opponent is wiped out.
    phone = org.client.get(org.players[table["players"][0]]["url"])
    token = soup(phone).select_one("a.button.primary")["href"].rsplit("/", 1)[1]
    ended = org.client.post(
        f"/api/v1/games/{table['game']}/events",
        json={"id": str(uuid.uuid4()), "type": "round", "round": 1, "players": [{}, {"wiped_out": True}]},
        headers={"X-Edit-Token": token},
    )
    assert ended.status_code == 201, ended.json
    after = _row(board(watcher, org), table)
    assert after != before
    assert org.get("/rounds/1")["pairings"][0]["result"]["source"] == "game"


def _row(page: Any, table: dict[str, Any]) -> str:
    """The text of a table's row on the board's pairings."""
    rows = [r.text for r in page.select(".pairings tbody tr") if table["names"][0] in r.text]
    assert len(rows) == 1
    return " ".join(rows[0].split())


def test_the_kept_board_ticks_its_clock_on_every_read(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    org = paired_event(app, round_minutes=90)
    org.post("/rounds/1/start", status=200)
    left = {"seconds": 3600}  # the round's time left as the server's clock reads it
    monkeypatch.setattr(Events, "time_left", lambda self, snap, now=None: left["seconds"])
    watcher = app.test_client()
    with renders(app) as seen:
        assert board(watcher, org).select_one(".time-left").text == "1:00:00"
        left["seconds"] = 61
        assert board(watcher, org).select_one(".time-left").text == "1:01"
        left["seconds"] = 0
        assert board(watcher, org).select_one(".time-left").text == "time is up"
    assert seen.count("club/board.html") == 1  # the second read was kept, its clock filled in anew


def test_the_kept_board_is_in_each_projectors_language(app: Flask) -> None:
    org = paired_event(app)
    texts: dict[str, set[str]] = {}
    for language in ("en", "de", "en", "de"):
        page = app.test_client().get(f"/events/{org.id}/board", headers={"Accept-Language": language})
        texts.setdefault(language, set()).add(soup(page).select_one("#board-standings-h").text)
    assert texts == {"en": {"Standings"}, "de": {"Tabelle"}}
