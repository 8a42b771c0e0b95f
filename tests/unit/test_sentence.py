"""A sentence a kept game holds (app/rules/systems/turns/sentence.py) is said in each reader's
language, however often and in whatever order the languages ask for it."""

from __future__ import annotations

from app.console_language import catalogue
from app.rules.speech import speaking
from app.rules.systems.turns.sentence import Sentence


def test_a_sentence_said_once_is_said_again_in_the_next_readers_language() -> None:
    award = Sentence("Controls {count} or more objectives", count=Sentence("two"))
    german, french = catalogue({"LANG": "de_DE.UTF-8"}), catalogue({"LANG": "fr_FR.UTF-8"})
    heard = []
    for spoken in (german, german, french, None, german):
        if spoken is None:
            heard.append(award.said())
            continue
        with speaking(spoken):
            heard.append(award.said())
    assert heard == [
        "Kontrolliert zwei oder mehr Missionsziele",
        "Kontrolliert zwei oder mehr Missionsziele",
        "Contrôle deux objectifs ou plus",
        "Controls two or more objectives",
        "Kontrolliert zwei oder mehr Missionsziele",
    ]
    assert award == "Controls two or more objectives"  # the API's JSON writes the English string
