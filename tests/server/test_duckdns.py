"""The DuckDNS name points at the Pi (issue 26 item 3): Muster sets it to the LAN address when it
starts and again when that address changes. DuckDNS itself is on the internet, out of reach of
a test: a stand-in on this machine answers its update call (`MUSTER_DUCKDNS_URL`) as it does.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from app.serving import duckdns, lan
from tests.server.conftest import ServerProcess

TOKEN = "a1b2c3d4-0000-4000-8000-123456789abc"


class StandIn:
    """Answers DuckDNS's /update as DuckDNS does: OK for the right token, KO for any other."""

    def __init__(self) -> None:
        self.calls: list[dict[str, str]] = []
        calls = self.calls

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                query = {k: v[0] for k, v in parse_qs(urlsplit(self.path).query).items()}
                calls.append(query)
                body = b"OK" if query.get("token") == TOKEN else b"KO"
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}/update"


@pytest.fixture
def stand_in() -> Iterator[StandIn]:
    server = StandIn()
    try:
        yield server
    finally:
        server.server.shutdown()


def test_muster_points_the_name_at_the_lan_address_when_it_starts(tmp_path: Path, stand_in: StandIn) -> None:
    credentials = tmp_path / "duckdns.ini"
    credentials.write_text(f"dns_duckdns_token = {TOKEN}\n")
    server = ServerProcess(
        tmp_path / "muster.sqlite",
        tmp_path / "server.log",
        env={
            "MUSTER_DNS": "duckdns",
            "MUSTER_DOMAIN": "ourclub.duckdns.org",
            "MUSTER_DNS_CREDENTIALS": str(credentials),
            "MUSTER_DUCKDNS_URL": stand_in.url,
        },
    )
    server.start()
    try:
        deadline = time.monotonic() + 30
        while not stand_in.calls and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        server.stop()
    address = lan.address()
    assert address is not None
    assert stand_in.calls == [{"domains": "ourclub", "token": TOKEN, "ip": address}]
    assert f"DuckDNS: ourclub.duckdns.org now points at {address}" in server.log.read_text()


def test_a_new_lan_address_is_sent_once_and_a_refused_token_is_said(
    stand_in: StandIn, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # The Pi's address cannot be changed from a test: the keeper is handed a sequence instead.
    addresses = iter(["192.168.1.20", "192.168.1.20", "10.0.0.5", "10.0.0.5"])
    monkeypatch.setattr(lan, "address", lambda: next(addresses))
    keeper = duckdns.Keeper("ourclub.duckdns.org", TOKEN, stand_in.url, every=0)
    for _ in range(4):
        keeper.once()
    assert [call["ip"] for call in stand_in.calls] == ["192.168.1.20", "10.0.0.5"]
    refused = duckdns.Keeper("ourclub.duckdns.org", "not-the-token", stand_in.url, every=0)
    monkeypatch.setattr(lan, "address", lambda: "10.0.0.5")
    refused.once()
    assert refused.sent is None
    assert "DuckDNS refused to point ourclub.duckdns.org at 10.0.0.5" in caplog.text
