"""Terrain: pieces, battlefield checks, the line-of-sight helper and agreement state.

Checks follow the pack's ``terrain`` section (app/rules/pack.py, TerrainRules): Conquest's
zonal and garrison pieces with First Blood's battlefield limits, or Age of Sigmar's
Pitched Battles set-up distances, mysterious terrain and the siege fortress. Every problem
names the rule (an id) and the pieces at fault. Distances are gaps between footprints:
axis-aligned rectangles centred on (x, y), in inches from the left edge and from Player 1's
(or the attacker's) table edge.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, field_validator

from app.rules.pack import Board, Markers, Objective, Pack, Scenario, SiegeTerrain
from app.rules.problems import Problem
from app.rules.text import clean_text

MAX_PIECES = 60
# No table is this many inches across: a position beyond it is a mistake (or 1e308).
MAX_INCHES = 200


class Piece(BaseModel):
    """One terrain piece as the players describe it."""

    # Python's json reads 1e400 as infinity (and NaN too): no piece stands there, and NaN slips
    # past every comparison, so the numbers must be finite.
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True, allow_inf_nan=False)

    uid: str | None = Field(default=None, max_length=40)
    name: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=60)]
    kind: Literal["zonal", "garrison"] = "zonal"
    size: int = Field(default=0, ge=-20, le=20, strict=True)
    keywords: list[str] = Field(default_factory=list, max_length=12)
    ruins: bool = False
    obscuring: bool = False
    footprint: tuple[float, float] | None = None
    defense: int | None = Field(default=None, ge=0, le=10, strict=True)
    capacity: int | None = Field(default=None, ge=0, le=40, strict=True)
    # A garrison's Elevation: the Size a regiment volleying from inside it takes.
    elevation: int | None = Field(default=None, ge=0, le=20, strict=True)
    x: float | None = Field(default=None, ge=-MAX_INCHES, le=MAX_INCHES)
    y: float | None = Field(default=None, ge=-MAX_INCHES, le=MAX_INCHES)
    # Age of Sigmar.
    faction: bool = False
    warscroll: bool = False
    mysterious: int | None = Field(default=None, ge=1, le=6, strict=True)
    fortress: bool = False
    # The Relief Force: how far a feature outside the fortress stands from the defender's
    # territory, measured at the table (the battleplan gives no map to measure it on).
    defender_gap: float | None = Field(default=None, ge=0, le=MAX_INCHES)
    notes: Annotated[str, StringConstraints(strip_whitespace=True, max_length=300)] = ""

    @field_validator("name", mode="before")
    @classmethod
    def _name(cls, value: Any) -> Any:
        return clean_text(value) if isinstance(value, str) else value

    @field_validator("keywords")
    @classmethod
    def _keywords(cls, words: list[str]) -> list[str]:
        return list(dict.fromkeys(str(w).strip().lower() for w in words if str(w).strip()))

    @field_validator("footprint")
    @classmethod
    def _footprint(cls, value: tuple[float, float] | None) -> tuple[float, float] | None:
        if value is not None and (value[0] <= 0 or value[1] <= 0 or max(value) > 100):
            raise ValueError("must be two sizes in inches, each more than 0 and at most 100")
        return value

    @property
    def placed(self) -> bool:
        return self.x is not None and self.y is not None

    def half(self) -> tuple[float, float]:
        if self.footprint is None:
            return 0.0, 0.0
        return self.footprint[0] / 2, self.footprint[1] / 2


def _path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def parse_pieces(pack: Pack, raw: Any) -> tuple[list[Piece] | None, str | None]:
    """Read a list of pieces; ``None`` and one sentence naming the field when it is not one."""
    if not isinstance(raw, list) or len(raw) > MAX_PIECES:
        return None, f"pieces must be a list of at most {MAX_PIECES} terrain pieces."
    pieces = []
    known = {k.id for k in pack.terrain.keywords} if pack.terrain else set()
    for i, item in enumerate(raw):
        try:
            piece = Piece.model_validate(item)
        except ValidationError as exc:
            err = exc.errors(include_url=False)[0]
            where = _path(("pieces", i, *err["loc"]))
            return None, f"{where}: {err['msg'].removeprefix('Value error, ')}."
        unknown = [k for k in piece.keywords if k not in known]
        if unknown:
            allowed = ", ".join(sorted(known)) or "none in this pack"
            return None, f"pieces[{i}].keywords: {unknown[0]!r} is not a terrain keyword here ({allowed})."
        if (piece.x is None) != (piece.y is None):
            return None, f"pieces[{i}]: give both x and y, or neither."
        pieces.append(piece)
    return pieces, None


# --- geometry ----------------------------------------------------------------------------
def gap(a: Piece, b: Piece) -> float:
    """The clear distance between two placed pieces' footprints (0 when they overlap)."""
    assert a.x is not None and a.y is not None and b.x is not None and b.y is not None
    (aw, ah), (bw, bh) = a.half(), b.half()
    dx = max(0.0, abs(a.x - b.x) - aw - bw)
    dy = max(0.0, abs(a.y - b.y) - ah - bh)
    return math.hypot(dx, dy)


def gap_to_point(piece: Piece, x: float, y: float) -> float:
    """The distance from a placed piece's footprint to a point."""
    assert piece.x is not None and piece.y is not None
    w, h = piece.half()
    dx = max(0.0, abs(piece.x - x) - w)
    dy = max(0.0, abs(piece.y - y) - h)
    return math.hypot(dx, dy)


def gap_to_edge(piece: Piece, width: float, height: float) -> float:
    """The clear distance from a placed piece's footprint to the nearest table edge."""
    assert piece.x is not None and piece.y is not None
    w, h = piece.half()
    return min(piece.x - w, width - piece.x - w, piece.y - h, height - piece.y - h)


# --- verdicts ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Finding(Problem):
    """A broken rule (problem) or a recommendation (advice); ``where`` holds the pieces named."""

    @property
    def pieces(self) -> tuple[int, ...]:
        return tuple(self.where or ())

    def as_dict(self, pieces: list[Piece]) -> dict[str, Any]:  # type: ignore[override]
        return {
            "rule": self.rule,
            "message": self.message,
            "pieces": [pieces[i].name for i in self.pieces],
            "indices": list(self.pieces),
        }


@dataclass
class Verdict:
    problems: list[Finding] = field(default_factory=list)
    advice: list[Finding] = field(default_factory=list)
    checklist: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.problems

    def as_dict(self, pieces: list[Piece]) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "problems": [f.as_dict(pieces) for f in self.problems],
            "advice": [f.as_dict(pieces) for f in self.advice],
            "checklist": self.checklist,
        }


def _name(pieces: list[Piece], i: int) -> str:
    return f"{pieces[i].name} (piece {i + 1})"


def _inches(value: float) -> str:
    return f'{value:.1f}"'.replace('.0"', '"')


def _too_close(
    pieces: list[Piece],
    indices: list[int],
    need: Callable[[int, int], float | None],
    inclusive: bool,
) -> Iterator[tuple[int, int, float, int]]:
    """Each piece that stands too close to earlier ones, once: ``(nearest, piece, gap, others)``.

    A stack of n pieces has n(n-1)/2 close pairs; naming each piece once, with its nearest
    earlier neighbour and how many more are too close, keeps the verdict (and every page and
    card that shows it) linear in the number of pieces.
    """
    for b, j in enumerate(indices):
        close: list[tuple[float, int]] = []
        for i in indices[:b]:
            limit = need(i, j)
            if limit is None:
                continue
            d = gap(pieces[i], pieces[j])
            if d < limit - 1e-9 or (inclusive and d <= limit + 1e-9):
                close.append((d, i))
        if close:
            d, i = min(close)
            yield i, j, d, len(close) - 1


def _more(pieces: list[Piece], j: int, more: int) -> str:
    if not more:
        return ""
    return f" ({pieces[j].name} is too close to {more} more piece{'' if more == 1 else 's'} as well)"


def check(pack: Pack, pieces: list[Piece], scenario: Scenario | None = None, siege: bool = False) -> Verdict:
    """Every problem and piece of advice for a battlefield, by the pack's terrain rules."""
    rules = pack.terrain
    verdict = Verdict()
    if rules is None:
        return verdict
    if rules.system == "conquest":
        _check_conquest(rules, pieces, scenario, verdict, pack.markers)
    else:
        _check_aos(rules, pieces, scenario, siege, verdict)
    return verdict


def _check_conquest(
    rules: Any, pieces: list[Piece], scenario: Scenario | None, v: Verdict, markers: Markers | None = None
) -> None:
    n = len(pieces)
    if rules.max_pieces is not None and n > rules.max_pieces:
        v.problems.append(
            Finding("max-pieces", f"The battlefield has {n} pieces; at most {rules.max_pieces} are allowed.")
        )
    if rules.suggested_pieces is not None and abs(n - rules.suggested_pieces) > 2:
        v.advice.append(
            Finding(
                "suggested-pieces",
                f"The battlefield has {n} pieces; about {rules.suggested_pieces} are recommended.",
            )
        )
    counted = [
        (
            "max-garrison",
            rules.max_garrison,
            [i for i, p in enumerate(pieces) if p.kind == "garrison"],
            "garrison pieces",
            True,
        ),
        ("max-ruins", rules.max_ruins, [i for i, p in enumerate(pieces) if p.ruins], "Ruins pieces", True),
        (
            "min-obscuring",
            rules.min_obscuring,
            [i for i, p in enumerate(pieces) if p.obscuring],
            "Obscuring pieces",
            False,
        ),
        (
            "min-obstructing",
            rules.min_obstructing,
            [i for i, p in enumerate(pieces) if "obstructing" in p.keywords],
            "Obstructing pieces",
            False,
        ),
    ]
    for rule, limit, found, what, is_max in counted:
        if limit is None:
            continue
        if is_max and len(found) > limit:
            v.problems.append(
                Finding(
                    rule,
                    f"The battlefield has {len(found)} {what}; at most {limit} are allowed.",
                    tuple(found),
                )
            )
        if not is_max and len(found) < limit:
            v.problems.append(
                Finding(
                    rule,
                    f"The battlefield has {len(found)} {what}; at least {limit} are needed.",
                    tuple(found),
                )
            )
    low, high = rules.size_range or (None, None)
    for i, p in enumerate(pieces):
        if low is not None and high is not None and not low <= p.size <= high:
            v.problems.append(
                Finding(
                    "size-range",
                    f"{_name(pieces, i)} has Size {p.size}; a terrain Size runs from {low} to {high}.",
                    (i,),
                )
            )
        for a, b in rules.conflicts:
            if a in p.keywords and b in p.keywords:
                v.problems.append(
                    Finding(
                        "keyword-conflict",
                        f"{_name(pieces, i)} cannot be both {a.title()} and {b.title()}.",
                        (i,),
                    )
                )
        for a, b in rules.contradictions:
            if a in p.keywords and b in p.keywords:
                v.advice.append(
                    Finding(
                        "keyword-contradiction",
                        f"{_name(pieces, i)} is both {a.title()} and {b.title()}, whose rules pull "
                        "against each other; agree which one the piece keeps.",
                        (i,),
                    )
                )
        if rules.advised_keywords is not None and len(p.keywords) > rules.advised_keywords:
            v.advice.append(
                Finding(
                    "keyword-count",
                    f"{_name(pieces, i)} has {len(p.keywords)} keywords; the rulebook advises no more "
                    f"than {rules.advised_keywords} a piece.",
                    (i,),
                )
            )
        if rules.max_footprint and p.footprint:
            big, small = max(p.footprint), min(p.footprint)
            lim_big, lim_small = max(rules.max_footprint), min(rules.max_footprint)
            if big > lim_big or small > lim_small:
                v.problems.append(
                    Finding(
                        "max-footprint",
                        f"{_name(pieces, i)} measures {_inches(p.footprint[0])} x "
                        f"{_inches(p.footprint[1])}; no footprint may exceed "
                        f'{lim_big:g}" x {lim_small:g}".',
                        (i,),
                    )
                )
    placed = [i for i, p in enumerate(pieces) if p.placed]
    if rules.min_gap is not None:
        need = rules.min_gap
        for i, j, d, more in _too_close(pieces, placed, lambda i, j: need, inclusive=False):
            v.problems.append(
                Finding(
                    "min-gap",
                    f"{_name(pieces, i)} and {_name(pieces, j)} are {_inches(d)} apart{_more(pieces, j, more)}; "
                    f'pieces stand at least {need:g}" apart.',
                    (i, j),
                )
            )
    garrisons = [i for i in placed if pieces[i].kind == "garrison"]
    if rules.garrison_gap is not None:
        g_need = rules.garrison_gap
        for i, j, d, more in _too_close(pieces, garrisons, lambda i, j: g_need, inclusive=False):
            v.advice.append(
                Finding(
                    "garrison-gap",
                    f"Garrisons {_name(pieces, i)} and {_name(pieces, j)} are "
                    f'{_inches(d)} apart{_more(pieces, j, more)}; {g_need:g}" is recommended.',
                    (i, j),
                )
            )
    if rules.garrison_edge is not None and scenario and scenario.board:
        for i in garrisons:
            d = gap_to_edge(pieces[i], scenario.board.width, scenario.board.height)
            if d < rules.garrison_edge - 1e-9:
                v.advice.append(
                    Finding(
                        "garrison-edge",
                        f"{_name(pieces, i)} is {_inches(max(d, 0))} from the table "
                        f'edge; garrisons are best {rules.garrison_edge:g}" in.',
                        (i,),
                    )
                )
    if scenario is not None:
        zones = [o for o in scenario.objectives if o.kind == "zone" and o.x is not None and o.y is not None]
        for i in placed:
            for z in zones:
                assert z.x is not None and z.y is not None and z.diameter is not None
                if gap_to_point(pieces[i], z.x, z.y) < z.diameter / 2 - 1e-9:
                    v.problems.append(
                        Finding(
                            "objective-zone",
                            f"{_name(pieces, i)} stands on the objective zone {z.label}; no terrain may.",
                            (i,),
                        )
                    )
        # A marker or a Tug-of-War point is a model on its base: terrain touching the base stands on it.
        spots = [
            o
            for o in scenario.objectives
            if o.kind in ("marker", "point") and o.x is not None and o.y is not None
        ]
        for i in placed:
            for o in spots:
                assert o.x is not None and o.y is not None
                if on_marker(pieces[i], o, markers):
                    v.problems.append(
                        Finding(
                            "objective-marker",
                            f"{_name(pieces, i)} stands on the objective {o.kind} {o.label}; no terrain may.",
                            (i,),
                        )
                    )
    v.checklist = [e.summary for e in rules.checklist]


MM_PER_INCH = 25.4


def on_marker(piece: Piece, objective: Objective, markers: Markers | None) -> bool:
    """Whether a placed piece's footprint covers part of an objective marker's base.

    A marker stands on a square base (the pack's ``base_half_width`` either side of its centre:
    a Brute or Cavalry base); a Tug-of-War point on a round one (``point_base_mm`` across: an
    Infantry base). Touching edges do not overlap. Without the pack's sizes, its centre point.
    """
    assert piece.x is not None and piece.y is not None
    assert objective.x is not None and objective.y is not None
    if objective.kind == "point":
        across = markers.point_base_mm if markers and markers.point_base_mm else 0.0
        return gap_to_point(piece, objective.x, objective.y) < max(across / MM_PER_INCH / 2, 1e-9)
    half = markers.base_half_width if markers else 0.0
    w, h = piece.half()
    if half == 0:
        return gap_to_point(piece, objective.x, objective.y) < 1e-9
    return abs(piece.x - objective.x) < w + half - 1e-9 and abs(piece.y - objective.y) < h + half - 1e-9


def _objectives_at_start(scenario: Scenario) -> list[Objective]:
    return [o for o in scenario.objectives if o.from_round == 1 and o.x is not None and o.y is not None]


def _check_aos(rules: Any, pieces: list[Piece], scenario: Scenario | None, siege: bool, v: Verdict) -> None:
    placed = [i for i, p in enumerate(pieces) if p.placed]
    board = scenario.board if scenario else None
    if scenario is not None and scenario.siege_terrain is not None:
        # A siege battleplan sets its own distances in place of Pitched Battles' (the fortress's
        # walls may touch); it is always a siege.
        _check_siege_battleplan(scenario.siege_terrain, pieces, board, v)
        v.checklist = [e.summary for e in rules.checklist if e.id != "without-positions"]
        return
    if rules.edge_gap is not None and board is not None:
        for i in placed:
            d = gap_to_edge(pieces[i], board.width, board.height)
            if d <= rules.edge_gap + 1e-9:
                v.problems.append(
                    Finding(
                        "edge-gap",
                        f"{_name(pieces, i)} is {_inches(max(d, 0))} from the battlefield "
                        f'edge; it must be more than {rules.edge_gap:g}".',
                        (i,),
                    )
                )

    def aos_need(i: int, j: int) -> float | None:
        return rules.faction_gap if pieces[i].faction or pieces[j].faction else rules.terrain_gap

    for i, j, d, more in _too_close(pieces, placed, aos_need, inclusive=True):
        faction = pieces[i].faction or pieces[j].faction
        rule = "faction-gap" if faction else "terrain-gap"
        kind = "faction terrain and another feature" if faction else "terrain features"
        v.problems.append(
            Finding(
                rule,
                f"{_name(pieces, i)} and {_name(pieces, j)} are {_inches(d)} apart{_more(pieces, j, more)}; "
                f'{kind} must be more than {aos_need(i, j):g}" apart.',
                (i, j),
            )
        )
    if scenario is not None:
        for i in placed:
            need = rules.faction_gap if pieces[i].faction else rules.objective_gap
            if need is None:
                continue
            for o in _objectives_at_start(scenario):
                assert o.x is not None and o.y is not None
                d = gap_to_point(pieces[i], o.x, o.y)
                if d <= need + 1e-9:
                    v.problems.append(
                        Finding(
                            "objective-gap",
                            f"{_name(pieces, i)} is {_inches(d)} from objective "
                            f'{o.label}; it must be more than {need:g}".',
                            (i,),
                        )
                    )
    if siege and rules.fortress_min is not None:
        inside = [i for i, p in enumerate(pieces) if p.fortress]
        if len(inside) < rules.fortress_min:
            v.problems.append(
                Finding(
                    "fortress-min",
                    f"The fortress has {len(inside)} terrain features wholly within "
                    f"the defender's territory; a siege needs at least "
                    f"{rules.fortress_min}.",
                    tuple(inside),
                )
            )
    unplaced = len(pieces) - len(placed)
    v.checklist = [e.summary for e in rules.checklist if e.id != "without-positions" or unplaced]


def _check_siege_battleplan(
    rules: SiegeTerrain, pieces: list[Piece], board: Board | None, v: Verdict
) -> None:
    """The fortress (pieces marked ``fortress``) and the features outside it, by the battleplan."""
    inside = [i for i, p in enumerate(pieces) if p.fortress]
    outside = [i for i, p in enumerate(pieces) if not p.fortress]
    if len(inside) < rules.fortress_min:
        v.problems.append(
            Finding(
                "fortress-min",
                f"The fortress has {len(inside)} terrain features wholly within the defender's "
                f"territory; a siege needs at least {rules.fortress_min}.",
                tuple(inside),
            )
        )
    if rules.outside_max is not None and len(outside) > rules.outside_max:
        v.problems.append(
            Finding(
                "outside-max",
                f"{len(outside)} terrain features stand outside the fortress; at most {rules.outside_max} may.",
                tuple(outside),
            )
        )
    unmeasured = False
    for i in outside:
        p = pieces[i]
        if rules.territory_gap is not None:
            if p.defender_gap is None:
                unmeasured = True
            elif p.defender_gap <= rules.territory_gap + 1e-9:
                v.problems.append(
                    Finding(
                        "territory-gap",
                        f"{_name(pieces, i)} is {_inches(p.defender_gap)} from the defender's territory; "
                        f'a feature outside the fortress must be more than {rules.territory_gap:g}" away.',
                        (i,),
                    )
                )
        if not p.placed:
            unmeasured = True
            continue
        if rules.edge_gap is not None and board is not None:
            d = gap_to_edge(p, board.width, board.height)
            if d <= rules.edge_gap + 1e-9:
                v.problems.append(
                    Finding(
                        "edge-gap",
                        f"{_name(pieces, i)} is {_inches(max(d, 0))} from the battlefield edge; a feature "
                        f'outside the fortress must be more than {rules.edge_gap:g}".',
                        (i,),
                    )
                )
        if rules.terrain_gap is not None:
            others = [j for j, q in enumerate(pieces) if j != i and q.placed]
            close = [(gap(p, pieces[j]), j) for j in others if gap(p, pieces[j]) <= rules.terrain_gap + 1e-9]
            # A pair of outside features is named once, by the later of the two.
            close = [(d, j) for d, j in close if pieces[j].fortress or j < i]
            if close:
                d, j = min(close)
                v.problems.append(
                    Finding(
                        "outside-gap",
                        f"{_name(pieces, j)} and {_name(pieces, i)} are {_inches(d)} apart{_more(pieces, i, len(close) - 1)}; "
                        f'a feature outside the fortress must be more than {rules.terrain_gap:g}" from every other.',
                        (j, i),
                    )
                )
    if unmeasured:
        v.advice.append(
            Finding(
                "measure-outside",
                "Measure by hand what Muster cannot: each feature outside the fortress more than "
                f'{rules.edge_gap or 0:g}" from the edge, more than {rules.territory_gap or 0:g}" from the '
                f"defender's territory and more than {rules.terrain_gap or 0:g}\" from every other feature.",
                tuple(i for i in outside if not pieces[i].placed or pieces[i].defender_gap is None),
            )
        )


def mysterious_effect(pack: Pack, roll: int | None) -> Any:
    """The mysterious-terrain result for a roll, if the pack has the table."""
    if roll is None or pack.terrain is None:
        return None
    return next((e for e in pack.terrain.mysterious if e.roll == roll), None)


# --- line of sight -------------------------------------------------------------------------
@dataclass(frozen=True)
class Sight:
    """Whether a shooter sees its target, and why."""

    shooter_size: int
    target_size: int
    clear: bool
    blocked_by: tuple[str, ...]
    cover: bool
    reasons: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "shooter_size": self.shooter_size,
            "target_size": self.target_size,
            "clear": self.clear,
            "blocked_by": list(self.blocked_by),
            "cover": self.cover,
            "reasons": list(self.reasons),
        }


def effective_size(size: int, elevated_on: int = 0) -> int:
    """A regiment's Size plus the Size of the Elevated terrain it stands on."""
    return size + max(0, elevated_on)


def _regiment_size(part: dict[str, Any], role: str) -> tuple[int, str | None]:
    """A regiment's Size for line of sight, and the sentence saying why when a garrison sets it.

    Occupiers of a garrison take its Size; a regiment volleying out of one takes its Elevation.
    """
    garrison = part.get("garrison")
    if isinstance(garrison, dict):
        if role == "shooter":
            value = int(garrison.get("elevation", 0) or 0)
            return (
                value,
                f"The shooter volleys from a garrison: it counts as Size {value}, the garrison's Elevation.",
            )
        value = int(garrison.get("size", 0) or 0)
        return value, f"The {role} occupies a garrison: it counts as Size {value}, the garrison's Size."
    return effective_size(int(part.get("size", 0)), int(part.get("elevated_on", 0) or 0)), None


def line_of_sight(shooter: dict[str, Any], target: dict[str, Any], between: list[dict[str, Any]]) -> Sight:
    """The size arithmetic of Conquest's elevation rules.

    ``shooter`` and ``target``: ``{"size", "elevated_on", "garrison"}``: the Size of the Elevated
    piece they stand on (0 if none), or the garrison they occupy (``{"size", "elevation"}``):
    a volleying regiment inside one counts as its Elevation, an occupied one as its Size.
    ``between``: what the line crosses, each ``{"name", "kind": "regiment" | "terrain", "size",
    "elevated_on", "garrison", "obstructing", "cover", "shooter_on", "target_on"}``.
    A regiment or Obstructing terrain in the way blocks the line unless its Size is lower than
    the larger of the two regiments' Sizes; Obstructing terrain that either regiment stands on
    never blocks. Cover terrain crossed halves the Barrage of the volley, but only for a target
    whose Size is at most the Cover piece's.
    """
    a, why_a = _regiment_size(shooter, "shooter")
    b, why_b = _regiment_size(target, "target")
    reach = max(a, b)
    blocked: list[str] = []
    reasons = [r for r in (why_a, why_b) if r]
    reasons.insert(
        0, f"Shooter Size {a}, target Size {b}: anything of Size {reach} or more in between blocks the line."
    )
    cover = False
    for i, item in enumerate(between):
        name = str(item.get("name") or f"item {i + 1}")
        if item.get("kind") == "terrain":
            size = effective_size(int(item.get("size", 0)), int(item.get("elevated_on", 0) or 0))
            if item.get("cover") and not (item.get("shooter_on") and item.get("target_on")):
                if b <= size:
                    cover = True
                    reasons.append(
                        f"{name} is Cover of Size {size}: the volley's Barrage is halved (round up), "
                        f"as the target (Size {b}) is no bigger."
                    )
                else:
                    reasons.append(
                        f"{name} is Cover of Size {size}, but the target (Size {b}) is bigger: it gains no cover."
                    )
            if not item.get("obstructing"):
                continue
            if item.get("shooter_on") or item.get("target_on"):
                reasons.append(f"{name} is Obstructing, but a regiment stands on it: it does not block.")
                continue
        else:
            size, _why = _regiment_size(item, "regiment")
        if size >= reach:
            blocked.append(name)
            reasons.append(f"{name} (Size {size}) blocks: it is not lower than Size {reach}.")
        else:
            reasons.append(f"{name} (Size {size}) is lower than Size {reach}: the line passes over it.")
    return Sight(a, b, not blocked, tuple(blocked), cover, tuple(reasons))


# --- agreement --------------------------------------------------------------------------------
@dataclass
class PieceState:
    uid: str
    piece: Piece
    agreed: set[int] = field(default_factory=set)
    changed_at: str = ""


@dataclass
class TerrainSet:
    """A game's terrain set as its events build it: pieces, who agreed, and when it locked.

    ``seats`` binds each player to the one phone that agrees for them (a phone is known by a
    hash of its id): the first phone to agree as a player, or to take the player's seat, holds
    it, and a phone holds one seat, so no single phone can agree as both and lock the set.
    """

    players: int
    pieces: dict[str, PieceState] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)
    locked_at: str | None = None
    reopened: list[str] = field(default_factory=list)
    seats: dict[int, str] = field(default_factory=dict)

    @property
    def ordered(self) -> list[PieceState]:
        return list(self.pieces.values())

    @property
    def agreed(self) -> bool:
        return bool(self.pieces) and all(len(s.agreed) == self.players for s in self.pieces.values())

    def waiting(self) -> list[PieceState]:
        return [s for s in self.pieces.values() if len(s.agreed) < self.players]

    def seat_of(self, phone: str | None) -> int | None:
        """The player this phone agrees for, if it holds a seat."""
        return next((p for p, held in self.seats.items() if held == phone), None) if phone else None

    def open_seats(self, phone: str | None) -> list[int]:
        """The players this phone may agree for: its own seat, or else every seat not yet held."""
        mine = self.seat_of(phone)
        if mine is not None:
            return [mine]
        return [p for p in range(self.players) if p not in self.seats]

    def seat_refusal(self, player: int, phone: str | None, names: list[str] | None = None) -> str | None:
        """Why this phone may not agree (or sit) as ``player``; ``None`` when it may."""
        who = names[player] if names and 0 <= player < len(names) else f"Player {player + 1}"
        if not phone:
            return "This phone has no identity for agreeing yet; reload the terrain page and try again."
        mine = self.seat_of(phone)
        if mine is not None and mine != player:
            other = names[mine] if names and 0 <= mine < len(names) else f"Player {mine + 1}"
            return (
                f"This phone agrees for {other}; {who} agrees on their own phone (join by the game's link)."
            )
        held = self.seats.get(player)
        if held is not None and held != phone:
            return f"{who} already agrees on another phone; only that phone can agree for {who}."
        return None


def fold(players: int, events: list[dict[str, Any]], names: list[str] | None = None) -> TerrainSet:
    """Replay a terrain set's events: ``piece`` (add or change), ``remove``, ``seat`` and ``agree``.

    Any change to a piece clears its agreement; once every piece is agreed by every player
    the set is locked with the time of the last agreement, and a later change reopens it. An
    ``agree`` or ``seat`` carries the phone's hash and binds the player to that phone (events
    recorded before phones were told apart carry none and bind nothing).
    """
    state = TerrainSet(players=players)
    names = names or [f"Player {i + 1}" for i in range(players)]

    def who(player: Any) -> str:
        return names[player] if isinstance(player, int) and 0 <= player < len(names) else "A player"

    for event in events:
        kind, uid, at = event.get("type"), event.get("piece_uid"), event.get("at", "")
        if kind == "piece":
            try:
                piece = Piece.model_validate(event["piece"])
            except (KeyError, ValidationError):
                # Written before today's limits (a piece dragged to 1e300"): it stays out of the set.
                continue
            existing = state.pieces.get(uid)
            if existing is not None and state.locked_at and existing.agreed:
                state.reopened.append(uid)
            if existing is None:
                state.pieces[uid] = PieceState(uid, piece, set(), at)
                what = "Added"
            else:
                moved_only = existing.piece.model_dump(exclude={"x", "y"}) == piece.model_dump(
                    exclude={"x", "y"}
                )
                what = "Moved" if moved_only else "Changed"
                existing.piece, existing.agreed, existing.changed_at = piece, set(), at
            reopened = " (agreement reopened)" if existing is not None and uid in state.reopened else ""
            state.history.append({"at": at, "what": f"{what} {piece.name}{reopened}"})
        elif kind == "remove" and uid in state.pieces:
            gone = state.pieces.pop(uid)
            state.history.append({"at": at, "what": f"Removed {gone.piece.name}"})
        elif kind == "seat":
            player, phone = event.get("player"), event.get("phone")
            free = isinstance(player, int) and player not in state.seats
            if free and phone and state.seat_refusal(player, phone) is None:
                state.seats[player] = phone
                state.history.append({"at": at, "what": f"{who(player)} agrees on one phone"})
        elif kind == "agree" and uid in state.pieces:
            player, phone = event.get("player"), event.get("phone")
            if phone and isinstance(player, int):
                if state.seat_refusal(player, phone) is not None:
                    continue
                state.seats.setdefault(player, phone)
            state.pieces[uid].agreed.add(player)
            state.history.append(
                {"at": at, "what": f"{who(player)} agreed to {state.pieces[uid].piece.name}"}
            )
        if state.agreed:
            state.locked_at = state.locked_at or at
        else:
            state.locked_at = None
    return state
