"""The store by aggregate: a database file made before it opens, and both event logs append alike."""

from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path
from typing import Any

import pytest
from sqlite_utils import Database

from app import create_app
from app.store import Store
from app.store.schema import migrations
from tests.setups import new_game, terrain_game

# Made by the code before app/store.py became the app/store/ package (commit 276fa85): an
# Age of Sigmar game with two events and an attached roster, a First Blood game with two
# terrain pieces, one of them kept as the phone's preset. Its tokens, as that run gave them:
OLD_DUMP = Path(__file__).parent / "data" / "muster-before-store-package.sql"
OLD_AOS = ("KSNHhrHNWCIFRuCw3L0Sjw", "1W42PLH8IhIM_AjFAJOPh4bGMKVQuCyJ")
OLD_FIRST_BLOOD = "OX6ivYUGXYmS7kgSN7Upng"
OLD_ROSTER = "oS04A6X93AZ_2OVv6fRkMA"


def test_a_database_made_before_the_store_package_opens_and_plays_on(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite"
    old = sqlite3.connect(path)
    old.executescript(OLD_DUMP.read_text())
    old.close()
    # Every migration it recorded is one of today's, by name: none would run a second time;
    # only the ones written since (seats, m011, and on) are still to run.
    applied = [m.name for m in migrations.applied(Database(path))]
    assert applied[-1] == "m010_roster_owners" and len(applied) == 9
    pending = [m.name for m in migrations.pending(Database(path))]
    assert pending and all(name > "m010" for name in pending), pending

    client = create_app({"DATABASE": str(path), "TESTING": True, "SECRET_KEY": "test"}).test_client()
    game_id, token = OLD_AOS
    events = client.get(f"/api/v1/games/{game_id}/events").json
    assert [e["type"] for e in events] == ["battle_round", "turn"]
    game = client.get(f"/api/v1/games/{game_id}").json
    assert game["players"][0]["name"] == "Ann"
    # The edit token given out then still records the next turn.
    answer = client.post(
        f"/api/v1/games/{game_id}/events",
        json={"id": str(uuid.uuid4()), "type": "turn", "round": 1, "player": 1, "control": {}},
        headers={"X-Edit-Token": token},
    )
    assert answer.status_code == 201, answer.json
    assert len(client.get(f"/api/v1/games/{game_id}/events").json) == 3
    assert client.get(f"/api/v1/rosters/{OLD_ROSTER}").json["roster"]["name"] == "Hammerfest"
    pieces = client.get(f"/api/v1/games/{OLD_FIRST_BLOOD}/terrain").json["pieces"]
    assert sorted(p["name"] for p in pieces) == ["Hill", "Old Ruin"]
    assert [m.name for m in migrations.applied(Database(path))] == [*applied, *pending]


def _store(app: Any) -> Store:
    return Store(app.config["DATABASE"])


def _game_log(store: Store, client: Any) -> tuple[Any, Any, Any]:
    """A game's log as the generic test drives it: append, read, and an owner to write to."""
    game_id = new_game(client)["id"]

    def append(eid: str, refuse: Any) -> Any:
        return store.games.append(game_id, {"id": eid, "type": "note"}, refuse)

    return append, lambda: store.games.events(game_id), game_id


def _terrain_log(store: Store, client: Any) -> tuple[Any, Any, Any]:
    made, _url = terrain_game(client)
    set_id = store.terrain.get_or_create_set(made["id"], "conquest-first-blood")

    def append(eid: str, refuse: Any) -> Any:
        return store.terrain.append(set_id, [(eid, "seat", {"player": 0})], refuse)

    return append, lambda: store.terrain.events(set_id), set_id


@pytest.mark.parametrize("log", [_game_log, _terrain_log], ids=["game events", "terrain events"])
def test_both_logs_take_a_resent_id_once(app, client, log) -> None:
    store = _store(app)
    try:
        append, events, _owner = log(store, client)
        eid = str(uuid.uuid4())
        assert append(eid, lambda seen: None).status == "recorded"
        # Resent (a double tap, a phone back online): found before it is judged again.
        again = append(eid, lambda seen: "judged against a log that already holds it")
        assert (again.status, again.error) == ("duplicate", None)
        assert [e["id"] for e in events()] == [eid]
        # The id of another owner's event is refused, for either log, and adds nothing.
        other_append, other_events, _other = log(store, client)
        taken = other_append(eid, lambda seen: None)
        assert taken.status == "refused" and taken.error.startswith("id is already used")
        assert other_events() == []
    finally:
        store.close()


@pytest.mark.parametrize("log", [_game_log, _terrain_log], ids=["game events", "terrain events"])
def test_both_logs_judge_again_when_another_event_arrived_meanwhile(app, client, log) -> None:
    store, other_phone = _store(app), _store(app)
    try:
        append, events, owner = log(store, client)
        # The same owner seen through another connection: the other phone's request.
        other_append = _same_owner(other_phone, log, owner)
        judged: list[int] = []

        def refuse(seen: list[dict[str, Any]]) -> str | None:
            judged.append(len(seen))
            if len(judged) == 1:
                # Between this first look and the write, the other phone records an event.
                assert other_append(str(uuid.uuid4()), lambda seen: None).status == "recorded"
                return None
            return "refused: judged again with the other phone's event"

        mine = append(str(uuid.uuid4()), refuse)
        assert judged == [0, 1]
        assert (mine.status, mine.error) == ("refused", "refused: judged again with the other phone's event")
        assert len(events()) == 1
    finally:
        store.close()
        other_phone.close()


def _same_owner(store: Store, log: Any, owner: str) -> Any:
    if log is _game_log:
        return lambda eid, refuse: store.games.append(owner, {"id": eid, "type": "note"}, refuse)
    return lambda eid, refuse: store.terrain.append(owner, [(eid, "seat", {"player": 1})], refuse)


def test_an_event_with_no_type_is_refused_with_a_sentence(client) -> None:
    game = new_game(client)
    answer = client.post(
        f"/api/v1/games/{game['id']}/events",
        json={"id": str(uuid.uuid4()), "control": {}},
        headers={"X-Edit-Token": game["edit_token"]},
    )
    assert answer.status_code == 422, answer.json
    assert "type" in answer.json["error"]
    assert client.get(f"/api/v1/games/{game['id']}/events").json == []
