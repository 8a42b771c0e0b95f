"""The club home (tonight's tables and their live scores) and the rulepack pages."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Response, current_app, make_response, render_template, request

from app.rules import grid
from app.rules.systems import system_for
from app.serving import tls
from app.store import GameRow
from app.web import page_cache, phone_games
from app.web.pages import wants_fragment
from app.web.responses import private_page
from app.web.services import games_service, pack_errors, pack_or_404, packs, store
from app.web.systems import web_system_for

bp = Blueprint("home", __name__)

# A club night, generously: games started in the last 18 hours are "tonight".
NIGHT = timedelta(hours=18)
EARLIER = 20


def _since() -> str:
    hours = current_app.config.get("CLUB_NIGHT_HOURS")
    span = timedelta(hours=float(hours)) if hours else NIGHT
    return (datetime.now(UTC) - span).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _refresh() -> int:
    """Seconds between refreshes of tonight's tables: often enough to follow, light on a Pi."""
    return int(current_app.config.get("HOME_REFRESH_SECONDS", 15))


def _listed(rows: list[GameRow]) -> list[dict[str, Any]]:
    """Each game with its battleplan and its card (live score, round, result).

    The card is stored with the game as events arrive, so a listed game costs the same
    however long its log. A game whose card is missing or behind its log (one from before
    cards were kept, or scored with a rulepack since replaced) is replayed once and its card
    stored.
    """
    listed = []
    for row in rows:
        pack = packs().get(row.pack)
        scenario = pack.scenario(row.scenario) if pack else None
        if pack is None or scenario is None:
            listed.append({"row": row, "card": None, "scenario": None, "pack": pack})
            continue
        listed.append(
            {"row": row, "card": games_service().card_of(row, pack), "scenario": scenario, "pack": pack}
        )
    return listed


def _tonight(since: str) -> list[dict[str, Any]]:
    """Tonight's tables in the order they sat down."""
    tonight = store().games.recent(200, since=since)
    tonight.reverse()
    return _listed(tonight)


def _earlier(since: str) -> list[dict[str, Any]]:
    """The rest of the week's games, newest first (the whole page only, not the polled part)."""
    return _listed(store().games.recent(EARLIER, before=since))


@bp.get("/")
def index() -> Any:
    since = _since()
    tonight = _tonight(since)
    if wants_fragment() and request.args.get("part") == "tables":
        # The tables refresh themselves every few seconds: only that part is sent.
        return _kept_tables(tonight)
    earlier = _earlier(since)
    secure_address, no_https = _https_to_tell()
    response = make_response(
        render_template(
            "home.html",
            tonight=tonight,
            earlier=earlier,
            packs=packs(),
            cards=_cards(),
            pack_errors=pack_errors(),
            refresh_seconds=_refresh(),
            secure_address=secure_address,
            no_https=no_https,
        )
    )
    if secure_address or no_https:
        # Said once: the phone keeps this cookie and is not told again.
        response.set_cookie(HTTPS_TOLD, "1", max_age=HTTPS_TOLD_SECONDS, httponly=True, samesite="Lax")
    return response


def _kept_tables(tonight: list[dict[str, Any]]) -> Response:
    """Tonight's tables, polled by every phone in the room: rendered once per change.

    The key is everything a card shows (each game's set-up, its card, its rulepack object), so
    an entry from any phone is a new key on the next poll; the part holds nothing per phone.
    """
    refresh = _refresh()
    key = (
        "tables",
        refresh,
        tuple(
            (
                item["row"].id,
                item["row"].pack,
                item["row"].scenario,
                item["row"].points_limit,
                repr(item["row"].players),
                repr(item["card"]),
                id(item["pack"]),  # a reloaded pack is another object (held below)
            )
            for item in tonight
        ),
    )
    kept = page_cache.render(
        key,
        lambda: render_template("partials/_tables.html", tonight=tonight, refresh_seconds=refresh),
        held=tuple(item["pack"] for item in tonight),
    )
    return page_cache.answer(kept)


HTTPS_TOLD = "muster_https_told"
HTTPS_TOLD_SECONDS = 365 * 24 * 3600


# Names a browser treats as a secure context over plain HTTP: the server's own machine.
LOOPBACK = {"localhost", "127.0.0.1", "::1"}


def _https_to_tell() -> tuple[str | None, bool]:
    """What a phone on plain HTTP not yet told should hear about HTTPS, which offline play and
    install need: the club's secure address, or (no HTTPS set up yet) that there is none."""
    if request.is_secure or request.cookies.get(HTTPS_TOLD):
        return None, False
    address = tls.address_of(current_app.config)
    if address:
        return address, False
    # The server's own machine may play offline on plain HTTP; a phone at a LAN address may not.
    return None, urlsplit("//" + request.host).hostname not in LOOPBACK


def _cards() -> list[tuple[Any, Any]]:
    """Each game the home offers, as its pack names it, two-player games first."""
    playable = sorted((p for p in packs().values() if p.playable), key=lambda p: (p.players.min or 2, p.id))
    cards = [(pack, card) for pack in playable for card in pack.home_cards()]

    def fewest(item: tuple[Any, Any]) -> int:
        pack, card = item
        return pack.players_for(pack.scenario(card.scenario) if card.scenario else None).min or 2

    return sorted(cards, key=fewest)  # stable: two-player games first, each pack's in its order


@bp.get("/games/mine")
def mine() -> Any:
    """The games this phone started, joined or took a seat in, newest first."""
    rows = [row for row in (store().games.get(game_id) for game_id in phone_games.ids()) if row is not None]
    response = make_response(render_template("mine.html", games=_listed(rows)))
    response.headers["Vary"] = "Cookie"
    return private_page(response)


@bp.get("/packs/<pack_id>")
def pack(pack_id: str) -> Any:
    found = pack_or_404(pack_id)
    web = web_system_for(found)
    maps = {s.id: grid.svg(s, found.sides) for s in found.scenarios if s.board and web.draws_maps}
    return render_template("pack.html", pack=found, maps=maps, system=system_for(found))
