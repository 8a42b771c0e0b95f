"""A siege's entries in the words of the table (the registry's ``words``: app/rules/entry_words.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.rules.entry_words import Said, recorded
from app.rules.speech import say, words

# What a siege's entries are called at the table, each said the usual way ("Ann's ... recorded").
_KINDS = {
    "siege_tactic": words("siege tactic"),
    "tunnel_party": words("tunnelling party"),
    "relief_roll": words("relief force roll"),
    "relief_edge": words("relief force's edge"),
    "batter": words("battering"),
    "starve": words("starving"),
    "repick": words("new pick"),
    # Said as their type reads, in the reader's language too.
    "tunnel": words("tunnel"),
    "contingents": words("contingents"),
    "objective": words("objective"),
}


def said(event: dict[str, Any], names: Sequence[str], pack: Any) -> Said | None:
    """The entry said the usual way, its name in the reader's language (said when it is read)."""
    kind = event.get("type")
    if not isinstance(kind, str) or kind not in _KINDS:
        return None
    return recorded(event, names, say(_KINDS[kind]))
