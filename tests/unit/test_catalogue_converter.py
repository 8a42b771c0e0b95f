"""tools/catalogues.py on small samples of each source format (tests/data/catalogues).

The samples are hand-made in BSData's BattleScribe XML and Old World Builder's JSON; every
expected value below is read off the sample by hand.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "catalogues"


def _tool() -> Any:
    spec = importlib.util.spec_from_file_location("catalogues_tool", ROOT / "tools" / "catalogues.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


def _run(kind: str, folder: Path, out: Path) -> dict[str, Any]:
    code = _tool().main(
        [
            kind,
            str(folder),
            "--out",
            str(out),
            "--id",
            "sample",
            "--name",
            "Sample data",
            "--url",
            "https://example.org/sample",
            "--commit",
            "0123456789abcdef0123456789abcdef01234567",
            "--date",
            "2022-01-28",
            "--licence",
            "CC BY 4.0",
            "--season",
            "Sample season",
        ]
    )
    assert code == 0
    return yaml.safe_load(out.read_text(encoding="utf-8"))


def _units(doc: dict[str, Any], faction: str) -> dict[str, dict[str, Any]]:
    found = next(f for f in doc["factions"] if f["name"] == faction)
    return {u["name"]: u for u in found["units"]}


def test_aos_sample_gives_points_models_keywords_roles_and_conditions(tmp_path: Path) -> None:
    doc = _run("aos", DATA / "aos", tmp_path / "aos.yaml")
    assert doc["source"] == "Sample data (https://example.org/sample), commit 0123456789ab of 2022-01-28"
    assert doc["licence"] == "CC BY 4.0"
    assert doc["season"] == "Sample season"
    # The library ("Data") is not an army: one faction, named after the file's last part.
    assert [(f["id"], f["name"], f["grand_alliance"]) for f in doc["factions"]] == [
        ("lanterns", "Lanterns", "Order")
    ]
    # The allegiance's groups give the subfactions; its rules are not one, and an army type's
    # own choices are (Seraphon's constellations, under Starborne and Coalesced).
    assert doc["factions"][0]["subfactions"] == ["Bright Wick", "Dim Wick", "Blue Flame", "Red Flame"]
    units = _units(doc, "Lanterns")
    # A hidden link and a [LEGENDS] unit are left out.
    assert sorted(units) == ["Lamp Warden", "Moth Riders", "Old Moth", "Wick Guard"]
    assert units["Lamp Warden"] == {
        "name": "Lamp Warden",
        "points": 120,
        "models": 1,
        "keywords": ["HERO", "WIZARD"],
        "roles": ["leader"],
        "single_model": True,
    }
    # The size upgrade carries the points (0 + 90) and the model count; reinforced twice allowed.
    assert units["Wick Guard"] == {
        "name": "Wick Guard",
        "points": 90,
        "models": 10,
        "keywords": [],
        "roles": ["battleline"],
        "reinforced_points": 90,
        "reinforced_twice": True,
    }
    # Battleline only when the general is a Lamp Warden: the condition names the general's unit.
    assert units["Moth Riders"]["roles"] == []
    assert units["Moth Riders"]["battleline_if_general"] == ["Lamp Warden"]
    assert units["Moth Riders"]["points"] == 150 and units["Moth Riders"]["reinforced_points"] == 150
    assert "reinforced_twice" not in units["Moth Riders"]
    assert units["Old Moth"] == {
        "name": "Old Moth",
        "points": 310,
        "models": 1,
        "keywords": ["MONSTER"],
        "roles": ["behemoth"],
        "unique": True,
        "single_model": True,
    }


def test_aos_allies_force_names_no_faction_so_no_allies_are_written(tmp_path: Path) -> None:
    # The sample's "Allies" force and the allegiance hidden inside it are all the data says of
    # allies: no faction's list of allies is made up from them, and the catalogue still loads.
    from app.rules.catalogue import parse_catalogue

    out = tmp_path / "aos.yaml"
    doc = _run("aos", DATA / "aos", out)
    assert "allies" not in doc["factions"][0]
    assert doc["factions"][0]["subfactions"] == ["Bright Wick", "Dim Wick", "Blue Flame", "Red Flame"]
    catalogue, errors = parse_catalogue(out.read_text(encoding="utf-8"), "catalogues/aos.yaml")
    assert errors == [] and catalogue.allies_of("Lanterns") == []


def test_conquest_sample_gives_characters_and_regiments(tmp_path: Path) -> None:
    doc = _run("conquest", DATA / "conquest", tmp_path / "conquest.yaml")
    units = _units(doc, "Lanterns")
    assert units["Wick Sergeant"] == {
        "name": "Wick Sergeant",
        "points": 70,
        "models": 1,
        "keywords": ["WIZARD"],
        "roles": ["character"],
        "type": "infantry",
    }
    # Three stands of one model each.
    assert units["Moth Lancers"] == {
        "name": "Moth Lancers",
        "points": 160,
        "models": 3,
        "keywords": [],
        "roles": ["regiment"],
        "type": "cavalry",
    }


def test_old_world_sample_prices_the_smallest_unit(tmp_path: Path) -> None:
    doc = _run("old-world", DATA / "old-world", tmp_path / "ow.yaml")
    # magic-items.json is not an army.
    assert [f["name"] for f in doc["factions"]] == ["Lantern Realms"]
    units = _units(doc, "Lantern Realms")
    assert sorted(units) == ["Great Moth", "Lamp Lord", "Wick Spearmen"]  # the 0-point option is left out
    assert units["Lamp Lord"]["points"] == 95 and units["Lamp Lord"]["category"] == "characters"
    # 10 spearmen at 6 points each.
    assert units["Wick Spearmen"]["points"] == 60
    assert units["Wick Spearmen"]["models"] == 10
    assert units["Wick Spearmen"]["points_per_model"] == 6
    assert units["Great Moth"]["roles"] == ["rare"]


def test_aos_allegiance_named_otherwise_still_gives_the_subfactions(tmp_path: Path) -> None:
    # As Ossiarch Bonereapers' "Allegiance: The Ossiarch Empire", whose group "Legion" holds
    # "Legion: Ivory Host" and the like.
    folder = tmp_path / "aos"
    folder.mkdir()
    for path in (DATA / "aos").iterdir():
        text = path.read_text(encoding="utf-8")
        text = text.replace('name="Allegiance: Lanterns"', 'name="Allegiance: The Lantern Realm"')
        text = text.replace('name="Wicks"', 'name="Wick"').replace('name="Dim Wick"', 'name="Wick: Dim"')
        (folder / path.name).write_text(text, encoding="utf-8")
    doc = _run("aos", folder, tmp_path / "aos.yaml")
    assert doc["factions"][0]["subfactions"] == ["Bright Wick", "Dim", "Blue Flame", "Red Flame"]
