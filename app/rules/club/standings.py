"""An event's standings from its results: W-L-D, tournament points, VP, strength of schedule,
head-to-head and roll-offs, in the order the organiser chose.

Pure: results, byes, missed rounds, roll-offs, soft scores and the event's settings in,
ranked rows out; the page, the board, the API, the exports and the PDFs all show these rows,
so the published order is one order.

- Each result's tournament points (TP) come from the event's scoring (app/rules/club/tournament_points.py),
  with the reason, per round.
- A bye counts as the event sets: by default a win by the points the event is played at
  (VP for, none against), worth what the scoring gives that win. It has no opponent.
- A round a late player missed counts as a loss (the scoring's lowest TP, no VP either way)
  or as a bye, as the event sets.
- Soft scores (painting marks, sportsmanship votes received) add ``weight`` TP a point to the
  ``total`` when they count in the standings; a prize of its own leaves the total alone.
- Strength of schedule (``sos``) is the average, over the opponents met, of their tournament
  points (or their wins, byes included), to two decimals; a spare player (a stand-in) does
  not count toward it and is not ranked.
- The order is the organiser's list of tie-breaks (by default W-L-D, tournament points,
  VP difference, strength of schedule, head-to-head, roll-off): each one separates the players
  still level on all before it. W-L-D is more wins, then more draws, then fewer losses. Head-to-head separates
  a level group only when each of them has met each other one (wins 1, draws half, among
  them). The roll-off is the latest one the organiser recorded naming them all. Players
  level on everything share a rank, are listed by sign-up order and are marked ``tied``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.rules.club import tournament_points as tp
from app.rules.club.settings import Settings
from app.rules.speech import say


@dataclass(frozen=True)
class Result:
    """A table's confirmed result: ``winner`` 0 or 1 (index into ``players``) or ``None`` for a
    draw; ``vp`` and ``bonus`` in the order of ``players``."""

    round: int
    players: tuple[int, int]
    winner: int | None
    vp: tuple[int, int]
    bonus: tuple[int, int] = (0, 0)
    table: int | None = None


@dataclass(frozen=True)
class Entry:
    """A player as the standings list them (a ``spare`` is not ranked)."""

    id: int
    name: str
    dropped: bool = False
    spare: bool = False
    painting: int | None = None


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
    total: int = 0
    vp_for: int = 0
    vp_against: int = 0
    sos: float = 0
    rank: int = 0
    tied: bool = False
    dropped: bool = False
    opponents: list[int] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    soft: dict[str, int] = field(default_factory=dict)

    @property
    def vp_diff(self) -> int:
        return self.vp_for - self.vp_against

    @property
    def record(self) -> str:
        """W-L-D as a player reads it: ``2–1`` or, with draws, ``2–1–1``."""
        return f"{self.wins}–{self.losses}" + (f"–{self.draws}" if self.draws else "")

    def as_dict(self, secret_soft: Iterable[str] = ()) -> dict[str, object]:
        """The row as the API answers it; ``secret_soft`` names soft scores left out (shown to
        the organiser only)."""
        out: dict[str, object] = {
            "rank": self.rank,
            "player": self.player,
            "name": self.name,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "byes": self.byes,
            "points": self.points,
            "total": self.total,
            "vp_for": self.vp_for,
            "vp_against": self.vp_against,
            "vp_diff": self.vp_diff,
            "sos": self.sos,
            "tied": self.tied,
            "dropped": self.dropped,
            "tp_reason": [f"round {r['round']}: {r['tp_reason']}" for r in self.rounds],
            "rounds": [dict(r) for r in self.rounds],
        }
        hidden = set(secret_soft)
        if self.soft:
            out["soft"] = {k: v for k, v in self.soft.items() if k not in hidden}
        return out


def _add(row: Row, outcome: str, vp: tuple[int, int], points: int, detail: dict[str, Any]) -> None:
    if outcome in ("win", "bye"):
        row.wins += 1
    elif outcome == "draw":
        row.draws += 1
    else:
        row.losses += 1
    if outcome == "bye":
        row.byes += 1
    row.vp_for += vp[0]
    row.vp_against += vp[1]
    row.points += points
    row.rounds.append({**detail, "result": outcome, "vp": list(vp), "tp": points})


def bye_award(settings: Settings, points_limit: int) -> tuple[int, int, str]:
    """A bye's TP, its VP and the reason: the set TP, or what the scoring gives a win by its VP."""
    vp = settings.bye.vp_for(points_limit)
    if settings.bye.points is not None:
        return settings.bye.points, vp, say("bye: {tp} TP", tp=settings.bye.points)
    given = tp.award(settings.scoring, 0, (vp, 0))
    rule = given.reasons[0].split(": ", 1)[-1]
    return given.tp[0], vp, say("bye (a win by {vp:,} VP): {rule}", vp=vp, rule=rule)


def standings(
    players: Sequence[Entry],
    results: Sequence[Result],
    byes: Sequence[tuple[int, int]] = (),
    rolloffs: Sequence[Sequence[int]] = (),
    settings: Settings | None = None,
    points_limit: int = 0,
    missed: Sequence[tuple[int, int]] = (),
    votes: dict[int, int] | None = None,
) -> list[Row]:
    """The ranked rows. ``byes`` and ``missed`` are ``(round, player)``; ``rolloffs`` are orders
    the organiser recorded, winner first, oldest first (a later one among the same players
    counts); ``votes`` the sportsmanship votes each player received."""
    settings = settings or Settings()
    spares = {p.id for p in players if p.spare}
    ranked = [p for p in players if not p.spare]
    rows = {p.id: Row(p.id, p.name, dropped=p.dropped) for p in ranked}
    signed = {p.id: i for i, p in enumerate(ranked)}
    met: dict[int, dict[int, int]] = {p.id: {} for p in ranked}  # h2h: score against each opponent, x2
    for result in results:
        given = tp.award(settings.scoring, result.winner, result.vp, result.bonus)
        for side in (0, 1):
            me, them = result.players[side], result.players[1 - side]
            row = rows.get(me)
            if row is None:
                continue
            if result.winner is None:
                outcome, h2h = "draw", 1
            elif result.winner == side:
                outcome, h2h = "win", 2
            else:
                outcome, h2h = "loss", 0
            if them not in spares:
                row.opponents.append(them)
            met[me][them] = met[me].get(them, 0) + h2h
            detail = {
                "round": result.round,
                "opponent": them,
                "table": result.table,
                "tp_reason": given.reasons[side],
            }
            _add(row, outcome, (result.vp[side], result.vp[1 - side]), given.tp[side], detail)
    bye_tp, bye_vp, bye_reason = bye_award(settings, points_limit)
    for number, player in byes:
        if player in rows:
            detail = {"round": number, "opponent": None, "table": None, "tp_reason": bye_reason}
            _add(rows[player], "bye", (bye_vp, 0), bye_tp, detail)
    for number, player in missed:
        if player not in rows:
            continue
        detail = {"round": number, "opponent": None, "table": None}
        if settings.late == "bye":
            _add(
                rows[player],
                "bye",
                (bye_vp, 0),
                bye_tp,
                {
                    **detail,
                    "tp_reason": say("missed (joined late), counted as a {reason}", reason=bye_reason),
                },
            )
        else:
            lowest = tp.lowest(settings.scoring)
            _add(
                rows[player],
                "loss",
                (0, 0),
                lowest,
                {**detail, "tp_reason": say("missed (joined late): a loss, {tp} TP", tp=lowest)},
            )
    for row in rows.values():
        row.rounds.sort(key=lambda r: r["round"])
        soft: dict[str, int] = {}
        for kind in settings.soft:
            if kind == "painting":
                entry = next(p for p in ranked if p.id == row.player)
                soft[kind] = entry.painting or 0
            else:
                soft[kind] = (votes or {}).get(row.player, 0)
        row.soft = soft
        row.total = row.points + sum(settings.soft[k].weight * v for k, v in soft.items())
    for row in rows.values():
        others = [rows[o] for o in row.opponents if o in rows]
        if others:
            measure = [o.wins if settings.sos_by == "wins" else o.points for o in others]
            row.sos = round(sum(measure) / len(others), 2)

    ordered = sorted(rows.values(), key=lambda r: signed[r.player])
    groups = _refine(ordered, list(settings.tie_breaks), met, rolloffs)
    out: list[Row] = []
    for group, tied in groups:
        rank = len(out) + 1
        for row in group:
            row.rank = rank if tied else len(out) + 1
            row.tied = tied
            out.append(row)
    return out


def _value(key: str, row: Row, group: list[Row], met: dict[int, dict[int, int]]) -> tuple[float, ...]:
    if key == "wins":
        return (row.wins, row.draws, -row.losses)
    if key == "points":
        return (row.total,)
    if key == "vp_diff":
        return (row.vp_diff,)
    if key == "vp_for":
        return (row.vp_for,)
    if key == "sos":
        return (row.sos,)
    # Head-to-head: only when each of the group has met each other one.
    ids = [r.player for r in group]
    if all(b in met[a] for a in ids for b in ids if a != b):
        return (sum(met[row.player][b] for b in ids if b != row.player),)
    return (0,)


def _refine(
    group: list[Row], keys: list[str], met: dict[int, dict[int, int]], rolloffs: Sequence[Sequence[int]]
) -> list[tuple[list[Row], bool]]:
    """Split a level group by the next tie-break, and each part by the ones after it; a part
    still level when the tie-breaks run out is returned as tied (sign-up order kept)."""
    if len(group) == 1:
        return [(group, False)]
    if not keys:
        return [(group, True)]
    key, rest = keys[0], keys[1:]
    if key == "roll_off":
        ids = {r.player for r in group}
        for order in reversed(rolloffs):
            if ids <= set(order):
                place = {p: i for i, p in enumerate(order)}
                return [([r], False) for r in sorted(group, key=lambda r: place[r.player])]
        return _refine(group, rest, met, rolloffs)
    values = {r.player: _value(key, r, group, met) for r in group}
    out: list[tuple[list[Row], bool]] = []
    for value in sorted(set(values.values()), reverse=True):
        part = [r for r in group if values[r.player] == value]
        out.extend(_refine(part, rest, met, rolloffs))
    return out
