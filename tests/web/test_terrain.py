"""Terrain through the API and the terrain screen."""

from __future__ import annotations

import sqlite3
import uuid

from werkzeug.datastructures import MultiDict

from tests.pdfs import pdf_text
from tests.setups import join, new_game, second_phone, terrain_game
from tests.web.conftest import csrf_token, soup
from tests.web.helpers import htmx_post


# --- API ---------------------------------------------------------------------------------------
def test_check_answers_a_verdict_for_any_well_formed_set(client):
    body = {
        "pack": "conquest-first-blood",
        "pieces": [
            {
                "name": "Forest",
                "kind": "zonal",
                "size": 3,
                "keywords": ["traversable", "hindering", "cover"],
                "footprint": [6, 9],
                "obscuring": True,
            },
            {
                "name": "Swamp",
                "kind": "zonal",
                "size": 5,
                "keywords": ["impassable", "traversable", "obstructing"],
            },
        ],
    }
    answer = client.post("/api/v1/terrain/check", json=body)
    assert answer.status_code == 200 and answer.json["valid"] is False
    problems = {p["rule"]: p for p in answer.json["problems"]}
    assert set(problems) == {"min-obscuring", "min-obstructing", "size-range", "keyword-conflict"}
    assert problems["size-range"]["pieces"] == ["Swamp"] and problems["size-range"]["indices"] == [1]
    assert [a["rule"] for a in answer.json["advice"]] == ["suggested-pieces"]


def test_check_with_a_scenario_measures_to_its_zones(client):
    body = {
        "pack": "conquest-first-blood",
        "scenario": "outflank",
        "pieces": [
            {
                "name": "Ruin",
                "footprint": [4, 4],
                "x": 24,
                "y": 24,
                "obscuring": True,
                "keywords": ["obstructing"],
            },
            {
                "name": "Hill",
                "footprint": [6, 6],
                "x": 40,
                "y": 40,
                "obscuring": True,
                "keywords": ["obstructing"],
            },
        ],
    }
    answer = client.post("/api/v1/terrain/check", json=body).json
    assert [p["rule"] for p in answer["problems"]] == ["objective-zone"]
    assert "Ruin (piece 1) stands on the objective zone C" in answer["problems"][0]["message"]


def test_check_refuses_only_what_is_not_a_set(client):
    bad = [
        ({"pack": "chess", "pieces": []}, "pack must be one of the rulepacks with terrain rules"),
        (
            {"pack": "conquest-first-blood", "pieces": [{"name": "x", "keywords": ["lava"]}]},
            "'lava' is not a terrain keyword",
        ),
        ({"pack": "conquest-first-blood", "scenario": "moon", "pieces": []}, "scenario must be the id"),
        ({"pack": "conquest-first-blood", "pieces": [{"name": "x", "x": 3}]}, "give both x and y"),
        ({"pack": "aos-ghb-2021", "pieces": [], "siege": "yes"}, "siege must be true or false"),
    ]
    for body, sentence in bad:
        answer = client.post("/api/v1/terrain/check", json=body)
        assert answer.status_code == 422 and sentence in answer.json["error"], body
    empty = client.post("/api/v1/terrain/check", json={"pack": "aos-ghb-2021", "pieces": []})
    assert empty.status_code == 200 and empty.json["valid"] is True


def test_aos_siege_and_distances(client):
    pieces = [{"name": f"Tower {i}", "fortress": True} for i in range(4)]
    answer = client.post(
        "/api/v1/terrain/check", json={"pack": "aos-ghb-2021", "siege": True, "pieces": pieces}
    ).json
    assert [p["rule"] for p in answer["problems"]] == ["fortress-min"]
    near = [{"name": "Wall", "footprint": [4, 2], "x": 3, "y": 20}]
    answer = client.post(
        "/api/v1/terrain/check", json={"pack": "aos-ghb-2021", "scenario": "savage-gains", "pieces": near}
    ).json
    assert [p["rule"] for p in answer["problems"]] == ["edge-gap"]


def test_line_of_sight_api(client):
    answer = client.post(
        "/api/v1/terrain/line-of-sight",
        json={
            "shooter": {"size": 1, "elevated_on": 2},
            "target": {"size": 1},
            "between": [{"name": "Regiment B", "kind": "regiment", "size": 1, "elevated_on": 2}],
        },
    ).json
    assert answer["clear"] is False and answer["blocked_by"] == ["Regiment B"] and answer["shooter_size"] == 3
    assert (
        client.post("/api/v1/terrain/line-of-sight", json={"shooter": {}, "target": {"size": -1}}).status_code
        == 422
    )


def test_cover_only_for_a_target_no_bigger_than_the_piece_api(client):
    """Issue 11 item 4: a Size 3 target behind Size 1 Cover gains no cover."""

    def sight(target_size: int, cover_size: int) -> dict:
        return client.post(
            "/api/v1/terrain/line-of-sight",
            json={
                "shooter": {"size": 1},
                "target": {"size": target_size},
                "between": [{"name": "Wheat", "kind": "terrain", "size": cover_size, "cover": True}],
            },
        ).json

    assert sight(3, 1)["cover"] is False
    assert "the target (Size 3) is bigger: it gains no cover" in sight(3, 1)["reasons"][-1]
    assert sight(1, 1)["cover"] is True and sight(3, 3)["cover"] is True and sight(4, 3)["cover"] is False


def test_garrison_elevation_api(client):
    def sight(shooter: dict, target: dict) -> dict:
        between = [{"name": "Hill", "kind": "terrain", "size": 2, "obstructing": True}]
        return client.post(
            "/api/v1/terrain/line-of-sight", json={"shooter": shooter, "target": target, "between": between}
        )

    volley = sight({"size": 1, "garrison": {"elevation": 3}}, {"size": 1}).json
    assert volley["clear"] is True and volley["shooter_size"] == 3
    assert "The shooter volleys from a garrison: it counts as Size 3" in volley["reasons"][1]
    assert sight({"size": 1, "garrison": {"elevation": 2}}, {"size": 1}).json["blocked_by"] == ["Hill"]
    occupied = sight({"size": 1}, {"size": 1, "garrison": {"size": 3}}).json
    assert occupied["target_size"] == 3 and occupied["clear"] is True
    for shooter, target, sentence in [
        ({"garrison": {"size": 2}}, {}, "shooter.garrison.elevation must be a whole number from 0 to 20."),
        ({}, {"garrison": {"elevation": 2}}, "target.garrison.size must be a whole number from 0 to 20."),
        ({"garrison": 3}, {}, 'shooter.garrison must be an object such as {"elevation": 2}, or left out.'),
        (
            {"garrison": {"elevation": 21}},
            {},
            "shooter.garrison.elevation must be a whole number from 0 to 20.",
        ),
    ]:
        refused = sight(shooter, target)
        assert refused.status_code == 422 and refused.json["error"] == sentence


def test_garrison_elevation_is_kept_on_a_piece(client):
    answer = client.post(
        "/api/v1/terrain/check",
        json={
            "pack": "conquest-first-blood",
            "pieces": [{"name": "Tower", "kind": "garrison", "elevation": 3}],
        },
    )
    assert answer.status_code == 200
    bad = client.post(
        "/api/v1/terrain/check",
        json={
            "pack": "conquest-first-blood",
            "pieces": [{"name": "Tower", "kind": "garrison", "elevation": 1.5}],
        },
    )
    assert bad.status_code == 422 and bad.json["error"] == "pieces[0].elevation must be a whole number."


def test_no_terrain_on_a_marker_or_point_api(client):
    """Issue 11 item 6: a ruin on Shieldwall's marker or Tug-of-War's centre point is a problem."""
    ruin = {"name": "Ruin", "ruins": True, "footprint": [4, 2]}
    for scenario, x, y, label in [
        ("shieldwall", 18, 18, "marker P1 centre"),
        ("tug-of-war", 24, 24, "point C"),
        # Issue 23 item 12: the marker's base counts, not its centre. The ruin's edge is half an
        # inch from the marker's centre: on its 2" Brute or Cavalry base, and on the 27 mm point.
        ("shieldwall", 20.5, 18, "marker P1 centre"),
        ("tug-of-war", 26.5, 24, "point C"),
    ]:
        answer = client.post(
            "/api/v1/terrain/check",
            json={"pack": "conquest-first-blood", "scenario": scenario, "pieces": [{**ruin, "x": x, "y": y}]},
        ).json
        found = [p for p in answer["problems"] if p["rule"] == "objective-marker"]
        assert [p["message"] for p in found] == [
            f"Ruin (piece 1) stands on the objective {label}; no terrain may."
        ]
        assert found[0]["pieces"] == ["Ruin"] and answer["valid"] is False
    # Clear of the base: no problem.
    for scenario, x, y in [("shieldwall", 21.5, 18), ("tug-of-war", 26.6, 24)]:
        answer = client.post(
            "/api/v1/terrain/check",
            json={"pack": "conquest-first-blood", "scenario": scenario, "pieces": [{**ruin, "x": x, "y": y}]},
        ).json
        assert not [p for p in answer["problems"] if p["rule"] == "objective-marker"], (scenario, x)


def test_keyword_advice_api(client):
    """Issue 11 item 9: two or three keywords a piece, Elevated with Traversable flagged: advice."""
    answer = client.post(
        "/api/v1/terrain/check",
        json={
            "pack": "conquest-first-blood",
            "pieces": [
                {"name": "Odd hill", "size": 2, "keywords": ["elevated", "traversable", "cover", "water"]}
            ],
        },
    ).json
    advice = {a["rule"]: a["message"] for a in answer["advice"]}
    assert (
        advice["keyword-count"]
        == "Odd hill (piece 1) has 4 keywords; the rulebook advises no more than 3 a piece."
    )
    assert advice["keyword-contradiction"].startswith("Odd hill (piece 1) is both Elevated and Traversable")
    assert not [p for p in answer["problems"] if p["rule"].startswith("keyword")]


def test_keyword_advice_on_the_terrain_screen(client):
    """Issue 11 item 9: the terrain screen itself shows the keyword advice beside the piece."""
    _made, url = terrain_game(client)
    fields = [("id", str(uuid.uuid4())), ("csrf_token", csrf_token(client, url)), ("name", "Odd hill")]
    fields += [("kind", "zonal"), ("size", "2")]
    fields += [("keywords", k) for k in ["elevated", "traversable", "cover", "water"]]
    page = client.post(f"{url}/pieces", data=MultiDict(fields), headers={"HX-Request": "true"})
    assert page.status_code == 200
    advice = {p["data-rule"]: p.text for p in soup(page).select("p.hint[data-rule]")}
    assert advice["keyword-count"] == (
        "Advice: Odd hill (piece 1) has 4 keywords; the rulebook advises no more than 3 a piece."
    )
    assert "Odd hill (piece 1) is both Elevated and Traversable" in advice["keyword-contradiction"]


# --- the terrain screen ----------------------------------------------------------------------------
def test_add_agree_change_reopen(app, client):
    made, url = terrain_game(client)
    token = csrf_token(client, url)
    page = soup(htmx_post(client, f"{url}/pieces", csrf_token=token, preset="Forest"))
    assert page.select_one(".entry-name").text == "Forest"
    assert "Traversable" in page.select_one(".effects").text
    assert page.select_one('[data-testid="agreement"]').text.strip() == "1 of 1 piece still to agree."
    uid = page.select_one(".piece-entry")["data-uid"]
    htmx_post(client, f"{url}/pieces/{uid}/agree", csrf_token=token, player="0")
    bo = second_phone(app, made)
    page = soup(htmx_post(bo, f"{url}/pieces/{uid}/agree", csrf_token=csrf_token(bo, url), player="1"))
    assert (
        page.select_one('[data-testid="agreement"]').text.strip().startswith("Agreed by both and locked at")
    )
    api = client.get(f"/api/v1/games/{made['id']}/terrain").json
    assert api["agreed"] and api["locked_at"] and api["pieces"][0]["agreed_by"] == ["Ann", "Bo"]
    # A change after the lock reopens that piece and is recorded.
    page = soup(htmx_post(client, f"{url}/pieces/{uid}/move", csrf_token=token, x="20", y="20"))
    assert page.select_one('[data-testid="agreement"]').text.strip() == "1 of 1 piece still to agree."
    api = client.get(f"/api/v1/games/{made['id']}/terrain").json
    assert api["locked_at"] is None and api["pieces"][0]["x"] == 20
    assert api["history"][-1]["what"] == "Moved Forest (agreement reopened)"
    # The game screen says so at a tap.
    link = soup(client.get(f"/games/{made['id']}")).select_one(".terrain-link a").text
    assert link == "Terrain: 1 to agree"


def test_one_phone_agrees_only_for_its_player(app, client):
    made, url = terrain_game(client)
    token = csrf_token(client, url)
    htmx_post(client, f"{url}/pieces", csrf_token=token, preset="Hill")
    assert htmx_post(client, f"{url}/seat", csrf_token=token, seat="1").status_code == 200
    page = soup(client.get(url))
    assert [b.text for b in page.select(".piece-entry .entry-actions button.primary")] == ["Bo agrees"]
    assert page.select_one('[data-testid="seat"]').text.startswith("This phone agrees for Bo.")
    # Ann's phone is offered Ann only: Bo's seat is held by the first phone.
    ann = second_phone(app, made)
    buttons = [b.text for b in soup(ann.get(url)).select(".piece-entry .entry-actions button.primary")]
    assert buttons == ["Ann agrees"]
    refused = htmx_post(ann, f"{url}/seat", csrf_token=csrf_token(ann, url), seat="1")
    assert refused.status_code == 422
    assert soup(refused).select_one("#error").text == (
        "Bo already agrees on another phone; only that phone can agree for Bo."
    )


def test_one_phone_cannot_agree_as_both_and_lock_the_set(app, client):
    """Issue 12 item 8: the attack was one phone ticking both players' boxes."""
    made, url = terrain_game(client)
    token = csrf_token(client, url)
    uid = soup(htmx_post(client, f"{url}/pieces", csrf_token=token, preset="Hill")).select_one(
        ".piece-entry"
    )["data-uid"]
    assert htmx_post(client, f"{url}/pieces/{uid}/agree", csrf_token=token, player="0").status_code == 200
    refused = htmx_post(client, f"{url}/pieces/{uid}/agree", csrf_token=token, player="1")
    assert refused.status_code == 422
    assert soup(refused).select_one("#error").text == (
        "This phone agrees for Ann; Bo agrees on their own phone (join by the game's link)."
    )
    api = client.get(f"/api/v1/games/{made['id']}/terrain").json
    assert api["locked_at"] is None and api["pieces"][0]["agreed_by"] == ["Ann"]
    # Without the cookie a new phone id is made, so clearing cookies gives a different phone.
    fresh = second_phone(app, made)
    assert (
        htmx_post(
            fresh, f"{url}/pieces/{uid}/agree", csrf_token=csrf_token(fresh, url), player="0"
        ).status_code
        == 422
    )
    assert (
        htmx_post(
            fresh, f"{url}/pieces/{uid}/agree", csrf_token=csrf_token(fresh, url), player="1"
        ).status_code
        == 200
    )
    assert client.get(f"/api/v1/games/{made['id']}/terrain").json["agreed"] is True


def test_custom_piece_and_refusal_keeps_the_form(client):
    _made, url = terrain_game(client)
    token = csrf_token(client, url)
    bad = htmx_post(
        client, f"{url}/pieces", csrf_token=token, name="Tower", kind="garrison", size="2", footprint_w="4"
    )
    assert bad.status_code == 422
    assert soup(bad).select_one("#error").text == "footprint: give both width and depth, or neither."
    assert soup(bad).select_one('#terrain input[name="name"]')["value"] == "Tower"
    good = soup(
        htmx_post(
            client,
            f"{url}/pieces",
            csrf_token=token,
            name="Tower",
            kind="garrison",
            size="2",
            footprint_w="4",
            footprint_h="4",
            x="24",
            y="40",
            save_preset="on",
        )
    )
    tags = good.select_one(".piece-entry .tags").text
    assert "Defense 1" in tags and "Capacity 4" in tags and 'at 24", 40"' in tags
    # Kept as a preset for the next game of this pack.
    _, other = terrain_game(client, "raid")
    assert "+ Tower" in [b.text for b in soup(client.get(other)).select(".quick-add button")]


def test_watchers_cannot_change_terrain(app, client):
    _made, url = terrain_game(client)
    token = csrf_token(client, url)
    htmx_post(client, f"{url}/pieces", csrf_token=token, preset="Forest")
    watcher = app.test_client()
    page = soup(watcher.get(url))
    assert page.select_one(".entry-name").text == "Forest" and page.select("form.piece-form") == []
    wtoken = csrf_token(watcher, "/games/new")
    assert watcher.post(f"{url}/pieces", data={"csrf_token": wtoken, "preset": "Hill"}).status_code == 403


def test_saved_sets_come_back_on_the_same_phone(client):
    _made, url = terrain_game(client)
    token = csrf_token(client, url)
    htmx_post(client, f"{url}/pieces", csrf_token=token, preset="Forest")
    htmx_post(client, f"{url}/pieces", csrf_token=token, preset="Hill")
    htmx_post(client, f"{url}/library", csrf_token=token, name="Table 3")
    _, other = terrain_game(client, "raid")
    page = soup(client.get(other))
    form = next(f for f in page.select("form") if "Table 3" in f.text)
    loaded = soup(client.post(form["action"], data={"csrf_token": token}, headers={"HX-Request": "true"}))
    assert [e.text for e in loaded.select(".entry-name")] == ["Forest", "Hill"]


def test_aos_mysterious_terrain_roll_and_card(client):
    made = new_game(client)
    join(client, made)
    url = f"/games/{made['id']}/terrain"
    token = csrf_token(client, url)
    page = soup(
        htmx_post(
            client, f"{url}/pieces", csrf_token=token, name="Old Ruin", footprint_w="6", footprint_h="4"
        )
    )
    uid = page.select_one(".piece-entry")["data-uid"]
    rolled = soup(htmx_post(client, f"{url}/pieces/{uid}/mysterious", csrf_token=token, roll="4"))
    assert rolled.select_one(".effects").text.startswith("Mysterious terrain (4): Deadly.")
    pdf = client.get(f"{url}/card.pdf?paper=letter")
    text = pdf_text(pdf.data)
    assert "Old Ruin" in text and "Deadly (4)" in text and "NOT YET AGREED" in text


def test_conquest_card_lists_keywords_and_effects(app, client):
    made, url = terrain_game(client)
    token = csrf_token(client, url)
    page = soup(htmx_post(client, f"{url}/pieces", csrf_token=token, preset="Forest"))
    uid = page.select_one(".piece-entry")["data-uid"]
    htmx_post(client, f"{url}/pieces/{uid}/agree", csrf_token=token, player="0")
    bo = second_phone(app, made)
    htmx_post(bo, f"{url}/pieces/{uid}/agree", csrf_token=csrf_token(bo, url), player="1")
    text = pdf_text(client.get(f"{url}/card.pdf").data)
    assert (
        "Forest" in text
        and "See Traversable, Hindering, Cover below." in " ".join(text.split())
        and "agreed by both" in text
    )
    assert "WHAT THE TERRAIN DOES" in text.upper() and "makes no Impact attacks" in " ".join(text.split())


def test_the_card_prints_each_rule_once_however_many_pieces_have_it(client):
    """Issue 27 item 7: each keyword's rule in every row made a card at the caps (60 pieces) a
    minute of layout; it is printed once, after the table, and each row names its keywords."""
    _made, url = terrain_game(client)
    token = csrf_token(client, url)
    for n in range(6):
        htmx_post(client, f"{url}/pieces", csrf_token=token, preset="Forest", name=f"Forest {n}")
    text = " ".join(pdf_text(client.get(f"{url}/card.pdf").data).split())
    assert text.count("See Traversable, Hindering, Cover below.") == 6
    assert text.count("makes no Impact attacks") == 1


def test_line_of_sight_on_the_screen(client):
    _made, url = terrain_game(client)
    token = csrf_token(client, url)
    answer = soup(
        client.post(
            f"{url}/line-of-sight",
            data={
                "csrf_token": token,
                "shooter_size": "1",
                "shooter_on": "2",
                "target_size": "1",
                "target_on": "0",
                "b0.kind": "regiment",
                "b0.size": "1",
                "b0.elevated_on": "2",
            },
        )
    )
    assert answer.select_one("strong").text == "Blocked by Item 1."


def test_line_of_sight_on_the_screen_from_a_garrison(client):
    _made, url = terrain_game(client)
    form = {
        "csrf_token": csrf_token(client, url),
        "shooter_size": "1",
        "target_size": "1",
        "b0.kind": "terrain",
        "b0.size": "2",
        "b0.obstructing": "on",
    }
    assert (
        soup(client.post(f"{url}/line-of-sight", data=form)).select_one("strong").text == "Blocked by Item 1."
    )
    answer = soup(client.post(f"{url}/line-of-sight", data={**form, "shooter_garrison": "3"}))
    assert answer.select_one("strong").text == "Clear: the shooter can see and volley the target."
    assert "the garrison's Elevation" in answer.text


def test_reading_a_terrain_set_writes_nothing(app, client):
    made, url = terrain_game(client)
    assert client.get(f"/api/v1/games/{made['id']}/terrain").json["pieces"] == []
    assert client.get(url).status_code == 200
    db = sqlite3.connect(app.config["DATABASE"])
    try:
        assert db.execute("SELECT count(*) FROM terrain_sets").fetchone() == (0,)
    finally:
        db.close()
    # The first change makes the set.
    assert (
        htmx_post(client, f"{url}/pieces", csrf_token=csrf_token(client, url), preset="Forest").status_code
        == 200
    )
    assert len(client.get(f"/api/v1/games/{made['id']}/terrain").json["pieces"]) == 1


def test_in_a_game_with_seats_each_seat_agrees_for_its_own_player(app, client):
    """Issue 12 item 8, once seats exist: agreeing is bound to the seat, not to whichever phone
    holds the table's link; the table screen adds pieces but agrees for nobody."""
    from tests.web.helpers import phone
    from tests.web.helpers import siege as relief_force

    made = relief_force(client)
    url = f"/games/{made['id']}/terrain"
    table, ann, bo = (phone(app, made, who) for who in ("table", 0, 1))
    added = htmx_post(table, f"{url}/pieces", csrf_token=csrf_token(table, url), name="Gatehouse")
    assert added.status_code == 200, soup(added).select_one("#error")
    uid = soup(added).select_one(".piece-entry")["data-uid"]
    assert (
        soup(table.get(url))
        .select_one('[data-testid="seat"]')
        .text.startswith("Each player agrees on their own seat's phone")
    )
    assert not soup(table.get(url)).select(".piece-entry .entry-actions button.primary")
    assert (
        htmx_post(
            table, f"{url}/pieces/{uid}/agree", csrf_token=csrf_token(table, url), player="1"
        ).status_code
        == 403
    )

    # Ann's seat is offered Ann only, and cannot agree for Bo.
    page = soup(ann.get(url))
    assert [b.text for b in page.select(".piece-entry .entry-actions button.primary")] == ["Ann agrees"]
    assert (
        htmx_post(ann, f"{url}/pieces/{uid}/agree", csrf_token=csrf_token(ann, url), player="1").status_code
        == 403
    )
    assert (
        htmx_post(ann, f"{url}/pieces/{uid}/agree", csrf_token=csrf_token(ann, url), player="0").status_code
        == 200
    )
    assert client.get(f"/api/v1/games/{made['id']}/terrain").json["locked_at"] is None
    # Bo's seat, on whatever phone opens it, agrees for Bo: the set is agreed by both.
    assert (
        htmx_post(bo, f"{url}/pieces/{uid}/agree", csrf_token=csrf_token(bo, url), player="1").status_code
        == 200
    )
    assert client.get(f"/api/v1/games/{made['id']}/terrain").json["agreed"] is True
