"""What a request reaches: its store, the installed packs and the games service.

Every blueprint asks here rather than building its own: one connection per thread in a
served app, one parse of the packs per change of the rulepacks folder, one games service
over this process's replay cache.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import TypeVar

from flask import abort, current_app, g

from app.rules.pack import Pack, PackError
from app.rules.speech import say
from app.services import games as game_service
from app.store import GameRow, Store

T = TypeVar("T")


def store() -> Store:
    """The database connection for this request.

    A served app keeps one connection per thread and reuses it (opening one costs as much
    as a small request); under tests each request opens and closes its own, so the many
    temporary databases of a test run never pile up open files, unless the test keeps them
    as a served app does (``KEEP_CONNECTIONS``: thousands of requests on one app).
    """
    if "store" in g:
        return g.store
    path = current_app.config["DATABASE"]
    if current_app.testing and not current_app.config.get("KEEP_CONNECTIONS"):
        g.store = Store(path)
        g.store_owned = True
        return g.store
    local = current_app.extensions.setdefault("muster.connections", threading.local())
    if getattr(local, "store", None) is None or local.path != path:
        local.store, local.path = Store(path), path
    g.store = local.store
    return g.store


def packs() -> dict[str, Pack]:
    """The installed rulepacks, by id (reloaded when the rulepacks folder changes)."""
    from app import refresh_rulepacks

    if "packs" not in g:
        g.packs = refresh_rulepacks(current_app)  # type: ignore[arg-type]
    return g.packs


def found_or_404(things: Mapping[str, T], key: str, missing: str) -> T:
    """The thing ``key`` names among ``things`` (a pack, a catalogue), or a 404 whose one
    sentence is ``missing``."""
    found = things.get(key)
    if found is None:
        abort(404, description=missing)
    return found


def pack_or_404(pack_id: str) -> Pack:
    """The installed rulepack ``pack_id``, or a 404 that names it."""
    return found_or_404(
        packs(), pack_id, say("There is no rulepack {pack} on this server.", pack=repr(pack_id))
    )


def pack_errors() -> list[PackError]:
    """What was wrong with the rulepacks that did not load."""
    return current_app.extensions["muster.pack_errors"]


def games_service() -> game_service.Games:
    """The games service for this request, over its store, the packs and this process's cache."""
    if "games" not in g:
        g.games = game_service.Games(store(), packs(), current_app.extensions["muster.replays"])
    return g.games


def loaded_game(game_id: str, row: GameRow | None = None) -> game_service.Loaded:
    """The game with that id, replayed; 404 when there is none, 409 when its pack is missing."""
    try:
        loaded = games_service().load(game_id, row)
    except game_service.PackMissing as exc:
        abort(409, description=str(exc))
    if loaded is None:
        abort(404, description=say("There is no such game. Check the link, or start a new game."))
    return loaded


def close_store(_exc: BaseException | None) -> None:
    """Close the request's own connection (under tests); a served app keeps its thread's."""
    db = g.pop("store", None)
    if db is not None and g.pop("store_owned", False):
        db.close()
