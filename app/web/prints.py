"""Printable score sheets: blank per battleplan, filled per game (A4 or US Letter)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, request

from app import games, pdf
from app.rules import scoring
from app.web import loaded_game, packs

bp = Blueprint("prints", __name__)


def _paper() -> str:
    paper = request.args.get("paper", "a4").lower()
    if paper not in pdf.PAPERS:
        abort(400, description="paper must be a4 or letter.")
    return paper


def _pdf(data: bytes, filename: str) -> Response:
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@bp.get("/games/<game_id>/scoresheet.pdf")
def game_sheet(game_id: str) -> Any:
    paper = _paper()
    loaded = loaded_game(game_id)
    context = {
        "pack": loaded.pack,
        "scenario": loaded.state.scenario,
        "game": loaded.state,
        "summary": games.summary(loaded),
        "scoring": scoring.describe_scoring(loaded.state.scenario),
        "points_limit": loaded.row.points_limit,
    }
    return _pdf(
        pdf.render("scoresheet.html", context, paper), f"muster-{loaded.state.scenario.id}-{game_id}.pdf"
    )


@bp.get("/packs/<pack_id>/scenarios/<scenario_id>/scoresheet.pdf")
def blank_sheet(pack_id: str, scenario_id: str) -> Any:
    paper = _paper()
    pack = packs().get(pack_id)
    scenario = pack.scenario(scenario_id) if pack else None
    if pack is None or scenario is None:
        abort(404, description="There is no such rulepack or battleplan.")
    context = {
        "pack": pack,
        "scenario": scenario,
        "game": None,
        "summary": None,
        "scoring": scoring.describe_scoring(scenario),
        "points_limit": None,
    }
    return _pdf(pdf.render("scoresheet.html", context, paper), f"muster-{scenario.id}-blank.pdf")
