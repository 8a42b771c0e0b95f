"""Plays a siege or a Tunnel Wars series through its game system, as the server would."""

from __future__ import annotations

from app.rules.game import Player, Setup
from app.rules.pack import Pack
from tests.engine import Engine

PACK = "aos-conquest-unbound"
ANN, BO = 0, 1


class Play(Engine):
    """A game of one scenario played by ``system``: Ann and Bo, on the sides given."""

    def __init__(
        self, pack: Pack, scenario: str, system: str, sides: tuple[str | None, ...] = (None, None)
    ) -> None:
        super().__init__(
            pack, Setup(PACK, scenario, 2000, (Player("Ann", sides[0]), Player("Bo", sides[1]))), system
        )

    # The names its tests use.
    ok = Engine.record
    refused = Engine.refuse
