"""The production server (`python -m app serve`) as a real subprocess, on a temporary SQLite file."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.console import english

ROOT = Path(__file__).resolve().parent.parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _alive(pid: int) -> bool:
    """Whether a process still runs (a zombie waiting to be reaped does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _group(pgid: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:
            pids.append(int(entry.name))
    return pids


class ServerProcess:
    """`python -m app serve` in its own process group, restartable on the same port and file."""

    def __init__(
        self,
        db: Path,
        log: Path,
        workers: int = 2,
        env: dict[str, str] | None = None,
        ready: Any = None,
    ) -> None:
        self.db = db
        self.log = log
        self.workers = workers
        self.env = env or {}  # more settings (HTTPS, the front server)
        self.ready = ready  # ready(port) -> bool; by default a plain GET of /api/v1/packs answers 200
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> None:
        env = {
            # These tests make games and rosters faster than a phone may: the per-address
            # limits have their own tests (tests/web/test_limits.py, test_printing.py).
            **{f"MUSTER_LIMIT_{kind}": "0" for kind in ("GAMES", "ROSTERS", "IMPORTS", "TERRAIN")},
            # Dozens of short-lived servers: every worker of each would load WeasyPrint for no
            # print. Starting early is tested in tests/web/test_print_process.py.
            "MUSTER_PDF_START_EARLY": "0",
            **os.environ,
            "MUSTER_DB": str(self.db),
            "MUSTER_PORT": str(self.port),
            "MUSTER_HOST": "127.0.0.1",
            "MUSTER_WORKERS": str(self.workers),
            "MUSTER_SECRET_KEY": "server-tests",
            **self.env,
        }
        env = english(env)  # what it says in English, whatever the terminal's language
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "app", "serve"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: one kill takes master and workers
            )
        self.starts += 1
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}; see {self.log}")
            try:
                if self.ready is not None:
                    if self.ready(self.port):
                        return
                elif request(self.port, "GET", "/api/v1/packs", timeout=5)[0] == 200:
                    return
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.05)
        self.stop()  # a server that never answered is not left running after the test
        raise RuntimeError(f"the server did not answer within {timeout} s; see {self.log}")

    def kill(self) -> None:
        """SIGKILL the whole process group (master and workers at once), and wait until it is gone."""
        assert self.proc is not None
        pgid = self.proc.pid
        members = _group(pgid)
        os.killpg(pgid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in members) and time.monotonic() < deadline:
            time.sleep(0.02)
        self.proc = None

    def stop(self) -> None:
        """Stop gracefully (SIGTERM to the master); SIGKILL what is left after 15 s."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=15)
        if _group(self.proc.pid):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.proc = None


def request(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30,
    conn: http.client.HTTPConnection | None = None,
) -> tuple[int, Any]:
    """One request; the status and the JSON answer (or the raw bytes when it is not JSON)."""
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        all_headers = dict(headers or {})
        payload = None
        if body is not None:
            payload = json.dumps(body)
            all_headers["Content-Type"] = "application/json"
        conn.request(method, path, payload, all_headers)
        response = conn.getresponse()
        data = response.read()
    finally:
        if own:
            conn.close()
    try:
        return response.status, json.loads(data)
    except ValueError:
        return response.status, data


def new_game(port: int, setup: dict[str, Any]) -> tuple[str, str]:
    status, made = request(port, "POST", "/api/v1/games", setup)
    assert status == 201, made
    return made["id"], made["edit_token"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """The production server on a fresh SQLite file, started; stopped after the test."""
    proc = ServerProcess(tmp_path / "muster.sqlite", tmp_path / "server.log")
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def https(
    port: int,
    method: str,
    path: str,
    context: ssl.SSLContext,
    body: Any = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, http.client.HTTPResponse, Any, int]:
    """One request on a new TLS connection: status, response, the JSON (or bytes), the served serial."""
    conn = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=30)
    try:
        sent = dict(headers or {})
        payload = None
        if body is not None:
            payload = json.dumps(body)
            sent["Content-Type"] = "application/json"
        conn.request(method, path, payload, sent)
        # Read before the answer: an answer with Connection: close (an nginx worker finishing
        # after a reload) closes the socket as it is read.
        serial = int(conn.sock.getpeercert()["serialNumber"], 16)  # type: ignore[union-attr]
        response = conn.getresponse()
        data = response.read()
    finally:
        conn.close()
    try:
        return response.status, response, json.loads(data), serial
    except ValueError:
        return response.status, response, data, serial
