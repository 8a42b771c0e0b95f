"""Army builder screens: rosters, their entries, live checks, exports and sharing."""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

from flask import Blueprint, Response, abort, make_response, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict

from app.rules import army, matching
from app.rules import catalogue as catalogue_rules
from app.rules.lists import FORMAT_NAMES
from app.rules.pack import Pack
from app.rules.problems import Problem
from app.rules.speech import say, say_plural
from app.rules.text import clean_text
from app.services import list_import, rosters
from app.web import phone
from app.web.forms import whole
from app.web.games import edit_token
from app.web.limits import limited
from app.web.pages import refused, reload_at, shaped, wants_fragment
from app.web.prints import chosen_paper as paper
from app.web.prints import sheet_pdf
from app.web.responses import no_store, private_page, qr_response
from app.web.services import games_service, packs, store

bp = Blueprint("rosters", __name__)
bp.after_request(phone.keep)

COOKIE_DAYS = 365
# A phone knows its rosters by the cookies it holds, all under /rosters: the edit token of each
# roster it made or was given the edit link of and the ids of those it opened read-only; the units
# it types are remembered under its phone id (app/web/phone.py, shared with the terrain screens).
ROSTER_COOKIE = "muster_roster_"
SEEN_COOKIE = "muster_rosters_seen"
SEEN_KEPT = 30
REMEMBERED_SHOWN = 40
# The builder's unit search: what may be typed, and how many units one answer lists.
MAX_QUERY = 60
MAX_PICKS = 150
_ID = re.compile(r"[A-Za-z0-9_-]{16,48}")


def _cookie(roster_id: str) -> str:
    return f"{ROSTER_COOKIE}{roster_id}"


def _keep(response: Any, name: str, value: str) -> Any:
    response.set_cookie(
        name,
        value,
        max_age=COOKIE_DAYS * 24 * 3600,
        path=url_for("rosters.index"),
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )
    return response


def _token(roster_id: str) -> str | None:
    token = request.cookies.get(_cookie(roster_id))
    return token if store().rosters.token_ok(roster_id, token) else None


def _with_token(response: Any, roster_id: str, token: str) -> Any:
    return _keep(response, _cookie(roster_id), token)


def _seen() -> list[str]:
    return [i for i in request.cookies.get(SEEN_COOKIE, "").split(".") if _ID.fullmatch(i)][:SEEN_KEPT]


def _builders() -> list[Pack]:
    return sorted((p for p in packs().values() if p.army is not None), key=lambda p: p.name)


def _loaded(roster_id: str) -> rosters.LoadedRoster:
    loaded = rosters.load(store(), packs(), roster_id)
    if loaded is None:
        abort(404, description=say("There is no such roster. Check the link, or build a new one."))
    return loaded


# --- list and new ---------------------------------------------------------------------------
def _listed(rows: list[Any]) -> list[rosters.LoadedRoster]:
    loaded = (rosters.load(store(), packs(), row.id) for row in rows)
    return [r for r in loaded if r is not None]


@bp.get("/rosters")
def index() -> Any:
    """This phone's rosters (it holds their edit tokens) and those shared with it to read."""
    tokens = {
        name.removeprefix(ROSTER_COOKIE): value
        for name, value in request.cookies.items()
        if name.startswith(ROSTER_COOKIE) and _ID.fullmatch(name.removeprefix(ROSTER_COOKIE))
    }
    own = store().rosters.by_ids(list(tokens), tokens)
    mine = {r.id for r in own}
    shared = [r for r in store().rosters.by_ids(_seen()) if r.id not in mine]
    response = make_response(
        render_template("rosters.html", own=_listed(own), shared=_listed(shared), builders=_builders())
    )
    # The list holds no token, so a phone may keep it offline; it is this phone's, though.
    response.headers["Cache-Control"] = "private, no-cache"
    response.headers["Vary"] = "Cookie"
    return response


@bp.get("/rosters/new")
def new() -> Any:
    builders = _builders()
    if not builders:
        abort(404, description=say("No installed rulepack builds armies."))
    pack = packs().get(request.args.get("pack", "")) or builders[-1]
    if pack.army is None:
        pack = builders[-1]
    # A refused form's reload comes back here with what was typed (see create).
    return render_template(
        "roster_new.html",
        pack=pack,
        army=army.rules_for(pack),
        builders=builders,
        form=request.args,
        error=None,
        limits=_limits(),
    )


def _limits() -> dict[str, int]:
    return {"name": army.MAX_NAME, "notes": army.MAX_NOTES, "entries": army.MAX_ENTRIES}


def _typed(form: MultiDict[str, str], field: str, notes: bool = False) -> tuple[str, str | None]:
    """A name or notes field as typed, cleaned, and why it is too long (one sentence) if it is."""
    value = clean_text(form.get(field, ""), notes=notes)
    top = army.MAX_NOTES if notes else army.MAX_NAME
    if len(value) > top:
        return value, say(
            "{field} must be at most {top} characters; it has {count}.",
            field=field,
            top=top,
            count=len(value),
        )
    return value, None


def _details(pack: Pack, form: MultiDict[str, str]) -> tuple[dict[str, Any], str | None]:
    name, problem = _typed(form, "name")
    details: dict[str, Any] = {"name": name or None}
    if problem:
        return details, problem
    raw = form.get("points_limit", "").strip() or form.get("points_preset", "").strip()
    if not raw and pack.army and pack.army.default_points:
        raw = str(pack.army.default_points)
    points = whole(raw)
    if points is None or points <= 0:
        return details, "points_limit must be a whole number of points, such as 2000."
    details["points_limit"] = points
    fields = ["player", "faction", "faction_other"]
    rules = army.rules_for(pack)
    if rules is not None and rules.screen.subfaction:
        fields.append("subfaction")
    for field in fields:
        value, problem = _typed(form, field)
        if problem:
            return details, problem
        details[field] = value or None
    # An army the catalogue does not list is typed instead of picked.
    other = details.pop("faction_other")
    details["faction"] = other or details["faction"]
    if pack.grand_strategies:
        details["grand_strategy"] = form.get("grand_strategy") or None
    return details, None


@bp.post("/rosters")
@limited("rosters")
def create() -> Any:
    pack = packs().get(request.form.get("pack", ""))
    if pack is None or pack.army is None:
        abort(400, description=say("pack must be a rulepack that builds armies."))
    details, problem = _details(pack, request.form)
    made: tuple[str, str] | Problem = (
        Problem.refusal(problem)
        if problem
        else rosters.create(
            store(), packs(), {"pack": pack.id, **details, "entries": []}, phone.current_hash()
        )
    )
    if isinstance(made, Problem):
        html = render_template(
            "roster_new.html",
            pack=pack,
            army=army.rules_for(pack),
            builders=_builders(),
            form=request.form,
            error=made.message,
            limits=_limits(),
        )
        typed = {k: v for k, v in request.form.items() if k != "csrf_token" and v and len(v) <= 200}
        return reload_at(refused(make_response(html, 422), made.message), url_for("rosters.new", **typed))
    return _opened(*made)


@bp.post("/rosters/import")
@limited("imports")
def import_roster() -> Any:
    upload = request.files.get("file")
    text = (
        upload.read().decode("utf-8", "replace")
        if upload and upload.filename
        else request.form.get("json", "")
    )
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    made = (
        rosters.create(store(), packs(), data, phone.current_hash())
        if data is not None
        else Problem.refusal(say("The file must be a roster exported from Muster as JSON."))
    )
    if isinstance(made, Problem):
        builders = _builders()
        html = render_template(
            "roster_new.html",
            pack=builders[-1],
            army=army.rules_for(builders[-1]),
            builders=builders,
            form=MultiDict(),
            error=made.message,
            limits=_limits(),
        )
        # The refusal is the new-roster form's: a reload opens that form (the file is chosen again).
        return reload_at(refused(make_response(html, 422), made.message), url_for("rosters.new"))
    return _opened(*made)


# --- import a list from another tool ------------------------------------------------------------
def _import_pack() -> Pack:
    builders = list_import.builders(packs())
    if not builders:
        abort(404, description=say("No installed rulepack builds armies."))
    wanted = request.values.get("pack", "")
    return packs().get(wanted) or next((p for p in builders if p.id == "aos-ghb-2021"), builders[0])


def _fixed_text(form: MultiDict[str, str]) -> str:
    """The pasted text with each unread line as the player fixed it, and dropped ones gone."""
    lines = form.get("text", "").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept = []
    for number, line in enumerate(lines, start=1):
        if form.get(f"drop_{number}"):
            continue
        fixed = form.get(f"fix_{number}")
        kept.append(line if fixed is None else fixed)
    return "\n".join(kept)


def _import_input(form: MultiDict[str, str]) -> tuple[str, bytes | str]:
    """What to read: a new upload, a zipped upload carried from the last preview, or the text."""
    upload = request.files.get("file")
    if upload and upload.filename:
        data = upload.read()
        if data[:4] == b"PK\x03\x04":
            return base64.b64encode(data).decode("ascii"), data
        return "", data
    carried = form.get("upload", "")
    if carried:
        try:
            return carried, base64.b64decode(carried, validate=True)
        except (binascii.Error, ValueError):
            abort(
                400,
                description=say("upload must be the file the last preview carried; choose the file again."),
            )
    return "", _fixed_text(form)


def _import_page(pack: Pack, code: int = 200, **context: Any) -> Any:
    values = {
        "pack": pack,
        "army": army.rules_for(pack),
        "builders": list_import.builders(packs()),
        "text": "",
        "upload": "",
        "preview": None,
        "error": None,
        "game": request.values.get("game", ""),
        "player": request.values.get("player", ""),
        "owner": "",
        "choices": {},
        **context,
    }
    response = make_response(render_template("roster_import.html", **values), code)
    return private_page(refused(response, values["error"]))


@bp.get("/rosters/import")
def import_list() -> Any:
    """Paste or upload a list made in another app; nothing is stored until it is saved."""
    return _import_page(_import_pack())


# A list sent to be read is kept as a draft and shown at its own address (post, redirect, get):
# reloading the preview, or a phone restoring the tab after the player copied a line from the
# other app, shows the pasted list and its fixes again.
def _posted_draft(pack: Pack) -> dict[str, Any]:
    """What this POST sent to be read: the pack, the list (text, file or carried file), the seat."""
    carried, data = _import_input(request.form)
    return {
        "pack": pack.id,
        "game": request.form.get("game", ""),
        "player": request.form.get("player", ""),
        "owner": clean_text(request.form.get("owner", ""))[: army.MAX_NAME].strip(),
        "choices": _choices(request.form),
        "upload": carried,
        "file": base64.b64encode(data).decode("ascii") if isinstance(data, bytes) and not carried else "",
        "text": data if isinstance(data, str) else "",
    }


def _choices(form: MultiDict[str, str]) -> dict[str, str]:
    """The player's answer for each unread line: ``as_<line>`` is unit, battalion, enhancement,
    note, drop, or ``unit:<a catalogue name>``."""
    out = {}
    for key, value in form.items():
        number = whole(key.removeprefix("as_")) if key.startswith("as_") else None
        what = value.partition(":")[0]
        if number is not None and what in matching.CHOICES and len(value) <= 80 and len(out) < 200:
            out[str(number)] = value
    return out


def _draft_input(draft: dict[str, Any]) -> tuple[bytes | str, str]:
    """The list a draft reads, and the text the form shows for it."""
    if draft.get("upload"):
        return base64.b64decode(draft["upload"]), ""
    if draft.get("file"):
        data = base64.b64decode(draft["file"])
        return data, _shown_text(data)
    return str(draft.get("text", "")), str(draft.get("text", ""))


def _read_draft(pack: Pack, draft: dict[str, Any]) -> dict[str, Any] | Problem:
    """Read the draft's list: the work the imports limit counts, so only counted views call it."""
    data, _text = _draft_input(draft)
    remembered = store().rosters.custom_units(pack.id, phone.current_hash())
    choices = {int(k): v for k, v in (draft.get("choices") or {}).items() if str(k).isdigit()}
    return list_import.preview(
        packs(), pack.id, data, remembered, choices, draft.get("owner") or _seat_name(draft) or None
    )


def _seat_name(draft: dict[str, Any]) -> str | None:
    """The name of the player whose seat the list is imported for, when the game says."""
    game = store().games.get(str(draft.get("game") or "")) if draft.get("game") else None
    seat = whole(str(draft.get("player", "")))
    players = game.players if game is not None else []
    if seat is None or not 0 <= seat < len(players):
        return None
    name = players[seat].get("name") if isinstance(players[seat], dict) else None
    return str(name) if name else None


def _to_draft(draft: dict[str, Any], made: dict[str, Any] | Problem, error: str | None = None) -> Any:
    """Keep the draft, what reading it made and the sentence to show with it, and send the phone to
    its page. The page shows the kept reading: a reload reads nothing again, so it costs no import."""
    read = {"problem": made.message} if isinstance(made, Problem) else {"made": made}
    draft_id = store().drafts.keep("import", {**draft, **read, "error": error})
    return redirect(url_for("rosters.import_draft", draft_id=draft_id), code=303)


def _shown_text(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", "replace")


@bp.post("/rosters/import/preview")
@limited("imports")
def import_preview() -> Any:
    """Read the list (nothing saved) and show the preview at the draft's own address."""
    pack = _import_pack()
    draft = _posted_draft(pack)
    return _to_draft(draft, _read_draft(pack, draft))


@bp.get("/rosters/import/drafts/<draft_id>")
def import_draft(draft_id: str) -> Any:
    """The roster a kept list makes, its verdict and every line it could not read: nothing saved."""
    draft = store().drafts.get("import", draft_id)
    if draft is None:
        return _import_page(
            _import_pack(),
            404,
            error=say(
                "This list is no longer kept here (a list waits a day at most): paste it or choose its file again."
            ),
        )
    pack = packs().get(draft.get("pack", "")) or _import_pack()
    seat = {"game": draft.get("game", ""), "player": draft.get("player", "")}
    _data, text = _draft_input(draft)
    upload = draft.get("upload", "")
    made = draft.get("made")
    seat["owner"] = draft.get("owner", "")
    seat["choices"] = draft.get("choices") or {}
    if made is None:
        return _import_page(pack, 422, text=text, upload=upload, error=draft.get("problem", ""), **seat)
    error = draft.get("error")
    return _import_page(
        pack,
        422 if error else 200,
        text=text,
        upload=upload,
        preview=made,
        format_name=_format_name(made),
        error=error,
        **seat,
    )


def _format_name(made: dict[str, Any]) -> str:
    return FORMAT_NAMES.get(made["format"], made["format"])


@bp.post("/rosters/import/save")
@limited("imports")
@limited("rosters")
def import_save() -> Any:
    """Store the previewed roster."""
    return _save_import(None)


# Under the game's own path, so that the game's edit cookie (kept for /games/<id>) comes along.
@bp.post("/games/<game_id>/armies/import")
@limited("imports")
@limited("rosters")
def import_save_for_game(game_id: str) -> Any:
    """Store the previewed roster and field it in a seat of the game, in one tap."""
    if store().games.get(game_id) is None:
        abort(404, description=say("There is no such game."))
    if edit_token(game_id) is None:
        abort(
            403,
            description=say("Only this game's players can field a roster in it: open the join link first."),
        )
    return _save_import(game_id)


def _save_import(game_id: str | None) -> Any:
    """Save the roster the list makes; when it cannot be saved yet, back to the draft's page."""
    pack = _import_pack()
    draft = _posted_draft(pack)
    made = _read_draft(pack, draft)
    if isinstance(made, Problem):
        return _to_draft(draft, made)  # its page says why the list cannot be read
    # A roster file's lines cannot be edited here, only dropped; a text's dropped lines are gone.
    carried = draft["upload"]
    unread = [u for u in made["unread"] if not (carried and request.form.get(f"drop_{u['line']}"))]
    if unread:
        first = unread[0]
        return _to_draft(
            draft,
            made,
            say_plural(
                "Line {line} is still unread: say what it is (a unit, a note, ...) or drop it; {count} line left.",
                "Line {line} is still unread: say what it is (a unit, a note, ...) or drop it; {count} lines left.",
                len(unread),
                line=first["line"],
            ),
        )
    player = whole(request.form.get("player", ""))
    if game_id is not None and player is None:
        return _to_draft(draft, made, say("Choose the player whose army this is, from the game's Armies."))
    saved = rosters.create(store(), packs(), made["roster"], phone.current_hash())
    if isinstance(saved, Problem):
        return _to_draft(draft, made, saved.message)
    roster_id, token = saved
    target = url_for("rosters.show", roster_id=roster_id)
    if game_id is not None:
        problem = games_service().attach_roster(game_id, player, roster_id)
        if problem:
            # The roster is saved all the same: it is on the phone's list to attach by hand.
            error = say(
                "{problem} The roster is saved: attach it from the game's Armies.", problem=problem.message
            )
            return no_store(_with_token(_to_draft(draft, made, error), roster_id, token))
        target = url_for("games.show", game_id=game_id)
    return no_store(_with_token(redirect(target, code=303), roster_id, token))


def _opened(roster_id: str, token: str) -> Any:
    """A roster just made: on to its page, with its edit token kept on this phone."""
    return no_store(
        _with_token(redirect(url_for("rosters.show", roster_id=roster_id), code=303), roster_id, token)
    )


# --- the builder ------------------------------------------------------------------------------
def _view(loaded: rosters.LoadedRoster, token: str | None, **extra: Any) -> dict[str, Any]:
    pack = loaded.pack
    return {
        "loaded": loaded,
        "pack": pack,
        "body": loaded.row.body,
        "verdict": loaded.verdict,
        "can_edit": token is not None,
        "army": army.rules_for(pack),
        "limit": pack.limit(loaded.verdict.points_limit),
        "remembered": store().rosters.custom_units(pack.id, phone.current_hash(), REMEMBERED_SHOWN)
        if token
        else [],
        "limits": _limits(),
        "catalogue": [u.model_dump(exclude_none=True) for u in pack.units] if token else [],
        "factions": pack.unit_catalogue.factions if pack.unit_catalogue else [],
        "picker": _picker(loaded, request.args.get("q", "")) if token else None,
        "steps": _steps(loaded),
        "editing": None,
        "draft": None,
        "error": None,
        **extra,
    }


def _catalogue_unit(loaded: rosters.LoadedRoster, entry: dict[str, Any]) -> Any:
    """The catalogue's unit an entry is, in the roster's faction first; ``None`` for a custom unit."""
    catalogue = loaded.pack.unit_catalogue
    if catalogue is None:
        return None
    faction = entry.get("faction") or loaded.row.body.get("faction")
    return catalogue.find(str(entry.get("name", "")), faction)


def _picker(loaded: rosters.LoadedRoster, query: str) -> dict[str, Any] | None:
    """The units the builder offers to add: the faction's, grouped, narrowed by what is typed."""
    pack = loaded.pack
    catalogue = pack.unit_catalogue
    rules = army.rules_for(pack)
    if catalogue is None or rules is None:
        return None
    query = query.strip()[:MAX_QUERY]
    faction = catalogue.faction(loaded.row.body.get("faction"))
    if faction is None and len(query) < 2:
        # Every faction's units at once is a thousand buttons: the player types a name first.
        return {"faction": None, "query": query, "groups": [], "count": 0}
    units = catalogue_rules.search(list(faction.units) if faction else catalogue.units(), query)
    shown = units[:MAX_PICKS]
    body = loaded.row.body
    general = next((e.get("name") for e in body.get("entries", []) if e.get("general")), None)
    army_has = {str(e.get("name", "")).casefold() for e in body.get("entries", [])}
    if body.get("subfaction"):
        army_has.add(str(body["subfaction"]).casefold())
    battleline = {u.name for u in shown if u.battleline_with(general, army_has)}
    allied = catalogue.allies_of(faction.id) if faction and rules.ally_entry else []
    # Allied factions field hundreds of units: theirs are listed once the player types a name.
    allies = (
        [(f, catalogue_rules.search(list(f.units), query)[:MAX_PICKS]) for f in allied]
        if len(query) >= 2
        else []
    )
    return {
        "faction": faction,
        "query": query,
        "groups": catalogue_rules.grouped(shown, rules.groups, battleline),
        "count": len(units),
        "cut": len(units) > len(shown),
        "allied": allied,
        "allies": [(f, found) for f, found in allies if found],
    }


def _steps(loaded: rosters.LoadedRoster) -> dict[str, dict[str, bool]]:
    """For each entry of a catalogue unit that changes size, whether it can grow and shrink."""
    rules = army.rules_for(loaded.pack)
    out = {}
    for entry in loaded.entries:
        unit = _catalogue_unit(loaded, entry)
        if unit is None or rules is None:
            continue
        bigger, smaller = rules.resized(unit, entry, 1), rules.resized(unit, entry, -1)
        if bigger or smaller:
            out[str(entry.get("uid"))] = {"bigger": bigger is not None, "smaller": smaller is not None}
    return out


@bp.get("/rosters/<roster_id>/units")
def units(roster_id: str) -> Any:
    """The builder's unit list for what is typed (htmx swaps it in as the player types)."""
    loaded = _loaded(roster_id)
    token = _token(roster_id)
    if not wants_fragment():
        return redirect(url_for("rosters.show", roster_id=roster_id, q=request.args.get("q", "")), code=303)
    html = render_template(
        "partials/_unit_picker.html",
        loaded=loaded,
        picker=_picker(loaded, request.args.get("q", "")) if token else None,
        pack=loaded.pack,
        army=army.rules_for(loaded.pack),
    )
    return private_page(shaped(make_response(html)))


def _render(loaded: rosters.LoadedRoster, token: str | None, code: int = 200, **extra: Any) -> Any:
    fragment = wants_fragment()
    template = "partials/_roster.html" if fragment else "roster.html"
    context = _view(loaded, token, **extra)
    if not fragment and token:
        context["edit_url"] = url_for("rosters.join", roster_id=loaded.row.id, token=token, _external=True)
    response = make_response(render_template(template, **context), code)
    return private_page(refused(shaped(response, "Cookie"), extra.get("error")))


@bp.get("/rosters/<roster_id>")
def show(roster_id: str) -> Any:
    loaded = _loaded(roster_id)
    token = _token(roster_id)
    response = _render(loaded, token)
    if token:
        # Also moves a token kept under the roster's own path (before the list read them) to
        # /rosters, where the list of this phone's rosters finds it.
        return _with_token(response, roster_id, token)
    seen = [roster_id, *(i for i in _seen() if i != roster_id)][:SEEN_KEPT]
    return _keep(response, SEEN_COOKIE, ".".join(seen))


@bp.get("/rosters/<roster_id>/share.svg")
def share_qr(roster_id: str) -> Any:
    """The QR code of the roster's read-only link."""
    if store().rosters.get(roster_id) is None:
        abort(404, description=say("There is no such roster."))
    return qr_response(url_for("rosters.show", roster_id=roster_id, _external=True))


@bp.get("/rosters/<roster_id>/edit/<token>")
def join(roster_id: str, token: str) -> Any:
    _loaded(roster_id)
    if not store().rosters.token_ok(roster_id, token):
        abort(403, description=say("This edit link is not valid for the roster."))
    return no_store(
        _with_token(redirect(url_for("rosters.show", roster_id=roster_id), code=303), roster_id, token)
    )


def _editor(roster_id: str) -> str:
    token = _token(roster_id)
    if token is None:
        abort(403, description=say("Only the roster's owner can change it: open its edit link first."))
    return token


def _version() -> int | None:
    raw = request.form.get("version", "")
    return whole(raw)


def _save(
    roster_id: str, edit: Any, draft: MultiDict[str, str] | None = None, editing: str | None = None
) -> Any:
    token = _editor(roster_id)
    problem = rosters.change(store(), packs(), roster_id, edit, _version(), phone.current_hash())
    if problem is None and not wants_fragment():
        return redirect(url_for("rosters.show", roster_id=roster_id), code=303)
    loaded = _loaded(roster_id)
    if problem:
        code = 409 if problem.conflict else 422
        return _render(loaded, token, code, error=problem.message, draft=draft, editing=editing)
    return _render(loaded, token)


@bp.post("/rosters/<roster_id>/details")
def details(roster_id: str) -> Any:
    loaded = _loaded(roster_id)
    new_details, problem = _details(loaded.pack, request.form)
    if problem:
        return _render(loaded, _editor(roster_id), 422, error=problem)
    return _save(roster_id, rosters.set_details(new_details))


def _add_ally(loaded: rosters.LoadedRoster, roster_id: str, pick: str, ally_of: str) -> Any:
    """A tap on an allied faction's unit: it joins flagged as an ally, with its faction. Whether
    the army may take that faction's units is the roster check's answer, not this view's."""
    rules = army.rules_for(loaded.pack)
    catalogue = loaded.pack.unit_catalogue
    faction = catalogue.faction(ally_of) if catalogue else None
    if rules is None or rules.ally_entry is None or faction is None:
        return _render(
            loaded, _editor(roster_id), 422, error=say("ally_of must be a faction of the catalogue.")
        )
    key = " ".join(pick.casefold().split())
    unit = next((u for u in faction.units if u.name.casefold() == key), None)
    if unit is None:
        return _render(
            loaded,
            _editor(roster_id),
            422,
            error=say("pick must be a unit of {faction}.", faction=faction.name),
        )
    return _save(roster_id, rosters.add_entry(rules.ally_entry(unit, faction.name)))


@bp.post("/rosters/<roster_id>/entries")
def add(roster_id: str) -> Any:
    loaded = _loaded(roster_id)
    if request.form.get("pick"):
        # A tap on a catalogue unit: it joins at its smallest size, with its points, keywords, role.
        rules = army.rules_for(loaded.pack)
        if request.form.get("ally_of"):
            return _add_ally(loaded, roster_id, request.form["pick"], request.form["ally_of"])
        unit = _catalogue_unit(loaded, {"name": request.form["pick"]})
        if unit is None or rules is None:
            return _render(
                loaded, _editor(roster_id), 422, error=say("pick must be a unit of the catalogue.")
            )
        return _save(roster_id, rosters.add_entry(rules.catalogue_entry(unit)))
    if request.form.get("unit"):
        try:
            entry = json.loads(request.form["unit"])
        except ValueError:
            abort(400, description=say("unit must be a remembered entry."))
        if not isinstance(entry, dict):
            abort(400, description=say("unit must be a remembered entry."))
        return _save(roster_id, rosters.add_entry(entry))
    entry, problem = form_entry(loaded.pack, request.form)
    if problem:
        return _render(loaded, _editor(roster_id), 422, error=problem, draft=request.form)
    return _save(roster_id, rosters.add_entry(entry), draft=request.form)


@bp.get("/rosters/<roster_id>/entries/<uid>/edit")
def edit_form(roster_id: str, uid: str) -> Any:
    loaded = _loaded(roster_id)
    token = _editor(roster_id)
    entry = next((e for e in loaded.entries if e.get("uid") == uid), None)
    if entry is None:
        abort(404, description=say("That entry is no longer in the roster."))
    return _render(loaded, token, editing=uid, draft=entry_form_values(loaded.pack, entry))


@bp.post("/rosters/<roster_id>/entries/<uid>")
def replace(roster_id: str, uid: str) -> Any:
    loaded = _loaded(roster_id)
    entry, problem = form_entry(loaded.pack, request.form)
    if problem:
        return _render(loaded, _editor(roster_id), 422, error=problem, draft=request.form, editing=uid)
    return _save(roster_id, rosters.replace_entry(uid, entry), draft=request.form, editing=uid)


@bp.post("/rosters/<roster_id>/entries/<uid>/<action>")
def act(roster_id: str, uid: str, action: str) -> Any:
    edits = {
        "duplicate": lambda: rosters.duplicate_entry(uid),
        "up": lambda: rosters.move_entry(uid, -1),
        "down": lambda: rosters.move_entry(uid, 1),
        "remove": lambda: rosters.remove_entry(uid),
    }
    if action in ("bigger", "smaller"):
        return _resize(roster_id, uid, 1 if action == "bigger" else -1)
    if action == "general":
        return _save(roster_id, rosters.make_general(uid))
    if action not in edits:
        abort(404, description=say("action must be duplicate, up, down, remove, bigger, smaller or general."))
    return _save(roster_id, edits[action]())


def _resize(roster_id: str, uid: str, step: int) -> Any:
    """One size step of a catalogue unit's entry: its points and models follow."""
    loaded = _loaded(roster_id)
    entry = next((e for e in loaded.entries if e.get("uid") == uid), None)
    if entry is None:
        abort(404, description=say("That entry is no longer in the roster."))
    unit = _catalogue_unit(loaded, entry)
    rules = army.rules_for(loaded.pack)
    resized = rules.resized(unit, dict(entry), step) if unit is not None and rules is not None else None
    if resized is None:
        name = entry.get("name")
        cannot = (
            say("'{name}' cannot be bigger.", name=name)
            if step > 0
            else say("'{name}' cannot be smaller.", name=name)
        )
        return _render(loaded, _editor(roster_id), 422, error=cannot)
    return _save(roster_id, rosters.replace_entry(uid, resized))


@bp.post("/rosters/<roster_id>/preview")
def preview(roster_id: str) -> Any:
    """The total and problems as they would be with the entry being typed: nothing is saved."""
    loaded = _loaded(roster_id)
    entry, problem = form_entry(loaded.pack, request.form)
    verdict = loaded.verdict
    if problem is None:
        uid = request.form.get("uid")
        edit = rosters.replace_entry(uid, entry) if uid else rosters.add_entry(entry)
        body = edit({**loaded.row.body, "entries": [dict(e) for e in loaded.entries]})
        roster, pack, problem = (
            army.parse_roster(body, packs()) if isinstance(body, dict) else (None, None, body)
        )
        if roster is not None and pack is not None:
            verdict = army.check(pack, roster)
    return render_template(
        "partials/_roster_status.html",
        verdict=verdict,
        pack=loaded.pack,
        preview=True,
        form_problem=problem,
        limit=loaded.pack.limit(verdict.points_limit),
        army=army.rules_for(loaded.pack),
    )


# --- exports ----------------------------------------------------------------------------------
@bp.get("/rosters/<roster_id>/roster.pdf")
@limited("pdfs")
def roster_pdf(roster_id: str) -> Any:
    chosen = paper()
    loaded = _loaded(roster_id)
    context = {
        "loaded": loaded,
        "pack": loaded.pack,
        "body": loaded.row.body,
        "verdict": loaded.verdict,
        "roster": loaded.roster,
        "army": army.rules_for(loaded.pack),
    }
    response = Response(sheet_pdf("roster.html", context, chosen), mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="roster-{roster_id}.pdf"'
    return response


@bp.get("/rosters/<roster_id>/roster.txt")
def roster_text(roster_id: str) -> Any:
    loaded = _loaded(roster_id)
    text = army.plain_text(loaded.pack, loaded.roster, loaded.verdict)
    return Response(text, mimetype="text/plain; charset=utf-8")


@bp.get("/rosters/<roster_id>/roster.json")
def roster_json(roster_id: str) -> Any:
    loaded = _loaded(roster_id)
    response = Response(json.dumps(rosters.export(loaded), indent=2), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="roster-{roster_id}.json"'
    return response


# --- forms -> entries -----------------------------------------------------------------------
def _whole(form: MultiDict[str, str], name: str, required: bool = True) -> tuple[int | None, str | None]:
    raw = form.get(name, "").strip()
    if not raw:
        return None, (say("{field}: enter a whole number.", field=name) if required else None)
    number = whole(raw)
    if number is None:
        return None, say("{field} must be a whole number, 0 or more.", field=name)
    return number, None


def form_entry(pack: Pack, form: MultiDict[str, str]) -> tuple[dict[str, Any], str | None]:
    """Turn the entry form into the same entry JSON the API takes."""
    name, problem = _typed(form, "name")
    notes, too_long = _typed(form, "notes", notes=True)
    entry: dict[str, Any] = {"name": name, "notes": notes}
    if not name:
        return entry, "name: give the entry a name."
    if problem or too_long:
        return entry, problem or too_long
    points, problem = _whole(form, "points")
    if problem:
        return entry, problem
    entry["points"] = points
    rules = army.rules_for(pack)
    if rules is None:
        return entry, None

    def number(name: str, required: bool) -> tuple[int | None, str | None]:
        return _whole(form, name, required)

    return entry, rules.read_form(form, number, entry)


def entry_form_values(pack: Pack, entry: dict[str, Any]) -> MultiDict[str, str]:
    """An entry's values as the form shows them (the inverse of :func:`form_entry`)."""
    values: MultiDict[str, str] = MultiDict()
    for key in ("name", "notes", "kind", "type", "size", "command_trait", "faction", "category"):
        if entry.get(key):
            values[key] = str(entry[key])
    for key in ("points", "models"):
        if entry.get(key) is not None:
            values[key] = str(entry[key])
    for role in entry.get("roles", []):
        values.add("roles", role)
    if entry.get("keywords"):
        values["keywords"] = ", ".join(entry["keywords"])
    if entry.get("enhancements"):
        values["enhancements"] = ", ".join(entry["enhancements"])
    for flag in ("single_model", "general", "ally", "coalition"):
        if entry.get(flag):
            values[flag] = "on"
    for group in ("officers", "retinue"):
        for i, member in enumerate(entry.get(group, [])):
            values[f"{group}_name_{i}"] = member["name"]
            values[f"{group}_points_{i}"] = str(member["points"])
    values["uid"] = entry.get("uid", "")
    return values
