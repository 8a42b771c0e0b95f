"""Each unit catalogue loads with its packs and validates; a broken one leaves its pack working."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from app.rules.catalogue import Unit
from app.rules.pack import Pack, load_packs
from tests.conftest import ROOT


@pytest.mark.parametrize(
    ("pack", "catalogue", "factions", "licence"),
    [
        ("aos-ghb-2021", "aos-3", 26, "None stated"),
        ("aos-conquest-unbound", "aos-3", 26, "None stated"),
        ("conquest-first-blood", "conquest", 2, "None stated"),
        ("old-world-rosters", "old-world", 18, "CC BY 4.0"),
        ("tow-triumph-treachery", "old-world", 18, "CC BY 4.0"),
    ],
)
def test_each_catalogue_loads_with_its_pack(
    packs: dict[str, Pack], pack: str, catalogue: str, factions: int, licence: str
) -> None:
    loaded = packs[pack].unit_catalogue
    assert loaded is not None and loaded.id == catalogue
    assert len(loaded.factions) == factions
    assert loaded.licence.startswith(licence)
    assert loaded.commit and loaded.source_url in loaded.source
    assert all(f.units for f in loaded.factions)


def test_the_age_of_sigmar_catalogue_holds_the_facts_the_checks_read(packs: dict[str, Pack]) -> None:
    catalogue = packs["aos-ghb-2021"].unit_catalogue
    assert catalogue.season.startswith("General's Handbook 2021")
    assert packs["aos-ghb-2021"].season == "General's Handbook 2021"
    stormcast = {u.name: u for u in catalogue.units("Stormcast Eternals")}
    # BSData at b92ceb9: 5 Liberators for 115 points, Battleline, reinforced for 115 more, twice.
    liberators = stormcast["Liberators"]
    assert (liberators.points, liberators.models, liberators.roles) == (115, 5, ["battleline"])
    assert liberators.reinforced_points == 115 and liberators.reinforced_twice
    celestant = stormcast["Celestant-Prime, Hammer of Sigmar"]
    assert celestant.keywords == ["HERO"] and celestant.roles == ["leader"] and celestant.unique
    gitz = {u.name: u for u in catalogue.units("gloomspite-gitz")}
    assert gitz["Squig Herd"].battleline_if_general == [
        "Loonboss",
        "Loonboss on Giant Cave Squig",
        "Loonboss with Giant Cave Squig",
        "Moonclan Wizard",
    ]


def test_the_first_blood_pack_says_its_catalogue_is_another_season(packs: dict[str, Pack]) -> None:
    pack = packs["conquest-first-blood"]
    assert pack.unit_catalogue.season.startswith("Conquest: The Last Argument of Kings")
    assert "First Blood's own army lists may price a regiment" in pack.catalogue_note


@pytest.mark.parametrize(
    ("general", "army", "battleline"),
    [
        ("Loonboss", set(), True),
        ("loonboss on squig", set(), True),  # names match in any case
        ("Fungoid Cave-Shaman", set(), False),
        (None, set(), False),
        (None, {"the thunder lizard"}, True),
    ],
)
def test_a_battleline_condition_follows_the_general(
    general: str | None, army: set[str], battleline: bool
) -> None:
    unit = Unit(
        name="Squig Herd",
        points=160,
        models=10,
        battleline_if_general=["Loonboss", "Loonboss on Squig"],
        battleline_if_army_has=["The Thunder Lizard"],
    )
    assert unit.battleline_with(general, army) is battleline


def test_a_broken_or_missing_catalogue_is_reported_and_its_pack_still_loads(tmp_path: Path) -> None:
    folder = tmp_path / "rulepacks"
    shutil.copytree(ROOT / "rulepacks", folder)
    (folder / "catalogues" / "conquest.yaml").write_text("id: conquest\nsource: x\nfactions: 3\n")
    (folder / "catalogues" / "old-world.yaml").unlink()
    packs, errors = load_packs(folder)
    assert {p.id for p in packs.values()} == {
        "aos-conquest-unbound",
        "aos-ghb-2021",
        "conquest-first-blood",
        "old-world-rosters",
        "tow-triumph-treachery",
    }
    assert packs["conquest-first-blood"].unit_catalogue is None
    assert packs["old-world-rosters"].unit_catalogue is None
    assert packs["aos-ghb-2021"].unit_catalogue is not None
    said = [str(e) for e in errors]
    assert "catalogues/conquest.yaml: factions: Input should be a valid list" in said
    assert "old-world-rosters.yaml: catalogue: names catalogues/old-world.yaml, which is not there" in said


def test_a_faction_naming_allies_the_catalogue_does_not_hold_is_refused() -> None:
    from app.rules.catalogue import parse_catalogue

    text = (
        "id: sample\nsource: x\nlicence: x\nseason: x\nfactions:\n"
        "  - {id: seraphon, name: Seraphon, allies: [stormcast-eternals], units: []}\n"
    )
    catalogue, errors = parse_catalogue(text, "catalogues/sample.yaml")
    assert catalogue is None
    assert [str(e) for e in errors] == [
        "catalogues/sample.yaml: faction 'seraphon' names allies ['stormcast-eternals'] that are not "
        "factions of the catalogue"
    ]
    held = text + "  - {id: stormcast-eternals, name: Stormcast Eternals, units: []}\n"
    catalogue, errors = parse_catalogue(held, "catalogues/sample.yaml")
    assert errors == []
    assert [f.name for f in catalogue.allies_of("Seraphon")] == ["Stormcast Eternals"]
