"""The terrain agreement, its checks and its prints in German and French (issue 30)."""

from __future__ import annotations

import re
from pathlib import Path

from bs4 import NavigableString
from flask.testing import FlaskClient

from tests.pdfs import pdf_text
from tests.setups import NAMES, join, new_game, terrain_game
from tests.web.conftest import csrf_token, soup
from tests.web.helpers import htmx_post

PHONES_LANGUAGE = "muster-lang"  # the switch's cookie


def _in(client: FlaskClient, code: str) -> None:
    client.set_cookie(PHONES_LANGUAGE, code)


# A typed garrison with a footprint (4.5" reads 4,5" in German and French) and a place.
TOWER = {
    "name": "Tower",
    "kind": "garrison",
    "size": "2",
    "footprint_w": "4.5",
    "footprint_h": "4",
    "x": "24",
    "y": "40",
}


def _forest_and_tower(client: FlaskClient, url: str) -> None:
    """A preset piece and a typed one."""
    token = csrf_token(client, url)
    htmx_post(client, f"{url}/pieces", csrf_token=token, preset="Forest")
    htmx_post(client, f"{url}/pieces", csrf_token=token, **TOWER)


def test_the_terrain_screen_speaks_german(client: FlaskClient) -> None:
    _made, url = terrain_game(client)
    _forest_and_tower(client, url)
    _in(client, "de")
    page = soup(client.get(url))
    assert page.html["lang"] == "de"
    assert page.select_one("#pieces-h").text == "Geländestücke"
    assert page.select_one('[data-testid="agreement"]').text.strip() == "2 von 2 Stücken noch offen."
    assert page.select_one("#add-piece-h").text == "Stück hinzufügen"
    tags = page.select(".piece-entry .tags")[1].get_text(" ", strip=True)
    # The typed name stays; the measurements are written the German way, still in inches.
    assert "Garnison" in tags and "Größe 2" in tags and '4,5" x 4"' in tags and 'bei 24", 40"' in tags
    assert [e.text for e in page.select(".entry-name")] == ["Forest", "Tower"]
    assert page.select_one("#los summary").text == "Sichtlinien-Hilfe"


def test_the_terrain_screen_speaks_french(client: FlaskClient) -> None:
    _made, url = terrain_game(client)
    _forest_and_tower(client, url)
    _in(client, "fr")
    page = soup(client.get(url))
    assert page.select_one("h1").text.startswith("Décors : ")
    assert page.select_one("#pieces-h").text == "Éléments"
    assert page.select_one('[data-testid="agreement"]').text.strip() == (
        "2 éléments sur 2 restent à valider."
    )
    assert "Taille 2" in page.select(".piece-entry .tags")[1].text


def test_a_terrain_checks_refusal_comes_back_in_german(client: FlaskClient) -> None:
    _made, url = terrain_game(client)
    _in(client, "de")
    no_depth = {k: v for k, v in TOWER.items() if k != "footprint_h"}
    bad = htmx_post(client, f"{url}/pieces", csrf_token=csrf_token(client, url), **no_depth)
    assert bad.status_code == 422
    assert (
        soup(bad).select_one("#error").text == "footprint: Breite und Tiefe angeben, oder keines von beiden."
    )


def test_the_terrain_check_api_answers_in_the_phones_language(client: FlaskClient) -> None:
    body = {"pack": "conquest-first-blood", "pieces": [{"name": "Swamp", "kind": "zonal", "size": 5}]}
    said = {
        code: client.post("/api/v1/terrain/check", json=body, headers={"Accept-Language": code}).json
        for code in ("en", "de", "fr")
    }

    def size_range(answer: dict) -> str:
        return next(p["message"] for p in answer["problems"] if p["rule"] == "size-range")

    assert size_range(said["en"]) == "Swamp (piece 1) has Size 5; a terrain Size runs from 0 to 4."
    assert size_range(said["de"]) == "Swamp (Stück 1) hat Größe 5; die Größe von Gelände reicht von 0 bis 4."
    assert size_range(said["fr"]) == (
        "Swamp (élément 1) a une Taille de 5 ; la Taille d'un décor va de 0 à 4."
    )


def _aos_ruin(client: FlaskClient) -> str:
    """An Age of Sigmar game's terrain screen with a fortress piece rolled on the mysterious table."""
    made = new_game(client)
    join(client, made)
    url = f"/games/{made['id']}/terrain"
    token = csrf_token(client, url)
    added = soup(htmx_post(client, f"{url}/pieces", csrf_token=token, name="Old Ruin", fortress="on"))
    uid = added.select_one(".piece-entry")["data-uid"]
    htmx_post(client, f"{url}/pieces/{uid}/mysterious", csrf_token=token, roll="4")
    return url


def test_the_terrain_card_prints_in_french(client: FlaskClient) -> None:
    url = _aos_ruin(client)
    _in(client, "fr")
    text = " ".join(pdf_text(client.get(f"{url}/card.pdf").data).split())
    assert "Fiche des décors" in text and "PAS ENCORE VALIDÉ : 1 élément en attente" in text
    assert "Ce que c'est" in text and "Élément de décor" in text
    assert "Old Ruin" in text  # the name the player typed stays as typed
    assert "NOT YET AGREED" not in text and "What it does" not in text


# --- the pseudo-language: nothing left in plain English ---------------------------------------------
# Numbers, punctuation, the x and y of a place (and of 4" x 4"), the paper sizes.
_NEUTRAL = re.compile(r"^(?:[\W\d_xy]|A4)*$")
# The pack's own words (its checklist, what its keywords do) come from the pack's catalogues,
# and its preset pieces are the book's names: none of them is the screen's.
_PACKS_OWN = "script, style, svg, header details li, .effects, .quick-add"


def _english_left(page, typed: set[str]) -> list[str]:
    """The visible texts inside <main> that are neither translated nor the players' own."""
    main = page.select_one("main")
    for hidden in main.select(_PACKS_OWN):
        hidden.decompose()
    left = []
    for node in main.find_all(string=True):
        if not isinstance(node, NavigableString) or node.parent.name in ("script", "style"):
            continue
        text = node.strip()
        if not text or _NEUTRAL.match(text) or "[" in text or "]" in text:
            continue
        rest = text
        for name in sorted(typed, key=len, reverse=True):
            rest = rest.replace(name, "")
        if not _NEUTRAL.match(rest):
            left.append(text)
    return left


def test_the_terrain_screens_hold_no_plain_english_in_the_pseudo_language(
    tmp_path: Path, migrated: Path
) -> None:
    from app import create_app
    from tests import pseudo
    from tests.conftest import fresh_database

    folder = pseudo.build(tmp_path / "pseudo")
    database = fresh_database(migrated, tmp_path / "muster.sqlite")
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "t", "TRANSLATION_FOLDERS": [str(folder)]})
    client = app.test_client()
    _made, url = terrain_game(client)
    _forest_and_tower(client, url)
    _in(client, pseudo.CODE)
    page = soup(client.get(url))
    assert page.html["lang"] == pseudo.CODE
    # What players typed or the book names: the players, the scenario, the pieces and keywords.
    typed = set(NAMES) | {"Forest", "Tower", "Outflank"}
    typed |= {k.text for k in page.select(".keywords label span, .effects strong")}
    typed |= {k.text.rstrip(":") for k in page.select(".effects strong")}
    typed |= {e.text for e in page.select(".effects li")}
    left = _english_left(page, typed)
    assert left == [], "\n".join(left)
    # A piece being edited shows the same form, in the same words.
    uid = page.select(".piece-entry")[1]["data-uid"]
    editing = soup(client.get(f"{url}/pieces/{uid}/edit"))
    assert _english_left(editing, typed) == []
    # What the line-of-sight helper answers.
    form = {
        "csrf_token": csrf_token(client, url),
        "shooter_size": "1",
        "target_size": "1",
        "target_garrison": "2",
    }
    form |= {"b0.kind": "terrain", "b0.size": "3", "b0.obstructing": "on", "b0.cover": "on"}
    sight = soup(client.post(f"{url}/line-of-sight", data=form, headers={"HX-Request": "true"}))
    assert all(t.strip().startswith("[") for t in sight.find_all(string=True) if t.strip())
    # An Age of Sigmar game's terrain screen, a piece rolled on the mysterious terrain table.
    aos_url = _aos_ruin(client)
    page = soup(client.get(aos_url))
    left = _english_left(page, typed | {"Old Ruin", "Savage Gains"})
    assert left == [], "\n".join(left)


def test_a_scenarios_map_prints_in_german(client: FlaskClient) -> None:
    _in(client, "de")
    text = " ".join(pdf_text(client.get("/packs/conquest-first-blood/scenarios/pincer/map.pdf").data).split())
    assert "(Szenario " in text and "Aufstellung." in text and '48" x 48"' in text
    assert "Deployment." not in text and "(scenario " not in text
