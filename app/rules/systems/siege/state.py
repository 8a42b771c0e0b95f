"""A siege as its events build it: the secret tactics, the siege rolls, the battle and the end.

Entries are frozen: the log copies a state by its containers only (app/rules/log.py), so an
entry, once made, is never changed; a later event replaces a field or adds an entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.rules import battle_rounds
from app.rules.battle_rounds import RoundStart, Turn
from app.rules.game import GameState
from app.rules.log import Entry
from app.rules.outcome import Result
from app.rules.systems.siege import section

SIDES = ("attacker", "defender")


@dataclass(frozen=True)
class Pick(Entry):
    """A siege tactic picked in secret: the die the player hid."""

    player: int
    die: int


@dataclass(frozen=True)
class FeatureRoll:
    """One batter die for one terrain feature of the fortress."""

    feature: str
    defensible: bool
    die: int
    modified: int
    outcome: str  # "demolished", "no-cover" or "stands"

    def as_dict(self) -> dict[str, Any]:
        return {
            "feature": self.feature,
            "defensible": self.defensible,
            "die": self.die,
            "modified": self.modified,
            "outcome": self.outcome,
        }


@dataclass(frozen=True)
class UnitRoll:
    """One starve die for one defending unit, and the mortal wounds it dealt (D3 on a success)."""

    unit: str
    hero: bool
    die: int
    modified: int
    starved: bool
    wounds: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "hero": self.hero,
            "die": self.die,
            "modified": self.modified,
            "starved": self.starved,
            "mortal_wounds": self.wounds,
        }


@dataclass(frozen=True)
class TunnelRoll(Entry):
    """Both tunnel dice: the attacker's (modified) against the defender's."""

    attacker_die: int
    defender_die: int
    modified: int

    @property
    def completed(self) -> bool:
        return self.modified > self.defender_die


@dataclass(frozen=True)
class Split(Entry):
    """The defender's garrison and relief force, as counts or as the units' names."""

    garrison: int
    relief: int
    garrison_units: tuple[str, ...]
    relief_units: tuple[str, ...]


@dataclass(frozen=True)
class Placement(Entry):
    """An objective set up on a terrain feature in the defender's territory, and by whom."""

    number: int
    player: int
    feature: str


@dataclass(frozen=True)
class ReliefRoll(Entry):
    """The defender's 2D6 at the end of a movement phase, plus the battle round."""

    round: int
    dice: tuple[int, int]
    total: int
    arrived: bool


@dataclass(frozen=True)
class Edge(Entry):
    die: int
    edge: str


@dataclass(frozen=True)
class Ending(Entry):
    attacker_objectives: int
    result: Result


@dataclass
class SiegeGame(GameState):
    """Everything the events say about a siege, computed afresh on every replay.

    A siege scores no victory points: its ``vp`` is every state's 0 (the club home's card asks).
    """

    rules: section.SiegeRules
    attacker: int
    defender: int
    picks: dict[int, Pick] = field(default_factory=dict)
    # Who has asked to pick the siege tactics again since they were shown (the repick events).
    repick: dict[int, str] = field(default_factory=dict)
    split: Split | None = None
    objectives: list[Placement] = field(default_factory=list)
    batter: tuple[FeatureRoll, ...] | None = None
    starve: tuple[UnitRoll, ...] | None = None
    tunnel: TunnelRoll | None = None
    party: tuple[dict[str, Any], ...] | None = None
    rounds: dict[int, RoundStart] = field(default_factory=dict)
    turns: list[Turn] = field(default_factory=list)
    relief_rolls: list[ReliefRoll] = field(default_factory=list)
    edge: Edge | None = None
    ending: Ending | None = None

    # --- who ----------------------------------------------------------------------------
    def side(self, player: int) -> str:
        return "attacker" if player == self.attacker else "defender"

    def of_side(self, side: str) -> int:
        return self.attacker if side == "attacker" else self.defender

    # --- the battlefield ------------------------------------------------------------------
    @property
    def objective_count(self) -> int:
        """How many objectives the battleplan sets up: the most the attacker can hold."""
        return max((r.count for r in self.scenario.objective_results), default=0)

    @property
    def next_placer(self) -> int | None:
        """Who places the next objective (the attacker first, then in turn); ``None``: all are."""
        placed = len(self.objectives)
        if placed >= self.objective_count:
            return None
        return self.attacker if placed % 2 == 0 else self.defender

    # --- the siege phase ------------------------------------------------------------------
    @property
    def revealed(self) -> bool:
        """Both tactics are in: the dice are shown and the table read."""
        return battle_rounds.everyone_in(self.picks.values(), self.player_count)

    @property
    def modifiers(self) -> section.SiegeCell | None:
        if not self.revealed:
            return None
        return self.rules.cell(self.picks[self.attacker].die, self.picks[self.defender].die)

    @property
    def stage(self) -> str:
        """The next part of the siege phase: tactics, batter, starve, tunnel, or battle."""
        if not self.revealed:
            return "tactics"
        if self.batter is None:
            return "batter"
        if self.starve is None:
            return "starve"
        if self.tunnel is None:
            return "tunnel"
        return "battle"

    # --- battle rounds -------------------------------------------------------------------------
    @property
    def battle_rounds(self) -> int:
        return self.scenario.battle_rounds or 5

    def turns_in(self, round_: int) -> list[Turn]:
        return battle_rounds.within(self.turns, round_)

    @property
    def current_round(self) -> int:
        """The battle round now being played (one past the last once every turn is in)."""
        return battle_rounds.current_round(self.turns, self.player_count)

    def next_players(self) -> list[int]:
        """Players who may record the next turn."""
        r = self.current_round
        if self.finished or r > self.battle_rounds:
            return []
        start = self.rounds.get(r)
        return battle_rounds.next_players(self.turns, r, self.player_count, start.first if start else None)

    @property
    def arrived(self) -> int | None:
        """The battle round the relief force arrived in, if it has."""
        return next((r.round for r in self.relief_rolls if r.arrived), None)

    # --- the end -----------------------------------------------------------------------------
    @property
    def result(self) -> Result | None:
        return self.ending.result if self.ending else None
