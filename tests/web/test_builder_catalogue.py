"""The builder's catalogue: pick a unit, step its size, make the general, search (issue 33).

Points from rulepacks/catalogues/aos-3.yaml and old-world.yaml, read by hand.
"""

from __future__ import annotations

from tests.web.conftest import soup
from tests.web.helpers import new_roster as _new_roster
from tests.web.helpers import roster_csrf as _csrf

HX = {"HX-Request": "true"}


def _post(client, url: str, **data: str):
    return client.post(url, data={"csrf_token": _csrf(client), **data}, headers=HX)


def _uid(page, name: str) -> str:
    entry = next(li for li in page.select(".entry") if name in li.select_one(".entry-name").text)
    return entry["data-uid"]


def test_a_picked_unit_joins_with_its_points_keywords_and_role(client) -> None:
    url = _new_roster(client)
    page = soup(_post(client, f"{url}/entries", pick="Saurus Oldblood on Carnosaur", version="1"))
    assert page.select_one(".entry-name").text == "1 × Saurus Oldblood on Carnosaur"
    tags = [t.text for t in page.select(".entry .tag")]
    assert tags == ["Leader", "Behemoth", "HERO", "MONSTER"]
    entry = client.get(f"{url}/roster.json").json["roster"]["entries"][0]
    assert (entry["points"], entry["roles"], entry["keywords"]) == (
        270,
        ["Leader", "Behemoth"],
        ["HERO", "MONSTER"],
    )


def test_size_steps_follow_the_catalogue(client) -> None:
    url = _new_roster(client)
    page = soup(_post(client, f"{url}/entries", pick="Saurus Warriors", version="1"))
    uid = _uid(page, "Saurus Warriors")
    # 10 Saurus Warriors for 105; reinforced once 210 (20 models), twice 315 (30): Battleline.
    page = soup(_post(client, f"{url}/entries/{uid}/bigger", version="2"))
    assert (page.select_one(".entry-name").text, page.select_one('[data-testid="roster-points"]').text) == (
        "20 × Saurus Warriors",
        "210",
    )
    page = soup(_post(client, f"{url}/entries/{uid}/bigger", version="3"))
    assert page.select_one(".size").text == "reinforced twice"
    assert page.select_one('[data-testid="roster-points"]').text == "315"
    assert page.select_one(f'.entry[data-uid="{uid}"] button[aria-label^="Reinforce"]').has_attr("disabled")
    # Past the biggest size: a refusal that names the unit.
    refused = _post(client, f"{url}/entries/{uid}/bigger", version="4")
    assert refused.status_code == 422
    assert soup(refused).select_one("#error").text == "'Saurus Warriors' cannot be bigger."
    page = soup(_post(client, f"{url}/entries/{uid}/smaller", version="4"))
    assert page.select_one('[data-testid="roster-points"]').text == "210"


def test_make_general_marks_one_entry_only(client) -> None:
    url = _new_roster(client)
    _post(client, f"{url}/entries", pick="Saurus Oldblood", version="1")
    page = soup(_post(client, f"{url}/entries", pick="Saurus Scar-Veteran on Cold One", version="2"))
    first, second = _uid(page, "Saurus Oldblood"), _uid(page, "Scar-Veteran")
    _post(client, f"{url}/entries/{first}/general", version="3")
    page = soup(_post(client, f"{url}/entries/{second}/general", version="4"))
    generals = [
        e["name"] for e in client.get(f"{url}/roster.json").json["roster"]["entries"] if e.get("general")
    ]
    assert generals == ["Saurus Scar-Veteran on Cold One"]
    assert page.select_one(f'.entry[data-uid="{first}"] button[aria-label="Make general: Saurus Oldblood"]')


def test_a_pick_the_catalogue_does_not_hold_is_refused(client) -> None:
    url = _new_roster(client)
    response = _post(client, f"{url}/entries", pick="Chess Knight", version="1")
    assert response.status_code == 422
    assert soup(response).select_one("#error").text == "pick must be a unit of the catalogue."


def test_the_search_narrows_the_faction_units(client) -> None:
    url = _new_roster(client)
    listing = soup(client.get(f"{url}/units", query_string={"q": "carnosaur"}, headers=HX))
    names = ["".join(n.find_all(string=True, recursive=False)).strip() for n in listing.select(".pick-name")]
    assert names == ["Saurus Oldblood on Carnosaur", "Saurus Scar-Veteran on Carnosaur"]
    # Grouped by role: both are Leaders.
    assert [h.text for h in listing.select(".unit-group")] == ["Leaders"]
    nothing = soup(client.get(f"{url}/units", query_string={"q": "dreadnought"}, headers=HX))
    assert nothing.select(".pick") == []
    assert "No unit of Seraphon is named “dreadnought”" in nothing.text


def test_an_old_world_unit_grows_a_model_at_a_time(client) -> None:
    url = _new_roster(client, pack="old-world-rosters", faction="Empire of Man", points_preset="2000")
    page = soup(_post(client, f"{url}/entries", pick="State Troops", version="1"))
    uid = _uid(page, "State Troops")
    # 10 State Troops at 5 points a model; one more: 11 for 55.
    page = soup(_post(client, f"{url}/entries/{uid}/bigger", version="2"))
    assert page.select_one(".entry-name").text == "11 × State Troops"
    assert page.select_one('[data-testid="roster-points"]').text == "55"


def test_another_army_is_typed_and_the_subfaction_kept(client) -> None:
    url = _new_roster(client, faction="", faction_other="Lizardmen of Lustria", subfaction="Koatl's Claw")
    body = client.get(f"{url}/roster.json").json["roster"]
    assert (body["faction"], body["subfaction"]) == ("Lizardmen of Lustria", "Koatl's Claw")
    page = soup(client.get(url))
    # No catalogue faction: the builder asks for a name before it lists anything.
    assert page.select(".pick") == []
    assert "Choose the army's faction under Roster details" in page.select_one("#unit-list").text
    # Typed: any faction's units of that name.
    found = soup(client.get(f"{url}/units", query_string={"q": "liberators"}, headers=HX))
    assert [
        "".join(n.find_all(string=True, recursive=False)).strip() for n in found.select(".pick-name")
    ] == ["Liberators"]


def test_the_new_roster_form_lists_the_catalogue_factions(client) -> None:
    page = soup(client.get("/rosters/new", query_string={"pack": "aos-ghb-2021"}))
    options = [o.text for o in page.select("#faction option")]
    assert options[0] == "Choose a faction" and "Stormcast Eternals" in options and len(options) == 27
    assert page.select_one("#subfaction") is not None
    # First Blood lists its catalogue's two factions.
    first_blood = soup(client.get("/rosters/new", query_string={"pack": "conquest-first-blood"}))
    assert [o.text for o in first_blood.select("#faction option")] == [
        "Choose a faction",
        "Hundred Kingdoms",
        "Spires",
    ]


def test_the_faction_subfactions_are_offered(client) -> None:
    url = _new_roster(client, faction="Stormcast Eternals")
    offered = [o["value"] for o in soup(client.get(url)).select("#d-subfactions option")]
    # BSData's Stormhosts at b92ceb9.
    assert offered[:3] == ["Hammers of Sigmar", "Hallowed Knights", "Celestial Vindicators"]
    assert len(offered) == 8
