"""Tournament points: what a result is worth in an event's standings, and why.

Pure: a result (who won, each player's VP, any bonus points) and the event's scoring in,
each player's tournament points (TP) and the reason out. Four presets:

- ``wdl``: a win, a draw and a loss are worth what the event sets (3, 1 and 0 by default).
- ``tow-bands``: The Old World's matched-play bands on the VP difference. The bands are data
  (``[low, high, more VP, fewer VP]``, ``high`` ``None`` for the last); their default is the
  guidance for 2,000 points (0-300 3-3, 301-600 4-2, 601-950 5-1, 951+ 6-0), scaled to the
  points the event is played at (at 1,000 points: 0-150, 151-300, 301-475, 476+).
- ``twenty-zero``: 10-10 on level VP; each full ``step`` of VP difference moves one point
  from the player with fewer VP to the one with more, up to 20-0 (``step`` 150 at 2,000
  points by default, scaled like the bands).
- ``wl-bonus``: a win, draw or loss as in ``wdl``, plus the bonus points the organiser
  entered for each player (a mission's secondaries, say).

The bands and 20-0 go by VP alone; who won (a tiebreak, a wipe-out) still counts in W-L-D.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.rules.speech import say

PRESETS = ("wdl", "tow-bands", "twenty-zero", "wl-bonus")
# The Old World's bands for a 2,000-point game: [low, high, more VP, fewer VP].
TOW_BANDS_2000: tuple[tuple[int, int | None, int, int], ...] = (
    (0, 300, 3, 3),
    (301, 600, 4, 2),
    (601, 950, 5, 1),
    (951, None, 6, 0),
)
TWENTY_ZERO_STEP_2000 = 150
BASE_POINTS = 2000


@dataclass(frozen=True)
class Band:
    """One band of VP difference, ``low`` to ``high`` (``None``: and above), and its TP split."""

    low: int
    high: int | None
    more: int
    fewer: int

    def covers(self, difference: int) -> bool:
        """Whether a VP difference falls in this band."""
        return difference >= self.low and (self.high is None or difference <= self.high)

    def label(self) -> str:
        """The band as a player reads it: ``band 301–600, 4–2``."""
        if self.high is None:
            return say("band {low:,}+, {more}–{fewer}", low=self.low, more=self.more, fewer=self.fewer)
        return say(
            "band {low:,}–{high:,}, {more}–{fewer}",
            low=self.low,
            high=self.high,
            more=self.more,
            fewer=self.fewer,
        )

    def as_list(self) -> list[int | None]:
        """The band as the API writes it."""
        return [self.low, self.high, self.more, self.fewer]


@dataclass(frozen=True)
class Scoring:
    """An event's scoring: its preset and that preset's numbers."""

    preset: str = "wdl"
    win: int = 3
    draw: int = 1
    loss: int = 0
    bands: tuple[Band, ...] = ()
    step: int = TWENTY_ZERO_STEP_2000

    @property
    def takes_bonus(self) -> bool:
        """Whether a result carries bonus points the organiser enters."""
        return self.preset == "wl-bonus"

    def as_dict(self) -> dict[str, object]:
        """The scoring as the API answers it (``win``/``draw``/``loss`` always, for older tools)."""
        out: dict[str, object] = {
            "preset": self.preset,
            "win": self.win,
            "draw": self.draw,
            "loss": self.loss,
        }
        if self.preset == "tow-bands":
            out["bands"] = [b.as_list() for b in self.bands]
        if self.preset == "twenty-zero":
            out["step"] = self.step
        return out

    def describe(self) -> str:
        """One sentence naming how results score, for the standings page and PDF."""
        if self.preset == "tow-bands":
            return say("TP by VP difference: {bands}.", bands="; ".join(b.label() for b in self.bands))
        if self.preset == "twenty-zero":
            return say(
                "TP by VP difference: 10–10 when level, a point more for each {step:,} VP, to 20–0.",
                step=self.step,
            )
        if self.preset == "wl-bonus":
            return say(
                "TP: win {win}, draw {draw}, loss {loss}, plus bonus points.",
                win=self.win,
                draw=self.draw,
                loss=self.loss,
            )
        return say("TP: win {win}, draw {draw}, loss {loss}.", win=self.win, draw=self.draw, loss=self.loss)


@dataclass(frozen=True)
class Award:
    """Each player's TP from one result, in the result's order, with the reason for each."""

    tp: tuple[int, int]
    reasons: tuple[str, str]
    band: Band | None = None


def scaled(value: int, points_limit: int) -> int:
    """A number given for 2,000 points, at the event's points (rounded down, at least 1)."""
    return max(1, value * points_limit // BASE_POINTS)


def default_bands(points_limit: int) -> tuple[Band, ...]:
    """The Old World's bands scaled to the points the event is played at."""
    bands: list[Band] = []
    low = 0
    for _low, high, more, fewer in TOW_BANDS_2000:
        top = None if high is None else max(low, scaled(high, points_limit))
        bands.append(Band(low, top, more, fewer))
        low = (top or 0) + 1
    return tuple(bands)


def default_step(points_limit: int) -> int:
    """20-0's VP per point at the event's points (150 at 2,000)."""
    return scaled(TWENTY_ZERO_STEP_2000, points_limit)


def bands_problem(raw: object) -> str | None:
    """Why a list of bands cannot be used (one sentence), or ``None``."""
    shape = say(
        "scoring.bands must list [low, high, TP for more VP, TP for fewer VP] from 0 up, each band "
        "starting one above the last, the last one's high null."
    )
    if not isinstance(raw, list) or not 1 <= len(raw) <= 20:
        return say(
            "scoring.bands must list [low, high, TP for more VP, TP for fewer VP] from 0 up, each band "
            "starting one above the last, the last one's high null (1 to 20 bands)."
        )
    expected_low = 0
    for i, band in enumerate(raw):
        if not isinstance(band, list) or len(band) != 4:
            return shape
        low, high, more, fewer = band
        whole = [v for v in (low, more, fewer) if isinstance(v, int) and not isinstance(v, bool)]
        if len(whole) != 3 or low != expected_low or not 0 <= fewer <= more <= 1000:
            return say(
                "scoring.bands must list [low, high, TP for more VP, TP for fewer VP] from 0 up, each band "
                "starting one above the last, the last one's high null; band {number} does not "
                "(TP 0 to 1,000, more VP at least fewer).",
                number=i + 1,
            )
        last = i == len(raw) - 1
        if last and high is not None:
            return shape
        if not last:
            if isinstance(high, bool) or not isinstance(high, int) or not low <= high <= 1_000_000:
                return say(
                    "scoring.bands must list [low, high, TP for more VP, TP for fewer VP] from 0 up, each band "
                    "starting one above the last, the last one's high null; band {number} does not.",
                    number=i + 1,
                )
            expected_low = high + 1
    return None


def read_bands(raw: Sequence[Sequence[int | None]]) -> tuple[Band, ...]:
    """Bands from their API form (already checked by :func:`bands_problem`)."""
    return tuple(
        Band(int(b[0] or 0), None if b[1] is None else int(b[1]), int(b[2] or 0), int(b[3] or 0)) for b in raw
    )


def award(
    scoring: Scoring, winner: int | None, vp: tuple[int, int], bonus: tuple[int, int] = (0, 0)
) -> Award:
    """Each player's TP for a result: ``winner`` 0, 1 or ``None`` (a draw), ``vp`` in the same order."""
    if scoring.preset == "tow-bands":
        return _by_band(scoring.bands, vp)
    if scoring.preset == "twenty-zero":
        return _twenty_zero(scoring.step, vp)
    if winner is None:
        tp = (scoring.draw, scoring.draw)
        words = (say("draw: {tp} TP", tp=scoring.draw),) * 2
    else:
        tp = (scoring.win, scoring.loss) if winner == 0 else (scoring.loss, scoring.win)
        won, lost = say("win: {tp} TP", tp=scoring.win), say("loss: {tp} TP", tp=scoring.loss)
        words = (won, lost) if winner == 0 else (lost, won)
    if scoring.preset == "wl-bonus" and any(bonus):
        tp = (tp[0] + bonus[0], tp[1] + bonus[1])
        words = (
            say("{reason} + {bonus} bonus", reason=words[0], bonus=bonus[0]),
            say("{reason} + {bonus} bonus", reason=words[1], bonus=bonus[1]),
        )
    return Award(tp, words)


def _by_band(bands: Sequence[Band], vp: tuple[int, int]) -> Award:
    difference = abs(vp[0] - vp[1])
    band = next((b for b in bands if b.covers(difference)), bands[-1])
    if vp[0] == vp[1]:
        return Award((band.more, band.fewer), (say("level on VP: {band}", band=band.label()),) * 2, band)
    ahead = 0 if vp[0] > vp[1] else 1
    more = say("won by {difference:,} VP: {band}", difference=difference, band=band.label())
    fewer = say("lost by {difference:,} VP: {band}", difference=difference, band=band.label())
    tp = (band.more, band.fewer) if ahead == 0 else (band.fewer, band.more)
    return Award(tp, (more, fewer) if ahead == 0 else (fewer, more), band)


def _twenty_zero(step: int, vp: tuple[int, int]) -> Award:
    difference = abs(vp[0] - vp[1])
    moved = min(10, difference // step)
    split = say("{more}–{fewer}, a point for each {step:,} VP", more=10 + moved, fewer=10 - moved, step=step)
    if moved == 0:
        words = say("within {vp:,} VP: 10–10", vp=step - 1) if difference else say("level on VP: 10–10")
        return Award((10, 10), (words, words))
    ahead = 0 if vp[0] > vp[1] else 1
    more = say("won by {difference:,} VP: {split}", difference=difference, split=split)
    fewer = say("lost by {difference:,} VP: {split}", difference=difference, split=split)
    tp = (10 + moved, 10 - moved) if ahead == 0 else (10 - moved, 10 + moved)
    return Award(tp, (more, fewer) if ahead == 0 else (fewer, more))


def lowest(scoring: Scoring) -> int:
    """The TP of the heaviest loss under this scoring (a missed round counted as a loss)."""
    if scoring.preset == "tow-bands":
        return min(b.fewer for b in scoring.bands)
    if scoring.preset == "twenty-zero":
        return 0
    return scoring.loss
