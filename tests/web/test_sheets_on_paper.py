"""Paper (issue 24 item 12): a whole Pitched Battle fits one page, sheets name each player's
army, First Blood writes the players' names, the roster PDF is titled with the roster's and
player's names and subfaction, and pairings and standings print names in 16 pt."""

from __future__ import annotations

import io
import uuid
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from app import create_app
from tests.conftest import fresh_database
from tests.pdfs import pdf_text
from tests.setups import first_blood_game, new_game, seraphon_roster

PASSWORD = "paper-pw"
TACTICS = {
    0: ["conquer", "broken-ranks", "slay-the-warlord", "ferocious-advance", "bring-it-down"],
    1: ["aggressive-expansion", "monstrous-takeover", "savage-spearhead", "conquer", "broken-ranks"],
}


@pytest.fixture
def app(tmp_path: Path, migrated: Path) -> Flask:
    return create_app(
        {
            "DATABASE": str(fresh_database(migrated, tmp_path / "muster.sqlite")),
            "TESTING": True,
            "SECRET_KEY": "test",
            "ADMIN_PASSWORD": PASSWORD,
            "LIMIT_PDFS": 0,
            "PDF_CACHE_MB": 0,
        }
    )


def _send(client: FlaskClient, game: dict[str, Any], event: dict[str, Any]) -> None:
    answer = client.post(
        f"/api/v1/games/{game['id']}/events",
        json={"id": str(uuid.uuid4()), **event},
        headers={"X-Edit-Token": game["edit_token"]},
    )
    assert answer.status_code == 201, answer.json


def _pages(data: bytes) -> int:
    return len(PdfReader(io.BytesIO(data)).pages)


def _sizes(data: bytes, word: str) -> list[float]:
    """The printed size (pt) of each run of text holding ``word``."""
    found: list[float] = []

    def visit(text: str, cm: list[float], tm: list[float], _font: Any, size: float) -> None:
        if word in text:
            found.append(round(size * abs(tm[3]) * abs(cm[3]), 1))

    for page in PdfReader(io.BytesIO(data)).pages:
        page.extract_text(visitor_text=visit)
    return found


def test_a_whole_pitched_battle_fits_one_page_and_names_each_army(client: FlaskClient) -> None:
    game = new_game(client, "savage-gains")
    roster = client.post("/api/v1/rosters", json=seraphon_roster(subfaction="Koatl's Claw")).json
    attached = client.post(
        f"/api/v1/games/{game['id']}/rosters",
        json={"player": 0, "roster": roster["id"]},
        headers={"X-Edit-Token": game["edit_token"]},
    )
    assert attached.status_code == 201
    # Five battle rounds in which every turn holds objectives and completes a tactic: the
    # longest "how the VP were scored" a Savage Gains sheet prints.
    held = {"attacker-border": 0, "west": 0, "east": 1, "defender-border": 1}
    for r in range(1, 6):
        _send(client, game, {"type": "battle_round", "round": r, "first": 0})
        for player in (0, 1):
            turn = {"type": "turn", "round": r, "player": player, "control": held}
            _send(client, game, {**turn, "tactic": TACTICS[player][r - 1], "tactic_completed": True})
    for paper in ("a4", "letter"):
        sheet = client.get(f"/games/{game['id']}/scoresheet.pdf?paper={paper}")
        assert sheet.status_code == 200
        assert _pages(sheet.data) == 1, paper
    text = pdf_text(sheet.data)
    assert "Seraphon (Koatl's Claw), Hammerfest" in text
    assert text.count("Army") == 2  # a line for each player's army, Bo's left to write in
    blank = client.get("/packs/aos-ghb-2021/scenarios/savage-gains/scoresheet.pdf")
    assert _pages(blank.data) == 1 and pdf_text(blank.data).count("Army") == 2


def test_first_blood_writes_the_players_names(client: FlaskClient) -> None:
    game = first_blood_game(client, "pincer")
    _send(client, game, {"type": "round", "round": 1, "control": {}, "players": [{}, {}]})
    scored = [{"markers_destroyed": ["west-marker", "marker-b"]}, {"character_slain": True}]
    _send(client, game, {"type": "round", "round": 2, "control": {"centre-zone": 0}, "players": scored})
    sheet = client.get(f"/games/{game['id']}/scoresheet.pdf?paper=letter")
    text = pdf_text(sheet.data)
    assert _pages(sheet.data) == 1
    assert "Ann\nVP" in text and "Bo\nVP" in text and "Player 1 VP" not in text
    assert "How Ann scored" in text and "How Bo scored" in text and "P1:" not in text
    assert "Destroyed marker W +5" in text


def test_triumph_and_treachery_sheets_write_names_not_p1(client: FlaskClient) -> None:
    """Issue 24 item 12: a filled sheet names each player; a blank one says "Player 1", never "P1"."""
    body = {
        "pack": "tow-triumph-treachery",
        "scenario": "altar-of-the-gods",
        "points_limit": 2000,
        "players": [{"name": name} for name in ("Ann", "Bo", "Cara")],
    }
    game = client.post("/api/v1/games", json=body).json
    filled = pdf_text(client.get(f"/games/{game['id']}/scoresheet.pdf?paper=a4").data)
    assert "Ann VP" in filled and "Cara VP" in filled and "P1" not in filled
    assert game["id"] not in filled  # no id on paper (issue 24 item 6)
    blank = pdf_text(
        client.get("/packs/tow-triumph-treachery/scenarios/altar-of-the-gods/scoresheet.pdf").data
    )
    assert "Player 1 VP" in blank and "Player 3 VP" in blank and "P1" not in blank


def test_the_roster_pdf_is_titled_with_the_roster_player_and_subfaction(client: FlaskClient) -> None:
    body = seraphon_roster(player="Ann", subfaction="Koatl's Claw")
    roster = client.post("/api/v1/rosters", json=body).json
    sheet = client.get(f"/rosters/{roster['id']}/roster.pdf")
    reader = PdfReader(io.BytesIO(sheet.data))
    first = reader.pages[0].extract_text().splitlines()
    assert first[:2] == ["Hammerfest · Ann", "Seraphon: Koatl's Claw"]
    assert reader.metadata.title == "Hammerfest: Ann (Koatl's Claw)"
    assert client.get(f"/api/v1/rosters/{roster['id']}").json["roster"]["player"] == "Ann"


def test_pairings_and_standings_print_names_in_16_pt(client: FlaskClient) -> None:
    made = client.post(
        "/api/v1/events",
        json={"name": "Club night", "pack": "conquest-first-blood", "points_limit": 500, "rounds": 3},
        headers={"Authorization": f"Bearer {PASSWORD}"},
    ).json
    org = {"X-Organiser-Token": made["organiser_token"]}
    for name in ("Annabel", "Bartholomew", "Cyrus", "Dorothea"):
        client.post(f"/api/v1/events/{made['id']}/players", json={"name": name}, headers=org)
    client.post(f"/api/v1/events/{made['id']}/rounds", headers=org)
    for sheet in ("pairings", "standings"):
        data = client.get(f"/events/{made['id']}/{sheet}.pdf").data
        for name in ("Annabel", "Dorothea"):
            sizes = _sizes(data, name)
            assert sizes and min(sizes) >= 16, (sheet, name, sizes)


@pytest.mark.parametrize(
    ("scenario", "players", "player"),
    [
        ("the-relief-force", [{"name": "Ann", "side": "attacker"}, {"name": "Bo", "side": "defender"}], 0),
        ("tunnel-wars", [{"name": "Ann"}, {"name": "Bo"}], 1),
        ("convergence-of-fate", [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}], 2),
    ],
)
def test_the_conquest_unbound_sheets_name_an_attached_army(
    client: FlaskClient, scenario: str, players: list[dict[str, str]], player: int
) -> None:
    body = {"pack": "aos-conquest-unbound", "scenario": scenario, "points_limit": 2000, "players": players}
    game = client.post("/api/v1/games", json=body).json
    roster = client.post("/api/v1/rosters", json=seraphon_roster(subfaction="Koatl's Claw")).json
    attached = client.post(
        f"/api/v1/games/{game['id']}/rosters",
        json={"player": player, "roster": roster["id"]},
        headers={"X-Edit-Token": game["edit_token"]},
    )
    assert attached.status_code == 201
    text = " ".join(pdf_text(client.get(f"/games/{game['id']}/scoresheet.pdf").data).split())
    assert "Seraphon (Koatl's Claw), Hammerfest" in text
