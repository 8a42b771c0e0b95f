"""A club event's lists: each player submits a roster, the organiser sees its verdict and locks
them, opponents see each other's when the event says, and a change after the lock shows.

A part of the club events service (app/services/club/__init__.py), which :class:`EventLists` is mixed into: the
rules (the verdict for the event, when a list is shown, what changed) are in
app/rules/club/lists.py, the copies kept in app/store/club.py.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from app.rules.club import lists as event_lists
from app.rules.pack import Pack, roster_packs
from app.rules.problems import Problem
from app.rules.speech import say
from app.services import rosters as roster_service
from app.store.club import ListRow, Snapshot

if TYPE_CHECKING:
    from app.rules.club.settings import Settings
    from app.store import Store
    from app.store.club import TableRow


class EventLists:
    """Lists submitted to an event (mixed into the club events service)."""

    store: Store
    packs: dict[str, Pack]

    if TYPE_CHECKING:

        def settings(self, snap: Snapshot) -> Settings: ...

        def tables_of(self, snap: Snapshot, number: int) -> list[TableRow]: ...

    def submit_list(
        self, snap: Snapshot, player: int, roster_id: Any, now: datetime | None = None
    ) -> Problem | None:
        """A player submits a roster as their list: a copy is kept with its verdict for the
        event. Refused once the organiser locked the lists or the deadline passed."""
        me = next((p for p in snap.players if p.id == player), None)
        if me is None or me.spare:
            return Problem.refusal(say("Only a player of this event submits a list."), conflict=True)
        if snap.event.lists_locked:
            return Problem.refusal(
                say("The organiser has locked the lists; ask them if yours must change."), conflict=True
            )
        deadline = self.settings(snap).lists.deadline
        if deadline and (now or datetime.now(UTC)) > datetime.fromisoformat(deadline.replace("Z", "+00:00")):
            return Problem.refusal(
                say(
                    "Lists were due by {due}; ask the organiser.",
                    due=deadline.replace("T", " ").replace("Z", " UTC"),
                ),
                conflict=True,
            )
        allowed = roster_packs(self.packs, snap.event.pack)
        pack = self.packs.get(snap.event.pack)
        loaded = (
            roster_service.load(self.store, self.packs, roster_id)
            if isinstance(roster_id, str) and 1 <= len(roster_id) <= 64
            else None
        )
        if loaded is None or loaded.pack.id not in allowed:
            return Problem.refusal(
                say(
                    "roster must be one of your rosters for {pack}.",
                    pack=pack.name if pack else snap.event.pack,
                )
            )
        verdict = event_lists.event_verdict(
            loaded.verdict.as_dict(), loaded.row.body, snap.event.points_limit
        )
        if not self.store.club.submit_list(snap.event.id, player, loaded.row.id, loaded.row.body, verdict):
            return Problem.refusal(
                say("The organiser has locked the lists; ask them if yours must change."), conflict=True
            )
        return None

    def lock_lists(self, snap: Snapshot, locked: bool) -> None:
        """The organiser locks the lists (or opens them again)."""
        self.store.club.lock_lists(snap.event.id, locked)

    def revealed(self, snap: Snapshot, player: int) -> bool:
        """Whether a player's list is shown to everyone by now (app/rules/club/lists.py)."""
        seats = [
            event_lists.RoundSeats(
                r.number,
                r.started is not None,
                frozenset(p for t in self.tables_of(snap, r.number) for p in (t.player_a, t.player_b) if p),
            )
            for r in snap.rounds
        ]
        return event_lists.revealed(player, self.settings(snap).lists.reveal, seats)

    def list_of(
        self, snap: Snapshot, player: int, viewer: int | None = None, organiser: bool = False
    ) -> ListRow | None:
        """A player's submitted list if this viewer may see it: the organiser always, the
        player themselves, anyone else once it is revealed."""
        kept = snap.lists.get(player)
        if kept is None:
            return None
        if organiser or viewer == player or self.revealed(snap, player):
            return kept
        return None

    def list_changes(self, snap: Snapshot, player: int) -> list[str]:
        """What changed in the player's roster since the lists were locked (empty before the lock)."""
        kept = snap.lists.get(player)
        if kept is None or not snap.event.lists_locked:
            return []
        now_row = self.store.rosters.get(kept.roster_id)
        if now_row is None:
            return [say("the roster was deleted")]
        return event_lists.changes(kept.body, now_row.body)

    def list_json(self, snap: Snapshot, kept: ListRow, organiser: bool = False) -> dict[str, Any]:
        """A submitted list as the API answers it (its verdict and check-in changes for the organiser)."""
        out: dict[str, Any] = {
            "player": kept.player,
            "name": kept.verdict.get("name"),
            "faction": kept.verdict.get("faction"),
            "points": kept.verdict.get("points"),
            "submitted": kept.submitted,
            "roster": kept.body,
        }
        if organiser:
            out["valid"] = kept.verdict.get("valid")
            out["problems"] = kept.verdict.get("problems", [])
            out["changed_since_lock"] = self.list_changes(snap, kept.player)
        return out

    def faction(self, snap: Snapshot, player: int) -> str:
        """The faction of the player's list, once it may be shown ("" before, or with none)."""
        kept = self.list_of(snap, player)
        return str(kept.verdict.get("faction") or "") if kept else ""
