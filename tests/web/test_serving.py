"""What travels over club Wi-Fi: compressed pages, static files versioned and cached for a year."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import brotli

from tests.setups import new_game
from tests.web.conftest import parsed, soup

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
    # Every rule of the stylesheet, without its comments (they are for the people who read it).
    served, written = brotli.decompress(response.data), (STATIC / "muster.css").read_bytes()
    assert b"/*" not in served and len(served) < len(written)
    assert re.sub(rb"\s+", b"", served) == re.sub(
        rb"\s+", b"", re.sub(rb"/\*.*?\*/", b"", written, flags=re.S)
    )
    assert client.get("/static/../app/__init__.py").status_code == 404
    assert client.get("/static/nothing-here.js").status_code == 404


def test_serve_says_each_address_phones_open_with_a_qr_code(capsys):
    """Issue 24 item 11: the addresses printed are this machine's on the network, never 0.0.0.0,
    and the terminal shows a QR code of the first."""
    from types import SimpleNamespace

    from app.__main__ import _phone_addresses, _startup_line
    from app.serving import lan

    every = _phone_addresses(SimpleNamespace(host="0.0.0.0", port=5000), None)
    assert every and not any("0.0.0.0" in url for url in every)
    if lan.address():
        assert every[0] == f"http://{lan.address()}:5000"
        assert all(not url.startswith("http://127.") for url in every)
    assert _phone_addresses(SimpleNamespace(host="10.1.2.3", port=80), None) == ["http://10.1.2.3"]
    assert _phone_addresses(SimpleNamespace(host="0.0.0.0", port=443), "https://pi.example:443") == [
        "https://pi.example:443"
    ]
    config = {"DATABASE": "muster.sqlite", "SERVE_WORKERS": 2, "SERVE_THREADS": 4}
    _startup_line(["http://192.168.1.20:5000", "http://10.0.0.7:5000"], SimpleNamespace(config=config))
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["Phones open http://192.168.1.20:5000", "Phones open http://10.0.0.7:5000"]
    qr = out[2:]
    assert len(qr) > 10 and all(len(line) == len(qr[0]) for line in qr)  # a square block of the code
    assert any("█" in line or "▀" in line or "▄" in line for line in qr)


def test_a_first_visit_stays_within_60_kb_and_pages_keep_their_policy(client):
    """Issue 32: the club home and every file it links, compressed as served, in 60 KB at most.

    Static scripts, styles and PNG images carry no page policy (they are never documents); the
    pages, the manifest, the words script and the service worker keep it, and every answer
    keeps nosniff.
    """
    accept = {"Accept-Encoding": "br, gzip"}
    home = client.get("/", headers=accept)
    page = parsed(brotli.decompress(home.data))
    links = [tag["href"] for tag in page.select("link[href]") if tag["href"].startswith("/")]
    links += [tag["src"] for tag in page.select("script[src], img[src]") if tag["src"].startswith("/")]
    paths = ["/", *dict.fromkeys(links)]
    answers = [home, *(client.get(link, headers=accept) for link in paths[1:])]
    assert all(answer.status_code == 200 for answer in answers)
    total = sum(len(a.data) + sum(len(k) + len(v) + 4 for k, v in a.headers) for a in answers)
    assert total <= 60 * 1024, f"{total} bytes"
    for path, answer in zip(paths, answers, strict=True):
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        static = path.startswith("/static/") and not path.split("?")[0].endswith(".svg")
        assert ("Content-Security-Policy" in answer.headers) != static, path
    assert "script-src 'self'" in client.get("/sw.js").headers["Content-Security-Policy"]
