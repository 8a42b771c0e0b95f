"""Each system's ``entries`` (issue 28, item 3): the entry of ``open_entries`` an event type
belongs to, which the log refuses the event from while it is closed."""

from __future__ import annotations

import uuid

from app.rules import log, systems
from app.rules.game import Player, Setup


def _new(packs, system_name: str):
    """A new game of the first pack scenario ``system_name`` plays, with two players."""
    for pack in packs.values():
        for scenario in pack.scenarios:
            system = systems.system_for(pack, scenario)
            if system.name == system_name:
                players = (Player("Ann", side="attacker"), Player("Bo", side="defender"))
                return system, system.new_game(pack, Setup(pack.id, scenario.id, 2000, players))
    raise AssertionError(system_name)


def test_every_entry_named_is_an_event_type_of_the_system_and_an_entry_it_answers(packs):
    for name in ("turns", "rounds", "siege", "tunnels", "treachery"):
        system, state = _new(packs, name)
        answered = system.open_entries(state, None)
        assert system.entries, name
        for kind, key in system.entries.items():
            assert kind in system.event_types, (name, kind)
            assert key in answered and "open" in answered[key], (name, key)


def test_the_log_refuses_an_event_of_a_closed_entry_with_its_sentence_and_leaves_the_state(packs):
    system, state = _new(packs, "siege")
    closed = system.open_entries(state, None)["batter"]
    assert closed["open"] is False
    event = {"id": str(uuid.uuid4()), "type": "batter", "features": []}
    after, problem = log.apply(system, state, event)
    assert after is state and problem is not None
    assert (
        problem.message
        == closed["refusal"]
        == "The batter rolls must wait until both siege tactics are picked."
    )
