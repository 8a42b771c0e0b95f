"""The game clock strip: its taps from the game page's forms, and the strip alone for a refresh."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict

from app.rules.clock import MOST_SECONDS
from app.rules.speech import say
from app.services import clocks
from app.store import GameRow
from app.web.forms import whole
from app.web.games import access_of, recorder_of  # the game page's cookies hold the phone's tokens
from app.web.pages import refused, shaped, wants_fragment
from app.web.responses import private_page
from app.web.services import store

bp = Blueprint("clock", __name__)

MOST_MINUTES = MOST_SECONDS // 60


def strip_view(row: GameRow, can_edit: bool, error: str | None = None) -> dict[str, Any]:
    """What the clock strip of a game shows this phone."""
    return clocks.strip(store(), row, can_edit, error)


def _strip(row: GameRow, can_edit: bool, error: str | None = None, status: int = 200) -> Any:
    response = make_response(
        render_template("partials/_clock_strip.html", c=strip_view(row, can_edit, error)), status
    )
    return private_page(shaped(response, "Cookie"))


@bp.get("/games/<game_id>/clock")
def strip(game_id: str) -> Any:
    """The clock strip alone: a phone refreshes it to see the other phone's taps."""
    row, _token, access = access_of(game_id)
    if row is None:
        abort(404, description=say("There is no such game."))
    return _strip(row, access.may_record)


@bp.post("/games/<game_id>/clock")
def tap(game_id: str) -> Any:
    """A tap from the strip's forms: the same tap the JSON API takes; answers the new strip."""
    row, _token, _access = recorder_of(
        game_id, say("Only this game's players can use its clock: open the join link first.")
    )
    data, problem = form_tap(request.form)
    outcome = clocks.record(store(), row, data, replayed=replayed()) if problem is None else None
    if outcome is not None and outcome.status == "refused":
        problem = outcome.error
    if not wants_fragment():
        if problem:
            abort(422, description=problem)
        return redirect(url_for("games.show", game_id=game_id), code=303)
    return refused(_strip(row, True, problem, 422 if problem else 200), problem)


def replayed() -> bool:
    """Whether the tap comes from the phone's outbox (static/outbox.js marks its replays)."""
    return request.headers.get("X-Muster-Replay") == "outbox"


def form_tap(form: MultiDict[str, str]) -> tuple[dict[str, Any], str | None]:
    """The strip's form as the tap the JSON API takes (minutes become seconds)."""
    data: dict[str, Any] = {"id": form.get("id", ""), "action": form.get("action", "")}
    raw_player = form.get("player", "").strip()
    if raw_player:
        player = whole(raw_player)
        if player is None:
            return data, say("player must be a whole number.")
        data["player"] = player
    if form.get("at", "").strip():
        data["at"] = form["at"].strip()
    if data["action"] == "limit":
        raw = form.get("minutes", "").strip()
        minutes = whole(raw) if raw else None
        if raw and (minutes is None or not 1 <= minutes <= MOST_MINUTES):
            return data, say(
                "minutes must be a whole number from 1 to {most}, or empty for no limit.", most=MOST_MINUTES
            )
        data["seconds"] = minutes * 60 if minutes else None
    return data, None
