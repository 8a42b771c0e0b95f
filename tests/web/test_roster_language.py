"""The army builder and rosters in German and French: the roster list, the builder, a roster
check's verdict through the API and on the screen, the printed roster, and no English left on
the roster screens in the pseudo-language of tests/pseudo.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import fresh_database
from tests.pdfs import pdf_text
from tests.setups import seraphon_roster
from tests.web.conftest import field_value, soup
from tests.web.helpers import new_roster, roster_csrf

UNDERSTRENGTH = {
    "de": "„Saurus Warriors“ (Eintrag 3) ist unter Sollstärke; "
    "Einheiten in Pitched Battles haben mindestens ihre Mindestgröße.",
    "fr": "« Saurus Warriors » (entrée 3) est en sous-effectif ; "
    "en Pitched Battles, une unité a au moins sa taille minimale.",
}


def _app(tmp_path: Path, migrated: Path, **config: Any) -> Flask:
    from app import create_app

    database = fresh_database(migrated, tmp_path / "muster.sqlite")
    return create_app({"DATABASE": str(database), "TESTING": True, "SECRET_KEY": "test", **config})


def _add(client: FlaskClient, url: str, **fields: str) -> Any:
    data = {"csrf_token": roster_csrf(client), "version": field_value(client.get(url), "version")}
    return client.post(f"{url}/entries", data={**data, **fields}, headers={"HX-Request": "true"})


def _understrength(client: FlaskClient) -> str:
    """Hammerfest on the builder, its Saurus Warriors understrength: the editor's address."""
    url = new_roster(client)
    _add(client, url, name="Lord Kroak", points="430", roles="Leader", keywords="HERO", general="on")
    _add(client, url, name="Saurus Guard", points="115", roles="Battleline")
    _add(client, url, name="Saurus Warriors", points="100", roles="Battleline", size="understrength")
    return url


@pytest.mark.parametrize(
    ("code", "builder", "roster"),
    [
        (
            "de",
            (
                "Einheit hinzufügen",
                "Einheit außerhalb des Katalogs",
                "Zur Armeeliste hinzufügen",
                "Details der Armeeliste",
            ),
            ("Teilen und exportieren", "Linientruppen", "Anführer", "Rollen auf dem Schlachtfeld"),
        ),
        (
            "fr",
            (
                "Ajouter une unité",
                "Une unité hors du catalogue",
                "Ajouter à la liste d'armée",
                "Détails de la liste d'armée",
            ),
            ("Partager et exporter", "Ligne de bataille", "Chef", "Rôles sur le champ de bataille"),
        ),
    ],
)
def test_the_builder_and_roster_speak_the_phones_language(client: FlaskClient, code, builder, roster) -> None:
    url = _understrength(client)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = code
    page = soup(client.get(url))
    assert page.html["lang"] == code
    text = page.select_one("main").get_text(" ", strip=True)
    for words in (*builder, *roster):
        assert words in text, (code, words)
    # The roles the player ticks and the tags of an entry: the glossary's words, the values English.
    roles = {label.select_one("input")["value"]: label.text.strip() for label in page.select(".roles label")}
    assert roles["Battleline"] == roster[1] and roles["Leader"] == roster[2]
    assert (
        page.select_one('[data-testid="roster-verdict"]').text
        == {"de": "1 Problem", "fr": "1 problème"}[code]
    )
    # Keywords and names stay as the player and the catalogue give them.
    assert "HERO" in text and "Lord Kroak" in text and "Seraphon" in text


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("de", ("Listen", "Ihre Armeelisten", "Liste aus einer anderen App importieren", "1.000 Punkte")),
        (
            "fr",
            (
                "Listes",
                "Vos listes d'armée",
                "Importer une liste d'une autre application",
                "1\u202f000 points",
            ),
        ),
    ],
)
def test_the_roster_list_and_new_roster_form_speak_the_phones_language(
    client: FlaskClient, code, words
) -> None:
    new_roster(client)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = code
    listed = soup(client.get("/rosters")).select_one("main").get_text(" ", strip=True)
    for word in words:
        assert word in listed, (code, word)
    form = soup(client.get("/rosters/new?pack=aos-ghb-2021"))
    assert form.select_one("h1").text == {"de": "Neue Armeeliste", "fr": "Nouvelle liste d'armée"}[code]
    assert form.select_one("#new-roster legend").text == {"de": "Punktelimit", "fr": "Limite de points"}[code]


def test_a_roster_checks_verdict_comes_back_in_french_through_the_api(client: FlaskClient) -> None:
    roster = seraphon_roster()
    roster["entries"][2]["size"] = "understrength"
    answer = client.post("/api/v1/rosters/check", json=roster, headers={"Accept-Language": "fr"})
    assert answer.status_code == 200
    assert answer.json["problems"] == [{"rule": "understrength", "entry": 2, "message": UNDERSTRENGTH["fr"]}]
    # No language asked: English, as every client before this one read it.
    english = client.post("/api/v1/rosters/check", json=roster).json["problems"][0]["message"]
    assert english.startswith("'Saurus Warriors' (entry 3) is understrength")


@pytest.mark.parametrize("code", ["de", "fr"])
def test_a_roster_checks_verdict_is_said_on_the_screen(client: FlaskClient, code: str) -> None:
    url = _understrength(client)
    page = soup(client.get(url, headers={"Accept-Language": code}))
    assert page.select_one(".entry-problem").text == UNDERSTRENGTH[code]
    assert UNDERSTRENGTH[code] in page.select_one("#roster-status .problems").text


def test_a_refusal_of_the_builder_is_said_in_french(client: FlaskClient) -> None:
    url = new_roster(client)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "fr"
    refused = _add(client, url, name="Skinks", points="lots")
    assert refused.status_code == 422
    # The field's name is the form's, as in every language.
    assert soup(refused).select_one("#error").text == "points doit être un nombre entier, 0 ou plus."


def test_the_roster_prints_in_german(client: FlaskClient) -> None:
    url = _understrength(client)
    printed = pdf_text(client.get(f"{url}/roster.pdf", headers={"Accept-Language": "de"}).data)
    for words in (
        "Regelpaket",
        "Fraktion",
        "Große Strategie",
        "UNGÜLTIG: 1 Problem",
        "Anführer",
        "Linientruppen",
    ):
        assert words in printed, words
    assert "Hammerfest" in printed and "Lord Kroak" in printed and "Mindestgröße" in printed


# --- the pseudo-language: no English left on the roster screens ------------------------------
def _pack_names(pack: Any) -> set[str]:
    """The names a pack's books give (units, factions, keywords, strategies, rules): not Muster's words."""
    names = {pack.name, pack.source.book}
    catalogue = pack.unit_catalogue
    if catalogue is not None:
        names.add(catalogue.season)
        for faction in catalogue.factions:
            names.add(faction.name)
            names.update(faction.subfactions)
            for unit in faction.units:
                names.add(unit.name)
                names.update(unit.keywords)
    names.update(g.name for g in pack.grand_strategies)
    names.update(r.name for r in pack.army_rules)
    names.update(t.name for t in getattr(pack.army, "regiment_types", []))
    if pack.catalogue_note:
        names.add(pack.catalogue_note)
    return {n for n in names if n}


def test_the_roster_screens_leave_no_english_in_the_pseudo_language(tmp_path: Path, migrated: Path) -> None:
    from app.web.services import packs
    from tests import pseudo

    app = _app(tmp_path, migrated, TRANSLATION_FOLDERS=[str(pseudo.build(tmp_path / "pseudo"))])
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = pseudo.CODE
    url = _understrength(client)
    _add(client, url, name="Stegadon", points="270", roles="Behemoth", size="reinforced-twice", ally="on")
    first_blood = new_roster(
        client, pack="conquest-first-blood", faction="", grand_strategy="", name="Vanguard"
    )
    _add(client, first_blood, name="Household Guard", points="150", kind="character", type="infantry")
    old_world = new_roster(
        client,
        pack="old-world-rosters",
        faction="Empire of Man",
        grand_strategy="",
        points_preset="2000",
        name="Nuln",
    )
    _add(client, old_world, pick="State Troops")
    _add(client, old_world, name="Hired Blades", points="90", category="mercenaries")
    assert [e.text for e in soup(client.get(old_world)).select(".entry-name")] == [
        "10 × State Troops",
        "Hired Blades",
    ]
    listed = "Allegiance: Seraphon\n\nLeaders\nLord Kroak (430)\n- General\nSkinks 70 points\n\nTotal: 430 / 1000\n"
    with app.app_context():
        allowed = set().union(*(_pack_names(p) for p in packs().values() if p.army is not None))
    allowed |= {"Hammerfest", "Vanguard", "Lord Kroak", "Saurus Guard", "Saurus Warriors", "Stegadon"}
    allowed |= {"Household Guard", "Nuln", "Hired Blades", "Skinks 70 points", "Muster", "JSON", "PDF"}
    screens = {
        "the roster list": client.get("/rosters"),
        "a new roster": client.get("/rosters/new?pack=aos-ghb-2021"),
        "a new First Blood roster": client.get("/rosters/new?pack=conquest-first-blood"),
        "the builder": client.get(url),
        "the builder searching": client.get(f"{url}?q=zzz"),
        "a First Blood roster": client.get(first_blood),
        "an Old World roster": client.get(old_world),
        "a new Old World roster": client.get("/rosters/new?pack=old-world-rosters"),
        "the import preview": client.post(
            "/rosters/import/preview",
            data={"csrf_token": roster_csrf(client), "pack": "aos-ghb-2021", "text": listed},
            follow_redirects=True,
        ),
    }
    for screen, answer in screens.items():
        assert answer.status_code == 200, screen
        assert soup(answer).html["lang"] == pseudo.CODE, screen
        left = pseudo.english_left(soup(answer).select_one("main"), allowed)
        assert left == [], (screen, left)
    # The same screen in English leaves its words outside the brackets: the check sees them.
    english = client.get("/rosters/new?pack=aos-ghb-2021", headers={"Accept-Language": "en"})
    assert "New roster" in pseudo.english_left(soup(english).select_one("main"), allowed)
