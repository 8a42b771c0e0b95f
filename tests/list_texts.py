"""Army lists as players export them from their list builders, for the import tests of every
tier: a folder of real exported files (tests/data/lists) and lists written out here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.rules.problems import Problem
from app.services import list_import

# Real exported lists, kept in the repository (their sources in tests/data/lists/SOURCES.md).
LISTS = Path(__file__).resolve().parent / "data" / "lists"


WARSCROLL_BUILDER = """\
Allegiance: Seraphon
- Constellation: Koatl's Claw
- Grand Strategy: Beast Master

Leaders
Saurus Oldblood on Carnosaur (300)
- General
- Command Trait: Old and Grizzled

Battleline
10 x Saurus Warriors (105)
20 x Saurus Warriors (210)
- Reinforced x 1
10 x Saurus Knights (120)

Total: 735 / 1000
Reinforced Units: 1 / 2
Allies: 0 / 200
Wounds: 60
"""


ROS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="Ros list" gameSystemName="Warhammer Age of Sigmar">
  <costs><cost name="pts" typeId="points" value="690.0"/></costs>
  <costLimits><costLimit name="pts" typeId="points" value="1000.0"/></costLimits>
  <forces><force name="Pitched Battle GHB 2021" catalogueName="Order - Stormcast Eternals">
    <selections>
      <selection name="Allegiance" type="upgrade"><selections><selection name="Stormcast Eternals: Hammers of Sigmar" type="upgrade"/></selections></selection>
      <selection name="Grand Strategy" type="upgrade"><selections><selection name="Sever the Head" type="upgrade"/></selections></selection>
      <selection name="Lord-Celestant" type="model" number="1">
        <costs><cost name="pts" value="120.0"/></costs>
        <selections><selection name="General" type="upgrade"/></selections>
        <categories><category name="Leader" primary="true"/><category name="HERO" primary="false"/></categories>
      </selection>
      <selection name="Liberators" type="unit">
        <costs><cost name="pts" value="0.0"/></costs>
        <selections><selection name="Liberator" type="model" number="5"><costs><cost name="pts" value="115.0"/></costs></selection></selections>
        <categories><category name="Battleline" primary="true"/></categories>
      </selection>
      <selection name="Liberators" type="unit">
        <costs><cost name="pts" value="115.0"/></costs>
        <selections><selection name="Liberator" type="model" number="5"/></selections>
        <categories><category name="Battleline" primary="true"/></categories>
      </selection>
      <selection name="Stormdrake Guard" type="unit">
        <costs><cost name="pts" value="340.0"/></costs>
        <categories><category name="Other" primary="true"/></categories>
      </selection>
    </selections>
  </force></forces>
</roster>"""


OWB_TEXT = """\
===
Grand Army of Nuln [2140 pts]
Warhammer: The Old World, Empire of Man
===

++ Characters [340 pts] ++

General of the Empire [140 pts]
- Hand weapon
- Full plate armour

Wizard Lord [200 pts]
- Level 4 Wizard

++ Core Units [1000 pts] ++

40 State Missile Troops [1000 pts]
- Handguns

++ Rare Units [800 pts] ++

Steam Tank [800 pts]

---
Created with "Old World Builder"

[https://old-world-builder.com]"""


CONQUEST = """\
=== The Last Argument of Kings ===

Club night [800/800]

Spires

== (Warlord) Pheromancer [110]: Biomancy
 * Force Grown Drones (3) [120]
== Lineage Highborne [90]
 * Avatara (3) [190]: Leader
 * Centaur Avatara (2) [250]
"""


def imported(
    packs: Any, pack: str, data: bytes | str, remembered: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The import preview of ``data``, which must be read (not refused)."""
    made = list_import.preview(packs, pack, data, remembered or [])
    assert not isinstance(made, Problem), made
    return made
