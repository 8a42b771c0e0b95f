"""A siege's screens, refusals and card in German and French (issue 30), and no English left
on them in the pseudo-language of tests/pseudo.py.

Ann attacks (seat 0) and hides Mine (3); Bo defends (seat 1) and hides Gather Supplies (4).
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests import pseudo
from tests.conftest import fresh_database
from tests.pdfs import pdf_text
from tests.web.conftest import csrf_token, soup
from tests.web.helpers import phone, post, seat, siege, tactic

PHONES_LANGUAGE = "muster-lang"  # the switch's cookie

# The siege phase and the first turn of the battle, with names the players typed.
MID_GAME = (
    {"type": "contingents", "garrison": ["Liberators"], "relief": ["Sequitors", "Retributors"]},
    {"type": "objective", "player": 0, "feature": "Gatehouse"},
    {"type": "objective", "player": 1, "feature": "Keep"},
    {"type": "batter", "features": [{"feature": "Gatehouse", "defensible": True, "die": 6}]},
    {"type": "starve", "units": [{"unit": "Liberators", "die": 6, "mortal_wounds": 2}]},
    {"type": "tunnel", "dice": [4, 5]},  # 4 + 2 = 6 beats 5: a tunnel
    {"type": "tunnel_party", "units": [{"name": "Lord Kroak", "keywords": ["HERO"]}]},
    {"type": "battle_round", "round": 1, "first": 0},
    {"type": "turn", "round": 1, "player": 0},
    {"type": "relief_roll", "round": 1, "dice": [2, 3]},
)
TYPED = {"Ann", "Bo", "Liberators", "Sequitors", "Retributors", "Gatehouse", "Keep", "Lord Kroak"}


def _mid_game(client: FlaskClient) -> dict[str, Any]:
    game = siege(client)
    assert tactic(client, game, 0, 3, seat=seat(game, 0)).status_code == 201
    assert tactic(client, game, 1, 4, seat=seat(game, 1)).status_code == 201
    for event in MID_GAME:
        answer = post(client, game, event, edit=game["edit_token"])
        assert answer.status_code == 201, (event, answer.json)
    return game


def _screen(app: Flask, game: dict[str, Any], code: str) -> Any:
    table = phone(app, game, "table")
    table.set_cookie(PHONES_LANGUAGE, code)
    return soup(table.get(f"/games/{game['id']}"))


def test_the_siege_screen_speaks_german(app: Flask) -> None:
    game = _mid_game(app.test_client())
    page = _screen(app, game, "de")
    assert page.html["lang"] == "de"
    assert page.select_one("#siege-h").text == "Die Belagerung"
    assert page.select_one("#objectives-h").text == "Missionsziele"
    assert page.select_one("[data-testid=tactic-attacker]").text.strip() == "3: Mine"  # the book's name
    assert page.select_one("[data-testid=modifiers]").text == "Beschuss +0, Aushungern -1, Tunnel +2"
    assert page.select_one("#relief-h").text == "Das Entsatzheer"
    assert page.select_one("[data-testid=tunnel-party]").text == "Durch den Tunnel: Lord Kroak."
    text = " ".join(page.select_one("main").get_text(" ", strip=True).split())
    assert "Kontingente von Bo" in text and "Runde 1: 2 + 3 + 1 = 6" in text
    assert "Liberators: 6 → 5, 2 tödliche Verwundungen" in text
    # Bo's turn is next: its form, and the call-time form's button.
    assert (
        "Schlachtrunde 1: Zug von Bo endet" in text and "Zug eintragen" in text and "Ende eintragen" in text
    )
    # The latest entry is named in the siege's own words.
    assert "Entsatzwurf" in page.select_one("#last-entry").get_text(" ")


def test_the_siege_screen_speaks_french(app: Flask) -> None:
    game = _mid_game(app.test_client())
    page = _screen(app, game, "fr")
    assert page.select_one("#siege-h").text == "Le siège"
    assert page.select_one("[data-testid=modifiers]").text == "Pilonnage +0, famine -1, tunnel +2"
    text = " ".join(page.select_one("main").get_text(" ", strip=True).split())
    assert "Pas encore arrivée : 2D6 + le round de bataille, 11 ou plus." in text


def test_a_siege_refusal_comes_back_in_the_phones_language(app: Flask) -> None:
    client = app.test_client()
    game = _mid_game(client)
    # Through the API: the sentence in French, the field's name as the API spells it.
    french = client.post(
        f"/api/v1/games/{game['id']}/events",
        json={"id": str(uuid.uuid4()), "type": "objective", "player": 0, "feature": "Tower"},
        headers={"X-Edit-Token": game["edit_token"], "Accept-Language": "fr"},
    )
    assert french.status_code == 422
    assert french.json["error"] == (
        "Les objectifs sont placés avec le champ de bataille, avant le premier round de bataille."
    )
    # On the screen: a battle round sent twice, refused in German.
    table = phone(app, game, "table")
    table.set_cookie(PHONES_LANGUAGE, "de")
    url = f"/games/{game['id']}"
    again = {"id": str(uuid.uuid4()), "type": "battle_round", "round": "1", "first": "0"}
    answer = table.post(
        f"{url}/events", data={**again, "csrf_token": csrf_token(table, url)}, headers={"HX-Request": "true"}
    )
    assert answer.status_code == 422
    assert "Schlachtrunde 1 hat bereits begonnen" in soup(answer).select_one("[role=alert]").get_text()


def test_the_siege_card_prints_in_german(app: Flask) -> None:
    client = app.test_client()
    game = _mid_game(client)
    client.set_cookie(PHONES_LANGUAGE, "de")
    text = " ".join(pdf_text(client.get(f"/games/{game['id']}/scoresheet.pdf?paper=a4").data).split())
    assert "Conquest Unbound: Belagerungsblatt" in text
    # Headings print in capitals; the words are the same.
    assert "BELAGERUNGSTAKTIKEN UND BELAGERUNGSTABELLE" in text and "TUNNEL UND ENTSATZHEER" in text
    assert "Modifikatoren: Beschuss +0 Aushungern -1 Tunnel +2" in text
    assert "Gatehouse ja 6 6 zerstört" in text and "Liberators nein 6 5 2" in text
    assert "Der Angreifer hält 3 von 3 Missionszielen: großer Sieg für den Angreifer." in text
    assert "Lord Kroak" in text  # what the players typed stays as typed
    assert "siege card" not in text and "SIEGE TACTICS" not in text


def pseudo_app(tmp_path: Path, migrated: Path) -> Flask:
    """An app that also speaks the pseudo-language (tests/pseudo.py), on its own database."""
    from app import create_app

    folder = pseudo.build(tmp_path / "pseudo")
    database = fresh_database(migrated, tmp_path / "muster.sqlite")
    return create_app(
        {"DATABASE": str(database), "TESTING": True, "SECRET_KEY": "t", "TRANSLATION_FOLDERS": [str(folder)]}
    )


def test_the_siege_screens_hold_no_plain_english_in_the_pseudo_language(
    tmp_path: Path, migrated: Path
) -> None:
    app = pseudo_app(tmp_path, migrated)
    client = app.test_client()
    # Before the siege phase (the seats, the tactics' step) and mid-battle (every part).
    early = siege(client)
    page = _screen(app, early, pseudo.CODE)
    assert page.html["lang"] == pseudo.CODE
    main = page.select_one("main")
    # The pack's own words: the battleplan's and the siege rules' summaries (the pack's catalogue).
    books = _books(main)
    left = pseudo.english_left(main, TYPED | books)
    assert left == [], "\n".join(left)
    seat_page = phone(app, early, 0)
    seat_page.set_cookie(PHONES_LANGUAGE, pseudo.CODE)
    main = soup(seat_page.get(f"/games/{early['id']}")).select_one("main")
    assert pseudo.english_left(main, TYPED | _books(main)) == []
    game = _mid_game(client)
    main = _screen(app, game, pseudo.CODE).select_one("main")
    # The latest entry and its Undo: the siege names the entry in its words; the sentence around
    # it ("The ... recorded") is app/rules/entry_words.py's, shared by every game.
    latest = main.select_one("#last-entry")
    assert "[řéľîéf föřçé řöľľ" in latest.get_text()
    latest.decompose()
    left = pseudo.english_left(main, TYPED | _books(main))
    assert left == [], "\n".join(left)


# Parts every game screen shares, not a siege's own (their words are another part of issue 30):
# the clock, the dice roller, the dice button, the print links' paper sizes.
SHARED = ".clock, #dice, .dice-dock, nav.prints a"


def _books(main: Any) -> set[str]:
    """The book's names and the pack's own words on a siege screen: the battleplan, its rules'
    names, summaries and Muster's readings of them, the tactics, the scenario's name in the score
    bar. The parts every game screen shares are set aside (removed from ``main``)."""
    for shared in main.select(SHARED):
        shared.decompose()
    found = {t.get_text() for t in main.select(".rules h3, .rules p")}
    found |= {
        str(s) for p in main.select(".rules .reading") for s in p.find_all(string=True, recursive=False)
    }
    found |= {t.get_text() for t in main.select(".scorebar-title span:first-child")}
    found |= {t.get_text().split(": ", 1)[-1] for t in main.select("[data-testid^=tactic-]")}
    found |= {t.get_text().split(": ", 1)[-1] for t in main.select("#tactic-form label span")}
    found |= {t.get_text() for t in main.select("[data-testid=control-exception]")}
    return {f.strip() for f in found if f.strip()}
