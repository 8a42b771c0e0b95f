"""Club night on screens (issue 24 item 11): the events page says whether events are on, the
organiser enters a table's result in one row, and the projector board pages itself, shows the
sign-up code, no ties before any result, one time format, and the podium at the end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from tests.conftest import fresh_database
from tests.web.conftest import csrf_token, soup

PASSWORD = "board-pw"
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo")


@pytest.fixture
def app(tmp_path: Path, migrated: Path) -> Flask:
    return create_app(
        {
            "DATABASE": str(fresh_database(migrated, tmp_path / "muster.sqlite")),
            "TESTING": True,
            "SECRET_KEY": "test",
            "ADMIN_PASSWORD": PASSWORD,
            "EVENT_SEED": 3,
            "BOARD_ROWS": 4,
        }
    )


class Event:
    """An event made through the API, with its organiser's calls."""

    def __init__(self, client: FlaskClient, rounds: int = 1, **extra: Any) -> None:
        body = {"name": "Club night", "pack": "conquest-first-blood", "points_limit": 500, "rounds": rounds}
        made = client.post(
            "/api/v1/events", json={**body, **extra}, headers={"Authorization": f"Bearer {PASSWORD}"}
        )
        assert made.status_code == 201, made.json
        self.client, self.id, self.token = client, made.json["id"], made.json["organiser_token"]

    def post(self, path: str, body: Any = None, status: int = 201) -> Any:
        answer = self.client.post(
            f"/api/v1/events/{self.id}{path}", json=body or {}, headers={"X-Organiser-Token": self.token}
        )
        assert answer.status_code == status, answer.json
        return answer.json

    def board(self, page: int | None = None) -> Any:
        suffix = "" if page is None else f"?page={page}"
        return soup(self.client.get(f"/events/{self.id}/board{suffix}"))

    def console(self) -> str:
        self.client.get(f"/events/{self.id}/organiser/{self.token}")
        return f"/events/{self.id}/console"

    def tables(self) -> list[dict[str, Any]]:
        return self.client.get(f"/api/v1/events/{self.id}/rounds/1").json["pairings"]


def test_the_events_page_says_whether_events_are_on(tmp_path, client: FlaskClient) -> None:
    page = soup(client.get("/events"))
    assert page.select_one("#events-enabled").text.startswith("Events are on.")
    assert page.select_one('main a[href="/admin"]').text == "Admin login"
    off = create_app({"DATABASE": str(tmp_path / "off.sqlite"), "TESTING": True, "SECRET_KEY": "t"})
    page = soup(off.test_client().get("/events"))
    assert page.select_one("#events-enabled").text.startswith("Events are off on this server")
    assert page.select_one('main a[href="/admin"]') is None


def test_the_board_turns_its_pages_and_shows_the_sign_up_code(client: FlaskClient) -> None:
    event = Event(client)
    for name in NAMES:
        event.post("/players", {"name": name})
    # Sign-up open: a large code to scan; no tie marks while nobody has played.
    board = event.board()
    assert board.select_one(".board-signup img.board-qr")["src"] == f"/events/{event.id}/qr.svg"
    assert "=" not in board.select_one(".standings").text
    standings = [r.select("td")[1].text for r in board.select(".standings tbody tr")]
    assert len(standings) == 4 and board.select_one("#board-standings-h").text == "Standings 1–4 of 10"
    assert "page=1" in board.select_one("#board")["hx-get"]
    second = event.board(1)
    assert second.select_one("#board-standings-h").text == "Standings 5–8 of 10"
    assert "page=2" in second.select_one("#board")["hx-get"]
    third = event.board(2)
    assert third.select_one("#board-standings-h").text == "Standings 9–10 of 10"
    assert "page=0" in third.select_one("#board")["hx-get"]  # back to the first page
    shown = standings + [
        r.select("td")[1].text for b in (second, third) for r in b.select(".standings tbody tr")
    ]
    assert sorted(shown) == sorted(NAMES)
    # Sign-up closed and round 1 paired: the tables take the code's place, a page at a time.
    event.post("/signup", {"open": False}, status=200)
    event.post("/rounds")
    board = event.board()
    assert board.select_one(".board-signup") is None
    assert len(board.select(".pairings tbody tr")) == 4
    assert board.select_one("#board-pairings-h").text == "Tables 1–4 of 5"


def test_the_board_writes_time_as_the_clock_ticks_it(client: FlaskClient) -> None:
    event = Event(client, round_minutes=150)
    for name in NAMES[:4]:
        event.post("/players", {"name": name})
    event.post("/rounds")
    event.post("/rounds/1/start", status=200)
    left = event.board().select_one(".time-left").text
    assert left.startswith("2:29:") and len(left) == len("2:29:59")  # h:mm:ss, as static/events.js


def test_one_result_row_a_table_works_out_the_winner(client: FlaskClient) -> None:
    event = Event(client)
    for name in NAMES[:6]:
        event.post("/players", {"name": name})
    event.post("/rounds")
    console = event.console()
    token = csrf_token(client, console)
    tables = event.tables()
    page = soup(client.get(console))
    for table in tables:
        row = page.select_one(f"#result-{table['table']}")
        # Two VP boxes, each labelled with its player's name, and the draw toggle.
        assert [s.text for s in row.select(".vp-name")] == table["names"]
        assert [i["aria-label"] for i in row.select(".vp-box input")] == [f"{n}'s VP" for n in table["names"]]
        assert row.select_one('input[name="draw"][type="checkbox"]') is not None

    def save(table: dict[str, Any], **fields: str) -> Any:
        data = {"csrf_token": token, "round": "1", "table": str(table["table"]), **fields}
        return client.post(f"{console}/result", data=data)

    first, second, third = tables
    assert save(first, vp_a="8", vp_b="15").status_code == 303
    assert save(second, vp_a="9", vp_b="9", draw="1").status_code == 303
    level = save(third, vp_a="10", vp_b="10")
    assert level.status_code == 422
    names = third["names"]
    assert soup(level).select_one("#form-error").text == (
        f"{names[0]} and {names[1]} are level on 10 VP: say who won the tiebreak, or tick Draw."
    )
    prompt = soup(level).select_one(f"#result-{third['table']} .tiebreak")
    assert [s.text for s in prompt.select("span")] == names
    assert save(third, vp_a="10", vp_b="10", tiebreak="0").status_code == 303
    results = {
        p["table"]: (p["result"]["winner"], p["result"]["vp"])
        for p in client.get(f"/api/v1/events/{event.id}/rounds/1").json["pairings"]
    }
    assert results[first["table"]] == (first["players"][1], [8, 15])
    assert results[second["table"]] == (None, [9, 9])
    assert results[third["table"]] == (third["players"][0], [10, 10])
    page = soup(client.get(console))
    assert (
        page.select_one(f"#result-{first['table']} .result-status strong").text
        == f"{first['names'][1]} wins, 8–15"
    )
    assert page.select_one(f"#result-{second['table']} .result-status strong").text == "Draw, 9–9"


def test_the_last_result_puts_the_final_standings_on_a_podium(client: FlaskClient) -> None:
    event = Event(client)
    for name in NAMES[:4]:
        event.post("/players", {"name": name})
    event.post("/rounds")
    assert event.board().select_one(".podium") is None
    tables = event.tables()
    event.post(
        "/results",
        {"round": 1, "table": tables[0]["table"], "winner": tables[0]["players"][0], "vp": [20, 4]},
    )
    assert event.board().select_one(".podium") is None  # a table still plays
    event.post(
        "/results",
        {"round": 1, "table": tables[1]["table"], "winner": tables[1]["players"][1], "vp": [5, 12]},
    )
    board = event.board()
    steps = board.select(".podium-steps li")
    assert [s.select_one(".podium-name").text for s in steps] == [
        tables[0]["names"][0],
        tables[1]["names"][1],
        board.select(".standings tbody tr")[2].select("td")[1].text,
    ]
    assert board.select_one(".board-head p").text == "Final standings"
    assert board.select_one("#board-pairings-h") is None
