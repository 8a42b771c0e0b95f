"""A table of Triumph & Treachery players for the rules tests: send events, read the state.

Ann, Bo, Cy (and Di, Ed, Flo when more sit down) play; each event is checked by the log and
appended as the server would, the state kept between events (no replay per event: fast).
"""

from __future__ import annotations

import uuid
from typing import Any

from app.rules import log, systems
from app.rules.game import Player, Setup
from app.rules.pack import Pack

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")
ANN, BO, CY, DI = 0, 1, 2, 3


class Treachery:
    """A game of a Triumph & Treachery scenario, played event by event."""

    def __init__(self, pack: Pack, scenario: str, players: int = 3) -> None:
        self.pack = pack
        self.setup = Setup(pack.id, scenario, 2000, tuple(Player(n) for n in NAMES[:players]))
        self.system = systems.system_for(pack, scenario)
        self.state = self.system.new_game(pack, self.setup)
        self.log: list[dict[str, Any]] = []

    def send(self, event: dict[str, Any]) -> str | None:
        """Record ``event``; return why the rules refuse it (the game unchanged), or ``None``."""
        body = {"id": str(uuid.uuid4()), **event}
        after, problem = log.apply(self.system, self.state, body, self.log)
        if problem is not None:
            return problem.message
        self.state = after
        self.log.append(body)
        return None

    def ok(self, *events: dict[str, Any]) -> None:
        """Record events the rules must take."""
        for event in events:
            problem = self.send(event)
            assert problem is None, (event, problem)

    def rule(self, event: dict[str, Any]) -> str | None:
        """The rule that refuses ``event`` (``None`` if taken; then it is recorded)."""
        body = {"id": str(uuid.uuid4()), **event}
        after, problem = log.apply(self.system, self.state, body, self.log)
        if problem is None:
            self.state = after
            self.log.append(body)
            return None
        return problem.rule

    def summary(self, seat: int | None = None) -> dict[str, Any]:
        return self.system.summary(self.state, seat)

    def vp(self) -> list[int]:
        return [self.state.vp(i) for i in range(self.state.player_count)]

    def quiet_round(self, round_: int, order: tuple[int, ...] | None = None, **turn: Any) -> None:
        """A battle round in which every player takes their turn and nobody scores."""
        self.ok({"type": "battle_round", "round": round_})
        for player in order or range(self.state.player_count):
            self.ok({"type": "turn", "round": round_, "player": player, **turn})
