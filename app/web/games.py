"""Game screens: new game, the score sheet at the table, joining from a second phone."""

from __future__ import annotations

import random
from typing import Any

from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict

from app import games
from app.refusal import Refusal
from app.rules import dice, scoring
from app.web import loaded_game, packs, qr_data_uri, store

bp = Blueprint("games", __name__)

COOKIE_DAYS = 60


def _cookie(game_id: str) -> str:
    return f"muster_edit_{game_id}"


def edit_token(game_id: str) -> str | None:
    """The edit token this browser holds for the game, if it is the right one."""
    token = request.cookies.get(_cookie(game_id))
    return token if store().token_ok(game_id, token) else None


def _with_token(response: Any, game_id: str, token: str) -> Any:
    response.set_cookie(
        _cookie(game_id),
        token,
        max_age=COOKIE_DAYS * 24 * 3600,
        path=f"/games/{game_id}",
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )
    return response


# --- new game ---------------------------------------------------------------------------
def _default_pack() -> Any:
    available = sorted((p for p in packs().values() if p.playable), key=lambda p: p.name)
    if not available:
        abort(404, description="No rulepack with scenarios is installed, so no game can start.")
    chosen = packs().get(request.values.get("pack", ""))
    return chosen if chosen in available else available[0]


@bp.get("/games/new")
def new() -> Any:
    pack = _default_pack()
    return render_template("new_game.html", pack=pack, packs=packs(), form={}, error=None, rolled=None)


@bp.post("/games/new/roll")
def roll_battleplan() -> Any:
    """Roll for the battleplan: the dice are shown and the battleplan is picked."""
    pack = _default_pack()
    rolled = dice.battleplan_roll(random.SystemRandom(), pack)
    if rolled is None:
        abort(404, description=f"{pack.name} has no battleplan tables to roll on.")
    names = [request.form.get("name0") or "Player 1", request.form.get("name1") or "Player 2"]
    return render_template(
        "partials/_battleplan_field.html", pack=pack, rolled=rolled, names=names, selected=rolled.scenario
    )


@bp.post("/games")
def create() -> Any:
    pack = _default_pack()
    form = request.form
    attacker = form.get("attacker", "0")
    players = []
    for i in range(2):
        side = None
        if pack.sides:
            side = pack.sides[0] if str(i) == attacker else pack.sides[1]
        players.append(
            {"name": form.get(f"name{i}", ""), "side": side, "grand_strategy": form.get(f"strategy{i}")}
        )
    data = {
        "pack": pack.id,
        "scenario": form.get("scenario"),
        "points_limit": form.get("points_limit"),
        "players": players,
    }
    made = games.create(store(), packs(), data)
    if isinstance(made, Refusal):
        html = render_template(
            "new_game.html", pack=pack, packs=packs(), form=form, error=made.message, rolled=None
        )
        return html, 422
    game_id, token = made
    response = redirect(url_for("games.show", game_id=game_id), code=303)
    return _with_token(response, game_id, token)


# --- a game -----------------------------------------------------------------------------
def _view(
    loaded: games.Loaded, token: str | None, error: str | None = None, draft: Any = None
) -> dict[str, Any]:
    state = loaded.state
    current = state.current_round
    last_turn = state.turns[-1] if state.turns else None
    facts = scoring.scenario_facts(loaded.pack, state.scenario)
    return {
        "loaded": loaded,
        "game": state,
        "pack": loaded.pack,
        "scenario": state.scenario,
        "summary": games.summary(loaded),
        "can_edit": token is not None,
        "round": current,
        "round_started": current in state.rounds,
        "next_players": state.next_players(),
        "in_play": state.in_play(min(current, state.scenario.battle_rounds)),
        "last_control": last_turn.control if last_turn else {},
        "turn_facts": [f for f in facts if f.event == "turn"],
        "round_facts": [f for f in facts if f.event == "battle_round"],
        "scoring_lines": scoring.describe_scoring(state.scenario),
        "armies": loaded.armies,
        "roster_choices": store().recent_rosters(30, pack=loaded.row.pack) if token else [],
        "error": error,
        "draft": draft or MultiDict(),
    }


@bp.get("/games/<game_id>")
def show(game_id: str) -> Any:
    loaded = loaded_game(game_id)
    token = edit_token(game_id)
    context = _view(loaded, token)
    if token:
        join = url_for("games.join", game_id=game_id, token=token, _external=True)
        context["join_url"] = join
        context["join_qr"] = qr_data_uri(join)
    response = make_response(render_template("game.html", **context))
    response.headers["Vary"] = "HX-Request, Cookie"
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/games/<game_id>/join/<token>")
def join(game_id: str, token: str) -> Any:
    if not store().game_exists(game_id):
        abort(404, description="There is no such game.")
    if not store().token_ok(game_id, token):
        abort(403, description="This join link is not valid for the game; ask for a new one.")
    response = redirect(url_for("games.show", game_id=game_id), code=303)
    return _with_token(response, game_id, token)


@bp.post("/games/<game_id>/events")
def record(game_id: str) -> Any:
    """Record one event from a form; answer with the refreshed game (or the refusal)."""
    loaded = loaded_game(game_id)
    token = edit_token(game_id)
    if token is None:
        abort(403, description="Only this game's players can record in it: open the join link first.")
    event, problem = form_event(loaded, request.form)
    if problem is None:
        _status, problem = games.record(store(), packs(), game_id, event)
    htmx = request.headers.get("HX-Request") == "true"
    if problem is None and not htmx:
        return redirect(url_for("games.show", game_id=game_id), code=303)
    code = 422 if problem else 200
    context = _view(loaded_game(game_id), token, error=problem, draft=request.form if problem else None)
    template = "partials/_game.html" if htmx else "game.html"
    response = make_response(render_template(template, **context), code)
    response.headers["Vary"] = "HX-Request, Cookie"
    return response


@bp.post("/games/<game_id>/armies")
def attach(game_id: str) -> Any:
    """A player fields a stored roster: the score sheet then knows their army."""
    loaded_game(game_id)
    token = edit_token(game_id)
    if token is None:
        abort(403, description="Only this game's players can attach rosters: open the join link first.")
    player = request.form.get("player", "")
    problem = games.attach_roster(
        store(), packs(), game_id, int(player) if player.isdigit() else None, request.form.get("roster")
    )
    if problem is None and request.headers.get("HX-Request") != "true":
        return redirect(url_for("games.show", game_id=game_id), code=303)
    context = _view(loaded_game(game_id), token, error=problem.message if problem else None)
    template = "partials/_game.html" if request.headers.get("HX-Request") == "true" else "game.html"
    return make_response(render_template(template, **context), 422 if problem else 200)


# --- forms -> events --------------------------------------------------------------------
def _int(value: str | None) -> int | None:
    if value is None or value.strip() == "":
        return None
    value = value.strip()
    if value.lstrip("-").isdigit():
        return int(value)
    return None


def form_event(loaded: games.Loaded, form: MultiDict[str, str]) -> tuple[dict[str, Any], str | None]:
    """Turn a screen's form into the same event the JSON API takes."""
    kind = form.get("type", "")
    event: dict[str, Any] = {"id": form.get("id", ""), "type": kind}
    if kind == "undo":
        event["event"] = form.get("event", "")
        return event, None
    if kind == "end":
        event["player"] = _int(form.get("player"))
        value = form.get("grand_strategy_completed")
        if value not in ("true", "false"):
            return event, "grand_strategy_completed: choose completed or not completed."
        event["grand_strategy_completed"] = value == "true"
        return event, None
    if kind not in ("turn", "battle_round"):
        return event, "type must be turn, battle_round, end or undo."
    event["round"] = _int(form.get("round"))
    facts = scoring.scenario_facts(loaded.pack, loaded.state.scenario)
    if kind == "turn":
        event["player"] = _int(form.get("player"))
        event["control"] = {
            key.removeprefix("control."): _int(value)
            for key, value in form.items()
            if key.startswith("control.")
        }
        event["tactic"] = form.get("tactic") or None
    for spec in facts:
        if spec.event != kind or spec.name in ("control", "tactic"):
            continue
        if spec.kind == "flag":
            event[spec.name] = form.get(spec.name) in ("on", "true", "1")
        elif spec.kind in ("count", "player"):
            raw = form.get(spec.name)
            value = _int(raw)
            if raw and raw.strip() and value is None:
                return event, f"{spec.name} must be a whole number."
            if value is not None or spec.kind == "count":
                event[spec.name] = (value or 0) if spec.kind == "count" else value
        elif spec.kind == "objective":
            event[spec.name] = form.get(spec.name) or None
        elif spec.kind == "objectives":
            event[spec.name] = form.getlist(spec.name)
        elif spec.kind == "placements":
            placed = []
            for key, value in form.items():
                if key.startswith("placed.") and value.strip():
                    roll = _int(value)
                    if roll is None:
                        return (
                            event,
                            f"placed: the 2D6 roll for {key.removeprefix('placed.')} must be a number.",
                        )
                    placed.append({"objective": key.removeprefix("placed."), "roll": roll})
            if placed:
                event["placed"] = placed
    return event, None
