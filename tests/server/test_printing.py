"""On the real server, printing never takes the threads that other requests need.

One gunicorn worker with four threads: eight players ask at once for a long roster's PDF
(the cache off, as if each roster were different). Two take the worker's printing places,
the other six are told at once to come back (503 with Retry-After), and a plain API read
made while the first layout runs is answered before any PDF is finished.
"""

from __future__ import annotations

import http.client
import threading
import time
from pathlib import Path

from tests.server.conftest import ServerProcess, new_game, request
from tests.setups import pitched_battle


def _get(port: int, path: str) -> tuple[int, str | None, float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status, response.getheader("Retry-After"), time.monotonic()
    finally:
        conn.close()


def test_a_read_is_answered_while_eight_prints_wait(tmp_path: Path, monkeypatch) -> None:
    for name, value in {
        "MUSTER_THREADS": "4",
        "MUSTER_PDF_CACHE_MB": "0",
        "MUSTER_LIMIT_PDFS": "0",
        "MUSTER_LIMIT_LAYOUT": "0",
    }.items():
        monkeypatch.setenv(name, value)
    server = ServerProcess(tmp_path / "muster.sqlite", tmp_path / "server.log", workers=1)
    server.start()
    try:
        game, _ = new_game(server.port, pitched_battle())
        note = ("Reinforced twice; carries the Cloak of Feathers and the Blade of Realities, " * 5)[:300]
        entries = [
            {"name": f"Saurus Warriors {n}", "points": 20, "roles": ["Battleline"], "notes": note}
            for n in range(60)
        ]
        status, roster = request(
            server.port,
            "POST",
            "/api/v1/rosters",
            {"pack": "aos-ghb-2021", "points_limit": 2000, "entries": entries},
        )
        assert status == 201, roster
        prints: list[tuple[int, str | None, float]] = []
        threads = [
            threading.Thread(
                target=lambda: prints.append(_get(server.port, f"/rosters/{roster['id']}/roster.pdf"))
            )
            for _ in range(8)
        ]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 60
        # One address holds one of the worker's two print places (issue 27): seven refused at once.
        while len(prints) < 7 and time.monotonic() < deadline:
            time.sleep(0.01)
        read = _get(server.port, f"/api/v1/games/{game}")
        for t in threads:
            t.join(130)
        assert read[0] == 200
        finished = sorted(p[2] for p in prints if p[0] == 200)
        refused = [p for p in prints if p[0] == 503]
        assert len(finished) == 1 and len(refused) == 7
        assert all(p[1] == "10" for p in refused)
        assert read[2] < finished[0]  # the read did not wait for a layout
    finally:
        server.stop()
