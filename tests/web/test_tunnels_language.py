"""Tunnel Wars' screens, refusals and series sheet in German and French (issue 30), and no
English left on them in the pseudo-language of tests/pseudo.py."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests import pseudo
from tests.pdfs import pdf_text
from tests.web.conftest import soup
from tests.web.helpers import phone, post
from tests.web.test_siege_language import pseudo_app
from tests.web.test_tunnels_web import history, refusal, send, series

PHONES_LANGUAGE = "muster-lang"  # the switch's cookie
TYPED = {"Ann", "Bo", "Orruks", "Liberators", "Sequitors", "The narrow bend", "Lord-Celestant"}
# Names from the book: the battleplan, and the rules a screen names as the book does.
BOOK = {"Tunnel Wars", "Tunnel Fighting", "Tame the Raging Beast", "Cunning Traps"}


def _mid_battle(app: Flask) -> tuple[dict[str, Any], FlaskClient]:
    """Battle 1 under way: its contingents in (Ann's with a general), round 1 begun with the
    denizen's roll-off, an attack on it, both unstable surroundings dice and a trap."""
    client = app.test_client()
    game = series(client, picked=False)
    table = phone(app, game, "table")
    for player, general in ((0, "Lord-Celestant"), (1, None)):
        pick = {"type": "contingent", "battle": 1, "player": player, "contingent": 1}
        if general:
            pick["general"] = general
        assert post(client, game, pick, seat=game["seats"][player]["token"]).status_code == 201
    assert send(table, game, "#round-form", first="0").status_code == 200
    assert send(table, game, "#denizen-form", **{"roll.0.0": "2", "roll.0.1": "5"}).status_code == 200
    assert send(table, game, "#attack-form").status_code == 200
    stalactites = {"unit.0": "Liberators", "unit.0.die": "2", "unit.1": "Sequitors", "unit.1.die": "1"}
    assert (
        send(
            table, game, "#unstable-form", player="0", die="6", choice="stalactites", d3="2", **stalactites
        ).status_code
        == 200
    )
    assert (
        send(
            table, game, "#unstable-form", player="1", die="6", choice="cave-in", point="The narrow bend"
        ).status_code
        == 200
    )
    trap = {
        "player": "1",
        "target": "Orruks",
        "distance": "7,5",
        "die.0": "4",
        "die.1": "4",
        "mortal_wounds": "2",
    }
    assert send(table, game, "#trap-form", **trap).status_code == 200
    return game, table


def test_the_tunnel_wars_screen_speaks_german(app: Flask) -> None:
    game, table = _mid_battle(app)
    table.set_cookie(PHONES_LANGUAGE, "de")
    page = soup(table.get(f"/games/{game['id']}"))
    assert page.html["lang"] == "de"
    assert page.select_one("#battle-1-h").text == "Schlacht 1"
    assert page.select_one("#history-h").text == "Einträge"
    assert page.select_one("[data-testid=denizen-now]").get_text(" ", strip=True) == (
        "Der Bewohner kämpft bis zum Ende von Runde 1 für Ann (Bo gewann das Wurf-Duell; Bo griff ihn an)."
    )
    assert history(table, game)[:2] == [
        'Cunning Traps von Bo gegen Orruks von Ann, Schlacht 1 Runde 1: 4 + 4 = 8 gegen 7,5": '
        "2 tödliche Verwundungen",
        "Instabile Umgebung, Heldenphase von Bo, Schlacht 1 Runde 1: 6, ein Einsturz bei The narrow bend",
    ]
    text = " ".join(page.select_one("main").get_text(" ", strip=True).split())
    assert "Ann: Kontingent 1, General Lord-Celestant" in text
    assert "Schlacht 1 ist vorbei" in text and "Ergebnis eintragen" in text


def test_the_tunnel_wars_screen_speaks_french(app: Flask) -> None:
    game, table = _mid_battle(app)
    table.set_cookie(PHONES_LANGUAGE, "fr")
    assert history(table, game)[2] == (
        "Environnement instable, phase des héros de Ann, bataille 1 round 1 : 6, chute de stalactites "
        "(D3 : 2) sur Liberators (2: 1 blessure mortelle), Sequitors (1: aucune) de Bo ; 2+ inflige 1 blessure mortelle"
    )


def test_a_tunnel_wars_refusal_comes_back_in_the_phones_language(app: Flask) -> None:
    game, table = _mid_battle(app)
    # Through the API, in French: the field's name stays as the API spells it.
    late = table.post(
        f"/api/v1/games/{game['id']}/events",
        json={"id": str(uuid.uuid4()), "type": "contingent", "battle": 2, "player": 0, "contingent": 2},
        headers={"X-Seat-Token": game["seats"][0]["token"], "Accept-Language": "fr"},
    )
    assert late.status_code == 422
    assert late.json["error"] == "battle : c'est la bataille 1 qui se joue, pas la bataille 2."
    # On the screen, in German, inside the form that was sent.
    table.set_cookie(PHONES_LANGUAGE, "de")
    tied = send(table, game, "#denizen-form", **{"roll.0.0": "4", "roll.0.1": "4"})
    assert refusal(tied, "#denizen-form") == (
        "Jedes Paar außer dem letzten muss ein Gleichstand sein (neu gewürfelt), das letzte nicht."
    )


def test_the_series_sheet_prints_in_german(app: Flask) -> None:
    game, table = _mid_battle(app)
    table.set_cookie(PHONES_LANGUAGE, "de")
    text = " ".join(pdf_text(table.get(f"/games/{game['id']}/scoresheet.pdf?paper=a4").data).split())
    assert "Conquest Unbound: Serienblatt Tunnel Wars" in text
    assert "Punktelimit" in text and "Datum" in text
    assert "Bewohner" in text and "angegriffen von Bo" in text
    assert "Einsturz bei The narrow bend" in text and "Liberators 2 (1 TV)" in text
    assert "series sheet" not in text and "No roll-off recorded" not in text


def test_the_tunnel_wars_screens_hold_no_plain_english_in_the_pseudo_language(
    tmp_path: Path, migrated: Path
) -> None:
    app = pseudo_app(tmp_path, migrated)
    # Before any pick: the split forms, the set-up roll-off, the seats; on a seat: the secret pick.
    early = series(app.test_client(), picked=False)
    for who in ("table", 0):
        screen = phone(app, early, who)
        screen.set_cookie(PHONES_LANGUAGE, pseudo.CODE)
        page = soup(screen.get(f"/games/{early['id']}"))
        assert page.html["lang"] == pseudo.CODE
        left = _english_left(page)
        assert left == [], "\n".join(left)
    # Mid-battle: the battle's part, every form of a round, the history.
    game, table = _mid_battle(app)
    table.set_cookie(PHONES_LANGUAGE, pseudo.CODE)
    left = _english_left(soup(table.get(f"/games/{game['id']}")))
    assert left == [], "\n".join(left)


# Parts every game screen shares, not Tunnel Wars' own (their words are another part of issue
# 30): the clock, the dice roller and its button, the print links' paper sizes, and the latest
# entry's sentence (app/rules/entry_words.py; the entry's own name is checked in the history).
SHARED = ".clock, #dice, .dice-dock, nav.prints a, #last-entry"


def _english_left(page: Any) -> list[str]:
    main = page.select_one("main")
    for shared in main.select(SHARED):
        shared.decompose()
    # The pack's own words (its rules' summaries, the reminders, the split rule) and Muster's
    # readings come from the pack's catalogue.
    packs = {t.get_text() for t in main.select(".rules h3, .rules p, .in-force li")}
    packs |= {
        str(s) for p in main.select(".rules .reading") for s in p.find_all(string=True, recursive=False)
    }
    hints = [h.get_text() for h in main.select(".split-form .hint")]
    packs |= {h.split("[", 1)[0].strip() for h in hints}
    return pseudo.english_left(main, TYPED | BOOK | {p.strip() for p in packs if p.strip()})
