"""Warscroll Builder's list text (Age of Sigmar 3rd edition).

It opens with ``Allegiance:`` and ``- `` header fields, lists units under role headings
(Leaders, Battleline, Units, Behemoths, ...) as ``[N x ]Name (points)`` with ``- `` sub-lines
(``- General``, ``- Allies``, ``- Reinforced x 2``), and ends with ``Total: x / y`` and counts
of reinforced units, allies, wounds and drops.
"""

from __future__ import annotations

import re

from app.rules.lists import aos_common
from app.rules.lists.model import Reading, split_lines

FORMAT = "warscroll-builder"
_FOOTER = re.compile(
    r"^(?:reinforced units|allies|wounds|drops|created with warscroll builder)\b.*$|^https?://",
    re.IGNORECASE,
)
# Blanks within a line only ([^\S\n]): each line's try ends with its line.
_SIGNS = re.compile(r"^allegiance[^\S\n]*+:", re.IGNORECASE | re.MULTILINE)
_TOTAL = re.compile(r"^total[^\S\n]*+:[^\S\n]*+\d[\d,]*+[^\S\n]*+/[^\S\n]*+\d", re.IGNORECASE | re.MULTILINE)


def detect(text: str) -> bool:
    """Whether the text is a Warscroll Builder list."""
    return bool(_SIGNS.search(text[:400])) and (
        bool(_TOTAL.search(text)) or "warscroll builder" in text.lower()
    )


def read(text: str) -> Reading:
    """Read a Warscroll Builder list."""
    return aos_common.read_headings(Reading(format=FORMAT, game="aos"), split_lines(text), _FOOTER)
