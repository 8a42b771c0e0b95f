"""The club admin, the new-game screen and a pack's page speak German and French, and leave no
English behind in the pseudo-language."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from flask import Flask
from flask.testing import FlaskClient

from tests import pseudo
from tests.setups import PITCHED_BATTLES, first_blood, new_game_form, pitched_battle
from tests.web.conftest import CLUB_PASSWORD, club_app, csrf_token, login, parsed, soup

ROOT = Path(__file__).resolve().parents[2]
GERMAN, FRENCH = {"Accept-Language": "de"}, {"Accept-Language": "fr"}


def _text(response: Any, selector: str = "main") -> str:
    return soup(response).select_one(selector).get_text(" ", strip=True)


def test_the_admin_page_speaks_german_and_french(admin: FlaskClient) -> None:
    page = admin.get("/admin", headers=GERMAN)
    # Sizes are written the German way: the disk's total as "32,0 GB".
    assert re.search(r"von \d+,\d GB auf ihrem Datenträger frei", soup(page).select_one("#disk").text)
    german = _text(page)
    for words in ("Club-Verwaltung", "Sicherung herunterladen", "Regelpaket installieren", "Abmelden"):
        assert words in german
    assert "Aus: Handys öffnen" in german and "Replikation" in german
    french = _text(admin.get("/admin", headers=FRENCH))
    for words in ("Administration du club", "Télécharger une sauvegarde", "Décors du club", "Se déconnecter"):
        assert words in french
    assert "Désactivé : les téléphones ouvrent" in french


def test_the_login_and_its_refusal_speak_french(club: Flask) -> None:
    client = club.test_client()
    page = client.get("/admin", headers=FRENCH)
    assert soup(page).select_one("label[for=password]").get_text() == "Mot de passe d'administration"
    refused = client.post(
        "/admin/login",
        data={"csrf_token": csrf_token(client, "/admin"), "password": "guess"},
        headers=FRENCH,
    )
    assert refused.status_code == 403
    assert soup(refused).select_one("#error").get_text() == "Ce n'est pas le mot de passe d'administration."


def test_the_new_game_screen_speaks_german_and_french(client: FlaskClient) -> None:
    german = client.get(f"/games/new?pack={PITCHED_BATTLES}", headers=GERMAN)
    assert soup(german).select_one("h1").get_text() == "Neues Spiel"
    assert soup(german).select_one("fieldset.segmented legend").get_text() == "Punktelimit"
    assert soup(german).select_one("#new-game button[type=submit].primary").get_text() == "Spiel starten"
    assert "Schlachtplan auswürfeln" in _text(german)
    # Points are written the German way: 2.000.
    assert "2.000" in [s.get_text() for s in soup(german).select("fieldset.segmented span")]
    french = client.get(f"/games/new?pack={PITCHED_BATTLES}", headers=FRENCH)
    assert soup(french).select_one("h1").get_text() == "Nouvelle partie"
    assert "Tirer le plan de bataille aux dés" in _text(french)
    assert "Joueur 1" in _text(french) and "Grande Stratégie" in _text(french)


def test_a_pack_page_speaks_german_and_french(client: FlaskClient) -> None:
    german = _text(client.get(f"/packs/{PITCHED_BATTLES}", headers=GERMAN))
    assert "Schlachtpläne" in german and "Punktelimits" in german and "5 Schlachtrunden" in german
    french = _text(client.get(f"/packs/{PITCHED_BATTLES}", headers=FRENCH))
    assert "Plans de bataille" in french and "Feuille de score vierge" in french
    assert "5 rounds de bataille" in french


def test_a_new_game_refusal_comes_back_in_french_through_the_api_and_the_form(client: FlaskClient) -> None:
    body = pitched_battle("savage-gains")
    body["points_limit"] = 0
    answers = {
        code: client.post("/api/v1/games", json=body, headers={"Accept-Language": code})
        for code in ("en", "fr")
    }
    assert {a.status_code for a in answers.values()} == {422}
    assert answers["en"].json["error"] == "points_limit must be a whole number from 1 to 100000."
    assert answers["fr"].json["error"] == "points_limit doit être un nombre entier de 1 à 100000."
    # The form without a battleplan picked: its sentence in French.
    form = new_game_form(csrf_token(client, "/games/new", headers=FRENCH), scenario="")
    page = client.post("/games", data=form, headers=FRENCH)
    assert page.status_code == 422
    assert soup(page).select_one("#form-error").get_text() == (
        "Choisissez un plan de bataille dans la liste ou tirez-le aux dés."
    )
    # A refusal of the set-up itself names the field as the screen does, in French.
    form = new_game_form(csrf_token(client, "/games/new", headers=FRENCH), names=("Ann", "B" * 41))
    page = client.post("/games", data=form, headers=FRENCH)
    assert (
        soup(page).select_one("#form-error").get_text()
        == "Le nom du joueur 2 doit compter de 1 à 40 caractères."
    )
    form["name1"], form["points_limit"] = "Bo", "0"
    page = client.post("/games", data=form, headers=GERMAN)
    assert soup(page).select_one("#form-error").get_text() == (
        "Das Punktelimit muss eine ganze Zahl von 1 bis 100000 sein."
    )


# --- the pseudo-language: no English left --------------------------------------------------
# Words that are names in every language: the app's, the protocol's, the paper's.
NAMES = {"Muster", "HTTPS", "A4", "PDF", "YAML", "UTC", "VP"}
# What a screen shows that no catalogue holds: code and the battle maps (drawn by the system).
UNTRANSLATED = "code, .map-wrap"


def _pack_words() -> list[str]:
    """Every piece of text the rulepacks give (names, summaries, labels): shown as the pack says."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, str):
            found.add(node.strip())
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in (ROOT / "rulepacks").glob("*.yaml"):
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    return sorted((w for w in found if len(w) > 1), key=len, reverse=True)


def _english_left(response: Any, typed: tuple[str, ...] = (), parts: str = "main") -> list[str]:
    """The sentences of ``parts`` (``<main>``, or a whole fragment) that hold words outside the
    pseudo-language's brackets, the packs' own text and names typed in (tests/pseudo.py reads
    each block whole): each is a string no catalogue holds."""
    page = parsed(response.get_data(as_text=True))
    allowed = {*_pack_words(), *typed, *NAMES}
    return [
        left
        for part in page.select(parts) or [page]
        for left in pseudo.english_left(part, allowed, UNTRANSLATED)
    ]


@pytest.fixture
def pseudo_club(tmp_path: Path, migrated: Path) -> Flask:
    return club_app(tmp_path, migrated, TRANSLATION_FOLDERS=[str(pseudo.build(tmp_path / "pseudo"))])


def test_the_admin_screens_leave_no_english_in_the_pseudo_language(pseudo_club: Flask) -> None:
    client = pseudo_club.test_client()
    said = {"Accept-Language": pseudo.CODE}
    assert _english_left(client.get("/admin", headers=said)) == []
    refused = client.post(
        "/admin/login", data={"csrf_token": csrf_token(client, "/admin"), "password": "guess"}, headers=said
    )
    assert refused.status_code == 403 and _english_left(refused) == []
    client = pseudo_club.test_client()
    login(client, CLUB_PASSWORD)
    client.post("/api/v1/games", json=pitched_battle("savage-gains"))
    assert _english_left(client.get("/admin", headers=said), typed=("Ann", "Bo")) == []


def test_the_new_game_and_pack_screens_leave_no_english_in_the_pseudo_language(pseudo_club: Flask) -> None:
    client = pseudo_club.test_client()
    said = {"Accept-Language": pseudo.CODE}
    for pack in yaml_ids():
        if pack != "old-world-rosters":  # a roster pack: no scenarios, no new game
            page = client.get(f"/games/new?pack={pack}", headers=said)
            assert _english_left(page) == [], pack
            rolled = client.post(
                "/games/new/roll",
                data={"csrf_token": csrf_token(client, f"/games/new?pack={pack}"), "pack": pack},
                headers={**said, "HX-Request": "true"},
            )
            if rolled.status_code == 200:
                assert _english_left(rolled) == [], pack
        assert _english_left(client.get(f"/packs/{pack}", headers=said)) == [], pack


def yaml_ids() -> list[str]:
    return sorted(path.stem for path in (ROOT / "rulepacks").glob("*.yaml"))


def test_the_game_pages_own_words_leave_no_english_in_the_pseudo_language(pseudo_club: Flask) -> None:
    """The game page's own parts (the welcome, sharing, the terrain link; a game system's screen
    is its own)."""
    client = pseudo_club.test_client()
    made = client.post("/api/v1/games", json=first_blood("outflank")).json
    page = client.get(made["join_url"], headers={"Accept-Language": pseudo.CODE}, follow_redirects=True)
    own = "#welcome, #invite, details.share, nav.terrain-link"
    assert len(soup(page).select(own)) >= 3
    assert _english_left(page, typed=("Ann", "Bo"), parts=own) == []
