"""Tunnel Wars on screen and paper: the secret contingent picks, each battle, the series sheet.

A contingent is picked on its player's own seat; every other screen sees only that it was
picked until both picks of the battle are in. Inside a battle the table screen and each seat
record the denizen's roll-offs, attacks on it and Tame the Raging Beast, the unstable
surroundings die of each hero phase and Cunning Traps; the history tells every roll's outcome
in words. Everything shown comes from the engine's state and its summary for this screen's seat.

The web side of the ``tunnels`` package, beside its screens (``templates/``) and its sheet
(``pdf/sheet.html``); the rules modules beside it never import it (only app/web/systems does).
"""

from __future__ import annotations

import math
from typing import Any

from flask_babel import format_decimal
from werkzeug.datastructures import MultiDict

from app.rules.pack import Pack, Scenario
from app.rules.speech import say, say_plural, told
from app.rules.systems.tunnels.state import TunnelGame
from app.services.games import Loaded, summary, visible_events
from app.web.forms import number
from app.web.systems import WebSide, register

# Pairs of dice a roll-off form offers: the first roll and two more after ties.
ROLL_OFF_ROWS = 3
# Enemy units a falling stalactites form offers (up to a D3).
STALACTITE_ROWS = 3
# Rows the blank series sheet leaves per battle for roll-offs, unstable dice and traps.
BLANK_ROWS = {"denizen": 5, "unstable": 8, "traps": 4}
# A distance typed in inches is read to this many characters at most.
MAX_DISTANCE_CHARS = 8


def inches(raw: str | None) -> int | float | None:
    """A distance typed in inches ("7", "7.5" or "7,5"), whole when it is; ``None`` if unreadable."""
    text = (raw or "").strip().replace(",", ".")
    if not text or len(text) > MAX_DISTANCE_CHARS:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    if not math.isfinite(value):
        return None
    return int(value) if value.is_integer() else value


def _dice_of_form(form: MultiDict[str, str], rows: int) -> tuple[list[list[int | None]], str | None]:
    """The roll-off's pairs as typed: the first always, each later pair where a die is given."""
    pairs = []
    for k in range(rows):
        raw = [form.get(f"roll.{k}.{p}", "").strip() for p in (0, 1)]
        if k and not any(raw):
            continue
        dice = [number(d) for d in raw]
        if any(d is None for d in dice):
            if k == 0:
                return [], say(
                    "dice: the roll-off needs both players' dice, each a whole number from 1 to 6."
                )
            return [], say(
                "dice: roll {number} of the roll-off needs both players' dice, each a whole number from 1 to 6.",
                number=k + 1,
            )
        pairs.append(dice)
    return pairs, None


def _stalactites(form: MultiDict[str, str]) -> tuple[list[dict[str, Any]], str | None]:
    """The enemy units picked for falling stalactites, each with its die, as typed."""
    units = []
    for k in range(STALACTITE_ROWS):
        name = form.get(f"unit.{k}", "").strip()
        raw = form.get(f"unit.{k}.die", "").strip()
        if not name and not raw:
            continue
        if not name:
            return [], say(
                "units: unit {number} of the falling stalactites needs its name beside its die.", number=k + 1
            )
        die = number(raw)
        if die is None:
            return [], say("units: the die for {name} must be a whole number from 1 to 6.", name=name)
        units.append({"unit": name, "die": die})
    if not units:
        return [], say("units: name the enemy units the stalactites fall on, each with its die.")
    return units, None


def _split_of_form(loaded: Loaded, form: MultiDict[str, str], event: dict[str, Any]) -> str | None:
    """The army's split as the API takes it: each roster unit's contingent (``unit.<k>`` with
    its name in ``unit.<k>.name``), or, without a roster, how many units each holds."""
    event["player"] = number(form.get("player"))
    rules = loaded.state.scenario.contingents
    count = len(rules.ids) if rules is not None else 0
    units = sorted(
        (int(key.split(".")[1]), form.get(key, ""))
        for key in form
        if key.startswith("unit.") and key.count(".") == 1 and key.split(".")[1].isdigit()
    )
    if units:
        parts: list[list[str]] = [[] for _ in range(count)]
        for k, chosen in units:
            which = number(chosen)
            if which is None or not 1 <= which <= count:
                return say("Each unit needs its contingent, 1 to {count}.", count=count)
            parts[which - 1].append(form.get(f"unit.{k}.name", "").strip())
        event["contingents"] = parts
        return None
    counts = [number(form.get(f"count.{c}")) for c in range(1, count + 1)]
    if any(c is None for c in counts):
        return say("Each of the {count} contingents needs its number of units.", count=count)
    event["contingents"] = counts
    return None


class TunnelsWeb(WebSide):
    def view(self, loaded: Loaded, draft: MultiDict[str, str], seat: int | None = None) -> dict[str, Any]:
        g = loaded.state
        s = summary(loaded, seat)
        battle = g.current_battle
        names = [p.name for p in g.setup.players]
        # What may be recorded now from this screen is the engine's answer, ``may`` (every
        # game's page has it); its ``battle`` part says which round the forms are for.
        row = next((x for x in s["series"] if x["battle"] == battle), None) if not g.finished else None
        denizen = {d["round"]: d for d in row["denizen"]} if row else {}
        return {
            "s": s,
            "names": names,
            "battle": battle,
            "started": not g.finished and g.revealed(battle),
            # The denizen's roll-offs of the battle being fought, by round (0: its set-up).
            "denizen": denizen,
            "fighting": g.fighting,
            "roll_off_rows": ROLL_OFF_ROWS,
            "stalactite_rows": STALACTITE_ROWS,
            "entries": _history(loaded, s, seat, names),
            "split_rules": g.scenario.contingents,
        }

    def form_event(self, loaded: Loaded, form: MultiDict[str, str], event: dict[str, Any]) -> str | None:
        """Each form of the Tunnel Wars screens as the event the JSON API takes."""
        kind = event["type"]
        if kind not in loaded.system.event_types:
            return say("type must be one of {types}.", types=", ".join([*loaded.system.event_types, "undo"]))
        if kind == "contingents":
            return _split_of_form(loaded, form, event)
        event["battle"] = number(form.get("battle"))
        if kind in ("battle_round", "denizen", "denizen_attack", "tame", "unstable", "trap"):
            event["round"] = number(form.get("round"))
        if kind in ("contingent", "repick", "denizen_attack", "tame", "unstable", "trap"):
            event["player"] = number(form.get("player"))
        if kind == "contingent":
            event["contingent"] = number(form.get("contingent"))
            if form.get("general", "").strip():
                event["general"] = form.get("general", "").strip()
        elif kind == "battle_round":
            event["first"] = number(form.get("first"))
        elif kind == "denizen":
            event["dice"], problem = _dice_of_form(form, ROLL_OFF_ROWS)
            return problem
        elif kind == "unstable":
            event["die"] = number(form.get("die"))
            # The form's cave-in and stalactites fields belong to their choice: only the
            # chosen one's are read (the other's may still hold what was typed before).
            choice = form.get("choice", "").strip()
            if not choice:
                return None
            event["choice"] = choice
            if choice == "cave-in":
                event["point"] = form.get("point", "").strip()
            elif choice == "stalactites":
                event["d3"] = number(form.get("d3"))
                event["units"], problem = _stalactites(form)
                return problem
        elif kind == "trap":
            event["distance"] = inches(form.get("distance"))
            event["dice"] = [number(form.get("die.0")), number(form.get("die.1"))]
            if form.get("target", "").strip():
                event["target"] = form.get("target", "").strip()
            if form.get("mortal_wounds", "").strip():
                event["mortal_wounds"] = number(form.get("mortal_wounds"))
        elif kind == "battle_result":
            raw = form.get("winner", "")
            event["winner"] = None if raw in ("", "none") else number(raw)
        return None

    def sheet(
        self, pack: Pack, scenario: Scenario, loaded: Loaded | None, count: int | None = None
    ) -> dict[str, Any]:
        """What the series sheet prints beyond the battles: each battle's dangers, from the
        public summary (no secret in it), or blank rows to fill in by hand."""
        battles = scenario.battles or 3
        return {
            "battles": battles,
            "fighting": scenario.tunnel_fighting,
            # The pack's own words, in the reader's language where the pack gives them.
            "reminders": [told(r) for r in scenario.tunnel_fighting.reminders]
            if scenario.tunnel_fighting
            else [],
            "blank_rows": BLANK_ROWS if loaded is None else None,
        }


def _pairs(dice: list[list[int]], names: list[str]) -> str:
    """A roll-off's dice in words: "Ann 3, Bo 3; again: Ann 5, Bo 2"."""
    rolls = [", ".join(f"{n} {d}" for n, d in zip(names, pair, strict=False)) for pair in dice]
    return (
        rolls[0]
        if len(rolls) == 1
        else say("{first}; again: {again}", first=rolls[0], again=_pairs(dice[1:], names))
    )


def _wounds(n: int) -> str:
    return say("none") if n == 0 else say_plural("{count} mortal wound", "{count} mortal wounds", n)


def _sends(battle: Any, name: str, shown: Any, general: Any, hidden: bool) -> str:
    """A contingent's pick as a seat sees it: its number, its general if named, and whether
    only this seat sees it yet."""
    if general and hidden:
        return say(
            "Battle {battle}: {name} sends contingent {number}, led by {general} (only you see it)",
            battle=battle,
            name=name,
            number=shown,
            general=general,
        )
    if general:
        return say(
            "Battle {battle}: {name} sends contingent {number}, led by {general}",
            battle=battle,
            name=name,
            number=shown,
            general=general,
        )
    if hidden:
        return say(
            "Battle {battle}: {name} sends contingent {number} (only you see it)",
            battle=battle,
            name=name,
            number=shown,
        )
    return say("Battle {battle}: {name} sends contingent {number}", battle=battle, name=name, number=shown)


def _unstable(x: Any, fighting: Any, name: str, enemy: str) -> str:
    """An unstable surroundings die and what it brought down, in one sentence."""
    where = {"name": name, "battle": x.battle, "round": x.round, "die": x.die}
    if x.die < fighting.unstable_on:
        return say(
            "Unstable surroundings, hero phase of {name}, battle {battle} round {round}: {die}, nothing falls",
            **where,
        )
    if x.choice == "cave-in":
        return say(
            "Unstable surroundings, hero phase of {name}, battle {battle} round {round}: {die}, "
            "a cave-in at {point}",
            point=x.point,
            **where,
        )
    if x.choice == "stalactites":
        hits = ", ".join(f"{unit} ({die}: {_wounds(w)})" for unit, die, w in x.units)
        return say(
            "Unstable surroundings, hero phase of {name}, battle {battle} round {round}: {die}, "
            "falling stalactites (D3: {d3}) on {enemy}'s {hits}; {face}+ deals 1 mortal wound",
            d3=x.d3,
            enemy=enemy,
            hits=hits,
            face=fighting.stalactite_on,
            **where,
        )
    return say(
        "Unstable surroundings, hero phase of {name}, battle {battle} round {round}: {die}, "
        "neither a cave-in nor stalactites chosen",
        **where,
    )


def _trap(x: Any, name: str, enemy: str) -> str:
    """Cunning Traps in one sentence: on whom, when, the roll against the range, the harm."""
    harm = _wounds(x.wounds) if x.sprung else say("short of it, no harm")
    roll = {"first": x.dice[0], "second": x.dice[1], "total": x.total, "distance": format_decimal(x.distance)}
    roll |= {"name": name, "battle": x.battle, "harm": harm}
    if x.target and x.round is not None:
        return say(
            "Cunning Traps by {name} on {enemy}'s {target}, battle {battle} round {round}: "
            '{first} + {second} = {total} against {distance}": {harm}',
            enemy=enemy,
            target=x.target,
            round=x.round,
            **roll,
        )
    if x.target:
        return say(
            "Cunning Traps by {name} on {enemy}'s {target}, battle {battle}, no round given: "
            '{first} + {second} = {total} against {distance}": {harm}',
            enemy=enemy,
            target=x.target,
            **roll,
        )
    if x.round is not None:
        return say(
            "Cunning Traps by {name}, battle {battle} round {round}: "
            '{first} + {second} = {total} against {distance}": {harm}',
            round=x.round,
            **roll,
        )
    return say(
        "Cunning Traps by {name}, battle {battle}, no round given: "
        '{first} + {second} = {total} against {distance}": {harm}',
        **roll,
    )


def _history(
    loaded: Loaded, public: dict[str, Any], seat: int | None, names: list[str]
) -> list[dict[str, Any]]:
    """The entries in force as sentences, newest first, as this screen may see them.

    A contingent's pick shows as this seat may know it: its number once both picks of the
    battle are in (or on its own seat), else only that it was picked.
    """
    g: TunnelGame = loaded.state
    fighting = g.fighting
    in_force = set(g.effective)
    by_event: dict[str, Any] = {
        x.event: x for x in [*g.rounds, *g.roll_offs, *g.changes, *g.unstable, *g.traps, *g.results]
    }
    series = {row["battle"]: row for row in public["series"]}

    def who(i: Any) -> str:
        return names[i] if isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(names) else "?"

    out = []
    for e in visible_events(loaded.system, loaded.log, seat, g):
        eid = e.get("id")
        if eid not in in_force:
            continue
        kind, lines = e.get("type"), []
        x = by_event.get(eid)
        player = e.get("player")
        b = e.get("battle")
        if kind == "contingents":
            sizes = g.splits[player].sizes if player in g.splits else ()
            text = say(
                "{name}'s army in contingents of {sizes} units",
                name=who(player),
                sizes=", ".join(str(n) for n in sizes),
            )
        elif kind == "contingent":
            # The pick as this screen may see it: whole once both of its battle are in, or on its seat.
            shown = e.get("contingent")
            if shown is None:
                text = say(
                    "Battle {battle}: {name} picked a contingent, hidden until both are in",
                    battle=b,
                    name=who(player),
                )
            else:
                general = e.get("general")
                row = series.get(b)
                hidden = not (row and row["revealed"])
                text = _sends(b, who(player), shown, general, hidden)
        elif kind == "repick":
            text = say(
                "Battle {battle}: {name} asks to pick the contingents again", battle=b, name=who(player)
            )
        elif kind == "battle_round" and x is not None:
            if x.first is not None:
                text = say(
                    "Battle {battle}, round {round} begins: {name} takes the first turn",
                    battle=x.battle,
                    round=x.round,
                    name=who(x.first),
                )
            else:
                text = say("Battle {battle}, round {round} begins", battle=x.battle, round=x.round)
        elif kind == "denizen" and x is not None:
            dice = _pairs([list(p) for p in x.dice], names)
            if x.round == 0:
                text = say(
                    "The denizen at the set-up of battle {battle}: {dice}. "
                    "{name} may set up a MONSTER from neither army as the denizen",
                    battle=x.battle,
                    dice=dice,
                    name=who(x.winner),
                )
            else:
                text = say(
                    "The denizen's roll-off, battle {battle}, round {round}: {dice}. {name} commands it this round",
                    battle=x.battle,
                    round=x.round,
                    dice=dice,
                    name=who(x.winner),
                )
        elif kind == "denizen_attack" and x is not None:
            text = say(
                "Battle {battle}, round {round}: {name} attacks the denizen; it fights for {other} until the round ends",
                battle=x.battle,
                round=x.round,
                name=who(x.player),
                other=who(1 - x.player),
            )
        elif kind == "tame" and x is not None:
            text = say(
                "Battle {battle}, round {round}: {name} tames the raging beast; it fights for {name} until the round ends",
                battle=x.battle,
                round=x.round,
                name=who(x.player),
            )
        elif kind == "unstable" and x is not None:
            text = _unstable(x, fighting, who(x.player), who(1 - x.player))
        elif kind == "trap" and x is not None:
            text = _trap(x, who(x.player), who(1 - x.player))
        elif kind == "battle_result" and x is not None:
            if x.winner is not None:
                text = say("Battle {battle} ends: {name} wins it", battle=x.battle, name=who(x.winner))
            else:
                text = say(
                    "Battle {battle} ends: both contingents destroyed, nobody wins it", battle=x.battle
                )
        elif kind == "roll":
            rolled = ", ".join(str(d) for d in e.get("results", []))
            if e.get("purpose"):
                text = say("Dice: {dice} ({purpose})", dice=rolled, purpose=e["purpose"])
            else:
                text = say("Dice: {dice}", dice=rolled)
        else:
            continue
        out.append({"event": eid, "type": kind, "text": text, "lines": lines})
    out.reverse()
    return out


SYSTEM = register(TunnelsWeb("tunnels"))
