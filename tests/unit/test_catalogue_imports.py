"""Imports use the catalogue: keywords and roles for the units it knows, nearest names for the
lines they could not read (issue 33). Catalogue facts from rulepacks/catalogues/aos-3.yaml."""

from __future__ import annotations

from app.rules import army
from tests.list_texts import WARSCROLL_BUILDER, imported

# Warscroll Builder text naming units without any keyword or role beyond the section.
PLAIN = """\
Allegiance: Gloomspite Gitz
- Grand Strategy: Prized Sorcery

Leaders
Loonboss (75)
- General

Other
10 x Squig Herd (160)
10 x Squig Herd (160)
Mangler Squigs (275)

Total: 670 / 1000
"""


def test_an_imported_unit_gets_its_keywords_and_roles_from_the_catalogue(packs) -> None:
    made = imported(packs, "aos-ghb-2021", PLAIN)
    entries = {e["name"]: e for e in made["roster"]["entries"]}
    assert entries["Loonboss"]["keywords"] == ["HERO"]
    assert entries["Mangler Squigs"]["keywords"] == ["MONSTER"]
    assert entries["Mangler Squigs"]["single_model"] is True
    # The list put the herds under "Other"; under a Loonboss general they are Battleline all the
    # same (the catalogue's condition), so 1000 points' two Battleline are there.
    assert made["verdict"]["valid"] is True, made["verdict"]["problems"]


def test_an_unread_line_offers_the_nearest_catalogue_names(packs) -> None:
    text = WARSCROLL_BUILDER.replace("10 x Saurus Knights (120)", "Saurus Knigts - 120 pts")
    made = imported(packs, "aos-ghb-2021", text)
    assert made["unread"] == [{"line": 14, "text": "Saurus Knigts - 120 pts"}]
    # Seraphon's names first (the list's faction), nearest first.
    assert made["nearest"]["14"][0] == "Saurus Knights"
    assert all(name.startswith("Saurus") for name in made["nearest"]["14"])


def test_muster_text_reads_back_without_the_catalogue_filling_it(packs) -> None:
    body = {
        "pack": "aos-ghb-2021",
        "points_limit": 1000,
        "entries": [{"name": "Loonboss", "points": 75, "roles": ["Leader"], "general": True}],
    }
    roster, pack, _problem = army.parse_roster(body, packs)
    text = army.plain_text(pack, roster, army.check(pack, roster))
    made = imported(packs, "aos-ghb-2021", text)
    assert made["format"] == "muster-text"
    # The text says no keywords: it reads back so, though the catalogue knows a HERO.
    assert made["roster"]["entries"][0]["keywords"] == []
