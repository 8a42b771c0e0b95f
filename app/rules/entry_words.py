"""An entry of a game's log said in one line, the same for every game system.

After a tap the screen says what was recorded ("Ann's turn recorded: +5 VP"), its Undo names
what it takes back ("Undo Bo's turn, round 2 (3 VP)"), and after an undo every phone says what
was undone. The words come from the event as anyone may see it (a secret ploy stays "a ploy")
and the VP from the scores before and after it: nothing here knows a system's rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from app.rules import log, systems
from app.rules.pack import Pack
from app.rules.speech import say, words

#: The entries every system shares that are said the usual way, by their name at the table.
_SHARED = {"turn": words("turn")}


@dataclass(frozen=True)
class Said:
    """One entry in words: ``noun`` names it ("Bo's turn, round 2"), ``sentence`` says it was
    recorded ("Bo's turn recorded"); ``player`` is whose it is, if anyone's."""

    noun: str
    sentence: str
    player: int | None


@dataclass(frozen=True)
class LastEntry:
    """What the game screen says of the latest entry, and what its Undo takes back.

    ``line``: the latest entry, recorded or undone, with the VP it gave. ``undo_event`` and
    ``undo_label``: the entry an undo takes back now (the last still in force), if any.
    """

    line: str | None
    undo_event: str | None
    undo_label: str | None


def who(names: Sequence[str], value: Any) -> str | None:
    """The name of the player an event's field points at, or ``None`` when it names none."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
        return names[value]
    return None


def player_of(event: dict[str, Any], names: Sequence[str]) -> int | None:
    """Whose the entry is: its ``player``, else who made it (``by``) or gave it (``from``)."""
    return next((event[k] for k in ("player", "by", "from") if who(names, event.get(k)) is not None), None)


def recorded(event: dict[str, Any], names: Sequence[str], thing: str) -> Said:
    """An entry said the usual way: "Bo's ``thing``, round 2" and "Bo's ``thing`` recorded"
    (``thing``: the entry's name in the reader's language)."""
    player = player_of(event, names)
    name = who(names, player)
    round_ = event.get("round")
    if name:
        sentence = say("{name}'s {thing} recorded", name=name, thing=thing)
        if isinstance(round_, int):
            return Said(
                say("{name}'s {thing}, round {round}", name=name, thing=thing, round=round_), sentence, player
            )
        return Said(say("{name}'s {thing}", name=name, thing=thing), sentence, player)
    sentence = say("The {thing} recorded", thing=thing)
    if isinstance(round_, int):
        return Said(say("the {thing}, round {round}", thing=thing, round=round_), sentence, player)
    return Said(say("the {thing}", thing=thing), sentence, player)


def named(kinds: dict[str, str]) -> Callable[[dict[str, Any], Sequence[str], Any], Said | None]:
    """A system's ``said`` for entries that need only their name at the table (``kinds``:
    each type with its words), each said the usual way (:func:`recorded`)."""

    def said(event: dict[str, Any], names: Sequence[str], pack: Any) -> Said | None:
        kind = event.get("type")
        return recorded(event, names, say(kinds[kind])) if isinstance(kind, str) and kind in kinds else None

    return said


def _systems_said(event: dict[str, Any], names: Sequence[str], pack: Pack, system: Any) -> Said | None:
    """The entry in the words of a system that takes it (its package's ``words.py``): the
    game's own system first, then any other whose events include its type."""
    hooks = systems.declared("words", "said")
    kind = event.get("type")
    first = [system.name] if system is not None else []
    takers = [n for n in hooks if kind in getattr(systems.REGISTRY.get(n), "event_types", ())]
    for name in dict.fromkeys(n for n in (*first, *takers) if n in hooks):
        found = hooks[name](event, names, pack)
        if found is not None:
            return found
    return None


def said(event: dict[str, Any], names: Sequence[str], pack: Pack, system: Any = None) -> Said:
    """The event (as anyone may see it) in words: what it is, and that it was recorded.

    A system's own entries are said in its words (its ``words.py``); the entries every system
    shares (a turn, the start of a round, a roll, the end) and any other kind here.
    """
    own = _systems_said(event, names, pack, system)
    if own is not None:
        return own
    kind = str(event.get("type", ""))
    round_ = event.get("round")
    player = player_of(event, names)
    name = who(names, player)
    if kind == "battle_round":
        first = who(names, event.get("first"))
        started = (
            say("Round {round} started: {name} goes first", round=round_, name=first)
            if first
            else say("Round {round} started", round=round_)
        )
        return Said(say("the start of round {round}", round=round_), started, None)
    if kind == "roll":
        dice = ", ".join(str(d) for d in event.get("results", []) if isinstance(d, int))
        purpose = event.get("purpose")
        if isinstance(purpose, str) and purpose:
            return Said(
                say("the dice roll for {purpose}", purpose=purpose),
                say("Dice rolled for {purpose}: {dice}", purpose=purpose, dice=dice),
                None,
            )
        return Said(say("the dice roll"), say("Dice rolled: {dice}", dice=dice), None)
    if kind == "end":
        if name:
            return Said(
                say("{name}'s end of the battle", name=name),
                say("{name}'s end of the battle recorded", name=name),
                player,
            )
        return Said(say("the end of the battle"), say("The end of the battle recorded"), None)
    # A turn, and any kind no system words: its name in words ("Bo's turn, round 2").
    return recorded(event, names, say(_SHARED[kind]) if kind in _SHARED else kind.replace("_", " "))


def _gain(before: Callable[[int], int], after: Callable[[int], int], count: int) -> list[int]:
    return [after(i) - before(i) for i in range(count)]


def _vp_words(gains: list[int], names: Sequence[str], player: int | None, signed: bool) -> str:
    """The VP an entry gave: its player's alone when only theirs changed, else each player's."""
    changed = [i for i, g in enumerate(gains) if g]
    if not changed:
        return ""
    if changed == [player] or len(changed) == 1:
        vp = gains[changed[0]]
        amount = f"{vp:+d}" if signed else str(vp)
        if changed == [player]:
            return say("{amount} VP", amount=amount)
        return say("{name} {amount} VP", name=names[changed[0]], amount=amount)
    each = ", ".join(f"{names[i]} {gains[i]:+d}" if signed else f"{names[i]} {gains[i]}" for i in changed)
    return say("{each} VP", each=each)


def last_entry(
    system: Any, pack: Pack, state: Any, events: Sequence[dict[str, Any]], names: Sequence[str]
) -> LastEntry:
    """The line about the latest entry of ``events`` (the stored log ``state`` folds) and the
    Undo of the last entry in force. A seated system's ``visible_event`` keeps secrets out of
    the words."""
    if not events:
        return LastEntry(None, None, None)
    count = len(names)

    secrets = systems.seats(system)

    def seen(event: dict[str, Any]) -> dict[str, Any]:
        return secrets.visible_event(event, None, state) if secrets is not None else event

    def before(without: Sequence[dict[str, Any]]) -> Any:
        return log.replay(system, pack, state.setup, without)

    by_id = {e.get("id"): e for e in events}
    latest = events[-1]
    line = None
    if latest.get("type") == "undo":
        target = by_id.get(latest.get("event"))
        if target is not None:
            words = said(seen(target), names, pack, system)
            undone = before(events[:-1])
            vp = _vp_words(_gain(state.vp, undone.vp, count), names, words.player, signed=False)
            line = (
                say("Undone: {entry} ({vp})", entry=words.noun, vp=vp)
                if vp
                else say("Undone: {entry}", entry=words.noun)
            )
    elif latest.get("id") in state.effective:
        words = said(seen(latest), names, pack, system)
        earlier = before(events[:-1])
        vp = _vp_words(_gain(earlier.vp, state.vp, count), names, words.player, signed=True)
        line = say("{entry}: {vp}", entry=words.sentence, vp=vp) if vp else words.sentence
    if line:
        line = line[:1].upper() + line[1:]
    undo_event = state.effective[-1] if state.effective else None
    undo_label = None
    if undo_event is not None:
        target = by_id.get(undo_event)
        if target is not None:
            words = said(seen(target), names, pack, system)
            taken = before([*events, {"id": "undo", "type": "undo", "event": undo_event}])
            vp = _vp_words(_gain(taken.vp, state.vp, count), names, words.player, signed=False)
            undo_label = (
                say("Undo {entry} ({vp})", entry=words.noun, vp=vp)
                if vp
                else say("Undo {entry}", entry=words.noun)
            )
    return LastEntry(line, undo_event, undo_label)
