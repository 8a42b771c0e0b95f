"""The sentences Muster says (refusals, verdicts, the words of an entry), in the reader's language.

The rules stay plain functions of their data: a sentence is written in English with named
blanks, ``say("{name} must be {allowed}.", name=..., allowed=...)``, and said in the language
the web layer chose for the request (:func:`speaking`). Outside a request (a test, a script, a
replay in the background) it is said in English; `python -m app` says it in the terminal's
language (app/console_language.py). `make translations` extracts every ``say``,
``say_plural``, ``words`` and ``plural_words`` into the catalogues (docs/translating.md). A
pack's own words are :func:`told` the same way, from the translations the packs give
(app/rules/pack_translations.py).
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar, Token
from dataclasses import dataclass
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any, overload

from babel import Locale
from babel.dates import format_date, format_datetime
from babel.numbers import format_decimal

#: The source sentences as they are written: English, no catalogue.
ENGLISH = gettext.NullTranslations()
_LANGUAGE = re.compile(r"^Language: ([A-Za-z_-]+)", re.MULTILINE)
_NOTHING_TOLD: Mapping[str, str] = MappingProxyType({})
_catalogue: ContextVar[gettext.NullTranslations] = ContextVar("muster_catalogue", default=ENGLISH)
# The packs' own words in the reader's language: English text to translation (app/rules/pack_translations.py).
_told: ContextVar[Mapping[str, str]] = ContextVar("muster_told", default=_NOTHING_TOLD)


def say(sentence: str, /, **blanks: Any) -> str:
    """``sentence`` in the reader's language, its ``{blanks}`` filled in."""
    said = _catalogue.get().gettext(sentence)
    return said.format(**blanks) if blanks else said


def say_plural(one: str, many: str, count: int, /, **blanks: Any) -> str:
    """The sentence for ``count`` things (``one`` or ``many`` in English; as many forms as the
    reader's language has), ``{count}`` and the other blanks filled in."""
    said = _catalogue.get().ngettext(one, many, count)
    return said.format(count=count, **blanks)


def language() -> str:
    """The code of the language sentences are said in now ("en" outside a request)."""
    # The catalogue's header names its language (a merged catalogue keeps no other record of it).
    found = _LANGUAGE.search(_catalogue.get().gettext(""))
    return found.group(1) if found else "en"


def number(value: float | None, /, locale: Locale | str | None = None) -> str:
    """A number in a sentence, written the reader's way (1,000; 1.000; 1 000); none as nothing.
    ``locale``: the language to write it in, else the one sentences are said in now."""
    return "" if value is None else format_decimal(value, locale=locale or language())


def signed(value: float, /, locale: Locale | str | None = None) -> str:
    """A modifier with its sign, written the reader's way (+1, -2)."""
    return ("+" if value > 0 else "") + number(value, locale)


def _moment(value: str | datetime) -> datetime:
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(value)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def when(value: str | datetime | None, /, locale: Locale | str | None = None) -> str:
    """A stored moment (ISO text or datetime, UTC) as the reader's language writes a date and
    time (Muster's clocks are UTC)."""
    return (
        "" if not value else format_datetime(_moment(value), "short", tzinfo=UTC, locale=locale or language())
    )


def day(value: str | datetime | None, /, locale: Locale | str | None = None) -> str:
    """A stored moment's day as the reader's language writes it (Dec 3, 2026; 03.12.2026)."""
    return (
        ""
        if not value
        else format_date(_moment(value).astimezone(UTC), "medium", locale=locale or language())
    )


def listed(items: list[str], either: bool = False) -> str:
    """Names in a sentence, joined as the reader's language joins them: "A, B and C"
    (``either``: "A, B or C")."""
    if len(items) <= 1:
        return "".join(items)
    some, last = ", ".join(items[:-1]), items[-1]
    if either:
        return say("{some} or {last}", some=some, last=last)
    return say("{some} and {last}", some=some, last=last)


def words(sentence: str, /) -> str:
    """``sentence`` as it is, marked for `make translations` where a table holds it (the gettext
    "noop" idiom); :func:`say` says it when its blanks are known."""
    return sentence


def plural_words(one: str, many: str, /) -> tuple[str, str]:
    """``one`` and ``many`` as they are, marked for `make translations` where a table holds them
    (the gettext "noop" idiom); :func:`say_plural` says them when a count is known."""
    return one, many


@overload
def told(text: str, /) -> str: ...
@overload
def told(text: None, /) -> None: ...
def told(text: str | None, /) -> str | None:
    """A pack's own-words text (a summary, a reminder, a hint) in the reader's language where the
    pack gives a translation of it; as the pack wrote it otherwise (and ``None`` as ``None``).
    Names from the books are never passed through here: they stay as the pack gives them."""
    if not text:
        return text
    return _told.get().get(text, text)


def catalogue() -> gettext.NullTranslations:
    """The catalogue sentences are said from now (print templates take their words from it too)."""
    return _catalogue.get()


@dataclass(frozen=True)
class Spoken:
    """What :func:`begin` changed, for :func:`end` to put back."""

    catalogue: Token[gettext.NullTranslations]
    told: Token[Mapping[str, str]]


@contextmanager
def speaking(catalogue: gettext.NullTranslations, told: Mapping[str, str] | None = None) -> Iterator[None]:
    """Say every sentence inside the block from ``catalogue`` (a request's language), and the
    packs' own words from ``told`` (English text to translation; none: as the packs wrote them)."""
    spoken = begin(catalogue, told)
    try:
        yield
    finally:
        end(spoken)


def begin(catalogue: gettext.NullTranslations, told: Mapping[str, str] | None = None) -> Spoken:
    """Say the sentences from ``catalogue``, and the packs' own words from ``told``, until
    :func:`end` (a request, start to teardown)."""
    return Spoken(_catalogue.set(catalogue), _told.set(_NOTHING_TOLD if told is None else told))


def end(spoken: Spoken) -> None:
    """Say them as before :func:`begin` gave back ``spoken``."""
    _told.reset(spoken.told)
    _catalogue.reset(spoken.catalogue)
