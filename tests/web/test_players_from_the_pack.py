"""The player count comes from the set-up and the pack, on every screen and sheet.

A club's own pack (here First Blood allowing a third player, with a third side) needs no
code: the new-game screen offers three rows (the third optional), the game, its Victory
Phase form and its score sheet all lay out three players.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

from flask import Flask
from pypdf import PdfReader

from app import create_app
from tests.conftest import ROOT
from tests.web.conftest import soup


def _club_app(tmp_path: Path) -> Flask:
    folder = tmp_path / "rulepacks"
    shutil.copytree(ROOT / "rulepacks", folder)
    pack = folder / "conquest-first-blood.yaml"
    text = pack.read_text()
    text = text.replace("players: {min: 2, max: 2}", "players: {min: 2, max: 3}", 1)
    text = text.replace("sides: [player1, player2]", "sides: [player1, player2, player3]", 1)
    text = text.replace(
        "side_labels: {player1: Player 1, player2: Player 2}",
        "side_labels: {player1: Player 1, player2: Player 2, player3: Player 3}",
        1,
    )
    pack.write_text(text)
    return create_app(
        {"DATABASE": str(tmp_path / "m.sqlite"), "RULEPACKS": str(folder), "TESTING": True, "SECRET_KEY": "t"}
    )


def test_a_three_player_club_pack_plays_on_every_screen(tmp_path: Path) -> None:
    client = _club_app(tmp_path).test_client()
    page = soup(client.get("/games/new?pack=conquest-first-blood"))
    rows = page.select("fieldset.player")
    assert len(rows) == 3 and "(optional)" in rows[2].select_one("legend").text
    assert page.select_one("#name2").get("required") is None and page.select_one("#name1").has_attr(
        "required"
    )
    assert [o.text for o in page.select("#side2 option")] == ["Player 1", "Player 2", "Player 3"]
    form = {
        "csrf_token": page.select_one('input[name="csrf_token"]')["value"],
        "points_limit": "800",
        "scenario": "outflank",
        **{f"name{i}": name for i, name in enumerate(("Ann", "Bo", "Cy"))},
        **{f"side{i}": f"player{i + 1}" for i in range(3)},
    }
    made = client.post("/games?pack=conquest-first-blood", data=form)
    assert made.status_code == 303, made.data[:400]
    url = made.headers["Location"]
    game_id = url.rsplit("/", 1)[1]
    state = client.get(f"/api/v1/games/{game_id}").json
    assert [(p["name"], p["side"]) for p in state["players"]] == [
        ("Ann", "player1"),
        ("Bo", "player2"),
        ("Cy", "player3"),
    ]
    # The Victory Phase form asks each of the three for their part.
    game_page = soup(client.get(url))
    phase = game_page.select_one("#phase-form")
    assert {i.get("name") for i in phase.select('input[name$="character_slain"]')} == {
        "p0.character_slain",
        "p1.character_slain",
        "p2.character_slain",
    }
    # A blank third row is no player: the same form with two names makes a two-player game.
    two = {**form, "name2": "", "side2": "player3"}
    state2 = client.get(
        f"/api/v1/games/{client.post('/games?pack=conquest-first-blood', data=two).headers['Location'].rsplit('/', 1)[1]}"
    ).json
    assert [p["name"] for p in state2["players"]] == ["Ann", "Bo"]
    # The score sheet has a line and a VP column named for each of the three, on one page.
    sheet = client.get(f"/games/{game_id}/scoresheet.pdf")
    pages = PdfReader(io.BytesIO(sheet.data)).pages
    text = "\n".join(p.extract_text() for p in pages)
    assert all(f"Player {n}" in text for n in (1, 2, 3)), text
    assert all(f"{name}\nVP" in text for name in ("Ann", "Bo", "Cy")), text
    assert len(pages) == 1
