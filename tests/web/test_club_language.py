"""Club events in German and French: the organiser's console, a player's phone, the club API's
refusals and the printed standings speak the phone's language, and no English is left on the
club screens (the pseudo-language of tests/pseudo.py brackets every translated string)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import fresh_database
from tests.pdfs import pdf_text
from tests.web.conftest import csrf_token, soup
from tests.web.helpers import ADMIN, EVENTS_PASSWORD, FB, Organiser

NAMES = ("Ann", "Bo", "Cy")
EVENT = "Club night"


def _app(tmp_path: Path, migrated: Path, **config: Any) -> Flask:
    from app import create_app

    database = fresh_database(migrated, tmp_path / "muster.sqlite")
    settings = {
        "DATABASE": str(database),
        "TESTING": True,
        "SECRET_KEY": "test",
        "ADMIN_PASSWORD": EVENTS_PASSWORD,
        "EVENT_SEED": 7,
    }
    return create_app({**settings, **config})


@pytest.fixture
def app(tmp_path: Path, migrated: Path) -> Flask:
    return _app(tmp_path, migrated)


def _paired_event(client: FlaskClient) -> tuple[dict[str, Any], Organiser, dict[str, dict[str, Any]], Any]:
    """An event of three players with round 1 paired: the event, its organiser, each player's
    links by name, and the round's pairings."""
    body = {"name": EVENT, "pack": FB, "points_limit": 500, "rounds": 3}
    event = client.post("/api/v1/events", json=body, headers=ADMIN).json
    org = Organiser(client, event)
    players = {name: org.add(name) for name in NAMES}
    pairings = org.post("/rounds", status=201).json["pairings"]
    return event, org, players, pairings


def _seated(players: dict[str, dict[str, Any]], pairings: Any) -> dict[str, Any]:
    table = next(p for p in pairings if "table" in p)
    return next(links for links in players.values() if links["player"] in table["players"])


def _console(client: FlaskClient, event: dict[str, Any]) -> str:
    client.get(f"/events/{event['id']}/organiser/{event['organiser_token']}")
    return f"/events/{event['id']}/console"


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("de", ("Club night: Konsole", "Runde 1 starten", "Spieler hinzufügen", "Tabelle", "Ergebnisse")),
        ("fr", ("Club night : console", "Lancer la ronde 1", "Ajouter le joueur", "Classement", "Résultats")),
    ],
)
def test_the_organisers_console_speaks_the_phones_language(client: FlaskClient, code, words) -> None:
    event, _org, _players, _pairings = _paired_event(client)
    page = soup(client.get(_console(client, event), headers={"Accept-Language": code}))
    assert page.html["lang"] == code
    text = page.select_one("main").get_text(" ", strip=True)
    for word in words:
        assert word in text, (code, word)
    assert page.select_one("#standings-h").text == words[3]


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("de", ("Runde 1", "Tisch 1", "Ihr Gegner:", "Ihre Liste", "Turnierseite und Tabelle")),
        ("fr", ("Ronde 1", "Table 1", "Votre adversaire :", "Votre liste", "Page du tournoi et classement")),
    ],
)
def test_a_players_phone_speaks_the_phones_language(client: FlaskClient, code, words) -> None:
    _event, _org, players, pairings = _paired_event(client)
    me = _seated(players, pairings)
    page = soup(client.get(me["url"], headers={"Accept-Language": code}))
    text = page.select_one("main").get_text(" ", strip=True)
    for word in words:
        assert word in text, (code, word)


def test_a_club_refusal_comes_back_in_the_phones_language(client: FlaskClient) -> None:
    body = {"name": EVENT, "pack": FB, "points_limit": 500, "rounds": 3}
    event = client.post("/api/v1/events", json=body, headers=ADMIN).json
    result = {"round": 1, "table": 1, "winner": None, "vp": [3, 3]}
    said = {
        code: client.post(
            f"/api/v1/events/{event['id']}/results",
            json=result,
            headers={"X-Organiser-Token": event["organiser_token"], "Accept-Language": code},
        )
        for code in ("en", "de", "fr")
    }
    assert {answer.status_code for answer in said.values()} == {422}
    assert said["en"].json["error"] == "round: no round is paired yet."
    assert said["de"].json["error"] == "round: noch keine Runde gepaart."
    assert said["fr"].json["error"] == "round : aucune ronde n'est encore appariée."


def test_a_refusal_on_the_console_is_said_in_german(client: FlaskClient) -> None:
    event, _org, _players, pairings = _paired_event(client)
    console = _console(client, event)
    german = {"Accept-Language": "de"}
    token = csrf_token(client, console, headers=german)
    table = next(p for p in pairings if "table" in p)
    bad = client.post(
        f"{console}/result",
        data={"csrf_token": token, "round": "1", "table": str(table["table"]), "vp_a": "x", "vp_b": "4"},
        headers=german,
    )
    assert bad.status_code == 422
    error = soup(bad).select_one("#form-error").text
    assert error == f"Die SP von {table['names'][0]} müssen eine ganze Zahl von 0 bis 10000 sein."


def test_the_standings_print_in_german(client: FlaskClient) -> None:
    event, org, _players, pairings = _paired_event(client)
    table = next(p for p in pairings if "table" in p)
    org.post(
        "/results", {"round": 1, "table": table["table"], "winner": table["players"][0], "vp": [20, 10]}, 201
    )
    answer = client.get(f"/events/{event['id']}/standings.pdf", headers={"Accept-Language": "de"})
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    text = pdf_text(answer.data)
    for heads in ("Tabelle nach Runde 1", "Spieler", "S-N-U", "SP erzielt", "SP kassiert", "SP ±"):
        assert heads in text, heads
    assert "VP against" not in text and "Player" not in text


# --- the pseudo-language: no English left on the club screens ---------------------------------
def test_the_club_screens_leave_no_english_in_the_pseudo_language(tmp_path: Path, migrated: Path) -> None:
    from app.web.services import packs
    from tests import pseudo

    folder = pseudo.build(tmp_path / "pseudo")
    app = _app(tmp_path, migrated, TRANSLATION_FOLDERS=[str(folder)])
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = pseudo.CODE
    token = csrf_token(client, "/admin")
    client.post("/admin/login", data={"csrf_token": token, "password": EVENTS_PASSWORD})
    event, org, players, pairings = _paired_event(client)
    table = next(p for p in pairings if "table" in p)
    org.post(
        "/results", {"round": 1, "table": table["table"], "winner": table["players"][0], "vp": [20, 10]}, 201
    )
    with app.app_context():
        shelf = packs()
        allowed = {EVENT, *NAMES, "MUSTER_ADMIN_PASSWORD", "Muster", "JSON", "CSV", "QR"}
        for pack in shelf.values():
            allowed |= {pack.name, *(s.name for s in pack.scenarios)}
    pages = {
        "events": "/events",
        "new": "/events/new",
        "event": f"/events/{event['id']}",
        "console": _console(client, event),
        "phone": _seated(players, pairings)["url"],
        "board": f"/events/{event['id']}/board",
    }
    for screen, path in pages.items():
        answer = client.get(path)
        assert answer.status_code == 200, screen
        assert soup(answer).html["lang"] == pseudo.CODE
        assert pseudo.english_left(soup(answer).select_one("main"), allowed) == [], screen
    # The walk sees English where there is some: the same console in English.
    english = client.get(pages["console"], headers={"Accept-Language": "en"})
    assert "Add the player" in pseudo.english_left(soup(english).select_one("main"), allowed)


def test_the_plain_text_summary_is_written_in_french(client: FlaskClient) -> None:
    event, org, _players, pairings = _paired_event(client)
    table = next(p for p in pairings if "table" in p)
    org.post("/results", {"round": 1, "table": table["table"], "winner": None, "vp": [10, 10]}, 201)
    text = client.get(f"/api/v1/events/{event['id']}/summary.txt", headers={"Accept-Language": "fr"})
    said = text.get_data(True)
    assert "Classé par V-D-É, points de tournoi" in said
    assert f"Table {table['table']} : {table['names'][0]} 10 – 10 {table['names'][1]} · égalité" in said
    assert "Classement après la ronde 1" in said
