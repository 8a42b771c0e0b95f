"""Rosters as the app uses them: stored JSON, checked by app/rules/army.py.

Views call these functions; the checks themselves live in the rules, the SQL in the store.
Every change is made to the stored body inside one transaction and re-read as a roster,
so a saved roster is always well-formed (it may still break army rules: that is shown).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.rules import army
from app.rules.pack import Pack
from app.rules.problems import Problem
from app.rules.speech import say
from app.store import RosterRow, Store

EXPORT_FORMAT = "muster-roster/1"


@dataclass
class LoadedRoster:
    """A stored roster with its pack, its parsed form and its verdict."""

    row: RosterRow
    pack: Pack
    roster: army.Roster
    verdict: army.Verdict

    @property
    def entries(self) -> list[dict[str, Any]]:
        return self.row.body.get("entries", [])


def new_uid() -> str:
    """A short id that stays with an entry while it is moved or edited."""
    return secrets.token_hex(4)


def _normalise(roster: army.Roster) -> dict[str, Any]:
    body = roster.model_dump(mode="json")
    for entry in body["entries"]:
        entry["uid"] = entry.get("uid") or new_uid()
    return body


def parse(packs: dict[str, Pack], data: Any) -> tuple[dict[str, Any], Pack] | Problem:
    """Read and normalise a roster: the body to store and its pack, or why it is not a roster."""
    roster, pack, problem = army.parse_roster(data, packs)
    if roster is None or pack is None:
        return Problem.refusal(problem or say("The roster is not valid JSON."))
    return _normalise(roster), pack


def create(
    store: Store, packs: dict[str, Pack], data: Any, phone: str | None = None
) -> tuple[str, str] | Problem:
    """Store a new roster (valid or not yet); return ``(id, edit_token)`` or why it is refused.

    ``phone``: the phone that made it, which remembers its units (see :func:`change`).
    """
    if isinstance(data, dict) and data.get("format") == EXPORT_FORMAT:
        data = data.get("roster")
    parsed = parse(packs, data)
    if isinstance(parsed, Problem):
        return parsed
    body, pack = parsed
    return store.rosters.create(pack.id, body, phone)


def load(store: Store, packs: dict[str, Pack], roster_id: str) -> LoadedRoster | None:
    """The roster with that id and its verdict; ``None`` if there is none or its pack is gone."""
    row = store.rosters.get(roster_id)
    if row is None:
        return None
    roster, pack, _problem = army.parse_roster(row.body, packs)
    if roster is None or pack is None:
        return None
    return LoadedRoster(row, pack, roster, army.check(pack, roster))


def describe(loaded: LoadedRoster) -> dict[str, Any]:
    """The roster as the API gives it: the stored body, its verdict and what tactics need."""
    return {
        "id": loaded.row.id,
        "pack": loaded.pack.id,
        "version": loaded.row.version,
        "created": loaded.row.created,
        "updated": loaded.row.updated,
        "roster": loaded.row.body,
        **loaded.verdict.as_dict(),
        "army": army.army_summary(loaded.roster),
    }


def export(loaded: LoadedRoster) -> dict[str, Any]:
    """The roster as a file to keep or share; import it back through :func:`create`."""
    return {"format": EXPORT_FORMAT, "roster": loaded.row.body}


def change(
    store: Store,
    packs: dict[str, Pack],
    roster_id: str,
    edit: Callable[[dict[str, Any]], dict[str, Any] | str],
    version: int | None = None,
    phone: str | None = None,
) -> Problem | None:
    """Apply an edit to a stored roster; ``None`` when saved, else why not.

    The refusal is a ``conflict`` when the roster was saved elsewhere since ``version``.
    The entries are remembered for ``phone`` (the id a phone's cookie holds), to offer in its
    next roster; another phone's list is never touched.
    """

    def apply(body: dict[str, Any]) -> dict[str, Any] | str:
        new = edit({**body, "entries": [dict(e) for e in body.get("entries", [])]})
        if isinstance(new, str):
            return new
        parsed = parse(packs, new)
        if isinstance(parsed, Problem):
            return parsed.message
        return parsed[0]

    saved = store.rosters.update(roster_id, apply, version, phone)
    if saved.problem:
        return Problem.refusal(saved.problem, conflict=saved.conflict)
    return None


# --- edits: plain functions on the roster body ------------------------------------------
def _index(body: dict[str, Any], uid: str) -> int | str:
    for i, entry in enumerate(body["entries"]):
        if entry.get("uid") == uid:
            return i
    return say("That entry is no longer in the roster; reload to see the latest list.")


def add_entry(entry: dict[str, Any]) -> Callable[[dict[str, Any]], dict[str, Any] | str]:
    def edit(body: dict[str, Any]) -> dict[str, Any] | str:
        body["entries"].append({**entry, "uid": new_uid()})
        return body

    return edit


def replace_entry(uid: str, entry: dict[str, Any]) -> Callable[[dict[str, Any]], dict[str, Any] | str]:
    def edit(body: dict[str, Any]) -> dict[str, Any] | str:
        i = _index(body, uid)
        if isinstance(i, str):
            return i
        body["entries"][i] = {**entry, "uid": uid}
        return body

    return edit


def duplicate_entry(uid: str) -> Callable[[dict[str, Any]], dict[str, Any] | str]:
    def edit(body: dict[str, Any]) -> dict[str, Any] | str:
        i = _index(body, uid)
        if isinstance(i, str):
            return i
        copy = {**body["entries"][i], "uid": new_uid()}
        # A copy is never a second general.
        copy.pop("general", None)
        copy.pop("command_trait", None)
        body["entries"].insert(i + 1, copy)
        return body

    return edit


def move_entry(uid: str, step: int) -> Callable[[dict[str, Any]], dict[str, Any] | str]:
    def edit(body: dict[str, Any]) -> dict[str, Any] | str:
        i = _index(body, uid)
        if isinstance(i, str):
            return i
        j = max(0, min(len(body["entries"]) - 1, i + step))
        body["entries"].insert(j, body["entries"].pop(i))
        return body

    return edit


def remove_entry(uid: str) -> Callable[[dict[str, Any]], dict[str, Any] | str]:
    def edit(body: dict[str, Any]) -> dict[str, Any] | str:
        i = _index(body, uid)
        if isinstance(i, str):
            return i
        body["entries"].pop(i)
        return body

    return edit


def set_details(details: dict[str, Any]) -> Callable[[dict[str, Any]], dict[str, Any] | str]:
    """Change the roster's own fields (name, points limit, faction, grand strategy)."""

    def edit(body: dict[str, Any]) -> dict[str, Any] | str:
        body.update(details)
        return body

    return edit


def make_general(uid: str) -> Callable[[dict[str, Any]], dict[str, Any] | str]:
    """Mark one entry the general, and no other: an army has one."""

    def edit(body: dict[str, Any]) -> dict[str, Any] | str:
        i = _index(body, uid)
        if isinstance(i, str):
            return i
        for j, entry in enumerate(body["entries"]):
            if j == i:
                entry["general"] = True
            else:
                entry.pop("general", None)
        return body

    return edit
