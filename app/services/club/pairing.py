"""Pairing a club event's round: the engines' plan, its preview with a reason per table (kept
so the organiser makes exactly what they saw), and the tables with a game each.

A part of the club events service (app/services/club/__init__.py), which :class:`RoundPlans` is mixed into; the
pairing rule itself is app/rules/club/pairing.py's.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.rules.club import pairing
from app.rules.pack import Pack
from app.rules.problems import Problem
from app.rules.speech import say
from app.store.club import Snapshot, seating

if TYPE_CHECKING:
    from app.rules.club import standings as ranking
    from app.rules.club.settings import Settings
    from app.store import Store
    from app.store.club import EventRow

PREVIEW = "event-pairing"  # the drafts' kind a pairing preview is kept under


@dataclass(frozen=True)
class Plan:
    """A round's pairing before its games are made: the scenario and the engine's round."""

    number: int
    scenario: str
    made: pairing.Round


class RoundPlans:
    """Plans and previews of a round's pairing (mixed into the club events service)."""

    store: Store
    packs: dict[str, Pack]
    rng: random.Random

    if TYPE_CHECKING:

        def settings(self, snap: Snapshot) -> Settings: ...

        def standings(self, snap: Snapshot) -> list[ranking.Row]: ...

        def missed(self, snap: Snapshot) -> list[tuple[int, int]]: ...

        def current_round(self, snap: Snapshot) -> int: ...

        def _may_repair(self, snap: Snapshot) -> Problem | None: ...

        def _may_pair_next(self, snap: Snapshot) -> Problem | None: ...

        def _before(self, snap: Snapshot, number: int) -> Snapshot: ...

        def _scenario(self, event: EventRow, number: int) -> str: ...

        def _game(
            self, pack: Pack, event: EventRow, scenario: str, a: str, b: str
        ) -> tuple[str, str] | Problem: ...

    def _fingerprint(self, snap: Snapshot, number: int) -> str:
        """What a round's pairing depends on: the players as the engine sees them, in order."""
        entrants, options = self._entrants(self._before(snap, number))
        basis = [
            [(e.id, e.points, e.club, sorted(e.opponents), sorted(e.tables), e.had_bye) for e in entrants],
            options.spare.id if options.spare else None,
            options.club_mates,
            options.repeat_tables,
        ]
        return hashlib.sha256(json.dumps(basis, default=str).encode()).hexdigest()

    def preview(self, snap: Snapshot, again: bool = False) -> dict[str, Any] | Problem:
        """The next round's pairing (or, ``again``, the current round's anew) before it is made:
        each table with its reason, the bye, the warnings, and an id to make exactly it."""
        if again:
            problem = self._may_repair(snap)
            number = self.current_round(snap)
            basis = self._before(snap, number) if not problem else snap
        else:
            problem = self._may_pair_next(snap)
            number = self.current_round(snap) + 1
            basis = snap
        if problem:
            return problem
        plan = self._plan(basis, number)
        if isinstance(plan, Problem):
            return plan
        body = {
            "event": snap.event.id,
            "round": number,
            "again": again,
            "fingerprint": self._fingerprint(snap, number),
            "scenario": plan.scenario,
            "tables": [[t.number, t.players[0], t.players[1], list(t.notes)] for t in plan.made.tables],
            "bye": plan.made.bye,
            "bye_note": plan.made.bye_note,
            "warnings": list(plan.made.warnings),
            "counts": [plan.made.rematches, plan.made.club_clashes, plan.made.repeated_tables],
        }
        preview_id = self.store.drafts.keep(PREVIEW, body)
        return self.preview_json(snap, preview_id, body)

    def preview_json(self, snap: Snapshot, preview_id: str, body: dict[str, Any]) -> dict[str, Any]:
        """A kept preview as the API answers it."""
        names = {p.id: p.name for p in snap.players}
        pairings: list[dict[str, Any]] = [
            {
                "table": number,
                "players": [a, b],
                "names": [names.get(a), names.get(b)],
                "reason": "; ".join(notes),
            }
            for number, a, b, notes in body["tables"]
        ]
        if body["bye"] is not None:
            pairings.append({"bye": body["bye"], "name": names.get(body["bye"]), "reason": body["bye_note"]})
        pack = self.packs.get(snap.event.pack)
        found = pack.scenario(body["scenario"]) if pack else None
        return {
            "preview": preview_id,
            "round": body["round"],
            "again": body["again"],
            "scenario": body["scenario"],
            "scenario_name": found.name if found else body["scenario"],
            "pairings": pairings,
            "warnings": body["warnings"],
        }

    def kept_preview(self, snap: Snapshot, preview_id: Any) -> dict[str, Any] | None:
        """A kept preview of this event, if it is still kept."""
        if not isinstance(preview_id, str) or not 1 <= len(preview_id) <= 64:
            return None
        body = self.store.drafts.get(PREVIEW, preview_id)
        return body if body and body.get("event") == snap.event.id else None

    def _previewed(self, snap: Snapshot, preview_id: Any, number: int, again: bool) -> Plan | Problem:
        body = self.kept_preview(snap, preview_id)
        if body is None or body["round"] != number or body["again"] != again:
            return Problem.refusal(
                say(
                    "preview must be the id of a kept preview of round {number}; preview the round again.",
                    number=number,
                )
            )
        if body["fingerprint"] != self._fingerprint(snap, number):
            return Problem.refusal(
                say(
                    "The event changed since this preview (a result, a player or a drop): preview the round again."
                ),
                conflict=True,
            )
        made = pairing.Round(
            tuple(pairing.Table(n, (a, b), tuple(notes)) for n, a, b, notes in body["tables"]),
            body["bye"],
            *body["counts"],
            tuple(body["warnings"]),
            body["bye_note"],
        )
        return Plan(number, body["scenario"], made)

    def _plan(self, snap: Snapshot, number: int) -> Plan | Problem:
        """The engines' pairing of round ``number`` (no games made yet)."""
        entrants, options = self._entrants(snap)
        if len(entrants) < 2:
            return Problem.refusal(
                say("At least two players who have not dropped are needed to pair a round."), conflict=True
            )
        made = (
            pairing.first_round(entrants, self.rng, options)
            if number == 1
            else pairing.swiss_round(entrants, options)
        )
        return Plan(number, self._scenario(snap.event, number), made)

    def _entrants(self, snap: Snapshot) -> tuple[list[pairing.Entrant], pairing.Options]:
        """The players to pair as the engine takes them (standings order) and its options."""
        active = [p for p in snap.players if not p.dropped and not p.spare]
        ids = {p.id for p in snap.players}
        met: dict[int, set[int]] = {p: set() for p in ids}
        used: dict[int, set[int]] = {p: set() for p in ids}
        byes: set[int] = set()
        spares = {p.id for p in snap.players if p.spare}
        for table in snap.tables:
            if table.player_b is None:
                byes.add(table.player_a)
                continue
            met[table.player_a].add(table.player_b)
            met[table.player_b].add(table.player_a)
            used[table.player_a].add(table.number)
            used[table.player_b].add(table.number)
            # Playing the spare stands for a bye: nobody plays the spare twice while another could.
            byes.update(
                p
                for p, q in ((table.player_a, table.player_b), (table.player_b, table.player_a))
                if q in spares
            )
        settings = self.settings(snap)
        if settings.late == "bye":
            byes.update(p for _r, p in self.missed(snap))
        club = {p.id: p.club for p in snap.players}
        rows = self.standings(snap)
        keep = {p.id for p in active}
        entrants = [
            pairing.Entrant(
                r.player,
                r.total,
                club[r.player],
                frozenset(met[r.player]),
                frozenset(used[r.player]),
                r.player in byes,
                r.name,
                r.record,
            )
            for r in rows
            if r.player in keep
        ]
        spare = next((p for p in snap.players if p.spare and not p.dropped), None)
        options = pairing.Options(
            settings.pairing.club_mates,
            settings.pairing.repeat_tables,
            pairing.Entrant(
                spare.id, 0, spare.club, frozenset(met[spare.id]), frozenset(used[spare.id]), name=spare.name
            )
            if spare is not None and len(entrants) % 2
            else None,
        )
        return entrants, options

    def _tables(self, snap: Snapshot, plan: Plan) -> list[dict[str, Any]] | Problem:
        """A plan's table rows, each with its new game."""
        names = {p.id: p.name for p in snap.players}
        pack = self.packs[snap.event.pack]
        tables: list[dict[str, Any]] = []
        for table in plan.made.tables:
            a, b = table.players
            game = self._game(pack, snap.event, plan.scenario, names[a], names[b])
            if isinstance(game, Problem):
                return game
            tables.append(seating(table.number, a, b, game))
        if plan.made.bye is not None:
            tables.append(seating(len(plan.made.tables) + 1, plan.made.bye, None, None))
        return tables
