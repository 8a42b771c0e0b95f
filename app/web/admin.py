"""The club admin: delete games, archive a night, install and remove rulepacks, download a backup.

Everything here needs the admin password, set by the volunteer in ``MUSTER_ADMIN_PASSWORD``
(or the ``ADMIN_PASSWORD`` config key). Login attempts are counted per address in the
database, so every worker agrees, and a flood of guesses is refused for a while.

A login is a row in the database, named by a random id that the session cookie carries:
every admin request checks the row, so logging out ends every copy of the cookie, a login
ends after 12 hours, and changing the password ends every login made with the old one.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import yaml
from flask import (
    Blueprint,
    abort,
    after_this_request,
    current_app,
    g,
    redirect,
    render_template,
    request,
    send_file,
    session,
    url_for,
)
from flask_babel import format_decimal
from flask_wtf.csrf import generate_csrf

from app.infra import disk, replica
from app.rules import pack_translations, terrain
from app.rules.pack import parse_pack
from app.rules.speech import say, say_plural
from app.services import terrain_library
from app.serving import tls
from app.web.prints import pdf_cache
from app.web.responses import no_store
from app.web.services import pack_errors, packs, store

bp = Blueprint("admin", __name__, url_prefix="/admin")
# Every admin answer (the login, the dashboard, a backup) is kept by no cache: the next user of
# a shared phone or a proxy must not find the club's admin pages there.
bp.after_request(no_store)

MAX_FAILURES = 5
FAILURE_WINDOW = timedelta(minutes=15)
SESSION_HOURS = 12
# A rulepack nests a handful of levels; YAML nested hundreds deep would exhaust Python's
# stack when it is built into objects.
MAX_PACK_DEPTH = 64
PACK_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def _password() -> str | None:
    return current_app.config.get("ADMIN_PASSWORD") or os.environ.get("MUSTER_ADMIN_PASSWORD") or None


def _address() -> str:
    # Behind a proxy named in MUSTER_PROXY this is the phone's address (see ProxyFix in app/__init__.py).
    return request.remote_addr or "unknown"


def admin_password() -> str | None:
    """The admin password, or ``None`` when admin is switched off (for the events API's bearer)."""
    return _password()


def password_given(given: str, password: str) -> bool:
    """Whether ``given`` is the admin password, counted as an attempt from this address first.

    Every way of giving the password (the login form, the events API's bearer) goes through
    here, so they share one lockout. The attempt is counted before the password is compared,
    in one statement: a burst of simultaneous guesses gets exactly MAX_FAILURES compared,
    however they interleave; past them the address gets 429 for FAILURE_WINDOW.
    """
    attempt = store().admin.claim_login_attempt(_address(), _stamp(FAILURE_WINDOW), MAX_FAILURES)
    if attempt is None:
        minutes = int(FAILURE_WINDOW.total_seconds() // 60)
        abort(
            429,
            description=say_plural(
                "Too many wrong passwords from this address; try again in {count} minute.",
                "Too many wrong passwords from this address; try again in {count} minutes.",
                minutes,
            ),
        )
    if not hmac.compare_digest(given.encode(), password.encode()):
        return False
    store().admin.forget_login_attempt(attempt)
    return True


def signed_in() -> bool:
    """Whether this request carries a live admin session (for admin-only choices on other screens)."""
    return _logged_in()


def _stamp(delta: timedelta) -> str:
    return (datetime.now(UTC) - delta).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _password_mark(password: str) -> str:
    """A fingerprint of the password a login was made with: a new password ends old logins."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, password.encode(), hashlib.sha256).hexdigest()


def _logged_in() -> bool:
    """Whether this request carries an admin login that is still open on the server."""
    password, session_id = _password(), session.get("admin")
    if password is None or not isinstance(session_id, str):
        return False
    return store().admin.session_ok(
        session_id, _password_mark(password), _stamp(timedelta(hours=SESSION_HOURS))
    )


def _require_admin() -> None:
    if _password() is None:
        abort(403, description=_switched_off())
    if not _logged_in():
        abort(403, description=say("This needs the admin password: log in at /admin first."))


def _switched_off() -> str:
    return say("Admin is switched off: set {setting} and restart Muster.", setting="MUSTER_ADMIN_PASSWORD")


@bp.get("")
def index() -> Any:
    if not _logged_in():
        return render_template("admin_login.html", enabled=_password() is not None, error=None)
    return _dashboard()


def _dashboard(error: str | None = None, problems: list[str] | None = None, code: int = 200) -> Any:
    rows = store().games.recent(200, archived=True)
    html = render_template(
        "admin.html",
        games=rows,
        packs=sorted(packs().values(), key=lambda p: p.name),
        pack_errors=pack_errors(),
        error=error,
        problems=problems or [],
        total=store().games.count(),
        club_terrain=_club_terrain(),
        disk=disk.usage(current_app.config["DATABASE"], pdf_cache().folder),
        disk_size=_disk_size,
        replication=_replication(),
        how_long=replica.how_long,
        https=_https(),
    )
    return html, code


def _disk_size(size: int) -> str:
    """A byte count in the page's language (12.4 MB, 12,4 MB): one decimal kept, as in English."""
    return disk.readable(
        size, written=lambda n: format_decimal(n, "#,##0.0" if isinstance(n, float) else "#,##0")
    )


def _https() -> dict[str, Any]:
    """The HTTPS card: whether it is on, the certificate's name and end, the address phones open."""
    cert, key = current_app.config.get("TLS_CERT") or "", current_app.config.get("TLS_KEY") or ""
    if not cert:
        return {"on": False, "address": request.host_url.rstrip("/")}
    served = tls.status_of(cert, key)
    if isinstance(served, str):
        return {"on": True, "problem": served, "address": None}
    return {
        "on": True,
        "problem": None,
        "certificate": served,
        "days_left": served.days_left(),
        "ends_soon": served.ends_soon(),
        "address": tls.address_of(current_app.config),
    }


def _replication() -> replica.ReplicaStatus | str | None:
    """Litestream's state for the admin page: ``None`` when MUSTER_REPLICA is unset, a sentence
    when the setting is wrong."""
    try:
        url = replica.replica_url(current_app.config.get("REPLICA") or os.environ.get("MUSTER_REPLICA"))
    except replica.ReplicaError as exc:
        return str(exc)
    if url is None:
        return None
    return replica.status(current_app.config["DATABASE"], url)


@bp.post("/login")
def login() -> Any:
    password = _password()
    if password is None:
        abort(403, description=_switched_off())
    if not password_given(request.form.get("password", ""), password):
        return render_template(
            "admin_login.html", enabled=True, error=say("That is not the admin password.")
        ), 403
    store().admin.end_sessions(before=_stamp(timedelta(hours=SESSION_HOURS)))  # old logins tidied away
    session_id = secrets.token_urlsafe(32)
    store().admin.start_session(session_id, _password_mark(password))
    session.clear()
    session["admin"] = session_id
    _new_form_key()
    return redirect(url_for("admin.index"), code=303)


@bp.post("/logout")
def logout() -> Any:
    """End this login on the server: a copy of the cookie taken before is worth nothing after."""
    session_id = session.get("admin")
    if isinstance(session_id, str):
        store().admin.end_sessions(session_id)
    session.clear()
    _new_form_key()
    return redirect(url_for("home.index"), code=303)


def _new_form_key() -> None:
    """Give the cleared session its new CSRF key in this answer's cookie.

    Otherwise the pages the browser asks for next, several at the same moment (the page it is
    sent to, the service worker's copies), each made a key of their own; the cookie that
    arrived last kept one, and the forms of the other pages were refused as expired.
    """
    g.pop(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"), None)
    generate_csrf()


@bp.post("/games/<game_id>/delete")
def delete_game(game_id: str) -> Any:
    _require_admin()
    if not store().games.delete(game_id):
        abort(404, description=say("There is no such game."))
    return redirect(url_for("admin.index"), code=303)


@bp.post("/archive")
def archive() -> Any:
    """End club night: every game so far leaves the home screen (their links still work)."""
    _require_admin()
    store().games.archive()
    return redirect(url_for("admin.index"), code=303)


@bp.post("/packs")
def install_pack() -> Any:
    """Install (or replace) a rulepack from an uploaded YAML file, if it validates."""
    _require_admin()
    upload = request.files.get("pack")
    if upload is None or not upload.filename:
        return _dashboard(error=say("pack: choose a rulepack YAML file to upload."), code=422)
    raw = upload.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return _dashboard(error=say("pack: the file is not UTF-8 text."), code=422)
    if _nesting(text) > MAX_PACK_DEPTH:
        return _dashboard(
            error=say(
                "pack: the YAML nests more than {levels} levels deep; a rulepack nests a handful.",
                levels=MAX_PACK_DEPTH,
            ),
            code=422,
        )
    pack, errors = parse_pack(text, "upload.yaml")
    if pack is None:
        return _dashboard(error=say("The rulepack is refused:"), problems=[str(e) for e in errors], code=422)
    if not PACK_ID.match(pack.id):  # the models check it too; the file name depends on it
        return _dashboard(error=say("id must be lowercase words joined by hyphens."), code=422)
    folder = Path(current_app.config["RULEPACKS"])
    # Written next to the others under its own id, then moved in one step.
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, suffix=".tmp", delete=False) as out:
        out.write(text)
    os.replace(out.name, folder / f"{pack.id}.yaml")
    _look_again()
    return redirect(url_for("admin.index"), code=303)


@bp.post("/packs/<pack_id>/remove")
def remove_pack(pack_id: str) -> Any:
    _require_admin()
    if pack_id not in packs() or not PACK_ID.match(pack_id):
        abort(404, description=say("There is no such rulepack installed."))
    folder = Path(current_app.config["RULEPACKS"])
    path = folder / f"{pack_id}.yaml"
    if path.is_file():
        path.unlink()
    # Its translations go with it (app/rules/pack_translations.py: <pack id>.<language>.yaml).
    for translation in (folder / pack_translations.FOLDER).glob(f"{pack_id}.*.yaml"):
        translation.unlink()
    _look_again()
    return redirect(url_for("admin.index"), code=303)


def _nesting(text: str) -> int:
    """How deep the YAML's lists and mappings nest, read as a stream of events.

    The event parser keeps its own stack instead of recursing, so it measures a file nested
    thousands deep that would overflow Python's stack when built into objects. A file that
    is not YAML counts as flat here: the pack parser names its error.
    """
    depth = deepest = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                deepest = max(deepest, depth)
                if deepest > MAX_PACK_DEPTH:
                    break
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        pass
    return deepest


def _look_again() -> None:
    """This worker reads the rulepacks folder on its next request (the others within a second)."""
    current_app.extensions["muster.pack_checked"] = 0.0


@bp.get("/backup.sqlite")
def backup() -> Any:
    """A copy of the whole database, made with SQLite's online backup while Muster runs."""
    _require_admin()
    handle, name = tempfile.mkstemp(suffix=".sqlite")
    os.close(handle)
    store().backups.backup(name)

    @after_this_request
    def _remove(response: Any) -> Any:
        Path(name).unlink(missing_ok=True)
        return response

    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M")
    return send_file(
        name,
        mimetype="application/vnd.sqlite3",
        as_attachment=True,
        download_name=f"muster-backup-{stamp}.sqlite",
    )


# --- club-wide terrain --------------------------------------------------------------------
def _club_terrain() -> list[dict[str, Any]]:
    """Each pack with terrain rules, with the club's presets and saved sets for it."""
    return [
        {
            "pack": p,
            "rules": terrain.rules_for(p),
            "presets": terrain_library.club_presets(store(), p),
            "sets": terrain_library.club_sets(store(), p),
        }
        for p in sorted(packs().values(), key=lambda p: p.name)
        if p.terrain is not None
    ]


def _terrain_pack(pack_id: str) -> Any:
    pack = packs().get(pack_id)
    if pack is None or pack.terrain is None:
        abort(404, description=say("There is no such rulepack with terrain rules installed."))
    return pack


@bp.post("/terrain/<pack_id>/presets")
def add_club_preset(pack_id: str) -> Any:
    """Add (or replace, by name) a club-wide terrain preset: every terrain page offers it."""
    from app.web.terrain import form_piece

    _require_admin()
    pack = _terrain_pack(pack_id)
    form = request.form.copy()
    form.setlist("keywords", [k.strip().lower() for k in form.get("keywords", "").split(",") if k.strip()])
    piece, problem = form_piece(pack, form)
    refused = terrain_library.save_club_preset(store(), pack, piece) if problem is None else None
    if problem or refused:
        return _dashboard(error=problem or (refused.message if refused else None), code=422)
    return redirect(url_for("admin.index", _anchor="terrain-h"), code=303)


@bp.post("/terrain/<pack_id>/presets/remove")
def remove_club_preset(pack_id: str) -> Any:
    _require_admin()
    pack = _terrain_pack(pack_id)
    if not terrain_library.remove_club_preset(store(), pack, request.form.get("name", "")):
        abort(404, description=say("The club has no preset of that name for this rulepack."))
    return redirect(url_for("admin.index", _anchor="terrain-h"), code=303)


@bp.post("/terrain/<pack_id>/sets/<set_id>/remove")
def remove_club_set(pack_id: str, set_id: str) -> Any:
    _require_admin()
    pack = _terrain_pack(pack_id)
    if not terrain_library.remove_club_set(store(), pack, set_id):
        abort(404, description=say("The club has no such saved terrain set."))
    return redirect(url_for("admin.index", _anchor="terrain-h"), code=303)
