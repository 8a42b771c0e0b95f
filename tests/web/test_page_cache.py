"""Issue 32: a game page rendered once serves every phone that sees the same, and is never stale.

Each test runs the app on a real SQLite file with CSRF checked as served. A kept page must show
the game as it is after any phone's entry or undo, hold each phone's own CSRF token and fresh
form ids, and give a seat's secrets to that seat alone.
"""

from __future__ import annotations

import gzip
import time
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import brotli
import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from app.web import page_cache
from tests.conftest import fresh_database
from tests.setups import new_game
from tests.web.conftest import Api, form_fields, parsed, soup
from tests.web.helpers import catalogue_free, made, phone, post, renders, seat, tokens

HELD = ("hidden-pitfalls", "Hidden Pitfalls")  # the ploy Ann buys and keeps hidden


@pytest.fixture
def app(tmp_path: Path, migrated: Path) -> Flask:
    database = fresh_database(migrated, tmp_path / "muster.sqlite")
    return create_app(
        {"DATABASE": str(database), "TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": True}
    )


def entry_ids(page: Any) -> list[str]:
    return [i["value"] for i in soup(page).select('form input[name="id"]')]


def test_one_rendering_serves_every_phone_with_its_own_token_and_form_ids(app: Flask) -> None:
    creator = app.test_client()
    game = new_game(creator)
    first, second = app.test_client(), app.test_client()
    for client in (first, second):  # two phones that joined by the join link: the same page
        assert client.get(game["join_url"]).status_code == 303
    url = f"/games/{game['id']}"
    page_one = first.get(url)
    with renders(app) as seen:
        page_two = second.get(url)
    assert "game.html" not in seen, "the second phone's page was rendered again"
    assert page_two.status_code == 200
    # Each page holds its own session's token, everywhere, and its own entry ids.
    assert len(tokens(page_one)) == 1 and len(tokens(page_two)) == 1
    assert tokens(page_one) != tokens(page_two)
    assert entry_ids(page_one) and not set(entry_ids(page_one)) & set(entry_ids(page_two))
    assert len(set(entry_ids(page_two))) == len(entry_ids(page_two))
    # Each token is good for its own phone's form post only.
    action, fields = form_fields(page_two, "#clock form.clock-tap")
    borrowed = second.post(action, data={**fields, "csrf_token": next(iter(tokens(page_one)))})
    assert borrowed.status_code == 400
    own = second.post(action, data=fields, headers={"HX-Request": "true"})
    assert own.status_code == 200, own.data[:300]


def test_a_kept_page_shows_another_phones_entry_and_an_undo(app: Flask) -> None:
    creator = app.test_client()
    game = new_game(creator)
    watcher = app.test_client()
    url = f"/games/{game['id']}"
    api = Api(creator, game)
    api.ok({"type": "battle_round", "round": 1, "first": 1})
    before = soup(watcher.get(url)).select_one("[data-testid=last-entry]").text
    watcher.get(url)  # kept now
    api.ok({"type": "turn", "round": 1, "player": 1, "control": {"defender-border": 1}})
    after = soup(watcher.get(url)).select_one("[data-testid=last-entry]").text
    assert after == "Bo's turn recorded: +1 VP" and after != before
    # The table's phone undoes Bo's turn with its page's form: every phone's next page shows it.
    assert creator.get(game["join_url"]).status_code == 303
    action, fields = form_fields(creator.get(url), "#last-entry .undo-form")
    assert creator.post(action, data=fields, headers={"HX-Request": "true"}).status_code == 200
    for client in (watcher, creator):
        shown = soup(client.get(url)).select_one("[data-testid=last-entry]").text
        assert shown == "Undone: Bo's turn, round 1 (1 VP)"


def test_a_seats_secret_stays_on_its_seat_and_its_own_entry_shows_at_once(app: Flask) -> None:
    game = made(app.test_client())
    post(app.test_client(), game, {"type": "battle_round", "round": 1}, edit=game["edit_token"])
    url = f"/games/{game['id']}"
    ann, bo, table, watcher = (phone(app, game, who) for who in (0, 1, "table", None))
    for client in (ann, bo, table, watcher):
        client.get(url)  # every viewer's page kept before the secret is bought
    # Ann buys a ploy with her page's form: her answer and her next page hold it.
    action, fields = form_fields(ann.get(url), "#buy-form")
    answer = ann.post(action, data={**fields, "ploy": HELD[0]}, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    for shown in (answer, ann.get(url), ann.get(url)):
        assert [li["data-ploy"] for li in soup(shown).select("#hand li.ploy")] == [HELD[0]]
    # Nobody else's page holds it, asked once (rendered) or twice (kept), a second Bo phone too.
    bo_again = phone(app, game, 1)
    for client in (bo, table, watcher, bo, table, watcher, bo_again):
        html = catalogue_free(client.get(url).data)
        assert HELD[1].lower() not in html.lower() and HELD[0] not in html
    # Ann takes it back: her next page no longer holds it.
    last = ann.get(f"/api/v1/games/{game['id']}/events", headers={"X-Seat-Token": seat(game, 0)}).json[-1]
    undone = post(ann, game, {"type": "undo", "event": last["id"]}, seat=seat(game, 0))
    assert undone.status_code == 201
    assert not soup(ann.get(url)).select("#hand li.ploy")


def test_the_cache_keeps_a_bounded_number_of_pages(tmp_path: Path, migrated: Path) -> None:
    database = fresh_database(migrated, tmp_path / "muster.sqlite")
    app = create_app({"DATABASE": str(database), "TESTING": True, "SECRET_KEY": "t", "PAGE_CACHE_SIZE": 3})
    client: FlaskClient = app.test_client()
    games = [new_game(client) for _ in range(5)]
    for game in games:
        assert client.get(f"/games/{game['id']}").status_code == 200
    assert len(app.extensions["muster.pages"]) == 3
    # The first game's page, pushed out, is rendered again, and right.
    Api(client, games[0]).ok({"type": "battle_round", "round": 1, "first": 0})
    with renders(app) as seen:
        page = client.get(f"/games/{games[0]['id']}")
    assert "game.html" in seen
    assert soup(page).select_one("[data-testid=last-entry]").text == "Round 1 started: Ann goes first"
    assert len(app.extensions["muster.pages"]) == 3
    assert all(uuid.UUID(made).version == 4 for made in entry_ids(page))  # no mark left


def test_a_kept_clock_shows_each_tap_and_the_servers_time_now(app: Flask) -> None:
    creator = app.test_client()
    game = new_game(creator)
    assert creator.get(game["join_url"]).status_code == 303
    watcher = app.test_client()
    url = f"/games/{game['id']}"

    def clock(client: FlaskClient) -> Any:
        return soup(client.get(url)).select_one("#clock")

    first, again = clock(watcher), clock(watcher)
    assert first["data-version"] == again["data-version"] == "0"
    assert first["data-now"] and first["data-now"] <= again["data-now"]
    assert "muster" not in again["data-now"]  # the server's time, never a mark
    for expected_running, expected_taps in (("0", "1"), ("", "2")):  # start, then pause
        page = creator.get(url)
        which = "[data-clock-when=running]" if expected_running == "" else "form.clock-tap"
        action, fields = form_fields(page, f"#clock {which}")
        assert creator.post(action, data=fields, headers={"HX-Request": "true"}).status_code == 200
        shown = clock(watcher)
        assert (shown["data-running"], shown["data-version"]) == (expected_running, expected_taps)


def test_a_kept_page_is_in_each_phones_language(app: Flask) -> None:
    game = new_game(app.test_client())
    url = f"/games/{game['id']}"
    for language in ("en", "de", "en", "de", "fr"):
        page = soup(app.test_client().get(url, headers={"Accept-Language": language}))
        assert page.select_one("html")["lang"] == language


def test_the_polled_tables_are_rendered_once_and_show_every_phones_entry(app: Flask) -> None:
    """Issue 32: tonight's tables, polled by every phone, come from the cache and never stale."""
    creator = app.test_client()
    game = new_game(creator)
    poll = {"headers": {"HX-Request": "true"}}
    url = "/?part=tables"

    def vps(client: FlaskClient) -> list[int]:
        return [int(v.text) for v in soup(client.get(url, **poll)).select("#tables .vp")]

    watchers = [app.test_client() for _ in range(3)]
    assert vps(watchers[0]) == [0, 0]
    with renders(app) as seen:
        assert [vps(w) for w in watchers] == [[0, 0]] * 3
    assert seen == []  # kept: one rendering served the room
    # The table's phone scores; every phone's next poll shows it, and a new table too.
    Api(creator, game).ok({"type": "battle_round", "round": 1, "first": 0})
    Api(creator, game).ok({"type": "turn", "round": 1, "player": 0, "control": {"west": 0}})
    scored = creator.get(f"/api/v1/games/{game['id']}").json["players"][0]["vp"]
    assert scored > 0
    assert [vps(w) for w in watchers] == [[scored, 0]] * 3
    second = new_game(app.test_client())
    cards = soup(watchers[1].get(url, **poll)).select("#tables .table-card")
    assert [c["href"] for c in cards] == [f"/games/{game['id']}", f"/games/{second['id']}"]


def test_the_kept_tables_are_in_each_phones_language(app: Flask) -> None:
    new_game(app.test_client())
    texts = {}
    for language in ("en", "de", "en", "de"):
        part = app.test_client().get(
            "/?part=tables", headers={"HX-Request": "true", "Accept-Language": language}
        )
        texts.setdefault(language, set()).add(soup(part).select_one("#tables .table-card").text)
    assert len(texts["en"]) == len(texts["de"]) == 1 and texts["en"] != texts["de"]


def test_the_polled_tables_travel_compressed_once_per_change(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32: tonight's tables are the same bytes for every phone, so they are compressed once
    and those bytes kept; a phone that takes no brotli gets gzip or the plain page."""
    game = new_game(app.test_client())
    packed: list[str] = []
    real = page_cache._pack
    monkeypatch.setattr(
        page_cache, "_pack", lambda data, algorithm: packed.append(algorithm) or real(data, algorithm)
    )

    def poll(encoding: str) -> Any:
        return app.test_client().get(
            "/?part=tables", headers={"HX-Request": "true", "Accept-Encoding": encoding}
        )

    plain = poll("identity")
    assert "Content-Encoding" not in plain.headers and "table-card" in plain.get_data(True)
    answers = [poll("gzip, deflate, br") for _ in range(3)]
    assert [a.headers["Content-Encoding"] for a in answers] == ["br"] * 3
    assert {a.data for a in answers} == {answers[0].data}
    assert brotli.decompress(answers[0].data) == plain.data
    assert "Accept-Encoding" in answers[0].headers["Vary"]
    zipped = poll("gzip")
    assert zipped.headers["Content-Encoding"] == "gzip" and gzip.decompress(zipped.data) == plain.data
    assert packed == ["br", "gzip"]  # once each, for the whole room
    # An entry is a new rendering: new bytes, showing the score.
    Api(app.test_client(), game).ok({"type": "battle_round", "round": 1, "first": 0})
    Api(app.test_client(), game).ok({"type": "turn", "round": 1, "player": 0, "control": {"west": 0}})
    after = brotli.decompress(poll("br").data)
    assert after != plain.data and packed == ["br", "gzip", "br"]
    assert int(parsed(after).select("#tables .vp")[0].text) > 0


def test_a_game_page_filled_in_per_phone_travels_compressed_cheaply_and_whole(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32: a page holding a phone's own token is compressed on each answer, at the cheap
    levels; a phone gets the same page whichever compression it takes, or none."""
    game = new_game(app.test_client())
    url = f"/games/{game['id']}"
    phone = app.test_client()
    phone.get(url)  # the phone's first visit starts its session (and its token)
    levels: list[tuple[str, int | None]] = []
    real = page_cache._pack
    monkeypatch.setattr(
        page_cache,
        "_pack",
        lambda data, algorithm, level=None: levels.append((algorithm, level)) or real(data, algorithm, level),
    )
    plain = phone.get(url, headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers
    squeezed = phone.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    zipped = phone.get(url, headers={"Accept-Encoding": "gzip"})
    assert (squeezed.headers["Content-Encoding"], zipped.headers["Content-Encoding"]) == ("br", "gzip")
    assert levels == [("br", page_cache.FILLED_LEVELS["br"]), ("gzip", page_cache.FILLED_LEVELS["gzip"])]
    assert "Accept-Encoding" in squeezed.headers["Vary"] and "Cookie" in squeezed.headers["Vary"]
    # The same page each time but for the fresh form ids: the phone's one token in every form.
    pages = [plain.data, brotli.decompress(squeezed.data), gzip.decompress(zipped.data)]
    assert len({len(p) for p in pages}) == 1
    # Compressed at that level indeed (quality 0 is brotli's cheapest, not "the default").
    assert brotli.compress(pages[1], quality=page_cache.FILLED_LEVELS["br"]) == squeezed.data
    assert {frozenset(tokens(SimpleNamespace(data=p))) for p in pages} == {frozenset(tokens(plain))}


def test_a_kept_session_is_each_requests_own_and_a_changed_cookie_is_refused(app: Flask) -> None:
    """Issue 32: a session cookie's signature is checked once per worker and its signed token
    made once; a cookie changed by a phone is refused all the same, and one session's token
    never reaches another phone."""
    game = new_game(app.test_client())
    url = f"/games/{game['id']}"
    first = app.test_client()
    first.get(url)  # the phone's first visit starts its session
    token = next(iter(tokens(first.get(url))))
    assert tokens(first.get(url)) == {token}  # its session and token, kept: the same token
    cookie = first.get_cookie("session")
    assert cookie is not None
    # A copy of the cookie with one character changed is no session: a new token, its own,
    # and the kept one is refused with it.
    forged = app.test_client()
    value = cookie.value
    forged.set_cookie("session", value[:-1] + ("A" if value[-1] != "A" else "B"))
    page = forged.get(url)
    assert token not in tokens(page)
    action, fields = form_fields(page, "form[action='/language']")
    assert forged.post(action, data={**fields, "csrf_token": token, "language": "de"}).status_code == 400
    # The kept session's data is each request's own copy: another phone's session changes nothing.
    other = app.test_client()
    assert token not in tokens(other.get(url))
    assert tokens(first.get(url)) == {token}
    action, fields = form_fields(first.get(url), "form[action='/language']")
    assert first.post(action, data={**fields, "language": "de"}).status_code == 303


def test_a_kept_session_cookie_still_expires(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game(app.test_client())
    url = f"/games/{game['id']}"
    phone = app.test_client()
    phone.get(url)
    token = next(iter(tokens(phone.get(url))))
    assert tokens(phone.get(url)) == {token}  # its signature checked and kept
    later = time.time() + app.permanent_session_lifetime.total_seconds() + 60
    monkeypatch.setattr(time, "time", lambda: later)
    assert token not in tokens(phone.get(url))  # past the session's lifetime: a new session


def test_a_first_visit_is_signed_as_itsdangerous_signs_and_its_form_is_taken(app: Flask) -> None:
    """Issue 32: a first visit's CSRF token and session cookie are signed by kept serializers
    that skip zlib on short payloads: the bytes itsdangerous writes when zlib cannot shorten
    them, so tokens and cookies signed before or elsewhere read the same; a long one is still
    compressed, and read back."""
    from itsdangerous import URLSafeTimedSerializer

    from app.web.signed import ShortPlain

    key = uuid.uuid4().hex + uuid.uuid4().hex[:8]  # a CSRF key: forty random hex characters
    plain, kept = URLSafeTimedSerializer("k", salt="s"), ShortPlain("k", salt="s")
    assert kept.dumps(key).split(".")[0] == plain.dumps(key).split(".")[0]
    assert plain.loads(kept.dumps(key)) == key
    long = {"organiser": {f"event-{i}": "token-" * 4 for i in range(8)}}
    assert kept.dumps(long).startswith(".") and plain.loads(kept.dumps(long)) == long
    # A phone's first visit: its token, signed so, takes its form; another phone's does not.
    game = new_game(app.test_client())
    url = f"/games/{game['id']}"
    phone, other = app.test_client(), app.test_client()
    page = phone.get(url)
    action, fields = form_fields(page, "form[action='/language']")
    other.get(url)
    assert other.post(action, data={**fields, "language": "de"}).status_code == 400
    assert phone.post(action, data={**fields, "language": "de"}).status_code == 303


def test_a_kept_clock_follows_another_phones_taps_and_a_running_one_is_never_kept(app: Flask) -> None:
    """Issue 32: the clock strip is kept by the taps it shows (their count and the last one),
    so a tap from any phone shows on the next page; a running clock's times move on, so it is
    rendered for each answer."""
    creator = app.test_client()
    game = new_game(creator)
    assert creator.get(game["join_url"]).status_code == 303
    url = f"/games/{game['id']}"
    watcher = app.test_client()
    assert soup(watcher.get(url)).select_one("#clock")["data-running"] == ""
    action, fields = form_fields(creator.get(url), "#clock form.clock-tap")
    assert creator.post(action, data=fields, headers={"HX-Request": "true"}).status_code == 200
    with renders(app) as seen:
        running = [soup(watcher.get(url)).select_one("#clock") for _ in range(2)]
    assert [c["data-running"] for c in running] == ["0", "0"]
    assert seen.count("partials/_clock_strip.html") == 2  # once for each answer
    action, fields = form_fields(creator.get(url), "#clock [data-clock-when=running]")
    assert creator.post(action, data=fields, headers={"HX-Request": "true"}).status_code == 200
    with renders(app) as seen:
        paused = [soup(watcher.get(url)).select_one("#clock") for _ in range(2)]
    assert [(c["data-running"], c["data-version"]) for c in paused] == [("", "2"), ("", "2")]
    assert seen.count("partials/_clock_strip.html") == 1  # the paused strip, rendered once and kept


def test_fresh_form_ids_are_random_uuids_each_its_own() -> None:
    """Issue 32: the ids filled into a kept page's forms, made many at once, are version 4
    UUIDs as ``uuid.uuid4`` writes them, and never repeat."""
    made = [i.decode() for _ in range(50) for i in page_cache.fresh_ids(40)]
    assert len(set(made)) == len(made) == 2000
    for text in made[:200]:
        assert str(uuid.UUID(text)) == text and uuid.UUID(text).version == 4
        assert uuid.UUID(text).variant == uuid.RFC_4122
