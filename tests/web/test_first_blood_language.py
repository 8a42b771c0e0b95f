"""First Blood's game screen, its refusals and its score sheet in German, French and the pseudo-language (issue 30)."""

from __future__ import annotations

import uuid
from pathlib import Path

from flask.testing import FlaskClient

from tests import pseudo
from tests.pdfs import pdf_text
from tests.setups import NAMES, first_blood_game, join
from tests.web.conftest import form_fields, soup
from tests.web.game_language import PHONES_LANGUAGE, pseudo_phone, system_words
from tests.web.games_played import SCRIPTS


def _post(client: FlaskClient, made: dict, event: dict, language: str = "en"):
    return client.post(
        f"/api/v1/games/{made['id']}/events",
        json={"id": str(uuid.uuid4()), **event},
        headers={"X-Edit-Token": made["edit_token"], "Accept-Language": language},
    )


def _raid(client: FlaskClient, rounds: int) -> dict:
    """A Raid game this phone joined, ``rounds`` Victory Phases of its script recorded."""
    made = first_blood_game(client, "raid")
    join(client, made)
    for r, (control, ann, bo) in enumerate(SCRIPTS["raid"][0][:rounds], start=1):
        assert (
            _post(
                client, made, {"type": "round", "round": r, "control": control, "players": [ann, bo]}
            ).status_code
            == 201
        )
    return made


def test_the_first_blood_screen_speaks_german(client: FlaskClient) -> None:
    made = _raid(client, 2)
    client.set_cookie(PHONES_LANGUAGE, "de")
    page = soup(client.get(f"/games/{made['id']}"))
    assert page.select_one("#phase-form h2").text == "Runde 3: Siegphase"
    assert page.select_one("#phase-form button[type=submit]").text == "Runde 3 eintragen"
    assert page.select_one("#history-h").text == "Punkte je Runde"
    assert page.select_one(".scorebar .muted").text.startswith("Runde 3/")
    assert "Nimmt die feindliche Zone B ein" in page.select_one(".log").text
    assert "Seizes" not in page.select_one(".log").text


def test_a_refused_victory_phase_is_said_in_the_phones_language(client: FlaskClient) -> None:
    made = first_blood_game(client, "twin-contested-zones")
    early = _post(client, made, {"type": "round", "round": 1, "control": {"west-zone": 0}}, "fr")
    assert early.status_code == 422
    assert early.json["error"] == "control['west-zone'] : rien ne peut être pris au round 1."
    # On the screen, in German: the tapped zone is contested by the enemy marker.
    url = f"/games/{made['id']}"
    join(client, made)
    _post(client, made, {"type": "round", "round": 1, "control": {}, "players": []})
    client.set_cookie(PHONES_LANGUAGE, "de")
    action, data = form_fields(client.get(url), "#phase-form")
    data["control.east-zone"] = "0"
    refused = client.post(action, data=data, headers={"HX-Request": "true"})
    assert refused.status_code == 422
    assert "ist für Ann umkämpft, solange der feindliche Marker" in soup(refused).select_one("#error").text


def test_the_first_blood_score_sheet_prints_in_german(client: FlaskClient) -> None:
    made = _raid(client, len(SCRIPTS["raid"][0]))
    client.set_cookie(PHONES_LANGUAGE, "de")
    text = " ".join(pdf_text(client.get(f"/games/{made['id']}/scoresheet.pdf").data).split())
    assert "16 SP in Runde 3 erreicht" in text and "Nimmt die feindliche Zone B ein" in text
    assert "ERGEBNIS" in text and "SO WERTET RAID" in text  # headings print in capitals
    assert "VP reached" not in text and "HOW RAID SCORES" not in text


def test_the_first_blood_screen_holds_no_plain_english_in_the_pseudo_language(
    tmp_path: Path, migrated: Path
) -> None:
    client = pseudo_phone(tmp_path, migrated)
    made = _raid(client, 2)
    # The pack's own words (its rules, its reinforcement rule) come from the pack's catalogues,
    # told as written until the pack carries them; the map draws the book's labels and the
    # calculator names the book's classes of models.
    main = system_words(client, made["id"], "details.rules, svg, .calc-row span", ("reinforcements",))
    game = client.get(f"/api/v1/games/{made['id']}").json
    allowed = set(NAMES) | {"Raid"} | {o["label"] for o in game["objectives"]}
    left = pseudo.english_left(main, allowed)
    assert left == [], "\n".join(left)


def test_the_api_says_what_scored_in_the_phones_language(client: FlaskClient) -> None:
    made = _raid(client, len(SCRIPTS["raid"][0]))
    said = {
        code: client.get(f"/api/v1/games/{made['id']}", headers={"Accept-Language": code}).json
        for code in ("en", "fr")
    }
    rules = {
        code: [b["rule"] for b in game["rounds"][1]["players"][0]["breakdown"]] for code, game in said.items()
    }
    assert "Seizes the enemy zone B" in rules["en"] and "Prend la zone ennemie B" in rules["fr"]
    assert said["en"]["result"]["reason"] == "16 VP reached in round 3: Ann has the most VP (21 to 8)."
    assert said["fr"]["result"]["reason"] == "16 PV atteints au round 3 : Ann a le plus de PV (21 à 8)."


def test_both_versions_of_a_refused_victory_phase_in_german(client: FlaskClient) -> None:
    made = _raid(client, 2)
    client.set_cookie(PHONES_LANGUAGE, "de")
    held = soup(client.get(f"/games/{made['id']}/held?type=round&round=2&p0.character_slain=on"))
    mine = [li.text.strip() for li in held.select(".version.mine li")]
    theirs = [li.text.strip() for li in held.select(".version.theirs li")]
    assert mine[0] == "Runde 2: Siegphase"
    assert "Was Ann in dieser Runde tat: Feindliches Charakterregiment getötet" in mine
    assert theirs[0] == "Runde 2: Ann +13 SP, Bo +8 SP"
    assert held.select_one(".totals").text == "Gesamt: Ann 13 SP, Bo 8 SP"


def test_a_game_kept_between_requests_speaks_each_phones_language(client: FlaskClient) -> None:
    # The replayed game is kept in memory between requests: folded for a German phone, it
    # still reads in English to the next, and in German again after that.
    made = _raid(client, 2)
    url = f"/games/{made['id']}"
    logs = {}
    for code in ("de", "en", "de"):
        client.set_cookie(PHONES_LANGUAGE, code)
        logs.setdefault(code, []).append(soup(client.get(url)).select_one(".log").text)
    assert all("Nimmt die feindliche Zone B ein" in log for log in logs["de"])
    assert "Seizes the enemy zone B" in logs["en"][0] and "Nimmt" not in logs["en"][0]
