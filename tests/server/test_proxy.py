"""The real server believes X-Forwarded-* only from the proxies MUSTER_PROXY names (issue 12, item 5).

gunicorn on its own trusts X-Forwarded-Proto from 127.0.0.1; Muster turns that off so that
ProxyFix, configured by MUSTER_PROXY, is the one place that decides.
"""

from __future__ import annotations

import http.client
from pathlib import Path

import pytest

from tests.server.conftest import ServerProcess, new_game
from tests.setups import pitched_battle

HTTPS = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "192.168.1.23"}


def _get(port: int, path: str, headers: dict[str, str]) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        response.read()
        return response
    finally:
        conn.close()


def test_without_a_proxy_forwarded_headers_are_ignored(server: ServerProcess) -> None:
    game_id, token = new_game(server.port, pitched_battle())
    assert _get(server.port, "/", HTTPS).getheader("Strict-Transport-Security") is None
    joined = _get(server.port, f"/games/{game_id}/join/{token}", HTTPS)
    assert joined.status == 303 and "Secure" not in (joined.getheader("Set-Cookie") or "")


def test_behind_one_proxy_https_is_believed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUSTER_PROXY", "1")
    proxied = ServerProcess(tmp_path / "muster.sqlite", tmp_path / "server.log")
    proxied.start()
    try:
        game_id, token = new_game(proxied.port, pitched_battle())
        assert _get(proxied.port, "/", HTTPS).getheader("Strict-Transport-Security") == "max-age=31536000"
        joined = _get(proxied.port, f"/games/{game_id}/join/{token}", HTTPS)
        assert joined.status == 303
        assert "Secure" in (joined.getheader("Set-Cookie") or "")
        assert joined.getheader("Cache-Control") == "no-store"
        # The proxy's plain-HTTP requests stay plain.
        assert (
            _get(proxied.port, "/", {"X-Forwarded-For": "192.168.1.23"}).getheader(
                "Strict-Transport-Security"
            )
            is None
        )
    finally:
        proxied.stop()
