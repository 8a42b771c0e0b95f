"""The duel's own part of a pack, read by the registry like any system's: the arena the duel
is fought in (a pack's ``arena``) and the victory check it decides (``most-bouts``)."""

from __future__ import annotations

from pydantic import Field

from app.rules.pack_base import Model, Text


class Arena(Model):
    """Where the duel is fought, and the weapons its fighters may take."""

    name: Text
    weapons: list[Text] = Field(default=[], max_length=6)


# The duel's own pack section: its key, its model and its value when a pack leaves it out.
PACK_SECTIONS = {"arena": (Arena | None, None)}
# The duel is won by the fighter who won more bouts.
VICTORY_CHECKS = ("most-bouts",)
