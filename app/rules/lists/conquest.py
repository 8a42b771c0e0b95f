"""The Conquest army builder's text (The Last Argument of Kings), read for First Blood.

Two layouts are read: the builder's export (``=== Game ===``, ``Name [points/limit]``, the
faction, then ``== (Warlord) Character [points]: options`` and `` * Regiment (n) [points]``)
and the published list style (``Character [points]: options``, ``- Regiment (n) [points]``).
For First Blood the warlord (or the first character) is the Character Regiment, regiments are
regiments with their number as models, and every other character is an officer of the regiment
listed after it (or, with none after it, of the last one before it). A text holding several
lists under ``#`` titles is read to the end of its first list; the rest stays unread.
"""

from __future__ import annotations

import re

from app.rules.lists.model import Line, Reading, Unit, split_lines, unbullet, whole

FORMAT = "conquest-army-builder"

# The name runs to the first bracket; a regiment's count "(n)" is then taken off its end. (A
# name that stopped short of the blanks before "(n)" or "[" would try every split of them.)
_ENTRY = re.compile(
    r"^(?:==\s*+|\*\s*+|[-\u2013\u2022]\s*+)?(?:\((?P<warlord>warlord)\)\s*+)?(?P<name>[^\[\]]++)"
    r"\[(?P<points>\d[\d,]*+)\]\s*+(?::\s*+(?P<options>.*))?$",
    re.IGNORECASE,
)
_COUNT = re.compile(r"\((?P<count>\d{1,6})\)\s*+$")
_TITLE = re.compile(r"^===(?P<game>.*?)===$")
_SIZE = re.compile(r"^(?P<name>.*)\[(?P<total>\d[\d,]*+)\s*+/\s*+(?P<limit>\d[\d,]*+)\]$")
# A line with bracketed points; the bullets, "==" and "(warlord)" it may open with are part of
# what comes before the bracket. One line at a time, each character looked at once.
_SIGNS = re.compile(r"^[^\[\]\n]++\[\d++\](?::.*)?$", re.MULTILINE)
_COUNTED = re.compile(r"\(\d++\)\s*+\[\d++\]")


def detect(text: str) -> bool:
    """Whether the text is a Conquest army builder list (bracketed points, no AoS headings)."""
    head = text[:2000]
    if "++" in head or "(General)" in head:
        return False
    return len(_SIGNS.findall(text)) >= 2 and (
        "===" in head or "warlord" in head.lower() or _COUNTED.search(text) is not None
    )


def read(text: str) -> Reading:
    """Read a Conquest army builder list."""
    reading = Reading(format=FORMAT, game="conquest")
    lines = split_lines(text)
    plain: list[str] = []
    started = finished = False
    for line in lines:
        text_ = line.text.strip()
        if finished:
            if text_:
                reading.unread.append(line)
            continue
        if not text_:
            continue
        if text_.startswith("#"):
            if started:
                finished = True
                reading.unread.append(line)
            elif reading.name is None:
                reading.name = text_.lstrip("#").strip()[:60] or None
            continue
        title = _TITLE.match(text_)
        if title:
            continue
        size = _SIZE.match(text_)
        if size and not started:
            reading.name = size["name"].strip()[:60] or reading.name
            reading.points_limit = whole(size["limit"])
            continue
        entry = _ENTRY.match(text_)
        if entry:
            reading.units.append(_unit(line, entry))
            started = True
            continue
        if text_.lower().startswith("retinue:") and reading.units:
            reading.units[-1].notes.append(unbullet(text_))
            continue
        if not started and not text_.startswith("["):
            plain.append(text_)
            continue
        reading.unread.append(line)
    if plain:
        reading.faction = plain[0][:60]
        reading.subfaction = plain[1][:60] if len(plain) > 1 else None
    _arrange(reading)
    return reading


def _unit(line: Line, entry: re.Match[str]) -> Unit:
    options = [o.strip() for o in (entry["options"] or "").split(",") if o.strip()]
    warlord = bool(entry["warlord"]) or any(o.lower() == "warlord" for o in options)
    points = whole(entry["points"]) or 0
    name = entry["name"]
    count = _COUNT.search(name)
    if count:
        return Unit(
            name=name[: count.start()].strip(),
            points=points,
            line=line.number,
            kind="regiment",
            models=int(count["count"]),
            notes=options,
        )
    notes = [o for o in options if o.lower() != "warlord"]
    unit = Unit(name=name.strip(), points=points, line=line.number, kind="officer", models=1, notes=notes)
    unit.general = warlord
    return unit


def _arrange(reading: Reading) -> None:
    """The warlord (or first character) leads; other characters join a regiment as officers."""
    characters = [u for u in reading.units if u.kind == "officer"]
    if not characters:
        return
    leader = next((u for u in characters if u.general), characters[0])
    leader.kind = "character"
    arranged: list[Unit] = []
    waiting: list[Unit] = []
    for unit in reading.units:
        if unit.kind == "officer":
            waiting.append(unit)
            continue
        if unit.kind == "regiment" and waiting:
            unit.officers += waiting
            waiting = []
        arranged.append(unit)
    if waiting:
        regiments = [u for u in arranged if u.kind == "regiment"]
        (regiments[-1] if regiments else leader).officers.extend(waiting)
    reading.units = arranged
