"""Terrain screens: a game's terrain set, piece by piece agreement, the map, the card."""

from __future__ import annotations

import math
import random
import uuid
from typing import Any

from flask import Blueprint, Response, abort, make_response, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict

from app.rules import grid, terrain
from app.rules.pack import Pack
from app.rules.speech import say
from app.rules.text import clean_text
from app.services import terrain_library, terrain_sets
from app.web import admin, phone
from app.web.forms import whole
from app.web.games import edit_token, seat_of
from app.web.limits import limited
from app.web.pages import refused, shaped, wants_fragment
from app.web.prints import chosen_paper as paper
from app.web.prints import sheet_pdf
from app.web.responses import private_page
from app.web.services import loaded_game, store

bp = Blueprint("terrain", __name__)
bp.after_request(phone.keep)


def _agreer(game_id: str, seated: bool) -> str | None:
    """Who this browser agrees as: its seat in a game with seats (so agreeing is bound to the
    seat, whichever phone opens it), else the phone itself once it may edit; a watcher, nobody."""
    if seated:
        seat = seat_of(game_id)
        return None if seat is None else f"seat-{seat}"
    return phone.current_hash() if edit_token(game_id) else None


def _context(game_id: str) -> dict[str, Any]:
    game = loaded_game(game_id)
    names = [p.name for p in game.state.setup.players]
    loaded = terrain_sets.load(store(), game.pack, game.state.scenario, game_id, names)
    seated = game.system.seated
    me = _agreer(game_id, seated)
    problems_of: dict[int, list[str]] = {}
    for f in loaded.verdict.problems:
        for i in set(f.pieces):
            problems_of.setdefault(i, []).append(f.message)
    return {
        "game": game,
        "names": names,
        "loaded": loaded,
        "pack": game.pack,
        "terrain_rules": terrain.rules_for(game.pack),
        "scenario": game.state.scenario,
        # The phone (its presets and saved sets); ``me`` is who it agrees as.
        "phone": phone.current_hash() if me is not None or edit_token(game_id) else None,
        "seated": seated,
        # A seat agrees for its own player only; elsewhere a phone picks (or its first agreement binds).
        "seat": seat_of(game_id) if seated else loaded.state.seat_of(me),
        "open_seats": ([] if me is None else [int(me.split("-")[1])])
        if seated
        else (loaded.state.open_seats(me) if me else []),
        "problems_of": problems_of,
    }


def _map(context: dict[str, Any]) -> str:
    scenario, pack = context["scenario"], context["pack"]
    pieces = [
        {
            "uid": s.uid,
            "name": s.piece.name,
            "x": s.piece.x,
            "y": s.piece.y,
            "w": s.piece.footprint[0] if s.piece.footprint else 2,
            "h": s.piece.footprint[1] if s.piece.footprint else 2,
        }
        for s in context["loaded"].state.ordered
        if s.piece.placed
    ]
    return grid.svg(scenario, pack.sides, context["names"], terrain=pieces) if scenario.board else ""


def _render(
    game_id: str, code: int = 200, error: str | None = None, draft: Any = None, editing: str | None = None
) -> Any:
    context = _context(game_id)
    token = edit_token(game_id)
    pack: Pack = context["pack"]
    context.update(
        can_edit=token is not None or seat_of(game_id) is not None,
        error=error,
        draft=draft or MultiDict(),
        editing=editing,
        map_svg=_map(context),
        admin=admin.signed_in(),
        presets=terrain_library.presets(store(), pack, context["phone"]),
        library=terrain_library.sets(store(), pack, context["phone"]) if context["phone"] else [],
        keywords={k.id: k for k in (pack.terrain.keywords if pack.terrain else [])},
        new_uuid=lambda: str(uuid.uuid4()),
        mysterious=lambda roll: terrain.mysterious_effect(pack, roll),
    )
    template = "partials/_terrain.html" if wants_fragment() else "terrain.html"
    response = make_response(render_template(template, **context), code)
    return private_page(refused(shaped(response, "Cookie"), error))


@bp.get("/games/<game_id>/terrain")
def show(game_id: str) -> Any:
    return _render(game_id)


def _editor(game_id: str) -> None:
    if edit_token(game_id) is None and seat_of(game_id) is None:
        abort(
            403, description=say("Only this game's players can change its terrain: open the join link first.")
        )


def _done(game_id: str, problem: Any, draft: Any = None, editing: str | None = None) -> Any:
    if problem is None and not wants_fragment():
        return redirect(url_for("terrain.show", game_id=game_id), code=303)
    if problem is not None:
        return _render(game_id, 422, error=problem.message, draft=draft, editing=editing)
    return _render(game_id)


def _record(game_id: str, kind: str, body: dict[str, Any]) -> Any:
    context = _context(game_id)
    return terrain_sets.record(
        store(),
        context["loaded"],
        request.form.get("id"),
        kind,
        body,
        len(context["names"]),
        context["names"],
    )


def _piece(game_id: str, uid: str) -> terrain.PieceState:
    """The set's piece of this uid, or a 404: no change ever makes a piece under a made-up uid."""
    found = _context(game_id)["loaded"].state.pieces.get(uid)
    if found is None:
        abort(404, description=say("That piece is not in this game's terrain set; reload to see the latest."))
    return found


def form_piece(pack: Pack, form: MultiDict[str, str]) -> tuple[dict[str, Any], str | None]:
    """The piece form as the same JSON the API takes."""
    piece: dict[str, Any] = {"name": form.get("name", "").strip(), "notes": form.get("notes", "").strip()}
    numbers: dict[str, float | None] = {}
    for name in ("size", "defense", "capacity", "elevation", "footprint_w", "footprint_h", "x", "y"):
        raw = form.get(name, "").strip()
        if not raw:
            numbers[name] = None
            continue
        try:
            numbers[name] = float(raw)
        except ValueError:
            return piece, say("{name} must be a number.", name=name)
        if not math.isfinite(numbers[name] or 0.0):  # "inf" and "nan" read as floats too
            return piece, say("{name} must be a number.", name=name)
    for counted in ("size", "defense", "capacity", "elevation"):
        value = numbers[counted]
        if value is not None:
            if value != int(value):
                return piece, say("{name} must be a whole number.", name=counted)
            piece[counted] = int(value)
    w, h = numbers["footprint_w"], numbers["footprint_h"]
    if (w is None) != (h is None):
        return piece, say("footprint: give both width and depth, or neither.")
    if w is not None and h is not None:
        piece["footprint"] = [w, h]
    if numbers["x"] is not None or numbers["y"] is not None:
        piece["x"], piece["y"] = numbers["x"], numbers["y"]
    piece["kind"] = form.get("kind", "zonal")
    piece["keywords"] = form.getlist("keywords")
    for flag in ("ruins", "obscuring", "faction", "warscroll", "fortress"):
        piece[flag] = form.get(flag) in ("on", "true", "1")
    mysterious = whole(form.get("mysterious"))
    if mysterious is not None:
        piece["mysterious"] = mysterious
    return terrain.complete(pack, piece), None


def piece_form_values(piece: terrain.Piece) -> MultiDict[str, str]:
    """A piece's values as the form shows them."""
    values: MultiDict[str, str] = MultiDict()
    values["name"], values["kind"], values["notes"] = piece.name, piece.kind, piece.notes
    values["size"] = str(piece.size)
    for key in ("defense", "capacity", "elevation"):
        if getattr(piece, key) is not None:
            values[key] = str(getattr(piece, key))
    if piece.footprint:
        values["footprint_w"], values["footprint_h"] = f"{piece.footprint[0]:g}", f"{piece.footprint[1]:g}"
    if piece.placed:
        values["x"], values["y"] = f"{piece.x:g}", f"{piece.y:g}"
    for k in piece.keywords:
        values.add("keywords", k)
    for flag in ("ruins", "obscuring", "faction", "warscroll", "fortress"):
        if getattr(piece, flag):
            values[flag] = "on"
    if piece.mysterious:
        values["mysterious"] = str(piece.mysterious)
    return values


@bp.post("/games/<game_id>/terrain/pieces")
def add(game_id: str) -> Any:
    _editor(game_id)
    pack = loaded_game(game_id).pack
    if request.form.get("preset"):
        offered = terrain_library.presets(store(), pack, phone.current_hash())
        chosen = next((p for p in offered if p["name"] == request.form["preset"]), None)
        if chosen is None:
            abort(400, description=say("preset must be one of the presets shown."))
        piece = terrain_library.piece_of(chosen)
        return _done(
            game_id, _record(game_id, "piece", {"piece_uid": terrain_sets.new_piece_uid(), "piece": piece})
        )
    piece, problem = form_piece(pack, request.form)
    if problem:
        return _render(game_id, 422, error=problem, draft=request.form)
    refused = _record(game_id, "piece", {"piece_uid": terrain_sets.new_piece_uid(), "piece": piece})
    if refused is not None:
        return _done(game_id, refused, draft=request.form)
    # The piece is in; a preset refused after it shows its sentence with an empty form, so the
    # piece is not added twice.
    kept = None
    if request.form.get("club_preset") and admin.signed_in():
        kept = terrain_library.save_club_preset(store(), pack, piece)
    elif request.form.get("save_preset"):
        kept = terrain_library.save_preset(store(), pack, phone.current_hash(), piece)
    return _done(game_id, kept)


@bp.get("/games/<game_id>/terrain/pieces/<uid>/edit")
def edit_form(game_id: str, uid: str) -> Any:
    _editor(game_id)
    return _render(game_id, editing=uid, draft=piece_form_values(_piece(game_id, uid).piece))


@bp.post("/games/<game_id>/terrain/pieces/<uid>")
def change(game_id: str, uid: str) -> Any:
    _editor(game_id)
    _piece(game_id, uid)
    pack = loaded_game(game_id).pack
    piece, problem = form_piece(pack, request.form)
    if problem:
        return _render(game_id, 422, error=problem, draft=request.form, editing=uid)
    return _done(game_id, _record(game_id, "piece", {"piece_uid": uid, "piece": piece}), request.form, uid)


@bp.post("/games/<game_id>/terrain/pieces/<uid>/move")
def move(game_id: str, uid: str) -> Any:
    """Place a piece on the map (x/y in inches, from a drag or typed)."""
    _editor(game_id)
    found = _piece(game_id, uid)
    board = loaded_game(game_id).state.scenario.board
    width, height = (board.width, board.height) if board else (terrain.MAX_INCHES, terrain.MAX_INCHES)
    where = say(
        "x and y must be inches on the table: x from 0 to {width}, y from 0 to {height}.",
        width=f"{width:g}",
        height=f"{height:g}",
    )
    try:
        x, y = float(request.form.get("x", "")), float(request.form.get("y", ""))
    except ValueError:
        return _render(game_id, 422, error=where)
    # Checked before rounding: round(1e308 * 2) overflows, and NaN and infinity fail here too.
    if not (0 <= x <= width and 0 <= y <= height):
        return _render(game_id, 422, error=where)
    piece = found.piece.model_dump(mode="json", exclude={"uid"}) | {
        "x": round(x * 2) / 2,
        "y": round(y * 2) / 2,
    }
    return _done(game_id, _record(game_id, "piece", {"piece_uid": uid, "piece": piece}))


@bp.post("/games/<game_id>/terrain/pieces/<uid>/mysterious")
def roll_mysterious(game_id: str, uid: str) -> Any:
    """The defender's D6 on the Mysterious Terrain table for a feature without a warscroll."""
    _editor(game_id)
    found = _piece(game_id, uid)
    raw = request.form.get("roll", "")
    roll = int(raw) if raw in ("1", "2", "3", "4", "5", "6") else random.SystemRandom().randint(1, 6)
    piece = found.piece.model_dump(mode="json", exclude={"uid"}) | {"mysterious": roll}
    return _done(game_id, _record(game_id, "piece", {"piece_uid": uid, "piece": piece}))


@bp.post("/games/<game_id>/terrain/pieces/<uid>/remove")
def remove(game_id: str, uid: str) -> Any:
    _editor(game_id)
    _piece(game_id, uid)
    return _done(game_id, _record(game_id, "remove", {"piece_uid": uid}))


@bp.post("/games/<game_id>/terrain/pieces/<uid>/agree")
def agree(game_id: str, uid: str) -> Any:
    """This phone agrees to a piece for its player (the first agreement binds the phone)."""
    _editor(game_id)
    _piece(game_id, uid)
    player = whole(request.form.get("player", ""))
    agreer = phone.current_hash()
    if loaded_game(game_id).system.seated:
        seat = seat_of(game_id)
        if seat is None or player != seat:
            abort(403, description=say("In a game with seats each player agrees on their own seat's phone."))
        agreer = f"seat-{seat}"
    body = {"piece_uid": uid, "player": -1 if player is None else player, "phone": agreer}
    return _done(game_id, _record(game_id, "agree", body))


@bp.post("/games/<game_id>/terrain/seat")
def seat(game_id: str) -> Any:
    """Bind this phone to the player it agrees for, before its first agreement."""
    _editor(game_id)
    if loaded_game(game_id).system.seated:
        abort(403, description=say("In a game with seats each player agrees on their own seat's phone."))
    player = whole(request.form.get("seat", ""))
    body = {"player": -1 if player is None else player, "phone": phone.current_hash()}
    return _done(game_id, _record(game_id, "seat", body))


@bp.post("/games/<game_id>/terrain/library")
@limited("terrain")
def save_library(game_id: str) -> Any:
    """Keep this set's pieces for reuse, on this phone (or, for the admin, the club): one write."""
    _editor(game_id)
    context = _context(game_id)
    pieces = [s.piece.model_dump(mode="json", exclude={"uid"}) for s in context["loaded"].state.ordered]
    name = clean_text(request.form.get("name", ""))
    club = bool(request.form.get("club")) and admin.signed_in()
    kept = terrain_library.save_set(store(), context["pack"], phone.current_hash(), name, pieces, club)
    return _done(game_id, kept)


@bp.post("/games/<game_id>/terrain/library/<lib_id>")
def load_library(game_id: str, lib_id: str) -> Any:
    """Add the pieces of a saved set to this game's set (each still to be agreed), in one go."""
    _editor(game_id)
    context = _context(game_id)
    saved = terrain_library.find_set(store(), context["pack"], phone.current_hash(), lib_id)
    if saved is None:
        abort(404, description=say("There is no such saved terrain set for this phone or club."))
    # The form's id names the whole load, so a double tap adds the pieces once.
    try:
        base = uuid.UUID(request.form.get("id", ""))
    except ValueError:
        base = uuid.uuid4()
    changes = [
        (str(uuid.uuid5(base, str(i))), "piece", {"piece_uid": terrain_sets.new_piece_uid(), "piece": piece})
        for i, piece in enumerate(saved["pieces"])
    ]
    problem = terrain_sets.record_many(
        store(), context["loaded"], changes, len(context["names"]), context["names"]
    )
    return _done(game_id, problem)


@bp.post("/games/<game_id>/terrain/line-of-sight")
def line_of_sight(game_id: str) -> Any:
    """The size arithmetic: can one regiment see or volley another over what lies between."""
    loaded_game(game_id)
    form = request.form

    def field(name: str) -> int:
        return whole(form.get(name), negative=True) or 0

    between = []
    for i in range(3):
        if form.get(f"b{i}.kind"):
            between.append(
                {
                    "name": form.get(f"b{i}.name") or say("Item {number}", number=i + 1),
                    "kind": form.get(f"b{i}.kind"),
                    "size": field(f"b{i}.size"),
                    "elevated_on": field(f"b{i}.elevated_on"),
                    "obstructing": form.get(f"b{i}.kind") == "regiment"
                    or bool(form.get(f"b{i}.obstructing")),
                    "cover": bool(form.get(f"b{i}.cover")),
                }
            )
    shooter: dict[str, Any] = {"size": field("shooter_size"), "elevated_on": field("shooter_on")}
    target: dict[str, Any] = {"size": field("target_size"), "elevated_on": field("target_on")}
    # Blank means not in a garrison; a number is the garrison's Elevation (shooter) or Size (target).
    if whole(form.get("shooter_garrison")) is not None:
        shooter["garrison"] = {"elevation": field("shooter_garrison")}
    if whole(form.get("target_garrison")) is not None:
        target["garrison"] = {"size": field("target_garrison")}
    sight = terrain.line_of_sight(shooter, target, between)
    return render_template("partials/_sight.html", sight=sight)


@bp.get("/games/<game_id>/terrain/card.pdf")
@limited("pdfs")
def card(game_id: str) -> Any:
    """The terrain reference card: each piece, its keywords and what they do."""
    chosen = paper()
    context = _context(game_id)
    context["map_svg"] = _map(context)
    context["keywords"] = {
        k.id: k for k in (context["pack"].terrain.keywords if context["pack"].terrain else [])
    }
    context["mysterious"] = lambda roll: terrain.mysterious_effect(context["pack"], roll)
    pieces = [s.piece for s in context["loaded"].state.ordered]
    # Each rule is printed once, after the table (in the pack's order), not in every row.
    context["used_keywords"] = [k for k in context["keywords"] if any(k in p.keywords for p in pieces)]
    context["garrisons"] = any(p.kind == "garrison" for p in pieces)
    response = Response(sheet_pdf("terrain_card.html", context, chosen), mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="terrain-{game_id}.pdf"'
    return response
