"""An entry said in one line (app/rules/entry_words.py): each kind of entry, worked by hand."""

from __future__ import annotations

import pytest

from app.rules import entry_words

NAMES = ["Ann", "Bo", "Cara"]
TOW = "tow-triumph-treachery"


@pytest.mark.parametrize(
    ("event", "noun", "sentence"),
    [
        ({"type": "turn", "round": 2, "player": 1}, "Bo's turn, round 2", "Bo's turn recorded"),
        (
            {"type": "battle_round", "round": 3, "first": 0},
            "the start of round 3",
            "Round 3 started: Ann goes first",
        ),
        ({"type": "round", "round": 4}, "round 4's Victory Phase", "Round 4's Victory Phase recorded"),
        (
            {"type": "play", "round": 1, "player": 2, "ploy": "surprise-attack"},
            "Cara's Surprise Attack",
            "Cara plays Surprise Attack",
        ),
        ({"type": "buy", "round": 1, "player": 0}, "Ann's ploy bought, round 1", "Ann bought a ploy"),
        (
            {"type": "deal", "round": 1, "from": 0, "to": 1, "cp": 5},
            "Ann's deal with Bo",
            "Ann deals Bo 5 CP",
        ),
        (
            {"type": "deal", "round": 1, "from": 2, "to": 0, "vp": 1, "hidden": True},
            "Cara's deal with Ann",
            "Cara deals Ann 1 VP and a ploy",
        ),
        (
            {"type": "destroyed", "round": 2, "by": 1, "owner": 2, "unit": "Knights"},
            "Cara's Knights destroyed",
            "Bo destroyed Cara's Knights",
        ),
        (
            {"type": "roll", "results": [3, 5], "purpose": "Priority"},
            "the dice roll for Priority",
            "Dice rolled for Priority: 3, 5",
        ),
        ({"type": "end", "player": 0}, "Ann's end of the battle", "Ann's end of the battle recorded"),
        (
            {"type": "tame", "round": 1, "player": 1},
            "Bo's taming of the beast, round 1",
            "Bo's taming of the beast recorded",
        ),
    ],
)
def test_an_entry_is_said_in_player_words(packs, event, noun, sentence):
    said = entry_words.said(event, NAMES, packs[TOW])
    assert (said.noun, said.sentence) == (noun, sentence)
    assert "None" not in said.sentence and "_" not in said.sentence
