"""What a phone may record next in a multiplayer game, as plain data (docs/offline.md).

The same shape as the other systems' ``next_steps``: ``plan`` (the steps expected, in order),
``in_play`` (the battle round being played) and ``steps``. Steps are ``round-R`` (round R
starts: purchases and arriving objectives), ``turn-R-P`` (player P's turn in round R),
``end`` and ``over``. Nobody has to record roll-offs or enemy picks, so every waiting
player's turn is a step of the round; the turn form asks whose turn it is (``choice``) until
a roll-off or an enemy pick names the player. A step may carry a ``hint`` for the player
(Convergence of Fate: the reinforcements arrive at the end of their second movement phase).
"""

from __future__ import annotations

from typing import Any

from app.rules.speech import say
from app.rules.systems.treachery.allowed import open_entries
from app.rules.systems.treachery.state import TreacheryGame

OVER = "over"


def reminder(game: TreacheryGame, round_: int) -> str | None:
    """What a player is reminded of during their turn in that round, if anything."""
    if round_ == game.scenario.reinforcements_after_movement:
        return say(
            "Reinforcements: at the end of your movement phase set up your reinforcements contingent "
            'wholly within your territory and 6" of the edge, more than 9" from every enemy unit.'
        )
    return None


def _after_round(game: TreacheryGame, round_: int) -> list[str]:
    return [f"round-{round_ + 1}"] if round_ < game.last_round else ["end", OVER]


def next_steps(game: TreacheryGame) -> dict[str, Any]:
    """The steps a phone may record next (see the module's docstring), built on
    :func:`~.allowed.open_entries` (the table's): what is open now is the plan's first step."""
    if game.finished:
        return {"plan": [OVER], "in_play": None, "steps": {OVER: {}}}
    current = game.current_round
    last = game.last_round
    steps: dict[str, dict[str, Any]] = {}
    for r in range(min(current, last + 1), last + 1):
        if r not in game.rounds and (r > current or not game.turns_in(r)):
            steps[f"round-{r}"] = {"in_play": r}
        done = {t.player for t in game.turns_in(r)}
        for i in range(game.player_count):
            if i not in done:
                step: dict[str, Any] = {"in_play": r}
                if hint := reminder(game, r):
                    step["hint"] = hint
                steps[f"turn-{r}-{i}"] = step
    steps.update({"end": {"in_play": None}, OVER: {}})
    entries = open_entries(game, None)
    turn = entries["turn"]
    if not turn["open"]:
        return {"plan": ["end", OVER], "in_play": None, "steps": steps}
    waiting = turn["players"]
    first = [f"round-{current}"] if entries["battle_round"]["open"] else []
    if turn["first"] is not None:
        order = [turn["first"]] + [i for i in waiting if i != turn["first"]]
        plan = first + [f"turn-{current}-{i}" for i in order] + _after_round(game, current)
    else:
        plan = first + [f"turn-{current}-{i}" for i in waiting] + _after_round(game, current)
        if len(waiting) > 1:
            # Nobody named the next player: the turn form asks whose turn it is.
            steps[f"turn-{current}-{waiting[0]}"] = {
                **steps[f"turn-{current}-{waiting[0]}"],
                "choice": "player",
                "plans": {
                    str(i): [f"turn-{current}-{j}" for j in [i, *[w for w in waiting if w != i]]][1:]
                    + _after_round(game, current)
                    for i in waiting
                },
            }
    return {"plan": plan, "in_play": current, "steps": steps}
