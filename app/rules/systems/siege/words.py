"""A siege's entries in the words of the table (the registry's ``words``: app/rules/entry_words.py)."""

from __future__ import annotations

from app.rules.entry_words import named
from app.rules.speech import words

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


# Each said when it is read, in the reader's language.
said = named(_KINDS)
