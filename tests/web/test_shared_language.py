"""What every game shares speaks the phone's language: the refusals of the events' own models,
the line about the latest entry, an army's summary, the clock, and the foot of every printed page."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from app import create_app
from tests import pseudo
from tests.conftest import fresh_database
from tests.pdfs import pdf_text
from tests.setups import new_game, seraphon_roster
from tests.web.conftest import csrf_token, form_fields, soup

GERMAN, FRENCH = {"Accept-Language": "de"}, {"Accept-Language": "fr"}


def _post(client: FlaskClient, game: dict[str, Any], event: dict[str, Any], language: str) -> Any:
    return client.post(
        f"/api/v1/games/{game['id']}/events",
        json={"id": str(uuid.uuid4()), **event},
        headers={"X-Edit-Token": game["edit_token"], "Accept-Language": language},
    )


def test_a_models_refusal_comes_back_in_the_phones_language_through_the_api(client: FlaskClient) -> None:
    game = new_game(client)
    stray = {"type": "roll", "dice": "d6", "results": [3], "colour": "red"}
    answers = {code: _post(client, game, stray, code) for code in ("en", "de", "fr")}
    assert {a.status_code for a in answers.values()} == {422}
    assert answers["en"].json["error"] == (
        "colour is not part of a roll; it takes dice, purpose, results, winner."
    )
    assert answers["de"].json["error"] == (
        "colour ist hier kein Feld (ein Wurf hat die Felder dice, purpose, results, winner)."
    )
    assert answers["fr"].json["error"] == (
        "colour n'est pas un champ prévu ici (un jet a les champs dice, purpose, results, winner)."
    )
    # A field out of its bounds: what it may be, in words, the field's name kept as the API's.
    bad_die = {"type": "roll", "dice": "d7", "results": [3]}
    assert _post(client, game, bad_die, "en").json["error"] == (
        "dice must be one of d3, d6, d12, 2d6, roll-off."
    )
    assert _post(client, game, bad_die, "fr").json["error"] == (
        "dice doit être l'une des valeurs d3, d6, d12, 2d6, roll-off."
    )
    winner = {"type": "roll", "dice": "roll-off", "results": [3, 5], "winner": 7}
    assert _post(client, game, winner, "de").json["error"] == (
        "winner muss der Index eines Spielers dieses Spiels, 0 bis 1 sein oder wegfallen."
    )
    nothing = {"type": "undo", "event": str(uuid.uuid4())}
    assert _post(client, game, nothing, "fr").json["error"] == "Il n'y a rien à annuler."


def test_a_shared_refusal_shows_on_the_game_screen_in_french(client: FlaskClient) -> None:
    game = new_game(client)
    client.get(game["join_url"], follow_redirects=True)  # this phone records in the game
    page = client.get(f"/games/{game['id']}", headers=FRENCH)
    action, data = form_fields(page, "#roll-record")
    data.update({"dice": "d7", "results": "3", "purpose": "Priorité"})
    answer = client.post(action, data=data, headers={**FRENCH, "HX-Request": "true"})
    assert answer.status_code == 422
    assert soup(answer).select_one("#error").get_text(strip=True) == (
        "dice doit être l'une des valeurs d3, d6, d12, 2d6, roll-off."
    )


def test_the_latest_entry_and_its_undo_speak_the_phones_language(client: FlaskClient) -> None:
    game = new_game(client)
    client.get(game["join_url"], follow_redirects=True)
    roll = {"type": "roll", "dice": "2d6", "results": [3, 4], "purpose": "Priority"}
    assert _post(client, game, roll, "en").status_code == 201
    lines = {}
    for code in ("en", "de", "fr"):
        page = soup(client.get(f"/games/{game['id']}", headers={"Accept-Language": code}))
        lines[code] = page.select_one('[data-testid="last-entry"]').get_text(strip=True)
    assert lines == {
        "en": "Dice rolled for Priority: 3, 4",
        "de": "Gewürfelt für Priority: 3, 4",
        "fr": "Dés lancés pour Priority : 3, 4",
    }


def test_an_armys_summary_line_is_said_in_german(client: FlaskClient) -> None:
    game = new_game(client)
    client.get(game["join_url"], follow_redirects=True)
    roster = client.post("/api/v1/rosters", json=seraphon_roster()).json
    url = f"/games/{game['id']}"
    token = csrf_token(client, url)
    attached = client.post(
        f"{url}/armies", data={"csrf_token": token, "player": "0", "roster": roster["id"]}, headers=GERMAN
    )
    assert attached.status_code == 303

    def line(language: dict[str, str]) -> str:
        army = soup(client.get(url, headers=language)).select_one(".armies .army .muted")
        return army.get_text(" ", strip=True)

    # The same attached roster, read once per language (the line is kept per language).
    assert line({"Accept-Language": "en"}) == ("· general Lord Kroak · 1 HEROES · 1 MONSTERS · 3 Battleline")
    assert line(GERMAN) == "· General Lord Kroak · 1 HELDEN · 1 MONSTER · 3 Linientruppen"
    assert line({"Accept-Language": "en"}).startswith("· general Lord Kroak")


def test_the_clock_speaks_german(client: FlaskClient) -> None:
    game = new_game(client)
    client.get(game["join_url"], follow_redirects=True)
    clock = soup(client.get(f"/games/{game['id']}", headers=GERMAN)).select_one("#clock")
    assert clock.select_one("h2").get_text(" ", strip=True) == "Uhr nicht gestartet"
    assert clock.select_one("summary").get_text(strip=True) == "Limit"
    assert clock.select_one("label[for=clock-minutes]").get_text() == "Minuten pro Spieler"


def test_a_printed_page_says_its_number_in_german(client: FlaskClient) -> None:
    sheet = client.get("/packs/aos-ghb-2021/scenarios/savage-gains/scoresheet.pdf", headers=GERMAN)
    assert sheet.status_code == 200
    text = pdf_text(sheet.data)
    assert "Seite 1 von 1" in text and "Page 1 of 1" not in text
    assert "Punktelimit" in text and "Punkteblatt" in text
    english = pdf_text(client.get("/packs/aos-ghb-2021/scenarios/savage-gains/scoresheet.pdf").data)
    assert "Page 1 of 1" in english


# --- the pseudo-language: no English left in what every game screen shares ------------------
def test_the_shared_parts_of_a_game_screen_leave_no_english(tmp_path: Path, migrated: Path) -> None:
    """The score bar, the clock, the dice, the last entry, the armies and the prints of a game
    screen (a game system's own part is its own)."""
    folder = pseudo.build(tmp_path / "pseudo")
    database = fresh_database(migrated, tmp_path / "muster.sqlite")
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "t", "TRANSLATION_FOLDERS": [str(folder)]})
    client = app.test_client()
    game = new_game(client)
    client.get(game["join_url"], follow_redirects=True)
    roster = client.post("/api/v1/rosters", json=seraphon_roster()).json
    url = f"/games/{game['id']}"
    client.post(
        f"{url}/armies", data={"csrf_token": csrf_token(client, url), "player": "0", "roster": roster["id"]}
    )
    _post(client, game, {"type": "roll", "dice": "2d6", "results": [3, 4], "purpose": "Priority"}, "en")
    page = soup(client.get(url, headers={"Accept-Language": pseudo.CODE}))
    shared = "header.scorebar, #clock, #dice, #last-entry, .armies, nav.prints"
    parts = page.select(shared)
    assert len(parts) == 6
    typed = {
        "Ann",
        "Bo",
        "Savage Gains",
        "Hammerfest",
        "Seraphon",
        "Lord Kroak",
        "Priority",
        "D3",
        "D6",
        "2D6",
    }
    # What the game system gives these parts (its status, its line under each score, the name
    # of its sheet) is the system's to say.
    system_words = ".scorebar-title .muted, .score-sub, .score .tag, nav.prints > span"
    left = [text for part in parts for text in pseudo.english_left(part, typed, system_words)]
    assert left == [], left


def test_numbers_in_a_refusal_are_written_the_languages_way(client: FlaskClient) -> None:
    game = new_game(client)
    exported = client.get(
        f"/api/v1/games/{game['id']}/export", headers={"X-Edit-Token": game["edit_token"]}
    ).json
    exported |= {"id": "a-new-game-id-of-twenty", "events": [{}] * 1001}
    answers = {
        code: client.post("/api/v1/games/import", json=exported, headers={"Accept-Language": code})
        for code in ("en", "de")
    }
    assert answers["en"].json["error"] == "events must hold at most 1,000 events; this export has 1,001."
    assert answers["de"].json["error"] == (
        "events darf höchstens 1.000 Ereignisse enthalten; dieser Export hat 1.001."
    )
