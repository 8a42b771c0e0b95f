"""BattleScribe's and New Recruit's text export (the ``++ Force ++`` / ``+ Category +`` layout).

A force header ``++ Name (Faction) [2,000pts] ++``, category headings ``+ Leader +``, and per
selection ``Name [points]: option, option``; ``. Key: value`` lines carry the allegiance and
game options; ``++ Total: [x] ++`` and a "Created with" line close it. The game is told by the
force header and the categories (Age of Sigmar roles, The Old World's characters / core /
special / rare).
"""

from __future__ import annotations

import re

from app.rules.lists import aos_common
from app.rules.lists.model import Line, Reading, Unit, split_lines, unbullet, whole

FORMAT = "battlescribe-text"
NEW_RECRUIT = "new-recruit-text"

# Names and titles are stripped after matching: a name that stopped short of the blanks
# before its bracket would try every split of a run of blanks.
_FORCE = re.compile(r"^\+\+\+?+(?P<title>.*?)\+\+\+?$")
_CATEGORY = re.compile(r"^\+\s++(?P<name>[^+]*+)(?<=\s)\+$")
_ENTRY_PATTERN = (
    r"^(?P<name>[^\[\]\n]++)\[(?P<points>\d[\d,.]*+)\s*+(?:pts?|points)?+(?:,[^\]\n]*+)?\]"
    r"\s*+(?::\s*+(?P<options>.*))?$"
)
_ENTRY = re.compile(_ENTRY_PATTERN, re.IGNORECASE)
_ENTRIES = re.compile(_ENTRY_PATTERN, re.IGNORECASE | re.MULTILINE)
_PREFIX = re.compile(
    r"^(?P<what>endless spells?|invocations?|core battalions?|faction terrain)\s*+:\s*+", re.I
)
_MODELS = re.compile(r"^(?P<n>\d{1,6})(?:\s*+x\s++|\s++)(?P<name>.+)$", re.IGNORECASE)
_FOOTER = re.compile(r"^created with (battlescribe|new recruit)|^https?://", re.IGNORECASE)
_SIGNS = re.compile(r"^\+\+\+?[^\S\n].*\+\+\+?[^\S\n]*+$", re.MULTILINE)
# The force header's parts: "... 2,000 (Chaos - Slaves to Darkness) [2,000pts]". Each search
# opens on a bracket, or on the first character of a run of digits, never inside a run.
_FACTION = re.compile(r"\((?P<faction>[^()]*+)\)\s*+(?:\[[^\][()]*+\])?+\s*+$")
_GAME_SIZE = re.compile(r"(?<![\d,]),*+(\d[\d,]*+)\s*+\(")
_TAIL = re.compile(r"\([^()]*+\)\s*+(?:\[[^\][()]*+\])?+\s*+$")
_SIZE_AFTER_NAME = re.compile(r"(?<=\s)\d[\d,]*+$")
_GAME_POINTS = re.compile(r"^\s*+(\d[\d,]*+)\s*+points", re.IGNORECASE)
_NOT_ALNUM = re.compile(r"[^a-z0-9]")

OLD_WORLD_CATEGORIES = {
    "characters": "characters",
    "lords": "characters",
    "heroes": "characters",
    "core units": "core",
    "core": "core",
    "special units": "special",
    "special": "special",
    "rare units": "rare",
    "rare": "rare",
    "mercenaries": "mercenaries",
    "allies": "allies",
}


def detect(text: str) -> bool:
    """Whether the text is a BattleScribe or New Recruit text export."""
    return (bool(_SIGNS.search(text)) and bool(_ENTRIES.search(text.replace("\r", "")))) or (
        "created with battlescribe" in text.lower()
    )


def _game(title: str, categories: set[str]) -> str | None:
    lowered = title.lower()
    if "old world" in lowered or categories & {"core units", "special units", "rare units"}:
        return "old-world"
    if "conquest" in lowered or "first blood" in lowered:
        return "conquest"
    if any(w in lowered for w in ("sigmar", "pitched battle", "ghb", "general's handbook")) or categories & {
        "leader",
        "battleline",
        "behemoth",
    }:
        return "aos"
    return None


def read(text: str) -> Reading:
    """Read a BattleScribe or New Recruit text export."""
    lines = split_lines(text)
    fmt = NEW_RECRUIT if "new recruit" in text.lower() else FORMAT
    reading = Reading(format=fmt)
    categories = {m["name"].strip().lower() for line in lines if (m := _CATEGORY.match(line.text.strip()))}
    titles = [m["title"].strip() for line in lines if (m := _FORCE.match(line.text.strip()))]
    reading.game = _game(" ".join(titles), categories)
    category: str | None = None
    unit: Unit | None = None
    for line in lines:
        text = line.text.strip()
        if not text:
            continue
        force = _FORCE.match(text)
        if force:
            unit = None
            _force_header(reading, force["title"].strip())
            continue
        heading = _CATEGORY.match(text)
        if heading:
            category, unit = heading["name"].strip().lower(), None
            continue
        if _FOOTER.match(text):
            continue
        entry = _ENTRY.match(text)
        if entry:
            unit = _unit(reading, line, entry, category)
            if unit is None:
                reading.unread.append(line)
            else:
                reading.units.append(unit)
            continue
        if text.startswith(". ") and unit is not None:
            unit.notes.append(unbullet(text))
            continue
        if _header(reading, line, unbullet(text.removeprefix(". "))):
            unit = None
            continue
        reading.unread.append(line)
    return reading


def _force_header(reading: Reading, title: str) -> None:
    # "**Pitched Battle GHB 2022** 2,000 (Chaos - Slaves to Darkness) [2,000pts]"
    title = title.strip()
    match = _FACTION.search(title)
    if match and reading.faction is None:
        faction = match["faction"].strip()
        reading.faction = faction.split(" - ")[-1].strip() or None
    size = _GAME_SIZE.search(title)
    if size and reading.points_limit is None:
        reading.points_limit = whole(size[1])
    name = _TAIL.sub("", title).replace("**", "").strip()
    # The force header repeats the game size after the name ("... GHB 2022** 2,000 (...)").
    name = _SIZE_AFTER_NAME.sub("", name).rstrip()
    if name and not name.lower().startswith("total") and reading.name is None:
        reading.name = name[:60]


def _header(reading: Reading, line: Line, text: str) -> bool:
    if text.lower() in ("allegiance", "game options", "grand strategy"):
        return True
    field = aos_common.header_field(text)
    if field is None:
        return False
    key, value = field
    if key == "allegiance":
        faction, _, sub = value.partition(":")
        reading.faction = faction.strip() or reading.faction
        reading.subfaction = sub.strip() or reading.subfaction
        return True
    if key == "game type":
        points = _GAME_POINTS.match(value)
        if points:
            reading.points_limit = whole(points[1])
        return True
    if key == "total":
        return True
    return aos_common.take_header(reading, line, key, value) or key in ("battle tactics", "realm of battle")


def _unit(reading: Reading, line: Line, entry: re.Match[str], category: str | None) -> Unit | None:
    points = whole(entry["points"])
    if points is None:
        return None
    name = entry["name"].strip()
    kind = "unit"
    prefix = _PREFIX.match(name)
    if prefix:
        what = prefix["what"].lower()
        kind = (
            "endless-spell"
            if what.startswith("endless")
            else "invocation"
            if what.startswith("invocation")
            else "core-battalion"
            if what.startswith("core")
            else "terrain"
        )
        name = name[prefix.end() :].strip()
    unit = Unit(name=name, points=points, line=line.number, kind=kind)
    about = aos_common.section(category or "") or aos_common.UNIT
    if kind == "unit" and about.kind not in ("unit", "skip"):
        unit.kind = about.kind
    if reading.game == "old-world":
        unit.category = OLD_WORLD_CATEGORIES.get(category or "", category)
    elif unit.kind == "unit":
        unit.roles = list(about.roles)
        unit.ally = about.ally
    for option in (o.strip() for o in (entry["options"] or "").split(",")):
        if not option:
            continue
        if option.lower() == "general":
            unit.general = True
            continue
        counted = _MODELS.match(option)
        if counted and _same_name(counted["name"], name) and unit.models is None:
            unit.models = int(counted["n"])
            continue
        unit.notes.append(option)
    return unit


def _same_name(a: str, b: str) -> bool:
    def key(s: str) -> str:
        return _NOT_ALNUM.sub("", s.lower()).removesuffix("s")

    return key(a) == key(b) or key(a) in key(b) or key(b) in key(a)
