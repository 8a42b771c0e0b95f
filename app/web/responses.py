"""Answers every blueprint marks the same way: how long a phone may keep them, QR codes."""

from __future__ import annotations

import functools
import io
from typing import Any

import segno
from flask import make_response


def no_store(response: Any) -> Any:
    """Mark an answer that carries an edit token: no cache, the service worker included, keeps it."""
    response.headers["Cache-Control"] = "no-store"
    return response


def private_page(response: Any) -> Any:
    """Mark a page for this phone alone, checked with the server on each visit.

    Not ``no-store``: the service worker keeps these pages (a game, its terrain, a roster)
    so that they open offline, and it never keeps an answer marked ``no-store``.
    """
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@functools.lru_cache(maxsize=64)
def _qr_svg(text: str) -> bytes:
    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="svg", scale=4, border=2, dark="#000", light="#fff")
    return buffer.getvalue()


def qr_response(text: str, private: bool = False) -> Any:
    """A QR code of the text as an SVG image; ``private`` when the text carries an edit token.

    Served on its own URL and lazy-loaded from a closed panel: drawing one takes about
    10 ms (segno tries every mask), too much to pay on every page view of a busy club night.
    """
    response = make_response(_qr_svg(text))
    response.headers["Content-Type"] = "image/svg+xml"
    if private:  # the code of a link that carries an edit token
        return no_store(response)
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response
