"""A game's terrain set as the app uses it: stored events, folded and checked by the rules.

Every change (a piece added, changed or removed, a player agreeing) is one event with a
client-made id, appended in a transaction; the set's state and its checks are computed from
the events each time.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from app.refusal import Refusal
from app.rules import terrain
from app.rules.pack import Pack, Scenario
from app.store import Store


@dataclass
class LoadedSet:
    """A game's terrain set: its id, state and the battlefield verdict."""

    set_id: str
    pack: Pack
    scenario: Scenario | None
    state: terrain.TerrainSet
    verdict: terrain.Verdict

    @property
    def pieces(self) -> list[terrain.Piece]:
        return [s.piece for s in self.state.ordered]


def load(store: Store, pack: Pack, scenario: Scenario | None, game_id: str, names: list[str]) -> LoadedSet:
    """The game's terrain set (made on first use), folded and checked."""
    set_id = store.terrain_set(game_id, pack.id)
    state = terrain.fold(len(names), store.terrain_events(set_id), names)
    pieces = [s.piece for s in state.ordered]
    return LoadedSet(set_id, pack, scenario, state, terrain.check(pack, pieces, scenario))


def status(store: Store, game_id: str, names: list[str]) -> terrain.TerrainSet | None:
    """The game's terrain agreement as it stands, without making a set (for the game page)."""
    set_id = store.find_terrain_set(game_id)
    return terrain.fold(len(names), store.terrain_events(set_id), names) if set_id else None


def _event_id(raw: Any) -> str | Refusal:
    try:
        return str(uuid.UUID(str(raw)))
    except ValueError:
        return Refusal("id must be a UUID made by the page; reload and try again.")


def record(
    store: Store, loaded: LoadedSet, event_id: Any, kind: str, body: dict[str, Any], players: int
) -> Refusal | None:
    """Append one change to the set: ``piece`` (add or change), ``remove`` or ``agree``."""
    eid = _event_id(event_id)
    if isinstance(eid, Refusal):
        return eid
    pack = loaded.pack

    def refuse(events: list[dict[str, Any]]) -> str | None:
        state = terrain.fold(players, events)
        uid = body.get("piece_uid")
        if kind == "piece":
            pieces, problem = terrain.parse_pieces(pack, [body.get("piece")])
            if pieces is None:
                return (problem or "The piece is not valid.").replace("pieces[0]", "piece")
            body["piece"] = pieces[0].model_dump(mode="json", exclude={"uid"})
            return None
        if uid not in state.pieces:
            return "That piece is no longer in the set; reload to see the latest."
        if kind == "agree":
            player = body.get("player")
            if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
                return f"player must be a player's index, 0 to {players - 1}."
            if player in state.pieces[uid].agreed:
                return None
        return None

    outcome = store.append_terrain(loaded.set_id, eid, kind, body, refuse)
    return Refusal(outcome.error) if outcome.status == "refused" and outcome.error else None


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
