"""Tunnel Wars' entries in the words of the table (the registry's ``words``: app/rules/entry_words.py)."""

from __future__ import annotations

from app.rules.entry_words import named
from app.rules.speech import words

# What Tunnel Wars' entries are called at the table, each said the usual way ("Ann's ... recorded").
_KINDS = {
    "tame": words("taming of the beast"),
    "denizen": words("denizen roll"),
    "denizen_attack": words("attack on the denizen"),
    "battle_result": words("battle result"),
    "unstable": words("unstable tunnel roll"),
    "repick": words("new pick"),
    # Said as their type reads, in the reader's language too.
    "contingents": words("contingents"),
    "contingent": words("contingent"),
    "trap": words("trap"),
}


# Each said when it is read, in the reader's language.
said = named(_KINDS)
