"""Shared fixtures: the installed packs, a game player for the rules, an app on a temp database."""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

import jinja2
import pytest
from flask import Flask
from werkzeug.routing import Rule

from app.rules import log, systems
from app.rules.game import Setup
from app.rules.pack import Pack, load_packs
from app.rules.systems.turns import scoring
from app.store import Store
from tests.engine import Engine
from tests.setups import pitched_battle_setup

ROOT = Path(__file__).resolve().parent.parent


# The files that take longest go first, the many quick ones last: with two workers taking one
# file at a time (``--dist loadfile --no-loadscope-reorder``), the quick files fill the gaps and
# neither worker is left alone with a long file at the end.
# (The server and web files here took 18-70 s each alone on a loaded machine, December 2026;
# tests/web/test_backup.py left the list when its commands stopped loading the packs.)
FIRST = (
    "tests/browser/test_accessibility.py",
    "tests/server/test_one_phone.py",
    "tests/server/test_replica.py",
    "tests/browser/test_club_event.py",
    "tests/web/test_openapi.py",
    "tests/browser/test_seats.py",
    "tests/server/test_https.py",
    "tests/web/test_form_fuzz.py",
    "tests/browser/test_club_event_lists.py",
    "tests/server/test_crash.py",
    "tests/browser/test_https_club.py",
    "tests/server/test_port.py",
    "tests/web/test_seats.py",
    "tests/web/test_print_process.py",
)
KINDS = ("browser", "server", "web", "unit")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Order the run: the longest files (FIRST), then browser, server, web, unit tests."""

    def rank(item: pytest.Item) -> tuple[int, int]:
        path = item.nodeid.split("::")[0]
        if path in FIRST:
            return (0, FIRST.index(path))
        kind = path.split("/")[1] if path.count("/") > 1 else ""
        return (1, KINDS.index(kind) if kind in KINDS else len(KINDS))

    items.sort(key=rank)  # stable: each file keeps its tests in order


class SharedTemplates(jinja2.BytecodeCache):
    """Compiled templates kept for the whole test process, across every app a test makes.

    Each web test makes its own app, and each app's Jinja environment would parse and compile
    every template it renders again; this cache hands it the compiled code instead. Jinja checks
    each entry against the template's source, so an edited template is compiled anew."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.compiled.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


SHARED_TEMPLATES = SharedTemplates()


def _share_url_builders() -> None:
    """Every app made in this test process compiles each route's URL builder once.

    Werkzeug compiles two small Python functions for each of Muster's 140-odd routes when an
    app is made (a tenth of a second a test, and most tests make an app). A builder depends
    only on the route's parts and defaults, which are the same in every app, so the compiled
    function is kept and handed to the next app's route (each binds it to its own rule).
    Without Werkzeug's private ``_compile_builder`` (a later Werkzeug), each app compiles its own.
    """
    compile_builder = getattr(Rule, "_compile_builder", None)
    if compile_builder is None:
        return
    builders: dict[tuple[Any, ...], Any] = {}

    def shared(self: Rule, append_unknown: bool = True) -> Any:
        defaults = self.defaults or {}
        key = (self.rule, append_unknown, tuple(self._trace), repr(sorted(defaults.items())))
        builder = builders.get(key)
        if builder is None:
            builder = builders[key] = compile_builder(self, append_unknown)
        return builder

    Rule._compile_builder = shared  # type: ignore[method-assign]


def _share_parsed_rules() -> None:
    """Every app made in this test process parses each route's pattern once.

    Werkzeug parses each of Muster's 140-odd routes into the regular expressions it matches
    with when an app is made (about 15 ms a test). A pattern's parts depend only on its text
    and its map's converter classes, the same in every app: they are kept, and each new rule
    makes its own converters from the kept names and arguments. Without Werkzeug's private
    ``_parse_rule`` (a later Werkzeug), each app parses its own.
    """
    parse_rule = getattr(Rule, "_parse_rule", None)
    get_converter = getattr(Rule, "get_converter", None)
    if parse_rule is None or get_converter is None:
        return
    parsed: dict[tuple[Any, ...], tuple[list[Any], list[Any], list[tuple[Any, ...]]]] = {}

    def shared(self: Rule, rule: str) -> Any:
        converters = self.map.converters
        key = (rule, tuple(sorted((name, id(kind)) for name, kind in converters.items())))
        kept = parsed.get(key)
        if kept is None:
            made: list[tuple[Any, ...]] = []

            def noting(variable: str, name: str, args: Any, kwargs: Any) -> Any:
                made.append((variable, name, args, kwargs))
                return get_converter(self, variable, name, args, kwargs)

            trace_from = len(self._trace)
            self.get_converter = noting  # type: ignore[method-assign]
            try:
                parts = list(parse_rule(self, rule))
            finally:
                del self.get_converter
            kept = parsed[key] = (parts, self._trace[trace_from:], made)
            return parts
        parts, trace, made = kept
        for variable, name, args, kwargs in made:
            self._converters[variable] = self.get_converter(variable, name, args, kwargs)
            self.arguments.add(variable)
        self._trace.extend(trace)
        return parts

    Rule._parse_rule = shared  # type: ignore[method-assign]


# Where the tests' files go when nothing else is said: memory, when the machine has room there.
MEMORY = Path("/dev/shm")
MEMORY_NEEDED = 1024**3


def _files_in_memory(config: pytest.Config) -> None:
    """The tests' temporary files (tmp_path: each test's SQLite files) in /dev/shm.

    Muster syncs every commit to disk (``synchronous = FULL``): a few milliseconds each on a
    disk, tens on an SD card, and the suite commits tens of thousands of times. No test pulls
    the power, so a file system in memory keeps every assertion while skipping the waits (a
    killed server's writes survive there as on a disk). Left alone when ``--basetemp``,
    ``TMPDIR`` or ``PYTEST_DEBUG_TEMPROOT`` says where, or when /dev/shm has under 1 GB free.
    """
    if config.option.basetemp or os.environ.get("TMPDIR") or os.environ.get("PYTEST_DEBUG_TEMPROOT"):
        return
    if not (MEMORY.is_dir() and os.access(MEMORY, os.W_OK)):
        return
    if shutil.disk_usage(MEMORY).free < MEMORY_NEEDED:
        return
    tempfile.tempdir = str(MEMORY)


PYCACHE = "muster-test-pycache"


def _compiled_once() -> None:
    """Where Python is told to write no compiled modules (``PYTHONDONTWRITEBYTECODE``), each
    process the tests start compiles what it imports again: every server start compiled
    Muster's 160-odd modules (0.7 s of its 2.8 s of processor time), every test worker the test
    tools. Then the compiled modules go to a folder in the virtual environment instead
    (``PYTHONPYCACHEPREFIX``), never beside the sources, and each is compiled once. Left alone
    outside a virtual environment, or when it cannot be written, or a prefix is already set.
    """
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    venv = Path(sys.prefix)
    if venv == Path(sys.base_prefix) or not os.access(venv, os.W_OK):
        return
    folder = venv / PYCACHE
    folder.mkdir(exist_ok=True)
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    os.environ["PYTHONPYCACHEPREFIX"] = str(folder)
    sys.pycache_prefix = str(folder)
    sys.dont_write_bytecode = False


def pytest_configure(config: pytest.Config) -> None:
    """Every Flask app made in this test process compiles each template and each route's URL
    builder once (SharedTemplates, _share_url_builders); the tests' files are kept in memory
    where there is room (_files_in_memory); the processes the tests start compile each module
    once (_compiled_once)."""
    _files_in_memory(config)
    _compiled_once()
    make_environment = Flask.create_jinja_environment

    def with_shared_templates(self: Flask) -> Any:
        environment = make_environment(self)
        environment.bytecode_cache = SHARED_TEMPLATES
        return environment

    Flask.create_jinja_environment = with_shared_templates  # type: ignore[method-assign]
    _share_url_builders()
    _share_parsed_rules()


def replay(pack: Pack, setup: Setup, events: list[dict[str, Any]]) -> Any:
    """The game after ``events``, folded by the pack's game system as the server folds it."""
    return log.replay(systems.system_for(pack), pack, setup, events)


def refusal(game: Any, event: dict[str, Any], events: list[dict[str, Any]] | None = None) -> str | None:
    """Why the rules refuse ``event`` after ``game``, or ``None`` (the game is not changed)."""
    _after, problem = log.apply(systems.system_for(game.pack), game, event, events or [])
    return problem.message if problem else None


@pytest.fixture(scope="session")
def packs() -> dict[str, Pack]:
    loaded, errors = load_packs(ROOT / "rulepacks")
    assert errors == []
    return loaded


@pytest.fixture(scope="session")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database file with every migration applied, made once per test worker.

    Each test's app starts on a copy of it (``fresh_database``): the same schema a fresh
    install gets (its own test, tests/web/test_store.py, migrates from nothing), without
    replaying every migration a thousand times.
    """
    path = tmp_path_factory.mktemp("migrated") / "muster.sqlite"
    Store.initialise(path)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the whole schema in the one file
    return path


def fresh_database(migrated: Path, path: Path) -> Path:
    """A new database file at ``path`` with every migration applied: a copy of ``migrated``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(migrated, path)
    return path


@pytest.fixture(scope="session")
def ghb(packs: dict[str, Pack]) -> Pack:
    return packs["aos-ghb-2021"]


ANN, BO = 0, 1


class Table(Engine):
    """Plays a Pitched Battles game through the rules engine, as the server would: check, then append."""

    def __init__(self, pack: Pack, scenario: str, **kwargs: Any) -> None:
        super().__init__(pack, pitched_battle_setup(scenario, **kwargs))

    def ok(self, event: dict[str, Any]) -> scoring.Game:
        return self.record(event)

    refused = Engine.refuse

    # Shorthands for the three kinds of entry.
    def start(self, round_: int, first: int = ANN, **facts: Any) -> scoring.Game:
        return self.ok({"type": "battle_round", "round": round_, "first": first, **facts})

    def turn(
        self, round_: int, player: int, control: dict[str, int | None] | None = None, **facts: Any
    ) -> scoring.Turn:
        game = self.ok({"type": "turn", "round": round_, "player": player, "control": control or {}, **facts})
        return game.turns[-1]

    def end(self, player: int, completed: bool) -> scoring.Game:
        return self.ok({"type": "end", "player": player, "grand_strategy_completed": completed})

    def quiet_rounds(self, first: int, last: int) -> None:
        """Battle rounds in which nobody holds anything or completes anything."""
        for r in range(first, last + 1):
            self.start(r)
            self.turn(r, ANN)
            self.turn(r, BO)


@pytest.fixture
def table(ghb: Pack):
    def make(scenario: str, **kwargs: Any) -> Table:
        return Table(ghb, scenario, **kwargs)

    return make


def vp_by_rule(turn: scoring.Turn) -> dict[str, int]:
    return {a.rule: a.vp for a in turn.awards}
