"""One answer to "what may be recorded now": for sieges, Tunnel Wars and Triumph & Treachery,
the next steps start where the engine's open entries say, and the API refuses an entry that is
closed with the same sentence the screens show beside it (issue 28, item 3).

Worked from the rules: a siege's tactics, then batter, starve and tunnel, then the battle
rounds; a Tunnel Wars battle starts once both contingents are in, and nothing is recorded once
every battle is fought; a Triumph & Treachery round starts, then its turns, and deals are made
at the start of a turn only.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from app.rules.log import Refused
from app.web.services import games_service
from tests.web.helpers import made, post, seat, siege, tactic

ANN, BO, CY = 0, 1, 2


def answer(app: Flask, game: dict[str, Any], who: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The engine's open entries for ``who`` (``None``: the table) and the game's next steps."""
    with app.app_context():
        loaded = games_service().load(game["id"])
        assert loaded is not None
        return loaded.system.open_entries(loaded.state, who), loaded.system.next_steps(loaded.state)


def recorded(client: FlaskClient, game: dict[str, Any], event: dict[str, Any], **headers: str) -> None:
    sent = post(client, game, event, **headers)
    assert sent.status_code == 201, sent.json


def refused_as(
    client: FlaskClient, game: dict[str, Any], event: dict[str, Any], entry: dict[str, Any], **headers: str
) -> str:
    """The API refuses ``event`` with the closed entry's sentence (the screen shows its ``why``:
    the same sentence without the field it names)."""
    assert entry["open"] is False and entry["why"]
    sent = post(client, game, event, **headers)
    assert sent.status_code == 422, sent.json
    error = sent.json["error"]
    assert error == entry["refusal"]
    assert entry["why"] == Refused(error).reason
    return error


# --- sieges ---------------------------------------------------------------------------------
def test_a_sieges_next_step_is_the_entry_its_engine_opens_and_a_closed_one_is_refused_alike(
    app: Flask, client: FlaskClient
):
    game = siege(client)
    edit = game["edit_token"]
    may, steps = answer(app, game)
    # Before both tactics are in, only the hidden picks are open: the rolls wait.
    assert may["tactics"] == {"open": True, "players": [ANN, BO]} and steps["plan"] == ["tactics"]
    assert may["batter"]["why"] == "The batter rolls must wait until both siege tactics are picked."
    refused_as(client, game, {"type": "batter", "features": []}, may["batter"], edit=edit)
    assert tactic(client, game, ANN, 3, seat=seat(game, ANN)).status_code == 201
    may, steps = answer(app, game)
    assert may["tactics"]["players"] == [BO] and steps["plan"] == ["tactics"]
    assert tactic(client, game, BO, 4, seat=seat(game, BO)).status_code == 201
    # Both are in: the batter rolls are open, and they are the plan's first step.
    may, steps = answer(app, game)
    assert may["batter"]["open"] and not may["starve"]["open"] and not may["tactics"]["open"]
    assert steps["plan"] == ["batter", "starve", "tunnel", "round-1"]
    error = refused_as(client, game, {"type": "starve", "units": []}, may["starve"], edit=edit)
    assert error == "The starve rolls must wait until the batter rolls are recorded."
    refused_as(client, game, {"type": "relief_edge", "die": 5}, may["relief_edge"], edit=edit)
    recorded(client, game, {"type": "batter", "features": []}, edit=edit)
    recorded(client, game, {"type": "starve", "units": []}, edit=edit)
    may, steps = answer(app, game)
    assert steps["plan"] == ["tunnel", "round-1"] and may["tunnel"]["open"]
    # A step the siege phase has passed is refused with the entry's own sentence, naming it.
    error = refused_as(client, game, {"type": "batter", "features": []}, may["batter"], edit=edit)
    assert error.startswith("The batter rolls: the siege phase has passed this step")
    recorded(client, game, {"type": "tunnel", "dice": [1, 6]}, edit=edit)
    # The battle: its first round is open, then the turns in the order the first player sets.
    may, steps = answer(app, game)
    assert may["battle_round"] == {"open": True, "why": None, "round": 1}
    assert steps["plan"] == ["round-1"] and steps["in_play"] == 1
    refused_as(
        client,
        game,
        {"type": "tunnel_party", "units": [{"name": "Liberators"}]},
        may["tunnel_party"],
        edit=edit,
    )
    recorded(client, game, {"type": "battle_round", "round": 1, "first": BO}, edit=edit)
    may, steps = answer(app, game)
    assert not may["battle_round"]["open"] and may["turn"]["players"] == [BO]
    assert steps["plan"][:2] == ["turn-1-1", "turn-1-0"]


def test_a_seat_and_the_table_get_the_same_refusal_for_a_sieges_closed_entry(app: Flask, client: FlaskClient):
    game = siege(client)
    for who, headers in ((ANN, {"seat": seat(game, ANN)}), (None, {"edit": game["edit_token"]})):
        may, _ = answer(app, game, who)
        refused_as(client, game, {"type": "end", "attacker_objectives": 1}, may["end"], **headers)


# --- Tunnel Wars ------------------------------------------------------------------------------
def series(client: FlaskClient) -> dict[str, Any]:
    made = client.post(
        "/api/v1/games",
        json={
            "pack": "aos-conquest-unbound",
            "scenario": "tunnel-wars",
            "points_limit": 2000,
            "players": [{"name": "Ann"}, {"name": "Bo"}],
        },
    )
    assert made.status_code == 201, made.json
    return {**made.json, "creator": client}


def pick(client: FlaskClient, game: dict[str, Any], battle: int, player: int, contingent: int) -> None:
    event = {"type": "contingent", "battle": battle, "player": player, "contingent": contingent}
    recorded(client, game, event, seat=seat(game, player))


def test_a_series_next_steps_are_the_picks_its_engine_opens_and_a_fought_series_refuses_alike(
    app: Flask, client: FlaskClient
):
    game = series(client)
    edit = game["edit_token"]
    may, steps = answer(app, game)
    assert may["picks"] == {"open": True, "battle": 1, "players": [ANN, BO]} and may["series"]["open"]
    assert steps["plan"][:3] == ["contingent-1-0", "contingent-1-1", "battle-1"]
    pick(client, game, 1, BO, 1)
    may, steps = answer(app, game)
    assert may["picks"]["players"] == [ANN] and steps["plan"][:2] == ["contingent-1-0", "battle-1"]
    pick(client, game, 1, ANN, 2)
    may, steps = answer(app, game)
    assert may["picks"]["players"] == [] and steps["plan"][0] == "battle-1"
    recorded(client, game, {"type": "battle_result", "battle": 1, "winner": ANN}, edit=edit)
    may, steps = answer(app, game)
    assert may["picks"] == {"open": True, "battle": 2, "players": [ANN, BO]}
    assert steps["plan"] == [
        "contingent-2-0",
        "contingent-2-1",
        "battle-2",
        "contingent-3-0",
        "contingent-3-1",
        "battle-3",
        "over",
    ]
    for battle, (ann, bo) in ((2, (1, 3)), (3, (3, 2))):
        pick(client, game, battle, ANN, ann)
        pick(client, game, battle, BO, bo)
        recorded(client, game, {"type": "battle_result", "battle": battle, "winner": BO}, edit=edit)
    # Every battle is fought: the series entry is closed, and a battle's entry is refused with it.
    may, steps = answer(app, game)
    assert steps["plan"] == ["over"] and may["picks"]["players"] == []
    assert may["series"]["why"] == "All 3 battles are fought; undo the last entry to change them."
    trap = {"type": "trap", "battle": 3, "round": 1, "player": ANN, "distance": 4, "dice": [1, 1]}
    refused_as(client, game, trap, may["series"], edit=edit)


# --- Triumph & Treachery ---------------------------------------------------------------------
def test_a_multiplayer_games_next_steps_follow_its_open_entries_and_a_late_deal_is_refused_alike(
    app: Flask, client: FlaskClient
):
    game = made(client)
    edit = game["edit_token"]
    may, steps = answer(app, game)
    # The round starts first; nobody named who goes first, so every waiting player's turn may come.
    assert may["battle_round"] == {"open": True, "why": None, "round": 1}
    assert may["turn"] == {"open": True, "round": 1, "players": [ANN, BO, CY], "first": None}
    assert steps["plan"][:4] == ["round-1", "turn-1-0", "turn-1-1", "turn-1-2"]
    recorded(client, game, {"type": "battle_round", "round": 1}, edit=edit)
    may, steps = answer(app, game)
    assert may["battle_round"]["why"] == "round 1 has already started: its battle_round is recorded."
    assert steps["plan"][0] == "turn-1-0" and steps["steps"]["turn-1-0"]["choice"] == "player"
    # An enemy pick names the player taking the turn: their turn is the plan's first step.
    recorded(
        client, game, {"type": "enemy", "round": 1, "player": BO, "phase": "movement", "enemy": CY}, edit=edit
    )
    may, steps = answer(app, game)
    assert may["turn"]["first"] == BO and steps["plan"][:3] == ["turn-1-1", "turn-1-0", "turn-1-2"]
    # Deals are made at the start of a turn: the table and a seat are refused with the entry's sentence.
    deal = {"type": "deal", "round": 1, "from": ANN, "to": CY, "cp": 1}
    error = refused_as(client, game, deal, may["deal"], edit=edit)
    assert error == "round: deals are made at the start of a turn, and Bo's turn already has an enemy pick."
    mine, _ = answer(app, game, ANN)
    refused_as(client, game, deal, mine["deal"], seat=seat(game, ANN))
    recorded(client, game, {"type": "turn", "round": 1, "player": BO}, edit=edit)
    may, steps = answer(app, game)
    assert may["deal"]["open"] and may["turn"]["players"] == [ANN, CY]
    assert steps["plan"][:2] == ["turn-1-0", "turn-1-2"]
