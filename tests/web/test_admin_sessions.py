"""Issue 12, items 5, 7 and 9: admin logins that end, a lockout that holds, deep packs refused.

Each test replays what the attacker did: a cookie copied before logout, 40 simultaneous wrong
passwords, a forged X-Forwarded-For, a pack nested hundreds of levels deep.
"""

from __future__ import annotations

import shutil
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from io import BytesIO
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from app.store import Store
from tests.setups import NO_STRATEGIES, pitched_battle
from tests.web.conftest import csrf_token, soup

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "correct horse battery staple"


def _club(tmp_path: Path, **config: object) -> Flask:
    folder = tmp_path / "rulepacks"
    if not folder.exists():
        shutil.copytree(ROOT / "rulepacks", folder)
    settings = {
        "DATABASE": str(tmp_path / "muster.sqlite"),
        "RULEPACKS": str(folder),
        "TESTING": True,
        "SECRET_KEY": "test",
        "ADMIN_PASSWORD": PASSWORD,
    }
    return create_app({**settings, **config})


@pytest.fixture
def club(tmp_path: Path) -> Flask:
    return _club(tmp_path)


def _login(client: FlaskClient, password: str = PASSWORD, **kw: object):
    return client.post(
        "/admin/login", data={"csrf_token": csrf_token(client, "/admin", **kw), "password": password}, **kw
    )


def _session_cookie(client: FlaskClient) -> str:
    cookie = client.get_cookie("session")
    assert cookie is not None
    return cookie.value


def _stolen(app: Flask, value: str) -> FlaskClient:
    """Another browser holding a copy of the admin's session cookie."""
    thief = app.test_client()
    thief.set_cookie("session", value)
    return thief


def test_logout_ends_every_copy_of_the_cookie(club: Flask) -> None:
    admin = club.test_client()
    assert _login(admin).status_code == 303
    copy = _stolen(club, _session_cookie(admin))
    assert copy.get("/admin/backup.sqlite").status_code == 200  # the copy works while logged in
    admin.post("/admin/logout", data={"csrf_token": csrf_token(admin, "/admin")})
    assert admin.get("/admin/backup.sqlite").status_code == 403
    refused = copy.get("/admin/backup.sqlite")
    assert refused.status_code == 403 and "log in at /admin" in refused.text
    assert soup(copy.get("/admin")).select_one('input[name="password"]') is not None


def test_pages_asked_for_at_once_after_a_login_take_each_others_forms(club: Flask) -> None:
    # After a login the browser asks for pages at once (the one it was sent to, the next tapped,
    # the service worker's copies); each answer sets the session cookie and the last to arrive
    # is kept. A form from any of those pages must be taken with it, not "the form has expired".
    admin = club.test_client()
    assert _login(admin).status_code == 303
    after_login = _session_cookie(admin)
    answers = []
    for url in ("/admin", "/events/new"):
        phone = _stolen(club, after_login)  # each asked with the cookie the login set
        answers.append((csrf_token(phone, url), _session_cookie(phone)))
    (first_form, _), (_, last_cookie) = answers
    sent = _stolen(club, last_cookie).post("/admin/logout", data={"csrf_token": first_form})
    assert sent.status_code == 303, soup(sent).select_one(".error, p")


def test_a_new_password_ends_every_login(tmp_path: Path) -> None:
    app = _club(tmp_path)
    admin = app.test_client()
    _login(admin)
    cookie = _session_cookie(admin)
    assert _stolen(app, cookie).get("/admin/backup.sqlite").status_code == 200
    # The volunteer changes MUSTER_ADMIN_PASSWORD and restarts Muster on the same database.
    restarted = _club(tmp_path, ADMIN_PASSWORD="a new and better password")
    assert _stolen(restarted, cookie).get("/admin/backup.sqlite").status_code == 403
    fresh = restarted.test_client()
    assert _login(fresh, "a new and better password").status_code == 303
    assert fresh.get("/admin/backup.sqlite").status_code == 200


def test_a_login_ends_after_twelve_hours(club: Flask) -> None:
    admin = club.test_client()
    _login(admin)
    db = sqlite3.connect(club.config["DATABASE"])

    def age(hours: float) -> None:
        stamp = (datetime.now(UTC) - timedelta(hours=hours)).isoformat(timespec="milliseconds")
        with db:
            db.execute("UPDATE admin_sessions SET created = ?", [stamp.replace("+00:00", "Z")])

    age(11.9)
    assert admin.get("/admin/backup.sqlite").status_code == 200
    age(12.1)
    assert admin.get("/admin/backup.sqlite").status_code == 403


def test_forty_simultaneous_wrong_passwords_get_five_checked(club: Flask) -> None:
    clients = [club.test_client() for _ in range(40)]
    tokens = [csrf_token(c, "/admin") for c in clients]
    start = threading.Barrier(len(clients))
    codes: list[int] = []

    def guess(i: int) -> None:
        start.wait()
        answer = clients[i].post("/admin/login", data={"csrf_token": tokens[i], "password": f"guess {i}"})
        codes.append(answer.status_code)

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(len(clients))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [403] * 5 + [429] * 35
    assert _login(club.test_client()).status_code == 429  # even the right password, for a while


def test_the_attempt_count_is_one_statement_across_connections(tmp_path: Path) -> None:
    """Forty threads, each with its own connection to one SQLite file, claim at once."""
    path = tmp_path / "muster.sqlite"
    Store.initialise(path)
    since = (datetime.now(UTC) - timedelta(minutes=15)).isoformat()
    stores = [Store(path) for _ in range(40)]
    start = threading.Barrier(len(stores))
    claimed: list[int | None] = []

    def claim(store: Store) -> None:
        start.wait()
        claimed.append(store.admin.claim_login_attempt("10.0.0.66", since, 5))

    threads = [threading.Thread(target=claim, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in stores:
        s.close()
    assert len([c for c in claimed if c is not None]) == 5


def test_a_right_password_does_not_count_towards_the_limit(club: Flask) -> None:
    admin = club.test_client()
    for _ in range(6):
        assert _login(admin).status_code == 303
    for _ in range(5):
        assert _login(admin, "guess").status_code == 403
    assert _login(admin).status_code == 429


def test_forged_forwarded_addresses_are_ignored_without_a_proxy(club: Flask) -> None:
    attacker = club.test_client()
    for i in range(6):  # a new address claimed on every guess
        attacker.post(
            "/admin/login",
            data={"csrf_token": csrf_token(attacker, "/admin"), "password": "guess"},
            headers={"X-Forwarded-For": f"10.9.9.{i}", "X-Forwarded-Proto": "https"},
        )
    answer = _login(attacker, headers={"X-Forwarded-For": "10.9.9.200"})
    assert answer.status_code == 429
    assert "Strict-Transport-Security" not in answer.headers


def test_behind_a_proxy_one_phone_cannot_lock_out_the_others(tmp_path: Path) -> None:
    app = _club(tmp_path, PROXY_COUNT=1)
    # Every request reaches Muster from the proxy on 127.0.0.1; the proxy names the phone.
    attacker = app.test_client()
    phone = {"X-Forwarded-For": "192.168.1.23"}
    for _ in range(6):
        attacker.post(
            "/admin/login",
            data={"csrf_token": csrf_token(attacker, "/admin"), "password": "guess"},
            headers={"X-Forwarded-For": "192.168.1.66"},
        )
    assert _login(attacker, headers={"X-Forwarded-For": "192.168.1.66"}).status_code == 429
    organiser = app.test_client()
    assert _login(organiser, headers=phone).status_code == 303


def test_over_https_cookies_are_secure_and_pages_send_hsts(tmp_path: Path) -> None:
    app = _club(tmp_path, PROXY_COUNT=1)
    admin = app.test_client()
    https = {"X-Forwarded-For": "192.168.1.23", "X-Forwarded-Proto": "https"}
    # Over HTTPS the CSRF check also wants the form's page as Referer, as browsers send it.
    answer = _login(admin, headers={**https, "Referer": "https://localhost/admin"})
    assert answer.status_code == 303
    cookie = answer.headers["Set-Cookie"]
    assert "Secure" in cookie and "HttpOnly" in cookie
    home = admin.get("/", headers=https)
    assert home.headers["Strict-Transport-Security"] == "max-age=31536000"
    game = admin.post(
        "/api/v1/games",
        json=pitched_battle(strategies=NO_STRATEGIES),
        headers=https,
    ).json
    joined = admin.get(game["join_url"].replace("http://localhost", ""), headers=https)
    assert "Secure" in joined.headers["Set-Cookie"]
    # Plain HTTP on the same server: no HSTS, no Secure (the phone could not send it back).
    plain = app.test_client()
    assert "Strict-Transport-Security" not in plain.get("/").headers
    assert "Secure" not in _login(plain).headers["Set-Cookie"]


@pytest.mark.parametrize("proxies", ["many", "-1", "9"])
def test_a_wrong_proxy_count_stops_muster_with_a_sentence(tmp_path: Path, proxies: str) -> None:
    with pytest.raises(ValueError, match="MUSTER_PROXY must be how many proxies"):
        _club(tmp_path, PROXY_COUNT=proxies)


@pytest.mark.parametrize("nesting", ["flow", "block"])
def test_a_pack_nested_hundreds_deep_is_refused(club: Flask, nesting: str) -> None:
    admin = club.test_client()
    _login(admin)
    if nesting == "flow":
        text = "id: deep\nname: " + "[" * 600 + "]" * 600 + "\n"
    else:
        text = (
            "id: deep\nrules:\n"
            + "".join(" " * i + f"k{i}:\n" for i in range(1, 600))
            + "  " * 600
            + "x: 1\n"
        )
    before = sorted(p.name for p in Path(club.config["RULEPACKS"]).iterdir())
    answer = admin.post(
        "/admin/packs",
        data={"csrf_token": csrf_token(admin, "/admin"), "pack": (BytesIO(text.encode()), "deep.yaml")},
        content_type="multipart/form-data",
    )
    assert answer.status_code == 422
    assert "nests more than 64 levels" in soup(answer).select_one("#error").text
    assert sorted(p.name for p in Path(club.config["RULEPACKS"]).iterdir()) == before
