"""A table of Triumph & Treachery players for the rules tests: send events, read the state.

Ann, Bo, Cy (and Di, Ed, Flo when more sit down) play; each event is checked by the log and
appended as the server would (tests/engine.py), the state kept between events.
"""

from __future__ import annotations

from typing import Any

from app.rules.game import Player, Setup
from app.rules.pack import Pack
from tests.engine import Engine

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")
ANN, BO, CY, DI = 0, 1, 2, 3


class Treachery(Engine):
    """A game of a Triumph & Treachery scenario, played event by event."""

    def __init__(self, pack: Pack, scenario: str, players: int = 3) -> None:
        super().__init__(pack, Setup(pack.id, scenario, 2000, tuple(Player(n) for n in NAMES[:players])))

    @property
    def state(self) -> Any:
        """The game after every event recorded (its tests' name for it)."""
        return self.game

    def ok(self, *events: dict[str, Any]) -> None:
        """Record events the rules must take."""
        self.record(*events)

    def vp(self) -> list[int]:
        return [self.game.vp(i) for i in range(self.game.player_count)]

    def quiet_round(self, round_: int, order: tuple[int, ...] | None = None, **turn: Any) -> None:
        """A battle round in which every player takes their turn and nobody scores."""
        self.ok({"type": "battle_round", "round": round_})
        for player in order or range(self.game.player_count):
            self.ok({"type": "turn", "round": round_, "player": player, **turn})
