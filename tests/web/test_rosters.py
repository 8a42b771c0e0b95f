"""Rosters through the API and the builder screens."""

from __future__ import annotations

import io
import json

from tests.pdfs import pdf_text
from tests.savage_gains import game_script
from tests.setups import join, new_game, second_phone, seraphon_roster
from tests.web.conftest import Api, csrf_token, field_value, qr_text_matches, soup
from tests.web.helpers import new_roster as _new_roster
from tests.web.helpers import roster_csrf as _csrf


# --- API ------------------------------------------------------------------------------------
def test_check_a_legal_and_an_illegal_roster(client):
    ok = client.post("/api/v1/rosters/check", json=seraphon_roster())
    assert ok.status_code == 200
    assert (ok.json["points"], ok.json["valid"], ok.json["problems"]) == (1085, True, [])
    bad = seraphon_roster()
    bad["entries"][2]["size"] = "understrength"
    bad["entries"].append({"name": "Kroxigor", "points": 1000, "roles": ["Other"]})
    answer = client.post("/api/v1/rosters/check", json=bad)
    assert answer.status_code == 200 and answer.json["valid"] is False
    assert [p["rule"] for p in answer.json["problems"]] == ["points-limit", "understrength"]
    assert answer.json["problems"][1] == {
        "rule": "understrength",
        "entry": 2,
        "message": "'Saurus Warriors' (entry 3) is understrength; Pitched Battle units are at least their minimum size.",
    }


def test_check_refuses_only_what_is_not_a_roster(client):
    assert client.post("/api/v1/rosters/check", json={"pack": "aos-ghb-2021"}).json == {
        "error": "points_limit is missing."
    }
    assert client.post("/api/v1/rosters/check", json=[1]).status_code == 422
    assert (
        client.post("/api/v1/rosters/check", data="nope", content_type="application/json").status_code == 400
    )
    empty = client.post("/api/v1/rosters/check", json={"pack": "conquest-first-blood", "entries": []})
    assert empty.status_code == 200 and empty.json["valid"] is False and empty.json["points_limit"] == 800


def test_store_read_and_change_a_roster(client):
    made = client.post("/api/v1/rosters", json=seraphon_roster())
    assert made.status_code == 201
    rid, token = made.json["id"], made.json["edit_token"]
    got = client.get(f"/api/v1/rosters/{rid}").json
    assert got["valid"] and got["version"] == 1 and got["army"]["general"] == "Lord Kroak"
    assert got["army"]["monsters"] == ["Stegadon"]
    assert all(e["uid"] for e in got["roster"]["entries"])
    assert client.put(f"/api/v1/rosters/{rid}", json={"name": "x"}).status_code == 403
    changed = client.put(
        f"/api/v1/rosters/{rid}", json={"name": "Renamed", "version": 1}, headers={"X-Edit-Token": token}
    )
    assert (
        changed.status_code == 200
        and changed.json["roster"]["name"] == "Renamed"
        and changed.json["version"] == 2
    )
    stale = client.put(
        f"/api/v1/rosters/{rid}", json={"name": "Lost?", "version": 1}, headers={"X-Edit-Token": token}
    )
    assert stale.status_code == 409 and "another screen" in stale.json["error"]
    broken = client.put(
        f"/api/v1/rosters/{rid}",
        json={"entries": [{"name": "x", "size": "huge"}]},
        headers={"X-Edit-Token": token},
    )
    assert broken.status_code == 422 and broken.json["error"].startswith("entries[0].size")
    assert client.get(f"/api/v1/rosters/{rid}").json["roster"]["name"] == "Renamed"


def test_attach_a_roster_to_a_game(client):
    made = client.post("/api/v1/rosters", json=seraphon_roster()).json
    rid = made["id"]
    game = new_game(client)
    api = Api(client, game)
    url = f"/api/v1/games/{api.id}/rosters"
    assert client.post(url, json={"player": 0, "roster": rid}).status_code == 403
    headers = {"X-Edit-Token": api.token}
    assert client.post(url, json={"player": 5, "roster": rid}, headers=headers).status_code == 422
    assert client.post(url, json={"player": 0, "roster": "nope"}, headers=headers).status_code == 422
    fb = client.post("/api/v1/rosters", json={"pack": "conquest-first-blood", "entries": []}).json["id"]
    wrong = client.post(url, json={"player": 0, "roster": fb}, headers=headers)
    assert wrong.status_code == 422 and "conquest-first-blood" in wrong.json["error"]
    attached = client.post(url, json={"player": 1, "roster": rid}, headers=headers)
    assert attached.status_code == 201
    assert attached.json["armies"]["1"]["general"] == "Lord Kroak"
    assert attached.json["armies"]["1"]["battleline"] == ["Saurus Guard", "Saurus Warriors", "Skinks"]
    # The game keeps the roster as it was when attached.
    client.put(
        f"/api/v1/rosters/{rid}", json={"name": "Renamed later"}, headers={"X-Edit-Token": made["edit_token"]}
    )
    assert client.get(f"/api/v1/games/{api.id}").json["armies"]["1"]["name"] == "Hammerfest"


def test_each_event_answers_with_the_roster_attached_last(client):
    """Issue 32: what a game's attached roster fields is parsed once per attachment and kept;
    a roster attached again (edited since) is what the next event's answer shows, and another
    game's roster never shows in this one."""
    made = client.post("/api/v1/rosters", json=seraphon_roster()).json
    rid, owner = made["id"], {"X-Edit-Token": made["edit_token"]}
    first, second = Api(client, new_game(client)), Api(client, new_game(client))
    script = game_script()

    def attach(api: Api) -> None:
        answer = client.post(
            f"/api/v1/games/{api.id}/rosters",
            json={"player": 1, "roster": rid},
            headers={"X-Edit-Token": api.token},
        )
        assert answer.status_code == 201, answer.json

    attach(first)
    assert first.ok(script[0])["armies"]["1"]["name"] == "Hammerfest"
    assert client.put(f"/api/v1/rosters/{rid}", json={"name": "Skyhost"}, headers=owner).status_code == 200
    attach(second)
    assert second.ok(script[0])["armies"]["1"]["name"] == "Skyhost"
    assert first.ok(script[1])["armies"]["1"]["name"] == "Hammerfest"  # still the copy it took
    attach(first)
    assert first.ok(script[2])["armies"]["1"]["name"] == "Skyhost"
    assert "Skyhost" in client.get(f"/games/{first.id}").text


# --- screens --------------------------------------------------------------------------------


def _version(page) -> str:
    return field_value(page, "version")


def _add(client, url, **fields):
    page = client.get(url)
    data = {"csrf_token": _csrf(client), "version": _version(page), **fields}
    return client.post(f"{url}/entries", data=data, headers={"HX-Request": "true"})


def test_build_a_roster_on_the_screen(client):
    url = _new_roster(client)
    page = soup(client.get(url))
    assert page.select_one("h1").text == "Hammerfest"
    assert page.select_one('[data-testid="roster-points"]').text == "0"
    assert page.select_one('[data-testid="roster-verdict"]').text == "3 problems"
    response = _add(
        client,
        url,
        name="Lord Kroak",
        points="430",
        roles="Leader",
        keywords="hero, wizard",
        general="on",
        single_model="on",
    )
    fragment = soup(response)
    assert fragment.select_one('[data-testid="roster-points"]').text == "430"
    assert [li["data-rule"] for li in fragment.select(".problems li")] == ["battleline-min"]
    for name in ("Saurus Guard", "Skinks"):
        response = _add(client, url, name=name, points="100", roles="Battleline")
    fragment = soup(response)
    assert fragment.select_one('[data-testid="roster-verdict"]').text == "Valid"
    assert [e.select_one(".entry-name").text for e in fragment.select(".entry")] == [
        "Lord Kroak",
        "Saurus Guard",
        "Skinks",
    ]


def test_entry_form_refusal_keeps_what_was_typed(client):
    url = _new_roster(client)
    response = _add(client, url, name="Saurus Guard", points="lots", roles="Battleline")
    assert response.status_code == 422
    fragment = soup(response)
    assert fragment.select_one("#error").text == "points must be a whole number, 0 or more."
    assert fragment.select_one("#a-name")["value"] == "Saurus Guard"


def test_preview_shows_the_total_as_you_type_without_saving(client):
    url = _new_roster(client)
    data = {"csrf_token": _csrf(client), "name": "Stegadon", "points": "1200", "roles": "Behemoth"}
    fragment = soup(client.post(f"{url}/preview", data=data))
    assert fragment.select_one('[data-testid="roster-points"]').text == "1,200"
    assert "points-limit" in [li["data-rule"] for li in fragment.select(".problems li")]
    assert "not saved yet" in fragment.text
    assert soup(client.get(url)).select_one('[data-testid="roster-points"]').text == "0"


def test_edit_duplicate_move_and_remove(client):
    url = _new_roster(client)
    _add(client, url, name="Guard", points="100", roles="Battleline")
    _add(client, url, name="Lord", points="100", roles="Leader", general="on", keywords="HERO")
    page = client.get(url)
    uids = [e["data-uid"] for e in soup(page).select(".entry")]
    csrf = _csrf(client)

    def act(uid, action):
        return client.post(
            f"{url}/entries/{uid}/{action}", data={"csrf_token": csrf}, headers={"HX-Request": "true"}
        )

    names = lambda r: [e.select_one(".entry-name").text for e in soup(r).select(".entry")]  # noqa: E731
    assert names(act(uids[1], "up")) == ["Lord", "Guard"]
    copied = act(uids[1], "duplicate")
    assert names(copied) == ["Lord", "Lord", "Guard"]
    assert len(soup(copied).select(".tag.strong")) == 1  # the copy is not a second general
    assert names(act(uids[0], "remove")) == ["Lord", "Lord"]
    edit = soup(client.get(f"{url}/entries/{uids[1]}/edit", headers={"HX-Request": "true"}))
    assert edit.select_one("#edit-form #e-name")["value"] == "Lord"
    saved = client.post(
        f"{url}/entries/{uids[1]}",
        headers={"HX-Request": "true"},
        data={
            "csrf_token": csrf,
            "name": "Lord on Carnosaur",
            "points": "300",
            "roles": ["Leader", "Behemoth"],
            "keywords": "HERO, MONSTER",
            "general": "on",
        },
    )
    assert names(saved)[0] == "Lord on Carnosaur"
    assert soup(saved).select_one('[data-testid="roster-points"]').text == "400"


def test_a_stale_screen_does_not_overwrite(client):
    url = _new_roster(client)
    page = client.get(url)
    stale = _version(page)
    _add(client, url, name="Guard", points="100", roles="Battleline")
    response = client.post(
        f"{url}/entries",
        headers={"HX-Request": "true"},
        data={"csrf_token": _csrf(client), "version": stale, "name": "Other", "points": "5"},
    )
    assert response.status_code == 409 and "another screen" in soup(response).select_one("#error").text
    # What was typed is still in the form.
    assert soup(response).select_one("#a-name")["value"] == "Other"


def test_custom_units_are_remembered_for_the_next_roster(client):
    url = _new_roster(client)
    _add(client, url, name="Saurus Guard", points="115", roles="Battleline", keywords="SAURUS")
    second = _new_roster(client, name="Second list")
    page = soup(client.get(second))
    quick = page.select(".quick-add button")
    assert [b.text for b in quick] == ["+ Saurus Guard (115)"]
    form = page.select_one(".quick-add form")
    data = {i["name"]: i["value"] for i in form.select("input")}
    added = soup(client.post(f"{second}/entries", data=data, headers={"HX-Request": "true"}))
    assert [e.select_one(".entry-name").text for e in added.select(".entry")] == ["Saurus Guard"]
    assert "SAURUS" in added.select_one(".entry .tags").text


def test_readers_see_the_roster_but_cannot_change_it(app, client):
    url = _new_roster(client)
    _add(client, url, name="Guard", points="100", roles="Battleline")
    reader = app.test_client()
    page = soup(reader.get(url))
    assert page.select_one(".entry-name").text == "Guard"
    assert page.select("form.entry-form") == [] and "Only its owner" in page.select_one(".notice").text
    csrf = csrf_token(reader, "/rosters/new")
    assert (
        reader.post(f"{url}/entries", data={"csrf_token": csrf, "name": "x", "points": "1"}).status_code
        == 403
    )
    assert qr_text_matches(reader, page.select_one("img.qr")["src"], "http://localhost" + url)


def test_exports_text_json_pdf_and_import_back(app, client):
    url = _new_roster(client, points_preset="2000")
    _add(
        client,
        url,
        name="Lord Kroak",
        points="430",
        roles="Leader",
        general="on",
        keywords="HERO",
        notes="Spells: Celestial Deliverance",
    )
    _add(client, url, name="Saurus Guard", points="115", roles="Battleline")
    text = client.get(f"{url}/roster.txt").data.decode()
    assert "Lord Kroak (430) [Leader] - General" in text and "TOTAL: 545 / 2000 points" in text
    assert "NOT VALID" in text and "2000 points needs at least 3" in text
    pdf = client.get(f"{url}/roster.pdf?paper=letter")
    printed = pdf_text(pdf.data)
    for expected in (
        "Hammerfest",
        "Lord Kroak",
        "Saurus Guard",
        "545",
        "NOT VALID",
        "Fewest Battleline units",
        "Spells: Celestial Deliverance",
        "Beast Master",
    ):
        assert expected in printed
    exported = client.get(f"{url}/roster.json")
    assert exported.headers["Content-Disposition"].startswith("attachment")
    other = app.test_client()
    csrf = csrf_token(other, "/rosters/new")
    imported = other.post(
        "/rosters/import",
        data={"csrf_token": csrf, "file": (io.BytesIO(exported.data), "r.json")},
        content_type="multipart/form-data",
    )
    assert imported.status_code == 303
    copy = other.get(imported.headers["Location"].replace("/rosters/", "/api/v1/rosters/")).json
    original = client.get(url.replace("/rosters/", "/api/v1/rosters/")).json
    assert copy["roster"] == original["roster"] and copy["points"] == 545
    bad = other.post(
        "/rosters/import",
        data={"csrf_token": csrf, "file": (io.BytesIO(b"{]"), "r.json")},
        content_type="multipart/form-data",
    )
    assert bad.status_code == 422


def test_game_screen_shows_the_armies_beside_tactics(client):
    rid = client.post("/api/v1/rosters", json=seraphon_roster()).json["id"]
    game = new_game(client)
    join(client, game)
    page = soup(client.get(f"/games/{game['id']}"))
    form = page.select_one("form.attach")
    csrf = form.select_one('input[name="csrf_token"]')["value"]
    response = client.post(
        f"/games/{game['id']}/armies",
        data={"csrf_token": csrf, "player": "1", "roster": rid},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    # The tap is answered in one line where the army shows.
    said = soup(response).select_one("[data-testid=attached]").text
    assert said.startswith("Bo's army: ") and said.endswith(", attached.")
    Api(client, game).ok({"type": "battle_round", "round": 1, "first": 0})
    page = soup(client.get(f"/games/{game['id']}"))
    hints = {li.select_one("strong").text: li.text for li in page.select(".tactic-targets li")}
    assert "Bo's battleline: Saurus Guard, Saurus Warriors, Skinks" in hints["Broken Ranks"]
    assert "Bo's general: Lord Kroak" in hints["Slay the Warlord"]
    assert "Bo's monsters: Stegadon" in hints["Bring It Down!"]
    assert "Hammerfest" in page.select_one(".armies").text


def test_first_blood_roster_on_the_screen(client):
    data = {
        "csrf_token": _csrf(client),
        "pack": "conquest-first-blood",
        "name": "Hundred Kingdoms",
        "points_preset": "800",
    }
    url = client.post("/rosters", data=data).headers["Location"]
    page = client.get(url)
    csrf = _csrf(client)
    response = client.post(
        f"{url}/entries",
        headers={"HX-Request": "true"},
        data={
            "csrf_token": csrf,
            "version": _version(page),
            "name": "Household Knights",
            "kind": "regiment",
            "type": "cavalry",
            "points": "165",
            "models": "4",
            "officers_name_0": "Tourney Champion",
            "officers_points_0": "40",
        },
    )
    fragment = soup(response)
    assert fragment.select_one('[data-testid="roster-points"]').text == "205"
    rules = [li["data-rule"] for li in fragment.select(".problems li")]
    assert rules == ["character-regiment", "regiment-models"]
    assert "numbers 5 models" in fragment.select_one(".entry-problem").text
    assert json.loads(client.get(f"{url}/roster.json").data)["roster"]["entries"][0]["officers"] == [
        {"name": "Tourney Champion", "points": 40}
    ]


def test_units_from_the_pack_catalogue(tmp_path):
    import shutil

    from app import create_app
    from tests.conftest import ROOT

    packs = tmp_path / "packs"
    packs.mkdir()
    shutil.copy(ROOT / "rulepacks" / "conquest-first-blood.yaml", packs)
    text = (packs / "conquest-first-blood.yaml").read_text()
    text += (
        "\nunits:\n"
        "  - {name: Militia, kind: regiment, type: infantry, points: 90, models: 3}\n"
        "  - {name: Household Knights, kind: regiment, type: cavalry, points: 165, models: 3}\n"
    )
    (packs / "conquest-first-blood.yaml").write_text(text)
    client = create_app(
        {"DATABASE": str(tmp_path / "m.sqlite"), "RULEPACKS": str(packs), "TESTING": True, "SECRET_KEY": "x"}
    ).test_client()
    csrf = _csrf(client)
    url = client.post(
        "/rosters", data={"csrf_token": csrf, "pack": "conquest-first-blood", "points_preset": "800"}
    ).headers["Location"]
    page = soup(client.get(url))
    section = page.select_one("details.remembered")
    assert section.select_one("summary").text == "From the Conquest: First Blood catalogue (2)"
    form = section.select("form")[1]
    data = {i["name"]: i["value"] for i in form.select("input")}
    added = soup(client.post(f"{url}/entries", data=data, headers={"HX-Request": "true"}))
    assert added.select_one(".entry-name").text == "3 × Household Knights"
    assert added.select_one('[data-testid="roster-points"]').text == "165"


# --- allies never lead, core battalions twice (issue 11) ------------------------------------
def test_the_verdict_refuses_an_allied_general_and_advises_on_a_repeated_core_battalion(client):
    roster = seraphon_roster()
    assert client.post("/api/v1/rosters/check", json=roster).json["valid"] is True
    roster["entries"][0].update(general=False)
    roster["entries"].append(
        {
            "name": "Freeguild General",
            "points": 100,
            "roles": ["Leader"],
            "keywords": ["HERO"],
            "general": True,
            "ally": True,
            "faction": "Cities of Sigmar",
            "enhancements": ["Amulet of Destiny"],
        }
    )
    roster["entries"] += [{"name": "Battle Regiment", "kind": "core-battalion"}] * 2
    made = client.post("/api/v1/rosters", json=roster)
    answer = client.get(f"/api/v1/rosters/{made.json['id']}").json
    assert answer["valid"] is False
    assert [(p["rule"], p["entry"]) for p in answer["problems"]] == [
        ("ally-general", 5),
        ("ally-enhancement", 5),
    ]
    assert answer["advice"] == [
        "The core battalion 'Battle Regiment' is in the army 2 times (entries 7 and 8): the "
        "battlepack allows some core battalions only once, so check it against the list."
    ]
    # The army's own Leader, Lord Kroak, still fills the Leader minimum; the ally does not.
    assert (answer["counts"]["leaders"], answer["counts"]["own_leaders"]) == (2, 1)
    # The same ally as a coalition unit may lead and carry the artefact.
    roster["entries"][5].update(ally=False, coalition=True)
    coalition = client.post("/api/v1/rosters/check", json=roster).json
    assert coalition["valid"] is True and len(coalition["advice"]) == 1


# --- what a roster may store (issue 12) ------------------------------------------------------
def test_the_api_refuses_a_roster_over_the_limits(client):
    many = seraphon_roster()
    many["entries"] += [{"name": f"Skink {i}", "points": 1} for i in range(101 - 5)]
    long_name = seraphon_roster()
    long_name["entries"][1]["name"] = "G" * 61
    long_notes = seraphon_roster()
    long_notes["entries"][1]["notes"] = "n" * 301
    for roster, sentence in [
        (many, "entries may hold at most 100 entries."),
        (long_name, "entries[1].name must be at most 60 characters."),
        (long_notes, "entries[1].notes must be at most 300 characters."),
    ]:
        for path in ("/api/v1/rosters", "/api/v1/rosters/check"):
            answer = client.post(path, json=roster)
            assert (answer.status_code, answer.json) == (422, {"error": sentence})
    many["entries"].pop()
    made = client.post("/api/v1/rosters", json=many)
    assert made.status_code == 201
    rid, token = made.json["id"], made.json["edit_token"]
    over = client.put(
        f"/api/v1/rosters/{rid}",
        json={"entries": [*many["entries"], {"name": "One more"}]},
        headers={"X-Edit-Token": token},
    )
    assert (over.status_code, over.json) == (422, {"error": "entries may hold at most 100 entries."})
    assert len(client.get(f"/api/v1/rosters/{rid}").json["roster"]["entries"]) == 100


def test_the_screens_refuse_a_roster_over_the_limits(client):
    csrf = _csrf(client)
    refused = client.post(
        "/rosters",
        data={"csrf_token": csrf, "pack": "aos-ghb-2021", "name": "N" * 61, "points_preset": "1000"},
    )
    assert refused.status_code == 422
    assert soup(refused).select_one(".alert").text.strip() == "name must be at most 60 characters; it has 61."
    url = _new_roster(client, name="N" * 60)
    assert soup(client.get(url)).select_one("#a-name")["maxlength"] == "60"
    long_name = _add(client, url, name="W" * 61, points="1")
    assert long_name.status_code == 422
    assert soup(long_name).select_one("#error").text == "name must be at most 60 characters; it has 61."
    long_notes = _add(client, url, name="Guard", points="1", notes="n" * 301)
    assert soup(long_notes).select_one("#error").text == "notes must be at most 300 characters; it has 301."
    # The hundredth entry is taken, the hundred-and-first refused with the field and the limit.
    rid = url.rsplit("/", 1)[1]
    loaded = client.get(f"/api/v1/rosters/{rid}").json
    token = client.get_cookie(f"muster_roster_{rid}", path="/rosters").value
    entries = [{"name": f"Skink {i}", "points": 1} for i in range(99)]
    saved = client.put(
        f"/api/v1/rosters/{rid}",
        json={"entries": entries, "version": loaded["version"]},
        headers={"X-Edit-Token": token},
    )
    assert saved.status_code == 200
    assert _add(client, url, name="Skink 99", points="1").status_code == 200
    refused = _add(client, url, name="Skink 100", points="1")
    assert refused.status_code == 422
    assert soup(refused).select_one("#error").text == "entries may hold at most 100 entries."
    assert len(soup(client.get(url)).select(".entry")) == 100


# --- a phone's own rosters and remembered units (issue 12) ----------------------------------
def test_remembered_units_belong_to_the_phone_that_typed_them(app, client):
    mine = _new_roster(client)
    _add(client, mine, name="Saurus Guard", points="115", roles="Battleline")
    stranger = app.test_client()
    theirs = _new_roster(stranger, name="Spam")
    rid = theirs.rsplit("/", 1)[1]
    token = stranger.get_cookie(f"muster_roster_{rid}", path="/rosters").value
    flood = [{"name": "Saurus Guard", "points": 999, "notes": "spam"}] * 99
    assert (
        stranger.put(f"/api/v1/rosters/{rid}", json={"entries": flood}, headers={"X-Edit-Token": token})
    ).status_code == 200
    _add(stranger, theirs, name="Saurus Guard", points="999")
    # My next roster still offers my Saurus Guard at my price; the stranger's list has theirs once.
    second = soup(client.get(_new_roster(client, name="Second")))
    assert [b.text for b in second.select(".quick-add button")] == ["+ Saurus Guard (115)"]
    again = soup(stranger.get(_new_roster(stranger, name="Spam 2")))
    assert [b.text for b in again.select(".quick-add button")] == ["+ Saurus Guard (999)"]


def test_a_phone_lists_its_own_rosters_and_those_shared_with_it(app, client):
    def listed(who):
        page = soup(who.get("/rosters"))
        return {
            s.select_one("h2").text: [a.select_one(".game-title").text for a in s.select("a.game-link")]
            for s in page.select("section[aria-labelledby]")
            if s.select_one("h2").text in ("Your rosters", "Shared with you")
        }

    mine = _new_roster(client, name="Mine")
    other = app.test_client()
    theirs = _new_roster(other, name="Theirs")
    api_made = other.post("/api/v1/rosters", json=seraphon_roster(name="Made by a club tool")).json
    assert listed(client) == {"Your rosters": ["Mine"]}
    assert listed(other) == {"Your rosters": ["Theirs"]}
    # A stranger with no roster sees nobody's list.
    stranger = app.test_client()
    assert listed(stranger) == {"Your rosters": []}
    assert "Theirs" not in stranger.get("/rosters").text and "Mine" not in stranger.get("/rosters").text
    # Opening a share link lists it as shared; opening the edit link makes it the phone's own.
    client.get(theirs)
    assert listed(client) == {"Your rosters": ["Mine"], "Shared with you": ["Theirs"]}
    client.get(api_made["edit_url"].removeprefix("http://localhost"), follow_redirects=True)
    assert listed(client) == {"Your rosters": ["Made by a club tool", "Mine"], "Shared with you": ["Theirs"]}
    # A forged token cookie lists nothing.
    stranger.set_cookie(f"muster_roster_{mine.rsplit('/', 1)[1]}", "x" * 32, path="/rosters")
    assert listed(stranger) == {"Your rosters": []}


def test_rosters_stored_before_the_limits_still_open(tmp_path):
    from sqlite_utils import Database

    from app import create_app
    from app.store.schema import migrations

    path = tmp_path / "old.sqlite"
    old = Database(path)
    migrations.apply(old, stop_before="m009_roster_limits_and_owners")
    body = seraphon_roster(name="L" * 80)
    body["entries"] += [{"uid": f"u{i}", "name": "Skink " + "s" * 70, "notes": "n" * 500} for i in range(195)]
    old["rosters"].insert(
        {
            "id": "r" * 22,
            "edit_token_hash": "0" * 64,
            "pack": "aos-ghb-2021",
            "body": json.dumps(body),
            "version": 3,
            "created": "2026-11-01T19:00:00.000Z",
            "updated": "2026-11-01T19:00:00.000Z",
        }
    )
    old["custom_units"].insert(
        {"pack": "aos-ghb-2021", "key": "unit:skink", "body": "{}", "uses": 9, "updated": "x"}
    )
    old.close()
    client = create_app({"DATABASE": str(path), "TESTING": True, "SECRET_KEY": "test"}).test_client()
    got = client.get(f"/api/v1/rosters/{'r' * 22}").json
    assert got["roster"]["name"] == "L" * 60 and len(got["roster"]["entries"]) == 100
    assert got["roster"]["entries"][0]["name"] == "Lord Kroak"
    assert {len(e["name"]) for e in got["roster"]["entries"][5:]} == {60}
    assert {len(e["notes"]) for e in got["roster"]["entries"][5:]} == {300}


def test_the_screen_offers_at_most_40_remembered_units(client):
    url = _new_roster(client)
    rid = url.rsplit("/", 1)[1]
    token = client.get_cookie(f"muster_roster_{rid}", path="/rosters").value
    entries = [{"name": f"Unit {i:02}", "points": i} for i in range(45)]
    client.put(f"/api/v1/rosters/{rid}", json={"entries": entries}, headers={"X-Edit-Token": token})
    _add(client, url, name="Unit 45", points="45")
    page = soup(client.get(_new_roster(client, name="Next")))
    assert len(page.select(".quick-add button")) == 40
    assert len(page.select("#remembered-names option")) == 40


def test_a_game_screen_offers_only_the_phones_own_rosters(app, client):
    mine = client.post("/api/v1/rosters", json=seraphon_roster(name="Ann's Seraphon")).json["id"]
    stranger = app.test_client()
    theirs = stranger.post("/api/v1/rosters", json=seraphon_roster(name="Someone else's list")).json["id"]
    game = new_game(client)
    join(client, game)
    offered = {o["value"] for o in soup(client.get(f"/games/{game['id']}")).select("form.attach option")}
    assert mine in offered and theirs not in offered
    # A phone that made no roster is offered none, though it may edit the game.
    bo = second_phone(app, game)
    assert not soup(bo.get(f"/games/{game['id']}")).select("form.attach")


# --- rosters of a pack with the same army rules -----------------------------------------------
def test_a_pitched_battles_roster_fields_in_a_conquest_unbound_siege(app, client):
    """Conquest Unbound plays to the Pitched Battles army rules: a list built there attaches."""
    roster = client.post("/api/v1/rosters", json=seraphon_roster()).json["id"]
    from tests.web.helpers import siege as relief_force

    siege = relief_force(client)
    url = f"/api/v1/games/{siege['id']}/rosters"
    attached = client.post(
        url, json={"player": 1, "roster": roster}, headers={"X-Edit-Token": siege["edit_token"]}
    )
    assert attached.status_code == 201, attached.json
    army = attached.json["armies"]["1"]
    assert (army["general"], army["monsters"]) == ("Lord Kroak", ["Stegadon"])
    assert army["line"] == "general Lord Kroak · 1 HEROES · 1 MONSTERS · 3 Battleline"
    # An Old World roster does not: the sentence names the packs that do.
    old_world = client.post(
        "/api/v1/rosters", json={"pack": "old-world-rosters", "points_limit": 2000, "entries": []}
    ).json["id"]
    wrong = client.post(
        url, json={"player": 0, "roster": old_world}, headers={"X-Edit-Token": siege["edit_token"]}
    )
    assert wrong.status_code == 422
    assert wrong.json["error"] == (
        "roster is for old-world-rosters, but this game is played with aos-conquest-unbound: "
        "attach a roster of aos-conquest-unbound or aos-ghb-2021."
    )


def test_a_seat_phone_attaches_its_own_players_old_world_roster_from_its_screen(app):
    """A Triumph & Treachery seat offers the Old World rosters its phone made, for its own player."""
    from tests.web.helpers import made, phone

    game = made(app.test_client())
    bo = phone(app, game, 1)
    built = bo.post(
        "/rosters",
        data={
            "csrf_token": csrf_token(bo, "/rosters/new"),
            "pack": "old-world-rosters",
            "name": "Bo's Dwarfs",
            "points_preset": "2000",
        },
    )
    assert built.status_code == 303, built.get_data(as_text=True)
    page = soup(bo.get(f"/games/{game['id']}"))
    forms = page.select("#game form.attach")
    assert [f.select_one('input[name="player"]')["value"] for f in forms] == ["1"]
    assert [o.text for o in forms[0].select("option")] == ["Bo's Dwarfs"]
    fields = {
        "csrf_token": csrf_token(bo, f"/games/{game['id']}"),
        "roster": forms[0].select_one("option")["value"],
    }
    assert bo.post(f"/games/{game['id']}/armies", data={**fields, "player": "0"}).status_code == 403
    assert bo.post(f"/games/{game['id']}/armies", data={**fields, "player": "1"}).status_code == 303
    armies = soup(bo.get(f"/games/{game['id']}")).select_one("section.armies").text
    assert "Bo's Dwarfs" in armies and "0 entries" in armies
