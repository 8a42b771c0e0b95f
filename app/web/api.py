"""JSON API v1: packs, games and their events (contract in docs/api.md)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, request, url_for

from app.rules import army, log, seizing, terrain
from app.rules.pack import Pack
from app.rules.problems import Problem
from app.rules.speech import say
from app.rules.systems import system_for
from app.services import clocks, list_import, rosters, terrain_sets
from app.services import games as game_service
from app.web import phone
from app.web.json_body import json_field, read_json
from app.web.limits import limited
from app.web.responses import no_store
from app.web.services import games_service, loaded_game, pack_or_404, packs, store

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def _refuse(message: str, status: int = 422) -> Any:
    return jsonify(error=message), status


def _side(pack: Pack, side: str | None) -> int | None:
    return pack.sides.index(side) if side in pack.sides else None


def _facts(pack: Pack, scenario: Any) -> list[dict[str, Any]]:
    return [f.as_dict() | {"event": f.event} for f in system_for(pack).facts(pack, scenario)]


def pack_json(pack: Pack) -> dict[str, Any]:
    """A pack as the API describes it: what a client needs to set up and record a game."""
    return {
        "id": pack.id,
        "name": pack.name,
        "game": pack.game,
        "source": pack.source.model_dump(),
        "play": pack.system,
        "system": pack.system,
        "players": pack.players.model_dump(),
        "sides": pack.sides,
        "points": {
            "presets": pack.points.presets,
            "presets_only": pack.points.presets_only,
            "limits": [limit.model_dump(exclude_none=True) for limit in pack.points.limits],
        },
        "points_limits": pack.points.presets,
        "scenarios": [
            {
                "id": s.id,
                "name": s.name,
                "number": s.number,
                "summary": s.summary,
                "table": s.table,
                "roll": s.roll,
                "playable": s.playable,
                "not_playable_reason": s.not_playable_reason,
                "battle_rounds": s.battle_rounds,
                "vp_threshold": pack.victory(s).threshold if s.playable else None,
                "board": s.board.model_dump() if s.board else None,
                "grid": s.grid,
                "objectives": [
                    {
                        "id": o.id,
                        "label": o.label,
                        "kind": o.kind,
                        "x": o.x,
                        "y": o.y,
                        "diameter": o.diameter,
                        "friendly_to": _side(pack, o.friendly_to),
                        "controlled_by": _side(pack, o.controlled_by),
                        "territory": o.territory,
                        "border": o.border,
                        "prime": o.prime,
                        "from_round": o.from_round,
                        "until_round": o.until_round,
                        "moves": [m.model_dump() for m in o.moves],
                        "moves_toward_friendly_zone": o.moves_toward_friendly_zone,
                    }
                    for o in s.objectives
                ],
                "deployment_zones": [
                    {"player": _side(pack, a.side), "points": a.points} for a in s.deployment_zones
                ],
                "reinforcement_zones": [
                    {"player": _side(pack, z.side), "segments": z.segments} for z in s.reinforcement_zones
                ],
                "facts": _facts(pack, s) if s.playable else [],
                "scoring": [b.model_dump() for b in s.scoring],
                "victory": pack.victory(s).model_dump() if s.playable else None,
                "rules": [r.model_dump(exclude_none=True) for r in s.rules],
            }
            for s in pack.scenarios
        ],
        "tactics": [
            {
                "id": t.id,
                "name": t.name,
                "bonus": t.bonus is not None,
                "bonus_vp": t.bonus.vp if t.bonus else 0,
                "summary": t.summary,
            }
            for t in pack.tactics
        ],
        "grand_strategies": [
            {"id": g.id, "name": g.name, "summary": g.summary} for g in pack.grand_strategies
        ],
        "realm_rules": [r.model_dump(exclude_none=True) for r in pack.realm_rules],
        "general_rules": [r.model_dump(exclude_none=True) for r in pack.general_rules],
        "seizing": [w.model_dump() for w in pack.seizing],
        "markers": pack.markers.model_dump() if pack.markers else None,
        "battleplan_roll": pack.battleplan_roll.model_dump() if pack.battleplan_roll else None,
        "scenario_roll": pack.scenario_roll.model_dump() if pack.scenario_roll else None,
        # The pack's own words in other languages, keyed by its English text: the pack above is
        # as written, whatever the phone's language (docs/rulepacks.md, "Translations").
        "translations": pack.translations,
    }


@bp.get("/packs")
def list_packs() -> Any:
    return jsonify(
        [
            {"id": p.id, "name": p.name, "game": p.game, "source": p.source.model_dump()}
            for p in sorted(packs().values(), key=lambda p: p.name)
        ]
    )


@bp.get("/packs/<pack_id>")
def show_pack(pack_id: str) -> Any:
    pack = pack_or_404(pack_id)
    return jsonify(pack_json(pack))


@bp.get("/packs/<pack_id>/catalogue")
def show_catalogue(pack_id: str) -> Any:
    """The units the pack's army builder offers, by faction, with the source of the facts."""
    pack = pack_or_404(pack_id)
    catalogue = pack.unit_catalogue
    if catalogue is None:
        abort(
            404,
            description=say(
                "The rulepack {pack} has no unit catalogue; its rosters take typed units.", pack=repr(pack_id)
            ),
        )
    answer = catalogue.as_dict() | {
        "pack": pack.id,
        "pack_season": pack.season,
        "pack_note": pack.catalogue_note,
    }
    return jsonify(answer)


@bp.post("/packs/<pack_id>/seize")
def seize(pack_id: str) -> Any:
    """Who seizes a zone or point, from the models each player has in range, by class."""
    pack = packs().get(pack_id)
    if pack is None or not pack.seizing:
        abort(
            404,
            description=say(
                "There is no rulepack {pack} with seizing rules on this server.", pack=repr(pack_id)
            ),
        )
    models = json_field("players")
    if not isinstance(models, list) or not models or not all(isinstance(m, dict) for m in models):
        classes = ", ".join(w.id for w in pack.seizing)
        return _refuse(
            f'players must be a list of objects such as {{"medium-infantry": 4}}; classes: {classes}.'
        )
    problem = seizing.count_problem(pack, models)
    if problem:
        return _refuse(problem)
    result = seizing.seize(pack, models)
    return jsonify(counts=list(result.counts), winner=result.winner)


@bp.post("/games")
@limited("games")
def create_game() -> Any:
    # The phone (or tool) that makes a game with seats is its table: only it shows their links.
    made = games_service().create(read_json(), table_phone=phone.current_hash())
    if isinstance(made, Problem):
        return _refuse(made.message)
    return phone.keep(_game_links(made))


def _game_links(made: game_service.Made) -> Any:
    """A new game's id, edit token and links: 201, kept by no cache (it carries the tokens).

    A game with secrets adds each player's seat: its token and the link that opens it.
    """
    game_id, token = made.id, made.edit_token
    answer: dict[str, Any] = {
        "id": game_id,
        "edit_token": token,
        "url": url_for("games.show", game_id=game_id, _external=True),
        "join_url": url_for("games.join", game_id=game_id, token=token, _external=True),
    }
    if made.seats:
        answer["seats"] = seat_links(game_id, made.seats)
    response = jsonify(answer)
    response.status_code = 201
    return no_store(response)


def seat_links(game_id: str, tokens: list[str]) -> list[dict[str, Any]]:
    """Each seat of a game: its player, its token and the link that opens it on a phone."""
    return [
        {
            "player": player,
            "token": token,
            "url": url_for("games.take_seat", game_id=game_id, token=token, _external=True),
        }
        for player, token in enumerate(tokens)
    ]


def _access(game_id: str) -> tuple[Any, game_service.Access]:
    """The game's row and who the request speaks for: X-Edit-Token (the table), X-Seat-Token (a seat)."""
    row, table = store().games.get_for_edit(game_id, request.headers.get("X-Edit-Token"))
    seat_token = request.headers.get("X-Seat-Token")
    seat = store().games.seats.player_of(game_id, seat_token) if row is not None and seat_token else None
    return row, game_service.Access(table=table, seat=seat)


def _seat(game_id: str) -> int | None:
    """The player whose seat token came in X-Seat-Token (their secrets are shown to them), or None."""
    token = request.headers.get("X-Seat-Token")
    return store().games.seats.player_of(game_id, token) if token else None


@bp.get("/games/<game_id>")
def show_game(game_id: str) -> Any:
    loaded = loaded_game(game_id)
    clock = clocks.state(store(), loaded.row).as_dict()
    response = jsonify({**game_service.summary(loaded, _seat(game_id)), "clock": clock})
    return _private(response)


def _private(response: Any) -> Any:
    """An answer that may hold a seat's secrets depends on the seat header; kept by no shared cache."""
    if request.headers.get("X-Seat-Token"):
        response.headers["Cache-Control"] = "private, no-store"
    response.vary.add("X-Seat-Token")
    return response


@bp.get("/games/<game_id>/events")
def list_events(game_id: str) -> Any:
    row = store().games.get(game_id)
    if row is None:
        abort(404, description=say("There is no such game."))
    try:
        events = games_service().events_seen(row, _seat(game_id))
    except game_service.PackMissing as exc:
        abort(409, description=str(exc))
    return _private(jsonify(events))


@bp.post("/games/<game_id>/events")
def post_event(game_id: str) -> Any:
    row, access = _access(game_id)
    if row is None:
        abort(404, description=say("There is no such game."))
    if not access.may_record:
        return _refuse(
            "X-Edit-Token must hold this game's edit token (or X-Seat-Token a seat's token) to record events.",
            403,
        )
    event = read_json()
    outcome = games_service().record(game_id, event, row, access)
    if outcome.status == "forbidden":
        return _refuse(outcome.error or say("This entry is another player's secret."), 403)
    if outcome.status == "refused":
        return _refuse(outcome.error or say("The event is refused."))
    loaded = games_service().after(row, outcome)
    if loaded is None:
        abort(404, description=say("There is no such game."))
    code = 201 if outcome.status == "recorded" else 200
    game = game_service.summary(loaded, access.seat)
    return _private(jsonify(status=outcome.status, id=log.event_id(event), game=game)), code


@bp.post("/games/<game_id>/clock")
def post_clock(game_id: str) -> Any:
    """A tap on the game's clock (start, pass, pause, limit): 201 with the clock after it."""
    row, token_ok = store().games.get_for_edit(game_id, request.headers.get("X-Edit-Token"))
    if row is None:
        abort(404, description=say("There is no such game."))
    if not token_ok and _seat(game_id) is None:
        # A seat's phone uses the clock too (issue 24 item 8): it is no secret of anyone's.
        return _refuse(
            "X-Edit-Token must hold this game's edit token (or X-Seat-Token a seat's) to use its clock.", 403
        )
    outcome = clocks.record(
        store(), row, read_json(), replayed=request.headers.get("X-Muster-Replay") == "outbox"
    )
    if outcome.status == "refused" or outcome.state is None:
        return _refuse(outcome.error or say("The tap is refused."))
    answer: dict[str, Any] = {"status": outcome.status, "id": outcome.id, "clock": outcome.state.as_dict()}
    if outcome.status == "recorded":
        answer["time"] = "client" if outcome.client_time else "server"
        if outcome.note:
            answer["note"] = outcome.note
    return jsonify(answer), 201 if outcome.status == "recorded" else 200


@bp.get("/games/<game_id>/export")
def export_game(game_id: str) -> Any:
    try:
        data = games_service().export(game_id, _seat(game_id))
    except game_service.PackMissing as exc:
        abort(409, description=str(exc))
    if data is None:
        abort(404, description=say("There is no such game."))
    response = jsonify(data)
    response.headers["Content-Disposition"] = f'attachment; filename="muster-{game_id}.json"'
    return _private(response)


@bp.post("/games/import")
@limited("imports")
def import_game() -> Any:
    made = games_service().import_game(read_json())
    if isinstance(made, Problem):
        return _refuse(made.message, 409 if made.conflict else 422)
    return _game_links(made)


# --- rosters ----------------------------------------------------------------------------
@bp.post("/rosters/check")
def check_roster() -> Any:
    """The verdict on a roster, storing nothing: 200 for any roster, valid or not."""
    roster, pack, problem = army.parse_roster(read_json(), packs())
    if roster is None or pack is None:
        return _refuse(problem or say("The body is not a roster."))
    return jsonify(army.check(pack, roster).as_dict())


@bp.post("/rosters/import")
@limited("imports")
def import_list() -> Any:
    """A list from another tool as a roster preview: JSON ``{pack, text}`` or a multipart upload."""
    upload = request.files.get("file")
    if request.mimetype == "multipart/form-data":
        if upload is None or not upload.filename:
            return _refuse("file: attach the list as a file (a .txt, .ros, .rosz or .owb.json).", 400)
        pack_id: Any = request.form.get("pack")
        data: bytes | str = upload.read()
    else:
        body = read_json()
        if not isinstance(body, dict) or not isinstance(body.get("text"), str):
            return _refuse('The body must be an object such as {"pack": "aos-ghb-2021", "text": "..."}.', 400)
        pack_id, data = body.get("pack"), body["text"]
    pack = packs().get(pack_id) if isinstance(pack_id, str) else None
    remembered = store().rosters.custom_units(pack.id, phone.current_hash()) if pack else []
    made = list_import.preview(packs(), pack_id, data, remembered)
    if isinstance(made, Problem):
        return _refuse(made.message)
    return no_store(jsonify(made))


def _roster_links(roster_id: str, token: str) -> dict[str, str]:
    return {
        "id": roster_id,
        "edit_token": token,
        "url": url_for("rosters.show", roster_id=roster_id, _external=True),
        "edit_url": url_for("rosters.join", roster_id=roster_id, token=token, _external=True),
    }


@bp.post("/rosters")
@limited("rosters")
def create_roster() -> Any:
    # The phone that makes a roster owns it: its game screens offer it to attach.
    made = rosters.create(store(), packs(), read_json(), phone.current_hash())
    if isinstance(made, Problem):
        return _refuse(made.message)
    response = jsonify(_roster_links(*made))
    response.status_code = 201
    return phone.keep(no_store(response))


def _loaded_roster(roster_id: str) -> rosters.LoadedRoster:
    loaded = rosters.load(store(), packs(), roster_id)
    if loaded is None:
        abort(404, description=say("There is no such roster."))
    return loaded


@bp.get("/rosters/<roster_id>")
def show_roster(roster_id: str) -> Any:
    return jsonify(rosters.describe(_loaded_roster(roster_id)))


@bp.put("/rosters/<roster_id>")
def replace_roster(roster_id: str) -> Any:
    _loaded_roster(roster_id)
    if not store().rosters.token_ok(roster_id, request.headers.get("X-Edit-Token")):
        return _refuse("X-Edit-Token must hold this roster's edit token to change it.", 403)
    data = read_json()
    if not isinstance(data, dict):
        return _refuse(
            "The body must be an object of the fields to change (name, points_limit, faction, "
            "grand_strategy, entries), with the version you last read."
        )
    version = data.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        return _refuse("version must be the whole number GET /api/v1/rosters/<id> gave.")
    body = {k: v for k, v in data.items() if k != "version"}
    problem = rosters.change(store(), packs(), roster_id, rosters.set_details(body), version)
    if problem:
        return _refuse(problem.message, 409 if problem.conflict else 422)
    return jsonify(rosters.describe(_loaded_roster(roster_id)))


@bp.post("/games/<game_id>/rosters")
def attach_roster(game_id: str) -> Any:
    row, access = _access(game_id)
    loaded = loaded_game(game_id, row)  # 404 for no such game, 409 when its pack or scenario is gone
    if not access.may_record:
        return _refuse("X-Edit-Token must hold this game's edit token to attach a roster.", 403)
    data = read_json()
    if not isinstance(data, dict):
        return _refuse('The body must be an object such as {"player": 0, "roster": "<roster id>"}.')
    if not access.may_field(data.get("player")):
        return _refuse(
            f"player must be {access.seat}, this seat's own player: a seat fields its own roster only.", 403
        )
    problem = games_service().attach_roster(game_id, data.get("player"), data.get("roster"))
    if problem:
        return _refuse(problem.message)
    return _private(jsonify(game_service.summary(games_service().rearmed(loaded), access.seat))), 201


# --- terrain ----------------------------------------------------------------------------
@bp.post("/terrain/check")
def check_terrain() -> Any:
    """The verdict on a battlefield's terrain, storing nothing: 200 for any well-formed set."""
    data = read_json()
    if not isinstance(data, dict):
        return _refuse('The body must be an object such as {"pack": "conquest-first-blood", "pieces": []}.')
    pack = packs().get(data.get("pack")) if isinstance(data.get("pack"), str) else None
    if pack is None or pack.terrain is None:
        with_terrain = ", ".join(sorted(k for k, v in packs().items() if v.terrain))
        return _refuse(f"pack must be one of the rulepacks with terrain rules: {with_terrain}.")
    scenario = None
    if data.get("scenario") is not None:
        scenario = pack.scenario(data["scenario"]) if isinstance(data["scenario"], str) else None
        if scenario is None:
            return _refuse(f"scenario must be the id of a scenario in {pack.name}, or left out.")
    siege = data.get("siege", False)
    if not isinstance(siege, bool):
        return _refuse("siege must be true or false.")
    pieces, problem = terrain.parse_pieces(pack, data.get("pieces"))
    if pieces is None:
        return _refuse(problem or "pieces must be a list of terrain pieces.")
    return jsonify(terrain.check(pack, pieces, scenario, siege).as_dict(pieces))


@bp.post("/terrain/line-of-sight")
def terrain_line_of_sight() -> Any:
    """Conquest's size arithmetic: can the shooter see and volley the target."""
    data = read_json()
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("shooter"), dict)
        or not isinstance(data.get("target"), dict)
    ):
        return _refuse(
            'The body must hold shooter and target, such as {"shooter": {"size": 1, "elevated_on": 2}}.'
        )
    between = data.get("between") or []
    if not isinstance(between, list) or not all(isinstance(b, dict) for b in between):
        return _refuse("between must be a list of the regiments and terrain the line crosses.")
    parts = [("shooter", data["shooter"]), ("target", data["target"])]
    parts += [(f"between[{i}]", b) for i, b in enumerate(between)]
    for where, part in parts:
        for key in ("size", "elevated_on"):
            value = part.get(key, 0)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 20:
                return _refuse(f"{key} must be a whole number from 0 to 20.")
        problem = _garrison_problem(where, part.get("garrison"))
        if problem:
            return _refuse(problem)
    return jsonify(terrain.line_of_sight(data["shooter"], data["target"], between).as_dict())


def _garrison_problem(where: str, garrison: Any) -> str | None:
    """Why a ``garrison`` in a line-of-sight request is not one; ``None`` when absent or sound.

    A volleying shooter takes the garrison's Elevation, anyone else inside takes its Size, so
    that is the number each must give.
    """
    if garrison is None:
        return None
    need = "elevation" if where == "shooter" else "size"
    if not isinstance(garrison, dict):
        return f'{where}.garrison must be an object such as {{"{need}": 2}}, or left out.'
    for key in ("size", "elevation"):
        value = garrison.get(key, 0 if key != need else None)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 20:
            return f"{where}.garrison.{key} must be a whole number from 0 to 20."
    return None


@bp.get("/games/<game_id>/terrain")
def game_terrain(game_id: str) -> Any:
    """A game's terrain set: its pieces, who agreed to each, when it locked, and its checks."""
    game = loaded_game(game_id)
    names = [p.name for p in game.state.setup.players]
    loaded = terrain_sets.load(store(), game.pack, game.state.scenario, game_id, names)
    return jsonify(terrain_sets.state_json(loaded, names))
