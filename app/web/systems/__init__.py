"""The web side of each game system: its forms -> events, its screen and its print sheet.

Each game system's package carries its web side: a module ``web`` in it (its rules stay in
modules without Flask), with its screens in its ``templates/`` folder and its sheet in
``pdf/`` (app/infra/system_files.py), the built-in ones in app/rules/systems/ as any other.
This module holds only the registry. Views ask :func:`web_system_for`; none asks which system
a game plays.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any, Protocol

from werkzeug.datastructures import MultiDict

from app.rules import systems
from app.rules.pack import Pack, Scenario
from app.rules.systems import system_for
from app.services.games import Loaded


class WebSystem(Protocol):
    """What the screens and prints need from a game system."""

    name: str
    #: The game's part of the page (swapped by htmx after each tap).
    game_template: str
    #: The score sheet, under pdf/.
    sheet_template: str
    #: What the server holds at the place of a refused entry (beside it on the phone).
    held_template: str
    #: Whether the pack page draws each scenario's map.
    draws_maps: bool

    def view(self, loaded: Loaded, draft: MultiDict[str, str], seat: int | None = None) -> dict[str, Any]:
        """What the game template shows, beyond what every game shows.

        Every game's page already has ``may``, the engine's ``open_entries`` for this seat:
        what may be recorded now and why not. A view shapes what the template shows and
        decides no rule. ``seat`` is the player whose seat this phone opened, in a game with
        secrets: only that player's secrets may be in what it returns (none when ``None``).
        """

    def form_event(self, loaded: Loaded, form: MultiDict[str, str], event: dict[str, Any]) -> str | None:
        """Fill ``event`` (id and type set) from a step form; return why the form cannot be read."""

    def sheet(
        self, pack: Pack, scenario: Scenario, loaded: Loaded | None, count: int | None = None
    ) -> dict[str, Any]:
        """What the score sheet prints, beyond what every sheet prints (``count``: a blank's players).

        A filled sheet is printed for anyone: nothing secret may be in it.
        """


class WebSide:
    """What every system's web side shares: its name, and templates found by that name."""

    draws_maps = False

    def __init__(self, name: str) -> None:
        self.name = name
        self.game_template = f"systems/{name}/_game.html"
        self.sheet_template = f"systems/{name}/sheet.html"
        self.held_template = f"systems/{name}/_held.html"

    def sheet(
        self, pack: Pack, scenario: Scenario, loaded: Loaded | None, count: int | None = None
    ) -> dict[str, Any]:
        return {}


REGISTRY: dict[str, WebSystem] = {}


def register(system: WebSystem) -> WebSystem:
    """Add a system's web side to the registry under the game system's name."""
    REGISTRY[system.name] = system
    return system


def web_system_for(pack: Pack, scenario: Scenario | str | None = None) -> WebSystem:
    """The web side of the game system that plays this pack (or that scenario, if it names its own)."""
    _load()
    return REGISTRY[system_for(pack, scenario).name]


def forget(package: str) -> None:
    """Take out the web side a package registered, after :func:`app.rules.systems.forget` took
    out its systems: every web side whose system is no longer registered goes."""
    for name in [name for name in REGISTRY if name not in systems.names()]:
        del REGISTRY[name]
    _SEEN.discard(package)


def load_all() -> None:
    """Import every system's web side now: the server does it before its workers fork, so no
    worker's first game page or print waits for the imports (20-35 ms each on this machine)."""
    _load()


def _load() -> None:
    # Each system's package carries its web side, its module ``web``, which registers itself
    # when imported: a new system is a new package, and nothing else lists it.
    for package in systems.packages():
        if package not in _SEEN:
            if importlib.util.find_spec(f"{package}.web") is not None:
                importlib.import_module(f"{package}.web")
            # Marked once imported: another request's thread meanwhile imports it too (the
            # import lock makes that one import), rather than look before it is registered.
            _SEEN.add(package)


# The system packages whose own ``web`` module was looked for.
_SEEN: set[str] = set()
