"""Old World Builder's lists for The Old World: its saved ``.owb.json`` and its text export.

The ``.owb.json`` holds the list's points limit and, per section (characters, core, special,
rare, mercenaries, allies), each unit with its per-model points, strength and options; a unit's
cost is added up the way the builder adds it (per-model options times the strength, stackable
options times their count, magic items, command, mounts, detachments). The text export writes
``===`` / name ``[total pts]`` / "game, army" / ``===``, then ``++ Section [pts] ++`` headings,
``[N ]Name [points pts]`` lines and ``- option`` lines, and a "Created with" footer.
"""

from __future__ import annotations

import math
import re
from typing import Any

from app.rules.lists.model import Line, Reading, Unit, is_bulleted, split_lines, unbullet, whole

JSON_FORMAT = "old-world-builder-json"
TEXT_FORMAT = "old-world-builder-text"
SECTIONS = ("characters", "lords", "heroes", "core", "special", "rare", "mercenaries", "allies")
_CATEGORY = {"lords": "characters", "heroes": "characters"}

# Names are stripped after matching: one that stopped short of the blanks before its bracket
# would try every split of a run of blanks.
_HEADING = re.compile(r"^\+\+(?P<name>[^\[+]++)(?:\[[^\]]*+\])?+\s*+\+\+$")
_ENTRY = re.compile(
    r"^(?:(?P<count>\d{1,6})\s++)?(?P<name>.+)\[(?P<points>\d[\d,.]*+)\s*+(?:pts|points|pkte|pts\.)\.?\]$",
    re.I,
)
_TITLE_SIZE = re.compile(r"^(?P<name>.*)\[\d[\d,.]*+\s*+\w*+\.?\]$")
_TEXT_SECTIONS = {
    "characters": "characters",
    "lords": "characters",
    "heroes": "characters",
    "core": "core",
    "core units": "core",
    "special": "special",
    "special units": "special",
    "rare": "rare",
    "rare units": "rare",
    "mercenaries": "mercenaries",
    "allies": "allies",
}


# --- the .owb.json ----------------------------------------------------------------------------
def is_owb(data: Any) -> bool:
    """Whether parsed JSON is an Old World Builder list."""
    return isinstance(data, dict) and any(isinstance(data.get(s), list) for s in SECTIONS) and "game" in data


def _num(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0.0
    try:
        number = float(value)
    except OverflowError:
        return 0.0
    # No unit costs a billion points: anything past that is not a list, and inf or nan breaks sums.
    return number if math.isfinite(number) and abs(number) < 1e9 else 0.0


def _on(option: Any) -> bool:
    return isinstance(option, dict) and bool(option.get("active"))


def _options_points(options: Any, strength: float) -> float:
    total = 0.0
    for option in options if isinstance(options, list) else []:
        if not isinstance(option, dict):
            continue
        if option.get("stackable"):
            total += _num(option.get("stackableCount") or option.get("minimum")) * _num(option.get("points"))
        elif _on(option):
            total += _num(option.get("points")) * (strength if option.get("perModel") else 1)
            for sub in option.get("options") or []:
                if _on(sub):
                    total += _num(sub.get("points")) * (strength if sub.get("perModel") else 1)
    return total


def _selected_points(items: Any) -> float:
    total = 0.0
    for item in items if isinstance(items, list) else []:
        for chosen in (item.get("selected") or []) if isinstance(item, dict) else []:
            if isinstance(chosen, dict):
                total += _num(chosen.get("points")) * (_num(chosen.get("amount")) or 1)
    return total


def unit_points(unit: dict[str, Any]) -> int:
    """What Old World Builder shows as the unit's cost."""
    strength = _num(unit.get("strength"))
    per_model = max(strength, 1)
    total = _num(unit.get("points")) * (strength or 1)
    total += _options_points(unit.get("options"), per_model)
    for group in ("equipment", "armor"):
        for option in unit.get(group) or []:
            if _on(option):
                total += _num(option.get("points")) * (per_model if option.get("perModel") else 1)
    detachment = any(_on(o) and o.get("name_en") == "Detachment" for o in unit.get("options") or [])
    if not detachment:
        for command in unit.get("command") or []:
            if _on(command):
                total += _num(command.get("points"))
                total += _selected_points([command.get("magic")] if command.get("magic") else [])
                total += sum(_num(o.get("points")) for o in command.get("options") or [] if _on(o))
    for mount in unit.get("mounts") or []:
        if _on(mount):
            total += _num(mount.get("points"))
            total += sum(_num(o.get("points")) for o in mount.get("options") or [] if _on(o))
    total += _selected_points(unit.get("items"))
    for part in unit.get("detachments") or []:
        if not isinstance(part, dict):
            continue
        count = _num(part.get("strength"))
        total += count * _num(part.get("points"))
        for group in ("equipment", "armor", "options"):
            total += sum(count * _num(o.get("points")) for o in part.get(group) or [] if _on(o))
    return round(total)


def read_json(data: dict[str, Any]) -> Reading:
    """Read an ``.owb.json`` list."""
    reading = Reading(format=JSON_FORMAT, game="old-world")
    reading.name = str(data.get("name") or "").strip()[:60] or None
    army = str(data.get("army") or "").replace("-", " ").strip()
    reading.faction = army.title()[:60] or None
    limit = data.get("points")
    reading.points_limit = (
        int(limit) if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0 else None
    )
    number = 0
    for section in SECTIONS:
        for raw in data.get(section) or []:
            number += 1
            name = str(raw.get("name_en") or raw.get("name") or "").strip() if isinstance(raw, dict) else ""
            if not name:
                reading.unread.append(Line(number, f"{section}: an entry with no name"))
                continue
            unit = Unit(
                name=name[:60], points=unit_points(raw), line=number, category=_CATEGORY.get(section, section)
            )
            strength = raw.get("strength")
            unit.models = (
                strength
                if isinstance(strength, int) and not isinstance(strength, bool) and strength > 1
                else None
            )
            reading.units.append(unit)
    return reading


# --- the text export ---------------------------------------------------------------------------
def detect(text: str) -> bool:
    """Whether the text is Old World Builder's text export."""
    lowered = text.lower()
    return "old world builder" in lowered or (text.lstrip().startswith("===") and bool(_HEADING.search(text)))


def read(text: str) -> Reading:
    """Read Old World Builder's text export."""
    reading = Reading(format=TEXT_FORMAT, game="old-world")
    lines = split_lines(text)
    rules = 0
    category: str | None = None
    unit: Unit | None = None
    footer = False
    for line in lines:
        raw = line.text.strip()
        if not raw:
            continue
        if raw == "===":
            rules += 1
            continue
        if rules == 1:
            _title(reading, raw)
            continue
        if raw == "---":
            footer = True
            continue
        if footer:
            continue
        heading = _HEADING.match(raw)
        if heading:
            category = _TEXT_SECTIONS.get(heading["name"].strip().lower(), heading["name"].strip().lower())
            unit = None
            continue
        if is_bulleted(line.text) and unit is not None:
            unit.notes.append(unbullet(raw))
            continue
        entry = _ENTRY.match(raw)
        if entry and (points := whole(entry["points"])) is not None:
            unit = Unit(name=entry["name"].strip(), points=points, line=line.number, category=category)
            count = int(entry["count"]) if entry["count"] else None
            unit.models = count if count and count > 1 else None
            reading.units.append(unit)
            continue
        reading.unread.append(line)
    return reading


def _title(reading: Reading, raw: str) -> None:
    entry = _TITLE_SIZE.match(raw)
    if reading.name is None:
        reading.name = (entry["name"] if entry else raw).strip()[:60] or None
        return
    if reading.faction is None:
        reading.faction = raw.split(",")[-1].strip()[:60] or None
