"""Backups from the command line, as the volunteer runs them: backup, restore, export-json, import-json."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from flask.testing import FlaskClient

from app.store import Store
from tests.console import english
from tests.setups import new_game, seraphon_roster, terrain_game
from tests.web.conftest import Api

ROOT = Path(__file__).resolve().parents[2]


def _muster(database: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = english({**os.environ, "MUSTER_DB": str(database), "MUSTER_SECRET_KEY": "test"})
    return subprocess.run(
        [sys.executable, "-m", "app", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def _a_club_night(client: FlaskClient) -> None:
    game = new_game(client)
    api = Api(client, game)
    api.ok({"type": "battle_round", "round": 1, "first": 0})
    api.ok({"type": "turn", "round": 1, "player": 0, "control": {"west": 0}})
    roster = client.post("/api/v1/rosters", json=seraphon_roster()).json
    client.post(
        f"/api/v1/games/{game['id']}/rosters",
        json={"player": 0, "roster": roster["id"]},
        headers={"X-Edit-Token": game["edit_token"]},
    )
    terrain_game(client)


def _exported(path: Path) -> dict[str, list[dict]]:
    """Every row, through ``python -m app export-json`` as the volunteer runs it (its file is
    left beside the database for import-json)."""
    out = _muster(path, "export-json", str(path.with_suffix(".json")))
    assert out.returncode == 0, out.stderr
    return json.loads(path.with_suffix(".json").read_text())["tables"]


def _tables(path: Path) -> dict[str, list[dict]]:
    """Every row, as export-json writes them, read in this process: comparing two databases
    needs no command of its own (a Python process started for each read took seconds)."""
    store = Store(path)
    try:
        data = store.backups.export_all()
    finally:
        store.close()
    return json.loads(json.dumps(data, ensure_ascii=False))["tables"]


def test_backup_then_restore_gives_back_every_row(app, client: FlaskClient, tmp_path: Path) -> None:
    _a_club_night(client)
    live = Path(app.config["DATABASE"])
    before = _tables(live)
    assert before["games"] and before["events"] and before["rosters"]

    out = _muster(live, "backup", str(tmp_path / "night.sqlite"))
    assert out.returncode == 0, out.stderr
    db = sqlite3.connect(tmp_path / "night.sqlite")
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    fresh = tmp_path / "elsewhere" / "muster.sqlite"
    out = _muster(fresh, "restore", str(tmp_path / "night.sqlite"))
    assert out.returncode == 0, out.stderr
    assert _tables(fresh) == before


def test_json_export_imports_into_an_identical_database(app, client: FlaskClient, tmp_path: Path) -> None:
    _a_club_night(client)
    live = Path(app.config["DATABASE"])
    before = _exported(live)
    assert before == _tables(live)  # the command writes what the database holds
    fresh = tmp_path / "new" / "muster.sqlite"
    out = _muster(fresh, "import-json", str(live.with_suffix(".json")))
    assert out.returncode == 0, out.stderr
    assert _tables(fresh) == before
    # Loading twice would duplicate games: the second import is refused and changes nothing.
    again = _muster(fresh, "import-json", str(live.with_suffix(".json")))
    assert again.returncode != 0 and "not empty" in again.stderr
    assert _tables(fresh) == before


def test_restore_refuses_a_file_that_is_not_a_backup(tmp_path: Path) -> None:
    bogus = tmp_path / "notes.sqlite"
    bogus.write_text("shopping list")
    out = _muster(tmp_path / "muster.sqlite", "restore", str(bogus))
    assert out.returncode != 0
    assert out.stderr.strip()
