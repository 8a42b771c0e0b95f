"""A request's cookies and an answer's headers looked up without an exception for each one missing.

werkzeug answers a missing cookie (``request.cookies.get``) or header (``headers.get``, ``in``,
``setdefault``) by raising and catching a ``BadRequestKeyError``, an HTTP exception made whole
each time: a watcher's game page missed thirteen of them (the edit and seat cookies, the welcome,
the language, the security headers), a tenth of its time. These ask the same without one.
"""

from __future__ import annotations

from collections.abc import Iterable

from flask import request
from werkzeug.datastructures import Headers


def cookie(name: str) -> str | None:
    """The request's cookie ``name``, or ``None``."""
    cookies = request.cookies
    return cookies[name] if name in cookies else None  # noqa: SIM401 - .get() raises inside


def header(headers: Headers, name: str) -> str | None:
    """The (first) header ``name`` of an answer's headers, or ``None``; case does not matter."""
    wanted = name.lower()
    for key, value in headers.items():
        if key.lower() == wanted:
            return value
    return None


def add_missing(headers: Headers, pairs: Iterable[tuple[str, str]]) -> None:
    """Add each header of ``pairs`` the answer does not carry yet (``setdefault`` for many)."""
    present = {key.lower() for key, _ in headers.items()}
    for name, value in pairs:
        if name.lower() not in present:
            headers.add(name, value)


def add_vary(headers: Headers, names: Iterable[str]) -> None:
    """Name ``names`` in the answer's Vary, each once, read and written as text (parsing the
    header into a set and writing it back cost a page 3%)."""
    vary = header(headers, "Vary") or ""
    named = {part.strip().lower() for part in vary.split(",")}
    missing = [name for name in names if name.lower() not in named]
    if missing:
        headers["Vary"] = ", ".join(filter(None, (vary.strip(), *missing)))
