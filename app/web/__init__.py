"""Flask blueprints, one per screen family, plus the JSON API, and the app's request plumbing.

What a request reaches (its store, the packs, the games service) is `services`, the static
files `assets`, error answers `errors`, a screen's page or fragment `pages`; this module
puts them together with CSRF protection, compression and the security headers.
"""

from __future__ import annotations

import copy
import time
from typing import Any

from flask import Flask, has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from flask_compress import Compress
from flask_wtf.csrf import CSRFProtect
from itsdangerous import BadSignature
from jinja2 import FileSystemLoader

from app.infra import system_files
from app.services.replays import Replays
from app.web import assets, errors, language, page_cache, pages, services, signed
from app.web.lookups import add_missing, add_vary, cookie, header
from app.web.remembered import remembered

csrf = CSRFProtect()
compress = Compress()

# No inline script anywhere: every script is a file under /static.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)


# A year: phones that once reached Muster over HTTPS never fall back to plain HTTP.
HSTS_SECONDS = 365 * 24 * 3600


# Session cookies whose signature was checked, kept per worker by their exact text.
SESSIONS_KEPT = 2048


# A session of such values alone (a CSRF key, the admin's login) needs no deep copy per request.
_IMMUTABLE = (str, int, float, bool, type(None))


class _SessionCookies(SecureCookieSessionInterface):
    """The session cookie (the admin login, the forms' CSRF key) is Secure on HTTPS requests.

    Flask decides once per app; a Pi answers both http://muster.local and, through a proxy,
    https://, so the request decides.
    """

    def open_session(self, app: Flask, request: Any) -> Any:
        sent = cookie(self.get_cookie_name(app))
        if not app.secret_key:
            return super().open_session(app, request)
        # Most API calls carry no session cookie: their empty session needs no signer made.
        if not sent:
            return self.session_class()

        # A phone sends the same signed cookie with every request until its session changes:
        # its signature is checked once (that took a tenth of a kept game page's time), and
        # each request gets its own copy of the data. The cookie's age is checked every time.
        def checked() -> tuple[Any, float]:
            serializer = self.get_signing_serializer(app)
            data, stamp = serializer.loads(sent, max_age=self._max_age(app), return_timestamp=True)
            return data, stamp.timestamp()

        try:
            found = remembered("muster.sessions", (str(app.secret_key), sent), checked, SESSIONS_KEPT)
        except BadSignature:
            return self.session_class()
        data, signed_at = found
        if not 0 <= time.time() - signed_at <= self._max_age(app):
            return self.session_class()  # as itsdangerous judges an expired signature
        if all(isinstance(value, _IMMUTABLE) for value in data.values()):
            return self.session_class(data)  # a new dict: nothing a request changes is shared
        return self.session_class(copy.deepcopy(data))

    def get_signing_serializer(self, app: Flask) -> Any:
        """Flask's serializer, made once per worker and signing short sessions without zlib
        (``app.web.signed``): a first visit's cookie holds only its CSRF key."""
        if not app.secret_key:
            return None
        keys = [*(app.config["SECRET_KEY_FALLBACKS"] or []), app.secret_key]  # the current key last

        # It holds no state a request changes: each dumps and loads makes its own signer.
        def made() -> signed.ShortPlain:
            return signed.ShortPlain(
                keys,
                salt=self.salt,
                serializer=self.serializer,
                signer_kwargs={"key_derivation": self.key_derivation, "digest_method": self.digest_method},
            )

        return remembered("muster.session_serializers", tuple(keys), made, 8)

    @staticmethod
    def _max_age(app: Flask) -> int:
        return int(app.permanent_session_lifetime.total_seconds())

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or (has_request_context() and request.is_secure)


# Static scripts, styles and PNG images are never documents or workers (the service worker is
# served by pwa.py): a page's policy and framing rule mean nothing on them, and a phone's first
# visit fetches a dozen of them.
_NOT_DOCUMENTS = frozenset({"text/javascript", "application/javascript", "text/css", "image/png"})


_EVERY_ANSWER = (("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "same-origin"))
_DOCUMENTS = (("Content-Security-Policy", CSP), ("X-Frame-Options", "DENY"), *_EVERY_ANSWER)
_HTTPS = (("Strict-Transport-Security", f"max-age={HSTS_SECONDS}"),)


def _headers(response: Any) -> Any:
    # Each is set unless the view set its own (what ``setdefault`` did, one header at a time).
    document = request.endpoint != "static" or response.mimetype not in _NOT_DOCUMENTS
    pairs = _DOCUMENTS if document else _EVERY_ANSWER
    if request.is_secure:
        # Served over HTTPS (directly or through a trusted proxy): phones keep to HTTPS.
        pairs = (*_HTTPS, *pairs)
    add_missing(response.headers, pairs)
    return response


def _compressed(response: Any) -> Any:
    """Flask-Compress for every answer not compressed yet: a page from the page cache and an
    asset arrive compressed, and Flask-Compress would read the phone's Accept-Encoding again
    (a twentieth of a kept page's time) only to leave them alone."""
    # A client that accepts no compression (a script, a load tester) only gets the Vary below,
    # as Flask-Compress would give it, without its reading of the answer.
    if request.environ.get("HTTP_ACCEPT_ENCODING") and header(response.headers, "Content-Encoding") is None:
        return compress.after_request(response)
    add_vary(response.headers, ("Accept-Encoding",))
    return response


def register(app: Flask) -> None:
    """Attach blueprints, CSRF protection, error pages and security headers."""
    from app.web import admin, api, clock, club, games, home, prints, pwa, rosters, terrain

    app.session_interface = _SessionCookies()
    # A system's screens may live in its own package (app/infra/system_files.py), before the
    # checkout's templates/; set before the first page builds the Jinja environment.
    app.jinja_loader = system_files.loader("templates", FileSystemLoader(app.template_folder))
    csrf.init_app(app)
    # The phone's language (Flask-Babel), before any page's Jinja environment is built.
    language.register(app)
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
    app.config["COMPRESS_REGISTER"] = False  # called by _compressed, in the same place
    compress.init_app(app)
    app.after_request(_compressed)
    csrf.exempt(api.bp)  # the API authenticates with the X-Edit-Token header, not cookies
    csrf.exempt(club.api)  # and events' with X-Organiser-Token, X-Player-Token or the admin bearer
    for blueprint in (
        home.bp,
        admin.bp,
        games.bp,
        clock.bp,
        prints.bp,
        rosters.bp,
        terrain.bp,
        pwa.bp,
        api.bp,
        club.bp,
        club.api,
    ):
        app.register_blueprint(blueprint)
    app.teardown_appcontext(services.close_store)
    app.extensions["muster.replays"] = Replays()
    errors.register(app)
    app.after_request(_headers)
    app.after_request(pages.reloadable)
    page_cache.register(app)  # csrf_token() and new_uuid() for the templates, and the page cache
    app.jinja_env.filters["squeeze"] = pages.squeeze
    assets.register(app)
