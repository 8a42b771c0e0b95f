"""Battle rounds of player turns (app/rules/battle_rounds.py), as Pitched Battles, sieges and
Triumph & Treachery share them: a round ends when every player has had a turn in it."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from app.rules import battle_rounds


@dataclass(frozen=True)
class T:
    round: int
    player: int


def turns(*pairs: tuple[int, int]) -> list[T]:
    return [T(r, p) for r, p in pairs]


@pytest.mark.parametrize(
    ("played", "players", "current"),
    [
        ((), 2, 1),
        (((1, 0),), 2, 1),  # one turn short of the round's end
        (((1, 0), (1, 1)), 2, 2),  # the last turn of round 1 ends it
        (((1, 1), (1, 0), (2, 0)), 2, 2),
        (((1, 0), (1, 1)), 3, 1),  # three players: the third has yet to play
        (((1, 0), (1, 2), (1, 1)), 3, 2),
    ],
    ids=["none", "1-of-2", "2-of-2", "round-2-begun", "2-of-3", "3-of-3"],
)
def test_the_round_being_played_is_the_first_not_every_player_has_played(played, players, current):
    assert battle_rounds.current_round(turns(*played), players) == current


@pytest.mark.parametrize(
    ("played", "first", "expected"),
    [
        ((), None, [0, 1, 2]),
        ((), 2, [2]),  # the first player named goes first
        (((1, 2),), 2, [0, 1]),  # once they have, everyone still waiting
        (((1, 0),), None, [1, 2]),
    ],
    ids=["open", "named-first", "after-first", "one-played"],
)
def test_the_next_turn_is_the_named_first_players_then_anyone_waiting(played, first, expected):
    assert battle_rounds.next_players(turns(*played), 1, 3, first) == expected


def test_everyone_in_needs_an_entry_from_each_player():
    assert battle_rounds.everyone_in(turns((1, 0), (1, 1)), 2)
    assert not battle_rounds.everyone_in(turns((1, 1), (2, 1)), 2)
    assert battle_rounds.within(turns((1, 0), (2, 1), (1, 1)), 1) == turns((1, 0), (1, 1))
