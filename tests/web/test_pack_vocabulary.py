"""A pack's own words reach the screens with no code: facts are drawn by their kind.

A club renames the vantage point fact of the battleplan First Blood (Pitched Battles): the
start-of-round form asks for the renamed fact with the pack's label and the API records
it under the new name, refusing the old one.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from app import create_app
from tests.conftest import ROOT
from tests.setups import new_game
from tests.web.conftest import Api, soup


def test_a_renamed_fact_is_asked_and_recorded_by_its_new_name(tmp_path: Path) -> None:
    folder = tmp_path / "rulepacks"
    shutil.copytree(ROOT / "rulepacks", folder)
    pack = folder / "aos-ghb-2021.yaml"
    text = pack.read_text()
    old = "{name: vantage, kind: objective, label: Vantage point (named by the player going second)}"
    assert old in text
    pack.write_text(text.replace(old, "{name: watchtower, kind: objective, label: Watchtower held}"))
    app = create_app({"DATABASE": str(tmp_path / "m.sqlite"), "RULEPACKS": str(folder), "TESTING": True})
    client = app.test_client()
    made = new_game(client, "first-blood")
    client.get(f"/games/{made['id']}/join/{made['edit_token']}")
    page = soup(client.get(f"/games/{made['id']}"))
    select = page.select_one("#round-form select#watchtower")
    assert select is not None and page.select_one("#vantage") is None
    assert page.select_one('label[for="watchtower"]').text == "Watchtower held"
    assert select.select_one("option").text == "Not recorded"
    api = Api(client, made)
    refused = api.post({"type": "battle_round", "round": 1, "first": 0, "vantage": "north-east"})
    assert refused.status_code == 422 and "vantage is not recorded" in refused.json["error"]
    state = api.ok({"type": "battle_round", "round": 1, "first": 0, "watchtower": "north-east"})
    assert state["rounds"][0]["watchtower"] == "north-east"
