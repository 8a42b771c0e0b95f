"""Where a game page's time goes, in process: ``python -m tests.bench.page_profile [VARIANT]``.

Issue 32's game page, asked as phones ask it (a watcher without cookies as wrk does, a watcher
and a joined table phone with their cookies, brotli or no compression), straight through the
WSGI app: the CPU time of each variant (the best of many short batches, beside a bare Flask
GET), and with a VARIANT named the cProfile of that variant (``SORT=tottime`` to sort so).

For counts that a busy machine does not change, run it under callgrind with ``COUNT=40``: each
variant's requests run inside one ``functools.reduce`` call, so
``valgrind --tool=callgrind --collect-atstart=no --toggle-collect=functools_reduce
--dump-after=functools_reduce .venv/bin/python -m tests.bench.page_profile`` writes one
profile per variant (its instruction count in the ``summary:`` line, for COUNT requests).
"""

from __future__ import annotations

import cProfile
import functools
import gc
import io
import os
import pstats
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import EnvironBuilder

from app import create_app
from tests.bench.measure import roster
from tests.savage_gains import SETUP, game_script

PHONE = {
    "Accept-Encoding": "br, gzip",
    "Accept-Language": "en-GB,en;q=0.9",
    "User-Agent": "Mozilla/5.0 (Linux; Android 14) Chrome/120 Mobile",
    "Host": "127.0.0.1:5000",
}


def bench_app() -> Flask:
    """Muster on a new database in a temporary folder, set up for profiling: no limits on games
    and rosters made, the rulepacks folder listed once an hour (0.2 ms a second of a worker's
    time: under callgrind, fifty times slower, that listing would land in every count)."""
    folder = Path(tempfile.mkdtemp())
    return create_app(
        {
            "DATABASE": str(folder / "m.sqlite"),
            "SECRET_KEY": "bench",
            "KEEP_CONNECTIONS": True,
            "LIMIT_GAMES": 0,
            "LIMIT_ROSTERS": 0,
            "RULEPACKS_CHECK_SECONDS": 3600,
        }
    )


def bench_game(app: Flask) -> dict[str, Any]:
    """A game with both rosters attached and its first two events, as the bench makes them."""
    client = app.test_client()
    army = client.post("/api/v1/rosters", json=roster(0)).json["id"]
    game = client.post("/api/v1/games", json=SETUP).json
    edit = {"X-Edit-Token": game["edit_token"]}
    for player in (0, 1):
        client.post(
            f"/api/v1/games/{game['id']}/rosters", json={"player": player, "roster": army}, headers=edit
        )
    for event in game_script()[:2]:
        sent = client.post(
            f"/api/v1/games/{game['id']}/events", json={"id": str(uuid.uuid4()), **event}, headers=edit
        )
        assert sent.status_code == 201, sent.json
    return game


def _cookies(client: FlaskClient) -> str:
    return "; ".join(f"{c.key}={c.value}" for c in client._cookies.values())


def _asker(app: Any, path: str, headers: dict[str, str]) -> Callable[[], bytes]:
    """One request straight through the WSGI app, as gunicorn would call it; its body."""
    environ = EnvironBuilder(path=path, headers=headers).get_environ()

    def once() -> bytes:
        asked = {**environ, "wsgi.input": io.BytesIO(b"")}
        status: list[str] = []
        answer = app(asked, lambda s, h, e=None: status.append(s))
        body = b"".join(answer)
        if hasattr(answer, "close"):
            answer.close()
        assert status[0].startswith("200"), (status, body[:300])
        return body

    return once


def variants() -> dict[str, Callable[[], bytes]]:
    """Each way a phone asks for the game page, and a bare Flask GET to compare with."""
    app = bench_app()
    game = bench_game(app)
    url = f"/games/{game['id']}"
    watcher = app.test_client()
    watcher.get(url, headers=PHONE)
    table = app.test_client()
    table.get(game["join_url"].split("localhost", 1)[1])
    table.get(url, headers=PHONE)
    table.get(url, headers=PHONE)  # the welcome said once: its cookie is gone
    bare = Flask("bare")
    bare.get("/bare")(lambda: {"ok": True})
    plain = {**PHONE, "Accept-Encoding": "identity"}
    return {
        "bare GET": _asker(bare, "/bare", {}),
        "watcher, no cookie (wrk), br": _asker(app, url, PHONE),
        "watcher, no cookie, identity": _asker(app, url, plain),
        "watcher, cookies, br": _asker(app, url, {**PHONE, "Cookie": _cookies(watcher)}),
        "watcher, cookies, identity": _asker(app, url, {**plain, "Cookie": _cookies(watcher)}),
        "table, cookies, br": _asker(app, url, {**PHONE, "Cookie": _cookies(table)}),
        "table, cookies, identity": _asker(app, url, {**plain, "Cookie": _cookies(table)}),
    }


def _batch(once: Callable[[], bytes], count: int) -> float:
    started = time.process_time()
    for _ in range(count):
        once()
    return (time.process_time() - started) / count * 1000


def main() -> None:
    """Print each variant's CPU time per request, or one variant's profile, or count them."""
    asks = variants()
    for once in asks.values():
        for _ in range(30):
            once()
    counted = int(os.environ.get("COUNT", "0"))
    if counted:  # under callgrind: one reduce call (one dump) per variant
        for name, once in asks.items():
            gc.collect()
            gc.disable()  # no collection lands inside one variant's count
            functools.reduce(lambda _, __, once=once: once(), range(counted), b"")
            gc.enable()
            print("counted", name, flush=True)
        return
    if len(sys.argv) > 1:
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(1000):
            asks[sys.argv[1]]()
        profile.disable()
        pstats.Stats(profile).sort_stats(os.environ.get("SORT", "cumulative")).print_stats(60)
        return
    best = dict.fromkeys(asks, float("inf"))
    for _ in range(30):  # interleaved, the best of each: a shared machine slows some batches
        for name, once in asks.items():
            best[name] = min(best[name], _batch(once, 40))
    for name, once in asks.items():
        print(f"{name:<32} {best[name]:6.3f} ms CPU  {len(once()):6d} B")


if __name__ == "__main__":
    main()
