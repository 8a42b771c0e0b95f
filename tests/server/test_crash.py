"""Pull the plug on the production server while phones record, ten times: nothing acknowledged is lost.

Several writers record events on a few games through the JSON API, each event with a fresh
UUID. At a random moment the whole server (master and workers) is killed with SIGKILL and
started again on the same SQLite file. A writer whose connection drops keeps its event and
sends it again, with the same id, until the server answers, as a phone's outbox does; now and
then a writer also sends again an event already acknowledged, which must change nothing. At
the end every event the server acknowledged is in the log exactly once, nothing it refused
is, the database passes SQLite's integrity check, and every game replays and shows every
event recorded for it.

MUSTER_CRASH_SEED=<n> makes the same random choices again (the seed is printed); the timing of
the kills against the requests in flight still varies from run to run.
"""

from __future__ import annotations

import http.client
import os
import random
import sqlite3
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests import soak
from tests.server.conftest import ServerProcess, new_game, request
from tests.setups import first_blood, pitched_battle

# Three SIGKILLs in make test, ten in make soak.
KILLS = soak.size(3, 10)
WRITERS = 6


@dataclass
class Game:
    id: str
    token: str
    pack: str
    state: dict[str, Any] | None = None  # the last state a 2xx answer carried


@dataclass
class Ledger:
    """What the writers were told, event by event."""

    acknowledged: dict[str, str] = field(default_factory=dict)  # event id -> game id
    sent: dict[str, dict[str, Any]] = field(default_factory=dict)  # event id -> the event as sent
    refused: dict[str, str] = field(default_factory=dict)  # event id -> the sentence
    replayed_duplicates: int = 0  # resent after a crash, answered "duplicate": it had been recorded
    outbox_replays: int = 0  # acknowledged events sent again on purpose, as an outbox may
    resends: int = 0  # sends that found no server or lost their connection, tried again
    unexpected: list[tuple[int, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _next_event(game: Game, rng: random.Random) -> dict[str, Any]:
    """A dice roll (always accepted), or the game's next turn or Victory Phase as last seen."""
    event: dict[str, Any] = {"id": str(uuid.uuid4())}
    state = game.state
    if state and state.get("next") and rng.random() < 0.35:
        if game.pack == "aos-ghb-2021" and state["next"].get("players"):
            player = state["next"]["players"][0]
            objectives = ["attacker-border", "west", "east", "defender-border"]
            control = {o: rng.choice([0, 1, None]) for o in rng.sample(objectives, 2)}
            return {
                **event,
                "type": "turn",
                "round": state["next"]["round"],
                "player": player,
                "control": control,
            }
        if game.pack == "conquest-first-blood":
            return {
                **event,
                "type": "round",
                "round": state["next"]["round"],
                "control": {},
                "players": [{}, {}],
            }
    dice = rng.choice(["d3", "d6", "2d6", "roll-off"])
    results = [rng.randint(1, 6)] * (2 if dice in ("2d6", "roll-off") else 1)
    if dice == "d3":
        results = [rng.randint(1, 3)]
    return {**event, "type": "roll", "dice": dice, "results": results, "purpose": "Who goes first"}


def _writer(port: int, games: list[Game], ledger: Ledger, stop: threading.Event, seed: int, n: int) -> None:
    rng = random.Random(seed * 100 + n)
    conn: http.client.HTTPConnection | None = None
    by_id = {g.id: g for g in games}
    while not stop.is_set():
        replay = False
        with ledger.lock:
            if ledger.acknowledged and rng.random() < 0.1:
                # An outbox sending again what the server already acknowledged: nothing may change.
                event = ledger.sent[rng.choice(list(ledger.acknowledged))]
                game, replay = by_id[ledger.acknowledged[event["id"]]], True
        if not replay:
            game = rng.choice(games)
            event = _next_event(game, rng)
        while True:  # until the server answers this event, whatever happens to it meanwhile
            if conn is None:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
            try:
                status, answer = request(
                    port,
                    "POST",
                    f"/api/v1/games/{game.id}/events",
                    event,
                    {"X-Edit-Token": game.token},
                    conn=conn,
                )
                break
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = None
                with ledger.lock:
                    ledger.resends += 1
                time.sleep(rng.uniform(0.02, 0.1))
        with ledger.lock:
            if replay:
                ledger.outbox_replays += 1
                if status != 200 or answer.get("status") != "duplicate":
                    ledger.unexpected.append((status, answer))
            elif status in (200, 201):
                ledger.acknowledged[event["id"]] = game.id
                ledger.sent[event["id"]] = event
                ledger.replayed_duplicates += status == 200
                game.state = answer["game"]
            elif status == 422 and isinstance(answer, dict):
                ledger.refused[event["id"]] = answer["error"]
            else:
                ledger.unexpected.append((status, answer))
    if conn is not None:
        conn.close()


@pytest.mark.soak
def test_acknowledged_events_survive_sigkill_of_the_server(tmp_path, capsys):
    seed = int(os.environ.get("MUSTER_CRASH_SEED") or random.SystemRandom().randrange(2**32))
    rng = random.Random(seed)
    with capsys.disabled():
        print(f"\ncrash test: MUSTER_CRASH_SEED={seed}")
    started = time.monotonic()
    server = ServerProcess(tmp_path / "crash.sqlite", tmp_path / "server.log", workers=2)
    server.start()
    games = [
        Game(*new_game(server.port, pitched_battle()), pack="aos-ghb-2021"),
        Game(*new_game(server.port, pitched_battle()), pack="aos-ghb-2021"),
        Game(*new_game(server.port, first_blood()), pack="conquest-first-blood"),
    ]
    ledger = Ledger()
    stop = threading.Event()
    writers = [
        threading.Thread(target=_writer, args=(server.port, games, ledger, stop, seed, n), daemon=True)
        for n in range(WRITERS)
    ]
    for w in writers:
        w.start()
    try:
        acknowledged_at_kill = []
        for _ in range(KILLS):
            # Let the writers get going, then pull the plug at a random moment.
            before = len(ledger.acknowledged)
            deadline = time.monotonic() + 20
            while len(ledger.acknowledged) < before + 5 and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(rng.uniform(0.05, 1.5))
            server.kill()
            acknowledged_at_kill.append(len(ledger.acknowledged))
            time.sleep(rng.uniform(0.0, 0.3))
            server.start()
        time.sleep(0.5)
        stop.set()
        for w in writers:
            w.join(timeout=60)
        assert not any(w.is_alive() for w in writers), "a writer never got an answer"

        # Every game replays and shows every event it acknowledged.
        for game in games:
            status, state = request(server.port, "GET", f"/api/v1/games/{game.id}")
            assert status == 200, state
            mine = [e for e, g in ledger.acknowledged.items() if g == game.id]
            rolls = [e for e in mine if ledger.sent[e]["type"] == "roll"]
            steps = [e for e in mine if ledger.sent[e]["type"] != "roll"]
            assert len(state["rolls"]) == len(rolls)
            if game.pack == "aos-ghb-2021":
                assert sorted(t["event"] for t in state["turns"]) == sorted(steps)
            else:
                assert sorted(r["event"] for r in state["rounds"]) == sorted(steps)
    finally:
        stop.set()
        server.stop()

    assert ledger.unexpected == [], ledger.unexpected[:5]
    assert "Traceback" not in server.log.read_text(errors="replace"), f"the server failed; see {server.log}"
    conn = sqlite3.connect(server.db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = conn.execute("SELECT id, game_id FROM events").fetchall()
    finally:
        conn.close()
    counts = Counter(event_id for event_id, _ in rows)
    assert [e for e, n in counts.items() if n > 1] == [], "an event id is recorded twice"
    recorded = dict(rows)
    lost = [e for e in ledger.acknowledged if e not in recorded]
    assert lost == [], f"{len(lost)} acknowledged events are not in the log"
    assert all(recorded[e] == g for e, g in ledger.acknowledged.items()), "an event moved to another game"
    # Writers send every event until answered, so the log holds exactly what was acknowledged.
    assert set(recorded) == set(ledger.acknowledged)
    assert not set(ledger.refused) & set(recorded), "a refused event is in the log"
    assert all(s.endswith(".") for s in ledger.refused.values())

    took = time.monotonic() - started
    with capsys.disabled():
        print(
            f"crash test: {len(ledger.acknowledged)} events acknowledged and all kept across {KILLS} SIGKILLs "
            f"(acknowledged at each kill: {acknowledged_at_kill}); {ledger.resends} sends found no server "
            f"or lost their connection and were resent, {ledger.replayed_duplicates} of those had been recorded before "
            f"the kill and were answered as duplicates; {ledger.outbox_replays} acknowledged events sent "
            f"again on purpose, each answered as a duplicate; {len(ledger.refused)} refused by the rules; "
            f"{server.starts} starts; {took:.1f} s"
        )
