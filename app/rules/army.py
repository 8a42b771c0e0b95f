"""Rosters: their shape, their points total and the pack's army-building checks.

:func:`parse_roster` says whether some JSON is a roster at all (one sentence naming the
field when it is not); :func:`check` gives the verdict on a roster: its points, whether it
is valid, and every problem, each naming the entry and the rule (an ``army_rules`` id of
the pack). Checks never stop at the first problem.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
)

from app.rules import problems
from app.rules.pack import Pack
from app.rules.text import clean_text

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
Note = Annotated[str, BeforeValidator(_clean_notes), StringConstraints(max_length=MAX_NOTES)]
Points = Annotated[int, Field(ge=0, le=100_000, strict=True)]


class _Model(BaseModel):
    # Unknown keys are ignored: exports from other tools carry extras we do not need.
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True)


# --- Age of Sigmar: Pitched Battles ------------------------------------------------------
AOS_ROLES = ("Leader", "Battleline", "Behemoth", "Artillery", "Other")
# Faction terrain is listed on a roster (it costs no points and fills no role).
AosKind = Literal["unit", "core-battalion", "warscroll-battalion", "endless-spell", "invocation", "terrain"]
AosSize = Literal["minimum", "reinforced", "reinforced-twice", "understrength"]


class AosEntry(_Model):
    uid: str | None = Field(default=None, max_length=40)
    name: Name
    kind: AosKind = "unit"
    points: Points = 0
    roles: list[str] = Field(default_factory=list, max_length=5)
    keywords: list[Annotated[str, BeforeValidator(_clean_name), StringConstraints(max_length=40)]] = Field(
        default_factory=list, max_length=40
    )
    size: AosSize = "minimum"
    models: int | None = Field(default=None, ge=1, le=1000)
    single_model: bool = False
    ally: bool = False
    coalition: bool = False
    general: bool = False
    command_trait: OptionalName | None = None
    # Artefacts of power, spell and prayer lores, mount traits: anything picked for the unit.
    enhancements: list[Name] = Field(default_factory=list, max_length=6)
    faction: OptionalName | None = None
    notes: Note = ""

    @field_validator("roles")
    @classmethod
    def _roles(cls, roles: list[str]) -> list[str]:
        out = []
        for role in roles:
            match = next((r for r in AOS_ROLES if r.lower() == str(role).strip().lower()), None)
            if match is None:
                raise ValueError(f"must each be one of {', '.join(AOS_ROLES)}")
            if match not in out:
                out.append(match)
        return out

    @field_validator("keywords")
    @classmethod
    def _keywords(cls, keywords: list[str]) -> list[str]:
        return list(dict.fromkeys(k.upper() for k in keywords if k))

    @field_validator("command_trait", "faction")
    @classmethod
    def _blank_is_none(cls, value: str | None) -> str | None:
        return value or None

    def has(self, role: str) -> bool:
        return role in self.roles


class AosRoster(_Model):
    pack: str
    name: OptionalName | None = None
    # Whose army it is: printed with the roster's name at the top of its sheet.
    player: OptionalName | None = None
    points_limit: Points
    faction: OptionalName | None = None
    subfaction: OptionalName | None = None
    grand_strategy: OptionalName | None = None
    # The triumph the list was built with (the Warhammer app writes it in the header).
    triumph: OptionalName | None = None
    entries: list[AosEntry] = Field(default_factory=list, max_length=MAX_ENTRIES)


# --- Conquest: First Blood ---------------------------------------------------------------
class Member(_Model):
    name: Name
    points: Points = 0


class FbEntry(_Model):
    uid: str | None = Field(default=None, max_length=40)
    name: Name
    kind: Literal["character", "regiment"] = "regiment"
    type: str = "infantry"
    points: Points = 0
    models: int = Field(default=1, ge=1, le=1000, strict=True)
    officers: list[Member] = Field(default_factory=list, max_length=20)
    retinue: list[Member] = Field(default_factory=list, max_length=40)
    notes: Note = ""

    @property
    def total(self) -> int:
        return self.points + sum(m.points for m in self.officers) + sum(m.points for m in self.retinue)

    @property
    def model_count(self) -> int:
        return self.models + len(self.officers) + len(self.retinue)


class FbRoster(_Model):
    pack: str
    name: OptionalName | None = None
    player: OptionalName | None = None
    points_limit: Points | None = None
    faction: OptionalName | None = None
    entries: list[FbEntry] = Field(default_factory=list, max_length=MAX_ENTRIES)


# --- The Old World ---------------------------------------------------------------------------
OW_CATEGORIES = ("characters", "core", "special", "rare", "mercenaries", "allies")


class OwEntry(_Model):
    uid: str | None = Field(default=None, max_length=40)
    name: Name
    kind: Literal["unit"] = "unit"
    # The list's section; None when the list did not say.
    category: Literal["characters", "core", "special", "rare", "mercenaries", "allies"] | None = None
    points: Points = 0
    models: int | None = Field(default=None, ge=1, le=1000)
    notes: Note = ""


class OwRoster(_Model):
    pack: str
    name: OptionalName | None = None
    player: OptionalName | None = None
    points_limit: Points
    faction: OptionalName | None = None
    entries: list[OwEntry] = Field(default_factory=list, max_length=MAX_ENTRIES)


Roster = AosRoster | FbRoster | OwRoster
MODELS: dict[str, type[AosRoster] | type[FbRoster] | type[OwRoster]] = {
    "aos-pitched-battles": AosRoster,
    "conquest-first-blood": FbRoster,
    "old-world": OwRoster,
}


@dataclass(frozen=True)
class RosterUnit:
    """A unit a roster fields: its name and its keywords (none in a list without them)."""

    name: str
    keywords: tuple[str, ...] = ()


def units_of(roster: Roster) -> list[RosterUnit]:
    """The roster's units with their keywords, a name twice for two such units: battalions,
    endless spells and faction terrain take no place in a contingent or a tunnel (the one rule
    for which entries are units; :func:`fielded_units` gives their names)."""
    return [
        RosterUnit(e.name, tuple(getattr(e, "keywords", ())))
        for e in roster.entries
        if e.kind in ("unit", "regiment", "character")
    ]


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
        return f"{path} must be at most {limit} characters."
    if err["type"] == "too_long":
        noun = "entries" if path.endswith("entries") else "items"
        return f"{path} may hold at most {limit} {noun}."
    if err["type"] in ("string_too_short", "too_short") and text:
        return f"{path} must not be blank."
    return f"{path}: {err['msg'].removeprefix('Value error, ')}."


def parse_roster(data: Any, packs: dict[str, Pack]) -> tuple[Roster | None, Pack | None, str | None]:
    """Read JSON as a roster of one of the packs that build armies.

    Returns the roster and its pack, or ``None`` and one sentence naming the field that makes
    it not a roster and what is allowed there.
    """
    if not isinstance(data, dict):
        return None, None, "The body must be a JSON object: a roster with pack, points_limit and entries."
    builders = sorted(k for k, v in packs.items() if v.army is not None)
    pack = packs.get(data.get("pack")) if isinstance(data.get("pack"), str) else None
    if pack is None or pack.army is None:
        return None, None, f"pack must be one of the rulepacks that build armies: {', '.join(builders)}."
    model = MODELS[pack.army.system]
    try:
        roster = model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        path = _field_path(tuple(err["loc"])) or "roster"
        return None, pack, _sentence(path, err)
    if isinstance(roster, FbRoster):
        types = [t.id for t in pack.army.regiment_types]
        for i, entry in enumerate(roster.entries):
            if types and entry.type not in types:
                return None, pack, f"entries[{i}].type must be one of {', '.join(types)}."
    return roster, pack, None


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


def check(pack: Pack, roster: Roster) -> Verdict:
    """Every army-building problem of the roster, by the pack's rules."""
    if isinstance(roster, AosRoster):
        return _check_aos(pack, roster)
    if isinstance(roster, OwRoster):
        return _check_old_world(roster)
    return _check_first_blood(pack, roster)


def _label(entry: AosEntry | FbEntry | OwEntry, index: int) -> str:
    return f"'{entry.name}' (entry {index + 1})"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# --- Pitched Battles checks ----------------------------------------------------------------
def _check_aos(pack: Pack, roster: AosRoster) -> Verdict:
    entries = roster.entries
    total = sum(e.points for e in entries)
    verdict = Verdict(points=total, points_limit=roster.points_limit)
    add = verdict.problems.append
    limit = pack.limit(roster.points_limit)

    if total > roster.points_limit:
        add(
            Problem(
                "points-limit",
                f"The roster costs {total} points, {total - roster.points_limit} over the "
                f"{roster.points_limit}-point limit.",
            )
        )
    if limit is None:
        presets = " or ".join(str(p) for p in pack.points.presets)
        add(
            Problem(
                "points-limit",
                f"Pitched Battles are played at {presets} points; {roster.points_limit} has no "
                "row in the Pitched Battles table, so its limits cannot be checked.",
            )
        )

    _check_faction(roster, add)

    units = [(i, e) for i, e in enumerate(entries) if e.kind == "unit"]
    own = [(i, e) for i, e in units if not (e.ally or e.coalition)]
    battleline = _battleline_rule(pack, roster)
    counts = {
        "leaders": sum(1 for _, e in units if e.has("Leader")),
        # Allies and coalition units count toward the maxima only (see the pack's reading).
        "own_leaders": sum(1 for _, e in own if e.has("Leader")),
        # Allies and coalition units never fill the Battleline minimum.
        "battleline": sum(1 for _, e in own if battleline(e)),
        # A Battleline Behemoth is not counted against the Behemoth maximum.
        "behemoths": sum(1 for _, e in units if e.has("Behemoth") and not battleline(e)),
        "artillery": sum(1 for _, e in units if e.has("Artillery")),
        "reinforced": sum({"reinforced": 1, "reinforced-twice": 2}.get(e.size, 0) for _, e in units),
        "allies_points": sum(e.points for e in entries if e.ally),
        "endless_spells": sum(1 for e in entries if e.kind in ("endless-spell", "invocation")),
    }
    verdict.counts = counts
    if limit is not None:
        pts = f"{roster.points_limit} points"
        if limit.leaders is not None:
            fewest = limit.leaders.model_copy(update={"max": None})
            most = limit.leaders.model_copy(update={"min": None})
            _range(
                add,
                "leaders",
                counts["own_leaders"],
                fewest,
                "Leader",
                pts,
                "allies and coalition units do not count",
            )
            _range(add, "leaders", counts["leaders"], most, "Leader", pts, "allies and coalition units count")
        _range(
            add,
            "battleline",
            counts["battleline"],
            limit.battleline,
            "Battleline unit",
            pts,
            "allies and coalition units do not count",
        )
        _range(
            add,
            "behemoths",
            counts["behemoths"],
            limit.behemoths,
            "Behemoth",
            pts,
            "a Battleline Behemoth is not counted",
        )
        _range(add, "artillery", counts["artillery"], limit.artillery, "Artillery unit", pts, "")
        if limit.reinforced_units and limit.reinforced_units.max is not None:
            top = limit.reinforced_units.max
            if counts["reinforced"] > top:
                add(
                    Problem(
                        "reinforced-max",
                        f"The army has {counts['reinforced']} reinforced units (a unit "
                        f"reinforced twice counts as 2); {pts} allows {top}.",
                    )
                )
        if limit.allies_points and limit.allies_points.max is not None:
            top = limit.allies_points.max
            if counts["allies_points"] > top:
                add(
                    Problem(
                        "allies-points",
                        f"Allies cost {counts['allies_points']} points; {pts} allows at most {top}.",
                    )
                )
        if limit.endless_spells_and_invocations and limit.endless_spells_and_invocations.max is not None:
            top = limit.endless_spells_and_invocations.max
            if counts["endless_spells"] > top:
                add(
                    Problem(
                        "endless-spells-max",
                        f"The army has {counts['endless_spells']} endless spells and "
                        f"invocations; {pts} allows at most {top}.",
                    )
                )

    _check_general(entries, add)
    _check_allies_lead_nothing(entries, add)
    for i, e in units:
        if e.size == "understrength":
            add(
                Problem(
                    "understrength",
                    f"{_label(e, i)} is understrength; Pitched Battle units are at least their minimum size.",
                    i,
                )
            )
        if e.single_model and e.size in ("reinforced", "reinforced-twice"):
            add(
                Problem(
                    "single-model-reinforced",
                    f"{_label(e, i)} is a single model and cannot be reinforced.",
                    i,
                )
            )
        elif e.size == "reinforced-twice" and not battleline(e):
            add(
                Problem(
                    "reinforced-twice-battleline",
                    f"{_label(e, i)} is reinforced twice, but only Battleline units may be.",
                    i,
                )
            )
    for i, e in enumerate(entries):
        if e.kind == "warscroll-battalion":
            add(
                Problem(
                    "warscroll-battalion",
                    f"{_label(e, i)} is a warscroll battalion; only core battalions are allowed.",
                    i,
                )
            )
    _advise_core_battalions(entries, verdict.advice)
    seen: dict[str, int] = {}
    for i, e in enumerate(entries):
        if e.kind in ("endless-spell", "invocation"):
            key = e.name.casefold()
            if key in seen:
                add(
                    Problem(
                        "endless-spells-unique",
                        f"{_label(e, i)} is already in the army as entry "
                        f"{seen[key] + 1}; each endless spell or invocation only once.",
                        i,
                    )
                )
            else:
                seen[key] = i
    if roster.grand_strategy is None:
        verdict.advice.append("Pick a grand strategy: the roster must name one before the battle.")
    elif pack.grand_strategy(roster.grand_strategy) is None:
        ids = ", ".join(g.id for g in pack.grand_strategies)
        add(
            Problem(
                "grand-strategy",
                f"grand_strategy {roster.grand_strategy!r} is not one of this battlepack's: {ids}.",
            )
        )
    return verdict


def _battleline_rule(pack: Pack, roster: AosRoster) -> Any:
    """Whether an entry is Battleline: by its role, or by the pack's catalogue, whose units may be
    Battleline only in some armies (when the general is a certain unit, or the army has one)."""
    catalogue = pack.unit_catalogue
    general = next((e.name for e in roster.entries if e.general and e.kind == "unit"), None)
    # What the army has: its units, and its subfaction (a Seraphon constellation, say).
    fielded = {" ".join(e.name.casefold().split()) for e in roster.entries}
    if roster.subfaction:
        fielded.add(" ".join(roster.subfaction.casefold().split()))

    def battleline(entry: AosEntry) -> bool:
        if entry.has("Battleline"):
            return True
        if catalogue is None:
            return False
        unit = catalogue.find(entry.name, entry.faction or roster.faction)
        return unit is not None and unit.battleline_with(general, fielded)

    return battleline


def _range(add: Any, what: str, value: int, bounds: Any, noun: str, pts: str, note: str) -> None:
    if bounds is None:
        return
    aside = f" ({note})" if note else ""
    if bounds.min is not None and value < bounds.min:
        add(
            Problem(
                f"{what}-min",
                f"The army has {_plural(value, noun)}{aside}; {pts} needs at least {bounds.min}.",
            )
        )
    if bounds.max is not None and value > bounds.max:
        add(
            Problem(
                f"{what}-max",
                f"The army has {_plural(value, noun)}{aside}; {pts} allows at most {bounds.max}.",
            )
        )


def _check_faction(roster: AosRoster, add: Any) -> None:
    army = roster.faction
    if army is None:
        named = {
            e.faction.casefold(): e.faction
            for e in roster.entries
            if e.faction and not (e.ally or e.coalition)
        }
        if len(named) > 1:
            add(
                Problem(
                    "one-faction",
                    f"The units come from {len(named)} factions ({', '.join(sorted(named.values()))}); "
                    "only allies and coalition units may differ.",
                )
            )
        return
    for i, e in enumerate(roster.entries):
        if e.faction and e.faction.casefold() != army.casefold() and not (e.ally or e.coalition):
            add(
                Problem(
                    "one-faction",
                    f"{_label(e, i)} is from {e.faction}, not the army's faction ({army}); only "
                    "allies and coalition units may be.",
                    i,
                )
            )


def _advise_core_battalions(entries: list[AosEntry], advice: list[str]) -> None:
    # The battlepack allows each core battalion of its own list once, but that list was lost
    # from the source: a repeated name is worth a look, not a refusal.
    places: dict[str, list[int]] = {}
    for i, e in enumerate(entries):
        if e.kind == "core-battalion":
            places.setdefault(e.name.casefold(), []).append(i)
    for where in places.values():
        if len(where) > 1:
            first = entries[where[0]].name
            numbers = ", ".join(str(i + 1) for i in where[:-1]) + f" and {where[-1] + 1}"
            advice.append(
                f"The core battalion '{first}' is in the army {len(where)} times (entries {numbers}): "
                "the battlepack allows some core battalions only once, so check it against the list."
            )


def _check_allies_lead_nothing(entries: list[AosEntry], add: Any) -> None:
    for i, e in enumerate(entries):
        if not e.ally:
            continue
        if e.general:
            add(
                Problem(
                    "ally-general",
                    f"The general, {_label(e, i)}, is an ally; pick a unit of the army's own faction.",
                    i,
                )
            )
        picked = ([f"the command trait {e.command_trait!r}"] if e.command_trait else []) + [
            repr(x) for x in e.enhancements
        ]
        if picked:
            add(
                Problem(
                    "ally-enhancement",
                    f"{_label(e, i)} is an ally and has {', '.join(picked)}; allies take no "
                    "enhancements (coalition units may).",
                    i,
                )
            )


def _check_general(entries: list[AosEntry], add: Any) -> None:
    generals = [(i, e) for i, e in enumerate(entries) if e.general]
    if not generals:
        add(Problem("general-required", "No model is marked as the general; pick one Leader."))
    elif len(generals) > 1:
        names = " and ".join(_label(e, i) for i, e in generals)
        add(Problem("general-one", f"Only one general: {names} are both marked.", generals[1][0]))
    for i, e in generals:
        if e.kind != "unit" or not e.has("Leader"):
            add(Problem("general-leader", f"The general, {_label(e, i)}, must have the Leader role.", i))
    traits = [(i, e) for i, e in enumerate(entries) if e.command_trait]
    if len(traits) > 1:
        add(
            Problem(
                "command-trait-one",
                f"The army has {len(traits)} command traits; at most one is allowed.",
                traits[1][0],
            )
        )
    for i, e in traits:
        if not e.general:
            add(
                Problem(
                    "command-trait-general",
                    f"{_label(e, i)} has the command trait {e.command_trait!r} but is not the general.",
                    i,
                )
            )
        elif "HERO" not in e.keywords:
            add(
                Problem(
                    "command-trait-hero",
                    f"The general, {_label(e, i)}, has a command trait but is not a HERO.",
                    i,
                )
            )


# --- First Blood checks --------------------------------------------------------------------
def _check_first_blood(pack: Pack, roster: FbRoster) -> Verdict:
    army = pack.army
    assert army is not None
    limit = roster.points_limit or army.default_points or 0
    total = sum(e.total for e in roster.entries)
    verdict = Verdict(points=total, points_limit=limit)
    add = verdict.problems.append
    if limit and total > limit:
        add(
            Problem(
                "points-limit",
                f"The army costs {total} points, {total - limit} over the {limit}-point limit.",
            )
        )

    characters = [(i, e) for i, e in enumerate(roster.entries) if e.kind == "character"]
    need = army.character_regiments
    if need is not None and len(characters) != need:
        if not characters:
            add(Problem("character-regiment", "The army has no Character Regiment; it needs exactly one."))
        else:
            names = ", ".join(_label(e, i) for i, e in characters)
            add(
                Problem(
                    "character-regiment",
                    f"The army has {len(characters)} Character Regiments ({names}); it needs exactly one.",
                    characters[1][0],
                )
            )

    if army.officer_max_copies is not None:
        officers = Counter(m.name.casefold() for e in roster.entries for m in e.officers)
        shown = {m.name.casefold(): m.name for e in roster.entries for m in e.officers}
        for key, n in officers.items():
            if n > army.officer_max_copies:
                add(
                    Problem(
                        "officer-max",
                        f"The officer '{shown[key]}' is in the army {n} times; each officer at "
                        f"most {army.officer_max_copies} times.",
                    )
                )
    if army.regiment_max_copies is not None:
        regiments = Counter(e.name.casefold() for e in roster.entries if e.kind == "regiment")
        shown = {e.name.casefold(): e.name for e in roster.entries}
        for key, n in regiments.items():
            if n > army.regiment_max_copies:
                add(
                    Problem(
                        "regiment-max",
                        f"The regiment '{shown[key]}' is in the army {n} times; each regiment "
                        f"at most {army.regiment_max_copies} times.",
                    )
                )
    caps = {t.id: t for t in army.regiment_types}
    for i, e in enumerate(roster.entries):
        kind = caps.get(e.type)
        if kind is not None and kind.max_models is not None and e.model_count > kind.max_models:
            add(
                Problem(
                    "regiment-models",
                    f"{_label(e, i)} numbers {e.model_count} models with its officers"
                    f"{' and retinue' if e.retinue else ''}; a {kind.name.lower()} regiment "
                    f"has at most {kind.max_models}.",
                    i,
                )
            )
        if e.retinue and e.kind != "character":
            add(
                Problem(
                    "retinue-character",
                    f"{_label(e, i)} has retinue models, but only the Character Regiment can buy them.",
                    i,
                )
            )
    verdict.counts = {
        "character_regiments": len(characters),
        "regiments": sum(1 for e in roster.entries if e.kind == "regiment"),
        "models": sum(e.model_count for e in roster.entries),
    }
    return verdict


# --- The Old World checks ------------------------------------------------------------------------
def _check_old_world(roster: OwRoster) -> Verdict:
    # Points against the limit only: the seeds give no composition rules for The Old World.
    total = sum(e.points for e in roster.entries)
    verdict = Verdict(points=total, points_limit=roster.points_limit)
    if total > roster.points_limit:
        verdict.problems.append(
            Problem(
                "points-limit",
                f"The army costs {total} points, {total - roster.points_limit} over the "
                f"{roster.points_limit}-point limit.",
            )
        )
    verdict.counts = {"units": len(roster.entries)}
    return verdict


# --- what the score sheet needs to know ------------------------------------------------------
def army_summary(roster: Roster) -> dict[str, Any]:
    """The units that tactics and grand strategies name: the general, HEROES, MONSTERS, ..."""
    # ``line``: the army in a few words, as a game screen shows it beside the roster's name.
    if isinstance(roster, OwRoster):
        entries = len(roster.entries)
        return {
            "general": None,
            "heroes": [],
            "monsters": [],
            "battleline": [],
            "wizards": [],
            "priests": [],
            "line": f"{entries} {'entry' if entries == 1 else 'entries'}",
        }
    if isinstance(roster, FbRoster):
        character = next((e.name for e in roster.entries if e.kind == "character"), None)
        monsters = [e.name for e in roster.entries if e.type == "monster"]
        return {
            "general": character,
            "heroes": [character] if character else [],
            "monsters": monsters,
            "battleline": [],
            "wizards": [],
            "priests": [],
            "line": f"character {character or 'not named'} · {len(monsters)} monsters",
        }
    units = [e for e in roster.entries if e.kind == "unit"]
    general = next((e.name for e in units if e.general), None)

    def with_keyword(word: str) -> list[str]:
        return [e.name for e in units if word in e.keywords]

    return {
        "general": general,
        "heroes": with_keyword("HERO"),
        "monsters": with_keyword("MONSTER"),
        "battleline": [e.name for e in units if e.has("Battleline")],
        "wizards": with_keyword("WIZARD"),
        "priests": with_keyword("PRIEST"),
        "line": (
            f"general {general or 'not named'} · {len(with_keyword('HERO'))} HEROES · "
            f"{len(with_keyword('MONSTER'))} MONSTERS · {sum(1 for e in units if e.has('Battleline'))} Battleline"
        ),
    }


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
    if isinstance(roster, AosRoster) and roster.subfaction:
        lines.append(f"Subfaction: {roster.subfaction}")
    if isinstance(roster, AosRoster) and roster.triumph:
        lines.append(f"Triumph: {roster.triumph}")
    if isinstance(roster, AosRoster):
        if roster.grand_strategy:
            strategy = pack.grand_strategy(roster.grand_strategy)
            lines.append(f"Grand strategy: {strategy.name if strategy else roster.grand_strategy}")
        groups = [
            ("Units", [e for e in roster.entries if e.kind == "unit"]),
            ("Battalions", [e for e in roster.entries if e.kind.endswith("battalion")]),
            (
                "Endless spells and invocations",
                [e for e in roster.entries if e.kind in ("endless-spell", "invocation")],
            ),
            ("Terrain", [e for e in roster.entries if e.kind == "terrain"]),
        ]
        for title, group in groups:
            if not group:
                continue
            lines += ["", title.upper()]
            for e in group:
                # Every field is written, so that the import reads the text back unchanged.
                flags = [
                    f
                    for f, on in (
                        ("General", e.general),
                        ("Ally", e.ally),
                        ("Coalition", e.coalition),
                        ("Single model", e.single_model),
                        ("Warscroll battalion", e.kind == "warscroll-battalion"),
                        ("Invocation", e.kind == "invocation"),
                    )
                    if on
                ]
                if e.size != "minimum":
                    flags.append(e.size.replace("-", " ").capitalize())
                size = f"{e.models} x " if e.models else ""
                roles = f" [{', '.join(e.roles)}]" if e.roles else ""
                lines.append(
                    f"{size}{e.name} ({e.points}){roles}" + (f" - {', '.join(flags)}" if flags else "")
                )
                if e.command_trait:
                    lines.append(f"  - Command trait: {e.command_trait}")
                if e.enhancements:
                    lines.append(f"  - Enhancements: {', '.join(e.enhancements)}")
                if e.keywords:
                    lines.append(f"  - Keywords: {', '.join(e.keywords)}")
                if e.faction:
                    lines.append(f"  - Faction: {e.faction}")
                lines += _note_lines(e.notes)
    elif isinstance(roster, OwRoster):
        for category in (*OW_CATEGORIES, None):
            group = [e for e in roster.entries if e.category == category]
            if not group:
                continue
            lines += ["", (category or "units").upper()]
            for e in group:
                size = f"{e.models} x " if e.models else ""
                lines.append(f"{size}{e.name} ({e.points})")
                lines += _note_lines(e.notes)
    else:
        for e in roster.entries:
            kind = f"Character, {e.type.capitalize()}" if e.kind == "character" else e.type.capitalize()
            lines += ["", f"{e.name} ({kind}, {e.models} models) [{e.points}]"]
            lines += [f"  - Officer: {m.name} [{m.points}]" for m in e.officers]
            lines += [f"  - Retinue: {m.name} [{m.points}]" for m in e.retinue]
            lines += _note_lines(e.notes)
    lines += [
        "",
        f"TOTAL: {verdict.points} / {verdict.points_limit} points",
        "Valid" if verdict.valid else f"NOT VALID: {len(verdict.problems)} problem(s)",
    ]
    lines += [f"  ! {p.message}" for p in verdict.problems]
    return "\n".join(lines) + "\n"


def _note_lines(notes: str) -> list[str]:
    # One line of the notes a line of the text, so that notes with line breaks read back whole.
    return [f"  - {line}".rstrip() for line in notes.split("\n")] if notes else []


def fit_roster(body: Any) -> Any:
    """A stored roster body cut to today's limits: entries, names and notes.

    Rosters saved before the limits existed must still open; what is over a limit is cut
    rather than lost with the whole roster.
    """
    if isinstance(body, list):
        return [fit_roster(item) for item in body]
    if not isinstance(body, dict):
        return body
    out: dict[str, Any] = {}
    for key, value in body.items():
        if key in (
            "name",
            "faction",
            "subfaction",
            "command_trait",
            "grand_strategy",
            "triumph",
        ) and isinstance(value, str):
            out[key] = clean_text(value)[:MAX_NAME]
        elif key == "notes" and isinstance(value, str):
            out[key] = clean_text(value, notes=True)[:MAX_NOTES]
        elif key == "entries" and isinstance(value, list):
            out[key] = fit_roster(value[:MAX_ENTRIES])
        elif key in ("officers", "retinue") and isinstance(value, list):
            out[key] = fit_roster(value)
        else:
            out[key] = value
    return out
