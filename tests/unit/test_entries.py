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


def test_one_entry_alone_is_the_same_as_in_the_whole_answer_through_a_whole_game(packs):
    """The log asks one entry alone (``one_entry``) before each event: every entry of every
    system, at every step of a whole Savage Gains game and a new game of each system, is the
    one the screens read from ``open_entries``."""
    from tests.savage_gains import SETUP, game_script

    pack = packs[SETUP["pack"]]
    setup = Setup(
        pack.id,
        SETUP["scenario"],
        SETUP["points_limit"],
        tuple(
            Player(p["name"], side=p.get("side"), grand_strategy=p.get("grand_strategy"))
            for p in SETUP["players"]
        ),
    )
    system = systems.system_for(pack, SETUP["scenario"])
    states = [system.new_game(pack, setup)]
    for event in game_script():
        after, problem = log.apply(system, states[-1], {"id": str(uuid.uuid4()), **event})
        assert problem is None, problem
        states.append(after)
    assert states[-1].finished
    states += [_new(packs, name)[1] for name in ("rounds", "siege", "tunnels", "treachery")]
    for state in states:
        system = systems.system_for(state.pack, state.setup.scenario)
        for seat in (None, 0, 1):
            whole = system.open_entries(state, seat)
            for key in {*whole, *system.entries.values()}:
                assert system.one_entry(state, seat, key) == whole.get(key), (system.name, key, seat)
