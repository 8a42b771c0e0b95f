"""Worked examples for the twelve GHB 2021 battleplans, computed by hand from seed 002.

Each example states the facts recorded and the VP the battleplan's rules give, with the
arithmetic in the comments. Ann (player 0) is the attacker, Bo (player 1) the defender.
"""

from __future__ import annotations

from tests.conftest import ANN, BO, vp_by_rule


# 1. Marking Territory: no VP at all; controlling everything from round 3 wins at once.
def test_marking_territory_scores_no_vp_even_for_tactics_and_monsters(table):
    t = table("marking-territory")
    t.start(1)
    turn = t.turn(
        1,
        ANN,
        {"north-west": ANN, "north-east": ANN, "south-west": ANN},
        tactic="bring-it-down",
        tactic_completed=True,
        tactic_bonus=True,
        enemy_monsters_slain=True,
    )
    assert turn.vp == 0 and turn.awards == []
    assert t.game.tactics_completed(ANN) == 1


def test_marking_territory_all_objectives_before_round_3_wins_nothing(table):
    t = table("marking-territory")
    everything = {"north-west": ANN, "north-east": ANN, "south-west": ANN, "south-east": ANN}
    t.start(1)
    t.turn(1, ANN, everything)
    t.turn(1, BO, everything)
    t.start(2)
    t.turn(2, ANN, everything)
    assert t.game.result is None and t.game.status == "in_progress"


def test_marking_territory_immediate_major_victory_in_round_3(table):
    t = table("marking-territory")
    t.quiet_rounds(1, 2)
    t.start(3, first=BO)
    t.turn(3, BO, {"north-west": BO, "north-east": ANN, "south-west": ANN, "south-east": ANN})
    game = t.game
    assert game.result is None
    t.turn(3, ANN, {"north-west": ANN, "north-east": ANN, "south-west": ANN, "south-east": ANN})
    game = t.game
    assert game.status == "finished"
    assert (game.result.kind, game.result.winner) == ("major", ANN)
    assert "every objective" in game.result.reason
    # Nothing more can be recorded once the battle is won.
    assert "over" in t.refused({"type": "battle_round", "round": 4, "first": ANN})


def test_marking_territory_without_immediate_victory_goes_to_tactics(table):
    t = table("marking-territory")
    t.start(1)
    t.turn(1, ANN, tactic="conquer", tactic_completed=True)
    t.turn(1, BO, tactic="conquer", tactic_completed=False)
    t.start(2)
    t.turn(2, ANN, tactic="slay-the-warlord", tactic_completed=True)
    t.turn(2, BO, tactic="slay-the-warlord", tactic_completed=True)
    t.quiet_rounds(3, 5)
    t.end(ANN, False)
    t.end(BO, True)
    result = t.game.result
    # Ann completed 2 tactics, Bo 1: Ann's minor victory (grand strategies not reached).
    assert (result.kind, result.winner) == ("minor", ANN)
    assert "battle tactics" in result.reason
    assert t.game.vp(ANN) == t.game.vp(BO) == 0


# 2. Savage Gains: 1 VP own border, 2 VP each objective off the borders, 4 VP enemy border.
def test_savage_gains_objectives_by_territory(table):
    t = table("savage-gains")
    t.start(1)
    ann = t.turn(
        1,
        ANN,
        {"attacker-border": ANN, "west": ANN, "defender-border": ANN, "east": BO},
        tactic="conquer",
        tactic_completed=True,
    )
    # own border 1 + west 2 + enemy border 4 + tactic 2 = 9
    assert ann.vp == 9
    assert vp_by_rule(ann) == {
        "Controls A border (on your own border)": 1,
        "Controls W (in neither territory)": 2,
        "Controls D border (on the enemy border)": 4,
        "Battle tactic completed: Conquer": 2,
    }
    bo = t.turn(
        1,
        BO,
        {"defender-border": BO, "east": BO, "attacker-border": ANN},
        tactic="bring-it-down",
        tactic_completed=True,
        tactic_bonus=True,
        enemy_monsters_slain=True,
    )
    # Bo's own border 1 + east 2 + tactic 2 + MONSTER bonus 1 + Predators and Prey 1 = 7
    assert bo.vp == 7


def test_savage_gains_full_game_major_victory(table):
    t = table("savage-gains")
    for r in range(1, 6):
        t.start(r)
        t.turn(r, ANN, {"attacker-border": ANN, "west": ANN})  # 1 + 2 = 3 a turn
        t.turn(r, BO, {"defender-border": BO, "attacker-border": ANN})  # 1 a turn
    t.end(ANN, True)  # +3
    t.end(BO, False)
    game = t.game
    assert (game.vp(ANN), game.vp(BO)) == (5 * 3 + 3, 5)
    assert (game.result.kind, game.result.winner) == ("major", ANN)
    assert game.result.reason == "Most victory points (18 to 5)."


def test_seismic_shift_removes_an_objective_off_the_borders_only(table):
    t = table("savage-gains")
    t.quiet_rounds(1, 2)
    assert "prime" in t.refused(
        {"type": "battle_round", "round": 3, "first": BO, "removed": "attacker-border"}
    )
    t.start(3, first=BO, removed="west")
    assert "left the battlefield" in t.refused(
        {"type": "turn", "round": 3, "player": BO, "control": {"west": BO}}
    )
    # The battle round's control is filled in without the removed objective.
    turn = t.turn(3, BO, {"east": BO})
    assert "west" not in turn.control


def test_seismic_shift_only_at_the_start_of_round_3(table):
    t = table("savage-gains")
    t.quiet_rounds(1, 1)
    assert "battle round 3" in t.refused(
        {"type": "battle_round", "round": 2, "first": ANN, "removed": "west"}
    )


# 3. First Blood: 1 VP for one objective, 1 more for two or more, 1 for more than the opponent.
def test_first_blood_objective_counts(table):
    t = table("first-blood")
    t.start(1, vantage="centre")
    # Ann holds 2, Bo 1: 1 + 1 + 1 = 3
    assert t.turn(1, ANN, {"south-west": ANN, "centre": ANN, "north-east": BO}).vp == 3
    # Bo holds 1, Ann 2: only the first point
    assert t.turn(1, BO, {"south-west": ANN, "centre": ANN, "north-east": BO}).vp == 1
    t.start(2)
    # Level 1-1: one point each, nobody has more
    assert t.turn(2, ANN, {"south-west": ANN, "north-east": BO}).vp == 1
    # Nothing held: nothing scored; tactic still scores 2
    assert t.turn(2, BO, {}, tactic="savage-spearhead", tactic_completed=True).vp == 2
    assert t.game.rounds[1].facts["vantage"] == "centre"


# 4. Power Struggle: the first two points need objectives held for two of your turns in a row.
def test_power_struggle_hold_your_ground(table):
    t = table("power-struggle")
    t.start(1)
    # First turn: nothing held twice yet; 2 v 0 objectives gives the "more" point only.
    assert t.turn(1, ANN, {"north-west": ANN, "north-east": ANN}).vp == 1
    assert t.turn(1, BO, {"north-west": ANN, "north-east": ANN, "centre": BO}).vp == 0
    t.start(2)
    # Ann held NW and NE at the end of her last turn and now: 1 + 1, and 2 v 1: +1 = 3
    assert t.turn(2, ANN, {"north-west": ANN, "north-east": ANN, "centre": BO}).vp == 3
    # Bo held the centre twice (1), SW is new; 2 v 2 is not more: 1
    assert t.turn(2, BO, {"north-west": ANN, "north-east": ANN, "centre": BO, "south-west": BO}).vp == 1


def test_power_struggle_opponents_turn_between_is_not_consulted(table):
    t = table("power-struggle")
    t.start(1)
    t.turn(1, ANN, {"centre": ANN})
    # Bo takes the centre during his turn...
    t.turn(1, BO, {"centre": BO})
    t.start(2)
    # ...and Ann takes it back: her own previous turn and this one both show it as hers.
    turn = t.turn(2, ANN, {"centre": ANN})
    assert vp_by_rule(turn) == {
        "Held at least one objective for two of your turns in a row": 1,
        "Controls more objectives than the opponent": 1,
    }


def test_power_struggle_hold_carries_across_rounds_when_order_changes(table):
    t = table("power-struggle")
    t.start(1, first=ANN)
    t.turn(1, ANN, {"south-east": ANN})
    t.turn(1, BO, {"south-east": ANN})
    t.start(2, first=BO)  # Bo goes first: Ann's two turns are back to back
    t.turn(2, BO, {"south-east": ANN})
    assert t.turn(2, ANN, {"south-east": ANN}).vp == 2  # held once more + more than Bo


# 5. Survival of the Fittest: 1 VP for each enemy predator your predators destroyed.
def test_survival_of_the_fittest_predators(table):
    t = table("survival-of-the-fittest")
    t.start(1)
    # One objective (1), not two, 1 v 0 (1), two predators (2) = 4
    turn = t.turn(1, ANN, {"centre": ANN}, predators_destroyed=2)
    assert turn.vp == 4
    assert vp_by_rule(turn)["Enemy predators destroyed by your predators this turn: 2"] == 2
    t.turn(1, BO, {"centre": ANN})
    t.start(2)
    t.turn(2, ANN, {}, predators_destroyed=1)
    t.turn(2, BO, {})
    t.start(3)
    # Bo had only three predators: a fourth cannot be destroyed.
    assert "only 3" in t.refused(
        {"type": "turn", "round": 3, "player": ANN, "control": {}, "predators_destroyed": 1}
    )


# 6. Tectonic Interference: 2 VP for the alpha objective, 1 VP for each beta.
def test_tectonic_interference_alpha_and_beta(table):
    t = table("tectonic-interference")
    assert "alpha" in t.refused({"type": "battle_round", "round": 1, "first": ANN})
    t.start(1, alpha="objective-2")
    # alpha 2 + beta 1 = 3
    assert t.turn(1, ANN, {"objective-1": ANN, "objective-2": ANN}).vp == 3
    # one beta = 1
    assert t.turn(1, BO, {"objective-1": ANN, "objective-2": ANN, "objective-3": BO}).vp == 1
    t.start(2, alpha="objective-3")
    assert t.turn(2, ANN, {"objective-1": ANN, "objective-2": ANN, "objective-3": BO}).vp == 2
    assert t.turn(2, BO, {"objective-3": BO}).vp == 2


def test_tectonic_interference_all_prime_so_seismic_shift_cannot_remove(table):
    t = table("tectonic-interference")
    for r in (1, 2):
        t.start(r, alpha="objective-1")
        t.turn(r, ANN)
        t.turn(r, BO)
    assert "prime" in t.refused(
        {"type": "battle_round", "round": 3, "first": ANN, "alpha": "objective-1", "removed": "objective-2"}
    )


# 7. Apex Predators: standard objective points (control is won by Leaders at the table).
def test_apex_predators_scores_like_the_standard_plans(table):
    t = table("apex-predators")
    t.start(1)
    turn = t.turn(
        1, ANN, {"south-west": ANN, "centre": ANN, "north-east": ANN}, tactic="conquer", tactic_completed=True
    )
    assert turn.vp == 1 + 1 + 1 + 2


# 8. The Vice: corner objectives move in round 2; from round 4 only the centre one.
def test_the_vice_objectives_close_in(table):
    t = table("the-vice")
    t.start(1)
    assert "not on the battlefield" in t.refused(
        {"type": "turn", "round": 1, "player": ANN, "control": {"centre": ANN}}
    )
    t.turn(1, ANN, {"north-west": ANN, "south-west": ANN})
    t.turn(1, BO)
    game = t.game
    nw = game.objective("north-west")
    assert game.position(nw, 1) == (0, 0)
    assert game.position(nw, 2) == (15, 11)
    t.quiet_rounds(2, 3)
    t.start(4)
    assert "not on the battlefield" in t.refused(
        {"type": "turn", "round": 4, "player": ANN, "control": {"north-west": ANN}}
    )
    # Round 4: the centre is the only objective. 1 (one) + 1 (more) = 2
    assert t.turn(4, ANN, {"centre": ANN}).vp == 2
    assert [o.id for o in t.game.in_play(4)] == ["centre"]


# 9. Tooth and Nail: standard objective points.
def test_tooth_and_nail_standard_points(table):
    t = table("tooth-and-nail")
    t.start(1)
    assert t.turn(1, ANN, {"north-west": ANN, "north-east": ANN, "south-west": ANN}).vp == 3
    assert t.turn(1, BO, {"south-east": BO, "north-west": ANN, "north-east": ANN, "south-west": ANN}).vp == 1


# 10. Feral Foray: from round 2 raid one objective in the enemy territory for 1 VP; it leaves play.
def test_feral_foray_raids(table):
    t = table("feral-foray")
    t.start(1)
    assert "battle round 2" in t.refused(
        {
            "type": "turn",
            "round": 1,
            "player": ANN,
            "control": {"defender-west": ANN},
            "raided": "defender-west",
        }
    )
    t.turn(1, ANN, {"defender-west": ANN})
    t.turn(1, BO)
    t.start(2)
    assert "not wholly within the enemy territory" in t.refused(
        {
            "type": "turn",
            "round": 2,
            "player": ANN,
            "control": {"attacker-west": ANN},
            "raided": "attacker-west",
        }
    )
    assert "must control" in t.refused(
        {"type": "turn", "round": 2, "player": ANN, "control": {}, "raided": "defender-east"}
    )
    # The raided objective still counts for this turn: 1 (one) + 1 (more) + 1 (raid) = 3
    turn = t.turn(2, ANN, {"defender-west": ANN}, raided="defender-west")
    assert turn.vp == 3
    assert vp_by_rule(turn)["Raided D-W"] == 1
    assert "left the battlefield" in t.refused(
        {"type": "turn", "round": 2, "player": BO, "control": {"defender-west": BO}}
    )
    assert "defender-west" not in [o.id for o in t.game.in_play(2)]


# 11. Power in Numbers: destroy held objectives for 1 / 2 / 4 / 8 VP; no VP for holding.
def test_power_in_numbers_destroying_objectives(table):
    t = table("power-in-numbers")
    t.start(1)
    held = {"north": ANN, "north-west": ANN, "south": ANN}
    assert t.turn(1, ANN, held).vp == 0  # holding alone scores nothing here
    assert "battle round 2" in t.refused(
        {"type": "turn", "round": 1, "player": BO, "control": held, "destroyed": ["north"]}
    )
    t.turn(1, BO, {**held, "north-east": BO})
    t.start(2)
    # North: held at the end of Ann's last turn and ever since: 2
    # South-east: taken this turn: 1
    turn = t.turn(
        2,
        ANN,
        {**held, "south-east": ANN, "north-east": BO},
        destroyed=["north", "south-east"],
        tactic="conquer",
        tactic_completed=True,
    )
    assert vp_by_rule(turn) == {
        "Battle tactic completed: Conquer": 2,
        "Destroyed N (held since the end of your previous turn)": 2,
        "Destroyed SE (taken this turn)": 1,
    }
    after = {"north-west": ANN, "south": ANN, "north-east": BO}
    t.turn(2, BO, after)
    t.start(3)
    # North-west: held since the end of Ann's turn before last (rounds 1 and 2): 4
    turn = t.turn(3, ANN, after, destroyed=["north-west"])
    assert turn.vp == 4
    later = {"south": ANN, "north-east": BO}
    t.turn(3, BO, later)
    for r in (4, 5):
        t.start(r)
        if r == 5:
            # South: taken in round 1 and held to the end of Ann's round 5 turn: 8
            assert t.turn(r, ANN, later, destroyed=["south"]).vp == 8
        else:
            t.turn(r, ANN, later)
        t.turn(r, BO, {"north-east": BO} if r == 5 else later)


def test_power_in_numbers_control_lost_in_between_starts_again(table):
    t = table("power-in-numbers")
    t.start(1)
    t.turn(1, ANN, {"south": ANN})
    t.turn(1, BO, {"south": BO})  # Bo takes it in his turn
    t.start(2)
    turn = t.turn(2, ANN, {"south": ANN}, destroyed=["south"])
    assert vp_by_rule(turn) == {"Destroyed S (taken this turn)": 1}


# 12. The Veins of Ghur: objectives appear in rounds 2 and 3; VP = battle round per objective.
def test_veins_of_ghur_round_multiplied(table):
    t = table("the-veins-of-ghur")
    t.start(1)
    assert "not on the battlefield" in t.refused(
        {"type": "turn", "round": 1, "player": ANN, "control": {"vein-1": ANN}}
    )
    t.turn(1, ANN)
    t.turn(1, BO)
    assert "2 to 12" in t.refused(
        {"type": "battle_round", "round": 2, "first": ANN, "placed": [{"objective": "vein-1", "roll": 13}]}
    )
    assert "battle round 3" in t.refused(
        {"type": "battle_round", "round": 2, "first": ANN, "placed": [{"objective": "vein-2", "roll": 6}]}
    )
    t.start(2, placed=[{"objective": "vein-1", "roll": 7}])
    assert t.turn(2, ANN, {"vein-1": ANN}).vp == 2  # round 2 x 1 objective
    t.turn(2, BO, {"vein-1": ANN})
    t.start(3, placed=[{"objective": "vein-2", "roll": 4}, {"objective": "vein-3", "roll": 11}])
    # round 3 x 2 objectives + tactic 2 = 8
    assert t.turn(3, ANN, {"vein-1": ANN, "vein-2": ANN}, tactic="conquer", tactic_completed=True).vp == 8
    assert t.turn(3, BO, {"vein-1": ANN, "vein-2": ANN, "vein-3": BO}).vp == 3
    assert t.game.placed == {"vein-1": 7, "vein-2": 4, "vein-3": 11}


def test_power_in_numbers_destroyed_must_be_a_list_of_objectives(table):
    t = table("power-in-numbers")
    t.quiet_rounds(1, 1)
    t.start(2)
    for bad in ("north", ["north", "north"], [3]):
        problem = t.refused(
            {"type": "turn", "round": 2, "player": ANN, "control": {"north": ANN}, "destroyed": bad}
        )
        assert problem == "destroyed must be a list of different objective ids."
