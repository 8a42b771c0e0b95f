"""Terrain kept for later: presets (one piece) and saved sets (a table's pieces).

What a player saves belongs to the phone that saved it, and only that phone sees it or can
replace it; club-wide presets and sets are the admin's (see app/web/admin.py). Every screen
lists a bounded number of each, so no phone can flood another's page.
"""

from __future__ import annotations

from typing import Any

from app.rules import terrain
from app.rules.pack import Pack
from app.rules.problems import Problem
from app.rules.speech import say
from app.store import Store
from app.store.terrain import CLUB

# What one phone keeps for one rulepack, and what a screen lists from the club.
PHONE_PRESETS = 20
PHONE_SETS = 20
CLUB_PRESETS = 30
CLUB_SETS = 20


def owner(phone: str) -> str:
    """The owner name of what a phone (by its hash) saves."""
    return f"phone:{phone}"


def presets(store: Store, pack: Pack, phone: str | None) -> list[dict[str, Any]]:
    """The presets a phone is offered, by name: the pack's, the club's, then its own.

    A later source's preset of the same name takes the place of an earlier one.
    """
    found: dict[str, dict[str, Any]] = {}
    for p in pack.terrain.presets if pack.terrain else []:
        found[p.name] = {**p.model_dump(), "owner": "pack"}
    for p in store.terrain.presets(pack.id, [CLUB], CLUB_PRESETS):
        found[p["name"]] = p
    if phone:
        for p in store.terrain.presets(pack.id, [owner(phone)], PHONE_PRESETS):
            found[p["name"]] = {**p, "owner": "mine"}
    return list(found.values())


def piece_of(preset: dict[str, Any]) -> dict[str, Any]:
    """A preset as the piece it adds."""
    return {k: v for k, v in preset.items() if v is not None and k != "owner"}


def save_preset(store: Store, pack: Pack, phone: str, piece: dict[str, Any]) -> Problem | None:
    """Keep a piece as this phone's preset (the newest of a name wins)."""
    if not store.terrain.save_preset(pack.id, owner(phone), piece, PHONE_PRESETS):
        return Problem.refusal(
            say(
                "This phone keeps at most {most} presets for {pack}; the piece was added "
                "but not kept as a preset.",
                most=PHONE_PRESETS,
                pack=pack.name,
            )
        )
    return None


def save_club_preset(store: Store, pack: Pack, piece: dict[str, Any]) -> Problem | None:
    """Keep a piece as a club-wide preset (an admin action)."""
    pieces, problem = terrain.parse_pieces(pack, [piece])
    if pieces is None:
        return Problem.refusal((problem or say("The piece is not valid.")).replace("pieces[0]", "piece"))
    body = pieces[0].model_dump(mode="json", exclude={"uid", "x", "y", "mysterious"})
    if not store.terrain.save_preset(pack.id, CLUB, body, CLUB_PRESETS):
        return Problem.refusal(
            say(
                "The club keeps at most {most} presets for {pack}; delete one first.",
                most=CLUB_PRESETS,
                pack=pack.name,
            )
        )
    return None


def club_presets(store: Store, pack: Pack) -> list[dict[str, Any]]:
    """The club-wide presets of a pack, by name."""
    return store.terrain.presets(pack.id, [CLUB], CLUB_PRESETS)


def remove_club_preset(store: Store, pack: Pack, name: str) -> bool:
    """Forget a club-wide preset by name."""
    return store.terrain.delete_preset(pack.id, CLUB, name)


def club_sets(store: Store, pack: Pack) -> list[dict[str, Any]]:
    """The club-wide saved sets of a pack, newest first."""
    return store.terrain.library(pack.id, [CLUB], CLUB_SETS)


def remove_club_set(store: Store, pack: Pack, set_id: str) -> bool:
    """Forget a club-wide saved set."""
    return store.terrain.delete_from_library(set_id, CLUB)


def sets(store: Store, pack: Pack, phone: str | None) -> list[dict[str, Any]]:
    """The saved sets a phone is offered: the club's, then its own newest first."""
    club = store.terrain.library(pack.id, [CLUB], CLUB_SETS)
    mine = store.terrain.library(pack.id, [owner(phone)], PHONE_SETS) if phone else []
    return club + mine


def find_set(store: Store, pack: Pack, phone: str | None, set_id: str) -> dict[str, Any] | None:
    """One saved set this phone is offered, by id."""
    return next((s for s in sets(store, pack, phone) if s["id"] == set_id), None)


def save_set(
    store: Store, pack: Pack, phone: str, name: str, pieces: list[dict[str, Any]], club: bool = False
) -> Problem | None:
    """Keep a table's pieces under a name for this phone, or for the club when ``club`` (admin only).

    One write, whatever the number of pieces.
    """
    if not name or len(name) > 60:
        return Problem.refusal(say("name: give the saved set a name of 1 to 60 characters."))
    if not pieces:
        return Problem.refusal(say("There are no pieces to save yet: add the table's pieces first."))
    if len(pieces) > terrain.MAX_PIECES:
        return Problem.refusal(say("A saved set holds at most {most} pieces.", most=terrain.MAX_PIECES))
    if club:
        if store.terrain.save_to_library(pack.id, CLUB, name, pieces, CLUB_SETS) is None:
            return Problem.refusal(
                say(
                    "The club keeps at most {most} saved sets for {pack}; delete one first.",
                    most=CLUB_SETS,
                    pack=pack.name,
                )
            )
        return None
    if store.terrain.save_to_library(pack.id, owner(phone), name, pieces, PHONE_SETS) is None:
        return Problem.refusal(
            say(
                "This phone keeps at most {most} saved sets for {pack}; save under the name "
                "of one to replace it.",
                most=PHONE_SETS,
                pack=pack.name,
            )
        )
    return None
