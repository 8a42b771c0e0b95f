"""A game played through its game system as the server plays it: each event checked against the
state, then appended to the log; a refused event leaves the game as it was.

The one harness the rules tests of every system stand on (``Table`` for Pitched Battles,
``Play`` for sieges and Tunnel Wars, ``Treachery`` for Triumph & Treachery are thin shapes of
it with the shorthands of their own tests).
"""

from __future__ import annotations

import uuid
from typing import Any

from app.rules import log, systems
from app.rules.game import Setup
from app.rules.pack import Pack
from app.rules.problems import Problem


class Engine:
    """One game of ``setup``, played event by event through the system that plays its scenario."""

    def __init__(self, pack: Pack, setup: Setup, system: str | None = None) -> None:
        self.pack = pack
        self.setup = setup
        self.system = systems.system_for(pack, setup.scenario)
        if system is not None:
            assert self.system.name == system, f"{setup.scenario} is played by {self.system.name}"
        self.log: list[dict[str, Any]] = []
        # The state after the log, kept between events as the server keeps it (no replay per
        # event); folded again from the log should a test change the log itself.
        self._state = self.system.new_game(pack, setup)
        self._folded = 0

    @property
    def game(self) -> Any:
        """The game after every event recorded."""
        if self._folded != len(self.log):
            self._state = log.replay(self.system, self.pack, self.setup, self.log)
            self._folded = len(self.log)
        return self._state

    def answer(self, event: dict[str, Any]) -> Problem | None:
        """Record ``event`` (given a fresh id) if the rules take it; else why they refuse it."""
        body = {"id": str(uuid.uuid4()), **event}
        after, problem = log.apply(self.system, self.game, body, self.log)
        if problem is None:
            self.log.append(body)
            self._state, self._folded = after, len(self.log)
        return problem

    def send(self, event: dict[str, Any]) -> str | None:
        """Record ``event``; return the sentence refusing it (the game unchanged), or ``None``."""
        problem = self.answer(event)
        return problem.message if problem else None

    def record(self, *events: dict[str, Any]) -> Any:
        """Record events the rules must take; the game after them."""
        for event in events:
            problem = self.send(event)
            assert problem is None, (event, problem)
        return self.game

    def refuse(self, event: dict[str, Any]) -> str:
        """An event the rules must refuse: the sentence saying why (the log unchanged)."""
        before = len(self.log)
        problem = self.send(event)
        assert problem is not None, f"expected {event} to be refused"
        assert len(self.log) == before
        return problem

    def rule(self, event: dict[str, Any]) -> str | None:
        """The rule that refuses ``event`` (``None`` if taken; then it is recorded)."""
        problem = self.answer(event)
        return problem.rule if problem else None

    def undo(self, event_id: str | None = None) -> Any:
        """Undo an event (the last one recorded unless named); the game after it."""
        return self.record({"type": "undo", "event": event_id or self.log[-1]["id"]})

    def summary(self, seat: int | None = None) -> dict[str, Any]:
        """What the game system shows of the game, to a seat or to everyone."""
        return self.system.summary(self.game, seat)
