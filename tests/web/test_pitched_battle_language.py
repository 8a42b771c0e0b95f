"""Pitched Battles' game screen, its refusals and its score sheet in German, French and the pseudo-language (issue 30)."""

from __future__ import annotations

import uuid
from pathlib import Path

from flask.testing import FlaskClient

from tests import pseudo
from tests.pdfs import pdf_text
from tests.setups import NAMES, join, new_game
from tests.web.conftest import Api, soup
from tests.web.game_language import PHONES_LANGUAGE, pseudo_phone, system_words


def _battle(client: FlaskClient) -> tuple[dict, Api]:
    """A Savage Gains game this phone joined: battle round 1 played, Ann's tactic completed,
    battle round 2 started with Bo first."""
    made = new_game(client)
    join(client, made)
    api = Api(client, made)
    api.ok({"type": "battle_round", "round": 1, "first": 0})
    api.ok(
        {
            "type": "turn",
            "round": 1,
            "player": 0,
            "control": {"west": 0, "east": 0},
            "tactic": "conquer",
            "tactic_completed": True,
        }
    )
    api.ok({"type": "turn", "round": 1, "player": 1, "control": {"west": 0, "east": 1}})
    api.ok({"type": "battle_round", "round": 2, "first": 1})
    return made, api


def test_the_pitched_battle_screen_speaks_german(client: FlaskClient) -> None:
    made, _api = _battle(client)
    client.set_cookie(PHONES_LANGUAGE, "de")
    page = soup(client.get(f"/games/{made['id']}"))
    assert page.select_one("#turn-form h2").text == "Schlachtrunde 2: Zug von Bo"
    assert page.select_one("#turn-form button[type=submit]").text == "Zug von Bo eintragen"
    assert page.select_one("label[for=tactic]").text == "Schlachttaktik"
    assert page.select_one("#history-h").text == "Punkte je Schlachtrunde"
    log = page.select_one(".log").text
    assert "Schlachttaktik erfüllt: Conquer" in log and "Taktik: Conquer (erfüllt)" in log
    assert "Battle tactic completed" not in log
    assert page.select_one(".scorebar .muted").text.startswith("Runde 2/")


def test_a_refused_entry_is_said_in_the_phones_language(client: FlaskClient) -> None:
    made, api = _battle(client)
    again = client.post(
        f"/api/v1/games/{made['id']}/events",
        json={"id": str(uuid.uuid4()), "type": "battle_round", "round": 2, "first": 0},
        headers={"X-Edit-Token": made["edit_token"], "Accept-Language": "fr"},
    )
    assert again.status_code == 422
    assert again.json["error"] == (
        "Le round de bataille 2 a déjà commencé ; annulez cette entrée pour la modifier."
    )
    # On the screen, in German: a tactic Ann has already used.
    client.set_cookie(PHONES_LANGUAGE, "de")
    api.ok({"type": "turn", "round": 2, "player": 1, "control": {}})
    url = f"/games/{made['id']}"
    page = soup(client.get(url))
    form = page.select_one("#turn-form")
    data = {i["name"]: i.get("value", "") for i in form.select("input[type=hidden]")}
    data["tactic"] = "conquer"
    refused = client.post(form["action"], data=data, headers={"HX-Request": "true"})
    assert refused.status_code == 422
    assert soup(refused).select_one("#error").text == (
        "Ann hat die Schlachttaktik Conquer schon genutzt; jede Taktik geht einmal pro Schlacht."
    )


def test_the_pitched_battle_score_sheet_prints_in_german(client: FlaskClient) -> None:
    made, _api = _battle(client)
    client.set_cookie(PHONES_LANGUAGE, "de")
    text = " ".join(pdf_text(client.get(f"/games/{made['id']}/scoresheet.pdf").data).split())
    assert "Schlachttaktik erfüllt: Conquer" in text
    assert "Spiel läuft: Schlachtrunde 2 von 5." in text
    assert "Großer Sieg" in text and "Sonst Unentschieden." in text
    assert "Game in progress" not in text and "Battle tactic completed" not in text


def test_the_pitched_battle_screen_holds_no_plain_english_in_the_pseudo_language(
    tmp_path: Path, migrated: Path
) -> None:
    client = pseudo_phone(tmp_path, migrated)
    made, _api = _battle(client)
    # The pack's own words (its rules and readings, a strategy's or tactic's summary, a fact's
    # hint) come from the pack's catalogues, told as written until the pack carries them.
    main = system_words(client, made["id"], "details.rules, .reading, .tactic-targets", ("pack-hint",))
    pack = client.get("/api/v1/packs/aos-ghb-2021").json
    game = client.get(f"/api/v1/games/{made['id']}").json
    books = {t["name"] for t in pack["tactics"]} | {o["label"] for o in game["objectives"]}
    # The sides' tags (ATT, DEF) are the pack's sides, shortened.
    sides = {t.text for t in main.select(".tag")} - {""}
    allowed = set(NAMES) | {"Savage Gains", "MONSTER", "Predators and Prey"} | books | sides
    left = pseudo.english_left(main, allowed)
    assert left == [], "\n".join(left)


def test_both_versions_of_a_refused_turn_in_french(client: FlaskClient) -> None:
    made, _api = _battle(client)
    client.set_cookie(PHONES_LANGUAGE, "fr")
    held = soup(client.get(f"/games/{made['id']}/held?type=turn&round=1&player=0&control.west=1"))
    mine = [li.text.strip() for li in held.select(".version.mine li")]
    theirs = [li.text.strip() for li in held.select(".version.theirs li")]
    assert mine[:2] == ["Round de bataille 1 : tour de Ann", "Tactique de bataille : aucune"]
    assert theirs[:2] == [
        "Round de bataille 1 : tour de Ann, 6 PV",
        "Tactique de bataille : Conquer, accomplie",
    ]
    assert "W : Bo" in mine and "W : Ann" in theirs
    assert held.select_one(".totals").text == "Totaux : Ann 6 PV, Bo 2 PV"
