"""Benchmark: pairing a 200-player round by maximum-weight matching (issue 31), against the
backtracking pairing Muster had before (tests/bench/pairing_before.py), in one run.

Reported, not asserted: these machines are noisy, so the ratio of the two in the same run is
what is printed (with each median). Three events are drawn (seeded): round 1 (random, with
clubs), and Swiss rounds 2 and 4 after random results; each pairing is timed five times.

Run alone with ``.venv/bin/python -m pytest -q -s tests/bench/test_bench_pairing.py``.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from app.rules.club import pairing
from app.rules.club.settings import Settings
from app.rules.club.standings import Entry, Result, standings
from tests.bench import pairing_before as before

PLAYERS = 200
REPEATS = 5


def _event(seed: int, rounds: int) -> list[dict[str, Any]]:
    """The players after ``rounds`` random rounds (paired by today's engine), best first."""
    rng = random.Random(seed)
    clubs = [None, "Hammer", "Anvil", "Forge", "Keep", "Tower"]
    club = {p: rng.choice(clubs) for p in range(PLAYERS)}
    players = [Entry(p, f"P{p}") for p in range(PLAYERS)]
    results: list[Result] = []
    byes: list[tuple[int, int]] = []
    used: dict[int, set[int]] = defaultdict(set)
    for number in range(1, rounds + 1):
        rows = standings(players, results, byes, settings=Settings(tie_breaks=("wins", "points", "vp_diff")))
        met: dict[int, set[int]] = defaultdict(set)
        for r in results:
            met[r.players[0]].add(r.players[1])
            met[r.players[1]].add(r.players[0])
        entrants = [
            pairing.Entrant(
                r.player, r.total, club[r.player], frozenset(met[r.player]), frozenset(used[r.player])
            )
            for r in rows
        ]
        made = pairing.first_round(entrants, rng) if number == 1 else pairing.swiss_round(entrants)
        for t in made.tables:
            for p in t.players:
                used[p].add(t.number)
            results.append(
                Result(number, t.players, rng.choice([0, 1, None]), (rng.randint(0, 30), rng.randint(0, 30)))
            )
        if made.bye is not None:
            byes.append((number, made.bye))
    rows = standings(players, results, byes, settings=Settings(tie_breaks=("wins", "points", "vp_diff")))
    met = defaultdict(set)
    for r in results:
        met[r.players[0]].add(r.players[1])
        met[r.players[1]].add(r.players[0])
    return [
        {
            "id": r.player,
            "points": r.total,
            "club": club[r.player],
            "opponents": frozenset(met[r.player]),
            "tables": frozenset(used[r.player]),
        }
        for r in rows
    ]


def _median(run: Callable[[], Any]) -> float:
    times = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def test_pairing_200_players_against_the_pairing_before() -> None:
    lines = []
    for label, played in (("round 1", 0), ("round 2", 1), ("round 4", 3)):
        players = _event(31, played)
        now = [pairing.Entrant(**p) for p in players]
        then = [before.Entrant(**p) for p in players]
        if played == 0:
            new = _median(lambda now=now: pairing.first_round(now, random.Random(1)))
            old = _median(lambda then=then: before.first_round(then, random.Random(1)))
        else:
            new = _median(lambda now=now: pairing.swiss_round(now))
            old = _median(lambda then=then: before.swiss_round(then))
        made = pairing.first_round(now, random.Random(1)) if played == 0 else pairing.swiss_round(now)
        lines.append(
            f"{label}: matching {new * 1000:,.0f} ms, before {old * 1000:,.0f} ms, ratio {new / old:,.1f}x "
            f"(rematches {made.rematches}, club-mates {made.club_clashes}, tables again {made.repeated_tables})"
        )
    print(f"\nPairing {PLAYERS} players, median of {REPEATS}:")
    for line in lines:
        print("  " + line)
