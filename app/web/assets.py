"""The static files: versioned URLs cached for a year, each file compressed once.

A page names its scripts and styles through ``asset_url`` (a Jinja global), whose URL changes
whenever the file does; ``static_file`` serves them whole (so they travel compressed) with a
year's cache when the version matches.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import mimetypes
import os
import re
import time
from pathlib import Path
from typing import Any

import brotli
from flask import Flask, abort, current_app, request, url_for
from werkzeug.security import safe_join

from app.rules.speech import say


@functools.lru_cache(maxsize=256)
def _asset(path: str, mtime: float) -> tuple[bytes, str]:
    data = Path(path).read_bytes()
    return as_served(path, data), hashlib.sha256(data).hexdigest()[:12]


# The comments in static/ are for the people who read it: a phone's first visit carries none
# (a sixth of the scripts' and the stylesheet's compressed bytes). A script's line that is a
# comment goes whole (no script here writes a string over several lines); indentation goes too.
_SCRIPT_COMMENT_LINE = re.compile(rb"^[ \t]*//[^\n]*\n", re.MULTILINE)
_STYLE_COMMENT = re.compile(rb"/\*.*?\*/", re.DOTALL)
_INDENT = re.compile(rb"^[ \t]+", re.MULTILINE)


def as_served(path: str, data: bytes) -> bytes:
    """A static file as phones get it: a script or stylesheet without comments or indentation."""
    if path.endswith(".js") and not path.endswith(".min.js"):
        data = _SCRIPT_COMMENT_LINE.sub(b"", data)
    elif path.endswith(".css"):
        data = _STYLE_COMMENT.sub(b"", data)
    else:
        return data
    return _INDENT.sub(b"", data)


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


def static_file(filename: str) -> Any:
    """Static files as whole responses (so they are compressed), cached for a year when versioned."""
    path = safe_join(current_app.static_folder or "", filename)
    if path is None or not os.path.isfile(path):
        abort(404, description=say("There is no such file."))
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


def register(app: Flask) -> None:
    """Serve the static files through ``static_file`` and give templates ``asset_url``."""
    app.jinja_env.globals["asset_url"] = asset_url
    app.view_functions["static"] = static_file
