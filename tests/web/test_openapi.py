"""docs/openapi.yaml is kept true: its routes are the app's, real answers validate against it,
and a fuzz run drives every operation and never gets a 5xx.

The fuzz run is reproducible: it prints its seed, and ``MUSTER_FUZZ_SEED=<seed>`` replays it.
``MUSTER_FUZZ_REQUESTS`` sets how many requests it sends: 400 in ``make test`` and 3,500 in
``make soak`` (tests/soak.py), every operation among them, with a new seed each run; a night run
can send 50,000.
"""

from __future__ import annotations

import copy
import io
import json
import os
import random
import re
import shutil
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, configuration, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi import definitions
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app import create_app
from app.rules.pack import Pack
from app.rules.systems import REGISTRY, names, system_for
from app.services import games as game_service
from app.services import terrain_sets
from app.store import Store
from tests import soak
from tests.conftest import ROOT
from tests.list_texts import LISTS
from tests.setups import NO_STRATEGIES, first_blood, first_blood_game, new_game, pitched_battle
from tests.web.conftest import Api
from tests.web.openapi import HTTP_METHODS, Conformance, load_spec, load_tool, spec_routes

EVENTS_TOOL = load_tool("openapi_events")
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture(scope="module", autouse=True)
def _hypothesis_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Hypothesis keeps caches in ./.hypothesis; here they go to a temporary folder instead."""
    configuration.set_hypothesis_home_dir(tmp_path_factory.mktemp("hypothesis"))
    yield
    configuration.set_hypothesis_home_dir(None)


def app_routes(app: Flask) -> set[tuple[str, str]]:
    """Every (METHOD, path) the app serves under /api/v1, with Flask's <x> written {x}."""
    return {
        (method, re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule))
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/v1")
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}
    }


def test_openapi_routes_are_the_app_routes(app):
    assert spec_routes(load_spec()) == app_routes(app)


def test_the_event_schemas_are_the_event_models():
    # docs/openapi.yaml's event schemas are written from the models the server checks events
    # with; a model changed without running the tool leaves the description stale.
    text = (ROOT / "docs" / "openapi.yaml").read_text()
    assert EVENTS_TOOL.written(text) == text, "stale: run python tools/openapi_events.py"
    spec = load_spec()
    for name in names():
        union = spec["components"]["schemas"][EVENTS_TOOL.union_name(name)]
        kinds = set(union["discriminator"]["mapping"])
        assert kinds == {*REGISTRY[name].event_types, "undo"}, name


def test_openapi_is_a_loadable_description():
    spec = load_spec()
    assert spec["openapi"].startswith("3.1")
    # Valid against the OpenAPI 3.1 meta-schema, so other tools (viewers, client generators) read it.
    assert [str(e) for e in definitions.OPENAPI_31_VALIDATOR.iter_errors(spec)] == []
    schema = schemathesis.openapi.from_dict(spec)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == len(spec_routes(spec))
    # The editing operations name the X-Edit-Token scheme; reading never needs it. An event's
    # changes name the organiser's (or a player's) token, and creating one the admin password;
    # reading an event's sportsmanship ballots is the organiser's only.
    secured = {(op.method.upper(), op.path) for op in operations if op.definition.raw.get("security")}
    events = {(m, p) for m, p in spec_routes(spec) if p.startswith("/api/v1/events")}
    assert secured == {
        ("POST", "/api/v1/games/{game_id}/events"),
        ("POST", "/api/v1/games/{game_id}/clock"),
        ("POST", "/api/v1/games/{game_id}/rosters"),
        ("PUT", "/api/v1/rosters/{roster_id}"),
    } | {(m, p) for m, p in events if m == "POST"} | {("GET", "/api/v1/events/{event_id}/votes")}


def _uid() -> str:
    return str(uuid.uuid4())


def test_normal_flows_conform_to_openapi(client):
    api = Conformance(client)
    for pack in api.call("GET", "/api/v1/packs", 200):
        api.call("GET", f"/api/v1/packs/{pack['id']}", 200)
        api.call("GET", f"/api/v1/packs/{pack['id']}/catalogue", 200)
    api.call("GET", "/api/v1/packs/chess", 404)
    api.call("GET", "/api/v1/packs/chess/catalogue", 404)
    api.call(
        "POST",
        "/api/v1/packs/conquest-first-blood/seize",
        200,
        json={"players": [{"medium-infantry": 4, "officer": 1}, {"light-infantry": 5}]},
    )
    api.call("POST", "/api/v1/packs/conquest-first-blood/seize", 422, json={"players": 3})

    # An Age of Sigmar game from start to result, with a roll, a duplicate, an undo and refusals.
    made = api.call(
        "POST",
        "/api/v1/games",
        201,
        json=pitched_battle(points_limit="2000", strategies=("hold-the-line", None)),
    )
    game, token = made["id"], {"X-Edit-Token": made["edit_token"]}
    events = f"/api/v1/games/{game}/events"
    api.call("POST", "/api/v1/games", 422, json={"pack": "aos-ghb-2021"})
    api.call("POST", "/api/v1/games", 400, data="not json")
    api.call("POST", events, 403, json={"id": _uid(), "type": "roll", "dice": "d6", "results": [4]})
    api.call("POST", "/api/v1/games/nope/events", 404, json={}, headers=token)
    api.call("POST", events, 422, json={"id": _uid(), "type": "turn", "round": 9, "player": 0}, headers=token)
    roll = {
        "id": _uid(),
        "type": "roll",
        "dice": "roll-off",
        "results": [3, 5],
        "winner": 1,
        "purpose": "first",
    }
    api.call("POST", events, 201, json=roll, headers=token)
    api.call("POST", events, 200, json=roll, headers=token)
    # The game's clock: a tap, its replay, refusals.
    clock = f"/api/v1/games/{game}/clock"
    start = {"id": _uid(), "action": "start", "player": 1}
    api.call("POST", clock, 201, json=start, headers=token)
    api.call("POST", clock, 200, json=start, headers=token)
    api.call("POST", clock, 201, json={"id": _uid(), "action": "limit", "seconds": 1800}, headers=token)
    api.call(
        "POST", clock, 201, json={"id": _uid(), "action": "pass", "at": "2000-01-01T00:00:00Z"}, headers=token
    )
    api.call("POST", clock, 422, json={"id": _uid(), "action": "start"}, headers=token)
    api.call("POST", clock, 403, json={"id": _uid(), "action": "pause"})
    api.call("POST", "/api/v1/games/nope/clock", 404, json={}, headers=token)
    api.call("POST", clock, 400, data="not json", headers=token)
    for r in range(1, 6):
        api.call(
            "POST",
            events,
            201,
            json={"id": _uid(), "type": "battle_round", "round": r, "first": 0},
            headers=token,
        )
        turn = {"id": _uid(), "type": "turn", "round": r, "player": 0, "control": {"west": 0, "east": 1}}
        if r == 1:
            turn |= {"tactic": "conquer", "tactic_completed": True}
        api.call("POST", events, 201, json=turn, headers=token)
        bo = {"id": _uid(), "type": "turn", "round": r, "player": 1, "control": {"west": 1}}
        last = api.call("POST", events, 201, json=bo, headers=token)
        if r == 2:
            prey = {"type": "claim", "round": 2, "player": 0, "rule": "predators-and-prey"}
            api.call("POST", events, 201, json={"id": _uid(), **prey}, headers=token)
            api.call("POST", events, 422, json={"id": _uid(), **prey}, headers=token)
    undo = {"id": _uid(), "type": "undo", "event": last["game"]["turns"][-1]["event"]}
    api.call("POST", events, 201, json=undo, headers=token)
    api.call("POST", events, 201, json={"id": _uid(), "type": "turn", "round": 5, "player": 1}, headers=token)
    api.call(
        "POST",
        events,
        201,
        json={"id": _uid(), "type": "end", "player": 0, "grand_strategy_completed": True},
        headers=token,
    )
    final = api.call(
        "POST",
        events,
        201,
        json={"id": _uid(), "type": "end", "player": 1, "grand_strategy_completed": False},
        headers=token,
    )
    assert final["game"]["status"] == "finished" and final["game"]["result"]["kind"] in ("major", "minor")
    api.call("GET", f"/api/v1/games/{game}", 200)
    api.call("GET", events, 200)
    api.call("GET", f"/api/v1/games/{game}/terrain", 200)
    exported = api.call("GET", f"/api/v1/games/{game}/export", 200)
    api.call("POST", "/api/v1/games/import", 409, json=exported)
    renamed = {
        **exported,
        "id": "imported-game-0001",
        "events": [
            {**e, "id": _uid()} | ({"event": None} if e["type"] == "undo" else {}) for e in exported["events"]
        ],
    }
    api.call("POST", "/api/v1/games/import", 422, json=renamed)
    fresh = {**exported, "id": "imported-game-0002", "events": []}
    api.call("POST", "/api/v1/games/import", 201, json=fresh)
    for missing in ("", "/events", "/export", "/terrain"):
        api.call("GET", f"/api/v1/games/nope{missing}", 404)

    # A First Blood game to its result, with a roster attached.
    made = api.call(
        "POST",
        "/api/v1/games",
        201,
        json=first_blood("twin-contested-zones"),
    )
    fb, fb_token = made["id"], {"X-Edit-Token": made["edit_token"]}
    api.call(
        "POST",
        f"/api/v1/games/{fb}/events",
        201,
        json={"id": _uid(), "type": "round", "round": 1},
        headers=fb_token,
    )
    api.call(
        "POST",
        f"/api/v1/games/{fb}/events",
        201,
        json={
            "id": _uid(),
            "type": "round",
            "round": 2,
            "control": {"west-zone": 0},
            "players": [{"markers_destroyed": ["b-west"], "marker_wounds": {"b-east": 2}}, None],
        },
        headers=fb_token,
    )
    roster = api.call(
        "POST",
        "/api/v1/rosters",
        201,
        json={
            "pack": "conquest-first-blood",
            "entries": [
                {
                    "name": "Noble Lord",
                    "kind": "character",
                    "points": 135,
                    "retinue": [{"name": "Retainer", "points": 20}],
                },
                {"name": "Household Knights", "type": "cavalry", "points": 165, "models": 3},
            ],
        },
    )
    rid, r_token = roster["id"], {"X-Edit-Token": roster["edit_token"]}
    api.call("GET", f"/api/v1/rosters/{rid}", 200)
    api.call("PUT", f"/api/v1/rosters/{rid}", 200, json={"name": "Hammerfest", "version": 1}, headers=r_token)
    api.call("PUT", f"/api/v1/rosters/{rid}", 409, json={"name": "Late", "version": 1}, headers=r_token)
    api.call("PUT", f"/api/v1/rosters/{rid}", 403, json={"name": "X"})
    api.call("PUT", f"/api/v1/rosters/{rid}", 422, json={"entries": [{"name": ""}]}, headers=r_token)
    api.call("GET", "/api/v1/rosters/nope", 404)
    api.call("POST", f"/api/v1/games/{fb}/rosters", 201, json={"player": 0, "roster": rid}, headers=fb_token)
    api.call("POST", f"/api/v1/games/{fb}/rosters", 422, json={"player": 5, "roster": rid}, headers=fb_token)
    api.call("POST", f"/api/v1/games/{game}/rosters", 422, json={"player": 0, "roster": rid}, headers=token)
    ended = api.call(
        "POST",
        f"/api/v1/games/{fb}/events",
        201,
        json={"id": _uid(), "type": "round", "round": 3, "players": [{}, {"wiped_out": True}]},
        headers=fb_token,
    )
    assert ended["game"]["result"] == {
        "kind": "win",
        "winner": 0,
        "reason": ended["game"]["result"]["reason"],
    }
    api.call("GET", f"/api/v1/games/{fb}", 200)
    api.call("GET", f"/api/v1/games/{fb}/export", 200)

    # Rosters checked and stored for Pitched Battles, terrain and line of sight.
    aos_roster = {
        "pack": "aos-ghb-2021",
        "points_limit": 2000,
        "faction": "Seraphon",
        "entries": [
            {
                "name": "Lord Kroak",
                "points": 430,
                "roles": ["Leader"],
                "keywords": ["hero", "wizard"],
                "general": True,
            },
            {"name": "Saurus Warriors", "points": 105, "roles": ["battleline"], "size": "reinforced"},
        ],
    }
    api.call("POST", "/api/v1/rosters/check", 200, json=aos_roster)
    api.call(
        "POST", "/api/v1/rosters/check", 422, json={**aos_roster, "entries": [{"name": "X", "size": "huge"}]}
    )
    api.call("POST", "/api/v1/rosters", 201, json={"format": "muster-roster/1", "roster": aos_roster})
    listed = "Allegiance: Seraphon\n\nLeaders\nLord Kroak (430)\n- General\n\nTotal: 430 / 2000\n"
    api.call("POST", "/api/v1/rosters/import", 200, json={"pack": "aos-ghb-2021", "text": listed})
    api.call("POST", "/api/v1/rosters/import", 422, json={"pack": "aos-ghb-2021", "text": "no list"})
    api.call("POST", "/api/v1/rosters/import", 400, json={"pack": "aos-ghb-2021"})
    api.call(
        "POST",
        "/api/v1/rosters/import",
        200,
        data={"pack": "aos-ghb-2021", "file": (io.BytesIO(listed.encode()), "list.txt")},
        content_type="multipart/form-data",
    )
    api.call(
        "POST",
        "/api/v1/terrain/check",
        200,
        json={
            "pack": "conquest-first-blood",
            "scenario": "twin-contested-zones",
            "pieces": [
                {
                    "name": "Forest",
                    "size": 3,
                    "keywords": ["traversable", "hindering"],
                    "footprint": [9, 6],
                    "x": 8,
                    "y": 8,
                },
                {"name": "Tower", "kind": "garrison", "size": 2, "footprint": [4, 4], "x": 10, "y": 9},
            ],
        },
    )
    api.call(
        "POST",
        "/api/v1/terrain/check",
        200,
        json={
            "pack": "aos-ghb-2021",
            "scenario": "savage-gains",
            "siege": True,
            "pieces": [{"name": "Wall", "x": 1, "y": 1}],
        },
    )
    api.call(
        "POST",
        "/api/v1/terrain/check",
        422,
        json={"pack": "conquest-first-blood", "pieces": [{"name": "A", "x": 1}]},
    )
    api.call(
        "POST",
        "/api/v1/terrain/line-of-sight",
        200,
        json={
            "shooter": {"size": 1, "elevated_on": 2},
            "target": {"size": 1},
            "between": [{"name": "Hill", "kind": "terrain", "size": 2, "obstructing": True, "cover": True}],
        },
    )
    api.call("POST", "/api/v1/terrain/line-of-sight", 422, json={"shooter": {"size": 99}, "target": {}})

    # Every operation of the description was met at least once with a 2xx (club events' in
    # tests/web/test_events.py, which runs an event with the admin password set).
    met = {(m, t) for (m, t, s) in api.seen if s < 300}
    assert met == {(m, t) for m, t in spec_routes(api.spec) if not t.startswith("/api/v1/events")}


# ---------------------------------------------------------------------------------------------
# Fuzzing every operation
# ---------------------------------------------------------------------------------------------
EVENTS_KEY = ("POST", "/api/v1/games/{game_id}/events")
FUZZ_ROUNDS = 3  # the plan runs in rounds, so reads meet the games again as the writes change them
BATCH = 4  # requests drawn per Hypothesis example: the engine's own cost is shared by four
MAX_ITEMS = 4  # lists the fuzzer draws stay short: long ones cost time and test nothing more
# Requests per round for each operation, at the default 5,000 (scaled for other totals).
# Recording events is where the rules are, so it gets the most; reads of a real game are cheap.
PER_ROUND = {
    ("POST", "/api/v1/games/{game_id}/events"): 440,
    ("GET", "/api/v1/games/{game_id}"): 70,
    ("GET", "/api/v1/games/{game_id}/events"): 55,
    ("GET", "/api/v1/games/{game_id}/export"): 55,
    ("GET", "/api/v1/games/{game_id}/terrain"): 55,
    ("POST", "/api/v1/games/{game_id}/rosters"): 55,
    ("POST", "/api/v1/games/{game_id}/clock"): 100,  # a tap must fit the clock as it stands: 1 in 25 does
    ("POST", "/api/v1/games"): 45,
    ("POST", "/api/v1/games/import"): 30,
    ("GET", "/api/v1/packs"): 1,
    ("GET", "/api/v1/packs/{pack_id}"): 8,
    ("GET", "/api/v1/packs/{pack_id}/catalogue"): 2,
    ("POST", "/api/v1/packs/{pack_id}/seize"): 35,
    ("POST", "/api/v1/rosters/check"): 25,
    ("POST", "/api/v1/rosters/import"): 25,
    ("POST", "/api/v1/rosters"): 25,
    ("GET", "/api/v1/rosters/{roster_id}"): 12,
    ("PUT", "/api/v1/rosters/{roster_id}"): 25,
    ("POST", "/api/v1/terrain/check"): 30,
    ("POST", "/api/v1/terrain/line-of-sight"): 30,
    # Club events: without the admin password set, their requests meet refusals (403, 404).
    ("POST", "/api/v1/events"): 5,
    ("GET", "/api/v1/events/{event_id}"): 2,
    ("POST", "/api/v1/events/{event_id}/players"): 3,
    ("POST", "/api/v1/events/{event_id}/players/{player}"): 2,
    ("POST", "/api/v1/events/{event_id}/signup"): 2,
    ("POST", "/api/v1/events/{event_id}/rounds"): 2,
    ("GET", "/api/v1/events/{event_id}/rounds/{number}"): 2,
    ("POST", "/api/v1/events/{event_id}/rounds/{number}/repair"): 2,
    ("POST", "/api/v1/events/{event_id}/rounds/{number}/swap"): 2,
    ("POST", "/api/v1/events/{event_id}/rounds/{number}/start"): 2,
    ("POST", "/api/v1/events/{event_id}/results"): 3,
    ("POST", "/api/v1/events/{event_id}/results/confirm"): 3,
    ("GET", "/api/v1/events/{event_id}/standings"): 2,
    ("POST", "/api/v1/events/{event_id}/rolloffs"): 2,
    ("GET", "/api/v1/events/{event_id}/export"): 2,
    ("GET", "/api/v1/events/{event_id}/export.csv"): 2,
    ("POST", "/api/v1/events/{event_id}/rounds/preview"): 2,
    ("GET", "/api/v1/events/{event_id}/ranking.json"): 2,
    ("GET", "/api/v1/events/{event_id}/ranking.csv"): 2,
    ("GET", "/api/v1/events/{event_id}/summary.txt"): 2,
    ("GET", "/api/v1/events/{event_id}/lists"): 2,
    ("POST", "/api/v1/events/{event_id}/lists"): 2,
    ("POST", "/api/v1/events/{event_id}/lists/lock"): 2,
    ("POST", "/api/v1/events/{event_id}/votes"): 2,
    ("GET", "/api/v1/events/{event_id}/votes"): 2,
}


@dataclass
class KnownGame:
    """A game made before the fuzzing starts, followed through the fuzzer's own answers."""

    id: str
    token: str
    pack: Pack
    scenario: str
    next: dict[str, Any] | None = None  # the state's "next": the round (and players) expected
    effective: list[str] = field(default_factory=list)  # ids of the entries in force, oldest first

    @property
    def system(self) -> str:
        """The name of the game system that plays this game."""
        return system_for(self.pack, self.scenario).name

    def learn(self, body: Any, status: int, answer: Any) -> None:
        """Take in an answer to an event: nothing but the fuzzer changes this game's log."""
        if status != 201 or not isinstance(answer, dict) or not isinstance(body, dict):
            return
        self.next = answer["game"]["next"]
        if body.get("type") == "undo":
            self.effective.pop()
        else:
            self.effective.append(answer["id"])

    def aim(self, body: Any, choice: int, fresh: str) -> None:
        """Point a drawn event at the game's next entry (choices 1 to 3 of 0-3), so that it gets
        past the order checks to the scoring rules: random rounds and players almost never do.

        Choices 2 and 3 also give it a ``fresh`` id: drawn ids repeat, and a repeat records nothing.
        """
        if not isinstance(body, dict) or choice == 0:
            return
        if choice >= 2:
            body["id"] = fresh
        kind = body.get("type")
        if kind == "undo" and self.effective:
            body["event"] = self.effective[-1]
        elif kind in ("turn", "battle_round", "round") and self.next:
            body["round"] = self.next["round"]
            if kind == "turn" and self.next.get("players"):
                body["player"] = self.next["players"][0]


@dataclass
class KnownRoster:
    """A roster made before the fuzzing starts, with its edit token."""

    id: str
    token: str
    pack: str


@dataclass
class KnownEvent:
    """A club event made before the fuzzing starts: its organiser token and players."""

    id: str
    token: str
    players: list[int]
    tokens: list[str] = field(default_factory=list)  # each player's own token, in order


FUZZ_ADMIN = "fuzz-admin-password"


@dataclass
class World:
    """The games and rosters on the server when the fuzzing starts."""

    games: list[KnownGame] = field(default_factory=list)
    rosters: list[KnownRoster] = field(default_factory=list)
    exports: list[dict[str, Any]] = field(default_factory=list)
    ids: random.Random = field(default_factory=random.Random)  # fresh event ids, seeded by the run
    # Club events by their part: "open" and "scored" take the drawn requests; "fresh" (nothing
    # paired), "kept" (round 1 paired, never scored), "swapping" (never started) and "voting"
    # (its one round paired) only the valid ones, so that pairing, re-pairing, starting,
    # swapping and voting each meet a state where they can succeed.
    events: dict[str, KnownEvent] = field(default_factory=dict)

    def game(self, game_id: Any) -> KnownGame | None:
        """The known game with that id, if the request names one."""
        return next((g for g in self.games if g.id == game_id), None)

    def is_roster(self, roster_id: Any) -> bool:
        return any(r.id == roster_id for r in self.rosters)


def _post_event(client: FlaskClient, game: KnownGame, event: dict[str, Any]) -> bool:
    answer = client.post(
        f"/api/v1/games/{game.id}/events", json={"id": _uid(), **event}, headers={"X-Edit-Token": game.token}
    )
    assert answer.status_code < 500, answer.get_data(True)
    return answer.status_code == 201


def _advance(client: FlaskClient, game: KnownGame, rounds: int, finish: bool = False) -> None:
    """Play quiet rounds (nobody scores) so the fuzzer also meets games under way and over."""
    scenario = game.pack.scenario(game.scenario)
    assert scenario is not None
    if game.pack.play == "rounds":
        last = min(rounds, scenario.battle_rounds or 0)
        for r in range(1, last + 1):
            wiped = [{}, {"wiped_out": True}] if finish and r == last else []
            _post_event(client, game, {"type": "round", "round": r, "players": wiped})
        return
    for r in range(1, rounds + 1):
        # Tectonic Interference needs the D3 roll's objective: try each until one is taken.
        started = _post_event(client, game, {"type": "battle_round", "round": r, "first": 0})
        for objective in scenario.objectives if not started else []:
            if _post_event(
                client, game, {"type": "battle_round", "round": r, "first": 0, "alpha": objective.id}
            ):
                break
        for player in range(game.pack.players_for(scenario).min or 2):
            _post_event(client, game, {"type": "turn", "round": r, "player": player})
    if finish:
        for player in (0, 1):
            _post_event(
                client, game, {"type": "end", "player": player, "grand_strategy_completed": player == 0}
            )


def build_world(app: Flask, client: FlaskClient) -> World:
    """A game of every playable scenario (a third under way, one of each pack over), two rosters
    attached to some of them, and terrain pieces in one game's set."""
    packs: dict[str, Pack] = app.extensions["muster.packs"]
    world = World()
    for pack in sorted(packs.values(), key=lambda p: p.id):
        for i, scenario in enumerate(s for s in pack.scenarios if s.playable):
            # As few players as the scenario takes: two, or three in a Triumph & Treachery pack.
            count = pack.players_for(scenario).min or 2
            sides = pack.sides_for(scenario) or [None] * count
            names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"][:count]
            made = client.post(
                "/api/v1/games",
                json={
                    "pack": pack.id,
                    "scenario": scenario.id,
                    "points_limit": pack.points.presets[0],
                    "players": [
                        {"name": name, "side": side} for name, side in zip(names, sides, strict=True)
                    ],
                },
            )
            assert made.status_code == 201, made.json
            game = KnownGame(made.json["id"], made.json["edit_token"], pack, scenario.id)
            world.games.append(game)
            if i % 3 == 1:
                _advance(client, game, rounds=2)
            elif i == 2:
                _advance(client, game, rounds=scenario.battle_rounds or 0, finish=True)
    rosters = [
        {
            "pack": "aos-ghb-2021",
            "points_limit": 2000,
            "entries": [
                {"name": "Lord", "roles": ["Leader"], "keywords": ["HERO", "MONSTER"], "general": True}
            ],
        },
        {
            "pack": "conquest-first-blood",
            "entries": [{"name": "Noble Lord", "kind": "character", "points": 135}],
        },
    ]
    for body in rosters:
        made = client.post("/api/v1/rosters", json=body)
        assert made.status_code == 201, made.json
        world.rosters.append(KnownRoster(made.json["id"], made.json["edit_token"], body["pack"]))
    # Games of the packs the rosters were made for: two of the first pack's, two of the last's.
    fielded = [g for g in world.games if any(r.pack == g.pack.id for r in world.rosters)]
    for game in fielded[:2] + fielded[-2:]:
        roster = next(r for r in world.rosters if r.pack == game.pack.id)
        attached = client.post(
            f"/api/v1/games/{game.id}/rosters",
            json={"player": 0, "roster": roster.id},
            headers={"X-Edit-Token": game.token},
        )
        assert attached.status_code == 201, attached.json
    # Terrain pieces are added on the terrain screen, not through the API: put two in directly.
    store = Store(app.config["DATABASE"])
    try:
        game = next(g for g in world.games if g.pack.play == "rounds")
        loaded = terrain_sets.load(
            store, game.pack, game.pack.scenario(game.scenario), game.id, ["Ann", "Bo"]
        )
        for name, x in (("Forest", 10), ("Hill", 30)):
            piece = {"name": name, "size": 2, "footprint": [6, 6], "x": x, "y": 20}
            body = {"piece_uid": terrain_sets.new_piece_uid(), "piece": piece}
            assert terrain_sets.record(store, loaded, _uid(), "piece", body, 2) is None
        for game in world.games:
            loaded_game = game_service.Games(store, packs).load(game.id)
            assert loaded_game is not None
            game.effective = list(loaded_game.state.effective)
            game.next = client.get(f"/api/v1/games/{game.id}").json["next"]
    finally:
        store.close()
    world.exports = [client.get(f"/api/v1/games/{g.id}/export").json for g in world.games[:6]]
    app.config["ADMIN_PASSWORD"] = FUZZ_ADMIN
    for part in ("open", "scored", "fresh", "kept", "swapping", "voting"):
        made = client.post(
            "/api/v1/events",
            json={
                "name": part,
                "pack": "conquest-first-blood",
                "points_limit": 500,
                "rounds": 1 if part == "voting" else 3,  # ballots open once the last round is paired
                "soft": {"sportsmanship": {"prize": True}},
            },
            headers={"Authorization": f"Bearer {FUZZ_ADMIN}"},
        ).json
        org = {"X-Organiser-Token": made["organiser_token"]}
        signed = [
            client.post(f"/api/v1/events/{made['id']}/players", json={"name": f"P{i}"}, headers=org).json
            for i in range(7)
        ]
        players = [p["player"] for p in signed]
        world.events[part] = KnownEvent(
            made["id"], made["organiser_token"], players, [p["token"] for p in signed]
        )
        if part != "fresh":
            paired = client.post(f"/api/v1/events/{made['id']}/rounds", headers=org)
            assert paired.status_code == 201, paired.json
        if part == "scored":
            for table in paired.json["pairings"]:
                if "table" in table:
                    body = {"round": 1, "table": table["table"], "winner": None, "vp": [3, 3]}
                    assert (
                        client.post(
                            f"/api/v1/events/{made['id']}/results", json=body, headers=org
                        ).status_code
                        == 201
                    )
    return world


def vocabulary(packs: list[Pack], scenario: str | None, world: World) -> dict[str, list[Any]]:
    """The ids the server knows, for the schemas marked x-muster-vocabulary / x-muster-keys."""
    scenarios = [s for p in packs for s in p.scenarios if scenario in (None, s.id)]
    return {
        "packs": [p.id for p in packs],
        "seizing-packs": [p.id for p in packs if p.seizing],
        "scenarios": [s.id for s in scenarios],
        "objectives": sorted({o.id for s in scenarios for o in s.objectives}),
        "markers": sorted({o.id for s in scenarios for o in s.objectives if o.kind == "marker"}),
        "rounds": sorted({r for s in scenarios for r in range(1, (s.battle_rounds or 0) + 1)}),
        "players": list(range(max(p.players.max or 4 for p in packs))),
        "tactics": sorted({t.id for p in packs for t in p.tactics}),
        "grand-strategies": sorted({g.id for p in packs for g in p.grand_strategies}),
        "sides": sorted({side for p in packs for side in p.sides}),
        "points-limits": sorted({n for p in packs for n in p.points.presets}),
        "seizing-classes": sorted({w.id for p in packs for w in p.seizing}),
        "terrain-keywords": sorted({k.id for p in packs if p.terrain for k in p.terrain.keywords}),
        # Regiment types are First Blood's army rules' own numbers: only its section has them.
        "regiment-types": sorted({t.id for p in packs for t in getattr(p.army, "regiment_types", ())}),
        # Stand-ins, swapped for the real ids when sent: the generator sorts an enum, and real
        # ids (random each run) would sort differently and break the replay of a seed.
        "rosters": [f"known-roster-{i}" for i in range(len(world.rosters))],
    }


def specialise(node: Any, vocab: dict[str, list[Any]], cap: bool = True) -> Any:
    """The fuzzer's copy of the description: marked schemas take only the server's real ids.

    A string marked ``x-muster-vocabulary`` becomes one of the known ids (or null where null is
    allowed); an object marked ``x-muster-keys`` has exactly the known ids as its optional keys.
    Lists are drawn at most MAX_ITEMS long. The fuzzer draws from copies with and without the
    ids: random strings test the first check, real ids reach the rules behind it.
    """
    if isinstance(node, list):
        return [specialise(item, vocab, cap) for item in node]
    if not isinstance(node, dict):
        return node
    out = {k: specialise(v, vocab, cap) for k, v in node.items() if not k.startswith("x-muster-")}
    if cap and isinstance(out.get("maxItems"), int) and out["maxItems"] > MAX_ITEMS:
        out["maxItems"] = MAX_ITEMS
    types = out.get("type", [])
    nullable = [None] if "null" in (types if isinstance(types, list) else [types]) else []
    words = vocab.get(node.get("x-muster-vocabulary", ""), [])
    if words:
        return {"enum": [*words, *nullable]}
    keys = vocab.get(node.get("x-muster-keys", ""), [])
    if keys:
        value = out.get("additionalProperties", {})
        return {**out, "properties": {k: value for k in keys}, "additionalProperties": False}
    return out


def fuzz_copy(spec: dict[str, Any], vocab: dict[str, list[Any]]) -> dict[str, Any]:
    """``specialise``, with lists kept short only in schemas no answer uses.

    An answer is checked against the same copy: a list cut short there would call a long
    answer wrong (an imported list of eight units against a roster of at most four).
    """
    out = specialise(spec, vocab)
    operations = [op for item in spec["paths"].values() for m, op in item.items() if m in HTTP_METHODS]
    answered = _reachable(spec, [op["responses"] for op in operations] + [spec["components"]["responses"]])
    for name in answered:
        out["components"]["schemas"][name] = specialise(spec["components"]["schemas"][name], vocab, cap=False)
    return out


def _schema_refs(node: Any) -> set[str]:
    """Names of the component schemas a part of the description refers to, directly."""
    if isinstance(node, list):
        return set().union(*map(_schema_refs, node)) if node else set()
    if not isinstance(node, dict):
        return set()
    ref = node.get("$ref", "")
    own = {ref.rsplit("/", 1)[1]} if ref.startswith("#/components/schemas/") else set()
    return own.union(*map(_schema_refs, node.values())) if node else own


def _reachable(spec: dict[str, Any], roots: list[Any]) -> set[str]:
    seen: set[str] = set()
    todo = set().union(*map(_schema_refs, roots))
    while todo:
        name = todo.pop()
        seen.add(name)
        todo |= _schema_refs(spec["components"]["schemas"][name]) - seen
    return seen


def close_requests(spec: dict[str, Any]) -> dict[str, Any]:
    """The copy with the objects only requests use closed to unknown keys.

    The server ignores keys it does not know in a set-up, a roster or a piece, and drawing them
    (random keys with random JSON) is most of what such a request costs to make: the copies
    with real ids leave them out, the plain copy still sends them.
    """
    operations = [op for item in spec["paths"].values() for m, op in item.items() if m in HTTP_METHODS]
    requests = _reachable(spec, [op.get("requestBody") for op in operations])
    responses = _reachable(spec, [op["responses"] for op in operations] + [spec["components"]["responses"]])

    def close(node: Any) -> Any:
        if isinstance(node, list):
            return [close(item) for item in node]
        if not isinstance(node, dict):
            return node
        out = {k: close(v) for k, v in node.items()}
        if "properties" in out and "additionalProperties" not in out:
            out["additionalProperties"] = False
        return out

    out = copy.deepcopy(spec)
    for name in requests - responses:
        out["components"]["schemas"][name] = close(out["components"]["schemas"][name])
    return out


@dataclass
class Tally:
    """What the fuzz run sent: answers by operation and status, and the time each took."""

    answers: dict[str, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    real: Counter[str] = field(default_factory=Counter)
    # Events sent to a game of each system, by the answer's status.
    systems: dict[str, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    seconds: Counter[str] = field(default_factory=Counter)
    started: float = field(default_factory=time.monotonic)

    @property
    def sent(self) -> int:
        return sum(sum(c.values()) for c in self.answers.values())

    def report(self, seed: int) -> str:
        lines = [
            f"fuzz: {self.sent} requests in {time.monotonic() - self.started:.1f}s, MUSTER_FUZZ_SEED={seed}"
        ]
        for label in sorted(self.answers):
            codes = ", ".join(f"{code}: {n}" for code, n in sorted(self.answers[label].items()))
            lines.append(
                f"  {label:38} {sum(self.answers[label].values()):5} in {self.seconds[label]:4.1f}s"
                f"  (real ids {self.real[label]:4})  {codes}"
            )
        for name in sorted(self.systems):
            codes = ", ".join(f"{code}: {n}" for code, n in sorted(self.systems[name].items()))
            lines.append(f"  events of {name:28} {sum(self.systems[name].values()):5}  {codes}")
        return "\n".join(lines)


@dataclass
class Plan:
    """One operation to fuzz: its label, how to draw its requests, its requests per round."""

    key: tuple[str, str]
    strategy: st.SearchStrategy[Any]
    per_round: int

    @property
    def label(self) -> str:
        return f"{self.key[0]} {self.key[1]}"


def game_schemas(spec: dict[str, Any], world: World) -> dict[str, Any]:
    """Each known game's copy of the description (``_game_spec``), loaded, by the game's id:
    made once for the operations' plans and the game systems' (a tenth of a second a game)."""
    return {g.id: schemathesis.openapi.from_dict(_game_spec(spec, g, world)) for g in world.games}


def fuzz_plans(app: Flask, world: World, target: int, per_game: dict[str, Any]) -> list[Plan]:
    """For every operation: requests drawn from the description as it is and with real ids.

    Most requests to an operation on a game or roster name one made beforehand (with its edit
    token where the operation needs one) and draw that game's objectives, tactics and rounds;
    the others use random ids and values, send no token, or break the schema on purpose.
    ``per_game`` is ``game_schemas`` of the world.
    """
    spec = load_spec()
    assert set(PER_ROUND) == spec_routes(spec)
    packs: list[Pack] = sorted(app.extensions["muster.packs"].values(), key=lambda p: p.id)
    plain = schemathesis.openapi.from_dict(fuzz_copy(spec, {}))
    known = schemathesis.openapi.from_dict(close_requests(fuzz_copy(spec, vocabulary(packs, None, world))))
    positive, negative = GenerationMode.POSITIVE, GenerationMode.NEGATIVE
    plans = []
    for result in plain.get_all_operations():
        op = result.ok()
        key = (op.method.upper(), op.path)
        has_body = bool(op.definition.raw.get("requestBody"))
        secured = bool(op.definition.raw.get("security"))
        # Hypothesis leans to the first of several strategies: the real ids go first.
        variants: list[st.SearchStrategy[Any]] = []
        if "{game_id}" in op.path:
            for i, g in enumerate(world.games):
                game_op = per_game[g.id][op.path][op.method.upper()]
                fixed = {"path_parameters": {"game_id": g.id}}
                token = {"headers": {"X-Edit-Token": g.token}} if secured else {}
                variants.append(game_op.as_strategy(generation_mode=positive, **fixed, **token))
                if has_body and i % 4 == 0:
                    variants.append(game_op.as_strategy(generation_mode=negative, **fixed, **token))
                if secured and i % 8 == 0:
                    variants.append(game_op.as_strategy(generation_mode=positive, **fixed))  # no token: 403
        elif "{event_id}" in op.path or op.path == "/api/v1/events":
            event_op = known[op.path][op.method.upper()]
            # First a request that can succeed, made from the event's state when it is drawn.
            valid = st.integers(0, 2**32).map(lambda n, op=op, key=key: _event_case(app, world, op, key, n))
            variants.append(valid)
            for e in (world.events["open"], world.events["scored"]):
                fixed: dict[str, Any] = {"event_id": e.id}
                if "{number}" in op.path:
                    fixed["number"] = 1
                if "{player}" in op.path:
                    fixed["player"] = e.players[0]
                token = {"headers": {"X-Organiser-Token": e.token}} if secured else {}
                if op.path == "/api/v1/events":
                    fixed, token = {}, {"headers": {"Authorization": f"Bearer {FUZZ_ADMIN}"}}
                params = {"path_parameters": fixed} if fixed else {}
                variants.append(event_op.as_strategy(generation_mode=positive, **params, **token))
                if has_body:
                    variants.append(event_op.as_strategy(generation_mode=negative, **params, **token))
        elif "{roster_id}" in op.path:
            roster_op = known[op.path][op.method.upper()]
            for r in world.rosters:
                fixed = {"path_parameters": {"roster_id": r.id}}
                token = {"headers": {"X-Edit-Token": r.token}} if secured else {}
                variants += [roster_op.as_strategy(generation_mode=positive, **fixed, **token)] * 3
                if has_body:
                    variants.append(roster_op.as_strategy(generation_mode=negative, **fixed, **token))
                if secured:
                    variants.append(roster_op.as_strategy(generation_mode=positive, **fixed))
        else:
            known_op = known[op.path][op.method.upper()]
            variants += [known_op.as_strategy(generation_mode=positive)] * 2
            if has_body:
                variants.append(known_op.as_strategy(generation_mode=negative))
        if key == ("POST", "/api/v1/games/import"):
            # Real exports under a new id (201), or as they are (409: the id is taken).
            exports = st.tuples(st.sampled_from(world.exports), st.booleans(), st.integers(0, 2**63))
            variants.append(exports.map(lambda t, op=op: _export_case(op, *t)))
        if key == ("POST", "/api/v1/rosters/import"):
            # Real exported lists, whole or cut short, into any pack (200, or 422 for another game).
            # Names, not objects: Hypothesis prints what it draws, and a pack's repr is huge.
            lists = st.tuples(
                st.sampled_from(sorted(p.name for p in LISTS.glob("*.txt"))),
                st.sampled_from([p.id for p in packs]),
                st.integers(0, 4000),
            )
            # First, as Hypothesis leans to the first strategy: random text is seldom a list.
            variants.insert(0, lists.map(lambda t, op=op: _list_case(op, *t)))
        variants.append(op.as_strategy(generation_mode=positive))
        if has_body:
            variants.append(op.as_strategy(generation_mode=negative))
        per_round = max(1, round(PER_ROUND[key] * target / 5000 / (FUZZ_ROUNDS / 5)))
        plans.append(Plan(key, st.one_of(variants), per_round))
    # Writes first in each round, then the reads that show what they did.
    return sorted(plans, key=lambda p: (p.key[0] == "GET", p.label))


def system_plans(world: World, per_game: dict[str, Any]) -> list[Plan]:
    """For each game system: events drawn from its own union for its games, with their tokens
    (``per_game`` is ``game_schemas`` of the world)."""
    plans = []
    for name in names():
        strategies = []
        for g in (g for g in world.games if g.system == name):
            op = per_game[g.id][EVENTS_KEY[1]]["POST"]
            fixed = {"path_parameters": {"game_id": g.id}, "headers": {"X-Edit-Token": g.token}}
            strategies.append(op.as_strategy(generation_mode=GenerationMode.POSITIVE, **fixed))
        plans.append(Plan(EVENTS_KEY, st.one_of(strategies), BATCH))
    return plans


# Which known event a valid request goes to (by the path after /api/v1/events/{event_id}).
EVENT_PARTS = {
    "/rounds": "fresh",
    "/rounds/{number}/repair": "kept",
    "/rounds/{number}/swap": "swapping",
    "/rounds/{number}/start": "kept",
    "/players": "open",
    "/players/{player}": "open",
    "/signup": "open",
    "/votes": "voting",
}


def _event_case(app: Flask, world: World, op: Any, key: tuple[str, str], n: int) -> Any:
    """A request to a club event's operation that can succeed, from the event's state now."""
    method, path = key
    part = EVENT_PARTS.get(path.removeprefix("/api/v1/events/{event_id}"), "scored")
    event = world.events[part]
    org = {"X-Organiser-Token": event.token}
    params: dict[str, Any] = {"event_id": event.id}
    body: Any = None
    if path == "/api/v1/events":
        body = {
            "name": f"Night {n}",
            "pack": "conquest-first-blood",
            "points_limit": 500,
            "rounds": 1 + n % 5,
        }
        return op.Case(
            body=body, media_type="application/json", headers={"Authorization": f"Bearer {FUZZ_ADMIN}"}
        )
    if "{number}" in path:
        params["number"] = 1
    if "{player}" in path:
        params["player"] = event.players[n % len(event.players)]
        body = {"dropped": False}
    elif path.endswith("/players"):
        body = {"name": f"Fuzz {n % 1000}", "club": None}
    elif path.endswith("/signup"):
        body = {"open": n % 2 == 0}
    elif path.endswith("/rolloffs"):
        body = {"players": event.players[:2]}
    elif path.endswith("/lists/lock"):
        body = {"locked": n % 2 == 0}
    elif path.endswith("/lists"):
        roster = next(r for r in world.rosters if r.pack == "conquest-first-blood")
        body = {"roster": roster.id}
        org = {"X-Player-Token": event.tokens[n % len(event.tokens)]}
    elif path.endswith("/votes") and method == "POST":
        # A seated player's ballot for their opponent: the first is counted, the rest refused.
        state = app.test_client().get(f"/api/v1/events/{event.id}/rounds/1").json
        table = [p for p in state["pairings"] if "table" in p][n % 3]
        voter = table["players"][0]
        body = {"player": table["players"][1]}
        org = {"X-Player-Token": event.tokens[event.players.index(voter)]}
    elif path.endswith("/rounds/preview"):
        body = {"again": False}
    elif path.endswith("/results") or path.endswith("/results/confirm") or path.endswith("/swap"):
        state = app.test_client().get(f"/api/v1/events/{event.id}/rounds/1").json
        tables = [p for p in state["pairings"] if "table" in p]
        if path.endswith("/swap"):
            body = {"players": [tables[0]["players"][n % 2], tables[1]["players"][n % 2]]}
        elif path.endswith("/confirm"):
            body = {"round": 1, "table": tables[0]["table"]}
        else:
            body = {"round": 1, "table": tables[0]["table"], "winner": None, "vp": [n % 20, n % 20]}
    headers = org if method == "POST" else {}
    if method == "GET":
        # The ballots are the organiser's to read; every other read is open.
        return op.Case(path_parameters=params, headers=org if path.endswith("/votes") else {})
    return op.Case(
        path_parameters=params,
        headers=headers,
        body=body if body is not None else {},
        media_type="application/json",
    )


def _game_spec(spec: dict[str, Any], game: KnownGame, world: World) -> dict[str, Any]:
    """The fuzzer's copy for one game: its pack's ids, its scenario's objectives, and the events
    of its own system (the union written from that system's event models)."""
    out = close_requests(fuzz_copy(spec, vocabulary([game.pack], game.scenario, world)))
    events = EVENTS_TOOL.union_name(game.system)
    out["components"]["schemas"]["GameEvent"] = {"$ref": f"#/components/schemas/{events}"}
    return out


def _list_case(op: Any, name: str, pack: str, cut: int) -> Any:
    text = (LISTS / name).read_text()
    return op.Case(body={"pack": pack, "text": text[: max(cut, 200)]}, media_type="application/json")


def _export_case(op: Any, export: dict[str, Any], renamed: bool, n: int) -> Any:
    body = copy.deepcopy(export)
    if renamed:
        body["id"] = f"fuzz-{n:020d}"
        body["events"] = [
            {**e, "id": str(uuid.UUID(int=(n * 131 + i) % 2**128))} for i, e in enumerate(body["events"])
        ]
    return op.Case(body=body, media_type="application/json")


def _nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


# Values no schema draws, put in place of one part of a body: the kinds of input that made 500s
# (huge numbers, digits int() cannot read, half a character, deep nesting, the wrong shape).
HOSTILE: list[Any] = [
    10**400,
    -(10**400),
    2**64,
    float("inf"),
    float("nan"),
    0.5,
    "²",
    "9" * 5000,
    "\ud800",
    "",
    " ",
    "x" * 1000,
    [],
    {},
    [[]],
    {"": {}},
    True,
    None,
    _nested(80),
    b"[" * 3000 + b"]" * 3000,  # bytes stand for the whole body: deeper than json.dumps can write
]
# Per request: aim (0-3, see KnownGame.aim), and whether (3 of 0-3), where and what to replace.
TWISTS = st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 63), st.integers(0, len(HOSTILE) - 1))


def _hostile(body: Any, where: int, value: Any) -> bytes:
    """The body with one of its parts (the ``where``-th of a walk, modulo their number) replaced,
    as the JSON bytes Python writes (Infinity and NaN included, as Python's json reads them)."""
    body = copy.deepcopy(body)
    slots: list[tuple[Any, Any]] = [(None, None)]  # (container, key); the first is the whole body
    stack = [body]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
        for key, item in items:
            slots.append((node, key))
            stack.append(item)
    container, key = slots[where % len(slots)]
    if isinstance(value, bytes):
        return value
    if container is None:
        body = value
    else:
        container[key] = copy.deepcopy(value)
    return json.dumps(body).encode()


def _send(
    app: Flask, world: World, plan: Plan, case: Any, twist: tuple[int, int, int, int], tally: Tally
) -> None:
    """Send one drawn request and check its answer against the description and the standard."""
    choice, hostile, where, value = twist
    game = world.game(case.path_parameters.get("game_id"))
    events = game is not None and plan.key == ("POST", "/api/v1/games/{game_id}/events")
    if events:
        game.aim(case.body, choice, str(uuid.UUID(int=world.ids.getrandbits(128), version=4)))
    if isinstance(case.body, dict) and str(case.body.get("roster")).startswith("known-roster-"):
        case.body["roster"] = world.rosters[int(case.body["roster"].rsplit("-", 1)[1])].id
    if hostile == 3 and isinstance(case.body, dict | list):
        case.body = _hostile(case.body, where, HOSTILE[value])
    # The app compresses what a client accepts; the checks read plain JSON, so ask for it.
    response = case.call(app=app, headers={"Accept-Encoding": "identity"})
    tally.answers[plan.label][response.status_code] += 1
    if game is not None or world.is_roster(case.path_parameters.get("roster_id")):
        tally.real[plan.label] += 1
    case.validate_response(response, checks=CHECKS)
    # Schemathesis keeps headers with lowercase names, each a list of values.
    if not (response.headers.get("content-type") or [""])[0].startswith("application/json"):
        return  # an event's CSV export (its refusals are JSON)
    answer = response.json()

    if events:
        game.learn(case.body, response.status_code, answer)
        tally.systems[game.system][response.status_code] += 1
    if response.status_code >= 400:
        # The project's standard: a 4xx answers {"error": "<one plain sentence>"}.
        message = answer["error"]
        assert "\n" not in message and message.endswith("."), message


def _fuzz_one(app: Flask, world: World, plan: Plan, requests: int, seed: int, tally: Tally) -> None:
    """Send about ``requests`` requests of one operation (fewer if it has no more to draw)."""

    @hypothesis_seed(seed)
    @settings(
        max_examples=max(1, -(-requests // BATCH)),
        deadline=None,
        database=None,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.filter_too_much,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
        ],
    )
    @given(batch=st.lists(st.tuples(plan.strategy, TWISTS), min_size=BATCH, max_size=BATCH))
    def run(batch: list[tuple[Any, tuple[int, int, int, int]]]) -> None:
        for case, twist in batch:
            _send(app, world, plan, case, twist, tally)

    started = time.monotonic()
    try:
        run()
    finally:
        tally.seconds[plan.label] += time.monotonic() - started


# Requests of one operation from which at least one 2xx is expected in make test's small run.
ENOUGH_FOR_2XX = 150


@pytest.mark.soak
def test_fuzz_every_operation_without_a_5xx(app, client, capsys):
    seed = int(os.environ.get("MUSTER_FUZZ_SEED") or random.SystemRandom().randrange(2**32))
    target = int(os.environ.get("MUSTER_FUZZ_REQUESTS") or soak.size(400, 3500))
    with capsys.disabled():
        print(f"\nfuzz: MUSTER_FUZZ_SEED={seed} MUSTER_FUZZ_REQUESTS={target} (set them to rerun this run)")
    # The fuzz is about answers, not how many come from one address (tests/web/test_limits.py).
    # Its requests reuse their thread's connection, as a served app's do (a sixth of its time
    # went to opening one per request).
    app.config.update(LIMIT_GAMES=0, LIMIT_IMPORTS=0, LIMIT_ROSTERS=0, KEEP_CONNECTIONS=True)
    world = build_world(app, client)
    world.ids.seed(seed)
    per_game = game_schemas(load_spec(), world)
    plans = fuzz_plans(app, world, target, per_game)
    tally = Tally()
    rng = random.Random(seed)
    try:
        # A batch of each system's events first: a system with one game (a siege) among thirty
        # would otherwise be drawn by chance only.
        for plan in system_plans(world, per_game):
            _fuzz_one(app, world, plan, BATCH, rng.randrange(2**32), tally)
        for _ in range(FUZZ_ROUNDS):
            for plan in plans:
                _fuzz_one(app, world, plan, plan.per_round, rng.randrange(2**32), tally)
        # An operation with little to draw (GET /api/v1/packs) sent less: recording events makes it up.
        events = next(p for p in plans if p.key == ("POST", "/api/v1/games/{game_id}/events"))
        while tally.sent < target:
            _fuzz_one(app, world, events, target - tally.sent, rng.randrange(2**32), tally)
    finally:
        with capsys.disabled():
            print(tally.report(seed))
    assert tally.sent >= target
    for plan in plans:
        answers = tally.answers[plan.label]
        assert all(code < 500 for code in answers), f"{plan.label}: {dict(answers)} (seed {seed})"
        # An operation met only with 404s was not exercised: each must answer 2xx too, and those
        # on a game or a roster must mostly name a real one. At make test's size most operations
        # get a few dozen requests, too few to expect a valid one by chance (about one clock tap in
        # 25 fits the clock, a games import is one whole game): there the normal flows above answer
        # each operation, and the fuzz's own 2xx are asserted where it sent enough (the events).
        if soak.SOAK or sum(answers.values()) >= ENOUGH_FOR_2XX:
            assert any(200 <= code < 300 for code in answers), (
                f"{plan.label} never answered 2xx: {dict(answers)}"
            )
        if "{game_id}" in plan.key[1] or "{roster_id}" in plan.key[1]:
            assert tally.real[plan.label] * 2 > sum(answers.values()), f"{plan.label}: too few real ids"
    # Every game system's events are drawn from its own schemas, written from its event models.
    assert set(tally.systems) == set(names()), dict(tally.systems)


# ---------------------------------------------------------------------------------------------
# What the fuzz run and its review found: each was a 500 (or a stored value that broke pages
# later); each is now a 4xx with one sentence naming the field, for the smallest failing input.
# ---------------------------------------------------------------------------------------------
def _raw(client: FlaskClient, method: str, path: str, body: str, token: str | None = None) -> Any:
    headers = {"X-Edit-Token": token} if token else {}
    return client.open(path, method=method, data=body, content_type="application/json", headers=headers)


@pytest.mark.parametrize(
    ("body", "sentence"),
    [
        ("false", "The body must be an object of the fields to change"),
        ("[1, 2]", "The body must be an object of the fields to change"),
    ],
)
def test_changing_a_roster_with_a_body_that_is_not_an_object_is_422(client, body, sentence):
    made = client.post("/api/v1/rosters", json={"pack": "conquest-first-blood"}).json
    answer = _raw(client, "PUT", f"/api/v1/rosters/{made['id']}", body, made["edit_token"])
    assert answer.status_code == 422 and answer.json["error"].startswith(sentence)


def test_a_roll_whose_dice_is_a_list_is_422(client):
    game = Api(client, new_game(client))
    answer = game.post({"type": "roll", "dice": [], "results": [1]})
    assert answer.status_code == 422
    assert answer.json["error"] == "dice must be one of d3, d6, d12, 2d6, roll-off."


@pytest.mark.parametrize("points", ["²", "9" * 5000])
def test_a_points_limit_of_digits_int_cannot_read_is_422(client, points):
    for path in ("/api/v1/games", "/api/v1/games/import"):
        body = pitched_battle(strategies=NO_STRATEGIES, points_limit=points)
        if path.endswith("import"):
            body |= {
                "format": "muster-game/1",
                "id": "x" * 22,
                "created": "2026-01-01T00:00:00Z",
                "events": [],
            }
        answer = client.post(path, json=body)
        assert answer.status_code == 422, answer.json
        assert answer.json["error"] == "points_limit must be a whole number from 1 to 100000."


def test_json_nested_too_deeply_is_400(client):
    answer = _raw(client, "POST", "/api/v1/games", "[" * 100_000 + "]" * 100_000)
    assert answer.status_code == 400
    assert answer.json["error"] == "The body nests more than 64 levels deep; JSON here nests at most 64."
    assert _raw(client, "POST", "/api/v1/games", "[" * 65 + "]" * 65).status_code == 400


@pytest.mark.parametrize("count", ["1" + "0" * 400, "1" + "0" * 308, "1001", "-1", "2.5"])
def test_seizing_counts_beyond_a_table_are_422(client, count):
    for cls in ("medium-infantry", "light-infantry"):  # weighted and counted in pairs
        answer = _raw(
            client,
            "POST",
            "/api/v1/packs/conquest-first-blood/seize",
            f'{{"players": [{{"{cls}": {count}}}]}}',
        )
        assert answer.status_code == 422
        assert answer.json["error"] == f"players[0]['{cls}'] must be a whole number of models from 0 to 1000."


def test_a_lone_surrogate_is_refused_before_it_is_stored(client):
    half = "holds half a character (a lone surrogate such as \\ud800): send whole characters."
    players = '[{"name": "A\\ud800", "side": "attacker"}, {"name": "Bo", "side": "defender"}]'
    body = (
        f'{{"pack": "aos-ghb-2021", "scenario": "savage-gains", "points_limit": 2000, "players": {players}}}'
    )
    answer = _raw(client, "POST", "/api/v1/games", body)
    assert answer.status_code == 400 and answer.json["error"] == f"players[0].name {half}"
    # Stored, that name made the home page and the game's page answer 500 to everyone.
    assert client.get("/").status_code == 200

    game = new_game(client)
    attach = _raw(
        client,
        "POST",
        f"/api/v1/games/{game['id']}/rosters",
        '{"player": 0, "roster": "\\ud800"}',
        game["edit_token"],
    )
    assert attach.status_code == 400 and attach.json["error"] == f"roster {half}"
    exported = client.get(f"/api/v1/games/{game['id']}/export").json
    renamed = json.dumps({**exported, "id": "y" * 22}).replace(exported["created"], "2026\\udc00")
    imported = _raw(client, "POST", "/api/v1/games/import", renamed)
    assert imported.status_code == 400 and imported.json["error"] == f"created {half}"
    key = _raw(client, "POST", "/api/v1/rosters/check", '{"\\udfff": 1}')
    assert key.status_code == 400 and key.json["error"] == f"A key of the body {half}"


def test_terrain_at_an_infinite_position_is_422(client):
    pieces = '[{"name": "Hill", "x": 1e400, "y": 1}]'
    answer = _raw(
        client, "POST", "/api/v1/terrain/check", f'{{"pack": "conquest-first-blood", "pieces": {pieces}}}'
    )
    assert answer.status_code == 422
    assert answer.json["error"] == "pieces[0].x must be a number."


def test_a_game_whose_pack_or_scenario_is_gone_is_refused_not_500(tmp_path):
    # Found in review: an admin can remove a pack, or install one without a scenario in use.
    shutil.copytree(ROOT / "rulepacks", tmp_path / "packs")
    app = create_app(
        {
            "DATABASE": str(tmp_path / "m.sqlite"),
            "TESTING": True,
            "RULEPACKS": str(tmp_path / "packs"),
            "RULEPACKS_CHECK_SECONDS": 0,  # notice the folder's change at once
        }
    )
    client = app.test_client()
    made = first_blood_game(client)
    game, token = made["id"], {"X-Edit-Token": made["edit_token"]}
    roster = client.post("/api/v1/rosters", json={"pack": "conquest-first-blood"}).json["id"]
    pack = tmp_path / "packs" / "conquest-first-blood.yaml"
    roll = {"type": "roll", "dice": "d6", "results": [4]}
    for change in ("scenario", "pack"):
        if change == "scenario":
            pack.write_text(pack.read_text().replace("id: outflank", "id: outflank-2"))
        else:
            pack.unlink()
        answer = client.post(f"/api/v1/games/{game}/events", json={"id": _uid(), **roll}, headers=token)
        assert answer.status_code == 422, answer.json
        assert "installed here" in answer.json["error"]
        answer = client.post(
            f"/api/v1/games/{game}/rosters", json={"player": 0, "roster": roster}, headers=token
        )
        assert answer.status_code == 409 and "installed here" in answer.json["error"]
        assert client.get(f"/api/v1/games/{game}").status_code == 409
