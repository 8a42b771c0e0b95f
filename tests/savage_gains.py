"""A whole Savage Gains game (Pitched Battles 2021) as a club tool would record it.

Shared by the benchmarks and the tests that need a realistic log: the set-up to POST to
/api/v1/games and the game's events in order, without ids.
"""

from __future__ import annotations

from typing import Any

from tests.setups import pitched_battle

SETUP = pitched_battle("savage-gains")


def game_script() -> list[dict[str, Any]]:
    """A whole Savage Gains game, 17 events without ids: five battle rounds and both ends."""
    tactics = (
        ["broken-ranks", "conquer", "slay-the-warlord", "ferocious-advance", "bring-it-down"],
        ["aggressive-expansion", "monstrous-takeover", "savage-spearhead", "conquer", "broken-ranks"],
    )
    events: list[dict[str, Any]] = []
    for r in range(1, 6):
        first = 0 if r % 2 else 1
        events.append({"type": "battle_round", "round": r, "first": first})
        for player in (first, 1 - first):
            events.append(
                {
                    "type": "turn",
                    "round": r,
                    "player": player,
                    "control": {
                        "attacker-border": 0,
                        "west": r % 2,
                        "east": 1,
                        "defender-border": 1 if r < 4 else 0,
                    },
                    "tactic": tactics[player][r - 1],
                    "tactic_completed": (r + player) % 2 == 0,
                }
            )
    events.append({"type": "end", "player": 0, "grand_strategy_completed": True})
    events.append({"type": "end", "player": 1, "grand_strategy_completed": False})
    return events
