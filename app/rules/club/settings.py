"""A club event's settings as data: scoring, tie-breaks, byes, late players, soft scores, lists
and pairing, each with a sensible default, read from the API's body or the stored JSON.

Pure: :func:`read` takes the body of ``POST /api/v1/events`` (the parts about settings) and
the points limit, and returns :class:`Settings` or one sentence naming the field and what is
allowed. :func:`stored` reads what the store kept (an event made before these settings reads
as it always did). Every engine of the event (standings, pairing, lists) takes these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from app.rules.club import tournament_points as tp
from app.rules.club.tournament_points import Scoring
from app.rules.speech import say

MAX_TP = 1000
MAX_VP = 100_000
MAX_WEIGHT = 100
MAX_SOFT = 100

TIE_BREAKS = ("wins", "points", "vp_diff", "vp_for", "sos", "h2h", "roll_off")
DEFAULT_TIE_BREAKS = ("wins", "points", "vp_diff", "sos", "h2h", "roll_off")
# What events made before tie-breaks could be chosen were ranked by (kept for them by m016).
LEGACY_TIE_BREAKS = ("points", "vp_diff", "sos", "roll_off")
LEGACY = {"tie_breaks": list(LEGACY_TIE_BREAKS), "bye": {"points": None, "vp": 0}}
SOS_BY = ("points", "wins")
LATE = ("loss", "bye")
REVEAL = ("pairing", "start")
SOFT_KINDS = ("painting", "sportsmanship")


@dataclass(frozen=True)
class Bye:
    """What a bye is worth: TP (``None``: what the scoring gives a win by ``vp``), and the VP
    counted for the player (``"full"``: the points the event is played at)."""

    points: int | None = None
    vp: int | str = "full"

    def vp_for(self, points_limit: int) -> int:
        """The VP a bye counts for its player."""
        return points_limit if self.vp == "full" else int(self.vp)

    def as_dict(self) -> dict[str, Any]:
        """The bye as the API answers it."""
        return {"points": self.points, "vp": self.vp}


@dataclass(frozen=True)
class Soft:
    """A soft score (painting or sportsmanship): ``weight`` TP per point in the standings, or
    a separate prize (``prize``) that leaves the standings alone."""

    weight: int = 0
    prize: bool = False

    def as_dict(self) -> dict[str, Any]:
        """The soft score's setting as the API answers it."""
        return {"prize": True} if self.prize else {"weight": self.weight}


@dataclass(frozen=True)
class Lists:
    """List submission: when opponents see each other's lists (``pairing`` or ``start`` of the
    player's round) and the deadline for submitting (ISO 8601, or none)."""

    reveal: str = "pairing"
    deadline: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """The list settings as the API answers them."""
        return {"reveal": self.reveal, "deadline": self.deadline}


@dataclass(frozen=True)
class PairingRules:
    """What pairing penalises beyond rematches: club-mates meeting, a player's table again."""

    club_mates: bool = True
    repeat_tables: bool = True

    def as_dict(self) -> dict[str, Any]:
        """The pairing settings as the API answers them."""
        return {"avoid_club_mates": self.club_mates, "avoid_repeat_tables": self.repeat_tables}


@dataclass(frozen=True)
class Settings:
    """Every setting of an event that the engines read."""

    scoring: Scoring = field(default_factory=Scoring)
    tie_breaks: tuple[str, ...] = DEFAULT_TIE_BREAKS
    sos_by: str = "points"
    bye: Bye = field(default_factory=Bye)
    late: str = "loss"
    soft: dict[str, Soft] = field(default_factory=dict)
    lists: Lists = field(default_factory=Lists)
    pairing: PairingRules = field(default_factory=PairingRules)

    def stored(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """What the store keeps: the scoring, and the rest."""
        return self.scoring.as_dict(), {
            "tie_breaks": list(self.tie_breaks),
            "sos_by": self.sos_by,
            "bye": self.bye.as_dict(),
            "late": self.late,
            "soft": {k: v.as_dict() for k, v in self.soft.items()},
            "lists": self.lists.as_dict(),
            "pairing": self.pairing.as_dict(),
        }

    def as_dict(self) -> dict[str, Any]:
        """The settings as the event's JSON answers them."""
        scoring, rest = self.stored()
        return {"scoring": scoring, **rest}

    def order_words(self) -> str:
        """The ranking order in words, as the standings page and PDF state it."""
        named = tie_break_words()
        words = []
        for name in self.tie_breaks:
            text = named[name]
            if name == "sos":
                if self.sos_by == "wins":
                    text = say("strength of schedule (opponents' average wins)")
                else:
                    text = say("strength of schedule (opponents' average tournament points)")
            if name == "points" and any(s.weight for s in self.soft.values()):
                weighed = [k for k, s in self.soft.items() if s.weight]
                if len(weighed) > 1:
                    text = say("tournament points (with painting and sportsmanship)")
                elif weighed == ["painting"]:
                    text = say("tournament points (with painting)")
                else:
                    text = say("tournament points (with sportsmanship)")
            words.append(text)
        return ", ".join(words)


def tie_break_words() -> dict[str, str]:
    """Each tie-break of :data:`TIE_BREAKS` by name, in the reader's language."""
    return {
        "wins": say("W-L-D"),
        "points": say("tournament points"),
        "vp_diff": say("VP difference"),
        "vp_for": say("VP scored"),
        "sos": say("strength of schedule"),
        "h2h": say("head-to-head"),
        "roll_off": say("roll-off"),
    }


def _whole(value: Any, name: str, low: int, high: int) -> tuple[int, str | None]:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return 0, say(
            "{name} must be a whole number from {low:,} to {high:,}.", name=name, low=low, high=high
        )
    return value, None


def read_scoring(raw: Any, points_limit: int) -> Scoring | str:
    """The scoring from the API: a preset with its numbers, or today's ``{win, draw, loss}``."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        return say(
            'scoring must be an object such as {"preset": "wdl", "win": 3, "draw": 1, "loss": 0}, or left out.'
        )
    preset = raw.get("preset", "wdl")
    if preset not in tp.PRESETS:
        return say("scoring.preset must be one of {presets}.", presets=", ".join(tp.PRESETS))
    values: dict[str, int] = {}
    for key, default in (("win", 3), ("draw", 1), ("loss", 0)):
        value, problem = _whole(raw.get(key, default), f"scoring.{key}", 0, MAX_TP)
        if problem:
            return problem
        values[key] = value
    if not values["win"] >= values["draw"] >= values["loss"]:
        return say("scoring must give a win at least a draw's points and a draw at least a loss's.")
    bands: tuple[tp.Band, ...] = ()
    step = tp.default_step(points_limit)
    if preset == "tow-bands":
        if raw.get("bands") is None:
            bands = tp.default_bands(points_limit)
        else:
            problem = tp.bands_problem(raw["bands"])
            if problem:
                return problem
            bands = tp.read_bands(raw["bands"])
    if preset == "twenty-zero" and raw.get("step") is not None:
        step, problem = _whole(raw.get("step"), "scoring.step", 1, MAX_VP)
        if problem:
            return problem
    return Scoring(preset, values["win"], values["draw"], values["loss"], bands, step)


def read_tie_breaks(raw: Any) -> tuple[str, ...] | str:
    """The organiser's tie-break order: names from :data:`TIE_BREAKS`, each at most once."""
    if raw is None:
        return DEFAULT_TIE_BREAKS
    if (
        not isinstance(raw, list)
        or not raw
        or any(name not in TIE_BREAKS for name in raw)
        or len(set(raw)) != len(raw)
    ):
        return say(
            "tie_breaks must list, in order and each at most once, some of: {names}.",
            names=", ".join(TIE_BREAKS),
        )
    return tuple(raw)


def read_bye(raw: Any, points_limit: int) -> Bye | str:
    """The bye's worth: ``{"points": N?, "vp": "full" | N}``."""
    if raw is None:
        return Bye()
    if not isinstance(raw, dict):
        return say('bye must be an object such as {"points": 3, "vp": "full"}, or left out.')
    points = raw.get("points")
    if points is not None:
        points, problem = _whole(points, "bye.points", 0, MAX_TP)
        if problem:
            return problem
    vp = raw.get("vp", "full")
    if vp != "full":
        vp, problem = _whole(vp, "bye.vp", 0, MAX_VP)
        if problem:
            return say(
                'bye.vp must be "full" (the points the event is played at) or a whole number from 0 to 100,000.'
            )
    return Bye(points, vp)


def read_soft(raw: Any) -> dict[str, Soft] | str:
    """Soft scores: ``{"painting": {"weight": N} | {"prize": true}, "sportsmanship": ...}``."""
    if raw is None:
        return {}
    if not isinstance(raw, dict) or any(k not in SOFT_KINDS for k in raw):
        return say(
            'soft must be an object with painting and/or sportsmanship, such as {"painting": {"weight": 1}}.'
        )
    out: dict[str, Soft] = {}
    for kind, value in raw.items():
        if value is None:
            continue
        shape = say(
            'soft.{kind} must be {{"weight": 1 to {most}}} (TP per point, in the standings) or {{"prize": true}} (a prize of its own).',
            kind=kind,
            most=MAX_WEIGHT,
        )
        if not isinstance(value, dict):
            return shape
        if value.get("prize") is True and value.get("weight") in (None, 0):
            out[kind] = Soft(prize=True)
            continue
        weight, problem = _whole(value.get("weight"), f"soft.{kind}.weight", 1, MAX_WEIGHT)
        if problem or value.get("prize") not in (None, False):
            return shape
        out[kind] = Soft(weight=weight)
    return out


def read_lists(raw: Any) -> Lists | str:
    """List submission: ``{"reveal": "pairing" | "start", "deadline": ISO 8601 or null}``."""
    if raw is None:
        return Lists()
    if not isinstance(raw, dict):
        return say(
            'lists must be an object such as {"reveal": "pairing", "deadline": "2026-12-05T18:00:00Z"}.'
        )
    reveal = raw.get("reveal", "pairing")
    if reveal not in REVEAL:
        return say(
            "lists.reveal must be pairing (opponents see lists when paired) or start (when the round starts)."
        )
    deadline = raw.get("deadline")
    if deadline is not None:
        when = moment(deadline)
        if when is None:
            return say("lists.deadline must be a date and time such as 2026-12-05T18:00:00Z, or null.")
        deadline = when
    return Lists(reveal, deadline)


def moment(value: Any) -> str | None:
    """An ISO 8601 date and time as UTC (``...Z``), or ``None`` when it is not one."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        return None
    return when.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def read_pairing(raw: Any) -> PairingRules | str:
    """``{"avoid_club_mates": bool, "avoid_repeat_tables": bool}``, each true by default."""
    if raw is None:
        return PairingRules()
    if not isinstance(raw, dict):
        return say(
            'pairing must be an object such as {"avoid_club_mates": true, "avoid_repeat_tables": true}.'
        )
    values = []
    for key in ("avoid_club_mates", "avoid_repeat_tables"):
        value = raw.get(key, True)
        if not isinstance(value, bool):
            return say("pairing.{key} must be true or false.", key=key)
        values.append(value)
    return PairingRules(*values)


def read(data: dict[str, Any], points_limit: int) -> Settings | str:
    """Every setting from the body of ``POST /api/v1/events``, or the first problem."""
    scoring = read_scoring(data.get("scoring"), points_limit)
    if isinstance(scoring, str):
        return scoring
    tie_breaks = read_tie_breaks(data.get("tie_breaks"))
    if isinstance(tie_breaks, str):
        return tie_breaks
    sos_by = data.get("sos_by", "points")
    if sos_by not in SOS_BY:
        return say(
            "sos_by must be points (opponents' average tournament points) or wins (their average wins)."
        )
    bye = read_bye(data.get("bye"), points_limit)
    if isinstance(bye, str):
        return bye
    late = data.get("late", "loss")
    if late not in LATE:
        return say("late must be loss or bye: what a player who joins late gets for each round missed.")
    soft = read_soft(data.get("soft"))
    if isinstance(soft, str):
        return soft
    lists = read_lists(data.get("lists"))
    if isinstance(lists, str):
        return lists
    pairing = read_pairing(data.get("pairing"))
    if isinstance(pairing, str):
        return pairing
    return Settings(scoring, tie_breaks, sos_by, bye, late, soft, lists, pairing)


def stored(scoring: dict[str, Any], rest: dict[str, Any] | None, points_limit: int) -> Settings:
    """The settings as the store kept them. Settings written by :meth:`Settings.stored` read
    back as they were; an event stored before them (``rest`` ``None``) reads as it was run
    (:data:`LEGACY`); anything unreadable falls back to its default rather than fail a page."""
    made = read({"scoring": scoring, **(LEGACY if rest is None else rest)}, points_limit)
    if isinstance(made, Settings):
        return made
    fallback = read_scoring(scoring, points_limit)
    return Settings(scoring=fallback if isinstance(fallback, Scoring) else Scoring())
