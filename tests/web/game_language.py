"""What the game screens' language tests share: the switch's cookie, a phone in the
pseudo-language, and a game screen's <main> without the parts another system or the pack speaks."""

from __future__ import annotations

from pathlib import Path

from bs4 import Tag
from flask.testing import FlaskClient

from tests import pseudo
from tests.web.conftest import club_app, soup

PHONES_LANGUAGE = "muster-lang"  # the switch's cookie
# Every system's parts of a game screen (the clock, the dice, the last entry, the Letter print):
# the shared screen's words, not a system's.
SHARED_PARTS = ".clock, #dice, .dice-dock, #last-entry, nav.prints a[href*=letter]"


def pseudo_phone(tmp_path: Path, migrated: Path) -> FlaskClient:
    """A phone of an app that speaks the pseudo-language (tests/pseudo.py), switched to it."""
    app = club_app(tmp_path, migrated, TRANSLATION_FOLDERS=[str(pseudo.build(tmp_path / "pseudo"))])
    phone = app.test_client()
    phone.set_cookie(PHONES_LANGUAGE, pseudo.CODE)
    return phone


def system_words(client: FlaskClient, game_id: str, packs_own: str, packs_classes: tuple[str, ...]) -> Tag:
    """The game screen's <main>, less the shared parts and the pack's own words (``packs_own``:
    selectors; ``packs_classes``: classes, found in the steps rendered ahead too)."""
    main = soup(client.get(f"/games/{game_id}")).select_one("main")
    for part in main.select(f"{SHARED_PARTS}, {packs_own}"):
        part.decompose()
    for name in packs_classes:
        for part in main.find_all(class_=name):
            part.decompose()
    return main
