"""Terrain checks, one table per rule with cases at and beyond each limit (seeds 001, 004, 002, 000)."""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import terrain


def piece(name: str = "Piece", **extra: Any) -> dict[str, Any]:
    return {"name": name, "kind": "zonal", "size": 1, **extra}


def legal_fb() -> list[dict[str, Any]]:
    """Ten pieces, two Obscuring and two Obstructing: a legal First Blood battlefield."""
    pieces = [piece(f"Piece {i}") for i in range(10)]
    pieces[0]["obscuring"] = pieces[1]["obscuring"] = True
    pieces[2]["keywords"] = pieces[3]["keywords"] = ["obstructing"]
    return pieces


def verdict(
    packs,
    raw: list[dict[str, Any]],
    pack: str = "conquest-first-blood",
    scenario: str | None = None,
    siege: bool = False,
) -> terrain.Verdict:
    p = packs[pack]
    pieces, problem = terrain.parse_pieces(p, raw)
    assert problem is None, problem
    return terrain.check(p, pieces, p.scenario(scenario) if scenario else None, siege)


def rules(packs, raw, **kw) -> list[str]:
    return [f.rule for f in verdict(packs, raw, **kw).problems]


def advice(packs, raw, **kw) -> list[str]:
    return [f.rule for f in verdict(packs, raw, **kw).advice]


def test_a_legal_first_blood_battlefield(packs):
    result = verdict(packs, legal_fb())
    assert result.valid and result.problems == [] and result.advice == []


@pytest.mark.parametrize(
    ("count", "broken"), [(13, []), (14, []), (15, ["max-pieces"]), (16, ["max-pieces"])]
)
def test_at_most_14_pieces(packs, count, broken):
    pieces = legal_fb() + [piece(f"Extra {i}") for i in range(count - 10)]
    assert rules(packs, pieces) == broken


@pytest.mark.parametrize(
    ("count", "advised"), [(7, ["suggested-pieces"]), (8, []), (10, []), (12, []), (13, ["suggested-pieces"])]
)
def test_about_10_pieces_is_advice(packs, count, advised):
    pieces = legal_fb()[:count] + [piece(f"Extra {i}") for i in range(count - 10)]
    assert advice(packs, pieces) == advised


@pytest.mark.parametrize(("n", "broken"), [(1, []), (2, []), (3, ["max-garrison"])])
def test_at_most_two_garrisons(packs, n, broken):
    pieces = legal_fb()
    for p in pieces[4 : 4 + n]:
        p["kind"] = "garrison"
    assert rules(packs, pieces) == broken


@pytest.mark.parametrize(("n", "broken"), [(3, []), (4, []), (5, ["max-ruins"])])
def test_at_most_four_ruins(packs, n, broken):
    pieces = legal_fb()
    for p in pieces[4 : 4 + n]:
        p["ruins"] = True
    assert rules(packs, pieces) == broken


@pytest.mark.parametrize(("n", "broken"), [(1, ["min-obscuring"]), (2, []), (3, [])])
def test_at_least_two_obscuring(packs, n, broken):
    pieces = legal_fb()
    for i, p in enumerate(pieces):
        p["obscuring"] = i < n
    assert rules(packs, pieces) == broken


@pytest.mark.parametrize(("n", "broken"), [(0, ["min-obstructing"]), (1, ["min-obstructing"]), (2, [])])
def test_at_least_two_obstructing(packs, n, broken):
    pieces = legal_fb()
    for i, p in enumerate(pieces):
        p["keywords"] = ["obstructing"] if i < n else []
    result = verdict(packs, pieces)
    assert [f.rule for f in result.problems] == broken


@pytest.mark.parametrize(
    ("footprint", "broken"),
    [
        ([9, 6], []),
        ([6, 9], []),
        ([8, 5], []),
        ([9.5, 6], ["max-footprint"]),
        ([9, 6.5], ["max-footprint"]),
        ([7, 7], ["max-footprint"]),
        ([6, 10], ["max-footprint"]),
    ],
)
def test_no_footprint_over_9_by_6(packs, footprint, broken):
    pieces = legal_fb()
    pieces[5]["footprint"] = footprint
    assert rules(packs, pieces) == broken


@pytest.mark.parametrize(
    ("second", "broken"),
    [
        ({"x": 13, "y": 10}, []),  # B spans x 12..14: gap 12 - 9 = 3 exactly, allowed
        ({"x": 12.9, "y": 10}, ["min-gap"]),  # gap 2.9
        ({"x": 7, "y": 16}, []),  # B spans y 15..17: gap 15 - 12 = 3
        ({"x": 14, "y": 15}, []),  # corner to corner: gap hypot(4, 2)
        ({"x": 12.5, "y": 14}, ["min-gap"]),  # corner to corner: gap hypot(2.5, 1) < 3
        ({"x": 9, "y": 11}, ["min-gap"]),  # overlapping
    ],
)
def test_pieces_at_least_3_inches_apart(packs, second, broken):
    # Piece A: 4"x4" at (7, 10): x 5..9, y 8..12. Piece B: 2"x2" at the given centre.
    pieces = legal_fb()
    pieces[4].update(footprint=[4, 4], x=7, y=10)
    pieces[5].update(footprint=[2, 2], **second)
    assert rules(packs, pieces) == broken


@pytest.mark.parametrize(
    ("y", "broken"),
    [
        (16, []),  # y 15..17: its edge just touches marker A (W)'s base (y 17..19)
        # y 15.5..17.5 covers the near half inch of marker A (W)'s base, not its centre (12, 18).
        (16.5, ["objective-marker"]),
        # Its edge at y 18 now reaches marker A (W)'s centre, which stands in the zone's rim.
        (17, ["objective-marker"]),
        (17.5, ["objective-zone", "objective-marker"]),
        (24, ["objective-zone"]),
    ],
)
def test_no_piece_on_an_objective_zone(packs, y, broken):
    # The opening scenario's west zone: centre (12, 24), 12" across. A 4x2 piece at (12, y).
    pieces = legal_fb()
    pieces[4].update(footprint=[4, 2], x=12, y=y)
    assert rules(packs, pieces, scenario="twin-contested-zones") == broken


@pytest.mark.parametrize(
    ("scenario", "x", "y", "broken"),
    [
        # Shieldwall's P1 centre marker stands at (18, 18) on a Brute or Cavalry base, 1" each
        # side of its centre (x and y 17..19); a 4x2 ruin centred at (x, y).
        ("shieldwall", 18, 18, True),  # squarely on it
        ("shieldwall", 20, 18, True),  # its left edge reaches the marker's centre
        ("shieldwall", 20.5, 18, True),  # left edge at x 18.5: on the base, clear of the centre
        ("shieldwall", 20.9, 18, True),  # a tenth of an inch of the base covered
        ("shieldwall", 21, 18, False),  # left edge at x 19: touching the base's edge
        ("shieldwall", 21.5, 18, False),  # half an inch clear
        ("shieldwall", 18, 19.5, True),  # 2" deep: near edge at y 18.5, on the base
        ("shieldwall", 18, 20, False),  # near edge at y 19, touching
        # Tug-of-War's centre point C at (24, 24): a 27 mm marker, 0.53" from its centre.
        ("tug-of-war", 24, 24, True),
        ("tug-of-war", 26, 24, True),
        ("tug-of-war", 26.5, 24, True),  # left edge 0.5" from the centre: on the marker
        ("tug-of-war", 26.6, 24, False),  # 0.6" from the centre: clear
    ],
)
def test_no_piece_on_a_marker_or_point(packs, scenario, x, y, broken):
    """Seed 004: no terrain stands on top of an objective marker, a model on a Brute or Cavalry
    base; Tug-of-War's points, 27 mm markers, likewise: the bases count, not the centres."""
    pieces = legal_fb()
    pieces[4].update(name="Ruin", footprint=[4, 2], x=x, y=y, ruins=True)
    result = verdict(packs, pieces, scenario=scenario)
    found = [f for f in result.problems if f.rule == "objective-marker"]
    assert bool(found) is broken
    if broken:
        assert found[0].pieces == (4,)
        assert found[0].message.startswith("Ruin (piece 5) stands on the objective")


@pytest.mark.parametrize(("gap_x", "advised"), [(6, []), (5.5, ["garrison-gap"])])
def test_garrisons_6_apart_is_advice(packs, gap_x, advised):
    pieces = legal_fb()
    pieces[4].update(kind="garrison", footprint=[4, 4], x=20, y=30)
    pieces[5].update(kind="garrison", footprint=[4, 4], x=24 + gap_x, y=30)
    result = verdict(packs, pieces, scenario="outflank")
    assert result.problems == [] and [f.rule for f in result.advice] == advised


@pytest.mark.parametrize(("x", "advised"), [(8, []), (7, ["garrison-edge"])])
def test_garrisons_6_from_the_edge_is_advice(packs, x, advised):
    pieces = legal_fb()
    pieces[4].update(kind="garrison", footprint=[4, 4], x=x, y=40)
    assert advice(packs, pieces, scenario="outflank") == advised


@pytest.mark.parametrize(("size", "broken"), [(0, []), (4, []), (-1, ["size-range"]), (5, ["size-range"])])
def test_size_runs_from_0_to_4(packs, size, broken):
    pieces = legal_fb()
    pieces[6]["size"] = size
    assert rules(packs, pieces) == broken


def test_impassable_and_traversable_conflict(packs):
    pieces = legal_fb()
    pieces[6]["keywords"] = ["impassable", "traversable"]
    result = verdict(packs, pieces)
    assert [f.rule for f in result.problems] == ["keyword-conflict"]
    assert result.problems[0].message == "Piece 6 (piece 7) cannot be both Impassable and Traversable."


def test_garrison_defaults_and_presets(packs):
    preset = {p.name: p for p in packs["conquest-first-blood"].terrain.presets}
    assert (preset["Forest"].size, preset["Forest"].keywords) == (3, ["traversable", "hindering", "cover"])
    assert (preset["Hill"].size, preset["Hill"].keywords) == (2, ["obstructing", "elevated"])
    rules_ = packs["conquest-first-blood"].terrain
    assert (rules_.garrison_defense, rules_.garrison_capacity) == (1, 4)


@pytest.mark.parametrize(
    ("raw", "sentence"),
    [
        ([{"name": "x", "keywords": ["lava"]}], "'lava' is not a terrain keyword here"),
        ([{"name": "x", "size": "big"}], "pieces[0].size"),
        ([{"name": "x", "footprint": [0, 3]}], "pieces[0].footprint"),
        ([{"name": "x", "x": 3}], "give both x and y"),
        ([{"kind": "zonal"}], "pieces[0].name"),
        ("forest", "pieces must be a list"),
    ],
)
def test_what_is_not_a_terrain_set(packs, raw, sentence):
    pieces, problem = terrain.parse_pieces(packs["conquest-first-blood"], raw)
    assert pieces is None and sentence in problem


# --- Age of Sigmar: Pitched Battles set-up ---------------------------------------------------
def aos(name: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, **extra}


@pytest.mark.parametrize(("x", "broken"), [(5.5, ["edge-gap"]), (6, ["edge-gap"]), (6.5, [])])
def test_aos_more_than_3_from_the_edge(packs, x, broken):
    # A 6" wide feature at x: its edge is x - 3 from the table edge.
    result = rules(
        packs, [aos("Ruin", footprint=[6, 4], x=x, y=30)], pack="aos-ghb-2021", scenario="savage-gains"
    )
    assert result == broken


@pytest.mark.parametrize(
    ("second_x", "faction", "broken"),
    [(18, False, ["terrain-gap"]), (18.5, False, []), (15, True, ["faction-gap"]), (15.5, True, [])],
)
def test_aos_gaps_between_features(packs, second_x, faction, broken):
    # First: 4" wide at x=8 (6..10). Second 4" wide: gap = second_x - 2 - 10.
    pieces = [
        aos("Wall", footprint=[4, 4], x=8, y=36),
        aos("Shrine", footprint=[4, 4], x=second_x, y=36, faction=faction),
    ]
    assert rules(packs, pieces, pack="aos-ghb-2021", scenario="savage-gains") == broken


@pytest.mark.parametrize(("y", "broken"), [(18, ["objective-gap"]), (17.5, []), (22, ["objective-gap"])])
def test_aos_more_than_3_from_objectives(packs, y, broken):
    # Savage Gains' W objective stands at (15, 22); a 2"-deep feature at (15, y): gap = 22 - y - 1.
    pieces = [aos("Statue", footprint=[2, 2], x=15, y=y)]
    assert rules(packs, pieces, pack="aos-ghb-2021", scenario="savage-gains") == broken


@pytest.mark.parametrize(("inside", "broken"), [(4, ["fortress-min"]), (5, []), (6, [])])
def test_siege_fortress_needs_five_features(packs, inside, broken):
    pieces = [aos(f"Tower {i}", fortress=i < inside) for i in range(6)]
    assert rules(packs, pieces, pack="aos-ghb-2021", siege=True) == broken
    assert rules(packs, pieces, pack="aos-ghb-2021") == []  # not a siege: no fortress needed


def test_aos_without_positions_gives_a_checklist(packs):
    result = verdict(packs, [aos("Ruin")], pack="aos-ghb-2021", scenario="savage-gains")
    assert result.valid and any("check by eye" in line for line in result.checklist)


def test_mysterious_terrain_table(packs):
    pack = packs["aos-ghb-2021"]
    assert [e.name for e in pack.terrain.mysterious] == [
        "Damned",
        "Arcane",
        "Inspiring",
        "Deadly",
        "Mystical",
        "Sinister",
    ]
    assert terrain.mysterious_effect(pack, 6).name == "Sinister"
    assert terrain.mysterious_effect(pack, None) is None
    assert "aos-reminders" in pack.terrain.mysterious_note


# --- line of sight: the seed's worked example --------------------------------------------------
@pytest.mark.parametrize(
    ("shooter", "target", "between", "clear"),
    [
        # Regiment X (Size 1) on a hill (Elevated 2) volleys Regiment A (Size 1) on the hill: clear.
        ({"size": 1, "elevated_on": 2}, {"size": 1, "elevated_on": 2}, [], True),
        # X on the hill at Regiment D (Size 1) behind B, also on a hill (Size 3): B obstructs.
        (
            {"size": 1, "elevated_on": 2},
            {"size": 1},
            [{"name": "B", "kind": "regiment", "size": 1, "elevated_on": 2}],
            False,
        ),
        # ...but over a Size 1 regiment on the flat, X's Size 3 sees: clear.
        ({"size": 1, "elevated_on": 2}, {"size": 1}, [{"name": "E", "kind": "regiment", "size": 1}], True),
        # Reversed: C (Size 1) at X (Size 3) with A (Size 3) between: blocked.
        (
            {"size": 1},
            {"size": 1, "elevated_on": 2},
            [{"name": "A", "kind": "regiment", "size": 1, "elevated_on": 2}],
            False,
        ),
        # A Size 2 Obstructing hill between two Size 1 regiments blocks; a Size 3 shooter sees over it.
        (
            {"size": 1},
            {"size": 1},
            [{"name": "Hill", "kind": "terrain", "size": 2, "obstructing": True}],
            False,
        ),
        (
            {"size": 3},
            {"size": 1},
            [{"name": "Hill", "kind": "terrain", "size": 2, "obstructing": True}],
            True,
        ),
        # A regiment standing on the Obstructing piece sees freely.
        (
            {"size": 1},
            {"size": 1},
            [{"name": "Hill", "kind": "terrain", "size": 2, "obstructing": True, "target_on": True}],
            True,
        ),
        # Terrain that is not Obstructing never blocks, whatever its Size.
        ({"size": 1}, {"size": 1}, [{"name": "Forest", "kind": "terrain", "size": 3, "cover": True}], True),
    ],
)
def test_line_of_sight(shooter, target, between, clear):
    assert terrain.line_of_sight(shooter, target, between).clear is clear


def test_cover_is_reported():
    sight = terrain.line_of_sight(
        {"size": 1}, {"size": 1}, [{"name": "Forest", "kind": "terrain", "size": 3, "cover": True}]
    )
    assert sight.cover and any("halved" in r for r in sight.reasons)


# --- agreement ----------------------------------------------------------------------------------
def ev(kind: str, uid: str, at: str, **body: Any) -> dict[str, Any]:
    return {"type": kind, "piece_uid": uid, "at": at, **body}


def test_agreement_locks_and_a_change_reopens_it():
    forest = {"name": "Forest", "kind": "zonal", "size": 3}
    events = [
        ev("piece", "f", "10:00", piece=forest),
        ev("piece", "h", "10:01", piece={"name": "Hill", "size": 2}),
        ev("agree", "f", "10:02", player=0),
        ev("agree", "f", "10:03", player=1),
        ev("agree", "h", "10:04", player=1),
    ]
    state = terrain.fold(2, events)
    assert state.locked_at is None and [s.uid for s in state.waiting()] == ["h"]
    events.append(ev("agree", "h", "10:05", player=0))
    state = terrain.fold(2, events, ["Ann", "Bo"])
    assert state.agreed and state.locked_at == "10:05"
    # Moving the forest after the lock reopens it, and only it.
    events.append(ev("piece", "f", "10:09", piece={**forest, "x": 10, "y": 10}))
    state = terrain.fold(2, events, ["Ann", "Bo"])
    assert state.locked_at is None and [s.uid for s in state.waiting()] == ["f"]
    assert state.history[-1]["what"] == "Moved Forest (agreement reopened)"
    assert "Ann agreed to Forest" in [h["what"] for h in state.history]
    events += [ev("agree", "f", "10:10", player=0), ev("agree", "f", "10:11", player=1)]
    assert terrain.fold(2, events).locked_at == "10:11"
    events.append(ev("remove", "h", "10:12"))
    state = terrain.fold(2, events)
    assert list(state.pieces) == ["f"] and state.locked_at == "10:11"


# --- keywords: advice from seed 001 ------------------------------------------------------------
@pytest.mark.parametrize(
    ("keywords", "advised"),
    [
        (["cover"], []),
        (["traversable", "hindering", "cover"], []),  # the Forest example: three is fine
        (["traversable", "hindering", "cover", "water"], ["keyword-count"]),
        (["obstructing", "elevated"], []),  # the Hill example
        (["elevated", "traversable"], ["keyword-contradiction"]),
        (["elevated", "traversable", "cover", "water"], ["keyword-contradiction", "keyword-count"]),
    ],
)
def test_two_or_three_keywords_and_elevated_with_traversable_are_advice(packs, keywords, advised):
    pieces = legal_fb()
    pieces[6]["keywords"] = keywords
    result = verdict(packs, pieces)
    assert [f.rule for f in result.problems] == []
    assert [f.rule for f in result.advice if f.rule.startswith("keyword")] == advised
    assert all(f.pieces == (6,) for f in result.advice if f.rule.startswith("keyword"))


# --- a stack of pieces is named once per piece ----------------------------------------------------
def test_sixty_stacked_pieces_give_one_min_gap_line_per_piece(packs):
    pieces = [piece(f"P{i}", footprint=[2, 2], x=10, y=10) for i in range(60)]
    result = verdict(packs, pieces)
    gaps = [f for f in result.problems if f.rule == "min-gap"]
    # 1,770 close pairs; one line for each piece after the first, naming its nearest earlier piece.
    assert len(gaps) == 59 and len({f.pieces[1] for f in gaps}) == 59
    assert gaps[-1].message == (
        'P0 (piece 1) and P59 (piece 60) are 0" apart (P59 is too close to 58 more pieces as well); '
        'pieces stand at least 3" apart.'
    )
    assert all(len(f.pieces) == 2 for f in gaps)


def test_a_close_pair_is_one_line_naming_both(packs):
    pieces = legal_fb()
    pieces[4].update(footprint=[2, 2], x=10, y=10)
    pieces[5].update(footprint=[2, 2], x=14, y=10)  # 2" apart
    pieces[6].update(footprint=[2, 2], x=30, y=10)
    [line] = verdict(packs, pieces).problems
    assert line.pieces == (4, 5)
    assert (
        line.message
        == 'Piece 4 (piece 5) and Piece 5 (piece 6) are 2" apart; pieces stand at least 3" apart.'
    )


def test_aos_stacked_features_are_grouped_too(packs):
    raw = [{"name": f"F{i}", "footprint": [2, 2], "x": 20, "y": 20} for i in range(30)]
    problems = verdict(packs, raw, pack="aos-ghb-2021").problems
    assert len([f for f in problems if f.rule == "terrain-gap"]) == 29


# --- cover and garrisons in line of sight (seed 001) ---------------------------------------------
def forest(size: int = 3) -> dict[str, Any]:
    return {"name": "Forest", "kind": "terrain", "size": size, "cover": True}


@pytest.mark.parametrize(
    ("target", "cover_size", "cover"),
    [
        ({"size": 1}, 3, True),
        ({"size": 3}, 3, True),  # equal: still in cover
        ({"size": 4}, 3, False),  # bigger than the piece: no cover
        ({"size": 3}, 1, False),  # the case: Size 3 behind Size 1 Cover
        ({"size": 1}, 1, True),
        ({"size": 1, "elevated_on": 2}, 2, False),  # on a hill it counts as Size 3
        ({"size": 1, "garrison": {"size": 2, "elevation": 3}}, 2, True),  # occupiers take the Size
    ],
)
def test_cover_only_for_regiments_no_bigger_than_the_piece(target, cover_size, cover):
    sight = terrain.line_of_sight({"size": 1}, target, [forest(cover_size)])
    assert sight.cover is cover and sight.clear
    assert any(("halved" if cover else "gains no cover") in r for r in sight.reasons)


def test_no_cover_penalty_when_both_stand_in_the_same_cover():
    both = {**forest(3), "shooter_on": True, "target_on": True}
    assert terrain.line_of_sight({"size": 1}, {"size": 1}, [both]).cover is False


@pytest.mark.parametrize(
    ("shooter", "target", "between", "sizes", "clear"),
    [
        # Size 1 infantry volleying from a garrison of Elevation 3 sees over a Size 2 hill.
        (
            {"size": 1, "garrison": {"size": 2, "elevation": 3}},
            {"size": 1},
            [{"name": "Hill", "kind": "terrain", "size": 2, "obstructing": True}],
            (3, 1),
            True,
        ),
        # The same regiment on the flat: the hill blocks.
        (
            {"size": 1},
            {"size": 1},
            [{"name": "Hill", "kind": "terrain", "size": 2, "obstructing": True}],
            (1, 1),
            False,
        ),
        # Elevation 2 equals the hill's Size: not lower, so it blocks (at the rule's edge).
        (
            {"size": 1, "garrison": {"size": 1, "elevation": 2}},
            {"size": 1},
            [{"name": "Hill", "kind": "terrain", "size": 2, "obstructing": True}],
            (2, 1),
            False,
        ),
        # The Elevation replaces the Size even when lower: a Size 2 regiment in an Elevation 1 garrison.
        (
            {"size": 2, "garrison": {"size": 1, "elevation": 1}},
            {"size": 1},
            [{"name": "R", "kind": "regiment", "size": 1}],
            (1, 1),
            False,
        ),
        # A target occupying a Size 3 garrison is seen over a Size 2 regiment.
        (
            {"size": 1},
            {"size": 1, "garrison": {"size": 3, "elevation": 1}},
            [{"name": "R", "kind": "regiment", "size": 2}],
            (1, 3),
            True,
        ),
    ],
)
def test_garrison_elevation_in_line_of_sight(shooter, target, between, sizes, clear):
    sight = terrain.line_of_sight(shooter, target, between)
    assert (sight.shooter_size, sight.target_size) == sizes and sight.clear is clear


# --- one phone, one player -----------------------------------------------------------------------
def test_one_phone_cannot_agree_as_both_players():
    events = [
        ev("piece", "f", "10:00", piece={"name": "Forest", "size": 3}),
        ev("agree", "f", "10:01", player=0, phone="ann"),
        ev("agree", "f", "10:02", player=1, phone="ann"),  # the same phone as the other player
    ]
    state = terrain.fold(2, events, ["Ann", "Bo"])
    assert state.locked_at is None and state.pieces["f"].agreed == {0}
    assert state.seats == {0: "ann"} and state.open_seats("bo") == [1] and state.open_seats("ann") == [0]
    assert state.seat_refusal(1, "ann", ["Ann", "Bo"]).startswith("This phone agrees for Ann;")
    assert state.seat_refusal(0, "bo", ["Ann", "Bo"]).startswith("Ann already agrees on another phone")
    events.append(ev("agree", "f", "10:03", player=1, phone="bo"))
    state = terrain.fold(2, events)
    assert state.locked_at == "10:03" and state.seats == {0: "ann", 1: "bo"}


def test_a_seat_taken_before_agreeing_binds_the_phone():
    events = [
        ev("piece", "f", "10:00", piece={"name": "Forest", "size": 3}),
        {"type": "seat", "player": 1, "phone": "bo", "at": "10:01"},
        ev("agree", "f", "10:02", player=1, phone="ann"),  # Bo's seat is held by Bo's phone
        {"type": "seat", "player": 0, "phone": "bo", "at": "10:03"},  # Bo's phone cannot take both
    ]
    state = terrain.fold(2, events)
    assert state.seats == {1: "bo"} and state.pieces["f"].agreed == set()


def test_a_stored_piece_out_of_todays_limits_is_left_out():
    events = [
        ev("piece", "f", "10:00", piece={"name": "Forest", "size": 3}),
        ev("piece", "f", "10:01", piece={"name": "Forest", "size": 3, "x": 1e300, "y": 1}),
    ]
    state = terrain.fold(2, events)
    assert state.pieces["f"].piece.x is None


# --- what a player reads of a count, a keyword pair and two garrisons -------------------------
def _one_obstructing() -> list[dict[str, Any]]:
    pieces = legal_fb()
    pieces[3]["keywords"] = []
    return pieces


def _elevated_and_traversable() -> list[dict[str, Any]]:
    pieces = legal_fb()
    pieces[6]["keywords"] = ["elevated", "traversable"]
    return pieces


def _close_garrisons() -> list[dict[str, Any]]:
    pieces = legal_fb()
    pieces[4].update(kind="garrison", footprint=[4, 4], x=20, y=30)
    pieces[5].update(kind="garrison", footprint=[4, 4], x=29.5, y=30)
    return pieces


@pytest.mark.parametrize(
    ("pieces", "scenario", "sentences"),
    [
        (_one_obstructing, None, ["The battlefield has 1 Obstructing pieces; at least 2 are needed."]),
        (
            _elevated_and_traversable,
            None,
            [
                "Piece 6 (piece 7) is both Elevated and Traversable, whose rules pull against each other; "
                "agree which one the piece keeps."
            ],
        ),
        (
            _close_garrisons,
            "outflank",
            ['Garrisons Piece 4 (piece 5) and Piece 5 (piece 6) are 5.5" apart; 6" is recommended.'],
        ),
    ],
)
def test_what_a_player_reads_of_the_battlefield(packs, pieces, scenario, sentences):
    result = verdict(packs, pieces(), scenario=scenario)
    assert [f.message for f in result.problems + result.advice] == sentences
