"""Conquest: First Blood: regiments and the Character Regiment, with their officers and
retinue, the regiment types' model caps and how often an officer or a regiment may repeat."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from app.rules import army
from app.rules.lists.model import Line
from app.rules.pack_base import Id, Model, Text
from app.rules.speech import say, say_plural

if TYPE_CHECKING:
    from app.rules.catalogue import Unit
    from app.rules.lists.model import Unit as ListUnit
    from app.rules.pack import Pack

KIND = "conquest-first-blood"
# The entry form's rows for officers and retinue models (a regiment rarely has more).
OFFICER_SLOTS = 3
RETINUE_SLOTS = 6


class RegimentType(Model):
    """A regiment type and how many models (officers included) one regiment may number."""

    id: Id
    name: Text
    max_models: int | None = Field(default=None, ge=1)


class Section(army.ArmySection):
    """The pack's ``army`` section: Character Regiments, repeats and the regiment types."""

    character_regiments: int | None = Field(default=None, ge=0)
    officer_max_copies: int | None = Field(default=None, ge=1)
    regiment_max_copies: int | None = Field(default=None, ge=1)
    regiment_types: list[RegimentType] = []


class Member(army.RosterModel):
    name: army.Name
    points: army.Points = 0


class FbEntry(army.ArmyEntry):
    kind: Literal["character", "regiment"] = "regiment"
    type: str = "infantry"
    points: army.Points = 0
    models: int = Field(default=1, ge=1, le=1000, strict=True)
    officers: list[Member] = Field(default_factory=list, max_length=20)
    retinue: list[Member] = Field(default_factory=list, max_length=40)
    notes: army.Note = ""

    @property
    def total(self) -> int:
        return self.points + sum(m.points for m in self.officers) + sum(m.points for m in self.retinue)

    @property
    def model_count(self) -> int:
        return self.models + len(self.officers) + len(self.retinue)


class FbRoster(army.ArmyRoster):
    # Without one, the pack's default limit applies.
    points_limit: army.Points | None = None
    entries: list[FbEntry] = Field(default_factory=list, max_length=army.MAX_ENTRIES)


def check(pack: Pack, roster: FbRoster) -> army.Verdict:
    section = pack.army
    assert section is not None
    limit = roster.points_limit or section.default_points or 0
    total = sum(e.total for e in roster.entries)
    verdict = army.Verdict(points=total, points_limit=limit)
    add = verdict.problems.append
    if limit and total > limit:
        add(
            army.Problem(
                "points-limit",
                say(
                    "The army costs {total} points, {over} over the {limit}-point limit.",
                    total=total,
                    over=total - limit,
                    limit=limit,
                ),
            )
        )

    characters = [(i, e) for i, e in enumerate(roster.entries) if e.kind == "character"]
    need = section.character_regiments
    if need is not None and len(characters) != need:
        if not characters:
            add(
                army.Problem(
                    "character-regiment", say("The army has no Character Regiment; it needs exactly one.")
                )
            )
        else:
            names = ", ".join(army.label(e, i) for i, e in characters)
            add(
                army.Problem(
                    "character-regiment",
                    say(
                        "The army has {count} Character Regiments ({names}); it needs exactly one.",
                        count=len(characters),
                        names=names,
                    ),
                    characters[1][0],
                )
            )

    officers = [m.name for e in roster.entries for m in e.officers]
    regiments = [e.name for e in roster.entries if e.kind == "regiment"]
    # (rule, its sentence, the most copies, the names counted, the names as the roster spells them).
    repeats: tuple[tuple[str, Callable[..., str], int | None, list[str], list[str]], ...] = (
        (
            "officer-max",
            lambda **blanks: say(
                "The officer '{name}' is in the army {count} times; each officer at most {most} times.",
                **blanks,
            ),
            section.officer_max_copies,
            officers,
            officers,
        ),
        (
            "regiment-max",
            lambda **blanks: say(
                "The regiment '{name}' is in the army {count} times; each regiment at most {most} times.",
                **blanks,
            ),
            section.regiment_max_copies,
            regiments,
            [e.name for e in roster.entries],
        ),
    )
    for rule, sentence, most, names, spellings in repeats:
        if most is None:
            continue
        shown = {name.casefold(): name for name in spellings}
        for key, n in Counter(name.casefold() for name in names).items():
            if n > most:
                add(
                    army.Problem(
                        rule,
                        sentence(name=shown[key], count=n, most=most),
                    )
                )
    caps = {t.id: t for t in section.regiment_types}
    for i, e in enumerate(roster.entries):
        kind = caps.get(e.type)
        if kind is not None and kind.max_models is not None and e.model_count > kind.max_models:
            add(
                army.Problem(
                    "regiment-models",
                    say(
                        "{entry} numbers {count} models with its officers and retinue; "
                        "a {kind} regiment has at most {most}.",
                        entry=army.label(e, i),
                        count=e.model_count,
                        kind=kind.name.lower(),
                        most=kind.max_models,
                    )
                    if e.retinue
                    else say(
                        "{entry} numbers {count} models with its officers; a {kind} regiment has at most {most}.",
                        entry=army.label(e, i),
                        count=e.model_count,
                        kind=kind.name.lower(),
                        most=kind.max_models,
                    ),
                    i,
                )
            )
        if e.retinue and e.kind != "character":
            add(
                army.Problem(
                    "retinue-character",
                    say(
                        "{entry} has retinue models, but only the Character Regiment can buy them.",
                        entry=army.label(e, i),
                    ),
                    i,
                )
            )
    verdict.counts = {
        "character_regiments": len(characters),
        "regiments": sum(1 for e in roster.entries if e.kind == "regiment"),
        "models": sum(e.model_count for e in roster.entries),
    }
    return verdict


def entry_problem(pack: Pack, roster: FbRoster) -> str | None:
    """An entry whose regiment type is not one of the pack's."""
    types = [t.id for t in pack.army.regiment_types]
    for i, entry in enumerate(roster.entries):
        if types and entry.type not in types:
            return say("{field} must be one of {types}.", field=f"entries[{i}].type", types=", ".join(types))
    return None


def summary(roster: FbRoster) -> dict[str, Any]:
    """The Character Regiment stands for the general and the heroes; monsters by their type."""
    character = next((e.name for e in roster.entries if e.kind == "character"), None)
    monsters = [e.name for e in roster.entries if e.type == "monster"]
    return {
        "general": character,
        "heroes": [character] if character else [],
        "monsters": monsters,
        "battleline": [],
        "wizards": [],
        "priests": [],
        "line": (
            say_plural(
                "character {name} · {count} monster",
                "character {name} · {count} monsters",
                len(monsters),
                name=character,
            )
            if character
            else say_plural(
                "character not named · {count} monster",
                "character not named · {count} monsters",
                len(monsters),
            )
        ),
    }


def text_lines(pack: Pack, roster: FbRoster) -> list[str]:
    """Each regiment with its type, models, officers and retinue."""
    lines: list[str] = []
    for e in roster.entries:
        kind = f"Character, {e.type.capitalize()}" if e.kind == "character" else e.type.capitalize()
        lines += ["", f"{e.name} ({kind}, {e.models} models) [{e.points}]"]
        lines += [f"  - Officer: {m.name} [{m.points}]" for m in e.officers]
        lines += [f"  - Retinue: {m.name} [{m.points}]" for m in e.retinue]
        lines += army.note_lines(e.notes)
    return lines


def read_form(form: army.FormValues, number: army.NumberReader, entry: dict[str, Any]) -> str | None:
    """A regiment's kind, type and models, and its officers and retinue as named with points."""
    entry["kind"] = form.get("kind", "regiment")
    entry["type"] = form.get("type", "infantry")
    models, problem = number("models", True)
    if problem:
        return problem
    entry["models"] = models or 1
    for group, slots in (("officers", OFFICER_SLOTS), ("retinue", RETINUE_SLOTS)):
        members = []
        for i in range(slots):
            name = str(form.get(f"{group}_name_{i}", "")).strip()
            if not name:
                continue
            cost, problem = number(f"{group}_points_{i}", False)
            if problem:
                return problem
            members.append({"name": name, "points": cost or 0})
        entry[group] = members
    return None


def catalogue_entry(unit: Unit) -> dict[str, Any]:
    """A catalogue regiment (or Character Regiment) with no officers or retinue yet."""
    kind = "character" if "character" in unit.roles else "regiment"
    return {"name": unit.name, "kind": kind, "type": unit.type or "infantry", "points": unit.points,
            "models": unit.models, "officers": [], "retinue": []}  # fmt: skip


def list_entry(
    unit: ListUnit, known: dict[str, Any], pack: Pack, unread: list[Line]
) -> dict[str, Any] | None:
    """A regiment or Character Regiment, of the list's type, else the match's, else infantry;
    anything else stays unread."""
    if unit.kind not in ("character", "regiment"):
        unread.append(Line(unit.line, f"{unit.name} [{unit.points}]"))
        return None
    types = [t.id for t in pack.army.regiment_types] if pack.army else []
    kind_of = unit.regiment_type or known.get("type")
    # With neither the list nor a match saying, a regiment is taken for infantry (the most common).
    regiment_type = (
        kind_of if kind_of in types else ("infantry" if "infantry" in types or not types else types[0])
    )
    return {
        "_line": unit.line,
        "name": unit.name[: army.MAX_NAME],
        "kind": unit.kind,
        "type": regiment_type,
        "points": unit.points,
        "models": army.listed_models(unit.models) or army.listed_models(known.get("models")) or 1,
        "officers": [{"name": m.name[: army.MAX_NAME], "points": m.points} for m in unit.officers],
        "retinue": [{"name": m.name[: army.MAX_NAME], "points": m.points} for m in unit.retinue],
        "notes": army.listed_notes(unit.notes),
    }


def typed_entry(battalion: bool, name: str, points: int) -> dict[str, Any]:
    """A regiment of infantry, as the player named it."""
    return {"name": name, "kind": "regiment", "type": "infantry", "points": points, "models": 1}


RULES = army.register_module(
    __name__,
    kind=KIND,
    section=Section,
    roster=FbRoster,
    unit_kinds=("regiment", "character"),
    screen=army.ArmyScreen(
        KIND,
        officer_slots=OFFICER_SLOTS,
        retinue_slots=RETINUE_SLOTS,
        words=(("Characters", lambda: say("Characters")), ("Regiments", lambda: say("Regiments"))),
    ),
    list_game="conquest",
    groups=(("character", "Characters"), ("regiment", "Regiments")),
)
