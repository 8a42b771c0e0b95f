"""A Muster app on a fresh SQLite file for each test, and helpers to drive it."""

from __future__ import annotations

import re
import shutil
import uuid
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from bs4 import BeautifulSoup
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from tests.conftest import ROOT, fresh_database


@pytest.fixture
def app(tmp_path: Path, migrated: Path) -> Flask:
    database = fresh_database(migrated, tmp_path / "muster.sqlite")
    return create_app({"DATABASE": str(database), "TESTING": True, "SECRET_KEY": "test"})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


class Api:
    """Records events for one game through the JSON API."""

    def __init__(self, client: FlaskClient, game: dict[str, Any]) -> None:
        self.client = client
        self.id = game["id"]
        self.token = game["edit_token"]

    def post(self, event: dict[str, Any], token: str | None = None) -> Any:
        event = {"id": str(uuid.uuid4()), **event}
        return self.client.post(
            f"/api/v1/games/{self.id}/events", json=event, headers={"X-Edit-Token": token or self.token}
        )

    def ok(self, event: dict[str, Any]) -> dict[str, Any]:
        response = self.post(event)
        assert response.status_code == 201, response.json
        return response.json["game"]

    def state(self) -> dict[str, Any]:
        return self.client.get(f"/api/v1/games/{self.id}").json


def parsed(html: str | bytes) -> BeautifulSoup:
    """A page or part of one (``html``), parsed for selectors.

    With lxml, a little quicker than Python's html.parser (a game page: 2.9 ms, not 3.9 ms); most
    of a soup's time is BeautifulSoup building its tree, which is why ``field_value`` skips it.
    Muster's pages are well-formed HTML, which both read alike (every soup of the web tests was
    compared: only html.parser nested a datalist's unclosed options in each other)."""
    return BeautifulSoup(html, "lxml")


def soup(response: Any) -> BeautifulSoup:
    """The page of ``response``, parsed."""
    return parsed(response.data)


def whole_page(response: Any) -> bool:
    """Whether ``response`` is a whole document, not a part that htmx swaps into one.

    Read from the bytes: lxml puts every part it parses inside an ``<html>`` of its own."""
    return re.search(rb"<html[\s>]", response.data, re.IGNORECASE) is not None


def field_value(response: Any, name: str) -> str:
    """The value of the first ``<input>`` named ``name`` on the page of ``response``.

    Read with lxml alone: the soup of a roster's page with its catalogue (a thousand elements)
    takes a tenth of a second to build, for the one field a form post needs."""
    found = lxml.html.document_fromstring(response.data).xpath("//input[@name=$name]", name=name)
    assert found and found[0].get("value") is not None, f"no input named {name} with a value on the page"
    return found[0].get("value")


def csrf_token(client: FlaskClient, url: str, **kw: Any) -> str:
    """The CSRF token a phone is given with the first form of the page at ``url``."""
    return field_value(client.get(url, **kw), "csrf_token")


def form_fields(page: Any, selector: str) -> tuple[str, dict[str, str]]:
    """The action of the form at ``selector`` on a page, and the fields a browser would send
    for it as it stands: selected options, checked boxes, and no disabled field."""
    form = soup(page).select_one(selector)
    assert form is not None, f"no {selector} on the page"
    data = {}
    for field in form.select("input, select"):
        name = field.get("name")
        if not name or field.has_attr("disabled"):
            continue
        if field.name == "select":
            chosen = field.select_one("option[selected]") or field.select_one("option")
            data[name] = chosen["value"] if chosen else ""
        elif field.get("type") in ("radio", "checkbox"):
            if field.has_attr("checked"):
                data[name] = field.get("value", "on")
        else:
            data[name] = field.get("value", "")
    return form["action"], data


def qr_text_matches(client: FlaskClient, src: str, text: str) -> bool:
    """Whether the QR image at ``src`` is the code segno draws for ``text``."""
    import io

    import segno

    response = client.get(src)
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    expected = io.BytesIO()
    segno.make(text, error="m").save(expected, kind="svg", scale=4, border=2, dark="#000", light="#fff")
    return response.data == expected.getvalue()


# --- the club admin ------------------------------------------------------------------------
CLUB_PASSWORD = "correct horse battery staple"


def login(client: FlaskClient, password: str) -> Any:
    """Log in to the club admin with ``password``; the answer."""
    return client.post(
        "/admin/login", data={"csrf_token": csrf_token(client, "/admin"), "password": password}
    )


def club_app(tmp_path: Path, migrated: Path, **config: Any) -> Flask:
    """An app with an admin password and its own copy of the rulepacks (installs write there);
    ``config`` adds to its settings."""
    folder = tmp_path / "rulepacks"
    shutil.copytree(ROOT / "rulepacks", folder)
    return create_app(
        {
            "DATABASE": str(fresh_database(migrated, tmp_path / "muster.sqlite")),
            "RULEPACKS": str(folder),
            "TESTING": True,
            "SECRET_KEY": "test",
            "ADMIN_PASSWORD": CLUB_PASSWORD,
            **config,
        }
    )


@pytest.fixture
def club(tmp_path: Path, migrated: Path) -> Flask:
    """An app with an admin password and its own copy of the rulepacks (installs write there)."""
    return club_app(tmp_path, migrated)


@pytest.fixture
def admin(club: Flask) -> FlaskClient:
    client = club.test_client()
    login(client, CLUB_PASSWORD)
    return client
