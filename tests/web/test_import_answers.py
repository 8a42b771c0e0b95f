"""Issue 24 item 10: each unread line is answered with a tap (unit, battalion, enhancement, note,
drop, or one of the catalogue's nearest names); the header's subfaction and triumph are kept
and what is dropped is listed; the roster is named after its faction and player."""

from __future__ import annotations

import pytest

from tests.list_texts import LISTS
from tests.web.conftest import csrf_token, soup

LIST = "Allegiance: Seraphon\n\nLeaders\nLord Kroak (430)\n- General\nSkinks 70 points\n\nTotal: 430 / 1000\n"
IMPORT = "/api/v1/rosters/import"


def _csrf(client) -> str:
    return csrf_token(client, "/rosters/import")


def _preview(client, **form: str):
    data = {"csrf_token": _csrf(client), "pack": "aos-ghb-2021", "text": LIST, **form}
    response = client.post("/rosters/import/preview", data=data)
    assert response.status_code == 303
    return soup(client.get(response.headers["Location"]))


def _entries(page) -> list[str]:
    return [li.select_one("strong").text for li in page.select(".import-entries li")]


def test_an_unread_line_offers_buttons_and_the_nearest_names(client) -> None:
    page = _preview(client)
    line = page.select_one("#unread-6")
    values = [i["value"] for i in line.select('input[type="radio"][name="as_6"]')]
    # The nearest Seraphon names first, then what else the line may be.
    assert values[:1] == ["unit:Skinks"]
    assert values[-5:] == ["unit", "battalion", "enhancement", "note", "drop"]


@pytest.mark.parametrize(
    ("answer", "entries", "points"),
    [
        # A catalogue name: the unit, at the line's 70 points, with the catalogue's role.
        ("unit:Skinks", ["Lord Kroak", "Skinks"], "500"),
        # The line as it names itself.
        ("unit", ["Lord Kroak", "Skinks"], "500"),
        # A core battalion, keeping the points the line gave (every point the list names counts).
        ("battalion", ["Lord Kroak", "Skinks"], "500"),
        # An enhancement or a note joins the entry above it (Lord Kroak).
        ("enhancement", ["Lord Kroak"], "430"),
        ("note", ["Lord Kroak"], "430"),
        ("drop", ["Lord Kroak"], "430"),
    ],
)
def test_each_answer_places_the_line(client, answer: str, entries: list[str], points: str) -> None:
    page = _preview(client, as_6=answer)
    assert page.select(".unread") == []
    assert [e.split(" × ")[-1] for e in _entries(page)] == entries
    assert page.select_one("#import-preview .verdict strong").text.startswith(f"{points} / 1,000")


def test_answers_reach_the_saved_roster(client) -> None:
    data = {
        "csrf_token": _csrf(client),
        "pack": "aos-ghb-2021",
        "text": LIST,
        "as_6": "enhancement",
        "owner": "Ann",
    }
    saved = client.post("/rosters/import/save", data=data)
    assert saved.status_code == 303
    body = client.get(saved.headers["Location"] + "/roster.json").json["roster"]
    assert body["entries"][0]["enhancements"] == ["Skinks"]
    # Named after the faction and the player.
    assert (body["name"], body["player"]) == ("Ann's Seraphon", "Ann")


def test_header_fields_kept_and_dropped(client) -> None:
    text = (LISTS / "aos3_warhammer_app_2021_seraphon_valid_1980.txt").read_text()
    answer = client.post(IMPORT, json={"pack": "aos-ghb-2021", "text": text}).json
    roster = answer["roster"]
    assert (roster["subfaction"], roster["triumph"]) == ("Fangs of Sotek", "Inspired")
    assert [d["text"] for d in answer["dropped"]] == [
        "Army Type: Starborne",
        "Battlepack: Pitched Battles",
        "Battle Trait Bonus: First to Battle, Parting Shot",
    ]
    # The CORE BATTALIONS block is read: its battalions and the units under them.
    battalions = [e["name"] for e in roster["entries"] if e["kind"] == "core-battalion"]
    assert battalions == ["Battle Regiment", "Command Entourage", "Hunters of the Heartlands"]
    assert "Razordon Hunting Pack" in [e["name"] for e in roster["entries"]]
    # The screen lists the dropped lines.
    data = {"csrf_token": _csrf(client), "pack": "aos-ghb-2021", "text": text}
    page = soup(client.get(client.post("/rosters/import/preview", data=data).headers["Location"]))
    assert [li.text for li in page.select("#dropped li")] == [
        "Line 3: Army Type: Starborne",
        "Line 5: Battlepack: Pitched Battles",
        "Line 9: Battle Trait Bonus: First to Battle, Parting Shot",
    ]
    assert "triumph Inspired" in page.select_one("#import-preview").text
