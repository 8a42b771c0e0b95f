"""Pairing an event's round by maximum-weight matching, with a reason for every table.

Pure: players come in as plain data, best first (the standings' order; round 1's order is
shuffled with the ``random.Random`` the caller passes), and a round comes out as tables, a
bye, a note per table and the warnings the organiser should see before it is played.

Every possible pair gets a cost, and networkx's ``max_weight_matching`` (maximum cardinality:
everyone is paired) picks the pairing of least total cost. The costs are tiered so that a
higher concern always outweighs everything below it:

1. rematches: forbidden while any pairing avoids them, as few as can be otherwise;
2. a fair bye (odd count): nobody gets a second bye (or a second game against the spare)
   while someone who has had none could take it;
3. score groups: pairs inside a score group first; a pair across groups costs the square of
   how many groups apart they are (so one float of two groups costs more than two of one);
   the bye sits one group below the lowest, so it goes to the lowest group;
4. club-mates meeting (a setting, on by default, in every round);
5. standings order: the highest-ranked meets the next one down (the sum of the squared rank
   gaps), so an odd group floats its lowest player to the top of the next, the top player
   takes the highest-ranked they may meet, and round 1, whose order is shuffled, is drawn
   at random.

With an odd count and a spare player (the organiser or a stand-in), the spare takes the
bye's place: whoever the bye would go to plays the spare instead.

Tables are numbered by a second matching: the top pairing near table 1 and so on, and
(a setting, on by default) nobody at a table they played at before where another numbering
avoids it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx

from app.rules.speech import say


@dataclass(frozen=True)
class Entrant:
    """A player as the pairing sees them: standings order is the order of the list given.
    ``name`` and ``record`` (``2–0``) are only for the reasons shown to the organiser."""

    id: int
    points: float = 0
    club: str | None = None
    opponents: frozenset[int] = field(default_factory=frozenset)
    tables: frozenset[int] = field(default_factory=frozenset)
    had_bye: bool = False
    name: str = ""
    record: str = ""

    def label(self) -> str:
        """How the reasons name the player."""
        return self.name or f"Player {self.id}"


@dataclass(frozen=True)
class Options:
    """The event's pairing settings, and the spare player when the count is odd."""

    club_mates: bool = True
    repeat_tables: bool = True
    spare: Entrant | None = None


@dataclass(frozen=True)
class Table:
    """One table of a round: its number, its two players (first named is player 1) and why."""

    number: int
    players: tuple[int, int]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Round:
    """A round's pairing: tables in order of number, the bye (or ``None``), what it gave up.

    ``rematches`` and ``club_clashes`` count the pairs the pairing could not avoid;
    ``repeated_tables`` the players sent back to a table they played at before; ``warnings``
    says each of those (and a second bye) in a sentence; ``bye_note`` why the bye went where.
    """

    tables: tuple[Table, ...]
    bye: int | None
    rematches: int = 0
    club_clashes: int = 0
    repeated_tables: int = 0
    warnings: tuple[str, ...] = ()
    bye_note: str | None = None


BYE = -1  # the bye's place in the matching (a node no player has)


def first_round(players: Sequence[Entrant], rng: random.Random, options: Options = Options()) -> Round:
    """Round 1: a random pairing (the order shuffled), club-mates apart wherever possible."""
    order = list(players)
    rng.shuffle(order)
    return pair(order, options)


def swiss_round(standings: Sequence[Entrant], options: Options = Options()) -> Round:
    """A later round: ``standings`` is the players to pair, best first. Nothing is left to
    chance: the standings' published order decides every choice the costs leave open."""
    return pair(list(standings), options)


def _units(count: int, groups: int) -> tuple[int, int, int, int]:
    """The weight of one unit of each tier, each more than everything below it can add up to."""
    halves = count // 2 + 1
    club = count**3 + 1
    score = club * (halves + 1)
    bye = score * (halves * groups * groups + 1)
    return club, score, bye, bye * 2


def pair(order: list[Entrant], options: Options = Options()) -> Round:
    """Pair ``order`` (best first) by the module's costs; tables numbered after."""
    by_id = {p.id: p for p in order}
    nodes = [p.id for p in order]
    spare = options.spare if len(order) % 2 else None
    if len(order) % 2:
        nodes.append(spare.id if spare else BYE)
        if spare:
            by_id[spare.id] = spare
    levels = sorted({p.points for p in order}, reverse=True)
    group = {p.id: levels.index(p.points) for p in order}
    odd_one = nodes[-1] if len(order) % 2 else None
    if odd_one is not None:
        group[odd_one] = len(levels)  # below the lowest group: the bye goes to the bottom
    rank = {pid: i for i, pid in enumerate(nodes)}
    club_unit, score_unit, bye_unit, rematch_unit = _units(len(nodes), len(levels) + 1)
    top = rematch_unit * (len(nodes) + 1)

    def met(a: int, b: int) -> bool:
        if BYE in (a, b):
            return False
        return b in by_id[a].opponents or a in by_id[b].opponents

    def cost(a: int, b: int) -> int:
        total = (rank[a] - rank[b]) ** 2 + score_unit * (group[a] - group[b]) ** 2
        if met(a, b):
            total += rematch_unit
        if odd_one in (a, b):
            player = b if a == odd_one else a
            if by_id[player].had_bye:
                total += bye_unit
        elif options.club_mates and _club_mates(by_id[a], by_id[b]):
            total += club_unit
        return total

    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    for i, a in enumerate(nodes):
        for b in nodes[i + 1 :]:
            graph.add_edge(a, b, weight=top - cost(a, b))
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    pairs: list[tuple[int, int]] = []
    bye = None
    for a, b in matched:
        a, b = (a, b) if rank[a] < rank[b] else (b, a)
        if b == BYE:
            bye = a
        else:
            pairs.append((a, b))
    pairs.sort(key=lambda p: rank[p[0]])
    used = {p.id: p.tables for p in by_id.values()}
    tables, repeated = assign_tables(pairs, used, options.repeat_tables)
    return _explain(tables, bye, by_id, order, options, group, repeated)


def _club_mates(a: Entrant, b: Entrant) -> bool:
    return bool(a.club) and a.club == b.club


def assign_tables(
    pairs: Sequence[tuple[int, int]], used: dict[int, frozenset[int]], avoid: bool = True
) -> tuple[tuple[Table, ...], int]:
    """Number the tables: pair i (from the top) near table i and, with ``avoid``, at a table
    neither player used where any numbering allows (a matching of pairs to tables).

    Returns the tables in number order and how many players sit at a table they used before.
    """
    count = len(pairs)

    def repeats(i: int, number: int) -> int:
        return sum(1 for p in pairs[i] if number in used.get(p, frozenset()))

    placed = {i: i + 1 for i in range(count)}
    if avoid and any(repeats(i, n) for i, n in placed.items()):
        unit = count * count + 1
        graph = nx.Graph()
        for i in range(count):
            for number in range(1, count + 1):
                cost = repeats(i, number) * unit + abs(number - 1 - i)
                graph.add_edge(("pair", i), ("table", number), weight=unit * (2 * count + 1) - cost)
        for a, b in nx.max_weight_matching(graph, maxcardinality=True):
            (_kind, i), (_other, number) = (a, b) if a[0] == "pair" else (b, a)
            placed[i] = number
    repeated = sum(repeats(i, n) for i, n in placed.items())
    tables = tuple(sorted((Table(n, pairs[i]) for i, n in placed.items()), key=lambda t: t.number))
    return tables, repeated


def _explain(
    tables: tuple[Table, ...],
    bye: int | None,
    by_id: dict[int, Entrant],
    order: list[Entrant],
    options: Options,
    group: dict[int, int],
    repeated: int,
) -> Round:
    """Each table's reason and the round's warnings, in the organiser's words."""
    clubs = Counter(p.club for p in order if p.club)
    spare = options.spare.id if options.spare else None
    warnings: list[str] = []
    explained: list[Table] = []
    rematches = clashes = 0
    for table in tables:
        a, b = (by_id[p] for p in table.players)
        notes = []
        if b.id == spare:
            notes.append(say("{record} plays the spare: an odd number of players", record=a.record or "–"))
        else:
            scores = say("{a} vs {b}", a=a.record or a.points, b=b.record or b.points)
            notes.append(
                scores if group[a.id] == group[b.id] else say("{scores}: paired across scores", scores=scores)
            )
        if b.id in a.opponents or a.id in b.opponents:
            rematches += 1
            notes.append(say("a rematch"))
            warnings.append(
                say("{a} and {b} meet again: no pairing avoids every rematch.", a=a.label(), b=b.label())
            )
        if _club_mates(a, b):
            clashes += 1
            if options.club_mates:
                notes.append(say("club-mates"))
                warnings.append(
                    say(
                        "{a} and {b} are both of {club}: no pairing keeps every club apart.",
                        a=a.label(),
                        b=b.label(),
                        club=a.club,
                    )
                )
        elif options.club_mates and (clubs[a.club] > 1 or clubs[b.club] > 1):
            notes.append(say("club-mates avoided"))
        again = [p for p in (a, b) if table.number in p.tables]
        if not again:
            notes.append(say("new table"))
        else:
            if len(again) > 1:
                notes.append(
                    say(
                        "table {number} again for {a} and {b}",
                        number=table.number,
                        a=again[0].label(),
                        b=again[1].label(),
                    )
                )
            else:
                notes.append(
                    say("table {number} again for {name}", number=table.number, name=again[0].label())
                )
            if options.repeat_tables and len(again) > 1:
                warnings.append(
                    say(
                        "{a} and {b} play at table {number} again: no numbering avoids it.",
                        a=again[0].label(),
                        b=again[1].label(),
                        number=table.number,
                    )
                )
            elif options.repeat_tables:
                warnings.append(
                    say(
                        "{name} plays at table {number} again: no numbering avoids it.",
                        name=again[0].label(),
                        number=table.number,
                    )
                )
        explained.append(Table(table.number, table.players, tuple(notes)))
    bye_note = None
    if bye is not None:
        player = by_id[bye]
        if player.had_bye:
            bye_note = say(
                "bye to {name} ({record}), a second one",
                name=player.label(),
                record=player.record or player.points,
            )
            warnings.append(
                say("{name} has a second bye: nobody who has had none could take it.", name=player.label())
            )
        else:
            lowest = next((p for p in reversed(order) if not p.had_bye), None)
            why = (
                say("the lowest-ranked without one")
                if lowest is not None and lowest.id == bye
                else say(
                    "a lower-ranked player's bye would have cost a rematch, a float or club-mates meeting"
                )
            )
            bye_note = say(
                "bye to {name} ({record}): {why}",
                name=player.label(),
                record=player.record or player.points,
                why=why,
            )
    if spare is not None and any(spare in t.players for t in tables):
        player = next(by_id[p] for t in tables if spare in t.players for p in t.players if p != spare)
        if player.had_bye:
            warnings.append(say("{name} plays the spare again: nobody else could.", name=player.label()))
    return Round(tuple(explained), bye, rematches, clashes, repeated, tuple(warnings), bye_note)
