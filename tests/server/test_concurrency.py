"""Two phones recording on one game at the same moment, against the production server.

Each round, both phones are released together (a barrier) and POST at once on their own
keep-alive connections; the server (two gunicorn workers, SQLite on a real file) judges each
event against the log inside its write lock. Nothing accepted is lost, events that do not
conflict are both kept, the same event sent twice is kept once, and of two entries for the
same turn or Victory Phase one is refused with a sentence saying why. The raced game must
end exactly as a game that received only the accepted events, one by one.
"""

from __future__ import annotations

import http.client
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import ServerProcess, new_game, request
from tests.setups import first_blood, pitched_battle

Answer = tuple[int, Any]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("concurrency")
    proc = ServerProcess(folder / "muster.sqlite", folder / "server.log", workers=2)
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


class Phone:
    """One phone: its own keep-alive connection, recording with the game's edit token."""

    def __init__(self, port: int, game: tuple[str, str]) -> None:
        self.port = port
        self.game_id, self.token = game
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def post(self, event: dict[str, Any]) -> Answer:
        return request(
            self.port,
            "POST",
            f"/api/v1/games/{self.game_id}/events",
            event,
            {"X-Edit-Token": self.token},
            conn=self.conn,
        )

    def close(self) -> None:
        self.conn.close()


def race(a: Phone, b: Phone, event_a: dict[str, Any], event_b: dict[str, Any]) -> tuple[Answer, Answer]:
    """Both phones POST at the same moment; their answers."""
    gate = threading.Barrier(2)
    answers: list[Answer | None] = [None, None]

    def send(i: int, phone: Phone, event: dict[str, Any]) -> None:
        gate.wait()
        answers[i] = phone.post(event)

    threads = [
        threading.Thread(target=send, args=(0, a, event_a)),
        threading.Thread(target=send, args=(1, b, event_b)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert answers[0] is not None and answers[1] is not None
    return answers[0], answers[1]


def phones(port: int, setup: dict[str, Any]) -> tuple[Phone, Phone, tuple[str, str]]:
    game = new_game(port, setup)
    return Phone(port, game), Phone(port, game), game


def event_log(port: int, game_id: str) -> list[str]:
    status, events = request(port, "GET", f"/api/v1/games/{game_id}/events")
    assert status == 200
    return [e["id"] for e in events]


def state(port: int, game_id: str) -> dict[str, Any]:
    status, answer = request(port, "GET", f"/api/v1/games/{game_id}")
    assert status == 200, answer
    return answer


def replayed_alone(port: int, setup: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """The state of a new game that received only these events, one after the other."""
    game_id, token = new_game(port, setup)
    new_ids: dict[str, str] = {}
    for event in events:
        new_ids[event["id"]] = str(uuid.uuid4())
        copy = {**event, "id": new_ids[event["id"]]}
        if copy["type"] == "undo":
            copy["event"] = new_ids[copy["event"]]
        status, answer = request(
            port, "POST", f"/api/v1/games/{game_id}/events", copy, {"X-Edit-Token": token}
        )
        assert status == 201, answer
    return state(port, game_id)


def scores(game: dict[str, Any]) -> Any:
    """What the players see of a game: VP, status, result, and each turn's or phase's VP."""
    if "turns" in game:  # Age of Sigmar: player turns
        steps = game["turns"]
    else:  # First Blood: one Victory Phase per round
        steps = [{"round": r["round"], "players": [p["vp"] for p in r["players"]]} for r in game["rounds"]]
    return (
        [p["vp"] for p in game["players"]],
        game["status"],
        game["result"],
        [(s["round"], s.get("player"), s.get("vp"), s.get("players")) for s in steps],
    )


def one_accepted(first: Answer, second: Answer, because: str = "already") -> tuple[int, Answer]:
    """Which of two racing answers was accepted; the other must be a 4xx with a plain sentence."""
    statuses = sorted([first[0], second[0]])
    assert statuses[0] == 201 and statuses[1] in (409, 422), (first, second)
    winner = 0 if first[0] == 201 else 1
    refused = second if winner == 0 else first
    sentence = refused[1]["error"]
    assert isinstance(sentence, str) and len(sentence.split()) >= 5 and sentence.endswith("."), sentence
    assert because in sentence, sentence
    return winner, refused


def aos_steps() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """A whole game as two phones see it: each step recorded differently by each phone."""
    steps = []
    for r in range(1, 6):
        first = 0 if r % 2 else 1
        steps.append(
            (
                {"type": "battle_round", "round": r, "first": first},
                {"type": "battle_round", "round": r, "first": first},
            )
        )
        for player in (first, 1 - first):
            steps.append(
                (
                    {"type": "turn", "round": r, "player": player, "control": {"west": player, "east": 0}},
                    {"type": "turn", "round": r, "player": player, "control": {"west": 1 - player}},
                )
            )
    steps.append(
        (
            {"type": "end", "player": 0, "grand_strategy_completed": True},
            {"type": "end", "player": 0, "grand_strategy_completed": False},
        )
    )
    steps.append(
        (
            {"type": "end", "player": 1, "grand_strategy_completed": False},
            {"type": "end", "player": 1, "grand_strategy_completed": True},
        )
    )
    return steps


def _race_a_whole_game(port: int) -> list[str]:
    """Two phones record every step of a game at once, then both undo the last entry at once."""
    a, b, game = phones(port, pitched_battle())
    accepted: list[dict[str, Any]] = []
    refusals = []
    try:
        for step_a, step_b in aos_steps():
            event_a = {"id": str(uuid.uuid4()), **step_a}
            event_b = {"id": str(uuid.uuid4()), **step_b}
            winner, refused = one_accepted(*race(a, b, event_a, event_b))
            refusals.append(refused[1]["error"])
            accepted.append(event_a if winner == 0 else event_b)
        undo_a = {"id": str(uuid.uuid4()), "type": "undo", "event": accepted[-1]["id"]}
        undo_b = {"id": str(uuid.uuid4()), "type": "undo", "event": accepted[-1]["id"]}
        winner, refused = one_accepted(
            *race(a, b, undo_a, undo_b), because="only the last entry can be undone"
        )
        refusals.append(refused[1]["error"])
        accepted.append(undo_a if winner == 0 else undo_b)
    finally:
        a.close()
        b.close()
    # The log is exactly the accepted events, in the order they were accepted.
    assert event_log(port, game[0]) == [e["id"] for e in accepted]
    raced = state(port, game[0])
    assert [t["event"] for t in raced["turns"]] == [e["id"] for e in accepted if e["type"] == "turn"]
    assert scores(raced) == scores(replayed_alone(port, pitched_battle(), accepted))
    assert raced["status"] == "in_progress"  # the last end was undone, once
    return refusals


def test_two_phones_recording_the_same_turns_one_is_refused_and_nothing_is_lost(served):
    refusals = _race_a_whole_game(served.port) + _race_a_whole_game(served.port)
    assert len(refusals) == 2 * (len(aos_steps()) + 1)
    assert any("already taken their turn" in s for s in refusals)


def test_first_blood_victory_phase_recorded_by_both_phones_is_kept_once(served):
    a, b, game = phones(served.port, first_blood())
    accepted = []
    try:
        for r in range(1, 9):
            if state(served.port, game[0])["status"] == "finished":
                break
            control_a = {} if r == 1 else {"west-zone": 0, "centre-zone": 0}
            control_b = {} if r == 1 else {"west-zone": 1, "east-zone": 1}
            event_a = {
                "id": str(uuid.uuid4()),
                "type": "round",
                "round": r,
                "control": control_a,
                "players": [{}, {}],
            }
            event_b = {
                "id": str(uuid.uuid4()),
                "type": "round",
                "round": r,
                "control": control_b,
                "players": [{}, {}],
            }
            answers = race(a, b, event_a, event_b)
            winner, refused = one_accepted(*answers, because="")
            sentence = refused[1]["error"]
            if answers[winner][1]["game"]["status"] == "finished":  # the winner's phase ended the game
                assert sentence.startswith("The game is over") or "already recorded" in sentence, sentence
            else:
                assert sentence == f"Round {r}'s Victory Phase is already recorded; undo it to change it."
            accepted.append(event_a if winner == 0 else event_b)
    finally:
        a.close()
        b.close()
    assert event_log(served.port, game[0]) == [e["id"] for e in accepted]
    raced = state(served.port, game[0])
    assert scores(raced) == scores(replayed_alone(served.port, first_blood(), accepted))


def test_events_that_do_not_conflict_are_all_kept(served):
    a, b, game = phones(served.port, pitched_battle())
    sent = []
    turns = 0
    try:
        for i in range(40):
            roll_a = {
                "id": str(uuid.uuid4()),
                "type": "roll",
                "dice": "d6",
                "results": [1 + i % 6],
                "purpose": "A",
            }
            roll_b = {
                "id": str(uuid.uuid4()),
                "type": "roll",
                "dice": "2d6",
                "results": [3, 4],
                "purpose": "B",
            }
            if i % 4 == 0 and turns < 10:
                # One phone records the next turn while the other records a roll: both are kept.
                nxt = state(served.port, game[0])["next"]
                roll_a = {
                    "id": roll_a["id"],
                    "type": "turn",
                    "round": nxt["round"],
                    "player": nxt["players"][0],
                    "control": {"west": 0},
                }
                turns += 1
            first, second = race(a, b, roll_a, roll_b)
            assert (first[0], second[0]) == (201, 201), (first, second)
            sent += [roll_a["id"], roll_b["id"]]
    finally:
        a.close()
        b.close()
    log = event_log(served.port, game[0])
    assert sorted(log) == sorted(sent) and len(log) == len(set(log)) == 80
    final = state(served.port, game[0])
    assert len(final["rolls"]) == 80 - turns and len(final["turns"]) == turns


def test_the_same_event_sent_by_both_at_once_is_recorded_once(served):
    # A phone's outbox replay racing the original send: the same id, twice, at the same moment.
    a, b, game = phones(served.port, pitched_battle())
    sent = []
    try:
        for i in range(30):
            if i % 3 == 0:
                nxt = state(served.port, game[0])["next"]
                event = {"type": "turn", "round": nxt["round"], "player": nxt["players"][0], "control": {}}
            else:
                event = {
                    "type": "roll",
                    "dice": "roll-off",
                    "results": [2, 5],
                    "winner": 1,
                    "purpose": "Priority",
                }
            event["id"] = str(uuid.uuid4())
            first, second = race(a, b, event, event)
            assert sorted([first[0], second[0]]) == [200, 201], (first, second)
            duplicate = first if first[0] == 200 else second
            assert duplicate[1]["status"] == "duplicate" and duplicate[1]["id"] == event["id"]
            sent.append(event["id"])
    finally:
        a.close()
        b.close()
    assert event_log(served.port, game[0]) == sent
    final = state(served.port, game[0])
    assert len(final["turns"]) == 10 and len(final["rolls"]) == 20


def test_the_server_log_has_no_errors(served):
    # A 500 anywhere above would be a bug; gunicorn logs every exception.
    log = Path(served.log).read_text(errors="replace")
    assert "Traceback" not in log and "Exception on" not in log
