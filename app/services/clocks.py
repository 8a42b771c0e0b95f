"""Game clocks as the app uses them: a game's stored taps folded by app/rules/clock.py.

Every game has a clock, whatever its game system: it needs only the game's players and the
time it was created. Nothing here asks which system a game plays.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app.rules import clock
from app.rules.clock import ClockState, Tap
from app.rules.speech import say
from app.store import GameRow, Store


@dataclass(frozen=True)
class Recorded:
    """What became of a tap: its status, the refusal's sentence, the clock after it."""

    status: str  # "recorded" | "duplicate" | "refused"
    error: str | None = None
    state: ClockState | None = None
    # For a recorded tap: whether the client's ``at`` counted, and if it was sent but not, why.
    client_time: bool = False
    note: str | None = None
    id: str | None = None  # the tap's UUID in canonical form


def names(row: GameRow) -> list[str]:
    """The game's players' names, in order."""
    return [str(p.get("name") or say("Player {number}", number=i + 1)) for i, p in enumerate(row.players)]


def _tap(stored: dict[str, Any]) -> Tap:
    return Tap(
        id=stored["id"],
        action=stored["action"],
        received=clock.read_time(stored["received"]),
        player=stored["player"],
        seconds=stored["seconds"],
        at=clock.read_time(stored["at"]) if stored["at"] else None,
    )


def _fold(row: GameRow, taps: list[Tap]) -> ClockState:
    return clock.fold(taps, len(row.players), clock.read_time(row.created), datetime.now(UTC))


def state(store: Store, row: GameRow) -> ClockState:
    """The game's clock as of now."""
    return _fold(row, [_tap(t) for t in store.clocks.taps(row.id)])


# How many of the latest taps a strip names (by the start of their ids): a phone folds the taps
# still in its outbox over the strip, and must not count one the server already holds twice.
RECENT_TAPS = 20


def strip(store: Store, row: GameRow, can_edit: bool, error: str | None = None) -> dict[str, Any]:
    """What the clock strip shows this phone, from one read of the taps: :func:`view`, and
    ``recent``, the first eight characters of the latest taps' ids."""
    return strip_of(row, list(store.clocks.taps(row.id)), can_edit, error)


def strip_of(
    row: GameRow, stored: list[dict[str, Any]], can_edit: bool, error: str | None = None
) -> dict[str, Any]:
    """:func:`strip` from the game's taps as stored, read already."""
    shown = view(_fold(row, [_tap(t) for t in stored]), row, can_edit, error)
    shown["recent"] = [str(t["id"])[:8] for t in stored[-RECENT_TAPS:]]
    return shown


def now_text() -> str:
    """The server's time now, as a strip gives it (its ``now``)."""
    return clock.write_time(datetime.now(UTC))


def record(store: Store, row: GameRow, data: Any, replayed: bool = False) -> Recorded:
    """Check a tap a client sent and append it; a resent id changes nothing.

    ``replayed``: the tap comes from a phone's outbox (made earlier, maybe offline), so its
    ``at`` may count (see :func:`app.rules.clock.usable_at`).
    """
    request, problem = clock.parse(data, len(row.players))
    if request is None:
        return Recorded("refused", problem)
    shown = names(row)

    def judge(stored: list[dict[str, Any]]) -> str | None:
        taps = [_tap(t) for t in stored]
        new = Tap(request.id, request.action, datetime.now(UTC), request.player, request.seconds)
        return clock.refusal(_fold(row, taps), new, shown)

    client_at, refused_at = clock.usable_at(request.at, datetime.now(UTC), replayed)
    at = clock.write_time(client_at) if client_at else None
    tap = {
        "id": request.id,
        "action": request.action,
        "player": request.player,
        "seconds": request.seconds,
        "at": at,
    }
    appended = store.clocks.append(row.id, tap, judge)
    if appended.status == "refused":
        return Recorded("refused", appended.error)
    taps = [_tap(t) for t in store.clocks.taps(row.id)]
    after = _fold(row, taps)
    if appended.status == "duplicate":
        return Recorded("duplicate", state=after, id=request.id)
    counted = clock.times(taps, clock.read_time(row.created))
    index = next(i for i, t in enumerate(taps) if t.id == request.id)
    client_time = counted[index][1]
    note = refused_at
    if client_at is not None and not client_time:
        note = say(
            "at was not between the clock's previous tap and the server's time, "
            "so the tap counts from the server's time."
        )
    return Recorded("recorded", state=after, client_time=client_time, note=note, id=request.id)


def shown(seconds: float) -> str:
    """Seconds as a clock face shows them: m:ss, or h:mm:ss from an hour."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def view(state: ClockState, row: GameRow, can_edit: bool, error: str | None = None) -> dict[str, Any]:
    """What the clock strip shows: each player's time (left under a limit, else used) and the taps."""
    players = names(row)
    out = state.out_of_time
    return {
        "game_id": row.id,
        "can_edit": can_edit,
        "error": error,
        "running": state.running,
        "last": state.last,
        "next": state.next_player(),
        "limit": state.limit,
        "limit_text": shown(state.limit) if state.limit else None,
        "started": state.started,
        "names": players,
        "used": [round(u, 3) for u in state.used],
        "now": clock.write_time(state.now),
        "taps": state.taps,
        # What a tap waiting on a phone says it is, by the player it gives the clock to.
        "words": {
            "start": [say("Start the clock for {name}", name=name) for name in players],
            "pass": [say("Pass the clock to {name}", name=name) for name in players],
            "pause": say("Pause the clock"),
        },
        "out": [players[p] for p in out],
        "players": [
            {
                "name": name,
                "time": shown(math.ceil(state.left(i) or 0) if state.limit else state.used[i]),
                "running": state.running == i,
                "out": i in out,
            }
            for i, name in enumerate(players)
        ],
    }
