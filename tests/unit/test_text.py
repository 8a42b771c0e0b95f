"""Names and notes as players type them: control and direction characters go."""

from __future__ import annotations

import pytest

from app.rules.text import clean_text


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("Saurus Guard", "Saurus Guard"),
        ("  Saurus   Guard  ", "Saurus Guard"),
        # U+202E would show "drauG" to the other player; the override is dropped, the text kept.
        ("Guard\u202edraug", "Guarddraug"),
        ("a\u202ab\u202bc\u202cd\u202de", "abcde"),
        ("a\u2066b\u2067c\u2068d\u2069e", "abcde"),
        ("a\u200eb\u200fc\u061cd", "abcd"),
        # C0 and C1 controls and DEL go; a tab or line break in a name is a space.
        ("Lord\x00\x07\x1b[31m\x7f\x85Kroak", "Lord[31m Kroak"),
        ("Lord\u0080\u009fKroak", "LordKroak"),
        ("Lord\tKroak\nthe\r\nOld\u2028One", "Lord Kroak the Old One"),
        ("\u202e\x00 ", ""),
        # Letters of every script stay, joiners in emoji too.
        ("Ünd 漢字 עברית 👩\u200d👩\u200d👧", "Ünd 漢字 עברית 👩\u200d👩\u200d👧"),
    ],
)
def test_names(typed, kept):
    assert clean_text(typed) == kept


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("Spells:\n\tFireball", "Spells:\n\tFireball"),
        ("one\r\ntwo\rthree", "one\ntwo\nthree"),
        ("art\u202eefact\x00\x1b", "artefact"),
        ("one\u2028two", "one\ntwo"),
        ("  padded  \n", "padded"),
    ],
)
def test_notes_keep_tabs_and_line_breaks(typed, kept):
    assert clean_text(typed, notes=True) == kept
