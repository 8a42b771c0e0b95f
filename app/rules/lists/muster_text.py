"""Muster's own plain-text roster export (app/rules/army.py ``plain_text``), read back.

The export is meant to be pasted into a tournament form or a chat and imported again
unchanged, so every field of an entry it writes is read here: the first line is the roster's
name, the second the pack and points, then the faction and grand strategy; entries stand under
UNITS / BATTALIONS / ENDLESS SPELLS AND INVOCATIONS / TERRAIN (Age of Sigmar), the First Blood
``Name (Kind, Type, n models) [points]`` lines with their officers and retinue, or The Old
World's sections; ``TOTAL: x / y points`` gives the limit; the verdict lines are the
checker's, not the list's, and are passed over.
"""

from __future__ import annotations

import re

from app.rules.lists.model import Line, Reading, Unit, split_lines

FORMAT = "muster-text"

_PACK = re.compile(r"^(?P<pack>.+?) · (?P<points>\d{1,7})/(?P<limit>\d{1,7}) points$")
_TOTAL = re.compile(r"^TOTAL: (?P<points>\d{1,7}) / (?P<limit>\d{1,7}) points$")
_AOS = re.compile(
    r"^(?:(?P<models>\d{1,6}) x )?(?P<name>.+) \((?P<points>\d{1,7})\)(?: \[(?P<roles>[^\][()]*+)\])?(?: - (?P<flags>[A-Za-z, ]++))?$"
)
_FB = re.compile(
    r"^(?P<name>.+) \((?P<character>Character, )?(?P<type>[^(),]++), (?P<models>\d{1,6}) models?\) \[(?P<points>\d{1,7})\]$"
)
_MEMBER = re.compile(r"^(?P<what>Officer|Retinue): (?P<name>.+) \[(?P<points>\d{1,7})\]$")
_SECTIONS = {
    "UNITS": "unit",
    "BATTALIONS": "core-battalion",
    "ENDLESS SPELLS AND INVOCATIONS": "endless-spell",
    "TERRAIN": "terrain",
}
OLD_WORLD_SECTIONS = {"CHARACTERS", "CORE", "SPECIAL", "RARE", "MERCENARIES", "ALLIES"}
_SIZES = {
    "Reinforced": "reinforced",
    "Reinforced twice": "reinforced-twice",
    "Understrength": "understrength",
}


def detect(text: str) -> bool:
    """Whether the text is Muster's own plain-text export."""
    lines = [line.text for line in split_lines(text)]
    return len(lines) > 2 and bool(_PACK.match(lines[1])) and any(_TOTAL.match(line) for line in lines)


def read(text: str) -> Reading:
    """Read Muster's plain-text export back into its fields and entries."""
    lines = split_lines(text)
    reading = Reading(format=FORMAT)
    reading.name = None if lines[0].text == "Roster" else lines[0].text.strip() or None
    section: str | None = None
    unit: Unit | None = None
    verdict = False
    for line in lines[2:]:
        raw = line.text
        if not raw.strip():
            unit = None
            continue
        total = _TOTAL.match(raw)
        if total:
            reading.points_limit = int(total["limit"])
            verdict = True
            continue
        if verdict:
            continue  # the checker's verdict, written after the total
        if raw.startswith("  -") and unit is not None:
            _sub_line(unit, raw[3:].removeprefix(" "), line)
            continue
        if section is None and _header(reading, raw, line):
            continue
        if raw.strip() in _SECTIONS or raw.strip() in OLD_WORLD_SECTIONS:
            section = raw.strip()
            continue
        made = _entry(raw, line, section)
        if made is None:
            reading.unread.append(line)
            unit = None
        else:
            unit = made
            reading.units.append(made)
    return reading


def _header(reading: Reading, raw: str, line: Line) -> bool:
    for label, attr in (
        ("Faction: ", "faction"),
        ("Subfaction: ", "subfaction"),
        ("Triumph: ", "triumph"),
        ("Grand strategy: ", "grand_strategy"),
    ):
        if raw.startswith(label):
            setattr(reading, attr, raw.removeprefix(label).strip() or None)
            if attr == "grand_strategy":
                reading.grand_strategy_line = line
            return True
    return False


def _entry(raw: str, line: Line, section: str | None) -> Unit | None:
    fb = _FB.match(raw)
    if fb and section is None:
        return Unit(
            name=fb["name"],
            points=int(fb["points"]),
            line=line.number,
            kind="character" if fb["character"] else "regiment",
            regiment_type=fb["type"].strip().lower().replace(" ", "-"),
            models=int(fb["models"]),
        )
    aos = _AOS.match(raw)
    if aos is None or section is None:
        return None
    unit = Unit(name=aos["name"], points=int(aos["points"]), line=line.number)
    unit.models = int(aos["models"]) if aos["models"] else None
    if section in OLD_WORLD_SECTIONS:
        unit.category = section.lower()
        return unit
    unit.kind = _SECTIONS[section]
    unit.roles = [r.strip() for r in (aos["roles"] or "").split(",") if r.strip()]
    for flag in (f.strip() for f in (aos["flags"] or "").split(",") if f.strip()):
        if flag in _SIZES:
            unit.size = _SIZES[flag]
        elif flag == "General":
            unit.general = True
        elif flag == "Ally":
            unit.ally = True
        elif flag == "Coalition":
            unit.coalition = True
        elif flag == "Single model":
            unit.single_model = True
        elif flag == "Warscroll battalion":
            unit.kind = "warscroll-battalion"
        elif flag == "Invocation":
            unit.kind = "invocation"
        else:
            return None
    return unit


def _sub_line(unit: Unit, text: str, line: Line) -> None:
    member = _MEMBER.match(text)
    if member:
        group = unit.officers if member["what"] == "Officer" else unit.retinue
        group.append(
            Unit(name=member["name"], points=int(member["points"]), line=line.number, kind="officer")
        )
        return
    for label, attr in (("Command trait: ", "command_trait"), ("Faction: ", "faction")):
        if text.startswith(label):
            setattr(unit, attr, text.removeprefix(label))
            return
    if text.startswith("Enhancements: "):
        unit.enhancements = [x.strip() for x in text.removeprefix("Enhancements: ").split(", ")]
        return
    if text.startswith("Keywords: "):
        unit.keywords = [x.strip() for x in text.removeprefix("Keywords: ").split(", ")]
        return
    # The export writes each line of the notes as a sub-line: they are one note again.
    if unit.notes:
        unit.notes[-1] += "\n" + text
    else:
        unit.notes.append(text)
