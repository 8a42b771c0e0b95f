"""A refusal's sentence as a screen shows it: the field it names in the player's words.

The rules name a field by its path in the JSON API (``players[0].markers_destroyed``), which is
what an API client needs. A player at the table reads the same sentence on the game screen and
beside an entry the phone kept: there the path becomes the fact's label from the game system
(``Markers Ann destroyed this round``). The API's answers keep the path.
"""

from __future__ import annotations

import re

from app.rules.speech import say
from app.services.games import Loaded

# A player's part of an event, and the fact in it: players[1].marker_wounds['marker-a'].
_PLAYER_PATH = re.compile(r"players\[(\d+)\]\.([a-z_]+)(?:\[[^\]]*\])?")
# A top-level field opening the sentence, before what is said of it (in any language: only a
# field the game system labels is replaced).
_LEADING_FIELD = re.compile(r"^([a-z_]+)(?:\[[^\]]*\])?(?=:| must | needs | names | is )")
_LEADING_NAME = re.compile(r"^([a-z_]+)(?:\[[^\]]*\])?(?= |:)")


def in_player_words(loaded: Loaded, message: str | None) -> str | None:
    """``message`` with each field path it names replaced by that fact's label for the player."""
    if not message:
        return message
    labels = {f.name: f.label for f in loaded.system.facts(loaded.pack, loaded.state.scenario)}
    names = [p.name for p in loaded.setup.players]

    def player_part(match: re.Match[str]) -> str:
        i, name = int(match.group(1)), match.group(2)
        who = names[i] if i < len(names) else say("player {number}", number=i + 1)
        label = labels.get(name, name.replace("_", " "))
        if "this player" in label.lower():
            return re.sub("(?i)this player", who, label, count=1)
        return f"{label} ({who})"

    message = _PLAYER_PATH.sub(player_part, message)
    message = players_named(message, names)
    field = _LEADING_FIELD.match(message) or _LEADING_NAME.match(message)
    if field and field.group(1) in labels:
        message = labels[field.group(1)] + message[field.end() :]
    return message


# How the API names a player or a thing, and how a screen does.
_PLAYER_INDEX = re.compile(
    r"(?:a player's index(?: in this game)?|the index of the player controlling it|"
    r"a whole number from 0 to \d+ \(the game's \d+ players\)),?(?: 0 to \d+)?"
    # An optional player in the API's words: left out, or none for nobody.
    r"(?P<none>, or (?:left out|none for nobody))?"
)
_NULL = re.compile(r",? or null(?: for nobody)?(?=\.|$)")
_IDS = (
    (
        "event must be the id of the last entry still in force: only the last entry can be undone.",
        "Only the last entry can be undone, and it has changed: the screen now shows it.",
    ),
    ("the id of a player of this event", "a player of this event"),
    ("the two player ids to swap", "the two players to swap"),
    ("each objective's id to", "each objective to"),
    ("each held objective's id to", "each held objective to"),
    ("different marker ids", "different markers"),
)


def players_named(message: str, names: list[str]) -> str:
    """``message`` with "a player's index, 0 to 2" said as the screen says it: by their names,
    and "null" as nobody."""
    listed = (
        say("{first} or {second}", first=", ".join(names[:-1]), second=names[-1]) if len(names) > 1 else ""
    )
    players = say("one of the players ({names})", names=listed or "".join(names)) if names else ""
    players = players or say("one of the players")
    message = _PLAYER_INDEX.sub(lambda m: players + (", or nobody" if m.group("none") else ""), message)
    # The same words as the rules said them in the reader's language.
    for last in range(len(names)):
        message = message.replace(say("a player's index in this game, 0 to {last}", last=last), players)
    for api, said in _IDS:
        message = message.replace(api, said)
    undo = say("event must be the id of the last entry still in force: only the last entry can be undone.")
    if message == undo:
        message = say("Only the last entry can be undone, and it has changed: the screen now shows it.")
    return _NULL.sub(", or nobody", message)


# A new game's set-up as the API names its fields (players[1].name, players[*].side).
_SETUP_PLAYER = re.compile(r"players\[(\d+)\]\.([a-z_]+)")
_SETUP_COUNT = re.compile(r"^players must be a list of ([0-9 to]+) players for [^.]+\.")
_SETUP_FIELDS = ("points_limit", "scenario", "pack")
# A set-up field opening a sentence in another language ("points_limit doit être…"): the field
# names stay English; the verbs after them do not.
_SETUP_LEADING = re.compile(r"^(points_limit|scenario|pack)(?= )")


def setup_in_player_words(message: str, what: str) -> str:
    """A refused new game's sentence as the new-game screen shows it: "Player 2's name", not
    ``players[1].name``; ``what`` names the scenario (or the game) a count refers to.

    The sentence comes in the page's language with the API's field names kept (docs/translating.md),
    so a field is found by its name at the start, whatever the language's verb after it."""
    message = _SETUP_COUNT.sub(lambda m: f"{what} is played by {m.group(1)} players.", message)
    message = _SETUP_PLAYER.sub(
        lambda m: _player_field(int(m.group(1)) + 1, m.group(2)) or m.group(0), message
    )
    message = message.replace("players[*].side", say("The players' sides"))
    field = _LEADING_FIELD.match(message) or _SETUP_LEADING.match(message)
    if field and field.group(1) in _SETUP_FIELDS:
        message = _setup_field(field.group(1)) + message[field.end() :]
    return message[:1].upper() + message[1:]


def _player_field(number: int, field: str) -> str | None:
    """A player's field of the set-up in the screen's words ("Player 2's name"), if it has any."""
    if field == "name":
        return say("Player {number}'s name", number=number)
    if field == "side":
        return say("Player {number}'s side", number=number)
    if field == "grand_strategy":
        return say("Player {number}'s grand strategy", number=number)
    return None


def _setup_field(field: str) -> str:
    """A set-up field opening a sentence, in the screen's words ("The points limit")."""
    said = {"points_limit": say("The points limit"), "scenario": say("The scenario"), "pack": say("The game")}
    return said[field]
