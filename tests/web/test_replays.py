"""Kept game states (app/services/replays.py) never show a player anything but what the log says.

Two apps on one SQLite file stand for two server processes, each keeping its own states:
events are recorded through either of them in turn, with undos, refusals and replays of an
id among them, and after every entry both apps and a third that keeps nothing (a cold
start) must describe the game identically.
"""

from __future__ import annotations

import random
import uuid
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from app import create_app
from app.rules import log
from app.rules.game import parse_setup
from app.rules.pack import Pack
from app.rules.systems import system_for
from app.services.replays import GAME_WEIGHT, IDLE_SECONDS, Replays
from tests.savage_gains import SETUP, game_script
from tests.setups import first_blood_game, new_game
from tests.web.conftest import Api
from tests.web.games_played import SCRIPTS


def _app(db: Path) -> Flask:
    return create_app({"DATABASE": str(db), "TESTING": True, "SECRET_KEY": "test"})


def _aos_script() -> list[dict[str, Any]]:
    """Savage Gains, three battle rounds: each round, then both players' turns."""
    return game_script()[:9]


def _first_blood_script() -> list[dict[str, Any]]:
    phases = SCRIPTS["twin-contested-zones"][0]
    return [
        {"type": "round", "round": r, "control": control, "players": [ann, bo]}
        for r, (control, ann, bo) in enumerate(phases, start=1)
    ]


@pytest.mark.parametrize("kind", ["aos", "first-blood"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_processes_keeping_states_agree_with_a_cold_replay(tmp_path: Path, kind: str, seed: int) -> None:
    db = tmp_path / "muster.sqlite"
    first, second, cold = _app(db), _app(db), _app(db)
    clients = [first.test_client(), second.test_client()]
    if kind == "aos":
        made, script = new_game(clients[0]), _aos_script()
    else:
        made = first_blood_game(clients[0], "twin-contested-zones")
        script = _first_blood_script()
    rng = random.Random(seed)
    last_id: str | None = None
    step = 0
    while step < len(script):
        api = Api(rng.choice(clients), made)
        roll = rng.random()
        if roll < 0.15 and last_id is not None:
            # Undo the last entry, then it has to be recorded again.
            answer = api.post({"type": "undo", "event": last_id})
            assert answer.status_code == 201, answer.json
            last_id = None
            step -= 1
        elif roll < 0.25 and last_id is not None:
            # The phone sends its last entry again (a replayed outbox): nothing changes.
            answer = api.client.post(
                f"/api/v1/games/{api.id}/events",
                json={"id": last_id, **script[step - 1]},
                headers={"X-Edit-Token": api.token},
            )
            assert answer.status_code == 200 and answer.json["status"] == "duplicate"
        elif roll < 0.35:
            # An entry out of turn is refused and changes nothing.
            answer = api.post(script[-1] if step < len(script) - 1 else script[0])
            assert answer.status_code == 422
        else:
            event_id = str(uuid.uuid4())
            answer = api.post({"id": event_id, **script[step]})
            assert answer.status_code == 201, answer.json
            last_id = event_id
            step += 1
        views = [c.get(f"/api/v1/games/{made['id']}").json for c in (*clients, cold.test_client())]
        assert views[0] == views[2] and views[1] == views[2], f"after step {step} (roll {roll:.2f})"
    final = cold.test_client().get(f"/api/v1/games/{made['id']}").json
    assert len(final["rounds" if kind == "first-blood" else "turns"]) >= 3
    # The states were reused, not silently replayed every time.
    assert first.extensions["muster.replays"].hits + second.extensions["muster.replays"].hits > len(script)


def test_a_kept_state_is_not_used_for_a_different_log(tmp_path: Path) -> None:
    """A database restored under a running server: the same game id with another history."""
    db = tmp_path / "muster.sqlite"
    app = _app(db)
    client = app.test_client()
    made = new_game(client)
    api = Api(client, made)
    api.ok(_aos_script()[0])
    api.ok(_aos_script()[1])
    assert client.get(f"/api/v1/games/{made['id']}").json["players"][0]["vp"] > 0
    exported = client.get(f"/api/v1/games/{made['id']}/export").json
    # Another database holding the same game, as long, but whose first turn held nothing.
    other = tmp_path / "other.sqlite"
    exported["events"][1] = {"id": str(uuid.uuid4()), "type": "turn", "round": 1, "player": 0, "control": {}}
    other_app = _app(other)
    assert other_app.test_client().post("/api/v1/games/import", json=exported).status_code == 201
    app.config["DATABASE"] = str(other)
    game = client.get(f"/api/v1/games/{made['id']}").json
    assert len(game["turns"]) == 1 and game["players"][0]["vp"] == 0


@pytest.mark.parametrize("kind", ["aos", "first-blood"])
def test_a_state_kept_for_one_language_is_never_read_in_another(tmp_path: Path, kind: str) -> None:
    """A fold says sentences (a rule's line of the score, a result's reason) in the reader's
    language: the phone reading after a German one gets its own language, as a cold read does."""
    db = tmp_path / "muster.sqlite"
    warm, cold = _app(db), _app(db)
    client = warm.test_client()
    if kind == "aos":
        made, script = new_game(client), game_script()
    else:
        made, script = first_blood_game(client, "twin-contested-zones"), _first_blood_script()
    api = Api(client, made)
    url = f"/api/v1/games/{made['id']}"
    for event in script:
        api.ok(event)
        for first, then in (("de", "en"), ("fr", "de")):
            client.get(url, headers={"Accept-Language": first})
            kept = client.get(url, headers={"Accept-Language": then}).json
            fresh = _app(db).test_client().get(url, headers={"Accept-Language": then}).json
            assert kept == fresh, f"{then} after {first}, {event['type']}"
    english = cold.test_client().get(url).json
    assert english["result"] is not None  # the whole game was played, its result said


def _logs(games: int, length: int) -> list[list[dict[str, Any]]]:
    return [[{"id": str(uuid.uuid4()), **e} for e in game_script()[:length]] for _ in range(games)]


def test_a_tournaments_games_stay_kept_and_long_games_count_by_their_events(packs: dict[str, Pack]) -> None:
    """Each kept game is brought up to date by the events recorded since, not replayed: 500
    half-played games all stay kept at the default bound, and a long game takes the room of
    several short ones (the bound is on memory, which grows with the events folded)."""
    setup, _ = parse_setup(SETUP, packs)
    assert setup is not None
    pack = packs[setup.pack]
    system = system_for(pack, setup.scenario)
    replays = Replays()
    tournament = _logs(500, 9)
    for i, events in enumerate(tournament):
        replays.state(f"t{i}", system, pack, setup, events)
    for i, events in enumerate(tournament):
        replays.state(f"t{i}", system, pack, setup, events)
    assert (replays.hits, replays.misses) == (500, 500)

    small = Replays(size=10 * (2 + GAME_WEIGHT))  # room for ten games of two events
    short = _logs(10, 2)
    for i, events in enumerate(short):
        small.state(f"s{i}", system, pack, setup, events)
    whole = _logs(1, 17)[0]
    small.state("long", system, pack, setup, whole)  # takes the room of the four oldest
    small.hits = small.misses = 0
    for i in (4, 9):
        small.state(f"s{i}", system, pack, setup, short[i])
    small.state("long", system, pack, setup, whole)
    assert (small.hits, small.misses) == (3, 0)
    small.state("s3", system, pack, setup, short[3])
    assert small.misses == 1
    assert small.state("s3", system, pack, setup, short[3]).vp(0) == log.replay(
        system, pack, setup, short[3]
    ).vp(0)


def test_a_game_nobody_asked_about_for_hours_is_let_go_and_replayed_when_asked(
    packs: dict[str, Pack],
) -> None:
    setup, _ = parse_setup(SETUP, packs)
    assert setup is not None
    pack = packs[setup.pack]
    system = system_for(pack, setup.scenario)
    now = [0.0]
    replays = Replays(clock=lambda: now[0])
    last_night, read_again, tonight = _logs(3, 3)
    replays.state("last night", system, pack, setup, last_night)
    replays.state("read again", system, pack, setup, read_again)
    now[0] = IDLE_SECONDS - 60
    replays.state("read again", system, pack, setup, read_again)  # a phone looked at it
    now[0] = IDLE_SECONDS + 60
    replays.state("tonight", system, pack, setup, tonight)
    replays.hits = replays.misses = 0
    replays.state("read again", system, pack, setup, read_again)
    assert (replays.hits, replays.misses) == (1, 0)
    kept = replays.state("last night", system, pack, setup, last_night)
    assert replays.misses == 1
    assert kept.vp(0) == log.replay(system, pack, setup, last_night).vp(0)


def test_a_backup_restored_under_a_running_server_then_written_by_another_is_read_afresh(
    tmp_path: Path,
) -> None:
    """A worker keeps a game two entries long; the database goes back to a backup holding
    one, and another worker records a different second entry: the log is as long as the kept
    one again and its last event takes the same seq. Every worker must show the new entry."""
    from app.store import Store

    db = tmp_path / "muster.sqlite"
    first, second, cold = _app(db), _app(db), _app(db)
    client = first.test_client()
    made = new_game(client)
    url = f"/api/v1/games/{made['id']}"
    Api(client, made).ok(_aos_script()[0])
    store = Store(db)
    try:
        store.backups.backup(tmp_path / "night.sqlite")
        scored = Api(client, made).ok(_aos_script()[1])
        assert scored["players"][0]["vp"] > 0 and len(scored["turns"]) == 1
        store.backups.restore(tmp_path / "night.sqlite")
    finally:
        store.close()
    # Bo's phone, served by the other worker, records Ann's turn again: this time she scored nothing.
    nothing = {"type": "turn", "round": 1, "player": 0, "control": {}}
    assert Api(second.test_client(), made).ok(nothing)["players"][0]["vp"] == 0
    fresh = cold.test_client().get(url).json
    assert client.get(url).json == fresh
    # The next entry through the first worker is judged against that log, not the one it kept.
    after = Api(client, made).ok(_aos_script()[2])
    assert after["players"][0]["vp"] == 0 and len(after["turns"]) == 2
    assert client.get(url).json == cold.test_client().get(url).json == second.test_client().get(url).json


def test_an_event_judged_against_a_kept_log_is_judged_again_when_the_log_changed_meanwhile(
    tmp_path: Path,
) -> None:
    """The store inserts an event judged against a kept log only while the log is still at the
    version that log was kept at; otherwise the event is judged again against the stored log."""
    from app.store import Store

    db = tmp_path / "muster.sqlite"
    client = _app(db).test_client()
    made = new_game(client)
    Api(client, made).ok(_aos_script()[0])
    store = Store(db)
    try:
        kept, version = store.games.versioned_events(made["id"])
        assert version is not None and len(kept) == 1
        judged: list[int] = []

        def refuse(events: list[dict[str, Any]]) -> str | None:
            judged.append(len(events))
            return None if events is kept else "judged again"

        # Another worker changed the log since (a restore and another entry, say): same length.
        store.connection.db.execute("UPDATE games SET log_version = 'elsewhere' WHERE id = ?", [made["id"]])
        event = {"id": str(uuid.uuid4()), **_aos_script()[1]}
        answer = store.games.append(made["id"], event, refuse, seen=kept, version=version)
        assert answer.status == "refused" and answer.error == "judged again" and judged == [1, 1]
        assert len(store.games.events(made["id"])) == 1
        # At the version it was kept at, the event goes in judged once, and the version moves on.
        _, now = store.games.versioned_events(made["id"])
        judged.clear()
        answer = store.games.append(made["id"], event, refuse, seen=kept, version=now)
        assert answer.status == "recorded" and judged == [1]
        assert (
            answer.version not in (None, now)
            and store.games.versioned_events(made["id"])[1] == answer.version
        )
    finally:
        store.close()
