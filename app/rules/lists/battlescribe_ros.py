"""BattleScribe / New Recruit roster files: ``.ros`` (XML) and ``.rosz`` (a zip of one ``.ros``).

A roster holds forces; a force holds selections (units, models, upgrades), each with its own
costs and nested selections whose costs add to it, and categories (one marked primary). The
roster's ``costLimits`` give the points limit. A top-level selection with points is an entry;
one without points (allegiance, game options, grand strategy) is a header field. A file has
no useful line numbers, so ``line`` counts the top-level selections in order, from 1.
"""

from __future__ import annotations

import math
import re
from xml.etree.ElementTree import Element

from app.rules.lists import aos_common
from app.rules.lists.battlescribe_text import OLD_WORLD_CATEGORIES
from app.rules.lists.files import Refused
from app.rules.lists.model import Line, Reading, Unit, whole

FORMAT = "battlescribe-ros"
MOST_POINTS = 1_000_000
_LEADING_NUMBER = re.compile(r"^\s*+(\d[\d,]*+)")
ZIPPED = "battlescribe-rosz"


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _children(node: Element, name: str) -> list[Element]:
    return [c for c in node if _local(c.tag) == name]


def _child(node: Element, name: str) -> Element | None:
    found = _children(node, name)
    return found[0] if found else None


def _number(raw: str | None, what: str) -> float:
    """A number the file gives (a cost, a limit), or why it cannot be one, as a refusal."""
    text = (raw or "0").strip() or "0"
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    # No roster costs a million points: past that (or inf, nan) the file is not a roster.
    if not math.isfinite(value) or abs(value) >= MOST_POINTS:
        raise Refused(
            f"the roster file's {what} must be a number of points under {MOST_POINTS:,}, "
            f"not {text[:20]!r}: save it again from BattleScribe or New Recruit."
        )
    return value


def _points(node: Element) -> float:
    costs = _child(node, "costs")
    if costs is None:
        return 0.0
    total = 0.0
    for cost in _children(costs, "cost"):
        if cost.get("name", "").strip().lower() in ("pts", "points", "pts."):
            total += _number(cost.get("value"), "costs")
    return total


def _total(node: Element) -> float:
    """A selection's own cost and its nested selections' costs, as BattleScribe adds them.

    Walked with a stack, not recursion: the file's nesting is bounded when it is parsed, but
    no Python stack should depend on a player's file.
    """
    total, stack = 0.0, [node]
    while stack:
        selection = stack.pop()
        total += _points(selection)
        nested = _child(selection, "selections")
        if nested is not None:
            stack.extend(_children(nested, "selection"))
    if abs(total) >= MOST_POINTS:
        raise Refused(
            f"the roster file's costs must add up to under {MOST_POINTS:,} points a selection: "
            "save it again from BattleScribe or New Recruit."
        )
    return total


def _categories(node: Element) -> str | None:
    """The selection's primary category (its role or section), if it names one."""
    cats = _child(node, "categories")
    if cats is None:
        return None
    return next((c.get("name") for c in _children(cats, "category") if c.get("primary") == "true"), None)


def is_roster(root: Element) -> bool:
    """Whether the XML root is a BattleScribe roster."""
    return _local(root.tag) == "roster"


def read(root: Element, fmt: str = FORMAT) -> Reading:
    """Read a roster's XML into a list reading."""
    reading = Reading(format=fmt)
    system = (root.get("gameSystemName") or "").lower()
    reading.name = (root.get("name") or "").strip()[:60] or None
    limits = _child(root, "costLimits")
    if limits is not None:
        for limit in _children(limits, "costLimit"):
            if (
                limit.get("name", "").lower() in ("pts", "points")
                and _number(limit.get("value"), "points limit") > 0
            ):
                reading.points_limit = whole(limit.get("value", ""))
    forces = _child(root, "forces")
    number = 0
    categories: set[str] = set()
    for force in _children(forces, "force") if forces is not None else []:
        catalogue = force.get("catalogueName") or ""
        if reading.faction is None and catalogue:
            reading.faction = catalogue.split(" - ")[-1].strip()[:60]
        selections = _child(force, "selections")
        for sel in _children(selections, "selection") if selections is not None else []:
            number += 1
            primary = _categories(sel)
            categories.add((primary or "").lower())
            points = _total(sel)
            name = (sel.get("name") or "").strip()
            line = Line(number, f"{name} [{points:g}pts]")
            if not name:
                reading.unread.append(line)
                continue
            if points == 0 and sel.get("type") == "upgrade":
                _header(reading, sel, line)
                continue
            reading.units.append(_unit(sel, line, primary, points))
    reading.game = _game(system, categories)
    for unit in reading.units:
        if reading.game == "old-world":
            unit.category = OLD_WORLD_CATEGORIES.get((unit.category or "").lower(), unit.category)
            unit.roles = []
    return reading


def _game(system: str, categories: set[str]) -> str | None:
    if "old world" in system:
        return "old-world"
    if "conquest" in system:
        return "conquest"
    if "sigmar" in system or categories & {"leader", "battleline", "behemoth"}:
        return "aos"
    return None


def _header(reading: Reading, sel: Element, line: Line) -> None:
    name = (sel.get("name") or "").strip()
    nested = _child(sel, "selections")
    chosen = [
        (s.get("name") or "").strip() for s in (_children(nested, "selection") if nested is not None else [])
    ]
    what = name.lower()
    if what in ("allegiance",) and chosen:
        faction, _, sub = chosen[0].partition(":")
        reading.faction = faction.strip() or reading.faction
        if sub.strip():
            reading.subfaction = sub.strip()
    elif what.startswith("grand strateg") and chosen:
        reading.grand_strategy = chosen[0]
        reading.grand_strategy_line = Line(line.number, f"{name}: {chosen[0]}")
    elif what.startswith("game type") and chosen:
        points = _LEADING_NUMBER.match(chosen[0])
        if points and reading.points_limit is None:
            reading.points_limit = whole(points[1])


def _count(number: str | None) -> int:
    """A selection's ``number`` attribute (how many were taken), 1 when absent or absurd."""
    value = (number or "1").strip()
    return int(value) if value.isdigit() and len(value) <= 6 else 1


def _unit(sel: Element, line: Line, primary: str | None, points: float) -> Unit:
    name = (sel.get("name") or "").strip()
    unit = Unit(name=name, points=round(points), line=line.number)
    about = aos_common.section(primary or "") or aos_common.UNIT
    unit.kind = about.kind if about.kind != "skip" else "unit"
    if primary and (primary.lower().startswith("endless spell") or primary.lower() == "malign sorcery"):
        unit.kind = "endless-spell"
    if unit.kind == "unit":
        unit.roles = list(about.roles)
        unit.ally = about.ally
    unit.category = primary
    models = 0
    nested = _child(sel, "selections")
    for child in _children(nested, "selection") if nested is not None else []:
        child_name = (child.get("name") or "").strip()
        count = _count(child.get("number"))
        if child.get("type") == "model":
            models += count
        if child_name.lower() == "general":
            unit.general = True
        elif child_name and child.get("type") != "model":
            unit.notes.append(child_name if count == 1 else f"{count}x {child_name}")
    if sel.get("type") == "model":
        models = max(models, _count(sel.get("number")))
    unit.models = models if models > 1 else None
    return unit
