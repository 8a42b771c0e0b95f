"""Roster checks read the catalogue: a unit Battleline only under some generals (GHB 2021).

Worked by hand from rulepacks/catalogues/aos-3.yaml (BSData at b92ceb9): in Gloomspite Gitz a
Squig Herd (160 points, 10 models) is Battleline when the general is a Loonboss (75 points);
a 1000-point Pitched Battle army needs 2 Battleline units.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import army
from app.rules.pack import Pack


def _roster(general: str, herds: int = 2, **extra: Any) -> dict[str, Any]:
    leader = {"name": general, "points": 95, "roles": ["Leader"], "keywords": ["HERO"], "general": True}
    herd = {"name": "Squig Herd", "points": 160, "models": 10}
    return {
        "pack": "aos-ghb-2021",
        "points_limit": 1000,
        "faction": "Gloomspite Gitz",
        "grand_strategy": "prized-sorcery",
        "entries": [leader, *[dict(herd) for _ in range(herds)]],
        **extra,
    }


def _verdict(packs: dict[str, Pack], body: dict[str, Any]) -> army.Verdict:
    roster, pack, problem = army.parse_roster(body, packs)
    assert problem is None
    return army.check(pack, roster)


@pytest.mark.parametrize(
    ("general", "battleline", "rules"),
    [
        # Under a Loonboss the two herds are the two Battleline units 1000 points needs.
        ("Loonboss", 2, []),
        ("Loonboss on Giant Cave Squig", 2, []),
        # Under a Fungoid Cave-Shaman they are not Battleline: 0 of 2.
        ("Fungoid Cave-Shaman", 0, ["battleline-min"]),
    ],
)
def test_battleline_follows_the_general(packs, general: str, battleline: int, rules: list[str]) -> None:
    verdict = _verdict(packs, _roster(general))
    assert verdict.counts["battleline"] == battleline
    assert [p.rule for p in verdict.problems] == rules


def test_a_conditional_battleline_unit_may_be_reinforced_twice_only_when_it_is_battleline(packs) -> None:
    twice = _roster("Loonboss")
    twice["entries"][1] |= {"size": "reinforced-twice", "points": 480}
    assert [p.rule for p in _verdict(packs, twice).problems] == []
    twice["entries"][0]["name"] = "Madcap Shaman"
    assert [p.rule for p in _verdict(packs, twice).problems] == [
        "battleline-min",
        "reinforced-twice-battleline",
    ]


def test_a_subfaction_can_make_a_unit_battleline(packs) -> None:
    # Seraphon: a Stegadon (265 points) is Battleline in The Thunder Lizard constellation.
    body = {
        "pack": "aos-ghb-2021",
        "points_limit": 1000,
        "faction": "Seraphon",
        "grand_strategy": "prized-sorcery",
        "entries": [
            {
                "name": "Saurus Oldblood",
                "points": 110,
                "roles": ["Leader"],
                "keywords": ["HERO"],
                "general": True,
            },
            {"name": "Stegadon", "points": 265, "roles": ["Behemoth"]},
            {"name": "Stegadon", "points": 265, "roles": ["Behemoth"]},
        ],
    }
    assert _verdict(packs, body).counts["battleline"] == 0
    body["subfaction"] = "The Thunder Lizard"
    verdict = _verdict(packs, body)
    # Battleline now, and a Battleline Behemoth is not counted against the Behemoth maximum.
    assert (verdict.counts["battleline"], verdict.counts["behemoths"]) == (2, 0)
    assert verdict.valid


# Allies by faction: the data names no faction's allies (tools/README.md), so these examples give
# Seraphon one allied faction, Stormcast Eternals, in a copy of the catalogue. Liberators are a
# Stormcast Eternals unit (115 points), Clanrats a Skaven one (130).
def _with_allies(packs: dict[str, Pack], faction: str, allies: list[str]) -> dict[str, Pack]:
    pack = packs["aos-ghb-2021"]
    factions = [
        f.model_copy(update={"allies": allies}) if f.id == faction else f
        for f in pack.unit_catalogue.factions
    ]
    catalogue = pack.unit_catalogue.model_copy(update={"factions": factions})
    copy = pack.model_copy()
    copy._catalogue = catalogue
    return {**packs, pack.id: copy}


def _seraphon_with(*entries: dict[str, Any]) -> dict[str, Any]:
    return {
        "pack": "aos-ghb-2021",
        "points_limit": 1000,
        "faction": "Seraphon",
        "grand_strategy": "prized-sorcery",
        "entries": [{"name": "Saurus Warriors", "points": 100}, *entries],
    }


def _ally_problems(packs: dict[str, Pack], body: dict[str, Any]) -> list[str]:
    return [p.message for p in _verdict(packs, body).problems if p.rule == "ally-faction"]


LIBERATORS = {"name": "Liberators", "points": 115, "ally": True, "faction": "Stormcast Eternals"}
CLANRATS = {"name": "Clanrats", "points": 130, "ally": True, "faction": "Skaven"}
REFUSED = (
    "'Clanrats' (entry 2) is an ally from Skaven; Seraphon may take allies only from Stormcast Eternals."
)


def test_an_ally_from_an_allied_faction_is_taken(packs) -> None:
    assert (
        _ally_problems(_with_allies(packs, "seraphon", ["stormcast-eternals"]), _seraphon_with(LIBERATORS))
        == []
    )


def test_an_ally_from_another_faction_is_refused_naming_the_factions_allowed(packs) -> None:
    allied = _with_allies(packs, "seraphon", ["stormcast-eternals"])
    assert _ally_problems(allied, _seraphon_with(CLANRATS)) == [REFUSED]
    # An ally written without its faction is known by its name: Clanrats are Skaven.
    unnamed = {k: v for k, v in CLANRATS.items() if k != "faction"}
    assert _ally_problems(allied, _seraphon_with(unnamed)) == [REFUSED]
    # A unit the catalogue does not know is the player's word.
    custom = {"name": "Converted Skink Host", "points": 90, "ally": True}
    assert _ally_problems(allied, _seraphon_with(custom)) == []


def test_where_the_catalogue_names_no_allies_the_ally_flag_stands(packs) -> None:
    # Muster's own catalogue names none: a Skaven ally is the player's choice.
    assert _ally_problems(packs, _seraphon_with(CLANRATS)) == []
