"""Game systems: each one package behind one small protocol, found through the registry.

A game system turns a pack's scenario and a game's events into a state: Pitched Battles
score player turns (``turns``), Conquest: First Blood scores Victory Phases (``rounds``),
Triumph & Treachery plays three to six players with secret ploys (``treachery``). The pack
names its system (a scenario may name its own); everything outside a system's package asks
the registry, never which system it is. The event log's own mechanics (ids, undo, replay) are in
:mod:`app.rules.log`, once for all of them.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any, Protocol

from app.rules.army import RosterUnit
from app.rules.event_models import EventSet
from app.rules.facts import FactSpec
from app.rules.game import Setup
from app.rules.pack import Pack, Scenario
from app.rules.terrain import Piece


class GameSystem(Protocol):
    """What every game system does; the states it makes are its own."""

    name: str
    #: Event types the system folds (``undo`` is the log's, for every system).
    event_types: tuple[str, ...]
    #: The models of those events (:class:`app.rules.event_models.EventSet`): the log checks
    #: each event with them before :meth:`apply_event`, and docs/openapi.yaml is written from them.
    events: EventSet
    #: Words for a step of play in this system ("battle round", "round").
    round_word: str
    #: Whether each player of a game gets a seat token (their own phone, their own secrets).
    seated: bool

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

    def next_steps(self, state: Any) -> dict[str, Any]:
        """What a phone may record next, as plain data (the offline layer follows it)."""

    def holder(self, event: dict[str, Any]) -> int | None:
        """The player whose seat token an event needs (their secrets, and public entries only
        they may make, such as playing their own ploy), or ``None`` when any player's may do."""

    def secret(self, event: dict[str, Any]) -> bool:
        """Whether an event holds a secret that only its player may see (it has a ``holder``)."""

    def table_may_record(self, event: dict[str, Any]) -> bool:
        """Whether the table's edit token may record (and take back) an event that has a
        ``holder``, for that player: a public entry that is theirs, not a secret (a deal of
        command points). Another seat never may."""

    def undo_problem(self, state: Any, event: dict[str, Any]) -> Any:
        """Why the rules refuse to take back ``event``, the last entry in force (a ``Refused``),
        or ``None``: a secret pick both players have seen stays (siege tactics, contingents)."""

    def visible_event(self, event: dict[str, Any], seat: int | None, state: Any = None) -> dict[str, Any]:
        """The event as ``seat`` may see it (``None``: anyone): another's secret fields left out.

        ``state`` is the game the log folds to now: a secret its rules have revealed to everyone
        (both siege tactics in) is shown whole. Without it a secret stays hidden from the others.
        """

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

    #: Event types checked against the game's terrain set (a siege's objectives).
    terrain_events: tuple[str, ...]

    def terrain_problems(self, state: Any, event: dict[str, Any], pieces: list[Piece]) -> list[str]:
        """What is wrong with an event against the game's terrain set (``pieces``, in the set's
        order; none when it has no set) and the game as it stands; empty when nothing is."""


class EngineSystem:
    """A system whose rules are one engine module: it makes games, applies events, plans steps.

    The module gives ``EVENTS`` (its events' models), ``new_game(pack, setup)``,
    ``apply_event(state, event, id)`` (the event as the models read it) and ``next_steps(state)``, and, in a game with secrets, ``SECRET_TYPES``: each secret
    event type with the fields another seat never sees (its ``player`` holds it), and
    ``SIGNED_TYPES``: public event types only the seat of their ``player`` records. It may give
    ``undo_problem(state, event)``. Subclasses add what differs (facts, scoring, summary, when
    a secret is out: :meth:`revealed`).
    """

    round_word = "round"
    seated = False

    def __init__(self, name: str, engine: Any) -> None:
        self.name = name
        self.engine = engine
        self.events: EventSet = engine.EVENTS
        self.event_types: tuple[str, ...] = self.events.types
        self.secret_types: dict[str, tuple[str, ...]] = dict(getattr(engine, "SECRET_TYPES", {}))
        self.signed_types: tuple[str, ...] = tuple(getattr(engine, "SIGNED_TYPES", ()))

    def new_game(self, pack: Pack, setup: Setup) -> Any:
        return self.engine.new_game(pack, setup)

    def apply_event(self, state: Any, event: dict[str, Any], eid: str) -> None:
        self.engine.apply_event(state, event, eid)

    def unknown_event(self, state: Any, kind: Any) -> str | None:
        return None

    def next_steps(self, state: Any) -> dict[str, Any]:
        return self.engine.next_steps(state)

    def holder(self, event: dict[str, Any]) -> int | None:
        kind = event.get("type")
        if not isinstance(kind, str) or (kind not in self.secret_types and kind not in self.signed_types):
            return None
        return seat_of(event.get("player"))

    def secret(self, event: dict[str, Any]) -> bool:
        return event.get("type") in self.secret_types

    def table_may_record(self, event: dict[str, Any]) -> bool:
        return False

    def undo_problem(self, state: Any, event: dict[str, Any]) -> Any:
        found = getattr(self.engine, "undo_problem", None)
        return found(state, event) if found is not None else None

    def revealed(self, event: dict[str, Any], state: Any) -> bool:
        """Whether the rules have shown this secret event to everyone (both picks are in)."""
        return False

    roster_events: tuple[str, ...] = ()

    def roster_problems(
        self, scenario: Scenario, event: dict[str, Any], units: list[RosterUnit]
    ) -> list[str]:
        return []

    def roster_player(self, setup: Setup, event: dict[str, Any]) -> int | None:
        return seat_of(event.get("player"))

    terrain_events: tuple[str, ...] = ()

    def terrain_problems(self, state: Any, event: dict[str, Any], pieces: list[Piece]) -> list[str]:
        return []

    def visible_event(self, event: dict[str, Any], seat: int | None, state: Any = None) -> dict[str, Any]:
        """Another's secret without its hidden fields and marked ``hidden``, until revealed."""
        if not self.secret(event) or self.holder(event) == seat:
            return event
        if state is not None and self.revealed(event, state):
            return event
        hidden = self.secret_types[str(event["type"])]
        return {k: v for k, v in event.items() if k not in hidden} | {"hidden": True}


def seat_of(player: Any) -> int | None:
    """The seat an event's ``player`` names, or ``None`` when it names none (the rules refuse
    that event with their own sentence)."""
    return player if isinstance(player, int) and not isinstance(player, bool) and player >= 0 else None


REGISTRY: dict[str, GameSystem] = {}


def register(system: GameSystem) -> GameSystem:
    """Add a system to the registry under its name."""
    REGISTRY[system.name] = system
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


def _load() -> None:
    # Every package here is a system and registers itself when imported: a new system is a
    # new package, and nothing else lists it. Imported on first use, not at import, because
    # the systems import the pack models and the pack loader asks which names exist.
    if not _LOADED:
        for found in pkgutil.iter_modules(__path__):
            importlib.import_module(f"{__name__}.{found.name}")
        _LOADED.append(True)


_LOADED: list[bool] = []
