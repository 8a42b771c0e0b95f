"""Conquest's terrain: zonal and garrison pieces, Size, keywords and First Blood's battlefield
limits (counts, footprints, gaps, and nothing on an objective zone, marker or point)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field

from app.rules import terrain
from app.rules.pack_base import Id
from app.rules.speech import say

if TYPE_CHECKING:
    from app.rules.pack import Markers, Objective, Pack, Scenario

KIND = "conquest"


class Section(terrain.TerrainSection):
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


def check(
    pack: Pack, pieces: list[terrain.Piece], scenario: Scenario | None, siege: bool, v: terrain.Verdict
) -> None:
    """Piece counts, Sizes, keywords, footprints and gaps, and what may not stand on objectives."""
    rules, markers = pack.terrain, pack.markers
    n = len(pieces)
    if rules.max_pieces is not None and n > rules.max_pieces:
        v.problems.append(
            terrain.Finding(
                "max-pieces",
                say(
                    "The battlefield has {count} pieces; at most {most} are allowed.",
                    count=n,
                    most=rules.max_pieces,
                ),
            )
        )
    if rules.suggested_pieces is not None and abs(n - rules.suggested_pieces) > 2:
        v.advice.append(
            terrain.Finding(
                "suggested-pieces",
                say(
                    "The battlefield has {count} pieces; about {about} are recommended.",
                    count=n,
                    about=rules.suggested_pieces,
                ),
            )
        )
    counted = [
        ("max-garrison", rules.max_garrison, [i for i, p in enumerate(pieces) if p.kind == "garrison"]),
        ("max-ruins", rules.max_ruins, [i for i, p in enumerate(pieces) if p.ruins]),
        ("min-obscuring", rules.min_obscuring, [i for i, p in enumerate(pieces) if p.obscuring]),
        (
            "min-obstructing",
            rules.min_obstructing,
            [i for i, p in enumerate(pieces) if "obstructing" in p.keywords],
        ),
    ]
    for rule, limit, found in counted:
        if limit is None or (len(found) <= limit if rule.startswith("max-") else len(found) >= limit):
            continue
        v.problems.append(terrain.Finding(rule, _counted(rule, len(found), limit), tuple(found)))
    low, high = rules.size_range or (None, None)
    for i, p in enumerate(pieces):
        if low is not None and high is not None and not low <= p.size <= high:
            v.problems.append(
                terrain.Finding(
                    "size-range",
                    say(
                        "{piece} has Size {size}; a terrain Size runs from {low} to {high}.",
                        piece=terrain.piece_name(pieces, i),
                        size=p.size,
                        low=low,
                        high=high,
                    ),
                    (i,),
                )
            )
        # A pair of keywords on one piece: a conflict is a problem, a contradiction advice.
        pairs = (
            (
                rules.conflicts,
                v.problems,
                "keyword-conflict",
                lambda **words: say("{piece} cannot be both {a} and {b}.", **words),
            ),
            (
                rules.contradictions,
                v.advice,
                "keyword-contradiction",
                lambda **words: say(
                    "{piece} is both {a} and {b}, whose rules pull against each other; "
                    "agree which one the piece keeps.",
                    **words,
                ),
            ),
        )
        for kept, findings, rule, sentence in pairs:
            for a, b in kept:
                if a in p.keywords and b in p.keywords:
                    piece = terrain.piece_name(pieces, i)
                    findings.append(
                        terrain.Finding(rule, sentence(piece=piece, a=a.title(), b=b.title()), (i,))
                    )
        if rules.advised_keywords is not None and len(p.keywords) > rules.advised_keywords:
            v.advice.append(
                terrain.Finding(
                    "keyword-count",
                    say(
                        "{piece} has {count} keywords; the rulebook advises no more than {most} a piece.",
                        piece=terrain.piece_name(pieces, i),
                        count=len(p.keywords),
                        most=rules.advised_keywords,
                    ),
                    (i,),
                )
            )
        if rules.max_footprint and p.footprint:
            big, small = max(p.footprint), min(p.footprint)
            lim_big, lim_small = max(rules.max_footprint), min(rules.max_footprint)
            if big > lim_big or small > lim_small:
                v.problems.append(
                    terrain.Finding(
                        "max-footprint",
                        say(
                            '{piece} measures {width} x {depth}; no footprint may exceed {big}" x {small}".',
                            piece=terrain.piece_name(pieces, i),
                            width=terrain.inches(p.footprint[0]),
                            depth=terrain.inches(p.footprint[1]),
                            big=f"{lim_big:g}",
                            small=f"{lim_small:g}",
                        ),
                        (i,),
                    )
                )
    placed = [i for i, p in enumerate(pieces) if p.placed]
    garrisons = [i for i in placed if pieces[i].kind == "garrison"]
    # Two pieces too close: any two placed pieces (a problem), two garrisons (advice).
    gaps = (
        (
            "min-gap",
            placed,
            rules.min_gap,
            v.problems,
            lambda **words: say(
                '{a} and {b} are {d} apart{more}; pieces stand at least {need}" apart.', **words
            ),
        ),
        (
            "garrison-gap",
            garrisons,
            rules.garrison_gap,
            v.advice,
            lambda **words: say(
                'Garrisons {a} and {b} are {d} apart{more}; {need}" is recommended.', **words
            ),
        ),
    )
    for rule, among, need, findings, sentence in gaps:
        if need is None:
            continue
        for i, j, d, more in terrain.too_close(pieces, among, lambda i, j, need=need: need, inclusive=False):
            words = sentence(
                a=terrain.piece_name(pieces, i),
                b=terrain.piece_name(pieces, j),
                d=terrain.inches(d),
                more=terrain.also_close(pieces, j, more),
                need=f"{need:g}",
            )
            findings.append(terrain.Finding(rule, words, (i, j)))
    if rules.garrison_edge is not None and scenario and scenario.board:
        for i in garrisons:
            d = terrain.gap_to_edge(pieces[i], scenario.board.width, scenario.board.height)
            if d < rules.garrison_edge - 1e-9:
                v.advice.append(
                    terrain.Finding(
                        "garrison-edge",
                        say(
                            '{piece} is {gap} from the table edge; garrisons are best {need}" in.',
                            piece=terrain.piece_name(pieces, i),
                            gap=terrain.inches(max(d, 0)),
                            need=f"{rules.garrison_edge:g}",
                        ),
                        (i,),
                    )
                )
    if scenario is not None:
        zones = [o for o in scenario.objectives if o.kind == "zone" and o.x is not None and o.y is not None]
        for i in placed:
            for z in zones:
                assert z.x is not None and z.y is not None and z.diameter is not None
                if terrain.gap_to_point(pieces[i], z.x, z.y) < z.diameter / 2 - 1e-9:
                    v.problems.append(
                        terrain.Finding(
                            "objective-zone",
                            say(
                                "{piece} stands on the objective zone {label}; no terrain may.",
                                piece=terrain.piece_name(pieces, i),
                                label=z.label,
                            ),
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
                        terrain.Finding(
                            "objective-marker",
                            say(
                                "{piece} stands on the objective marker {label}; no terrain may.",
                                piece=terrain.piece_name(pieces, i),
                                label=o.label,
                            )
                            if o.kind == "marker"
                            else say(
                                "{piece} stands on the objective point {label}; no terrain may.",
                                piece=terrain.piece_name(pieces, i),
                                label=o.label,
                            ),
                            (i,),
                        )
                    )
    v.checklist = [e.summary for e in rules.checklist]


def _counted(rule: str, count: int, limit: int) -> str:
    """The sentence of a piece count over its most or under its least (``rule`` names which)."""
    if rule == "max-garrison":
        return say(
            "The battlefield has {count} garrison pieces; at most {limit} are allowed.",
            count=count,
            limit=limit,
        )
    if rule == "max-ruins":
        return say(
            "The battlefield has {count} Ruins pieces; at most {limit} are allowed.", count=count, limit=limit
        )
    if rule == "min-obscuring":
        return say(
            "The battlefield has {count} Obscuring pieces; at least {limit} are needed.",
            count=count,
            limit=limit,
        )
    return say(
        "The battlefield has {count} Obstructing pieces; at least {limit} are needed.",
        count=count,
        limit=limit,
    )


MM_PER_INCH = 25.4


def on_marker(piece: terrain.Piece, objective: Objective, markers: Markers | None) -> bool:
    """Whether a placed piece's footprint covers part of an objective marker's base.

    A marker stands on a square base (the pack's ``base_half_width`` either side of its centre:
    a Brute or Cavalry base); a Tug-of-War point on a round one (``point_base_mm`` across: an
    Infantry base). Touching edges do not overlap. Without the pack's sizes, its centre point.
    """
    assert piece.x is not None and piece.y is not None
    assert objective.x is not None and objective.y is not None
    if objective.kind == "point":
        across = markers.point_base_mm if markers and markers.point_base_mm else 0.0
        return terrain.gap_to_point(piece, objective.x, objective.y) < max(across / MM_PER_INCH / 2, 1e-9)
    half = markers.base_half_width if markers else 0.0
    w, h = piece.half()
    if half == 0:
        return terrain.gap_to_point(piece, objective.x, objective.y) < 1e-9
    return abs(piece.x - objective.x) < w + half - 1e-9 and abs(piece.y - objective.y) < h + half - 1e-9


def complete(rules: Section, piece: dict[str, Any]) -> None:
    """A garrison typed without its Defense or Capacity takes the pack's."""
    if piece.get("kind") == "garrison":
        piece.setdefault("defense", rules.garrison_defense)
        piece.setdefault("capacity", rules.garrison_capacity)


RULES = terrain.register(
    terrain.TerrainRules(
        kind=KIND,
        section=Section,
        screen=terrain.TerrainScreen(
            KIND,
            card_rules=True,
            sight=True,
        ),
        check=check,
        complete=complete,
    )
)
