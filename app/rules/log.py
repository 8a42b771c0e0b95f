"""A game's event log, the same for every game system: event ids, undo, replay and apply.

A game is its set-up plus an append-only list of events. Every system folds the events in
force (undone entries left out) into its state; this module holds what that means once, so
a system only says how one event changes its state (:meth:`GameSystem.apply_event`).
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from app.rules.problems import Problem
from app.rules.speech import say

if TYPE_CHECKING:
    from app.rules.game import Setup
    from app.rules.pack import Pack
    from app.rules.systems import GameSystem


@dataclasses.dataclass(frozen=True)
class Entry:
    """What one event left in a game's state (a turn, a roll, a pick): the id of that event,
    which an undo takes away and a description names. Frozen: a later event adds or replaces
    an entry, never changes one (:func:`clone` copies a state by its containers only)."""

    event: str


class Refused(Exception):
    """An event the rules do not allow; the message is one plain sentence."""

    def __init__(self, message: str, rule: str = "refused") -> None:
        super().__init__(message)
        self.rule = rule

    @property
    def problem(self) -> Problem:
        return Problem(self.rule, str(self))

    @property
    def reason(self) -> str:
        """The sentence as a screen shows it beside what it refuses: without the field it names."""
        text = str(self)
        head, sep, rest = text.partition(": ")
        # French sets a space before the colon ("player : ..."): the field is the same.
        if sep and head.strip() and " " not in head.rstrip(" \u00a0\u202f"):
            return rest[:1].upper() + rest[1:]
        return text


def open_entry(problem: Refused | None, **choices: Any) -> dict[str, Any]:
    """One entry of a system's ``open_entries``: ``open``, or ``why`` not (the rules' refusal as
    a screen shows it beside what it refuses), with the entry's ``choices``. A closed entry also
    holds the refusal whole (``refusal``, naming its field, and its ``rule``): the sentence the
    service answers an event of that entry with (:func:`apply`)."""
    if problem is None:
        return {"open": True, "why": None, **choices}
    return {"open": False, "why": problem.reason, "refusal": str(problem), "rule": problem.rule, **choices}


def entry_problem(system: GameSystem, state: Any, event: dict[str, Any], seat: int | None) -> Refused | None:
    """Why the rules refuse ``event`` before reading its choices: the entry it belongs to (the
    system's ``entries``, by event type) is closed in ``open_entries(state, seat)``. ``None``
    when it is open, or the event belongs to no entry; its own fields are the engine's to judge."""
    key = getattr(system, "entries", {}).get(event.get("type"))
    if key is None:
        return None
    # The one entry alone where the system can work it out so (most events ask only whether
    # the game is over); else the whole answer's entry.
    one = getattr(system, "one_entry", None)
    entry = one(state, seat, key) if one is not None else system.open_entries(state, seat).get(key)
    if not isinstance(entry, dict) or entry.get("open", True) or entry.get("refusal") is None:
        return None
    return Refused(entry["refusal"], entry.get("rule", "refused"))


Apply = Callable[[Any, dict[str, Any], str], None]


def by_type(apply: Mapping[str, Apply]) -> Apply:
    """An engine's ``apply_event``: change a state by the function ``apply`` names for the
    event's type (the event as its model read it, so the type is one of them)."""

    def apply_event(state: Any, event: dict[str, Any], eid: str) -> None:
        apply[event["type"]](state, event, eid)

    apply_event.__doc__ = (
        "Change a state by one event of its type; raise ``Refused`` if the rules do not allow it."
    )
    return apply_event


def event_id(event: Any) -> str:
    """The event's UUID in canonical form; raises :class:`Refused` if it has none."""
    if not isinstance(event, dict):
        raise Refused(say("The body must be one JSON object, the event."), "body")
    raw = event.get("id")
    try:
        if isinstance(raw, str):
            return str(uuid.UUID(raw))
    except ValueError:
        pass
    raise Refused(
        say(
            "id must be a UUID made by the client, such as {example}.",
            example="'a6f0c2de-1b9e-4c35-9d55-0f0e7f1c2b11'",
        ),
        "id",
    )


def effective(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events still in force: undo events and the entries they undid are left out."""
    kept: list[dict[str, Any]] = []
    for event in events:
        if event.get("type") == "undo":
            if kept and kept[-1].get("id") == event.get("event"):
                kept.pop()
        else:
            kept.append(event)
    return kept


def clone(state: Any) -> Any:
    """A copy of a state whose lists, dicts and sets can grow without touching the original.

    States only ever add entries to their containers (an entry, once made, is not changed), so
    copying the containers is enough: the pack, the scenario and the entries are shared.
    """
    kind = type(state)
    names = _FIELDS.get(kind)
    if names is None:
        # A state with its own __post_init__ or slots is made through its __init__, as ever.
        plain = not hasattr(kind, "__post_init__") and not hasattr(kind, "__slots__")
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(state)) if plain else ()
    if not names:
        changes = {}
        for f in dataclasses.fields(state):
            value = getattr(state, f.name)
            if isinstance(value, list | dict | set):
                changes[f.name] = value.copy()
        return dataclasses.replace(state, **changes)
    # What dataclasses.replace makes, without the call to __init__ with every field by name:
    # every event applied clones the game's state, and that call was most of a clone.
    values = state.__dict__
    copy = object.__new__(kind)
    copy.__dict__.update({n: v.copy() if isinstance(v := values[n], list | dict | set) else v for n in names})
    return copy


# The field names of each kind of state, for :func:`clone` (empty: cloned by dataclasses.replace).
_FIELDS: dict[type, tuple[str, ...]] = {}


def fold(system: GameSystem, state: Any, events: Iterable[dict[str, Any]]) -> Any:
    """Apply stored events (none of them an undo) to ``state`` in place, in order.

    Stored events were checked when they were appended; one that no longer fits (say the pack
    changed since) is skipped and listed in ``state.skipped`` rather than lost.
    """
    for event in events:
        eid = str(event.get("id"))
        try:
            _type(system, state, event)
            system.apply_event(state, read(system, state, event), eid)
        except Refused as exc:
            state.skipped.append((eid, str(exc)))
            continue
        state.effective.append(eid)
        state.last_event = event
    return state


def replay(system: GameSystem, pack: Pack, setup: Setup, events: Sequence[dict[str, Any]]) -> Any:
    """The state of a game after its whole stored log."""
    return fold(system, system.new_game(pack, setup), effective(events))


def apply(
    system: GameSystem,
    state: Any,
    event: Any,
    events: Sequence[dict[str, Any]] = (),
    seat: int | None = None,
) -> tuple[Any, Problem | None]:
    """The state with ``event`` appended, or ``state`` and why the rules refuse it.

    ``state`` is the fold of ``events`` (the stored log) and is never changed: the answer is a
    new state. An undo is judged here and its state replayed from ``events``. ``seat`` records
    it (``None``: the table): an event whose entry is closed in ``open_entries(state, seat)``
    is refused with that entry's sentence (:func:`entry_problem`) before the engine reads it.
    """
    try:
        eid = event_id(event)
        kind = _type(system, state, event)
        if kind == "undo":
            _check_undo(state, event)
            target = next((e for e in reversed(events) if e.get("id") == event.get("event")), None)
            refusal = system.undo_problem(state, target) if target is not None else None
            if refusal is not None:
                raise refusal
            return replay(system, state.pack, state.setup, [*events, {**event, "id": eid}]), None
        checked = read(system, state, event)
        if closed := entry_problem(system, state, checked, seat):
            raise closed
        after = clone(state)
        system.apply_event(after, checked, eid)
        after.effective.append(eid)
        after.last_event = event
        return after, None
    except Refused as exc:
        return state, exc.problem


def _type(system: GameSystem, state: Any, event: dict[str, Any]) -> str:
    kind = event.get("type")
    if kind == "undo":
        return kind
    if kind not in system.event_types:
        refusal = system.unknown_event(state, kind)
        types = ", ".join([*system.event_types, "undo"])
        raise Refused(refusal or say("type must be one of {types}.", types=types), "type")
    return str(kind)


def read(system: GameSystem, state: Any, event: dict[str, Any]) -> dict[str, Any]:
    """The event as its system's model reads it (the fields sent, checked against the game's
    bounds), or :class:`Refused` naming the field; a system without models takes it as it is."""
    events = getattr(system, "events", None)
    return events.read(event, state) if events is not None else event


def _check_undo(state: Any, event: dict[str, Any]) -> None:
    from app.rules.event_models import UndoEvent, check  # the models name Refused, from here

    check(UndoEvent, event)
    if not state.effective:
        raise Refused(say("There is nothing to undo."), "undo")
    if event.get("event") != state.effective[-1]:
        raise Refused(
            say("event must be the id of the last entry still in force: only the last entry can be undone."),
            "undo",
        )
