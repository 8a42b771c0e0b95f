"""The admin page's HTTPS card and the home page's one-time word to a phone on plain HTTP
(issue 26 items 5 and 7), with certificates made by a test CA.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from babel.dates import format_date
from flask import Flask

from app import create_app
from tests.certs import Authority
from tests.web.conftest import csrf_token, soup

PASSWORD = "correct horse battery staple"


def _club(tmp_path: Path, migrated: Path, **config: object) -> Flask:
    database = tmp_path / "muster.sqlite"
    shutil.copyfile(migrated, database)
    settings = {"DATABASE": str(database), "TESTING": True, "SECRET_KEY": "test", "ADMIN_PASSWORD": PASSWORD}
    return create_app({**settings, **config})


def _admin_page(app: Flask) -> object:
    client = app.test_client()
    client.post("/admin/login", data={"csrf_token": csrf_token(client, "/admin"), "password": PASSWORD})
    page = client.get("/admin")
    assert page.status_code == 200
    return soup(page).select_one("#https")


def _https_club(tmp_path: Path, migrated: Path, days: int, port: int = 443) -> Flask:
    cert, key, _ = Authority.make().issue(tmp_path / "tls", name="ourclub.duckdns.org", days=days)
    return _club(tmp_path, migrated, TLS_CERT=str(cert), TLS_KEY=str(key), HTTPS_PORT=port)


def test_the_card_names_the_certificate_its_end_and_the_address(tmp_path: Path, migrated: Path) -> None:
    card = _admin_page(_https_club(tmp_path, migrated, days=89, port=8443))
    assert card.select_one("#https-on").get_text(" ", strip=True) == (
        "On: phones open https://ourclub.duckdns.org:8443 ."
    )
    # The end's date as the page's language writes it (English here: the |day filter).
    ends = format_date(datetime.now(UTC) + timedelta(days=89, hours=1), "medium", locale="en")
    assert card.select_one("#https-certificate").get_text(" ", strip=True) == (
        f"The certificate is for ourclub.duckdns.org , from Muster Test CA; it ends on {ends}, in 89 days."
    )
    assert card.select_one("#https-ends") is None


@pytest.mark.parametrize(("days", "warned"), [(22, False), (21, False), (20, True), (19, True), (1, True)])
def test_the_card_warns_twenty_days_before_the_end(
    tmp_path: Path, migrated: Path, days: int, warned: bool
) -> None:
    card = _admin_page(_https_club(tmp_path, migrated, days=days))
    warning = card.select_one("#https-ends")
    assert (warning is not None) == warned
    if warned:
        assert warning.get_text(" ", strip=True).startswith(f"The certificate ends in {days} day")
        assert "next has the internet" in warning.get_text()


def test_the_card_says_https_is_off_and_where_phones_are(client_app_off: Flask) -> None:
    card = _admin_page(client_app_off)
    assert (
        card.select_one("#https-off")
        .get_text(" ", strip=True)
        .startswith("Off: phones open http://localhost , where they cannot install Muster")
    )


@pytest.fixture
def client_app_off(tmp_path: Path, migrated: Path) -> Flask:
    return _club(tmp_path, migrated)


def test_the_card_says_why_the_certificate_cannot_be_served(tmp_path: Path, migrated: Path) -> None:
    app = _https_club(tmp_path, migrated, days=60)
    _other, other_key, _ = Authority.make().issue(tmp_path / "other")
    app.config["TLS_KEY"] = str(other_key)
    card = _admin_page(app)
    assert "is not the key of the certificate" in card.select_one("#https-problem").get_text()


def test_a_phone_on_plain_http_is_told_the_secure_address_once(tmp_path: Path, migrated: Path) -> None:
    phone = _https_club(tmp_path, migrated, days=60).test_client()
    first = soup(phone.get("/")).select_one("#https-notice")
    assert first is not None
    assert first.select_one("a.button")["href"] == "https://ourclub.duckdns.org/"
    assert "cannot install Muster or reopen a game with no connection" in first.get_text()
    assert soup(phone.get("/")).select_one("#https-notice") is None  # once
    other = phone.application.test_client()
    assert soup(other.get("/")).select_one("#https-notice") is not None  # another phone is told too


def test_no_word_over_https_nor_without_a_secure_address(tmp_path: Path, migrated: Path) -> None:
    app = _https_club(tmp_path, migrated, days=60)
    assert (
        soup(app.test_client().get("/", base_url="https://ourclub.duckdns.org")).select_one("#https-notice")
        is None
    )
    (tmp_path / "plain").mkdir()
    plain = _club(tmp_path / "plain", migrated)
    assert soup(plain.test_client().get("/")).select_one("#https-notice") is None


def test_a_phone_at_the_club_hears_once_that_there_is_no_https_yet(tmp_path: Path, migrated: Path) -> None:
    club = _club(tmp_path, migrated)
    phone = club.test_client()
    notice = soup(phone.get("/", base_url="http://192.168.1.20:5000")).select_one("#https-notice")
    assert notice is not None
    text = notice.get_text(" ", strip=True)
    assert "cannot install Muster or reopen a game with no connection" in text
    assert "Admin page" in text
    assert notice.select_one("a") is None  # no secure address to offer
    assert (
        soup(phone.get("/", base_url="http://192.168.1.20:5000")).select_one("#https-notice") is None
    )  # once
    # The server's own machine plays offline on plain HTTP: nothing to say there.
    here = club.test_client()
    for base in ("http://localhost:5000", "http://127.0.0.1:5000", "http://[::1]:5000"):
        assert soup(here.get("/", base_url=base)).select_one("#https-notice") is None, base
