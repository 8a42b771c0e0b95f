"""Seedable dice: single rolls, roll-offs with ties re-rolled, the battleplan and scenario rolls."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from app.rules.pack import Pack
from app.rules.speech import say


def roll(rng: random.Random, sides: int = 6) -> int:
    """One die with that many sides."""
    return rng.randint(1, sides)


@dataclass(frozen=True)
class RollOff:
    """Every round of a roll-off (ties roll again) and the index of the winner."""

    rounds: tuple[tuple[int, ...], ...]
    winner: int


def roll_off(rng: random.Random, players: int = 2, lowest: bool = False) -> RollOff:
    """Each player rolls a D6; the highest wins (the lowest, with ``lowest``); tied leaders roll again."""
    contenders = list(range(players))
    rounds: list[tuple[int, ...]] = []
    pick = min if lowest else max
    while True:
        dice = tuple(roll(rng) if i in contenders else 0 for i in range(players))
        rounds.append(dice)
        best = pick(dice[i] for i in contenders)
        contenders = [i for i in contenders if dice[i] == best]
        if len(contenders) == 1:
            return RollOff(tuple(rounds), contenders[0])


@dataclass(frozen=True)
class BattleplanRoll:
    """The whole battleplan roll: the roll-off, the table roll and the battleplan roll."""

    roll_off: RollOff
    table_roll: int
    table: str
    battleplan_roll: int
    scenario: str


def battleplan_roll(rng: random.Random, pack: Pack) -> BattleplanRoll | None:
    """Roll off; the winner picks the table with a D6, the other player rolls on it.

    Returns ``None`` when the pack has no battleplan tables.
    """
    if pack.battleplan_roll is None:
        return None
    off = roll_off(rng, 2)
    table_die = roll(rng)
    table = next(t for t in pack.battleplan_roll.tables if t.table_roll[0] <= table_die <= t.table_roll[1])
    sides = max(e.roll for e in table.entries)
    plan_die = roll(rng, sides)
    entry = next(e for e in table.entries if e.roll == plan_die)
    return BattleplanRoll(off, table_die, table.id, plan_die, entry.scenario)


@dataclass(frozen=True)
class ScenarioRoll:
    """The scenario roll: every die thrown (a number with no playable scenario is thrown again)."""

    die: int
    rolls: tuple[int, ...]
    scenario: str


def scenario_roll(rng: random.Random, pack: Pack) -> ScenarioRoll | None:
    """Roll the pack's scenario die until it shows the number of a playable scenario.

    Returns ``None`` when the pack has no scenario roll. The pack's check that at least one
    playable scenario is numbered on the die keeps this from rolling for ever.
    """
    if pack.scenario_roll is None:
        return None
    faces = pack.scenario_roll.die
    by_number = {s.number: s for s in pack.scenarios if s.playable and s.number is not None}
    rolls: list[int] = []
    while True:
        rolls.append(roll(rng, faces))
        if rolls[-1] in by_number:
            return ScenarioRoll(faces, tuple(rolls), by_number[rolls[-1]].id)


def roll_events(pack: Pack, rolled: BattleplanRoll | ScenarioRoll) -> list[dict[str, Any]]:
    """The ``roll`` events that keep a battleplan or scenario roll in the game's log."""
    if isinstance(rolled, ScenarioRoll):
        out = []
        for n in rolled.rolls:
            found = next((s for s in pack.scenarios if s.number == n), None)
            # Kept in the log in the words of the phone that rolled, as a purpose typed there is.
            if found is None:
                purpose = say(
                    "Scenario roll: {number}, no scenario {number} (not playable: roll again)", number=n
                )
            elif not found.playable:
                purpose = say(
                    "Scenario roll: {number}, {scenario} (not playable: roll again)",
                    number=n,
                    scenario=found.name,
                )
            else:
                purpose = say("Scenario roll: {number}, {scenario}", number=n, scenario=found.name)
            out.append({"dice": f"d{rolled.die}", "results": [n], "purpose": purpose[:120]})
        return out
    out = []
    for i, both in enumerate(rolled.roll_off.rounds):
        last = i == len(rolled.roll_off.rounds) - 1
        event: dict[str, Any] = {
            "dice": "roll-off",
            "results": list(both),
            "purpose": say("Battleplan roll-off"),
        }
        if last:
            event["winner"] = rolled.roll_off.winner
        out.append(event)
    assert pack.battleplan_roll is not None  # a battleplan roll came from its tables
    table = next(t for t in pack.battleplan_roll.tables if t.id == rolled.table)
    plan = pack.scenario(rolled.scenario)
    out.append(
        {
            "dice": "d6",
            "results": [rolled.table_roll],
            "purpose": say("Battleplan table: {table}", table=table.name)[:120],
        }
    )
    out.append(
        {
            "dice": "d6",
            "results": [rolled.battleplan_roll],
            "purpose": say("Battleplan: {battleplan}", battleplan=plan.name)[:120],
        }
    )
    return out
