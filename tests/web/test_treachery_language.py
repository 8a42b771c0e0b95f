"""Triumph & Treachery's screens, refusals and score sheet in German and French (issue 30), and
in the pseudo-language of tests/pseudo.py: no English left mid-game. A held ploy still reaches
no phone but its holder's, in any language."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import fresh_database
from tests.pdfs import pdf_text
from tests.web.conftest import csrf_token, soup
from tests.web.helpers import catalogue_free, made, phone, post, seat

PHONES_LANGUAGE = "muster-lang"  # the switch's cookie
HELD = ("hidden-pitfalls", "Hidden Pitfalls")  # Ann's, never played
PLAYED = ("caltrops", "Caltrops")  # Bo's, played in round 1


def _mid_game(client: FlaskClient) -> dict[str, Any]:
    """Round 1 of Altar of the Gods (Ann, Bo, Cy) with most of what a round holds recorded: the
    round's start, two ploys bought, a deal, a roll-off, an enemy pick, a ploy played, a unit
    destroyed and Ann's turn holding the altar."""
    game = made(client)
    table = {"edit": game["edit_token"]}
    events: list[tuple[dict[str, Any], dict[str, str]]] = [
        ({"type": "battle_round", "round": 1}, table),
        ({"type": "buy", "round": 1, "player": 0, "ploy": HELD[0]}, {"seat": seat(game, 0)}),
        ({"type": "buy", "round": 1, "player": 1, "ploy": PLAYED[0]}, {"seat": seat(game, 1)}),
        ({"type": "deal", "round": 1, "from": 2, "to": 1, "cp": 1, "vp": 0, "note": "No charge"}, table),
        (
            {
                "type": "roll_off",
                "round": 1,
                "purpose": "order",
                "rolls": [[0, 6], [1, 2], [2, 3]],
                "next": 0,
            },
            table,
        ),
        ({"type": "enemy", "round": 1, "player": 0, "phase": "movement", "enemy": 1}, table),
        ({"type": "play", "round": 1, "player": 1, "ploy": PLAYED[0]}, {"seat": seat(game, 1)}),
        ({"type": "destroyed", "round": 1, "by": 0, "owner": 1, "unit": "Knights", "points": 250}, table),
        ({"type": "turn", "round": 1, "player": 0, "control": {"altar": 0}}, table),
    ]
    for event, headers in events:
        answer = post(client, game, event, **headers)
        assert answer.status_code == 201, (event, answer.json)
    return game


def test_a_seat_mid_game_speaks_german(app: Flask) -> None:
    game = _mid_game(app.test_client())
    ann = phone(app, game, 0)
    ann.set_cookie(PHONES_LANGUAGE, "de")
    page = soup(ann.get(f"/games/{game['id']}"))
    assert page.html["lang"] == "de"
    assert page.select_one("#hand h2").get_text(" ", strip=True) == "Listen von Ann (nur auf diesem Handy)"
    assert HELD[1] in page.select_one("#hand").text  # a ploy's name from the book stays
    assert page.select_one("#status-h").text == "Schlachtrunde 1"
    assert page.select_one("#history-h").text == "Punkte je Schlachtrunde"
    entries = [li.select_one(".entry-head span").text for li in page.select(".history .log > li")]
    assert "Bo hat Caltrops gespielt" in entries
    assert "Ann hat Hidden Pitfalls gekauft (nur Sie sehen, welche)" in entries
    assert "Absprache: Cy gibt Bo 1 KP" in entries
    assert "Ann hat Knights von Bo vernichtet (250 Pkt.)" in entries
    assert "Runde 1: Zug von Ann" in entries
    assert "Altar +3" in page.select_one(".history .breakdown").text
    assert page.select_one("#enemy-form h2").text == "Gegner wählen"
    assert page.select_one("#roll-off summary").text == "Wurf-Duell um den nächsten Zug"
    assert "Zugfolge:" in page.select_one(".turn-order").text


def test_a_held_ploy_stays_on_its_seat_in_every_language(app: Flask) -> None:
    game = _mid_game(app.test_client())
    for code in ("de", "fr"):
        for who in ("table", 1, 2, None):
            viewer = phone(app, game, who)
            viewer.set_cookie(PHONES_LANGUAGE, code)
            shown = catalogue_free(viewer.get(f"/games/{game['id']}").data)
            assert HELD[1] not in shown and HELD[0] not in shown, (code, who)
        bo = phone(app, game, 1)
        bo.set_cookie(PHONES_LANGUAGE, code)
        said = {"de": "Ann hat eine List gekauft", "fr": "Ann a acheté une ruse"}[code]
        assert said in [
            li.select_one("span").text for li in soup(bo.get(f"/games/{game['id']}")).select(".log > li")
        ]


def test_a_refusal_through_the_api_comes_back_in_french(client: FlaskClient) -> None:
    game = _mid_game(client)
    again = {"type": "turn", "round": 1, "player": 0, "control": {"altar": 0}}
    said = {
        code: client.post(
            f"/api/v1/games/{game['id']}/events",
            json={"id": str(uuid.uuid4()), **again},
            headers={"X-Edit-Token": game["edit_token"], "Accept-Language": code},
        )
        for code in ("en", "fr")
    }
    assert said["en"].status_code == said["fr"].status_code == 422
    assert said["en"].json["error"] == "player: Ann has already had their turn in round 1."
    assert said["fr"].json["error"] == "player : Ann a déjà joué son tour au round 1."


def test_a_refusal_on_the_screen_comes_back_in_german(app: Flask) -> None:
    game = _mid_game(app.test_client())
    table = phone(app, game, "table")
    table.set_cookie(PHONES_LANGUAGE, "de")
    url = f"/games/{game['id']}"
    fields = {
        "csrf_token": csrf_token(table, url),
        "id": str(uuid.uuid4()),
        "type": "enemy",
        "round": "1",
        "player": "1",
        "phase": "movement",
        "enemy": "1",
    }
    answer = table.post(f"{url}/events", data=fields, headers={"HX-Request": "true"})
    refused = soup(answer).select_one("#enemy-form #error")
    assert refused is not None, answer.data[:400]
    assert refused.text.strip() == "enemy muss ein anderer Spieler sein als der, der am Zug ist."


def test_the_score_sheet_prints_in_german(client: FlaskClient) -> None:
    game = _mid_game(client)
    client.set_cookie(PHONES_LANGUAGE, "de")
    text = " ".join(pdf_text(client.get(f"/games/{game['id']}/scoresheet.pdf").data).split())
    # Headings print in capitals.
    assert "GESPIELTE LISTEN" in text and "VERNICHTETE EINHEITEN" in text and "ABSPRACHEN" in text
    assert "Platz Spieler KP zu Beginn KP jetzt Listen auf der Hand SP gesamt Rang" in text
    assert "Spiel läuft: Schlachtrunde 1 von 4." in text
    assert "Ann: Altar +3" in text and "Caltrops" in text
    assert "PLOYS PLAYED" not in text and "UNITS DESTROYED" not in text
    assert HELD[1] not in text


def _pack_words(pack: Any) -> set[str]:
    """The names Triumph & Treachery's book gives (scenarios, objectives, phases, ploys, tables),
    and the pack's own words (summaries, readings, neutral rules): those go through ``told``,
    as written until packs carry their translations."""
    rules = pack.treachery
    names = {pack.name, pack.source.book}
    for scenario in pack.scenarios:
        names |= {scenario.name, scenario.renown or "", *(o.label for o in scenario.objectives)}
        names |= {text for r in scenario.rules for text in (r.name, r.summary, r.reading or "")}
    names |= {text for ph in rules.phases for text in (ph.name, ph.neutral or "")}
    names |= {text for p in rules.ploys for text in (p.name, p.summary or "")}
    names |= {t.name for t in rules.ploy_tables}
    names |= {text for r in rules.rules for text in (r.name, r.summary, r.reading or "")}
    return {n for n in names if n}


def test_the_game_screens_leave_no_english_in_the_pseudo_language(tmp_path: Path, migrated: Path) -> None:
    from app import create_app
    from app.web.services import packs
    from tests import pseudo

    database = fresh_database(migrated, tmp_path / "muster.sqlite")
    folder = str(pseudo.build(tmp_path / "pseudo"))
    app = create_app(
        {"DATABASE": str(database), "TESTING": True, "SECRET_KEY": "t", "TRANSLATION_FOLDERS": [folder]}
    )
    game = _mid_game(app.test_client())
    with app.app_context():
        allowed = _pack_words(packs()["tow-triumph-treachery"])
    # Typed by the test; the score bar's and print links' shared words (templates/partials).
    allowed |= {"Ann", "Bo", "Cy", "Knights", "No charge", "Muster", "PDF", "A4", "Letter", "Dice"}
    for who in ("table", 0, 1, None):
        viewer = phone(app, game, who)
        viewer.environ_base["HTTP_ACCEPT_LANGUAGE"] = pseudo.CODE
        page = soup(viewer.get(f"/games/{game['id']}"))
        assert page.html["lang"] == pseudo.CODE
        # What every game screen shares is not this system's to say: the last entry and its undo
        # (app/rules/entry_words.py), the clock and the dice (templates/partials).
        for shared in page.select("#last-entry, .clock, #dice, #rolls-h"):
            shared.decompose()
        left = pseudo.english_left(page.select_one("main"), allowed)
        assert left == [], (who, sorted(set(left)))
