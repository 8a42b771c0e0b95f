"""Age of Sigmar's Pitched Battles: rosters by role, with the points-limit table's minima and
maxima, the general, allies and coalitions, reinforced units and the grand strategy."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, field_validator

from app.rules import army
from app.rules.lists.model import Line
from app.rules.pack_base import Text
from app.rules.speech import plural_words, say, say_plural, words

if TYPE_CHECKING:
    from app.rules.catalogue import Unit
    from app.rules.lists.model import Unit as ListUnit
    from app.rules.pack import Pack

KIND = "aos-pitched-battles"


class Section(army.ArmySection):
    """The pack's ``army`` section: the battlefield roles its entries take."""

    roles: list[Text] = []


AOS_ROLES = ("Leader", "Battleline", "Behemoth", "Artillery", "Other")
# Faction terrain is listed on a roster (it costs no points and fills no role).
AosKind = Literal["unit", "core-battalion", "warscroll-battalion", "endless-spell", "invocation", "terrain"]
ENTRY_KINDS = {"unit", "core-battalion", "warscroll-battalion", "endless-spell", "invocation", "terrain"}
AosSize = Literal["minimum", "reinforced", "reinforced-twice", "understrength"]


class AosEntry(army.ArmyEntry):
    kind: AosKind = "unit"
    points: army.Points = 0
    roles: list[str] = Field(default_factory=list, max_length=5)
    keywords: list[army.Keyword] = Field(default_factory=list, max_length=40)
    size: AosSize = "minimum"
    models: int | None = Field(default=None, ge=1, le=1000)
    single_model: bool = False
    ally: bool = False
    coalition: bool = False
    general: bool = False
    command_trait: army.OptionalName | None = None
    # Artefacts of power, spell and prayer lores, mount traits: anything picked for the unit.
    enhancements: list[army.Name] = Field(default_factory=list, max_length=6)
    faction: army.OptionalName | None = None
    notes: army.Note = ""

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


class AosRoster(army.ArmyRoster):
    subfaction: army.OptionalName | None = None
    grand_strategy: army.OptionalName | None = None
    # The triumph the list was built with (the Warhammer app writes it in the header).
    triumph: army.OptionalName | None = None
    entries: list[AosEntry] = Field(default_factory=list, max_length=army.MAX_ENTRIES)


def check(pack: Pack, roster: AosRoster) -> army.Verdict:
    entries = roster.entries
    total = sum(e.points for e in entries)
    verdict = army.Verdict(points=total, points_limit=roster.points_limit)
    add = verdict.problems.append
    limit = pack.limit(roster.points_limit)

    if total > roster.points_limit:
        add(
            army.Problem(
                "points-limit",
                say(
                    "The roster costs {total} points, {over} over the {limit}-point limit.",
                    total=total,
                    over=total - roster.points_limit,
                    limit=roster.points_limit,
                ),
            )
        )
    if limit is None:
        presets = say(" or ").join(str(p) for p in pack.points.presets)
        add(
            army.Problem(
                "points-limit",
                say(
                    "Pitched Battles are played at {presets} points; {limit} has no row in the "
                    "Pitched Battles table, so its limits cannot be checked.",
                    presets=presets,
                    limit=roster.points_limit,
                ),
            )
        )

    _check_faction(roster, add)
    _check_ally_factions(pack, roster, add)

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
        pts = say("{points} points", points=roster.points_limit)
        if limit.leaders is not None:
            # Allies and coalition units count toward the Leader maximum only.
            leaders = limit.leaders
            _range(add, "leaders", counts["own_leaders"], leaders.model_copy(update={"max": None}), pts)
            _range(add, "leaders", counts["leaders"], leaders.model_copy(update={"min": None}), pts)
        for role in ("battleline", "behemoths", "artillery"):
            _range(add, role, counts[role], getattr(limit, role), pts)
        # The table's other maxima: (rule, count, bounds); the sentence is _MAXIMUM's.
        for rule, n, bounds in (
            ("reinforced-max", counts["reinforced"], limit.reinforced_units),
            ("allies-points", counts["allies_points"], limit.allies_points),
            ("endless-spells-max", counts["endless_spells"], limit.endless_spells_and_invocations),
        ):
            if bounds and bounds.max is not None and n > bounds.max:
                add(army.Problem(rule, say(_MAXIMUM[rule], n=n, pts=pts, top=bounds.max)))

    _check_general(entries, add)
    _check_allies_lead_nothing(entries, add)
    for i, e in units:
        if e.size == "understrength":
            add(
                army.Problem(
                    "understrength",
                    say(
                        "{entry} is understrength; Pitched Battle units are at least their minimum size.",
                        entry=army.label(e, i),
                    ),
                    i,
                )
            )
        if e.single_model and e.size in ("reinforced", "reinforced-twice"):
            add(
                army.Problem(
                    "single-model-reinforced",
                    say("{entry} is a single model and cannot be reinforced.", entry=army.label(e, i)),
                    i,
                )
            )
        elif e.size == "reinforced-twice" and not battleline(e):
            add(
                army.Problem(
                    "reinforced-twice-battleline",
                    say(
                        "{entry} is reinforced twice, but only Battleline units may be.",
                        entry=army.label(e, i),
                    ),
                    i,
                )
            )
    for i, e in enumerate(entries):
        if e.kind == "warscroll-battalion":
            add(
                army.Problem(
                    "warscroll-battalion",
                    say(
                        "{entry} is a warscroll battalion; only core battalions are allowed.",
                        entry=army.label(e, i),
                    ),
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
                    army.Problem(
                        "endless-spells-unique",
                        say(
                            "{entry} is already in the army as entry {number}; "
                            "each endless spell or invocation only once.",
                            entry=army.label(e, i),
                            number=seen[key] + 1,
                        ),
                        i,
                    )
                )
            else:
                seen[key] = i
    if roster.grand_strategy is None:
        verdict.advice.append(say("Pick a grand strategy: the roster must name one before the battle."))
    elif pack.grand_strategy(roster.grand_strategy) is None:
        ids = ", ".join(g.id for g in pack.grand_strategies)
        add(
            army.Problem(
                "grand-strategy",
                say(
                    "grand_strategy {given} is not one of this battlepack's: {ids}.",
                    given=repr(roster.grand_strategy),
                    ids=ids,
                ),
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


# The sentence for a role's count under ("min") or over ("max") the table's bounds, one and many
# (a whole sentence a role and bound, so a translation can order it as its language does); one
# row a line, to read as a table.
# fmt: off
_ROLE_COUNT: dict[tuple[str, str], tuple[str, str]] = {
    ("leaders", "min"): plural_words("The army has {count} Leader (allies and coalition units do not count); {pts} needs at least {top}.", "The army has {count} Leaders (allies and coalition units do not count); {pts} needs at least {top}."),
    ("leaders", "max"): plural_words("The army has {count} Leader (allies and coalition units count); {pts} allows at most {top}.", "The army has {count} Leaders (allies and coalition units count); {pts} allows at most {top}."),
    ("battleline", "min"): plural_words("The army has {count} Battleline unit (allies and coalition units do not count); {pts} needs at least {top}.", "The army has {count} Battleline units (allies and coalition units do not count); {pts} needs at least {top}."),
    ("battleline", "max"): plural_words("The army has {count} Battleline unit (allies and coalition units do not count); {pts} allows at most {top}.", "The army has {count} Battleline units (allies and coalition units do not count); {pts} allows at most {top}."),
    ("behemoths", "min"): plural_words("The army has {count} Behemoth (a Battleline Behemoth is not counted); {pts} needs at least {top}.", "The army has {count} Behemoths (a Battleline Behemoth is not counted); {pts} needs at least {top}."),
    ("behemoths", "max"): plural_words("The army has {count} Behemoth (a Battleline Behemoth is not counted); {pts} allows at most {top}.", "The army has {count} Behemoths (a Battleline Behemoth is not counted); {pts} allows at most {top}."),
    ("artillery", "min"): plural_words("The army has {count} Artillery unit; {pts} needs at least {top}.", "The army has {count} Artillery units; {pts} needs at least {top}."),
    ("artillery", "max"): plural_words("The army has {count} Artillery unit; {pts} allows at most {top}.", "The army has {count} Artillery units; {pts} allows at most {top}."),
}
# fmt: on


# The sentence for a count over the table's other maxima, by rule.
# fmt: off
_MAXIMUM: dict[str, str] = {
    "reinforced-max": words("The army has {n} reinforced units (a unit reinforced twice counts as 2); {pts} allows {top}."),
    "allies-points": words("Allies cost {n} points; {pts} allows at most {top}."),
    "endless-spells-max": words("The army has {n} endless spells and invocations; {pts} allows at most {top}."),
}
# fmt: on


def _range(add: Any, what: str, value: int, bounds: Any, pts: str) -> None:
    """A problem when the count of role ``what`` is under or over ``bounds`` (``pts``: the
    points the bounds are for), said from :data:`_ROLE_COUNT`."""
    if bounds is None:
        return
    for bound, top, out in (
        ("min", bounds.min, bounds.min is not None and value < bounds.min),
        ("max", bounds.max, bounds.max is not None and value > bounds.max),
    ):
        if out:
            one, many = _ROLE_COUNT[what, bound]
            add(army.Problem(f"{what}-{bound}", say_plural(one, many, value, pts=pts, top=top)))


def _check_faction(roster: AosRoster, add: Any) -> None:
    own = roster.faction
    if own is None:
        named = {
            e.faction.casefold(): e.faction
            for e in roster.entries
            if e.faction and not (e.ally or e.coalition)
        }
        if len(named) > 1:
            add(
                army.Problem(
                    "one-faction",
                    say(
                        "The units come from {count} factions ({names}); only allies and coalition units may differ.",
                        count=len(named),
                        names=", ".join(sorted(named.values())),
                    ),
                )
            )
        return
    for i, e in enumerate(roster.entries):
        if e.faction and e.faction.casefold() != own.casefold() and not (e.ally or e.coalition):
            add(
                army.Problem(
                    "one-faction",
                    say(
                        "{entry} is from {faction}, not the army's faction ({own}); only allies and coalition units may be.",
                        entry=army.label(e, i),
                        faction=e.faction,
                        own=own,
                    ),
                    i,
                )
            )


def _check_ally_factions(pack: Pack, roster: AosRoster, add: Any) -> None:
    """An allied unit must come from a faction the army's faction may ally with, where the
    pack's catalogue names those factions; where it names none, the player's ally flag stands."""
    catalogue = pack.unit_catalogue
    if catalogue is None:
        return
    allowed = catalogue.allies_of(roster.faction)
    if not allowed:
        return
    own = catalogue.faction(roster.faction)
    allowed_ids = {f.id for f in allowed}
    for i, e in enumerate(roster.entries):
        if not e.ally:
            continue
        named = catalogue.faction(e.faction)
        if named is not None:
            if named.id in allowed_ids:
                continue
            origin = named.name
        else:
            # No faction written (a typed or imported unit): the factions fielding its name.
            fielding = [
                f for f in catalogue.factions if any(u.name.casefold() == e.name.casefold() for u in f.units)
            ]
            if not fielding or any(f.id in allowed_ids for f in fielding):
                continue  # a unit the catalogue does not know, or one an allied faction fields
            origin = fielding[0].name
        add(
            army.Problem(
                "ally-faction",
                say(
                    "{entry} is an ally from {faction}; {own} may take allies only from {allowed}.",
                    entry=army.label(e, i),
                    faction=origin,
                    own=own.name if own else roster.faction,
                    allowed=", ".join(f.name for f in allowed),
                ),
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
            numbers = say(
                "{some} and {last}", some=", ".join(str(i + 1) for i in where[:-1]), last=where[-1] + 1
            )
            advice.append(
                say(
                    "The core battalion '{name}' is in the army {count} times (entries {numbers}): "
                    "the battlepack allows some core battalions only once, so check it against the list.",
                    name=first,
                    count=len(where),
                    numbers=numbers,
                )
            )


def _check_allies_lead_nothing(entries: list[AosEntry], add: Any) -> None:
    for i, e in enumerate(entries):
        if not e.ally:
            continue
        if e.general:
            add(
                army.Problem(
                    "ally-general",
                    say(
                        "The general, {entry}, is an ally; pick a unit of the army's own faction.",
                        entry=army.label(e, i),
                    ),
                    i,
                )
            )
        picked = (
            [say("the command trait {trait}", trait=repr(e.command_trait))] if e.command_trait else []
        ) + [repr(x) for x in e.enhancements]
        if picked:
            add(
                army.Problem(
                    "ally-enhancement",
                    say(
                        "{entry} is an ally and has {picked}; allies take no enhancements (coalition units may).",
                        entry=army.label(e, i),
                        picked=", ".join(picked),
                    ),
                    i,
                )
            )


def _check_general(entries: list[AosEntry], add: Any) -> None:
    generals = [(i, e) for i, e in enumerate(entries) if e.general]
    if not generals:
        add(army.Problem("general-required", say("No model is marked as the general; pick one Leader.")))
    elif len(generals) > 1:
        names = say(" and ").join(army.label(e, i) for i, e in generals)
        add(
            army.Problem(
                "general-one", say("Only one general: {names} are both marked.", names=names), generals[1][0]
            )
        )
    for i, e in generals:
        if e.kind != "unit" or not e.has("Leader"):
            add(
                army.Problem(
                    "general-leader",
                    say("The general, {entry}, must have the Leader role.", entry=army.label(e, i)),
                    i,
                )
            )
    traits = [(i, e) for i, e in enumerate(entries) if e.command_trait]
    if len(traits) > 1:
        add(
            army.Problem(
                "command-trait-one",
                say("The army has {count} command traits; at most one is allowed.", count=len(traits)),
                traits[1][0],
            )
        )
    for i, e in traits:
        if not e.general:
            add(
                army.Problem(
                    "command-trait-general",
                    say(
                        "{entry} has the command trait {trait} but is not the general.",
                        entry=army.label(e, i),
                        trait=repr(e.command_trait),
                    ),
                    i,
                )
            )
        elif "HERO" not in e.keywords:
            add(
                army.Problem(
                    "command-trait-hero",
                    say(
                        "The general, {entry}, has a command trait but is not a HERO.", entry=army.label(e, i)
                    ),
                    i,
                )
            )


def summary(roster: AosRoster) -> dict[str, Any]:
    """The general, HEROES, MONSTERS, Battleline, WIZARDS and PRIESTS, and the army in a line."""
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
            say(
                "general {general} · {heroes} HEROES · {monsters} MONSTERS · {battleline} Battleline",
                general=general,
                heroes=len(with_keyword("HERO")),
                monsters=len(with_keyword("MONSTER")),
                battleline=sum(1 for e in units if e.has("Battleline")),
            )
            if general
            else say(
                "general not named · {heroes} HEROES · {monsters} MONSTERS · {battleline} Battleline",
                heroes=len(with_keyword("HERO")),
                monsters=len(with_keyword("MONSTER")),
                battleline=sum(1 for e in units if e.has("Battleline")),
            )
        ),
    }


def text_lines(pack: Pack, roster: AosRoster) -> list[str]:
    """The roster's subfaction, triumph and grand strategy, then its entries in groups."""
    lines = []
    if roster.subfaction:
        lines.append(f"Subfaction: {roster.subfaction}")
    if roster.triumph:
        lines.append(f"Triumph: {roster.triumph}")
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
            lines.append(f"{size}{e.name} ({e.points}){roles}" + (f" - {', '.join(flags)}" if flags else ""))
            if e.command_trait:
                lines.append(f"  - Command trait: {e.command_trait}")
            if e.enhancements:
                lines.append(f"  - Enhancements: {', '.join(e.enhancements)}")
            if e.keywords:
                lines.append(f"  - Keywords: {', '.join(e.keywords)}")
            if e.faction:
                lines.append(f"  - Faction: {e.faction}")
            lines += army.note_lines(e.notes)
    return lines


def _listed(form: army.FormValues, name: str, upper: bool = False) -> list[str]:
    # Keywords and enhancements are typed in one box, separated by commas (or semicolons).
    items = [x.strip() for x in str(form.get(name, "")).replace(";", ",").split(",") if x.strip()]
    return [x.upper() for x in items] if upper else items


def read_form(form: army.FormValues, number: army.NumberReader, entry: dict[str, Any]) -> str | None:
    """A unit's kind, size, roles, keywords, flags, command trait, enhancements and faction."""
    entry["kind"] = form.get("kind", "unit")
    models, problem = number("models", False)
    if problem:
        return problem
    if models:
        entry["models"] = models
    entry["roles"] = form.getlist("roles")
    entry["keywords"] = _listed(form, "keywords", upper=True)
    entry["size"] = form.get("size", "minimum")
    for flag in ("single_model", "general", "ally", "coalition"):
        entry[flag] = form.get(flag) in ("on", "true", "1")
    entry["command_trait"] = str(form.get("command_trait", "")).strip() or None
    entry["enhancements"] = _listed(form, "enhancements")
    entry["faction"] = str(form.get("faction", "")).strip() or None
    return None


def list_entry(
    unit: ListUnit, known: dict[str, Any], pack: Pack, unread: list[Line]
) -> dict[str, Any] | None:
    """A unit, battalion, endless spell or faction terrain, with the keywords and roles the
    catalogue or the phone knows; anything else stays unread."""
    if unit.kind not in ENTRY_KINDS:
        unread.append(Line(unit.line, f"{unit.name} ({unit.points})"))
        return None
    keywords = list(dict.fromkeys([*(known.get("keywords") or []), *unit.keywords]))
    roles = unit.roles or list(known.get("roles") or [])
    entry: dict[str, Any] = {
        "_line": unit.line,
        "name": unit.name[: army.MAX_NAME],
        "kind": unit.kind,
        "points": unit.points,
        "roles": roles if unit.kind == "unit" else [],
        "keywords": list(dict.fromkeys(k.upper()[:40] for k in keywords))[:40],  # "ß" grows when upper-cased
        "size": unit.size,
        "models": army.listed_models(unit.models),
        "single_model": unit.single_model or bool(known.get("single_model")),
        "ally": unit.ally,
        "coalition": unit.coalition,
        "general": unit.general,
        "command_trait": unit.command_trait,
        "enhancements": [e[: army.MAX_NAME] for e in unit.enhancements][:6],
        "notes": army.listed_notes(unit.notes),
    }
    if unit.faction:
        entry["faction"] = unit.faction[: army.MAX_NAME]
    return entry


def typed_entry(battalion: bool, name: str, points: int) -> dict[str, Any]:
    """A unit, or a core battalion, as the player named it."""
    return {"name": name, "kind": "core-battalion" if battalion else "unit", "points": points}


# The roles a catalogue writes that a Pitched Battles roster checks.
CATALOGUE_ROLES = ("leader", "battleline", "behemoth", "artillery")


def catalogue_entry(unit: Unit) -> dict[str, Any]:
    """A catalogue unit at its minimum size, with its keywords and roles."""
    return {
        "name": unit.name,
        "kind": "unit",
        "points": unit.points,
        "models": unit.models,
        "roles": [r.capitalize() for r in unit.roles if r in CATALOGUE_ROLES],
        "keywords": list(unit.keywords),
        "size": "minimum",
        "single_model": unit.single_model,
    }


def ally_entry(unit: Unit, faction: str) -> dict[str, Any]:
    """Another faction's catalogue unit taken as an ally: flagged so, with its faction."""
    return catalogue_entry(unit) | {"ally": True, "faction": faction}


def resized(unit: Unit, entry: dict[str, Any], step: int) -> dict[str, Any] | None:
    """Reinforcement steps: each adds the unit's smallest size and its reinforcement points."""
    if not unit.reinforced_points:
        return None
    sizes = (
        ["minimum", "reinforced", "reinforced-twice"] if unit.reinforced_twice else ["minimum", "reinforced"]
    )
    current = entry.get("size", "minimum")
    at = sizes.index(current) + step if current in sizes else -1
    if not 0 <= at < len(sizes):
        return None
    return {
        **entry,
        "size": sizes[at],
        "points": unit.points + at * unit.reinforced_points,
        "models": unit.models * (at + 1),
    }


RULES = army.register_module(
    __name__,
    kind=KIND,
    section=Section,
    roster=AosRoster,
    unit_kinds=("unit",),
    screen=army.ArmyScreen(
        KIND,
        counts=True,
        subfaction=True,
        general=True,
        grows_by="size",
        import_answers=(
            ("unit", "A unit"),
            ("battalion", "A battalion"),
            ("enhancement", "An enhancement"),
            ("note", "A note"),
            ("drop", "Drop it"),
        ),
        words=(
            ("Leader", lambda: say("Leader")),
            ("Battleline", lambda: say("Battleline")),
            ("Behemoth", lambda: say("Behemoth")),
            ("Artillery", lambda: say("Artillery")),
            ("Other", lambda: say("Other")),
            ("Leaders", lambda: say("Leaders")),
            ("Behemoths", lambda: say("Behemoths")),
            ("Other units", lambda: say("Other units")),
            ("A battalion", lambda: say("A battalion")),
            ("An enhancement", lambda: say("An enhancement")),
            # Sizes and kinds of entry, as the list and the sheet show them.
            ("minimum", lambda: say("minimum")),
            ("reinforced", lambda: say("reinforced")),
            ("reinforced-twice", lambda: say("reinforced twice")),
            ("understrength", lambda: say("understrength")),
            ("core-battalion", lambda: say("core battalion")),
            ("warscroll-battalion", lambda: say("warscroll battalion")),
            ("endless-spell", lambda: say("endless spell")),
            ("invocation", lambda: say("invocation")),
            ("terrain", lambda: say("terrain")),
        ),
    ),
    list_game="aos",
    groups=(
        ("leader", "Leaders"),
        ("battleline", "Battleline"),
        ("behemoth", "Behemoths"),
        ("artillery", "Artillery"),
        ("", "Other units"),
    ),
)
