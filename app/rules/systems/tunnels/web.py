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

from werkzeug.datastructures import MultiDict

from app.rules.pack import Pack, Scenario
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
            which = "the roll-off" if k == 0 else f"roll {k + 1} of the roll-off"
            return [], f"dice: {which} needs both players' dice, each a whole number from 1 to 6."
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
            return [], f"units: unit {k + 1} of the falling stalactites needs its name beside its die."
        die = number(raw)
        if die is None:
            return [], f"units: the die for {name} must be a whole number from 1 to 6."
        units.append({"unit": name, "die": die})
    if not units:
        return [], "units: name the enemy units the stalactites fall on, each with its die."
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
                return f"Each unit needs its contingent, 1 to {count}."
            parts[which - 1].append(form.get(f"unit.{k}.name", "").strip())
        event["contingents"] = parts
        return None
    counts = [number(form.get(f"count.{c}")) for c in range(1, count + 1)]
    if any(c is None for c in counts):
        return f"Each of the {count} contingents needs its number of units."
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
            return f"type must be one of {', '.join([*loaded.system.event_types, 'undo'])}."
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
            "blank_rows": BLANK_ROWS if loaded is None else None,
        }


def _pairs(dice: list[list[int]], names: list[str]) -> str:
    """A roll-off's dice in words: "Ann 3, Bo 3; again: Ann 5, Bo 2"."""
    return "; again: ".join(", ".join(f"{n} {d}" for n, d in zip(names, pair, strict=False)) for pair in dice)


def _wounds(n: int) -> str:
    return "none" if n == 0 else f"{n} mortal wound{'' if n == 1 else 's'}"


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
            text = f"{who(player)}'s army in contingents of {', '.join(str(n) for n in sizes)} units"
        elif kind == "contingent":
            # The pick as this screen may see it: whole once both of its battle are in, or on its seat.
            shown = e.get("contingent")
            if shown is None:
                text = f"Battle {b}: {who(player)} picked a contingent, hidden until both are in"
            else:
                general = e.get("general")
                text = f"Battle {b}: {who(player)} sends contingent {shown}" + (
                    f", led by {general}" if general else ""
                )
                row = series.get(b)
                if not (row and row["revealed"]):
                    text += " (only you see it)"
        elif kind == "repick":
            text = f"Battle {b}: {who(player)} asks to pick the contingents again"
        elif kind == "battle_round" and x is not None:
            text = f"Battle {x.battle}, round {x.round} begins" + (
                f": {who(x.first)} takes the first turn" if x.first is not None else ""
            )
        elif kind == "denizen" and x is not None:
            dice = _pairs([list(p) for p in x.dice], names)
            if x.round == 0:
                text = (
                    f"The denizen at the set-up of battle {x.battle}: {dice}. "
                    f"{who(x.winner)} may set up a MONSTER from neither army as the denizen"
                )
            else:
                text = (
                    f"The denizen's roll-off, battle {x.battle}, round {x.round}: {dice}. "
                    f"{who(x.winner)} commands it this round"
                )
        elif kind == "denizen_attack" and x is not None:
            text = (
                f"Battle {x.battle}, round {x.round}: {who(x.player)} attacks the denizen; "
                f"it fights for {who(1 - x.player)} until the round ends"
            )
        elif kind == "tame" and x is not None:
            text = (
                f"Battle {x.battle}, round {x.round}: {who(x.player)} tames the raging beast; "
                f"it fights for {who(x.player)} until the round ends"
            )
        elif kind == "unstable" and x is not None:
            text = f"Unstable surroundings, hero phase of {who(x.player)}, battle {x.battle} round {x.round}: {x.die}"
            if x.die < fighting.unstable_on:
                text += ", nothing falls"
            elif x.choice == "cave-in":
                text += f", a cave-in at {x.point}"
            elif x.choice == "stalactites":
                hits = ", ".join(f"{unit} ({die}: {_wounds(w)})" for unit, die, w in x.units)
                text += (
                    f", falling stalactites (D3: {x.d3}) on {who(1 - x.player)}'s {hits}; "
                    f"{fighting.stalactite_on}+ deals 1 mortal wound"
                )
            else:
                text += ", neither a cave-in nor stalactites chosen"
        elif kind == "trap" and x is not None:
            target = f" on {who(1 - x.player)}'s {x.target}" if x.target else ""
            when = f"round {x.round}" if x.round is not None else "no round given"
            text = (
                f"Cunning Traps by {who(x.player)}{target}, battle {x.battle} {when}: "
                f'{x.dice[0]} + {x.dice[1]} = {x.total} against {x.distance:g}": '
                + (_wounds(x.wounds) if x.sprung else "short of it, no harm")
            )
        elif kind == "battle_result" and x is not None:
            text = f"Battle {x.battle} ends: " + (
                f"{who(x.winner)} wins it"
                if x.winner is not None
                else "both contingents destroyed, nobody wins it"
            )
        elif kind == "roll":
            text = f"Dice: {', '.join(str(d) for d in e.get('results', []))}" + (
                f" ({e['purpose']})" if e.get("purpose") else ""
            )
        else:
            continue
        out.append({"event": eid, "type": kind, "text": text, "lines": lines})
    out.reverse()
    return out


SYSTEM = register(TunnelsWeb("tunnels"))
