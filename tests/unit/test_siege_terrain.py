"""The Relief Force's battlefield (seed 000): the fortress and the features outside it.

Pieces are 2" x 2" on the 60" x 44" battlefield; the gap between two of them at the same y
is the distance between centres less 2.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import terrain
from tests.unit.siege_play import PACK


def fort(i: int, **extra: Any) -> dict[str, Any]:
    """A wall of the fortress; the walls touch each other, as a fortress's do."""
    return {"name": f"Wall {i}", "fortress": True, "footprint": [2, 2], "x": 20 + 2 * i, "y": 40, **extra}


def outside(name: str, x: float, y: float = 10, gap: float | None = 8) -> dict[str, Any]:
    return {"name": name, "footprint": [2, 2], "x": x, "y": y, "defender_gap": gap}


def found(packs, raw: list[dict[str, Any]]) -> terrain.Verdict:
    pack = packs[PACK]
    pieces, problem = terrain.parse_pieces(pack, raw)
    assert problem is None, problem
    # No siege flag: the battleplan itself is a siege.
    return terrain.check(pack, pieces, pack.scenario("the-relief-force"))


def rules(packs, raw: list[dict[str, Any]]) -> list[str]:
    return [p.rule for p in found(packs, raw).problems]


FORTRESS = [fort(i) for i in range(5)]


@pytest.mark.parametrize(("walls", "broken"), [(4, ["fortress-min"]), (5, []), (7, [])])
def test_the_fortress_needs_five_features_in_the_defenders_territory(packs, walls, broken):
    assert rules(packs, [fort(i) for i in range(walls)]) == broken


@pytest.mark.parametrize(("count", "broken"), [(6, []), (7, ["outside-max"])])
def test_at_most_six_features_outside_the_fortress(packs, count, broken):
    # Along y=10, 12" apart: 10" gaps, clear of each other and of the edges.
    features = [
        outside(f"Ruin {i}", 6 + 12 * i if i < 5 else 6 + 12 * (i - 5), 10 if i < 5 else 25)
        for i in range(count)
    ]
    assert rules(packs, FORTRESS + features) == broken


@pytest.mark.parametrize(("x", "broken"), [(4, ["edge-gap"]), (4.5, [])])
def test_outside_features_stand_more_than_3_from_the_edge(packs, x, broken):
    assert rules(packs, [*FORTRESS, outside("Ruin", x)]) == broken


@pytest.mark.parametrize(("gap", "broken"), [(6, ["territory-gap"]), (6.5, [])])
def test_outside_features_stand_more_than_6_from_the_defenders_territory(packs, gap, broken):
    assert rules(packs, [*FORTRESS, outside("Ruin", 30, gap=gap)]) == broken


@pytest.mark.parametrize(("x", "broken"), [(31, ["outside-gap"]), (31.5, [])])
def test_outside_features_stand_more_than_9_from_each_other(packs, x, broken):
    assert rules(packs, [*FORTRESS, outside("Ruin", 20), outside("Shrine", x)]) == broken


@pytest.mark.parametrize(("y", "broken"), [(29, ["outside-gap"]), (28.5, [])])
def test_outside_features_stand_more_than_9_from_the_fortress(packs, y, broken):
    # Wall 0 stands at (20, 40): gap = 40 - y - 2.
    assert rules(packs, [*FORTRESS, outside("Ruin", 20, y)]) == broken


def test_what_cannot_be_measured_is_left_to_the_table(packs):
    verdict = found(packs, [*FORTRESS, {"name": "Ruin"}, outside("Shrine", 40, gap=None)])
    assert verdict.valid
    (advice,) = [a for a in verdict.advice if a.rule == "measure-outside"]
    assert advice.pieces == (5, 6) and 'more than 9" from every other feature' in advice.message
