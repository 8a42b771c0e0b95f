"""A game's terrain set as the app uses it: stored events, folded and checked by the rules.

Every change (a piece added, changed or removed, a player agreeing) is one event with a
client-made id, appended in a transaction; the set's state and its checks are computed from
the events each time.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from app.rules import terrain
from app.rules.pack import Pack, Scenario
from app.rules.problems import Problem
from app.rules.speech import say
from app.store import Store

# A long battle's set sees a few hundred changes; past this many, something is flooding it.
MAX_EVENTS = 1000


@dataclass
class LoadedSet:
    """A game's terrain set: its id (``None`` until its first change), state and verdict."""

    game_id: str
    set_id: str | None
    pack: Pack
    scenario: Scenario | None
    state: terrain.TerrainSet
    verdict: terrain.Verdict

    @property
    def pieces(self) -> list[terrain.Piece]:
        return [s.piece for s in self.state.ordered]


def load(store: Store, pack: Pack, scenario: Scenario | None, game_id: str, names: list[str]) -> LoadedSet:
    """The game's terrain set, folded and checked; reading it writes nothing (a set is made
    by its first change)."""
    set_id = store.terrain.find_set(game_id)
    state = terrain.fold(len(names), store.terrain.events(set_id) if set_id else [], names)
    pieces = [s.piece for s in state.ordered]
    return LoadedSet(game_id, set_id, pack, scenario, state, terrain.check(pack, pieces, scenario))


def status(store: Store, game_id: str, names: list[str]) -> terrain.TerrainSet | None:
    """The game's terrain agreement as it stands, without making a set (for the game page)."""
    set_id = store.terrain.find_set(game_id)
    return terrain.fold(len(names), store.terrain.events(set_id), names) if set_id else None


def _event_id(raw: Any) -> str | Problem:
    try:
        return str(uuid.UUID(str(raw)))
    except ValueError:
        return Problem.refusal(say("id must be a UUID made by the page; reload and try again."))


def record(
    store: Store,
    loaded: LoadedSet,
    event_id: Any,
    kind: str,
    body: dict[str, Any],
    players: int,
    names: list[str] | None = None,
) -> Problem | None:
    """Append one change to the set: ``piece`` (add or change), ``remove``, ``seat`` or ``agree``.

    ``seat`` and ``agree`` bodies carry ``phone``, the hash of the phone that sends them.
    """
    return record_many(store, loaded, [(event_id, kind, body)], players, names)


def record_many(
    store: Store,
    loaded: LoadedSet,
    changes: list[tuple[Any, str, dict[str, Any]]],
    players: int,
    names: list[str] | None = None,
) -> Problem | None:
    """Append several changes at once, all or none, checked together against the stored set."""
    entries: list[tuple[str, str, dict[str, Any]]] = []
    for raw_id, kind, body in changes:
        eid = _event_id(raw_id)
        if isinstance(eid, Problem):
            return eid
        entries.append((eid, kind, body))
    pack = loaded.pack

    def refuse(events: list[dict[str, Any]]) -> str | None:
        if len(events) + len(entries) > MAX_EVENTS:
            return say(
                "This terrain set has recorded {count} changes and keeps at most {most}; "
                "start a new game for a new battlefield.",
                count=f"{len(events):,}",
                most=f"{MAX_EVENTS:,}",
            )
        state = terrain.fold(players, events)
        uids = set(state.pieces)
        for _eid, kind, body in entries:
            problem = _refusal(pack, state, uids, kind, body, players, names)
            if problem:
                return problem
        return None

    set_id = loaded.set_id or store.terrain.get_or_create_set(loaded.game_id, pack.id)
    outcome = store.terrain.append(set_id, entries, refuse)
    return Problem.refusal(outcome.error) if outcome.status == "refused" and outcome.error else None


def _refusal(
    pack: Pack,
    state: terrain.TerrainSet,
    uids: set[str],
    kind: str,
    body: dict[str, Any],
    players: int,
    names: list[str] | None,
) -> str | None:
    """Why one change cannot join the set as it stands (``uids``: its pieces so far); else None."""
    uid = body.get("piece_uid")
    if kind == "piece":
        pieces, problem = terrain.parse_pieces(pack, [body.get("piece")])
        if pieces is None:
            return (problem or say("The piece is not valid.")).replace("pieces[0]", "piece")
        if uid not in uids and len(uids) >= terrain.MAX_PIECES:
            return say(
                "A terrain set holds at most {most} pieces and this one is full; "
                "remove a piece before adding another.",
                most=terrain.MAX_PIECES,
            )
        uids.add(str(uid))
        body["piece"] = pieces[0].model_dump(mode="json", exclude={"uid"})
        return None
    player = body.get("player")
    if kind in ("agree", "seat"):
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
            return say("player must be a player's index, 0 to {last}.", last=players - 1)
        refused = state.seat_refusal(player, body.get("phone"), names)
        if refused:
            return refused
    if kind != "seat" and uid not in uids:
        return say("That piece is no longer in the set; reload to see the latest.")
    if kind == "remove":
        uids.discard(str(uid))
    return None


def new_piece_uid() -> str:
    """The id that stays with a piece while it is changed and moved."""
    return uuid.uuid4().hex[:10]


def state_json(loaded: LoadedSet, names: list[str]) -> dict[str, Any]:
    """The set as the API gives it: pieces with who agreed, lock time, checks."""
    pieces = loaded.pieces
    return {
        "locked_at": loaded.state.locked_at,
        "agreed": loaded.state.agreed,
        "pieces": [
            {
                "uid": s.uid,
                **s.piece.model_dump(mode="json", exclude={"uid"}),
                "agreed_by": [names[p] for p in sorted(s.agreed) if p < len(names)],
            }
            for s in loaded.state.ordered
        ],
        "history": loaded.state.history,
        **loaded.verdict.as_dict(pieces),
    }
