"""The console's language, chosen from the terminal's settings as gettext chooses."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.console_language import catalogue, choose, shipped
from app.rules.speech import say, speaking

SHIPPED = ("de", "fr")


@pytest.mark.parametrize(
    ("environ", "chosen"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "fr_FR"}, "fr"),
        ({"LANG": "de_AT.UTF-8@euro"}, "de"),  # a country Muster has no catalogue of: its language
        ({"LANG": "fr-CA"}, "fr"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "pl_PL.UTF-8"}, "en"),  # a language Muster does not speak yet
        ({}, "en"),
        # LANGUAGE outranks the locale, and in it the first language Muster speaks wins.
        ({"LANGUAGE": "fr:de", "LANG": "de_DE.UTF-8"}, "fr"),
        ({"LANGUAGE": "pl:de_DE:fr", "LANG": "fr_FR.UTF-8"}, "de"),
        ({"LANGUAGE": "en:de", "LANG": "de_DE.UTF-8"}, "en"),  # English is spoken without a catalogue
        # Then LC_ALL, LC_MESSAGES and LANG, in that order; an empty one does not count.
        ({"LANGUAGE": "", "LC_ALL": "fr_FR.UTF-8", "LC_MESSAGES": "de_DE", "LANG": "de_DE"}, "fr"),
        ({"LC_MESSAGES": "de_DE.UTF-8", "LANG": "fr_FR.UTF-8"}, "de"),
        ({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, "en"),
    ],
)
def test_the_console_speaks_the_language_the_terminal_asks_for(environ: dict[str, str], chosen: str) -> None:
    assert choose(environ, SHIPPED) == chosen


def test_only_a_shipped_catalogue_is_chosen() -> None:
    assert set(SHIPPED) <= set(shipped())
    assert choose({"LANG": "de_DE.UTF-8"}, ("fr",)) == "en"


def test_the_catalogue_says_the_console_sentences_in_that_language() -> None:
    with speaking(catalogue({"LANG": "de_DE.UTF-8"})):
        assert say("{path} is not a file.", path="/x.sqlite") == "/x.sqlite ist keine Datei."
    with speaking(catalogue({"LANG": "fr_FR.UTF-8"})):
        assert say("{path} is not a file.", path="/x.sqlite") == "/x.sqlite n'est pas un fichier."
    with speaking(catalogue({"LANG": "C.UTF-8"})):
        assert say("{path} is not a file.", path="/x.sqlite") == "/x.sqlite is not a file."


def test_with_no_catalogue_begun_sentences_are_english(tmp_path: Path) -> None:
    assert say("{path} is not a file.", path="/x.sqlite") == "/x.sqlite is not a file."
    # A folder without catalogues (an installed copy without them) speaks English too.
    with speaking(catalogue({"LANG": "de_DE.UTF-8"}, folder=tmp_path)):
        assert say("{path} is not a file.", path="/x.sqlite") == "/x.sqlite is not a file."
