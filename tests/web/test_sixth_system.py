"""A sixth game system added from its own folder alone: tests/systems/duel/.

The app is only told the package's name (its ``SYSTEMS``, as ``MUSTER_SYSTEMS`` would): the
duel's rules, web side, screens, score sheet and its stylesheet, its pack with a section and
a victory check of its own, and its entries' words all come from that one folder, and no file
of app/, templates/, pdf/ or rulepacks/ names it. Then a duel is played as every game is:
created and recorded through the JSON API (a bad entry refused in one sentence), shown on its
page and in its htmx fragment, recorded from its form, and printed as a real PDF.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jinja2 import Environment, FileSystemLoader
from pypdf import PdfReader

from app import create_app
from app.infra import system_files
from app.rules import systems
from app.rules.pack import parse_pack
from app.web import systems as web_systems
from tests.conftest import ROOT
from tests.pdfs import pdf_text
from tests.web.conftest import soup, whole_page

PACKAGE = "tests.systems.duel"
FOLDER = ROOT / "tests" / "systems" / "duel"
PACK = "duel-test"


@pytest.fixture
def duel_app(tmp_path: Path, migrated: Path) -> Iterator[Flask]:
    """An app told of the duel's package, and nothing else; the registry is left as it was."""
    database = tmp_path / "muster.sqlite"
    shutil.copyfile(migrated, database)
    try:
        yield create_app(
            {"DATABASE": str(database), "TESTING": True, "SECRET_KEY": "test", "SYSTEMS": [PACKAGE]}
        )
    finally:
        systems.forget(PACKAGE)
        web_systems.forget(PACKAGE)


@pytest.fixture
def duel(duel_app: Flask) -> dict[str, Any]:
    """A duel of three bouts between Ann and Bo, made through the API."""
    client = duel_app.test_client()
    answer = client.post(
        "/api/v1/games",
        json={
            "pack": PACK,
            "scenario": "three-bouts",
            "points_limit": 100,
            "players": [{"name": "Ann"}, {"name": "Bo"}],
        },
    )
    assert answer.status_code == 201, answer.json
    return {**answer.json, "client": client}


def record(game: dict[str, Any], event: dict[str, Any]) -> Any:
    return game["client"].post(
        f"/api/v1/games/{game['id']}/events",
        json={"id": str(uuid.uuid4()), **event},
        headers={"X-Edit-Token": game["edit_token"]},
    )


def test_nothing_outside_the_folder_names_the_duel() -> None:
    # No file of Muster's own folders that git knows says "duel": nothing lists the system.
    # The catalogues are left out: "duel" is a French word ("un duel"), not the system's name.
    folders = ["app", "templates", "pdf", "rulepacks", "static", ":!app/translations"]
    listed = subprocess.run(
        ["git", "grep", "-l", "-i", "-w", "duel", "--", *folders],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert listed.returncode == 1, listed.stdout + listed.stderr  # 1: git grep found no such file


def test_an_app_not_told_of_it_has_no_duel(client: FlaskClient) -> None:
    assert "duel" not in systems.names()
    assert PACK not in [p["id"] for p in client.get("/api/v1/packs").json]


def test_the_duel_comes_from_its_folder(duel_app: Flask) -> None:
    assert "duel" in systems.names()
    assert systems.package_of("duel") == PACKAGE
    client = duel_app.test_client()
    packs = {p["id"]: p for p in client.get("/api/v1/packs").json}
    assert packs[PACK]["name"] == "Duel (test system)"
    # Its screen and sheet are read from its own folder, not from templates/ or pdf/.
    screen = duel_app.jinja_env.get_template("systems/duel/_game.html")
    assert Path(screen.filename) == FOLDER / "templates" / "_game.html"
    assert not (ROOT / "templates" / "systems" / "duel").exists()
    assert not (ROOT / "pdf" / "systems" / "duel").exists()
    assert not (ROOT / "rulepacks" / f"{PACK}.yaml").exists()


def test_the_duels_pack_has_its_own_section_and_victory_check(duel_app: Flask) -> None:
    pack = duel_app.extensions["muster.packs"][PACK]
    # The arena is the duel's section (its section.py), read with its model as the pack loaded.
    assert pack.arena.name == "The Sand Pit" and pack.arena.weapons == ["sword", "spear"]
    assert type(pack.arena).__module__ == f"{PACKAGE}.section"
    client = duel_app.test_client()
    answer = client.get(f"/api/v1/packs/{PACK}").json
    assert answer["scenarios"][0]["victory"]["order"] == [{"check": "most-bouts", "kind": "win"}]


def test_a_pack_naming_what_no_system_declares_is_refused(duel_app: Flask) -> None:
    # The duel's section and check are its own: beside them, an unknown key or check is refused.
    text = (FOLDER / "rulepacks" / f"{PACK}.yaml").read_text()
    pack, problems = parse_pack(text.replace("arena:", "arena_x:"), f"{PACK}.yaml")
    assert pack is None
    assert [(p.where[1], p.message) for p in problems] == [("arena_x", "Extra inputs are not permitted")]
    pack, problems = parse_pack(text.replace("most-bouts", "most-kills"), f"{PACK}.yaml")
    assert pack is None and problems[0].where[1] == "victory_order[0].check"
    assert problems[0].message.startswith(
        "must be one of the victory checks the game systems decide: most-vp"
    )
    assert "most-bouts" in problems[0].message


# The built-in systems whose web side, screens and sheet live in their own package.
WHOLE = ("rounds", "turns", "treachery", "siege", "tunnels")


@pytest.mark.parametrize("name", WHOLE)
def test_a_built_in_system_is_one_package_too(app: Flask, name: str) -> None:
    # Its web side, page and sheet come from its package, and the old folders are gone.
    folder = ROOT / "app" / "rules" / "systems" / name
    assert systems.package_of(name) == f"app.rules.systems.{name}"
    assert (
        Path(app.jinja_env.get_template(f"systems/{name}/_game.html").filename)
        == folder / "templates" / "_game.html"
    )
    prints = Environment(loader=system_files.loader("pdf", FileSystemLoader(str(ROOT / "pdf"))))
    assert Path(prints.get_template(f"systems/{name}/sheet.html").filename) == folder / "pdf" / "sheet.html"
    # Any pack's web side loads every system's (each registers itself when imported).
    web_systems.web_system_for(app.extensions["muster.packs"]["conquest-first-blood"])
    assert type(web_systems.REGISTRY[name]).__module__ == f"app.rules.systems.{name}.web"
    assert not (ROOT / "app" / "web" / "systems" / f"{name}.py").exists()
    assert not (ROOT / "templates" / "systems" / name).exists()
    assert not (ROOT / "pdf" / "systems" / name).exists()


def test_a_duel_is_played_through_the_api(duel: dict[str, Any]) -> None:
    assert record(duel, {"type": "bout", "round": 1, "player": 0}).status_code == 201
    # A bout out of turn is refused in one sentence naming the field and what it may be.
    early = record(duel, {"type": "bout", "round": 3, "player": 1})
    assert early.status_code == 422
    assert early.json == {"error": "round must be 2, the bout being fought now; this one says 3."}
    nobody = record(duel, {"type": "bout", "round": 2, "player": 2})
    assert nobody.status_code == 422
    assert nobody.json == {"error": "player must be a player's index in this game, 0 to 1."}
    assert record(duel, {"type": "bout", "round": 2, "player": 1}).status_code == 201
    answer = record(duel, {"type": "bout", "round": 3, "player": 0})
    assert answer.status_code == 201
    game = answer.json["game"]
    assert game["status"] == "finished"
    assert [p["vp"] for p in game["players"]] == [2, 1]
    assert game["result"] == {"kind": "win", "winner": 0, "reason": "Ann won 2 bouts of 3."}
    # Nothing more once it is over; an unknown entry names the duel's own types.
    late = record(duel, {"type": "concede", "player": 1})
    assert late.status_code == 422
    assert "the duel is over" in late.json["error"]
    state = duel["client"].get(f"/api/v1/games/{duel['id']}").json
    assert state["bouts"] == [{"round": 1, "winner": 0}, {"round": 2, "winner": 1}, {"round": 3, "winner": 0}]


def test_an_unknown_entry_names_what_a_duel_takes(duel: dict[str, Any]) -> None:
    refused = record(duel, {"type": "turn", "round": 1, "player": 0})
    assert refused.status_code == 422
    assert "bout" in refused.json["error"] and "concede" in refused.json["error"]


def test_a_duel_is_played_on_its_page(duel_app: Flask, duel: dict[str, Any]) -> None:
    phone = duel["client"]
    assert phone.get(f"/games/{duel['id']}/join/{duel['edit_token']}").status_code == 303
    page = soup(phone.get(f"/games/{duel['id']}"))
    assert page.select_one("#game.duel") is not None
    assert page.select_one("#step h2").get_text() == "Bout 1: who won it?"
    form = page.select_one("#step")
    fields = {i["name"]: i["value"] for i in form.select("input[type=hidden]")}
    # Bo wins the first bout with a tap, as htmx sends it: the answer is the #game fragment.
    tapped = phone.post(form["action"], data={**fields, "winner": "1"}, headers={"HX-Request": "true"})
    assert tapped.status_code == 200
    fragment = soup(tapped)
    assert not whole_page(tapped)
    assert fragment.select_one("#game") is not None
    assert fragment.select_one("#step h2").get_text() == "Bout 2: who won it?"
    assert "Bout 1: Bo" in fragment.get_text()
    # The entry is said in the duel's own words (its words.py), and its Undo names it so.
    assert fragment.select_one("[data-testid=last-entry]").get_text() == "Bo won bout 1: +1 VP"
    assert fragment.select_one(".undo-form button").get_text() == "Undo Bo's win of bout 1 (1 VP)"
    # A bout sent again for a round already fought is refused beside the form, with a 422.
    again = phone.post(
        form["action"],
        data={**fields, "id": str(uuid.uuid4()), "winner": "0"},
        headers={"HX-Request": "true"},
    )
    assert again.status_code == 422
    assert "round must be 2" in again.headers["X-Muster-Refusal"]
    assert "round must be 2" in soup(again).get_text()
    # A watcher's phone sees the duel without the form.
    watcher = duel_app.test_client().get(f"/games/{duel['id']}")
    assert watcher.status_code == 200
    assert soup(watcher).select_one("#step") is None


def test_a_duel_is_printed(duel: dict[str, Any]) -> None:
    for r, winner in ((1, 1), (2, 1)):
        assert record(duel, {"type": "bout", "round": r, "player": winner}).status_code == 201
    sheet = duel["client"].get(f"/games/{duel['id']}/scoresheet.pdf?paper=a4")
    assert sheet.status_code == 200
    assert sheet.mimetype == "application/pdf"
    text = pdf_text(sheet.data)
    assert "Duel (test system): Three bouts" in text
    assert "Bout 1 Bo" in text and "Bout 2 Bo" in text
    assert "A bout won scores 1 VP; after 3 bouts the most bouts won wins." in text
    # The arena (the pack's own section) is printed, styled by the duel's own sheet.css: its
    # ::before names it and its red is in the page's drawing.
    assert "Arena: The Sand Pit" in text
    drawn = b"".join(page.get_contents().get_data() for page in PdfReader(io.BytesIO(sheet.data)).pages)
    assert re.search(rb"0\.75\d* 0 0 rg", drawn)
    blank = duel["client"].get(f"/packs/{PACK}/scenarios/three-bouts/scoresheet.pdf")
    assert blank.status_code == 200
    assert "Bout 3" in pdf_text(blank.data)
