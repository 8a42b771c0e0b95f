"""Muster's pairing before issue 31 (commit 7b16873, app/rules/club/pairing.py): a backtracking
search, kept here only so that tests/bench/test_bench_pairing.py can time today's matching
against it in one run. Not used by the app."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

# How many steps one search may take before the pairing relaxes a constraint: a rematch-free
# pairing of 40 players is found in well under a thousand; a room where none exists could
# otherwise search for ever.
SEARCH_STEPS = 20_000


@dataclass(frozen=True)
class Entrant:
    """A player as the pairing sees them: standings order is the order of the list given."""

    id: int
    points: float = 0
    club: str | None = None
    opponents: frozenset[int] = field(default_factory=frozenset)
    tables: frozenset[int] = field(default_factory=frozenset)
    had_bye: bool = False


@dataclass(frozen=True)
class Table:
    """One table of a round: its number and its two players (first named is player 1)."""

    number: int
    players: tuple[int, int]


@dataclass(frozen=True)
class Round:
    """A round's pairing: tables in order of number, the bye (or ``None``) and what it gave up.

    ``rematches`` and ``club_clashes`` count the pairs the pairing could not avoid;
    ``repeated_tables`` the players sent back to a table they played at before.
    """

    tables: tuple[Table, ...]
    bye: int | None
    rematches: int = 0
    club_clashes: int = 0
    repeated_tables: int = 0


Allowed = Callable[[int, int], bool]


def _match(
    order: Sequence[int], allowed: Allowed, candidates: Callable[[int, list[int]], list[int]]
) -> list[tuple[int, int]] | None:
    """A perfect pairing of ``order`` where every pair is ``allowed``, or ``None``.

    The first unpaired player in ``order`` takes each of ``candidates(player, rest)`` in turn;
    a dead end backs up to the last choice. ``None`` too when the search runs past
    SEARCH_STEPS (the caller then relaxes a constraint).
    """
    steps = 0

    def search(rest: list[int]) -> list[tuple[int, int]] | None:
        nonlocal steps
        if not rest:
            return []
        steps += 1
        if steps > SEARCH_STEPS:
            return None
        top, others = rest[0], rest[1:]
        for other in candidates(top, others):
            if not allowed(top, other):
                continue
            remaining = [p for p in others if p != other]
            found = search(remaining)
            if found is not None:
                return [(top, other), *found]
            if steps > SEARCH_STEPS:
                return None
        return None

    return search(list(order))


def _in_order(_player: int, rest: list[int]) -> list[int]:
    return rest


def first_round(players: Sequence[Entrant], rng: random.Random) -> Round:
    """Round 1: a random pairing with club-mates kept apart wherever that is possible."""
    ids = [p.id for p in players]
    club = {p.id: p.club for p in players}
    rng.shuffle(ids)
    bye = None
    if len(ids) % 2:
        sizes = Counter(c for c in club.values() if c)
        biggest = max(sizes.values(), default=0)
        pool = [p for p in ids if club[p] and sizes[club[p]] == biggest] or ids
        bye = rng.choice(pool)
        ids.remove(bye)
    sizes = Counter(club[p] for p in ids if club[p])
    # The most constrained first: the biggest club's players take their opponents first.
    ids.sort(key=lambda p: -sizes[club[p]] if club[p] else 0)

    def apart(a: int, b: int) -> bool:
        return club[a] is None or club[a] != club[b]

    def shuffled(_player: int, rest: list[int]) -> list[int]:
        return rng.sample(rest, len(rest))

    pairs = _match(ids, apart, shuffled)
    if pairs is None:
        pairs = _fewest_clashes(ids, club, rng)
    clashes = sum(1 for a, b in pairs if not apart(a, b))
    tables = tuple(Table(n, pair) for n, pair in enumerate(pairs, start=1))
    return Round(tables, bye, club_clashes=clashes)


def _fewest_clashes(ids: list[int], club: dict[int, str | None], rng: random.Random) -> list[tuple[int, int]]:
    """A pairing with as few club-mates meeting as can be, when none keeps them all apart.

    A club bigger than everyone else put together pairs its surplus inside itself (each such
    pair is a clash no pairing avoids); the rest is then paired apart.
    """
    left = list(ids)
    pairs: list[tuple[int, int]] = []
    while left:
        sizes = Counter(club[p] for p in left if club[p])
        name, size = sizes.most_common(1)[0] if sizes else (None, 0)
        if name is not None and size > len(left) - size:
            mates = [p for p in left if club[p] == name][:2]
            pairs.append((mates[0], mates[1]))
            for p in mates:
                left.remove(p)
            continue
        rest = _match(
            left, lambda a, b: club[a] is None or club[a] != club[b], lambda _p, r: rng.sample(r, len(r))
        )
        pairs.extend(rest or [(left[i], left[i + 1]) for i in range(0, len(left), 2)])
        break
    return pairs


def swiss_round(standings: Sequence[Entrant]) -> Round:
    """A later round: ``standings`` is the players to pair, best first (see the module's notes).

    Nothing is left to chance: the standings' published order decides every choice.
    """
    order = [p.id for p in standings]
    by_id = {p.id: p for p in standings}

    def unplayed(a: int, b: int) -> bool:
        return b not in by_id[a].opponents

    bye = None
    pairs: list[tuple[int, int]] | None = None
    if len(order) % 2:
        fresh = [p for p in reversed(order) if not by_id[p].had_bye]
        if not fresh:  # everyone had one: it comes round again, to the lowest-ranked
            fresh = list(reversed(order))
        for candidate in fresh:
            rest = [p for p in order if p != candidate]
            pairs = _match(rest, unplayed, _in_order)
            if pairs is not None:
                bye = candidate
                break
        if bye is None:
            bye = fresh[0]
    else:
        pairs = _match(order, unplayed, _in_order)
    rest = [p for p in order if p != bye]
    if pairs is None:
        pairs = _fewest_rematches(rest, unplayed)
    rematches = sum(1 for a, b in pairs if not unplayed(a, b))
    tables, repeated = assign_tables(pairs, {p.id: p.tables for p in standings})
    return Round(tables, bye, rematches=rematches, repeated_tables=repeated)


def _fewest_rematches(order: list[int], unplayed: Allowed) -> list[tuple[int, int]]:
    """Pair in standings order when no pairing avoids every rematch: each player takes the
    next one they have not met where there is one, else the next one below them."""
    left = list(order)
    pairs: list[tuple[int, int]] = []
    while left:
        top = left.pop(0)
        other = next((p for p in left if unplayed(top, p)), left[0])
        left.remove(other)
        pairs.append((top, other))
    return pairs


def assign_tables(
    pairs: Sequence[tuple[int, int]], used: dict[int, frozenset[int]]
) -> tuple[tuple[Table, ...], int]:
    """Number the tables: pair i (from the top) near table i, at a table neither player used.

    A bipartite matching of pairs to tables (augmenting paths, each pair trying the tables
    nearest its own place first); pairs left without a fresh table take the tables left.
    Returns the tables in number order and how many players sit at a table they used before.
    """
    count = len(pairs)
    numbers = list(range(1, count + 1))
    holder: dict[int, int] = {}  # table number -> pair index

    def fresh(i: int, number: int) -> bool:
        a, b = pairs[i]
        return number not in used.get(a, frozenset()) and number not in used.get(b, frozenset())

    def place(i: int, seen: set[int]) -> bool:
        for number in sorted(numbers, key=lambda n: (abs(n - 1 - i), n)):
            if number in seen or not fresh(i, number):
                continue
            seen.add(number)
            if number not in holder or place(holder[number], seen):
                holder[number] = i
                return True
        return False

    for i in range(count):
        place(i, set())
    placed = {i: n for n, i in holder.items()}
    free = [n for n in numbers if n not in holder]
    for i in range(count):
        if i not in placed:
            placed[i] = free.pop(0)
    repeated = sum(1 for i, n in placed.items() for p in pairs[i] if n in used.get(p, frozenset()))
    tables = tuple(sorted((Table(n, pairs[i]) for i, n in placed.items()), key=lambda t: t.number))
    return tables, repeated
