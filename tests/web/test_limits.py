"""One address cannot flood the server with new games, rosters, imports, saved terrain or PDFs:
past its limit for the minute it gets a 429 with a sentence and Retry-After, and nothing is
stored. The counts are shared by every worker process."""

from __future__ import annotations

import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest
from flask import Flask

from app import create_app
from app.web import limits
from tests.conftest import ROOT, fresh_database
from tests.setups import first_blood_game, new_game
from tests.web.conftest import csrf_token, soup

OTHER_PHONE = {"REMOTE_ADDR": "192.168.1.77"}


@pytest.fixture(autouse=True)
def one_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every count in a test falls in one minute: the counts restart each minute on the clock,
    and a slow first PDF once carried a test's third print into the next minute."""
    monkeypatch.setattr(limits, "clock", lambda: 1_000_050.0)


@pytest.fixture
def app(tmp_path: Path, migrated: Path) -> Flask:
    return create_app(
        {
            "DATABASE": str(fresh_database(migrated, tmp_path / "muster.sqlite")),
            "TESTING": True,
            "SECRET_KEY": "test",
            "LIMIT_GAMES": 3,
            "LIMIT_IMPORTS": 2,
            "LIMIT_ROSTERS": 2,
            "LIMIT_TERRAIN": 1,
            "LIMIT_PDFS": 2,
        }
    )


def _refused(response, what: str, most: int) -> None:
    assert response.status_code == 429
    wait = int(response.headers["Retry-After"])
    assert 1 <= wait <= 60
    sentence = response.json["error"] if response.is_json else soup(response).select_one(".alert").text
    assert (
        sentence == f"Too many {what} from this device: at most {most} a minute. Try again in {wait} seconds."
    )


def test_a_fourth_game_in_a_minute_is_refused_and_not_stored(app, client):
    made = [new_game(client)["id"] for _ in range(3)]
    refused = client.post("/api/v1/games", json={"pack": "aos-ghb-2021"})
    _refused(refused, "new games", 3)
    with app.app_context():
        from app.web.services import store

        assert store().games.count() == 3
    # Another phone at the same table is not held back by the first one's flood.
    other = app.test_client()
    assert other.post("/api/v1/games", json={}, environ_base=OTHER_PHONE).status_code == 422
    assert all(client.get(f"/api/v1/games/{g}").status_code == 200 for g in made)


def test_the_game_screen_counts_with_the_api(client):
    for _ in range(3):
        new_game(client)
    token = csrf_token(client, "/games/new")
    screen = client.post("/games", data={"csrf_token": token})
    _refused(screen, "new games", 3)


def test_imports_are_limited(client):
    game = new_game(client)
    exported = client.get(f"/api/v1/games/{game['id']}/export").json
    answers = [client.post("/api/v1/games/import", json=exported).status_code for _ in range(3)]
    assert answers[:2] == [409, 409]  # counted even when refused: a flood costs work either way
    _refused(client.post("/api/v1/games/import", json=exported), "imports", 2)


LIST = "Allegiance: Seraphon\nLeaders\nSlann Starmaster (260)\n- General\nTotal: 260 / 2000\n"


def test_every_list_read_counts_as_an_import(app, client):
    """Issue 27 item 2: the API's import and the screen's preview and save each read a list, and
    each counts under the imports limit, shared with game imports."""
    api = client.post("/api/v1/rosters/import", json={"pack": "aos-ghb-2021", "text": LIST})
    assert api.status_code == 200, api.json
    token = csrf_token(client, "/rosters/import")
    form = {"csrf_token": token, "pack": "aos-ghb-2021", "text": LIST}
    preview = client.post("/rosters/import/preview", data=form)
    assert preview.status_code == 303  # post, redirect, get: the draft's page shows what was read
    # Its page shows the reading kept with the draft: reloading it reads nothing, so costs nothing.
    for _ in range(4):
        page = client.get(preview.headers["Location"])
        assert page.status_code == 200 and "Slann Starmaster" in page.get_data(as_text=True)
    _refused(client.post("/rosters/import/preview", data=form), "imports", 2)
    _refused(client.post("/rosters/import/save", data=form), "imports", 2)
    _refused(client.post("/api/v1/rosters/import", json={"pack": "aos-ghb-2021", "text": LIST}), "imports", 2)
    game = new_game(client)
    _refused(client.post(f"/games/{game['id']}/armies/import", data={**form, "player": "0"}), "imports", 2)
    # Another phone imports on.
    other = app.test_client()
    answer = other.post(
        "/api/v1/rosters/import", json={"pack": "aos-ghb-2021", "text": LIST}, environ_base=OTHER_PHONE
    )
    assert answer.status_code == 200


def test_rosters_from_the_api_and_the_screen_share_a_limit(client):
    assert (
        client.post("/api/v1/rosters", json={"pack": "conquest-first-blood", "entries": []}).status_code
        == 201
    )
    token = csrf_token(client, "/rosters/new")
    form = {"csrf_token": token, "pack": "aos-ghb-2021", "name": "Hammerfest", "points_preset": "1000"}
    assert client.post("/rosters", data=form).status_code == 303
    _refused(client.post("/rosters", data=form), "new rosters", 2)
    _refused(client.post("/api/v1/rosters", json={"pack": "aos-ghb-2021"}), "new rosters", 2)


def test_saving_terrain_sets_is_limited(client):
    game = first_blood_game(client)
    url = f"/games/{game['id']}/terrain"
    client.get(game["join_url"])
    token = csrf_token(client, url)
    # A saved set needs a piece: an empty one is refused before any count.
    assert (
        client.post(
            f"{url}/pieces", data={"csrf_token": token, "id": str(uuid.uuid4()), "preset": "Forest"}
        ).status_code
        == 303
    )
    first = client.post(f"{url}/library", data={"csrf_token": token, "name": "Table 3"})
    assert first.status_code in (200, 303)
    _refused(
        client.post(f"{url}/library", data={"csrf_token": token, "name": "Table 4"}), "saved terrain sets", 1
    )


def test_pdfs_are_limited_per_address(app, client):
    url = "/packs/aos-ghb-2021/scenarios/savage-gains/scoresheet.pdf"
    assert [client.get(url).status_code for _ in range(2)] == [200, 200]
    _refused(client.get(url), "PDFs", 2)
    assert app.test_client().get(url, environ_base=OTHER_PHONE).status_code == 200


def test_a_count_starts_again_each_minute(tmp_path):
    path = tmp_path / "m.limits.sqlite"
    assert limits.count(path, "games", "10.0.0.5", now=600.0) == (1, 60.0)
    assert limits.count(path, "games", "10.0.0.5", now=659.5) == (2, 0.5)
    assert limits.count(path, "imports", "10.0.0.5", now=659.5)[0] == 1  # kinds counted apart
    assert limits.count(path, "games", "10.0.0.6", now=659.5)[0] == 1  # and addresses
    assert limits.count(path, "games", "10.0.0.5", now=660.0) == (1, 60.0)


def test_limits_come_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("MUSTER_LIMIT_GAMES", "1")
    app = create_app({"DATABASE": str(tmp_path / "m.sqlite"), "TESTING": True, "SECRET_KEY": "t"})
    client = app.test_client()
    new_game(client)
    _refused(client.post("/api/v1/games", json={}), "new games", 1)
    monkeypatch.setenv("MUSTER_LIMIT_GAMES", "0")  # 0: no limit
    new_game(client)


COUNTER = """
import sys
import threading
from app.web import limits
for _ in range(200):
    print(limits.count(sys.argv[1], "games", "10.0.0.9", now=1000.0)[0])
"""


def test_worker_processes_share_one_count(tmp_path):
    # Two workers counting the same address at once: every number from 1 to 400 is handed out
    # exactly once, so neither worker lets a request through on a count the other already used.
    path = str(tmp_path / "m.limits.sqlite")
    limits.count(path, "other", "x")  # the file exists before the race
    workers = [
        subprocess.Popen([sys.executable, "-c", COUNTER, path], cwd=ROOT, stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    numbers = [int(n) for w in workers for n in w.communicate(timeout=60)[0].split()]
    assert sorted(numbers) == list(range(1, 401))


def test_threads_opening_a_new_counts_file_at_once_all_count(tmp_path):
    # Two prints arriving together on a fresh server once failed with "database is locked"
    # while both switched the new counts file to WAL: a 500 instead of a PDF.
    errors: list[BaseException] = []
    for run in range(20):
        path = tmp_path / f"new-{run}.limits.sqlite"
        start = threading.Barrier(8)
        numbers: list[int] = []

        def first_request(
            path: Path = path, start: threading.Barrier = start, numbers: list = numbers
        ) -> None:
            try:
                start.wait()
                numbers.append(limits.count(path, "pdfs", "10.0.0.7", now=1_000_000.0)[0])
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=first_request) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert errors == [] and sorted(numbers) == list(range(1, 9))


def test_printing_is_budgeted_in_seconds_of_layout_per_address(tmp_path):
    """Issue 27 item 7: one phone asking for prints the cache cannot serve (each a new layout)
    gets at most LIMIT_LAYOUT seconds of layout a minute; a print from the cache costs none."""
    app = create_app(
        {
            "DATABASE": str(tmp_path / "muster.sqlite"),
            "TESTING": True,
            "SECRET_KEY": "test",
            "LIMIT_PDFS": 0,
            "LIMIT_LAYOUT": 2,
        }
    )
    client = app.test_client()
    counts = limits.counts_file(app.config["DATABASE"])
    sheet = "/packs/aos-ghb-2021/scenarios/{}/scoresheet.pdf?paper={}"
    warm = app.test_client().get(sheet.format("savage-gains", "a4"), environ_base=OTHER_PHONE)
    assert warm.status_code == 200  # another phone starts the layout process
    assert client.get(sheet.format("savage-gains", "a4")).status_code == 200  # from the cache
    assert limits.spent(counts, "layout", "127.0.0.1")[0] == 0
    scenarios = [s.id for s in app.extensions["muster.packs"]["aos-ghb-2021"].playable]
    answers = []
    for scenario in scenarios:  # a new sheet each time: each a layout
        for paper in ("a4", "letter"):
            answers.append(client.get(sheet.format(scenario, paper)))
            if answers[-1].status_code != 200:
                break
        if answers[-1].status_code != 200:
            break
    assert answers[-1].status_code == 429, [a.status_code for a in answers]
    assert len(answers) > 1 and limits.spent(counts, "layout", "127.0.0.1")[0] >= 2000
    wait = int(answers[-1].headers["Retry-After"])
    assert 1 <= wait <= 60
    assert soup(answers[-1]).select_one(".alert").text == (
        "Too much printing from this device: at most 2 seconds of page layout a minute. "
        f"Try again in {wait} seconds."
    )
    # A sheet already made is still served; another phone prints on.
    assert client.get(sheet.format("savage-gains", "a4")).status_code == 200
    assert (
        app.test_client().get(sheet.format(scenarios[1], "a4"), environ_base=OTHER_PHONE).status_code == 200
    )
