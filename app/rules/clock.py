"""The game clock: a chess clock for any number of players, as a pure function of its taps.

A clock is a list of taps, each one a player's touch on the clock at the table: ``start``
(the clock runs for a player), ``pass`` (the running player's time stops and another's runs:
the next in order unless one is named), ``pause`` (nobody's time runs) and ``limit`` (the time
each player may use, or none). Who is running, the time each player has used and who is out
of time are folded from the taps and never stored.

Each tap has the server's time it was received and, from a phone replaying taps it made
offline, the client's time ``at`` of the tap itself. The clock takes ``at`` only from a tap
replayed from a phone's outbox, at most MOST_BACKDATE before it arrived (:func:`usable_at`),
and then within sane bounds: not after the server received the tap, not before the tap before
it (nor before the game began); otherwise the server's time counts. So the times a clock uses
never go back, and a live tap cannot move a player's time onto the opponent by backdating.

Taps belong to no game system: they are not the game's rules events (they never count
toward its event limit and undo never reaches them).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

from app.rules.event_models import SAYS, Part, Player, check
from app.rules.log import Refused
from app.rules.speech import say, words

ACTIONS = ("start", "pass", "pause", "limit")
# The longest limit a clock takes: a day, far past any game.
MOST_SECONDS = 24 * 3600
# How many taps one game's clock keeps: a tap a turn, with room to spare.
MOST_TAPS = 5000
# How long a phone may have held a tap in its outbox (offline at the table) and still have
# it count from when it was made; a tap replayed later counts from its arrival.
MOST_BACKDATE = timedelta(minutes=15)


@dataclass(frozen=True)
class Tap:
    """One touch on the clock: what it did, and when (the server's time, the client's if sent)."""

    id: str
    action: str
    received: datetime
    player: int | None = None
    seconds: int | None = None
    at: datetime | None = None


@dataclass(frozen=True)
class ClockState:
    """The clock as of ``now``: who runs, what each player has used, the limit."""

    running: int | None
    used: tuple[float, ...]
    limit: int | None
    since: datetime | None  # when the running player's time began, or when the clock stopped
    now: datetime
    last: int | None  # who had the clock last: a start without a player resumes them
    taps: int

    @property
    def started(self) -> bool:
        return self.since is not None

    def left(self, player: int) -> float | None:
        """The seconds the player has left under the limit (never below 0), or ``None`` without one."""
        return None if self.limit is None else max(self.limit - self.used[player], 0.0)

    @property
    def out_of_time(self) -> list[int]:
        """The players who have used their whole limit, in order."""
        if self.limit is None:
            return []
        return [p for p, used in enumerate(self.used) if used >= self.limit]

    def next_player(self) -> int | None:
        """Who a pass without a player gives the clock to: the next in order, after the last."""
        return None if self.running is None else (self.running + 1) % len(self.used)

    def as_dict(self) -> dict[str, Any]:
        """As the API answers it (docs/api.md)."""
        return {
            "running": self.running,
            "used": [round(u, 3) for u in self.used],
            "limit": self.limit,
            "out_of_time": self.out_of_time,
            "since": write_time(self.since) if self.since else None,
            # ``used`` is counted to here: now while the clock runs, else when it stopped.
            "as_of": write_time(self.now if self.running is not None else self.since) if self.since else None,
            "next": self.next_player(),
            "last": self.last,
            "taps": self.taps,
        }


def write_time(when: datetime) -> str:
    """A time as Muster writes times: UTC, ISO 8601, to the millisecond."""
    return when.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def read_time(raw: str) -> datetime:
    """A time Muster wrote (ISO 8601, UTC when no offset is given)."""
    when = datetime.fromisoformat(raw)
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).astimezone(UTC)


def usable_at(at: datetime | None, received: datetime, replayed: bool) -> tuple[datetime | None, str | None]:
    """The client's time of a tap the clock may weigh at all, or ``None`` and why not.

    Only a tap replayed from a phone's outbox was made before it was sent: a live tap is made
    as it arrives, so its ``at`` is never taken (else a player could backdate a pass and hand
    their own minutes to the opponent). A replayed one counts from ``at`` if it was made at
    most MOST_BACKDATE before it arrived; :func:`times` then checks it against the taps.
    """
    if at is None:
        return None, None
    if not replayed:
        return None, say(
            "at counts only for a tap replayed from the phone's outbox (X-Muster-Replay: outbox), "
            "so this tap counts from the server's time."
        )
    if received - at > MOST_BACKDATE:
        minutes = int(MOST_BACKDATE.total_seconds() // 60)
        return None, say(
            "at was more than {minutes} minutes before the server received the tap, "
            "so the tap counts from the server's time.",
            minutes=minutes,
        )
    return at, None


def times(taps: Sequence[Tap], opened: datetime) -> list[tuple[datetime, bool]]:
    """When each tap counts, and whether that is the client's ``at`` (else the server's time).

    ``at`` counts when it lies between the previous tap's time (or ``opened``, the game's
    start) and the time the server received the tap; otherwise the server's time does, never
    earlier than the previous tap's.
    """
    out: list[tuple[datetime, bool]] = []
    previous = opened
    for tap in taps:
        if tap.at is not None and previous <= tap.at <= tap.received:
            when, client = tap.at, True
        else:
            when, client = max(tap.received, previous), False
        out.append((when, client))
        previous = when
    return out


def fold(taps: Sequence[Tap], players: int, opened: datetime, now: datetime) -> ClockState:
    """The clock after ``taps`` (already judged, in order), as of ``now``."""
    used = [0.0] * players
    running: int | None = None
    last: int | None = None
    limit: int | None = None
    since: datetime | None = None
    for tap, (when, _client) in zip(taps, times(taps, opened), strict=True):
        if tap.action == "limit":
            limit = tap.seconds
            continue
        if running is not None and since is not None:
            used[running] += max((when - since).total_seconds(), 0.0)
        if tap.action == "start":
            running = _start_player(tap.player, last)
        elif tap.action == "pass":
            running = tap.player if tap.player is not None else ((running or 0) + 1) % players
        elif tap.action == "pause":
            running = None
        if running is not None:
            last = running
        since = when
    if running is not None and since is not None:
        used[running] += max((now - since).total_seconds(), 0.0)
    return ClockState(running, tuple(used), limit, since, now, last, len(taps))


def _start_player(player: int | None, last: int | None) -> int:
    if player is not None:
        return player
    return last if last is not None else 0


def refusal(state: ClockState, tap: Tap, names: Sequence[str]) -> str | None:
    """Why the clock cannot take ``tap`` after the taps folded into ``state``, or ``None``."""
    if state.taps >= MOST_TAPS:
        return say(
            "This game's clock holds {most} taps, the most it keeps; start a new game for more.",
            most=MOST_TAPS,
        )
    if tap.action == "start" and state.running is not None:
        return say(
            "The clock is already running ({name}'s time): pass it or pause it.", name=names[state.running]
        )
    if tap.action == "pass":
        if state.running is None:
            return say("The clock is paused, so there is nothing to pass: start it first.")
        if tap.player == state.running:
            return say("{name} already has the clock: pass it to another player.", name=names[state.running])
    if tap.action == "pause" and state.running is None:
        return say("The clock is not running, so there is nothing to pause.")
    return None


@dataclass(frozen=True)
class Request:
    """A tap as a client sent it, checked for shape (see :func:`parse`)."""

    id: str
    action: str
    player: int | None
    seconds: int | None
    at: datetime | None


class ClockTap(Part):
    """A tap on the game's clock (start, pass, pause, limit), apart from the game's events."""

    what: ClassVar[str] = words("a clock tap")
    id: Annotated[
        str,
        Field(
            json_schema_extra={
                "format": "uuid",
                SAYS: words("a UUID made by the client, such as 'a6f0c2de-1b9e-4c35-9d55-0f0e7f1c2b11'"),
            }
        ),
        AfterValidator(_uuid),
    ]
    action: Literal[ACTIONS]
    player: Annotated[Player | None, Field(description="With start and pass only.")] = None
    at: Annotated[
        str | None,
        Field(
            min_length=10,
            max_length=40,
            description="When the tap was made (ISO 8601 with its offset), for a tap replayed from offline.",
            json_schema_extra={
                "format": "date-time",
                SAYS: words("a time in ISO 8601 with its offset, such as 2026-12-01T20:15:00Z, or left out"),
            },
        ),
        AfterValidator(_at),
    ] = None
    seconds: Annotated[
        int | None,
        Field(
            ge=1,
            le=MOST_SECONDS,
            description="With limit only (and required there); null for no limit.",
            json_schema_extra={SAYS: words("a whole number from 1 to {top}, or none for no limit")},
        ),
    ] = None


def parse(data: Any, players: int) -> tuple[Request | None, str | None]:
    """A client's tap checked by :class:`ClockTap` and what goes with which action: the request,
    or one sentence naming the field. ``player`` goes with start and pass, ``seconds`` (none for
    no limit) with limit."""
    if not isinstance(data, dict):
        return None, say(
            "The body must be one JSON object such as {example}.",
            example='{"id": "<uuid>", "action": "pass"}',
        )
    try:
        tap = check(ClockTap, data, {"players": players})
    except Refused as exc:
        return None, str(exc)
    action, player, seconds = tap["action"], tap.get("player"), tap.get("seconds")
    if player is not None and action not in ("start", "pass"):
        return None, say("player goes only with start and pass, not with {action}.", action=action)
    if "seconds" in tap and action != "limit":
        return None, say("seconds goes only with limit, not with {action}.", action=action)
    if action == "limit" and "seconds" not in tap:
        return (
            None,
            say("seconds must be given with limit: the seconds each player may use, or none for no limit."),
        )
    at = tap.get("at")
    return Request(tap["id"], action, player, seconds, _client_time(at) if at is not None else None), None


def _uuid(raw: str) -> str:
    try:
        return str(uuid.UUID(raw))
    except ValueError:
        raise PydanticCustomError("uuid", "not a UUID") from None


def _at(raw: str | None) -> str | None:
    if raw is not None and _client_time(raw) is None:
        raise PydanticCustomError("time", "not a time with its offset")
    return raw


def _client_time(raw: Any) -> datetime | None:
    if not isinstance(raw, str) or not 10 <= len(raw) <= 40:
        return None
    try:
        when = datetime.fromisoformat(raw)
    except ValueError:
        return None
    if when.tzinfo is None:
        return None
    try:
        return when.astimezone(UTC)
    except (OverflowError, ValueError):
        return None  # an offset that moves the time past year 1 or 9999
