"""The console's language: what `python -m app` says to the club's admin, in the terminal's language.

Chosen from the environment as gettext chooses: the first of ``LANGUAGE`` (a colon list),
``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set decides, and in it the first language
Muster ships a catalogue of (``de_DE.UTF-8`` is German, ``fr_FR`` French). ``C``, ``POSIX``,
English and a language Muster does not speak are English. The catalogue is the one pages
use (``app/translations``, domain ``messages``): :func:`app.rules.speech.say` speaks it for
the whole command once :func:`catalogue` is made current.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterable, Mapping
from pathlib import Path

from babel.support import Translations

from app.rules.speech import ENGLISH

#: Where the catalogues live (the pages' own, app/web/language.py).
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
#: The language of the source sentences, spoken without a catalogue.
SOURCE = "en"
#: The variables gettext reads, the first set one deciding.
VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
# Locales that name no language: the program's own (English).
_PLAIN = ("C", "POSIX")


def shipped(folder: Path = TRANSLATIONS) -> tuple[str, ...]:
    """The language codes with a compiled catalogue in ``folder`` (``de``, ``fr``)."""
    return tuple(sorted(p.parent.parent.name for p in folder.glob("*/LC_MESSAGES/messages.mo")))


def _codes(locale: str) -> list[str]:
    """The catalogue names a locale may be found under, the closest first: ``de_AT.UTF-8@euro``
    gives ``de_AT`` then ``de``."""
    name = locale.split(".", 1)[0].split("@", 1)[0].replace("-", "_").strip()
    language = name.split("_", 1)[0].lower()
    return [name, language] if name != language else [language]


def choose(environ: Mapping[str, str], languages: Iterable[str]) -> str:
    """The console's language from ``environ``: the code of one of ``languages`` (the shipped
    catalogues), or ``en`` when the environment asks for none of them."""
    spoken = set(languages)
    for variable in VARIABLES:
        value = environ.get(variable, "").strip()
        if not value:
            continue
        # gettext reads only the first set variable, and in it the first language it has.
        for locale in value.split(":"):
            if locale.split(".", 1)[0] in _PLAIN:
                return SOURCE
            for code in _codes(locale):
                if code == SOURCE:
                    return SOURCE
                if code in spoken:
                    return code
        return SOURCE
    return SOURCE


def catalogue(environ: Mapping[str, str], folder: Path = TRANSLATIONS) -> gettext.NullTranslations:
    """The catalogue the console speaks from: the environment's language (English: none)."""
    code = choose(environ, shipped(folder))
    if code == SOURCE:
        return ENGLISH
    return Translations.load(str(folder), [code], "messages")
