"""Flask blueprints, one per screen family, plus the JSON API; shared request plumbing."""

from __future__ import annotations

import functools
import gzip
import hashlib
import io
import mimetypes
import os
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import brotli
import segno
from flask import (
    Flask,
    abort,
    current_app,
    g,
    has_request_context,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.sessions import SecureCookieSessionInterface
from flask_compress import Compress
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.exceptions import HTTPException
from werkzeug.security import safe_join

from app.infra.pdf import PAPERS, PrintBusy, PrintFailed, PrintTooSlow
from app.rules.pack import Pack, PackError
from app.services import games as game_service
from app.services.replays import Replays
from app.store import GameRow, Store
from app.web import pages

csrf = CSRFProtect()
compress = Compress()

# No inline script anywhere: every script is a file under /static.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)


# A year: phones that once reached Muster over HTTPS never fall back to plain HTTP.
HSTS_SECONDS = 365 * 24 * 3600


class _SessionCookies(SecureCookieSessionInterface):
    """The session cookie (the admin login, the forms' CSRF key) is Secure on HTTPS requests.

    Flask decides once per app; a Pi answers both http://muster.local and, through a proxy,
    https://, so the request decides.
    """

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or (has_request_context() and request.is_secure)


def store() -> Store:
    """The database connection for this request.

    A served app keeps one connection per thread and reuses it (opening one costs as much
    as a small request); under tests each request opens and closes its own, so the many
    temporary databases of a test run never pile up open files.
    """
    if "store" in g:
        return g.store
    path = current_app.config["DATABASE"]
    if current_app.testing:
        g.store = Store(path)
        g.store_owned = True
        return g.store
    local = current_app.extensions.setdefault("muster.connections", threading.local())
    if getattr(local, "store", None) is None or local.path != path:
        local.store, local.path = Store(path), path
    g.store = local.store
    return g.store


def packs() -> dict[str, Pack]:
    """The installed rulepacks, by id (reloaded when the rulepacks folder changes)."""
    from app import refresh_rulepacks

    if "packs" not in g:
        g.packs = refresh_rulepacks(current_app)  # type: ignore[arg-type]
    return g.packs


def pack_errors() -> list[PackError]:
    """What was wrong with the rulepacks that did not load."""
    return current_app.extensions["muster.pack_errors"]


def games_service() -> game_service.Games:
    """The games service for this request, over its store, the packs and this process's cache."""
    if "games" not in g:
        g.games = game_service.Games(store(), packs(), current_app.extensions["muster.replays"])
    return g.games


def loaded_game(game_id: str, row: GameRow | None = None) -> game_service.Loaded:
    """The game with that id, replayed; 404 when there is none, 409 when its pack is missing."""
    try:
        loaded = games_service().load(game_id, row)
    except game_service.PackMissing as exc:
        abort(409, description=str(exc))
    if loaded is None:
        abort(404, description="There is no such game. Check the link, or start a new game.")
    return loaded


def paper() -> str:
    """The paper a print is asked for (``?paper=a4`` or ``letter``); 400 for any other."""
    chosen = request.args.get("paper", "a4").lower()
    if chosen not in PAPERS:
        abort(400, description="paper must be a4 or letter.")
    return chosen


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


@functools.lru_cache(maxsize=256)
def _asset(path: str, mtime: float) -> tuple[bytes, str]:
    data = Path(path).read_bytes()
    return data, hashlib.sha256(data).hexdigest()[:12]


# (static folder, filename) -> (when it was last looked at, its version). A page names a dozen files: looking
# each up on disk for every page view was a tenth of the page's time under load.
_versions: dict[tuple[str, str], tuple[float, str]] = {}
VERSION_CHECK_SECONDS = 1.0


def asset_version(filename: str) -> str:
    """A short hash of a static file's content: its URL changes whenever the file does."""
    folder = current_app.static_folder or ""
    known = _versions.get((folder, filename))
    clock = time.monotonic()
    if known is not None and clock - known[0] < VERSION_CHECK_SECONDS:
        return known[1]
    path = safe_join(folder, filename)
    missing = path is None or not os.path.isfile(path)
    version = "0" if missing else _asset(str(path), os.path.getmtime(str(path)))[1]
    _versions[(folder, filename)] = (clock, version)
    return version


def asset_url(filename: str) -> str:
    """The versioned URL of a static file, which may be cached for a year."""
    version = asset_version(filename)
    key = (request.script_root, filename, version)
    url = _urls.get(key)
    if url is None:  # url_for costs as much as the rest of a page's assets put together
        url = _urls[key] = url_for("static", filename=filename, v=version)
    return url


# (where the app is mounted, filename, version) -> the static file's URL.
_urls: dict[tuple[str, str, str], str] = {}


def _static(filename: str) -> Any:
    """Static files as whole responses (so they are compressed), cached for a year when versioned."""
    path = safe_join(current_app.static_folder or "", filename)
    if path is None or not os.path.isfile(path):
        abort(404, description="There is no such file.")
    mtime = os.path.getmtime(path)
    data, version = _asset(path, mtime)
    mimetype = mimetypes.guess_type(path)[0] or "application/octet-stream"
    encoding = _encoding_for(mimetype, len(data))
    if encoding:
        data = _encoded(path, mtime, encoding)
    response = current_app.response_class(data, mimetype=mimetype)
    response.set_etag(f"{version}:{encoding}" if encoding else version)
    if encoding:
        response.headers["Content-Encoding"] = encoding
        response.vary.add("Accept-Encoding")
    if request.args.get("v") == version:
        response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    else:
        response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


def _encoding_for(mimetype: str, size: int) -> str | None:
    """The compression this request accepts for a static file of that type and size, if any."""
    if (
        mimetype not in current_app.config["COMPRESS_MIMETYPES"]
        or size < current_app.config["COMPRESS_MIN_SIZE"]
    ):
        return None
    accepted = request.accept_encodings
    return next((e for e in ("br", "gzip") if accepted[e]), None)


@functools.lru_cache(maxsize=128)
def _encoded(path: str, mtime: float, encoding: str) -> bytes:
    """A static file compressed once, as hard as the format allows.

    htmx and the scripts are most of a phone's first visit: brotli's best (quality 11) makes
    them a sixth smaller than the quality fit for compressing each page as it is made.
    """
    data = _asset(path, mtime)[0]
    return brotli.compress(data, quality=11) if encoding == "br" else gzip.compress(data, 9, mtime=0)


def _close_store(_exc: BaseException | None) -> None:
    db = g.pop("store", None)
    if db is not None and g.pop("store_owned", False):
        db.close()


def wants_json() -> bool:
    return request.path.startswith("/api/")


def _nearest_page(path: str) -> str | None:
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


def _error(exc: HTTPException) -> Any:
    if exc.code == 405 and request.method in ("GET", "HEAD") and not wants_json():
        # A form's address opened with GET: a phone reloading the answer to a form (after the
        # player switched apps) or a bookmark. The screen the form belongs to opens instead.
        page = _nearest_page(request.path)
        if page is not None:
            return redirect(page, code=303)
    message = {
        400: "The request could not be read.",
        403: "This needs the game's edit token.",
        404: "There is nothing at this address.",
        405: f"{request.method} is not allowed here.",
        413: "The request is too large.",
        429: "Too many requests; wait a moment and try again.",
    }.get(exc.code or 500, exc.description or "The request failed.")
    # A description we wrote (not werkzeug's stock one) is the plain sentence to show.
    if exc.description and exc.description != type(exc).description:
        message = exc.description
    if wants_json():
        return jsonify(error=message), exc.code
    return _error_page(message, exc.code or 500)


def _print_failed(exc: Exception) -> Any:
    current_app.logger.error("PDF failed: %s", exc)
    headers = {}
    if isinstance(exc, PrintBusy):
        message = f"Other sheets are being printed just now; try again in {exc.retry_after} seconds."
        headers["Retry-After"] = str(exc.retry_after)
    elif isinstance(exc, PrintTooSlow):
        message = (
            f"This sheet took longer than {exc.seconds:g} seconds to lay out and was stopped; "
            "shorten it (fewer entries or shorter notes) and print it again."
        )
    else:
        message = "The PDF could not be made just now; try again in a moment."
    if wants_json():
        return jsonify(error=message), 503, headers
    return render_template("error.html", message=message, code=503), 503, headers


def _csrf_error(exc: CSRFError) -> Any:
    message = "The form has expired or did not come from Muster; reload the page and try again."
    if wants_json():
        return jsonify(error=message), 400
    return _error_page(message, 400)


def _error_page(message: str, code: int) -> Any:
    """The error page; a refused POST also carries its sentence in a header (app/web/pages.py).

    Only a judgement is a refusal: an expired form (400), a request that took too long (408),
    too many at once (429) and a server fault are answered without the header, so a phone
    keeps the entry and sends it again (docs/offline.md).
    """
    response = make_response(render_template("error.html", message=message, code=code), code)
    judged = 400 < code < 500 and code not in pages.NOT_JUDGED
    return pages.refused(response, message) if request.method == "POST" and judged else response


def _reloadable(response: Any) -> Any:
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
            page = _nearest_page(request.path)
            if page is not None:
                pages.reload_at(response, page)
    return response


def _headers(response: Any) -> Any:
    if request.is_secure:
        # Served over HTTPS (directly or through a trusted proxy): phones keep to HTTPS.
        response.headers.setdefault("Strict-Transport-Security", f"max-age={HSTS_SECONDS}")
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response


def register(app: Flask) -> None:
    """Attach blueprints, CSRF protection, error pages and security headers."""
    from app.web import admin, api, clock, club, games, home, prints, pwa, rosters, terrain

    app.session_interface = _SessionCookies()
    csrf.init_app(app)
    # Pages, JSON and assets travel compressed: a phone on club Wi-Fi loads a game in one go.
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault(
        "COMPRESS_MIMETYPES",
        [
            "text/html",
            "text/css",
            "text/plain",
            "application/json",
            "application/javascript",
            "text/javascript",
            "image/svg+xml",
            "application/manifest+json",
        ],
    )
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    compress.init_app(app)
    csrf.exempt(api.bp)  # the API authenticates with the X-Edit-Token header, not cookies
    csrf.exempt(club.api)  # and events' with X-Organiser-Token, X-Player-Token or the admin bearer
    app.register_blueprint(home.bp)
    app.register_blueprint(admin.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(clock.bp)
    app.register_blueprint(prints.bp)
    app.register_blueprint(rosters.bp)
    app.register_blueprint(terrain.bp)
    app.register_blueprint(pwa.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(club.bp)
    app.register_blueprint(club.api)
    app.teardown_appcontext(_close_store)
    app.extensions["muster.replays"] = Replays()
    app.register_error_handler(HTTPException, _error)
    app.register_error_handler(PrintFailed, _print_failed)
    app.register_error_handler(CSRFError, _csrf_error)
    app.after_request(_headers)
    app.after_request(_reloadable)
    app.jinja_env.globals["new_uuid"] = lambda: str(uuid.uuid4())
    app.jinja_env.globals["asset_url"] = asset_url
    app.jinja_env.filters["squeeze"] = pages.squeeze
    app.view_functions["static"] = _static
