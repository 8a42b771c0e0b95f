"""The registry protocol's seats and secrets, Convergence of Fate (seed 000), and a scenario's own system."""

from __future__ import annotations

import json

import pytest

from app.rules import systems
from app.rules.game import parse_setup
from app.rules.pack import Range
from app.rules.systems.treachery.events import contingent_roster_problems
from tests.setups import pitched_battle
from tests.unit.treachery_play import ANN, BO, CY, Treachery

TOW = "tow-triumph-treachery"
AOS = "aos-conquest-unbound"


# --- seats and secrets ---------------------------------------------------------------------------
def _secrets(pack) -> Treachery:
    game = Treachery(pack, "altar-of-the-gods")
    game.ok(
        {"type": "battle_round", "round": 1},
        {"type": "buy", "round": 1, "player": ANN, "ploy": "caltrops"},
        {"type": "buy", "round": 1, "player": BO, "ploy": "hidden-agents"},
        {"type": "enemy", "round": 1, "player": ANN, "phase": "shooting", "enemy": BO},
        {"type": "bonus_ploy", "round": 1, "player": CY, "roll": 6, "ploy": "pilfered-ammo"},
    )
    return game


def test_without_a_seat_held_ploys_are_only_counted(packs):
    game = _secrets(packs[TOW])
    public = game.summary()
    assert [p["ploys_held"] for p in public["players"]] == [1, 1, 1]
    assert all("ploys" not in p for p in public["players"])
    text = json.dumps(public)
    for secret in (
        "caltrops",
        "Caltrops",
        "hidden-agents",
        "Hidden Agents",
        "pilfered-ammo",
        "Pilfered Ammo",
    ):
        assert secret not in text
    # The bonus roll was thrown in the open: its die stays public, its ploy does not.
    assert public["gains"][-1] == {
        "event": game.log[-1]["id"],
        "round": 1,
        "player": CY,
        "how": "bonus",
        "roll": 6,
    }


def test_a_seat_sees_its_own_ploys_and_nobody_elses(packs):
    game = _secrets(packs[TOW])
    ann = game.summary(ANN)
    assert ann["players"][ANN]["ploys"] == ["caltrops"]
    assert "ploys" not in ann["players"][BO] and "ploys" not in ann["players"][CY]
    assert "hidden-agents" not in json.dumps(ann) and "pilfered-ammo" not in json.dumps(ann)
    assert [g["ploy"] for g in ann["gained"]] == ["caltrops"]


def test_a_played_ploy_is_revealed_to_everyone(packs):
    game = _secrets(packs[TOW])
    # Combat: Cy is the enemy, so Bo is neutral and may play Hidden Agents (for neutral players).
    game.ok({"type": "enemy", "round": 1, "player": ANN, "phase": "combat", "enemy": CY})
    game.ok({"type": "play", "round": 1, "player": BO, "ploy": "hidden-agents"})
    public = game.summary()
    assert public["plays"][0]["ploy"] == "hidden-agents" and public["plays"][0]["name"] == "Hidden Agents"
    assert public["players"][BO]["ploys_held"] == 0


def test_secret_events_name_their_holder_and_hide_their_fields_from_others(packs):
    system = systems.system_for(packs[TOW])
    assert system.seated is True
    buy = {"id": "x", "type": "buy", "round": 1, "player": BO, "ploy": "caltrops"}
    bonus = {"id": "y", "type": "bonus_ploy", "round": 1, "player": CY, "roll": 5, "ploy": "sabotage"}
    discard = {"id": "z", "type": "discard", "player": ANN, "ploy": "caltrops"}
    assert [system.holder(e) for e in (buy, bonus, discard)] == [BO, CY, ANN]
    assert all(system.secret(e) for e in (buy, bonus, discard))
    turn = {"type": "turn", "player": BO}
    assert system.holder(turn) is None and not system.secret(turn)
    assert system.visible_event(turn, None) == turn
    # Playing a ploy is public, but only from its player's own seat (their hand, their spend).
    play = {"type": "play", "player": BO, "ploy": "caltrops"}
    assert system.holder(play) == BO and not system.secret(play)
    assert system.visible_event(play, None) == play and system.visible_event(play, ANN) == play
    # An event whose type is not text is nobody's (the rules refuse it with their sentence).
    assert system.holder({"type": [], "player": BO}) is None
    assert system.visible_event(buy, BO) == buy
    assert system.visible_event(buy, ANN) == {"id": "x", "type": "buy", "round": 1, "player": BO}
    assert system.visible_event(buy, None) == {"id": "x", "type": "buy", "round": 1, "player": BO}
    assert system.visible_event(bonus, ANN) == {
        "id": "y",
        "type": "bonus_ploy",
        "round": 1,
        "player": CY,
        "roll": 5,
    }
    # A malformed player is nobody's secret (the rules refuse the event).
    assert system.holder({**buy, "player": True}) is None and system.holder({**buy, "player": "1"}) is None


def test_contingents_are_their_players_secret(packs):
    system = systems.system_for(packs[AOS], "convergence-of-fate")
    event = {"id": "c", "type": "contingents", "player": BO, "vanguard": ["Liberators"], "reinforcements": 1}
    assert system.holder(event) == BO
    assert system.visible_event(event, ANN) == {"id": "c", "type": "contingents", "player": BO}


@pytest.mark.parametrize("pack_id", ["aos-ghb-2021", "conquest-first-blood"])
def test_systems_without_secrets_have_no_seats_and_any_phone_records(packs, pack_id):
    system = systems.system_for(packs[pack_id])
    assert system.seated is False and systems.seats(system) is None
    event = {"id": "x", "type": "turn", "round": 1, "player": 0}
    assert systems.owner_problem(system, event, 1, False, ["Ann", "Bo"]) is None
    assert systems.owner_problem(system, event, None, True, ["Ann", "Bo"], undo=True) is None


@pytest.mark.parametrize(
    ("pack_id", "scenario", "capabilities"),
    [
        ("aos-ghb-2021", None, set()),
        ("conquest-first-blood", None, set()),
        (AOS, "convergence-of-fate", {"seats", "rosters"}),
        (AOS, "the-relief-force", {"seats", "rosters", "terrain"}),
        (AOS, "tunnel-wars", {"seats", "rosters"}),
    ],
)
def test_a_system_has_the_capabilities_its_games_need_and_no_more(packs, pack_id, scenario, capabilities):
    system = systems.system_for(packs[pack_id], scenario)
    found = {
        name
        for name, has in [
            ("seats", systems.seats(system)),
            ("rosters", systems.roster_checks(system)),
            ("terrain", systems.terrain_checks(system)),
        ]
        if has is not None
    }
    assert found == capabilities
    assert system.seated is ("seats" in capabilities)


# --- a scenario's own system, players and sides --------------------------------------------------
def test_a_scenario_may_name_its_own_system_players_and_sides(packs):
    pack = packs[TOW]
    siege = pack.scenarios[0].model_copy(
        update={
            "id": "a-siege",
            "system": "turns",
            "players": Range(min=2, max=2),
            "sides": ["attacker", "defender"],
        }
    )
    mixed = pack.model_copy(update={"scenarios": [*pack.scenarios, siege]})
    assert systems.system_for(mixed, "a-siege").name == "turns"
    assert systems.system_for(mixed, siege).name == "turns"
    assert systems.system_for(mixed, "altar-of-the-gods").name == "treachery"
    assert systems.system_for(mixed).name == "treachery"
    two = {"pack": TOW, "scenario": "a-siege", "points_limit": 2000}
    sided = [{"name": "Ann", "side": "attacker"}, {"name": "Bo", "side": "defender"}]
    setup, problem = parse_setup({**two, "players": sided}, {TOW: mixed})
    assert problem is None and setup is not None and len(setup.players) == 2
    _, problem = parse_setup({**two, "players": [*sided, {"name": "Cy", "side": "attacker"}]}, {TOW: mixed})
    assert problem == "players must be a list of 2 players for The Old World: Triumph & Treachery."
    three = [{"name": n} for n in ("Ann", "Bo", "Cy")]
    setup, problem = parse_setup({**two, "scenario": "altar-of-the-gods", "players": three}, {TOW: mixed})
    assert problem is None
    _, problem = parse_setup({**two, "scenario": "altar-of-the-gods", "players": three[:2]}, {TOW: mixed})
    assert problem == "players must be a list of 3 to 6 players for The Old World: Triumph & Treachery."


def test_a_pitched_battle_is_still_played_by_turns(packs):
    setup, problem = parse_setup(pitched_battle(), packs)
    assert problem is None and systems.system_for(packs["aos-ghb-2021"], setup.scenario).name == "turns"


# --- refusals name their field ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("event", "sentence"),
    [
        ({"type": "buy", "round": 1, "player": 0, "ploy": "fireball"}, "ploy must be the id of a ploy in"),
        ({"type": "buy", "round": 1, "player": 7, "ploy": "caltrops"}, "player must be a player's index"),
        ({"type": "deal", "round": 1, "from": 0, "to": 0, "cp": 1}, "to must be another player than from."),
        ({"type": "deal", "round": 1, "from": 0, "to": 1, "cp": 60}, "cp must be at most 50: Ann holds 50"),
        ({"type": "turn", "round": 2, "player": 0}, "round must be 1, the battle round being played."),
        ({"type": "turn", "round": 1, "player": 0, "tactic": "x"}, "tactic is not part of a turn"),
        ({"type": "enemy", "round": 1, "player": 0, "phase": "hero", "enemy": 1}, "phase must be movement,"),
        ({"type": "end", "tie_break": []}, "type: the battle ends after the last turn of round 4."),
        ({"type": "contingents", "player": 0, "vanguard": 1}, "type: Altar of the Gods has no contingents."),
    ],
    ids=["ploy", "player", "deal-to", "deal-cp", "round", "extra", "phase", "end", "contingents"],
)
def test_each_refusal_is_one_sentence_naming_the_field(packs, event, sentence):
    game = Treachery(packs[TOW], "altar-of-the-gods")
    message = game.send(event)
    assert message is not None and message.startswith(sentence) and message.endswith(".")
    assert "\n" not in message


# --- Convergence of Fate ------------------------------------------------------------------------
def _convergence(packs, rounds: int = 4) -> Treachery:
    game = Treachery(packs[AOS], "convergence-of-fate")
    for r in range(1, rounds + 1):
        for player in (ANN, BO, CY):
            game.ok({"type": "turn", "round": r, "player": player})
    return game


@pytest.mark.parametrize(
    ("end", "kind", "winner"),
    [
        ({"monolith": CY}, "major", CY),
        ({"monolith": None, "closest": [BO]}, "minor", BO),
        ({"monolith": None, "closest": [ANN, CY]}, "draw", None),
        ({"monolith": None, "closest": []}, "draw", None),
    ],
    ids=["monolith", "closest", "tied-closest", "nobody"],
)
def test_convergence_of_fate_result(packs, end, kind, winner):
    game = _convergence(packs)
    game.ok({"type": "end", **end})
    result = game.summary()["result"]
    assert (result["kind"], result["winner"]) == (kind, winner)


def test_convergence_of_fate_ends_after_round_four_only(packs):
    game = _convergence(packs, rounds=3)
    assert game.rule({"type": "end", "monolith": ANN}) == "end"
    game = _convergence(packs)
    assert game.rule({"type": "end", "monolith": ANN, "closest": [BO]}) == "closest"
    assert game.rule({"type": "end", "tie_break": []}) == "tie_break"


@pytest.mark.parametrize(
    ("vanguard", "reinforcements", "taken"),
    [
        (3, 3, True),  # one vanguard unit per reinforcements unit: at the edge
        (2, 3, False),  # one short
        (["Liberators", "Prosecutors"], ["Lord-Celestant"], True),
        (["Liberators"], ["Liberators"], False),  # a unit in both
        (0, 0, False),
    ],
    ids=["equal", "one-short", "named", "both", "empty"],
)
def test_contingents_need_a_vanguard_unit_per_reinforcements_unit(packs, vanguard, reinforcements, taken):
    game = Treachery(packs[AOS], "convergence-of-fate")
    problem = game.send(
        {"type": "contingents", "player": BO, "vanguard": vanguard, "reinforcements": reinforcements}
    )
    assert (problem is None) is taken, problem
    if taken:
        assert game.summary()["players"][BO]["contingents"] is True
        assert game.summary(BO)["players"][BO]["contingent_units"] == {
            "vanguard": vanguard,
            "reinforcements": reinforcements,
        }
        assert "contingent_units" not in game.summary(ANN)["players"][BO]


def test_named_contingents_are_checked_against_the_attached_roster(packs):
    scenario = packs[AOS].scenario("convergence-of-fate")
    roster = ["Liberators", "Prosecutors", "Lord-Celestant"]
    event = {"type": "contingents", "player": BO, "vanguard": ["Liberators", "Prosecutors"]}
    assert contingent_roster_problems(scenario, {**event, "reinforcements": ["Lord-Celestant"]}, roster) == []
    assert contingent_roster_problems(scenario, {**event, "reinforcements": ["Gryph-hounds"]}, roster) == [
        "Gryph-hounds is not in the attached roster.",
        "Lord-Celestant from the attached roster is in no contingent.",
    ]
    # Counted by hand: nothing to check against the roster.
    assert contingent_roster_problems(scenario, {**event, "vanguard": 2, "reinforcements": 1}, roster) == []


def test_apply_never_changes_the_state_it_is_given(packs):
    game = Treachery(packs[TOW], "altar-of-the-gods")
    game.ok(
        {"type": "battle_round", "round": 1}, {"type": "buy", "round": 1, "player": ANN, "ploy": "caltrops"}
    )
    kept, before = game.state, json.dumps(game.summary(ANN))
    game.ok(
        {"type": "deal", "round": 1, "from": ANN, "to": BO, "cp": 5},
        {"type": "play", "round": 1, "player": ANN, "ploy": "caltrops"},
        {"type": "turn", "round": 1, "player": ANN, "control": {"altar": ANN}},
    )
    assert json.dumps(game.system.summary(kept, ANN)) == before


def test_the_reinforcements_reminder_comes_in_each_players_second_turn(packs):
    game = Treachery(packs[AOS], "convergence-of-fate")
    steps = game.system.next_steps(game.state)["steps"]
    assert "hint" not in steps["turn-1-0"]
    assert all("Reinforcements" in steps[f"turn-2-{i}"]["hint"] for i in (ANN, BO, CY))
    assert "hint" not in steps["turn-3-0"]
    for player in (ANN, BO, CY):
        game.ok({"type": "turn", "round": 1, "player": player})
    assert game.summary()["reminder"].startswith("Reinforcements")


def test_the_aos_phases_carry_their_neutral_rules(packs):
    game = Treachery(packs[AOS], "convergence-of-fate")
    assert [p["id"] for p in game.summary()["phases"]] == [
        "hero",
        "movement",
        "shooting",
        "charge",
        "combat",
        "battleshock",
    ]
    game.ok({"type": "enemy", "round": 1, "player": BO, "phase": "battleshock", "enemy": CY})
    assert game.summary()["enemy"]["neutral"] == [ANN]
    # No ploys or command points in Age of Sigmar's Triumph & Treachery.
    assert game.rule({"type": "buy", "round": 1, "player": ANN, "ploy": "caltrops"}) == "ploy"
    assert game.rule({"type": "deal", "round": 1, "from": ANN, "to": BO, "cp": 1}) == "type"


# --- next steps ---------------------------------------------------------------------------------
def test_next_steps_follow_the_round_and_a_picked_player(packs):
    game = Treachery(packs[TOW], "altar-of-the-gods")
    steps = game.system.next_steps(game.state)
    assert steps["plan"] == ["round-1", "turn-1-0", "turn-1-1", "turn-1-2", "round-2"]
    assert steps["in_play"] == 1
    game.ok(
        {"type": "battle_round", "round": 1},
        {
            "type": "roll_off",
            "round": 1,
            "purpose": "order",
            "rolls": [[ANN, 6], [BO, 1], [CY, 2]],
            "next": CY,
        },
    )
    assert game.system.next_steps(game.state)["plan"] == ["turn-1-2", "turn-1-0", "turn-1-1", "round-2"]
    game.ok({"type": "turn", "round": 1, "player": CY})
    plan = game.system.next_steps(game.state)
    assert plan["plan"] == ["turn-1-0", "turn-1-1", "round-2"]
    assert plan["steps"]["turn-1-0"]["plans"] == {"0": ["turn-1-1", "round-2"], "1": ["turn-1-0", "round-2"]}


def test_facts_and_scoring_lines_come_from_the_scenario(packs):
    pack = packs[TOW]
    system = systems.system_for(pack)
    rain = pack.scenario("rain-of-stars")
    facts = {(f.name, f.event, f.kind) for f in system.facts(pack, rain)}
    assert facts >= {
        ("arrivals", "battle_round", "arrivals"),
        ("control", "turn", "control"),
        ("dice", "turn", "dice"),
    }
    assert ("tie_break", "end", "players") in facts
    assert system.scoring(pack, pack.scenario("relic-of-power"))[:2] == [
        "Destroying a unit: 1 VP per full 100 points it cost, to the destroyer.",
        "End of every turn: VP equal to the battle round to the player controlling the Relic.",
    ]
