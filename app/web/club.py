"""Club events: the organiser's console, the projector board, each player's phone, sign-up,
prints, and the JSON API under /api/v1/events (contract in docs/api.md).

Who may do what: creating an event needs the admin (the admin login on screens, the admin
password as a bearer token on the API); the organiser's actions need the event's organiser
token (``X-Organiser-Token`` on the API; on screens, the organiser link puts it in the
session); a player's phone holds that player's own token in its link.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
import re
from collections.abc import Callable
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import lazy_gettext as _l
from markupsafe import escape

from app.rules.club import settings as event_settings
from app.rules.pack import roster_packs
from app.rules.problems import Problem
from app.rules.speech import say
from app.services import club as club_service
from app.services.club import exports as club_exports
from app.store.club import Snapshot
from app.web import page_cache
from app.web import phone as this_phone
from app.web.admin import admin_password, password_given, signed_in
from app.web.forms import whole
from app.web.json_body import json_field, read_json
from app.web.limits import check, limited
from app.web.pages import refused, reload_at, wants_fragment
from app.web.prints import chosen_paper as paper
from app.web.prints import sheet_pdf
from app.web.responses import no_store, qr_response
from app.web.services import games_service, packs, store
from app.web.wording import players_named

bp = Blueprint("club", __name__)
api = Blueprint("club_api", __name__, url_prefix="/api/v1/events")

BOARD_REFRESH_SECONDS = 10
# Rows of pairings, and of standings, a 1080-line projector shows at once; more turn the page.
BOARD_ROWS = 12


def service() -> club_service.Events:
    """The events service for this request. ``EVENT_SEED`` in the config makes draws repeatable."""
    seed = current_app.config.get("EVENT_SEED")
    rng = random.Random(seed) if seed is not None else random.Random()
    return club_service.Events(store(), packs(), games_service(), rng)


def _snapshot(event_id: str) -> Snapshot:
    snap = service().snapshot(event_id)
    if snap is None:
        abort(404, description=say("There is no such event. Check the link."))
    return snap


def _refuse(problem: Problem) -> Any:
    return jsonify(error=problem.message), 409 if problem.conflict else 422


# --- JSON API -----------------------------------------------------------------------------
def _admin_bearer() -> None:
    password = admin_password()
    given = request.headers.get("Authorization", "")
    if password is None:
        abort(403, description=say("Admin is switched off: set MUSTER_ADMIN_PASSWORD and restart Muster."))
    # A wrong bearer is a wrong password: counted with the login form's, under one lockout.
    if not given.startswith("Bearer ") or not password_given(given.removeprefix("Bearer "), password):
        abort(
            403, description=say("Authorization must be 'Bearer <MUSTER_ADMIN_PASSWORD>' to create an event.")
        )


def _organiser_api(event_id: str) -> Snapshot:
    """The event (404 when unknown); 403 without its organiser token in X-Organiser-Token."""
    if store().club.get(event_id) is None:
        abort(404, description=say("There is no such event."))
    if not store().club.organiser_ok(event_id, request.headers.get("X-Organiser-Token")):
        abort(403, description=say("X-Organiser-Token must hold this event's organiser token."))
    return _snapshot(event_id)


def _links(event_id: str, token: str) -> dict[str, str]:
    return {
        "id": event_id,
        "organiser_token": token,
        "url": url_for("club.show", event_id=event_id, _external=True),
        "organiser_url": url_for("club.organiser", event_id=event_id, token=token, _external=True),
        "board_url": url_for("club.board", event_id=event_id, _external=True),
    }


@api.post("")
def api_create() -> Any:
    _admin_bearer()
    check("games")
    made = service().create(read_json())
    if isinstance(made, Problem):
        return _refuse(made)
    return no_store(make_response(jsonify(_links(*made)), 201))


@api.get("/<event_id>")
def api_show(event_id: str) -> Any:
    snap = _snapshot(event_id)
    return jsonify(service().describe(snap))


def _player_links(event_id: str, player: int, token: str) -> dict[str, Any]:
    return {
        "player": player,
        "token": token,
        "url": url_for("club.phone", event_id=event_id, token=token, _external=True),
    }


@api.post("/<event_id>/players")
def api_add_player(event_id: str) -> Any:
    _organiser_api(event_id)
    made = service().add_player(event_id, read_json(), by_organiser=True)
    if isinstance(made, Problem):
        return _refuse(made)
    return no_store(make_response(jsonify(_player_links(event_id, *made)), 201))


@api.post("/<event_id>/players/<int:player>")
def api_change_player(event_id: str, player: int) -> Any:
    """The organiser drops a player or brings them back, checks them in, or marks their painting."""
    snap = _organiser_api(event_id)
    svc = service()
    problem = svc.change_player(snap, player, read_json())
    if problem:
        return _refuse(problem)
    fresh = _snapshot(event_id)
    me = next(p for p in fresh.players if p.id == player)
    return jsonify(
        player=player,
        dropped=me.dropped,
        checked_in=me.checked_in is not None,
        painting=fresh.marks.get(player, {}).get("painting"),
        list_changes=svc.list_changes(fresh, player),
    )


@api.post("/<event_id>/signup")
def api_signup(event_id: str) -> Any:
    snap = _organiser_api(event_id)
    open_ = json_field("open")
    if not isinstance(open_, bool):
        return _refuse(
            Problem.refusal(say("open must be true (players may sign up) or false (sign-up closed)."))
        )
    service().set_signup(snap, open_)
    return jsonify(signup_open=open_)


def _optionalread_json() -> dict[str, Any]:
    """A body that may be left out (an older client pairs a round with none)."""
    if not request.get_data(cache=True):
        return {}
    data = read_json()
    if not isinstance(data, dict):
        abort(make_response(jsonify(error=say("The body must be an object, or left out.")), 422))
    return data


@api.post("/<event_id>/rounds")
def api_pair(event_id: str) -> Any:
    snap = _organiser_api(event_id)
    data = _optionalread_json()
    made = service().pair_next(snap, data.get("preview"))
    if isinstance(made, Problem):
        return _refuse(made)
    return jsonify(round=made.round, pairings=made.pairings), 201


@api.post("/<event_id>/rounds/preview")
def api_preview(event_id: str) -> Any:
    """The next round's pairing (``{"again": true}``: the current round's anew) with a reason per
    table and the warnings, kept so that pairing with its ``preview`` id makes exactly it."""
    snap = _organiser_api(event_id)
    again = _optionalread_json().get("again", False)
    if not isinstance(again, bool):
        return _refuse(Problem.refusal(say("again must be true (pair the current round again) or false.")))
    made = service().preview(snap, again)
    if isinstance(made, Problem):
        return _refuse(made)
    return jsonify(made), 201


def _current(snap: Snapshot, number: int) -> None:
    current = service().current_round(snap)
    if number != current:
        message = say(
            "round {number} is not the current round; the current round is {current}.",
            number=number,
            current=current,
        )
        abort(make_response(jsonify(error=message), 409 if 0 < number <= current else 404))


@api.get("/<event_id>/rounds/<int:number>")
def api_round(event_id: str, number: int) -> Any:
    snap = _snapshot(event_id)
    found = next((r for r in snap.rounds if r.number == number), None)
    if found is None:
        abort(404, description=say("Round {number} of this event is not paired.", number=number))
    return jsonify(
        round=number,
        scenario=found.scenario,
        started=found.started,
        pairings=service().pairings_json(snap, number),
    )


@api.post("/<event_id>/rounds/<int:number>/repair")
def api_repair(event_id: str, number: int) -> Any:
    snap = _organiser_api(event_id)
    _current(snap, number)
    made = service().repair(snap, _optionalread_json().get("preview"))
    if isinstance(made, Problem):
        return _refuse(made)
    return jsonify(round=made.round, pairings=made.pairings), 201


@api.post("/<event_id>/rounds/<int:number>/swap")
def api_swap(event_id: str, number: int) -> Any:
    snap = _organiser_api(event_id)
    _current(snap, number)
    players = json_field("players")
    if not isinstance(players, list) or len(players) != 2:
        return _refuse(Problem.refusal(say("players must be a list of the two player ids to swap.")))
    problem = service().swap(snap, players[0], players[1])
    if problem:
        return _refuse(problem)
    fresh = _snapshot(event_id)
    return jsonify(round=number, pairings=service().pairings_json(fresh, number))


@api.post("/<event_id>/rounds/<int:number>/start")
def api_start(event_id: str, number: int) -> Any:
    snap = _organiser_api(event_id)
    _current(snap, number)
    service().start_round(snap)
    fresh = _snapshot(event_id)
    return jsonify(round=number, started=fresh.rounds[-1].started, ends=service().round_ends(fresh))


@api.post("/<event_id>/results")
def api_result(event_id: str) -> Any:
    snap = _organiser_api(event_id)
    problem = service().enter_result(snap, read_json())
    if problem:
        return _refuse(problem)
    fresh = _snapshot(event_id)
    data = read_json()
    return jsonify(round=data["round"], pairings=service().pairings_json(fresh, data["round"])), 201


@api.post("/<event_id>/results/confirm")
def api_confirm(event_id: str) -> Any:
    """A player (X-Player-Token) or the organiser (X-Organiser-Token) confirms a table's result."""
    if store().club.get(event_id) is None:
        abort(404, description=say("There is no such event."))
    snap = _snapshot(event_id)
    organiser = store().club.organiser_ok(event_id, request.headers.get("X-Organiser-Token"))
    player = store().club.player_by_token(event_id, request.headers.get("X-Player-Token"))
    if not organiser and player is None:
        abort(
            403, description=say("X-Player-Token (a player of the table) or X-Organiser-Token must be sent.")
        )
    data = read_json()
    number = data.get("round") if isinstance(data, dict) else None
    table_no = data.get("table") if isinstance(data, dict) else None
    table = next(
        (
            t
            for t in snap.tables
            if t.round == number
            and t.number == table_no
            and t.player_b is not None
            and not isinstance(table_no, bool)
        ),
        None,
    )
    if table is None or isinstance(number, bool):
        return _refuse(Problem.refusal(say("round and table must name a paired table of this event.")))
    if organiser:
        by = "organiser"
    elif player in (table.player_a, table.player_b):
        by = "a" if player == table.player_a else "b"
    else:
        abort(403, description=say("Only the table's players or the organiser can confirm its result."))
    problem = service().confirm(snap, table, by)
    if problem:
        return _refuse(problem)
    fresh = _snapshot(event_id)
    return jsonify(round=number, pairings=service().pairings_json(fresh, number))


def _is_organiser(event_id: str) -> bool:
    return store().club.organiser_ok(event_id, request.headers.get("X-Organiser-Token"))


@api.get("/<event_id>/standings")
def api_standings(event_id: str) -> Any:
    snap = _snapshot(event_id)
    response = jsonify(service().public_rows(snap, _is_organiser(event_id)))
    response.vary.add("X-Organiser-Token")
    return response


@api.post("/<event_id>/rolloffs")
def api_rolloff(event_id: str) -> Any:
    snap = _organiser_api(event_id)
    problem = service().rolloff(snap, json_field("players"))
    if problem:
        return _refuse(problem)
    return jsonify(service().public_rows(_snapshot(event_id), organiser=True)), 201


# --- lists and votes -------------------------------------------------------------------
def _player_api(event_id: str) -> tuple[Snapshot, int]:
    """The event and the player whose X-Player-Token this is (403 without it)."""
    if store().club.get(event_id) is None:
        abort(404, description=say("There is no such event."))
    player = store().club.player_by_token(event_id, request.headers.get("X-Player-Token"))
    if player is None:
        abort(403, description=say("X-Player-Token must hold your own token for this event."))
    return _snapshot(event_id), player


@api.get("/<event_id>/lists")
def api_lists(event_id: str) -> Any:
    """The lists this asker may see: the organiser all, with verdicts; a player their own and
    those revealed; anyone else those revealed."""
    snap = _snapshot(event_id)
    svc = service()
    organiser = _is_organiser(event_id)
    viewer = store().club.player_by_token(event_id, request.headers.get("X-Player-Token"))
    shown = [
        svc.list_json(snap, kept, organiser)
        for p in snap.players
        if (kept := svc.list_of(snap, p.id, viewer, organiser)) is not None
    ]
    response = jsonify(
        lists=shown,
        locked=snap.event.lists_locked,
        deadline=svc.settings(snap).lists.deadline,
        reveal=svc.settings(snap).lists.reveal,
        missing=[p.id for p in snap.players if not p.spare and p.id not in snap.lists] if organiser else [],
    )
    response.vary.add("X-Organiser-Token")
    response.vary.add("X-Player-Token")
    return no_store(response)


@api.post("/<event_id>/lists")
def api_submit_list(event_id: str) -> Any:
    """A player submits one of their rosters as their list (X-Player-Token)."""
    snap, player = _player_api(event_id)
    problem = service().submit_list(snap, player, json_field("roster"))
    if problem:
        return _refuse(problem)
    fresh = _snapshot(event_id)
    return no_store(make_response(jsonify(service().list_json(fresh, fresh.lists[player])), 201))


@api.post("/<event_id>/lists/lock")
def api_lock_lists(event_id: str) -> Any:
    snap = _organiser_api(event_id)
    locked = json_field("locked")
    if not isinstance(locked, bool):
        return _refuse(
            Problem.refusal(say("locked must be true (no more changes) or false (players may submit)."))
        )
    service().lock_lists(snap, locked)
    return jsonify(lists_locked=store().club.get(event_id).lists_locked)  # type: ignore[union-attr]


@api.post("/<event_id>/votes")
def api_vote(event_id: str) -> Any:
    """A player's secret sportsmanship ballot for an opponent they played (X-Player-Token)."""
    snap, player = _player_api(event_id)
    problem = service().vote(snap, player, json_field("player"))
    if problem:
        return _refuse(problem)
    return no_store(make_response(jsonify(voted=True), 201))


@api.get("/<event_id>/votes")
def api_votes(event_id: str) -> Any:
    """The ballots and their count: the organiser's only."""
    snap = _organiser_api(event_id)
    return no_store(jsonify(service().votes_json(snap)))


@api.get("/<event_id>/export")
def api_export(event_id: str) -> Any:
    snap = _snapshot(event_id)
    response = jsonify(service().export(snap))
    response.headers["Content-Disposition"] = f'attachment; filename="muster-event-{event_id}.json"'
    return response


@api.get("/<event_id>/export.csv")
def api_export_csv(event_id: str) -> Any:
    snap = _snapshot(event_id)
    response = Response(service().export_csv(snap), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="muster-event-{event_id}.csv"'
    return response


@api.get("/<event_id>/ranking.json")
def api_ranking_json(event_id: str) -> Any:
    """Standings and results in the stable shape for ranking sites (docs/api.md)."""
    snap = _snapshot(event_id)
    response = jsonify(club_exports.ranking(service(), snap))
    response.headers["Content-Disposition"] = f'attachment; filename="muster-ranking-{event_id}.json"'
    return response


@api.get("/<event_id>/ranking.csv")
def api_ranking_csv(event_id: str) -> Any:
    snap = _snapshot(event_id)
    response = Response(club_exports.ranking_csv(service(), snap), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="muster-ranking-{event_id}.csv"'
    return response


@api.get("/<event_id>/summary.txt")
def api_summary(event_id: str) -> Any:
    """Round by round in plain text, for a club's website or chat."""
    snap = _snapshot(event_id)
    return Response(club_exports.summary(service(), snap), mimetype="text/plain")


# --- screens ------------------------------------------------------------------------------
def clock_text(seconds: int | None) -> str:
    """Time left as the board's clock shows it each second (static/events.js): h:mm:ss, or m:ss."""
    if seconds is None or seconds <= 0:
        return say("time is up")
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _view(snap: Snapshot) -> dict[str, Any]:
    """What every event screen shows: the event, its round, pairings, waiting tables, standings."""
    svc = service()
    number = svc.current_round(snap)
    names = {p.id: p.name for p in snap.players}
    pack = packs().get(snap.event.pack)
    scenario = None
    if number and pack is not None:
        found = pack.scenario(snap.rounds[-1].scenario)
        scenario = found.name if found else snap.rounds[-1].scenario
    settings = svc.settings(snap)
    return {
        "snap": snap,
        "event": snap.event,
        "settings": settings,
        "pack": pack,
        "number": number,
        "scenario": scenario,
        "names": names,
        "factions": {p.id: svc.faction(snap, p.id) for p in snap.players},
        "tables": svc.tables_of(snap, number) if number else [],
        "result_of": lambda t: svc.result_of(snap, t),
        "award_of": lambda r: svc.award(snap, r),
        "soft_shown": ["painting"] if "painting" in settings.soft else [],
        "organiser_view": False,
        "waiting": svc.waiting(snap, number) if number else [],
        "standings": svc.standings(snap),
        "time_left": svc.time_left(snap),
        "time_left_text": clock_text(svc.time_left(snap)),
        # Everyone is level before any result: no tie to break, so no "=" yet.
        "ties_shown": bool(snap.results),
        "round_ends": svc.round_ends(snap),
        "started": snap.rounds[-1].started if snap.rounds else None,
        "repairable": bool(number) and not any(r.round == number for r in snap.results),
        "finished": number >= snap.event.rounds and not (svc.waiting(snap, number) if number else True),
    }


@bp.get("/events")
def index() -> Any:
    return render_template(
        "club/index.html",
        events=store().club.recent(),
        admin=signed_in(),
        enabled=admin_password() is not None,
    )


@bp.get("/events/new")
def new() -> Any:
    if not signed_in():
        abort(403, description=say("Creating an event needs the admin password: log in at /admin first."))
    # A refused form's reload comes back with what was typed (see create).
    return render_template("club/new.html", **_new_form(), error=None, form=request.args)


PRESET_WORDS = {
    "wdl": _l("win, draw, loss"),
    "tow-bands": _l("The Old World's bands on VP difference"),
    "twenty-zero": _l("20–0 on VP difference"),
    "wl-bonus": _l("win, draw, loss plus bonus points"),
}


def _new_form() -> dict[str, Any]:
    return {
        "packs": _packs_for_events(),
        "presets": PRESET_WORDS,
        "tie_break_names": event_settings.tie_break_words(),
        "default_order": event_settings.DEFAULT_TIE_BREAKS,
    }


def _bands(text: str) -> Any:
    """The bands typed one a line (from, to, TP more, TP fewer; the last without its to) as the
    API takes them; what cannot be read is passed on for the API's own sentence."""
    bands: list[list[int | None]] = []
    lines = [line for line in text.splitlines() if line.strip()]
    for i, line in enumerate(lines[:20]):
        numbers = [int(n) for n in re.findall(r"\d{1,7}", line)]
        if len(numbers) == 4 and i < len(lines) - 1:
            bands.append([numbers[0], numbers[1], numbers[2], numbers[3]])
        elif len(numbers) == 3 and i == len(lines) - 1:
            bands.append([numbers[0], None, numbers[1], numbers[2]])
        else:
            return "unreadable"
    return bands


def _settings_from_form(form: Any, whole: Any) -> dict[str, Any]:
    """The new-event form's settings as the API's body writes them."""
    preset = form.get("preset", "wdl")
    scoring: dict[str, Any] = {k: whole(k) for k in ("win", "draw", "loss") if form.get(k, "").strip()}
    scoring["preset"] = preset
    if preset == "tow-bands" and form.get("bands", "").strip():
        scoring["bands"] = _bands(form.get("bands", ""))
    if preset == "twenty-zero" and form.get("step", "").strip():
        scoring["step"] = whole("step")
    data: dict[str, Any] = {"scoring": scoring}
    if form.get("settings_form") != "1":
        return data  # an older form: every other setting keeps its default
    order = [form.get(f"tie_{i}") for i in range(1, len(event_settings.TIE_BREAKS) + 1)]
    data["tie_breaks"] = [name for name in order if name]
    data["sos_by"] = form.get("sos_by", "points")
    data["bye"] = {
        "points": whole("bye_points") if form.get("bye_points", "").strip() else None,
        "vp": "full" if form.get("bye_vp_kind", "full") == "full" else whole("bye_vp"),
    }
    data["late"] = form.get("late", "loss")
    soft: dict[str, Any] = {}
    for kind in event_settings.SOFT_KINDS:
        mode = form.get(f"{kind}_mode", "none")
        if mode == "standings":
            soft[kind] = {"weight": whole(f"{kind}_weight")}
        elif mode == "prize":
            soft[kind] = {"prize": True}
    data["soft"] = soft
    deadline = form.get("deadline", "").strip()
    if deadline:
        # A datetime-local field has no zone: it is the club's clock (this server's).
        with contextlib.suppress(ValueError):
            deadline = datetime.fromisoformat(deadline).astimezone().isoformat()
    data["lists"] = {"reveal": form.get("reveal", "pairing"), "deadline": deadline or None}
    data["pairing"] = {
        "avoid_club_mates": form.get("avoid_club_mates") == "1",
        "avoid_repeat_tables": form.get("avoid_repeat_tables") == "1",
    }
    return data


def _packs_for_events() -> list[Any]:
    svc = service()
    return [p for p in sorted(packs().values(), key=lambda p: p.name) if svc.scenarios_for(p, None)]


@bp.post("/events/new")
def create() -> Any:
    if not signed_in():
        abort(403, description=say("Creating an event needs the admin password: log in at /admin first."))
    check("games")
    form = request.form

    def whole(key: str) -> Any:
        value = form.get(key, "").strip()
        return int(value) if value.isdecimal() and len(value) <= 6 else (value or None)

    data = {
        "name": form.get("name", ""),
        "pack": form.get("pack", ""),
        "points_limit": whole("points_limit"),
        "rounds": whole("rounds"),
        "scenarios": [s for s in form.getlist("scenarios") if s],
        "round_minutes": whole("round_minutes"),
        **_settings_from_form(form, whole),
    }
    made = service().create(data)
    if isinstance(made, Problem):
        html = render_template("club/new.html", **_new_form(), error=made.message, form=form)
        typed = [(k, v) for k, v in form.items(multi=True) if k != "csrf_token" and v and len(v) <= 200]
        response = refused(make_response(html, 422), made.message)
        return reload_at(response, url_for("club.new") + "?" + urlencode(typed))
    event_id, token = made
    return no_store(redirect(url_for("club.organiser", event_id=event_id, token=token), code=303))


def _shown(snap: Snapshot) -> tuple[Any, ...]:
    """Everything of an event its public screens show, as a page cache key.

    Every write to an event (a player renamed or dropped, a result, a round started, a list
    submitted, sign-up closed) changes one of the snapshot's rows, so a kept page is never
    served once the event moved on; a row the snapshot gains later is in the key unasked. The
    pack is named by identity: a reloaded pack is another object.
    """
    key: list[Any] = []
    for part in dataclasses.fields(snap):
        value = getattr(snap, part.name)
        if part.name == "lists":
            # A list's text is long; a list submitted again is a new row, with a new id.
            value = [(player, row.id) for player, row in sorted(value.items())]
        elif isinstance(value, dict):
            value = sorted(value.items())
        key.append(repr(value))
    key.append(id(packs().get(snap.event.pack)))
    return tuple(key)


def _kept_event_page(
    snap: Snapshot, template: str, extra: Callable[[dict[str, Any]], dict[str, Any]]
) -> Response:
    """An event screen rendered once per change of the event and served to every phone and
    projector that reads it; only the round's time left (and the marks) are filled in each time.

    ``extra`` adds the screen's own context to the shared view (plain values of the request,
    which are part of the key through the address).
    """
    key = ("event", template, _shown(snap), request.full_path)
    pack = packs().get(snap.event.pack)

    def make() -> str:
        view = _view(snap)
        return render_template(template, **{**extra(view), "time_left_text": page_cache.slot("time_left")})

    kept = page_cache.render(key, make, held=(pack,) if pack is not None else ())
    return page_cache.answer(kept, {"time_left": lambda: str(escape(clock_text(service().time_left(snap))))})


@bp.get("/events/<event_id>")
def show(event_id: str) -> Any:
    snap = _snapshot(event_id)
    return _kept_event_page(snap, "club/show.html", lambda view: view)


@bp.get("/events/<event_id>/qr.svg")
def qr(event_id: str) -> Any:
    """The QR code of the event's page, where players sign up."""
    if store().club.get(event_id) is None:
        abort(404, description=say("There is no such event."))
    return qr_response(url_for("club.show", event_id=event_id, _external=True))


@bp.post("/events/<event_id>/signup")
@limited("rosters")
def signup(event_id: str) -> Any:
    """A player signs up from the event page (while sign-up is open): on to their own page."""
    snap = _snapshot(event_id)
    made = service().add_player(
        event_id,
        {"name": request.form.get("name"), "club": request.form.get("club") or None},
        by_organiser=False,
    )
    if isinstance(made, Problem):
        html = render_template("club/show.html", **_view(snap), error=made.message)
        return html, 409 if made.conflict else 422
    return no_store(redirect(url_for("club.phone", event_id=event_id, token=made[1]), code=303))


def _pages(rows: list[Any], size: int, page: int) -> dict[str, Any]:
    """One page of a board's list: its rows, where they start, and how many pages there are."""
    count = max(1, -(-len(rows) // size))
    start = (page % count) * size
    return {"rows": rows[start : start + size], "first": start + 1, "of": len(rows), "pages": count}


@bp.get("/events/<event_id>/board")
def board(event_id: str) -> Any:
    """The projector board: each refresh shows the next page of a list too long for the screen."""
    snap = _snapshot(event_id)
    page = whole(request.args.get("page", "")) or 0
    size = int(current_app.config.get("BOARD_ROWS", BOARD_ROWS))
    refresh = int(current_app.config.get("BOARD_REFRESH_SECONDS", BOARD_REFRESH_SECONDS))

    def paged(view: dict[str, Any]) -> dict[str, Any]:
        tables = _pages(view["tables"], size, page)
        standings = _pages(view["standings"], size, page)
        return {
            **view,
            "refresh_seconds": refresh,
            "board_tables": tables,
            "board_standings": standings,
            "page": page,
            "next_page": (page + 1) % max(tables["pages"], standings["pages"]),
            "signup_url": url_for("club.show", event_id=event_id, _external=True),
        }

    fragment = wants_fragment() and request.args.get("part") == "board"
    template = "club/_board.html" if fragment else "club/board.html"
    response = _kept_event_page(snap, template, paged)
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("HX-Request")
    return response


# --- the organiser's console ---------------------------------------------------------------
def _organiser_token(event_id: str) -> str | None:
    tokens = session.get("organiser") or {}
    token = tokens.get(event_id) if isinstance(tokens, dict) else None
    return token if isinstance(token, str) and store().club.organiser_ok(event_id, token) else None


@bp.get("/events/<event_id>/organiser/<token>")
def organiser(event_id: str, token: str) -> Any:
    """The organiser's link: this phone keeps the token in its session and opens the console."""
    if store().club.get(event_id) is None:
        abort(404, description=say("There is no such event."))
    if not store().club.organiser_ok(event_id, token):
        abort(403, description=say("This organiser link is not valid for the event."))
    tokens = session.get("organiser") if isinstance(session.get("organiser"), dict) else {}
    session["organiser"] = {**tokens, event_id: token}
    return no_store(redirect(url_for("club.console", event_id=event_id), code=303))


def _console_snapshot(event_id: str) -> Snapshot:
    if store().club.get(event_id) is None:
        abort(404, description=say("There is no such event."))
    if _organiser_token(event_id) is None:
        abort(403, description=say("The console needs the organiser's link: open it on this phone first."))
    return _snapshot(event_id)


# A result row's fields, kept in the console's address when it is refused (so a reload keeps them).
RESULT_FIELDS = ("table", "vp_a", "vp_b", "draw", "tiebreak", "bonus_a", "bonus_b")


@bp.get("/events/<event_id>/console")
def console(event_id: str) -> Any:
    snap = _console_snapshot(event_id)
    draft = request.args if request.args.get("table") else None
    html = render_template("club/console.html", **_console_view(snap), error=None, added=None, draft=draft)
    return no_store(make_response(html))  # it shows the organiser link: no cache keeps it


def _console_view(snap: Snapshot) -> dict[str, Any]:
    """The console's page: every screen's view, and what only the organiser sees (the
    pairing preview, the lists' verdicts and changes, the ballots)."""
    svc = service()
    token = _organiser_token(snap.event.id)
    url = url_for("club.organiser", event_id=snap.event.id, token=token, _external=True)
    kept = svc.kept_preview(snap, request.args.get("preview"))
    preview = svc.preview_json(snap, request.args["preview"], kept) if kept else None
    settings = svc.settings(snap)
    return {
        **_view(snap),
        "organiser_url": url,
        "preview": preview,
        "lists": {
            p.id: svc.list_json(snap, snap.lists[p.id], organiser=True)
            for p in snap.players
            if p.id in snap.lists
        },
        "ballots": svc.votes_json(snap) if "sportsmanship" in settings.soft else None,
        "prizes": svc.prizes(snap, organiser=True),
        "takes_bonus": settings.scoring.takes_bonus,
        "organiser_view": True,
    }


def _number(value: Any) -> Any:
    text = str(value or "").strip()
    return int(text) if text.lstrip("-").isdecimal() and len(text) <= 9 else text or None


@bp.post("/events/<event_id>/console/<action>")
def console_action(event_id: str, action: str) -> Any:
    """One of the console's buttons; back to the console with what it did or why not."""
    snap = _console_snapshot(event_id)
    svc = service()
    form = request.form
    problem: Problem | None = None
    added = None
    if action == "signup":
        svc.set_signup(snap, form.get("open") == "1")
    elif action == "player":
        made = svc.add_player(
            event_id,
            {"name": form.get("name"), "club": form.get("club") or None, "spare": form.get("spare") == "1"},
            by_organiser=True,
        )
        if isinstance(made, Problem):
            problem = made
        else:
            added = {
                "name": form.get("name"),
                "url": url_for("club.phone", event_id=event_id, token=made[1], _external=True),
                "qr": url_for("club.phone_qr", event_id=event_id, token=made[1]),
            }
    elif action in ("drop", "rejoin"):
        problem = svc.set_dropped(snap, _number(form.get("player")), action == "drop")
    elif action == "preview":
        # Pairing shows the tables first, each with its reason; the organiser then makes them.
        shown = svc.preview(snap, again=form.get("again") == "1")
        if isinstance(shown, Problem):
            problem = shown
        else:
            return redirect(
                url_for("club.console", event_id=event_id, preview=shown["preview"], _anchor="preview-h"),
                code=303,
            )
    elif action == "pair":
        made_round = svc.pair_next(snap, form.get("preview") or None)
        problem = made_round if isinstance(made_round, Problem) else None
    elif action == "repair":
        made_round = svc.repair(snap, form.get("preview") or None)
        problem = made_round if isinstance(made_round, Problem) else None
    elif action in ("lock", "unlock"):
        svc.lock_lists(snap, action == "lock")
    elif action in ("checkin", "checkout"):
        problem = svc.check_in(snap, _number(form.get("player")), action == "checkin")
    elif action == "painting":
        problem = svc.set_painting(snap, _number(form.get("player")), _number(form.get("painting")))
    elif action == "swap":
        problem = svc.swap(snap, _number(form.get("first")), _number(form.get("second")))
    elif action == "start":
        problem = svc.start_round(snap)
    elif action == "result":
        # One row per table: two VP boxes and the draw toggle; the service works out the winner.
        problem = svc.enter_row(
            snap,
            _number(form.get("round")),
            _number(form.get("table")),
            (_number(form.get("vp_a")), _number(form.get("vp_b"))),
            form.get("draw") == "1",
            _number(form.get("tiebreak")),
            (_number(form.get("bonus_a") or "0"), _number(form.get("bonus_b") or "0"))
            if "bonus_a" in form
            else None,
        )
    elif action == "confirm":
        number, table_no = _number(form.get("round")), _number(form.get("table"))
        table = next((t for t in snap.tables if t.round == number and t.number == table_no), None)
        problem = (
            Problem.refusal(say("table must be a table of this event."))
            if table is None
            else svc.confirm(snap, table, "organiser")
        )
    elif action == "rolloff":
        # One select a place, winner first (older pages sent the players in one field).
        order = [_number(p) for field in form.getlist("order") for p in field.replace(",", " ").split()]
        problem = svc.rolloff(snap, order)
        if problem:
            problem = Problem.refusal(say("Pick each tied player once, the roll-off's winner first."))
    else:
        abort(404, description=say("There is no such console action."))
    if problem is None and added is None:
        return redirect(url_for("club.console", event_id=event_id), code=303)
    fresh = _snapshot(event_id)
    draft = form if action == "result" else None
    html = render_template(
        "club/console.html",
        **_console_view(fresh),
        error=players_named(problem.message, []) if problem else None,
        added=added,
        draft=draft,
    )
    code = 200 if problem is None else (409 if problem.conflict else 422)
    response = refused(no_store(make_response(html, code)), problem.message if problem else None)
    # A reload opens the console again, with a refused result row as it was typed.
    kept = {k: form.get(k, "") for k in RESULT_FIELDS if form.get(k)} if draft else {}
    anchor = f"result-{form.get('table')}" if draft and whole(form.get("table")) is not None else None
    return reload_at(response, url_for("club.console", event_id=event_id, _anchor=anchor, **kept))


# --- a player's phone ----------------------------------------------------------------------
def _player(event_id: str, token: str) -> tuple[Snapshot, int]:
    if store().club.get(event_id) is None:
        abort(404, description=say("There is no such event."))
    player = store().club.player_by_token(event_id, token)
    if player is None:
        abort(403, description=say("This player link is not valid for the event; ask the organiser."))
    return _snapshot(event_id), player


def _phone_view(snap: Snapshot, player: int, token: str, error: str | None = None, status: int = 422) -> Any:
    svc = service()
    seat = svc.seat_of(snap, player)
    table, side = seat if seat else (None, None)
    opponent = None
    if table is not None and table.player_b is not None:
        opponent = table.player_b if side == "a" else table.player_a
    result = svc.result_of(snap, table) if table is not None and table.player_b is not None else None
    me = next(p for p in snap.players if p.id == player)
    settings = svc.settings(snap)
    allowed = roster_packs(packs(), snap.event.pack)
    mine = svc.list_of(snap, player, viewer=player)
    theirs = svc.list_of(snap, opponent, viewer=player) if opponent is not None else None
    html = render_template(
        "club/phone.html",
        **_view(snap),
        me=me,
        token=token,
        table=table,
        side=side,
        opponent=opponent,
        result=result,
        confirmed=bool(result and result.confirmed[0 if side == "a" else 1]),
        game_link=_game_link(table, side),
        error=error,
        my_list=svc.list_json(snap, mine, organiser=True) if mine else None,
        their_list=svc.list_json(snap, theirs) if theirs else None,
        # This phone's rosters (built or imported here), as a game's screen offers them.
        my_rosters=store().rosters.of_phone(this_phone.known_hash(), allowed),
        lists_open=not snap.event.lists_locked and not me.spare,
        list_deadline=settings.lists.deadline,
        reveal=settings.lists.reveal,
        voting="sportsmanship" in settings.soft and not me.spare,
        voting_open=svc.voting_open(snap),
        my_vote=snap.votes.get(player),
        met=svc.opponents_met(snap, player),
    )
    # A refusal says so in its header too: a confirmation kept on the phone shows it as refused.
    return no_store(refused(make_response(html, status if error else 200), error))


def _game_link(table: Any, side: str | None) -> str | None:
    """The link that opens a player's own game: their own seat in a game with seats (the
    opponent's secrets and seat stay theirs), else the table's join link."""
    if table is None or not table.game_id or not table.game_token or side is None:
        return None
    seats = games_service().seat_tokens(table.game_id, table.game_token)
    if seats:
        player = 0 if side == "a" else 1  # the game's players are the table's, a then b
        return url_for("games.take_seat", game_id=table.game_id, token=seats[player])
    return url_for("games.join", game_id=table.game_id, token=table.game_token)


def _phone_answer(event_id: str, player: int, token: str, problem: Problem | None, anchor: str) -> Any:
    """What a player's form on their page is answered: the page again with the refusal (409 when
    the event has moved on), or back to the page at the part they changed."""
    if problem:
        return refused(
            _phone_view(
                _snapshot(event_id), player, token, problem.message, 409 if problem.conflict else 422
            ),
            problem.message,
        )
    return no_store(redirect(url_for("club.phone", event_id=event_id, token=token, _anchor=anchor), code=303))


@bp.get("/events/<event_id>/me/<token>")
def phone(event_id: str, token: str) -> Any:
    snap, player = _player(event_id, token)
    return _phone_view(snap, player, token)


@bp.get("/events/<event_id>/me/<token>/qr.svg")
def phone_qr(event_id: str, token: str) -> Any:
    """The QR code of a player's own link, to open it on their phone (kept by no cache)."""
    _player(event_id, token)
    return qr_response(url_for("club.phone", event_id=event_id, token=token, _external=True), private=True)


@bp.post("/events/<event_id>/me/<token>/list")
def phone_list(event_id: str, token: str) -> Any:
    """The player submits one of this phone's rosters as their list."""
    snap, player = _player(event_id, token)
    problem = service().submit_list(snap, player, request.form.get("roster") or None)
    return _phone_answer(event_id, player, token, problem, "list-h")


@bp.post("/events/<event_id>/me/<token>/vote")
def phone_vote(event_id: str, token: str) -> Any:
    """The player's secret sportsmanship ballot (only their phone and the organiser see it)."""
    snap, player = _player(event_id, token)
    problem = service().vote(snap, player, _number(request.form.get("player")))
    return _phone_answer(event_id, player, token, problem, "vote-h")


@bp.post("/events/<event_id>/me/<token>/confirm")
def phone_confirm(event_id: str, token: str) -> Any:
    snap, player = _player(event_id, token)
    svc = service()
    seat = svc.seat_of(snap, player)
    if seat is None or seat[0].player_b is None:
        return _phone_view(snap, player, token, say("You have no table with a result to confirm this round."))
    # A confirmation made offline arrives later: it confirms the result the player saw, or none.
    shown = request.form.get("result", "").strip()
    result = svc.result_of(snap, seat[0])
    if shown and result is not None and shown != str(result.id):
        return _phone_view(
            snap,
            player,
            token,
            say("The result changed after you confirmed it on your phone: check it and confirm again."),
        )
    problem = svc.confirm(snap, seat[0], seat[1])
    if problem:
        return _phone_view(snap, player, token, problem.message)
    return no_store(redirect(url_for("club.phone", event_id=event_id, token=token), code=303))


# --- prints --------------------------------------------------------------------------------
def _print(
    event_id: str, template: str, filename: str, more: Callable[[Snapshot], dict[str, Any]] | None = None
) -> Any:
    """The event's print ``template`` as a PDF, with what ``more`` adds to the event's page's data."""
    check("pdfs")
    chosen = paper()
    snap = _snapshot(event_id)
    context = {**_view(snap), "by_player": _by_player, **(more(snap) if more else {})}
    # A print needs no callables beyond its own (the cache keys on the HTML).
    context.pop("result_of")
    context.pop("award_of")
    data = sheet_pdf(template, context, chosen)
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="muster-{filename}-{event_id}.pdf"'
    return response


def _by_player(tables: list[Any], names: dict[int, str]) -> list[tuple[str, Any]]:
    """Every seated player, by name, with their table (for finding one's table at the door)."""
    seats = []
    for table in tables:
        if table.player_b is None:
            seats.append((names[table.player_a], say("bye")))
        else:
            seats += [(names[table.player_a], table.number), (names[table.player_b], table.number)]
    return sorted(seats, key=lambda seat: seat[0].casefold())


def _shown_lists(snap: Snapshot) -> dict[str, Any]:
    """The lists the printed pack may show now, and how many it holds back."""
    svc = service()
    shown = [svc.list_json(snap, kept) for p in snap.players if (kept := svc.list_of(snap, p.id))]
    return {"shown_lists": shown, "hidden": len(snap.lists) - len(shown)}


# The event's prints, each at /events/<id>/<name>.pdf (endpoint ``club.<name>_pdf``): the pairings
# and slips for the tables, the standings, every player's results round by round (opponent, VP,
# TP and the band or rule behind them), and the pack of lists once they may be shown.
PRINTS: dict[str, Callable[[Snapshot], dict[str, Any]] | None] = {
    "pairings": None,
    "standings": None,
    "lists": _shown_lists,
    "results": None,
    "slips": None,
}


def _print_view(name: str) -> Callable[[str], Any]:
    def view(event_id: str) -> Any:
        return _print(event_id, f"club/{name}.html", name, PRINTS[name])

    view.__doc__ = f"The event's {name} as a PDF."
    return view


for _name in PRINTS:
    bp.add_url_rule(f"/events/<event_id>/{_name}.pdf", f"{_name}_pdf", _print_view(_name), methods=["GET"])
