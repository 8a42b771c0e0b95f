"""A sentence a game's state keeps (what an award scored, why the game ended), said when read.

A state is folded once and kept between requests (app/services/replays.py), whatever the
language of the request that folded it; so it keeps its sentences in English with their
blanks, and each page says them in its reader's language. The English text is the string
itself: the API, the logs and any code that reads it as a plain string see what they always
saw. A page or a print shows :meth:`Sentence.said` (``str()`` and Jinja's ``__html__``).
"""

from __future__ import annotations

from typing import Any

from markupsafe import escape

from app.rules.speech import catalogue, say, say_plural


def _english(value: Any) -> Any:
    return str.__str__(value) if isinstance(value, Sentence) else value


def _said(value: Any) -> Any:
    return value.said() if isinstance(value, Sentence) else value


class Sentence(str):
    """``sentence`` with its ``{blanks}`` filled in, in English as a string, in the reader's
    language through :meth:`said` (a blank may be a sentence too)."""

    sentence: str
    many: str | None
    count: int | None
    blanks: dict[str, Any]
    # The sentence as last said and the catalogue it was said from: a kept game's every award
    # is said again for each answer about it (each event POST's summary, each page).
    _said: tuple[Any, str] | None = None

    def __new__(cls, sentence: str, /, **blanks: Any) -> Sentence:
        made = super().__new__(cls, sentence.format(**{k: _english(v) for k, v in blanks.items()}))
        made.sentence, made.many, made.count, made.blanks = sentence, None, None, blanks
        return made

    @classmethod
    def plural(cls, one_and_many: tuple[str, str], count: int, /, **blanks: Any) -> Sentence:
        """The sentence for ``count`` things (``one_and_many``: from ``plural_words``)."""
        one, many = one_and_many
        made = cls((one if count == 1 else many), count=count, **blanks)
        made.sentence, made.many, made.count = one, many, count
        made.blanks = blanks
        return made

    def said(self) -> str:
        """The sentence in the reader's language (app/rules/speech.py)."""
        spoken = catalogue()
        kept = self._said
        if kept is not None and kept[0] is spoken:
            return kept[1]
        blanks = {k: _said(v) for k, v in self.blanks.items()}
        if self.many is not None and self.count is not None:
            text = say_plural(self.sentence, self.many, self.count, **blanks)
        else:
            text = say(self.sentence, **blanks)
        self._said = (spoken, text)  # a sentence never changes: only the reader's language may
        return text

    def __str__(self) -> str:
        # A page or a print that writes it out (``{{ award.rule }}``, with or without
        # autoescape) reads it in its reader's language; JSON writes the English string.
        return self.said()

    def __html__(self) -> str:
        return str(escape(self.said()))


def said(text: Any) -> Any:
    """``text`` in the reader's language when it is a :class:`Sentence`; else as it is."""
    return _said(text)
