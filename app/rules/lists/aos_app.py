"""The Warhammer Age of Sigmar app's list text (3rd edition, 2021-2022), in its layouts.

- The heading layout ("- Army Faction:", LEADERS / BATTLELINE / OTHER / CORE BATTALIONS,
  ``Name (points)`` and ``- `` sub-lines; the December 2021 version indents the sub-lines
  with a tab): read by :func:`app.rules.lists.aos_common.read_headings`.
- The block layout ("Army Name:", then per unit an indented block of ``Battlefield Role:``,
  ``Reinforced:``, ``Enhancements`` and ``Points Cost:``; indented with spaces or with tabs,
  the general marked ``(General)`` and sometimes named in a ``General:`` header): read here.
"""

from __future__ import annotations

import re

from app.rules.lists import aos_common
from app.rules.lists.model import Line, Reading, Unit, split_lines, whole

FORMAT = "aos-app"
_FOOTER = re.compile(r"^(?:(?:in)?valid\s*+:\s*+)?created with warhammer age of sigmar", re.IGNORECASE)
# Multi-line patterns take blanks within a line only ([^\S\n]): a blank that could be a line
# break would let each line's try run on through every blank line after it.
_SIGNS = re.compile(
    r"^[^\S\n]*+(?:-[^\S\n]*+)?(?:army faction|army name)[^\S\n]*+:|created with warhammer age of sigmar: the app",
    re.IGNORECASE | re.MULTILINE,
)
_BLOCKS = re.compile(r"^[^\S\n]++points cost[^\S\n]*+:", re.IGNORECASE | re.MULTILINE)
# Found anywhere on the line, it opens on its bracket (the blanks before it are stripped after).
_GENERAL_MARK = re.compile(r"\(general\)\s*+$", re.IGNORECASE)


def detect(text: str) -> bool:
    """Whether the text is a list the Age of Sigmar app exported."""
    return bool(_SIGNS.search(text)) and "allegiance:" not in text[:200].lower()


def read(text: str) -> Reading:
    """Read the app's list, whichever layout it has."""
    reading = Reading(format=FORMAT, game="aos")
    lines = split_lines(text)
    if _BLOCKS.search(text):
        return _read_blocks(reading, lines)
    return aos_common.read_headings(reading, lines, _FOOTER)


def _indent(text: str) -> int:
    return len(text.expandtabs(4)) - len(text.expandtabs(4).lstrip())


def _read_blocks(reading: Reading, lines: list[Line]) -> Reading:
    current: aos_common.Section | None = None
    unit: Unit | None = None
    battalion: Unit | None = None
    battalion_indent: int | None = None
    priced: set[int] = set()
    started = False
    for line in lines:
        text = line.text.strip()
        if not text:
            continue
        indent = _indent(line.text)
        if indent == 0:
            unit = battalion = None
            heading = aos_common.section(text)
            if heading is not None:
                current, battalion_indent, started = heading, None, True
                continue
            total = aos_common.TOTAL.match(text)
            if total:
                reading.points_limit = (
                    whole(total["limit"]) if total["limit"] else None
                ) or reading.points_limit
                continue
            if _FOOTER.match(text):
                continue
            field = aos_common.header_field(text)
            if not started and field is not None and aos_common.take_header(reading, line, *field):
                continue
            reading.unread.append(line)
            continue
        field = aos_common.header_field(text)
        if text.lower() == "enhancements":
            continue
        if field is not None:
            key, value = field
            owner = unit if unit is not None and indent > (battalion_indent or 0) else battalion
            if owner is None:
                reading.unread.append(line)
            elif key == "battlefield role":
                owner.roles = [r.strip().capitalize() for r in value.split(",") if r.strip()]
            elif key == "points cost":
                points = whole(value.lower().removesuffix("pts"))
                if points is None:
                    reading.unread.append(line)
                else:
                    owner.points = points
                    priced.add(id(owner))
            elif key == "reinforced":
                aos_common.apply_sub_line(owner, f"Reinforced {value}")
            elif key == "battalion slot filled":
                # Which slot of its battalion the unit fills: the battalion's rule, not the roster's.
                pass
            elif key == "magnificent bonus":
                owner.notes.append(f"Magnificent bonus: {value}")
            else:
                aos_common.apply_sub_line(owner, text)
            continue
        # A name line: a battalion (at the battalion level of its section) or a unit.
        kind = (current or aos_common.UNIT).kind
        if kind == "core-battalion" and (battalion_indent is None or indent <= battalion_indent):
            battalion_indent = indent
            battalion, unit = aos_common.battalion(line, text), None
            reading.units.append(battalion)
            priced.add(id(battalion))
            continue
        general = bool(_GENERAL_MARK.search(text))
        name = _GENERAL_MARK.sub("", text).strip()
        unit = Unit(name=name, points=0, line=line.number, kind="unit" if kind == "core-battalion" else kind)
        unit.general = general
        if unit.kind == "unit":
            unit.roles = list((current or aos_common.UNIT).roles)
        if unit.kind == "terrain":
            priced.add(id(unit))
        reading.units.append(unit)
    # A unit with no points cost cannot be placed: it stays unread, never counted as free.
    unpriced = [u for u in reading.units if id(u) not in priced]
    reading.units = [u for u in reading.units if id(u) in priced]
    numbered = {line.number: line for line in lines}
    reading.unread += [numbered[u.line] for u in unpriced]
    reading.unread.sort(key=lambda line: line.number)
    aos_common.mark_general(reading)
    return reading
