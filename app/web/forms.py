"""Reading numbers typed into forms.

``str.isdigit()`` says yes to "²" and to a 5,000-digit string, both of which ``int()`` then
refuses with an error: every whole number from a form is read here instead.
"""

from __future__ import annotations

from collections.abc import Mapping

MAX_DIGITS = 9


def whole(raw: str | None, negative: bool = False) -> int | None:
    """The whole number typed (ASCII digits, at most nine, a minus sign if allowed), else ``None``."""
    if raw is None:
        return None
    text = raw.strip()
    digits = text.removeprefix("-") if negative else text
    if digits and len(digits) <= MAX_DIGITS and digits.isascii() and digits.isdecimal():
        return int(text)
    return None


def number(raw: str | None) -> int | None:
    """A whole number typed into a step form, negative allowed (the rules say what is in range)."""
    return whole(raw, negative=True)


def numbers_named(form: Mapping[str, str], prefix: str, skip_blank: bool = False) -> dict[str, int | None]:
    """The fields named ``<prefix>.<key>`` (``control.west-zone``), each read as ``number``, by key;
    with ``skip_blank``, a field left blank is left out rather than read as ``None``."""
    start = f"{prefix}."
    return {
        key.removeprefix(start): number(value)
        for key, value in form.items()
        if key.startswith(start) and not (skip_blank and not value.strip())
    }
