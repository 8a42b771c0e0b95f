"""Game screens: new game, the score sheet at the table, joining from a second phone."""

from __future__ import annotations

import json
import random
import uuid
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from markupsafe import escape
from werkzeug.datastructures import MultiDict

from app.rules import dice, entry_words, log, seizing
from app.rules.pack import roster_packs
from app.rules.problems import Problem
from app.rules.speech import say, say_plural
from app.services import clocks, games, terrain_sets
from app.store import GameRow
from app.web import language, page_cache, phone, phone_games
from app.web.forms import number, whole
from app.web.limits import limited
from app.web.lookups import cookie
from app.web.pages import refused, reload_at, shaped, wants_fragment
from app.web.remembered import remembered
from app.web.responses import no_store, private_page, qr_response
from app.web.services import games_service, loaded_game, packs, store
from app.web.systems import web_system_for
from app.web.wording import in_player_words, setup_in_player_words

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
    token = cookie(_cookie(game_id))
    row, ok = store().games.get_for_edit(game_id, token)
    return row, token if ok else None


def _seated(game_id: str) -> int | None:
    """The player whose seat this phone opened (by the seat's link), if its token is still right."""
    token = cookie(_seat_cookie(game_id))
    return store().games.seats.player_of(game_id, token) if token else None


def seat_of(game_id: str) -> int | None:
    """The player whose seat this phone opened in the game (by its seat link), if any."""
    return _seated(game_id)


def access_of(game_id: str) -> tuple[GameRow | None, str | None, games.Access]:
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
# Rows the new-game form may send (a scenario takes at most six players; a hand-made form more).
MAX_ROWS = 12
# The draft a refused new game keeps in the address it reloads at (the dice log is short).
DRAFT_FIELDS = ("pack", "scenario", "points_limit", "first_side", "rolls")
DRAFT_ROWS = ("name", "strategy", "side")
# The dice a new game's form may bring to its log: a die thrown again and again (a scenario
# roll whose die shows many numbers without a playable scenario) stays whole well past a dozen.
ROLLS_LONGEST = 8000
ROLLS_MOST = 48
DRAFT_LONGEST = {"rolls": 1200}  # a battleplan roll's three dice; any other field 100 characters


def _playable_packs() -> list[Any]:
    # Two-player packs first: the new-game screen opens on the usual game, not a multiplayer one.
    return sorted((p for p in packs().values() if p.playable), key=lambda p: (p.players.min or 2, p.id))


def _default_pack() -> Any:
    available = _playable_packs()
    if not available:
        abort(404, description=say("No rulepack with scenarios is installed, so no game can start."))
    chosen = packs().get(request.values.get("pack", ""))
    return chosen if chosen in available else available[0]


def _chosen_scenario(pack: Any, values: MultiDict[str, str]) -> Any:
    """The playable scenario the form names, if any: it decides the players and their sides."""
    found = pack.scenario(values.get("scenario", ""))
    return found if found is not None and found.playable else None


def _seating(pack: Any, scenario: Any) -> dict[str, Any]:
    """Who sits at a game of that scenario: the rows the form shows and how sides are taken.

    The counts, sides and question are the pack's answers for the scenario; ``key`` tells two
    seatings apart, so a phone changing to a scenario seated the same way keeps its form as it is.
    """
    counts = pack.players_for(scenario)
    low = counts.min or 2
    sides = pack.sides_for(scenario)
    question = pack.side_question(scenario)
    return {
        "low": low,
        "high": max(counts.max or low, low),
        "sides": sides,
        "side_labels": [pack.side_label(side) for side in sides],
        "question": question,
        # Each row picks its side when the one question does not settle them.
        "side_per_row": bool(sides) and question is None,
        "key": f"{low}-{counts.max}:{','.join(sides)}:{question or ''}",
    }


def _new_game_page(pack: Any, form: Any, error: str | None = None, rolled: Any = None) -> str:
    scenario = _chosen_scenario(pack, form)
    return render_template(
        "new_game.html",
        pack=pack,
        packs=sorted(_playable_packs(), key=lambda p: p.name),
        form=form,
        error=error,
        rolled=rolled,
        scenario=scenario,
        seating=_seating(pack, scenario),
    )


@bp.get("/games/new")
def new() -> Any:
    """The new-game form, for the pack and scenario asked (and any draft the address carries).

    ``part=players`` (from htmx, when the scenario changes) answers the players' part alone,
    or 204 when the new scenario seats its players as the shown one does.
    """
    pack = _default_pack()
    form = request.args
    if wants_fragment() and form.get("part") == "players":
        scenario = _chosen_scenario(pack, form)
        seating = _seating(pack, scenario)
        if form.get("seating") == seating["key"]:
            return "", 204
        html = render_template(
            "partials/_new_players.html", pack=pack, form=form, scenario=scenario, seating=seating
        )
        return shaped(make_response(html))
    return shaped(make_response(_new_game_page(pack, form)))


@bp.post("/games/new/roll")
def roll_battleplan() -> Any:
    """Roll for the battleplan (or the scenario): the dice are shown and the pick is made.

    The dice travel with the form as roll events, recorded in the new game's log when it starts.
    When the scenario rolled seats its players otherwise, the players' part comes along too.
    """
    pack = _default_pack()
    form = request.form
    names = [
        form.get(f"name{i}") or say("Player {number}", number=i + 1) for i in range(pack.players.max or 2)
    ]
    rng = random.SystemRandom()
    if pack.battleplan_roll is not None:
        rolled: Any = dice.battleplan_roll(rng, pack)
    elif pack.scenario_roll is not None:
        rolled = dice.scenario_roll(rng, pack)
    else:
        abort(404, description=say("{pack} has no battleplan tables or scenario roll.", pack=pack.name))
    events = dice.roll_events(pack, rolled)
    html = render_template(
        "partials/_battleplan_field.html",
        pack=pack,
        rolled=rolled,
        names=names,
        selected=rolled.scenario,
        roll_events=json.dumps({"scenario": rolled.scenario, "events": events}),
    )
    scenario = pack.scenario(rolled.scenario)
    seating = _seating(pack, scenario)
    if form.get("seating") != seating["key"]:
        html += render_template(
            "partials/_new_players.html", pack=pack, form=form, scenario=scenario, seating=seating, oob=True
        )
    return html


def _record_rolls(game_id: str, raw: str | None, scenario: str | None) -> None:
    """Keep the new-game screen's dice in the game's log (each checked like any roll event).

    Only when the game plays what the dice picked: a roll the players set aside decided nothing.
    """
    if not raw or len(raw) > ROLLS_LONGEST:
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
    if len(events) > ROLLS_MOST:
        # A long run of dice thrown again: the roll that picked the scenario (the last) is kept.
        events = [*events[: ROLLS_MOST - 1], events[-1]]
    for event in events:
        if isinstance(event, dict):
            # A roll the rules refuse (a hand-edited form) is left out; the game stands.
            games_service().record(game_id, {**event, "id": str(uuid.uuid4()), "type": "roll"})


@bp.get("/games")
def games_again() -> Any:
    """Where a refused new game's form was sent: the form again (with the draft the address keeps)."""
    return redirect(url_for("games.new", **request.args.to_dict()), code=303)


@bp.post("/games")
@limited("games")
def create() -> Any:
    pack = _default_pack()
    form = request.form
    scenario = _chosen_scenario(pack, form)
    players, problem = _players(pack, scenario, form)
    if problem is None:
        made = games_service().create(
            {
                "pack": pack.id,
                "scenario": scenario.id if scenario else form.get("scenario"),
                "points_limit": form.get("points_limit"),
                "players": players,
            },
            table_phone=phone.current_hash(),
        )
        problem = made.message if isinstance(made, Problem) else None
    if problem is not None:
        problem = setup_in_player_words(problem, scenario.name if scenario else pack.name)
        response = refused(make_response(_new_game_page(pack, form, problem), 422), problem)
        # The phone's address becomes the form with this draft: a reload shows it again (never a 405).
        return reload_at(response, url_for("games.new", **_draft(form)))
    game_id, token = made.id, made.edit_token
    _record_rolls(game_id, form.get("rolls"), form.get("scenario"))
    response = redirect(url_for("games.show", game_id=game_id), code=303)
    return phone.keep(no_store(phone_games.remember(_with_token(response, game_id, token), game_id)))


def _draft(form: MultiDict[str, str]) -> dict[str, str]:
    """The new-game form's fields worth keeping in an address (the CSRF token is not one).

    Each is kept only while short: the address must stay within what a front server reads in
    a request line (gunicorn: 4 KB), or the reload would be refused there.
    """
    kept = {key: form.get(key, "") for key in DRAFT_FIELDS if form.get(key)}
    for key in list(form)[:60]:
        prefix = key.rstrip("0123456789")
        if prefix in DRAFT_ROWS and key != prefix and form.get(key):
            kept[key] = form.get(key, "")
    return {key: value for key, value in kept.items() if len(value) <= DRAFT_LONGEST.get(key, 100)}


def _players(pack: Any, scenario: Any, form: MultiDict[str, str]) -> tuple[list[dict[str, Any]], str | None]:
    """The players of the new-game form, as many as the scenario takes, sides from the scenario.

    Past the fewest players, a row left blank is no player. With two sides and two players one
    choice says who takes the first side; otherwise each row names its side. More names than
    the scenario takes (a form shown for another scenario) are refused, never dropped unseen.
    """
    if scenario is None:
        if pack.battleplan_roll:
            return [], say("Choose a battleplan from the list or roll for it.")
        if pack.scenario_roll:
            return [], say("Choose a scenario from the list or roll for it.")
        return [], say("Choose a scenario from the list.")
    seating = _seating(pack, scenario)
    low, high = seating["low"], seating["high"]
    players = []
    for i in range(MAX_ROWS):
        name = form.get(f"name{i}", "")
        if i >= low and not name.strip():
            continue
        players.append(
            {"name": name, "side": form.get(f"side{i}"), "grand_strategy": form.get(f"strategy{i}")}
        )
    if len(players) > high:
        return [], say(
            "{scenario} is played by {players}: clear the names past player {high}.",
            scenario=scenario.name,
            players=_count(low, high),
            high=high,
        )
    sides = seating["sides"]
    if not sides:
        for player in players:
            player["side"] = None
    elif not seating["side_per_row"] or not any(player["side"] for player in players):
        # The one choice: who takes the first side; the others take the rest in order.
        first = whole(form.get("first_side", "0")) or 0
        rest = iter(sides[1:])
        for i, player in enumerate(players):
            player["side"] = sides[0] if i == first else next(rest, None)
    return players, None


def _count(low: int, high: int) -> str:
    if low == high:
        return say_plural("{count} player", "{count} players", low)
    return say("{low} to {high} players", low=low, high=high)


# --- a game -----------------------------------------------------------------------------
def _view(
    loaded: games.Loaded,
    token: str | None,
    error: str | None = None,
    draft: Any = None,
    seat: int | None = None,
    reads: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What the game page shows: what every game shows, then what its system adds.

    ``token`` is the table's edit token when this phone holds it; ``seat`` the player whose
    seat it opened. Secrets reach the page only through ``summary`` and the system's view,
    both made for that seat. ``reads``: :func:`_reads` when the caller has them already.
    """
    state = loaded.state
    web = web_system_for(loaded.pack, loaded.row.scenario)
    draft = draft or MultiDict()
    reads = reads if reads is not None else _reads(loaded, token, seat)
    return {
        "loaded": loaded,
        "game": state,
        "pack": loaded.pack,
        "scenario": state.scenario,
        "summary": games.summary(loaded, seat),
        "armies": loaded.armies,
        "error": error,
        "draft": draft,
        "game_partial": web.game_template,
        "scoring_lines": loaded.system.scoring(loaded.pack, state.scenario),
        "next_steps": loaded.system.next_steps(state),
        # What may be recorded now from this screen (its seat, or the table), and why not the
        # rest: the engine's one answer, which every game template renders from.
        "may": loaded.system.open_entries(state, seat),
        "clock": clocks.strip(store(), loaded.row, reads["can_edit"]),
        "last_entry": said_last(loaded),
        **reads,
        **web.view(loaded, draft, seat),
    }


def _reads(loaded: games.Loaded, token: str | None, seat: int | None) -> dict[str, Any]:
    """What the game page shows this phone beyond the game's log: who it is, its rosters,
    the seats' links (the table's), the terrain. Each may change with no entry in the log."""
    can_edit = token is not None or seat is not None
    return {
        "seat": seat,
        "seats": _seat_links(loaded, token) if seat is None else [],
        "can_edit": can_edit,
        "roster_choices": store().rosters.of_phone(phone.known_hash(), roster_packs(packs(), loaded.row.pack))
        if can_edit
        else [],
        "terrain_status": terrain_sets.status(store(), loaded.row.id, [p.name for p in loaded.setup.players])
        if loaded.pack.terrain
        else None,
    }


def _kept_key(template: str, loaded: games.Loaded, reads: dict[str, Any], **shown: Any) -> tuple[Any, ...]:
    """The page cache's key for a game screen: everything it shows but the clock and the marks.

    The log's length and last entry (an undo is an entry too) make each write a new key, so a
    kept page is never served once the game moved on; the seat is part of it, so a seat's
    secrets are kept for that seat alone.
    """
    row = loaded.row
    return (
        template,
        row.id,
        len(loaded.log),
        loaded.log[-1].get("id") if loaded.log else None,
        id(loaded.pack),  # a reloaded pack is another object (the kept page holds the old one)
        (row.scenario, row.points_limit, repr(row.players), row.archived),
        tuple(
            (p, a.get("roster_id"), a.get("attached"), a.get("mark"))
            for p, a in sorted(loaded.armies.items())
        ),
        reads["seat"],
        reads["can_edit"],
        repr(reads["seats"]),
        tuple((r.id, r.version) for r in reads["roster_choices"]),
        repr(reads["terrain_status"]),
        request.full_path,  # the language switch sends the phone back to it
        tuple(sorted(shown.items())),
    )


def _kept_page(
    template: str, loaded: games.Loaded, token: str | None, reads: dict[str, Any], **shown: Any
) -> Response:
    """The game screen (``game.html``) or its game part, from the page cache when kept, as an
    answer compressed by the page cache.

    ``shown``: what the caller adds to the page (plain values, part of the key). The clock is
    filled in on each answer (:func:`_kept_clock`): its times run on without any entry.
    """
    key = _kept_key(template, loaded, reads, **shown)

    def make() -> str:
        context = _view(loaded, token, seat=reads["seat"], reads=reads)
        return render_template(template, **{**context, **shown, "clock_slot": page_cache.slot("clock")})

    kept = page_cache.render(key, make, held=(loaded.pack,))

    return page_cache.answer(kept, {"clock": lambda: _kept_clock(loaded.row, reads["can_edit"])})


def _kept_clock(row: GameRow, can_edit: bool) -> str:
    """The clock strip, kept while nobody's time runs: its times then change only with a tap.

    Kept by the taps it folds (appended only: their count and the last one's id name them
    all), so a kept strip is found before any is folded. Only the server's time (``now``,
    which the phone measures its offset from) is filled in.
    """
    stored = store().clocks.taps(row.id)
    last = stored[-1]["id"] if stored else None
    key = ("clock", row.id, row.created, repr(row.players), len(stored), last, can_edit)
    kept = page_cache.kept(key)
    if kept is None:
        strip = clocks.strip_of(row, stored, can_edit)
        if strip["running"] is not None:
            return render_template("partials/_clock_strip.html", c=strip)
        kept = page_cache.render(
            key,
            lambda: render_template("partials/_clock_strip.html", c={**strip, "now": page_cache.slot("now")}),
        )
    return page_cache.fill(kept, {"now": lambda: str(escape(clocks.now_text()))})


# The last entry's words need the game replayed without it: kept per game, length of log and
# language, as every phone following a table asks for the same page after each entry.
_SAID_KEPT = 256


def said_last(loaded: games.Loaded) -> entry_words.LastEntry:
    """The line about the game's latest entry and the Undo of its last entry in force."""
    last = loaded.log[-1].get("id") if loaded.log else None
    key = (loaded.row.id, len(loaded.log), last, language.current())
    names = [p.name for p in loaded.setup.players]

    def said() -> entry_words.LastEntry:
        return entry_words.last_entry(loaded.system, loaded.pack, loaded.state, loaded.log, names)

    return remembered("muster_last_entries", key, said, _SAID_KEPT)


def is_table(game_id: str, token: str | None) -> bool:
    """Whether this phone is the game's table: it holds the edit token and made the game.

    A phone that joined by the join link holds the same edit token, so the phone's id tells
    them apart (app/web/phone.py): the seats' links are the table's to hand out, no one else's.
    """
    return token is not None and store().games.seats.is_table(game_id, phone.known_hash())


def _seat_links(loaded: games.Loaded, token: str | None) -> list[dict[str, Any]]:
    """Each seat for the table screen: its link and QR code, or, once a phone has opened it,
    that it is taken (with the way to invite it again). Empty on every other phone."""
    if not loaded.system.seated or not is_table(loaded.row.id, token):
        return []
    names = [p.name for p in loaded.setup.players]
    tokens = games_service().seat_tokens(loaded.row.id, token)
    taken = store().games.seats.taken(loaded.row.id)
    seats = []
    for player, seat_token in enumerate(tokens):
        seat: dict[str, Any] = {
            "player": player,
            "name": names[player] if player < len(names) else say("Player {number}", number=player + 1),
            "taken": player in taken,
        }
        if player in taken:
            seat["invite"] = url_for("games.invite_seat", game_id=loaded.row.id, player=player)
        else:
            seat["url"] = url_for("games.take_seat", game_id=loaded.row.id, token=seat_token, _external=True)
            seat["qr"] = url_for("games.seat_qr", game_id=loaded.row.id, player=player)
        seats.append(seat)
    return seats


# A phone that just opened a join or seat link is told once that it can now record: a cookie
# for the game's page, read and dropped by it (an address such as ?joined=1 would be kept
# offline as a page of its own).
_WELCOME = "muster_welcome"


def _welcomed(response: Any, game_id: str) -> Any:
    response.set_cookie(
        _WELCOME,
        "1",
        max_age=120,
        path=f"/games/{game_id}",
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )
    return response


@bp.get("/games/<game_id>")
def show(game_id: str) -> Any:
    row, token, access = access_of(game_id)
    loaded = loaded_game(game_id, row)
    # Anyone may pass on the plain game link: it opens the game to watch, never to edit.
    shown: dict[str, Any] = {"watch_url": url_for("games.show", game_id=game_id, _external=True)}
    if token:
        shown["join_link"] = url_for("games.join_link", game_id=game_id)
        # A new game opens inviting the other player's phone, until one has joined; a game with
        # seats invites by its seats' codes instead.
        shown["invite"] = not loaded.system.seated and not store().games.joined(game_id)
    welcome = bool(cookie(_WELCOME))
    shown["welcome"] = welcome and (token is not None or access.seat is not None)
    reads = _reads(loaded, token, access.seat)
    response = shaped(_kept_page("game.html", loaded, token, reads, **shown), "Cookie")
    if welcome:
        response.delete_cookie(_WELCOME, path=f"/games/{game_id}")
    # The table screen showing a seat's link carries that seat's token: kept by no cache. Every
    # other game page carries none (the join link is fetched when shown) and is kept offline.
    if any(s.get("url") for s in reads["seats"]):
        return no_store(response)
    return private_page(response)


@bp.get("/games/<game_id>/join-link")
def join_link(game_id: str) -> Any:
    """The join link, fetched when "Score on a second phone" is opened: it carries the edit
    token, so it is kept by no cache, and the game page it is shown on carries none."""
    token = edit_token(game_id)
    if token is None:
        abort(403, description=say("Only a phone that records in this game can show its join link."))
    url = url_for("games.join", game_id=game_id, token=token, _external=True)
    template = "partials/_token_link.html" if wants_fragment() else "token_link.html"
    back = url_for("games.show", game_id=game_id)
    response = make_response(render_template(template, url=url, label=say("Join link"), back=back))
    response.vary.add("HX-Request")
    return no_store(response)


@bp.get("/games/<game_id>/version")
def version(game_id: str) -> Any:
    """How many entries the game holds: the game page asks now and then, to follow other phones.

    It is the ``data-version`` the game's screen carries; a phone reloads the game only when it
    grew, so following a table costs one index lookup a phone every few seconds.
    """
    length = store().games.log_length(game_id)
    if length is None:
        abort(404, description=say("There is no such game. Check the link, or start a new game."))
    # ``joined``: a second phone opened the join link (the first phone's invite panel closes).
    return no_store(jsonify({"version": length, "joined": store().games.joined(game_id)}))


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
            abort(422, description=say("{field} must be a whole number.", field=name))
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
        abort(404, description=say("There is no such game."))
    return qr_response(url_for("games.show", game_id=game_id, _external=True))


@bp.get("/games/<game_id>/join.svg")
def join_qr(game_id: str) -> Any:
    """The QR code of the join link: only for a phone that can already edit the game."""
    token = edit_token(game_id)
    if token is None:
        abort(403, description=say("Only a phone that records in this game can show its join code."))
    return qr_response(url_for("games.join", game_id=game_id, token=token, _external=True), private=True)


@bp.get("/games/<game_id>/seats/<int:player>.svg")
def seat_qr(game_id: str, player: int) -> Any:
    """The QR code of a seat's link: only for the table screen (the phone that made the game),
    and only while no phone has opened that seat (or the table has invited it again)."""
    token = edit_token(game_id)
    if not is_table(game_id, token):
        abort(
            403,
            description=say(
                "Only the table's phone (the one that started the game) can show the seats' codes."
            ),
        )
    tokens = games_service().seat_tokens(game_id, token or "")
    if not 0 <= player < len(tokens):
        abort(
            404, description=say("player must be a seat of this game, 0 to the number of players less one.")
        )
    if player in store().games.seats.taken(game_id):
        abort(
            403,
            description=say(
                "This seat is taken on a phone: invite it again on the table screen to show its code."
            ),
        )
    url = url_for("games.take_seat", game_id=game_id, token=tokens[player], _external=True)
    return qr_response(url, private=True)


@bp.get("/games/<game_id>/seat/<token>")
def take_seat(game_id: str, token: str) -> Any:
    """A player opens their seat on their phone: it keeps the seat's token and shows their secrets."""
    if not store().games.exists(game_id):
        abort(404, description=say("There is no such game."))
    player = store().games.seats.player_of(game_id, token)
    if player is None:
        abort(
            403,
            description=say("This seat link is not valid for the game; ask the table for your seat's code."),
        )
    store().games.seats.take(game_id, player)  # the table stops showing it
    response = _with_token(
        redirect(url_for("games.show", game_id=game_id), code=303), game_id, token, _seat_cookie(game_id)
    )
    return no_store(phone_games.remember(_welcomed(response, game_id), game_id))


@bp.post("/games/<game_id>/seats/<int:player>/invite")
def invite_seat(game_id: str, player: int) -> Any:
    """The table shows a taken seat's link again, on purpose (a player's new phone)."""
    if not store().games.exists(game_id):
        abort(404, description=say("There is no such game."))
    if not is_table(game_id, edit_token(game_id)):
        abort(
            403,
            description=say(
                "Only the table's phone (the one that started the game) can invite a seat again."
            ),
        )
    if not 0 <= player < store().games.seats.player_count(game_id):
        abort(
            404, description=say("player must be a seat of this game, 0 to the number of players less one.")
        )
    store().games.seats.invite_again(game_id, player)
    return redirect(url_for("games.show", game_id=game_id, _anchor="seats"), code=303)


@bp.get("/games/<game_id>/join/<token>")
def join(game_id: str, token: str) -> Any:
    if not store().games.exists(game_id):
        abort(404, description=say("There is no such game."))
    if not store().games.token_ok(game_id, token):
        abort(403, description=say("This join link is not valid for the game; ask for a new one."))
    if edit_token(game_id) is None:  # another phone than the one that holds the game already
        store().games.mark_joined(game_id)
    response = _with_token(redirect(url_for("games.show", game_id=game_id), code=303), game_id, token)
    return no_store(phone_games.remember(_welcomed(response, game_id), game_id))


@bp.post("/games/<game_id>/events")
def record(game_id: str) -> Any:
    """Record one event from a form; answer with the refreshed game (or the refusal).

    The table's phone records public entries; a seat's phone records those and its own
    secrets (403 for another's secret, with the sentence in the refusal header).
    """
    row, token, access = access_of(game_id)
    loaded = loaded_game(game_id, row)
    if not access.may_record:
        abort(403, description=say("Only this game's players can record in it: open the join link first."))
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
    if problem is None:  # the game part after the entry, kept for the phones that ask next
        part = web_system_for(loaded.pack, loaded.row.scenario).game_template
        return shaped(_kept_page(part, loaded, token, _reads(loaded, token, access.seat)), "Cookie")
    context = _view(loaded, token, error=problem, draft=request.form, seat=access.seat)
    template = context["game_partial"] if fragment else "game.html"
    response = make_response(render_template(template, **context), status)
    return refused(shaped(response, "Cookie"), problem)


def recorder_of(game_id: str, refusal: str) -> tuple[GameRow, str | None, games.Access]:
    """``access_of`` for a form that changes the game: 404 when there is no such game, 403
    with ``refusal`` (only its players can do this) when this phone has not joined it."""
    row, token, access = access_of(game_id)
    if row is None:
        abort(404, description=say("There is no such game. Check the link, or start a new game."))
    if not access.may_record:
        abort(403, description=refusal)
    return row, token, access


@bp.post("/games/<game_id>/armies")
def attach(game_id: str) -> Any:
    """A player fields a stored roster: the score sheet then knows their army."""
    row, token, access = recorder_of(
        game_id, say("Only this game's players can attach rosters: open the join link first.")
    )
    player = request.form.get("player", "")
    if not access.may_field(number(player)):
        abort(
            403,
            description=say(
                "A seat's phone attaches its own player's roster only: the others attach theirs."
            ),
        )
    problem = games_service().attach_roster(game_id, number(player), request.form.get("roster"))
    fragment = wants_fragment()
    if problem is None and not fragment:
        return redirect(url_for("games.show", game_id=game_id), code=303)
    loaded = loaded_game(game_id, row)
    message = in_player_words(loaded, problem.message) if problem else None
    context = _view(loaded, token, error=message, seat=access.seat)
    if problem is None:
        # The tap is answered in one line, where the army now shows.
        army = context["armies"].get(number(player)) or {}
        name = context["game"].setup.players[number(player)].name
        roster = army.get("name")
        context["attached"] = (
            say("{name}'s army: {roster}, attached.", name=name, roster=roster)
            if roster
            else say("{name}'s army is attached.", name=name)
        )
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
