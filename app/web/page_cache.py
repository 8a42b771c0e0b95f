"""Rendered game screens kept in memory: one rendering serves every phone that sees the same.

A game page costs most of its time in Jinja, and on a club night every phone following a
table asks for the same page after each entry. A rendering is kept per key (the caller's:
the game's version, its system, the viewer kind and whatever else the page shows), in a
bounded LRU per worker process. The parts that differ per request are rendered as marks
and filled in on each answer:

- the CSRF token of the phone's session (``csrf_token()`` in the templates);
- each form's fresh entry id (``new_uuid()``): two phones sending the same cached form must
  never send the same id, or the second entry would be taken for a resend of the first;
- slots the caller renders itself each time (the game clock, whose times run on).

A rendering with no such part (tonight's tables, polled by every phone) is the same bytes for
every phone: it is compressed once, when first asked for, and those bytes are kept with it. One
with such parts is compressed on every answer, so at a cheap level (``FILLED_LEVELS``). Its text
is kept encoded (UTF-8): an answer joins bytes, where encoding a page on every answer (twice:
once to compress it, once for the response) took a fourteenth of a kept game page's time.

The marks carry a random part drawn when the process starts: no text a player types can
hold one, so nothing a player writes is ever replaced.
"""

from __future__ import annotations

import gzip
import os
import re
import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

import brotli
from flask import Flask, Response, current_app, g, request, session
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from app.web import signed
from app.web.remembered import remembered

# Renderings kept per worker process: a club night's games times their viewer kinds, with room.
KEPT = 512

# The compression of a rendering filled in per request, paid on every answer: brotli's quality 1
# took a fifth of quality 4's time on a game page (0.05 against 0.26 ms for a watcher's 13 KB,
# 0.12 against 0.63 ms for the table's 76 KB) for 13-16% more bytes; gzip's level 1 likewise.
# Quality 0 then took a fifth less than 1 on the watcher's page (0.035 against 0.044 ms, 1% more
# bytes) and a third less on the table's (0.064 against 0.092 ms, 6% more). Renderings kept
# whole are compressed once, at the app's levels (brotli 4, gzip 6).
FILLED_LEVELS = {"br": 0, "gzip": 1}

_NONCE = secrets.token_hex(8)
_CSRF = f"muster{_NONCE}csrf"
_ID = f"muster{_NONCE}id"
_SLOT = f"<!--muster{_NONCE}slot:"
_MARKING = "muster_page_marks"
_MARKS = re.compile(f"({_CSRF}|{_ID}|{re.escape(_SLOT)}[a-z_-]+-->)")


@dataclass(frozen=True)
class Rendered:
    """A rendering cut at its per-request parts: ``texts`` (UTF-8) around ``holes`` (one fewer)."""

    texts: tuple[bytes, ...]
    holes: tuple[str, ...]
    # What the key names by identity (a pack), held so no other object takes its id.
    held: tuple[Any, ...] = ()
    # A rendering with no holes, compressed once per algorithm (filled in by ``answer``).
    packed: dict[str, bytes] = field(default_factory=dict, compare=False, repr=False)


class Pages:
    """A bounded LRU of renderings, safe across a worker's request threads."""

    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self._kept: OrderedDict[Hashable, Rendered] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Rendered | None:
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
            return found

    def put(self, key: Hashable, rendered: Rendered) -> None:
        with self._lock:
            self._kept[key] = rendered
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def __len__(self) -> int:
        return len(self._kept)


def register(app: Flask) -> None:
    """Give the templates the mark-aware ``csrf_token`` and ``new_uuid``, and the app its cache."""
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["new_uuid"] = new_uuid
    # Flask-WTF also puts its own csrf_token in every template's context: this one, added later, wins.
    app.context_processor(lambda: {"csrf_token": csrf_token})
    app.extensions["muster.pages"] = Pages(app.config.get("PAGE_CACHE_SIZE", KEPT))


def pages() -> Pages:
    """This app's (this worker's) kept renderings."""
    return current_app.extensions["muster.pages"]


def csrf_token() -> str:
    """The session's CSRF token, or its mark while a rendering is made to be kept."""
    return _CSRF if g.get(_MARKING) else session_token()


# Signed CSRF tokens kept per worker, by the session's own token: a phone's pages all carry it.
SIGNED_KEPT = 4096


def session_token() -> str:
    """The session's CSRF token as Flask-WTF signs it (``generate_csrf``), signed once per session.

    Signing took a tenth of a kept game page's time. The token signed is the session's own,
    never given to another session, and Muster's tokens do not expire
    (``WTF_CSRF_TIME_LIMIT = None``): one signature serves all of a session's pages. A session
    without a key yet (a phone's first visit) gets one as Flask-WTF makes it, signed as it signs
    (``app.web.signed``: without its zlib pass, which never shortens a key).
    """
    config = current_app.config
    field = config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    if field in g or config.get("WTF_CSRF_TIME_LIMIT") is not None:
        return generate_csrf()  # the token this request holds already, or one that expires
    raw = session.get(field)
    if not isinstance(raw, str):
        raw = session[field] = secrets.token_hex(20)  # a key of the length Flask-WTF makes
    secret = config.get("WTF_CSRF_SECRET_KEY") or current_app.secret_key
    token = remembered(
        "muster.signed_tokens",
        (str(secret), raw),
        lambda: remembered(
            "muster.csrf_serializers", secret, lambda: signed.ShortPlain(secret, salt="wtf-csrf-token"), 8
        ).dumps(raw),
        SIGNED_KEPT,
    )
    setattr(g, field, token)  # what generate_csrf answers for the rest of this request
    return token


def new_uuid() -> str:
    """A fresh id for a form's entry, or its mark while a rendering is made to be kept."""
    return _ID if g.get(_MARKING) else str(uuid.uuid4())


def slot(name: str) -> Markup:
    """Where a kept rendering leaves room for a part the caller renders on each answer."""
    return Markup(f"{_SLOT}{name}-->")  # noqa: S704 - a fixed comment, no outside text


def render(key: Hashable, make: Callable[[], str], held: tuple[Any, ...] = ()) -> Rendered:
    """The rendering kept under ``key``, made by ``make`` (with marks) when there is none.

    The key must name everything the rendering shows except the marked parts, the address
    the phone reached and its language (added here): a key that changes with each write to
    the game (its log's length) is what keeps a page from going stale.
    """
    kept = pages()
    key = _whole_key(key)
    found = kept.get(key)
    if found is not None:
        return found
    marking = g.get(_MARKING, False)
    setattr(g, _MARKING, True)
    try:
        html = make()
    finally:
        setattr(g, _MARKING, marking)
    # Belt and braces: a token made by Flask-WTF itself during the rendering becomes the mark.
    token = g.get(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"))
    if isinstance(token, str) and token:
        html = html.replace(token, _CSRF)
    made = _cut(html, held)
    kept.put(key, made)
    return made


def kept(key: Hashable) -> Rendered | None:
    """The rendering kept under ``key`` (as :func:`render` keeps it), or ``None``."""
    return pages().get(_whole_key(key))


def _whole_key(key: Hashable) -> Hashable:
    # What every rendering depends on in the request: the address phones reach (links made
    # whole; its parts, cheaper than ``host_url`` made from them) and the phone's language.
    return (key, request.scheme, request.host, request.root_path, str(get_locale()))


def fill(rendered: Rendered, slots: Mapping[str, Callable[[], str]] | None = None) -> str:
    """The rendering for this request: its session's token, fresh ids, the slots rendered now."""
    return _filled(rendered, slots).decode()


def _filled(rendered: Rendered, slots: Mapping[str, Callable[[], str]] | None) -> bytes:
    token = session_token().encode() if _CSRF in rendered.holes else b""
    ids = iter(fresh_ids(rendered.holes.count(_ID)))
    out = [rendered.texts[0]]
    for hole, text in zip(rendered.holes, rendered.texts[1:], strict=True):
        if hole == _CSRF:
            out.append(token)
        elif hole == _ID:
            out.append(next(ids))
        else:
            out.append((slots or {})[hole]().encode())
        out.append(text)
    return b"".join(out)


def fresh_ids(count: int) -> list[bytes]:
    """``count`` new random UUIDs (version 4, as ``uuid.uuid4`` makes them), written out.

    Made from one read of the system's randomness: ``str(uuid.uuid4())`` built a ``UUID``
    object for each, some 8 µs apiece, and a table's page holds one for each of its forms.
    """
    raw = bytearray(os.urandom(16 * count))
    made = []
    for at in range(0, 16 * count, 16):
        raw[at + 6] = raw[at + 6] & 0x0F | 0x40  # version 4
        raw[at + 8] = raw[at + 8] & 0x3F | 0x80  # the RFC 4122 variant
        digits = raw[at : at + 16].hex()
        made.append(f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}".encode())
    return made


def answer(
    rendered: Rendered, slots: Mapping[str, Callable[[], str]] | None = None, status: int = 200
) -> Response:
    """The rendering for this request as a response, compressed here: one with nothing per
    request travels as its kept compressed bytes, so a room of phones polling it costs one
    compression per change; one filled in per request is compressed at ``FILLED_LEVELS``.

    Flask-Compress leaves a response alone once it names its encoding; an answer too small to
    compress, or to a phone that takes neither brotli nor gzip, goes as it is.
    """
    body = _filled(rendered, slots)
    algorithm = _accepted()
    if algorithm is None or len(body) < current_app.config.get("COMPRESS_MIN_SIZE", 500):
        return current_app.response_class(body, status, mimetype="text/html")
    if rendered.holes:
        packed = _pack(body, algorithm, FILLED_LEVELS[algorithm])
    else:
        packed = rendered.packed.get(algorithm)
        if packed is None:
            packed = _pack(body, algorithm)
            rendered.packed[algorithm] = packed  # the same bytes whichever thread wins the race
    # A new answer: no header of these is set yet (and none is looked for, which costs).
    response = current_app.response_class(packed, status, mimetype="text/html")
    response.headers.add("Content-Encoding", algorithm)
    response.headers.add("Vary", "Accept-Encoding")
    return response


def _accepted() -> str | None:
    """The first of the app's compressions the phone accepts (brotli before gzip), or ``None``."""
    for algorithm in current_app.config.get("COMPRESS_ALGORITHM", ["br", "gzip"]):
        if algorithm in ("br", "gzip") and request.accept_encodings.quality(algorithm) > 0:
            return algorithm
    return None


def _pack(data: bytes, algorithm: str, level: int | None = None) -> bytes:
    # By default the levels Flask-Compress uses for every other answer (brotli 4: cheap on a Pi's core).
    config = current_app.config
    if algorithm == "br":
        return brotli.compress(data, quality=config.get("COMPRESS_BR_LEVEL", 4) if level is None else level)
    return gzip.compress(data, compresslevel=config.get("COMPRESS_LEVEL", 6) if level is None else level)


def _cut(html: str, held: tuple[Any, ...]) -> Rendered:
    parts = _MARKS.split(html)  # text, mark, text, mark, ..., text
    holes = tuple(m[len(_SLOT) : -3] if m.startswith(_SLOT) else m for m in parts[1::2])
    return Rendered(tuple(text.encode() for text in parts[0::2]), holes, held)
