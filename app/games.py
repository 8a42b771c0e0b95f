"""Games as the app uses them: stored set-up and events, replayed through the rules.

The views (HTML and JSON) call these functions; they hold no SQL and no rules, only the
wiring between app/store/ and app/rules/.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import ModuleType
from typing import Any

from app.refusal import Refusal
from app.replays import Replays
from app.rules import army, rounds, scoring
from app.rules.game import Player, Setup, parse_setup
from app.rules.pack import Pack
from app.store import GameRow, Store

EXPORT_FORMAT = "muster-game/1"
# The most events one game may hold: a long battle records under 200, and every screen and
# check of a game reads its whole log.
MAX_EVENTS = 1000
FULL = (
    f"This game already holds {MAX_EVENTS:,} events, the most one game may hold; "
    "start a new game to record more."
)


@dataclass
class Loaded:
    """A stored game replayed: its row, its pack and the computed state."""

    row: GameRow
    pack: Pack
    state: scoring.Game | rounds.RoundGame
    # Each player's attached roster, as it was when attached: {player: {"roster_id", "roster", ...}}.
    armies: dict[int, dict[str, Any]] = field(default_factory=dict)
    # The stored log that ``state`` is the fold of (for keeping the state between requests).
    log: list[dict[str, Any]] = field(default_factory=list)


class PackMissing(Exception):
    """The game's rulepack is not installed on this server."""


def engine(pack: Pack) -> ModuleType:
    """The rules module that folds this pack's games: player turns or Victory Phases."""
    return rounds if pack.play == "rounds" else scoring


def setup_of(row: GameRow) -> Setup:
    """The rules' set-up for a stored game."""
    players = tuple(
        Player(name=p["name"], side=p.get("side"), grand_strategy=p.get("grand_strategy"))
        for p in row.players
    )
    return Setup(row.pack, row.scenario, row.points_limit, players)


def load(
    store: Store,
    packs: dict[str, Pack],
    game_id: str,
    outcome: Outcome | None = None,
    row: GameRow | None = None,
    replays: Replays | None = None,
) -> Loaded | None:
    """The game with that id, replayed; ``None`` if there is no such game.

    ``outcome`` is what :func:`record` just did, whose state is not made twice; ``row`` the
    game's row when the caller has just read it; ``replays`` the process's kept states, from
    which the state is taken (the caller gives it back with ``replays.keep``).
    """
    row = row or store.games.get(game_id)
    if row is None:
        return None
    missing = _missing(row, packs)
    if missing:
        raise PackMissing(missing)
    pack = packs[row.pack]
    armies = store.rosters.of_game(game_id)
    for attached in armies.values():
        roster, _pack, _problem = army.parse_roster(attached["roster"], packs)
        attached["summary"] = army.army_summary(roster) if roster is not None else None
        attached["name"] = attached["roster"].get("name") or "Roster"
    if outcome is not None and outcome.state is not None:
        return Loaded(row, pack, outcome.state, armies, outcome.log)
    log = store.games.events(game_id)
    rules, setup = engine(pack), setup_of(row)
    state = replays.take(game_id, pack, setup, log, rules) if replays else rules.replay(pack, setup, log)
    return Loaded(row, pack, state, armies, log)


def _missing(row: GameRow, packs: dict[str, Pack]) -> str | None:
    """Why this server cannot play the stored game any more (its pack or scenario is gone)."""
    pack = packs.get(row.pack)
    if pack is None:
        return f"This game uses the rulepack {row.pack!r}, which is not installed here."
    if pack.scenario(row.scenario) is None:
        return f"This game's scenario {row.scenario!r} is not in the rulepack {row.pack!r} installed here."
    return None


def create(store: Store, packs: dict[str, Pack], data: Any) -> tuple[str, str] | Refusal:
    """Create a game from a set-up; return ``(id, edit_token)`` or why it is refused."""
    setup, problem = parse_setup(data, packs)
    if setup is None:
        return Refusal(problem or "The set-up is not valid.")
    return store.games.create(setup.as_dict())


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


def record(
    store: Store,
    packs: dict[str, Pack],
    game_id: str,
    event: Any,
    row: GameRow | None = None,
    replays: Replays | None = None,
) -> Outcome:
    """Append one event to a game, checked against the game's events by its rules.

    With ``replays``, the game's kept state is taken and brought up to date instead of
    replaying the whole log.
    """
    try:
        eid = scoring.event_id(event)
    except scoring.Refused as exc:
        return Outcome("refused", str(exc))
    row = row or store.games.get(game_id)
    if row is None:
        return Outcome("refused", "There is no such game.")
    # A scenario gone from an updated pack is as unplayable as a pack gone: replaying would raise.
    missing = _missing(row, packs)
    if missing:
        return Outcome("refused", missing)
    pack = packs[row.pack]
    body = {**event, "id": eid}
    setup = setup_of(row)
    rules = engine(pack)
    after: list[Any] = [None, []]
    judged: list[list[dict[str, Any]]] = [[]]

    def refuse(events: list[dict[str, Any]]) -> str | None:
        judged[0] = events
        if len(events) >= MAX_EVENTS:
            after[:] = [None, []]
            return FULL
        # check() leaves the replayed game holding the new event: the state to answer with.
        if replays is not None:
            state = replays.take(game_id, pack, setup, events, rules)
        else:
            state = rules.replay(pack, setup, events)
        problem = rules.check(state, body)
        # An undo is judged without being applied: its state is replayed once it is accepted.
        after[:] = [None, []] if problem or body.get("type") == "undo" else [state, [*events, body]]
        return problem

    def summarise() -> dict[str, Any]:
        if after[0] is None:
            # An accepted undo: its state is replayed here, in the request that asked for it,
            # for the answer and the game's card, rather than in every screen that shows it next.
            log = [*judged[0], body]
            after[:] = [rules.replay(pack, setup, log), log]
        return card(after[0])

    outcome = store.games.append(game_id, body, refuse, summarise)
    if outcome.status != "recorded" or after[0] is None:
        return Outcome(outcome.status, outcome.error)
    return Outcome(outcome.status, outcome.error, after[0], after[1])


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


def card_is_current(stored: dict[str, Any] | None, pack: Pack) -> bool:
    """Whether a stored card was made with this very pack."""
    return stored is not None and stored.get("pack") == pack_mark(pack)


def card(state: scoring.Game | rounds.RoundGame) -> dict[str, Any]:
    """What the club home shows of a game: each player's VP, the round, and the result.

    Stored with the game as its events arrive (see app/store/games.py), so the home never
    replays a log to draw a card.
    """
    result = state.result if state.finished else None
    return {
        "pack": pack_mark(state.pack),
        "vp": [state.vp(i) for i in range(len(state.setup.players))],
        "round": state.current_round,
        "finished": bool(state.finished),
        "result": {"kind": result.kind, "winner": result.winner} if result else None,
    }


def summary(loaded: Loaded) -> dict[str, Any]:
    """The game as the API describes it (see docs/api.md)."""
    if isinstance(loaded.state, rounds.RoundGame):
        return _rounds_summary(loaded, loaded.state)
    state = loaded.state
    result = state.result
    players = []
    for i, player in enumerate(state.setup.players):
        end = state.ends.get(i)
        players.append(
            {
                "name": player.name,
                "side": player.side,
                "vp": state.vp(i),
                "tactics_completed": state.tactics_completed(i),
                "tactics_used": state.tactics_used(i),
                "grand_strategy": player.grand_strategy,
                "grand_strategy_completed": end.grand_strategy_completed if end else None,
                "grand_strategy_vp": end.vp if end else 0,
            }
        )
    current = state.current_round
    return {
        "id": loaded.row.id,
        "pack": loaded.row.pack,
        "scenario": loaded.row.scenario,
        "points_limit": loaded.row.points_limit,
        "created": loaded.row.created,
        "status": state.status,
        "battle_rounds": state.scenario.battle_rounds,
        "round": min(current, state.scenario.battle_rounds),
        "next": {"round": current, "players": state.next_players()} if not state.finished else None,
        "players": players,
        "rounds": [
            {"event": r.event, "round": r.round, "first": r.first, **r.facts}
            for r in sorted(state.rounds.values(), key=lambda r: r.round)
        ],
        "turns": [
            {
                "event": t.event,
                "round": t.round,
                "player": t.player,
                "tactic": t.tactic,
                "tactic_completed": t.tactic_completed,
                "control": t.control,
                "vp": t.vp,
                "breakdown": [a.as_dict() for a in t.awards],
            }
            for t in state.turns
        ],
        # Claims score in their battle round (round_vp adds them to the player's turn there).
        "claims": [
            {
                "event": c.event,
                "round": c.round,
                "player": c.player,
                "rule": c.rule,
                "vp": c.vp,
                "breakdown": [a.as_dict() for a in c.awards],
            }
            for c in state.claims
        ],
        "objectives": [
            {
                "id": o.id,
                "label": o.label,
                "in_play": o in state.in_play(min(current, state.scenario.battle_rounds)),
                "removed": (
                    {"round": state.removed[o.id].round, "why": state.removed[o.id].why}
                    if o.id in state.removed
                    else None
                ),
            }
            for o in state.scenario.objectives
        ],
        "result": result.as_dict() if result else None,
        "rolls": [r.as_dict() for r in state.rolls],
        "armies": {
            str(player): {"roster": a["roster_id"], "name": a["name"], **(a["summary"] or {})}
            for player, a in sorted(loaded.armies.items())
        },
    }


def _rounds_summary(loaded: Loaded, state: rounds.RoundGame) -> dict[str, Any]:
    result = state.result
    holders = rounds.map_state(state).holders
    return {
        "id": loaded.row.id,
        "pack": loaded.row.pack,
        "scenario": loaded.row.scenario,
        "points_limit": loaded.row.points_limit,
        "created": loaded.row.created,
        "status": state.status,
        "battle_rounds": state.last_round,
        "vp_threshold": state.threshold(),
        "round": min(state.current_round, state.last_round),
        "next": None if state.finished else {"round": state.current_round},
        "players": [
            {"name": pl.name, "side": pl.side, "vp": state.vp(i)} for i, pl in enumerate(state.setup.players)
        ],
        "rounds": [
            {
                "event": ph.event,
                "round": ph.round,
                "seized": ph.seized,
                "players": [part.as_dict() for part in ph.players],
            }
            for ph in state.phases
        ],
        "objectives": [
            {
                "id": o.id,
                "label": o.label,
                "kind": o.kind,
                "holder": holders.get(o.id),
                "destroyed": (
                    {"round": state.destroyed[o.id][0], "by": state.destroyed[o.id][1]}
                    if o.id in state.destroyed
                    else None
                ),
                "wounds": {str(pl): n for (mid, pl), n in sorted(state.wounds.items()) if mid == o.id},
                "x": state.where(o)[0] if state.where(o) else None,
                "y": state.where(o)[1] if state.where(o) else None,
            }
            for o in state.scenario.objectives
        ],
        "armies": {
            str(player): {"roster": a["roster_id"], "name": a["name"], **(a["summary"] or {})}
            for player, a in sorted(loaded.armies.items())
        },
        "rolls": [r.as_dict() for r in state.rolls],
        "result": result.as_dict() if result else None,
    }


def attach_roster(
    store: Store, packs: dict[str, Pack], game_id: str, player: Any, roster_id: Any
) -> Refusal | None:
    """Let a player of the game field a stored roster of the same pack (a copy as it is now)."""
    loaded = load(store, packs, game_id)
    if loaded is None:
        return Refusal("There is no such game.")
    count = len(loaded.state.setup.players)
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < count:
        return Refusal(f"player must be a player's index in this game, 0 to {count - 1}.")
    row = store.rosters.get(roster_id) if isinstance(roster_id, str) else None
    if row is None:
        return Refusal("roster must be the id of a stored roster.")
    if row.pack != loaded.row.pack:
        return Refusal(f"roster is for {row.pack}, but this game is played with {loaded.row.pack}.")
    store.rosters.attach(game_id, player, row.id, row.body)
    return None


def export(store: Store, game_id: str) -> dict[str, Any] | None:
    """The whole game as JSON: set-up and every event as recorded (no edit token)."""
    row = store.games.get(game_id)
    if row is None:
        return None
    return {
        "format": EXPORT_FORMAT,
        "id": row.id,
        "created": row.created,
        **row.setup_dict(),
        "events": store.games.events(game_id, with_time=True),
    }


def import_game(store: Store, packs: dict[str, Pack], data: Any) -> tuple[str, str] | Refusal:
    """Store an exported game; return ``(id, edit_token)`` or why it is refused.

    The events are replayed through the rules first: an export that the rules refuse is
    refused whole, so an import can never hold a game the server could not have recorded.
    """
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        return Refusal(
            f"format must be {EXPORT_FORMAT!r}: send a game exported from /api/v1/games/<id>/export."
        )
    setup, problem = parse_setup(data, packs)
    if setup is None:
        return Refusal(problem or "The set-up is not valid.")
    game_id = data.get("id")
    if not isinstance(game_id, str) or not 16 <= len(game_id) <= 64 or not _url_safe(game_id):
        return Refusal("id must be 16 to 64 URL-safe characters (letters, digits, - and _).")
    if store.games.exists(game_id):
        return Refusal(
            "id is already a game on this server; delete it first or import under a new id.", conflict=True
        )
    created = _past_time(data.get("created"))
    if created is None:
        return Refusal(
            "created must be the ISO 8601 time the game was created, from the year 2000 up to now."
        )
    events = data.get("events")
    if not isinstance(events, list):
        return Refusal("events must be a list of the game's events.")
    if len(events) > MAX_EVENTS:
        return Refusal(f"events must hold at most {MAX_EVENTS:,} events; this export has {len(events):,}.")
    rules = engine(packs[setup.pack])
    state = rules.new_game(packs[setup.pack], setup)
    seen: set[str] = set()
    clean: list[dict[str, Any]] = []
    for i, event in enumerate(events):
        if not isinstance(event, dict):
            return Refusal(f"events[{i}] must be an object.")
        body = {k: v for k, v in event.items() if k != "recorded"}
        recorded = event.get("recorded")
        if recorded is not None and not isinstance(recorded, str):
            return Refusal(f"events[{i}].recorded must be a time as text.")
        try:
            eid = scoring.event_id(body)
        except scoring.Refused as exc:
            return Refusal(f"events[{i}]: {exc}")
        if eid in seen:
            return Refusal(f"events[{i}].id repeats an earlier event.")
        seen.add(eid)
        body["id"] = eid
        if body.get("type") == "undo":
            problem = rules.check(state, body)
            if problem is None:
                state = rules.replay(packs[setup.pack], setup, [*clean, body])
        else:
            problem = rules.check(state, body)
        if problem:
            return Refusal(f"events[{i}] is refused: {problem}")
        clean.append({**body, "recorded": recorded} if recorded else body)
    if store.games.events_exist(sorted(seen)):
        return Refusal(
            "events: some event ids are already recorded on this server in another game.", conflict=True
        )
    token = store.games.import_game(setup.as_dict(), game_id, created, clean, card(state))
    return game_id, token


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
