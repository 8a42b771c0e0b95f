"""The real server's access log holds no token (issue 27, item 10).

With MUSTER_ACCESS_LOG=1 gunicorn writes a line a request. Join, seat, organiser, player and
roster edit links carry their token in the path, a page opened from one sends it as the
Referer, and the API takes tokens in headers: each is written as [token].
"""

from __future__ import annotations

import http.client
from pathlib import Path

import pytest

from tests.server.conftest import ServerProcess, request

PASSWORD = "club-night-pw"


def _get(port: int, path: str, headers: dict[str, str] | None = None) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def test_no_token_reaches_the_access_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUSTER_ACCESS_LOG", "1")
    monkeypatch.setenv("MUSTER_ADMIN_PASSWORD", PASSWORD)
    server = ServerProcess(tmp_path / "muster.sqlite", tmp_path / "server.log", workers=1)
    server.start()
    try:
        port = server.port
        players = [{"name": n} for n in ("Ann", "Bo", "Cy")]
        setup = {"pack": "tow-triumph-treachery", "scenario": "altar-of-the-gods", "points_limit": 2000}
        status, game = request(port, "POST", "/api/v1/games", {**setup, "players": players})
        assert status == 201, game
        status, roster = request(
            port, "POST", "/api/v1/rosters", {"pack": "aos-ghb-2021", "points_limit": 2000, "entries": []}
        )
        assert status == 201, roster
        event_body = {"name": "Club night", "pack": "conquest-first-blood", "points_limit": 500, "rounds": 3}
        status, event = request(
            port, "POST", "/api/v1/events", event_body, headers={"Authorization": f"Bearer {PASSWORD}"}
        )
        assert status == 201, event
        status, player = request(
            port,
            "POST",
            f"/api/v1/events/{event['id']}/players",
            {"name": "Dee"},
            headers={"X-Organiser-Token": event["organiser_token"]},
        )
        assert status == 201, player
        seat = game["seats"][1]
        tokens = {
            "edit": game["edit_token"],
            "seat": seat["token"],
            "roster": roster["edit_token"],
            "organiser": event["organiser_token"],
            "player": player["token"],
            "password": PASSWORD,
        }
        paths = [
            f"/games/{game['id']}/join/{game['edit_token']}",
            f"/games/{game['id']}/seat/{seat['token']}",
            f"/rosters/{roster['id']}/edit/{roster['edit_token']}",
            f"/events/{event['id']}/organiser/{event['organiser_token']}",
            f"/events/{event['id']}/me/{player['token']}",
            f"/events/{event['id']}/me/{player['token']}/qr.svg",
        ]
        for path in paths:
            assert _get(port, path) in (200, 303), path
        # A page opened from a seat's link names it as the Referer of its own requests.
        assert _get(port, "/static/muster.css", {"Referer": seat["url"]}) in (200, 304)
        assert _get(port, f"/api/v1/games/{game['id']}", {"X-Seat-Token": seat["token"]}) == 200
        assert _get(port, f"/api/v1/games/{game['id']}", {"X-Edit-Token": game["edit_token"]}) == 200
    finally:
        server.stop()
    log = server.log.read_text(errors="replace")
    lines = [line for line in log.splitlines() if '"GET ' in line or '"POST ' in line]
    assert len(lines) >= len(paths) + 7
    for what, token in tokens.items():
        assert token not in log, f"the {what} token is in the access log"
    assert f"/games/{game['id']}/seat/[token]" in log and f"/events/{event['id']}/me/[token]/qr.svg" in log
