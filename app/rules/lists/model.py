"""What a list reader gives back: plain data, the same whatever tool wrote the list.

A reader turns a list's text into a :class:`Reading`: the army's own fields, the units with
what the list says of each, and every line it could not place (``unread``), with its number,
so that nothing is dropped silently. Placing the units in a pack's roster is
app/rules/matching.py's work.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# The games a list can be for; a pack's army system plays one of them.
GAMES = {
    "aos": "Age of Sigmar",
    "conquest": "Conquest",
    "old-world": "The Old World",
}


@dataclass(frozen=True)
class Line:
    """One line of the list as it was sent: its number (from 1) and its text."""

    number: int
    text: str

    def as_dict(self) -> dict[str, object]:
        return {"line": self.number, "text": self.text}


@dataclass
class Unit:
    """One entry the list names: a unit, battalion, endless spell, terrain, regiment, officer."""

    name: str
    points: int
    line: int
    kind: str = "unit"
    roles: list[str] = field(default_factory=list)
    models: int | None = None
    size: str = "minimum"
    general: bool = False
    ally: bool = False
    coalition: bool = False
    single_model: bool = False
    command_trait: str | None = None
    enhancements: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    faction: str | None = None
    # Conquest: the regiment type, and the officers and retinue models bought with it.
    regiment_type: str | None = None
    officers: list[Unit] = field(default_factory=list)
    retinue: list[Unit] = field(default_factory=list)
    # The Old World: the list's section (characters, core, special, rare, ...).
    category: str | None = None


@dataclass
class Reading:
    """A list as read: its format, game, the army's fields, its units and its unread lines."""

    format: str
    game: str | None = None
    name: str | None = None
    faction: str | None = None
    subfaction: str | None = None
    grand_strategy: str | None = None
    grand_strategy_line: Line | None = None
    points_limit: int | None = None
    # A general named in the header ("General: Name") rather than on the unit.
    general_name: str | None = None
    triumph: str | None = None
    # Header fields read but not kept (a roster has no place for them), listed for the player.
    dropped: list[Line] = field(default_factory=list)
    # Which header gave the subfaction: a "Subfaction" header wins over an "Army Type".
    subfaction_key: str | None = None
    subfaction_line: Line | None = None
    units: list[Unit] = field(default_factory=list)
    unread: list[Line] = field(default_factory=list)


def split_lines(text: str) -> list[Line]:
    """The text's lines, numbered from 1; any line ending (Windows, old Mac) counts as one."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return [Line(i, line.rstrip()) for i, line in enumerate(text.split("\n"), start=1)]


_NUMBER = re.compile(r"\d[\d,. ]*")


def whole(text: str) -> int | None:
    """A points figure as lists write it ("2,000", "1 985", "190", "2000.0"), or ``None``."""
    text = text.strip().replace(",", "").replace(" ", "")
    if text.endswith(".0"):
        text = text[:-2]
    return int(text) if text.isdigit() and len(text) <= 7 else None


_BULLET = re.compile(r"^[\-\u2013\u2014\u2022\u00b7*]\s*+")


def unbullet(text: str) -> str:
    """A sub-line without its leading dash, en dash, bullet or dot."""
    return _BULLET.sub("", text.strip(), count=1).strip()


_BULLETED = re.compile(r"^\s*+[\-\u2013\u2014\u2022\u00b7]\s")


def is_bulleted(text: str) -> bool:
    """Whether the line is a sub-line ("- General", "– Reinforced x 1", "• Standard Bearer")."""
    return bool(_BULLETED.match(text))
