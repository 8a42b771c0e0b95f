"""A Triumph & Treachery pack's own section (``treachery``), read by the system through the
registry: the phases with their neutral rules, command points, deals and ploys."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from app.rules.pack_base import Entry, Id, Model, Prose, Text, unique


class Phase(Model):
    """A phase of a turn in which the active player picks an enemy; ``neutral`` is its rule for neutral models."""

    id: Id
    name: Text
    neutral: Prose


class PloyTable(Model):
    """A table of ploys; ``repeatable`` when several may be bought from it in one turn (Miscellaneous)."""

    id: Id
    name: Text
    repeatable: bool = False


class Ploy(Entry):
    """A treacherous ploy: its table, its cost in command points; ``cancels`` when it cancels a
    ploy just played; ``who`` may play it (``any`` player, only the ``active`` one, only the
    ``enemy`` just picked, or only a ``neutral`` player); ``repick`` when its player, picked as
    the enemy, sends the active player to pick another (Allies of Convenience)."""

    table: Id
    cost: int = Field(ge=0)
    cancels: bool = False
    who: Literal["any", "active", "enemy", "neutral"] = "any"
    repick: bool = False


class BuyLimits(Model):
    """How many ploys a player may buy at the start of a round, by standing in VP."""

    most: int = Field(ge=0)
    fewest: int = Field(ge=0)
    others: int = Field(ge=0)
    all_tied: int = Field(ge=0)


class BonusPloy(Model):
    """The neutral players' bonus ploy: the least D6 roll that gains one, at three players and at more."""

    three_players: int = Field(ge=1, le=6)
    more_players: int = Field(ge=1, le=6)


class Treachery(Model):
    """A multiplayer game's own rules: the phases with their neutral rules, command points and ploys."""

    phases: list[Phase] = Field(min_length=1)
    command_points: int | None = Field(default=None, ge=0)
    deals: bool = False
    buy_limits: BuyLimits | None = None
    max_held: int | None = Field(default=None, ge=1)
    bonus_ploy: BonusPloy | None = None
    ploy_tables: list[PloyTable] = []
    ploys: list[Ploy] = []
    rules: list[Entry] = []

    @model_validator(mode="after")
    def _consistent(self) -> Treachery:
        unique([ph.id for ph in self.phases], "phase id")
        unique([t.id for t in self.ploy_tables], "ploy table id")
        unique([pl.id for pl in self.ploys], "ploy id")
        tables = {t.id for t in self.ploy_tables}
        for ploy in self.ploys:
            if ploy.table not in tables:
                raise ValueError(f"ploy {ploy.id!r} names unknown table {ploy.table!r}")
        if self.ploys and (self.buy_limits is None or self.max_held is None):
            raise ValueError("a pack with ploys needs buy_limits and max_held")
        if sum(pl.cancels for pl in self.ploys) > 1:
            raise ValueError("at most one ploy cancels another")
        for ploy in self.ploys:
            if ploy.repick and ploy.who != "enemy":
                raise ValueError(
                    f"ploy {ploy.id!r} sends the active player to pick again: its who must be enemy"
                )
        return self

    def ploy(self, ploy_id: str) -> Ploy | None:
        """The ploy with that id, if any."""
        return next((pl for pl in self.ploys if pl.id == ploy_id), None)

    def phase(self, phase_id: str) -> Phase | None:
        """The phase with that id, if any."""
        return next((ph for ph in self.phases if ph.id == phase_id), None)


# Scoring blocks, scored for every player.
class DestroyedPoints(Model):
    """VP to the destroyer for each full ``per_points`` the destroyed unit cost."""

    block: Literal["destroyed-points"]
    per_points: int = Field(default=100, ge=1)
    vp: int = Field(default=1, ge=0)


class TurnEndControl(Model):
    """VP at the end of every turn to whoever controls ``objective``: a number, or the battle round."""

    block: Literal["turn-end-control"]
    objective: Id
    vp: int | Literal["round"]


class ObjectiveDice(Model):
    """At the end of every turn, a die of VP for each objective a player holds (each die recorded)."""

    block: Literal["objective-dice"]
    die: int = Field(default=6, ge=2, le=20)


class ZoneDice(Model):
    """At the end of every turn, a die of VP for each zone holding only that player's units."""

    block: Literal["zone-dice"]
    die: int = Field(default=6, ge=2, le=20)
    zones: Prose


#: The scoring blocks the Triumph & Treachery system scores.
BLOCKS = (DestroyedPoints, TurnEndControl, ObjectiveDice, ZoneDice)


# The sections the Triumph & Treachery system reads, each key with its model and its value
# when left out: a pack's ``treachery``; a scenario's ``reinforcements_after_movement`` (the
# movement phase at whose end they arrive) and ``renown`` (what gains bonus renown at the
# end, noted per unit).
PACK_SECTIONS = {"treachery": (Treachery | None, None)}
SCENARIO_SECTIONS = {
    "reinforcements_after_movement": (Annotated[int, Field(ge=1)] | None, None),
    "renown": (Prose | None, None),
}
# "ranking" ranks every player by VP (first wins, second a minor victory); "monolith" and
# "closest" are Convergence of Fate's end facts.
VICTORY_CHECKS = ("ranking", "monolith", "closest")
