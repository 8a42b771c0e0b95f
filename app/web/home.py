"""The home screen (games on this server) and the rulepack pages."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template

from app import games
from app.rules import grid
from app.web import pack_errors, packs, store

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> Any:
    rows = store().recent_games(30)
    events = store().events_of([r.id for r in rows])
    listed = []
    for row in rows:
        pack = packs().get(row.pack)
        scenario = pack.scenario(row.scenario) if pack else None
        if pack is None or scenario is None:
            listed.append({"row": row, "state": None, "scenario": None})
            continue
        state = games.engine(pack).replay(pack, games.setup_of(row), events[row.id])
        listed.append({"row": row, "state": state, "scenario": scenario})
    return render_template("home.html", games=listed, packs=packs(), pack_errors=pack_errors())


@bp.get("/packs/<pack_id>")
def pack(pack_id: str) -> Any:
    found = packs().get(pack_id)
    if found is None:
        abort(404, description=f"There is no rulepack {pack_id!r} on this server.")
    maps = {s.id: grid.svg(s, found.sides) for s in found.scenarios if s.board and found.play == "rounds"}
    return render_template("pack.html", pack=found, maps=maps)
