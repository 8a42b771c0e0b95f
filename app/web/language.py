"""The phone's language: which one a page is in, the switch that changes it, and its words for scripts.

A page speaks the language the phone chose with the switch (a cookie, so it holds offline and
across visits), else the best of the phone's own ``Accept-Language`` that Muster speaks, else
English. Every answer that depends on it says so in ``Vary``. Catalogues are in
``app/translations`` (docs/translating.md); scripts take their words from :func:`words`, a
small script of its own a language, which the service worker keeps with the app shell.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from flask import Blueprint, Flask, Response, abort, current_app, g, redirect, request
from flask_babel import Babel, get_locale, get_translations

from app.rules import pack_translations, speech
from app.web.lookups import add_missing, add_vary, cookie
from app.web.remembered import remembered
from app.web.services import packs

bp = Blueprint("language", __name__)

#: The cookie the switch sets: a language code Muster speaks.
COOKIE = "muster-lang"
#: The language of the source strings, spoken without a catalogue.
SOURCE = "en"
#: Where the catalogues live, below the app package (Flask-Babel's default folder).
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"
#: A year: the switch is a choice the phone keeps.
COOKIE_SECONDS = 365 * 24 * 3600
#: The catalogue domain of the scripts' words (static/*.js), apart from the server's ``messages``.
SCRIPTS = "scripts"

babel = Babel()


def _folders(app: Flask) -> list[Path]:
    """Every folder of catalogues, the built-in one first; ``TRANSLATION_FOLDERS`` adds more
    (a test's pseudo-language, a club's own language before it ships)."""
    extra = [Path(p) for p in app.config.get("TRANSLATION_FOLDERS", ())]
    return [TRANSLATIONS, *extra]


def spoken(app: Flask | None = None) -> tuple[str, ...]:
    """The language codes Muster speaks: English and every language with a compiled catalogue."""
    app = app or current_app
    if "muster.languages" not in app.extensions:  # asked by the packs' loader before register()
        app.extensions["muster.languages"] = _find_languages(app)
    return app.extensions["muster.languages"]


def _find_languages(app: Flask) -> tuple[str, ...]:
    found = {SOURCE}
    for folder in _folders(app):
        if folder.is_dir():
            found.update(p.parent.parent.name for p in folder.glob("*/LC_MESSAGES/messages.mo"))
    return (SOURCE, *sorted(found - {SOURCE}))


def name_of(code: str) -> str:
    """A language's name in itself ("Deutsch", "Français"), as a switch offers it."""
    name = Locale.parse(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


#: How many different (cookie, Accept-Language) pairs :func:`choose` remembers its answer for.
CHOICES_KEPT = 256
#: How many languages' catalogues a worker keeps by code (Muster speaks a handful).
CATALOGUES_KEPT = 16


def choose() -> str:
    """The language of this request: the switch's cookie, else the phone's, else English."""
    # Phones send the same few headers again and again: each pair's answer is worked out once
    # (parsing Accept-Language was a tenth of an event POST's language set-up).
    key = (cookie(COOKIE) or "", request.headers.get("Accept-Language", ""))
    return remembered("muster.choices", key, lambda: _chosen(key[0]), CHOICES_KEPT)


def _chosen(switched: str) -> str:
    languages = spoken()
    if switched in languages:
        return switched
    return request.accept_languages.best_match(languages, default=SOURCE) or SOURCE


def current() -> str:
    """The code of the language this request is answered in (``de``, ``fr``, ``en``)."""
    return str(get_locale() or SOURCE).replace("_", "-")


def _vary(response: Response) -> Response:
    """Say that pages and JSON depend on the language (the phone's header and the switch's cookie)."""
    kind = response.mimetype or ""
    if kind in ("text/html", "application/json", "text/plain"):
        add_vary(response.headers, ("Accept-Language", "Cookie"))
    return response


def _back(target: str | None) -> str:
    """Where the switch returns: a path of this site, never another site's address."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


@bp.post("/language")
def switch() -> Any:
    """Keep the phone's choice of language and show the page it was made on again, whole."""
    code = request.form.get("language", "")
    if code not in spoken():
        abort(
            400,
            description=speech.say("language must be one Muster speaks: {codes}.", codes=", ".join(spoken())),
        )
    response = redirect(_back(request.form.get("next")), code=303)
    response.set_cookie(
        COOKIE, code, max_age=COOKIE_SECONDS, samesite="Lax", secure=request.is_secure, httponly=False
    )
    return response


@functools.lru_cache(maxsize=16)
def _script_words(path: str, stamp: float) -> tuple[dict[str, str | list[str]], str]:
    """A compiled ``scripts`` catalogue as source sentence to translation (a plural's forms under
    its singular), with the language's plural rule (``stamp``: its mtime, so a catalogue
    compiled anew is read anew)."""
    with open(path, "rb") as handle:
        catalogue = read_mo(handle)
    table: dict[str, str | list[str]] = {}
    for message in catalogue:
        if not message.id or not message.string:
            continue
        if isinstance(message.id, (list, tuple)):  # a plural: its forms, under the singular
            table[str(message.id[0])] = [str(form) for form in message.string]
        else:
            table[str(message.id)] = str(message.string)
    return table, catalogue.plural_expr


def script_words(code: str) -> tuple[dict[str, str | list[str]], str]:
    """A language's words for the scripts: source sentence to translation (empty for English),
    and its plural rule, a C expression of ``n`` giving the form's index (``(n != 1)``)."""
    for folder in _folders(current_app):
        mo = folder / code.replace("-", "_") / "LC_MESSAGES" / f"{SCRIPTS}.mo"
        if mo.is_file():
            return _script_words(str(mo), mo.stat().st_mtime)
    return {}, Catalog(locale=SOURCE).plural_expr


def spoken_or_404(code: str) -> str:
    """``code`` when Muster speaks it; else a 404 that says which languages it speaks."""
    if code not in spoken():
        codes = ", ".join(spoken())
        abort(
            404,
            description=speech.say(
                "Muster does not speak {code}; it speaks {codes}.", code=repr(code), codes=codes
            ),
        )
    return code


@bp.get("/words/<code>.js")
def words(code: str) -> Response:
    """A script that gives the other scripts their words in one language: ``musterSay(text,
    values)`` and, for a sentence that has a plural, ``musterSayPlural(one, many, count, values)``."""
    spoken_or_404(code)
    found, plural = script_words(code)
    table = json.dumps(found, ensure_ascii=False, sort_keys=True)
    # Gettext's plural rule is a C expression of n, which JavaScript reads as it is (a
    # comparison gives true/false: Number() makes the index).
    body = (
        f"window.MusterWords = {table};\n"
        "(function () {\n"
        "  var words = window.MusterWords;\n"
        f"  function plural(n) {{ return Number({plural}); }}\n"
        "  function fill(said, values) {\n"
        "    return values ? said.replace(/%\\((\\w+)\\)s/g, function (all, key) {\n"
        "      return key in values ? String(values[key]) : all;\n"
        "    }) : said;\n"
        "  }\n"
        "  window.musterSay = function (text, values) {\n"
        '    return fill(typeof words[text] === "string" ? words[text] : text, values);\n'
        "  };\n"
        "  window.musterSayPlural = function (one, many, count, values) {\n"
        "    var forms = words[one];\n"
        "    var said = Array.isArray(forms) ? forms[plural(count)] || forms[forms.length - 1] : count === 1 ? one : many;\n"
        "    return fill(said, values);\n"
        "  };\n"
        "})();\n"
    )
    response = Response(body, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response


def number(value: float | int | None) -> str:
    """A number as the page's language writes it (2,000 points; 2.000 Punkte; 2 000 points)."""
    return speech.number(value, get_locale())


def signed(value: float | int) -> str:
    """A modifier with its sign, in the page's language (+1, -2)."""
    return speech.signed(value, get_locale())


def when(value: str | datetime | None) -> str:
    """A stored moment (ISO text or datetime, UTC) as the page's language writes a date and time."""
    return speech.when(value, get_locale())


def day(value: str | datetime | None) -> str:
    """A stored moment's day as the page's language writes it (3 Dec 2026, 03.12.2026)."""
    return speech.day(value, get_locale())


def _content_language(response: Response) -> Response:
    if (response.mimetype or "") == "text/html":
        add_missing(response.headers, (("Content-Language", current()),))
    return response


def told_words(code: str) -> Mapping[str, str]:
    """The installed packs' own words in the language ``code``: English text to translation
    (made once for each load of the packs and language)."""
    if code == SOURCE:
        return {}
    installed = packs()
    made = current_app.extensions.get("muster.told")
    if made is None or made[0] is not installed:
        made = (installed, {})
        current_app.extensions["muster.told"] = made
    if code not in made[1]:
        made[1][code] = pack_translations.told_words((p.translations for p in installed.values()), code)
    return made[1][code]


def _speak() -> None:
    # The rules' sentences (refusals, verdicts) and the packs' own words are said in this
    # request's language. Flask-Babel keeps each language's catalogue for good once loaded;
    # it is kept here by the language's code as well, so that a request that shows no date
    # or number (an event POST) never sets up Flask-Babel's locale at all.
    catalogue, code = remembered(
        "muster.catalogues", choose(), lambda: (get_translations(), current()), CATALOGUES_KEPT
    )
    g.muster_speech = speech.begin(catalogue, told_words(code))


def _stop_speaking(_error: BaseException | None) -> None:
    token = g.pop("muster_speech", None)
    if token is not None:
        speech.end(token)


def register(app: Flask) -> None:
    """Speak the phone's language on every page: Flask-Babel, the switch, and ``Vary``."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", SOURCE)
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = ";".join(str(p) for p in _folders(app))
    app.extensions["muster.languages"] = _find_languages(app)
    babel.init_app(app, locale_selector=choose)
    app.register_blueprint(bp)
    app.before_request(_speak)
    app.teardown_request(_stop_speaking)
    app.after_request(_vary)
    app.after_request(_content_language)
    app.jinja_env.filters.update(number=number, signed=signed, when=when, day=day, told=speech.told)
    app.jinja_env.globals.update(
        language=current,
        languages=lambda: [(code, name_of(code)) for code in spoken()],
    )
