"""Where an event POST's time goes, in process: ``python -m tests.bench.post_profile [profile]``.

Issue 32's event POST in the bench's shape: GAMES games, each with both rosters attached and
its first two events, then the rest of each game's events round-robin over the games (as
wrk's threads go round their pools), each POST straight through the WSGI app as gunicorn
would call it. Prints the CPU time per POST (the best of several rounds, beside a bare Flask
JSON POST); with ``profile`` the cProfile of two rounds (``SORT=tottime`` to sort so).

For counts that a busy machine does not change, ``count`` runs two rounds inside one
``functools.reduce`` call: ``valgrind --tool=callgrind --collect-atstart=no
--toggle-collect=functools_reduce .venv/bin/python -m tests.bench.post_profile count``.
"""

from __future__ import annotations

import cProfile
import functools
import gc
import json
import os
import pstats
import sys
import time
import uuid
from collections.abc import Callable
from typing import Any

from flask import Flask, request
from werkzeug.test import EnvironBuilder

from tests.bench.page_profile import bench_app, bench_game
from tests.savage_gains import game_script

GAMES = int(os.environ.get("GAMES", "300"))


def _post(app: Any, path: str, body: dict[str, Any], headers: dict[str, str]) -> tuple[str, bytes]:
    data = json.dumps(body).encode()
    environ = EnvironBuilder(
        path=path, method="POST", data=data, headers={"Content-Type": "application/json", **headers}
    ).get_environ()
    status: list[str] = []
    answer = app(environ, lambda s, h, e=None: status.append(s))
    out = b"".join(answer)
    if hasattr(answer, "close"):
        answer.close()
    return status[0], out


def _games(app: Flask) -> list[tuple[str, dict[str, str]]]:
    made = []
    for _ in range(GAMES):
        game = bench_game(app)
        made.append((f"/api/v1/games/{game['id']}/events", {"X-Edit-Token": game["edit_token"]}))
    return made


def rounds(app: Flask) -> Callable[[int], int]:
    """A function that POSTs event ``n`` of every game's script (round-robin); the POSTs made."""
    games = _games(app)
    script = game_script()

    def once(n: int) -> int:
        for path, edit in games:
            status, out = _post(app, path, {"id": str(uuid.uuid4()), **script[n]}, edit)
            assert status.startswith("201"), (status, out[:300])
        return len(games)

    return once


def _bare() -> Callable[[], None]:
    bare = Flask("bare")

    @bare.post("/bare")
    def post() -> Any:
        return {"ok": True, "id": (request.get_json() or {}).get("id")}

    body = {"id": str(uuid.uuid4()), **game_script()[2]}

    def once() -> None:
        status, _ = _post(bare, "/bare", body, {})
        assert status.startswith("200")

    return once


def main() -> None:
    """Print the CPU time per event POST (and a bare JSON POST), or one round's profile."""
    app = bench_app()
    once = rounds(app)
    if len(sys.argv) > 1 and sys.argv[1] == "count":  # under callgrind: one reduce call, one dump
        once(2)
        gc.collect()
        gc.disable()  # no collection lands inside the count
        functools.reduce(lambda _, n: once(n), [3, 4], 0)
        gc.enable()
        return
    if len(sys.argv) > 1 and sys.argv[1] == "profile":
        once(2)
        profile = cProfile.Profile()
        profile.enable()
        once(3)
        once(4)
        profile.disable()
        pstats.Stats(profile).sort_stats(os.environ.get("SORT", "cumulative")).print_stats(70)
        return
    bare = _bare()
    best_bare = min(_timed(lambda: [bare() for _ in range(200)]) / 200 for _ in range(10))
    times = []
    for n in range(2, len(game_script())):
        started = time.process_time()
        count = once(n)
        times.append((time.process_time() - started) / count * 1000)
    print(f"bare JSON POST   {best_bare * 1000:6.3f} ms CPU")
    print(
        f"event POST       {min(times):6.3f} ms CPU best round, median "
        f"{sorted(times)[len(times) // 2]:6.3f} ({GAMES} games, {len(times)} rounds)"
    )


def _timed(work: Callable[[], Any]) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


if __name__ == "__main__":
    main()
