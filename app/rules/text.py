"""What a player types, made safe to show to another player: one function, used everywhere.

A name typed on one phone is shown on the other player's phone, the club home, a print and
an export. Control characters there (a NUL, an escape, a C1 code) have no meaning to a
reader, and the Unicode direction controls (U+202E RIGHT-TO-LEFT OVERRIDE and its kin) can
make a name read backwards or hide what follows it on the line, so both go before a name is
checked or stored.
"""

from __future__ import annotations

# Embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) change how the rest of
# a line reads; the marks (U+200E, U+200F, U+061C) are invisible and only serve them.
_BIDI = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_CONTROLS = [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)]
_LINE_BREAKS = [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029]

_DROP = dict.fromkeys([*_BIDI, *_CONTROLS])
# In a name every break or tab is a space; in notes a tab and a line break stay.
_NAME = {**_DROP, **dict.fromkeys([0x09, *_LINE_BREAKS], " ")}
_NOTES = {**_DROP, 0x09: "\t", 0x0A: "\n", **dict.fromkeys([0x0B, 0x0C, 0x85, 0x2028, 0x2029], "\n")}


def clean_text(text: str, *, notes: bool = False) -> str:
    """``text`` without control characters or direction controls, trimmed.

    A name (the default) comes back on one line with runs of spaces made one; ``notes=True``
    keeps tabs and line breaks (a Windows ``\\r\\n`` becomes ``\\n``) and drops every other
    control.
    """
    if notes:
        return text.replace("\r\n", "\n").replace("\r", "\n").translate(_NOTES).strip()
    return " ".join(text.translate(_NAME).split())


def name_key(text: str) -> str:
    """What two names a player would read as the same share: "Dee", "dee " and "DEE" alike."""
    return clean_text(text).casefold()
