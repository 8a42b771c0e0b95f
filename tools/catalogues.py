"""Turn public community army data into Muster's catalogue files (facts only).

Run offline against a snapshot fetched beforehand (see tools/README.md); Muster itself never
fetches anything at run time. Three sources:

- ``aos``: a checkout of BSData/warhammer-age-of-sigmar (BattleScribe XML, ``.gst``/``.cat``)
- ``conquest``: a checkout of a BSData Conquest repository (BattleScribe XML)
- ``old-world``: a checkout of nthiebes/old-world-builder (JSON per army)

Only names, numbers, keywords and roles are taken; no rules text, profiles or descriptions.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element  # only for type hints: parsing goes through defusedxml

import yaml
from defusedxml.ElementTree import parse as parse_xml

# Keywords the roster checks and the score sheets read; others are left out to keep the file small.
AOS_KEYWORDS = ("HERO", "MONSTER", "WIZARD", "PRIEST", "TOTEM", "ARTILLERY")
# BattleScribe's role categories, in the words Muster's roster checks use.
AOS_ROLES = {"leader": "leader", "battleline": "battleline", "behemoth": "behemoth", "artillery": "artillery"}
_COUNT = re.compile(r"^(\d+)\s+")


def _tag(element: Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _children(element: Element, *names: str) -> Iterator[Element]:
    """The entries under ``element``'s list elements of those names (selectionEntries, ...)."""
    for holder in element:
        if _tag(holder) in names:
            yield from holder


def _slug(text: str) -> str:
    return "-".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split())


def _points(element: Element) -> int:
    for cost in _children(element, "costs"):
        if cost.get("name", "").strip().lower() in ("pts", "points"):
            return round(float(cost.get("value", "0")))
    return 0


def _constraint(element: Element, kind: str) -> float | None:
    for c in _children(element, "constraints"):
        if c.get("type") == kind and c.get("field") == "selections" and c.get("scope") == "parent":
            return float(c.get("value", "0"))
    return None


@dataclass
class BattleScribe:
    """Every file of a BattleScribe data set, with its entries and categories indexed by id."""

    roots: dict[str, Element]
    entries: dict[str, Element] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)

    @classmethod
    def read(cls, folder: Path) -> BattleScribe:
        roots = {}
        for path in sorted([*folder.glob("*.gst"), *folder.glob("*.cat")]):
            roots[path.name] = parse_xml(path).getroot()
        data = cls(roots)
        for root in roots.values():
            for element in root.iter():
                ident, name = element.get("id"), element.get("name")
                if ident and name is not None:
                    data.names.setdefault(ident, name.strip())
                if ident and _tag(element) in ("selectionEntry", "selectionEntryGroup"):
                    data.entries.setdefault(ident, element)
        return data

    def target(self, link: Element) -> Element | None:
        """The entry an ``entryLink`` points at."""
        return self.entries.get(link.get("targetId", ""))


# --- Age of Sigmar -------------------------------------------------------------------------------
def _aos_faction_files(data: BattleScribe) -> list[str]:
    # A playable faction is a catalogue players pick; libraries ("Data"), legends and the old
    # warscroll compendiums are not Pitched Battle armies.
    out = []
    for name, root in data.roots.items():
        if not name.endswith(".cat") or root.get("library") == "true":
            continue
        stem = name.removesuffix(".cat")
        if "Data" in stem or "[LEGENDS]" in stem or stem.startswith("ZZ") or " - " not in stem:
            continue
        if stem.endswith(" - Monsters"):  # a library of monsters other armies take, not an army
            continue
        out.append(name)
    return out


def _aos_conditions(modifier: Element, data: BattleScribe) -> list[tuple[str, str]]:
    """The ids and names of the selections a modifier's conditions ask for (any one of them)."""
    names = []
    for condition in modifier.iter():
        if _tag(condition) != "condition" or condition.get("type") not in (
            "equalTo",
            "atLeast",
            "greaterThan",
        ):
            continue
        name = data.names.get(condition.get("childId", ""))
        if name:
            names.append((condition.get("childId", ""), name.strip()))
    return names


def _aos_unit(
    entry: Element, link: Element | None, data: BattleScribe, faction: str
) -> dict[str, Any] | None:
    categories: list[str] = []
    for holder in (entry, link):
        if holder is None:
            continue
        for cat in _children(holder, "categoryLinks"):
            name = data.names.get(cat.get("targetId", ""), "")
            if name:
                categories.append(name)
    name = (link.get("name") if link is not None else None) or entry.get("name", "")
    name = name.strip()
    points = _points(entry)
    models = None
    # The unit's size is the one upgrade it must take ("5 Liberators"), which carries the points.
    for child in _children(entry, "selectionEntries"):
        if _constraint(child, "min") == 1 and _constraint(child, "max") == 1:
            points += _points(child)
            count = _COUNT.match(child.get("name", ""))
            if count:
                models = int(count.group(1))
    reinforce = None
    for child in [*_children(entry, "entryLinks"), *_children(entry, "selectionEntries")]:
        if child.get("name", "").strip().lower() == "reinforced":
            times = 1
            for mod in _children(child, "modifiers"):
                if mod.get("type") == "set" and mod.get("value", "").replace(".0", "").isdigit():
                    times = max(times, int(float(mod.get("value", "1"))))
            target = data.target(child) if _tag(child) == "entryLink" else child
            cost = _points(child) or (_points(target) if target is not None else 0)
            reinforce = {"points": cost, "times": min(times, 2)}
    battleline_if: list[tuple[str, str]] = []
    modifiers = [*_children(entry, "modifiers"), *(_children(link, "modifiers") if link is not None else [])]
    for mod in modifiers:
        added = data.names.get(mod.get("value", ""), "").lower()
        if mod.get("type") == "add" and mod.get("field") == "category" and added == "battleline":
            battleline_if += _aos_conditions(mod, data)
    if not points:
        return None  # a unit with no Pitched Battle points is not in this season's lists
    words = {c.strip() for c in categories}
    keywords = [k for k in AOS_KEYWORDS if k in words]
    roles = [AOS_ROLES[c.lower()] for c in categories if c.lower() in AOS_ROLES]
    unit: dict[str, Any] = {"name": name, "points": points}
    # A unit that takes no size upgrade is fielded as one model (a HERO, a MONSTER).
    unit["models"] = models or 1
    unit["keywords"] = keywords
    unit["roles"] = list(dict.fromkeys(roles))
    if "Unique" in words:
        unit["unique"] = True
    if (models or 1) == 1 and not reinforce:
        unit["single_model"] = True
    if reinforce and reinforce["points"]:
        unit["reinforced_points"] = reinforce["points"]
        if reinforce["times"] > 1:
            unit["reinforced_twice"] = True
    if battleline_if:
        unit["_conditions"] = battleline_if  # resolved to unit names once the faction is read
    return unit


def _words(text: str) -> list[str]:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).split()


def _general_units(wanted: str, names: list[str]) -> list[str]:
    """The faction's units a "General - X" condition means. BSData names the general's option,
    not the warscroll ("Loonboss on Squig" for "Loonboss on Giant Cave Squig"): the same name;
    else the units holding its words in order; else those holding its longest word; else X."""
    exact = [n for n in names if n.casefold() == wanted.casefold()]
    if exact:
        return exact
    words = _words(wanted)

    def in_order(name: str) -> bool:
        rest = iter(_words(name))
        return all(w in rest for w in words)

    ordered = [n for n in names if in_order(n)]
    if ordered:
        return ordered
    longest = max(reversed(words), key=len) if words else ""  # a tie: the last word, the noun
    return [n for n in names if longest in _words(n)] or [wanted]


def _resolve_conditions(unit: dict[str, Any], names: list[str]) -> None:
    generals: set[str] = set()
    others: set[str] = set()
    for _ident, name in unit.pop("_conditions", []):
        if name.startswith("General - "):
            generals.update(_general_units(name.removeprefix("General - ").strip(), names))
        else:
            others.add(name)  # a unit or a subfaction the army must have
    if generals:
        unit["battleline_if_general"] = sorted(generals)
    if others:
        unit["battleline_if_army_has"] = sorted(others)


def _aos_units_in(root: Element, data: BattleScribe) -> Iterator[tuple[Element, Element | None]]:
    """The units a faction's catalogue offers, through its links and groups at any depth."""
    seen: set[tuple[int, int]] = set()
    stack: list[tuple[Element, Element | None]] = [(root, None)]
    while stack:
        element, link = stack.pop()
        key = (id(element), id(link))
        if key in seen:
            continue
        seen.add(key)
        # Single-model warscrolls (most HEROES) are "model" entries, the rest "unit" entries.
        if _tag(element) == "selectionEntry" and element.get("type") in ("unit", "model"):
            if (link if link is not None else element).get("hidden") != "true":
                yield element, link
            continue
        for child in reversed(
            list(
                _children(
                    element,
                    "entryLinks",
                    "sharedSelectionEntries",
                    "selectionEntries",
                    "selectionEntryGroups",
                    "sharedSelectionEntryGroups",
                )
            )
        ):
            if _tag(child) == "entryLink":
                target = data.target(child)
                if target is not None:
                    stack.append((target, child))
            elif _tag(child) in ("selectionEntry", "selectionEntryGroup"):
                stack.append((child, None))


def convert_aos(folder: Path) -> list[dict[str, Any]]:
    """Every playable faction of a BSData Age of Sigmar checkout, with its priced units."""
    data = BattleScribe.read(folder)
    factions = []
    for file in _aos_faction_files(data):
        root = data.roots[file]
        name = file.removesuffix(".cat").split(" - ", 1)[1].strip()
        units: dict[str, dict[str, Any]] = {}
        for entry, link in _aos_units_in(root, data):
            unit = _aos_unit(entry, link, data, name)
            # Legends and warscroll battalions are not played in Pitched Battles 2021.
            if unit is None or "[LEGENDS]" in unit["name"] or "Battalion:" in unit["name"]:
                continue
            known = units.setdefault(unit["name"].casefold(), unit)
            # The same unit reached by two links: a Battleline condition on either one counts.
            if known is not unit and unit.get("_conditions"):
                known["_conditions"] = [*known.get("_conditions", []), *unit["_conditions"]]
        names = [u["name"] for u in units.values()]
        for unit in units.values():
            _resolve_conditions(unit, names)
        if units:
            faction = {
                "id": _slug(name),
                "name": name,
                "grand_alliance": file.split(" - ", 1)[0].strip(),
            }
            # No `allies`: BSData's Allies force takes any faction's catalogue and names none (see
            # tools/README.md), so a faction's allies are not facts this data holds.
            subfactions = _aos_subfactions(name, data, root)
            if subfactions:
                faction["subfactions"] = subfactions
            faction["units"] = sorted(units.values(), key=lambda u: u["name"].casefold())
            factions.append(faction)
    return sorted(factions, key=lambda f: f["name"].casefold())


# Groups under an allegiance that are not its subfactions.
_NOT_SUBFACTIONS = ("rules", "terrain", "army type", "trait", "artefact", "spell", "prayer", "lore")
_NUMBERED = re.compile(r"^\d{1,2}\)\s*")
_OPTION = re.compile(r"^\d{1,2}\.\s")


def _aos_subfactions(faction: str, data: BattleScribe, root: Element) -> list[str]:
    """The faction's subfactions (Stormhosts, Glades, Lodges ...): the options of the groups
    its allegiance entry ("Allegiance: Stormcast Eternals") holds."""
    wanted = {f"allegiance: {faction}".casefold(), faction.casefold()}
    # Several files may hold an entry of that name: every one's groups count.
    entries = [
        e
        for e in data.entries.values()
        if _tag(e) == "selectionEntry" and e.get("name", "").strip().casefold() in wanted
    ]
    if not entries:
        # An allegiance named otherwise ("Allegiance: The Ossiarch Empire"): the faction file's
        # own, other than its grand alliance's ("Allegiance: *Death*").
        entries = [
            e
            for e in root.iter()
            if _tag(e) == "selectionEntry"
            and e.get("name", "").casefold().startswith("allegiance: ")
            and "*" not in e.get("name", "")
        ]
    out: list[str] = []
    for entry in entries:
        _subfactions_under(entry, data, out)
    return out


def _subfactions_under(entry: Element, data: BattleScribe, out: list[str]) -> None:
    """Add to ``out`` the options of the subfaction groups ``entry`` holds. An army type's
    options are no subfaction, but each may hold one's choice (Seraphon: Starborne and
    Coalesced, each with its constellations)."""
    for child in _children(entry, "selectionEntryGroups", "entryLinks"):
        group = data.target(child) if _tag(child) == "entryLink" else child
        if group is None or _tag(group) != "selectionEntryGroup":
            continue
        name = group.get("name", "").casefold()
        if "army type" in name:
            for option in _children(group, "selectionEntries", "entryLinks"):
                _subfactions_under(option, data, out)
            continue
        if any(word in name for word in _NOT_SUBFACTIONS):
            continue
        for option in _children(group, "selectionEntries", "entryLinks"):
            label = _NUMBERED.sub("", (option.get("name") or "").strip())
            # "Legion: Ivory Host" names the group's kind first: the subfaction is the rest.
            kind, _, rest = label.partition(": ")
            if rest and kind.casefold() in name:
                label = rest
            # "1. Crusading Army" and the like are a subfaction's options (delusions), not one.
            if label and label not in out and not _OPTION.match(label):
                out.append(label)


# --- Conquest ------------------------------------------------------------------------------------
CONQUEST_TYPES = ("infantry", "cavalry", "brute", "monster")


def _characteristics(entry: Element) -> dict[str, str]:
    out: dict[str, str] = {}
    for profile in _children(entry, "profiles"):
        for c in _children(profile, "characteristics"):
            out.setdefault(c.get("name", ""), (c.text or "").strip())
    return out


def _whole(text: str | None) -> int | None:
    return int(text) if text and text.isdigit() else None


def convert_conquest(folder: Path) -> list[dict[str, Any]]:
    """The regiments and characters of each faction of a BSData Conquest checkout."""
    data = BattleScribe.read(folder)
    factions = []
    for file, root in data.roots.items():
        if not file.endswith(".cat") or root.get("library") == "true":
            continue
        name = file.removesuffix(".cat").strip()
        units: dict[str, dict[str, Any]] = {}
        for entry in root.iter():
            if _tag(entry) != "selectionEntry" or entry.get("type") not in ("unit", "model"):
                continue
            points = _points(entry)
            stats = _characteristics(entry)
            kind = stats.get("Type", "").strip().lower()
            if not points or kind not in CONQUEST_TYPES:
                continue
            cats = {
                data.names.get(c.get("targetId", ""), "").lower() for c in _children(entry, "categoryLinks")
            }
            character = "character" in cats
            if not character and "regiment" not in cats:
                continue
            # A regiment's models: its stands at the smallest size times the models on a stand.
            stands = _whole(stats.get("Stands")) or 1
            per_stand = _whole(stats.get("Models on Stand")) or _whole(stats.get("Models")) or 1
            unit = {
                "name": entry.get("name", "").strip(),
                "points": points,
                "models": 1 if character else stands * per_stand,
                "keywords": [k.upper() for k in ("wizard", "priest") if k in cats],
                "roles": ["character"] if character else ["regiment"],
                "type": kind,
            }
            units.setdefault(unit["name"].casefold(), unit)
        if units:
            factions.append(
                {
                    "id": _slug(name),
                    "name": name,
                    "units": sorted(units.values(), key=lambda u: u["name"].casefold()),
                }
            )
    return sorted(factions, key=lambda f: f["name"].casefold())


# --- The Old World -------------------------------------------------------------------------------
OW_CATEGORIES = ("characters", "core", "special", "rare", "mercenaries", "allies")


def convert_old_world(folder: Path) -> list[dict[str, Any]]:
    """The units of each army of Old World Builder's data: name, points, models, category."""
    factions = []
    for path in sorted(folder.glob("*.json")):
        if path.stem in ("magic-items",):
            continue
        army = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(army, dict):
            continue
        units: dict[str, dict[str, Any]] = {}
        for category in OW_CATEGORIES:
            for item in army.get(category) or []:
                name = str(item.get("name_en", "")).strip()
                points = item.get("points")
                if not name or not isinstance(points, int | float):
                    continue
                if not points:
                    continue  # a free detachment or army option, not a unit to buy
                # Rank-and-file units are priced per model; a character is one model at its price.
                per_model = category != "characters"
                models = int(item.get("minimum") or 1) if per_model else 1
                unit = {
                    "name": name,
                    "points": round(points * models),
                    "models": models,
                    "keywords": [],
                    "roles": [category],
                    "category": category,
                }
                if per_model:
                    unit["points_per_model"] = points
                units.setdefault(name.casefold(), unit)
        if units:
            name = path.stem.replace("-", " ").title().replace(" Of ", " of ").replace(" And ", " and ")
            factions.append({"id": path.stem, "name": name, "units": list(units.values())})
    return factions


# --- writing ------------------------------------------------------------------------------------
def write_catalogue(out: Path, header: dict[str, Any], factions: list[dict[str, Any]]) -> None:
    """Write one catalogue file: the header block, then one line per unit."""
    lines = [
        "# Generated by tools/catalogues.py from public community data: do not edit by hand.",
        "# Facts only (names, points, models, keywords, roles); see tools/README.md.",
        yaml.safe_dump(header, sort_keys=False, allow_unicode=True, width=100).rstrip(),
        "factions:",
    ]
    for faction in factions:
        head = {k: v for k, v in faction.items() if k != "units"}
        lines.append(
            "  - "
            + "\n    ".join(f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in head.items())
        )
        lines.append("    units:")
        lines += [f"      - {json.dumps(u, ensure_ascii=False)}" for u in faction["units"]]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python tools/catalogues.py aos <checkout> --out <file> --commit <sha> ...``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["aos", "conquest", "old-world"])
    parser.add_argument("folder", type=Path, help="the data files (a checkout of the source at one commit)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--id", required=True, help="the catalogue's id (its file name without .yaml)")
    parser.add_argument("--name", required=True, help="the data set as players know it")
    parser.add_argument("--url", required=True)
    parser.add_argument("--commit", required=True)
    parser.add_argument("--date", required=True, help="the commit's date")
    parser.add_argument("--licence", required=True, help="the source's licence, as its repository states it")
    parser.add_argument("--season", required=True, help="the points' season or edition")
    parser.add_argument("--note", default="")
    args = parser.parse_args(argv)
    convert = {"aos": convert_aos, "conquest": convert_conquest, "old-world": convert_old_world}[args.kind]
    factions = convert(args.folder)
    header = {
        "id": args.id,
        "source": f"{args.name} ({args.url}), commit {args.commit[:12]} of {args.date}",
        "source_url": args.url,
        "commit": args.commit,
        "licence": args.licence,
        "season": args.season,
    }
    if args.note:
        header["note"] = args.note
    write_catalogue(args.out, header, factions)
    units = sum(len(f["units"]) for f in factions)
    print(f"{args.out}: {len(factions)} factions, {units} units", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
