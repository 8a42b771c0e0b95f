"""What travels over club Wi-Fi: compressed pages, static files versioned and cached for a year."""

from __future__ import annotations

import gzip
from pathlib import Path

import brotli

from tests.setups import new_game
from tests.web.conftest import soup

STATIC = Path(__file__).resolve().parent.parent.parent / "static"


def _htmx_url(client) -> str:
    page = soup(client.get("/"))
    return next(s["src"] for s in page.select("script[src]") if "htmx" in s["src"])


def test_pages_and_json_travel_compressed(client):
    game = new_game(client)
    page = client.get(f"/games/{game['id']}", headers={"Accept-Encoding": "br, gzip"})
    assert page.headers["Content-Encoding"] == "br"
    assert b"Savage Gains" in brotli.decompress(page.data)
    answer = client.get(f"/api/v1/games/{game['id']}", headers={"Accept-Encoding": "gzip"})
    assert answer.headers["Content-Encoding"] == "gzip"
    assert b'"scenario"' in gzip.decompress(answer.data)


def test_versioned_static_files_are_cached_for_a_year_and_compressed_once_at_best(client):
    url = _htmx_url(client)
    assert "?v=" in url
    original = (STATIC / "htmx-4.0.1.min.js").read_bytes()
    br = client.get(url, headers={"Accept-Encoding": "gzip, br"})
    assert br.status_code == 200
    assert br.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert br.headers["Content-Encoding"] == "br" and "Accept-Encoding" in br.headers["Vary"]
    assert brotli.decompress(br.data) == original
    # Brotli's best, not the page-by-page quality: smaller than quality 4 would make it.
    assert len(br.data) < len(brotli.compress(original, quality=4))
    zipped = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["Content-Encoding"] == "gzip" and gzip.decompress(zipped.data) == original
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers and plain.data == original
    # A browser revalidating its copy is told it still holds the right one.
    again = client.get(url, headers={"Accept-Encoding": "br", "If-None-Match": br.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_unversioned_static_files_are_revalidated(client):
    response = client.get("/static/muster.css", headers={"Accept-Encoding": "br"})
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-cache"
    assert brotli.decompress(response.data) == (STATIC / "muster.css").read_bytes()
    assert client.get("/static/../app/__init__.py").status_code == 404
    assert client.get("/static/nothing-here.js").status_code == 404
