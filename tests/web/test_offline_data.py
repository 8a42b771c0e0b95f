"""What the server gives the offline layer: step data on every step form, the refusal in a
header, what it holds for a refused entry as HTML, and one rule for fragment or page."""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from urllib.parse import unquote

import pytest
from bs4 import BeautifulSoup
from markupsafe import Markup
from werkzeug.exceptions import Forbidden, TooManyRequests

from app.web.pages import squeeze
from tests.setups import NO_STRATEGIES, new_game, pitched_battle
from tests.web.conftest import Api, parsed, soup

ROOT = Path(__file__).resolve().parents[2]


def _joined(client, made):
    client.get(f"/games/{made['id']}/join/{made['edit_token']}")
    return soup(client.get(f"/games/{made['id']}"))


def _first_blood(client):
    made = client.post(
        "/api/v1/games",
        json={
            "pack": "conquest-first-blood",
            "scenario": "twin-contested-zones",
            "points_limit": 500,
            "players": [{"name": "Ann", "side": "player1"}, {"name": "Bo", "side": "player2"}],
        },
    ).json
    return made


def _form_data(form) -> dict[str, str]:
    data = {}
    for field in form.select("input[name], select[name]"):
        if field.name == "select":
            chosen = field.select_one("option[selected]") or field.select_one("option")
            data[field["name"]] = chosen["value"] if chosen else ""
        elif field.get("type") in ("radio", "checkbox"):
            if field.has_attr("checked"):
                data[field["name"]] = field.get("value", "on")
        else:
            data[field["name"]] = field.get("value", "")
    return data


# --- step data --------------------------------------------------------------------------
def test_a_new_battle_page_carries_every_steps_data(client):
    page = _joined(client, new_game(client))
    board = page.select_one("#game")
    assert (board["data-step"], board["data-plan"], board["data-in-play"]) == ("round-1", "round-1", "")
    # Round 1's form: who goes first chooses the turns that follow, then round 2.
    form = page.select_one("#step form")
    assert (form["data-step"], form["data-choice"], form["data-in-play"]) == ("round-1", "first", "1")
    assert json.loads(form["data-plans"]) == {
        "0": ["turn-1-0", "turn-1-1", "round-2"],
        "1": ["turn-1-1", "turn-1-0", "round-2"],
    }
    last = json.loads(soup_of(page, "round-5").select_one("form")["data-plans"])
    assert last["1"] == ["turn-5-1", "turn-5-0", "end", "over"]  # then the grand strategies
    turn = soup_of(page, "turn-3-1").select_one("form")
    assert (turn["data-step"], turn["data-in-play"]) == ("turn-3-1", "3")
    assert not turn.has_attr("data-choice")
    # Each player's grand strategy is a part of the end step; the end puts no block in play.
    ends = soup_of(page, "end").select("form")
    assert [(f["data-step"], f["data-part"], f["data-parts"], f["data-in-play"]) for f in ends] == [
        ("end", "0", "0 1", ""),
        ("end", "1", "0 1", ""),
    ]
    assert "Every entry of the battle is kept on this phone" in soup_of(page, "over").text


def soup_of(page, step: str) -> BeautifulSoup:
    return parsed(page.select_one(f'template[data-step="{step}"]').decode_contents())


def test_the_turn_form_marks_what_is_carried_and_what_is_taken_once(client):
    made = new_game(client, "first-blood")
    api = Api(client, made)
    api.ok({"type": "battle_round", "round": 1, "first": 1})
    api.ok({"type": "turn", "round": 1, "player": 1, "control": {}, "tactic": "conquer"})
    page = _joined(client, made)
    board = page.select_one("#game")
    assert (board["data-plan"], board["data-in-play"]) == ("turn-1-0 round-2", "1")
    form = page.select_one("#turn-form")
    assert form["data-step"] == "turn-1-0"
    assert all(s.has_attr("data-carry") for s in form.select("select.control-select"))
    assert form.select_one('select[name="tactic"]')["data-once"] == "tactic/0/"
    assert form.select_one('input[name="enemy_monsters_slain"]')["data-once"] == "predators-and-prey/1/0"
    # The claim forms take the same once-only key; the card's blocks are the rounds in play.
    card = page.select_one("section.claims")
    assert card.has_attr("data-blocks") and [b["data-block"] for b in card.select("[data-block]")] == [
        "1",
        "2",
        "3",
        "4",
        "5",
    ]
    assert (
        card.select_one('[data-block="1"] form[data-claim-player="0"]')["data-once"]
        == "predators-and-prey/1/0"
    )
    # Bo has used Conquer: his later turn offers it no more; the phone learns that from the page.
    assert soup_of(page, "turn-2-1").select_one('option[value="conquer"]') is None


def test_a_first_blood_page_plans_every_victory_phase(client):
    made = _first_blood(client)
    page = _joined(client, made)
    board = page.select_one("#game")
    assert board["data-plan"] == " ".join([f"phase-{r}" for r in range(1, 11)] + ["over"])
    assert page.select_one("#step form")["data-step"] == "phase-1"
    assert page.select_one("#phase-map").has_attr("data-map-live")
    later = soup_of(page, "phase-10").select_one("form")
    assert later["data-step"] == "phase-10" and later.select_one("[data-map-slot]") is not None
    assert "Every entry of the battle is kept on this phone" in soup_of(page, "over").text


# --- the refusal header -------------------------------------------------------------------
def test_a_refused_entry_carries_its_sentence_in_a_header(client):
    made = new_game(client)
    made_names = client.post(
        "/api/v1/games",
        json={
            "pack": "aos-ghb-2021",
            "scenario": "savage-gains",
            "points_limit": 2000,
            "players": [
                {"name": "Zoë", "side": "attacker", "grand_strategy": "hold-the-line"},
                {"name": "Bo", "side": "defender", "grand_strategy": "vendetta"},
            ],
        },
    ).json
    for game in (made, made_names):
        api = Api(client, game)
        api.ok({"type": "battle_round", "round": 1, "first": 0})
        api.ok({"type": "turn", "round": 1, "player": 0, "control": {}})
    page = _joined(client, made_names)
    data = _form_data(page.select_one("#turn-form"))
    data["player"] = "0"  # Zoë's turn again: the other phone recorded it
    answer = client.post(f"/games/{made_names['id']}/events", data=data, headers={"HX-Request": "true"})
    assert answer.status_code == 422
    sentence = soup(answer).select_one("#error").text
    assert sentence == "Zoë has already taken their turn in battle round 1."
    raw = answer.headers["X-Muster-Refusal"]
    raw.encode("latin-1")  # a header travels as latin-1: the UTF-8 is percent-encoded
    assert unquote(raw) == sentence
    # An accepted entry carries none.
    data = _form_data(page.select_one("#turn-form"))
    ok = client.post(f"/games/{made_names['id']}/events", data=data, headers={"HX-Request": "true"})
    assert ok.status_code == 200 and "X-Muster-Refusal" not in ok.headers


@pytest.mark.parametrize(
    ("headers", "fields", "code", "sentence"),
    [
        # No edit token (a phone that never joined): 403 with its sentence.
        (
            {},
            {"with_csrf": True},
            403,
            "Only this game's players can record in it: open the join link first.",
        ),
    ],
)
def test_refused_posts_of_every_kind_carry_the_header(client, headers, fields, code, sentence):
    made = new_game(client)
    page = soup(client.get(f"/games/{made['id']}"))
    if headers.get("join"):
        page = _joined(client, made)
    data = {"id": "7b0e4f2e-5b1c-4c59-9d4a-0e1e2f3a4b5c", "type": "battle_round", "round": "1", "first": "0"}
    if fields.get("with_csrf"):
        data["csrf_token"] = page.select_one('meta[name="csrf-token"]')["content"]
    answer = client.post(f"/games/{made['id']}/events", data=data, headers={"HX-Request": "true"})
    assert answer.status_code == code
    assert unquote(answer.headers["X-Muster-Refusal"]) == sentence


def test_answers_that_judge_nothing_carry_no_refusal(app, client):
    """An expired form (400) and too many requests (429) are not the rules' answer: without the
    header, a phone keeps the entry waiting and sends it again (docs/offline.md)."""
    made = new_game(client)
    _joined(client, made)
    data = {"id": "7b0e4f2e-5b1c-4c59-9d4a-0e1e2f3a4b5c", "type": "battle_round", "round": "1", "first": "0"}
    expired = client.post(f"/games/{made['id']}/events", data=data, headers={"HX-Request": "true"})
    assert expired.status_code == 400 and "X-Muster-Refusal" not in expired.headers
    assert "The form has expired" in expired.text  # the page still says why
    with app.test_request_context("/games/x/events", method="POST"):
        busy = app.handle_user_exception(TooManyRequests())
        judged = app.handle_user_exception(Forbidden("Only this game's players can record in it."))
    assert busy.status_code == 429 and "X-Muster-Refusal" not in busy.headers
    assert judged.status_code == 403 and judged.headers["X-Muster-Refusal"]


# --- both versions of a refused entry -------------------------------------------------------
def _versions(answer) -> tuple[list[str], list[str], str]:
    """The lines of the phone's version and of the server's, and the totals line."""
    page = soup(answer)
    mine = [li.text.strip() for li in page.select(".version.mine li")]
    theirs = [li.text.strip() for li in page.select(".version.theirs li")]
    return mine, theirs, page.select_one(".version.theirs .totals").text.strip()


def test_both_versions_of_a_refused_turn_in_the_same_lines(client):
    made = new_game(client)
    api = Api(client, made)
    api.ok({"type": "battle_round", "round": 1, "first": 0})
    api.ok({"type": "turn", "round": 1, "player": 0, "control": {"west": 0}, "tactic": "conquer"})
    held = client.get(
        f"/games/{made['id']}/held?type=turn&round=1&player=0&control.east=1&control.west=1"
        "&tactic=ferocious-advance&tactic_completed=on&csrf_token="
    )
    assert held.status_code == 200 and held.mimetype == "text/html"
    mine, theirs, totals = _versions(held)
    vp = api.state()["players"][0]["vp"]
    assert theirs[0] == f"Battle round 1: Ann's turn, {vp} VP"
    assert mine[0] == "Battle round 1: Ann's turn"
    # Tactics by name, "not completed" as plainly as "completed".
    assert theirs[1] == "Battle tactic: Conquer, not completed"
    assert mine[1] == "Battle tactic: Ferocious Advance, completed"
    # The objectives in the same order on both sides, whatever order the fields came in.
    assert [line.split(":")[0] for line in mine[2:]] == [line.split(":")[0] for line in theirs[2:]]
    assert "W: Ann" in theirs and "W: Bo" in mine
    assert totals == f"Totals: Ann {vp} VP, Bo 0 VP"
    # Edge: the place holds nothing yet.
    nothing = soup(client.get(f"/games/{made['id']}/held?type=turn&round=1&player=1"))
    assert nothing.select_one(".version.theirs p").text.strip() == "No turn of Bo in battle round 1."
    start = soup(client.get(f"/games/{made['id']}/held?type=battle_round&round=1&first=1"))
    assert start.select_one(".version.theirs li").text.strip() == "Battle round 1: Ann takes the first turn"
    assert start.select_one(".version.mine li").text.strip() == "Battle round 1: Bo takes the first turn"
    # Beyond: a round that is not a number gets one plain sentence.
    bad = client.get(f"/games/{made['id']}/held?type=turn&round=two&player=0")
    assert bad.status_code == 422 and "round must be a whole number." in bad.get_data(as_text=True)


def test_both_versions_of_a_refused_victory_phase(client):
    made = _first_blood(client)
    api = Api(client, made)
    api.ok({"type": "round", "round": 1, "control": {}, "players": [{}, {}]})
    mine, theirs, totals = _versions(
        client.get(f"/games/{made['id']}/held?type=round&round=1&p0.character_slain=on")
    )
    assert theirs[0] == "Round 1: Ann +0 VP, Bo +0 VP"
    assert mine[0] == "Round 1: Victory Phase"
    assert mine[1:] == [
        "What Ann did this round: Slew the enemy Character Regiment",
        "What Bo did this round: nothing recorded",
    ]
    assert theirs[1:] == [
        "What Ann did this round: nothing recorded",
        "What Bo did this round: nothing recorded",
    ]
    assert totals == "Totals: Ann 0 VP, Bo 0 VP"
    later = soup(client.get(f"/games/{made['id']}/held?type=round&round=2"))
    assert later.select_one(".version.theirs p").text.strip() == "No Victory Phase for round 2."
    assert client.get("/games/no-such-game/held?type=round&round=1").status_code == 404


def test_a_refusal_on_screen_names_the_field_in_player_words(client):
    made = _first_blood(client)
    page = _joined(client, made)
    token = page.select_one('meta[name="csrf-token"]')["content"]
    marker = page.select_one('input[name="p0.markers_destroyed"]')["value"]
    answer = client.post(
        f"/games/{made['id']}/events",
        data={
            "csrf_token": token,
            "id": "5d7c2b1e-0f3a-4c7e-9b1d-2a3b4c5d6e7f",
            "type": "round",
            "round": "1",
            "p0.markers_destroyed": marker,
        },
        headers={"HX-Request": "true"},
    )
    sentence = unquote(answer.headers["X-Muster-Refusal"])
    assert answer.status_code == 422
    assert sentence == "Markers Ann destroyed this round: markers cannot be damaged or destroyed in round 1."
    assert "players[" not in answer.get_data(as_text=True)
    # The API keeps the path, for the tools that read it.
    api = client.post(
        f"/api/v1/games/{made['id']}/events",
        json={
            "id": "6e7c2b1e-0f3a-4c7e-9b1d-2a3b4c5d6e7f",
            "type": "round",
            "round": 1,
            "control": {},
            "players": [{"markers_destroyed": [marker]}, {}],
        },
        headers={"X-Edit-Token": made["edit_token"]},
    )
    assert api.status_code == 422 and "players[0].markers_destroyed" in api.json["error"]


# --- fragment or page ---------------------------------------------------------------------
HTMX = {"HX-Request": "true"}


@pytest.mark.parametrize(
    ("headers", "whole"),
    [
        ({}, True),
        (HTMX, False),  # a swap of part of the screen
        ({**HTMX, "HX-Boosted": "true"}, True),  # a boosted link: another screen
        ({**HTMX, "HX-History-Restore-Request": "true"}, True),  # the back button
    ],
)
def test_one_rule_decides_fragment_or_page_on_every_screen(client, headers, whole):
    made = new_game(client)
    _joined(client, made)
    roster = client.post(
        "/api/v1/rosters",
        json={"pack": "aos-ghb-2021", "name": "Hammerfest", "points_limit": 1000, "entries": []},
    ).json
    client.get(roster["edit_url"].replace("http://localhost", ""))
    for url in (f"/rosters/{roster['id']}", f"/games/{made['id']}/terrain"):
        answer = client.get(url, headers=headers)
        assert answer.status_code == 200
        assert answer.get_data(as_text=True).lstrip().lower().startswith("<!doctype html") is whole, url
        assert (
            "HX-Boosted" in answer.headers["Vary"] and "HX-History-Restore-Request" in answer.headers["Vary"]
        )
    # A recorded entry: the fragment to swap in, or (a plain form, a boosted one) back to the page.
    page = soup(client.get(f"/games/{made['id']}"))
    data = _form_data(page.select_one("#round-form"))
    data["first"] = "0"
    answer = client.post(f"/games/{made['id']}/events", data=data, headers=headers)
    if whole:
        assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/games/{made['id']}")
    else:
        assert answer.status_code == 200 and soup(answer).select_one("#game") is not None
        assert "<html" not in answer.get_data(as_text=True)
    # The club home's tables refresh alone only on a swap.
    tables = client.get("/?part=tables", headers=headers).get_data(as_text=True)
    assert ("<html" in tables) is whole


# --- the browser holds no rule --------------------------------------------------------------
GAME_WORDS = {
    "turn",
    "turns",
    "battle",
    "battle_round",
    "end",
    "ends",
    "claim",
    "claims",
    "round",
    "rounds",
    "phase",
    "phases",
    "tactic",
    "tactics",
    "objective",
    "objectives",
}


def _code_words(source: str) -> set[str]:
    """Every word of a script outside its comments, camelCase and kebab-case split apart."""
    source = source.replace("clients.claim()", "")  # the Service Worker API's, not a game's
    source = re.sub(r"/\*.*?\*/", " ", source, flags=re.S)
    source = re.sub(r"(^|[^:\"'\\])//[^\n]*", r"\1", source)
    words = set()
    for token in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", source):
        words.add(token.lower())
        words.update(part.lower() for part in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", token))
    return words


@pytest.mark.parametrize("script", ["offline.js", "outbox.js", "sw.js"])
def test_the_offline_layer_knows_no_event_type_and_no_game(script):
    words = _code_words((ROOT / "static" / script).read_text())
    assert words & GAME_WORDS == set()
    # The check itself catches what the scripts held before: event types and step keys.
    assert {"turn", "battle_round", "claim", "end"} <= _code_words(
        'if (type === "battle_round") m.key = "turn-" + r; // a note\n' + "x.dataset.claimRound; y('end');"
    )


def test_squeezed_markup_shows_the_same_and_stays_escaped(app):
    html = Markup('<p class="hint">\n    Ann &amp; Bo\n\n      </p>\n  <span>a</span> <span>b</span>')
    assert squeeze(html) == '<p class="hint">\nAnn &amp; Bo\n</p>\n<span>a</span> <span>b</span>'
    assert squeeze("<b>\n  x</b>") == "&lt;b&gt;\nx&lt;/b&gt;"  # plain text is escaped, never trusted
    with app.test_request_context():
        page = app.jinja_env.from_string("{% filter squeeze %}<i>\n\n {{ name }}</i>{% endfilter %}")
        assert page.render(name="<Bo>") == "<i>\n&lt;Bo&gt;</i>"


def test_the_game_carries_its_version_for_the_phone_to_order_answers(client):
    """#game's data-version counts the stored events: the phone never puts an older game over a newer."""
    made = new_game(client)
    page = _joined(client, made)
    assert page.select_one("#game")["data-version"] == "0"
    api = Api(client, made)
    api.ok({"type": "battle_round", "round": 1, "first": 0})
    api.ok({"type": "turn", "round": 1, "player": 0, "control": {"west": 0}})
    assert soup(client.get(f"/games/{made['id']}")).select_one("#game")["data-version"] == "2"
    fb = _first_blood(client)
    assert _joined(client, fb).select_one("#game")["data-version"] == "0"


# --- following the other phones ---------------------------------------------------------
FOLLOWED = {
    "pitched battle": (
        pitched_battle("savage-gains", strategies=NO_STRATEGIES),
        {"type": "battle_round", "round": 1, "first": 0},
    ),
    "triumph and treachery": (
        {
            "pack": "tow-triumph-treachery",
            "scenario": "altar-of-the-gods",
            "points_limit": 2000,
            "players": [{"name": n} for n in ("Ann", "Bo", "Cy")],
        },
        {"type": "battle_round", "round": 1},
    ),
    "siege": (
        {
            "pack": "aos-conquest-unbound",
            "scenario": "the-relief-force",
            "points_limit": 2000,
            "players": [{"name": "Ann", "side": "attacker"}, {"name": "Bo", "side": "defender"}],
        },
        {"type": "siege_tactic", "player": 0, "tactic": 2},  # a secret: the attacker's seat
    ),
}


@pytest.mark.parametrize("kind", FOLLOWED)
def test_the_version_a_phone_follows_is_the_one_its_game_screen_carries(client, kind):
    """Every game screen says how many entries it shows; /version says how many the server holds."""
    body, event = FOLLOWED[kind]
    made = client.post("/api/v1/games", json=body).json
    assert _joined(client, made).select_one("#game")["data-version"] == "0"
    answer = client.get(f"/games/{made['id']}/version")
    assert answer.json["version"] == 0
    assert answer.headers["Cache-Control"] == "no-store"
    recorded = client.post(
        f"/api/v1/games/{made['id']}/events",
        json={"id": str(uuid.uuid4()), **event},
        headers={"X-Seat-Token": made["seats"][0]["token"]}
        if "seats" in made
        else {"X-Edit-Token": made["edit_token"]},
    )
    assert recorded.status_code == 201, recorded.json
    assert client.get(f"/games/{made['id']}/version").json["version"] == 1
    assert _joined(client, made).select_one("#game")["data-version"] == "1"
    # And which entries: the start of their ids, so that a phone never counts one twice.
    assert _joined(client, made).select_one("#game")["data-recent"] == recorded.json["id"][:8]


def test_the_game_and_its_clock_name_their_latest_entries(client):
    """#game and the clock strip name the start of their latest ids (20 at most), and the strip
    its taps' count and what each tap says while it waits on a phone."""
    made = new_game(client)
    api = Api(client, made)
    ids = [
        api.post({"type": "roll", "dice": "d6", "results": [n % 6 + 1], "purpose": "x"}).json["id"]
        for n in range(22)
    ]
    page = _joined(client, made)
    assert page.select_one("#game")["data-recent"].split() == [i[:8] for i in ids[-20:]]
    clock = page.select_one("#clock")
    assert (clock["data-version"], clock["data-recent"]) == ("0", "")
    words = json.loads(clock["data-words"])
    assert words == {
        "start": ["Start the clock for Ann", "Start the clock for Bo"],
        "pass": ["Pass the clock to Ann", "Pass the clock to Bo"],
        "pause": "Pause the clock",
    }
    tap = {"id": str(uuid.uuid4()), "action": "start", "player": 1}
    answer = client.post(
        f"/api/v1/games/{made['id']}/clock", json=tap, headers={"X-Edit-Token": made["edit_token"]}
    )
    assert answer.status_code == 201, answer.json
    strip = soup(client.get(f"/games/{made['id']}/clock")).select_one("#clock")
    assert (strip["data-version"], strip["data-recent"]) == ("1", tap["id"][:8])


def test_the_version_of_no_game_is_404_with_a_sentence(client):
    answer = client.get("/games/no-such-game/version")
    assert answer.status_code == 404
    assert "There is no such game" in answer.get_data(as_text=True)
