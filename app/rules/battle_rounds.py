"""Battle rounds of player turns: which round is being played, and whose turn may come next.

Pitched Battles, sieges and Triumph & Treachery record each battle round as one turn per
player (``{"type": "turn", "round", "player"}``): a round is over once every player has had
theirs, and a round whose first player was named starts with that player. Tunnel Wars asks
the same questions of its battles (every battle round of one battle; both contingents in).
One rule for all of them, asked of a system's own entries, which need only a ``round`` (or
``battle``) and a ``player``. A round's start and a turn's end as a log records them are here
too, for the systems whose entries say no more (a system's own turn may add what it scores).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any, Protocol, TypeVar

from app.rules.log import Entry


class ByPlayer(Protocol):
    """An entry made by one player: a turn, a secret pick."""

    @property
    def player(self) -> int: ...


class PlayerEntry(ByPlayer, Protocol):
    """An entry made by one player in one battle round: a turn."""

    @property
    def round(self) -> int: ...


@dataclass(frozen=True)
class RoundStart(Entry):
    """A battle round's start, and who took the first turn when the players said."""

    round: int
    first: int | None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Turn(Entry):
    """The end of a player's turn in a battle round."""

    round: int
    player: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


E = TypeVar("E")


def within(entries: Iterable[E], number: int, by: str = "round") -> list[E]:
    """The entries of one battle round (``by="battle"``: of one battle of a series), in order."""
    return [e for e in entries if getattr(e, by) == number]


def everyone_in(entries: Iterable[ByPlayer], player_count: int) -> bool:
    """Whether every player has an entry among these (a round's turns, a battle's picks)."""
    return {e.player for e in entries} >= set(range(player_count))


def current_round(turns: Iterable[PlayerEntry], player_count: int) -> int:
    """The battle round now being played: the first in which not every player has had a turn
    (one past the last once every turn is in)."""
    per_round = Counter(t.round for t in turns)
    r = 1
    while per_round[r] >= player_count:
        r += 1
    return r


def waiting(turns: Iterable[PlayerEntry], round_: int, player_count: int) -> list[int]:
    """The players who have not had their turn in that round, in seat order."""
    done = {t.player for t in turns if t.round == round_}
    return [i for i in range(player_count) if i not in done]


def next_players(
    turns: Iterable[PlayerEntry], round_: int, player_count: int, first: int | None = None
) -> list[int]:
    """Who may record the next turn of that round: the player named to go first while nobody
    has had a turn in it, else every player still waiting."""
    left = waiting(turns, round_, player_count)
    if first is not None and len(left) == player_count:
        return [first]
    return left
