"""Pairing and standings over many random events, checked against every constraint.

Each event is drawn from a seed (its test id), so a failure replays exactly. The checks are
written here, independently of the engines:

- everyone who has not dropped is seated exactly once, tables numbered from 1;
- no rematch while some pairing avoids every one (a randomised Tutte-matrix test of whether
  a perfect matching exists), for every player who might have taken the bye;
- the bye: nobody has a second one while a player without one could take it and leave the
  rest a pairing without a rematch; at most one bye a player over the event;
- no two tables could swap opponents (or the bye trade places with a seated player) for a
  pairing better on rematches, then fair byes, then score groups (the squared number of
  groups apart), then club-mates meeting (when the event keeps them apart);
- round 1 keeps clubs apart as far as the clubs allow (only a club's surplus meets);
- no two tables could swap numbers and seat fewer players at a table they used before;
- the standings' order recomputed from the results by W-L-D, tournament points, VP difference.

Small in ``make test`` (``soak``-marked: easy to find): 16 events of 7 to 40 players and one
of 200 over two rounds; ``MUSTER_SOAK=1`` runs it full size: 120 events, and four of 199 or
200 players over five rounds.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from itertools import combinations

import pytest

from app.rules.club.pairing import Entrant, Options, first_round, swiss_round
from app.rules.club.settings import Settings
from app.rules.club.standings import Entry, Result, standings
from tests import soak

PRIME = (1 << 61) - 1
SOAK = soak.SOAK
SEEDS = range(120) if SOAK else range(16)
BIG_SEEDS = range(4) if SOAK else range(1)
BIG_ROUNDS = 5 if SOAK else 2
RANKING = Settings(tie_breaks=("wins", "points", "vp_diff"))

pytestmark = pytest.mark.soak


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
    """The standings order the long way: wins, draws, fewer losses, then 3/1/0 points, then VP
    difference, then sign-up order (byes: a win worth 3 with no VP)."""
    wins, draws, losses, points, diff = Counter(), Counter(), Counter(), Counter(), Counter()
    for r in results:
        (a, b), (va, vb) = r.players, r.vp
        diff[a] += va - vb
        diff[b] += vb - va
        if r.winner is None:
            draws[a] += 1
            draws[b] += 1
            points[a] += 1
            points[b] += 1
        else:
            won, lost = r.players[r.winner], r.players[1 - r.winner]
            wins[won] += 1
            losses[lost] += 1
            points[won] += 3
    for _round, p in byes:
        wins[p] += 1
        points[p] += 3
    signup = {p.id: i for i, p in enumerate(players)}
    return sorted(
        (p.id for p in players),
        key=lambda i: (-wins[i], -draws[i], losses[i], -points[i], -diff[i], signup[i]),
    )


class Costs:
    """The pairing's concerns, computed here from the players as the engine was given them."""

    def __init__(self, entrants: list[Entrant], clubs_apart: bool) -> None:
        self.by_id = {e.id: e for e in entrants}
        levels = sorted({e.points for e in entrants}, reverse=True)
        self.group = {e.id: levels.index(e.points) for e in entrants}
        self.bottom = len(levels)  # the bye's group: one below the lowest
        self.clubs_apart = clubs_apart

    def met(self, a: int, b: int) -> bool:
        return b in self.by_id[a].opponents

    def table(self, a: int, b: int) -> tuple[int, int, int, int]:
        """(rematches, unfair byes, score, club-mates) of one table."""
        club = self.by_id[a].club
        clash = int(self.clubs_apart and club is not None and club == self.by_id[b].club)
        return (int(self.met(a, b)), 0, (self.group[a] - self.group[b]) ** 2, clash)

    def bye(self, p: int) -> tuple[int, int, int, int]:
        return (0, int(self.by_id[p].had_bye), (self.bottom - self.group[p]) ** 2, 0)

    @staticmethod
    def total(*parts: tuple[int, int, int, int]) -> tuple[int, ...]:
        return tuple(sum(p[i] for p in parts) for i in range(4))


def check_local_optimum(made, costs: Costs) -> None:
    """No two tables (or a table and the bye) could trade players for a better pairing."""
    pairs = [t.players for t in made.tables]
    for (a, b), (c, d) in combinations(pairs, 2):
        now = Costs.total(costs.table(a, b), costs.table(c, d))
        for alt in ((costs.table(a, c), costs.table(b, d)), (costs.table(a, d), costs.table(b, c))):
            assert Costs.total(*alt) >= now, ((a, b), (c, d))
    if made.bye is not None:
        x = made.bye
        for a, b in pairs:
            now = Costs.total(costs.bye(x), costs.table(a, b))
            for stay, leave in ((a, b), (b, a)):
                alt = Costs.total(costs.bye(leave), costs.table(x, stay))
                assert alt >= now, (x, (a, b))


def check_tables(made, entrants: list[Entrant]) -> None:
    """No two tables could swap numbers and send fewer players back to a table they used."""
    used = {e.id: e.tables for e in entrants}

    def repeats(players, number):
        return sum(1 for p in players if number in used[p])

    assert made.repeated_tables == sum(repeats(t.players, t.number) for t in made.tables)
    for t, u in combinations(made.tables, 2):
        now = repeats(t.players, t.number) + repeats(u.players, u.number)
        assert repeats(t.players, u.number) + repeats(u.players, t.number) >= now


def play_event(seed: int, count: int, rounds: int) -> None:
    rng = random.Random(seed)
    clubs = [None, *(f"club-{c}" for c in range(rng.randint(1, 6)))]
    club = {p: rng.choice(clubs) for p in range(count)}
    if seed % 7 == 0:  # now and then one club brings most of the room
        club = {p: ("Big" if p < count * 2 // 3 else club[p]) for p in range(count)}
    clubs_apart = seed % 5 != 4
    players = [Entry(p, f"P{p}") for p in range(count)]
    results: list[Result] = []
    byes: list[tuple[int, int]] = []
    used: dict[int, set[int]] = defaultdict(set)
    dropped: set[int] = set()
    check = random.Random(seed)
    for number in range(1, rounds + 1):
        table = standings(
            [Entry(p.id, p.name, p.id in dropped) for p in players],
            results,
            byes,
            settings=RANKING,
            points_limit=0,
        )
        assert [r.player for r in table] == expected_order(players, results, byes)
        met: dict[int, set[int]] = defaultdict(set)
        for r in results:
            met[r.players[0]].add(r.players[1])
            met[r.players[1]].add(r.players[0])
        had_bye = {p for _r, p in byes}
        entrants = [
            Entrant(
                r.player,
                r.total,
                club[r.player],
                frozenset(met[r.player]),
                frozenset(used[r.player]),
                r.player in had_bye,
            )
            for r in table
            if r.player not in dropped
        ]
        active = [e.id for e in entrants]
        options = Options(club_mates=clubs_apart)
        made = (
            first_round(entrants, random.Random(seed * 100 + number), options)
            if number == 1
            else swiss_round(entrants, options)
        )
        seated = [p for t in made.tables for p in t.players] + ([made.bye] if made.bye is not None else [])
        assert sorted(seated) == sorted(active)
        assert [t.number for t in made.tables] == list(range(1, len(made.tables) + 1))
        costs = Costs(entrants, clubs_apart)
        rematches = sum(1 for t in made.tables if costs.met(*t.players))
        assert rematches == made.rematches
        if rematches:  # only when, whoever has the bye, no pairing avoids every rematch
            candidates = active if len(active) % 2 else [None]
            for bye in candidates:
                left = [p for p in active if p != bye]
                assert not perfect_matching_exists(left, lambda a, b, met=met: b not in met[a], check)
        if made.bye is not None and made.bye in had_bye and not rematches:
            for other in active:
                if other in had_bye:
                    continue
                left = [p for p in active if p != other]
                assert not perfect_matching_exists(left, lambda a, b, met=met: b not in met[a], check)
        check_local_optimum(made, costs)
        check_tables(made, entrants)
        if number == 1 and clubs_apart:
            rest = [p for p in active if p != made.bye]
            sizes = Counter(club[p] for p in rest if club[p])
            biggest = max(sizes.values(), default=0)
            assert made.club_clashes == max(0, biggest - len(rest) // 2)
        if made.bye is not None:
            byes.append((number, made.bye))
        for t in made.tables:
            for p in t.players:
                used[p].add(t.number)
            outcome = rng.random()
            winner = None if outcome < 0.15 else (0 if outcome < 0.6 else 1)
            results.append(Result(number, t.players, winner, (rng.randint(0, 30), rng.randint(0, 30))))
        if rng.random() < 0.3 and len(active) > 7:
            dropped.add(rng.choice(active))
        elif dropped and rng.random() < 0.3:
            dropped.discard(min(dropped))
    byes_each = Counter(p for _r, p in byes)
    if len(byes) <= count - len(dropped):
        assert max(byes_each.values(), default=0) <= 1
    final = standings(players, results, byes, settings=RANKING, points_limit=0)
    assert [r.player for r in final] == expected_order(players, results, byes)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_events_pair_and_rank_by_the_rules(seed):
    rng = random.Random(seed)
    play_event(seed, rng.randint(7, 40), rng.randint(3, 6))


@pytest.mark.parametrize("seed", BIG_SEEDS)
def test_random_200_player_events_pair_and_rank_by_the_rules(seed):
    play_event(1000 + seed, 200 - seed % 2, BIG_ROUNDS)
