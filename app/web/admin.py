"""The club admin: delete games, archive a night, install and remove rulepacks, download a backup.

Everything here needs the admin password, set by the volunteer in ``MUSTER_ADMIN_PASSWORD``
(or the ``ADMIN_PASSWORD`` config key). Failed logins are counted per address in the database,
so every worker agrees, and a flood of guesses is refused for a while.
"""

from __future__ import annotations

import hmac
import os
import re
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    abort,
    after_this_request,
    current_app,
    redirect,
    render_template,
    request,
    send_file,
    session,
    url_for,
)

from app import disk
from app.rules.pack import parse_pack
from app.web import pack_errors, packs, store
from app.web.prints import pdf_cache

bp = Blueprint("admin", __name__, url_prefix="/admin")

MAX_FAILURES = 5
FAILURE_WINDOW = timedelta(minutes=15)
PACK_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def _password() -> str | None:
    return current_app.config.get("ADMIN_PASSWORD") or os.environ.get("MUSTER_ADMIN_PASSWORD") or None


def _address() -> str:
    return request.remote_addr or "unknown"


def _require_admin() -> None:
    if _password() is None:
        abort(403, description="Admin is switched off: set MUSTER_ADMIN_PASSWORD and restart Muster.")
    if not session.get("admin"):
        abort(403, description="This needs the admin password: log in at /admin first.")


@bp.get("")
def index() -> Any:
    if not session.get("admin") or _password() is None:
        return render_template("admin_login.html", enabled=_password() is not None, error=None)
    return _dashboard()


def _dashboard(error: str | None = None, problems: list[str] | None = None, code: int = 200) -> Any:
    rows = store().recent_games(200, archived=True)
    html = render_template(
        "admin.html",
        games=rows,
        packs=sorted(packs().values(), key=lambda p: p.name),
        pack_errors=pack_errors(),
        error=error,
        problems=problems or [],
        total=store().count_games(),
        disk=disk.usage(current_app.config["DATABASE"], pdf_cache().folder),
        disk_size=disk.readable,
    )
    return html, code


@bp.post("/login")
def login() -> Any:
    password = _password()
    if password is None:
        abort(403, description="Admin is switched off: set MUSTER_ADMIN_PASSWORD and restart Muster.")
    since = (datetime.now(UTC) - FAILURE_WINDOW).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    if store().login_failures(_address(), since) >= MAX_FAILURES:
        minutes = int(FAILURE_WINDOW.total_seconds() // 60)
        abort(429, description=f"Too many wrong passwords from this address; try again in {minutes} minutes.")
    given = request.form.get("password", "")
    if not hmac.compare_digest(given.encode(), password.encode()):
        store().record_login_failure(_address())
        return render_template("admin_login.html", enabled=True, error="That is not the admin password."), 403
    session.clear()
    session["admin"] = True
    return redirect(url_for("admin.index"), code=303)


@bp.post("/logout")
def logout() -> Any:
    session.pop("admin", None)
    return redirect(url_for("home.index"), code=303)


@bp.post("/games/<game_id>/delete")
def delete_game(game_id: str) -> Any:
    _require_admin()
    if not store().delete_game(game_id):
        abort(404, description="There is no such game.")
    return redirect(url_for("admin.index"), code=303)


@bp.post("/archive")
def archive() -> Any:
    """End club night: every game so far leaves the home screen (their links still work)."""
    _require_admin()
    store().archive_games()
    return redirect(url_for("admin.index"), code=303)


@bp.post("/packs")
def install_pack() -> Any:
    """Install (or replace) a rulepack from an uploaded YAML file, if it validates."""
    _require_admin()
    upload = request.files.get("pack")
    if upload is None or not upload.filename:
        return _dashboard(error="pack: choose a rulepack YAML file to upload.", code=422)
    raw = upload.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return _dashboard(error="pack: the file is not UTF-8 text.", code=422)
    pack, errors = parse_pack(text, "upload.yaml")
    if pack is None:
        return _dashboard(error="The rulepack is refused:", problems=[str(e) for e in errors], code=422)
    if not PACK_ID.match(pack.id):  # the models check it too; the file name depends on it
        return _dashboard(error="id must be lowercase words joined by hyphens.", code=422)
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
        abort(404, description="There is no such rulepack installed.")
    path = Path(current_app.config["RULEPACKS"]) / f"{pack_id}.yaml"
    if path.is_file():
        path.unlink()
    _look_again()
    return redirect(url_for("admin.index"), code=303)


def _look_again() -> None:
    """This worker reads the rulepacks folder on its next request (the others within a second)."""
    current_app.extensions["muster.pack_checked"] = 0.0


@bp.get("/backup.sqlite")
def backup() -> Any:
    """A copy of the whole database, made with SQLite's online backup while Muster runs."""
    _require_admin()
    handle, name = tempfile.mkstemp(suffix=".sqlite")
    os.close(handle)
    store().backup(name)

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
