"""The builder offers an allied faction's units under their own heading, and the roster check
refuses an ally from a faction the army may not take (issue 33).

The data Muster's Age of Sigmar catalogue comes from names no faction's allies (see
tools/README.md), so these tests give Seraphon one allied faction, Stormcast Eternals, in a copy
of the catalogue. Points from rulepacks/catalogues/aos-3.yaml: Liberators 115 (5 models),
Clanrats 130 (Skaven).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from tests.conftest import ROOT, fresh_database
from tests.web.conftest import soup
from tests.web.helpers import new_roster
from tests.web.helpers import roster_csrf as _csrf

HX = {"HX-Request": "true"}


@pytest.fixture
def client(tmp_path: Path, migrated: Path) -> FlaskClient:
    folder = tmp_path / "rulepacks"
    shutil.copytree(ROOT / "rulepacks", folder)
    catalogue = folder / "catalogues" / "aos-3.yaml"
    text = catalogue.read_text(encoding="utf-8")
    seraphon = '    "name": "Seraphon"\n'
    assert seraphon in text
    catalogue.write_text(text.replace(seraphon, seraphon + '    "allies": ["stormcast-eternals"]\n', 1))
    app: Flask = create_app(
        {
            "DATABASE": str(fresh_database(migrated, tmp_path / "muster.sqlite")),
            "RULEPACKS": str(folder),
            "TESTING": True,
            "SECRET_KEY": "test",
        }
    )
    return app.test_client()


def _post(client: FlaskClient, url: str, **data: str):
    return client.post(url, data={"csrf_token": _csrf(client), **data}, headers=HX)


def test_the_builder_offers_an_allied_faction_units_under_their_own_heading(client) -> None:
    url = new_roster(client)  # Seraphon, 1000 points
    listing = soup(client.get(f"{url}/units", headers=HX))
    # Before a name is typed, the list says where allies may come from.
    assert "Allies may come from Stormcast Eternals" in listing.select_one(".allies-hint").text
    listing = soup(client.get(f"{url}/units", query_string={"q": "liberators"}, headers=HX))
    assert [h.text for h in listing.select(".unit-group")] == ["Allies from Stormcast Eternals"]
    button = listing.select_one(".pick")
    assert "Liberators" in button.text and "as an ally" in button.text
    assert button.find_parent("form").select_one("[name=ally_of]")["value"] == "stormcast-eternals"

    _post(client, f"{url}/entries", pick="Liberators", ally_of="stormcast-eternals", version="1")
    roster = client.get(f"{url}/roster.json").json["roster"]
    entry = roster["entries"][0]
    assert (entry["name"], entry["points"], entry["models"]) == ("Liberators", 115, 5)
    assert (entry["ally"], entry["faction"]) == (True, "Stormcast Eternals")


def test_an_ally_from_a_faction_the_army_may_not_take_is_refused(client) -> None:
    url = new_roster(client)
    _post(client, f"{url}/entries", pick="Clanrats", ally_of="skaven", version="1")
    page = soup(client.get(url))
    problems = [p.text for p in page.select(".entry-problem")]
    assert problems == [
        "'Clanrats' (entry 1) is an ally from Skaven; Seraphon may take allies only from Stormcast Eternals."
    ]


def test_an_ally_pick_must_name_a_faction_and_one_of_its_units(client) -> None:
    url = new_roster(client)
    nowhere = _post(client, f"{url}/entries", pick="Liberators", ally_of="atlantis", version="1")
    assert nowhere.status_code == 422
    assert soup(nowhere).select_one("#error").text == "ally_of must be a faction of the catalogue."
    wrong = _post(client, f"{url}/entries", pick="Clanrats", ally_of="stormcast-eternals", version="1")
    assert wrong.status_code == 422
    assert soup(wrong).select_one("#error").text == "pick must be a unit of Stormcast Eternals."
