"""Plays a siege or a Tunnel Wars series through its game system, as the server would."""

from __future__ import annotations

import uuid
from typing import Any

from app.rules import log, systems
from app.rules.game import Player, Setup
from app.rules.pack import Pack

PACK = "aos-conquest-unbound"
ANN, BO = 0, 1


class Play:
    """A game of one scenario: each event checked against the state, then appended."""

    def __init__(
        self, pack: Pack, scenario: str, system: str, sides: tuple[str | None, ...] = (None, None)
    ) -> None:
        self.pack = pack
        self.system = systems.system_for(pack, scenario)
        assert self.system.name == system
        self.setup = Setup(PACK, scenario, 2000, (Player("Ann", sides[0]), Player("Bo", sides[1])))
        self.log: list[dict[str, Any]] = []

    @property
    def game(self) -> Any:
        return log.replay(self.system, self.pack, self.setup, self.log)

    def send(self, event: dict[str, Any]) -> str | None:
        event = {"id": str(uuid.uuid4()), **event}
        _after, problem = log.apply(self.system, self.game, event, self.log)
        if problem is None:
            self.log.append(event)
        return problem.message if problem else None

    def ok(self, *events: dict[str, Any]) -> Any:
        for event in events:
            problem = self.send(event)
            assert problem is None, problem
        return self.game

    def refused(self, event: dict[str, Any]) -> str:
        before = len(self.log)
        problem = self.send(event)
        assert problem is not None, f"expected {event} to be refused"
        assert len(self.log) == before
        return problem

    def summary(self, seat: int | None = None) -> dict[str, Any]:
        return self.system.summary(self.game, seat)
