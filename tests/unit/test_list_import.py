"""List import: every real exported list in tests/data/lists/, a hand-made list per format
and layout, hostile files, and the round trip of Muster's own plain-text export.

The numbers asserted were read off each file by hand: the sum of the points the list prints
for each unit (not its stated total), the units it names, the general it marks and the verdict
the pack's checks give.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from typing import Any

import pytest

from app.rules import army
from app.rules.lists import files, read_list
from app.rules.matching import name_key
from app.rules.problems import Problem
from app.services import list_import
from tests.list_texts import CONQUEST, LISTS, OWB_TEXT, ROS, WARSCROLL_BUILDER, imported


def refused(packs, pack: str, data: bytes | str) -> str:
    made = list_import.preview(packs, pack, data, [])
    assert isinstance(made, Problem), made
    return made.message


def names(made: dict[str, Any], kind: str | None = None) -> list[str]:
    return [e["name"] for e in made["roster"]["entries"] if kind is None or e.get("kind") == kind]


def general(made: dict[str, Any]) -> str | None:
    found = [e["name"] for e in made["roster"]["entries"] if e.get("general") or e.get("kind") == "character"]
    assert len(found) <= 1, found
    return found[0] if found else None


def rules(made: dict[str, Any]) -> list[str]:
    return [p["rule"] for p in made["verdict"]["problems"]]


def unread_lines(made: dict[str, Any]) -> list[int]:
    return [u["line"] for u in made["unread"]]


# --- the real lists -------------------------------------------------------------------------------
# (file, pack, format, points, points limit, entries, general, valid, problem rules, unread lines)
SAMPLES = [
    # Slaves to Darkness: 860 + 145 + 115 + 240 + 290 + 290 + 60 (Emerald Lifeswarm) = 2000.
    ("aos3_battlescribe_text_ghb2022_std_2000.txt", "aos-ghb-2021", "battlescribe-text", 2000, 2000, 7,
     "Centurion Marshall", True, [], []),
    # Seraphon: 190+430+150+115 + 270+80+130 + 150+150+230 + 65+20 = 1980; 3 core battalions,
    # 10 units, 2 endless spells, the Realmshaper Engine.
    ("aos3_warhammer_app_2021_seraphon_valid_1980.txt", "aos-ghb-2021", "aos-app", 1980, 2000, 16,
     "Lord Kroak", True, [], []),
    # Stormcast: 125+125+195+115+115+400+165+215+205+320 = 1980. The app flagged it invalid (too many
    # artefacts for a list with no core battalion); Muster's checks do not count enhancements, and
    # every limit it does check is met: 5 Leaders of 6, 3 Battleline, 1 reinforced unit.
    ("aos3_warhammer_app_2021_stormcast_flagged_invalid_1980.txt", "aos-ghb-2021", "aos-app", 1980, 2000, 10,
     "Lord-Arcanum on Gryph-Charger", True, [], []),
    # Sylvaneth: 305+120+130 + 110+110+500+250 + 420 + 40 = 1985; "Take What's Theirs" is a 2022
    # grand strategy, not one of the 2021 battlepack's: line 4 stays unread.
    ("aos3_warhammer_app_2022_sylvaneth_1985.txt", "aos-ghb-2021", "aos-app", 1985, 2000, 13,
     "Warsong Revenant", True, [], [4]),
    # Gloomspite: 17 Leaders (2350), 6 Battleline (865), Squig Gobba 175, 4 Behemoths (945), 4 others
    # (715) = 6260 against 2000, and 17 Leaders where 2000 points allows 6.
    ("aos3_warhammer_app_dec2021_gloomspite_over_limit_6260.txt", "aos-ghb-2021", "aos-app", 6260, 2000, 36,
     "Dankhold Troggboss", False, ["points-limit", "leaders-max"], []),
    # Idoneth: 325+110+115+120 + 390+170+170 + 65 + 500 + 20 = 1985; the Creeping Gloomtide is the
    # battletome's own grand strategy (line 3 unread).
    ("aos3_warscroll_builder_2022_idoneth_1985.txt", "aos-ghb-2021", "warscroll-builder", 1985, 2000, 12,
     "Eidolon of Mathlann, Aspect of the Sea", True, [], [3]),
    # Nurgle: 150+210+150 + 440+220+220+500 + 110 = 2000, two reinforced units of 4.
    ("aos3_warscroll_builder_2022_nurgle_2000_reinforced2.txt", "aos-ghb-2021", "warscroll-builder", 2000, 2000,
     10, "Lord of Afflictions", True, [], [4]),
    # Nurgle with Be'Lakor as an ally: 360 + 210 + 440+440+220+220 + 105 = 1995, allies 360 of 400.
    ("aos3_warscroll_builder_2022_nurgle_allies360.txt", "aos-ghb-2021", "warscroll-builder", 1995, 2000, 8,
     "Lord of Afflictions", True, [], [3]),
    # The excerpt stops after the Imperial Officer: 125 + 380 + 300 + 245 = 1050 of the stated 2000;
    # the truncation note (line 16) is unread.
    # The catalogue knows the Order of the Crimson Tower for cavalry: 5 models is over First
    # Blood's cap of 4 (a full-size Conquest list, imported into First Blood).
    ("conquest_tlaok_armybuilder_export_PARTIAL_lineofsight_2023.txt", "conquest-first-blood",
     "conquest-army-builder", 1050, 2000, 3, "Priory Commander (Crimson Tower)", False,
     ["regiment-models", "regiment-models"], [16]),
    # Two published lists: the first is read (135 + 90 + 90 + 205 = 520, the 520 its title names);
    # the second list's title and its 7 lines stay unread.
    ("conquest_tlaok_v1_milestone_lists_parabellum_100K.txt", "conquest-first-blood", "conquest-army-builder",
     520, 800, 4, "Noble Lord", True, [], [9, 10, 12, 13, 14, 15, 17, 19]),
]  # fmt: skip


def test_every_reference_list_has_a_row_and_a_source():
    kept = sorted(p.name for p in LISTS.glob("*.txt"))
    assert kept == sorted(row[0] for row in SAMPLES)
    sources = (LISTS / "SOURCES.md").read_text()
    assert [name for name in kept if f"| {name} |" not in sources] == []


@pytest.mark.parametrize(
    ("file", "pack", "fmt", "points", "limit", "entries", "leader", "valid", "problems", "unread"),
    SAMPLES,
    ids=[row[0] for row in SAMPLES],
)
def test_reference_lists(packs, file, pack, fmt, points, limit, entries, leader, valid, problems, unread):
    made = imported(packs, pack, (LISTS / file).read_bytes())
    assert made["format"] == fmt
    assert made["verdict"]["points"] == points
    assert made["roster"]["points_limit"] == limit
    assert len(made["roster"]["entries"]) == entries
    assert general(made) == leader
    assert made["verdict"]["valid"] is valid
    assert rules(made) == problems
    assert unread_lines(made) == unread


def test_seraphon_app_list_in_detail(packs):
    made = imported(
        packs, "aos-ghb-2021", (LISTS / "aos3_warhammer_app_2021_seraphon_valid_1980.txt").read_bytes()
    )
    roster = made["roster"]
    # The subfaction is the "Subfaction" header's; the "Army Type" is listed as not kept (issue 24).
    assert (roster["name"], roster["faction"], roster["subfaction"]) == (
        "Hammerfest",
        "Seraphon",
        "Fangs of Sotek",
    )
    assert roster["triumph"] == "Inspired"
    assert made["dropped"] == [
        {"line": 3, "text": "Army Type: Starborne"},
        {"line": 5, "text": "Battlepack: Pitched Battles"},
        {"line": 9, "text": "Battle Trait Bonus: First to Battle, Parting Shot"},
    ]
    assert roster["grand_strategy"] == "prized-sorcery"
    assert names(made, "core-battalion") == [
        "Battle Regiment",
        "Command Entourage",
        "Hunters of the Heartlands",
    ]
    assert names(made, "endless-spell") == ["Soulsnare Shackles", "The Burning Head"]
    assert names(made, "terrain") == ["Realmshaper Engine"]
    oracle = next(e for e in roster["entries"] if e["name"] == "Skink Oracle on Troglodon")
    assert oracle["roles"] == ["Behemoth", "Leader"]
    assert oracle["enhancements"] == ["Amulet of Destiny", "Tide of Serpents"]
    assert {"HERO", "WIZARD"} <= set(oracle["keywords"])
    reinforced = [e["name"] for e in roster["entries"] if e.get("size") == "reinforced"]
    assert reinforced == ["Razordon Hunting Pack", "Skinks", "Skinks", "Chameleon Skinks"]


def test_stormcast_tab_layout_names_the_general_and_its_trait(packs):
    made = imported(
        packs,
        "aos-ghb-2021",
        (LISTS / "aos3_warhammer_app_2021_stormcast_flagged_invalid_1980.txt").read_bytes(),
    )
    lord = next(e for e in made["roster"]["entries"] if e["general"])
    assert lord["command_trait"] == "Staunch Defender"
    assert lord["enhancements"] == ["Amulet of Destiny", "Scintillating Trail", "Chain Lightning"]
    judicators = next(e for e in made["roster"]["entries"] if e["name"] == "Judicators with Skybolt Bows")
    assert (judicators["size"], judicators["roles"]) == ("reinforced", ["Battleline"])


def test_warscroll_builder_counts_models_reinforcement_and_allies(packs):
    idoneth = imported(
        packs, "aos-ghb-2021", (LISTS / "aos3_warscroll_builder_2022_idoneth_1985.txt").read_bytes()
    )
    thralls = next(e for e in idoneth["roster"]["entries"] if e["name"] == "Namarti Thralls")
    assert (thralls["models"], thralls["size"]) == (30, "reinforced-twice")
    assert idoneth["roster"]["subfaction"] == "Mor'Phann"
    nurgle = imported(
        packs, "aos-ghb-2021", (LISTS / "aos3_warscroll_builder_2022_nurgle_allies360.txt").read_bytes()
    )
    allies = [(e["name"], e["points"]) for e in nurgle["roster"]["entries"] if e["ally"]]
    assert allies == [("Be’Lakor, the Dark Master", 360)]
    lord = next(e for e in nurgle["roster"]["entries"] if e["general"])
    assert lord["notes"] == "Dolorous Tocsin; Incubatch"


def test_conquest_builder_makes_officers_of_other_characters(packs):
    made = imported(
        packs,
        "conquest-first-blood",
        (LISTS / "conquest_tlaok_armybuilder_export_PARTIAL_lineofsight_2023.txt").read_bytes(),
    )
    entries = made["roster"]["entries"]
    assert [(e["kind"], e["models"], e["points"]) for e in entries] == [
        ("character", 1, 125),
        ("regiment", 5, 380),
        ("regiment", 4, 300),
    ]
    assert entries[2]["officers"] == [{"name": "Imperial Officer", "points": 245}]
    assert (made["roster"]["faction"], made["roster"]["name"]) == ("The Hundred Kingdoms", "March 25th 2023")


# --- hand-made lists, one per format and layout ---------------------------------------------------
APP_2022 = """\
- Army Faction: Stormcast Eternals
- Subfaction: Hammers of Sigmar
- Grand Strategy: Hold the Line
LEADERS
Lord-Imperatant (160)***
- General
- Command Traits: Staunch Defender
Knight-Arcanum (135)***
- Spells: Lightning Blast
BATTLELINE
Vindictors (130)*
- Reinforced x 1
Liberators (115)*
Annihilators (220)*
OTHER
Gotrek Gurnisson (300)**
- Allies
ENDLESS SPELLS & INVOCATIONS
1 x Everblaze Comet (70)
CORE BATTALIONS
*Battle Regiment
***Command Entourage
- Magnificent

TOTAL POINTS: 1130/1000
Created with Warhammer Age of Sigmar: The App"""


def test_app_heading_layout(packs):
    # 160 + 135 + 130 + 115 + 220 + 300 + 70 = 1130 over a 1000-point limit.
    made = imported(packs, "aos-ghb-2021", APP_2022)
    assert (made["format"], made["verdict"]["points"], made["roster"]["points_limit"]) == (
        "aos-app",
        1130,
        1000,
    )
    assert general(made) == "Lord-Imperatant"
    assert made["roster"]["grand_strategy"] == "hold-the-line"
    entries = {e["name"]: e for e in made["roster"]["entries"]}
    assert entries["Vindictors"]["size"] == "reinforced"
    assert entries["Gotrek Gurnisson"]["ally"] is True
    # The list says WIZARD; the catalogue adds HERO.
    assert entries["Knight-Arcanum"]["keywords"] == ["HERO", "WIZARD"]
    assert entries["Lord-Imperatant"]["keywords"] == ["HERO"]
    assert names(made, "core-battalion") == ["Battle Regiment", "Command Entourage"]
    # Over the limit, and Gotrek (300) is over the 200 points of allies 1000 points allows.
    assert rules(made) == ["points-limit", "allies-points"]


APP_DEC_2021 = "Army Faction: Kharadron Overlords\n\t- Army Subfaction: Barak-Nar\n\t- Grand Strategy: Vendetta\n\nLEADER\n\nArkanaut Admiral (140)\n\t- General\n\t- Command Traits: Master Commander\n\nBATTLELINE\n\nArkanaut Company (125)\n\nArkanaut Company (125)\n\nGrundstok Thunderers (115)\n\nBEHEMOTH\n\nArkanaut Frigate (230)\n\nTOTAL POINTS: (735/1000)\n\nCreated with Warhammer Age of Sigmar: The App"


def test_app_december_2021_tab_layout(packs):
    made = imported(packs, "aos-ghb-2021", APP_DEC_2021)
    assert (made["verdict"]["points"], made["roster"]["points_limit"]) == (735, 1000)
    assert made["roster"]["subfaction"] == "Barak-Nar"
    assert general(made) == "Arkanaut Admiral"
    assert [e["roles"] for e in made["roster"]["entries"]][-1] == ["Behemoth"]
    assert made["verdict"]["valid"] is True


APP_BLOCKS = """\
Army Name: Blocks
Army Faction: Cities of Sigmar
Points Limit: 1000 pts
General: Freeguild General

Units
\tFreeguild General
\t\tBattlefield Role: Leader
\t\tPoints Cost: 100 pts
\tFreeguild Guard
\t\tBattlefield Role: Battleline
\t\tReinforced: Twice
\t\tPoints Cost: 300 pts
\tFreeguild Crossbowmen
\t\tBattlefield Role: Battleline
\t\tPoints Cost: 1OO pts

Total Points: 400 pts
Valid: Created with Warhammer Age of Sigmar: The App"""


def test_app_block_layout_general_from_the_header_and_an_unpriced_unit(packs):
    # "1OO" is letters, not a number: the Crossbowmen cannot be priced, so their line (14) and
    # the points line (16) stay unread rather than the unit counting as free.
    made = imported(packs, "aos-ghb-2021", APP_BLOCKS)
    assert made["format"] == "aos-app"
    assert general(made) == "Freeguild General"
    assert names(made) == ["Freeguild General", "Freeguild Guard"]
    assert made["roster"]["entries"][1]["size"] == "reinforced-twice"
    assert made["verdict"]["points"] == 400
    assert unread_lines(made) == [14, 16]
    # One Battleline unit where 1000 points needs 2.
    assert rules(made) == ["battleline-min"]


def test_warscroll_builder_hand_made(packs):
    made = imported(packs, "aos-ghb-2021", WARSCROLL_BUILDER)
    assert (made["format"], made["verdict"]["points"], made["roster"]["points_limit"]) == (
        "warscroll-builder",
        735,
        1000,
    )
    assert made["roster"]["grand_strategy"] == "beast-master"
    assert made["roster"]["subfaction"] == "Koatl's Claw"
    assert [e["models"] for e in made["roster"]["entries"]] == [None, 10, 20, 10]
    assert made["verdict"]["valid"] is True and made["unread"] == []


BATTLESCRIBE = """\
++ **Pitched Battle GHB 2021** 1,000 (Order - Lumineth Realm-lords) [1,000pts] ++

+ Leader +

Scinari Cathallar [120pts]: General, Emotional Transference

+ Battleline +

Vanari Auralan Wardens [130pts]: 10 Vanari Auralan Wardens

Vanari Auralan Sentinels [130pts]: 10 Vanari Auralan Sentinels

+ Game Options +

Grand Strategy: Prized Sorcery

++ Total: [380pts] ++

Created with BattleScribe (https://battlescribe.net)"""


def test_battlescribe_text_hand_made(packs):
    made = imported(packs, "aos-ghb-2021", BATTLESCRIBE)
    assert (made["format"], made["verdict"]["points"], made["roster"]["points_limit"]) == (
        "battlescribe-text",
        380,
        1000,
    )
    assert made["roster"]["faction"] == "Lumineth Realm-lords"
    assert general(made) == "Scinari Cathallar"
    assert [e["models"] for e in made["roster"]["entries"]] == [None, 10, 10]
    assert made["roster"]["grand_strategy"] == "prized-sorcery"


NEW_RECRUIT_TOW = """\
++ Grand Army (Warhammer: The Old World - Empire of Man) [950pts] ++

+ Characters +

General of the Empire [150pts]: General, Full Plate Armour

+ Core Units +

State Troops [220pts]: 20x State Troops, Standard Bearer

+ Special Units +

Empire Knights [280pts]: 6x Empire Knights, Musician

+ Rare Units +

Steam Tank [300pts]

++ Total: [950pts] ++

Created with New Recruit"""


def test_new_recruit_text_for_the_old_world(packs):
    made = imported(packs, "old-world-rosters", NEW_RECRUIT_TOW)
    assert made["format"] == "new-recruit-text"
    entries = made["roster"]["entries"]
    assert [(e["name"], e["category"], e["points"], e["models"]) for e in entries] == [
        ("General of the Empire", "characters", 150, None),
        ("State Troops", "core", 220, 20),
        ("Empire Knights", "special", 280, 6),
        ("Steam Tank", "rare", 300, None),
    ]
    # 150 + 220 + 280 + 300 = 950 (the header's bracket is the cost, not a limit): the pack's 2000.
    assert (made["verdict"]["points"], made["roster"]["points_limit"], made["verdict"]["valid"]) == (
        950,
        2000,
        True,
    )
    assert made["roster"]["faction"] == "Empire of Man"


def test_ros_file(packs):
    # 120 + (0 + 115 in the models) + 115 + 340 = 690; a selection's nested costs add to it.
    made = imported(packs, "aos-ghb-2021", ROS.encode())
    assert (made["format"], made["verdict"]["points"], made["roster"]["points_limit"]) == (
        "battlescribe-ros",
        690,
        1000,
    )
    assert (made["roster"]["faction"], made["roster"]["subfaction"]) == (
        "Stormcast Eternals",
        "Hammers of Sigmar",
    )
    assert made["roster"]["grand_strategy"] == "sever-the-head"
    assert general(made) == "Lord-Celestant"
    assert [e["models"] for e in made["roster"]["entries"]] == [None, 5, 5, None]
    assert [e["roles"] for e in made["roster"]["entries"]] == [
        ["Leader"],
        ["Battleline"],
        ["Battleline"],
        ["Other"],
    ]


def _zip(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return out.getvalue()


def test_rosz_file(packs):
    made = imported(packs, "aos-ghb-2021", _zip({"Ros list.ros": ROS.encode()}))
    assert (made["format"], made["verdict"]["points"]) == ("battlescribe-rosz", 690)


OWB_JSON = {
    "name": "Bretonnian host",
    "game": "the-old-world",
    "points": 2000,
    "army": "kingdom-of-bretonnia",
    "characters": [
        {
            "name_en": "Duke",
            "points": 100,
            "options": [{"name_en": "Lance", "points": 4, "active": True}],
            "mounts": [{"name_en": "Hippogryph", "points": 90, "active": True}],
            "items": [{"selected": [{"name_en": "Sword of Might", "points": 20}]}],
        }
    ],
    "core": [
        {
            "name_en": "Knights of the Realm",
            "points": 24,
            "strength": 6,
            "options": [{"name_en": "Shields", "points": 1, "perModel": True, "active": True}],
            "command": [{"name_en": "Standard bearer", "points": 6, "active": True}],
        },
        {
            "name_en": "Peasant Bowmen",
            "points": 6,
            "strength": 10,
            "command": [{"points": 5, "active": False}],
        },
    ],
    "special": [],
    "rare": [{"name_en": "Field Trebuchet", "points": 110}],
}


def test_old_world_builder_json(packs):
    made = imported(packs, "old-world-rosters", json.dumps(OWB_JSON).encode())
    entries = made["roster"]["entries"]
    # Duke 100 + lance 4 + hippogryph 90 + sword 20 = 214; knights 6 x (24 + 1) + standard 6 = 156;
    # bowmen 6 x 10 = 60 (the musician is not bought); trebuchet 110. 540 in all.
    assert [(e["name"], e["points"], e["models"], e["category"]) for e in entries] == [
        ("Duke", 214, None, "characters"),
        ("Knights of the Realm", 156, 6, "core"),
        ("Peasant Bowmen", 60, 10, "core"),
        ("Field Trebuchet", 110, None, "rare"),
    ]
    assert (made["format"], made["verdict"]["points"], made["roster"]["points_limit"]) == (
        "old-world-builder-json",
        540,
        2000,
    )


def test_old_world_builder_text_over_the_limit(packs):
    made = imported(packs, "old-world-rosters", OWB_TEXT)
    assert made["format"] == "old-world-builder-text"
    assert [(e["name"], e["points"], e["models"], e["category"]) for e in made["roster"]["entries"]] == [
        ("General of the Empire", 140, None, "characters"),
        ("Wizard Lord", 200, None, "characters"),
        ("State Missile Troops", 1000, 40, "core"),
        ("Steam Tank", 800, None, "rare"),
    ]
    # No limit in the text: the pack's default, 2000; 2140 is 140 over it.
    assert (made["verdict"]["points"], made["roster"]["points_limit"]) == (2140, 2000)
    assert rules(made) == ["points-limit"]


def test_conquest_builder_hand_made(packs):
    made = imported(
        packs,
        "conquest-first-blood",
        CONQUEST,
        remembered=[{"name": "Centaur Avatara", "type": "cavalry", "points": 250, "models": 2}],
    )
    entries = made["roster"]["entries"]
    # The Highborne joins the regiment listed after it; the Centaurs are cavalry, as this phone
    # remembered them; the Avatara are brutes, as the catalogue says; the others are infantry.
    assert [(e["name"], e["kind"], e["type"], e["models"]) for e in entries] == [
        ("Pheromancer", "character", "infantry", 1),
        ("Force Grown Drones", "regiment", "infantry", 3),
        ("Avatara", "regiment", "brute", 3),
        ("Centaur Avatara", "regiment", "cavalry", 2),
    ]
    assert entries[2]["officers"] == [{"name": "Lineage Highborne", "points": 90}]
    # 110 + 120 + 190 + 90 + 250 = 760 of 800.
    assert (made["verdict"]["points"], made["roster"]["points_limit"], made["verdict"]["valid"]) == (
        760,
        800,
        True,
    )
    assert made["roster"]["faction"] == "Spires"


# --- matching names ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("written", "remembered"),
    [
        ("SAURUS GUARD", "Saurus Guard"),
        ("Be’Lakor, the Dark Master", "Be'lakor the Dark Master"),
        ("3 x Aetherwings", "Aetherwings"),
        ("Aetherwings x3", "aetherwings"),
        ("Kurnoth Hunters with Kurnoth Scythes", "Kurnoth hunters - with kurnoth scythes"),
    ],
)
def test_names_match_forgiving_case_punctuation_and_counts(written, remembered):
    assert name_key(written) == name_key(remembered)


def test_a_remembered_unit_brings_its_keywords(packs):
    text = "Allegiance: Seraphon\n\nBehemoths\nStegadon (270)\n\nTotal: 270 / 1000\n"
    made = imported(packs, "aos-ghb-2021", text, remembered=[{"name": "stegadon", "keywords": ["MONSTER"]}])
    assert made["roster"]["entries"][0]["keywords"] == ["MONSTER"]
    assert made["roster"]["entries"][0]["roles"] == ["Behemoth"]


# --- nothing dropped silently ---------------------------------------------------------------------------
def test_every_line_with_points_is_read_or_unread(packs):
    # A line the reader does not understand stays unread with its number, points and all.
    text = WARSCROLL_BUILDER.replace("10 x Saurus Knights (120)", "Saurus Knights - 120 pts")
    made = imported(packs, "aos-ghb-2021", text)
    assert made["unread"] == [{"line": 14, "text": "Saurus Knights - 120 pts"}]
    assert made["verdict"]["points"] == 735 - 120


def test_a_list_for_another_game_names_the_pack_to_use(packs):
    message = refused(packs, "conquest-first-blood", WARSCROLL_BUILDER)
    assert (
        message
        == "pack: this is a list for Age of Sigmar, not for Conquest: First Blood; import it into aos-conquest-unbound or aos-ghb-2021."
    )


def test_text_that_is_no_list_names_the_formats(packs):
    message = refused(packs, "aos-ghb-2021", "Dear diary, today I painted a dragon.")
    assert message.startswith(
        "text is not an army list Muster can read: paste or upload the Age of Sigmar app"
    )
    assert "Warscroll Builder" in message and "Old World Builder" in message and "Conquest" in message


def test_unknown_pack(packs):
    assert refused(packs, "chess", WARSCROLL_BUILDER).startswith(
        "pack must be one of the rulepacks that build armies"
    )


# --- hostile files -------------------------------------------------------------------------------------
def test_xml_entities_are_refused_not_expanded(packs):
    laughs = (
        '<?xml version="1.0"?><!DOCTYPE roster [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
        '<roster name="&b;"/>'
    )
    assert "DTD or entities" in refused(packs, "aos-ghb-2021", laughs.encode())


def test_xml_external_references_are_refused(packs):
    external = (
        '<?xml version="1.0"?><!DOCTYPE roster [<!ENTITY x SYSTEM "file:///etc/passwd">]><roster name="&x;"/>'
    )
    assert "DTD or entities" in refused(packs, "aos-ghb-2021", external.encode())


def test_broken_xml_and_other_xml(packs):
    assert "not well-formed" in refused(packs, "aos-ghb-2021", b"<roster><forces>")
    assert "root must be <roster>" in refused(packs, "aos-ghb-2021", b"<html><body/></html>")


def test_zip_bomb_is_refused(packs):
    # 8 MB of zeros packs to a few KB: the unpacked size is checked, not trusted.
    bomb = _zip({"big.ros": b"<roster>" + b"0" * (8 * 1024 * 1024) + b"</roster>"})
    assert len(bomb) < 50_000
    assert "at most 4 MB unpacked" in refused(packs, "aos-ghb-2021", bomb)


def test_zip_of_many_files_is_refused(packs):
    many = _zip({f"{i}.ros": ROS.encode() for i in range(6)})
    assert refused(packs, "aos-ghb-2021", many) == "a .rosz must hold one .ros file; this one holds 6 files."


def test_zip_that_is_not_a_zip(packs):
    assert "not a readable zip" in refused(packs, "aos-ghb-2021", b"PK\x03\x04" + b"\x00" * 40)


def test_too_big_a_file(packs):
    big = ("Lord Kroak (430)\n" * 20_000).encode()
    assert refused(packs, "aos-ghb-2021", big).startswith("file must be at most 200 KB")


def test_windows_1252_text_is_decoded(packs):
    text = WARSCROLL_BUILDER.replace("Koatl's Claw", "Koatl\u2019s Claw").encode("cp1252")
    made = imported(packs, "aos-ghb-2021", text)
    assert made["roster"]["subfaction"] == "Koatl’s Claw"


def test_undecodable_and_binary_bytes_are_refused(packs):
    # 0x81 is neither UTF-8 nor a Windows-1252 character.
    assert refused(packs, "aos-ghb-2021", b"Allegiance: \x81\x81\n").startswith("file must be text in UTF-8")
    assert "binary data" in refused(packs, "aos-ghb-2021", b"Allegiance: x\x00\x00\n")


def test_utf16_with_a_bom_is_read(packs):
    made = imported(packs, "aos-ghb-2021", WARSCROLL_BUILDER.encode("utf-16"))
    assert made["verdict"]["points"] == 735


# --- the round trip of Muster's own plain-text export ------------------------------------------------
AOS_BODY = {
    "pack": "aos-ghb-2021",
    "name": "Round trip",
    "points_limit": 2000,
    "faction": "Seraphon",
    "subfaction": "Koatl's Claw",
    "grand_strategy": "predators-domain",
    "entries": [
        {
            "name": "Lord Kroak",
            "points": 430,
            "roles": ["Leader"],
            "keywords": ["HERO", "WIZARD"],
            "general": True,
            "single_model": True,
            "command_trait": "Old and Grizzled",
            "enhancements": ["Amulet of Destiny", "Celestial Deliverance"],
            "notes": "Painted blue\nBased for Ghur",
        },
        {
            "name": "Saurus Warriors",
            "points": 210,
            "roles": ["Battleline"],
            "models": 20,
            "size": "reinforced",
        },
        {"name": "Skinks", "points": 210, "roles": ["Battleline"], "models": 30, "size": "reinforced-twice"},
        {"name": "Gotrek (Gurnisson)", "points": 300, "roles": ["Leader"], "ally": True, "faction": "Dwarfs"},
        {"name": "Kroxigor", "points": 125, "roles": ["Other"], "coalition": True, "size": "understrength"},
        {"name": "Battle Regiment", "kind": "core-battalion"},
        {"name": "Old Battalion", "kind": "warscroll-battalion", "points": 100},
        {"name": "Everblaze Comet", "kind": "endless-spell", "points": 70},
        {"name": "Soulscream Bridge", "kind": "invocation", "points": 50},
        {"name": "Realmshaper Engine", "kind": "terrain"},
    ],
}
FB_BODY = {
    "pack": "conquest-first-blood",
    "name": "Spires",
    "points_limit": 800,
    "faction": "Spires",
    "entries": [
        {
            "name": "Pheromancer",
            "kind": "character",
            "type": "cavalry",
            "points": 110,
            "models": 1,
            "retinue": [{"name": "Retainer", "points": 20}],
        },
        {
            "name": "Avatara",
            "type": "infantry",
            "points": 190,
            "models": 3,
            "officers": [{"name": "Lineage Highborne", "points": 90}],
            "notes": "Leader",
        },
        {"name": "Centaur Avatara", "type": "brute", "points": 250, "models": 2},
    ],
}
OW_BODY = {
    "pack": "old-world-rosters",
    "name": None,
    "points_limit": 1500,
    "faction": "Empire of Man",
    "entries": [
        {"name": "General of the Empire", "category": "characters", "points": 140},
        {"name": "State Troops", "category": "core", "points": 220, "models": 20, "notes": "Standard"},
        {"name": "Mystery Unit", "points": 80},
    ],
}


@pytest.mark.parametrize("body", [AOS_BODY, FB_BODY, OW_BODY], ids=["aos", "first-blood", "old-world"])
def test_plain_text_export_reads_back_unchanged(packs, body):
    roster, pack, problem = army.parse_roster(body, packs)
    assert problem is None
    text = army.plain_text(pack, roster, army.check(pack, roster))
    made = imported(packs, pack.id, text)
    assert made["format"] == "muster-text" and made["unread"] == []
    again, _pack, problem = army.parse_roster(made["roster"], packs)
    assert problem is None
    assert again.model_dump() == roster.model_dump()


def test_reading_gives_line_numbers_from_one():
    reading = read_list(
        "Allegiance: Seraphon\r\n\r\nLeaders\r\nLord Kroak (430)\r\nnonsense\r\nTotal: 430 / 1000"
    )
    assert [u.line for u in reading.units] == [4]
    assert [(line.number, line.text) for line in reading.unread] == [(5, "nonsense")]


_PRICED = re.compile(r"\(\d[\d,]*\)\**\s*$|\[\d[\d,]*\s*(?:pts)?\]|points cost:\s*\d", re.IGNORECASE)
_TOTAL = re.compile(r"^\W*total\b", re.IGNORECASE)


@pytest.mark.parametrize("file", [row[0] for row in SAMPLES])
def test_every_priced_line_of_a_reference_list_is_read_or_unread(file):
    """A line that carries points is a unit read (its own line, or the Points Cost line of its
    block), an officer placed in a regiment, or unread: never dropped."""
    text = (LISTS / file).read_text()
    reading = read_list(text)
    starts = sorted({u.line for u in reading.units} | {o.line for u in reading.units for o in u.officers})
    unread = {line.number for line in reading.unread}
    for number, line in enumerate(text.replace("\r", "").split("\n"), start=1):
        if not _PRICED.search(line) or _TOTAL.match(line) or line.lstrip().startswith("++"):
            continue
        owner = max((s for s in starts if s <= number), default=None)
        block_line = "points cost" in line.lower() and owner is not None
        assert number in starts or number in unread or block_line, (file, number, line)


NINES = "9" * 5000  # more digits than int() reads by default (4300)
# A count too long to be one is read as part of the name (cut to 60 characters): the points on
# the line still count, and the player sees the odd name in the preview.


@pytest.mark.parametrize(
    ("pack", "text", "points", "unread"),
    [
        ("aos-ghb-2021", f"Allegiance: Seraphon\n\nLeaders\n{NINES} x Lord Kroak (430)\n\nTotal: 430 / 1000\n", 430, []),
        ("aos-ghb-2021", f"Allegiance: Seraphon\n\nLeaders\nLord Kroak ({NINES})\nSkinks (70)\n\nTotal: 70 / 1000\n", 70, [4]),
        ("conquest-first-blood", f"=== Conquest ===\n\n== (Warlord) Lord [100]\n * Militia ({NINES}) [90]\n * Militia (3) [90]\n", 280, []),
        ("aos-ghb-2021", f"Roster\nPitched Battles 2021 · 1/2 points\n\nUNITS\n{NINES} x Skinks (70)\nSaurus Guard (115)\n\nTOTAL: 185 / 1000 points\n", 185, []),
        ("old-world-rosters", json.dumps({"game": "the-old-world", "core": [{"name_en": "A", "points": 1e300, "strength": 1e300}]}), 0, []),
        ("old-world-rosters", '{"game": "the-old-world", "core": [{"name_en": "A", "points": 1e400}]}', 0, []),
        ("old-world-rosters", '{"game": "the-old-world", "core": [{"name_en": "A", "strength": ' + NINES + "}]}", None, None),
    ],
    ids=["count", "points", "stands", "muster", "owb-huge", "owb-infinite", "owb-digits"],
)  # fmt: skip
def test_absurd_numbers_are_unread_or_refused_never_a_crash(packs, pack, text, points, unread):
    made = list_import.preview(packs, pack, text, [])
    if points is None:
        assert isinstance(made, Problem) and made.message.startswith("text is not an army list")
        return
    assert not isinstance(made, Problem), made
    assert (made["verdict"]["points"], unread_lines(made)) == (points, unread)


# --- issue 27, items 2 and 8: numbers and shapes a roster file cannot hold are a sentence ------------
def _nested(depth: int) -> str:
    inner = '<selection name="Liberator" type="model"><costs><cost name="pts" value="1"/></costs>'
    deep = "".join(f'<selection name="Layer {i}" type="upgrade"><selections>' for i in range(depth))
    close = "</selections></selection>" * depth
    return ROS.replace("<selections>\n", f"<selections>\n{deep}{inner}</selection>{close}\n", 1)


@pytest.mark.parametrize(
    ("change", "sentence"),
    [
        (('value="1000.0"/></costLimits>', 'value="abc"/></costLimits>'),
         "the roster file's points limit must be a number of points under 1,000,000, not 'abc'"),
        (('value="340.0"', 'value="inf"'), "the roster file's costs must be a number of points under 1,000,000, not 'inf'"),
        (('value="340.0"', 'value="nan"'), "the roster file's costs must be a number of points under 1,000,000, not 'nan'"),
        (('value="340.0"', 'value="1e308"'), "the roster file's costs must be a number of points under 1,000,000, not '1e308'"),
        (('value="340.0"', 'value="-1e308"'), "the roster file's costs must be a number of points under 1,000,000"),
    ],
    ids=["limit-abc", "cost-inf", "cost-nan", "cost-1e308", "cost-minus"],
)  # fmt: skip
def test_a_roster_files_impossible_number_is_refused_with_a_sentence(packs, change, sentence):
    text = ROS.replace(*change, 1)
    assert text != ROS
    for data in (text.encode(), _zip({"list.ros": text.encode()})):
        assert refused(packs, "aos-ghb-2021", data).startswith(sentence)


def test_costs_that_add_past_a_million_are_refused(packs):
    many = "".join(
        f'<selection name="Big {i}" type="upgrade"><costs><cost name="pts" value="999999"/></costs></selection>'
        for i in range(3)
    )
    text = ROS.replace(
        '<selection name="Stormdrake Guard" type="unit">',
        f'<selection name="Stormdrake Guard" type="unit"><selections>{many}</selections>',
        1,
    )
    assert "must add up to under 1,000,000 points" in refused(packs, "aos-ghb-2021", text.encode())


def test_selections_nested_900_deep_are_refused_not_a_crash(packs):
    assert (
        imported(packs, "aos-ghb-2021", _nested(10).encode())["verdict"]["points"] > 0
    )  # a deep but real one
    for depth in (45, 900):
        message = refused(packs, "aos-ghb-2021", _nested(depth).encode())
        assert message == (
            "the roster file nests its entries more than 64 deep; a roster nests a dozen: "
            "save it again from BattleScribe or New Recruit."
        )


def test_a_rosz_of_too_many_entries_is_refused_while_it_is_read(packs):
    # 41,000 selections pack into a .rosz of a few KB (the size bound alone let it through).
    one = '<selection name="Skink" type="model"><costs><cost name="pts" value="1"/></costs></selection>'
    flood = ROS.replace("<selections>\n", "<selections>\n" + one * 41_000, 1).encode()
    packed = _zip({"flood.ros": flood})
    assert len(packed) < 60_000 and len(flood) < files.MAX_ROS_BYTES
    assert refused(packs, "aos-ghb-2021", packed) == (
        "the roster file holds more than 20,000 entries and options; "
        "a whole army holds a few thousand: is it one roster?"
    )


def test_a_text_of_too_many_lines_is_refused(packs):
    text = WARSCROLL_BUILDER + "\n" * 3000
    lines = text.count("\n") + 1
    assert refused(packs, "aos-ghb-2021", text) == (
        f"text must be at most 2,000 lines; this one has {lines:,}: paste one army list."
    )
