"""Servers for the benchmarks: Muster and a bare baseline served by Muster's own ``serve``
command (gunicorn, in their own process group), what their processes take, and a keep-alive
client."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent


WORKERS = int(os.environ.get("MUSTER_WORKERS", "2"))


PRINT_IDLE = 5.0  # seconds a PDF layout process waits for another print (60 in production)


# These benchmarks measure work, all from one address: the per-address limits and the PDF
# cache (tested in tests/web/test_limits.py and test_print_process.py) would turn most of
# their requests into 429s and cache hits. tests/bench/test_pdf_load.py measures them.
UNLIMITED = {
    **{f"MUSTER_LIMIT_{kind}": "0" for kind in ("GAMES", "ROSTERS", "IMPORTS", "TERRAIN", "PDFS")},
    "MUSTER_PDF_CACHE_MB": "0",
}


# The bare baseline: a do-nothing Flask app, served by Muster's own `serve` command, so
# gunicorn runs it with exactly the workers, threads and options Muster gets.
BARE = """
import app
from flask import Flask, request


def bare(config=None):
    bare = Flask("bare", template_folder=None)  # no Muster templates to compile
    bare.config.update({"DATABASE": "(none)", **(config or {})})  # what `serve` reads back

    @bare.get("/bare")
    def get():
        return {"ok": True}

    @bare.post("/bare")
    def post():
        return {"ok": True, "id": (request.get_json() or {}).get("id")}

    return bare


app.create_app = bare
from app.__main__ import main

main()
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(entry.name))
    return out


def status_kb(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def pss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


@dataclass
class Server:
    """A gunicorn master and its workers, started by this run in their own process group."""

    name: str
    port: int
    proc: subprocess.Popen[bytes]
    db: Path | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def workers(self) -> list[int]:
        return children(self.proc.pid)

    def printers(self) -> list[int]:
        """The PDF layout processes the workers started (each leaves after a quiet spell)."""
        return [child for worker in self.workers() for child in children(worker)]

    def pids(self) -> list[int]:
        return [self.proc.pid, *self.workers(), *self.printers()]

    def memory(self) -> dict[str, Any]:
        """VmRSS of the master, each worker and each PDF process (MB), their sum and the sum of PSS.

        RSS counts the pages the forked workers share with the master once per process; PSS
        shares them out, so its sum is what the server really takes from the machine.
        """
        workers, printers = self.workers(), self.printers()
        pids = [self.proc.pid, *workers, *printers]
        rss = {pid: status_kb(pid, "VmRSS") / 1024 for pid in pids}
        return {
            "master": rss[self.proc.pid],
            "workers": [rss[p] for p in workers],
            "printers": [rss[p] for p in printers],
            "rss": sum(rss.values()),
            "pss": sum(pss_kb(p) for p in pids) / 1024,
        }

    def cpu_seconds(self) -> float:
        ticks = 0
        for pid in self.pids():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            ticks += int(fields[11]) + int(fields[12])
        return ticks / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)


def start_server(
    name: str,
    code: list[str],
    db: Path | None,
    logs: Path,
    check: str,
    settings: dict[str, str] | None = None,
) -> Server:
    port = free_port()
    env = {
        **os.environ,
        "MUSTER_SECRET_KEY": "bench",
        "MUSTER_HOST": "127.0.0.1",
        "MUSTER_PDF_IDLE_SECONDS": str(PRINT_IDLE),
        **UNLIMITED,
        **(settings or {}),
    }
    if db is not None:
        env["MUSTER_DB"] = str(db)
    log = (logs / f"{name}.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, *code, "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    server = Server(name, port, proc, db)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{name} exited; see {logs / (name + '.log')}")
        if len(children(proc.pid)) >= WORKERS:
            try:
                status, _, _ = Client(port).call("GET", check)
                if status == 200:
                    return server
            except OSError:
                pass
        time.sleep(0.1)
    server.stop()
    raise RuntimeError(f"{name} did not answer within 60 s")


class Client:
    """One keep-alive HTTP connection; reconnects when the server closed an idle one."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn: http.client.HTTPConnection | None = None

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes, http.client.HTTPResponse]:
        for attempt in range(3):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            try:
                all_headers = dict(headers or {})
                payload = None
                if body is not None:
                    payload = json.dumps(body)
                    all_headers["Content-Type"] = "application/json"
                self.conn.request(method, path, payload, all_headers)
                response = self.conn.getresponse()
                data = response.read()
                return response.status, data, response
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def json(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
        status, data, _ = self.call(method, path, body, headers)
        assert status < 300, (status, data[:300])
        return json.loads(data)


def parallel(n: int, work: Callable[[int], None]) -> float:
    """Run work(0..n-1) on n threads; the wall time in seconds."""
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            work(i)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return time.perf_counter() - started
