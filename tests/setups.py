"""The games the tests play, built in one place: set-ups, rosters and the calls that start them.

Ann and Bo sit at every table. In Pitched Battles Ann attacks and Bo defends (on the new-game
screen's form Bo attacks); in First Blood Ann is Player 1 and Bo Player 2. Three kinds of
builder:

- plain data: the JSON body a club tool sends to ``POST /api/v1/games`` (``pitched_battle``,
  ``first_blood``, ``game_of``), the new-game screen's form (``new_game_form``), a roster body
  (``seraphon_roster``) and the rules engines' ``Setup`` (``pitched_battle_setup``,
  ``first_blood_setup``);
- through a Flask test client: ``start``, ``new_game``, ``first_blood_game``, ``join``,
  ``second_phone``, ``terrain_game``;
- through a running server, from a browser test: ``start_live``, ``live_game``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.rules.game import Player, Setup

if TYPE_CHECKING:
    from flask import Flask
    from flask.testing import FlaskClient
    from playwright.sync_api import APIRequestContext
    from werkzeug.test import TestResponse

PITCHED_BATTLES = "aos-ghb-2021"
FIRST_BLOOD = "conquest-first-blood"
NAMES = ("Ann", "Bo")
# The grand strategies Ann and Bo pick unless a test says otherwise.
STRATEGIES = ("hold-the-line", "vendetta")
# What the new-game screen's tests pick.
SCREEN_STRATEGIES = ("hold-the-line", "beast-master")
NO_STRATEGIES: tuple[None, None] = (None, None)


# --- plain data ---------------------------------------------------------------------------------
def pitched_battle(
    scenario: str = "savage-gains",
    *,
    strategies: tuple[str | None, str | None] = STRATEGIES,
    names: tuple[str, str] = NAMES,
    points_limit: int | str = 2000,
    **extra: Any,
) -> dict[str, Any]:
    """A Pitched Battles 2021 game's set-up as the API takes it; Ann attacks, Bo defends.

    A strategy of ``None`` leaves that player's ``grand_strategy`` out of the body; ``extra``
    replaces or adds top-level fields (``players`` included).
    """
    players = []
    for name, side, strategy in zip(names, ("attacker", "defender"), strategies, strict=True):
        player: dict[str, Any] = {"name": name, "side": side}
        if strategy is not None:
            player["grand_strategy"] = strategy
        players.append(player)
    return {
        "pack": PITCHED_BATTLES,
        "scenario": scenario,
        "points_limit": points_limit,
        "players": players,
        **extra,
    }


def first_blood(
    scenario: str = "outflank", *, names: tuple[str, str] = NAMES, points_limit: int = 800
) -> dict[str, Any]:
    """A Conquest: First Blood game's set-up as the API takes it; Ann is Player 1, Bo Player 2."""
    return {
        "pack": FIRST_BLOOD,
        "scenario": scenario,
        "points_limit": points_limit,
        "players": [{"name": names[0], "side": "player1"}, {"name": names[1], "side": "player2"}],
    }


def game_of(pack: str, scenario: str) -> dict[str, Any]:
    """The plainest set-up of a scenario of either pack: the pack's own points, no strategies."""
    if pack == FIRST_BLOOD:
        return first_blood(scenario)
    if pack == PITCHED_BATTLES:
        return pitched_battle(scenario, strategies=NO_STRATEGIES)
    raise ValueError(f"no set-up for the pack {pack!r}")


def new_game_form(
    csrf_token: str, scenario: str = "savage-gains", names: tuple[str, str] = NAMES
) -> dict[str, str]:
    """The new-game screen's form for Pitched Battles, filled in: Bo (player 2) attacks."""
    return {
        "csrf_token": csrf_token,
        "pack": PITCHED_BATTLES,
        "points_limit": "2000",
        "name0": names[0],
        "name1": names[1],
        "strategy0": SCREEN_STRATEGIES[0],
        "strategy1": SCREEN_STRATEGIES[1],
        "first_side": "1",
        "scenario": scenario,
    }


def seraphon_roster(**extra: Any) -> dict[str, Any]:
    """Hammerfest: a legal 1085-point Seraphon roster for Pitched Battles, Lord Kroak its general,
    a Stegadon its one MONSTER; ``extra`` replaces or adds top-level fields."""
    return {
        "pack": PITCHED_BATTLES,
        "name": "Hammerfest",
        "points_limit": 2000,
        "faction": "Seraphon",
        "grand_strategy": "prized-sorcery",
        "entries": [
            {
                "name": "Lord Kroak",
                "points": 430,
                "roles": ["Leader"],
                "keywords": ["HERO", "WIZARD"],
                "general": True,
                "single_model": True,
            },
            {"name": "Saurus Guard", "points": 115, "roles": ["Battleline"]},
            {"name": "Saurus Warriors", "points": 200, "roles": ["Battleline"], "size": "reinforced"},
            {"name": "Skinks", "points": 70, "roles": ["Battleline"]},
            {"name": "Stegadon", "points": 270, "roles": ["Behemoth"], "keywords": ["MONSTER"]},
        ],
        **extra,
    }


def pitched_battle_setup(scenario: str, strategies: tuple[str | None, str | None] = STRATEGIES) -> Setup:
    """The rules engine's set-up of a 2000-point Pitched Battles game: Ann attacks, Bo defends."""
    return Setup(
        PITCHED_BATTLES,
        scenario,
        2000,
        (Player(NAMES[0], "attacker", strategies[0]), Player(NAMES[1], "defender", strategies[1])),
    )


def first_blood_setup(scenario: str) -> Setup:
    """The rules engine's set-up of an 800-point First Blood game: Ann is Player 1, Bo Player 2."""
    return Setup(FIRST_BLOOD, scenario, 800, (Player(NAMES[0], "player1"), Player(NAMES[1], "player2")))


# --- through a Flask test client ----------------------------------------------------------------
def new_game(client: FlaskClient, scenario: str = "savage-gains", **extra: Any) -> dict[str, Any]:
    """A Pitched Battles game made through the API (``pitched_battle``'s fields); its answer."""
    return start(client, pitched_battle(scenario, **extra))


def first_blood_game(client: FlaskClient, scenario: str = "outflank") -> dict[str, Any]:
    """A First Blood game made through the API; its answer (id, edit token, links)."""
    return start(client, first_blood(scenario))


def start(client: FlaskClient, body: dict[str, Any]) -> dict[str, Any]:
    """Post a set-up to the API, which must make the game; its answer."""
    made = client.post("/api/v1/games", json=body)
    assert made.status_code == 201, made.json
    return made.json


def join(client: FlaskClient, made: dict[str, Any]) -> TestResponse:
    """This phone joins the game as a player, by the link the game's maker was given."""
    return client.get(f"/games/{made['id']}/join/{made['edit_token']}")


def second_phone(app: Flask, made: dict[str, Any]) -> FlaskClient:
    """Another phone (its own browser and cookie) that has joined the game by its link."""
    phone = app.test_client()
    join(phone, made)
    return phone


def terrain_game(client: FlaskClient, scenario: str = "outflank") -> tuple[dict[str, Any], str]:
    """A First Blood game this phone has joined, and the address of its terrain screen."""
    made = first_blood_game(client, scenario)
    join(client, made)
    return made, f"/games/{made['id']}/terrain"


# --- through the real server ---------------------------------------------------------------------
def start_live(request: APIRequestContext, base: str, body: dict[str, Any]) -> dict[str, Any]:
    """Post a set-up to a running server (a browser test's ``page.request``); its answer."""
    made = request.post(f"{base}/api/v1/games", data=body)
    assert made.status == 201, made.text()
    return made.json()


def live_game(
    request: APIRequestContext, base: str, pack: str = PITCHED_BATTLES, scenario: str = "savage-gains"
) -> dict[str, Any]:
    """A game made on a running server through its API, as a club tool would: Pitched Battles
    with Bo on Beast Master (as on the new-game screen), or First Blood at 500 points."""
    if pack == FIRST_BLOOD:
        return start_live(request, base, first_blood(scenario, points_limit=500))
    return start_live(request, base, pitched_battle(scenario, strategies=SCREEN_STRATEGIES))
