"""Lists submitted to a club event: their verdict for the event, when others may see them, and
what changed in a roster since it was locked.

Pure: a roster's body and its verdict (app/rules/army.py) in, plain data out.

- A list's verdict for the event is the roster's own (points, valid, problems by its pack's
  army rules) plus one problem when it is over the points the event is played at.
- When a list is shown to others (its opponents, the event page, the printed pack of lists
  and the exports): with ``reveal`` ``pairing``, once its player is seated in a paired round
  (at a table or with the bye); with ``start``, once a round they are seated in has started.
  Before that only its player and the organiser see it.
- A roster changed after the lock is compared entry by entry (by name, with points and
  count) with the copy kept at submission; each difference is one line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.rules.speech import say

# The roster's fields a change names, said in the reader's language when the change is read.
_FIELDS = {
    "name": lambda: say("name"),
    "faction": lambda: say("faction"),
    "subfaction": lambda: say("subfaction"),
    "grand_strategy": lambda: say("grand strategy"),
}


@dataclass(frozen=True)
class RoundSeats:
    """A paired round as the reveal rule needs it: its number, whether it started, who sits."""

    number: int
    started: bool
    seated: frozenset[int]


def event_verdict(verdict: dict[str, Any], body: dict[str, Any], event_points: int) -> dict[str, Any]:
    """The list's verdict at the event: points, valid, problems (sentences), name and faction."""
    problems = [p["message"] if isinstance(p, dict) else str(p) for p in verdict.get("problems", [])]
    points = int(verdict.get("points") or 0)
    if points > event_points:
        problems.append(
            say(
                "The list is {points:,} points, over the {limit:,} the event is played at.",
                points=points,
                limit=event_points,
            )
        )
    return {
        "name": body.get("name") or "",
        "faction": body.get("faction") or "",
        "points": points,
        "valid": not problems,
        "problems": problems,
    }


def revealed(player: int, reveal: str, rounds: Iterable[RoundSeats]) -> bool:
    """Whether the player's list is shown to others by now (see the module's notes)."""
    return any(player in r.seated and (reveal == "pairing" or r.started) for r in rounds)


def _points(entry: dict[str, Any]) -> int:
    """An entry's points with its officers and retinue (First Blood prices them apart)."""
    extra = [m for key in ("officers", "retinue") for m in entry.get(key) or [] if isinstance(m, dict)]
    return int(entry.get("points") or 0) + sum(int(m.get("points") or 0) for m in extra)


def _entries(body: dict[str, Any]) -> Counter[tuple[str, int]]:
    out: Counter[tuple[str, int]] = Counter()
    for entry in body.get("entries") or []:
        if isinstance(entry, dict):
            out[(str(entry.get("name") or "?"), _points(entry))] += 1
    return out


def changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What differs in ``after`` (the roster now) from ``before`` (the copy locked), one line each."""
    lines: list[str] = []
    old, new = _entries(before), _entries(after)
    for (name, points), count in sorted((new - old).items()):
        if count > 1:
            lines.append(
                say("added: {name} ({points:,} points) x{count}", name=name, points=points, count=count)
            )
        else:
            lines.append(say("added: {name} ({points:,} points)", name=name, points=points))
    for (name, points), count in sorted((old - new).items()):
        if count > 1:
            lines.append(
                say("removed: {name} ({points:,} points) x{count}", name=name, points=points, count=count)
            )
        else:
            lines.append(say("removed: {name} ({points:,} points)", name=name, points=points))
    for key in ("name", "faction", "subfaction", "grand_strategy"):
        if (before.get(key) or "") != (after.get(key) or ""):
            lines.append(
                say(
                    "{field}: {before} → {after}",
                    field=_FIELDS[key](),
                    before=before.get(key) or say("none"),
                    after=after.get(key) or say("none"),
                )
            )
    total_before = sum(p * c for (_n, p), c in old.items())
    total_after = sum(p * c for (_n, p), c in new.items())
    if total_before != total_after:
        lines.append(say("points: {before:,} → {after:,}", before=total_before, after=total_after))
    if not lines and before.get("entries") != after.get("entries"):
        lines.append(say("details of an entry changed (roles, keywords or notes)"))
    return lines
