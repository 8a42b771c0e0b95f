"""The code's layout keeps its promises: frozen migrations, no borrowed private helpers, pure
rules beside a system's web side."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from tests.conftest import ROOT


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """Every import in a module, anywhere in it: (module, names imported from it)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module, [alias.name for alias in node.names]))
    return found


def test_no_migration_imports_muster_code():
    # A migration's effect must never change after it ships: a database upgraded a year on
    # changes exactly as one upgraded that day. Live rules and services move on (limits,
    # wording), so the migrations use their own frozen copies and nothing from app/.
    schema = ROOT / "app" / "store" / "schema.py"
    muster = [module for module, _names in _imports(schema) if module == "app" or module.startswith("app.")]
    assert muster == []


def test_migration_m009_cuts_a_roster_as_it_did_when_it_shipped():
    from sqlite_utils import Database

    from app.store.schema import migrations

    db = Database(memory=True)
    migrations.apply(db, stop_before="m009_roster_limits_and_owners")
    body = {
        "name": "Ash\u202e  Guard " + "x" * 80,
        "subfaction": "y" * 80,  # a field rosters gained after m009 shipped: left as it was
        "notes": "line\r\nnext\x07",
        "entries": [{"name": f"Unit {i}"} for i in range(120)],
    }
    db["rosters"].insert(
        {
            "id": "r1",
            "edit_token_hash": "0" * 64,
            "pack": "aos-ghb-2021",
            "body": json.dumps(body),
            "version": 1,
            "created": "2026-11-01T19:00:00.000Z",
            "updated": "2026-11-01T19:00:00.000Z",
        }
    )
    migrations.apply(db, stop_before="m010_roster_owners")
    fitted = json.loads(db["rosters"].get("r1")["body"])
    assert fitted["name"] == ("Ash Guard " + "x" * 80)[:60]
    assert fitted["subfaction"] == "y" * 80
    assert fitted["notes"] == "line\nnext"
    assert len(fitted["entries"]) == 100


def test_no_module_imports_another_modules_private_helper():
    # A helper another module needs is public (no underscore) in the module that owns it: a
    # blueprint reaching into another's privates ties the two screens' code together unseen.
    borrowed = [
        f"{path.relative_to(ROOT)}: from {module} import {name}"
        for path in sorted((ROOT / "app").rglob("*.py"))
        for module, names in _imports(path)
        if module.startswith("app.")
        for name in names
        if name.startswith("_") and not name.startswith("__")
    ]
    assert borrowed == []


def test_no_rules_module_imports_a_systems_web_side():
    # A game system's package holds its web side (web.py, which may reach Flask and app.web)
    # beside its pure rules: the rules stay pure only while none of them imports it; the web
    # registry (app/web/systems) is the one place that does.
    reached = [
        f"{path.relative_to(ROOT)}: {module} {names}"
        for path in sorted((ROOT / "app" / "rules").rglob("*.py"))
        if path.name != "web.py"
        for module, names in _imports(path)
        if module.startswith("app.rules.systems.") and (module.endswith(".web") or "web" in names)
    ]
    assert reached == []
