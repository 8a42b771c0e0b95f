"""Printable sheets: score sheets (blank per scenario, filled per game) and scenario maps."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, request

from app import games, pdf
from app.rules import grid, rounds, scoring
from app.rules.pack import Pack, Scenario
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


def _scenario(pack_id: str, scenario_id: str) -> tuple[Pack, Scenario]:
    pack = packs().get(pack_id)
    scenario = pack.scenario(scenario_id) if pack else None
    if pack is None or scenario is None:
        abort(404, description="There is no such rulepack or scenario.")
    return pack, scenario


def _sheet(pack: Pack, scenario: Scenario, loaded: games.Loaded | None, paper: str) -> bytes:
    game = loaded.state if loaded else None
    if pack.play == "rounds":
        names = [pl.name for pl in game.setup.players] if game else None
        state = rounds.map_state(game) if isinstance(game, rounds.RoundGame) else None
        context = {
            "pack": pack,
            "scenario": scenario,
            "game": game,
            "summary": games.summary(loaded) if loaded else None,
            "scoring": rounds.describe_scoring(pack, scenario) if scenario.playable else [],
            "map_svg": grid.svg(scenario, pack.sides, names, state),
            "points_limit": loaded.row.points_limit if loaded else None,
        }
        return pdf.render("round_sheet.html", context, paper)
    context = {
        "pack": pack,
        "scenario": scenario,
        "game": game,
        "summary": games.summary(loaded) if loaded else None,
        "scoring": scoring.describe_scoring(scenario),
        "points_limit": loaded.row.points_limit if loaded else None,
    }
    return pdf.render("scoresheet.html", context, paper)


@bp.get("/games/<game_id>/scoresheet.pdf")
def game_sheet(game_id: str) -> Any:
    paper = _paper()
    loaded = loaded_game(game_id)
    data = _sheet(loaded.pack, loaded.state.scenario, loaded, paper)
    return _pdf(data, f"muster-{loaded.state.scenario.id}-{game_id}.pdf")


@bp.get("/packs/<pack_id>/scenarios/<scenario_id>/scoresheet.pdf")
def blank_sheet(pack_id: str, scenario_id: str) -> Any:
    paper = _paper()
    pack, scenario = _scenario(pack_id, scenario_id)
    if not scenario.playable:
        abort(404, description=f"{scenario.name} cannot be played: {scenario.not_playable_reason}")
    return _pdf(_sheet(pack, scenario, None, paper), f"muster-{scenario.id}-blank.pdf")


@bp.get("/packs/<pack_id>/scenarios/<scenario_id>/map.pdf")
def map_pdf(pack_id: str, scenario_id: str) -> Any:
    """The scenario's map at the size of a page, with its zones and rules listed."""
    paper = _paper()
    pack, scenario = _scenario(pack_id, scenario_id)
    if scenario.board is None:
        abort(404, description=f"{scenario.name} has no map.")
    context = {
        "pack": pack,
        "scenario": scenario,
        "map_svg": grid.svg(scenario, pack.sides),
        "scoring": rounds.describe_scoring(pack, scenario)
        if pack.play == "rounds" and scenario.playable
        else (scoring.describe_scoring(scenario) if scenario.playable else []),
    }
    return _pdf(pdf.render("map.html", context, paper), f"muster-{scenario.id}-map.pdf")


@bp.get("/packs/<pack_id>/scenarios/<scenario_id>/map.svg")
def map_svg(pack_id: str, scenario_id: str) -> Any:
    pack, scenario = _scenario(pack_id, scenario_id)
    if scenario.board is None:
        abort(404, description=f"{scenario.name} has no map.")
    response = Response(grid.svg(scenario, pack.sides), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response
