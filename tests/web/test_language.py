"""The phone's language: chosen from the phone or the switch, said in every page, kept up to date."""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from tests.web.conftest import csrf_token, soup

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "app" / "translations"
SHIPPED = ("de", "fr")
DOMAINS = ("messages", "scripts")


def nav(response) -> list[str]:
    return [a.get_text(strip=True) for a in soup(response).select("nav.nav-links a")]


def test_a_phone_in_german_gets_german_pages(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Language": "de-AT,de;q=0.9,en;q=0.4"})
    assert soup(page).html["lang"] == "de" and page.headers["Content-Language"] == "de"
    assert nav(page) == ["Start", "Neues Spiel", "Meine Spiele", "Listen", "Events"]
    assert {"Accept-Language", "Cookie"} <= {v.strip() for v in page.headers["Vary"].split(",")}


def test_a_phone_in_a_language_muster_does_not_speak_gets_english(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Language": "pl-PL,pl;q=0.9"})
    assert soup(page).html["lang"] == "en"
    assert nav(page) == ["Home", "New game", "My games", "Rosters", "Events"]


def test_the_switch_keeps_the_choice_over_the_phones_language(client: FlaskClient) -> None:
    german = {"Accept-Language": "de"}
    token = csrf_token(client, "/rosters", headers=german)
    answer = client.post("/language", data={"csrf_token": token, "language": "fr", "next": "/rosters"})
    assert answer.status_code == 303
    assert answer.headers["Location"] == "/rosters"
    page = client.get("/rosters", headers=german)
    assert soup(page).html["lang"] == "fr"
    assert "Nouvelle partie" in nav(page)
    # Every page offers the switch, the chosen language first in its list.
    chosen = soup(page).select_one("footer select[name=language] option[selected]")
    assert chosen["value"] == "fr" and chosen.get_text() == "Français"


def test_the_switch_refuses_a_language_it_does_not_speak_in_one_sentence(client: FlaskClient) -> None:
    token = csrf_token(client, "/")
    answer = client.post("/language", data={"csrf_token": token, "language": "xx", "next": "/"})
    assert answer.status_code == 400
    text = soup(answer).get_text(" ", strip=True)
    assert "language must be one Muster speaks: en, de, fr." in text


def test_the_switch_never_sends_the_phone_to_another_site(client: FlaskClient) -> None:
    token = csrf_token(client, "/")
    for target in ("//evil.example/", "https://evil.example/", "\\\\evil.example"):
        answer = client.post("/language", data={"csrf_token": token, "language": "de", "next": target})
        assert answer.headers["Location"] == "/"


def test_the_switch_needs_the_forms_token(client: FlaskClient) -> None:
    answer = client.post("/language", data={"language": "de", "next": "/"})
    assert answer.status_code == 400
    assert "muster-lang" not in answer.headers.get("Set-Cookie", "")


def test_scripts_read_their_words_in_the_pages_language(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Language": "fr"})
    assert soup(page).select_one('script[src="/words/fr.js"]') is not None
    words = client.get("/words/fr.js").get_data(as_text=True)
    assert '"Theme: dark. Tap for light.": "Thème : sombre. Touchez pour le clair."' in words
    assert client.get("/words/en.js").status_code == 200
    assert client.get("/words/xx.js").status_code == 404


def test_scripts_say_plurals_by_the_languages_rule(client: FlaskClient) -> None:
    """French counts 0 and 1 as one, and has a form for millions: the words script says so."""
    french = client.get("/words/fr.js").get_data(as_text=True)
    assert (
        "function plural(n) { return Number((n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2); }"
        in french
    )
    assert '"%(count)s entry sent to Muster.": ["%(count)s entrée envoyée à Muster."' in french
    german = client.get("/words/de.js").get_data(as_text=True)
    assert "function plural(n) { return Number((n != 1)); }" in german
    assert "function plural(n) { return Number((n != 1)); }" in client.get("/words/en.js").get_data(
        as_text=True
    )


def test_the_worker_keeps_every_languages_words_and_offline_page(client: FlaskClient) -> None:
    worker = client.get("/sw.js").get_data(as_text=True)
    for code in ("en", *SHIPPED):
        assert f'"/words/{code}.js"' in worker
        assert f'"/offline/{code}"' in worker
    # Each kept without the phone's cookies: the address alone says the language.
    page = client.get("/offline/de", headers={"Accept-Language": "fr"})
    assert soup(page).select_one("h1").get_text(strip=True) == "Muster ist nicht erreichbar"
    assert client.get("/offline/xx").status_code == 404


def _ids(catalogue) -> set[str]:
    return {m.id for m in catalogue if m.id}


def test_the_catalogues_hold_every_string_of_the_code(tmp_path: Path) -> None:
    """`make translations` was run: the templates hold every string the code and screens have."""
    keywords = {
        "messages": [
            "-k",
            "_l",
            "-k",
            "say",
            "-k",
            "say_plural:1,2",
            "-k",
            "words",
            "-k",
            "plural_words:1,2",
        ],
        "scripts": ["-k", "tr", "-k", "trn:1,2"],
    }
    for domain, config in (("messages", "babel.cfg"), ("scripts", "babel-scripts.cfg")):
        out = tmp_path / f"{domain}.pot"
        extract = ["-q", "extract", "-F", config, *keywords[domain], "-o", str(out), "."]
        subprocess.run(
            [sys.executable, "-m", "babel.messages.frontend", *extract],
            cwd=ROOT,
            check=True,
        )
        with out.open("rb") as fresh, (TRANSLATIONS / f"{domain}.pot").open("rb") as kept:
            missing = _ids(read_po(fresh)) - _ids(read_po(kept))
        assert not missing, f"run make translations: {sorted(missing)[:5]} not in {domain}.pot"


def _key(text: str | list[str] | tuple[str, ...]) -> str | tuple[str, ...]:
    """A message's text as one value: a plural's forms (a list once compiled) as a tuple."""
    return text if isinstance(text, str) else tuple(text)


def test_german_and_french_are_complete_and_compiled() -> None:
    for domain in DOMAINS:
        with (TRANSLATIONS / f"{domain}.pot").open("rb") as handle:
            wanted = _ids(read_po(handle))
        for code in SHIPPED:
            folder = TRANSLATIONS / code / "LC_MESSAGES"
            with (folder / f"{domain}.po").open("rb") as handle:
                po = read_po(handle)
            untranslated = [m.id for m in po if m.id and not m.string]
            fuzzy = [m.id for m in po if m.id and m.fuzzy]
            assert not untranslated, f"{code}/{domain}: not translated: {untranslated[:5]}"
            assert not fuzzy, f"{code}/{domain}: fuzzy: {fuzzy[:5]}"
            assert wanted <= _ids(po), f"{code}/{domain}: missing {sorted(wanted - _ids(po))[:5]}"
            with (folder / f"{domain}.mo").open("rb") as handle:
                compiled = {_key(m.id): _key(m.string) for m in read_mo(handle) if m.id}
            assert compiled == {_key(m.id): _key(m.string) for m in po if m.id}, (
                f"{code}/{domain}: run make translations"
            )


def test_numbers_and_moments_are_written_as_the_language_writes_them(app) -> None:
    from app.web.language import day, number, signed, when

    written = {}
    for code in ("en", "de", "fr"):
        with app.test_request_context("/", headers={"Accept-Language": code}):
            written[code] = (
                number(2000),
                number(12.5),
                signed(1),
                when("2026-12-03T18:05:00"),
                day("2026-12-03"),
            )
    assert written["en"] == ("2,000", "12.5", "+1", "12/3/26, 6:05\u202fPM", "Dec 3, 2026")
    assert written["de"] == ("2.000", "12,5", "+1", "03.12.26, 18:05", "03.12.2026")
    assert written["fr"] == ("2\u202f000", "12,5", "+1", "03/12/2026 18:05", "3 déc. 2026")


def test_a_refusal_comes_back_in_the_phones_language(client: FlaskClient) -> None:
    from tests.setups import new_game

    game = new_game(client)
    roll = {"id": str(uuid.uuid4()), "type": "roll", "dice": "2d6", "results": [3]}
    answers = {
        code: client.post(
            f"/api/v1/games/{game['id']}/events",
            json=roll,
            headers={"X-Edit-Token": game["edit_token"], "Accept-Language": code},
        )
        for code in ("en", "de", "fr")
    }
    assert {a.status_code for a in answers.values()} == {422}
    assert answers["en"].json["error"] == "results must hold the two dice of a 2D6 roll."
    assert answers["de"].json["error"] == "results muss die beiden Würfel eines 2W6-Wurfs enthalten."
    assert answers["fr"].json["error"] == "results doit contenir les deux dés d'un jet de 2D6."


def test_every_translation_keeps_the_sentences_blanks() -> None:
    """A translation that lost or renamed a blank ({name} in Python, %(name)s in templates,
    %(name)s in scripts) would fail the sentence as it is said."""
    import re
    import string

    def blanks(text: str) -> set[str]:
        braces = {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name}
        return braces | set(re.findall(r"%\((\w+)\)[sd]", text))

    for code in SHIPPED:
        for domain in DOMAINS:
            with (TRANSLATIONS / code / "LC_MESSAGES" / f"{domain}.po").open("rb") as handle:
                for message in read_po(handle):
                    if not message.id or not message.string:
                        continue
                    ids = message.id if isinstance(message.id, tuple) else (message.id,)
                    strings = message.string if isinstance(message.string, tuple) else (message.string,)
                    wanted = set().union(*(blanks(i) for i in ids))
                    for said in strings:
                        # A plural form may leave out the count ("one die").
                        kept = blanks(said)
                        assert kept <= wanted and kept | {"count", "num"} >= wanted, (code, ids)


def test_the_pseudo_language_runs_through_a_page(tmp_path: Path, migrated: Path) -> None:
    """The tests' pseudo-language (tests/pseudo.py) is spoken like any other catalogue."""
    from app import create_app
    from tests import pseudo
    from tests.conftest import fresh_database

    folder = pseudo.build(tmp_path / "pseudo")
    database = fresh_database(migrated, tmp_path / "muster.sqlite")
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "t", "TRANSLATION_FOLDERS": [str(folder)]})
    page = app.test_client().get("/", headers={"Accept-Language": pseudo.CODE})
    assert soup(page).html["lang"] == pseudo.CODE
    assert pseudo.pseudo("New game") in nav(page)
    assert pseudo.pseudo("{count} dice") == "[{count} đîçé··]"  # blanks stay for the sentence to fill
