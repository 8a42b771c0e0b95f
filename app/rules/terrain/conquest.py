"""Conquest's terrain: zonal and garrison pieces, Size, keywords and First Blood's battlefield
limits (counts, footprints, gaps, and nothing on an objective zone, marker or point)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field

from app.rules.pack_base import Id
from app.rules.terrain import (
    Finding,
    Piece,
    TerrainRules,
    TerrainScreen,
    TerrainSection,
    Verdict,
    also_close,
    gap_to_edge,
    gap_to_point,
    inches,
    piece_name,
    register,
    too_close,
)

if TYPE_CHECKING:
    from app.rules.pack import Markers, Objective, Pack, Scenario

KIND = "conquest"


class Section(TerrainSection):
    """The pack's ``terrain`` section: what a piece may be, and the battlefield's limits."""

    size_range: tuple[int, int] | None = None
    conflicts: list[tuple[Id, Id]] = []
    # Keyword pairs whose rules pull against each other: advice, where ``conflicts`` are problems.
    contradictions: list[tuple[Id, Id]] = []
    advised_keywords: int | None = Field(default=None, ge=1)
    garrison_defense: int | None = None
    garrison_capacity: int | None = None
    suggested_pieces: int | None = None
    max_pieces: int | None = None
    max_garrison: int | None = None
    max_ruins: int | None = None
    min_obscuring: int | None = None
    min_obstructing: int | None = None
    max_footprint: tuple[float, float] | None = None
    min_gap: float | None = None
    garrison_gap: float | None = None
    garrison_edge: float | None = None


def check(pack: Pack, pieces: list[Piece], scenario: Scenario | None, siege: bool, v: Verdict) -> None:
    """Piece counts, Sizes, keywords, footprints and gaps, and what may not stand on objectives."""
    rules, markers = pack.terrain, pack.markers
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
                    f"{piece_name(pieces, i)} has Size {p.size}; a terrain Size runs from {low} to {high}.",
                    (i,),
                )
            )
        for a, b in rules.conflicts:
            if a in p.keywords and b in p.keywords:
                v.problems.append(
                    Finding(
                        "keyword-conflict",
                        f"{piece_name(pieces, i)} cannot be both {a.title()} and {b.title()}.",
                        (i,),
                    )
                )
        for a, b in rules.contradictions:
            if a in p.keywords and b in p.keywords:
                v.advice.append(
                    Finding(
                        "keyword-contradiction",
                        f"{piece_name(pieces, i)} is both {a.title()} and {b.title()}, whose rules pull "
                        "against each other; agree which one the piece keeps.",
                        (i,),
                    )
                )
        if rules.advised_keywords is not None and len(p.keywords) > rules.advised_keywords:
            v.advice.append(
                Finding(
                    "keyword-count",
                    f"{piece_name(pieces, i)} has {len(p.keywords)} keywords; the rulebook advises no more "
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
                        f"{piece_name(pieces, i)} measures {inches(p.footprint[0])} x "
                        f"{inches(p.footprint[1])}; no footprint may exceed "
                        f'{lim_big:g}" x {lim_small:g}".',
                        (i,),
                    )
                )
    placed = [i for i, p in enumerate(pieces) if p.placed]
    if rules.min_gap is not None:
        need = rules.min_gap
        for i, j, d, more in too_close(pieces, placed, lambda i, j: need, inclusive=False):
            v.problems.append(
                Finding(
                    "min-gap",
                    f"{piece_name(pieces, i)} and {piece_name(pieces, j)} are {inches(d)} apart{also_close(pieces, j, more)}; "
                    f'pieces stand at least {need:g}" apart.',
                    (i, j),
                )
            )
    garrisons = [i for i in placed if pieces[i].kind == "garrison"]
    if rules.garrison_gap is not None:
        g_need = rules.garrison_gap
        for i, j, d, more in too_close(pieces, garrisons, lambda i, j: g_need, inclusive=False):
            v.advice.append(
                Finding(
                    "garrison-gap",
                    f"Garrisons {piece_name(pieces, i)} and {piece_name(pieces, j)} are "
                    f'{inches(d)} apart{also_close(pieces, j, more)}; {g_need:g}" is recommended.',
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
                        f"{piece_name(pieces, i)} is {inches(max(d, 0))} from the table "
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
                            f"{piece_name(pieces, i)} stands on the objective zone {z.label}; no terrain may.",
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
                            f"{piece_name(pieces, i)} stands on the objective {o.kind} {o.label}; no terrain may.",
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


def complete(rules: Section, piece: dict[str, Any]) -> None:
    """A garrison typed without its Defense or Capacity takes the pack's."""
    if piece.get("kind") == "garrison":
        piece.setdefault("defense", rules.garrison_defense)
        piece.setdefault("capacity", rules.garrison_capacity)


RULES = register(
    TerrainRules(
        kind=KIND,
        section=Section,
        screen=TerrainScreen(
            KIND,
            card_rules=True,
            sight=True,
        ),
        check=check,
        complete=complete,
    )
)
