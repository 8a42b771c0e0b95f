"""Triumph & Treachery's entries in the words of the table (the registry's ``words``:
app/rules/entry_words.py): deals, ploys, picks of an enemy, units destroyed, roll-offs.

Each noun and sentence is said whole in the reader's language (a player's name, a round and a
ploy are its blanks), so a language orders them its own way."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.rules.entry_words import Said, player_of, who
from app.rules.pack import Pack
from app.rules.speech import say, words

# A ploy bought, discarded or gained: the entry's name (a player's, in a round) and what the
# player did; each said with a player's name or without one, with a round or without.
_PLOY_ENTRIES = {
    "buy": (
        words("{name}'s ploy bought, round {round}"),
        words("{name}'s ploy bought"),
        words("the ploy bought, round {round}"),
        words("the ploy bought"),
        words("{name} bought a ploy"),
        words("A player bought a ploy"),
    ),
    "discard": (
        words("{name}'s ploy discarded, round {round}"),
        words("{name}'s ploy discarded"),
        words("the ploy discarded, round {round}"),
        words("the ploy discarded"),
        words("{name} discarded a ploy"),
        words("A player discarded a ploy"),
    ),
    "bonus_ploy": (
        words("{name}'s bonus ploy, round {round}"),
        words("{name}'s bonus ploy"),
        words("the bonus ploy, round {round}"),
        words("the bonus ploy"),
        words("{name} gained a bonus ploy"),
        words("A player gained a bonus ploy"),
    ),
}


def _ploy(pack: Pack, ploy_id: Any) -> str:
    rules = pack.sections.get("treachery")
    found = rules.ploy(ploy_id) if rules is not None and isinstance(ploy_id, str) else None
    return found.name if found else say("a ploy")


def _pick(name: str | None, round_: Any) -> str:
    """The name of a pick of an enemy: whose, and in which round if it says."""
    if isinstance(round_, int):
        if name:
            return say("{name}'s pick of an enemy, round {round}", name=name, round=round_)
        return say("the pick of an enemy, round {round}", round=round_)
    return say("{name}'s pick of an enemy", name=name) if name else say("the pick of an enemy")


def _given(event: dict[str, Any]) -> str:
    """What a deal gives, as anyone may see it: a ploy given stays "a ploy"."""
    gives = [
        say("{cp} CP", cp=event["cp"]) if event.get("cp") else "",
        say("{vp} VP", vp=event["vp"]) if event.get("vp") else "",
        say("a ploy") if event.get("ploy") or event.get("hidden") else "",
    ]
    given = [g for g in gives if g]
    if not given:
        return say("nothing")
    if len(given) == 1:
        return given[0]
    return say("{some} and {last}", some=", ".join(given[:-1]), last=given[-1])


def said(event: dict[str, Any], names: Sequence[str], pack: Pack) -> Said | None:
    """A Triumph & Treachery entry in words (a secret ploy stays "a ploy"); ``None`` for the
    entries every system shares."""
    kind = event.get("type")
    player = player_of(event, names)
    name = who(names, player)
    round_ = event.get("round")
    numbered = isinstance(round_, int)
    if kind == "roll_off":
        nxt = who(names, event.get("next"))
        noun = say("the roll-off, round {round}", round=round_) if numbered else say("the roll-off")
        sentence = say("Roll-off recorded: {name} goes next", name=nxt) if nxt else say("Roll-off recorded")
        return Said(noun, sentence, None)
    if kind == "deal":
        to = who(names, event.get("to")) or say("another player")
        noun = say("{name}'s deal with {to}", name=name, to=to) if name else say("the deal with {to}", to=to)
        given = _given(event)
        sentence = (
            say("{name} deals {to} {given}", name=name, to=to, given=given)
            if name
            else say("A player deals {to} {given}", to=to, given=given)
        )
        return Said(noun, sentence, player)
    if kind == "play":
        ploy = _ploy(pack, event.get("ploy"))
        noun = say("{name}'s {ploy}", name=name, ploy=ploy) if name else say("the {ploy}", ploy=ploy)
        sentence = (
            say("{name} plays {ploy}", name=name, ploy=ploy)
            if name
            else say("A player plays {ploy}", ploy=ploy)
        )
        return Said(noun, sentence, player)
    if kind in _PLOY_ENTRIES:
        theirs_in, theirs, the_in, the, did, someone_did = _PLOY_ENTRIES[kind]
        if name:
            noun = say(theirs_in, name=name, round=round_) if numbered else say(theirs, name=name)
            return Said(noun, say(did, name=name), player)
        noun = say(the_in, round=round_) if numbered else say(the)
        return Said(noun, say(someone_did), player)
    if kind == "enemy":
        enemy = who(names, event.get("enemy"))
        if name:
            sentence = (
                say("{name} picks {enemy} as the enemy", name=name, enemy=enemy)
                if enemy
                else say("{name} picks an enemy", name=name)
            )
        else:
            sentence = (
                say("A player picks {enemy} as the enemy", enemy=enemy)
                if enemy
                else say("A player picks an enemy")
            )
        return Said(_pick(name, round_), sentence, player)
    if kind == "destroyed":
        owner = who(names, event.get("owner"))
        unit = event.get("unit") if isinstance(event.get("unit"), str) else say("unit")
        whose = say("{owner}'s {unit}", owner=owner, unit=unit) if owner else say("a {unit}", unit=unit)
        noun = say("{unit} destroyed", unit=whose)
        sentence = (
            say("{name} destroyed {unit}", name=name, unit=whose)
            if name
            else say("A player destroyed {unit}", unit=whose)
        )
        return Said(noun, sentence, player)
    return None
