"""A pack's own words in the phone's language: the pack page, the new-game page, the home
cards, a print and the API (issue 30). Names from the books stay as the pack gives them."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.pdfs import pdf_text
from tests.web.conftest import CLUB_PASSWORD, club_app, csrf_token, login, soup

GHB = "/packs/aos-ghb-2021"
# A battle tactic's summary: the pack's own words, and its name, the book's.
TACTIC = {
    "en": "Done if the opposing general is slain this turn.",
    "de": "Erfüllt, wenn der gegnerische General in diesem Zug getötet wird.",
    "fr": "Réussi si le général adverse est tué ce tour.",
}
TACTIC_NAME = "Slay the Warlord"
# How the battleplan is rolled, on the new-game page.
ROLL = {
    "en": "The players roll off. The winner rolls a D6 to choose the table",
    "de": "Die Spieler machen ein Wurf-Duell. Der Gewinner wirft einen W6 für die Tabelle",
    "fr": "Les joueurs font un jet de dés opposé. Le gagnant lance un D6 pour choisir le tableau",
}
CARD = {
    "en": "Pitched Battles 2021, two players, one of twelve battleplans picked or rolled.",
    "de": "Pitched Battles 2021, zwei Spieler, einer von zwölf Schlachtplänen, gewählt oder erwürfelt.",
    "fr": "Pitched Battles 2021, deux joueurs, un plan de bataille parmi douze, choisi ou tiré au dé.",
}


def _asked_in(code: str) -> dict[str, str]:
    return {"Accept-Language": code} if code != "en" else {}


def _tactic(page) -> str:
    """The battle tactic's line on the pack page: its summary, then its bonus line."""
    found = next(dt for dt in page.select("dt") if dt.get_text(strip=True) == TACTIC_NAME)
    return found.find_next_sibling("dd").get_text(" ", strip=True)


@pytest.mark.parametrize("code", ["en", "de", "fr"])
def test_the_pack_page_says_its_summaries_in_the_phones_language(client: FlaskClient, code: str) -> None:
    page = soup(client.get(GHB, headers=_asked_in(code)))
    assert page.html["lang"] == code
    assert _tactic(page).startswith(TACTIC[code])  # under its name as the book gives it
    assert page.select_one("#savage-gains summary").get_text(" ", strip=True).startswith("Savage Gains")
    others = {text for other, text in TACTIC.items() if other != code}
    assert not any(text in page.get_text() for text in others)


@pytest.mark.parametrize("code", ["en", "de", "fr"])
def test_the_new_game_page_says_how_the_battleplan_is_rolled_in_the_phones_language(
    client: FlaskClient, code: str
) -> None:
    page = soup(client.get("/games/new?pack=aos-ghb-2021", headers=_asked_in(code)))
    hints = [p.get_text(" ", strip=True) for p in page.select("#battleplan-field p.hint")]
    assert any(hint.startswith(ROLL[code]) for hint in hints), hints


def test_the_home_cards_and_the_sides_are_in_the_phones_language(client: FlaskClient) -> None:
    for code, card in CARD.items():
        page = soup(client.get("/", headers=_asked_in(code)))
        assert card in [s.get_text(strip=True) for s in page.select(".game-card-summary")]
    # The pack's side labels, in a German sentence as German writes them (capitalised).
    seating = soup(client.get("/games/new?pack=aos-ghb-2021", headers=_asked_in("de"))).select_one(
        "#seating-line"
    )
    assert seating.get_text(strip=True) == "2 Spieler, Angreifer und Verteidiger."
    english = soup(client.get("/games/new?pack=aos-ghb-2021")).select_one("#seating-line")
    assert english.get_text(strip=True) == "2 players, attacker and defender."


def test_a_scenarios_map_prints_its_summary_in_french(client: FlaskClient) -> None:
    client.set_cookie("muster-lang", "fr")
    answer = client.get("/packs/conquest-first-blood/scenarios/twin-contested-zones/map.pdf")
    text = " ".join(pdf_text(answer.data).split())
    assert "Le scénario d'ouverture, sans titre dans le livre de règles" in text
    assert "The opening scenario" not in text


def test_the_api_answers_the_pack_as_written_with_its_translations(client: FlaskClient) -> None:
    english = client.get("/api/v1/packs/aos-ghb-2021").json
    german = client.get("/api/v1/packs/aos-ghb-2021", headers={"Accept-Language": "de"}).json
    tactic = next(t for t in german["tactics"] if t["name"] == TACTIC_NAME)
    assert tactic["summary"] == TACTIC["en"]  # as written, whatever the phone's language
    assert (
        german["tactics"] == english["tactics"]
        and german["scenarios"][0]["rules"] == english["scenarios"][0]["rules"]
    )
    assert sorted(german["translations"]) == ["de", "fr"]
    assert german["translations"]["de"][TACTIC["en"]] == TACTIC["de"]
    assert german["translations"]["fr"][TACTIC["en"]] == TACTIC["fr"]


def _reword(app: Flask, old: str, new: str) -> None:
    pack = Path(app.config["RULEPACKS"]) / "aos-ghb-2021.yaml"
    text = pack.read_text(encoding="utf-8")
    assert old in text
    pack.write_text(text.replace(old, new), encoding="utf-8")


def test_a_summary_reworded_after_its_translation_is_said_in_english_and_the_admin_told(
    tmp_path: Path, migrated: Path
) -> None:
    app = club_app(tmp_path, migrated, RULEPACKS_CHECK_SECONDS=0)
    client = app.test_client()
    reworded = "Done if the enemy general is slain this turn."
    _reword(app, TACTIC["en"], reworded)
    page = soup(client.get(GHB, headers=_asked_in("de")))
    # Never the German of the older wording; the pack's other texts keep their German.
    assert (
        _tactic(page)
        == f"{reworded} +1 SP: Ein befreundetes MONSTER hat den General mit einer Attacke oder Fähigkeit getötet."
    )
    assert (
        "Wer ist der Angreifer?"
        in soup(client.get("/games/new?pack=aos-ghb-2021", headers=_asked_in("de"))).get_text()
    )
    login(client, CLUB_PASSWORD)
    problems = [li.get_text(" ", strip=True) for li in soup(client.get("/admin")).select("li code")]
    stale = [p for p in problems if p.startswith("translations/aos-ghb-2021.de.yaml")]
    assert len(stale) == 1 and TACTIC["en"] in stale[0]
    # Removing the pack takes its translations with it.
    client.post("/admin/packs/aos-ghb-2021/remove", data={"csrf_token": csrf_token(client, "/admin")})
    assert not list((Path(app.config["RULEPACKS"]) / "translations").glob("aos-ghb-2021.*"))
    assert not [li for li in soup(client.get("/admin")).select("li code") if "aos-ghb-2021" in li.get_text()]
