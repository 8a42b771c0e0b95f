"""Benchmark: a plain API read while 24 clients loop on a heavy roster PDF (issue 12, item 3).

Reported, never asserted. Each scenario runs the real server (``python -m app serve``, the
production gunicorn set-up) for BENCH_PDF_SECONDS while 24 threads ask for the PDF again and
again, and one more player reads a game through the API four times a second:

- "every print a layout": the PDF cache and the per-address limit off, as if each of the 24
  asked for a different roster; what the layout queue alone does for the reader.
- "as served": the settings a club runs with (cache on, 12 PDFs a minute per address; every
  looper here shares 127.0.0.1, as one phone would).
- with ``BENCH_BEFORE=<commit>``, the first scenario again on that commit's code (checked out
  into a temporary folder), for a before-and-after in the same run.

Run alone: ``.venv/bin/python -m pytest -q -s tests/bench/test_pdf_load.py -p no:cacheprovider``.
"""

from __future__ import annotations

import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tests.bench.servers import ROOT, WORKERS, Client, children, free_port
from tests.savage_gains import SETUP

LOOPERS = 24
SECONDS = float(os.environ.get("BENCH_PDF_SECONDS", "20"))
READS_PER_SECOND = 4
OFF = {f"MUSTER_LIMIT_{kind}": "0" for kind in ("GAMES", "ROSTERS", "IMPORTS", "TERRAIN", "PDFS")}


def heavy_roster() -> dict[str, Any]:
    """The largest roster a player can store: 100 entries, 60-character names, 300-character notes."""
    note = ("Reinforced twice; carries the Cloak of Feathers and the Blade of Realities, " * 5)[:300]
    return {
        "pack": "aos-ghb-2021",
        "name": "Hammerfest",
        "points_limit": 2000,
        "faction": "Seraphon",
        "entries": [
            {
                "name": f"Saurus Warriors of the Eternal Starhost, regiment {n:03d}"[:60],
                "points": 20,
                "roles": ["Battleline"],
                "notes": note,
            }
            for n in range(100)
        ],
    }


class Served:
    """`python -m app serve` from a source folder, on its own database, in its own process group."""

    def __init__(self, source: Path, db: Path, env: dict[str, str]) -> None:
        self.port = free_port()
        self.log = db.with_suffix(".log")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=source,
            env={
                **os.environ,
                "MUSTER_DB": str(db),
                "MUSTER_SECRET_KEY": "bench",
                "PYTHONPATH": str(source),
                **env,
            },
            stdout=self.log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited; see {self.log}")
            if len(children(self.proc.pid)) >= WORKERS:
                try:
                    if Client(self.port).call("GET", "/api/v1/packs")[0] == 200:
                        return
                except OSError:
                    pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not answer within 60 s")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)


def _ms(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"median {statistics.median(ordered) * 1000:,.0f} ms, p95 {p95 * 1000:,.0f} ms, "
        f"max {ordered[-1] * 1000:,.0f} ms"
    )


def _scenario(name: str, source: Path, folder: Path, env: dict[str, str]) -> None:
    server = Served(source, folder / f"{name.replace(' ', '-')}.sqlite", env)
    try:
        client = Client(server.port)
        game = client.json("POST", "/api/v1/games", SETUP)
        roster = client.json("POST", "/api/v1/rosters", heavy_roster())
        pdf_url = f"/rosters/{roster['id']}/roster.pdf"
        read_url = f"/api/v1/games/{game['id']}"
        started = time.perf_counter()
        status, data, _ = client.call("GET", pdf_url)
        alone = time.perf_counter() - started
        assert status == 200 and data.startswith(b"%PDF"), (status, data[:200])
        quiet = []
        for _ in range(20):
            started = time.perf_counter()
            assert client.call("GET", read_url)[0] == 200
            quiet.append(time.perf_counter() - started)

        stop = time.monotonic() + SECONDS
        outcomes: Counter[int] = Counter()
        pdf_times: list[float] = []
        reads: list[float] = []
        lock = threading.Lock()

        def loop() -> None:
            looper = Client(server.port)
            while time.monotonic() < stop:
                started = time.perf_counter()
                try:
                    code = looper.call("GET", pdf_url)[0]
                except OSError:  # no answer within the client's 120 s
                    code = 0
                took = time.perf_counter() - started
                with lock:
                    outcomes[code] += 1
                    if code == 200:
                        pdf_times.append(took)
                if code != 200:
                    time.sleep(0.05)  # a looping page, not a tight spin

        def read() -> None:
            reader = Client(server.port)
            while time.monotonic() < stop:
                due = time.perf_counter() + 1 / READS_PER_SECOND
                started = time.perf_counter()
                assert reader.call("GET", read_url)[0] == 200
                reads.append(time.perf_counter() - started)
                time.sleep(max(0.0, due - time.perf_counter()))

        threads = [threading.Thread(target=loop) for _ in range(LOOPERS)] + [threading.Thread(target=read)]
        begun = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - begun
        print(
            f"\n  {name}: the roster PDF alone {alone * 1000:,.0f} ms ({len(data) // 1000} KB); "
            f"API read alone {_ms(quiet)}"
            f"\n    {LOOPERS} looping clients for {wall:.0f} s (the last PDFs finish after the "
            f"{SECONDS:.0f} s): answers {dict(sorted(outcomes.items()))} (0: none in 120 s); PDFs that came: {_ms(pdf_times)}"
            f"\n    API read meanwhile ({len(reads)} reads): {_ms(reads)}"
        )
    finally:
        server.stop()


def test_api_read_while_24_clients_loop_on_a_heavy_roster_pdf(tmp_path: Path) -> None:
    print(
        f"\nPDF load: {LOOPERS} clients looping on a 100-entry roster PDF, one API reader at {READS_PER_SECOND}/s"
    )
    _scenario("every print a layout", ROOT, tmp_path, {**OFF, "MUSTER_PDF_CACHE_MB": "0"})
    _scenario("as served", ROOT, tmp_path, {})
    before = os.environ.get("BENCH_BEFORE")
    if before:
        source = tmp_path / "before"
        source.mkdir()
        archive = subprocess.run(["git", "archive", before], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
        _scenario(f"before ({before[:8]})", source, tmp_path, {})
