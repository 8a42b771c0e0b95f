"""Tunnel Wars' entries in the words of the table (the registry's ``words``: app/rules/entry_words.py)."""

from __future__ import annotations

from app.rules.entry_words import named

# What Tunnel Wars' entries are called at the table, each said the usual way ("Ann's ... recorded").
said = named(
    {
        "tame": "taming of the beast",
        "denizen": "denizen roll",
        "denizen_attack": "attack on the denizen",
        "battle_result": "battle result",
        "unstable": "unstable tunnel roll",
        "repick": "new pick",
    }
)
