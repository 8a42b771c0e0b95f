"""Every game starts from the new-game screen: its players and sides come from the scenario.

Conquest Unbound plays Triumph & Treachery for three to six, but its siege (The Relief Force)
and Tunnel Wars are for two: the form shows the scenario's own rows and question, with or
without JavaScript, and the server reads it the same way (issue 24 item 1).
"""

from __future__ import annotations

import json
from pathlib import Path

from flask.testing import FlaskClient

from app import create_app
from app.rules import dice
from app.web.services import packs
from tests.web.conftest import csrf_token, soup, whole_page
from tests.web.helpers import UNBOUND, rolling_club_packs


def _form(client: FlaskClient, url: str) -> dict[str, str]:
    return {"csrf_token": csrf_token(client, url), "pack": UNBOUND, "points_limit": "2000"}


def _rows(page) -> int:
    return len(page.select("fieldset.player"))


def test_a_two_player_scenario_shows_two_players_and_who_attacks(client: FlaskClient) -> None:
    # Without a scenario the pack's own count: Triumph & Treachery's three to six.
    page = soup(client.get(f"/games/new?pack={UNBOUND}"))
    assert _rows(page) == 6 and page.select_one("#first-side") is None
    siege = soup(client.get(f"/games/new?pack={UNBOUND}&scenario=the-relief-force"))
    assert _rows(siege) == 2
    assert siege.select_one("#first-side legend").text == "Who attacks?"
    assert siege.select_one("#seating-line").text == "2 players, attacker and defender."
    assert page.select_one("#seating-line").text == "3 to 6 players."
    assert siege.select_one("#name1").has_attr("required")
    tunnels = soup(client.get(f"/games/new?pack={UNBOUND}&scenario=tunnel-wars"))
    assert _rows(tunnels) == 2 and tunnels.select_one("#first-side") is None
    # A draft in the address (a scenario changed without JavaScript, a reload) is kept.
    kept = soup(client.get(f"/games/new?pack={UNBOUND}&scenario=the-relief-force&name0=Ann&first_side=1"))
    assert kept.select_one("#name0")["value"] == "Ann"
    assert kept.select_one('#first-side input[value="1"]').has_attr("checked")


def test_the_players_part_follows_the_scenario_and_stays_when_seated_alike(client: FlaskClient) -> None:
    htmx = {"HX-Request": "true"}
    part = client.get(
        f"/games/new?part=players&pack={UNBOUND}&scenario=the-relief-force&name0=Ann&name1=Bo", headers=htmx
    )
    fragment = soup(part)
    assert part.status_code == 200 and not whole_page(part)
    assert _rows(fragment) == 2 and fragment.select_one("#name1")["value"] == "Bo"
    key = fragment.select_one('input[name="seating"]')["value"]
    # Tunnel Wars seats two without sides: a different part. The siege again: nothing to redraw.
    other = soup(client.get(f"/games/new?part=players&pack={UNBOUND}&scenario=tunnel-wars", headers=htmx))
    assert other.select_one('input[name="seating"]')["value"] != key
    same = client.get(
        f"/games/new?part=players&pack={UNBOUND}&scenario=the-relief-force&seating={key}", headers=htmx
    )
    assert same.status_code == 204


def test_the_relief_force_and_tunnel_wars_start_from_the_form(client: FlaskClient) -> None:
    url = f"/games/new?pack={UNBOUND}&scenario=the-relief-force"
    siege = {**_form(client, url), "scenario": "the-relief-force", "name0": "Ann", "name1": "Bo"}
    made = client.post("/games", data={**siege, "first_side": "1"})
    assert made.status_code == 303, soup(made).select_one("#form-error")
    game = client.get("/api/v1/games/" + made.headers["Location"].rsplit("/", 1)[1]).json
    assert [(p["name"], p["side"]) for p in game["players"]] == [("Ann", "defender"), ("Bo", "attacker")]
    assert game["scenario"] == "the-relief-force" and "siege" in game  # played by the siege system
    tunnels = {**siege, "scenario": "tunnel-wars"}
    made = client.post("/games", data=tunnels)
    assert made.status_code == 303, soup(made).select_one("#form-error")
    game = client.get("/api/v1/games/" + made.headers["Location"].rsplit("/", 1)[1]).json
    assert [(p["name"], p["side"]) for p in game["players"]] == [("Ann", None), ("Bo", None)]
    assert game["scenario"] == "tunnel-wars" and game["battles"] == 3  # three battles underground
    # Convergence of Fate, in the same pack, still takes three or more.
    fate = {**siege, "scenario": "convergence-of-fate", "name2": "Cy"}
    made = client.post("/games", data=fate)
    assert made.status_code == 303
    game = client.get("/api/v1/games/" + made.headers["Location"].rsplit("/", 1)[1]).json
    assert [p["name"] for p in game["players"]] == ["Ann", "Bo", "Cy"] and "turn_order" in game


def test_a_refused_new_game_says_why_in_player_words_and_keeps_the_draft(client: FlaskClient) -> None:
    url = f"/games/new?pack={UNBOUND}"
    base = {**_form(client, url), "name0": "Ann", "name1": "Bo", "name2": "Cy"}
    # Three names typed on the six-row form, then the siege picked without redrawing the rows.
    too_many = client.post("/games", data={**base, "scenario": "the-relief-force"})
    assert too_many.status_code == 422
    page = soup(too_many)
    assert page.select_one("#form-error").text == (
        "The Relief Force is played by 2 players: clear the names past player 2."
    )
    assert _rows(page) == 2 and page.select_one("#name0")["value"] == "Ann"
    no_scenario = soup(client.post("/games", data=base))
    assert no_scenario.select_one("#form-error").text == "Choose a scenario from the list."
    blank = soup(client.post("/games", data={**base, "name1": " ", "scenario": "tunnel-wars", "name2": ""}))
    assert blank.select_one("#form-error").text == "Player 2's name must be 1 to 40 characters."


def test_a_scenario_rolled_brings_its_players_part_along(tmp_path: Path) -> None:
    folder = rolling_club_packs(tmp_path / "rulepacks")
    app = create_app({"DATABASE": str(tmp_path / "m.sqlite"), "RULEPACKS": str(folder), "TESTING": True})
    client = app.test_client()
    form = soup(client.get(f"/games/new?pack={UNBOUND}"))
    shown = form.select_one('input[name="seating"]')["value"]
    data = {"csrf_token": csrf_token(client, "/games/new"), "pack": UNBOUND, "seating": shown, "name0": "Ann"}
    rolled = soup(client.post("/games/new/roll", data=data))
    picked = rolled.select_one("#scenario option[selected]")["value"]
    assert picked in ("the-relief-force", "tunnel-wars")
    part = rolled.select_one('#players-part[hx-swap-oob="outerHTML"]')
    assert part is not None and len(part.select("fieldset.player")) == 2
    assert part.select_one("#name0")["value"] == "Ann"
    # Rolled again from the form now shown: the part comes along only when the scenario rolled
    # seats its players otherwise (the siege asks who attacks, Tunnel Wars has no sides).
    data["seating"] = part.select_one('input[name="seating"]')["value"]
    for _ in range(6):
        again = soup(client.post("/games/new/roll", data=data))
        changed = again.select_one("#scenario option[selected]")["value"] != picked
        assert (again.select_one("#players-part") is not None) == changed


def test_a_long_run_of_dice_thrown_again_keeps_the_roll_that_picked(tmp_path: Path) -> None:
    # The club's D6 picks a two-player scenario on a 1 or 2 only: thirteen 5s before the 1 is a
    # night one table in a hundred sees, and the 1 that picked The Relief Force must stay in its log.
    folder = rolling_club_packs(tmp_path / "rulepacks")
    app = create_app({"DATABASE": str(tmp_path / "m.sqlite"), "RULEPACKS": str(folder), "TESTING": True})
    client = app.test_client()
    with app.app_context():
        pack = packs()[UNBOUND]
    url = f"/games/new?pack={UNBOUND}&scenario=the-relief-force"
    siege = {
        **_form(client, url),
        "scenario": "the-relief-force",
        "name0": "Ann",
        "name1": "Bo",
        "first_side": "1",
    }
    for thrown_again, kept in ((13, 14), (60, 48)):
        rolled = dice.ScenarioRoll(6, (5,) * thrown_again + (1,), "the-relief-force")
        with app.test_request_context():
            events = dice.roll_events(pack, rolled)
        form = {**siege, "rolls": json.dumps({"scenario": "the-relief-force", "events": events})}
        made = client.post("/games", data=form)
        assert made.status_code == 303, soup(made).select_one("#form-error")
        game = client.get("/api/v1/games/" + made.headers["Location"].rsplit("/", 1)[1]).json
        purposes = [r["purpose"] for r in game["rolls"]]
        assert len(purposes) == kept
        assert purposes[0] == "Scenario roll: 5, no scenario 5 (not playable: roll again)"
        assert purposes[-1] == "Scenario roll: 1, The Relief Force"
