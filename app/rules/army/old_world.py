"""The Old World: rosters in the list's sections, checked against the points limit only (the
seeds give no composition rules for The Old World)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from app.rules import army
from app.rules.lists.model import Line
from app.rules.speech import say, say_plural

if TYPE_CHECKING:
    from app.rules.catalogue import Unit
    from app.rules.lists.model import Unit as ListUnit
    from app.rules.pack import Pack

KIND = "old-world"


class Section(army.ArmySection):
    """The pack's ``army`` section: nothing beyond what every kind has."""


OW_CATEGORIES = ("characters", "core", "special", "rare", "mercenaries", "allies")


class OwEntry(army.ArmyEntry):
    kind: Literal["unit"] = "unit"
    # The list's section; None when the list did not say.
    category: Literal["characters", "core", "special", "rare", "mercenaries", "allies"] | None = None
    points: army.Points = 0
    models: int | None = Field(default=None, ge=1, le=1000)
    notes: army.Note = ""


class OwRoster(army.ArmyRoster):
    entries: list[OwEntry] = Field(default_factory=list, max_length=army.MAX_ENTRIES)


def check(pack: Pack, roster: OwRoster) -> army.Verdict:
    # Points against the limit only: the seeds give no composition rules for The Old World.
    total = sum(e.points for e in roster.entries)
    verdict = army.Verdict(points=total, points_limit=roster.points_limit)
    if total > roster.points_limit:
        verdict.problems.append(
            army.Problem(
                "points-limit",
                say(
                    "The army costs {total} points, {over} over the {limit}-point limit.",
                    total=total,
                    over=total - roster.points_limit,
                    limit=roster.points_limit,
                ),
            )
        )
    verdict.counts = {"units": len(roster.entries)}
    return verdict


def summary(roster: OwRoster) -> dict[str, Any]:
    """No unit is named by a tactic here: the army is its number of entries."""
    entries = len(roster.entries)
    return {
        "general": None,
        "heroes": [],
        "monsters": [],
        "battleline": [],
        "wizards": [],
        "priests": [],
        "line": say_plural("{count} entry", "{count} entries", entries),
    }


def text_lines(pack: Pack, roster: OwRoster) -> list[str]:
    """The entries under their sections, in the list's order of sections."""
    lines: list[str] = []
    for category in (*OW_CATEGORIES, None):
        group = [e for e in roster.entries if e.category == category]
        if not group:
            continue
        lines += ["", (category or "units").upper()]
        for e in group:
            size = f"{e.models} x " if e.models else ""
            lines.append(f"{size}{e.name} ({e.points})")
            lines += army.note_lines(e.notes)
    return lines


def read_form(form: army.FormValues, number: army.NumberReader, entry: dict[str, Any]) -> str | None:
    """A unit's models, if given, and its section of the list."""
    models, problem = number("models", False)
    if problem:
        return problem
    entry["models"] = models or None
    category = form.get("category") or None
    entry["category"] = category if category in OW_CATEGORIES else None
    return None


def catalogue_entry(unit: Unit) -> dict[str, Any]:
    """A catalogue unit in its section of the list, at its smallest size."""
    return {"name": unit.name, "category": unit.category, "points": unit.points, "models": unit.models}


def resized(unit: Unit, entry: dict[str, Any], step: int) -> dict[str, Any] | None:
    """A unit of rank and file adds or drops one model at the catalogue's price of a model."""
    if not unit.points_per_model:
        return None
    models = int(entry.get("models") or unit.models) + step
    if models < unit.models:
        return None
    return {**entry, "models": models, "points": round(unit.points_per_model * models)}


def list_entry(
    unit: ListUnit, known: dict[str, Any], pack: Pack, unread: list[Line]
) -> dict[str, Any] | None:
    """A unit in its section of the list; anything else stays unread."""
    if unit.kind != "unit":
        unread.append(Line(unit.line, f"{unit.name} ({unit.points})"))
        return None
    category = unit.category if unit.category in OW_CATEGORIES else None
    return {
        "_line": unit.line,
        "name": unit.name[: army.MAX_NAME],
        "category": category,
        "points": unit.points,
        "models": army.listed_models(unit.models),
        "notes": army.listed_notes(unit.notes),
    }


def typed_entry(battalion: bool, name: str, points: int) -> dict[str, Any]:
    """A unit as the player named it."""
    return {"name": name, "points": points}


RULES = army.register_module(
    __name__,
    kind=KIND,
    section=Section,
    roster=OwRoster,
    unit_kinds=("unit",),
    screen=army.ArmyScreen(
        KIND,
        words=(
            ("Characters", lambda: say("Characters")),
            ("Core", lambda: say("Core")),
            ("Special", lambda: say("Special")),
            ("Rare", lambda: say("Rare")),
            ("Mercenaries", lambda: say("Mercenaries")),
            ("Allies", lambda: say("Allies")),
            ("Other units", lambda: say("Other units")),
        ),
    ),
    list_game="old-world",
    groups=(
        ("characters", "Characters"),
        ("core", "Core"),
        ("special", "Special"),
        ("rare", "Rare"),
        ("mercenaries", "Mercenaries"),
        ("allies", "Allies"),
        ("", "Other units"),
    ),
)
