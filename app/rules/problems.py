"""What went wrong, in one shape: a rule, one plain sentence, and optionally where.

Refusals of events, roster and terrain verdicts, pack errors and misplaced map items all
say the same three things; each caller adds the fields its answer has always carried
(``entry`` for a roster, ``pieces`` for terrain) on top of this shape.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from app.rules.speech import say, say_plural
from app.rules.text import clean_text

# A key a client sent is named back in a refusal; anything that is not a plain field name
# (a line break, a control, a long run) is quoted and cut so the sentence stays one line.
_PLAIN = re.compile(r"[A-Za-z0-9_.\-\[\]']{1,40}")


@dataclass(frozen=True)
class Problem:
    """One broken rule: its id, a sentence a player can act on, and where it is."""

    rule: str
    message: str
    where: Any = None

    def as_dict(self, where: str = "where") -> dict[str, Any]:
        """As the API answers it; ``where`` names the field (a roster's verdict calls it ``entry``)."""
        out: dict[str, Any] = {"rule": self.rule, "message": self.message}
        if self.where is not None:
            out[where] = self.where
        return out

    def __str__(self) -> str:
        return self.message

    @classmethod
    def refusal(cls, message: str, conflict: bool = False) -> Problem:
        """A request refused: ``conflict`` when it clashes with what is stored (a 409, not a 422)."""
        return cls("conflict" if conflict else "refused", message)

    @property
    def conflict(self) -> bool:
        return self.rule == "conflict"


def field_name(key: object) -> str:
    """``key`` as a refusal names it: plain names as they are, anything else quoted and cut."""
    text = str(key)
    if _PLAIN.fullmatch(text):
        return text
    shown = clean_text(text)[:40]
    return repr(shown)


def checked_field(path: str, error: dict[str, Any]) -> str:
    """One sentence for a pydantic error of a roster's or a terrain piece's field (``path``), in
    the reader's language: the common kinds in Muster's words, a validator's own sentence (said
    when it was raised) after the field's name, anything else in pydantic's words."""
    kind, limits = error.get("type", ""), error.get("ctx") or {}
    if kind == "missing":
        return say("{field} is missing.", field=path)
    if kind == "extra_forbidden":
        return say("{field} is not a field Muster takes here.", field=path)
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return say("{field} must be a whole number.", field=path)
    if kind in ("string_type",):
        return say("{field} must be text.", field=path)
    if kind in ("bool_type", "bool_parsing"):
        return say("{field} must be true or false.", field=path)
    if kind in ("list_type",):
        return say("{field} must be a list.", field=path)
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return say("{field} must be an object.", field=path)
    if kind == "greater_than_equal" and "ge" in limits:
        return say("{field} must be at least {least}.", field=path, least=limits["ge"])
    if kind == "less_than_equal" and "le" in limits:
        return say("{field} must be at most {most}.", field=path, most=limits["le"])
    if kind == "literal_error" and "expected" in limits:
        return say("{field} must be {allowed}.", field=path, allowed=limits["expected"])
    if kind in ("float_type", "float_parsing", "finite_number", "decimal_type", "decimal_parsing"):
        return say("{field} must be a number.", field=path)
    if kind == "greater_than" and "gt" in limits:
        return say("{field} must be more than {least}.", field=path, least=limits["gt"])
    if kind == "less_than" and "lt" in limits:
        return say("{field} must be less than {most}.", field=path, most=limits["lt"])
    if kind == "string_too_short" and limits.get("min_length") == 1:
        return say("{field} must not be empty.", field=path)
    if kind == "string_too_short" and "min_length" in limits:
        return say_plural(
            "{field} must be at least {count} character long.",
            "{field} must be at least {count} characters long.",
            int(limits["min_length"]),
            field=path,
        )
    if kind == "string_too_long" and "max_length" in limits:
        return say_plural(
            "{field} must be at most {count} character long.",
            "{field} must be at most {count} characters long.",
            int(limits["max_length"]),
            field=path,
        )
    if kind == "too_short" and "min_length" in limits:
        return say_plural(
            "{field} must hold at least {count} item.",
            "{field} must hold at least {count} items.",
            int(limits["min_length"]),
            field=path,
        )
    if kind == "too_long" and "max_length" in limits:
        return say_plural(
            "{field} must hold at most {count} item.",
            "{field} must hold at most {count} items.",
            int(limits["max_length"]),
            field=path,
        )
    if kind == "string_pattern_mismatch":
        return say("{field} is not written the way Muster takes it.", field=path)
    if kind == "enum" and "expected" in limits:
        return say("{field} must be {allowed}.", field=path, allowed=limits["expected"])
    return say(
        "{field}: {problem}.", field=path, problem=str(error.get("msg", "")).removeprefix("Value error, ")
    )
