"""Games as the app uses them: stored set-up and events, folded by the pack's game system.

The views (HTML and JSON) ask a :class:`Games` service; it holds no rules and no SQL, only
the wiring between the store and app/rules/, and it owns the process's replay cache: a view
never folds a log or keeps a state itself.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, NamedTuple

from app.rules import army, log, speech, systems, terrain
from app.rules.game import Player, Setup, parse_setup
from app.rules.pack import Pack, roster_packs
from app.rules.problems import Problem
from app.rules.systems import GameSystem
from app.services.replays import Replays
from app.store import GameRow, Store

EXPORT_FORMAT = "muster-game/1"
# The most events one game may hold: a long battle records under 200, and every screen and
# check of a game reads its whole log.
MAX_EVENTS = 1000


def _full() -> str:
    return speech.say(
        "This game already holds {most} events, the most one game may hold; start a new game to record more.",
        most=speech.number(MAX_EVENTS),
    )


@dataclass(frozen=True)
class Loaded:
    """A stored game replayed: its row, its pack and system, and the computed state."""

    row: GameRow
    pack: Pack
    system: GameSystem
    state: Any
    # Each player's attached roster, as it was when attached: {player: {"roster_id", "roster", ...}}.
    armies: dict[int, dict[str, Any]] = field(default_factory=dict)
    # The stored log that ``state`` is the fold of.
    log: list[dict[str, Any]] = field(default_factory=list)

    @property
    def setup(self) -> Setup:
        return self.state.setup

    def after(self, outcome: Outcome) -> Loaded:
        """This game with an event just recorded (itself when the event changed nothing)."""
        if outcome.state is None:
            return self
        return replace(self, state=outcome.state, log=outcome.log)


@dataclass
class Outcome:
    """What became of an event: ``recorded``, ``duplicate`` (nothing changed) or ``refused``.

    ``state`` is the game with the event when it was recorded (``None`` otherwise), the fold
    of ``log``, the game's stored events up to and including this one.
    """

    status: str
    error: str | None = None
    state: Any = None
    log: list[dict[str, Any]] = field(default_factory=list)


class Made(NamedTuple):
    """A game just stored: its id, its edit token, and a seat token per player when it has secrets."""

    id: str
    edit_token: str
    seats: list[str]


@dataclass(frozen=True)
class Access:
    """Who records an entry: the table (the game's edit token) and the seat whose token came."""

    table: bool = False
    seat: int | None = None

    @property
    def may_record(self) -> bool:
        """A seat token is also an edit token for public entries."""
        return self.table or self.seat is not None

    def may_field(self, player: Any) -> bool:
        """Whether this phone may field a roster for ``player``: a seat for its own player only."""
        return self.may_record and (self.seat is None or player == self.seat)


class PackMissing(Exception):
    """The game's rulepack is not installed on this server."""


def setup_of(row: GameRow) -> Setup:
    """The rules' set-up for a stored game."""
    players = tuple(
        Player(name=p["name"], side=p.get("side"), grand_strategy=p.get("grand_strategy"))
        for p in row.players
    )
    return Setup(row.pack, row.scenario, row.points_limit, players)


def _missing(row: GameRow, packs: dict[str, Pack]) -> str | None:
    """Why this server cannot play the stored game any more (its pack or scenario is gone)."""
    pack = packs.get(row.pack)
    if pack is None:
        return speech.say(
            "This game uses the rulepack {pack}, which is not installed here.", pack=repr(row.pack)
        )
    if pack.scenario(row.scenario) is None:
        return speech.say(
            "This game's scenario {scenario} is not in the rulepack {pack} installed here.",
            scenario=repr(row.scenario),
            pack=repr(row.pack),
        )
    return None


class Games:
    """Load, record, create, import and export games; the replay cache is its own."""

    def __init__(self, store: Store, packs: dict[str, Pack], replays: Replays | None = None) -> None:
        self.store = store
        self.packs = packs
        self.replays = replays or Replays()

    # --- reading ------------------------------------------------------------------------
    def load(self, game_id: str, row: GameRow | None = None) -> Loaded | None:
        """The game with that id, replayed; ``None`` if there is no such game.

        ``row`` is the game's row when the caller has just read it (the tap reads it once).
        Raises :class:`PackMissing` when the game's pack or scenario is gone.
        """
        row = row or self.store.games.get(game_id)
        if row is None:
            return None
        missing = _missing(row, self.packs)
        if missing:
            raise PackMissing(missing)
        pack = self.packs[row.pack]
        system = systems.system_for(pack, row.scenario)
        setup = setup_of(row)
        kept = self.replays.current(game_id, pack, setup, row.log_version)
        if kept is not None:
            events, state = kept.events, kept.state
        else:
            events, version = self.store.games.versioned_events(game_id)
            state = self.replays.state(game_id, system, pack, setup, events, version)
        return Loaded(row, pack, system, state, self._armies(game_id), events)

    def after(self, row: GameRow, outcome: Outcome) -> Loaded | None:
        """The game as an event just recorded left it, without reading its log again."""
        if outcome.state is None:
            return self.load(row.id, row)
        pack = outcome.state.pack
        return Loaded(
            row,
            pack,
            systems.system_for(pack, row.scenario),
            outcome.state,
            self._armies(row.id),
            outcome.log,
        )

    def rearmed(self, loaded: Loaded) -> Loaded:
        """The same game with its attached rosters read again (after one is attached)."""
        return replace(loaded, armies=self._armies(loaded.row.id))

    def _armies(self, game_id: str) -> dict[int, dict[str, Any]]:
        armies = self.store.rosters.of_game(game_id)
        for attached in armies.values():
            attached.update(_fielded(attached, self.packs))
        return armies

    def card_of(self, row: GameRow, pack: Pack) -> dict[str, Any]:
        """A listed game's card: the stored one when it is current, else made once and stored."""
        if card_is_current(row.summary, pack):
            return row.summary  # type: ignore[return-value]
        events, seq = self.store.games.log(row.id)
        state = self.replays.state(
            row.id, systems.system_for(pack, row.scenario), pack, setup_of(row), events
        )
        made = card(state)
        self.store.games.save_summary(row.id, made, seq)
        return made

    # --- writing ------------------------------------------------------------------------
    def create(self, data: Any, table_phone: str | None = None) -> Made | Problem:
        """Create a game from a set-up; return its id and tokens, or why it is refused.

        A game of a system with secrets gets a seat token per player.
        """
        setup, problem = parse_setup(data, self.packs)
        if setup is None:
            return Problem.refusal(problem or speech.say("The set-up is not valid."))
        seats = len(setup.players) if systems.system_for(self.packs[setup.pack], setup.scenario).seated else 0
        game_id, token = self.store.games.create(setup.as_dict(), seats=seats, table_phone=table_phone)
        return Made(game_id, token, self.seat_tokens(game_id, token))

    def _against_roster(
        self, system: GameSystem, pack: Pack, row: GameRow, event: dict[str, Any]
    ) -> str | None:
        """Why an event's named units do not fit its player's attached roster, or ``None``.

        The rules cannot see rosters, so the service reads the roster and the system judges;
        only the event types the system names cost the extra read.
        """
        checks = systems.roster_checks(system)
        if checks is None or event.get("type") not in checks.roster_events:
            return None
        player = checks.roster_player(setup_of(row), event)
        if player is None:
            return None
        attached = self.store.rosters.of_game(row.id).get(player)
        scenario = pack.scenario(row.scenario)
        if attached is None or scenario is None:
            return None  # no roster: the contingents are counted by hand
        roster, _pack, _problem = army.parse_roster(attached["roster"], self.packs)
        if roster is None:
            return None
        problems = checks.roster_problems(scenario, event, army.units_of(roster))
        return problems[0] if problems else None

    def terrain_pieces(self, row: GameRow) -> list[terrain.Piece]:
        """The pieces of the game's terrain set as it stands (none when it has no set)."""
        set_id = self.store.terrain.find_set(row.id)
        if set_id is None:
            return []
        names = [p["name"] for p in row.players]
        return [s.piece for s in terrain.fold(len(names), self.store.terrain.events(set_id), names).ordered]

    def seat_tokens(self, game_id: str, edit_token: str | None) -> list[str]:
        """Every seat's token of a game, for the holder of its edit token (the table); else []."""
        return self.store.games.seats.tokens(game_id, edit_token) if edit_token else []

    def record(
        self, game_id: str, event: Any, row: GameRow | None = None, by: Access | None = None
    ) -> Outcome:
        """Append one event to a game, checked against the game's stored log by its system.

        ``by`` says who records it (``None``: the server itself, as for the new-game dice): a
        secret entry, or the undo of one, is ``forbidden`` to anyone but its holder's seat.
        """
        try:
            eid = log.event_id(event)
        except log.Refused as exc:
            return Outcome("refused", str(exc))
        row = row or self.store.games.get(game_id)
        if row is None:
            return Outcome("refused", speech.say("There is no such game."))
        # A scenario gone from an updated pack is as unplayable as a pack gone: replaying would raise.
        missing = _missing(row, self.packs)
        if missing:
            return Outcome("refused", missing)
        pack = self.packs[row.pack]
        system = systems.system_for(pack, row.scenario)
        body = {**event, "id": eid}
        unfit = self._against_roster(system, pack, row, body)
        if unfit:
            return Outcome("refused", unfit)
        setup = setup_of(row)
        checks = systems.terrain_checks(system)
        pieces = self.terrain_pieces(row) if checks and body.get("type") in checks.terrain_events else None
        judged: list[Any] = [None, []]
        forbidden: list[str] = []
        # The state kept at the log version read with the row is the whole log as it stands:
        # judged against without reading the log (the store inserts only at that version).
        kept = self.replays.current(game_id, pack, setup, row.log_version)

        def refuse(events: list[dict[str, Any]]) -> str | None:
            judged[:] = [None, []]
            forbidden.clear()
            if len(events) >= MAX_EVENTS:
                return _full()
            if by is not None:
                problem = _forbidden(system, setup, body, events, by)
                if problem:
                    forbidden.append(problem)
                    return problem
            if kept is not None and events is kept.events:
                state = kept.state
            else:
                state = self.replays.state(game_id, system, pack, setup, events)
            if checks is not None and pieces is not None:
                unfit = checks.terrain_problems(state, body, pieces)
                if unfit:
                    return unfit[0]
            after, problem = log.apply(system, state, body, events, by.seat if by else None)
            if problem is not None:
                return problem.message
            judged[:] = [after, [*events, body]]
            return None

        def summarise() -> dict[str, Any]:
            return card(judged[0])

        stored = self.store.games.append(
            game_id,
            body,
            refuse,
            summarise,
            kept.events if kept is not None else None,
            kept.version if kept is not None else None,
        )
        if stored.status == "refused" and forbidden:
            return Outcome("forbidden", forbidden[0])
        if stored.status != "recorded" or judged[0] is None:
            return Outcome(stored.status, stored.error)
        self.replays.keep(game_id, pack, setup, judged[1], judged[0], stored.version)
        return Outcome(stored.status, stored.error, judged[0], judged[1])

    def attach_roster(self, game_id: str, player: Any, roster_id: Any) -> Problem | None:
        """Let a player of the game field a stored roster of the same pack (a copy as it is now)."""
        row = self.store.games.get(game_id)
        if row is None:
            return Problem.refusal(speech.say("There is no such game."))
        count = len(row.players)
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < count:
            return Problem.refusal(
                speech.say("player must be a player's index in this game, 0 to {last}.", last=count - 1)
            )
        roster = self.store.rosters.get(roster_id) if isinstance(roster_id, str) else None
        if roster is None:
            return Problem.refusal(speech.say("roster must be the id of a stored roster."))
        allowed = roster_packs(self.packs, row.pack)
        if roster.pack not in allowed:
            return Problem.refusal(
                speech.say(
                    "roster is for {roster}, but this game is played with {pack}: attach a roster of {allowed}.",
                    roster=roster.pack,
                    pack=row.pack,
                    allowed=speech.listed(allowed, either=True),
                )
            )
        self.store.rosters.attach(game_id, player, roster.id, roster.body)
        return None

    # --- moving games between servers ---------------------------------------------------
    def export(self, game_id: str, seat: int | None = None) -> dict[str, Any] | None:
        """The whole game as JSON: set-up and every event as recorded (no edit token).

        A game with secrets shows each event as ``seat`` may see it: a held ploy only to its
        holder's seat (see :func:`visible_events`).
        """
        row = self.store.games.get(game_id)
        if row is None:
            return None
        return {
            "format": EXPORT_FORMAT,
            "id": row.id,
            "created": row.created,
            **row.setup_dict(),
            "events": self.events_seen(row, seat),
        }

    def events_seen(self, row: GameRow, seat: int | None = None) -> list[dict[str, Any]]:
        """The game's events with their times, as ``seat`` may see them (see :func:`visible_events`).

        Raises :class:`PackMissing` for a game with seats whose pack is gone: without its
        system nobody can tell its secrets apart, so none of its events is shown.
        """
        events = self.store.games.events(row.id, with_time=True)
        missing = _missing(row, self.packs)
        if missing:
            if self.store.games.seats.player_count(row.id):
                raise PackMissing(missing)
            return events
        pack = self.packs[row.pack]
        system = systems.system_for(pack, row.scenario)
        if not system.seated:
            return events
        # Whether a secret is out for everyone (both siege tactics in) is the folded game's to say.
        plain = [{k: v for k, v in e.items() if k != "recorded"} for e in events]
        state = self.replays.state(row.id, system, pack, setup_of(row), plain)
        return visible_events(system, events, seat, state)

    def import_game(self, data: Any) -> Made | Problem:
        """Store an exported game; return its id and new tokens, or why it is refused.

        The events are replayed through the rules first: an export that the rules refuse is
        refused whole, so an import can never hold a game the server could not have recorded.
        """
        if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
            return Problem.refusal(
                speech.say(
                    "format must be {format}: send a game exported from /api/v1/games/<id>/export.",
                    format=repr(EXPORT_FORMAT),
                )
            )
        setup, problem = parse_setup(data, self.packs)
        if setup is None:
            return Problem.refusal(problem or speech.say("The set-up is not valid."))
        game_id = data.get("id")
        if not isinstance(game_id, str) or not 16 <= len(game_id) <= 64 or not _url_safe(game_id):
            return Problem.refusal(
                speech.say("id must be 16 to 64 URL-safe characters (letters, digits, - and _).")
            )
        if self.store.games.exists(game_id):
            return Problem.refusal(
                speech.say("id is already a game on this server; delete it first or import under a new id."),
                conflict=True,
            )
        created = _past_time(data.get("created"))
        if created is None:
            return Problem.refusal(
                speech.say(
                    "created must be the ISO 8601 time the game was created, from the year 2000 up to now."
                )
            )
        events = data.get("events")
        if not isinstance(events, list):
            return Problem.refusal(speech.say("events must be a list of the game's events."))
        if len(events) > MAX_EVENTS:
            return Problem.refusal(
                speech.say(
                    "events must hold at most {most} events; this export has {count}.",
                    most=speech.number(MAX_EVENTS),
                    count=speech.number(len(events)),
                )
            )
        pack = self.packs[setup.pack]
        system = systems.system_for(pack, setup.scenario)
        state = system.new_game(pack, setup)
        seen: set[str] = set()
        clean: list[dict[str, Any]] = []
        for i, event in enumerate(events):
            if not isinstance(event, dict):
                return Problem.refusal(speech.say("{field} must be an object.", field=f"events[{i}]"))
            body = {k: v for k, v in event.items() if k != "recorded"}
            recorded = event.get("recorded")
            if recorded is not None and not isinstance(recorded, str):
                return Problem.refusal(
                    speech.say("{field} must be a time as text.", field=f"events[{i}].recorded")
                )
            try:
                eid = log.event_id(body)
            except log.Refused as exc:
                return Problem.refusal(speech.say("{field}: {refusal}", field=f"events[{i}]", refusal=exc))
            if eid in seen:
                return Problem.refusal(
                    speech.say("{field} repeats an earlier event.", field=f"events[{i}].id")
                )
            seen.add(eid)
            body["id"] = eid
            state, refused = log.apply(system, state, body, clean)
            if refused:
                return Problem.refusal(
                    speech.say("{field} is refused: {refusal}", field=f"events[{i}]", refusal=refused.message)
                )
            clean.append({**body, "recorded": recorded} if recorded else body)
        if self.store.games.events_exist(sorted(seen)):
            return Problem.refusal(
                speech.say("events: some event ids are already recorded on this server in another game."),
                conflict=True,
            )
        seats = len(setup.players) if system.seated else 0
        token = self.store.games.import_game(
            setup.as_dict(), game_id, created, clean, card(state), seats=seats
        )
        return Made(game_id, token, self.seat_tokens(game_id, token))


# id(pack) -> (pack, fingerprint); the pack is held so that its id is not reused meanwhile.
_PACK_MARKS: dict[int, tuple[Pack, str]] = {}


def pack_mark(pack: Pack) -> str:
    """A fingerprint of a loaded rulepack's content, worked out once per loaded pack.

    A card records the pack it was scored with: when an admin replaces the pack, cards made
    with the old one are made again instead of showing scores the rules no longer give.
    """
    known = _PACK_MARKS.get(id(pack))
    if known is None or known[0] is not pack:
        if len(_PACK_MARKS) >= 64:  # packs replaced many times over: forget the old ones
            _PACK_MARKS.clear()
        known = _PACK_MARKS[id(pack)] = (
            pack,
            hashlib.sha256(pack.model_dump_json().encode()).hexdigest()[:16],
        )
    return known[1]


# What an attached roster fields, kept per process by a hash of the roster as attached (a copy
# that never changes; attaching again adds another) and the reader's language (its summary line
# is said in it): every event POST and game page parsed it again, 1.3-1.6 ms of CPU for two
# rosters, as much as the rest of the POST. Kept while the packs it was parsed against are the
# ones loaded.
_FIELDED_SIZE = 256  # two players of each of a club night's tables, with room to spare
_fielded_kept: OrderedDict[tuple[bytes, int], tuple[dict[str, Pack], Any, dict[str, Any]]] = OrderedDict()
_fielded_lock = threading.Lock()


def _fielded(attached: dict[str, Any], packs: dict[str, Pack]) -> dict[str, Any]:
    """An attached roster's summary, units and name for the game's screens (see ``_armies``).

    The values are shared by every request that reads this attachment: nobody changes them.
    """
    spoken = speech.catalogue()
    key = (attached["mark"], id(spoken))
    with _fielded_lock:
        kept = _fielded_kept.get(key)
        if kept is not None and kept[0] is packs and kept[1] is spoken:
            _fielded_kept.move_to_end(key)
            return kept[2]
    roster, _pack, _problem = army.parse_roster(attached["roster"], packs)
    made = {
        "summary": army.army_summary(roster) if roster is not None else None,
        # Names for the contingent forms; with their keywords for the forms that read them.
        "units": army.fielded_units(roster) if roster is not None else [],
        "roster_units": army.units_of(roster) if roster is not None else None,
        "name": attached["roster"].get("name") or speech.say("Roster"),
    }
    with _fielded_lock:
        _fielded_kept[key] = (packs, spoken, made)
        _fielded_kept.move_to_end(key)
        while len(_fielded_kept) > _FIELDED_SIZE:
            _fielded_kept.popitem(last=False)
    return made


def card_is_current(stored: dict[str, Any] | None, pack: Pack) -> bool:
    """Whether a stored card was made with this very pack."""
    return stored is not None and stored.get("pack") == pack_mark(pack)


def card(state: Any) -> dict[str, Any]:
    """What the club home shows of a game: each player's VP, the round, and the result.

    Stored with the game as its events arrive (see the store's recent_games), so the home
    never replays a log to draw a card.
    """
    result = state.result if state.finished else None
    return {
        "pack": pack_mark(state.pack),
        "vp": [state.vp(i) for i in range(len(state.setup.players))],
        "round": state.current_round,
        "finished": bool(state.finished),
        "result": {"kind": result.kind, "winner": result.winner} if result else None,
    }


def summary(loaded: Loaded, seat: int | None = None) -> dict[str, Any]:
    """The game as the API describes it (see docs/api.md): the row, the system's part, the armies.

    In a game with secrets, ``seat`` is the player whose secrets it adds (none for anyone else).
    """
    public = (
        loaded.system.summary(loaded.state) if seat is None else loaded.system.summary(loaded.state, seat)
    )
    return {
        "id": loaded.row.id,
        "pack": loaded.row.pack,
        "scenario": loaded.row.scenario,
        "points_limit": loaded.row.points_limit,
        "created": loaded.row.created,
        **public,
        "armies": {
            str(player): {"roster": a["roster_id"], "name": a["name"], **(a["summary"] or {})}
            for player, a in sorted(loaded.armies.items())
        },
    }


def visible_events(
    system: GameSystem, events: list[dict[str, Any]], seat: int | None, state: Any = None
) -> list[dict[str, Any]]:
    """The events as ``seat`` may see them: in a game with secrets, another's secret is cut out
    until ``state`` (the fold of the log) says the rules have revealed it to everyone."""
    found = systems.seats(system)
    if found is None:
        return events
    return [found.visible_event(event, seat, state) for event in events]


def _forbidden(
    system: GameSystem, setup: Setup, event: dict[str, Any], events: list[dict[str, Any]], by: Access
) -> str | None:
    """Why ``by`` may not record ``event`` (or take back the entry an undo names), or ``None``:
    the registry's one rule on whose entry it is (:func:`app.rules.systems.owner_problem`)."""
    if not isinstance(event.get("type"), str):
        return None  # not an event at all: the rules refuse it with their own sentence
    names = [p.name for p in setup.players]
    if event.get("type") == "undo":
        target = next((e for e in events if e.get("id") == event.get("event")), None)
        if target is None:
            return None
        return systems.owner_problem(system, target, by.seat, by.table, names, undo=True)
    return systems.owner_problem(system, event, by.seat, by.table, names)


def _past_time(value: Any) -> str | None:
    """An ISO 8601 time not in the future, written as Muster writes times (UTC), or ``None``.

    Times are compared as text on the home screen and by "Archive tonight": a time in
    another form, or after now, would sort above every real game and never be archived.
    """
    if not isinstance(value, str) or not 10 <= len(value) <= 40:
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)  # Muster always wrote UTC
    when = when.astimezone(UTC)
    if when > datetime.now(UTC) or when.year < 2000:
        return None
    return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _url_safe(text: str) -> bool:
    return all(c.isalnum() or c in "-_" for c in text) and text.isascii()
