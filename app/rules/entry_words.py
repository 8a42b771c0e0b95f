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


def _who(names: Sequence[str], value: Any) -> str | None:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
        return names[value]
    return None


def _ploy(pack: Pack, ploy_id: Any) -> str:
    rules = pack.treachery
    found = rules.ploy(ploy_id) if rules is not None and isinstance(ploy_id, str) else None
    return found.name if found else "a ploy"


# What the other kinds of entry are called at the table (a kind not listed: its name in words).
_KINDS = {
    "siege_tactic": "siege tactic",
    "tunnel_party": "tunnelling party",
    "relief_roll": "relief force roll",
    "relief_edge": "relief force's edge",
    "batter": "battering",
    "starve": "starving",
    "tame": "taming of the beast",
    "denizen": "denizen roll",
    "denizen_attack": "attack on the denizen",
    "battle_result": "battle result",
    "unstable": "unstable tunnel roll",
    "repick": "new pick",
}


def _words(kind: str) -> str:
    return _KINDS.get(kind, kind.replace("_", " "))


def said(event: dict[str, Any], names: Sequence[str], pack: Pack) -> Said:
    """The event (as anyone may see it) in words: what it is, and that it was recorded."""
    kind = str(event.get("type", ""))
    round_ = event.get("round")
    in_round = f", round {round_}" if isinstance(round_, int) else ""
    player = next(
        (event[k] for k in ("player", "by", "from") if _who(names, event.get(k)) is not None),
        None,
    )
    who = _who(names, player)
    own = f"{who}'s " if who else "the "
    if kind == "turn":
        return Said(f"{own}turn{in_round}", f"{own}turn recorded", player)
    if kind == "battle_round":
        first = _who(names, event.get("first"))
        tail = f": {first} goes first" if first else ""
        return Said(f"the start of round {round_}", f"Round {round_} started{tail}", None)
    if kind == "round":
        return Said(f"round {round_}'s Victory Phase", f"Round {round_}'s Victory Phase recorded", None)
    if kind == "roll":
        dice = ", ".join(str(d) for d in event.get("results", []) if isinstance(d, int))
        purpose = (
            f" for {event['purpose']}" if isinstance(event.get("purpose"), str) and event["purpose"] else ""
        )
        return Said(f"the dice roll{purpose}", f"Dice rolled{purpose}: {dice}", None)
    if kind == "roll_off":
        nxt = _who(names, event.get("next"))
        return Said(
            f"the roll-off{in_round}", "Roll-off recorded" + (f": {nxt} goes next" if nxt else ""), None
        )
    if kind == "deal":
        to = _who(names, event.get("to")) or "another player"
        gives = [
            f"{event['cp']} CP" if event.get("cp") else "",
            f"{event['vp']} VP" if event.get("vp") else "",
        ]
        if event.get("ploy") or event.get("hidden"):
            gives.append("a ploy")
        given = " and ".join(g for g in gives if g) or "nothing"
        return Said(f"{own}deal with {to}", f"{who or 'A player'} deals {to} {given}", player)
    if kind == "play":
        ploy = _ploy(pack, event.get("ploy"))
        return Said(f"{own}{ploy}", f"{who or 'A player'} plays {ploy}", player)
    if kind in ("buy", "discard", "bonus_ploy"):
        verb = {"buy": "bought a ploy", "discard": "discarded a ploy", "bonus_ploy": "gained a bonus ploy"}[
            kind
        ]
        noun = {"buy": "ploy bought", "discard": "ploy discarded", "bonus_ploy": "bonus ploy"}[kind]
        return Said(f"{own}{noun}{in_round}", f"{who or 'A player'} {verb}", player)
    if kind == "enemy":
        enemy = _who(names, event.get("enemy"))
        return Said(
            f"{own}pick of an enemy{in_round}",
            f"{who or 'A player'} picks {enemy or 'an enemy'} as the enemy",
            player,
        )
    if kind == "destroyed":
        owner = _who(names, event.get("owner"))
        unit = event.get("unit") if isinstance(event.get("unit"), str) else "unit"
        whose = f"{owner}'s" if owner else "a"
        return Said(f"{whose} {unit} destroyed", f"{who or 'A player'} destroyed {whose} {unit}", player)
    if kind == "end":
        if who:
            return Said(f"{who}'s end of the battle", f"{who}'s end of the battle recorded", player)
        return Said("the end of the battle", "The end of the battle recorded", None)
    base = f"{own}{_words(kind)}"
    return Said(base + in_round, f"{base[:1].upper()}{base[1:]} recorded", player)


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
        return amount + " VP" if changed == [player] else f"{names[changed[0]]} {amount} VP"
    return (
        ", ".join(f"{names[i]} {gains[i]:+d}" if signed else f"{names[i]} {gains[i]}" for i in changed)
        + " VP"
    )


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
            words = said(seen(target), names, pack)
            undone = before(events[:-1])
            vp = _vp_words(_gain(state.vp, undone.vp, count), names, words.player, signed=False)
            line = f"Undone: {words.noun}" + (f" ({vp})" if vp else "")
    elif latest.get("id") in state.effective:
        words = said(seen(latest), names, pack)
        earlier = before(events[:-1])
        vp = _vp_words(_gain(earlier.vp, state.vp, count), names, words.player, signed=True)
        line = words.sentence + (f": {vp}" if vp else "")
    if line:
        line = line[:1].upper() + line[1:]
    undo_event = state.effective[-1] if state.effective else None
    undo_label = None
    if undo_event is not None:
        target = by_id.get(undo_event)
        if target is not None:
            words = said(seen(target), names, pack)
            taken = before([*events, {"id": "undo", "type": "undo", "event": undo_event}])
            vp = _vp_words(_gain(taken.vp, state.vp, count), names, words.player, signed=False)
            undo_label = f"Undo {words.noun}" + (f" ({vp})" if vp else "")
    return LastEntry(line, undo_event, undo_label)
