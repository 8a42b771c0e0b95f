"""A Triumph & Treachery game's state as its events build it: rounds, turns, ploys, deals, VP.

Plain data plus the questions the rules ask of it (whose turn may come, who stands where,
what a player holds). :mod:`.events` builds it one event at a time. Like every state, its
containers are copied by the log before an event changes them and the entries inside them
are never changed once made (:func:`app.rules.log.clone`): a player's ploys are a tuple
replaced whole, a cancelled play is noted in ``cancelled`` rather than on the play.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.rules import battle_rounds
from app.rules.game import GameState
from app.rules.speech import say
from app.rules.systems.treachery import section


@dataclass(frozen=True)
class Award:
    """VP one rule gave (or a deal moved) to one player, with the die that decided it, if any."""

    event: str
    round: int
    player: int
    rule: str
    vp: int
    what: str | None = None
    die: int | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": self.event, "round": self.round, "player": self.player}
        out |= {"rule": self.rule, "vp": self.vp, "what": self.what}
        if self.die is not None:
            out["die"] = self.die
        return out


@dataclass(frozen=True)
class Arrival:
    """An objective that arrived at the start of a round: the die rolled and where it was set up."""

    event: str
    round: int
    objective: str
    die: int
    position: str


@dataclass(frozen=True)
class RoundStart:
    """A battle round's start: every player's VP then, and how many ploys each may buy."""

    event: str
    round: int
    standing: tuple[int, ...]
    limits: tuple[int, ...]


@dataclass(frozen=True)
class Turn(battle_rounds.Turn):
    """A turn's end with what it scored: who controlled what, the dice rolled, the VP awarded."""

    control: dict[str, int | None]
    dice: dict[str, int]
    zones: tuple[tuple[int, int], ...]
    awards: tuple[Award, ...]

    @property
    def vp(self) -> int:
        return sum(a.vp for a in self.awards)


@dataclass(frozen=True)
class Gain:
    """A ploy coming into a player's hands: bought, won on a bonus roll or given in a deal (a secret)."""

    event: str
    round: int
    player: int
    ploy: str
    how: str  # "buy" | "bonus" | "deal"
    # "The same turn" of the rules: (round, turns already played in it), or (round, -1) for
    # the purchases before the round's first turn.
    period: tuple[int, int]
    cost: int = 0
    roll: int | None = None
    pick: str | None = None  # the enemy pick a bonus roll followed


@dataclass(frozen=True)
class Play:
    event: str
    round: int
    player: int
    ploy: str
    cancels: str | None = None  # the play this one cancelled (Misheard Orders)
    # The turn it was played in (as Gain.period), and the enemy pick then in force, if any.
    period: tuple[int, int] = (0, 0)
    pick: str | None = None


@dataclass(frozen=True)
class Discard:
    event: str
    round: int
    player: int
    ploy: str


@dataclass(frozen=True)
class Deal:
    """Command points, VP and/or a ploy given; the ploy is a secret of the two players."""

    event: str
    round: int
    giver: int
    receiver: int
    cp: int
    vp: int
    note: str
    ploy: str | None = None


@dataclass(frozen=True)
class Pick:
    """The active player's enemy for a phase; everyone else is neutral."""

    event: str
    round: int
    player: int
    phase: str
    enemy: int
    neutral: tuple[int, ...]
    period: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class RollOff:
    """One throw of a roll-off: who rolled what, the winner (``None``: the leaders tied and roll
    again), and ``among``: every player of the roll-off it decides (a throw after a tie decides
    the roll-off its first throw began)."""

    event: str
    round: int
    purpose: str
    rolls: tuple[tuple[int, int], ...]
    winner: int | None
    next: int | None = None
    among: tuple[int, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "round": self.round,
            "purpose": self.purpose,
            "rolls": [list(r) for r in self.rolls],
            "winner": self.winner,
            "next": self.next,
            "among": list(self.among),
        }


@dataclass(frozen=True)
class Destroyed:
    event: str
    round: int
    by: int
    owner: int
    unit: str
    points: int
    vp: int


@dataclass(frozen=True)
class Contingent:
    """How a player split their army (vanguard, reinforcements): a secret of their seat.

    ``names`` holds each contingent's unit names (empty when counted by hand), ``counts`` its size.
    """

    event: str
    player: int
    ids: tuple[str, ...]
    names: tuple[tuple[str, ...], ...]
    counts: tuple[int, ...]

    def as_dict(self) -> dict[str, Any]:
        return {cid: list(n) or c for cid, n, c in zip(self.ids, self.names, self.counts, strict=True)}


@dataclass(frozen=True)
class End:
    event: str
    tie_break: tuple[int, ...] = ()
    renown: tuple[tuple[int, str], ...] = ()
    monolith: int | None = None
    closest: tuple[int, ...] = ()


@dataclass(frozen=True)
class Result:
    """The end of the battle: a ranking of every player (major to the first, minor to the second),
    or Convergence of Fate's major, minor or draw. ``said``: why, in English with ``blanks``;
    said in the reader's language when read (a replayed state serves every language)."""

    kind: str  # "ranking" | "major" | "minor" | "draw"
    winner: int | None
    said: str
    ranking: tuple[int, ...] = ()
    minor: int | None = None
    blanks: dict[str, Any] = field(default_factory=dict)

    @property
    def reason(self) -> str:
        return say(self.said, **self.blanks)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "winner": self.winner, "reason": self.reason}
        if self.kind == "ranking":
            out |= {"ranking": list(self.ranking), "major": self.winner, "minor": self.minor}
        return out


@dataclass
class TreacheryGame(GameState):
    """Everything the events say about a multiplayer game, computed afresh on every replay."""

    rules: section.Treachery
    cp: list[int]
    rounds: dict[int, RoundStart] = field(default_factory=dict)
    turns: list[Turn] = field(default_factory=list)
    awards: list[Award] = field(default_factory=list)
    held: dict[int, tuple[str, ...]] = field(default_factory=dict)
    gains: list[Gain] = field(default_factory=list)
    plays: list[Play] = field(default_factory=list)
    cancelled: dict[str, str] = field(default_factory=dict)
    discards: list[Discard] = field(default_factory=list)
    deals: list[Deal] = field(default_factory=list)
    picks: list[Pick] = field(default_factory=list)
    roll_offs: list[RollOff] = field(default_factory=list)
    arrivals: list[Arrival] = field(default_factory=list)
    destroyed: list[Destroyed] = field(default_factory=list)
    contingents: dict[int, Contingent] = field(default_factory=dict)
    # Who was picked (or picked an enemy) to take the turn now being played, if anyone said;
    # ``named``: the player a turn-order roll-off sent, whose turn comes next.
    active: int | None = None
    named: int | None = None
    # The enemy pick whose bonus rolls may still be recorded, and the play just made.
    open_pick: str | None = None
    just_played: str | None = None
    # A roll-off whose leaders tied: its purpose and the players who roll again.
    tied: tuple[str, tuple[int, ...]] | None = None
    end: End | None = None
    result: Result | None = None  # type: ignore[assignment]

    # --- who and when -------------------------------------------------------------------
    @property
    def last_round(self) -> int:
        return self.scenario.battle_rounds or 4

    def turns_in(self, round_: int) -> list[Turn]:
        return battle_rounds.within(self.turns, round_)

    @property
    def current_round(self) -> int:
        """The battle round now being played (the last round + 1 once every turn is in)."""
        return battle_rounds.current_round(self.turns, self.player_count)

    @property
    def turns_complete(self) -> bool:
        return self.current_round > self.last_round

    def waiting(self) -> list[int]:
        """Players who have not had their turn in the current round."""
        if self.turns_complete:
            return []
        return battle_rounds.waiting(self.turns, self.current_round, self.player_count)

    def period(self) -> tuple[int, int]:
        """The "turn" the ploy restrictions count in: the round, and how many turns it has had."""
        r = self.current_round
        return (r, len(self.turns_in(r)))

    def order(self, round_: int) -> list[int]:
        """The players in the order their turns were recorded in that round."""
        return [t.player for t in self.turns_in(round_)]

    # --- points ---------------------------------------------------------------------------
    def vp(self, player: int) -> int:
        return sum(a.vp for a in self.awards if a.player == player)

    def breakdown(self, player: int) -> list[dict[str, Any]]:
        """Every VP of a player with the rule that gave it, in the order the rules first gave any."""
        totals: dict[str, int] = {}
        for a in self.awards:
            if a.player == player:
                totals[a.rule] = totals.get(a.rule, 0) + a.vp
        return [{"rule": rule, "vp": vp} for rule, vp in totals.items()]

    def ploys(self, player: int) -> tuple[str, ...]:
        return self.held.get(player, ())

    def last_pick(self) -> Pick | None:
        return self.picks[-1] if self.picks else None

    def current_pick(self) -> Pick | None:
        """The enemy pick of the turn now being played, if one was recorded in it."""
        pick = self.last_pick()
        if pick is None or self.turns_complete or pick.period != self.period():
            return None
        return pick

    def turn_picks(self) -> list[Pick]:
        """Every enemy pick of the turn now being played, in order."""
        if self.turns_complete:
            return []
        now = self.period()
        return [pk for pk in self.picks if pk.period == now]

    def turn_plays(self) -> list[Play]:
        """Every ploy played in the turn now being played (before the round's first turn too)."""
        if self.turns_complete:
            return []
        now = self.period()
        return [pl for pl in self.plays if pl.period == now]

    # --- secrets that come out -------------------------------------------------------------
    def contingents_shown(self, player: int) -> bool:
        """Whether a player's contingents are shown to everyone: once their reinforcements are
        on the table (an enemy picked for a phase after movement in their turn of the round the
        reinforcements come, or that turn over), and once every turn is over at the latest."""
        if self.turns_complete:
            return True
        due = self.scenario.reinforcements_after_movement
        if due is None:
            return False
        if any(t.player == player and t.round >= due for t in self.turns):
            return True
        ids = [ph.id for ph in self.rules.phases]
        after = ids[ids.index("movement") + 1 :] if "movement" in ids else []
        return any(pk.player == player and pk.round == due and pk.phase in after for pk in self.picks)
