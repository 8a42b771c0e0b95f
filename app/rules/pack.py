"""Rulepack models and the loader.

A rulepack is one YAML file of facts: points presets, army rules, tactics, strategies,
tables and scenarios. The models below are the only shape a pack may take; the loader
validates every file and reports each broken one with its file, the path inside it and
what is wrong, while the other packs still load.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Collection
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    ValidationError,
    model_validator,
)
from pydantic_core import InitErrorDetails

from app.rules import systems
from app.rules.army import ArmySection
from app.rules.army import parse_section as army_section
from app.rules.catalogue import parse_catalogue
from app.rules.pack_base import Entry, FactName, Id, Model, Prose, Text, unique
from app.rules.pack_files import PackError, read_yaml
from app.rules.pack_translations import load_translations
from app.rules.speech import say, told
from app.rules.terrain import TerrainSection
from app.rules.terrain import parse_section as terrain_section

# Packs are small; anything bigger than this is not a rulepack.
MAX_PACK_BYTES = 512 * 1024


class SourceRef(Model):
    what: Text
    where: Text


class Source(Model):
    book: Text
    edition: Text | None = None
    date: Text | None = None
    notes: Prose | None = None
    extra: list[SourceRef] = []


class Range(Model):
    min: int | None = Field(default=None, ge=0)
    max: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> Range:
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min ({self.min}) is greater than max ({self.max})")
        return self


class PointsLimit(Model):
    points: int = Field(gt=0)
    leaders: Range | None = None
    battleline: Range | None = None
    behemoths: Range | None = None
    artillery: Range | None = None
    reinforced_units: Range | None = None
    allies_points: Range | None = None
    endless_spells_and_invocations: Range | None = None
    terrain_features: Range | None = None


class Points(Model):
    presets: list[int] = Field(min_length=1)
    # When true a game must use one of the presets (Pitched Battles: 1000 or 2000 only).
    presets_only: bool = False
    limits: list[PointsLimit] = []
    note: Prose | None = None


class Bonus(Model):
    vp: int = Field(gt=0)
    when: Prose


class Tactic(Entry):
    bonus: Bonus | None = None


class TacticRules(Model):
    summary: Prose


class RollEntry(Model):
    roll: int = Field(ge=1)
    scenario: Id


class RollTable(Model):
    id: Id
    name: Text
    table_roll: tuple[int, int]
    entries: list[RollEntry] = Field(min_length=1)


class BattleplanRoll(Model):
    summary: Prose
    tables: list[RollTable] = Field(min_length=1)


class ScenarioRoll(Model):
    """One die picks the scenario whose ``number`` it shows (Conquest: First Blood)."""

    summary: Prose
    die: int = Field(ge=2, le=20)  # faces: 12 for a D12
    reading: Prose | None = None


class Board(Model):
    width: float = Field(gt=0)
    height: float = Field(gt=0)


class Move(Model):
    round: int = Field(ge=2)
    x: float
    y: float


class Objective(Model):
    id: Id
    label: Text
    x: float | None = None
    y: float | None = None
    # The territory the objective lies in (or on the border of) where scoring depends on it.
    territory: Id | None = None  # one of the pack's sides
    border: bool = False
    # Prime objectives cannot be removed from the battlefield.
    prime: bool = False
    from_round: int = Field(default=1, ge=1)
    until_round: int | None = Field(default=None, ge=1)
    moves: list[Move] = []
    # Set up during the battle where a dice roll says (The Veins of Ghur: 2D6; Rain of Stars: D6).
    placed_by_roll: Literal["2d6", "d6"] | None = None
    # Round-scored games (First Blood): what the item is, its size and whose it is.
    kind: Literal["objective", "zone", "marker", "point"] = "objective"
    diameter: float | None = Field(default=None, gt=0)
    friendly_to: Id | None = None
    controlled_by: Id | None = None
    # A marker that is seized rather than destroyed and moves toward its seizer's zone (Broken Lines).
    moves_toward_friendly_zone: float | None = Field(default=None, gt=0)


class CatalogueUnit(Model):
    """A unit the pack offers ready-made in the army builder."""

    name: Text
    kind: Text = "unit"
    points: int = Field(ge=0)
    roles: list[Text] = []
    keywords: list[Text] = []
    type: Id | None = None
    models: int | None = Field(default=None, ge=1)
    single_model: bool = False


class Area(Model):
    """A deployment zone: a polygon of (x, y) corners in inches."""

    side: Id
    points: list[tuple[float, float]] = Field(min_length=3)


class EdgeZone(Model):
    """A reinforcement zone: stretches of table edge, each from one (x, y) to another."""

    side: Id
    segments: list[tuple[tuple[float, float], tuple[float, float]]] = Field(min_length=1)


class SeizeWeight(Model):
    """How much one model of a class counts when seizing (light infantry: pairs)."""

    id: Id
    name: Text
    weight: float = Field(ge=0)
    pairs: bool = False


class Markers(Model):
    """Objective markers: wounds, Defense, the half-width of their square base (for range, and
    the footprint no terrain may cover), and the round marker of a point, in millimetres."""

    wounds: int = Field(ge=1)
    defense: int = Field(ge=0)
    base_half_width: float = Field(ge=0)
    point_reach: float = Field(default=3, ge=0)
    point_base_mm: float | None = Field(default=None, gt=0, le=200)


class Reinforcement(Model):
    """Where reinforcements arrive from one round to another (``last`` empty: to the end)."""

    first: int = Field(ge=1)
    last: int | None = Field(default=None, ge=1)
    summary: Prose

    def covers(self, round_: int) -> bool:
        return self.first <= round_ and (self.last is None or round_ <= self.last)


class RoundFact(Model):
    """An informative fact recorded at the start of a battle round (no VP of its own)."""

    name: FactName
    kind: Literal["objective"]
    label: Prose


# The victory check every system knows; the others are each system's own (its section.py's
# VICTORY_CHECKS: a siege's "attacker-objectives", Triumph & Treachery's "ranking"...).
SHARED_CHECKS = ("most-vp",)


def _victory_check(check: str) -> str:
    known = [*SHARED_CHECKS, *sorted(systems.victory_checks())]
    if check not in known:
        raise ValueError(f"must be one of the victory checks the game systems decide: {', '.join(known)}")
    return check


class VictoryCheck(Model):
    # ``kind``: the result the check gives (for a check deciding several, the best of them).
    check: Annotated[str, AfterValidator(_victory_check)]
    kind: Literal["major", "minor", "win"]


class ImmediateVictory(Model):
    check: Literal["control-all", "chain"]
    from_round: int = Field(default=1, ge=1)
    kind: Literal["major", "minor", "win"]
    # For "chain": the two points a player's held points must join; the winner counts as this many VP.
    link: tuple[Id, Id] | None = None
    counts_as_vp: int | None = Field(default=None, ge=0)


class Victory(Model):
    immediate: ImmediateVictory | None = None
    # Round-scored games end at the end of the round in which a player reaches this many VP.
    threshold: int | None = Field(default=None, ge=1)
    order: list[VictoryCheck] = Field(min_length=1)


class Contingents(Model):
    """How an army is split into contingents, and the limits on their sizes."""

    summary: Prose
    # The contingents' ids, in order (garrison, relief-force; or first, second, third).
    ids: list[Id] = Field(min_length=2)
    # (at least, per): the first contingent needs at least one unit per unit of the second.
    at_least_per: tuple[Id, Id] | None = None
    # Each contingent's share of the army's units, as fractions (1/4 to 1/2: [1, 4], [1, 2]).
    min_share: tuple[int, int] | None = None
    max_share: tuple[int, int] | None = None


def _details(error: Any, *where: str | int) -> InitErrorDetails:
    """A pydantic error again, its place ``where`` inside the model (a section's key first)."""
    return InitErrorDetails(
        type=error["type"], loc=(*where, *error["loc"]), input=error["input"], ctx=error.get("ctx", {})
    )


class WithSections(Model):
    """A core model whose registered game systems may add sections of their own.

    A key that is not a field of the model is read with the model of the system that declares
    it (its section.py's ``PACK_SECTIONS`` or ``SCENARIO_SECTIONS``, through the registry) and
    kept as an extra field: ``pack.siege``, ``scenario.relief``, and every section in
    :attr:`sections`. A key no system declares is refused as any unknown key is.
    """

    model_config = ConfigDict(extra="allow", frozen=True)
    #: ``pack`` or ``scenario``: which of a system's declarations this model's keys are.
    level: ClassVar[str]

    @model_validator(mode="wrap")
    @classmethod
    def _own_sections(cls, data: Any, handler: ModelWrapValidatorHandler[Any]) -> Any:
        if not isinstance(data, dict):
            return handler(data)
        data = cls._renamed(data)
        # A core field stays the core's, whatever a system declares.
        declared = {k: v for k, v in systems.own_sections(cls.level).items() if k not in cls.model_fields}
        core = {k: v for k, v in data.items() if k in cls.model_fields}
        problems = [
            InitErrorDetails(type="extra_forbidden", loc=(k,), input=v)
            for k, v in data.items()
            if k not in cls.model_fields and k not in declared
        ]
        own: dict[str, Any] = {}
        for key, (shape, default) in declared.items():
            try:
                own[key] = systems.read_section(shape, data[key]) if key in data else copy.copy(default)
            except ValidationError as exc:
                problems += [_details(e, key) for e in exc.errors()]
        try:
            model = handler(core)
        except ValidationError as exc:
            if not problems:
                raise
            problems = [_details(e) for e in exc.errors()] + problems
        if problems:
            raise ValidationError.from_exception_data(cls.__name__, problems)
        # The extra fields, now read with their systems' models (the model is frozen to the rest).
        object.__setattr__(model, "__pydantic_extra__", own)
        return model

    @classmethod
    def _renamed(cls, data: dict[str, Any]) -> dict[str, Any]:
        """The data of an older pack with its keys as the model reads them now."""
        return data

    @property
    def sections(self) -> dict[str, Any]:
        """The game systems' own sections of this pack or scenario, by key (every key a
        registered system declares, with its value when the pack leaves it out)."""
        return dict(self.__pydantic_extra__ or {})


class Scenario(WithSections):
    level = "scenario"

    id: Id
    name: Text
    number: int | None = None
    summary: Prose | None = None
    table: Id | None = None
    roll: int | None = None
    board: Board | None = None
    grid: float | None = Field(default=None, gt=0)
    battle_rounds: int | None = Field(default=None, ge=1, le=20)
    deployment: Prose | None = None
    deployment_zones: list[Area] = []
    reinforcement_zones: list[EdgeZone] = []
    objectives: list[Objective] = []
    rules: list[Entry] = []
    round_facts: list[RoundFact] = []
    # Scoring blocks, each a model of the game system that scores it (its section.py's BLOCKS).
    scoring: Annotated[list[Any], BeforeValidator(systems.read_scoring)] = []
    victory: Victory | None = None
    playable: bool = True
    not_playable_reason: Prose | None = None
    # A scenario played by another system than the pack's (a two-player siege in a multiplayer
    # pack), with its own player counts; left out, the pack's.
    system: Id | None = None
    players: Range | None = None
    sides: list[Id] | None = None
    # The new-game screen's question when this scenario's two players take its two sides
    # ("Who attacks?"); left out, the pack's.
    first_side_question: Prose | None = None
    contingents: Contingents | None = None
    # A game system's own sections of a scenario (a siege's relief force, Tunnel Wars' series)
    # are extra fields, each read with its system's model (WithSections).

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        unique([o.id for o in self.objectives], "objective id")
        unique([r.id for r in self.rules], "rule id")
        for o in self.objectives:
            if self.battle_rounds is not None and o.from_round > self.battle_rounds:
                raise ValueError(f"objective {o.id!r} appears after the last battle round")
            if o.until_round is not None and o.until_round < o.from_round:
                raise ValueError(f"objective {o.id!r} leaves before it arrives")
        if not self.playable and not self.not_playable_reason:
            raise ValueError("a scenario that is not playable needs not_playable_reason")
        if self.playable and self.battle_rounds is None:
            raise ValueError("a playable scenario needs battle_rounds")
        for o in self.objectives:
            if o.kind == "zone" and o.diameter is None:
                raise ValueError(f"zone {o.id!r} needs a diameter")
        return self

    def block(self, name: str) -> Any:
        """The scoring block of that name, if the scenario uses it."""
        return next((b for b in self.scoring if b.block == name), None)

    def objective(self, objective_id: str) -> Objective | None:
        """The objective with that id, if any."""
        return next((o for o in self.objectives if o.id == objective_id), None)


class HomeCard(Model):
    """A game as the home screen offers it: a name players know, and what it opens."""

    title: Prose
    summary: Prose | None = None
    # The scenario the new-game screen opens on; left out, the player picks one.
    scenario: Id | None = None


class Pack(WithSections):
    level = "pack"

    id: Id
    name: Text
    game: Text
    source: Source
    players: Range = Range(min=2, max=2)
    sides: list[Id] = []
    # How the screens and sheets name each side, and what the new-game screen says about them.
    side_labels: dict[Id, Prose] = {}
    sides_note: Prose | None = None
    # The new-game screen's question for two players and two sides ("Who is the attacker?").
    first_side_question: Prose | None = None
    points: Points
    # The game system that plays the pack's scenarios (app/rules/systems): "turns" records each
    # player's turn (Age of Sigmar), "rounds" one Victory Phase a round (First Blood).
    system: Id = "turns"
    seizing: list[SeizeWeight] = []
    markers: Markers | None = None
    reinforcements: list[Reinforcement] = []
    # The terrain rules and the army rules the pack's games use, each read by the plug-in its
    # ``system`` names (app/rules/terrain/, app/rules/army/).
    terrain: Annotated[TerrainSection | None, BeforeValidator(terrain_section)] = None
    army: Annotated[ArmySection | None, BeforeValidator(army_section)] = None
    army_rules: list[Entry] = []
    units: list[CatalogueUnit] = []
    # The unit catalogue the army builder offers (a file in rulepacks/catalogues/), the points
    # season the pack plays, and a line on where the catalogue's season differs from it.
    catalogue: Id | None = None
    season: Text | None = None
    catalogue_note: Prose | None = None
    battleplan_roll: BattleplanRoll | None = None
    scenario_roll: ScenarioRoll | None = None
    tactics: list[Tactic] = []
    tactic_rules: TacticRules | None = None
    grand_strategies: list[Entry] = []
    realm_rules: list[Entry] = []
    general_rules: list[Entry] = []
    deployment_notes: list[Entry] = []
    victory_order: list[VictoryCheck] = []
    # A game system's own sections of a pack (sieges' tactics and table; Triumph & Treachery's
    # phases and ploys) are extra fields, each read with its system's model (WithSections).
    scenarios: list[Scenario] = []
    # How the home screen offers the pack's games (left out: one card, the pack's name).
    cards: list[HomeCard] = []
    _catalogue: Any = PrivateAttr(default=None)
    _translations: dict[str, dict[str, str]] = PrivateAttr(default_factory=dict)

    @classmethod
    def _renamed(cls, data: dict[str, Any]) -> dict[str, Any]:
        # Packs written before the registry named their system "play"; they still load.
        if "play" in data and "system" not in data:
            data = {**data, "system": data["play"]}
            del data["play"]
        return data

    @property
    def play(self) -> str:
        """The system's name, as the API has always called it (``play``)."""
        return self.system

    @property
    def unit_catalogue(self) -> Any:
        """The loaded :class:`app.rules.catalogue.Catalogue` the pack names, or ``None``."""
        return self.__pydantic_private__.get("_catalogue") if self.__pydantic_private__ else None

    @property
    def translations(self) -> dict[str, dict[str, str]]:
        """The pack's own words in other languages, from its translation files: by language,
        each English text to its translation (app/rules/pack_translations.py)."""
        return self.__pydantic_private__.get("_translations", {}) if self.__pydantic_private__ else {}

    @model_validator(mode="after")
    def _consistent(self) -> Pack:
        unique([s.id for s in self.scenarios], "scenario id")
        unique([t.id for t in self.tactics], "tactic id")
        unique([g.id for g in self.grand_strategies], "grand strategy id")
        unique([r.id for r in self.army_rules], "army rule id")
        ids = {s.id for s in self.scenarios}
        if self.battleplan_roll:
            for table in self.battleplan_roll.tables:
                for entry in table.entries:
                    if entry.scenario not in ids:
                        raise ValueError(
                            f"battleplan table {table.id!r} names unknown scenario {entry.scenario!r}"
                        )
        if self.scenario_roll and not any(
            s.playable and s.number is not None and 1 <= s.number <= self.scenario_roll.die
            for s in self.scenarios
        ):
            raise ValueError(f"scenario_roll: no playable scenario is numbered 1 to {self.scenario_roll.die}")
        for s in self.scenarios:
            named = [o.friendly_to for o in s.objectives] + [o.controlled_by for o in s.objectives]
            named += [o.territory for o in s.objectives]
            named += [a.side for a in s.deployment_zones] + [z.side for z in s.reinforcement_zones]
            for side in named:
                if side is not None and side not in self.sides_for(s):
                    raise ValueError(
                        f"scenario {s.id!r} names side {side!r}, which is not one of {self.sides_for(s)}"
                    )
            if s.playable and s.victory is None and not self.victory_order:
                raise ValueError(f"scenario {s.id!r} has no victory rules and the pack has no victory_order")
        for card in self.cards:
            found = self.scenario(card.scenario) if card.scenario else None
            if card.scenario and (found is None or not found.playable):
                raise ValueError(
                    f"card {card.title!r} opens {card.scenario!r}, which is not a playable scenario"
                )
        return self

    def scenario(self, scenario_id: str) -> Scenario | None:
        """The scenario with that id, if any."""
        if not isinstance(scenario_id, str):
            return None
        return _scenario_index(self.scenarios).get(scenario_id)

    def side_label(self, side: str) -> str:
        """A side as players read it: the pack's label (in the reader's language where the pack
        translates it), else its id in words."""
        label = self.side_labels.get(side)
        return told(label) if label else side.replace("-", " ").capitalize()

    def tactic(self, tactic_id: str) -> Tactic | None:
        """The battle tactic with that id, if any."""
        return next((t for t in self.tactics if t.id == tactic_id), None)

    def grand_strategy(self, strategy_id: str) -> Entry | None:
        """The grand strategy with that id, if any."""
        return next((g for g in self.grand_strategies if g.id == strategy_id), None)

    def army_rule(self, rule_id: str) -> Entry | None:
        """The army-building rule with that id, if any."""
        return next((r for r in self.army_rules if r.id == rule_id), None)

    @property
    def playable(self) -> list[Scenario]:
        """The scenarios a game can be started with."""
        return [s for s in self.scenarios if s.playable]

    def limit(self, points: int) -> PointsLimit | None:
        """The points-limit row for exactly that many points, if the pack has one."""
        return next((p for p in self.points.limits if p.points == points), None)

    def sides_for(self, scenario: Scenario | None) -> list[str]:
        """The sides players take in a game of that scenario: its own list, else the pack's."""
        return scenario.sides if scenario is not None and scenario.sides is not None else self.sides

    def players_for(self, scenario: Scenario | None) -> Range:
        """How many players a game of that scenario takes: its own range, else the pack's."""
        return scenario.players if scenario is not None and scenario.players is not None else self.players

    def side_question(self, scenario: Scenario | None) -> str | None:
        """What the new-game screen asks when two players take two sides, or ``None`` when
        the players of that scenario are not two on two sides (each row then names its side)."""
        sides = self.sides_for(scenario)
        counts = self.players_for(scenario)
        if len(sides) != 2 or (counts.max or 2) != 2:
            return None
        asked = (scenario.first_side_question if scenario is not None else None) or self.first_side_question
        return told(asked) if asked else say("Who is {side}?", side=self.side_label(sides[0]))

    def home_cards(self) -> list[HomeCard]:
        """The cards the home screen shows for this pack: its own, else one named after it."""
        if not self.playable:
            return []
        return self.cards or [HomeCard(title=self.name, summary=self.game)]

    def victory(self, scenario: Scenario) -> Victory:
        """The scenario's victory rules, falling back to the pack's shared order."""
        return scenario.victory or Victory(order=self.victory_order)


def roster_packs(packs: dict[str, Pack], game_pack: str) -> list[str]:
    """The packs whose rosters a game of ``game_pack`` may field: itself, and every pack built
    on the same army rules (a list made for Pitched Battles fields in a Conquest Unbound siege).
    """
    own = packs.get(game_pack)
    system = own.army.system if own is not None and own.army is not None else None
    others = sorted(
        pid
        for pid, pack in packs.items()
        if pid != game_pack and system and pack.army and pack.army.system == system
    )
    return [game_pack, *others]


def _path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def parse_pack(text: str, file: str) -> tuple[Pack | None, list[PackError]]:
    """Parse one pack's YAML text; return the pack or the list of what is wrong with it."""
    data, errors = read_yaml(text, file, MAX_PACK_BYTES)
    if errors:
        return None, errors
    if not isinstance(data, dict):
        return None, [PackError.at(file, "", "must be a YAML mapping with id, name, game, ...")]
    try:
        pack = Pack.model_validate(data)
    except ValidationError as exc:
        errors = []
        for err in exc.errors(include_url=False):
            msg = err["msg"].removeprefix("Value error, ")
            errors.append(PackError.at(file, _path(tuple(err["loc"])), msg))
        return None, errors
    if pack.system not in systems.names():
        return None, [
            PackError.at(file, "system", f"must be one of the game systems: {', '.join(systems.names())}")
        ]
    for i, scenario in enumerate(pack.scenarios):
        if scenario.system is not None and scenario.system not in systems.names():
            where = f"scenarios[{i}].system"
            return None, [
                PackError.at(file, where, f"must be one of the game systems: {', '.join(systems.names())}")
            ]
    return pack, []


def load_packs(
    directory: Path, languages: Collection[str] | None = None
) -> tuple[dict[str, Pack], list[PackError]]:
    """Load every ``*.yaml`` pack in a directory, with its translations (``translations/``).

    Returns the packs that validated, keyed by id, and the problems of those that did not.
    A pack whose id does not match its file name, or repeats another pack's id, is refused;
    so is a translation into a language not in ``languages`` (``None``: any), or of a text the
    pack no longer has (the pack loads, that text said in English).
    """
    packs: dict[str, Pack] = {}
    errors: list[PackError] = []
    for path in sorted(directory.glob("*.yaml")):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            errors.append(PackError.at(path.name, "", f"cannot be read: {exc}"))
            continue
        pack, problems = parse_pack(text, path.name)
        if pack is None:
            errors.extend(problems)
        elif pack.id != path.stem:
            errors.append(
                PackError.at(path.name, "id", f"is {pack.id!r} but the file is named {path.stem!r}")
            )
        elif pack.id in packs:
            errors.append(PackError.at(path.name, "id", f"{pack.id!r} is already used by another pack"))
        else:
            packs[pack.id] = pack
    _attach_catalogues(directory, packs, errors)
    translations, problems = load_translations(directory, packs, languages)
    errors += problems
    for pack_id, by_language in translations.items():
        packs[pack_id]._translations = by_language
    return packs, errors


@functools.lru_cache(maxsize=8)
def _parsed_catalogue(text: str, file: str) -> tuple[Any, tuple[PackError, ...]]:
    """A catalogue file read once per process: an admin's pack change, or a copy of the packs
    elsewhere, loads the packs again, and a catalogue's thousand units take most of that time."""
    catalogue, problems = parse_catalogue(text, file)
    return catalogue, tuple(problems)


def _attach_catalogues(directory: Path, packs: dict[str, Pack], errors: list[PackError]) -> None:
    """Give each pack that names a catalogue its loaded catalogue (a broken one is reported;
    the pack still loads and builds armies from typed units, as a pack without one does)."""
    loaded: dict[str, Any] = {}
    for pack in packs.values():
        name = pack.catalogue
        if name is None:
            continue
        if name not in loaded:
            path = directory / "catalogues" / f"{name}.yaml"
            file = f"catalogues/{name}.yaml"
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                errors.append(
                    PackError.at(f"{pack.id}.yaml", "catalogue", f"names {file}, which is not there")
                )
                loaded[name] = None
                continue
            catalogue, problems = _parsed_catalogue(text, file)
            errors.extend(problems)
            loaded[name] = catalogue
        pack._catalogue = loaded[name]


# Each list of scenarios by id, made once per list: every request of a game asks its pack for
# the game's scenario several times, and a loaded pack never changes (a copy with other
# scenarios has another list). The list is held so that its id is not reused meanwhile.
_SCENARIO_INDEXES: dict[int, tuple[list[Scenario], dict[str, Scenario]]] = {}


def _scenario_index(scenarios: list[Scenario]) -> dict[str, Scenario]:
    known = _SCENARIO_INDEXES.get(id(scenarios))
    if known is None or known[0] is not scenarios:
        if len(_SCENARIO_INDEXES) >= 64:  # packs loaded many times over: forget the old ones
            _SCENARIO_INDEXES.clear()
        known = _SCENARIO_INDEXES[id(scenarios)] = (scenarios, {s.id: s for s in scenarios})
    return known[1]
