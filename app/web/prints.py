"""Printable sheets: score sheets (blank per scenario, filled per game) and scenario maps."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, current_app, request

from app.infra import pdf
from app.rules import grid
from app.rules.pack import Pack, Scenario
from app.rules.speech import say, told
from app.rules.systems import system_for
from app.services import games
from app.web import limits
from app.web.limits import limited
from app.web.services import loaded_game, packs
from app.web.systems import web_system_for

bp = Blueprint("prints", __name__)


def chosen_paper() -> str:
    """The paper a print is asked for (``?paper=a4`` or ``letter``); 400 for any other."""
    chosen = request.args.get("paper", "a4").lower()
    if chosen not in pdf.PAPERS:
        abort(400, description=say("paper must be a4 or letter."))
    return chosen


# The PDFs of a club night take a few MB (a roster is 30-60 KB, a map 20 KB): 32 MB keeps
# hundreds while a Pi's SD card does not notice.
CACHE_MB = 32


def sheet_pdf(template: str, context: dict[str, Any], paper: str) -> bytes:
    """A print template as a PDF, served from the PDF cache when made before from the same data.

    A layout's seconds count against the asking address's layout budget (app/web/limits.py): one
    phone cannot keep the layout busy for everyone, however it defeats the cache.
    """
    return pdf.render(
        template,
        context,
        paper,
        cache=pdf_cache(),
        before_layout=lambda: limits.check_budget("layout"),
        spent=lambda seconds: limits.spend("layout", seconds),
        holder=request.remote_addr or "unknown",
    )


def pdf_cache() -> pdf.Cache:
    """This app's PDF cache: ``pdf-cache/`` beside the database, shared by every worker."""
    cache = current_app.extensions.get("muster.pdf_cache")
    if cache is None:
        config = current_app.config
        folder = config.get("PDF_CACHE") or Path(config["DATABASE"]).parent / "pdf-cache"
        megabytes = float(config.get("PDF_CACHE_MB", os.environ.get("MUSTER_PDF_CACHE_MB", CACHE_MB)))
        cache = current_app.extensions["muster.pdf_cache"] = pdf.Cache(folder, int(megabytes * 1024 * 1024))
    return cache


def _pdf(data: bytes, filename: str) -> Response:
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _scenario(pack_id: str, scenario_id: str) -> tuple[Pack, Scenario]:
    pack = packs().get(pack_id)
    scenario = pack.scenario(scenario_id) if pack else None
    if pack is None or scenario is None:
        abort(404, description=say("There is no such rulepack or scenario."))
    return pack, scenario


def _sheet(
    pack: Pack, scenario: Scenario, loaded: games.Loaded | None, paper: str, count: int | None = None
) -> bytes:
    """The score sheet of the pack's game system, blank (for ``count`` players) or filled in.

    A filled sheet is the same for everyone who asks: it shows no player's secrets.
    """
    web = web_system_for(pack, scenario)
    context = {
        "pack": pack,
        "scenario": scenario,
        "game": loaded.state if loaded else None,
        "summary": games.summary(loaded) if loaded else None,
        "scoring": system_for(pack, scenario).scoring(pack, scenario) if scenario.playable else [],
        "points_limit": loaded.row.points_limit if loaded else None,
        # A blank sheet is for the scenario's fewest players (a two-player battleplan in a
        # multiplayer pack: two), unless more were asked for, named by the scenario's sides.
        "seats": seats(pack, loaded, count, scenario),
        **web.sheet(pack, scenario, loaded, count),
    }
    return sheet_pdf(web.sheet_template, context, paper)


def seats(
    pack: Pack, loaded: games.Loaded | None, count: int | None = None, scenario: Scenario | None = None
) -> list[dict[str, Any]]:
    """The players a sheet lays out, in the pack's order of sides: a game's, or blank rows.

    Each is ``{"index", "label", "player"}``; a blank sheet has ``count`` players (the
    scenario's fewest unless asked: a siege's two in a pack of multiplayer battles), named by
    side where each has one (the scenario's own sides first).
    """
    if loaded is None:
        count = count or pack.players_for(scenario).min or 2
        sides = (scenario.sides if scenario is not None else None) or pack.sides
        labels = [pack.side_label(s) for s in sides] if len(sides) == count else []
        return [
            {
                "index": i,
                "label": labels[i] if labels else say("Player {number}", number=i + 1),
                "player": None,
                "army": None,
            }
            for i in range(count)
        ]
    players = list(enumerate(loaded.setup.players))
    order = {side: n for n, side in enumerate(pack.sides)}
    players.sort(key=lambda item: (order.get(item[1].side or "", len(order)), item[0]))
    return [
        {
            "index": i,
            "label": pack.side_label(p.side) if p.side else say("Player {number}", number=i + 1),
            "player": p,
            "army": army_words(loaded.armies.get(i)),
        }
        for i, p in players
    ]


def army_words(attached: dict[str, Any] | None) -> str | None:
    """A player's army as a sheet names it: faction (subfaction) and the roster's name."""
    if not attached:
        return None
    roster = attached.get("roster") or {}
    faction = roster.get("faction") or ""
    if roster.get("subfaction"):
        faction = f"{faction} ({roster['subfaction']})" if faction else roster["subfaction"]
    name = roster.get("name")
    return ", ".join(part for part in (faction, name) if part) or attached.get("name") or "Roster"


@bp.get("/games/<game_id>/scoresheet.pdf")
@limited("pdfs")
def game_sheet(game_id: str) -> Any:
    paper = chosen_paper()
    loaded = loaded_game(game_id)
    data = _sheet(loaded.pack, loaded.state.scenario, loaded, paper)
    return _pdf(data, f"muster-{loaded.state.scenario.id}-{game_id}.pdf")


@bp.get("/packs/<pack_id>/scenarios/<scenario_id>/scoresheet.pdf")
@limited("pdfs")
def blank_sheet(pack_id: str, scenario_id: str) -> Any:
    paper = chosen_paper()
    pack, scenario = _scenario(pack_id, scenario_id)
    if not scenario.playable:
        abort(
            404,
            description=say(
                "{scenario} cannot be played: {reason}",
                scenario=scenario.name,
                reason=told(scenario.not_playable_reason),
            ),
        )
    count = _players_asked(pack, scenario)
    name = f"muster-{scenario.id}-{count}-players-blank.pdf" if count else f"muster-{scenario.id}-blank.pdf"
    return _pdf(_sheet(pack, scenario, None, paper, count), name)


def _players_asked(pack: Pack, scenario: Scenario) -> int | None:
    """How many players a blank sheet is for (``?players=N``, within the scenario's range), or None."""
    raw = request.args.get("players", "").strip()
    if not raw:
        return None
    counts = pack.players_for(scenario)
    low, high = counts.min or 2, counts.max or counts.min or 2
    if not raw.isdigit() or not low <= int(raw) <= high:
        abort(
            400,
            description=say(
                "players must be a whole number from {least} to {most} for {scenario}.",
                least=low,
                most=high,
                scenario=scenario.name,
            ),
        )
    return int(raw)


@bp.get("/packs/<pack_id>/scenarios/<scenario_id>/map.pdf")
@limited("pdfs")
def map_pdf(pack_id: str, scenario_id: str) -> Any:
    """The scenario's map at the size of a page, with its zones and rules listed."""
    paper = chosen_paper()
    pack, scenario = _scenario(pack_id, scenario_id)
    if scenario.board is None:
        abort(404, description=say("{scenario} has no map.", scenario=scenario.name))
    context = {
        "pack": pack,
        "scenario": scenario,
        "map_svg": grid.svg(scenario, pack.sides),
        "scoring": system_for(pack, scenario).scoring(pack, scenario) if scenario.playable else [],
    }
    return _pdf(sheet_pdf("map.html", context, paper), f"muster-{scenario.id}-map.pdf")


@bp.get("/packs/<pack_id>/scenarios/<scenario_id>/map.svg")
def map_svg(pack_id: str, scenario_id: str) -> Any:
    pack, scenario = _scenario(pack_id, scenario_id)
    if scenario.board is None:
        abort(404, description=say("{scenario} has no map.", scenario=scenario.name))
    response = Response(grid.svg(scenario, pack.sides), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response
