"""Issue 12, item 2: one phone cannot make the club home slow or pin a game above tonight's.

The attack: hundreds of imported games of thousands of `roll` events each, made every home
refresh replay every log; imports dated 2099 sorted above every table and survived "Archive
tonight". Now the home reads each game's stored card, a game holds at most 1,000 events and
an import's `created` must be a real time up to now.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from app.services.games import MAX_EVENTS
from tests.savage_gains import SETUP, game_script
from tests.setups import new_game
from tests.web.conftest import Api, soup

ROOT = Path(__file__).resolve().parents[2]


def _rolls(n: int) -> list[dict[str, Any]]:
    return [{"id": str(uuid.uuid4()), "type": "roll", "dice": "d6", "results": [1 + i % 6]} for i in range(n)]


def _export(events: list[dict[str, Any]], created: str | None = None) -> dict[str, Any]:
    return {
        "format": "muster-game/1",
        "id": uuid.uuid4().hex,
        "created": created or datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        **SETUP,
        "events": events,
    }


def _replays(app: Flask) -> tuple[int, int]:
    kept = app.extensions["muster.replays"]
    return kept.hits, kept.misses


def test_the_home_reads_no_log_of_a_game_whose_card_is_kept(app: Flask, client: FlaskClient) -> None:
    # A whole game (17 events) after 900 rolls, imported: its card is stored with it.
    script = [{"id": str(uuid.uuid4()), **e} for e in game_script()]
    made = client.post("/api/v1/games/import", json=_export(_rolls(900) + script))
    assert made.status_code == 201, made.json
    live = new_game(client)
    Api(client, live).ok({"type": "battle_round", "round": 1, "first": 0})
    before = _replays(app)
    for _ in range(3):
        page = soup(client.get("/"))
    # Neither game was replayed or even folded: their cards came from the database.
    assert _replays(app) == before
    cards = {c["href"]: c for c in page.select("#tables .table-card")}
    finished = client.get(f"/api/v1/games/{made.json['id']}").json
    card = cards[f"/games/{made.json['id']}"]
    assert [int(v.text) for v in card.select(".vp")] == [p["vp"] for p in finished["players"]]
    assert "finished" in card.text
    assert "round 1 of 5" in cards[f"/games/{live['id']}"].text


def test_an_undo_keeps_the_card_true_and_an_old_game_gets_one_once(app: Flask, client: FlaskClient) -> None:
    game = new_game(client)
    api = Api(client, game)
    api.ok({"type": "battle_round", "round": 1, "first": 0})
    turn = api.ok({"type": "turn", "round": 1, "player": 0, "control": {"west": 0}})
    assert turn["players"][0]["vp"] > 0
    assert [int(v.text) for v in soup(client.get("/")).select("#tables .vp")] == [turn["players"][0]["vp"], 0]
    assert api.post({"type": "undo", "event": turn["turns"][0]["event"]}).status_code == 201
    # The undo's request stored the card: the home shows the score without the turn, unreplayed.
    before = _replays(app)
    assert [int(v.text) for v in soup(client.get("/")).select("#tables .vp")] == [0, 0]
    assert _replays(app) == before
    # A game stored before cards existed is replayed once, and its card kept from then on.
    db = sqlite3.connect(app.config["DATABASE"])
    with db:
        db.execute("UPDATE games SET summary = NULL, summary_seq = NULL")
    app.extensions["muster.replays"] = type(app.extensions["muster.replays"])()  # a restarted server
    assert [int(v.text) for v in soup(client.get("/")).select("#tables .vp")] == [0, 0]
    assert _replays(app) == (0, 1)
    assert [int(v.text) for v in soup(client.get("/")).select("#tables .vp")] == [0, 0]
    assert _replays(app) == (0, 1)


def test_the_thousand_and_first_event_is_refused(app: Flask, client: FlaskClient) -> None:
    game = new_game(client)
    db = sqlite3.connect(app.config["DATABASE"])
    with db:  # 999 rolls straight into the log: posting them one by one would only be slower
        db.executemany(
            "INSERT INTO events (id, game_id, type, body, recorded) VALUES (?, ?, 'roll', ?, ?)",
            [
                (e["id"], game["id"], json.dumps(e), "2026-01-01T00:00:00.000Z")
                for e in _rolls(MAX_EVENTS - 1)
            ],
        )
    api = Api(client, game)
    assert api.post({"type": "roll", "dice": "d6", "results": [6]}).status_code == 201  # the 1,000th
    refused = api.post({"type": "roll", "dice": "d6", "results": [6]})
    assert refused.status_code == 422
    assert refused.json["error"].startswith("This game already holds 1,000 events")
    assert len(client.get(f"/api/v1/games/{game['id']}/events").json) == MAX_EVENTS


@pytest.mark.parametrize(("rolls", "status"), [(MAX_EVENTS, 201), (MAX_EVENTS + 1, 422)])
def test_an_import_holds_at_most_a_thousand_events(client: FlaskClient, rolls: int, status: int) -> None:
    answer = client.post("/api/v1/games/import", json=_export(_rolls(rolls)))
    assert answer.status_code == status, answer.json
    if status == 422:
        assert answer.json["error"] == "events must hold at most 1,000 events; this export has 1,001."


def _stamp(delta: timedelta) -> str:
    return (datetime.now(UTC) + delta).isoformat(timespec="seconds")


@pytest.mark.parametrize(
    ("created", "status"),
    [
        (_stamp(-timedelta(days=3)), 201),
        ("2021-06-05T19:30:00+02:00", 201),  # another time zone: stored as UTC
        ("2021-06-05T19:30:00", 201),  # no zone: Muster always wrote UTC
        (_stamp(timedelta(hours=12)), 422),  # well ahead: the run may be slow
        ("2099-01-01T00:00:00.000Z", 422),
        ("zzzzzzzzzz", 422),
        ("1999-12-31T23:59:59Z", 422),
        (20210605, 422),
    ],
    # Fixed ids: the two stamps above are made at collection, and pytest-xdist's workers must
    # collect the very same test ids.
    ids=["3-days-ago", "another-zone", "no-zone", "12-hours-ahead", "2099", "not-a-time", "1999", "a-number"],
)
def test_an_import_must_be_created_by_now(client: FlaskClient, created: Any, status: int) -> None:
    body = _export([])
    body["created"] = created
    answer = client.post("/api/v1/games/import", json=body)
    assert answer.status_code == status, answer.json
    if status == 422:
        assert answer.json["error"] == (
            "created must be the ISO 8601 time the game was created, from the year 2000 up to now."
        )
    else:
        stored = client.get(f"/api/v1/games/{body['id']}").json["created"]
        assert stored.endswith("Z") and stored <= datetime.now(UTC).isoformat()


def test_archive_tonight_takes_every_imported_game(app: Flask, client: FlaskClient) -> None:
    body = _export([], created="2021-06-05T19:30:00+02:00")
    assert client.post("/api/v1/games/import", json=body).status_code == 201
    assert new_game(client)
    db = sqlite3.connect(app.config["DATABASE"])
    assert db.execute("SELECT created FROM games WHERE id = ?", [body["id"]]).fetchone()[0] == (
        "2021-06-05T17:30:00.000Z"
    )
    from app.store import Store

    store = Store(app.config["DATABASE"])
    try:
        assert store.games.archive() == 2
    finally:
        store.close()
    assert not soup(client.get("/")).select(".table-card")


def test_a_replaced_rulepack_makes_the_cards_again(tmp_path: Path) -> None:
    folder = tmp_path / "rulepacks"
    shutil.copytree(ROOT / "rulepacks", folder)
    app = create_app(
        {
            "DATABASE": str(tmp_path / "muster.sqlite"),
            "RULEPACKS": str(folder),
            "RULEPACKS_CHECK_SECONDS": 0,
            "TESTING": True,
            "SECRET_KEY": "test",
        }
    )
    client = app.test_client()
    game = new_game(client)
    Api(client, game).ok({"type": "battle_round", "round": 1, "first": 0})
    before = _replays(app)
    client.get("/")
    assert _replays(app) == before
    hits, misses = before
    # The admin installs a new version of the pack: the stored card was scored with the old one.
    path = folder / "aos-ghb-2021.yaml"
    path.write_text(path.read_text().replace("name: ", "name: Revised ", 1))
    page = soup(client.get("/"))
    assert "Revised" in page.text
    assert _replays(app) == (hits, misses + 1)
    assert "round 1 of 5" in page.select_one("#tables .table-card").text
    client.get("/")
    assert _replays(app) == (hits, misses + 1)
