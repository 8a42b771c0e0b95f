"""The club home: tonight's tables with live scores, older games below, archived ones gone."""

from __future__ import annotations

import sqlite3

from flask import Flask
from flask.testing import FlaskClient

from tests.setups import join, new_game
from tests.web.conftest import Api, qr_text_matches, soup
from tests.web.games_played import PLAYS


def _age(app: Flask, game_id: str, created: str) -> None:
    db = sqlite3.connect(app.config["DATABASE"])
    with db:
        db.execute("UPDATE games SET created = ? WHERE id = ?", [created, game_id])


def test_tonights_tables_show_players_battleplan_and_score(client: FlaskClient) -> None:
    first = new_game(client, "savage-gains")
    second = new_game(client, "the-vice")
    Api(client, first).ok({"type": "battle_round", "round": 1, "first": 0})
    Api(client, first).ok({"type": "turn", "round": 1, "player": 0, "control": {"west": 0}})
    page = soup(client.get("/"))
    cards = page.select("#tables .table-card")
    # In the order the tables sat down.
    assert [c["href"] for c in cards] == [f"/games/{first['id']}", f"/games/{second['id']}"]
    assert cards[0].select_one(".game-title").text == "Savage Gains"
    assert [w.text for w in cards[0].select(".who")] == ["Ann", "Bo"]
    assert [int(v.text) for v in cards[0].select(".vp")] == [
        client.get(f"/api/v1/games/{first['id']}").json["players"][0]["vp"],
        0,
    ]
    assert "round 1 of 5" in cards[0].text and "Pitched Battles 2021" in cards[0].text


def test_the_tables_refresh_on_their_own(client: FlaskClient) -> None:
    game = new_game(client)
    tables = soup(client.get("/")).select_one("#tables")
    assert tables["hx-trigger"].startswith("every ")
    # The poll gets just the tables, with the score as it is now.
    Api(client, game).ok({"type": "battle_round", "round": 1, "first": 0})
    part = client.get(tables["hx-get"], headers={"HX-Request": "true"})
    assert part.status_code == 200
    assert "<html" not in part.text
    assert soup(part).select_one("#tables .table-card")["href"] == f"/games/{game['id']}"


def test_last_weeks_games_move_below_and_archived_ones_leave(app: Flask, client: FlaskClient) -> None:
    old = new_game(client)
    archived = new_game(client)
    tonight = new_game(client)
    _age(app, old["id"], "2020-01-10T19:00:00.000Z")
    db = sqlite3.connect(app.config["DATABASE"])
    with db:
        db.execute("UPDATE games SET archived = '2020-01-11T00:00:00Z' WHERE id = ?", [archived["id"]])
    page = soup(client.get("/"))
    assert [c["href"] for c in page.select("#tables .table-card")] == [f"/games/{tonight['id']}"]
    earlier = page.select_one('section[aria-labelledby="earlier-h"]')
    assert [c["href"] for c in earlier.select(".table-card")] == [f"/games/{old['id']}"]
    assert archived["id"] not in str(page)


def test_a_finished_game_says_who_won(client: FlaskClient) -> None:
    play = PLAYS["savage-gains"]
    api = Api(client, new_game(client, "savage-gains"))
    for r, (start, ann, bo) in enumerate(play["rounds"], start=1):
        api.ok({"type": "battle_round", "round": r, "first": 0, **start})
        api.ok({"type": "turn", "round": r, "player": 0, **ann})
        api.ok({"type": "turn", "round": r, "player": 1, **bo})
    api.ok({"type": "end", "player": 0, "grand_strategy_completed": True})
    result = api.ok({"type": "end", "player": 1, "grand_strategy_completed": False})["result"]
    card = soup(client.get("/")).select_one("#tables .table-card")
    winner = ["Ann", "Bo"][result["winner"]]
    assert f"finished: {result['kind']} victory for {winner}" in " ".join(card.text.split())


def test_watchers_of_a_listed_game_get_no_edit_forms(app: Flask, client: FlaskClient) -> None:
    game = new_game(client)
    watcher = app.test_client()
    href = soup(watcher.get("/")).select_one("#tables .table-card")["href"]
    page = watcher.get(href)
    assert page.status_code == 200
    assert game["edit_token"] not in page.text
    # The page's own forms: the footer's language switch edits nothing.
    assert soup(page).select("main form[hx-post], main form[method=post]") == []


def test_every_game_page_offers_a_read_only_link(app: Flask, client: FlaskClient) -> None:
    game = new_game(client)
    join(client, game)
    for phone in (client, app.test_client()):  # a player's and a watcher's
        page = soup(phone.get(f"/games/{game['id']}"))
        watch = page.select_one('input[aria-label="Link to watch"]')["value"]
        assert watch.endswith(f"/games/{game['id']}") and game["edit_token"] not in watch
        assert qr_text_matches(
            phone, page.select_one('img[alt="QR code of the link to watch this game"]')["src"], watch
        )
    assert (
        soup(app.test_client().get(f"/games/{game['id']}")).select_one('input[aria-label="Join link"]')
        is None
    )
