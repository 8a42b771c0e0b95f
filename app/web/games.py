"""Game screens: new game, the score sheet at the table, joining from a second phone."""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict

from app import games, terrain_sets
from app.limits import limited
from app.refusal import Refusal
from app.rules import dice, grid, rounds, scoring, seizing
from app.rules.problems import field_name
from app.web import give_back, loaded_game, no_store, packs, phone, private_page, qr_response, replays, store
from app.web.forms import whole

bp = Blueprint("games", __name__)

COOKIE_DAYS = 60


def _cookie(game_id: str) -> str:
    return f"muster_edit_{game_id}"


def edit_token(game_id: str) -> str | None:
    """The edit token this browser holds for the game, if it is the right one."""
    token = request.cookies.get(_cookie(game_id))
    return token if store().games.token_ok(game_id, token) else None


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
    available = sorted((p for p in packs().values() if p.playable), key=lambda p: p.id)
    if not available:
        abort(404, description="No rulepack with scenarios is installed, so no game can start.")
    chosen = packs().get(request.values.get("pack", ""))
    return chosen if chosen in available else available[0]


@bp.get("/games/new")
def new() -> Any:
    pack = _default_pack()
    playable = sorted((p for p in packs().values() if p.playable), key=lambda p: p.id)
    return render_template("new_game.html", pack=pack, packs=playable, form={}, error=None, rolled=None)


@bp.post("/games/new/roll")
def roll_battleplan() -> Any:
    """Roll for the battleplan (or the scenario): the dice are shown and the pick is made.

    The dice travel with the form as roll events, recorded in the new game's log when it starts.
    """
    pack = _default_pack()
    names = [request.form.get("name0") or "Player 1", request.form.get("name1") or "Player 2"]
    rng = random.SystemRandom()
    if pack.battleplan_roll is not None:
        rolled: Any = dice.battleplan_roll(rng, pack)
    elif pack.scenario_roll is not None:
        rolled = dice.scenario_roll(rng, pack)
    else:
        abort(404, description=f"{pack.name} has no battleplan tables or scenario roll.")
    events = dice.roll_events(pack, rolled)
    return render_template(
        "partials/_battleplan_field.html",
        pack=pack,
        rolled=rolled,
        names=names,
        selected=rolled.scenario,
        roll_events=json.dumps({"scenario": rolled.scenario, "events": events}),
    )


def _record_rolls(game_id: str, raw: str | None, scenario: str | None) -> None:
    """Keep the new-game screen's dice in the game's log (each checked like any roll event).

    Only when the game plays what the dice picked: a roll the players set aside decided nothing.
    """
    if not raw or len(raw) > 4000:
        return
    try:
        rolled = json.loads(raw)
    except ValueError:
        return
    if not isinstance(rolled, dict) or rolled.get("scenario") != scenario:
        return
    events = rolled.get("events")
    if not isinstance(events, list):
        return
    for event in events[:12]:
        if isinstance(event, dict):
            # A roll the rules refuse (a hand-edited form) is left out; the game stands.
            games.record(store(), packs(), game_id, {**event, "id": str(uuid.uuid4()), "type": "roll"})


@bp.post("/games")
@limited("games")
def create() -> Any:
    pack = _default_pack()
    form = request.form
    first_side = form.get("first_side", "0")
    players = []
    for i in range(2):
        side = None
        if pack.sides:
            side = pack.sides[0] if str(i) == first_side else pack.sides[1]
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
            "new_game.html",
            pack=pack,
            packs=sorted((p for p in packs().values() if p.playable), key=lambda p: p.id),
            form=form,
            error=made.message,
            rolled=None,
        )
        return html, 422
    game_id, token = made
    _record_rolls(game_id, form.get("rolls"), form.get("scenario"))
    response = redirect(url_for("games.show", game_id=game_id), code=303)
    return no_store(_with_token(response, game_id, token))


# --- a game -----------------------------------------------------------------------------
def _view(
    loaded: games.Loaded, token: str | None, error: str | None = None, draft: Any = None
) -> dict[str, Any]:
    state = loaded.state
    common = {
        "loaded": loaded,
        "game": state,
        "pack": loaded.pack,
        "scenario": state.scenario,
        "summary": games.summary(loaded),
        "can_edit": token is not None,
        "armies": loaded.armies,
        "roster_choices": store().rosters.of_phone(phone.known_hash(), loaded.row.pack) if token else [],
        "error": error,
        "draft": draft or MultiDict(),
        "game_partial": "partials/_rounds_game.html"
        if loaded.pack.play == "rounds"
        else "partials/_game.html",
        "terrain_status": terrain_sets.status(store(), loaded.row.id, [p.name for p in state.setup.players])
        if loaded.pack.terrain
        else None,
    }
    if isinstance(state, rounds.RoundGame):
        return {**common, **_rounds_view(loaded, state, draft)}
    current = state.current_round
    last_turn = state.turns[-1] if state.turns else None
    facts = scoring.scenario_facts(loaded.pack, state.scenario)
    return {
        **common,
        "round": current,
        "round_started": current in state.rounds,
        "next_players": state.next_players(),
        "in_play": state.in_play(min(current, state.scenario.battle_rounds)),
        "last_control": last_turn.control if last_turn else {},
        "turn_facts": [f for f in facts if f.event == "turn"],
        "round_facts": [f for f in facts if f.event == "battle_round"],
        "scoring_lines": scoring.describe_scoring(state.scenario),
        "claims": scoring.open_claims(state),
        "claim_flags": scoring.claim_flags(state),
        # Claim blocks from the round in play (or the next to start) to the last.
        "claim_from": state.round_in_play or min(current, state.scenario.battle_rounds),
    }


def _rounds_view(loaded: games.Loaded, state: rounds.RoundGame, draft: Any) -> dict[str, Any]:
    names = [pl.name for pl in state.setup.players]
    shown = rounds.map_state(state)
    if draft:
        # A refused Victory Phase shows the map as the player had tapped it.
        for key, value in draft.items():
            if key.startswith("control.") and value != "":
                shown.holders[key.removeprefix("control.")] = _int(value)
    facts = {f.name for f in rounds.round_facts(loaded.pack, state.scenario)}
    seizable = [
        o for o in state.scenario.objectives if o.kind in ("zone", "point") or o.moves_toward_friendly_zone
    ]
    attackable = {
        i: [
            m
            for m in state.kind("marker")
            if not m.moves_toward_friendly_zone and m.id not in state.destroyed and state.owner(m) != i
        ]
        for i in range(state.player_count)
    }
    return {
        "round": state.current_round,
        "names": names,
        "map_svg": grid.svg(state.scenario, loaded.pack.sides, names, shown, interactive=True),
        "seizable": seizable,
        "attackable": attackable,
        "facts": facts,
        "slain_already": {
            i for i in range(state.player_count) if any(ph.players[i].character_slain for ph in state.phases)
        },
        "scoring_lines": rounds.describe_scoring(loaded.pack, state.scenario),
        "reinforcements": state.reinforcements(state.current_round),
    }


@bp.get("/games/<game_id>")
def show(game_id: str) -> Any:
    loaded = loaded_game(game_id)
    token = edit_token(game_id)
    context = _view(loaded, token)
    # Anyone may pass on the plain game link: it opens the game to watch, never to edit.
    context["watch_url"] = url_for("games.show", game_id=game_id, _external=True)
    if token:
        context["join_url"] = url_for("games.join", game_id=game_id, token=token, _external=True)
    response = make_response(render_template("game.html", **context))
    response.headers["Vary"] = "HX-Request, Cookie"
    return private_page(response)


@bp.get("/games/<game_id>/watch.svg")
def watch_qr(game_id: str) -> Any:
    """The QR code of the link to watch the game (anyone may have it)."""
    if not store().games.exists(game_id):
        abort(404, description="There is no such game.")
    return qr_response(url_for("games.show", game_id=game_id, _external=True))


@bp.get("/games/<game_id>/join.svg")
def join_qr(game_id: str) -> Any:
    """The QR code of the join link: only for a phone that can already edit the game."""
    token = edit_token(game_id)
    if token is None:
        abort(403, description="Only a phone that records in this game can show its join code.")
    return qr_response(url_for("games.join", game_id=game_id, token=token, _external=True), private=True)


@bp.get("/games/<game_id>/join/<token>")
def join(game_id: str, token: str) -> Any:
    if not store().games.exists(game_id):
        abort(404, description="There is no such game.")
    if not store().games.token_ok(game_id, token):
        abort(403, description="This join link is not valid for the game; ask for a new one.")
    response = redirect(url_for("games.show", game_id=game_id), code=303)
    return no_store(_with_token(response, game_id, token))


@bp.post("/games/<game_id>/events")
def record(game_id: str) -> Any:
    """Record one event from a form; answer with the refreshed game (or the refusal)."""
    loaded = loaded_game(game_id)
    token = edit_token(game_id)
    if token is None:
        abort(403, description="Only this game's players can record in it: open the join link first.")
    event, problem = form_event(loaded, request.form)
    outcome = None
    if problem is None:
        give_back(game_id, loaded)
        outcome = games.record(store(), packs(), game_id, event, loaded.row, replays())
        problem = outcome.error
    htmx = request.headers.get("HX-Request") == "true"
    if problem is None and not htmx:
        return redirect(url_for("games.show", game_id=game_id), code=303)
    code = 422 if problem else 200
    after = loaded_game(game_id, outcome)
    context = _view(after, token, error=problem, draft=request.form if problem else None)
    template = context["game_partial"] if htmx else "game.html"
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
    problem = games.attach_roster(store(), packs(), game_id, _int(player), request.form.get("roster"))
    if problem is None and request.headers.get("HX-Request") != "true":
        return redirect(url_for("games.show", game_id=game_id), code=303)
    context = _view(loaded_game(game_id), token, error=problem.message if problem else None)
    template = context["game_partial"] if request.headers.get("HX-Request") == "true" else "game.html"
    return make_response(render_template(template, **context), 422 if problem else 200)


# --- forms -> events --------------------------------------------------------------------
def _int(value: str | None) -> int | None:
    return whole(value, negative=True)


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
    if kind == "round":
        return _round_event(loaded, form, event)
    if kind == "claim":
        event.update(
            round=_int(form.get("round")), player=_int(form.get("player")), rule=form.get("rule", "")
        )
        return event, None
    if kind == "roll":
        # The dice roller's form: the dice as they fell ("3,5"), and what the roll decided.
        results = [_int(value) for value in form.get("results", "").replace(",", " ").split()]
        if not results or None in results:
            return event, "results must list the dice as whole numbers, such as 3,5."
        event.update(dice=form.get("dice", ""), results=results, purpose=form.get("purpose", "").strip())
        if form.get("winner", "").strip():
            event["winner"] = _int(form.get("winner"))
        return event, None
    if kind not in ("turn", "battle_round"):
        return event, "type must be turn, battle_round, end, claim, roll or undo."
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
                            f"placed: the 2D6 roll for {field_name(key.removeprefix('placed.'))} must be a number.",
                        )
                    placed.append({"objective": key.removeprefix("placed."), "roll": roll})
            if placed:
                event["placed"] = placed
    return event, None


def _round_event(
    loaded: games.Loaded, form: MultiDict[str, str], event: dict[str, Any]
) -> tuple[dict[str, Any], str | None]:
    """A Victory Phase from the form: control per zone or point, then each player's part."""
    event["round"] = _int(form.get("round"))
    event["control"] = {
        key.removeprefix("control."): _int(value) for key, value in form.items() if key.startswith("control.")
    }
    players = []
    for i in range(len(loaded.state.setup.players)):
        prefix = f"p{i}."
        part: dict[str, Any] = {
            "markers_destroyed": form.getlist(prefix + "markers_destroyed"),
            "character_slain": form.get(prefix + "character_slain") in ("on", "true", "1"),
            "wiped_out": form.get(prefix + "wiped_out") in ("on", "true", "1"),
        }
        wounds = {}
        for key, value in form.items():
            if key.startswith(prefix + "wounds.") and value.strip():
                n = _int(value)
                if n is None:
                    return event, f"{field_name(key)}: wounds must be a whole number from 0 to 5."
                if n:
                    wounds[key.removeprefix(prefix + "wounds.")] = n
        part["marker_wounds"] = wounds
        for name in ("regiments_destroyed", "officers_slain"):
            raw = form.get(prefix + name, "").strip()
            if raw:
                n = _int(raw)
                if n is None:
                    return event, f"{prefix}{name} must be a whole number, 0 or more."
                part[name] = n
        players.append(part)
    event["players"] = players
    return event, None


@bp.post("/games/<game_id>/seize")
def seize(game_id: str) -> Any:
    """The seizing calculator: weighted models in range for each player, and who seizes."""
    loaded = loaded_game(game_id)
    models = []
    for i in range(len(loaded.state.setup.players)):
        counts = {}
        for w in loaded.pack.seizing:
            raw = request.form.get(f"s{i}.{w.id}", "").strip()
            counts[w.id] = max(_int(raw) or 0, 0)
        models.append(counts)
    result = seizing.seize(loaded.pack, models)
    names = [pl.name for pl in loaded.state.setup.players]
    return render_template("partials/_seize_result.html", result=result, names=names)


@bp.post("/games/<game_id>/deploy-roll")
def deploy_roll(game_id: str) -> Any:
    """Roll off for deployment: the lower roll chooses who sets up the first regiment."""
    loaded = loaded_game(game_id)
    names = [pl.name for pl in loaded.state.setup.players]
    rolled = dice.roll_off(random.SystemRandom(), len(names), lowest=True)
    return render_template("partials/_deploy_roll.html", rolled=rolled, names=names)
