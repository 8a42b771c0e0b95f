"""How a screen answers: the whole page or an htmx fragment, and the sentence of a refusal."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from flask import current_app, request
from markupsafe import Markup, escape
from werkzeug.exceptions import HTTPException

# The request headers an answer's shape depends on: caches must keep the two shapes apart.
VARY = "HX-Request, HX-Boosted, HX-History-Restore-Request"

# The header a refused form POST carries its sentence in (see docs/offline.md).
REFUSAL_HEADER = "X-Muster-Refusal"
# Client errors that judge nothing: the phone sends such an entry again (Retry-After honoured).
NOT_JUDGED = frozenset({408, 429})


def wants_fragment() -> bool:
    """Whether this request asks for a fragment of a screen rather than the whole page.

    htmx marks all its requests ``HX-Request``; a boosted link or form (moving to another
    screen) and a history restore (the back button) replace the whole page, as a plain
    browser would, so they get the page.
    """
    headers = request.headers
    if headers.get("HX-Request") != "true":
        return False
    return headers.get("HX-Boosted") != "true" and headers.get("HX-History-Restore-Request") != "true"


def shaped(response: Any, *more: str) -> Any:
    """Say which request headers chose the answer's shape (``more``: others it depends on)."""
    response.headers["Vary"] = ", ".join([VARY, *more])
    return response


def reload_at(response: Any, url: str) -> Any:
    """Say at which address a form's answer stays on the phone: a GET that shows it again.

    A form's answer rendered in place (a refusal, with its draft) would otherwise stay at the
    address it was posted to, and a reload there (a phone restoring its tab after the player
    switched apps) would ask for the form with GET. htmx puts this address in the history.
    """
    response.headers["HX-Push-Url"] = url
    return response


def refused(response: Any, message: str | None) -> Any:
    """Put a refusal's sentence in a header, so a script reads it without parsing the HTML.

    Headers travel as latin-1: the sentence is UTF-8, percent-encoded (decodeURIComponent).
    """
    if message:
        response.headers[REFUSAL_HEADER] = quote(message, safe=" ,.:;!?'()/")
    return response


_BLANK_LINES = re.compile(r"\s*\n\s*")


def squeeze(html: str | Markup) -> Markup:
    """Rendered HTML with each run of blank lines and indentation cut to one line break.

    For markup repeated many times in a page (the steps a game page renders ahead for offline
    use): the browser shows it exactly as before, since a line break is white space like any
    other outside ``<pre>`` and ``<textarea>``, which such markup must not hold.
    """
    safe = escape(html)  # already markup in an autoescaped template; text gets escaped
    return Markup(_BLANK_LINES.sub("\n", safe))  # noqa: S704 - only white space removed from escaped HTML


def wants_json() -> bool:
    """Whether this request is the JSON API's (its errors are answered as JSON)."""
    return request.path.startswith("/api/")


def nearest_page(path: str) -> str | None:
    """The closest screen above a form's address that a GET opens (``/rosters/import`` for
    ``/rosters/import/preview``), or ``None``."""
    adapter = current_app.url_map.bind("", script_name=request.script_root or "/")
    parts = path.rstrip("/").split("/")
    while len(parts) > 1:
        parts.pop()
        candidate = "/".join(parts) or "/"
        if candidate.startswith("//"):
            continue  # never an address another site could be named by (//host/...)
        try:
            adapter.match(candidate, method="GET")
        except HTTPException:
            continue
        return request.script_root + candidate
    return None


def reloadable(response: Any) -> Any:
    """A boosted form's answer shown in place names an address a reload can open.

    htmx puts the address a form was posted to in the history; a reload there would be a GET
    on a POST-only address. Unless the view named an address with the draft (``reload_at``),
    the screen the form belongs to is named.
    """
    if (
        request.method == "POST"
        and request.headers.get("HX-Boosted") == "true"
        and not 300 <= response.status_code < 400
        and "HX-Push-Url" not in response.headers
        and not wants_json()
    ):
        try:
            current_app.url_map.bind("").match(request.path, method="GET")
        except HTTPException:
            page = nearest_page(request.path)
            if page is not None:
                reload_at(response, page)
    return response
