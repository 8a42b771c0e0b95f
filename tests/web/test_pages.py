"""The screens through the Flask client: forms, CSRF, edit tokens, escaping, print."""

from __future__ import annotations

import io
import json

from pypdf import PdfReader

from tests.pdfs import pdf_text
from tests.setups import NO_STRATEGIES, join, new_game, new_game_form
from tests.web.conftest import Api, csrf_token, field_value, form_fields, qr_text_matches, soup, whole_page


def _csrf(page) -> str:
    return field_value(page, "csrf_token")


def _start_game(client, scenario="savage-gains", names=("Ann", "Bo")):
    return client.post("/games", data=new_game_form(csrf_token(client, "/games/new"), scenario, names))


def test_home_and_new_game_pages(client):
    home = soup(client.get("/"))
    assert home.select_one("h1").text == "Start a game"
    assert home.select_one("#tonight-h").text == "Tonight's tables"
    assert home.select_one('a[href="/packs/aos-ghb-2021"]').text == "Pitched Battles 2021"
    new = soup(client.get("/games/new"))
    options = [o["value"] for o in new.select("#scenario option") if o["value"]]
    assert len(options) == 12 and options[0] == "marking-territory"
    assert [o["label"].split(" (")[0] for o in new.select("#scenario optgroup")] == [
        "Battleplan Table 1",
        "Battleplan Table 2",
    ]


def test_battleplan_roll_shows_the_dice_and_picks_a_plan(client):
    page = client.get("/games/new")
    response = client.post("/games/new/roll", data={"csrf_token": _csrf(page), "name0": "Ann", "name1": "Bo"})
    fragment = soup(response)
    assert len(fragment.select(".die")) >= 4
    picked = fragment.select_one("#scenario option[selected]")
    assert picked is not None and picked["value"] in {
        s.id for s in client.application.extensions["muster.packs"]["aos-ghb-2021"].scenarios
    }
    assert picked.text.split(". ", 1)[1] in fragment.select_one(".dice-result").text


def test_new_game_form_creates_the_game_and_hands_over_the_edit_token(client):
    response = _start_game(client)
    assert response.status_code == 303
    game_url = response.headers["Location"]
    page = soup(client.get(game_url))
    assert next(s.text for s in page.select(".score-name")).startswith("Ann")
    # Player 2 (Bo) was chosen as attacker.
    assert "ATT" in page.select(".score-name")[1].text
    assert page.select_one("#round-form h2").text == "Battle round 1 begins"
    # A new game opens inviting the other phone. The join link is fetched when shown (the page a
    # phone keeps carries no token).
    invite = page.select_one("#invite")
    assert invite.select_one("h2").text == "Invite the other player"
    assert invite.select_one("[data-invite=copy]").text == "Copy the link"
    shown = client.get(invite["data-link"], headers={"HX-Request": "true"})
    join = soup(shown).select_one('input[aria-label="Join link"]')["value"]
    assert join not in str(page)
    assert qr_text_matches(client, invite.select_one("img.qr")["src"], join)
    # Only a phone that records in the game is shown how to join it.
    other = client.application.test_client()
    assert other.get(invite.select_one("img.qr")["src"]).status_code == 403
    assert client.get(invite["data-version"]).json["joined"] is False
    # The other phone joins: it is told it can record, and the invitation gives way to the
    # usual "score on a second phone".
    joined = other.get(join)
    assert joined.status_code == 303 and joined.headers["Location"].endswith(
        f"/games/{invite['data-link'].split('/')[2]}"
    )
    welcome = soup(other.get(joined.headers["Location"])).select_one("#welcome")
    assert welcome.text == "This phone can now record in this game."
    assert soup(other.get(joined.headers["Location"])).select_one("#welcome") is None  # said once
    assert client.get(invite["data-version"]).json["joined"] is True
    page = soup(client.get(game_url))
    assert page.select_one("#invite") is None and page.select_one(".share .token-link")["hx-get"]


def test_new_game_form_refusal_keeps_what_was_typed(client):
    page = client.get("/games/new")
    response = client.post(
        "/games",
        data={
            "csrf_token": _csrf(page),
            "name0": "Ann",
            "name1": "",
            "scenario": "first-blood",
            "points_limit": "2000",
        },
    )
    assert response.status_code == 422
    doc = soup(response)
    assert doc.select_one("#form-error").text == "Player 2's name must be 1 to 40 characters."
    assert doc.select_one("#name0")["value"] == "Ann"


def test_forms_without_csrf_are_refused(client):
    response = client.post("/games", data={"name0": "Ann", "name1": "Bo", "scenario": "first-blood"})
    assert response.status_code == 400
    assert "reload the page" in soup(response).select_one(".alert").text


def test_recording_through_the_screens(client):
    game_url = _start_game(client, scenario="savage-gains").headers["Location"]
    page = client.get(game_url)
    assert "Nothing scored yet" in soup(page).select_one(".history").text
    action, data = form_fields(page, "#round-form")
    data["first"] = "1"  # Bo, the attacker, goes first
    page = client.post(action, data=data, headers={"HX-Request": "true"})
    assert page.status_code == 200
    fragment = soup(page)
    assert fragment.select_one("#game") is not None and not whole_page(page)
    assert fragment.select_one("#turn-form h2").text == "Battle round 1: Bo's turn"
    action, data = form_fields(page, "#turn-form")
    data.update(
        {"control.attacker-border": "1", "control.west": "1", "tactic": "conquer", "tactic_completed": "on"}
    )
    page = client.post(action, data=data, headers={"HX-Request": "true"})
    fragment = soup(page)
    # Bo attacks: own border 1 + west 2 + tactic 2 = 5
    assert fragment.select_one('[data-testid="vp-1"]').text == "5"
    rules = [li.select_one("span").text for li in fragment.select(".breakdown li")]
    assert "Controls A border (on your own border)" in rules
    assert "Nothing scored yet" not in fragment.select_one(".history").text
    # Ann's turn is next; the objectives start as Bo left them.
    assert fragment.select_one("#turn-form h2").text == "Battle round 1: Ann's turn"
    assert fragment.select_one('select[name="control.west"] option[selected]')["value"] == "1"
    # Conquer is still offered to Ann; Bo's own list would not show it.
    assert fragment.select_one('#tactic option[value="conquer"]') is not None


def test_a_refused_form_shows_the_sentence_and_keeps_the_entries(client):
    game_url = _start_game(client, scenario="savage-gains").headers["Location"]
    page = client.get(game_url)
    action, data = form_fields(page, "#round-form")
    data["first"] = "0"
    page = client.post(action, data=data, headers={"HX-Request": "true"})
    action, data = form_fields(page, "#turn-form")
    data.update(
        {"tactic": "monstrous-takeover", "tactic_completed": "on", "tactic_bonus": "on", "control.east": "0"}
    )
    response = client.post(action, data=data, headers={"HX-Request": "true"})
    assert response.status_code == 422
    fragment = soup(response)
    # The screen names the field as the form does (the JSON API says tactic_bonus).
    assert (
        fragment.select_one("#error").text
        == "MONSTER bonus earned (where the tactic has one): Monstrous Takeover has no bonus."
    )
    assert fragment.select_one("#tactic option[selected]")["value"] == "monstrous-takeover"
    assert fragment.select_one('select[name="control.east"] option[selected]')["value"] == "0"


def test_double_tap_records_once(client):
    game_url = _start_game(client).headers["Location"]
    action, data = form_fields(client.get(game_url), "#round-form")
    data["first"] = "0"
    client.post(action, data=data)
    client.post(action, data=data)
    game_id = game_url.rsplit("/", 1)[1]
    assert len(client.get(f"/api/v1/games/{game_id}/events").json) == 1


def test_watchers_see_the_score_but_no_forms(app, client):
    made = new_game(client)
    watcher = app.test_client()
    page = soup(watcher.get(f"/games/{made['id']}"))
    assert page.select_one(".scorebar") is not None
    assert page.select("main form") == []  # the footer's language switch edits no game
    assert "watching" in page.select_one(".notice").text
    assert made["edit_token"] not in str(page)
    # And the server refuses a watcher's post even with a valid CSRF token.
    csrf = csrf_token(watcher, "/games/new")
    response = watcher.post(
        f"/games/{made['id']}/events", data={"csrf_token": csrf, "type": "battle_round", "round": "1"}
    )
    assert response.status_code == 403


def test_join_link_lets_a_second_phone_record(app, client):
    made = new_game(client)
    phone = app.test_client()
    assert phone.get(f"/games/{made['id']}/join/not-the-token").status_code == 403
    joined = join(phone, made)
    assert joined.status_code == 303
    page = soup(phone.get(f"/games/{made['id']}"))
    assert page.select_one("#round-form") is not None


def test_player_names_are_escaped(client):
    made = new_game(
        client, names=("<script>alert(1)</script>", 'Bo" onmouseover="x'), strategies=NO_STRATEGIES
    )
    html = client.get(f"/games/{made['id']}").data.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert 'Bo" onmouseover' not in html


def test_security_headers(client):
    response = client.get("/")
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert not soup(response).select("script:not([src])")


def test_unknown_pages_are_404_with_a_sentence(client):
    response = client.get("/games/does-not-exist")
    assert response.status_code == 404
    assert "no such game" in soup(response).select_one(".alert").text


def _pdf_text(response) -> str:
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    return pdf_text(response.data)


def test_filled_score_sheet_pdf(client):
    api = Api(client, new_game(client, "savage-gains"))
    api.ok({"type": "battle_round", "round": 1, "first": 0})
    api.ok(
        {
            "type": "turn",
            "round": 1,
            "player": 0,
            "control": {"west": 0},
            "tactic": "conquer",
            "tactic_completed": True,
        }
    )
    text = _pdf_text(client.get(f"/games/{api.id}/scoresheet.pdf"))
    for expected in (
        "Savage Gains",
        "Ann",
        "Bo",
        "Hold the Line",
        "Vendetta",
        "Conquer",
        "2,000",
        "Total VP",
    ):
        assert expected in text
    assert "Controls W (in neither territory) +2" in text


def test_blank_score_sheet_pdf_in_both_paper_sizes(client):
    for paper, width in (("a4", 595), ("letter", 612)):
        response = client.get(f"/packs/aos-ghb-2021/scenarios/the-vice/scoresheet.pdf?paper={paper}")
        reader = PdfReader(io.BytesIO(response.data))
        assert round(float(reader.pages[0].mediabox.width)) == width
        text = _pdf_text(response)
        assert "The Vice" in text and "Attacker" in text.title() and "Major victory" in text
    assert client.get("/packs/aos-ghb-2021/scenarios/the-vice/scoresheet.pdf?paper=a3").status_code == 400
    assert client.get("/packs/aos-ghb-2021/scenarios/nope/scoresheet.pdf").status_code == 404


def test_pack_page_lists_plans_with_readings(client):
    page = soup(client.get("/packs/aos-ghb-2021"))
    assert len(page.select("section[aria-labelledby=plans-h] details")) == 12
    readings = " ".join(r.text for r in page.select(".reading"))
    assert "Muster's reading" in readings and "previous turn" in readings


def test_readings_show_where_the_rule_applies(client):
    made = new_game(client, "power-struggle")
    join(client, made)
    api = Api(client, made)
    api.ok({"type": "battle_round", "round": 1, "first": 0})
    form = soup(client.get(f"/games/{made['id']}")).select_one("#turn-form")
    readings = [p.text for p in form.select(".reading")]
    assert readings == [
        'Hold your ground, Muster\'s reading: "Two of your turns consecutively" compares the control recorded at '
        "the end of this turn with the control recorded at the end of your own previous turn; the opponent's turn "
        "in between is not consulted."
    ]
    assert "at most once per battle round, whoever's turn the MONSTER died in" in form.text


def test_the_vice_round_form_says_what_moves(client):
    made = new_game(client, "the-vice")
    join(client, made)
    api = Api(client, made)
    for r in (1, 2, 3):
        form = soup(client.get(f"/games/{made['id']}")).select_one("#round-form")
        if r == 2:
            assert "Objectives moving in now: NW, NE, SW, SE." in form.text
        api.ok({"type": "battle_round", "round": r, "first": 0})
        api.ok({"type": "turn", "round": r, "player": 0, "control": {}})
        api.ok({"type": "turn", "round": r, "player": 1, "control": {}})
    form = soup(client.get(f"/games/{made['id']}")).select_one("#round-form")
    assert "Off the battlefield from this round: NW, NE, SW, SE." in form.text
    assert "New on the battlefield this round: C." in form.text


def test_predators_and_prey_claimed_on_the_screen(client):
    game_url = _start_game(client, scenario="first-blood").headers["Location"]
    page = client.get(game_url)
    # Before battle round 1 starts nothing is in play: the claims card is there for offline use, hidden.
    assert soup(page).select_one("section.claims")["hidden"] is not None
    action, data = form_fields(page, "#round-form")
    data["first"] = "0"
    page = client.post(action, data=data, headers={"HX-Request": "true"})
    card = soup(page).select_one("section.claims")
    assert not card.has_attr("hidden")
    shown = card.select_one('[data-claim-round="1"]')
    assert [b.text for b in shown.select("button")] == [
        "+1 VP for Ann: an enemy MONSTER was slain",
        "+1 VP for Bo: an enemy MONSTER was slain",
    ]
    # Ann records her turn; then Bo's MONSTER falls in Bo's turn and Ann claims from the card.
    action, data = form_fields(page, "#turn-form")
    page = client.post(action, data=data, headers={"HX-Request": "true"})
    action, data = form_fields(page, "#turn-form")
    page = client.post(action, data=data, headers={"HX-Request": "true"})
    action, data = form_fields(page, '[data-claim-round="1"] form[data-claim-player="0"]')
    page = client.post(action, data=data, headers={"HX-Request": "true"})
    fragment = soup(page)
    assert fragment.select_one('[data-testid="vp-0"]').text == "1"
    row = fragment.select("table.rounds tbody tr")[0]
    assert [td.text for td in row.select("td")] == ["1", "0"]
    assert "Predators and Prey" in fragment.select_one(".claims-log").text
    # Ann's claim is done; Bo may still claim round 1 until round 2 starts.
    shown = fragment.select_one('[data-claim-round="1"]')
    assert "Ann: scored for battle round 1." in shown.text
    assert [f["data-claim-player"] for f in shown.select("form")] == ["1"]
    # Undo takes the claim back.
    action, data = form_fields(page, ".undo-form")
    page = client.post(action, data=data, headers={"HX-Request": "true"})
    assert soup(page).select_one('[data-testid="vp-0"]').text == "0"


def test_predators_and_prey_offered_after_round_5_until_the_end(client):
    # Issue 11: after the last turn of battle round 5 both players may still claim round 5
    # on the screen; once the end of the battle is recorded the card is gone.
    made = new_game(client, "first-blood")
    join(client, made)
    api = Api(client, made)
    for r in range(1, 6):
        api.ok({"type": "battle_round", "round": r, "first": 0})
        api.ok({"type": "turn", "round": r, "player": 0, "control": {}})
        api.ok({"type": "turn", "round": r, "player": 1, "control": {}})
    card = soup(client.get(f"/games/{made['id']}")).select_one("section.claims")
    shown = card.select_one('[data-claim-round="5"]')
    assert not card.has_attr("hidden") and not shown.has_attr("hidden")
    assert [f["data-claim-player"] for f in shown.select("form")] == ["0", "1"]
    assert "until the grand strategies are recorded" in shown.text
    api.ok({"type": "end", "player": 0, "grand_strategy_completed": False})
    assert soup(client.get(f"/games/{made['id']}")).select_one("section.claims") is None


def test_a_claim_before_the_players_turn_is_printed_in_its_rounds_row(client):
    # Issue 11: the VP of a claim shows in its battle round's breakdown, on the filled sheet
    # too, even when the claiming player has not yet taken their turn in that round.
    api = Api(client, new_game(client, "first-blood"))
    api.ok({"type": "battle_round", "round": 1, "first": 0})
    api.ok({"type": "turn", "round": 1, "player": 0, "control": {}})
    api.ok({"type": "turn", "round": 1, "player": 1, "control": {}})
    api.ok({"type": "battle_round", "round": 2, "first": 1})
    api.ok({"type": "claim", "round": 2, "player": 1, "rule": "predators-and-prey"})
    lines = _pdf_text(client.get(f"/games/{api.id}/scoresheet.pdf")).splitlines()
    assert "2 1st 1 Predators and Prey: enemy MONSTERS slain this battle round +1" in lines
    assert "1 No 0 0" in lines  # Bo's round 1 row: no claim there


def test_a_claimed_player_is_not_asked_again_on_their_turn(client):
    made = new_game(client, "first-blood")
    join(client, made)
    api = Api(client, made)
    api.ok({"type": "battle_round", "round": 1, "first": 0})
    # Bo claims in Ann's turn (his attack in her combat phase slew her MONSTER) before his own turn.
    api.ok({"type": "turn", "round": 1, "player": 0, "control": {}})
    api.ok({"type": "claim", "round": 1, "player": 1, "rule": "predators-and-prey"})
    form = soup(client.get(f"/games/{made['id']}")).select_one("#turn-form")
    assert form.select_one('input[name="enemy_monsters_slain"]') is None
    assert "Bo has already scored Predators and Prey in battle round 1." in form.text
    # The turn forms kept for offline still carry the flag, marked for the offline layer.
    page = soup(client.get(f"/games/{made['id']}"))
    ahead = page.select_one('template[data-step="turn-2-1"]').decode_contents()
    assert 'data-once="predators-and-prey/2/1"' in ahead
    assert page.select_one('section.claims form[data-once="predators-and-prey/2/1"]') is not None


def test_first_blood_scenario_roll_is_kept_in_the_new_games_log(client):
    page = client.get("/games/new?pack=conquest-first-blood")
    field = soup(page).select_one("#battleplan-field")
    assert "roll a D12" in field.text and "a 12 is rolled again" in field.select_one(".reading").text
    rolled = soup(
        client.post(
            "/games/new/roll?pack=conquest-first-blood",
            data={"csrf_token": _csrf(page), "pack": "conquest-first-blood", "name0": "Ann", "name1": "Bo"},
        )
    )
    picked = rolled.select_one("#scenario option[selected]")
    dice = [int(d.text) for d in rolled.select(".dice-result .die")]
    # Every die but the last was a 12 (rolled again); the last is the scenario's number.
    assert all(n == 12 for n in dice[:-1]) and 1 <= dice[-1] <= 11
    assert picked.text.startswith(f"{dice[-1]}. ")
    form = {
        "csrf_token": _csrf(page),
        "pack": "conquest-first-blood",
        "points_limit": "800",
        "name0": "Ann",
        "name1": "Bo",
        "first_side": "0",
        "scenario": picked["value"],
        "rolls": rolled.select_one('input[name="rolls"]')["value"],
    }
    made = client.post("/games", data=form)
    assert made.status_code == 303
    game_id = made.headers["Location"].rsplit("/", 1)[1]
    rolls = client.get(f"/api/v1/games/{game_id}").json["rolls"]
    assert [r["results"] for r in rolls] == [[n] for n in dice]
    assert {r["dice"] for r in rolls} == {"d12"} and rolls[-1]["purpose"].endswith(
        picked.text.split(". ", 1)[1]
    )


def test_battleplan_roll_is_kept_in_the_new_games_log(client):
    page = client.get("/games/new")
    rolled = soup(
        client.post("/games/new/roll", data={"csrf_token": _csrf(page), "name0": "Ann", "name1": "Bo"})
    )
    form = {
        "csrf_token": _csrf(page),
        "pack": "aos-ghb-2021",
        "points_limit": "2000",
        "name0": "Ann",
        "name1": "Bo",
        "first_side": "0",
        "scenario": rolled.select_one("#scenario option[selected]")["value"],
        "rolls": rolled.select_one('input[name="rolls"]')["value"],
    }
    game_id = client.post("/games", data=form).headers["Location"].rsplit("/", 1)[1]
    rolls = client.get(f"/api/v1/games/{game_id}").json["rolls"]
    assert [r["dice"] for r in rolls][-3:] == ["roll-off", "d6", "d6"]
    assert (
        rolls[-1]["purpose"]
        == "Battleplan: " + rolled.select_one("#scenario option[selected]").text.split(". ", 1)[1]
    )
    # A hand-edited roll is left out; the game still starts.
    form["rolls"] = json.dumps(
        {"scenario": form["scenario"], "events": [{"dice": "d12", "results": [13]}, "x"]}
    )
    game_id = client.post("/games", data=form).headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/v1/games/{game_id}").json["rolls"] == []
    # Rolled, then another battleplan picked from the list: the roll decided nothing, so it is not kept.
    form["rolls"] = rolled.select_one('input[name="rolls"]')["value"]
    form["scenario"] = next(s for s in ("savage-gains", "the-vice") if s != form["scenario"])
    game_id = client.post("/games", data=form).headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/v1/games/{game_id}").json["rolls"] == []


def test_the_entry_line_and_undo_name_the_last_entry(client):
    """Issue 24 items 3 and 4: the game screen says what the last entry did, its Undo names the
    entry it takes back, and an Undo made stale by another phone's entry is refused in words."""
    game = new_game(client)
    client.get(game["join_url"])
    api = Api(client, game)
    api.ok({"type": "battle_round", "round": 1, "first": 1})
    api.ok({"type": "turn", "round": 1, "player": 1, "control": {"defender-border": 1}})
    page = soup(client.get(f"/games/{game['id']}"))
    assert page.select_one("[data-testid=last-entry]").text == "Bo's turn recorded: +1 VP"
    assert page.select_one("#last-entry .undo-form button").text == "Undo Bo's turn, round 1 (1 VP)"
    action, data = form_fields(client.get(f"/games/{game['id']}"), "#last-entry .undo-form")
    api.ok({"type": "turn", "round": 1, "player": 0, "control": {}})  # another phone records
    stale = client.post(action, data=data, headers={"HX-Request": "true"})
    assert stale.status_code == 422
    assert soup(stale).select_one("#error").text == (
        "Only the last entry can be undone, and it has changed: the screen now shows it."
    )
    assert soup(stale).select_one("#last-entry .undo-form button").text == "Undo Ann's turn, round 1"
    done = client.post(
        action,
        data={**data, "event": soup(stale).select_one("#last-entry [name=event]")["value"]},
        headers={"HX-Request": "true"},
    )
    assert soup(done).select_one("[data-testid=last-entry]").text == "Undone: Ann's turn, round 1"
