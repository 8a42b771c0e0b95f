"""Benchmarks: Muster against bare baselines, measured in one run on this machine.

Run with ``make bench`` (never by ``make test``). Every figure is printed beside its
baseline, measured in the same run, and the issue's target; nothing here asserts a time
(these machines are noisy). A summary table closes the run.

1. Event POSTs and the game page under 64 keep-alive clients (wrk), against a bare Flask
   JSON POST and GET served by the same gunicorn set-up as ``python -m app serve``.
2. The roster and score-sheet PDFs against a bare WeasyPrint page holding the same text.
3. Bytes over the wire for a first and a repeat visit to a game page (headless Chromium
   through a byte-counting proxy, and a plain crawl of the page's links).
4. The server's memory after 1,000 games and 100 PDFs.
5. The home page with 10,000 stored games.
"""

from __future__ import annotations

import contextlib
import html
import io
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.bench.measure import CLIENTS, SECONDS, WRK_THREADS, crawl, roster, run_wrk
from tests.bench.servers import (
    BARE,
    PRINT_IDLE,
    ROOT,
    UNLIMITED,
    WORKERS,
    Client,
    Server,
    parallel,
    start_server,
)
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.savage_gains import SETUP, game_script

THREADS = int(os.environ.get("MUSTER_THREADS", "8"))
API_GAMES = 1000  # created through the API before the memory is read
STORED_GAMES = 10_000  # in the database behind the home page
TONIGHT = 30  # of those, created tonight (a busy club night)
PDFS = 100
# The home page takes tens of milliseconds: 64 clients would only measure the queue (most
# answers would come after the run ends), so it is measured, with its bare baseline, at 8.
HOME_CLIENTS = 8


# --- the summary table -------------------------------------------------------------------
@dataclass
class Row:
    what: str
    ours: str
    baseline: str = ""
    ratio: str = ""
    target: str = ""
    verdict: str = ""


SUMMARY: list[Row] = []


@pytest.fixture(scope="module", autouse=True)
def summary_table() -> Iterator[None]:
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    yield
    headers = Row("measure", "Muster", "baseline", "ratio", "target", "")
    rows = [headers, *SUMMARY]
    widths = [max(len(getattr(r, f)) for r in rows) for f in ("what", "ours", "baseline", "ratio", "target")]
    line = "-" * (sum(widths) + 3 * len(widths) + 8)
    print(f"\n\nSUMMARY ({os.cpu_count()} cores, {time.perf_counter() - started:.0f} s of benchmarks)")
    print(line)
    for i, r in enumerate(rows):
        cells = [r.what, r.ours, r.baseline, r.ratio, r.target]
        print(" | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " | " + r.verdict)
        if i == 0:
            print(line)
    print(line)
    print(
        f"load average (1 min) {load_before:.1f} at the start, {os.getloadavg()[0]:.1f} at the end: "
        "anything else running on these cores is in the figures; compare ratios, not absolutes"
    )


def _verdict(ok: bool) -> str:
    return "met" if ok else "NOT MET"


# --- the servers and what they hold ------------------------------------------------------
@dataclass
class Bench:
    muster: Server
    bare: Server
    logs: Path
    games: list[tuple[str, str]] = field(default_factory=list)  # (id, token), 2 events each
    memory: dict[str, dict[str, Any]] = field(default_factory=dict)
    baseline: dict[str, dict[str, float]] = field(default_factory=dict)


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bench]:
    logs = tmp_path_factory.mktemp("bench")
    muster = start_server("muster", ["-m", "app"], logs / "muster.sqlite", logs, "/api/v1/packs")
    try:
        bare = start_server("bare", ["-c", BARE], None, logs, "/bare")
    except BaseException:
        muster.stop()
        raise
    try:
        print(
            f"\nservers: `python -m app serve` and the bare Flask app, each gunicorn gthread "
            f"{WORKERS} workers x {THREADS} threads on 127.0.0.1; logs in {logs}"
        )
        yield Bench(muster, bare, logs)
    finally:
        muster.stop()
        bare.stop()
    errors = [
        line
        for log in logs.glob("*.log")
        for line in log.read_text(errors="replace").splitlines()
        if "Traceback" in line or " ERROR " in line or "[CRITICAL]" in line
    ]
    print(f"\nserver logs: {len(errors)} errors" + "".join(f"\n  {line}" for line in errors[:5]))


def _create_api_games(bench: Bench) -> None:
    """1,000 games through the API, each with its first two events (eight clients)."""
    if bench.games:
        return
    script = game_script()
    made: list[list[tuple[str, str]]] = [[] for _ in range(8)]

    def work(i: int) -> None:
        client = Client(bench.muster.port)
        for _ in range(API_GAMES // 8):
            game = client.json("POST", "/api/v1/games", SETUP)
            for event in script[:2]:
                client.json(
                    "POST",
                    f"/api/v1/games/{game['id']}/events",
                    {"id": str(uuid.uuid4()), **event},
                    {"X-Edit-Token": game["edit_token"]},
                )
            made[i].append((game["id"], game["edit_token"]))

    bench.memory["idle"] = bench.muster.memory()
    took = parallel(8, work)
    bench.games = [g for chunk in made for g in chunk]
    requests = len(bench.games) * 3
    print(
        f"created {len(bench.games)} games with 2 events each through the API: {requests} requests "
        f"in {took:.1f} s ({requests / took:.0f} req/s, 8 clients)"
    )


def _show(name: str, r: dict[str, float], base: dict[str, float] | None = None) -> None:
    text = (
        f"  {name:<38} {r['rps']:7.0f} req/s  p50 {r['p50']:6.1f}  p95 {r['p95']:6.1f}  "
        f"p99 {r['p99']:6.1f} ms  errors {r['status_errors'] + r['socket_errors']:.0f}  "
        f"CPU server {r['server_cores']:.2f} / wrk {r['wrk_cores']:.2f} cores "
        f"({1000 * r['server_cores'] / max(r['rps'], 0.001):.1f} ms of server CPU per request)"
    )
    if base:
        text += f"  ratio {r['rps'] / base['rps']:.2f}x bare"
    print(text)


def _latency(r: dict[str, float]) -> str:
    return f"{r['rps']:.0f} req/s, p50/p95/p99 {r['p50']:.0f}/{r['p95']:.0f}/{r['p99']:.0f} ms"


def _paths_file(bench: Bench, name: str, paths: list[str]) -> str:
    path = bench.logs / f"{name}.paths"
    path.write_text("\n".join(paths) + "\n")
    return str(path)


def _python_load(port: int, path: str, seconds: float) -> tuple[float, float]:
    """CLIENTS Python threads, one keep-alive connection each: req/s and the cores used."""
    stop = time.perf_counter() + seconds
    counts = [0] * CLIENTS

    def work(i: int) -> None:
        client = Client(port)
        while time.perf_counter() < stop:
            client.call("GET", path)
            counts[i] += 1

    cpu = time.process_time()
    took = parallel(CLIENTS, work)
    return sum(counts) / took, (time.process_time() - cpu) / took


# --- 1. event POSTs and the game page under 64 clients ------------------------------------
def test_event_post_and_game_page_under_64_clients(bench: Bench) -> None:
    _create_api_games(bench)
    print(f"\n1. {CLIENTS} keep-alive clients on loopback, wrk {WRK_THREADS} threads, {SECONDS:g} s per run")

    # Which load generator: wrk, unless Python threads could drive the same load.
    run_wrk(bench.bare, ["paths", _paths_file(bench, "bare-get", ["/bare"])], seconds=2)  # warm-up
    python_rps, python_cores = _python_load(bench.bare.port, "/bare", 3)
    wrk_check = run_wrk(bench.bare, ["paths", _paths_file(bench, "bare-get", ["/bare"])], seconds=3)
    print(
        f"  load generator on the bare GET: wrk {wrk_check['rps']:.0f} req/s using "
        f"{wrk_check['wrk_cores']:.2f} cores; {CLIENTS} Python threads {python_rps:.0f} req/s using "
        f"{python_cores:.2f} cores, taken from the 2 the server needs, and timing each request "
        "from behind the GIL: wrk is used"
    )
    SUMMARY.append(
        Row(
            "load generator (bare GET, 64 clients)",
            f"wrk {wrk_check['rps']:.0f} req/s ({wrk_check['wrk_cores']:.2f} cores)",
            f"Python threads {python_rps:.0f} req/s ({python_cores:.2f} cores)",
            f"{wrk_check['rps'] / python_rps:.1f}x",
            "",
            "wrk used",
        )
    )

    bare_get = run_wrk(bench.bare, ["paths", _paths_file(bench, "bare-get", ["/bare"])])
    post_body = json.dumps({"id": str(uuid.uuid4()), **game_script()[2]})
    bare_post = run_wrk(bench.bare, ["paths", _paths_file(bench, "bare-post", ["/bare"]), "POST", post_body])
    bench.baseline = {"get": bare_get, "post": bare_post}
    _show("bare GET /bare", bare_get)
    _show("bare POST /bare (JSON)", bare_post)

    # Event POSTs: each request the next event of one of the 1,000 games (all accepted).
    sequence = bench.logs / "sequence.jsonl"
    sequence.write_text("".join(json.dumps(e) + "\n" for e in game_script()))
    pool = bench.logs / "pool.txt"
    pool.write_text("".join(f"{gid} {token} 2\n" for gid, token in bench.games))
    before = _count_events(bench.muster.db)
    events = run_wrk(
        bench.muster, ["events", str(sequence), str(pool), uuid.uuid4().hex[:8], str(WRK_THREADS)]
    )
    recorded = _settled_count(bench.muster.db) - before
    commits = _sqlite_commits(bench.logs / "commits.sqlite", 2.0)
    _show("POST /api/v1/games/<id>/events", events, bare_post)
    print(
        f"    {recorded} events recorded for {events['requests']:.0f} answered requests "
        f"({events['status_errors']:.0f} not 2xx, {events['exhausted']:.0f} sent after the games ran out)"
    )
    print(
        f"    ceiling: one SQLite commit (WAL, synchronous=FULL) on this disk takes {1000 / commits:.2f} ms, "
        f"{commits:.0f} commits/s from one thread; each recorded event is one commit"
    )
    ratio = events["rps"] / bare_post["rps"]
    SUMMARY.append(
        Row(
            "event POST, 64 clients",
            _latency(events),
            _latency(bare_post),
            f"{ratio:.2f}x",
            ">= 0.5x bare, p95 < 50 ms",
            f"throughput {_verdict(ratio >= 0.5)}, p95 {_verdict(events['p95'] < 50)}",
        )
    )
    SUMMARY.append(
        Row(
            "  ceiling: SQLite commits, WAL + FULL",
            f"{commits:.0f} commits/s ({1000 / commits:.1f} ms each)",
            "",
            f"{events['rps'] / commits:.2f}x",
            "",
            "event POSTs per commit/s",
        )
    )

    # The game page of games at every stage, as a phone asks for it (compressed).
    pages = [f"/games/{gid}" for gid, _ in bench.games[:64]]
    accept = ("Accept-Encoding: br, gzip",)
    run_wrk(bench.muster, ["paths", _paths_file(bench, "pages", pages)], accept, seconds=2)  # warm-up
    page = run_wrk(bench.muster, ["paths", _paths_file(bench, "pages", pages)], accept)
    _show("GET /games/<id> (br)", page, bare_get)
    alone = _one_at_a_time(bench.muster.port, pages[10], 20)
    print(
        f"    {page['kb_per_response']:.1f} KB per response with headers, compressed; "
        f"{alone:.1f} ms per page for one client alone"
    )
    ratio = page["rps"] / bare_get["rps"]
    SUMMARY.append(
        Row(
            "game page GET, 64 clients",
            f"{_latency(page)} ({alone:.0f} ms alone)",
            _latency(bare_get),
            f"{ratio:.2f}x",
            "p95 < 50 ms",
            f"p95 {_verdict(page['p95'] < 50)}",
        )
    )
    bench.memory["after requests"] = bench.muster.memory()


# --- 1b. sixty-four phones at a pace: latency as players meet it ------------------------------
PACES = (1.0, 4.0)  # requests per second from each of the 64 clients


def _paced(
    port: int, clients: int, rate: float, seconds: float, request: Callable[[int, Client], int]
) -> tuple[list[float], int]:
    """Each client sends ``rate`` requests a second on a fixed schedule, whatever the answers.

    Latency is counted from when a request was due, not when it left: a server that falls
    behind is charged for the wait (no coordinated omission). Answers: latencies in ms and
    how many were not 2xx.
    """
    latencies: list[float] = []
    failures = [0]
    lock = threading.Lock()
    start = time.perf_counter() + 0.5

    def work(i: int) -> None:
        client = Client(port)
        interval = 1.0 / rate
        due = start + interval * i / clients  # spread the clients over one interval
        while due < start + seconds:
            pause = due - time.perf_counter()
            if pause > 0:
                time.sleep(pause)
            status = request(i, client)
            took = (time.perf_counter() - due) * 1000
            with lock:
                latencies.append(took)
                if status >= 300:
                    failures[0] += 1
            due += interval

    parallel(clients, work)
    return latencies, failures[0]


def _percentiles(values: list[float]) -> str:
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return f"p50/p95/p99 {at(0.5):.0f}/{at(0.95):.0f}/{at(0.99):.0f} ms"


def test_sixty_four_phones_at_a_pace(bench: Bench) -> None:
    """Club night is 60 phones each recording every few seconds, not 64 clients flat out."""
    _create_api_games(bench)
    script = game_script()
    print(
        f"\n1b. {CLIENTS} clients at a fixed pace for {SECONDS:g} s, latency from when each request was due"
    )
    for rate in PACES:
        # Each client records the next event of a fresh game of its own, one after another.
        fresh = [Client(bench.muster.port).json("POST", "/api/v1/games", SETUP) for _ in range(CLIENTS)]
        step = [0] * CLIENTS

        def post(i: int, client: Client, fresh: list[Any] = fresh, step: list[int] = step) -> int:
            game = fresh[i]
            event = {"id": str(uuid.uuid4()), **script[step[i] % len(script)]}
            if step[i] and step[i] % len(script) == 0:  # the game is over: start another
                fresh[i] = game = client.json("POST", "/api/v1/games", SETUP)
            step[i] += 1
            status, _, _ = client.call(
                "POST", f"/api/v1/games/{game['id']}/events", event, {"X-Edit-Token": game["edit_token"]}
            )
            return status

        def page(i: int, client: Client) -> int:
            gid = bench.games[i][0]
            return client.call("GET", f"/games/{gid}", headers={"Accept-Encoding": "br, gzip"})[0]

        def bare_post(i: int, client: Client) -> int:
            return client.call("POST", "/bare", {"id": str(uuid.uuid4()), **script[0]})[0]

        for name, port, request in (
            ("event POST", bench.muster.port, post),
            ("game page GET", bench.muster.port, page),
            ("bare POST", bench.bare.port, bare_post),
        ):
            latencies, failed = _paced(port, CLIENTS, rate, SECONDS, request)
            offered = CLIENTS * rate
            print(
                f"  {name:<14} {offered:4.0f} req/s offered ({rate:g}/s from each client): "
                f"{_percentiles(latencies)}, {failed} not 2xx"
            )
            ordered = sorted(latencies)
            p95 = ordered[int(0.95 * len(ordered))]
            if name != "bare POST":
                SUMMARY.append(
                    Row(
                        f"{name}, 64 clients at {offered:.0f} req/s",
                        _percentiles(latencies),
                        "",
                        "",
                        "p95 < 50 ms",
                        f"p95 {_verdict(p95 < 50)}" + (f", {failed} failed" if failed else ""),
                    )
                )


def _settled_count(db: Path | None) -> int:
    """The events in the database once requests still queued when wrk stopped are done."""
    last = _count_events(db)
    while True:
        time.sleep(1.0)
        now = _count_events(db)
        if now == last:
            return now
        last = now


def _sqlite_commits(path: Path, seconds: float) -> float:
    """Commits per second of one small insert each, WAL and synchronous=FULL, as the store does."""
    conn = sqlite3.connect(str(path), isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("CREATE TABLE IF NOT EXISTS t (id TEXT PRIMARY KEY, body TEXT)")
        n, stop = 0, time.perf_counter() + seconds
        started = time.perf_counter()
        while time.perf_counter() < stop:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO t VALUES (?, ?)", (str(uuid.uuid4()), "x" * 300))
            conn.execute("COMMIT")
            n += 1
        return n / (time.perf_counter() - started)
    finally:
        conn.close()


def _count_events(db: Path | None) -> int:
    assert db is not None
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        return int(conn.execute("SELECT count(*) FROM events").fetchone()[0])
    finally:
        conn.close()


# --- 2. PDFs against a bare WeasyPrint page with the same text ------------------------------
def test_pdfs_against_bare_weasyprint(tmp_path: Path) -> None:
    from pypdf import PdfReader
    from weasyprint import HTML

    from app import create_app

    app = create_app(
        {"DATABASE": str(tmp_path / "pdf.sqlite"), "SECRET_KEY": "bench", "LIMIT_PDFS": 0, "PDF_CACHE_MB": 0}
    )
    client = app.test_client()
    game = client.post("/api/v1/games", json=SETUP).json
    for event in game_script()[:-2]:
        answer = client.post(
            f"/api/v1/games/{game['id']}/events",
            json={"id": str(uuid.uuid4()), **event},
            headers={"X-Edit-Token": game["edit_token"]},
        )
        assert answer.status_code == 201, answer.json
    made = client.post("/api/v1/rosters", json=roster(1)).json

    def timed(fn: Callable[[], object], n: int = 7) -> float:
        fn()  # warm
        times = []
        for _ in range(n):
            started = time.perf_counter()
            fn()
            times.append(time.perf_counter() - started)
        return statistics.median(times) * 1000

    print("\n2. PDFs in one process: Muster's route (Flask test client) against bare WeasyPrint")
    for name, url in (
        ("score-sheet PDF (5 rounds played)", f"/games/{game['id']}/scoresheet.pdf"),
        ("roster PDF (25 entries)", f"/rosters/{made['id']}/roster.pdf"),
    ):
        response = client.get(url)
        assert response.status_code == 200 and response.mimetype == "application/pdf"
        reader = PdfReader(io.BytesIO(response.data))
        text = "\n".join(p.extract_text() or "" for p in reader.pages)
        plain = "".join(f"<p>{html.escape(line)}</p>" for line in text.splitlines() if line.strip())
        bare_html = f"<!doctype html><html><head><meta charset='utf-8'></head><body>{plain}</body></html>"
        bare_pages = len(HTML(string=bare_html).render().pages)
        ours = timed(lambda url=url: client.get(url))
        bare = timed(lambda bare_html=bare_html: HTML(string=bare_html).write_pdf())
        print(
            f"  {name:<36} {ours:6.0f} ms ({len(reader.pages)} pages, {len(text)} characters)   "
            f"bare page with the same text {bare:5.0f} ms ({bare_pages} pages)   ratio {ours / bare:.1f}x"
        )
        SUMMARY.append(Row(name, f"{ours:.0f} ms", f"{bare:.0f} ms (same text)", f"{ours / bare:.1f}x"))


# --- 3. bytes over the wire ----------------------------------------------------------------
class CountingProxy:
    """A TCP proxy in front of the server that counts the bytes the browser receives."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.received = 0
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                downstream, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target))
            threading.Thread(target=self._pipe, args=(downstream, upstream, False), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, downstream, True), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, count: bool) -> None:
        try:
            while data := source.recv(65536):
                if count:
                    with self.lock:
                        self.received += len(data)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def settle(self, quiet: float = 1.5, limit: float = 20) -> int:
        """The byte count once nothing has arrived for ``quiet`` seconds."""
        deadline = time.monotonic() + limit
        last, since = self.received, time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.1)
            if self.received != last:
                last, since = self.received, time.monotonic()
            elif time.monotonic() - since >= quiet:
                break
        return last

    def close(self) -> None:
        self.listener.close()


def test_bytes_over_the_wire(bench: Bench) -> None:
    _create_api_games(bench)
    game_id = bench.games[5][0]
    page = f"/games/{game_id}"
    print(f"\n3. bytes over the wire for {page} (a game with at least two events)")

    first, repeat = crawl(bench.muster.port, page)
    total_first = sum(i["bytes"] for i in first)
    total_repeat = sum(i["bytes"] for i in repeat)
    print("  plain crawl of the HTML and every asset it links (Accept-Encoding: br, gzip):")
    for item in first:
        print(f"    {item['bytes']:7d} B  {item['status']}  {item['encoding']:<8} {item['path'][:70]}")
    print(f"    first visit {total_first / 1024:.1f} KB in {len(first)} responses")
    for item in repeat:
        print(f"    repeat: {item['bytes']:7d} B  {item['status']}  {item['path'][:70]}")
    print(
        f"    repeat visit {total_repeat / 1024:.1f} KB in {len(repeat)} responses "
        "(assets cached for a year are not asked for)"
    )
    SUMMARY.append(
        Row(
            "first visit, crawl of the page's links",
            f"{total_first / 1024:.1f} KB ({len(first)} responses)",
            "",
            "",
            "< 60 KB compressed",
            _verdict(total_first < 60 * 1024),
        )
    )
    SUMMARY.append(Row("repeat visit, crawl", f"{total_repeat / 1024:.1f} KB ({len(repeat)} responses)"))

    if not Path(CHROMIUM).exists():
        print("  (no Chromium here: the browser's own count is skipped)")
        return
    first_b, second_b, lines = _browser_visits(bench.muster.port, page)
    for line in lines:
        print(line)
    print(f"  Chromium: first visit {first_b / 1024:.1f} KB received, repeat visit {second_b / 1024:.1f} KB")
    SUMMARY.append(
        Row(
            "first visit, headless Chromium",
            f"{first_b / 1024:.1f} KB",
            "",
            "",
            "< 60 KB compressed",
            _verdict(first_b < 60 * 1024),
        )
    )
    SUMMARY.append(Row("repeat visit, headless Chromium", f"{second_b / 1024:.1f} KB"))


def _browser_visits(port: int, page: str) -> tuple[int, int, list[str]]:
    """Two navigations in one Chromium profile through the counting proxy."""
    from playwright.sync_api import sync_playwright

    proxy = CountingProxy(port)
    url = f"http://127.0.0.1:{proxy.port}{page}"
    lines: list[str] = []
    seen: list[Any] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=CHROMIUM,
                args=CHROMIUM_ARGS,
            )
            context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
            context.on("requestfinished", lambda request: seen.append(request))
            tab = context.new_page()
            tab.goto(url, wait_until="load")
            tab.evaluate(
                "() => navigator.serviceWorker ? Promise.race([navigator.serviceWorker.ready.then(() => 1),"
                " new Promise(r => setTimeout(r, 10000))]) : 0"
            )
            first = proxy.settle()
            first_requests = list(seen)
            again = context.new_page()
            again.goto(url, wait_until="load")
            second = proxy.settle() - first
            second_requests = seen[len(first_requests) :]
            encoding = next(
                (
                    r.all_headers().get("accept-encoding")
                    for r in first_requests
                    if r.resource_type == "document"
                ),
                "?",
            )
            lines.append(f"  headless Chromium through a byte-counting proxy (Accept-Encoding: {encoding}):")
            for label, requests in (("first visit", first_requests), ("repeat visit", second_requests)):
                groups: dict[str, list[tuple[str, int]]] = {}
                for request in requests:
                    response = request.response()
                    if request.service_worker:
                        group = "fetched by the service worker"
                    elif response is not None and response.from_service_worker:
                        group = "answered by the service worker"
                    else:
                        group = "fetched by the page"
                    path = request.url.split(str(proxy.port), 1)[1].split("?")[0]
                    groups.setdefault(group, []).append((path, max(request.sizes()["responseBodySize"], 0)))
                for group, items in groups.items():
                    total = sum(size for _, size in items) / 1024
                    names = ", ".join(f"{path} {size / 1024:.1f}" for path, size in items)
                    lines.append(f"    {label}, {group}: {len(items)} responses, {total:.1f} KB of bodies")
                    lines.append(f"      ({names})")
            browser.close()
    finally:
        proxy.close()
    return first, second, lines


# --- 4. memory after 1,000 games and 100 PDFs ----------------------------------------------
MEMORY_PROBE = """
import json, uuid
from pathlib import Path

def rss(pid="self"):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024

out = {"python": rss()}
from app import create_app
from app.infra import pdf
app = create_app()
out["Flask app built"] = rss()
client = app.test_client()
game = client.post("/api/v1/games", json=SETUP).json
for event in EVENTS:
    client.post(f"/api/v1/games/{game['id']}/events", json={"id": str(uuid.uuid4()), **event},
                headers={"X-Edit-Token": game["edit_token"]})
client.get(f"/games/{game['id']}")
out["a game and its page"] = rss()
for _ in range(21):
    client.get(f"/games/{game['id']}/scoresheet.pdf")
out["21 PDFs (this process)"] = rss()
out["21 PDFs (its layout process)"] = rss(pdf._LAYOUT._child.pid)
print(json.dumps(out))
"""


def _show_memory(stage: str, m: dict[str, Any]) -> None:
    workers = " + ".join(f"{w:.0f}" for w in m["workers"])
    printers = " + ".join(f"{p:.0f}" for p in m["printers"]) or "none"
    print(
        f"  {stage:<22} RSS {m['rss']:6.1f} MB (master {m['master']:.0f} + workers {workers}"
        f" + PDF processes {printers})   PSS {m['pss']:6.1f} MB"
    )


def test_memory_after_games_and_pdfs(bench: Bench) -> None:
    _create_api_games(bench)
    client = Client(bench.muster.port)
    rosters = [client.json("POST", "/api/v1/rosters", roster(i))["id"] for i in range(10)]
    urls = [f"/games/{gid}/scoresheet.pdf" for gid, _ in bench.games[: PDFS // 2]]
    urls += [f"/rosters/{rosters[i % 10]}/roster.pdf" for i in range(PDFS - len(urls))]
    random.Random(7).shuffle(urls)
    times: list[float] = []

    def work(i: int) -> None:
        mine = Client(bench.muster.port)
        for url in urls[i::4]:
            started = time.perf_counter()
            status, data, _ = mine.call("GET", url)
            assert status == 200 and data.startswith(b"%PDF"), (url, status)
            times.append(time.perf_counter() - started)

    # Sampled while the PDFs are made: a layout process leaves after 50 PDFs or a quiet spell,
    # so a reading taken once printing is over can miss them.
    peak: list[dict[str, Any]] = []
    printing = threading.Event()

    def sample() -> None:
        while not printing.is_set():
            now = bench.muster.memory()
            if not peak or now["pss"] > peak[0]["pss"]:
                peak[:] = [now]
            printing.wait(0.25)

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        took = parallel(4, work)
    finally:
        printing.set()
        sampler.join()
    bench.memory["after 100 PDFs"] = bench.muster.memory()
    bench.memory["peak while printing"] = peak[0]
    # The layout processes leave once printing stops; what stays is the server itself.
    deadline = time.monotonic() + PRINT_IDLE + 15
    while bench.muster.printers() and time.monotonic() < deadline:
        time.sleep(0.5)
    bench.memory["printing stopped"] = bench.muster.memory()
    print(
        f"\n4. memory: {len(urls)} PDFs over HTTP (4 clients) in {took:.1f} s, "
        f"median {statistics.median(times) * 1000:.0f} ms each"
    )
    for stage, m in bench.memory.items():
        _show_memory(stage, m)
    bare = bench.bare.memory()
    print(f"  bare Flask app under the same gunicorn: RSS {bare['rss']:.1f} MB, PSS {bare['pss']:.1f} MB")

    probe = MEMORY_PROBE.replace("SETUP", repr(SETUP)).replace("EVENTS", repr(game_script()))
    env = {
        **os.environ,
        **UNLIMITED,
        "MUSTER_DB": str(bench.logs / "probe.sqlite"),
        "MUSTER_SECRET_KEY": "bench",
    }
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    steps = json.loads(done.stdout.strip().splitlines()[-1])
    print("  where one process's memory goes (a fresh Python, RSS after each step):")
    for step, mb in steps.items():
        print(f"    {step:<30} {mb:6.1f} MB")
    printing, after = bench.memory["peak while printing"], bench.memory["printing stopped"]
    SUMMARY.append(
        Row(
            "server memory, 1,000 games + 100 PDFs",
            f"PSS {printing['pss']:.0f} MB while printing, {after['pss']:.0f} MB after "
            f"(RSS {printing['rss']:.0f} / {after['rss']:.0f} MB)",
            f"bare PSS {bare['pss']:.0f} MB (RSS {bare['rss']:.0f})",
            f"{after['pss'] / bare['pss']:.1f}x",
            "< 100 MB",
            _verdict(after["pss"] < 100) + " (PSS after printing)",
        )
    )
    SUMMARY.append(
        Row(
            "  where it goes",
            f"a worker {steps['a game and its page']:.0f} MB; its PDF process "
            f"{steps['21 PDFs (its layout process)']:.0f} MB while printing",
            "",
            "",
            "",
            "",
        )
    )


# --- 5. the home page with 10,000 stored games ------------------------------------------------
def _fill(db: Path) -> None:
    """10,000 games straight into the SQLite file: 30 tonight, the rest over two years."""
    from app.store import Store

    Store.initialise(db)
    store = Store(db)
    store.db.execute("PRAGMA synchronous = OFF")  # a fill, not a game: no need to wait for the disk
    script = game_script()
    rng = random.Random(10_000)
    now = datetime.now(UTC)
    try:
        for i in range(STORED_GAMES):
            if i < TONIGHT:
                created = now - timedelta(minutes=5 + 3 * i)
            else:
                created = now - timedelta(days=1, hours=(i * 17.5) % (2 * 365 * 24))
            stamp = created.isoformat(timespec="milliseconds").replace("+00:00", "Z")
            n = rng.randint(0, len(script)) if i < TONIGHT else len(script)
            events = [{"id": str(uuid.uuid4()), **e, "recorded": stamp} for e in script[:n]]
            store.games.import_game(SETUP, f"stored-{i:016d}", stamp, events)
    finally:
        store.close()


def test_home_page_with_10000_games(bench: Bench) -> None:
    db = bench.logs / "home.sqlite"
    started = time.perf_counter()
    _fill(db)
    filled = time.perf_counter() - started
    home = start_server("muster-home", ["-m", "app"], db, bench.logs, "/api/v1/packs")
    accept = ("Accept-Encoding: br, gzip",)
    paths = _paths_file(bench, "home", ["/"])
    try:
        run_wrk(home, ["paths", paths], accept, seconds=2, clients=HOME_CLIENTS)  # warm-up
        result = run_wrk(home, ["paths", paths], accept, clients=HOME_CLIENTS)
        single = _one_at_a_time(home.port, "/", 20)
    finally:
        home.stop()
    base = run_wrk(bench.bare, ["paths", _paths_file(bench, "bare-get", ["/bare"])], clients=HOME_CLIENTS)
    print(
        f"\n5. home page with {STORED_GAMES} stored games ({TONIGHT} tonight; filled in {filled:.1f} s), "
        f"{HOME_CLIENTS} keep-alive clients\n  one client alone: {single:.1f} ms per request"
    )
    _show(f"bare GET /bare, {HOME_CLIENTS} clients", base)
    _show(f"GET / (br), {STORED_GAMES:,} games", result, base)
    SUMMARY.append(
        Row(
            f"home page, {STORED_GAMES:,} games ({TONIGHT} tonight), {HOME_CLIENTS} clients",
            f"{single:.0f} ms alone; {_latency(result)}",
            _latency(base),
            f"{result['rps'] / base['rps']:.3f}x",
        )
    )

    # The same page on the first server, where all 1,000 games of this run are tonight's.
    _create_api_games(bench)
    run_wrk(bench.muster, ["paths", paths], accept, seconds=2, clients=HOME_CLIENTS)
    busy = run_wrk(bench.muster, ["paths", paths], accept, clients=HOME_CLIENTS)
    busy_single = _one_at_a_time(bench.muster.port, "/", 10)
    _show("GET / (br), 1,000 games tonight", busy, base)
    print(
        f"  one client alone: {busy_single:.1f} ms per request (the page lists tonight's newest 200 tables)"
    )
    SUMMARY.append(
        Row(
            f"home page, 1,000 games all tonight, {HOME_CLIENTS} clients",
            f"{busy_single:.0f} ms alone; {_latency(busy)}",
            _latency(base),
            f"{busy['rps'] / base['rps']:.3f}x",
        )
    )


def _one_at_a_time(port: int, path: str, n: int) -> float:
    client = Client(port)
    client.call("GET", path, headers={"Accept-Encoding": "br, gzip"})
    times = []
    for _ in range(n):
        started = time.perf_counter()
        status, _, _ = client.call("GET", path, headers={"Accept-Encoding": "br, gzip"})
        assert status == 200
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000
