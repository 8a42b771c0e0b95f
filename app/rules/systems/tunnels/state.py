"""A Tunnel Wars series as its events build it: contingents, three battles and the beast.

Entries are frozen: the log copies a state by its containers only (app/rules/log.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.rules import battle_rounds
from app.rules.game import GameState
from app.rules.outcome import Result
from app.rules.speech import say
from app.rules.systems.tunnels import section


@dataclass(frozen=True)
class Split:
    """A player's army in three contingents: counts, and the units' names where given."""

    event: str
    player: int
    sizes: tuple[int, ...]
    units: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Pick:
    """The contingent a player sends into a battle, picked in secret, and its general."""

    event: str
    battle: int
    player: int
    contingent: int
    general: str | None


@dataclass(frozen=True)
class BattleRound:
    event: str
    battle: int
    round: int
    first: int | None


@dataclass(frozen=True)
class RollOff:
    """The denizen's roll-off: at set-up (round 0) or at the start of a battle round."""

    event: str
    battle: int
    round: int
    dice: tuple[tuple[int, int], ...]
    winner: int


@dataclass(frozen=True)
class BeastChange:
    """The denizen changes sides for the rest of a round: attacked, or tamed by a HERO."""

    event: str
    battle: int
    round: int
    player: int
    kind: str  # "attack" or "tame"


def _placed(entry: Unstable | Trap) -> dict[str, Any]:
    """Where a player's entry stands in the series, as the API lists it first: its event, battle,
    battle round and player."""
    return {"event": entry.event, "battle": entry.battle, "round": entry.round, "player": entry.player}


@dataclass(frozen=True)
class Unstable:
    """The hero-phase die for unstable surroundings, and what a 6 brought down."""

    event: str
    battle: int
    round: int
    player: int
    die: int
    choice: str | None  # None, "cave-in" or "stalactites"
    point: str | None
    d3: int | None
    units: tuple[tuple[str, int, int], ...]  # (unit, die, mortal wounds)

    def as_dict(self) -> dict[str, Any]:
        return {
            **_placed(self),
            "die": self.die,
            "choice": self.choice,
            "point": self.point,
            "d3": self.d3,
            "units": [{"unit": u, "die": d, "mortal_wounds": w} for u, d, w in self.units],
        }


@dataclass(frozen=True)
class Trap:
    """Cunning Traps: 2D6 against the distance to the enemy unit, D3 mortal wounds if it reaches."""

    event: str
    battle: int
    round: int | None
    player: int
    target: str | None
    distance: float
    dice: tuple[int, int]
    wounds: int

    @property
    def total(self) -> int:
        return self.dice[0] + self.dice[1]

    @property
    def sprung(self) -> bool:
        return self.total >= self.distance

    def as_dict(self) -> dict[str, Any]:
        return {
            **_placed(self),
            "target": self.target,
            "distance": self.distance,
            "dice": list(self.dice),
            "total": self.total,
            "sprung": self.sprung,
            "mortal_wounds": self.wounds,
        }


@dataclass(frozen=True)
class BattleResult:
    event: str
    battle: int
    winner: int | None


@dataclass
class TunnelGame(GameState):
    """Everything the events say about a Tunnel Wars series, computed afresh on every replay."""

    fighting: section.TunnelFighting
    splits: dict[int, Split] = field(default_factory=dict)
    picks: list[Pick] = field(default_factory=list)
    # Who has asked to pick a battle's contingents again since they were shown: (battle, player, event).
    repick: list[tuple[int, int, str]] = field(default_factory=list)
    rounds: list[BattleRound] = field(default_factory=list)
    roll_offs: list[RollOff] = field(default_factory=list)
    changes: list[BeastChange] = field(default_factory=list)
    unstable: list[Unstable] = field(default_factory=list)
    traps: list[Trap] = field(default_factory=list)
    results: list[BattleResult] = field(default_factory=list)

    @property
    def battles(self) -> int:
        return self.scenario.battles or 3

    @property
    def contingent_count(self) -> int:
        return len(self.scenario.contingents.ids) if self.scenario.contingents else 3

    @property
    def current_battle(self) -> int:
        """The battle now being fought (one past the last once the series is over)."""
        return len(self.results) + 1

    def picks_in(self, battle: int) -> dict[int, Pick]:
        return {k.player: k for k in battle_rounds.within(self.picks, battle, "battle")}

    def revealed(self, battle: int) -> bool:
        """Both players' contingents for that battle are in: both are shown."""
        return battle_rounds.everyone_in(self.picks_in(battle).values(), self.player_count)

    def used(self, player: int) -> dict[int, int]:
        """The contingents a player has sent, each with its battle."""
        return {k.contingent: k.battle for k in self.picks if k.player == player}

    def may_split(self, player: int) -> bool:
        """Whether the player may still record their army's split: once, before their first pick."""
        return (
            self.scenario.contingents is not None
            and not self.finished
            and player not in self.splits
            and not self.used(player)
        )

    def rounds_in(self, battle: int) -> list[BattleRound]:
        return battle_rounds.within(self.rounds, battle, "battle")

    def repick_asked(self, battle: int) -> set[int]:
        """The players who have asked to pick the contingents of ``battle`` again."""
        return {player for b, player, _ in self.repick if b == battle}

    def under_way(self, battle: int) -> bool:
        """Whether anything of the battle itself is recorded: a round, the denizen's roll-off for
        a round, an attack on it or its taming, an unstable surroundings die or a trap."""
        inside = [*self.rounds, *self.changes, *self.unstable, *self.traps]
        inside += [x for x in self.roll_offs if x.round >= 1]
        return any(x.battle == battle for x in inside)

    def commander(self, battle: int, round_: int) -> int | None:
        """Who commands the denizen now in that round: the roll-off's winner, then each change."""
        who = next((r.winner for r in self.roll_offs if (r.battle, r.round) == (battle, round_)), None)
        for c in self.changes:
            if (c.battle, c.round) != (battle, round_):
                continue
            who = c.player if c.kind == "tame" else (None if who is None else 1 - who)
        return who

    def wins(self, player: int) -> int:
        return sum(1 for r in self.results if r.winner == player)

    def vp(self, player: int) -> int:
        """The series' score, as the club home's card shows every game's: battles won."""
        return self.wins(player)

    @property
    def current_round(self) -> int:
        """The club home's card shows the battle being fought where other games show the round."""
        return min(self.current_battle, self.battles)

    @property
    def finished(self) -> bool:
        return len(self.results) >= self.battles

    @property
    def result(self) -> Result | None:
        """The series: all battles won, a major victory; two won, a minor one; else a draw."""
        if not self.finished:
            return None
        wins = [self.wins(i) for i in range(self.player_count)]
        top = max(wins)
        row = next((s for s in self.scenario.series if s.won == top), None)
        if row is not None and wins.count(top) == 1:
            winner = wins.index(top)
            # Said when read (a property, not kept in the replayed state): in the reader's language.
            won = {"name": self.name(winner), "top": top, "battles": self.battles}
            if row.kind == "major":
                return Result(
                    row.kind,
                    winner,
                    say("{name} won {top} of the {battles} battles: a major victory.", **won),
                )
            return Result(
                row.kind, winner, say("{name} won {top} of the {battles} battles: a minor victory.", **won)
            )
        high, *rest = sorted(wins, reverse=True)  # two players: the draw's score
        return Result(
            "draw",
            None,
            say("Battles won {high} to {low}: a draw.", high=high, low=rest[-1] if rest else high),
        )
