"""Club events as the app uses them: sign-up, pairing rounds into games, results, standings.

The views (HTML and JSON) ask an :class:`Events` service; it holds no SQL and no pairing or
ranking rule, only the wiring between the store (app/store/club.py), the engines
(app/rules/club/pairing.py, app/rules/club/standings.py) and the games service, which makes a Muster
game for every table. Randomness comes from the ``random.Random`` it is given.
"""

from __future__ import annotations

import csv
import io
import random
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from app.rules.club import settings as event_settings
from app.rules.club import standings as ranking
from app.rules.club import tournament_points as tp
from app.rules.club.settings import Settings
from app.rules.game import parse_setup
from app.rules.pack import Pack
from app.rules.problems import Problem
from app.rules.speech import say
from app.rules.text import clean_text, name_key
from app.services.club.lists import EventLists
from app.services.club.pairing import RoundPlans
from app.services.club.soft_scores import SoftScores
from app.services.games import Games
from app.store import Store
from app.store.club import EventRow, ResultRow, Snapshot, TableRow, seating

EXPORT_FORMAT = "muster-event/1"
MAX_NAME = 60
MAX_ROUNDS = 12
MAX_PLAYERS = 200
MAX_MINUTES = 600
MAX_VP = 10_000
MAX_BONUS = 100


@dataclass(frozen=True)
class Paired:
    """A round as the API answers it: its number and its tables, the bye last."""

    round: int
    pairings: list[dict[str, Any]]


def _text(
    value: Any, field: str, most: int = MAX_NAME, required: bool = True
) -> tuple[str | None, str | None]:
    """A short text field, cleaned; or why it cannot be taken."""
    if value is None and not required:
        return None, None
    if not isinstance(value, str):
        return None, say("{field} must be text of 1 to {most} characters.", field=field, most=most)
    text = clean_text(value).strip()
    if not text:
        if not required:
            return None, None
        return None, say("{field} must be text of 1 to {most} characters.", field=field, most=most)
    if len(text) > most:
        return None, say("{field} must be text of 1 to {most} characters.", field=field, most=most)
    return text, None


def _seat_left(name: str, names: list[str]) -> str | None:
    """Why ``name`` cannot join an event whose players are ``names``: full, or the name taken.

    Two players the board, the pairings and the standings would show under one name cannot
    be told apart, so a name is taken whatever its capitals and spaces.
    """
    if len(names) >= MAX_PLAYERS:
        return say("This event already has {most} players, the most one may have.", most=MAX_PLAYERS)
    taken = next((n for n in names if name_key(n) == name_key(name)), None)
    if taken is not None:
        return say(
            "name: {taken} is already signed up for this event; add an initial or a surname so that the pairings tell you apart.",
            taken=taken,
        )
    return None


def _whole(
    value: Any, field: str, low: int, high: int, required: bool = True
) -> tuple[int | None, str | None]:
    if value is None and not required:
        return None, None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return None, say(
            "{field} must be a whole number from {low} to {high}.", field=field, low=low, high=high
        )
    return value, None


class Events(EventLists, SoftScores, RoundPlans):
    """Create and run club events over the store, the rulepacks and the games service (its
    lists in app/services/club/lists.py, its soft scores in app/services/club/soft_scores.py, the planning and
    previews of a round's pairing in app/services/club/pairing.py)."""

    def __init__(self, store: Store, packs: dict[str, Pack], games: Games, rng: random.Random) -> None:
        self.store = store
        self.packs = packs
        self.games = games
        self.rng = rng

    # --- creating -----------------------------------------------------------------------
    def create(self, data: Any) -> tuple[str, str] | Problem:
        """A new event from ``{name, pack, points_limit, rounds, scenarios?, scoring?, round_minutes?}``."""
        if not isinstance(data, dict):
            return Problem.refusal(
                say("The body must be an object with name, pack, points_limit and rounds.")
            )
        name, problem = _text(data.get("name"), "name", 80)
        if problem:
            return Problem.refusal(problem)
        pack = self.packs.get(data.get("pack")) if isinstance(data.get("pack"), str) else None
        two = sorted(k for k, p in self.packs.items() if self.scenarios_for(p, None))
        if pack is None or pack.id not in two:
            return Problem.refusal(
                say("pack must be one of the rulepacks two players can play: {packs}.", packs=", ".join(two))
            )
        points = data.get("points_limit")
        if isinstance(points, bool) or not isinstance(points, int):
            return Problem.refusal(say("points_limit must be a whole number."))
        rounds, problem = _whole(data.get("rounds"), "rounds", 1, MAX_ROUNDS)
        if problem:
            return Problem.refusal(problem)
        scenarios = data.get("scenarios") or []
        if (
            not isinstance(scenarios, list)
            or not all(isinstance(s, str) for s in scenarios)
            or len(scenarios) > 50
        ):
            return Problem.refusal(
                say(
                    "scenarios must be a list of scenario ids of the pack (one per round, repeated), or left out."
                )
            )
        fit = self.scenarios_for(pack, points)
        if not fit:
            _made, problem = parse_setup(
                self._setup(pack, pack.playable[0].id, points, ("A", "B")), self.packs
            )
            return Problem.refusal(
                problem or say("points_limit is not one {pack_name} allows.", pack_name=pack.name)
            )
        for i, scenario in enumerate(scenarios):
            if scenario not in fit:
                return Problem.refusal(
                    say(
                        "scenarios[{i}] must be the id of a playable scenario of {pack_name}.",
                        i=i,
                        pack_name=pack.name,
                    )
                )
        settings = event_settings.read(data, points)
        if isinstance(settings, str):
            return Problem.refusal(settings)
        minutes, problem = _whole(data.get("round_minutes"), "round_minutes", 1, MAX_MINUTES, required=False)
        if problem:
            return Problem.refusal(problem)
        scoring, rest = settings.stored()
        return self.store.club.create(
            {
                "name": name,
                "pack": pack.id,
                "points_limit": points,
                "rounds": rounds,
                "scenarios": scenarios,
                "scoring": scoring,
                "settings": rest,
                "round_minutes": minutes,
            }
        )

    def _setup(self, pack: Pack, scenario: str, points: Any, names: tuple[str, str]) -> dict[str, Any]:
        """A two-player game's set-up: the first player named takes the pack's first side."""
        sides = pack.sides[:2] if len(pack.sides) >= 2 else [None, None]
        return {
            "pack": pack.id,
            "scenario": scenario,
            "points_limit": points,
            "players": [{"name": n, "side": s} for n, s in zip(names, sides, strict=True)],
        }

    def scenarios_for(self, pack: Pack, points: int | None) -> list[str]:
        """The pack's scenarios a game of two can be set up in (at that points limit, else its
        first preset): an event of a pack without any cannot be made."""
        if not pack.playable:
            return []
        limit = points if points is not None else (pack.points.presets[0] if pack.points.presets else 1000)
        return [
            s.id
            for s in pack.playable
            if parse_setup(self._setup(pack, s.id, limit, ("A", "B")), self.packs)[0] is not None
        ]

    # --- reading ------------------------------------------------------------------------
    def snapshot(self, event_id: str) -> Snapshot | None:
        """The event as stored, with the results of games finished since it was last read."""
        snap = self.store.club.snapshot(event_id)
        if snap is None:
            return None
        if self._collect_games(snap):
            snap = self.store.club.snapshot(event_id) or snap
        return snap

    def _collect_games(self, snap: Snapshot) -> bool:
        """Take the result of every finished game whose table has none yet; whether any was taken."""
        have = {(r.round, r.table_no) for r in snap.results}
        pack = self.packs.get(snap.event.pack)
        open_tables = [
            t
            for t in snap.tables
            if t.player_b is not None and t.game_id is not None and (t.round, t.number) not in have
        ]
        # Every screen of the event reads this: one query for all its open tables' games.
        rows = self.store.games.get_many([t.game_id for t in open_tables if t.game_id is not None])
        taken = False
        for table in open_tables:
            row = rows.get(table.game_id or "")
            # A game whose pack or scenario is gone cannot be replayed: the organiser enters it.
            if row is None or pack is None or row.pack != pack.id or pack.scenario(row.scenario) is None:
                continue
            card = self.games.card_of(row, pack)
            if not card.get("finished"):
                continue
            winner = (card.get("result") or {}).get("winner")
            vp = card.get("vp") or [0, 0]
            self.store.club.add_result(
                snap.event.id,
                table.round,
                table.number,
                (table.player_a, table.player_b),
                winner if winner in (0, 1) else None,
                (int(vp[0]), int(vp[1])),
                "game",
                only_first=True,
            )
            taken = True
        return taken

    def settings(self, snap: Snapshot) -> Settings:
        """The event's settings (an event made before them reads as it was run)."""
        return event_settings.stored(snap.event.scoring, snap.event.settings, snap.event.points_limit)

    def missed(self, snap: Snapshot) -> list[tuple[int, int]]:
        """``(round, player)`` for each round paired before a late player signed up that they
        were not seated in (a pairing made again after they joined may have seated them)."""
        seated = {(t.round, p) for t in snap.tables for p in (t.player_a, t.player_b) if p is not None}
        return [
            (r.number, p.id)
            for p in snap.players
            if not p.spare
            for r in snap.rounds
            if r.number <= p.joined_after and (r.number, p.id) not in seated
        ]

    def standings(self, snap: Snapshot) -> list[ranking.Row]:
        """The ranked rows from the final results, byes, missed rounds, soft scores and roll-offs."""
        results = [
            ranking.Result(r.round, r.players, r.winner, r.vp, r.bonus, r.table_no)
            for r in snap.results
            if r.final
        ]
        byes = [(t.round, t.player_a) for t in snap.tables if t.player_b is None]
        players = [
            ranking.Entry(p.id, p.name, p.dropped, p.spare, snap.marks.get(p.id, {}).get("painting"))
            for p in snap.players
        ]
        votes = Counter(snap.votes.values())
        return ranking.standings(
            players,
            results,
            byes,
            snap.rolloffs,
            self.settings(snap),
            snap.event.points_limit,
            self.missed(snap),
            dict(votes),
        )

    def award(self, snap: Snapshot, result: ResultRow) -> tp.Award:
        """What a table's result is worth to each player, and why."""
        return tp.award(self.settings(snap).scoring, result.winner, result.vp, result.bonus)

    def current_round(self, snap: Snapshot) -> int:
        """The number of the last round paired (0 before the first)."""
        return snap.rounds[-1].number if snap.rounds else 0

    def tables_of(self, snap: Snapshot, number: int) -> list[TableRow]:
        return [t for t in snap.tables if t.round == number]

    def result_of(self, snap: Snapshot, table: TableRow) -> ResultRow | None:
        return next((r for r in snap.results if r.round == table.round and r.table_no == table.number), None)

    def waiting(self, snap: Snapshot, number: int) -> list[TableRow]:
        """The tables of a round whose result is not final yet (the bye needs none)."""
        out = []
        for table in self.tables_of(snap, number):
            result = self.result_of(snap, table)
            if table.player_b is not None and (result is None or not result.final):
                out.append(table)
        return out

    def time_left(self, snap: Snapshot, now: datetime | None = None) -> int | None:
        """Seconds left in the current round (negative once over), ``None`` if it has no clock or
        has not started."""
        if not snap.rounds or snap.event.round_minutes is None or not snap.rounds[-1].started:
            return None
        started = datetime.fromisoformat(snap.rounds[-1].started.replace("Z", "+00:00"))
        ends = started + timedelta(minutes=snap.event.round_minutes)
        return int((ends - (now or datetime.now(UTC))).total_seconds())

    def round_ends(self, snap: Snapshot) -> str | None:
        """When the current round's time is up (ISO 8601, UTC), if it has a clock and started."""
        if not snap.rounds or snap.event.round_minutes is None or not snap.rounds[-1].started:
            return None
        started = datetime.fromisoformat(snap.rounds[-1].started.replace("Z", "+00:00"))
        ends = started + timedelta(minutes=snap.event.round_minutes)
        return ends.isoformat(timespec="seconds").replace("+00:00", "Z")

    def pairings_json(self, snap: Snapshot, number: int) -> list[dict[str, Any]]:
        """A round's pairings as the API answers them: tables in order, then the bye."""
        names = {p.id: p.name for p in snap.players}
        out: list[dict[str, Any]] = []
        bye = None
        for table in self.tables_of(snap, number):
            if table.player_b is None:
                bye = table.player_a
                continue
            result = self.result_of(snap, table)
            out.append(
                {
                    "table": table.number,
                    "players": [table.player_a, table.player_b],
                    "names": [names.get(table.player_a), names.get(table.player_b)],
                    "game": table.game_id,
                    "result": _result_json(result, self.award(snap, result) if result else None),
                }
            )
        if bye is not None:
            out.append({"bye": bye, "name": names.get(bye)})
        return out

    def describe(self, snap: Snapshot) -> dict[str, Any]:
        """The event as ``GET /api/v1/events/<id>`` answers it."""
        event = snap.event
        number = self.current_round(snap)
        settings = self.settings(snap)
        return {
            **_event_json(event),
            **settings.as_dict(),
            "order": settings.order_words(),
            "lists_locked": event.lists_locked,
            "players": [
                {
                    "player": p.id,
                    "name": p.name,
                    "club": p.club,
                    "roster": p.roster,
                    "dropped": p.dropped,
                    "spare": p.spare,
                    "joined_after": p.joined_after,
                    "checked_in": p.checked_in is not None,
                    "list_submitted": p.id in snap.lists,
                }
                for p in snap.players
            ],
            "round": number,
            "round_started": snap.rounds[-1].started if snap.rounds else None,
            "round_ends": self.round_ends(snap),
            "rounds_paired": [
                {
                    "round": r.number,
                    "scenario": r.scenario,
                    "started": r.started,
                    "pairings": self.pairings_json(snap, r.number),
                }
                for r in snap.rounds
            ],
            "waiting": [t.number for t in self.waiting(snap, number)] if number else [],
        }

    # --- players ------------------------------------------------------------------------
    def add_player(self, event_id: str, data: Any, by_organiser: bool) -> tuple[int, str] | Problem:
        """Sign a player up (``{name, club?, roster?, spare?}``): by the organiser at any time, by
        themselves while sign-up is open. Returns their id and their own token. A ``spare``
        (the organiser's choice) plays only when a round has an odd number of players."""
        event = self.store.club.get(event_id)
        if event is None:
            return Problem.refusal(say("There is no such event."))
        if not by_organiser and not event.signup_open:
            return Problem.refusal(
                say("Sign-up for this event is closed; ask the organiser to add you."), conflict=True
            )
        if not isinstance(data, dict):
            return Problem.refusal(
                say('The body must be an object such as {"name": "Ann", "club": "Hammer"}.')
            )
        name, problem = _text(data.get("name"), "name")
        if problem:
            return Problem.refusal(problem)
        club, problem = _text(data.get("club"), "club", required=False)
        if problem:
            return Problem.refusal(problem)
        roster = data.get("roster")
        if roster is not None:
            stored = self.store.rosters.get(roster) if isinstance(roster, str) and len(roster) <= 64 else None
            if stored is None or stored.pack != event.pack:
                return Problem.refusal(
                    say("roster must be the id of a stored roster for {pack}, or left out.", pack=event.pack)
                )
        spare = data.get("spare", False)
        if not isinstance(spare, bool) or (spare and not by_organiser):
            return Problem.refusal(
                say("spare must be true (a stand-in who plays only in an odd round) or false.")
            )
        snap = self.store.club.snapshot(event_id)
        other = next((p for p in snap.players if p.spare and not p.dropped), None) if snap else None
        if spare and other is not None:
            return Problem.refusal(
                say(
                    "spare: {other_name} is this event's spare already; drop them first to name another.",
                    other_name=other.name,
                ),
                conflict=True,
            )
        added = self.store.club.add_player(
            event_id, name or "", club, roster, judge=lambda names: _seat_left(name or "", names), spare=spare
        )
        return Problem.refusal(added, conflict=True) if isinstance(added, str) else added

    def set_dropped(self, snap: Snapshot, player: Any, dropped: bool) -> Problem | None:
        """Drop a player from the next rounds, or bring them back (they play from the next pairing)."""
        if not any(p.id == player for p in snap.players) or isinstance(player, bool):
            return Problem.refusal(say("player must be the id of a player of this event."))
        self.store.club.set_dropped(snap.event.id, player, dropped)
        return None

    def set_signup(self, snap: Snapshot, open_: bool) -> None:
        self.store.club.set_signup(snap.event.id, open_)

    # --- rounds -------------------------------------------------------------------------
    def pair_next(self, snap: Snapshot, preview: Any = None) -> Paired | Problem:
        """Pair the next round and make a game for each table: the previewed pairing when
        ``preview`` names one, else a fresh one."""
        number = self.current_round(snap)
        problem = self._may_pair_next(snap)
        if problem:
            return problem
        plan = self._previewed(snap, preview, number + 1, again=False) if preview is not None else None
        if isinstance(plan, Problem):
            return plan
        plan = plan or self._plan(snap, number + 1)
        if isinstance(plan, Problem):
            return plan
        tables = self._tables(snap, plan)
        if isinstance(tables, Problem):
            return tables
        if not self.store.club.save_round(snap.event.id, plan.number, plan.scenario, tables):
            self.store.club.archive_games([t["game_id"] for t in tables if t["game_id"]])
            return Problem.refusal(
                say("Another pairing of this round was saved first; reload."), conflict=True
            )
        fresh = self.store.club.snapshot(snap.event.id) or snap
        return Paired(plan.number, self.pairings_json(fresh, plan.number))

    def _may_pair_next(self, snap: Snapshot) -> Problem | None:
        number = self.current_round(snap)
        if number >= snap.event.rounds:
            return Problem.refusal(
                say("All {rounds} rounds of this event are paired.", rounds=snap.event.rounds), conflict=True
            )
        if number and self.waiting(snap, number):
            tables = ", ".join(str(t.number) for t in self.waiting(snap, number))
            return Problem.refusal(
                say(
                    "Round {number} still waits for the results of table(s) {tables}.",
                    number=number,
                    tables=tables,
                ),
                conflict=True,
            )
        return None

    def _may_repair(self, snap: Snapshot) -> Problem | None:
        number = self.current_round(snap)
        if not number:
            return Problem.refusal(say("No round is paired yet."), conflict=True)
        if any(r.round == number for r in snap.results):
            return Problem.refusal(
                say("Round {number} has a result in: it can no longer be paired again.", number=number),
                conflict=True,
            )
        return None

    def _before(self, snap: Snapshot, number: int) -> Snapshot:
        """The event as it was before round ``number`` was paired (to pair it again)."""
        return Snapshot(
            snap.event,
            snap.players,
            [r for r in snap.rounds if r.number < number],
            [t for t in snap.tables if t.round < number],
            [r for r in snap.results if r.round < number],
            snap.rolloffs,
            snap.lists,
            snap.marks,
            snap.votes,
        )

    def repair(self, snap: Snapshot, preview: Any = None) -> Paired | Problem:
        """Pair the current round again (new games), while none of its results is in."""
        problem = self._may_repair(snap)
        if problem:
            return problem
        number = self.current_round(snap)
        earlier = self._before(snap, number)
        plan = self._previewed(snap, preview, number, again=True) if preview is not None else None
        if isinstance(plan, Problem):
            return plan
        plan = plan or self._plan(earlier, number)
        if isinstance(plan, Problem):
            return plan
        tables = self._tables(snap, plan)
        if isinstance(tables, Problem):
            return tables
        if not self.store.club.save_round(snap.event.id, number, plan.scenario, tables, replace=True):
            self.store.club.archive_games([t["game_id"] for t in tables if t["game_id"]])
            return Problem.refusal(
                say("Round {number} has a result in: it can no longer be paired again.", number=number),
                conflict=True,
            )
        self._retire(self.tables_of(snap, number))
        fresh = self.store.club.snapshot(snap.event.id) or snap
        return Paired(number, self.pairings_json(fresh, number))

    def _scenario(self, event: EventRow, number: int) -> str:
        """The round's scenario: the event's list in turn, else rolled among those that fit."""
        if event.scenarios:
            return event.scenarios[(number - 1) % len(event.scenarios)]
        return self.rng.choice(self.scenarios_for(self.packs[event.pack], event.points_limit))

    def _game(self, pack: Pack, event: EventRow, scenario: str, a: str, b: str) -> tuple[str, str] | Problem:
        made = self.games.create(self._setup(pack, scenario, event.points_limit, (a, b)))
        return made

    def _retire(self, tables: list[TableRow]) -> None:
        """Games of a pairing that was replaced leave the club home (archived, never deleted)."""
        ids = [t.game_id for t in tables if t.game_id]
        if ids:
            self.store.club.archive_games(ids)

    def swap(self, snap: Snapshot, first: Any, second: Any) -> Problem | None:
        """Swap two players of the current round before it starts (their tables get new games)."""
        number = self.current_round(snap)
        if not number:
            return Problem.refusal(say("No round is paired yet."), conflict=True)
        if snap.rounds[-1].started:
            return Problem.refusal(
                say("Round {number} has started: players can no longer be swapped.", number=number),
                conflict=True,
            )
        if any(r.round == number for r in snap.results):
            return Problem.refusal(
                say("Round {number} has a result in: players can no longer be swapped.", number=number),
                conflict=True,
            )
        tables = self.tables_of(snap, number)
        seat: dict[int, tuple[TableRow, int]] = {}
        for table in tables:
            seat[table.player_a] = (table, 0)
            if table.player_b is not None:
                seat[table.player_b] = (table, 1)
        for field, player in (("players[0]", first), ("players[1]", second)):
            if isinstance(player, bool) or not isinstance(player, int) or player not in seat:
                return Problem.refusal(
                    say(
                        "{field} must be the id of a player seated in round {number}.",
                        field=field,
                        number=number,
                    )
                )
        if first == second:
            return Problem.refusal(say("players must name two different players."))
        (t1, s1), (t2, s2) = seat[first], seat[second]
        if t1.number == t2.number:
            return Problem.refusal(say("players must sit at different tables to be swapped."))
        seats = {t1.number: [t1.player_a, t1.player_b], t2.number: [t2.player_a, t2.player_b]}
        seats[t1.number][s1], seats[t2.number][s2] = second, first
        names = {p.id: p.name for p in snap.players}
        pack = self.packs[snap.event.pack]
        changed = []
        for table in (t1, t2):
            a, b = seats[table.number]
            if b is None:
                changed.append(seating(table.number, a, None, None))
                continue
            game = self._game(pack, snap.event, snap.rounds[-1].scenario, names[a], names[b])
            if isinstance(game, Problem):
                return game
            changed.append(seating(table.number, a, b, game))
        if not self.store.club.swap(snap.event.id, number, changed):
            self.store.club.archive_games([t["game_id"] for t in changed if t["game_id"]])
            return Problem.refusal(
                say("Round {number} has started: players can no longer be swapped.", number=number),
                conflict=True,
            )
        self._retire([t1, t2])
        return None

    def start_round(self, snap: Snapshot) -> Problem | None:
        """Start the current round's clock."""
        if not snap.rounds:
            return Problem.refusal(say("No round is paired yet."), conflict=True)
        self.store.club.start_round(snap.event.id, snap.rounds[-1].number)
        return None

    # --- results ------------------------------------------------------------------------
    def enter_result(self, snap: Snapshot, data: Any) -> Problem | None:
        """The organiser enters or corrects a table's result: ``{round, table, winner, vp,
        bonus?}`` (``bonus`` only where the event's scoring adds bonus points)."""
        if not isinstance(data, dict):
            return Problem.refusal(
                say(
                    'The body must be an object such as {"round": 1, "table": 2, "winner": 7, "vp": [20, 12]}.'
                )
            )
        number = data.get("round")
        if (
            isinstance(number, bool)
            or not isinstance(number, int)
            or not any(r.number == number for r in snap.rounds)
        ):
            paired = self.current_round(snap)
            return Problem.refusal(
                say("round must be a round of this event that is paired, 1 to {paired}.", paired=paired)
                if paired
                else say("round: no round is paired yet.")
            )
        table_no = data.get("table")
        table = next(
            (
                t
                for t in self.tables_of(snap, number)
                if t.number == table_no and t.player_b is not None and not isinstance(table_no, bool)
            ),
            None,
        )
        if table is None:
            numbers = ", ".join(str(t.number) for t in self.tables_of(snap, number) if t.player_b is not None)
            return Problem.refusal(
                say(
                    "table must be the number of a table of round {number}: {numbers}.",
                    number=number,
                    numbers=numbers,
                )
            )
        assert table.player_b is not None
        players = (table.player_a, table.player_b)
        if "winner" not in data:
            return Problem.refusal(
                say(
                    "winner must be {first} or {second} (the table's players) or null for a draw.",
                    first=players[0],
                    second=players[1],
                )
            )
        winner = data.get("winner")
        if winner is not None and (isinstance(winner, bool) or winner not in players):
            return Problem.refusal(
                say(
                    "winner must be {first} or {second} (the table's players) or null for a draw.",
                    first=players[0],
                    second=players[1],
                )
            )
        vp = data.get("vp")
        if (
            not isinstance(vp, list)
            or len(vp) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_VP for v in vp)
        ):
            return Problem.refusal(
                say(
                    "vp must be two whole numbers from 0 to {most}, in the order of the table's players.",
                    most=MAX_VP,
                )
            )
        bonus = data.get("bonus")
        takes = self.settings(snap).scoring.takes_bonus
        if bonus is not None and not takes:
            return Problem.refusal(say("bonus: this event's scoring has no bonus points; leave it out."))
        bonus = bonus if bonus is not None else [0, 0]
        if (
            not isinstance(bonus, list)
            or len(bonus) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_BONUS for v in bonus)
        ):
            return Problem.refusal(
                say(
                    "bonus must be two whole numbers from 0 to {most}, in the order of the table's players.",
                    most=MAX_BONUS,
                )
            )
        index = None if winner is None else players.index(winner)
        self.store.club.add_result(
            snap.event.id,
            number,
            table.number,
            players,
            index,
            (vp[0], vp[1]),
            "organiser",
            (bonus[0], bonus[1]),
        )
        return None

    def enter_row(
        self,
        snap: Snapshot,
        number: Any,
        table_no: Any,
        vp: tuple[Any, Any],
        draw: bool,
        tiebreak: Any = None,
        bonus: tuple[Any, Any] | None = None,
    ) -> Problem | None:
        """The organiser's result row for a table: each player's VP and whether it was a draw.

        The winner is worked out: the player with more VP, unless the draw is ticked; on level
        VP the tiebreak's winner (``tiebreak``: 0 for the first-named player, 1 for the other)
        unless it was a draw. Refusals name the players as the row does.
        """
        table = next(
            (t for t in snap.tables if t.round == number and t.number == table_no and t.player_b is not None),
            None,
        )
        if table is None or table.player_b is None:
            return Problem.refusal(
                say("That table is not one of this round's: pick it from the list of tables.")
            )
        players = (table.player_a, table.player_b)
        names = {p.id: p.name for p in snap.players}
        who = (
            names.get(players[0], say("the first player")),
            names.get(players[1], say("the second player")),
        )
        for name, value in zip(who, vp, strict=True):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_VP:
                return Problem.refusal(
                    say("{name}'s VP must be a whole number from 0 to {most:,}.", name=name, most=MAX_VP)
                )
        winner: int | None
        if draw:
            winner = None
        elif vp[0] != vp[1]:
            winner = players[0] if vp[0] > vp[1] else players[1]
        elif tiebreak in (0, 1):
            winner = players[tiebreak]
        else:
            return Problem.refusal(
                say(
                    "{first} and {second} are level on {vp} VP: say who won the tiebreak, or tick Draw.",
                    first=who[0],
                    second=who[1],
                    vp=vp[0],
                )
            )
        body: dict[str, Any] = {"round": number, "table": table.number, "winner": winner, "vp": list(vp)}
        if bonus is not None:
            for name, value in zip(who, bonus, strict=True):
                if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_BONUS:
                    return Problem.refusal(
                        say(
                            "{name}'s bonus points must be a whole number from 0 to {most}.",
                            name=name,
                            most=MAX_BONUS,
                        )
                    )
            body["bonus"] = list(bonus)
        return self.enter_result(snap, body)

    def confirm(self, snap: Snapshot, table: TableRow, by: str) -> Problem | None:
        """A player (``a`` or ``b``) or the organiser confirms the table's result as it stands."""
        result = self.result_of(snap, table)
        if result is None:
            return Problem.refusal(
                say("This table has no result to confirm yet: finish the game first."), conflict=True
            )
        self.store.club.confirm(snap.event.id, result.id, by)
        return None

    def seat_of(self, snap: Snapshot, player: int, number: int | None = None) -> tuple[TableRow, str] | None:
        """The player's table in a round (the current one by default) and their seat, ``a`` or ``b``."""
        number = number or self.current_round(snap)
        for table in self.tables_of(snap, number):
            if table.player_a == player:
                return table, "a"
            if table.player_b == player:
                return table, "b"
        return None

    def rolloff(self, snap: Snapshot, order: Any) -> Problem | None:
        """Record a roll-off among players level in the standings, winner first."""
        ids = {p.id for p in snap.players}
        if (
            not isinstance(order, list)
            or len(order) < 2
            or len(set(map(str, order))) != len(order)
            or any(isinstance(p, bool) or not isinstance(p, int) or p not in ids for p in order)
        ):
            return Problem.refusal(
                say(
                    "players must list two or more different players of this event, the roll-off's winner first."
                )
            )
        self.store.club.add_rolloff(snap.event.id, order)
        return None

    # --- check-in ------------------------------------------------------------------------
    def check_in(self, snap: Snapshot, player: Any, present: bool) -> Problem | None:
        """The organiser marks a player present (or not yet)."""
        if isinstance(player, bool) or not any(p.id == player for p in snap.players):
            return Problem.refusal(say("player must be the id of a player of this event."))
        self.store.club.check_in(snap.event.id, player, present)
        return None

    def change_player(self, snap: Snapshot, player: int, data: Any) -> Problem | None:
        """The organiser's change to a player: ``{"dropped"?, "checked_in"?, "painting"?}``, every
        field checked before any is written."""
        if not isinstance(data, dict) or not {"dropped", "checked_in", "painting"} & set(data):
            return Problem.refusal(
                say(
                    "dropped must be true (drop the player) or false (they re-join); or send checked_in or painting."
                )
            )
        if not any(p.id == player for p in snap.players):
            return Problem.refusal(say("player must be the id of a player of this event."))
        if "dropped" in data and not isinstance(data["dropped"], bool):
            return Problem.refusal(say("dropped must be true (drop the player) or false (they re-join)."))
        if "checked_in" in data and not isinstance(data["checked_in"], bool):
            return Problem.refusal(say("checked_in must be true (the player is here) or false."))
        if "painting" in data:
            problem = self._painting_problem(snap, player, data["painting"])
            if problem:
                return problem
        self.store.club.change_player(
            snap.event.id, player, data.get("dropped"), data.get("checked_in"), data.get("painting")
        )
        return None

    def public_rows(self, snap: Snapshot, organiser: bool = False) -> list[dict[str, Any]]:
        """The standings as the API answers them: sportsmanship only to the organiser."""
        hidden = () if organiser else ("sportsmanship",)
        out = []
        for row in self.standings(snap):
            data = row.as_dict(hidden)
            data["faction"] = self.faction(snap, row.player)
            out.append(data)
        return out

    # --- exports ------------------------------------------------------------------------
    def export(self, snap: Snapshot) -> dict[str, Any]:
        """The whole event as JSON: settings, players, rounds, every result row and the standings."""
        return {
            "format": EXPORT_FORMAT,
            **self.describe(snap),
            "results": self.store.club.history(snap.event.id),
            "rolloffs": snap.rolloffs,
            "standings": self.public_rows(snap),
            "lists_shown": [
                self.list_json(snap, kept) for p in snap.players if (kept := self.list_of(snap, p.id))
            ],
        }

    def export_csv(self, snap: Snapshot) -> str:
        """The standings, then every table of every round, as CSV (one sheet a spreadsheet opens)."""
        out = io.StringIO()
        writer = csv.writer(out)
        fields = [
            "rank",
            "player",
            "name",
            "wins",
            "draws",
            "losses",
            "points",
            "vp_for",
            "vp_against",
            "vp_diff",
            "sos",
        ]
        writer.writerow(fields)
        for row in self.standings(snap):
            data = row.as_dict()
            writer.writerow([_cell(data[f]) for f in fields])
        writer.writerow([])
        writer.writerow(["round", "table", "player_a", "player_b", "vp_a", "vp_b", "winner", "final"])
        names = {p.id: p.name for p in snap.players}
        for table in snap.tables:
            result = self.result_of(snap, table)
            if table.player_b is None:
                writer.writerow([table.round, "bye", _cell(names.get(table.player_a)), "", "", "", "", ""])
                continue
            winner = (
                ""
                if result is None
                else ("draw" if result.winner is None else names.get(result.players[result.winner]))
            )
            writer.writerow(
                [
                    table.round,
                    table.number,
                    _cell(names.get(table.player_a)),
                    _cell(names.get(table.player_b)),
                    "" if result is None else result.vp[0],
                    "" if result is None else result.vp[1],
                    _cell(winner),
                    "" if result is None else ("yes" if result.final else "no"),
                ]
            )
        return out.getvalue()


def _cell(value: Any) -> Any:
    """A CSV cell that a spreadsheet will not run as a formula (a name may start with =)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _event_json(event: EventRow) -> dict[str, Any]:
    return {
        "id": event.id,
        "name": event.name,
        "pack": event.pack,
        "points_limit": event.points_limit,
        "rounds": event.rounds,
        "scenarios": event.scenarios,
        "scoring": event.scoring,
        "round_minutes": event.round_minutes,
        "signup_open": event.signup_open,
        "created": event.created,
    }


def _result_json(result: ResultRow | None, award: tp.Award | None = None) -> dict[str, Any] | None:
    if result is None:
        return None
    out: dict[str, Any] = {
        "winner": None if result.winner is None else result.players[result.winner],
        "vp": list(result.vp),
        "source": result.source,
        "confirmed": list(result.confirmed),
        "confirmed_by_organiser": result.confirmed_organiser,
        "final": result.final,
        "bonus": list(result.bonus),
    }
    if award is not None:
        out["tp"] = list(award.tp)
        out["tp_reason"] = list(award.reasons)
    return out
