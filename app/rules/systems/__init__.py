"""Game systems: each one package behind one small protocol, found through the registry.

A game system turns a pack's scenario and a game's events into a state: Pitched Battles
score player turns (``turns``), Conquest: First Blood scores Victory Phases (``rounds``),
Triumph & Treachery plays three to six players with secret ploys (``treachery``). The pack
names its system (a scenario may name its own); everything outside a system's package asks
the registry, never which system it is. The event log's own mechanics (ids, undo, replay) are in
:mod:`app.rules.log`, once for all of them.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated, Any, Protocol, Union, cast, runtime_checkable

from pydantic import Field, TypeAdapter

from app.rules.army import RosterUnit
from app.rules.event_models import EventSet
from app.rules.facts import FactSpec
from app.rules.game import Setup
from app.rules.terrain import Piece

if TYPE_CHECKING:
    # Only for annotations: the pack models import this registry to check a pack's names.
    from app.rules.pack import Pack, Scenario


class GameSystem(Protocol):
    """What every game system does; the states it makes are its own (each a :class:`GameState`).

    A system that needs more implements a capability as well, a small protocol of its own:
    :class:`Seats` (a seat token per player, secrets), :class:`RosterChecks` (events checked
    against a player's attached roster), :class:`TerrainChecks` (events checked against the
    game's terrain set). Ask for one with :func:`seats`, :func:`roster_checks` or
    :func:`terrain_checks`; ``None`` means the system does not need it.
    """

    name: str
    #: Event types the system folds (``undo`` is the log's, for every system).
    event_types: tuple[str, ...]
    #: The models of those events (:class:`app.rules.event_models.EventSet`): the log checks
    #: each event with them before :meth:`apply_event`, and docs/openapi.yaml is written from them.
    events: EventSet
    #: Words for a step of play in this system ("battle round", "round").
    round_word: str
    #: Whether each player of a game gets a seat token (the system implements :class:`Seats`).
    seated: bool
    #: The entry of :meth:`open_entries` each event type belongs to, by type (types not named
    #: belong to none): while that entry is closed, the log refuses such an event with its
    #: sentence (:func:`app.rules.log.entry_problem`) before the engine reads the event's fields.
    entries: dict[str, str]

    def new_game(self, pack: Pack, setup: Setup) -> Any:
        """An empty game for that set-up."""

    def apply_event(self, state: Any, event: dict[str, Any], eid: str) -> None:
        """Change ``state`` (a copy the log made) by one event; raise ``Refused`` if not allowed."""

    def unknown_event(self, state: Any, kind: Any) -> str | None:
        """A sentence for an event type the system does not take, or ``None`` for the usual one."""

    def facts(self, pack: Pack, scenario: Scenario) -> list[FactSpec]:
        """Every fact a player records in this scenario."""

    def scoring(self, pack: Pack, scenario: Scenario) -> list[str]:
        """One short sentence per way the scenario gives VP, in the order they apply."""

    def summary(self, state: Any, seat: int | None = None) -> dict[str, Any]:
        """The public state as the API answers it (docs/api.md), without the stored row.

        With ``seat`` (a player's index, the seat token's owner) the answer adds that player's
        own secrets; without it no secret is in it. Systems without secrets ignore ``seat``.
        """

    def open_entries(self, state: Any, seat: int | None) -> dict[str, Any]:
        """What may be recorded now from ``seat`` (``None``: the table), with its choices, and
        the rules' reason for what may not: one entry per kind of event a screen offers, each
        with ``open`` and, where closed, ``why``; ``undo`` for every system (:func:`undo_entry`)."""

    def next_steps(self, state: Any) -> dict[str, Any]:
        """What a phone may record next, as plain data (the offline layer follows it)."""

    def undo_problem(self, state: Any, event: dict[str, Any]) -> Any:
        """Why the rules refuse to take back ``event``, the last entry in force (a ``Refused``),
        or ``None``: a secret pick both players have seen stays (siege tactics, contingents)."""


@runtime_checkable
class Seats(Protocol):
    """A system whose players each get a seat token: their own phone, their own secrets."""

    def holder(self, event: dict[str, Any]) -> int | None:
        """The player whose seat token an event needs (their secrets, and public entries only
        they may make, such as playing their own ploy), or ``None`` when any player's may do."""

    def secret(self, event: dict[str, Any]) -> bool:
        """Whether an event holds a secret that only its player may see (it has a ``holder``)."""

    def table_may_record(self, event: dict[str, Any]) -> bool:
        """Whether the table's edit token may record (and take back) an event that has a
        ``holder``, for that player: a public entry that is theirs, not a secret (a deal of
        command points). Another seat never may."""

    def visible_event(self, event: dict[str, Any], seat: int | None, state: Any = None) -> dict[str, Any]:
        """The event as ``seat`` may see it (``None``: anyone): another's secret fields left out.

        ``state`` is the game the log folds to now: a secret its rules have revealed to everyone
        (both siege tactics in) is shown whole. Without it a secret stays hidden from the others.
        """


@runtime_checkable
class RosterChecks(Protocol):
    """A system whose events name units checked against a player's attached roster."""

    #: Event types whose named units are checked against the player's attached roster.
    roster_events: tuple[str, ...]

    def roster_problems(
        self, scenario: Scenario, event: dict[str, Any], units: list[RosterUnit]
    ) -> list[str]:
        """What is wrong with an event's units against the player's roster (``units``: its
        units with their keywords, a name twice for two such units); empty when nothing is."""

    def roster_player(self, setup: Setup, event: dict[str, Any]) -> int | None:
        """Whose attached roster an event of ``roster_events`` is checked against: its
        ``player``, or the player the rules name (a siege's defender); ``None``: nobody's."""


@runtime_checkable
class TerrainChecks(Protocol):
    """A system whose events are checked against the game's terrain set (a siege's objectives)."""

    #: Event types checked against the game's terrain set.
    terrain_events: tuple[str, ...]

    def terrain_problems(self, state: Any, event: dict[str, Any], pieces: list[Piece]) -> list[str]:
        """What is wrong with an event against the game's terrain set (``pieces``, in the set's
        order; none when it has no set) and the game as it stands; empty when nothing is."""


# Whether a system implements a capability, by the system's id and the capability: a check
# against a runtime protocol looks up every member (tens of microseconds), and an event POST
# asks several times. The system is held so that its id is not reused meanwhile.
_CAPABLE: dict[tuple[int, type], tuple[object, bool]] = {}


def _capable(system: object, capability: type) -> bool:
    key = (id(system), capability)
    known = _CAPABLE.get(key)
    if known is None or known[0] is not system:
        if len(_CAPABLE) >= 256:  # systems made anew many times over (tests): forget the old ones
            _CAPABLE.clear()
        known = _CAPABLE[key] = (system, isinstance(system, capability))
    return known[1]


def seats(system: GameSystem) -> Seats | None:
    """The system's seats and secrets, or ``None`` when its games have neither."""
    return cast("Seats", system) if _capable(system, Seats) else None


def roster_checks(system: GameSystem) -> RosterChecks | None:
    """The system's roster checks, or ``None`` when no event of it is checked against a roster."""
    return cast("RosterChecks", system) if _capable(system, RosterChecks) else None


def terrain_checks(system: GameSystem) -> TerrainChecks | None:
    """The system's terrain checks, or ``None`` when no event of it is checked against terrain."""
    return cast("TerrainChecks", system) if _capable(system, TerrainChecks) else None


class EngineSystem:
    """A system whose rules are one engine module: it makes games, applies events, plans steps.

    The module gives ``EVENTS`` (its events' models), ``new_game(pack, setup)``,
    ``apply_event(state, event, id)`` (the event as the models read it) and
    ``next_steps(state)``, and may give ``open_entries(state, seat)`` (what may be recorded now,
    beside the undo every system answers alike), ``one_entry(state, seat, key)`` (one of those
    entries worked out alone, for the log's check of every event), ``ENTRIES`` (the entry each event type
    belongs to: :attr:`GameSystem.entries`) and ``undo_problem(state, event)``. Subclasses
    add what differs (facts, scoring, summary) and the capabilities they need
    (:class:`SeatsBySecretTypes` for seats and secrets).
    """

    round_word = "round"

    def __init__(self, name: str, engine: Any) -> None:
        self.name = name
        self.engine = engine
        self.events: EventSet = engine.EVENTS
        self.event_types: tuple[str, ...] = self.events.types
        self.entries: dict[str, str] = dict(getattr(engine, "ENTRIES", {}))

    @property
    def seated(self) -> bool:
        return _capable(self, Seats)

    def new_game(self, pack: Pack, setup: Setup) -> Any:
        return self.engine.new_game(pack, setup)

    def apply_event(self, state: Any, event: dict[str, Any], eid: str) -> None:
        self.engine.apply_event(state, event, eid)

    def unknown_event(self, state: Any, kind: Any) -> str | None:
        return None

    def next_steps(self, state: Any) -> dict[str, Any]:
        return self.engine.next_steps(state)

    def open_entries(self, state: Any, seat: int | None) -> dict[str, Any]:
        found = getattr(self.engine, "open_entries", None)
        entries = found(state, seat) if found is not None else {}
        return {**entries, "undo": undo_entry(self, state, seat)}

    def one_entry(self, state: Any, seat: int | None, key: str) -> Any:
        """The entry ``key`` of :meth:`open_entries` (``None``: there is none), worked out alone
        where the engine can (its ``one_entry(state, seat, key)``)."""
        if key == "undo":
            return undo_entry(self, state, seat)
        found = getattr(self.engine, "one_entry", None)
        if found is not None:
            return found(state, seat, key)
        return self.open_entries(state, seat).get(key)

    def undo_problem(self, state: Any, event: dict[str, Any]) -> Any:
        found = getattr(self.engine, "undo_problem", None)
        return found(state, event) if found is not None else None


class SeatsBySecretTypes:
    """Seats and secrets from the engine module's lists (the :class:`Seats` capability).

    ``SECRET_TYPES``: each secret event type with the fields another seat never sees (its
    ``player`` holds it); ``SIGNED_TYPES``: public event types only the seat of their
    ``player`` records. A secret is shown to everyone once :meth:`revealed` says so.
    """

    engine: Any

    def holder(self, event: dict[str, Any]) -> int | None:
        kind = event.get("type")
        if not isinstance(kind, str) or (kind not in self.engine.SECRET_TYPES and kind not in self.signed):
            return None
        return seat_of(event.get("player"))

    @property
    def signed(self) -> tuple[str, ...]:
        return tuple(getattr(self.engine, "SIGNED_TYPES", ()))

    def secret(self, event: dict[str, Any]) -> bool:
        return event.get("type") in self.engine.SECRET_TYPES

    def table_may_record(self, event: dict[str, Any]) -> bool:
        return False

    def revealed(self, event: dict[str, Any], state: Any) -> bool:
        """Whether the rules have shown this secret event to everyone (both picks are in)."""
        return False

    def visible_event(self, event: dict[str, Any], seat: int | None, state: Any = None) -> dict[str, Any]:
        """Another's secret without its hidden fields and marked ``hidden``, until revealed."""
        if not self.secret(event) or self.holder(event) == seat:
            return event
        if state is not None and self.revealed(event, state):
            return event
        hidden = self.engine.SECRET_TYPES[str(event["type"])]
        return {k: v for k, v in event.items() if k not in hidden} | {"hidden": True}


class CheckedByPlayer:
    """Roster checks whose roster is the event's ``player``'s (the usual :class:`RosterChecks`)."""

    def roster_player(self, setup: Setup, event: dict[str, Any]) -> int | None:
        return seat_of(event.get("player"))


def owner_problem(
    system: GameSystem,
    event: dict[str, Any],
    seat: int | None,
    table: bool,
    names: list[str],
    undo: bool = False,
) -> str | None:
    """Why this phone may not record ``event`` (or, with ``undo``, take it back), or ``None``.

    ``seat`` is the player whose seat token came, ``table`` whether the table's edit token did.
    An entry with a holder (a secret, or playing one's own ploy) belongs to that player's seat:
    the table and the other seats are refused, whatever the entry says. Where the system lets
    the table record it for that player (a deal of command points), the table may too.
    """
    found = seats(system)
    holder = found.holder(event) if found is not None else None
    if found is None or holder is None or seat == holder:
        return None
    if undo:
        what = "Taking back a secret entry" if found.secret(event) else "Taking back this entry"
    else:
        what = "This secret entry" if found.secret(event) else "This entry"
    who = names[holder] if 0 <= holder < len(names) else f"player {holder}"
    if found.table_may_record(event):
        if seat is None and table:
            return None
        return (
            f"{what} is {who}'s: it needs the seat token of player {holder} ({who}) in X-Seat-Token, "
            "or the table's edit token in X-Edit-Token."
        )
    return (
        f"{what} is {who}'s alone: it needs the seat token of player {holder} ({who}) in "
        "X-Seat-Token, or that seat's own link on its phone."
    )


def undo_entry(system: GameSystem, state: Any, seat: int | None) -> dict[str, Any]:
    """Whether ``seat`` (``None``: the table) may take back the last entry in force: the one
    answer every screen and the service give. ``why``: the rules' reason (a secret pick both
    players have seen); ``theirs``: the entry is another player's, for their phone to undo."""
    last = state.last_event
    if last is None:
        return {"open": False, "why": None, "theirs": False}
    names = [p.name for p in state.setup.players]
    theirs = owner_problem(system, last, seat, seat is None, names, undo=True) is not None
    problem = system.undo_problem(state, last)
    return {
        "open": not theirs and problem is None,
        "why": problem.reason if problem else None,
        "theirs": theirs,
    }


def seat_of(player: Any) -> int | None:
    """The seat an event's ``player`` names, or ``None`` when it names none (the rules refuse
    that event with their own sentence)."""
    return player if isinstance(player, int) and not isinstance(player, bool) and player >= 0 else None


REGISTRY: dict[str, GameSystem] = {}


def register(system: GameSystem) -> GameSystem:
    """Add a system to the registry under its name, from the package whose module calls this
    (its files are there: :func:`package_of`)."""
    REGISTRY[system.name] = system
    _DECLARED.clear()
    caller = sys._getframe(1).f_globals.get("__name__", "")
    module = sys.modules.get(caller)
    # A package's __init__ registers as the package; a module inside one, as its package.
    _PACKAGES[system.name] = caller if hasattr(module, "__path__") else caller.rpartition(".")[0]
    return system


def system_for(pack: Pack, scenario: Scenario | str | None = None) -> GameSystem:
    """The game system that plays this pack's games, or that scenario's when it names its own.

    ``scenario`` is the scenario or its id; a scenario with no ``system`` of its own (or none
    given, or an id the pack does not have) is played by the pack's system.
    """
    _load()
    found = pack.scenario(scenario) if isinstance(scenario, str) else scenario
    if found is not None and found.system is not None:
        return REGISTRY[found.system]
    return REGISTRY[pack.system]


def names() -> list[str]:
    """The names of every registered game system."""
    _load()
    return sorted(REGISTRY)


def declared(module: str, attribute: str) -> dict[str, Any]:
    """What each registered system declares in a module of its package, by system name: its
    ``section.py`` (``PACK_SECTIONS``, ``SCENARIO_SECTIONS``, ``BLOCKS``, ``VICTORY_CHECKS``),
    its ``words.py`` (``said``). A system whose package has no such module, or no such name
    in it, declares nothing: each is optional, and nothing outside the package lists it."""
    _load()
    key = (module, attribute)
    if key not in _DECLARED:
        found: dict[str, Any] = {}
        for name, package in _PACKAGES.items():
            try:
                own = importlib.import_module(f"{package}.{module}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{package}.{module}":
                    raise
                continue
            if hasattr(own, attribute):
                found[name] = getattr(own, attribute)
        _DECLARED[key] = found
    return _DECLARED[key]


def own_sections(level: str) -> dict[str, tuple[Any, Any]]:
    """The sections the registered systems read with their own models at ``level`` (``pack``
    or ``scenario``): each key with its model and its value when a pack leaves it out."""
    attribute = "PACK_SECTIONS" if level == "pack" else "SCENARIO_SECTIONS"
    return {key: shape for found in declared("section", attribute).values() for key, shape in found.items()}


def read_section(shape: Any, data: Any) -> Any:
    """A section's data read with the model a system declared for it (pydantic's errors if not)."""
    return _adapter(shape).validate_python(data)


def victory_checks() -> tuple[str, ...]:
    """The victory checks the registered systems decide (each system's ``VICTORY_CHECKS``)."""
    return tuple(dict.fromkeys(c for found in declared("section", "VICTORY_CHECKS").values() for c in found))


def read_scoring(data: Any) -> Any:
    """A scenario's scoring blocks, each read with the model of the system that scores it."""
    blocks = tuple(b for found in declared("section", "BLOCKS").values() for b in found)
    return _scoring(blocks).validate_python(data)


@functools.cache
def _scoring(blocks: tuple[type, ...]) -> TypeAdapter[Any]:
    return TypeAdapter(list[Annotated[Union[blocks], Field(discriminator="block")]])  # noqa: UP007


@functools.cache
def _adapter(shape: Any) -> TypeAdapter[Any]:
    return TypeAdapter(shape)


def install(packages: Iterable[str]) -> list[str]:
    """Import game systems that live outside app/ (the app's ``SYSTEMS``, ``MUSTER_SYSTEMS``):
    each an importable package that registers itself as a built-in one does. Answers the names
    of the systems they registered; a package already installed is not imported again.

    Raises ``ValueError`` with one sentence when a package cannot be imported or registers none.
    """
    _load()
    found: list[str] = []
    for package in packages:
        known = [name for name, where in _PACKAGES.items() if where == package]
        if not known:
            try:
                known = _import(package)
            except ImportError as exc:
                raise ValueError(f"SYSTEMS names {package}, which cannot be imported: {exc}.") from exc
            if not known:
                raise ValueError(f"SYSTEMS names {package}, which registers no game system.")
        found += known
    return found


def forget(package: str) -> None:
    """Take the systems an installed package registered out of the registry (a test that
    installed one leaves the registry as it found it); importing it again registers them anew."""
    _DECLARED.clear()
    for name in [name for name, where in _PACKAGES.items() if where == package]:
        REGISTRY.pop(name, None)
        del _PACKAGES[name]
    for module in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
        del sys.modules[module]


def package_of(name: str) -> str | None:
    """The importable package a system registered from (``app.rules.systems.turns``): where its
    own files are, beside its code (a system living outside app/ carries its templates, print
    sheet and packs there)."""
    _load()
    return _PACKAGES.get(name)


def packages() -> list[str]:
    """Every package that registered a system, built-in ones first, each once."""
    _load()
    return list(dict.fromkeys(_PACKAGES.values()))


def _import(package: str) -> list[str]:
    """Import a system's package and answer the names of the systems it registered."""
    importlib.import_module(package)
    return [name for name, where in _PACKAGES.items() if where == package]


def _load() -> None:
    # Every package here is a system and registers itself when imported: a new system is a
    # new package, and nothing else lists it. Imported on first use, not at import, because
    # the systems import the pack models and the pack loader asks which names exist.
    if not _LOADED:
        for found in pkgutil.iter_modules(__path__):
            _import(f"{__name__}.{found.name}")
        _LOADED.append(True)


_LOADED: list[bool] = []
# The package each registered system came from, by the system's name.
_PACKAGES: dict[str, str] = {}
# What the registered systems declare in their packages' modules (declared()), by (module,
# name): asked for every scenario a pack loads, so looked up once per set of systems.
_DECLARED: dict[tuple[str, str], dict[str, Any]] = {}
