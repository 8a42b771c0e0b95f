"""The access log (MUSTER_ACCESS_LOG=1) with every capability token cut out.

A join, seat, organiser or player link carries its token in the path, and a page opened from
one sends it on as the Referer of the page's own requests; the API takes tokens in headers.
A log line is read by whoever looks after the Pi, so each token is written as ``[token]``:
the paths are those of every route that takes a ``<token>`` (read from the app's URL map,
so a new token route is covered without being listed here), the headers the ones Muster
reads tokens and passwords from.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from gunicorn.glogging import Logger

HIDDEN = "[token]"
# Request headers that carry a token or a password, as gunicorn names their atoms.
TOKEN_HEADERS = (
    "x-edit-token",
    "x-seat-token",
    "x-player-token",
    "x-organiser-token",
    "authorization",
    "cookie",
)
_VARIABLE = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")
_routes: list[re.Pattern[str]] = []


def learn(app: Flask) -> None:
    """Take the token routes from the app's URL map (once, before the workers fork)."""
    found = []
    for rule in app.url_map.iter_rules():
        if "token" not in rule.arguments:
            continue
        parts, last = [], 0
        for variable in _VARIABLE.finditer(rule.rule):
            parts.append(re.escape(rule.rule[last : variable.start()]))
            parts.append("([^/?#\\s]++)" if variable[1] == "token" else "[^/?#\\s]++")
            last = variable.end()
        parts.append(re.escape(rule.rule[last:]))
        found.append(re.compile("".join(parts) + r"(?=[/?#\s\"]|$)"))
    _routes[:] = found


def redact(text: str) -> str:
    """The text (a path, a URL, a request line) with each token of a token route hidden."""
    for route in _routes:
        text = route.sub(
            lambda m: m[0][: m.start(1) - m.start()] + HIDDEN + m[0][m.end(1) - m.start() :], text
        )
    return text


class RedactingLogger(Logger):  # type: ignore[misc]
    """gunicorn's logger, whose access lines never hold a token (see the module's docstring)."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        for key, value in atoms.items():
            name = key[1:-2] if key.startswith("{") and key[-2:] in ("}i", "}e") else None
            if name is not None and (
                name in TOKEN_HEADERS or name.removeprefix("http_").replace("_", "-") in TOKEN_HEADERS
            ):
                atoms[key] = HIDDEN
            elif isinstance(value, str):
                atoms[key] = redact(value)
        return atoms
