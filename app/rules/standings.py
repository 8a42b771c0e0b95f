"""An event's standings from its results: tournament points, VP difference, strength of schedule.

Pure: results, byes and roll-offs in, ranked rows out; the page, the API and the PDF all
show these rows, so the published order is one order.

Order: tournament points (win, draw and loss worth what the event set: 3, 1 and 0 unless
it says otherwise), then VP difference, then strength of schedule (the sum of the current
tournament points of every opponent met; a bye has no opponent), then the latest roll-off
the organiser recorded among the players still level. Players level on all four share a
rank and are listed by sign-up order, marked ``tied`` until a roll-off separates them.
A bye counts as a win with no VP either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Scoring:
    """Tournament points for a win, a draw and a loss."""

    win: int = 3
    draw: int = 1
    loss: int = 0


@dataclass(frozen=True)
class Result:
    """A table's confirmed result: ``winner`` 0 or 1 (index into ``players``) or ``None`` for a draw;
    ``vp`` in the order of ``players``."""

    round: int
    players: tuple[int, int]
    winner: int | None
    vp: tuple[int, int]


@dataclass(frozen=True)
class Entry:
    """A player as the standings list them."""

    id: int
    name: str
    dropped: bool = False


@dataclass
class Row:
    """One line of the standings (the API's fields, plus ``tied`` and ``dropped``)."""

    player: int
    name: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    points: int = 0
    vp_for: int = 0
    vp_against: int = 0
    sos: int = 0
    rank: int = 0
    tied: bool = False
    dropped: bool = False
    opponents: list[int] = field(default_factory=list)

    @property
    def vp_diff(self) -> int:
        return self.vp_for - self.vp_against

    def as_dict(self) -> dict[str, object]:
        """The row as the API answers it."""
        return {
            "rank": self.rank,
            "player": self.player,
            "name": self.name,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "byes": self.byes,
            "points": self.points,
            "vp_for": self.vp_for,
            "vp_against": self.vp_against,
            "vp_diff": self.vp_diff,
            "sos": self.sos,
            "tied": self.tied,
            "dropped": self.dropped,
        }


def standings(
    players: Sequence[Entry],
    results: Sequence[Result],
    byes: Sequence[tuple[int, int]] = (),
    rolloffs: Sequence[Sequence[int]] = (),
    scoring: Scoring = Scoring(),
) -> list[Row]:
    """The ranked rows. ``byes`` are ``(round, player)``; ``rolloffs`` are orders the organiser
    recorded, winner first, oldest first (a later one among the same players counts)."""
    rows = {p.id: Row(p.id, p.name, dropped=p.dropped) for p in players}
    signed = {p.id: i for i, p in enumerate(players)}
    for result in results:
        for side in (0, 1):
            me, them = result.players[side], result.players[1 - side]
            row = rows.get(me)
            if row is None:
                continue
            row.vp_for += result.vp[side]
            row.vp_against += result.vp[1 - side]
            row.opponents.append(them)
            if result.winner is None:
                row.draws += 1
                row.points += scoring.draw
            elif result.winner == side:
                row.wins += 1
                row.points += scoring.win
            else:
                row.losses += 1
                row.points += scoring.loss
    for _round, player in byes:
        if player in rows:
            rows[player].wins += 1
            rows[player].byes += 1
            rows[player].points += scoring.win
    for row in rows.values():
        row.sos = sum(rows[o].points for o in row.opponents if o in rows)

    def level(row: Row) -> tuple[int, int, int]:
        return (row.points, row.vp_diff, row.sos)

    ordered = sorted(rows.values(), key=lambda r: (tuple(-x for x in level(r)), signed[r.player]))
    out: list[Row] = []
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and level(ordered[j]) == level(ordered[i]):
            j += 1
        out.extend(_roll_off(ordered[i:j], rolloffs))
        i = j
    rank = 0
    for position, row in enumerate(out, start=1):
        before = out[position - 2] if position > 1 else None
        if before is None or not (row.tied and before.tied and level(row) == level(before)):
            rank = position
        row.rank = rank
    return out


def _roll_off(group: list[Row], rolloffs: Sequence[Sequence[int]]) -> list[Row]:
    """Players level on points, VP difference and SOS, put in order by the latest roll-off
    that names them all; without one they stay tied (same rank) in sign-up order."""
    if len(group) == 1:
        return group
    ids = {r.player for r in group}
    for order in reversed(rolloffs):
        if ids <= set(order):
            place = {p: i for i, p in enumerate(order)}
            return sorted(group, key=lambda r: place[r.player])
    for row in group:
        row.tied = True
    return group
