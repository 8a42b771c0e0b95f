"""Contingents: an army split into parts that fight at different times or places.

The Relief Force splits the defender's army into a garrison and a relief force (at least
one relief unit per garrison unit); Tunnel Wars splits each army into three contingents of
a quarter to a half of its units. The scenario's :class:`~app.rules.pack.Contingents` says
which; these checks take counts, or the units' names when a roster is attached.
"""

from __future__ import annotations

from app.rules.pack import Contingents


def part(value: int | list[str]) -> tuple[int, tuple[str, ...]]:
    """A contingent as an event's model read it (a count, or its units' names): how many units,
    and their names (none for a count). A name twice is two units of one warscroll; an attached
    roster says how many there are."""
    if isinstance(value, list):
        return len(value), tuple(value)
    return value, ()


def _share(n: int, total: int, share: tuple[int, int]) -> float:
    return n * share[1] - total * share[0]


def split_problems(rules: Contingents, sizes: list[int], labels: list[str]) -> list[str]:
    """What breaks the scenario's limits on contingent sizes, one sentence each (none: fine)."""
    total = sum(sizes)
    out: list[str] = []
    if any(n < 1 for n in sizes):
        out.append("Every contingent needs at least one unit.")
    if rules.at_least_per is not None:
        more, per = (rules.ids.index(i) for i in rules.at_least_per)
        if sizes[more] < sizes[per]:
            out.append(
                f"The {labels[more]} has {sizes[more]} units and the {labels[per]} {sizes[per]}: "
                f"it needs at least one unit for each unit of the {labels[per]}."
            )
    for n, label in zip(sizes, labels, strict=True):
        low, high = rules.min_share, rules.max_share
        if low is not None and _share(n, total, low) < 0:
            out.append(f"The {label} has {n} of {total} units: fewer than {low[0]}/{low[1]} of the army.")
        if high is not None and _share(n, total, high) > 0:
            out.append(f"The {label} has {n} of {total} units: more than {high[0]}/{high[1]} of the army.")
    return out


def roster_problems(roster: list[str], parts: list[tuple[str, ...]], labels: list[str]) -> list[str]:
    """Whether named contingents hold exactly the attached roster's units, each once."""
    out: list[str] = []
    placed = [n for part in parts for n in part]
    for name in dict.fromkeys(placed):
        if placed.count(name) > roster.count(name):
            where = [label for part, label in zip(parts, labels, strict=True) if name in part]
            if name not in roster:
                out.append(f"{name} is not in the attached roster.")
            else:
                out.append(f"{name} is placed in {' and '.join(where)} more times than the roster holds it.")
    missing = list(roster)
    for name in placed:
        if name in missing:
            missing.remove(name)
    for name in dict.fromkeys(missing):
        out.append(f"{name} from the attached roster is in no contingent.")
    return out
