"""No slow phone holds the door (issue 26 item 6): the club set-up against slow connections.

One address opens 64 connections that send their headers a line every 5 seconds and 16 that
send a body a byte every 5 seconds, and keeps them open (reconnecting as the front server drops
them) while another phone records events and loads pages over HTTPS. Behind nginx (the club
set-up, `MUSTER_FRONT=nginx`) that phone's p95 stays under a second; gunicorn alone gives its
16 threads to the slow connections and the phone waits.

The attack lasts 5 s in make test; in make soak (MUSTER_SOAK=1) the issue's full 30 s. MUSTER_SLOW_FRONT=
(empty) runs the same test against gunicorn alone, to see it fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import os
import ssl
import statistics
import threading
import time
import uuid
from pathlib import Path

import pytest

from tests import soak
from tests.certs import Authority
from tests.server.conftest import ServerProcess, free_port, https
from tests.setups import pitched_battle

SECONDS = soak.size(5.0, 30.0)
SLOW_HEADERS, SLOW_BODIES = 64, 16
TRICKLE = 5.0  # seconds between the slow connections' lines and bytes, as in the issue


async def _slow(port: int, context: ssl.SSLContext, body: bool, stop: asyncio.Event, held: list[int]) -> None:
    """One slow connection, opened again whenever the server drops it, until ``stop``."""
    while not stop.is_set():
        writer = None
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=context)
            if body:
                writer.write(
                    b"POST /api/v1/games HTTP/1.1\r\nHost: club.muster.test\r\n"
                    b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
                )
            else:
                writer.write(b"GET / HTTP/1.1\r\nHost: club.muster.test\r\n")
            await writer.drain()
            held[0] += 1
            try:
                while not stop.is_set():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), TRICKLE)
                    if reader.at_eof():
                        break
                    writer.write(b" " if body else b"X-Slow: 1\r\n")
                    await writer.drain()
            finally:
                held[0] -= 1
        except (OSError, ssl.SSLError, ConnectionError):
            await asyncio.sleep(0.1)  # dropped by the server: open another
        finally:
            if writer is not None:
                writer.close()
                with contextlib.suppress(Exception):
                    await writer.wait_closed()


def _attack(
    port: int, context: ssl.SSLContext, stop: threading.Event, held: list[int], peak: list[int]
) -> None:
    async def main() -> None:
        done = asyncio.Event()
        tasks = [asyncio.create_task(_slow(port, context, False, done, held)) for _ in range(SLOW_HEADERS)]
        tasks += [asyncio.create_task(_slow(port, context, True, done, held)) for _ in range(SLOW_BODIES)]
        while not stop.is_set():
            peak[0] = max(peak[0], held[0])
            await asyncio.sleep(0.05)
        done.set()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())


@pytest.mark.soak
def test_slow_connections_from_one_address_hold_no_other_phone(tmp_path: Path) -> None:
    ca = Authority.make()
    cert, key, _ = ca.issue(tmp_path / "tls")
    context = ssl.create_default_context(cafile=str(ca.write(tmp_path / "ca.pem")))
    front = os.environ.get("MUSTER_SLOW_FRONT", "nginx")
    env = {"MUSTER_TLS_CERT": str(cert), "MUSTER_TLS_KEY": str(key), "MUSTER_FRONT": front}
    env["MUSTER_BACKEND_PORT"] = str(free_port())
    server = ServerProcess(
        tmp_path / "muster.sqlite",
        tmp_path / "server.log",
        env=env,
        ready=lambda port: https(port, "GET", "/api/v1/packs", context)[0] == 200,
    )
    server.start()
    try:
        _status, _r, game, _ = https(server.port, "POST", "/api/v1/games", context, pitched_battle())
        stop, held, peak = threading.Event(), [0], [0]
        attacker = threading.Thread(target=_attack, args=(server.port, context, stop, held, peak))
        attacker.start()
        try:
            deadline = time.monotonic() + 20
            while held[0] < SLOW_HEADERS + SLOW_BODIES and time.monotonic() < deadline:
                time.sleep(0.05)
            times, failures = _phone(server.port, context, game, SECONDS)
        finally:
            stop.set()
            attacker.join(timeout=60)
    finally:
        server.stop()
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    print(
        f"\n{'behind ' + front if front else 'gunicorn alone'}: {peak[0]} slow connections held, "
        f"{len(times)} requests by the other phone in {SECONDS:g} s: p50 {statistics.median(times) * 1000:.0f} ms, "
        f"p95 {p95 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms, {len(failures)} failed"
    )
    assert failures == []
    assert peak[0] >= SLOW_HEADERS + SLOW_BODIES
    assert p95 < 1.0


def _phone(port: int, context: ssl.SSLContext, game: dict, seconds: float) -> tuple[list[float], list[str]]:
    """A phone at another table: records a dice roll, loads the game page and the home, in turn."""
    times: list[float] = []
    failures: list[str] = []
    conn: http.client.HTTPSConnection | None = None
    end = time.monotonic() + seconds
    step = 0
    while time.monotonic() < end:
        if conn is None:
            conn = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=15)
        kind = step % 3
        step += 1
        if kind == 0 and step % 900 == 1:  # a game holds 1,000 events: the next table starts one
            method, path, body = "POST", "/api/v1/games", json.dumps(pitched_battle())
            headers = {"Content-Type": "application/json"}
        elif kind == 0:
            event = {
                "id": str(uuid.uuid4()),
                "type": "roll",
                "dice": "d6",
                "results": [4],
                "purpose": "A charge",
            }
            method, path, body = "POST", f"/api/v1/games/{game['id']}/events", json.dumps(event)
            headers = {"Content-Type": "application/json", "X-Edit-Token": game["edit_token"]}
        else:
            method, path, body, headers = "GET", f"/games/{game['id']}" if kind == 1 else "/", None, {}
        started = time.monotonic()
        try:
            conn.request(method, path, body, headers)
            response = conn.getresponse()
            data = response.read()
            if path == "/api/v1/games" and response.status == 201:
                game = json.loads(data)
            if response.status not in (200, 201):
                failures.append(f"{method} {path}: {response.status}")
        except (OSError, http.client.HTTPException) as exc:
            failures.append(f"{method} {path}: {exc!r}")
            conn.close()
            conn = None
        times.append(time.monotonic() - started)
    if conn is not None:
        conn.close()
    return times, failures
