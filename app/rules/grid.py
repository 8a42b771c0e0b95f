"""Scenario geometry on the 12" grid: distances, ranges, chains, board checks and the SVG map.

Coordinates are inches: ``x`` from the left edge, ``y`` from Player 1's table edge. The map
draws Player 1's edge at the bottom, as Player 1 sees the table.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from html import escape
from typing import Any

from app.rules.pack import Objective, Scenario
from app.rules.problems import Problem
from app.rules.speech import say

Point = tuple[float, float]


def distance(a: Point, b: Point) -> float:
    """Straight-line distance in inches."""
    return math.hypot(a[0] - b[0], a[1] - b[1])


def position(objective: Objective) -> Point | None:
    """Where an objective stands, or ``None`` when the source gives no position."""
    if objective.x is None or objective.y is None:
        return None
    return (objective.x, objective.y)


def in_zone(point: Point | None, zone: Objective, reach: float) -> bool:
    """Whether something at ``point`` with a base reaching ``reach`` inches overlaps the zone."""
    centre = position(zone)
    if point is None or centre is None or zone.diameter is None:
        return False
    return distance(point, centre) <= zone.diameter / 2 + reach + 1e-9


def step_toward(start: Point, target: Point, inches: float) -> Point:
    """Move ``inches`` in a straight line toward ``target``, stopping on it."""
    gap = distance(start, target)
    if gap <= inches:
        return target
    t = inches / gap
    return (round(start[0] + (target[0] - start[0]) * t, 3), round(start[1] + (target[1] - start[1]) * t, 3))


def adjacent(a: Point, b: Point, spacing: float) -> bool:
    """Whether two points are one grid step apart horizontally or vertically."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (math.isclose(dx, spacing) and math.isclose(dy, 0)) or (
        math.isclose(dy, spacing) and math.isclose(dx, 0)
    )


def chains(held: Iterable[str], where: dict[str, Point], spacing: float) -> list[set[str]]:
    """The chains a player's held points make: groups linked by single grid steps."""
    left = [p for p in held if p in where]
    groups: list[set[str]] = []
    while left:
        group = {left.pop()}
        grew = True
        while grew:
            grew = False
            for p in list(left):
                if any(adjacent(where[p], where[q], spacing) for q in group):
                    group.add(p)
                    left.remove(p)
                    grew = True
        groups.append(group)
    return groups


@dataclass(frozen=True)
class Misplaced(Problem):
    """Something of the map that does not fit the board; ``where`` is the item's id."""

    @property
    def item(self) -> str:
        return str(self.where)


def check_board(scenario: Scenario) -> list[Misplaced]:
    """Every zone, marker, point and deployment corner must lie on the board."""
    if scenario.board is None:
        return []
    w, h = scenario.board.width, scenario.board.height
    problems = []
    for o in scenario.objectives:
        at = position(o)
        if at is None:
            continue
        r = (o.diameter or 0) / 2
        if at[0] - r < 0 or at[0] + r > w or at[1] - r < 0 or at[1] + r > h:
            problems.append(Misplaced("board", f"{o.label} at {at} reaches off the {w:g}x{h:g} board", o.id))
    for area in scenario.deployment_zones:
        for x, y in area.points:
            if not (0 <= x <= w and 0 <= y <= h):
                problems.append(Misplaced("board", f"deployment corner {(x, y)} is off the board", area.side))
    for zone in scenario.reinforcement_zones:
        for seg in zone.segments:
            for x, y in seg:
                on_edge = math.isclose(x, 0) or math.isclose(x, w) or math.isclose(y, 0) or math.isclose(y, h)
                if not on_edge:
                    problems.append(
                        Misplaced("board", f"reinforcement point {(x, y)} is not on a table edge", zone.side)
                    )
    return problems


# --- the map ----------------------------------------------------------------------------------
@dataclass
class MapState:
    """What a game adds to the bare map: who holds what, what fell, where the marker went."""

    holders: dict[str, int | None]
    destroyed: set[str]
    moved: dict[str, Point]


def _f(value: float) -> str:
    return f"{value:g}"


# Presentation attributes, not CSS: the same SVG works on a page with a strict CSP, in
# WeasyPrint (which ignores the page's stylesheet inside SVG) and as a file on its own.
PAINT = {
    "board": 'fill="#ffffff" stroke="#000000" stroke-width="0.3"',
    "grid": 'stroke="#9a9a9a" stroke-width="0.12"',
    "inch": 'font-size="1.5" fill="#000000" text-anchor="middle" font-family="DejaVu Sans, sans-serif"',
    "label": 'font-size="1.5" font-weight="bold" fill="#000000" text-anchor="middle" font-family="DejaVu Sans, sans-serif"',
    "sub": 'font-size="1.1" fill="#000000" text-anchor="middle" font-family="DejaVu Sans, sans-serif"',
    "zone": 'fill="#ffffff" fill-opacity="0.55" stroke="#000000" stroke-width="0.25" stroke-dasharray="0.8 0.5"',
    "point": 'fill="#ffffff" stroke="#000000" stroke-width="0.3"',
    "marker": 'fill="#ffffff" stroke="#000000" stroke-width="0.3"',
}
# Side 0: hatched areas, solid edge bars; side 1: dotted areas, dashed edge bars.
SIDE_FILL = ("url(#hatch)", "url(#dots)")
SIDE_EDGE = (
    'stroke="#000000" stroke-width="0.9"',
    'stroke="#000000" stroke-width="0.9" stroke-dasharray="1.2 0.8"',
)
MARKER_FILL = ('fill="#000000"', 'fill="#ffffff"')
TEXT_ON_MARKER = ('fill="#ffffff"', 'fill="#000000"')


def svg(
    scenario: Scenario,
    sides: list[str],
    names: list[str] | None = None,
    state: MapState | None = None,
    interactive: bool = False,
    terrain: list[dict[str, Any]] | None = None,
) -> str:
    """The scenario's map as an SVG string, 1 unit = 1 inch, Player 1's edge at the bottom.

    Deployment zones are hatched (Player 1) or dotted (Player 2), reinforcement zones are bars
    outside the edges (solid, dashed), zones are drawn at true scale, markers are squares
    (black for Player 1's, white for Player 2's, grey when neutral) and points small circles.
    With ``interactive``, zones and points carry ``data-objective`` for tapping. ``terrain``
    pieces (``uid``, ``name``, ``x``, ``y``, ``w``, ``h``) are drawn as grey rectangles that
    carry ``data-piece`` for dragging.
    """
    board = scenario.board
    w, h = (board.width, board.height) if board else (48.0, 48.0)
    names = names or [say("Player {number}", number=i + 1) for i in range(len(sides))]
    side_index = {side: i for i, side in enumerate(sides)}

    def sy(y: float) -> float:
        return h - y

    # The legend names only what this map draws (a battleplan without zones has none).
    drawn = [
        kind
        for kind, present in (
            (say("deployment zone"), scenario.deployment_zones),
            (say("reinforcement zone"), scenario.reinforcement_zones),
        )
        if present
    ]
    map_of = say("Map of {scenario}", scenario=scenario.name)
    tall = h + (19 if drawn else 13)  # the board, its edge names, and the legend if any
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="map" viewBox="-5 -5 {_f(w + 10)} {_f(tall)}" '
        f'role="img" aria-label="{escape(map_of)}">',
        "<defs>"
        '<pattern id="hatch" width="1.6" height="1.6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<line x1="0" y1="0" x2="0" y2="1.6" stroke="#000000" stroke-width="0.25"/></pattern>'
        '<pattern id="dots" width="1.6" height="1.6" patternUnits="userSpaceOnUse">'
        '<circle cx="0.8" cy="0.8" r="0.3" fill="#000000"/></pattern>'
        "</defs>",
        f'<rect x="0" y="0" width="{_f(w)}" height="{_f(h)}" {PAINT["board"]}/>',
    ]
    spacing = scenario.grid or 12
    for i in range(int(w // spacing) + 1):
        x = i * spacing
        out.append(f'<line x1="{_f(x)}" y1="0" x2="{_f(x)}" y2="{_f(h)}" {PAINT["grid"]}/>')
        out.append(f'<text x="{_f(x)}" y="{_f(h + 3.4)}" {PAINT["inch"]}>{_f(x)}"</text>')
    for i in range(int(h // spacing) + 1):
        y = i * spacing
        out.append(f'<line x1="0" y1="{_f(sy(y))}" x2="{_f(w)}" y2="{_f(sy(y))}" {PAINT["grid"]}/>')
        out.append(f'<text x="-3" y="{_f(sy(y) + 0.5)}" {PAINT["inch"]}>{_f(y)}"</text>')

    for area in scenario.deployment_zones:
        i = side_index.get(area.side, 0) % 2
        pts = " ".join(f"{_f(x)},{_f(sy(y))}" for x, y in area.points)
        out.append(
            f'<polygon points="{pts}" fill="{SIDE_FILL[i]}" stroke="#000000" stroke-width="0.35" '
            f'class="deploy side-{i}"/>'
        )
    for zone in scenario.reinforcement_zones:
        i = side_index.get(zone.side, 0) % 2
        for (x1, y1), (x2, y2) in zone.segments:
            # Drawn just outside the table edge it runs along.
            dx = -1.4 if x1 == x2 == 0 else (1.4 if x1 == x2 == w else 0)
            dy = 1.4 if y1 == y2 == 0 else (-1.4 if y1 == y2 == h else 0)
            out.append(
                f'<line x1="{_f(x1 + dx)}" y1="{_f(sy(y1) + dy)}" x2="{_f(x2 + dx)}" y2="{_f(sy(y2) + dy)}" '
                f'{SIDE_EDGE[i]} class="reinforce side-{i}"/>'
            )

    for piece in terrain or []:
        w_, h_ = float(piece["w"]), float(piece["h"])
        px, py = float(piece["x"]) - w_ / 2, sy(float(piece["y"])) - h_ / 2
        out.append(
            f'<g class="piece" data-piece="{escape(str(piece["uid"]))}" data-w="{_f(w_)}" data-h="{_f(h_)}">'
            f'<rect x="{_f(px)}" y="{_f(py)}" width="{_f(w_)}" height="{_f(h_)}" fill="#9e9e9e" fill-opacity="0.55" '
            f'stroke="#000000" stroke-width="0.3"/>'
            f'<text x="{_f(float(piece["x"]))}" y="{_f(sy(float(piece["y"])) + 0.5)}" {PAINT["sub"]}>'
            f"{escape(str(piece['name']))}</text></g>"
        )

    holders = state.holders if state else {}
    for o in scenario.objectives:
        at = state.moved.get(o.id, position(o)) if state else position(o)
        if at is None:
            continue
        x, y = at[0], sy(at[1])
        holder = holders.get(o.id)
        owner = side_index.get(o.friendly_to) if o.friendly_to else None
        classes = [o.kind]
        if state and o.id in state.destroyed:
            classes.append("destroyed")
        tappable = o.kind in ("zone", "point") or bool(o.moves_toward_friendly_zone)
        attrs = f' data-holder="{"" if holder is None else holder}"'
        if interactive and tappable:
            classes.append("tap")
            tap = escape(say("{objective}: tap to change who seized it", objective=o.label))
            attrs += f' data-objective="{escape(o.id)}" tabindex="0" role="button" aria-label="{tap}"'
        held_by = escape(names[holder]) if holder is not None and holder < len(names) else ""
        owned_by = escape(names[owner]) if owner is not None and owner < len(names) else ""
        out.append(f'<g class="{" ".join(classes)}"{attrs}>')
        if o.kind == "zone" and o.diameter:
            fill = f' fill="{SIDE_FILL[holder % 2]}"' if holder is not None else ""
            paint = PAINT["zone"].replace('fill="#ffffff" ', "") if fill else PAINT["zone"]
            out.append(
                f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(o.diameter / 2)}"{fill} {paint} class="hit"/>'
            )
            out.append(f'<text x="{_f(x)}" y="{_f(y + 0.5)}" {PAINT["label"]}>{escape(o.label)}</text>')
            note = f'{_f(o.diameter)}"'
            if owned_by:
                note += " · " + escape(say("{name}'s", name=names[owner]))
            out.append(f'<text x="{_f(x)}" y="{_f(y + 2.1)}" {PAINT["sub"]}>{note}</text>')
            if held_by:
                out.append(
                    f'<text x="{_f(x)}" y="{_f(y - 1.4)}" {PAINT["sub"]} class="held">{held_by}</text>'
                )
        elif o.kind == "point":
            fill = (
                'fill="#000000"'
                if holder == 0
                else ('fill="#ffffff"' if holder is None else 'fill="url(#dots)"')
            )
            out.append(
                f'<circle cx="{_f(x)}" cy="{_f(y)}" r="2.2" fill="#ffffff" fill-opacity="0" class="hit"/>'
            )
            out.append(
                f'<circle cx="{_f(x)}" cy="{_f(y)}" r="1.1" {fill} stroke="#000000" stroke-width="0.3"/>'
            )
            out.append(f'<text x="{_f(x)}" y="{_f(y - 1.7)}" {PAINT["label"]}>{escape(o.label)}</text>')
            if held_by:
                out.append(
                    f'<text x="{_f(x)}" y="{_f(y + 2.7)}" {PAINT["sub"]} class="held">{held_by}</text>'
                )
        else:
            fill = MARKER_FILL[owner % 2] if owner is not None else 'fill="#bdbdbd"'
            out.append(
                f'<rect x="{_f(x - 1)}" y="{_f(y - 1)}" width="2" height="2" {fill} stroke="#000000" stroke-width="0.3" class="hit"/>'
            )
            ink = TEXT_ON_MARKER[owner % 2] if owner is not None else 'fill="#000000"'
            out.append(
                f'<text x="{_f(x)}" y="{_f(y + 0.45)}" font-size="1.2" font-weight="bold" text-anchor="middle" '
                f'font-family="DejaVu Sans, sans-serif" {ink}>{escape(o.label[:1])}</text>'
            )
            out.append(
                f'<text x="{_f(x)}" y="{_f(y - 1.5)}" {PAINT["sub"]}>{escape(o.label)}{" · " + owned_by if owned_by else ""}</text>'
            )
            if state and o.id in state.destroyed:
                out.append(
                    f'<path d="M{_f(x - 1.6)} {_f(y - 1.6)} L{_f(x + 1.6)} {_f(y + 1.6)} M{_f(x + 1.6)} {_f(y - 1.6)} '
                    f'L{_f(x - 1.6)} {_f(y + 1.6)}" stroke="#000000" stroke-width="0.4"/>'
                )
            if held_by:
                out.append(
                    f'<text x="{_f(x)}" y="{_f(y + 2.8)}" {PAINT["sub"]} class="held">{held_by}</text>'
                )
        out.append("</g>")

    # Edge names and the legend: which style is whose.
    if len(names) > 1:
        edge = escape(say("{name}'s edge", name=names[1]))
        out.append(f'<text x="{_f(w / 2)}" y="-2.2" {PAINT["inch"]}>{edge}</text>')
    edge = escape(say("{name}'s edge", name=names[0]))
    out.append(f'<text x="{_f(w / 2)}" y="{_f(h + 6)}" {PAINT["inch"]}>{edge}</text>')
    ly = h + 8
    for i, name in enumerate(names[:2] if drawn else []):
        y0 = ly + i * 2.8
        if scenario.deployment_zones:
            out.append(
                f'<rect x="0" y="{_f(y0)}" width="3" height="2" fill="{SIDE_FILL[i]}" '
                'stroke="#000000" stroke-width="0.2"/>'
            )
        if scenario.reinforcement_zones:
            out.append(f'<line x1="4" y1="{_f(y0 + 1)}" x2="8" y2="{_f(y0 + 1)}" {SIDE_EDGE[i]}/>')
        out.append(
            f'<text x="9" y="{_f(y0 + 1.5)}" font-size="1.4" fill="#000000" '
            f'font-family="DejaVu Sans, sans-serif">{escape(name)}: {", ".join(drawn)}</text>'
        )
    out.append("</svg>")
    return "".join(out)
