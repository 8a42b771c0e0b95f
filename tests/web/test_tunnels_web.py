"""Tunnel Fighting on the Tunnel Wars screens: each form as a phone sends it (htmx or plain
POST), what it records, its refusal beside it, and every roll's outcome in words.

Ann is player 0 (seat 0) and Bo player 1 (seat 1); both pick contingent 1 for battle 1.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.pdfs import pdf_text
from tests.web.conftest import form_fields, soup
from tests.web.helpers import phone, post, seat

PACK = "aos-conquest-unbound"
HTMX = {"HX-Request": "true"}


def series(client: FlaskClient, picked: bool = True) -> dict[str, Any]:
    """A Tunnel Wars series, with both contingents of battle 1 in when ``picked``."""
    answer = client.post(
        "/api/v1/games",
        json={
            "pack": PACK,
            "scenario": "tunnel-wars",
            "points_limit": 2000,
            "players": [{"name": "Ann"}, {"name": "Bo"}],
        },
    )
    assert answer.status_code == 201, answer.json
    game = {**answer.json, "creator": client}
    if picked:
        for player in (0, 1):
            pick = {"type": "contingent", "battle": 1, "player": player, "contingent": 1}
            assert post(client, game, pick, seat=seat(game, player)).status_code == 201
    return game


def send(screen: FlaskClient, game: dict[str, Any], form: str, htmx: bool = True, **values: str) -> Any:
    """Fill in the form ``form`` (a selector) as it stands on this screen and send it."""
    action, data = form_fields(screen.get(f"/games/{game['id']}"), form)
    data.update(values)
    return screen.post(action, data=data, headers=HTMX if htmx else {})


def events(client: FlaskClient, game: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    answer = client.get(f"/api/v1/games/{game['id']}/events", headers={"X-Edit-Token": game["edit_token"]})
    return [e for e in answer.json if e["type"] == kind]


def history(screen: FlaskClient, game: dict[str, Any]) -> list[str]:
    page = soup(screen.get(f"/games/{game['id']}"))
    return [" ".join(li.get_text(" ", strip=True).split()) for li in page.select(".history .turn-entry")]


def refusal(answer: Any, form: str) -> str:
    """The sentence a refused form shows inside itself (one, and in the refusal header too)."""
    assert answer.status_code == 422, answer.data[:300]
    page = soup(answer)
    alerts = page.select("[role=alert]")
    assert len(alerts) == 1 and page.select_one(f"{form} [role=alert]") is alerts[0]
    return alerts[0].get_text(strip=True)


def round_status(screen: FlaskClient, game: dict[str, Any]) -> str:
    found = soup(screen.get(f"/games/{game['id']}")).select_one("[data-testid=denizen-now]")
    return " ".join(found.get_text(" ", strip=True).split()) if found else ""


# --- the denizen -----------------------------------------------------------------------------
def test_the_set_up_roll_off_is_kept_with_its_ties_before_the_contingents(app: Flask):
    client = app.test_client()
    game = series(client, picked=False)
    table = phone(app, game, "table")
    form = "#setup-denizen-form"
    tied = send(table, game, form, **{"roll.0.0": "4", "roll.0.1": "4"})
    assert refusal(tied, form) == (
        "Every pair but the last must be a tie (rolled again), and the last must not be."
    )
    # What was typed stays in the form, to change rather than type again.
    assert soup(tied).select_one(f"{form} input[name='roll.0.0']")["value"] == "4"
    half = send(table, game, form, **{"roll.0.0": "4", "roll.0.1": ""})
    assert refusal(half, form) == "The roll-off needs both players' dice, each a whole number from 1 to 6."
    answer = send(table, game, form, **{"roll.0.0": "3", "roll.0.1": "3", "roll.1.0": "5", "roll.1.1": "2"})
    assert answer.status_code == 200
    (event,) = events(client, game, "denizen")
    assert (event["round"], event["dice"]) == (0, [[3, 3], [5, 2]])
    assert history(table, game)[0] == (
        "The denizen at the set-up of battle 1: Ann 3, Bo 3; again: Ann 5, Bo 2. "
        "Ann may set up a MONSTER from neither army as the denizen"
    )
    assert soup(table.get(f"/games/{game['id']}")).select_one(form) is None


def test_each_rounds_roll_off_then_the_attack_on_the_denizen_shown_until_the_round_ends(app: Flask):
    client = app.test_client()
    game = series(client)
    table, ann, bo = (phone(app, game, who) for who in ("table", 0, 1))
    assert send(table, game, "#denizen-form", **{"roll.0.0": "2", "roll.0.1": "5"}).status_code == 200
    assert round_status(table, game) == "The denizen fights for Bo until round 1 ends (Bo won the roll-off)."
    # The roll-off opened round 1: its first turn may follow, and the next roll-off is round 2's.
    page = soup(table.get(f"/games/{game['id']}"))
    assert page.select_one("#round-form input[name=round]")["value"] == "1"
    assert page.select_one("#denizen-form input[name=round]")["value"] == "2"
    assert "Bo commands it this round" in history(table, game)[0]
    # Only the commanding player's seat offers the attack; the table offers it for them.
    assert soup(ann.get(f"/games/{game['id']}")).select_one("#attack-form") is None
    forged = send(bo, game, "#attack-form", player="0")
    assert refusal(forged, "#attack-form") == (
        "Only the denizen's commanding player may attack it, and Ann does not command it in battle round 1."
    )
    assert send(bo, game, "#attack-form").status_code == 200
    assert events(client, game, "denizen_attack")[0]["player"] == 1
    for screen in (table, ann, bo):
        assert round_status(screen, game) == (
            "The denizen fights for Ann until round 1 ends (Bo won the roll-off; Bo attacked it)."
        )
    assert history(ann, game)[0] == (
        "Battle 1, round 1: Bo attacks the denizen; it fights for Ann until the round ends"
    )
    # Bo has turned on it once this round: his seat no longer offers it.
    assert soup(bo.get(f"/games/{game['id']}")).select_one("#attack-form") is None
    # The next round's roll-off ends the round: the attack is no longer shown.
    assert send(table, game, "#denizen-form", **{"roll.0.0": "6", "roll.0.1": "1"}).status_code == 200
    assert (
        round_status(table, game) == "The denizen fights for Ann until round 2 ends (Ann won the roll-off)."
    )


def test_the_first_turn_of_a_round_is_recorded_from_its_form(app: Flask):
    client = app.test_client()
    game = series(client)
    table = phone(app, game, "table")
    assert refusal(send(table, game, "#round-form", first="2"), "#round-form") == (
        "first must be one of the players (Ann or Bo), or nobody."
    )
    assert send(table, game, "#round-form", first="1").status_code == 200
    (event,) = events(client, game, "battle_round")
    assert (event["battle"], event["round"], event["first"]) == (1, 1, 1)
    assert history(table, game)[0] == "Battle 1, round 1 begins: Bo takes the first turn"
    page = soup(table.get(f"/games/{game['id']}"))
    # Round 1 is under way: its roll-off may still come; round 2 is the next to start.
    assert page.select_one("#denizen-form input[name=round]")["value"] == "1"
    assert page.select_one("#round-form input[name=round]")["value"] == "2"


def test_taming_the_raging_beast_gives_a_player_the_denizen_for_the_round(app: Flask):
    client = app.test_client()
    game = series(client)
    table, ann = phone(app, game, "table"), phone(app, game, 0)
    send(table, game, "#denizen-form", **{"roll.0.0": "1", "roll.0.1": "4"})
    # A seat tames for its own player; the table says whose HERO did it.
    assert soup(ann.get(f"/games/{game['id']}")).select("#tame-form input[name=player]")[0]["value"] == "0"
    assert refusal(send(table, game, "#tame-form"), "#tame-form") == (
        "player must be one of the players (Ann or Bo)."
    )
    assert send(ann, game, "#tame-form").status_code == 200
    assert events(client, game, "tame")[0]["player"] == 0
    assert round_status(table, game) == (
        "The denizen fights for Ann until round 1 ends (Bo won the roll-off; Ann tamed it)."
    )
    assert history(table, game)[0] == (
        "Battle 1, round 1: Ann tames the raging beast; it fights for Ann until the round ends"
    )


# --- unstable surroundings ----------------------------------------------------------------------
def test_each_unstable_surroundings_die_is_recorded_with_what_it_brought_down(app: Flask):
    client = app.test_client()
    game = series(client)
    table, ann = phone(app, game, "table"), phone(app, game, 0)
    send(table, game, "#round-form", first="0")
    form = "#unstable-form"
    early = send(ann, game, form, die="5", choice="cave-in", point="By the pillar")
    assert refusal(early, form) == "choice must be left out: the die needed 6 or more."
    assert soup(early).select_one(f"{form} input[name=die]")["value"] == "5"
    nameless = send(ann, game, form, die="6", choice="stalactites", d3="2", **{"unit.0.die": "4"})
    assert refusal(nameless, form) == ("Unit 1 of the falling stalactites needs its name beside its die.")
    answer = send(
        ann,
        game,
        form,
        die="6",
        choice="stalactites",
        d3="2",
        point="typed before the choice changed",
        **{"unit.0": "Liberators", "unit.0.die": "2", "unit.1": "Sequitors", "unit.1.die": "1"},
    )
    assert answer.status_code == 200
    (event,) = events(client, game, "unstable")
    assert event["units"] == [{"unit": "Liberators", "die": 2}, {"unit": "Sequitors", "die": 1}]
    assert "point" not in event
    assert history(table, game)[0] == (
        "Unstable surroundings, hero phase of Ann, battle 1 round 1: 6, falling stalactites (D3: 2) "
        "on Bo's Liberators (2: 1 mortal wound), Sequitors (1: none); 2+ deals 1 mortal wound"
    )
    # Ann's die for round 1 is in: her seat offers it no more, the table only for Bo.
    assert soup(ann.get(f"/games/{game['id']}")).select_one(form) is None
    assert [i["value"] for i in soup(table.get(f"/games/{game['id']}")).select(f"{form} [name=player]")] == [
        "1"
    ]
    assert send(table, game, form, die="6", choice="cave-in", point="The narrow bend").status_code == 200
    assert history(table, game)[0] == (
        "Unstable surroundings, hero phase of Bo, battle 1 round 1: 6, a cave-in at The narrow bend"
    )
    assert (
        "Ann 6, Bo 6" in soup(table.get(f"/games/{game['id']}")).select_one("[data-testid=round-status]").text
    )


def test_an_unstable_die_below_six_brings_nothing_down_and_a_six_may_be_let_pass(app: Flask):
    client = app.test_client()
    game = series(client)
    table = phone(app, game, "table")
    send(table, game, "#round-form", first="0")
    assert send(table, game, "#unstable-form", player="0", die="5").status_code == 200
    assert send(table, game, "#unstable-form", player="1", die="6").status_code == 200
    assert history(table, game)[:2] == [
        "Unstable surroundings, hero phase of Bo, battle 1 round 1: 6, neither a cave-in nor stalactites chosen",
        "Unstable surroundings, hero phase of Ann, battle 1 round 1: 5, nothing falls",
    ]
    # Both dice of round 1 are in: the form waits for round 2.
    assert soup(table.get(f"/games/{game['id']}")).select_one("#unstable-form") is None


# --- Cunning Traps ------------------------------------------------------------------------------
def test_cunning_traps_are_rolled_against_the_measured_distance(app: Flask):
    client = app.test_client()
    game = series(client)
    table, bo = phone(app, game, "table"), phone(app, game, 1)
    send(table, game, "#round-form", first="0")
    form = "#trap-form"
    far = send(bo, game, form, target="Orruks", distance="12.5", **{"die.0": "6", "die.1": "6"})
    assert (
        refusal(far, form) == 'distance must be the measured distance in inches, more than 0 and at most 12".'
    )
    reached = {"target": "Orruks", "distance": "7,5", "die.0": "4", "die.1": "4"}
    assert (
        refusal(send(bo, game, form, **reached), form)
        == "mortal_wounds must be a D3 as it landed, 1 to 3: the roll reached the distance."
    )
    assert send(bo, game, form, **reached, mortal_wounds="2").status_code == 200
    assert (
        send(bo, game, form, target="Grots", distance="9", **{"die.0": "4", "die.1": "4"}).status_code == 200
    )
    traps = events(client, game, "trap")
    assert [(t["player"], t["distance"], t["dice"], t.get("mortal_wounds")) for t in traps] == [
        (1, 7.5, [4, 4], 2),
        (1, 9, [4, 4], None),
    ]
    assert history(table, game)[:2] == [
        "Cunning Traps by Bo on Ann's Grots, battle 1 round 1: 4 + 4 = 8 against 9\": short of it, no harm",
        "Cunning Traps by Bo on Ann's Orruks, battle 1 round 1: 4 + 4 = 8 against 7.5\": 2 mortal wounds",
    ]


# --- the screens as a whole -----------------------------------------------------------------------
def test_the_rules_in_force_underground_come_from_the_pack(app: Flask, packs):
    game = series(app.test_client(), picked=False)
    lines = packs[PACK].scenario("tunnel-wars").tunnel_fighting.reminders
    assert any('12"' in line for line in lines) and any('4"' in line for line in lines)
    for who in ("table", 0, None):
        card = soup(phone(app, game, who).get(f"/games/{game['id']}")).select_one("[data-testid=in-force]")
        assert [li.get_text(strip=True) for li in card.select("li")] == lines


def test_without_htmx_a_form_redirects_and_a_refusal_is_the_whole_page_with_it_beside_the_form(app: Flask):
    client = app.test_client()
    game = series(client)
    table = phone(app, game, "table")
    send(table, game, "#round-form", first="0")
    refused = send(table, game, "#unstable-form", htmx=False, player="0", die="7")
    assert refusal(refused, "#unstable-form") == "die must be the die as it landed, 1 to 6."
    assert refused.headers["X-Muster-Refusal"] and soup(refused).select_one("main") is not None
    answer = send(table, game, "#unstable-form", htmx=False, player="0", die="3")
    assert answer.status_code == 303 and events(client, game, "unstable")[0]["die"] == 3


def test_every_form_on_the_screens_moves_the_step_on_offline_and_a_watcher_has_none(app: Flask):
    """Offline, an entry kept on the phone moves the page past the step (docs/offline.md): with
    nothing rendered ahead for a battle, the screen says the next step needs Muster rather than
    leaving forms whose round may be stale."""
    client = app.test_client()
    game = series(client)
    table = phone(app, game, "table")
    send(table, game, "#denizen-form", **{"roll.0.0": "2", "roll.0.1": "5"})
    for who in ("table", 0, 1):
        page = soup(phone(app, game, who).get(f"/games/{game['id']}"))
        step = page.select_one("#game")["data-step"]
        forms = page.select("#step form")
        assert step == "battle-1" and len(forms) >= 5
        assert all(f.get("data-step") == step for f in forms)
        assert not page.select("#game template")
    watcher = soup(phone(app, game, None).get(f"/games/{game['id']}"))
    assert not watcher.select("form[data-step]") and "You are watching this game" in watcher.text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_series_sheet_prints_each_battles_roll_offs_unstable_dice_and_traps(client, paper):
    game = series(client)
    edit = {"edit": game["edit_token"]}
    for event in (
        {"type": "denizen", "battle": 1, "round": 1, "dice": [[3, 3], [5, 2]]},
        {"type": "denizen_attack", "battle": 1, "round": 1, "player": 0},
        {
            "type": "unstable",
            "battle": 1,
            "round": 1,
            "player": 1,
            "die": 6,
            "choice": "cave-in",
            "point": "The bend",
        },
        {
            "type": "trap",
            "battle": 1,
            "round": 1,
            "player": 0,
            "target": "Grots",
            "distance": 7,
            "dice": [3, 4],
            "mortal_wounds": 3,
        },
    ):
        assert post(client, game, event, **edit).status_code == 201
    text = " ".join(pdf_text(client.get(f"/games/{game['id']}/scoresheet.pdf?paper={paper}").data).split())
    assert "Battle 1: the monstrous denizen" in text and "Ann 3, Bo 3; again: Ann 5, Bo 2" in text
    assert "attacked by Ann" in text and "cave-in at The bend" in text
    assert "Grots" in text and "3 + 4 = 7" in text and '7"' in text
    blank = " ".join(
        pdf_text(client.get(f"/packs/{PACK}/scenarios/tunnel-wars/scoresheet.pdf?paper={paper}").data).split()
    )
    for b in (1, 2, 3):
        for part in ("the monstrous denizen", "unstable surroundings", "Cunning Traps"):
            assert f"Battle {b}: {part}" in blank
    # Tunnel Wars is for two players, in a pack of multiplayer battleplans.
    assert "Player 2" in blank and "Player 3" not in blank


# --- the army's split into contingents ---------------------------------------------------------
def test_an_army_is_split_on_its_seat_by_counts_or_unit_by_unit_from_its_roster(app: Flask):
    """Before a player's first pick, their seat splits the army: counted by hand, or each unit
    of the attached roster given its contingent (two units of one warscroll included)."""
    client = app.test_client()
    game = series(client, picked=False)
    ann, bo = phone(app, game, 0), phone(app, game, 1)

    # Ann has no roster: three counts; 2 of 9 units is under a quarter, refused in her form.
    answer = send(ann, game, "#split-form-0", **{"count.1": "2", "count.2": "3", "count.3": "4"})
    assert (
        refusal(answer, "#split-form-0") == "The contingent 1 has 2 of 9 units: fewer than 1/4 of the army."
    )
    assert (
        send(ann, game, "#split-form-0", **{"count.1": "3", "count.2": "3", "count.3": "3"}).status_code
        == 200
    )
    assert events(client, game, "contingents")[0]["contingents"] == [3, 3, 3]
    assert not soup(ann.get(f"/games/{game['id']}")).select("form.split-form")

    # Bo's seat offers only Bo's split, unit by unit from his roster.
    entries = [
        {"name": "Lord-Celestant", "points": 155, "roles": ["Leader"], "keywords": ["HERO"], "general": True},
        *({"name": "Liberators", "points": 100, "roles": ["Battleline"]} for _ in range(2)),
        {"name": "Judicators", "points": 140, "roles": ["Other"]},
    ]
    roster = client.post(
        "/api/v1/rosters",
        json={
            "pack": "aos-ghb-2021",
            "name": "Hammers",
            "points_limit": 2000,
            "faction": "Stormcast Eternals",
            "grand_strategy": "prized-sorcery",
            "entries": entries,
        },
    ).json["id"]
    attached = client.post(
        f"/api/v1/games/{game['id']}/rosters",
        json={"player": 1, "roster": roster},
        headers={"X-Edit-Token": game["edit_token"]},
    )
    assert attached.status_code == 201, attached.json
    page = soup(bo.get(f"/games/{game['id']}"))
    assert [f["id"] for f in page.select("form.split-form")] == ["split-form-1"]
    legends = [x.get_text(strip=True) for x in page.select("#split-form-1 fieldset legend")]
    assert legends == ["Lord-Celestant", "Liberators", "Liberators", "Judicators"]
    choice = {"unit.0": "1", "unit.1": "2", "unit.2": "2", "unit.3": "3"}
    assert send(bo, game, "#split-form-1", **choice).status_code == 200
    split = events(client, game, "contingents")[1]
    assert (split["player"], split["contingents"]) == (
        1,
        [["Lord-Celestant"], ["Liberators", "Liberators"], ["Judicators"]],
    )
