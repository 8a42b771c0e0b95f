"""A siege's entries in the words of the table (the registry's ``words``: app/rules/entry_words.py)."""

from __future__ import annotations

from app.rules.entry_words import named

# What a siege's entries are called at the table, each said the usual way ("Ann's ... recorded").
said = named(
    {
        "siege_tactic": "siege tactic",
        "tunnel_party": "tunnelling party",
        "relief_roll": "relief force roll",
        "relief_edge": "relief force's edge",
        "batter": "battering",
        "starve": "starving",
        "repick": "new pick",
    }
)
