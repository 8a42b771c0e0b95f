"""Triumph & Treachery's entries in the words of the table (the registry's ``words``:
app/rules/entry_words.py): deals, ploys, picks of an enemy, units destroyed, roll-offs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.rules.entry_words import Said, player_of, who
from app.rules.pack import Pack

# A ploy bought, discarded or gained: what the player did, and the entry's name.
_PLOY_ENTRIES = {
    "buy": ("bought a ploy", "ploy bought"),
    "discard": ("discarded a ploy", "ploy discarded"),
    "bonus_ploy": ("gained a bonus ploy", "bonus ploy"),
}


def _ploy(pack: Pack, ploy_id: Any) -> str:
    rules = pack.sections.get("treachery")
    found = rules.ploy(ploy_id) if rules is not None and isinstance(ploy_id, str) else None
    return found.name if found else "a ploy"


def said(event: dict[str, Any], names: Sequence[str], pack: Pack) -> Said | None:
    """A Triumph & Treachery entry in words (a secret ploy stays "a ploy"); ``None`` for the
    entries every system shares."""
    kind = event.get("type")
    player = player_of(event, names)
    name = who(names, player)
    actor = name or "A player"
    own = f"{name}'s " if name else "the "
    round_ = event.get("round")
    in_round = f", round {round_}" if isinstance(round_, int) else ""
    if kind == "roll_off":
        nxt = who(names, event.get("next"))
        return Said(
            f"the roll-off{in_round}", "Roll-off recorded" + (f": {nxt} goes next" if nxt else ""), None
        )
    if kind == "deal":
        to = who(names, event.get("to")) or "another player"
        gives = [
            f"{event['cp']} CP" if event.get("cp") else "",
            f"{event['vp']} VP" if event.get("vp") else "",
        ]
        if event.get("ploy") or event.get("hidden"):
            gives.append("a ploy")
        given = " and ".join(g for g in gives if g) or "nothing"
        return Said(f"{own}deal with {to}", f"{actor} deals {to} {given}", player)
    if kind == "play":
        ploy = _ploy(pack, event.get("ploy"))
        return Said(f"{own}{ploy}", f"{actor} plays {ploy}", player)
    if kind in _PLOY_ENTRIES:
        verb, noun = _PLOY_ENTRIES[kind]
        return Said(f"{own}{noun}{in_round}", f"{actor} {verb}", player)
    if kind == "enemy":
        enemy = who(names, event.get("enemy"))
        return Said(
            f"{own}pick of an enemy{in_round}", f"{actor} picks {enemy or 'an enemy'} as the enemy", player
        )
    if kind == "destroyed":
        owner = who(names, event.get("owner"))
        unit = event.get("unit") if isinstance(event.get("unit"), str) else "unit"
        whose = f"{owner}'s" if owner else "a"
        return Said(f"{whose} {unit} destroyed", f"{actor} destroyed {whose} {unit}", player)
    return None
