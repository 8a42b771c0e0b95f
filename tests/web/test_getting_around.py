"""Getting around (issue 24 item 7): the home's game cards come from the packs, the top bar
reaches the five places a player goes, every screen has a back button, pack switches are
buttons, and "My games" lists this phone's games."""

from __future__ import annotations

import shutil
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from tests.conftest import ROOT
from tests.setups import join, new_game, new_game_form, seraphon_roster, terrain_game
from tests.web.conftest import csrf_token, soup

NAV = ["Home", "New game", "My games", "Rosters", "Events"]


def test_home_offers_each_game_as_its_pack_names_it(client: FlaskClient) -> None:
    home = soup(client.get("/"))
    cards = {
        card.select_one(".game-card-title").text: card["href"]
        for card in home.select(".game-cards a.game-card")
    }
    assert cards == {
        "Age of Sigmar matched play": "/games/new?pack=aos-ghb-2021",
        "Conquest: First Blood": "/games/new?pack=conquest-first-blood",
        "Age of Sigmar siege": "/games/new?pack=aos-conquest-unbound&scenario=the-relief-force",
        "Tunnel Wars": "/games/new?pack=aos-conquest-unbound&scenario=tunnel-wars",
        "Age of Sigmar Triumph & Treachery": "/games/new?pack=aos-conquest-unbound&scenario=convergence-of-fate",
        "Old World Triumph & Treachery": "/games/new?pack=tow-triumph-treachery",
        "Club events": "/events",
    }
    # Two-player games come first; each card opens the game it names, ready for its players.
    assert list(cards)[:4] == [
        "Age of Sigmar matched play",
        "Conquest: First Blood",
        "Age of Sigmar siege",
        "Tunnel Wars",
    ]
    siege = soup(client.get(cards["Age of Sigmar siege"]))
    assert siege.select_one("#scenario option[selected]")["value"] == "the-relief-force"
    assert len(siege.select("fieldset.player")) == 2


def test_a_club_pack_names_its_own_cards(tmp_path: Path) -> None:
    folder = tmp_path / "rulepacks"
    shutil.copytree(ROOT / "rulepacks", folder)
    pack = folder / "conquest-first-blood.yaml"
    pack.write_text(
        pack.read_text().replace(
            '  - title: "Conquest: First Blood"',
            '  - title: "Winter campaign: Outflank"\n    scenario: outflank\n  - title: "Conquest: First Blood"',
            1,
        )
    )
    app = create_app({"DATABASE": str(tmp_path / "m.sqlite"), "RULEPACKS": str(folder), "TESTING": True})
    home = soup(app.test_client().get("/"))
    titles = [t.text for t in home.select(".game-card-title")]
    assert "Winter campaign: Outflank" in titles and "Conquest: First Blood" in titles
    card = home.find("span", string="Winter campaign: Outflank").parent
    assert card["href"] == "/games/new?pack=conquest-first-blood&scenario=outflank"


def _screens(app: Flask, client: FlaskClient) -> dict[str, tuple[str, str]]:
    """Every kind of screen, and where its back button goes."""
    game = new_game(client)
    join(client, game)
    fb, terrain = terrain_game(client)
    roster = client.post("/api/v1/rosters", json=seraphon_roster()).json
    return {
        "/games/new": ("/", "Tonight's games"),
        "/games/mine": ("/", "Tonight's games"),
        f"/games/{game['id']}": ("/", "Tonight's games"),
        terrain: (f"/games/{fb['id']}", "The game"),
        "/packs/aos-ghb-2021": ("/", "Tonight's games"),
        "/rosters": ("/", "Tonight's games"),
        f"/rosters/{roster['id']}": ("/rosters", "Rosters"),
        "/rosters/new": ("/rosters", "Rosters"),
        "/rosters/import": ("/rosters", "Rosters"),
        f"/rosters/import?game={game['id']}&player=1": (f"/games/{game['id']}", "The game"),
        "/events": ("/", "Tonight's games"),
        "/admin": ("/", "Tonight's games"),
    }


def test_every_screen_has_the_top_bar_and_a_back_button(app: Flask, client: FlaskClient) -> None:
    for url, (back, label) in _screens(app, client).items():
        page = soup(client.get(url))
        bar = page.select(".topbar nav a")
        assert [a.text.strip() for a in bar] == NAV, url
        assert [a["href"] for a in bar] == ["/", "/games/new", "/games/mine", "/rosters", "/events"]
        button = page.select_one(".topbar a.button.back")
        assert button is not None, url
        assert (button["href"], button.text.split(maxsplit=1)[1]) == (back, f"Back to {label}"), url
    home = soup(client.get("/"))
    assert home.select_one(".topbar .back") is None  # home is where every back button leads
    assert home.select_one('.topbar nav a[aria-current="page"]').text == "Home"


def test_pack_switches_are_buttons(client: FlaskClient) -> None:
    for url in ("/games/new", "/rosters/new"):
        switch = soup(client.get(url)).select_one("nav.switch")
        assert switch is not None and len(switch.select("a.button")) >= 2, url
        assert switch.select_one('[aria-current="page"]').name == "strong"


def test_my_games_lists_the_games_this_phone_started_or_joined(app: Flask, client: FlaskClient) -> None:
    assert "No games on this phone yet" in soup(client.get("/games/mine")).text
    made = client.post("/games", data=new_game_form(csrf_token(client, "/games/new"), "the-vice"))
    started = made.headers["Location"].rsplit("/", 1)[1]
    other = app.test_client()
    theirs = new_game(other, "first-blood")
    joined = new_game(other, "power-struggle")
    join(client, joined)
    mine = soup(client.get("/games/mine"))
    links = [a["href"] for a in mine.select(".game-list a.table-card")]
    # Newest first: the game joined, then the one started; never another phone's game.
    assert links == [f"/games/{joined['id']}", f"/games/{started}"]
    assert f"/games/{theirs['id']}" not in links
    assert [t.text for t in mine.select(".game-title")] == ["Power Struggle", "The Vice"]
    assert "Power Struggle" not in soup(other.get("/games/mine")).select_one("main").text
