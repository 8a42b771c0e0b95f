"""Rosters: their shape, their points total and the army-building checks, one plug-in a kind.

A pack names the army rules its rosters are built by (``army: {system: ...}``); each kind of
army rules (Pitched Battles, First Blood, The Old World) is a module of this package that
registers one :class:`ArmyRules`: the pack's ``army`` section it reads, the roster it takes,
its checks, and what the builder's screens and sheets show. Nothing outside a plug-in asks
which kind it is.

:func:`parse_roster` says whether some JSON is a roster at all (one sentence naming the
field when it is not); :func:`check` gives the verdict on a roster: its points, whether it
is valid, and every problem, each naming the entry and the rule (an ``army_rules`` id of
the pack). Checks never stop at the first problem.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Protocol

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints, ValidationError

from app.rules import problems
from app.rules.pack_base import Model
from app.rules.plugins import Registry
from app.rules.speech import say
from app.rules.text import clean_text

if TYPE_CHECKING:
    from app.rules.catalogue import Unit
    from app.rules.lists.model import Line
    from app.rules.lists.model import Unit as ListUnit
    from app.rules.pack import Pack

# What one roster may hold: a 2000-point list is 20 to 40 entries; these bounds keep a roster's
# page, print and checks small whoever sends it.
MAX_ENTRIES = 100
MAX_NAME = 60
MAX_NOTES = 300


def _clean_name(value: Any) -> Any:
    return clean_text(value) if isinstance(value, str) else value


def _clean_notes(value: Any) -> Any:
    return clean_text(value, notes=True) if isinstance(value, str) else value


Name = Annotated[str, BeforeValidator(_clean_name), StringConstraints(min_length=1, max_length=MAX_NAME)]
OptionalName = Annotated[str, BeforeValidator(_clean_name), StringConstraints(max_length=MAX_NAME)]
Keyword = Annotated[str, BeforeValidator(_clean_name), StringConstraints(max_length=40)]
Note = Annotated[str, BeforeValidator(_clean_notes), StringConstraints(max_length=MAX_NOTES)]
Points = Annotated[int, Field(ge=0, le=100_000, strict=True)]


class RosterModel(BaseModel):
    """Base for rosters and their entries."""

    # Unknown keys are ignored: exports from other tools carry extras we do not need.
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)


class ArmyEntry(RosterModel):
    """Base for a roster's entries: every kind's entry has its name and may carry an id."""

    uid: str | None = Field(default=None, max_length=40)
    name: Name


class ArmyRoster(RosterModel):
    """Base for rosters: every kind's roster names its pack and points limit, and may name
    itself, its player and its faction; a kind adds its own fields and its ``entries``."""

    pack: str
    name: OptionalName | None = None
    # Whose army it is: printed with the roster's name at the top of its sheet.
    player: OptionalName | None = None
    points_limit: Points
    faction: OptionalName | None = None


class ArmySection(Model):
    """The pack's ``army`` section as every kind has it; a kind's own section adds its numbers.

    ``system`` names the army rules (the plug-in); every ``rule`` a check reports is an entry
    of the pack's ``army_rules``.
    """

    system: str
    default_points: int | None = Field(default=None, gt=0)


@dataclass(frozen=True)
class RosterUnit:
    """A unit a roster fields: its name and its keywords (none in a list without them)."""

    name: str
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class Problem(problems.Problem):
    """A broken roster rule; ``where`` is the index of the entry it is about, if one."""

    @property
    def entry(self) -> int | None:
        return self.where

    def as_dict(self, where: str = "entry") -> dict[str, Any]:
        return super().as_dict(where)


@dataclass
class Verdict:
    """A roster's points, validity and problems, with the counts the checks used."""

    points: int
    points_limit: int
    problems: list[Problem] = field(default_factory=list)
    advice: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def valid(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        return {
            "points": self.points,
            "points_limit": self.points_limit,
            "valid": self.valid,
            "problems": [p.as_dict() for p in self.problems],
            "advice": self.advice,
            "counts": self.counts,
        }


class FormValues(Protocol):
    """A submitted form as the builder reads it (a werkzeug ``MultiDict``)."""

    def get(self, key: str, default: Any = None) -> Any: ...

    def getlist(self, key: str) -> list[Any]: ...


#: Reads a whole number from the form: ``(value, None)``, or ``(None, the sentence refusing it)``.
NumberReader = Callable[[str, bool], tuple[int | None, str | None]]


#: The words every kind's screens may show: the default answers and group.
COMMON_WORDS: tuple[tuple[str, Callable[[], str]], ...] = (
    ("A unit", lambda: say("A unit")),
    ("A note", lambda: say("A note")),
    ("Drop it", lambda: say("Drop it")),
    ("Units", lambda: say("Units")),
)


@dataclass(frozen=True)
class ArmyScreen:
    """What the builder's screens and the roster sheet show for a kind, as data.

    The kind's own partials live under ``templates/armies/<kind>/`` (``_entry_fields.html``: the
    entry form's fields; ``_entry_tags.html``: an entry's tags in the list; ``_counts.html``:
    the counts beside the total, when ``counts``) and ``pdf/armies/<kind>/entries.html`` (the
    sheet's table of entries); the rest are the words and switches the shared templates read
    instead of asking which kind they serve.
    """

    kind: str
    #: Whether the total shows the kind's counts (the battlefield roles against the limits).
    counts: bool = False
    #: Whether a roster names a subfaction.
    subfaction: bool = False
    #: Whether an entry may be made the general from its menu.
    general: bool = False
    #: How a catalogue unit grows: by its size (``size``) or a model at a time (``models``).
    grows_by: str = "models"
    #: The answers an unread line of an imported list may be given.
    import_answers: tuple[tuple[str, str], ...] = (
        ("unit", "A unit"),
        ("note", "A note"),
        ("drop", "Drop it"),
    )
    #: How many officer and retinue rows the entry form offers.
    officer_slots: int = 0
    retinue_slots: int = 0
    #: The kind's fixed words its data keeps in English (battlefield roles, the builder's group
    #: titles, an unread line's answers), each with how the reader's language says it.
    words: tuple[tuple[str, Callable[[], str]], ...] = ()

    def word(self, text: str) -> str:
        """``text`` in the reader's language when it is one of the builder's fixed words (a role,
        a group's title, an answer); anything else (a name from the pack) as it is."""
        said = dict(COMMON_WORDS + self.words).get(text)
        return said() if said else text

    @property
    def entry_fields(self) -> str:
        return f"armies/{self.kind}/_entry_fields.html"

    @property
    def entry_tags(self) -> str:
        return f"armies/{self.kind}/_entry_tags.html"

    @property
    def counts_partial(self) -> str:
        return f"armies/{self.kind}/_counts.html"

    @property
    def sheet_entries(self) -> str:
        return f"armies/{self.kind}/entries.html"


@dataclass(frozen=True)
class ArmyRules:
    """One kind of army rules: the protocol every army plug-in fills in.

    ``kind`` is what a pack's ``army.system`` names; ``section`` the model of that pack section;
    ``roster`` the model of a roster; ``unit_kinds`` the entry kinds that are units on the table
    (battalions, endless spells and faction terrain are in no contingent or tunnel).
    """

    kind: str
    section: type[ArmySection]
    roster: type[RosterModel]
    unit_kinds: tuple[str, ...]
    screen: ArmyScreen
    #: Every army-building problem of a roster, by the pack's rules.
    check: Callable[[Pack, Any], Verdict]
    #: The units tactics and grand strategies name, and the army in a few words (``line``).
    summary: Callable[[Any], dict[str, Any]]
    #: The roster's entries as plain text lines (after its name, pack and faction).
    text_lines: Callable[[Pack, Any], list[str]]
    #: The kind's own fields of a typed entry, added to ``entry``; the problem's sentence, if one.
    read_form: Callable[[FormValues, NumberReader, dict[str, Any]], str | None]
    #: A catalogue unit as a new entry, at its smallest size.
    catalogue_entry: Callable[[Unit], dict[str, Any]]
    #: The game a list read from another app is for (app/rules/lists/model.py's ``GAMES``).
    list_game: str
    #: A list's unit as an entry (with its ``_line``), with what the catalogue or the phone
    #: knows of it (``known``); ``None``, with its line added to ``unread``, where the kind has
    #: no place for it.
    list_entry: Callable[[ListUnit, dict[str, Any], Pack, list[Line]], dict[str, Any] | None]
    #: An entry typed from a list's line the player named (a battalion, where the kind has them).
    typed_entry: Callable[[bool, str, int], dict[str, Any]]
    #: A catalogue unit's entry one size bigger (``step`` 1) or smaller (-1), ``None`` past either end.
    resized: Callable[[Unit, dict[str, Any], int], dict[str, Any] | None] = lambda unit, entry, step: None
    #: Another faction's catalogue unit taken as an ally (``None``: the kind takes no allies).
    ally_entry: Callable[[Unit, str], dict[str, Any]] | None = None
    #: How the builder groups a faction's units: (role, title), a role of "" taking any unit.
    groups: tuple[tuple[str, str], ...] = (("", "Units"),)
    #: A parsed roster's field the pack refuses (an unknown regiment type), in one sentence.
    entry_problem: Callable[[Pack, Any], str | None] = lambda pack, roster: None


REGISTRY: Registry[ArmyRules] = Registry("army rules")
register = REGISTRY.register
#: The protocol's functions a plug-in module defines under the same names (see :func:`register_module`).
HOOKS = (
    "check",
    "summary",
    "text_lines",
    "read_form",
    "catalogue_entry",
    "ally_entry",
    "list_entry",
    "typed_entry",
    "resized",
    "entry_problem",
)
#: The pack's ``army`` section, read by the plug-in it names.
parse_section = REGISTRY.parse_section


def register_module(module: str, **fields: Any) -> ArmyRules:
    """Register the army rules the plug-in module ``module`` defines: its functions named as the
    protocol's (:data:`HOOKS`: ``check``, ``summary``, ...) are its own; ``fields`` give the rest."""
    found = vars(sys.modules[module])
    return register(ArmyRules(**{name: found[name] for name in HOOKS if name in found}, **fields))


def rules_for(pack: Pack) -> ArmyRules | None:
    """The army rules a pack builds rosters by, or ``None`` when it builds none."""
    return REGISTRY.get(pack.army.system) if pack.army is not None else None


# --- reading and checking ----------------------------------------------------------------------
Roster = Any  # a roster of one of the registered kinds (its plug-in's ``roster`` model)


def units_of(roster: Roster) -> list[RosterUnit]:
    """The roster's units with their keywords, a name twice for two such units: battalions,
    endless spells and faction terrain take no place in a contingent or a tunnel (the one rule
    for which entries are units; :func:`fielded_units` gives their names)."""
    rules = _rules_of(roster)
    return [
        RosterUnit(e.name, tuple(getattr(e, "keywords", ())))
        for e in roster.entries
        if e.kind in rules.unit_kinds
    ]


def _rules_of(roster: Roster) -> ArmyRules:
    return next(r for r in REGISTRY.found.values() if isinstance(roster, r.roster))


def _field_path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _sentence(path: str, err: Any) -> str:
    """One sentence naming the field and what it allows, for the limits players meet."""
    limit = (err.get("ctx") or {}).get("max_length")
    text = isinstance(err.get("input"), str)
    if err["type"] in ("string_too_long", "too_long") and text:
        return say("{field} must be at most {limit} characters.", field=path, limit=limit)
    if err["type"] == "too_long":
        if path.endswith("entries"):
            return say("{field} may hold at most {limit} entries.", field=path, limit=limit)
        return say("{field} may hold at most {limit} items.", field=path, limit=limit)
    if err["type"] in ("string_too_short", "too_short") and text:
        return say("{field} must not be blank.", field=path)
    return problems.checked_field(path, err)


def parse_roster(data: Any, packs: dict[str, Pack]) -> tuple[Roster | None, Pack | None, str | None]:
    """Read JSON as a roster of one of the packs that build armies.

    Returns the roster and its pack, or ``None`` and one sentence naming the field that makes
    it not a roster and what is allowed there.
    """
    if not isinstance(data, dict):
        return (
            None,
            None,
            say("The body must be a JSON object: a roster with pack, points_limit and entries."),
        )
    builders = sorted(k for k, v in packs.items() if v.army is not None)
    pack = packs.get(data.get("pack")) if isinstance(data.get("pack"), str) else None
    rules = rules_for(pack) if pack is not None else None
    if pack is None or rules is None:
        return (
            None,
            None,
            say("pack must be one of the rulepacks that build armies: {packs}.", packs=", ".join(builders)),
        )

    try:
        roster = rules.roster.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        path = _field_path(tuple(err["loc"])) or "roster"
        return None, pack, _sentence(path, err)
    problem = rules.entry_problem(pack, roster)
    if problem:
        return None, pack, problem
    return roster, pack, None


def check(pack: Pack, roster: Roster) -> Verdict:
    """Every army-building problem of the roster, by the pack's rules."""
    return _rules_of(roster).check(pack, roster)


def label(entry: Any, index: int) -> str:
    """An entry as a problem names it: its name and its place in the roster."""
    return say("'{name}' (entry {number})", name=entry.name, number=index + 1)


def army_summary(roster: Roster) -> dict[str, Any]:
    """The units that tactics and grand strategies name: the general, HEROES, MONSTERS, ...

    ``line``: the army in a few words, as a game screen shows it beside the roster's name.
    """
    return _rules_of(roster).summary(roster)


def fielded_units(roster: Roster) -> list[str]:
    """The names of the roster's units, one per unit fielded (a name twice for two units).

    These are what a battle splits into contingents: battalions, endless spells and faction
    terrain are in none.
    """
    return [u.name for u in units_of(roster)]


def plain_text(pack: Pack, roster: Roster, verdict: Verdict) -> str:
    """The roster as plain text, to paste into a tournament form or a chat."""
    lines = [roster.name or "Roster", f"{pack.name} · {verdict.points}/{verdict.points_limit} points"]
    if roster.faction:
        lines.append(f"Faction: {roster.faction}")
    lines += _rules_of(roster).text_lines(pack, roster)
    lines += [
        "",
        f"TOTAL: {verdict.points} / {verdict.points_limit} points",
        "Valid" if verdict.valid else f"NOT VALID: {len(verdict.problems)} problem(s)",
    ]
    lines += [f"  ! {p.message}" for p in verdict.problems]
    return "\n".join(lines) + "\n"


def listed_models(value: Any) -> int | None:
    """A list's model count, when a roster can hold it."""
    # A roster counts 1 to 1000 models; a count past that is a typo, left for the player to give.
    return value if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 1000 else None


def listed_notes(notes: list[str]) -> str:
    """A list's notes on a unit as an entry's notes, cut to fit."""
    text = "; ".join(notes)
    return text if len(text) <= MAX_NOTES else text[: MAX_NOTES - 1] + "…"


def note_lines(notes: str) -> list[str]:
    """An entry's notes as text lines: one line of the notes a line of the text, so that notes
    with line breaks read back whole."""
    return [f"  - {line}".rstrip() for line in notes.split("\n")] if notes else []


# Every module here is a kind of army rules and registers itself: a new kind is a new module,
# and nothing else lists it. The plug-ins import only this module and the pack's building blocks.
Registry.discover(__name__, __path__)
