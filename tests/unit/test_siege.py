"""Siege Warfare and The Relief Force (seed 000): worked examples at each threshold and one below.

Ann attacks, Bo defends. The siege table's cells are read from the seed by hand: the
attacker's die (1 Cut Off Supplies, 2 Demolish, 3 Mine) across, the defender's (4 Gather
Supplies, 5 Rebuild, 6 Counter-mine) down.
"""

from __future__ import annotations

import uuid

import pytest

from app.rules import contingents, log, systems
from app.rules.army import RosterUnit
from app.rules.game import Player, Setup
from app.rules.systems.siege import engine
from app.rules.terrain import Piece
from tests.unit.siege_play import ANN, BO, PACK, Play

# (attacker, defender) -> (batter, starve, tunnel), every cell of the seed's table.
TABLE = {
    (1, 4): (0, -1, 0),
    (2, 4): (1, -1, 0),
    (3, 4): (0, -1, 2),
    (1, 5): (-1, 1, 0),
    (2, 5): (-1, 0, 0),
    (3, 5): (-1, 0, 2),
    (1, 6): (0, 1, -2),
    (2, 6): (1, 0, -2),
    (3, 6): (0, 0, -2),
}


@pytest.fixture
def siege(packs) -> Play:
    return Play(packs[PACK], "the-relief-force", "siege", ("attacker", "defender"))


def picked(play: Play, attacker: int, defender: int) -> Play:
    play.ok(
        {"type": "siege_tactic", "player": ANN, "tactic": attacker},
        {"type": "siege_tactic", "player": BO, "tactic": defender},
    )
    return play


def to_battle(play: Play, attacker: int = 1, defender: int = 4, tunnel: tuple[int, int] = (1, 6)) -> Play:
    picked(play, attacker, defender)
    play.ok(
        {"type": "batter", "features": []},
        {"type": "starve", "units": []},
        {"type": "tunnel", "dice": list(tunnel)},
    )
    return play


# --- the siege table -------------------------------------------------------------------------
@pytest.mark.parametrize(("attacker", "defender"), sorted(TABLE), ids=[f"{a}-{d}" for a, d in sorted(TABLE)])
def test_every_cell_of_the_siege_table(siege, attacker, defender):
    batter, starve, tunnel = TABLE[(attacker, defender)]
    out = picked(siege, attacker, defender).summary()["siege"]
    assert out["tactics"] == {"attacker": attacker, "defender": defender}
    assert out["modifiers"] == {"batter": batter, "starve": starve, "tunnel": tunnel}


def test_the_table_names_each_tactic(siege):
    names = picked(siege, 3, 6).summary()["siege"]["tactic_names"]
    assert names == {"attacker": "Mine", "defender": "Counter-mine"}


@pytest.mark.parametrize(
    ("player", "tactic"),
    [(ANN, 4), (ANN, 0), (BO, 3), (BO, 7), (ANN, "2"), (BO, True)],
    ids=["attacker-4", "attacker-0", "defender-3", "defender-7", "text", "bool"],
)
def test_a_tactic_outside_the_sides_dice_is_refused_naming_the_field(siege, player, tactic):
    message = siege.refused({"type": "siege_tactic", "player": player, "tactic": tactic})
    side = "attacker" if player == ANN else "defender"
    if isinstance(tactic, int) and not isinstance(tactic, bool):
        assert message.startswith(f"tactic must be the {side}'s die")
    else:  # not a number at all: the event's model names both sides' dice
        assert message == "tactic must be the attacker's die (1 to 3) or the defender's (4 to 6)."


def test_a_second_pick_is_refused(siege):
    siege.ok({"type": "siege_tactic", "player": ANN, "tactic": 2})
    assert "already picked" in siege.refused({"type": "siege_tactic", "player": ANN, "tactic": 3})


# --- secrecy ---------------------------------------------------------------------------------
def test_a_pick_is_hidden_from_all_but_its_holder_until_both_are_in(siege):
    first = {"type": "siege_tactic", "player": ANN, "tactic": 3}
    siege.ok(first)
    stored = siege.log[0]
    for seat in (None, BO):
        out = siege.summary(seat)["siege"]
        assert out["tactics"] == {"attacker": None, "defender": None}
        assert out["modifiers"] is None and out["picked"] == {"attacker": True, "defender": False}
        shown = siege.system.visible_event(stored, seat, siege.game)
        assert shown == {"id": stored["id"], "type": "siege_tactic", "player": ANN, "hidden": True}
    assert siege.summary(ANN)["siege"]["tactics"] == {"attacker": 3, "defender": None}
    assert siege.system.visible_event(stored, ANN, siege.game)["tactic"] == 3
    siege.ok({"type": "siege_tactic", "player": BO, "tactic": 5})
    assert siege.summary()["siege"]["tactics"] == {"attacker": 3, "defender": 5}
    assert siege.system.visible_event(stored, None, siege.game)["tactic"] == 3
    # Without the state to say both are in, a tactic stays hidden from the others.
    assert "tactic" not in siege.system.visible_event(stored, BO)


def test_a_tactic_needs_its_holders_seat(siege):
    assert siege.system.holder({"type": "siege_tactic", "player": BO, "tactic": 4}) == BO
    assert siege.system.holder({"type": "batter", "features": []}) is None
    assert siege.system.seated is True


# --- the siege rolls, in order ---------------------------------------------------------------
def test_the_siege_rolls_come_in_the_seeds_order(siege):
    assert "wait until both siege tactics" in siege.refused({"type": "batter", "features": []})
    picked(siege, 1, 4)
    assert "wait until the batter rolls" in siege.refused({"type": "starve", "units": []})
    assert "wait until the batter rolls" in siege.refused({"type": "battle_round", "round": 1, "first": ANN})
    siege.ok({"type": "batter", "features": []})
    assert "siege phase has passed this step" in siege.refused({"type": "batter", "features": []})
    siege.ok({"type": "starve", "units": []})
    assert "wait until the tunnel roll" in siege.refused({"type": "turn", "round": 1, "player": ANN})


@pytest.mark.parametrize(
    ("cell", "die", "defensible", "modified", "outcome"),
    [
        ((1, 4), 5, True, 5, "demolished"),
        ((1, 4), 4, True, 4, "stands"),
        ((1, 4), 5, False, 5, "no-cover"),
        ((2, 4), 4, True, 5, "demolished"),  # Demolish against Gather Supplies: +1
        ((2, 4), 3, False, 4, "stands"),
        ((2, 6), 4, False, 5, "no-cover"),  # Demolish against Counter-mine: +1
        ((1, 5), 6, True, 5, "demolished"),  # Cut Off Supplies against Rebuild: -1
        ((1, 5), 5, True, 4, "stands"),
        ((3, 5), 6, False, 5, "no-cover"),  # Mine against Rebuild: -1
    ],
)
def test_batter_demolishes_on_5_or_more_after_the_modifier(siege, cell, die, defensible, modified, outcome):
    picked(siege, *cell)
    siege.ok({"type": "batter", "features": [{"feature": "Gatehouse", "defensible": defensible, "die": die}]})
    (roll,) = siege.summary()["siege"]["batter"]
    assert roll == {
        "feature": "Gatehouse",
        "defensible": defensible,
        "die": die,
        "modified": modified,
        "outcome": outcome,
    }


def test_batter_records_a_die_per_feature(siege):
    picked(siege, 2, 4)
    features = [
        {"feature": "Gatehouse", "defensible": True, "die": 4},
        {"feature": "Wall", "defensible": True, "die": 1},
        {"feature": "Statue", "defensible": False, "die": 6},
    ]
    siege.ok({"type": "batter", "features": features})
    out = siege.summary()["siege"]["batter"]
    assert [(r["feature"], r["outcome"]) for r in out] == [
        ("Gatehouse", "demolished"),
        ("Wall", "stands"),
        ("Statue", "no-cover"),
    ]


@pytest.mark.parametrize(
    ("feature", "sentence"),
    [
        ({"feature": "Wall", "die": 7}, "features[0].die must be the die as it landed, 1 to 6."),
        ({"feature": "", "die": 3}, "features[0].feature must be a name"),
        ({"feature": "Wall", "die": 3, "defensible": "yes"}, "features[0].defensible must be true or false."),
        ({"feature": "Wall", "die": 3, "wounds": 1}, "wounds is not part of features[0]"),
    ],
    ids=["die-7", "no-name", "defensible-text", "stray-key"],
)
def test_a_bad_batter_die_is_refused_naming_the_field(siege, feature, sentence):
    picked(siege, 1, 4)
    assert siege.refused({"type": "batter", "features": [feature]}).startswith(sentence)


@pytest.mark.parametrize(
    ("cell", "die", "hero", "modified", "starved"),
    [
        ((1, 5), 4, False, 5, True),  # Cut Off Supplies against Rebuild: +1
        ((1, 5), 3, False, 4, False),
        ((1, 5), 5, True, 5, True),  # +1, and -1 for a HERO
        ((1, 5), 4, True, 4, False),
        ((1, 4), 6, False, 5, True),  # against Gather Supplies: -1
        ((1, 4), 5, False, 4, False),
        ((1, 4), 6, True, 4, False),  # -1 and -1 for a HERO: a 6 is not enough
        ((2, 5), 5, False, 5, True),  # no starve modifier
        ((2, 5), 6, True, 5, True),
        ((2, 5), 5, True, 4, False),
    ],
)
def test_starve_strikes_on_5_or_more_after_modifiers(siege, cell, die, hero, modified, starved):
    picked(siege, *cell).ok({"type": "batter", "features": []})
    unit = {"unit": "Liberators", "hero": hero, "die": die}
    if starved:
        assert "mortal_wounds must be a D3 as it landed, 1 to 3" in siege.refused(
            {"type": "starve", "units": [unit]}
        )
        unit["mortal_wounds"] = 2
    else:
        refusal = siege.refused({"type": "starve", "units": [{**unit, "mortal_wounds": 1}]})
        assert refusal.startswith(
            f"units[0].mortal_wounds must be left out: the die ({modified} after modifiers)"
        )
    siege.ok({"type": "starve", "units": [unit]})
    (roll,) = siege.summary()["siege"]["starve"]
    assert roll["modified"] == modified and roll["starved"] is starved
    assert roll["mortal_wounds"] == (2 if starved else 0)


def test_starve_wounds_are_a_d3(siege):
    picked(siege, 1, 5).ok({"type": "batter", "features": []})
    unit = {"unit": "Liberators", "die": 6, "mortal_wounds": 4}
    assert "mortal_wounds must be a D3 as it landed, 1 to 3" in siege.refused(
        {"type": "starve", "units": [unit]}
    )


@pytest.mark.parametrize(
    ("cell", "dice", "modified", "completed"),
    [
        ((3, 4), (3, 4), 5, True),  # Mine against Gather Supplies: +2
        ((3, 4), (2, 4), 4, False),  # level is not higher
        ((1, 6), (6, 3), 4, True),  # Cut Off Supplies against Counter-mine: -2
        ((1, 6), (6, 4), 4, False),
        ((2, 5), (4, 3), 4, True),  # no tunnel modifier
        ((2, 5), (3, 3), 3, False),
    ],
)
def test_the_tunnel_is_completed_when_the_attackers_modified_die_is_higher(
    siege, cell, dice, modified, completed
):
    picked(siege, *cell)
    siege.ok({"type": "batter", "features": []}, {"type": "starve", "units": []})
    siege.ok({"type": "tunnel", "dice": list(dice)})
    out = siege.summary()["siege"]["tunnel"]
    assert out == {
        "attacker_die": dice[0],
        "defender_die": dice[1],
        "modified": modified,
        "completed": completed,
    }


HERO = {"name": "Knight-Questor", "keywords": ["HERO", "STORMCAST ETERNAL"]}
FOOT = [{"name": "Liberators", "keywords": ["BATTLELINE"]}, {"name": "Judicators", "keywords": []}]


def test_a_completed_tunnel_takes_one_hero_and_two_units_without_mounts(siege):
    to_battle(siege, 3, 4, (3, 4))
    for units, sentence in (
        ([HERO, {"name": "Lord-Celestant", "keywords": ["HERO"]}], "at most 1 HERO and 2 other units"),
        ([*FOOT, {"name": "Sequitors", "keywords": []}], "at most 1 HERO and 2 other units"),
        ([{"name": "Stardrake", "keywords": ["MONSTER", "HERO"]}], "Stardrake is a MONSTER"),
        ([{"name": "Dracothian Guard", "keywords": [], "mounted": True}], "Dracothian Guard is mounted"),
        ([{"name": "Knight-Zephyros", "keywords": ["HERO", "MOUNT"]}], "Knight-Zephyros is mounted"),
    ):
        assert sentence in siege.refused({"type": "tunnel_party", "units": units})
    siege.ok({"type": "tunnel_party", "units": [HERO, *FOOT]})
    party = siege.summary()["siege"]["tunnel_party"]
    assert [(u["name"], u["hero"]) for u in party] == [
        ("Knight-Questor", True),
        ("Liberators", False),
        ("Judicators", False),
    ]


def test_no_unit_goes_through_a_tunnel_that_failed(siege):
    to_battle(siege, 3, 4, (2, 4))
    assert "only a completed tunnel" in siege.refused({"type": "tunnel_party", "units": [HERO]})


def test_the_tunnel_candidates_are_read_from_roster_keywords(packs):
    units = [
        engine.party_unit(u)
        for u in [
            HERO,
            *FOOT,
            {"name": "Stardrake", "keywords": ["MONSTER"]},
            {"name": "Knight-Zephyros", "keywords": ["HERO", "MOUNT"]},
        ]
    ]
    found = engine.tunnel_candidates(packs[PACK].siege, units)
    assert found == {
        "heroes": ["Knight-Questor"],
        "others": ["Liberators", "Judicators"],
        "max_heroes": 1,
        "max_others": 2,
    }


# --- battle rounds and the relief force --------------------------------------------------------
def test_rounds_and_turns_are_recorded_as_in_pitched_battles_without_vp(siege):
    to_battle(siege)
    siege.ok({"type": "battle_round", "round": 1, "first": BO})
    assert "Bo takes the first turn" in siege.refused({"type": "turn", "round": 1, "player": ANN})
    siege.ok({"type": "turn", "round": 1, "player": BO}, {"type": "turn", "round": 1, "player": ANN})
    out = siege.summary()
    assert out["round"] == 2 and out["next"] == {"round": 2, "players": [ANN, BO]}
    assert "vp" not in out["players"][0]
    assert (
        siege.refused({"type": "turn", "round": 6, "player": ANN})
        == "round must be a battle round from 1 to 5."
    )


@pytest.mark.parametrize(
    ("round_", "dice", "total", "arrived"),
    [
        (1, (5, 4), 10, False),
        (1, (5, 5), 11, True),
        (3, (4, 3), 10, False),
        (3, (4, 4), 11, True),
        (5, (1, 5), 11, True),
    ],
)
def test_the_relief_force_arrives_on_11_or_more_with_the_battle_round(siege, round_, dice, total, arrived):
    to_battle(siege)
    for r in range(1, round_):
        siege.ok({"type": "turn", "round": r, "player": ANN}, {"type": "turn", "round": r, "player": BO})
    siege.ok({"type": "relief_roll", "round": round_, "dice": list(dice)})
    relief = siege.summary()["relief"]
    assert relief["rolls"][-1]["total"] == total and relief["rolls"][-1]["arrived"] is arrived
    assert relief["arrived"] == (round_ if arrived else None)


def test_the_relief_roll_is_made_only_inside_the_defenders_turn(siege):
    to_battle(siege)
    siege.ok({"type": "battle_round", "round": 1, "first": ANN})
    roll = {"type": "relief_roll", "round": 1, "dice": [2, 3]}
    assert "inside Bo's turn" in siege.refused(roll)  # Ann's turn comes first
    siege.ok({"type": "turn", "round": 1, "player": ANN}, roll)
    assert "already recorded" in siege.refused(roll)
    assert "battle round 2 is not in it" in siege.refused({**roll, "round": 2})
    siege.ok({"type": "turn", "round": 1, "player": BO})
    assert "inside Bo's turn" in siege.refused(roll)  # Bo's turn of round 1 is over


def test_no_relief_roll_after_arrival_and_one_edge(siege):
    to_battle(siege)
    edge = {"type": "relief_edge", "die": 3}
    assert siege.refused(edge) == "die: the edge is rolled once the relief force has arrived."
    siege.ok(
        {"type": "battle_round", "round": 1, "first": BO}, {"type": "relief_roll", "round": 1, "dice": [6, 4]}
    )
    siege.ok({"type": "turn", "round": 1, "player": BO}, {"type": "turn", "round": 1, "player": ANN})
    siege.ok({"type": "battle_round", "round": 2, "first": BO})
    assert "arrived in battle round 1" in siege.refused({"type": "relief_roll", "round": 2, "dice": [6, 6]})
    siege.ok(edge)
    assert "already recorded" in siege.refused(edge)
    assert siege.summary()["relief"] | {"rolls": None} == {
        "arrived": 1,
        "edge": "south",
        "edge_die": 3,
        "target": 11,
        "rolls": None,
    }


@pytest.mark.parametrize(
    ("die", "edge"), [(1, "east"), (2, "east"), (3, "south"), (4, "south"), (5, "west"), (6, "west")]
)
def test_each_edge_the_relief_force_comes_from(siege, die, edge):
    to_battle(siege)
    siege.ok(
        {"type": "battle_round", "round": 1, "first": BO}, {"type": "relief_roll", "round": 1, "dice": [6, 5]}
    )
    siege.ok({"type": "relief_edge", "die": die})
    assert siege.summary()["relief"]["edge"] == edge


# --- the end ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("held", "kind", "winner"),
    [(3, "major", ANN), (2, "minor", ANN), (1, "minor", BO), (0, "major", BO)],
)
def test_the_result_by_objectives_the_attacker_holds(siege, held, kind, winner):
    to_battle(siege)
    siege.ok({"type": "end", "attacker_objectives": held})
    out = siege.summary()
    assert out["status"] == "finished" and out["attacker_objectives"] == held
    assert (out["result"]["kind"], out["result"]["winner"]) == (kind, winner)
    assert siege.refused({"type": "turn", "round": 1, "player": ANN}).startswith("The battle is over")


def test_more_objectives_than_three_is_refused(siege):
    to_battle(siege)
    assert siege.refused({"type": "end", "attacker_objectives": 4}) == (
        "attacker_objectives must be a whole number from 0 to 3."
    )


def test_the_screens_get_the_control_exception(siege):
    line = siege.summary()["control_exception"]
    assert '3"' in line and "defend" in line


# --- contingents -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("garrison", "relief", "sentence"),
    [
        (3, 3, None),
        (3, 4, None),
        (4, 3, "it needs at least one unit for each unit of the garrison"),
        (0, 2, "at least one unit"),
    ],
)
def test_at_least_one_relief_unit_per_garrison_unit(siege, garrison, relief, sentence):
    event = {"type": "contingents", "garrison": garrison, "relief": relief}
    if sentence is None:
        assert siege.ok(event).split.relief == relief
    else:
        assert sentence in siege.refused(event)


def test_contingents_by_name_are_checked_against_the_roster(siege):
    siege.ok({"type": "contingents", "garrison": ["Liberators"], "relief": ["Judicators", "Sequitors"]})
    assert siege.summary()["contingents"]["relief_units"] == ["Judicators", "Sequitors"]
    roster = ["Liberators", "Judicators", "Sequitors", "Knight-Questor"]
    problems = contingents.roster_problems(
        roster, [("Liberators",), ("Judicators", "Sequitors", "Gryph-hounds")], ["garrison", "relief force"]
    )
    assert problems == [
        "Gryph-hounds is not in the attached roster.",
        "Knight-Questor from the attached roster is in no contingent.",
    ]


def test_apply_never_changes_the_state_it_is_given(siege):
    to_battle(siege)
    kept = siege.game
    before = siege.summary()
    for event in (
        {"type": "battle_round", "round": 1, "first": BO},
        {"type": "relief_roll", "round": 1, "dice": [6, 6]},
        {"type": "end", "attacker_objectives": 1},
    ):
        after, problem = log.apply(siege.system, kept, {"id": str(uuid.uuid4()), **event}, siege.log)
        assert problem is None and after is not kept
    assert siege.system.summary(kept) == before


@pytest.mark.parametrize(
    ("player", "holder"), [(0, 0), (1, 1), (-1, None), (True, None), ("0", None)], ids=str
)
def test_a_siege_tactic_is_held_by_the_player_it_names(siege, player, holder):
    # A player that names no seat makes no holder: the rules refuse the tactic with their sentence.
    event = {"id": "x", "type": "siege_tactic", "player": player, "tactic": 3}
    assert siege.system.holder(event) == holder and siege.system.secret(event)
    assert siege.system.holder({"id": "y", "type": "turn", "round": 1, "player": 0}) is None


ROSTER = ["Lord Kroak", "Saurus Guard", "Skinks", "Skinks"]
ANN_A, BO_D = Player("Ann", "attacker"), Player("Bo", "defender")


@pytest.mark.parametrize(
    ("garrison", "relief", "sentence"),
    [
        (["Lord Kroak"], ["Saurus Guard", "Skinks", "Skinks"], None),  # two units of one warscroll
        (["Lord Kroak", "Skinks"], ["Saurus Guard", "Skinks"], None),
        (2, 2, None),  # counted by hand: nothing to check
        (["Lord Kroak"], ["Saurus Guard", "Skinks"], "Skinks is left out"),
        (["Lord Kroak", "Stegadon"], ["Saurus Guard", "Skinks", "Skinks"], "Stegadon is not in it"),
        (
            ["Lord Kroak", "Skinks"],
            ["Skinks", "Skinks", "Saurus Guard"],
            "Skinks is named 3 times and it holds 2",
        ),
        (
            ["Lord Kroak", "Skinks"],
            ["Skinks", "Kroxigor", "Kroxigor", "Salamanders"],
            "Kroxigor (x2), Salamanders are not in it; Saurus Guard is left out",
        ),
    ],
    ids=["exact", "skinks-split", "counts", "one-left-out", "one-extra", "one-too-many", "both"],
)
def test_named_contingents_hold_each_unit_of_the_defenders_roster_once(garrison, relief, sentence):
    found = engine.roster_problems({"type": "contingents", "garrison": garrison, "relief": relief}, ROSTER)
    if sentence is None:
        assert found == []
    else:
        assert found == [
            f"garrison and relief must name each unit of the defender's attached roster once: {sentence}."
        ]


def test_two_units_of_one_warscroll_may_be_named_in_both_contingents(siege):
    split = siege.ok({"type": "contingents", "garrison": ["Skinks"], "relief": ["Skinks", "Skinks"]}).split
    assert (split.garrison, split.relief, split.relief_units) == (1, 2, ("Skinks", "Skinks"))


def test_the_contingents_are_checked_against_the_defenders_roster(packs):
    # Bo defends whether he is listed first or second; with no sides, the first player attacks.
    for players, defender in (((ANN_A, BO_D), 1), ((BO_D, ANN_A), 0), ((Player("Ann"), Player("Bo")), 1)):
        setup = Setup(PACK, "the-relief-force", 2000, players)
        assert engine.sides(setup)[1] == defender
        assert systems.system_for(packs[PACK], "the-relief-force").roster_player(setup, {}) == defender


KROAK_ARMY = [
    RosterUnit("Lord Kroak", ("HERO", "WIZARD")),
    RosterUnit("Skink Starpriest", ("HERO", "PRIEST")),
    RosterUnit("Saurus Guard", ()),
    RosterUnit("Skinks", ()),
    RosterUnit("Skinks", ()),
    RosterUnit("Stegadon", ("MONSTER",)),
    RosterUnit("Saurus Knights", ("MOUNT",)),
]


def test_the_tunnel_party_is_offered_from_the_attackers_roster_keywords(packs):
    found = engine.roster_party(packs[PACK].siege, KROAK_ARMY)
    assert [u.name for u in found["heroes"]] == ["Lord Kroak", "Skink Starpriest"]
    assert [u.name for u in found["others"]] == ["Saurus Guard", "Skinks", "Skinks"]
    assert found["unfit"] == [
        {"name": "Stegadon", "why": "a MONSTER"},
        {"name": "Saurus Knights", "why": "mounted"},
    ]
    assert (found["max_heroes"], found["max_others"]) == (1, 2)


@pytest.mark.parametrize(
    ("units", "sentence"),
    [
        ([{"name": "Lord Kroak", "keywords": ["HERO"]}, {"name": "Skinks"}, {"name": "Skinks"}], None),
        ([{"name": "Kroxigor"}], "units[0]: Kroxigor is not in the attacker's attached roster."),
        (
            [{"name": "Skinks"}, {"name": "Skinks"}, {"name": "Skinks"}],
            "units[2]: the attacker's attached roster holds Skinks twice.",
        ),
        (
            [{"name": "Stegadon"}],
            "units[0]: Stegadon is a MONSTER in the attacker's attached roster; only units without "
            "mounts that are not MONSTERS go through the tunnel.",
        ),
        (
            [{"name": "Saurus Knights", "keywords": ["HERO"]}],
            "units[0]: Saurus Knights is mounted in the attacker's attached roster; only units without "
            "mounts that are not MONSTERS go through the tunnel.",
        ),
        (
            [{"name": "Skinks"}, {"name": "Skink Starpriest"}],
            "units[1].keywords: Skink Starpriest is a HERO in the attacker's attached roster.",
        ),
        (
            [{"name": "Saurus Guard", "keywords": ["HERO"]}],
            "units[0].keywords: Saurus Guard is not a HERO in the attacker's attached roster.",
        ),
    ],
    ids=["fits", "not-in-roster", "one-too-many", "monster", "mounted", "hero-unsaid", "not-a-hero"],
)
def test_the_tunnel_party_is_checked_against_the_attackers_roster(units, sentence):
    found = engine.party_roster_problems({"type": "tunnel_party", "units": units}, KROAK_ARMY)
    assert found == ([] if sentence is None else [sentence])


# --- the objectives: three, on different features in the defender's territory, in turn -------
def place(player: int, feature: str) -> dict:
    return {"type": "objective", "player": player, "feature": feature}


def test_the_objectives_are_placed_in_turn_starting_with_the_attacker(siege):
    assert siege.refused(place(BO, "Gatehouse")) == (
        "player: Ann places the 1st objective of 3; the players take turns, the attacker first."
    )
    siege.ok(place(ANN, "Gatehouse"))
    assert siege.refused(place(ANN, "Keep")).startswith("player: Bo places the 2nd objective of 3")
    siege.ok(place(BO, "Keep"))
    assert siege.summary()["next_objective"] == {"number": 3, "player": ANN}
    siege.ok(place(ANN, "Bastion"))  # the 3rd: the attacker again
    assert siege.refused(place(BO, "Wall")) == "All 3 objectives are set up; undo the last one to move it."
    out = siege.summary()
    assert [(o["label"], o["player"], o["feature"]) for o in out["objectives"]] == [
        ("1", ANN, "Gatehouse"),
        ("2", BO, "Keep"),
        ("3", ANN, "Bastion"),
    ]
    assert out["next_objective"] is None and out["objectives_total"] == 3


def test_each_objective_goes_on_a_different_feature(siege):
    siege.ok(place(ANN, "Gatehouse"))
    assert siege.refused(place(BO, " gatehouse ")) == (
        "feature: Gatehouse already holds the 1st objective; each objective goes on a different terrain feature."
    )


def test_the_objectives_are_placed_before_the_first_battle_round(siege):
    to_battle(siege)
    siege.ok(place(ANN, "Gatehouse"), {"type": "battle_round", "round": 1, "first": ANN})
    assert siege.refused(place(BO, "Keep")) == (
        "The objectives are set up with the battlefield, before the first battle round."
    )
    assert siege.summary()["next_objective"] is None


FORTRESS = [
    Piece(uid="p1", name="Gatehouse", fortress=True),
    Piece(uid="p2", name="Keep", fortress=True),
    Piece(uid="p3", name="Ruined Chapel"),  # outside the fortress
]


@pytest.mark.parametrize(
    ("pieces", "feature", "sentence"),
    [
        (FORTRESS, "Keep", None),
        (FORTRESS, "p2", None),  # by its id
        (FORTRESS, "keep", None),
        ([], "Anywhere", None),  # no terrain set: nothing to check against
        ([Piece(name="Ruined Chapel")], "Tower", None),  # a set with no fortress says nothing
        (
            FORTRESS,
            "Ruined Chapel",
            "feature: Ruined Chapel is not wholly within the defender's territory in this game's terrain "
            "set; an objective goes on a feature of the fortress.",
        ),
        (
            FORTRESS,
            "Tower",
            "feature: Tower is not in this game's terrain set; an objective goes on a feature of the "
            "fortress (Gatehouse, Keep).",
        ),
        (
            FORTRESS,
            "p1",
            "feature: Gatehouse already holds the 1st objective; each objective goes on a different "
            "terrain feature.",
        ),
    ],
    ids=["name", "id", "letter-case", "no-set", "no-fortress", "outside", "unknown", "same-piece-by-id"],
)
def test_an_objective_is_checked_against_the_games_terrain_set(siege, pieces, feature, sentence):
    game = siege.ok(place(ANN, "Gatehouse"))
    found = engine.terrain_problems(game, place(BO, feature), pieces)
    assert found == ([] if sentence is None else [sentence])


# --- next steps: what a phone may record offline (docs/offline.md) ----------------------------
def test_the_siege_phase_plans_its_rolls_once_both_tactics_are_in(siege):
    siege.ok({"type": "siege_tactic", "player": ANN, "tactic": 2})
    # A tactic is secret: what follows both picks is the server's to show.
    assert engine.next_steps(siege.game)["plan"] == ["tactics"]
    siege.ok({"type": "siege_tactic", "player": BO, "tactic": 5})
    steps = engine.next_steps(siege.game)
    assert steps["plan"] == ["batter", "starve", "tunnel", "round-1"] and steps["in_play"] is None
    assert steps["steps"]["round-1"] == {
        "in_play": 1,
        "choice": "first",
        "plans": {"0": ["turn-1-0", "turn-1-1", "round-2"], "1": ["turn-1-1", "turn-1-0", "round-2"]},
    }
    siege.ok({"type": "batter", "features": []}, {"type": "starve", "units": []})
    assert engine.next_steps(siege.game)["plan"] == ["tunnel", "round-1"]


def test_the_battle_plans_each_turn_then_the_next_round_and_the_end(siege):
    to_battle(siege)
    assert engine.next_steps(siege.game)["plan"] == ["round-1"]
    siege.ok({"type": "battle_round", "round": 1, "first": BO})
    steps = engine.next_steps(siege.game)
    assert steps["plan"] == ["turn-1-1", "turn-1-0", "round-2"] and steps["in_play"] == 1
    # Battle round 2 begins with nobody named first: the turn form asks whose turn it was.
    siege.ok(
        {"type": "turn", "round": 1, "player": BO},
        {"type": "turn", "round": 1, "player": ANN},
        {"type": "battle_round", "round": 2},
    )
    steps = engine.next_steps(siege.game)
    assert steps["plan"] == ["turn-2-0", "turn-2-1", "round-3"]
    assert steps["steps"]["turn-2-0"]["choice"] == "player"
    assert steps["steps"]["turn-2-0"]["plans"] == {"0": ["turn-2-1", "round-3"], "1": ["turn-2-0", "round-3"]}
    for r in range(2, 6):
        if r > 2:
            siege.ok({"type": "battle_round", "round": r, "first": ANN})
        siege.ok({"type": "turn", "round": r, "player": ANN}, {"type": "turn", "round": r, "player": BO})
    assert engine.next_steps(siege.game)["plan"] == ["end", "over"]  # after battle round 5
    siege.ok({"type": "end", "attacker_objectives": 1})
    assert engine.next_steps(siege.game) == {"plan": ["over"], "in_play": None, "steps": {"over": {}}}
