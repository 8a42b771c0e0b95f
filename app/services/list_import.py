"""List import as the app uses it: read a list, place it in a pack's roster, judge it; store nothing.

The reading is app/rules/lists/, the placing app/rules/matching.py and the verdict
app/rules/army.py; this wires them to the packs and to the phone's remembered units. Saving the
result goes through :func:`app.services.rosters.create`, like any roster.
"""

from __future__ import annotations

from typing import Any

from app.rules import army, matching
from app.rules.lists import Refused, read_list
from app.rules.pack import Pack
from app.rules.problems import Problem
from app.rules.speech import say


def builders(packs: dict[str, Pack]) -> list[Pack]:
    """The packs whose rosters a list can be imported into."""
    return sorted((p for p in packs.values() if p.army is not None), key=lambda p: p.id)


def preview(
    packs: dict[str, Pack],
    pack_id: Any,
    data: bytes | str,
    remembered: list[dict[str, Any]],
    choices: dict[int, str] | None = None,
    owner: str | None = None,
) -> dict[str, Any] | Problem:
    """``{"format", "roster", "unread", "verdict", "nearest", "dropped"}`` for the list, or why it
    cannot be read. ``choices`` answers unread lines by number (see :data:`matching.CHOICES`);
    ``owner`` is the player whose army it is."""
    pack = packs.get(pack_id) if isinstance(pack_id, str) else None
    if pack is None or pack.army is None:
        ids = ", ".join(p.id for p in builders(packs))
        return Problem.refusal(
            say("pack must be one of the rulepacks that build armies: {packs}.", packs=ids)
        )
    try:
        reading = read_list(data)
    except Refused as exc:
        return Problem.refusal(str(exc))
    wrong = matching.wrong_game(reading, pack, builders(packs))
    if wrong:
        return Problem.refusal(wrong)
    placed = matching.place(reading, pack, remembered, owner)
    if choices:
        placed = matching.resolve(placed, pack, choices)
    roster, _pack, problem = army.parse_roster(placed.roster, packs)
    if roster is None:
        # The placing keeps to the roster's bounds; a refusal here is a bug worth a plain sentence.
        return Problem.refusal(problem or say("The list could not be made into a roster."))
    verdict = army.check(pack, roster)
    return {
        "format": reading.format,
        # The roster as it would be stored: names cleaned and cut as the roster's model does.
        "roster": roster.model_dump(mode="json", exclude={"entries": {"__all__": {"uid"}}}),
        "unread": [line.as_dict() for line in placed.unread],
        # For an unread line's number, the catalogue's nearest names, for the player to pick one.
        "nearest": {
            str(line.number): placed.nearest[line.number]
            for line in placed.unread
            if line.number in placed.nearest
        },
        # Header fields read but not kept (a roster has no place for them).
        "dropped": [line.as_dict() for line in placed.dropped],
        "verdict": {
            "points": verdict.points,
            "valid": verdict.valid,
            "problems": [p.as_dict() for p in verdict.problems],
        },
    }
