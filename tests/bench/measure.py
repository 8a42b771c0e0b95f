"""What the benchmarks measure with: wrk driven by load.lua, and a crawl of a page's links.

Shared by tests/bench/test_bench.py and tests/bench/test_speed.py (a test file may not import
another).
"""

from __future__ import annotations

import gzip
import json
import os
import resource
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup

from tests.bench.servers import Client, Server

HERE = Path(__file__).resolve().parent
LUA = HERE / "load.lua"
WRK = shutil.which("wrk") or "/usr/bin/wrk"
CLIENTS = int(os.environ.get("BENCH_CLIENTS", "64"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "8"))
WRK_THREADS = 2


def roster(n: int) -> dict[str, Any]:
    """A 2,000-point Seraphon list of 25 entries (as long as a printed roster gets)."""
    entries: list[dict[str, Any]] = [
        {
            "name": "Lord Kroak",
            "points": 430,
            "roles": ["Leader"],
            "keywords": ["HERO", "WIZARD"],
            "general": True,
            "single_model": True,
            "notes": "Spells: Celestial Deliverance, Comet's Call",
        },
        {"name": "Saurus Guard", "points": 115, "roles": ["Battleline"]},
        {"name": "Saurus Warriors", "points": 200, "roles": ["Battleline"], "size": "reinforced"},
        {"name": "Skinks", "points": 70, "roles": ["Battleline"]},
        {"name": "Stegadon", "points": 270, "roles": ["Behemoth"], "keywords": ["MONSTER"]},
    ]
    for i in range(20):
        entries.append({"name": f"Skink Handlers {i + 1}", "points": 40, "roles": ["Other"]})
    return {
        "pack": "aos-ghb-2021",
        "name": f"Hammerfest {n}",
        "points_limit": 2000,
        "faction": "Seraphon",
        "grand_strategy": "prized-sorcery",
        "entries": entries,
    }


def run_wrk(
    server: Server,
    args: list[str],
    headers: tuple[str, ...] = (),
    seconds: float = SECONDS,
    clients: int = CLIENTS,
    cpus: str | None = None,
) -> dict[str, float]:
    """wrk with ``clients`` keep-alive connections: req/s, latency percentiles (ms), errors, CPU.

    ``cpus`` (as taskset takes them) pins wrk to those cores.
    """
    if not Path(WRK).exists():
        pytest.skip("wrk is not installed: `make bench` installs it with apt (Debian package wrk)")
    cmd = ["taskset", "-c", cpus] if cpus else []
    cmd += [WRK, f"-t{WRK_THREADS}", f"-c{clients}", f"-d{seconds:g}s", "--timeout", "10s", "-s", str(LUA)]
    for header in headers:
        cmd += ["-H", header]
    cmd += [server.url + "/", "--", *args]
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    server_cpu = server.cpu_seconds()
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 60, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    lines = [line for line in done.stdout.splitlines() if line.startswith("BENCH ")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"wrk failed: {done.stdout}\n{done.stderr}")
    raw = json.loads(lines[-1].removeprefix("BENCH "))
    for line in done.stdout.splitlines():
        if line.startswith("REFUSED "):
            for answer in filter(None, line.removeprefix("REFUSED ").split("\t")):
                print(f"    not 2xx: {answer}")
    seconds_run = raw["duration_us"] / 1e6
    return {
        "requests": raw["requests"],
        "rps": raw["requests"] / seconds_run,
        "p50": raw["p50"] / 1000,
        "p95": raw["p95"] / 1000,
        "p99": raw["p99"] / 1000,
        "max": raw["max"] / 1000,
        "status_errors": raw["status_errors"],
        "socket_errors": raw["socket_errors"] + raw["timeouts"],
        "exhausted": raw["exhausted"],
        "kb_per_response": raw["bytes"] / max(raw["requests"], 1) / 1024,
        "wrk_cores": (after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime) / wall,
        "server_cores": (server.cpu_seconds() - server_cpu) / wall,
    }


def decoded(item: dict[str, Any]) -> bytes:
    if item["encoding"] == "br":
        import brotli

        return brotli.decompress(item["body"])
    if item["encoding"] == "gzip":
        return gzip.decompress(item["body"])
    return item["body"]


def crawl(port: int, page: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A first and a repeat visit as a plain HTTP cache would make them: what each fetches."""
    client = Client(port)
    accept = {"Accept-Encoding": "br, gzip"}

    def fetch(path: str, headers: dict[str, str]) -> dict[str, Any]:
        status, data, response = client.call("GET", path, headers=headers)
        head = len(f"HTTP/1.1 {status} {response.reason}\r\n") + 2
        head += sum(len(k) + len(v) + 4 for k, v in response.getheaders())
        return {
            "path": path,
            "status": status,
            "bytes": head + len(data),
            "body": data,
            "encoding": response.getheader("Content-Encoding") or "identity",
            "cache": response.getheader("Cache-Control") or "",
            "etag": response.getheader("ETag"),
            "modified": response.getheader("Last-Modified"),
        }

    first = [fetch(page, accept)]
    doc = BeautifulSoup(decoded(first[0]), "html.parser")
    links = [
        link["href"]
        for link in doc.find_all("link", href=True)
        if set(link.get("rel") or []) & {"stylesheet", "icon", "apple-touch-icon", "manifest", "preload"}
    ]
    links += [tag["src"] for tag in doc.find_all(["script", "img"], src=True)]
    for path in dict.fromkeys(p for p in links if p.startswith("/")):
        first.append(fetch(path, accept))
    repeat = []
    for item in first:
        cache = item["cache"]
        if "immutable" in cache or any(
            part.strip().startswith("max-age=") and int(part.split("=")[1]) >= 86400
            for part in cache.split(",")
        ):
            continue  # fresh in the browser's cache: not asked for again
        headers = dict(accept)
        if item["etag"] and "no-store" not in cache:
            headers["If-None-Match"] = item["etag"]
        if item["modified"] and "no-store" not in cache:
            headers["If-Modified-Since"] = item["modified"]
        repeat.append(fetch(item["path"], headers))
    return first, repeat
