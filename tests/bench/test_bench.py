"""Benchmarks: our endpoints against bare ones, measured in one run on this machine.

Run with ``make bench``. Each figure is printed, with the ratio to the bare baseline served
the same way in the same run; nothing here asserts a time (these machines are noisy).
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "8"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "3"))

BARE_APP = """
import sys
from flask import Flask
from waitress import serve
app = Flask("bare")
@app.get("/ping")
def ping():
    return {"ok": True}
serve(app, host="127.0.0.1", port=int(sys.argv[1]), threads=8, _quiet=True)
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(port: int) -> None:
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port}")


@pytest.fixture(scope="module")
def servers(tmp_path_factory) -> Iterator[tuple[int, int]]:
    """Muster and a bare Flask app, both under waitress with 8 threads, in their own processes."""
    ours, bare = _free_port(), _free_port()
    env = {
        **os.environ,
        "MUSTER_DB": str(tmp_path_factory.mktemp("bench") / "bench.sqlite"),
        "MUSTER_SECRET_KEY": "bench",
    }
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", str(ours)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        ),
        subprocess.Popen(
            [sys.executable, "-c", BARE_APP, str(bare)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        ),
    ]
    try:
        _wait(ours)
        _wait(bare)
        yield ours, bare
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=10)


Request = Callable[[http.client.HTTPConnection], int]


def _load(
    port: int, request: Request | None = None, per_client: Callable[[], Request] | None = None
) -> dict[str, float]:
    """CLIENTS keep-alive clients for SECONDS: requests per second, p95 latency, errors."""
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    stop = time.perf_counter() + SECONDS

    def client() -> None:
        nonlocal errors
        go = per_client() if per_client else request
        assert go is not None
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine: list[float] = []
        bad = 0
        while time.perf_counter() < stop:
            start = time.perf_counter()
            status = go(conn)
            mine.append(time.perf_counter() - start)
            bad += status >= 400
        with lock:
            latencies.extend(mine)
            errors += bad

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    began = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - began
    latencies.sort()
    return {
        "rps": len(latencies) / elapsed,
        "p95_ms": 1000 * latencies[int(0.95 * (len(latencies) - 1))],
        "errors": errors,
    }


def _get(path: str) -> Callable[[http.client.HTTPConnection], int]:
    def go(conn: http.client.HTTPConnection) -> int:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status

    return go


def _new_game(port: int) -> tuple[str, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port)
    body = {
        "pack": "aos-ghb-2021",
        "scenario": "savage-gains",
        "points_limit": 2000,
        "players": [{"name": "Ann", "side": "attacker"}, {"name": "Bo", "side": "defender"}],
    }
    conn.request("POST", "/api/v1/games", json.dumps(body), {"Content-Type": "application/json"})
    made = json.loads(conn.getresponse().read())
    return made["id"], made["edit_token"]


def _report(name: str, ours: dict[str, float], bare: dict[str, float]) -> None:
    print(
        f"{name:<34} {ours['rps']:8.0f} req/s  p95 {ours['p95_ms']:6.1f} ms   "
        f"bare {bare['rps']:8.0f} req/s  p95 {bare['p95_ms']:6.1f} ms   "
        f"ratio {ours['rps'] / bare['rps']:.2f}"
    )


def test_http_endpoints_against_bare_flask(servers):
    ours, bare_port = servers
    game_id, token = _new_game(ours)
    # A game half played: five turns with objectives and tactics.
    conn = http.client.HTTPConnection("127.0.0.1", ours)
    for r, player in ((1, 0), (1, 1), (2, 0), (2, 1), (3, 0)):
        event = {
            "id": str(uuid.uuid4()),
            "type": "turn",
            "round": r,
            "player": player,
            "control": {"west": player, "attacker-border": 0},
        }
        conn.request(
            "POST",
            f"/api/v1/games/{game_id}/events",
            json.dumps(event),
            {"Content-Type": "application/json", "X-Edit-Token": token},
        )
        assert conn.getresponse().read()

    print(f"\n{CLIENTS} clients, {SECONDS:.0f} s each, waitress 8 threads, loopback")
    bare = _load(bare_port, _get("/ping"))
    for name, request in (
        ("GET /api/v1/games/<id>", _get(f"/api/v1/games/{game_id}")),
        ("GET /games/<id> (page)", _get(f"/games/{game_id}")),
    ):
        result = _load(ours, request)
        assert result["errors"] == 0
        _report(name, result, bare)

    # Each client records into its own game: a turn, then its undo, and again; every POST is
    # checked against the replayed game and appended in a transaction.
    def recorder() -> Request:
        gid, tok = _new_game(ours)
        last: list[str] = []

        def post(conn: http.client.HTTPConnection) -> int:
            if last:
                event = {"id": str(uuid.uuid4()), "type": "undo", "event": last.pop()}
            else:
                event = {
                    "id": str(uuid.uuid4()),
                    "type": "turn",
                    "round": 1,
                    "player": 0,
                    "control": {"west": 0},
                }
                last.append(event["id"])
            conn.request(
                "POST",
                f"/api/v1/games/{gid}/events",
                json.dumps(event),
                {"Content-Type": "application/json", "X-Edit-Token": tok},
            )
            response = conn.getresponse()
            response.read()
            return response.status

        return post

    result = _load(ours, per_client=recorder)
    assert result["errors"] == 0
    _report("POST /api/v1/games/<id>/events", result, bare)


def test_pdf_against_bare_weasyprint(tmp_path):
    from weasyprint import HTML

    from app import create_app

    app = create_app({"DATABASE": str(tmp_path / "pdf.sqlite"), "SECRET_KEY": "bench", "TESTING": True})
    client = app.test_client()
    body = {
        "pack": "aos-ghb-2021",
        "scenario": "savage-gains",
        "points_limit": 2000,
        "players": [{"name": "Ann", "side": "attacker"}, {"name": "Bo", "side": "defender"}],
    }
    game_id = client.post("/api/v1/games", json=body).json["id"]
    HTML(string="<p>warm</p>").write_pdf()
    client.get(f"/games/{game_id}/scoresheet.pdf")

    def timed(fn: Callable[[], object], n: int = 8) -> float:
        times = []
        for _ in range(n):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        return statistics.median(times)

    bare = timed(lambda: HTML(string="<h1>Score sheet</h1><table><tr><td>1</td></tr></table>").write_pdf())
    ours = timed(lambda: client.get(f"/games/{game_id}/scoresheet.pdf"))
    print(
        f"\nscore sheet PDF {ours * 1000:.0f} ms, bare WeasyPrint page {bare * 1000:.0f} ms, "
        f"ratio {ours / bare:.1f}"
    )
