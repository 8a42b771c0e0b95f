"""What Age of Sigmar list tools write alike: headings, header fields and a unit's sub-lines.

The Warhammer app's "- Army Faction:" layout and Warscroll Builder both write a unit as
``[N x ]Name (points)[*]`` under a role heading, followed by ``- `` sub-lines (general,
command trait, artefact, spells, reinforcement, allies, wargear). :func:`read_headings`
reads that layout; the block layout of the app (``Points Cost:``) is in aos_app.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.rules.lists.model import Line, Reading, Unit, is_bulleted, unbullet, whole


@dataclass(frozen=True)
class Section:
    """What a heading says of the entries under it: their kind, roles, and whether they are allies."""

    kind: str = "unit"
    roles: tuple[str, ...] = ()
    ally: bool = False


# Role headings and what a unit under them is (roles, or a kind that is not a unit).
SECTIONS: dict[str, Section] = {
    "leader": Section(roles=("Leader",)),
    "leaders": Section(roles=("Leader",)),
    "battleline": Section(roles=("Battleline",)),
    "other": Section(roles=("Other",)),
    "units": Section(roles=("Other",)),
    "behemoth": Section(roles=("Behemoth",)),
    "behemoths": Section(roles=("Behemoth",)),
    "artillery": Section(roles=("Artillery",)),
    "allies": Section(ally=True),
    "endless spells & invocations": Section("endless-spell"),
    "endless spells/invocations": Section("endless-spell"),
    "endless spells and invocations": Section("endless-spell"),
    "endless spells": Section("endless-spell"),
    "malign sorcery": Section("endless-spell"),
    "invocations": Section("invocation"),
    "terrain": Section("terrain"),
    "faction terrain": Section("terrain"),
    "core battalions": Section("core-battalion"),
    "core battalion": Section("core-battalion"),
    "warscroll battalions": Section("warscroll-battalion"),
    # Warscroll Builder lists the kinds of extra enhancements a battalion gave: nothing to place.
    "additional enhancements": Section("skip"),
}
UNIT = Section()

# Header fields the import keeps, by the names tools give them.
FACTION_KEYS = {"army faction", "allegiance", "faction"}
SUBFACTION_KEYS = {
    "subfaction",
    "army subfaction",
    "army type",
    "enclave",
    "glade",
    "temple",
    "lodge",
    "stormhost",
    "city",
    "host",
    "legion",
    "constellation",
    "warclan",
    "clan",
}
STRATEGY_KEYS = {"grand strategy", "grand strategies"}
NAME_KEYS = {"army name"}
LIMIT_KEYS = {"points limit"}
GENERAL_KEYS = {"general"}
TRIUMPH_KEYS = {"triumph", "triumphs", "triumps"}
# Header fields a roster has no place for: read, and listed for the player as not kept.
KNOWN_KEYS = {
    "battlepack",
    "season of war",
    "mortal realm",
    "realm of battle",
    "battle trait bonus",
    "holy commands",
    "game type",
    "core battalions",
}
# Read and passed over without a word: a block's heading, not a field of the army.
SILENT_KEYS = {"core battalions"}

# The name runs to the last "(" (the points' own: the rest of the line is anchored), and is
# stripped after: a name that stopped short of the blanks before "(" would try every split.
_ENTRY = re.compile(
    r"^(?:(?P<count>\d{1,6})\s*+x\s++)?(?P<name>.+)\((?P<points>\d[\d,]*+)\)\s*+(?P<marks>\**+)\s*+$"
)
_FIELD = re.compile(r"^(?P<key>[A-Za-z][A-Za-z' ]*+)\s*+:\s*+(?P<value>.*)$")
TOTAL = re.compile(
    r"^total(?: points)?+\s*+:\s*+\(?+\s*+(?P<total>\d[\d,]*+)\s*+(?:pts)?+\s*+"
    r"(?:/\s*+(?P<limit>\d[\d,]*+)\s*+(?:pts)?+)?+\s*+\)?+$",
    re.IGNORECASE,
)
_REINFORCED = re.compile(r"^reinforced(?:\s*+x\s*+|\s*+:\s*+|\s++)(?P<n>\d|once|twice)$", re.IGNORECASE)

# What a sub-line's label says the enhancement is, and the keyword it shows the unit has (the
# tools offer a command trait or an artefact only to a HERO, spells to a WIZARD, prayers to a
# PRIEST).
_ENHANCEMENTS = (
    (re.compile(r"^command traits?$", re.I), "trait", ["HERO"]),
    (re.compile(r"^artefacts?( of power)?$", re.I), "artefact", ["HERO"]),
    (re.compile(r"^(spells?|spell lore|lore of .+)$", re.I), "spell", ["WIZARD"]),
    (re.compile(r"^(prayers?|prayer scripture|scripture|.+ prayers)$", re.I), "prayer", ["PRIEST"]),
    (re.compile(r"^mount traits?$", re.I), "mount", []),
    (re.compile(r"^(heroic actions?|big names?|unique enhancements?|enhancements?)$", re.I), "other", []),
)


def entry_line(text: str) -> tuple[int | None, str, int, str] | None:
    """``(models, name, points, marks)`` of a ``[N x ]Name (points)[*]`` line, or ``None``."""
    match = _ENTRY.match(text.strip())
    if match is None:
        return None
    points = whole(match["points"])
    if points is None:
        return None
    count = int(match["count"]) if match["count"] else None
    return count, match["name"].strip(), points, match["marks"]


def header_field(text: str) -> tuple[str, str] | None:
    """``(key, value)`` of a ``Key: value`` line (bullets and indents allowed), lower-cased key."""
    match = _FIELD.match(unbullet(text))
    if match is None:
        return None
    return match["key"].strip().lower(), match["value"].strip()


def section(text: str) -> Section | None:
    """What a heading line says the units under it are, or ``None`` if it is no heading."""
    return SECTIONS.get(text.strip().rstrip(":").lower())


def take_header(reading: Reading, line: Line, key: str, value: str) -> bool:
    """Keep a header field on the reading; ``False`` when the key is not one Muster knows."""
    if key in FACTION_KEYS:
        reading.faction = value or None
        return True
    if key in SUBFACTION_KEYS:
        if not value:
            return True
        # The Warhammer app writes "Army Type: Starborne" and then "Subfaction: Fangs of Sotek":
        # the subfaction is the one Muster keeps, the army type is listed as not kept.
        weaker = reading.subfaction_key == "army type" and key != "army type"
        if reading.subfaction is None or weaker:
            if weaker and reading.subfaction_line is not None:
                reading.dropped.append(reading.subfaction_line)
            reading.subfaction, reading.subfaction_key, reading.subfaction_line = value, key, line
        else:
            reading.dropped.append(line)
        return True
    if key in TRIUMPH_KEYS:
        reading.triumph = value or None
        return True
    if key in STRATEGY_KEYS:
        reading.grand_strategy = value or None
        reading.grand_strategy_line = line if value else None
        return True
    if key in NAME_KEYS:
        reading.name = value or None
        return True
    if key in LIMIT_KEYS:
        reading.points_limit = whole(value.lower().removesuffix("pts").removesuffix("points"))
        return True
    if key in GENERAL_KEYS and value:
        # A header "General: Name" names the general; it is marked once the units are read.
        reading.general_name = value
        return True
    if key in KNOWN_KEYS:
        if value and key not in SILENT_KEYS:
            reading.dropped.append(line)
        return True
    return False


def apply_sub_line(unit: Unit, text: str) -> None:
    """What a unit's sub-line says: general, ally, reinforcement, enhancements or wargear."""
    item = unbullet(text)
    lowered = item.lower()
    if lowered == "general":
        unit.general = True
        return
    if lowered in ("allies", "ally"):
        unit.ally = True
        return
    if lowered == "coalition":
        unit.coalition = True
        return
    reinforced = _REINFORCED.match(item)
    if reinforced:
        times = {"1": 1, "once": 1, "2": 2, "twice": 2}.get(reinforced["n"].lower(), 0)
        unit.size = {1: "reinforced", 2: "reinforced-twice"}.get(times, unit.size)
        return
    labelled = _FIELD.match(item)
    if labelled:
        label, value = labelled["key"].strip(), labelled["value"].strip()
        for pattern, what, keywords in _ENHANCEMENTS:
            if pattern.match(label):
                add_enhancement(unit, what, value, keywords)
                return
    unit.notes.append(item)


def add_enhancement(unit: Unit, what: str, value: str, keywords: list[str]) -> None:
    """Give a unit a command trait or enhancements (spells listed with commas are each one)."""
    for keyword in keywords:
        if keyword not in unit.keywords:
            unit.keywords.append(keyword)
    if what == "trait":
        unit.command_trait = value or None
        return
    names = [v.strip() for v in value.split(",")] if what in ("spell", "prayer") else [value]
    for name in names:
        if not name:
            continue
        if len(unit.enhancements) < 6:
            unit.enhancements.append(name)
        else:
            unit.notes.append(name)


def make_unit(under: Section | None, line: Line, parsed: tuple[int | None, str, int, str]) -> Unit:
    """A unit from an entry line and the heading it stands under."""
    count, name, points, _marks = parsed
    about = under or UNIT
    unit = Unit(name=name, points=points, line=line.number, kind=about.kind)
    if about.kind == "unit":
        unit.roles = list(about.roles)
        unit.ally = about.ally
        # "1 x" is how the tools count a unit bought once, not its models.
        unit.models = count if count and count > 1 else None
    return unit


def battalion(line: Line, text: str) -> Unit:
    """A core battalion line ("**Battle Regiment", "*Command Entourage - Magnificent")."""
    name = text.strip().lstrip("*").strip()
    unit = Unit(name=name, points=0, line=line.number, kind="core-battalion")
    for sep in (" - ", " – "):
        if sep in name:
            head, tail = name.split(sep, 1)
            unit.name, unit.notes = head.strip(), [tail.strip()]
            break
    return unit


def mark_general(reading: Reading) -> None:
    """A general named in the header (and not marked on a unit) is marked on that unit."""
    named = reading.general_name
    if not named or any(u.general for u in reading.units):
        return
    for unit in reading.units:
        if unit.kind == "unit" and unit.name.casefold() == named.casefold():
            unit.general = True
            return


def read_headings(reading: Reading, lines: list[Line], footer: re.Pattern[str]) -> Reading:
    """Read the heading layout: header fields, role headings, entry lines and their sub-lines."""
    current: Section | None = None
    unit: Unit | None = None
    started = False
    for line in lines:
        text = line.text.strip()
        if not text:
            continue
        heading = section(text)
        if heading is not None:
            current, unit, started = heading, None, True
            continue
        total = TOTAL.match(text)
        if total:
            limit = whole(total["limit"]) if total["limit"] else None
            reading.points_limit = limit or reading.points_limit
            unit = None
            continue
        if footer.match(text):
            unit = None
            continue
        kind = current.kind if current else None
        if kind == "skip":
            continue
        if kind == "core-battalion" and not is_bulleted(line.text):
            parsed = entry_line(text)
            if parsed is None:
                unit = battalion(line, text)
                reading.units.append(unit)
                continue
        parsed = entry_line(text) if not is_bulleted(line.text) else None
        if parsed is not None:
            unit = make_unit(current, line, parsed)
            reading.units.append(unit)
            started = True
            continue
        if unit is not None and is_bulleted(line.text):
            apply_sub_line(unit, text)
            continue
        field = header_field(text)
        if not started and field is not None and take_header(reading, line, *field):
            continue
        reading.unread.append(line)
    mark_general(reading)
    return reading
