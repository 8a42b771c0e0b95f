"""A list read from another tool, placed in a pack's roster: names matched, nothing dropped.

Each unit the list names is matched by name to the pack's catalogue, then to the units this
phone typed in earlier rosters (case, punctuation, curly quotes and ``x`` counts forgiven).
A match brings what the list does not say (keywords such as HERO or MONSTER, a First Blood
regiment type, a single model); what the list does say (points, roles, general, enhancements)
stands. An entry the pack's roster has no place for, a grand strategy the pack does not know,
and lines the reader could not read stay in ``unread`` with their line numbers, so that what
was read plus what is unread accounts for every line of the list that carries points.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from app.rules import army
from app.rules.army import MAX_ENTRIES, MAX_NAME, MAX_NOTES
from app.rules.lists.model import GAMES, Line, Reading
from app.rules.pack import Pack
from app.rules.speech import say

# "2 x " before a name, " x2" or " 2x" after it. The blanks before a count are tried from the
# start of their run only ((?<!\s)), never from each blank of it.
_COUNT = re.compile(r"^\d++(?:\s*+x\s++|\s++)|(?<!\s)\s++x\s*+\d++$|(?<!\s)\s++\d++\s*+x$")
_APOSTROPHES = re.compile(r"['\u2018\u2019`]")
_NOT_NAME = re.compile(r"[^a-z0-9]+")


def name_key(name: str) -> str:
    """A name as matching compares it: no case, accents, punctuation, or "x" counts."""
    # Apostrophes, straight or curly, join a word (Be'lakor, Be’Lakor: one word either way).
    text = _APOSTROPHES.sub("", name)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold().strip()
    text = _COUNT.sub("", text)
    return " ".join(_NOT_NAME.sub(" ", text).split())


@dataclass
class Placed:
    """The roster body (as POST /api/v1/rosters takes it) and the lines left unread."""

    roster: dict[str, Any]
    unread: list[Line] = field(default_factory=list)
    # For each unread line's number, the catalogue's names nearest to what it says.
    nearest: dict[int, list[str]] = field(default_factory=dict)
    # The header fields read but not kept, and the list line each entry came from.
    dropped: list[Line] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)


def wrong_game(reading: Reading, pack: Pack, builders: list[Pack]) -> str | None:
    """One sentence when the list is for another game than the pack's rosters, else ``None``."""
    rules = army.rules_for(pack)
    game = rules.list_game if rules is not None else None
    if reading.game is None or game is None or reading.game == game:
        return None
    fits = [p.id for p in builders if (r := army.rules_for(p)) is not None and r.list_game == reading.game]
    if fits:
        return say(
            "pack: this is a list for {game}, not for {pack}; import it into {packs}.",
            game=GAMES[reading.game],
            pack=pack.name,
            packs=" or ".join(fits),
        )
    return say("pack: this is a list for {game}, not for {pack}.", game=GAMES[reading.game], pack=pack.name)


class Catalogue:
    """The pack's units, its catalogue's and the phone's remembered ones, found by :func:`name_key`."""

    def __init__(
        self,
        pack: Pack,
        remembered: list[dict[str, Any]],
        faction: str | None = None,
        use_catalogue: bool = True,
    ) -> None:
        self.known: dict[str, dict[str, Any]] = {}
        # Remembered units first, so the pack's own units and its catalogue win a tie.
        for unit in remembered:
            if isinstance(unit, dict) and isinstance(unit.get("name"), str):
                self.known.setdefault(name_key(unit["name"]), {}).update(unit)
        listed = pack.unit_catalogue if use_catalogue else None
        # The catalogue's names the nearest-name offers draw on: the list's faction's, else all.
        self.offered: dict[str, str] = {}
        if listed is not None:
            own = listed.faction(faction)
            found = {name_key(u.name): u for u in listed.units()}
            found |= {name_key(u.name): u for u in (own.units if own is not None else [])}
            for key, unit in found.items():
                self.known[key] = _merged(self.known.get(key, {}), _known(unit))
            self.offered = {name_key(u.name): u.name for u in (own.units if own else listed.units())}
        for item in pack.units:
            self.known[name_key(item.name)] = item.model_dump(exclude_none=True)

    def find(self, name: str) -> dict[str, Any] | None:
        """The catalogue or remembered unit of that name, if any."""
        return self.known.get(name_key(name))

    def nearest(self, text: str, count: int = 3) -> list[str]:
        """The catalogue's names nearest to a line's text (its points and counts left aside)."""
        name = _without_points(text)
        keys = difflib.get_close_matches(name_key(name), list(self.offered), n=count, cutoff=0.6)
        return [self.offered[k] for k in keys]


# "(120)", "[120]", "120 pts" at the end of a line: not part of a name.
def _without_points(text: str) -> str:
    """A line's text without its points at the end: "(120)", "[120]", "- 120 pts"."""
    # Plain string steps, not a pattern: a run of digits must not be scanned from each of them.
    rest = text.rstrip()
    if rest[-1:] in (")", "]"):
        opening = max(rest.rfind("("), rest.rfind("["))
        inside = rest[opening + 1 : -1].strip().lower().removesuffix("points").removesuffix("pts").strip()
        if opening >= 0 and inside.isdigit():
            return rest[:opening].rstrip(" -")
        return rest
    lowered = rest.lower()
    for unit in ("points", "pts"):
        if lowered.endswith(unit):
            number = rest[: -len(unit)].rstrip()
            if number[-1:].isdigit():
                return number.rstrip("0123456789").rstrip(" -")
    return rest


def _merged(remembered: dict[str, Any], listed: dict[str, Any]) -> dict[str, Any]:
    """The catalogue's facts over the phone's remembered unit; keywords the phone added are kept."""
    keywords = list(dict.fromkeys([*(remembered.get("keywords") or []), *listed["keywords"]]))
    return {**remembered, **listed, "keywords": keywords}


def _known(unit: Any) -> dict[str, Any]:
    """A catalogue unit as an import reads it: its keywords, roles, type and model count."""
    found: dict[str, Any] = {
        "name": unit.name,
        "keywords": list(unit.keywords),
        # The roster's words for a role, as the Age of Sigmar roster writes them.
        "roles": [
            r.capitalize() for r in unit.roles if r in ("leader", "battleline", "behemoth", "artillery")
        ],
        "models": unit.models,
        "single_model": unit.single_model,
    }
    if unit.type:
        found["type"] = unit.type
    return found


def place(reading: Reading, pack: Pack, remembered: list[dict[str, Any]], owner: str | None = None) -> Placed:
    """Place a list reading in a roster of the pack (it must build armies); ``owner`` is the
    player whose army it is, when the phone knows."""
    rules = army.rules_for(pack)
    assert rules is not None
    # Muster's own text writes every field of every entry: it reads back as it was, unfilled.
    catalogue = Catalogue(pack, remembered, reading.faction, use_catalogue=reading.format != "muster-text")
    unread = list(reading.unread)
    entries = [
        e
        for u in reading.units
        if (e := rules.list_entry(u, catalogue.find(u.name) or {}, pack, unread)) is not None
    ]
    if len(entries) > MAX_ENTRIES:
        numbered = entries[MAX_ENTRIES:]
        entries = entries[:MAX_ENTRIES]
        unread += [Line(e.pop("_line"), e["name"]) for e in numbered]
    lines = [entry.pop("_line") for entry in entries]
    body: dict[str, Any] = {
        "pack": pack.id,
        # A list that names itself keeps its name; else the roster is named after its army.
        "name": _cut(reading.name or _army_name(reading, owner), MAX_NAME),
        "player": _cut(owner, MAX_NAME),
        "points_limit": _limit(reading, pack, entries),
        "faction": _cut(reading.faction, MAX_NAME),
        "entries": entries,
    }
    # A roster that names a subfaction (Pitched Battles) takes the list's, its triumph and strategy.
    if "subfaction" in rules.roster.model_fields:
        body["subfaction"] = _cut(reading.subfaction, MAX_NAME)
        body["triumph"] = _cut(reading.triumph, MAX_NAME)
        body["grand_strategy"] = _strategy(reading, pack, unread)
    elif reading.subfaction_line is not None:
        reading.dropped.append(reading.subfaction_line)
    unread.sort(key=lambda line: line.number)
    nearest = {line.number: found for line in unread if (found := catalogue.nearest(line.text))}
    dropped = sorted(reading.dropped, key=lambda line: line.number)
    return Placed(body, unread, nearest, dropped, lines)


def _army_name(reading: Reading, owner: str | None) -> str | None:
    """A roster's name from its faction and its player: "Ann's Seraphon", or "Seraphon"."""
    if reading.format == "muster-text":
        return None  # Muster's own text names its roster, or leaves it unnamed on purpose
    if reading.faction and owner:
        return f"{owner}'s {reading.faction}"
    return reading.faction


# What a player can make of a line the reader could not read.
CHOICES = ("unit", "battalion", "enhancement", "note", "drop")


def resolve(placed: Placed, pack: Pack, choices: dict[int, str]) -> Placed:
    """Apply the player's answer for each unread line: a unit (of the catalogue name picked, or
    as the line names it), a core battalion, an enhancement or a note of the entry above it, or
    dropped. Lines without an answer stay unread."""
    rules = army.rules_for(pack)
    assert rules is not None
    # The answers this kind of army offers for a line (an enhancement only where entries hold them).
    offered = dict(rules.screen.import_answers)
    entries, lines = placed.roster["entries"], list(placed.lines)
    unread = []
    for line in placed.unread:
        answer = choices.get(line.number, "")
        what, _, picked = answer.partition(":")
        if what not in CHOICES or answer == "":
            unread.append(line)
            continue
        if what == "drop":
            continue
        name, points = _line_parts(line.text)
        above = max((i for i, n in enumerate(lines) if n < line.number), default=None)
        if what in ("enhancement", "note") and above is not None:
            entry = entries[above]
            if what == "enhancement" and what in offered and len(entry.get("enhancements", [])) < 6:
                entry["enhancements"] = [*entry.get("enhancements", []), name[:MAX_NAME]]
            else:
                notes = "; ".join(n for n in (entry.get("notes", ""), name) if n)
                entry["notes"] = notes[:MAX_NOTES]
            continue
        if what in ("enhancement", "note") or len(entries) >= MAX_ENTRIES:
            unread.append(line)  # nothing above to hold it, or no room: the player fixes it
            continue
        entry = _new_entry(pack, rules, what == "battalion" and what in offered, picked or name, points)
        at = (above + 1) if above is not None else 0
        entries.insert(at, entry)
        lines.insert(at, line.number)
    return Placed(placed.roster, unread, placed.nearest, placed.dropped, lines)


def _line_parts(text: str) -> tuple[str, int]:
    """A line's name and its points (the last number on it; 0 when it has none)."""
    rest = _without_points(text.strip().lstrip("-*•– ").strip())
    digits, number = "", ""
    for char in reversed(text):
        if char.isdigit():
            digits = char + digits
        elif digits:
            number = digits
            break
    number = number or digits
    points = int(number) if number and len(number) <= 5 else 0
    return (rest or text.strip())[:MAX_NAME], points


def _new_entry(pack: Pack, rules: army.ArmyRules, battalion: bool, name: str, points: int) -> dict[str, Any]:
    """The entry for a line the player says is a unit (or a battalion, where the kind has them):
    the catalogue's unit of that name, else one typed from the line."""
    listed = pack.unit_catalogue.find(name) if pack.unit_catalogue else None
    if listed is not None and not battalion:
        entry = rules.catalogue_entry(listed)
        return {**entry, "points": points or entry["points"]}
    return rules.typed_entry(battalion, name[:MAX_NAME], points)


def _cut(text: str | None, top: int) -> str | None:
    return text[:top].strip() or None if text else None


def _limit(reading: Reading, pack: Pack, entries: list[dict[str, Any]]) -> int:
    """The list's own limit; else the pack's default; else the smallest preset the army fits."""
    if reading.points_limit:
        return reading.points_limit
    if pack.army and pack.army.default_points:
        return pack.army.default_points
    total = sum(e.get("points", 0) for e in entries)
    presets = sorted(pack.points.presets)
    return next((p for p in presets if p >= total), presets[-1])


def _strategy(reading: Reading, pack: Pack, unread: list[Line]) -> str | None:
    if not reading.grand_strategy:
        return None
    key = name_key(reading.grand_strategy)
    found = next((g for g in pack.grand_strategies if key in (name_key(g.name), name_key(g.id))), None)
    if found is None and reading.grand_strategy_line is not None:
        # A battletome's own grand strategy, or another season's: the player picks one of the pack's.
        unread.append(reading.grand_strategy_line)
    return found.id if found else None
