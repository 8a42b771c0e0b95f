"""Pairing and standings over many random events of 7 to 40 players with random results.

Each event is drawn from a seed (its test id), so a failure replays exactly. The checks are
written here, independently of the engines: club-mates apart in round 1 when the clubs allow
it, no rematch when some pairing avoids it (a randomised Tutte-matrix test of whether a
perfect matching exists), at most one bye per player, no two players of one score group both
floated down when they could have met (given the tables above them), and the standings'
order recomputed from the results.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict

import pytest

from app.rules.pairing import Entrant, first_round, swiss_round
from app.rules.standings import Entry, Result, standings

PRIME = (1 << 61) - 1


def perfect_matching_exists(vertices: list[int], edge, rng: random.Random) -> bool:
    """Whether the graph has a perfect matching: the Tutte matrix with random values is
    non-singular (mod a large prime) exactly when one exists, but for a chance of n / 2^61."""
    n = len(vertices)
    if n % 2:
        return False
    if n == 0:
        return True
    m = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if edge(vertices[i], vertices[j]):
                x = rng.randrange(1, PRIME)
                m[i][j], m[j][i] = x, PRIME - x
    for col in range(n):  # Gaussian elimination mod PRIME: non-singular iff a pivot in every column
        pivot = next((r for r in range(col, n) if m[r][col]), None)
        if pivot is None:
            return False
        m[col], m[pivot] = m[pivot], m[col]
        inv = pow(m[col][col], PRIME - 2, PRIME)
        for r in range(col + 1, n):
            if m[r][col]:
                f = m[r][col] * inv % PRIME
                m[r] = [(a - f * b) % PRIME for a, b in zip(m[r], m[col], strict=True)]
    return True


def expected_order(players, results, byes):
    """The standings order computed the long way: points (3/1/0), VP difference, SOS, sign-up."""
    points, diff, opps = Counter(), Counter(), defaultdict(list)
    for r in results:
        (a, b), (va, vb) = r.players, r.vp
        diff[a] += va - vb
        diff[b] += vb - va
        opps[a].append(b)
        opps[b].append(a)
        if r.winner is None:
            points[a] += 1
            points[b] += 1
        else:
            points[r.players[r.winner]] += 3
    for _round, p in byes:
        points[p] += 3
    sos = {p.id: sum(points[o] for o in opps[p.id]) for p in players}
    signup = {p.id: i for i, p in enumerate(players)}
    return sorted((p.id for p in players), key=lambda i: (-points[i], -diff[i], -sos[i], signup[i]))


@pytest.mark.parametrize("seed", range(120))
def test_random_events_pair_and_rank_by_the_rules(seed):
    rng = random.Random(seed)
    count = rng.randint(7, 40)
    clubs = [None, *(f"club-{c}" for c in range(rng.randint(1, 6)))]
    club = {p: rng.choice(clubs) for p in range(count)}
    if seed % 7 == 0:  # now and then one club brings most of the room
        club = {p: ("Big" if p < count * 2 // 3 else club[p]) for p in range(count)}
    players = [Entry(p, f"P{p}") for p in range(count)]
    rounds = rng.randint(3, 6)
    results: list[Result] = []
    byes: list[tuple[int, int]] = []
    dropped: set[int] = set()
    for number in range(1, rounds + 1):
        table = standings([Entry(p.id, p.name, p.id in dropped) for p in players], results, byes)
        assert [r.player for r in table] == expected_order(players, results, byes)
        met: dict[int, set[int]] = defaultdict(set)
        for r in results:
            met[r.players[0]].add(r.players[1])
            met[r.players[1]].add(r.players[0])
        had_bye = {p for _r, p in byes}
        points = {r.player: r.points for r in table}
        entrants = [
            Entrant(
                r.player, r.points, club[r.player], frozenset(met[r.player]), frozenset(), r.player in had_bye
            )
            for r in table
            if r.player not in dropped
        ]
        active = [e.id for e in entrants]
        made = (
            first_round(entrants, random.Random(seed * 100 + number))
            if number == 1
            else swiss_round(entrants)
        )
        seated = [p for t in made.tables for p in t.players] + ([made.bye] if made.bye is not None else [])
        assert sorted(seated) == sorted(active)
        assert [t.number for t in made.tables] == list(range(1, len(made.tables) + 1))
        rest = [p for p in active if p != made.bye]
        check = random.Random(seed)
        if number == 1:
            sizes = Counter(club[p] for p in rest if club[p])
            biggest = max(sizes.values(), default=0)
            assert made.club_clashes == max(0, biggest - len(rest) // 2)
            assert made.club_clashes == sum(
                1 for t in made.tables if club[t.players[0]] and club[t.players[0]] == club[t.players[1]]
            )
        else:
            rematches = sum(1 for t in made.tables if t.players[1] in met[t.players[0]])
            assert rematches == made.rematches
            if rematches:  # only when no bye and no pairing avoids every rematch
                candidates = [p for p in active if p not in had_bye] or active if len(active) % 2 else [None]
                for bye in candidates:
                    left = [p for p in active if p != bye]
                    assert not perfect_matching_exists(left, lambda a, b, met=met: b not in met[a], check)
            # Score groups: each player, from the top, meets the highest-ranked player left
            # whom they have not met and who still lets the rest pair without a rematch. So
            # when two of one score group both float down, never having met, then with every
            # table above the higher of them as it is, pairing the two leaves no such pairing.
            rank = {p: i for i, p in enumerate(active)}
            down = {a for t in made.tables for a, b in (t.players, t.players[::-1]) if points[a] > points[b]}
            for a in down:
                for c in down:
                    if (
                        rank[a] < rank[c]
                        and points[a] == points[c]
                        and c not in met[a]
                        and not made.rematches
                    ):
                        above = {
                            p
                            for t in made.tables
                            if min(rank[q] for q in t.players) < rank[a]
                            for p in t.players
                        }
                        left = [p for p in rest if p not in above | {a, c}]
                        assert not perfect_matching_exists(
                            left, lambda x, y, met=met: y not in met[x], check
                        ), (a, c)
        if made.bye is not None:
            assert made.bye not in had_bye or len(had_bye & set(active)) == len(active)
            byes.append((number, made.bye))
        for t in made.tables:
            outcome = rng.random()
            winner = None if outcome < 0.15 else (0 if outcome < 0.6 else 1)
            results.append(Result(number, t.players, winner, (rng.randint(0, 30), rng.randint(0, 30))))
        if rng.random() < 0.3 and len(active) > 7:
            dropped.add(rng.choice(active))
        elif dropped and rng.random() < 0.3:
            dropped.discard(min(dropped))
    assert max(Counter(p for _r, p in byes).values(), default=0) <= 1
    final = standings(players, results, byes)
    assert [r.player for r in final] == expected_order(players, results, byes)
