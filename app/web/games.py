"""Game screens: new game, the score sheet at the table, joining from a second phone."""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

from flask import Blueprint, abort, jsonify, make_response, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict

from app import clocks, games, terrain_sets
from app.limits import limited
from app.rules import dice, log, seizing
from app.rules.pack import roster_packs
from app.rules.problems import Problem
from app.store import GameRow
from app.web import games_service, loaded_game, no_store, packs, phone, private_page, qr_response, store
from app.web.forms import number, whole
from app.web.pages import refused, shaped, wants_fragment
from app.web.systems import web_system_for
from app.web.wording import in_player_words

bp = Blueprint("games", __name__)

COOKIE_DAYS = 60


def _cookie(game_id: str) -> str:
    return f"muster_edit_{game_id}"


def _seat_cookie(game_id: str) -> str:
    return f"muster_seat_{game_id}"


def edit_token(game_id: str) -> str | None:
    """The edit token this browser holds for the game, if it is the right one."""
    return _editable(game_id)[1]


def _editable(game_id: str) -> tuple[GameRow | None, str | None]:
    """The game's row and this browser's edit token if it is the right one, in one read."""
    token = request.cookies.get(_cookie(game_id))
    row, ok = store().games.get_for_edit(game_id, token)
    return row, token if ok else None


def _seated(game_id: str) -> int | None:
    """The player whose seat this phone opened (by the seat's link), if its token is still right."""
    token = request.cookies.get(_seat_cookie(game_id))
    return store().games.seats.player_of(game_id, token) if token else None


def seat_of(game_id: str) -> int | None:
    """The player whose seat this phone opened in the game (by its seat link), if any."""
    return _seated(game_id)


def _access(game_id: str) -> tuple[GameRow | None, str | None, games.Access]:
    """The game's row, this browser's edit token (the table's) and who it records as."""
    row, token = _editable(game_id)
    seat = _seated(game_id) if row is not None else None
    return row, token, games.Access(table=token is not None, seat=seat)


def _with_token(response: Any, game_id: str, token: str, cookie: str | None = None) -> Any:
    response.set_cookie(
        cookie or _cookie(game_id),
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
    # Two-player packs first: the new-game screen opens on the usual game, not a multiplayer one.
    available = sorted((p for p in packs().values() if p.playable), key=lambda p: (p.players.min or 2, p.id))
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
    names = [request.form.get(f"name{i}") or f"Player {i + 1}" for i in range(pack.players.max or 2)]
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
            games_service().record(game_id, {**event, "id": str(uuid.uuid4()), "type": "roll"})


@bp.post("/games")
@limited("games")
def create() -> Any:
    pack = _default_pack()
    form = request.form
    players = _players(pack, form)
    data = {
        "pack": pack.id,
        "scenario": form.get("scenario"),
        "points_limit": form.get("points_limit"),
        "players": players,
    }
    made = games_service().create(data)
    if isinstance(made, Problem):
        html = render_template(
            "new_game.html",
            pack=pack,
            packs=sorted((p for p in packs().values() if p.playable), key=lambda p: p.id),
            form=form,
            error=made.message,
            rolled=None,
        )
        return refused(make_response(html, 422), made.message)
    game_id, token = made.id, made.edit_token
    _record_rolls(game_id, form.get("rolls"), form.get("scenario"))
    response = redirect(url_for("games.show", game_id=game_id), code=303)
    return no_store(_with_token(response, game_id, token))


def _players(pack: Any, form: MultiDict[str, str]) -> list[dict[str, Any]]:
    """The players of the new-game form: as many as the pack allows, sides from the pack.

    Past the pack's fewest players, a row left blank is no player. With two sides and two
    players one choice says who takes the first side; otherwise each row names its side.
    """
    low = pack.players.min or 2
    players = []
    for i in range(pack.players.max or low):
        name = form.get(f"name{i}", "")
        if i >= low and not name.strip():
            continue
        players.append(
            {"name": name, "side": form.get(f"side{i}"), "grand_strategy": form.get(f"strategy{i}")}
        )
    if not pack.sides:
        for player in players:
            player["side"] = None
    elif not any(player["side"] for player in players):
        # The one choice: who takes the first side; the others take the rest in order.
        first = whole(form.get("first_side", "0")) or 0
        rest = iter(pack.sides[1:])
        for i, player in enumerate(players):
            player["side"] = pack.sides[0] if i == first else next(rest, None)
    return players


# --- a game -----------------------------------------------------------------------------
def _view(
    loaded: games.Loaded,
    token: str | None,
    error: str | None = None,
    draft: Any = None,
    seat: int | None = None,
) -> dict[str, Any]:
    """What the game page shows: what every game shows, then what its system adds.

    ``token`` is the table's edit token when this phone holds it; ``seat`` the player whose
    seat it opened. Secrets reach the page only through ``summary`` and the system's view,
    both made for that seat.
    """
    state = loaded.state
    web = web_system_for(loaded.pack, loaded.row.scenario)
    draft = draft or MultiDict()
    return {
        "loaded": loaded,
        "game": state,
        "pack": loaded.pack,
        "scenario": state.scenario,
        "summary": games.summary(loaded, seat),
        "seat": seat,
        "seats": _seat_links(loaded, token) if seat is None else [],
        "can_edit": token is not None or seat is not None,
        "armies": loaded.armies,
        "roster_choices": store().rosters.of_phone(phone.known_hash(), roster_packs(packs(), loaded.row.pack))
        if token is not None or seat is not None
        else [],
        "error": error,
        "draft": draft,
        "game_partial": web.game_template,
        "scoring_lines": loaded.system.scoring(loaded.pack, state.scenario),
        "terrain_status": terrain_sets.status(store(), loaded.row.id, [p.name for p in state.setup.players])
        if loaded.pack.terrain
        else None,
        "next_steps": loaded.system.next_steps(state),
        "clock": clocks.strip(store(), loaded.row, token is not None),
        **web.view(loaded, draft, seat),
    }


def _seat_links(loaded: games.Loaded, token: str | None) -> list[dict[str, Any]]:
    """Each seat's link and QR code, for the table screen (the phone holding the edit token)."""
    if token is None or not loaded.system.seated:
        return []
    names = [p.name for p in loaded.setup.players]
    tokens = games_service().seat_tokens(loaded.row.id, token)
    return [
        {
            "player": player,
            "name": names[player] if player < len(names) else f"Player {player + 1}",
            "url": url_for("games.take_seat", game_id=loaded.row.id, token=seat_token, _external=True),
            "qr": url_for("games.seat_qr", game_id=loaded.row.id, player=player),
        }
        for player, seat_token in enumerate(tokens)
    ]


@bp.get("/games/<game_id>")
def show(game_id: str) -> Any:
    row, token, access = _access(game_id)
    loaded = loaded_game(game_id, row)
    context = _view(loaded, token, seat=access.seat)
    # Anyone may pass on the plain game link: it opens the game to watch, never to edit.
    context["watch_url"] = url_for("games.show", game_id=game_id, _external=True)
    if token:
        context["join_url"] = url_for("games.join", game_id=game_id, token=token, _external=True)
    response = make_response(render_template("game.html", **context))
    return private_page(shaped(response, "Cookie"))


@bp.get("/games/<game_id>/version")
def version(game_id: str) -> Any:
    """How many entries the game holds: the game page asks now and then, to follow other phones.

    It is the ``data-version`` the game's screen carries; a phone reloads the game only when it
    grew, so following a table costs one index lookup a phone every few seconds.
    """
    length = store().games.log_length(game_id)
    if length is None:
        abort(404, description="There is no such game. Check the link, or start a new game.")
    return no_store(jsonify({"version": length}))


@bp.get("/games/<game_id>/held")
def held(game_id: str) -> Any:
    """Both versions of a refused entry, as HTML: the phone's and what the server holds there.

    The offline layer shows it beside an entry the server refused; the query is the entry's
    own form fields (read as the form's POST would be), so the page needs to know nothing of
    the game to ask. One partial of the game system renders both, in the same lines and words.
    """
    loaded = loaded_game(game_id)
    if request.args.get("action"):  # a tap on the game's clock: what the clock shows now
        clock = clocks.view(clocks.state(store(), loaded.row), loaded.row, can_edit=False)
        return private_page(
            make_response(render_template("partials/_clock_strip.html", c={**clock, "held": True}))
        )
    place: dict[str, int | None] = {}
    for name in ("round", "player"):
        raw = request.args.get(name, "").strip()
        place[name] = number(raw)
        if raw and place[name] is None:
            abort(422, description=f"{name} must be a whole number.")
    kind = request.args.get("type", "")
    mine, unread = form_event(loaded, request.args)
    system = loaded.system
    html = render_template(
        web_system_for(loaded.pack, loaded.row.scenario).held_template,
        game=loaded.state,
        pack=loaded.pack,
        kind=kind,
        mine=None if unread else mine,
        unread=in_player_words(loaded, unread) if unread else None,
        theirs=_in_force_at(loaded, kind, place["round"], place["player"]),
        facts=[f for f in system.facts(loaded.pack, loaded.state.scenario) if f.event == kind],
        **place,
    )
    return private_page(make_response(html))


def _in_force_at(loaded: games.Loaded, kind: str, round_: int | None, player: int | None) -> dict | None:
    """The event in force that holds a place (its type, round and player), if any: the last one."""
    for event in reversed(log.effective(loaded.log)):
        if event.get("type") != kind or event.get("round") != round_:
            continue
        if player is None or "player" not in event or event.get("player") == player:
            return event
    return None


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


@bp.get("/games/<game_id>/seats/<int:player>.svg")
def seat_qr(game_id: str, player: int) -> Any:
    """The QR code of a seat's link: only for the table screen (the phone holding the edit token)."""
    token = edit_token(game_id)
    if token is None:
        abort(
            403,
            description="Only the table's phone (the one that started the game) can show the seats' codes.",
        )
    tokens = games_service().seat_tokens(game_id, token)
    if not 0 <= player < len(tokens):
        abort(404, description="player must be a seat of this game, 0 to the number of players less one.")
    url = url_for("games.take_seat", game_id=game_id, token=tokens[player], _external=True)
    return qr_response(url, private=True)


@bp.get("/games/<game_id>/seat/<token>")
def take_seat(game_id: str, token: str) -> Any:
    """A player opens their seat on their phone: it keeps the seat's token and shows their secrets."""
    if not store().games.exists(game_id):
        abort(404, description="There is no such game.")
    if store().games.seats.player_of(game_id, token) is None:
        abort(
            403, description="This seat link is not valid for the game; ask the table for your seat's code."
        )
    response = redirect(url_for("games.show", game_id=game_id), code=303)
    return no_store(_with_token(response, game_id, token, _seat_cookie(game_id)))


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
    """Record one event from a form; answer with the refreshed game (or the refusal).

    The table's phone records public entries; a seat's phone records those and its own
    secrets (403 for another's secret, with the sentence in the refusal header).
    """
    row, token, access = _access(game_id)
    loaded = loaded_game(game_id, row)
    if not access.may_record:
        abort(403, description="Only this game's players can record in it: open the join link first.")
    event, problem = form_event(loaded, request.form)
    status = 422
    if problem is None:
        outcome = games_service().record(game_id, event, loaded.row, access)
        problem = outcome.error
        # A replayed entry the server already holds may have been recorded by a request still
        # finishing when this one read the game: answer with the game as stored now, which
        # holds it, never an older one (the phone puts the answer on screen).
        loaded = loaded_game(game_id) if outcome.status == "duplicate" else loaded.after(outcome)
        status = 403 if outcome.status == "forbidden" else 422
    # The screen (and the phone that kept the entry) names the field in the player's words.
    problem = in_player_words(loaded, problem)
    fragment = wants_fragment()
    if problem is None and not fragment:
        return redirect(url_for("games.show", game_id=game_id), code=303)
    context = _view(loaded, token, error=problem, draft=request.form if problem else None, seat=access.seat)
    template = context["game_partial"] if fragment else "game.html"
    response = make_response(render_template(template, **context), status if problem else 200)
    return refused(shaped(response, "Cookie"), problem)


@bp.post("/games/<game_id>/armies")
def attach(game_id: str) -> Any:
    """A player fields a stored roster: the score sheet then knows their army."""
    row, token, access = _access(game_id)
    if row is None:
        abort(404, description="There is no such game. Check the link, or start a new game.")
    if not access.may_record:
        abort(403, description="Only this game's players can attach rosters: open the join link first.")
    player = request.form.get("player", "")
    if access.seat is not None and number(player) != access.seat:
        abort(
            403, description="A seat's phone attaches its own player's roster only: the others attach theirs."
        )
    problem = games_service().attach_roster(game_id, number(player), request.form.get("roster"))
    fragment = wants_fragment()
    if problem is None and not fragment:
        return redirect(url_for("games.show", game_id=game_id), code=303)
    message = problem.message if problem else None
    context = _view(loaded_game(game_id, row), token, error=message, seat=access.seat)
    template = context["game_partial"] if fragment else "game.html"
    response = make_response(render_template(template, **context), 422 if problem else 200)
    return refused(shaped(response, "Cookie"), message)


# --- forms -> events --------------------------------------------------------------------


def form_event(loaded: games.Loaded, form: MultiDict[str, str]) -> tuple[dict[str, Any], str | None]:
    """Turn a screen's form into the same event the JSON API takes.

    Undo and roll belong to every game; the game system reads its own step forms.
    """
    kind = form.get("type", "")
    event: dict[str, Any] = {"id": form.get("id", ""), "type": kind}
    if kind == "undo":
        event["event"] = form.get("event", "")
        return event, None
    if kind == "roll":
        # The dice roller's form: the dice as they fell ("3,5"), and what the roll decided.
        results = [number(value) for value in form.get("results", "").replace(",", " ").split()]
        if not results or None in results:
            return event, "results must list the dice as whole numbers, such as 3,5."
        event.update(dice=form.get("dice", ""), results=results, purpose=form.get("purpose", "").strip())
        if form.get("winner", "").strip():
            event["winner"] = number(form.get("winner"))
        return event, None
    return event, web_system_for(loaded.pack, loaded.row.scenario).form_event(loaded, form, event)


@bp.post("/games/<game_id>/seize")
def seize(game_id: str) -> Any:
    """The seizing calculator: weighted models in range for each player, and who seizes."""
    loaded = loaded_game(game_id)
    models = []
    for i in range(len(loaded.state.setup.players)):
        counts = {}
        for w in loaded.pack.seizing:
            raw = request.form.get(f"s{i}.{w.id}", "").strip()
            counts[w.id] = max(number(raw) or 0, 0)
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
