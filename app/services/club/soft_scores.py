"""A club event's soft scores: the organiser's painting marks and each player's secret
sportsmanship ballot (one, counted once, seen by their own phone and the organiser only),
and the prizes kept apart from the standings.

A part of the club events service (app/services/club/__init__.py), which :class:`SoftScores` is mixed into; how
soft scores weigh in the standings is app/rules/club/standings.py's.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from app.rules.club import settings as event_settings
from app.rules.problems import Problem
from app.rules.speech import say
from app.store.club import Snapshot

if TYPE_CHECKING:
    from app.rules.club import standings as ranking
    from app.rules.club.settings import Settings
    from app.store import Store


class SoftScores:
    """Painting marks, sportsmanship ballots and prizes (mixed into the club events service)."""

    store: Store

    if TYPE_CHECKING:

        def settings(self, snap: Snapshot) -> Settings: ...

        def standings(self, snap: Snapshot) -> list[ranking.Row]: ...

    def set_painting(self, snap: Snapshot, player: Any, value: Any) -> Problem | None:
        """The organiser's painting mark for a player (0 to 100); the newest counts."""
        problem = self._painting_problem(snap, player, value)
        if problem:
            return problem
        self.store.club.add_mark(snap.event.id, player, "painting", value)
        return None

    def _painting_problem(self, snap: Snapshot, player: Any, value: Any) -> Problem | None:
        if "painting" not in self.settings(snap).soft:
            return Problem.refusal(say("painting: this event has no painting scores."), conflict=True)
        if isinstance(player, bool) or not any(p.id == player and not p.spare for p in snap.players):
            return Problem.refusal(say("player must be the id of a player of this event."))
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= event_settings.MAX_SOFT:
            return Problem.refusal(
                say("painting must be a whole number from 0 to {most}.", most=event_settings.MAX_SOFT)
            )
        return None

    def opponents_met(self, snap: Snapshot, player: int) -> list[int]:
        """The players this one has sat across from in a round (spares left out), in round order."""
        spares = {p.id for p in snap.players if p.spare}
        out: list[int] = []
        for t in snap.tables:
            if t.player_b is None or player not in (t.player_a, t.player_b):
                continue
            other = t.player_b if t.player_a == player else t.player_a
            if other not in spares and other not in out:
                out.append(other)
        return out

    def vote(self, snap: Snapshot, voter: int, choice: Any) -> Problem | None:
        """A player's secret sportsmanship ballot for one of their opponents: counted once."""
        if "sportsmanship" not in self.settings(snap).soft:
            return Problem.refusal(say("This event has no sportsmanship votes."), conflict=True)
        if voter in snap.votes:
            return Problem.refusal(say("You have voted already: a vote counts once."), conflict=True)
        if not self.voting_open(snap):
            return Problem.refusal(
                say("Voting opens once the last round is paired, so every opponent can be chosen."),
                conflict=True,
            )
        met = self.opponents_met(snap, voter)
        if not met:
            return Problem.refusal(say("You can vote once you have played a game here."), conflict=True)
        if isinstance(choice, bool) or choice not in met:
            names = {p.id: p.name for p in snap.players}
            return Problem.refusal(
                say(
                    "player must be one of the opponents you played: {names}.",
                    names=", ".join(names[o] for o in met),
                )
            )
        if not self.store.club.cast_vote(snap.event.id, voter, choice):
            return Problem.refusal(say("You have voted already: a vote counts once."), conflict=True)
        return None

    def voting_open(self, snap: Snapshot) -> bool:
        """Whether ballots may be cast: once the event's last round is paired (one vote a player
        for the whole event, so every opponent should be known)."""
        return len(snap.rounds) >= snap.event.rounds

    def votes_json(self, snap: Snapshot) -> dict[str, Any]:
        """The sportsmanship ballots and their count (the organiser's only)."""
        names = {p.id: p.name for p in snap.players}
        tally = Counter(snap.votes.values())
        return {
            "votes": [
                {"voter": v, "voter_name": names.get(v), "player": p, "name": names.get(p)}
                for v, p in sorted(snap.votes.items())
            ],
            "count": [
                {"player": p, "name": names.get(p), "votes": n}
                for p, n in sorted(tally.items(), key=lambda item: (-item[1], names.get(item[0], "")))
            ],
            "not_voted": [p.id for p in snap.players if not p.spare and p.id not in snap.votes],
        }

    def prizes(self, snap: Snapshot, organiser: bool = False) -> list[dict[str, Any]]:
        """Each soft score kept as a prize of its own, its leaders first (sportsmanship only for
        the organiser)."""
        rows = self.standings(snap)
        out = []
        for kind, soft in self.settings(snap).soft.items():
            if not soft.prize or (kind == "sportsmanship" and not organiser):
                continue
            ranked = sorted(rows, key=lambda r: -r.soft.get(kind, 0))
            out.append(
                {
                    "kind": kind,
                    "leaders": [
                        {"player": r.player, "name": r.name, "score": r.soft.get(kind, 0)} for r in ranked[:3]
                    ],
                }
            )
        return out
