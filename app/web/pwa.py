"""The progressive web app: the service worker at /sw.js, the web manifest, the offline page.

The service worker's cache is named after a version made from the bytes of everything it
precaches, so a release that changes any of them installs a new worker, which replaces the
old cache and tells the open pages that a new version is ready (see docs/offline.md).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, current_app, render_template, url_for
from flask_babel import force_locale
from werkzeug.datastructures import MultiDict

from app.rules.speech import say
from app.web import language
from app.web.assets import asset_url
from app.web.remembered import remembered
from app.web.services import found_or_404, packs

bp = Blueprint("pwa", __name__)

# The app shell: precached when the service worker installs (paths under static/).
SHELL_STATIC = (
    "muster.css",
    "htmx-4.0.1.min.js",
    "muster.js",
    "theme.js",
    "outbox.js",
    "offline.js",
    "dice.js",
    "clock.js",
    # The app icons are left to the browser, which fetches them from the manifest when it
    # installs the app: no page shows them, and precaching them cost a phone's first visit
    # a tenth of its bytes.
    "icons/favicon-48.png",
)
# Templates whose change changes the precached pages (the offline page and the home page).
SHELL_TEMPLATES = ("base.html", "offline.html", "home.html")
SW_SOURCE = "sw.js"
# Pages a phone keeps for offline use (the newest; games with unsent entries are never dropped).
OFFLINE_PAGES = 60
# Catalogues whose JSON a worker keeps (each phone's first visit asks for every one).
CATALOGUES_KEPT = 16


def _files(app: Flask) -> list[Path]:
    static = Path(app.static_folder or "static")
    templates = Path(app.root_path, app.template_folder or "templates")
    paths = [static / name for name in (*SHELL_STATIC, SW_SOURCE)]
    paths += [templates / name for name in SHELL_TEMPLATES]
    # The scripts' words: a new translation is a new release for the phones.
    paths += sorted(language.TRANSLATIONS.glob("*/LC_MESSAGES/*.mo"))
    # The unit catalogues are precached too: a new catalogue is a new release for the phones.
    paths += sorted(Path(app.config["RULEPACKS"], "catalogues").glob("*.yaml"))
    return paths


def _catalogues() -> dict[str, Any]:
    """The installed packs' unit catalogues, by catalogue id (several packs may share one)."""
    found = {}
    for pack in packs().values():
        catalogue = pack.unit_catalogue
        if catalogue is not None:
            found.setdefault(catalogue.id, catalogue)
    return found


def version(app: Flask) -> str:
    """The release as the service worker knows it: a hash of every precached file.

    ``MUSTER_RELEASE`` in the config is mixed in, so a deployment (or a test) can force a
    new worker without changing a file.
    """
    cached = app.extensions.get("muster.pwa_version")
    if cached and not app.debug:
        return cached
    digest = hashlib.sha256(str(app.config.get("MUSTER_RELEASE", "")).encode())
    for path in _files(app):
        digest.update(path.name.encode())
        digest.update(path.read_bytes() if path.exists() else b"")
    value = digest.hexdigest()[:12]
    app.extensions["muster.pwa_version"] = value
    return value


def _no_cache(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, from the site's root so that its scope can be the whole site."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    source = (Path(app.static_folder or "static") / SW_SOURCE).read_text(encoding="utf-8")
    shell = [asset_url(name) for name in SHELL_STATIC]
    shell += [url_for("pwa.manifest"), url_for("pwa.offline"), url_for("home.index")]
    # Each catalogue once, at its own address, kept with the app like the packs it serves.
    shell += [url_for("pwa.catalogue", catalogue_id=c) for c in sorted(_catalogues())]
    # The scripts' words in every language Muster speaks: a switch made offline still reads.
    shell += [url_for("language.words", code=code) for code in language.spoken()]
    shell += [url_for("pwa.offline_in", code=code) for code in language.spoken()]
    body = (
        source.replace('"__VERSION__"', json.dumps(version(app)))
        .replace('"__SHELL__"', json.dumps(shell))
        .replace('"__OUTBOX__"', json.dumps(asset_url("outbox.js")))
        .replace('"__MAX_PAGES__"', str(int(app.config.get("OFFLINE_PAGES", OFFLINE_PAGES))))
    )
    response = Response(body, mimetype="text/javascript")
    response.headers["Service-Worker-Allowed"] = "/"
    return _no_cache(response)


@bp.get("/catalogues/<catalogue_id>.json")
def catalogue(catalogue_id: str) -> Response:
    """One unit catalogue, as the API answers it: what the service worker keeps on the phone."""
    missing = say("There is no unit catalogue {catalogue} on this server.", catalogue=repr(catalogue_id))
    found = found_or_404(_catalogues(), catalogue_id, missing)
    return _no_cache(current_app.response_class(_catalogue_json(found), mimetype="application/json"))


def _catalogue_json(found: Any) -> bytes:
    """The catalogue as JSON, made once per worker: the largest took 40 ms to make, and every
    phone's first visit asks for it. Kept with the catalogue it was made from, so a catalogue
    reloaded from a changed file is made anew."""

    def make() -> tuple[Any, bytes]:
        return found, current_app.json.response(found.as_dict()).get_data()

    kept = remembered("muster.catalogue_json", (found.id, id(found)), make, CATALOGUES_KEPT)
    return kept[1] if kept[0] is found else make()[1]


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web manifest: name, icons (maskable too), standalone display, theme colours."""
    path = Path(current_app.static_folder or "static") / "manifest.webmanifest"
    return _no_cache(Response(path.read_bytes(), mimetype="application/manifest+json"))


@bp.get("/offline")
def offline() -> Any:
    """What the service worker shows for a page this phone has never opened, offline."""
    return render_template("offline.html")


@bp.get("/offline/<code>")
def offline_in(code: str) -> Any:
    """The offline page in one language: the worker keeps each (without the phone's cookies,
    so the switch's choice cannot reach it) and shows the one the phone's pages are in."""
    with force_locale(language.spoken_or_404(code)):
        return render_template("offline.html")


@bp.app_context_processor
def _pwa_context() -> dict[str, Any]:
    # An empty draft for the step forms rendered ahead for offline play.
    return {"blank_draft": MultiDict()}
