"""GET /api/v1/packs/<pack>/catalogue, to the letter of issue 33."""

from __future__ import annotations

import shutil
from pathlib import Path

from app import create_app
from tests.conftest import ROOT


def test_the_catalogue_answers_source_season_and_factions_with_units(client) -> None:
    response = client.get("/api/v1/packs/aos-ghb-2021/catalogue")
    assert response.status_code == 200
    body = response.json
    assert {"source", "season", "factions"} <= set(body)
    assert body["source"].startswith("BSData warhammer-age-of-sigmar (https://github.com/BSData/")
    assert body["season"].startswith("General's Handbook 2021")
    assert body["pack_season"] == "General's Handbook 2021"
    stormcast = next(f for f in body["factions"] if f["name"] == "Stormcast Eternals")
    assert stormcast["id"] == "stormcast-eternals"
    liberators = next(u for u in stormcast["units"] if u["name"] == "Liberators")
    assert {k: liberators[k] for k in ("name", "points", "models", "keywords", "roles")} == {
        "name": "Liberators",
        "points": 115,
        "models": 5,
        "keywords": [],
        "roles": ["battleline"],
    }
    lord = next(u for u in stormcast["units"] if u["name"] == "Lord-Celestant")
    assert lord["keywords"] == ["HERO"] and lord["roles"] == ["leader"]


def test_first_blood_says_where_its_catalogue_differs(client) -> None:
    body = client.get("/api/v1/packs/conquest-first-blood/catalogue").json
    assert body["season"].startswith("Conquest: The Last Argument of Kings")
    assert "First Blood's own army lists" in body["pack_note"]
    militia = next(u for f in body["factions"] for u in f["units"] if u["name"] == "Militia")
    assert (militia["points"], militia["models"], militia["type"], militia["roles"]) == (
        90,
        12,
        "infantry",
        ["regiment"],
    )


def test_404_for_a_pack_without_a_catalogue_and_for_no_pack(tmp_path: Path) -> None:
    folder = tmp_path / "rulepacks"
    shutil.copytree(ROOT / "rulepacks", folder)
    pack = folder / "old-world-rosters.yaml"
    pack.write_text(
        "\n".join(line for line in pack.read_text().splitlines() if not line.startswith("catalogue:"))
    )
    client = create_app(
        {"DATABASE": str(tmp_path / "m.sqlite"), "RULEPACKS": str(folder), "TESTING": True, "SECRET_KEY": "x"}
    ).test_client()
    response = client.get("/api/v1/packs/old-world-rosters/catalogue")
    assert response.status_code == 404
    assert response.json["error"] == (
        "The rulepack 'old-world-rosters' has no unit catalogue; its rosters take typed units."
    )
    assert client.get("/api/v1/packs/chess/catalogue").status_code == 404
    # The pack itself works as before.
    assert client.get("/api/v1/packs/old-world-rosters").status_code == 200
