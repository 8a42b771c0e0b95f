"""The game-system registry and the event log every system shares."""

from __future__ import annotations

import copy
import pkgutil
import subprocess
import sys
import uuid

from app.rules import log, systems
from app.web import systems as web_systems
from tests.conftest import ROOT, replay
from tests.savage_gains import game_script
from tests.setups import first_blood_setup, pitched_battle_setup


def test_every_system_package_is_registered_with_its_web_side(packs):
    found = sorted(m.name for m in pkgutil.iter_modules(systems.__path__))
    assert systems.names() == found == ["rounds", "siege", "treachery", "tunnels", "turns"]
    for pack in packs.values():
        system = systems.system_for(pack)
        assert system.name == pack.system
        assert web_systems.web_system_for(pack).name == system.name


def test_the_server_can_load_every_web_side_before_its_workers_fork():
    """`serve` imports each system's web side in the master, so no worker's first game page or
    print waits for it: in a fresh process, nothing is registered until it asks."""
    code = (
        "from app.rules import systems; from app.web import systems as w; "
        "before = sorted(w.REGISTRY); w.load_all(); print(before, sorted(w.REGISTRY) == systems.names())"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert ran.stdout.strip() == "[] True"


def test_apply_never_changes_the_state_it_is_given(packs):
    # Savage Gains after the first battle round starts: Ann's turn is applied to a kept
    # state, as two phones' requests would read it at once.
    pack = packs["aos-ghb-2021"]
    setup = pitched_battle_setup("savage-gains")
    events = [{"id": str(uuid.uuid4()), **e} for e in game_script()[:1]]
    kept = replay(pack, setup, events)
    system = systems.system_for(pack)
    before = copy.deepcopy(system.summary(kept))
    turn = {"id": str(uuid.uuid4()), **game_script()[1]}
    after, problem = log.apply(system, kept, turn, events)
    assert problem is None and after is not kept
    assert system.summary(kept) == before and kept.effective == [events[0]["id"]]
    assert len(system.summary(after)["turns"]) == 1
    # A refused event leaves it as it was too, and says why.
    same, problem = log.apply(system, kept, {**turn, "id": str(uuid.uuid4()), "round": 3}, events)
    assert same is kept and problem is not None and problem.message
    assert system.summary(kept) == before
    # An undo is replayed from the log: the turn is gone again.
    undo = {"id": str(uuid.uuid4()), "type": "undo", "event": turn["id"]}
    undone, problem = log.apply(system, after, undo, [*events, turn])
    assert problem is None and system.summary(undone)["turns"] == []


def test_the_log_is_the_same_for_both_systems(packs):
    pack = packs["conquest-first-blood"]
    system = systems.system_for(pack)
    state = system.new_game(pack, first_blood_setup("outflank"))
    phase = {"type": "round", "round": 1, "control": {}, "players": [{}, {}]}
    for bad, sentence in (
        ({"type": "round"}, "id must be a UUID"),
        ({"id": str(uuid.uuid4()), "type": "turn"}, "type must be one of round, roll, undo."),
        ({"id": str(uuid.uuid4()), "type": "undo", "event": "x"}, "There is nothing to undo."),
    ):
        assert log.apply(system, state, bad)[1].message.startswith(sentence)
    after, problem = log.apply(system, state, {"id": str(uuid.uuid4()), **phase})
    assert problem is None and [p.vp for p in after.phases[0].players] == [0, 0]


def test_open_entries_follow_the_log_for_turns_and_rounds(packs):
    # Pitched Battles: the round start is open, and once it is in, only the first player's
    # turn; the last entry is taken back from any phone (no seats).
    pack = packs["aos-ghb-2021"]
    setup = pitched_battle_setup("savage-gains")
    system = systems.system_for(pack)
    start = system.open_entries(replay(pack, setup, []), None)
    assert start["battle_round"] == {"open": True, "why": None, "round": 1}
    assert start["undo"] == {"open": False, "why": None, "theirs": False}
    events = [{"id": str(uuid.uuid4()), **e} for e in game_script()[:1]]  # Ann goes first
    now = system.open_entries(replay(pack, setup, events), 1)
    assert now["battle_round"]["open"] is False
    assert now["battle_round"]["why"].startswith("Battle round 1 has already been started")
    assert now["turn"] == {"open": True, "why": None, "round": 1, "players": [0]}
    assert now["end"]["open"] is False and now["end"]["players"] == [0, 1]
    assert now["undo"] == {"open": True, "why": None, "theirs": False}
    # First Blood: the Victory Phase of the round now played, and the markers each may attack.
    fb = packs["conquest-first-blood"]
    rounds = systems.system_for(fb)
    phase = rounds.open_entries(rounds.new_game(fb, first_blood_setup("outflank")), None)["round"]
    assert phase["open"] is True and phase["round"] == 1 and phase["slain"] == []
    assert set(phase["attackable"]) == {0, 1} and phase["seizable"]
