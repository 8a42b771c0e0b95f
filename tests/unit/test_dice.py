"""Seedable dice, roll-offs and the battleplan roll."""

from __future__ import annotations

import random

import pytest

from app.rules import dice


class Loaded(random.Random):
    """A die that rolls the given faces in order."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        face = self.faces.pop(0)
        assert a <= face <= b
        return face


def test_roll_off_ties_roll_again():
    off = dice.roll_off(Loaded([4, 4, 2, 5]))
    assert off.rounds == ((4, 4), (2, 5)) and off.winner == 1


def test_roll_off_for_three_players_rerolls_only_the_tied_leaders():
    off = dice.roll_off(Loaded([6, 2, 6, 3, 5]), players=3)
    assert off.rounds == ((6, 2, 6), (3, 0, 5)) and off.winner == 2


def test_battleplan_roll_table_2_on_a_4(ghb):
    # Roll-off 5 v 2: player 0 rolls the table (4 -> table 2); player 1 rolls 2 -> The Vice.
    rolled = dice.battleplan_roll(Loaded([5, 2, 4, 2]), ghb)
    assert (rolled.roll_off.winner, rolled.table, rolled.battleplan_roll, rolled.scenario) == (
        0,
        "table-2",
        2,
        "the-vice",
    )


def test_battleplan_roll_table_1_on_a_3(ghb):
    rolled = dice.battleplan_roll(Loaded([1, 6, 3, 6]), ghb)
    assert (rolled.table, rolled.scenario) == ("table-1", "tectonic-interference")


def test_seeded_rolls_repeat():
    a = [dice.roll(random.Random(7)) for _ in range(1)] + [dice.roll_off(random.Random(7)).winner]
    b = [dice.roll(random.Random(7)) for _ in range(1)] + [dice.roll_off(random.Random(7)).winner]
    assert a == b


# --- First Blood: one D12 picks Scenarios One to Eleven; Twelve is rolled again -------------
@pytest.mark.parametrize(
    ("faces", "rolls", "scenario"),
    [
        ([1], (1,), "meeting-engagement"),  # the lowest face: Scenario One
        ([7], (7,), "tug-of-war"),
        ([11], (11,), "into-the-grinder"),  # the highest playable number
        ([12, 6], (12, 6), "broken-lines"),  # Twelve has no rules: rolled again
        ([12, 12, 3], (12, 12, 3), "shieldwall"),
    ],
)
def test_scenario_roll_reads_the_d12_as_the_scenario_number(packs, faces, rolls, scenario):
    rolled = dice.scenario_roll(Loaded(faces), packs["conquest-first-blood"])
    assert (rolled.die, rolled.rolls, rolled.scenario) == (12, rolls, scenario)


def test_scenario_roll_never_picks_the_opening_scenario_or_twelve(packs):
    pack = packs["conquest-first-blood"]
    picked = {dice.scenario_roll(random.Random(seed), pack).scenario for seed in range(400)}
    numbered = {s.id for s in pack.scenarios if s.playable and s.number}
    assert picked == numbered and len(picked) == 11
    assert dice.scenario_roll(random.Random(1), packs["aos-ghb-2021"]) is None


def test_a_scenario_roll_is_kept_as_one_roll_event_per_die(packs):
    pack = packs["conquest-first-blood"]
    rolled = dice.scenario_roll(Loaded([12, 6]), pack)
    events = dice.roll_events(pack, rolled)
    assert [(e["dice"], e["results"]) for e in events] == [("d12", [12]), ("d12", [6])]
    assert events[0]["purpose"].endswith("(not playable: roll again)")
    assert events[1]["purpose"] == "Scenario roll: 6, Broken Lines"
