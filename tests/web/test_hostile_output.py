"""Script in every text a player can type leaves the server as text: each page writes it
escaped and never raw, each print and export carries it as plain words.

The same payloads as the browser's check (tests/hostile.py), one per field so a miss is named;
the browser test (tests/browser/test_hostile_text.py) shows that nothing on the screens runs.
"""

from __future__ import annotations

import uuid

from flask.testing import FlaskClient
from markupsafe import escape

from tests.hostile import PAYLOADS, first_blood_roster, pitched_battle_roster
from tests.pdfs import pdf_text
from tests.setups import first_blood, join, pitched_battle, start
from tests.web.conftest import csrf_token


def written_as_text(client: FlaskClient, url: str, *labels: str) -> None:
    """The page holds each labelled payload escaped, as Jinja writes text, and none of them raw."""
    answer = client.get(url, follow_redirects=True)  # an edit link sets its cookie, then shows the page
    assert answer.status_code == 200, url
    html = answer.get_data(as_text=True)
    for label in labels:
        assert PAYLOADS[label] not in html, f"{url}: the {label} is written raw"
        assert str(escape(PAYLOADS[label])) in html, f"{url}: the {label} is not shown"


def printed(client: FlaskClient, url: str) -> str:
    answer = client.get(url)
    assert answer.status_code == 200 and answer.mimetype == "application/pdf", url
    return " ".join(pdf_text(answer.data, between=" ").split())


def test_a_game_and_its_sheet_carry_hostile_names_and_a_rolls_purpose_as_text(client: FlaskClient) -> None:
    made = start(client, pitched_battle(names=(PAYLOADS["player 1"], PAYLOADS["player 2"])))
    roll = client.post(
        f"/api/v1/games/{made['id']}/events",
        json={
            "id": str(uuid.uuid4()),
            "type": "roll",
            "dice": "d6",
            "results": [4],
            "purpose": PAYLOADS["roll"],
        },
        headers={"X-Edit-Token": made["edit_token"]},
    )
    assert roll.status_code == 201, roll.json
    join(client, made)
    written_as_text(client, f"/games/{made['id']}", "player 1", "player 2", "roll")
    written_as_text(client, "/", "player 1", "player 2")
    sheet = printed(client, f"/games/{made['id']}/scoresheet.pdf")
    assert PAYLOADS["player 1"] in sheet and PAYLOADS["player 2"] in sheet


def test_rosters_carry_hostile_text_in_every_field_on_their_pages_prints_and_exports(
    client: FlaskClient,
) -> None:
    aos = client.post(
        "/api/v1/rosters",
        json=pitched_battle_roster(),
    ).json
    written_as_text(client, aos["url"], "roster name", "faction", "unit", "keyword", "trait", "notes")
    written_as_text(client, aos["edit_url"], "roster name", "faction", "unit", "notes")
    roster = printed(client, aos["url"] + "/roster.pdf")
    assert PAYLOADS["unit"] in roster and PAYLOADS["roster name"] in roster
    plain = client.get(aos["url"] + "/roster.txt")
    assert plain.mimetype == "text/plain" and PAYLOADS["unit"] in plain.get_data(as_text=True)

    fb = client.post(
        "/api/v1/rosters",
        json=first_blood_roster(),
    )
    assert fb.status_code == 201, fb.json
    written_as_text(client, fb.json["url"], "roster name", "unit", "officer", "retinue")


def test_a_terrain_piece_and_a_saved_set_with_hostile_names_are_text_on_the_screen_and_the_card(
    client: FlaskClient,
) -> None:
    made = start(client, first_blood("outflank"))
    join(client, made)
    url = f"/games/{made['id']}/terrain"
    token = csrf_token(client, url)
    added = client.post(
        f"{url}/pieces",
        data={
            "csrf_token": token,
            "id": str(uuid.uuid4()),
            "name": PAYLOADS["piece"],
            "notes": PAYLOADS["piece notes"],
            "kind": "zonal",
            "size": "1",
        },
        headers={"HX-Request": "true"},
    )
    assert added.status_code == 200, added.get_data(as_text=True)[:300]
    saved = client.post(
        f"{url}/library", data={"csrf_token": token, "name": PAYLOADS["set"]}, headers={"HX-Request": "true"}
    )
    assert saved.status_code == 200
    written_as_text(client, url, "piece", "piece notes", "set")
    card = printed(client, f"{url}/card.pdf?paper=a4")
    assert PAYLOADS["piece"] in card  # as text, wherever its cell wraps it
