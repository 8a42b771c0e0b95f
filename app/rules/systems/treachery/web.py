"""Triumph & Treachery on screen and paper: the table screen, each seat's phone, the sheet.

The table screen (a tablet in the middle of the table, or any phone holding the edit token)
records what everyone sees: battle rounds, roll-offs, enemy picks, deals, destroyed units,
turns and the end. A seat's phone shows the same and adds that player's own ploys, with the
buy, discard, bonus ploy and play forms, and gives its ploys in deals. Secrets reach a screen
only through the summary the engine makes for that seat (``summary``); what each screen offers
is the engine's answer for that seat (``open_entries``); nothing here reads another's hand.

The web side of the ``treachery`` package, beside its screens (``templates/``) and its sheet
(``pdf/sheet.html``); the rules modules beside it never import it (only app/web/systems does).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from werkzeug.datastructures import MultiDict

from app.rules.pack import Pack, Scenario
from app.rules.speech import say, told
from app.services.games import Loaded, summary, visible_events
from app.web.forms import number, numbers_named
from app.web.language import number as written
from app.web.systems import WebSide, register

# Rows the blank sheet leaves for deals, plays and destroyed units.
BLANK_ROWS = 6
# Border zones a turn form offers (Blood in the Badlands scores a die per zone held alone).
ZONE_ROWS = 4


def _players(raw: str) -> list[int]:
    """Player indices from a form field such as "2,0,1" (blanks and junk left out)."""
    found = [number(part) for part in raw.replace(" ", ",").split(",") if part.strip()]
    return [p for p in found if p is not None]


def _units(raw: str) -> list[str] | int | None:
    """Units typed one per comma (or a count, when no roster names them); ``None`` when blank."""
    text = raw.strip()
    if not text:
        return None
    if text.isdigit():
        return int(text)
    return [part.strip() for part in text.split(",") if part.strip()]


class TreacheryWeb(WebSide):
    def view(self, loaded: Loaded, draft: MultiDict[str, str], seat: int | None = None) -> dict[str, Any]:
        state = loaded.state
        public = summary(loaded, seat)
        rules = loaded.pack.treachery
        names = [p.name for p in state.setup.players]
        current = min(state.current_round, state.last_round)
        mine = public["players"][seat] if seat is not None else None
        own = []
        if mine is not None and rules is not None:
            for ploy_id in mine.get("ploys", []):
                ploy = rules.ploy(ploy_id)
                table = next((t for t in rules.ploy_tables if ploy and t.id == ploy.table), None)
                own.append({"id": ploy_id, "ploy": ploy, "table": table.name if table else ""})
        pick = public["enemy"]
        # What may be recorded now from this screen, and why not the rest (buying, a bonus
        # ploy, playing a held one, deals, enemy picks) is the engine's answer: ``may``, which
        # every game's page has.
        facts = loaded.system.facts(loaded.pack, state.scenario)
        return {
            "t": public,
            "names": names,
            "round": state.current_round,
            "shown_round": current,
            "rules": rules,
            "own_ploys": own,
            "pick": pick,
            "waiting": state.waiting(),
            "turn_facts": {f.name: f for f in facts if f.event == "turn"},
            "round_facts": {f.name: f for f in facts if f.event == "battle_round"},
            "end_facts": {f.name: f for f in facts if f.event == "end"},
            "arriving": {
                r: [o for o in state.scenario.objectives if o.placed_by_roll and o.from_round == r]
                for r in range(1, state.last_round + 1)
            },
            "in_play": {
                r: [o for o in state.scenario.objectives if o.from_round <= r]
                for r in range(1, state.last_round + 1)
            },
            "zone_rows": ZONE_ROWS,
            "contingents": state.scenario.contingents,
            "seat_name": names[seat] if seat is not None else None,
            "entries": _history(loaded, public, seat, names),
        }

    def form_event(self, loaded: Loaded, form: MultiDict[str, str], event: dict[str, Any]) -> str | None:
        """Each form of the table and seat screens as the event the JSON API takes."""
        kind = event["type"]
        state = loaded.state
        if kind not in loaded.system.event_types:
            types = ", ".join([*loaded.system.event_types, "undo"])
            return say("type must be one of {types}.", types=types)
        if "round" in form:
            event["round"] = number(form.get("round"))
        if kind == "battle_round":
            arrivals = []
            for o in state.scenario.objectives:
                die = form.get(f"arrival.{o.id}.die", "").strip()
                if not die:
                    continue
                arrivals.append(
                    {
                        "objective": o.id,
                        "die": number(die),
                        "position": form.get(f"arrival.{o.id}.position", "").strip(),
                    }
                )
            if arrivals:
                event["arrivals"] = arrivals
        elif kind == "roll_off":
            event["purpose"] = form.get("purpose", "order")
            rolls = []
            for i in range(len(state.setup.players)):
                raw = form.get(f"roll.{i}", "").strip()
                if raw:
                    die = number(raw)
                    if die is None:
                        return say("roll.{player}: the die must be a whole number from 1 to 6.", player=i)
                    rolls.append([i, die])
            event["rolls"] = rolls
            if form.get("next", "").strip():
                event["next"] = number(form.get("next"))
        elif kind == "turn":
            event["player"] = number(form.get("player"))
            event["control"] = numbers_named(form, "control")
            dice = numbers_named(form, "dice", skip_blank=True)
            if dice:
                event["dice"] = dice
            zones = []
            for n in range(ZONE_ROWS):
                who, die = form.get(f"zone.{n}.player", ""), form.get(f"zone.{n}.die", "").strip()
                if who.strip() and die:
                    zones.append({"player": number(who), "die": number(die)})
            if zones:
                event["zones"] = zones
        elif kind == "enemy":
            event.update(player=number(form.get("player")), phase=form.get("phase", ""))
            event["enemy"] = number(form.get("enemy"))
        elif kind == "deal":
            event["from"] = number(form.get("from"))
            event["to"] = number(form.get("to"))
            event["cp"] = number(form.get("cp") or "0")
            event["vp"] = number(form.get("vp") or "0")
            if form.get("ploy", "").strip():
                event["ploy"] = form.get("ploy", "").strip()
            event["note"] = form.get("note", "")
        elif kind in ("buy", "discard", "play"):
            event.update(player=number(form.get("player")), ploy=form.get("ploy", ""))
            if kind == "discard":
                event.pop("round", None)
        elif kind == "bonus_ploy":
            event.update(player=number(form.get("player")), ploy=form.get("ploy", ""))
            event["roll"] = number(form.get("roll"))
        elif kind == "destroyed":
            event.update(by=number(form.get("by")), owner=number(form.get("owner")))
            event["unit"] = form.get("unit", "")
            event["points"] = number(form.get("points"))
        elif kind == "contingents":
            event["player"] = number(form.get("player"))
            for name in ("vanguard", "reinforcements"):
                value = _units(form.get(name, ""))
                if value is not None:
                    event[name] = value
        elif kind == "end":
            for spec in loaded.system.facts(loaded.pack, state.scenario):
                if spec.event != "end":
                    continue
                if spec.kind == "player":
                    raw = form.get(spec.name, "")
                    event[spec.name] = number(raw) if raw.strip() else None
                elif spec.kind == "players":
                    if spec.name == "tie_break":
                        event[spec.name] = _players(form.get(spec.name, ""))
                    else:
                        event[spec.name] = [
                            number(v) for v in form.getlist(spec.name) if number(v) is not None
                        ]
                elif spec.kind == "renown":
                    renown = []
                    for i in range(len(state.setup.players)):
                        for unit in form.get(f"renown.{i}", "").split(","):
                            if unit.strip():
                                renown.append({"player": i, "unit": unit.strip()})
                    if renown:
                        event["renown"] = renown
        return None

    def sheet(
        self, pack: Pack, scenario: Scenario, loaded: Loaded | None, count: int | None = None
    ) -> dict[str, Any]:
        """The multiplayer sheet's rows, from the public summary only (no seat: no secrets)."""
        rules = pack.treachery
        rounds = scenario.battle_rounds or 4
        has_ploys = bool(rules and rules.ploys)
        base: dict[str, Any] = {
            "command_points": rules.command_points if rules else None,
            "ploys": has_ploys,
            "blank_rows": BLANK_ROWS if loaded is None else 0,
            "rules": [(rule.name, told(rule.summary)) for rule in scenario.rules],
        }
        if loaded is None:
            n = count or pack.players_for(scenario).min or 3
            return {
                "sheet": {
                    **base,
                    "players": [
                        {
                            "name": "",
                            "short": say("Player {number}", number=i + 1),
                            "cp": None,
                            "vp": None,
                            "ploys_held": None,
                            "place": None,
                        }
                        for i in range(n)
                    ],
                    "rounds": [{"round": r, "order": [], "vp": [None] * n} for r in range(1, rounds + 1)],
                    "deals": [] if rules and rules.deals else None,
                    "plays": [],
                    "destroyed": [],
                    "result": None,
                    "how": [],
                }
            }
        public = summary(loaded)
        names = [p["name"] for p in public["players"]]
        n = len(names)
        result = public["result"]
        places: dict[int, int] = {}
        if result and result.get("ranking"):
            places = {who: place + 1 for place, who in enumerate(result["ranking"])}
        per_round = []
        for r in range(1, rounds + 1):
            vp: list[int | None] = [None] * n
            for a in public["awards"]:
                if a["round"] == r:
                    vp[a["player"]] = (vp[a["player"]] or 0) + a["vp"]
            order = next((o["order"] for o in public["turn_order"] if o["round"] == r), [])
            per_round.append({"round": r, "order": [names[i] for i in order], "vp": vp})
        labels = {o.id: o.label for o in scenario.objectives}
        how = [
            say("{name}: {award}", name=names[a["player"]], award=_award(a, labels))
            for a in public["awards"]
            if a["vp"]
        ]
        headline = None
        if result:
            if result["kind"] == "ranking":
                headline = say("Ranking: {names}", names=", ".join(names[i] for i in result["ranking"]))
            elif result["kind"] == "draw":
                headline = say("Draw")
            elif result["kind"] == "major":
                headline = say("Major victory: {name}", name=names[result["winner"]])
            else:
                headline = say("Minor victory: {name}", name=names[result["winner"]])
        return {
            "sheet": {
                **base,
                "players": [
                    {
                        "name": p["name"],
                        "short": p["name"][:10],
                        "cp": p["cp"],
                        "vp": p["vp"],
                        "ploys_held": p["ploys_held"],
                        "place": places.get(i),
                    }
                    for i, p in enumerate(public["players"])
                ],
                "rounds": per_round,
                "round": public["round"],
                "deals": [
                    {**d, "giver": names[d["from"]], "receiver": names[d["to"]]} for d in public["deals"]
                ]
                if rules and rules.deals
                else None,
                "plays": [
                    {
                        "round": pl["round"],
                        "player": names[pl["player"]],
                        "ploy": pl["name"],
                        "note": say("cancelled") if pl.get("cancelled_by") else "",
                    }
                    for pl in public["plays"]
                ],
                "destroyed": [
                    {
                        **d,
                        "by": names[d["by"]],
                        "owner": names[d["owner"]],
                        "points_written": written(d["points"]),
                    }
                    for d in public["destroyed"]
                ],
                "result": {"headline": headline, "reason": result["reason"]} if result else None,
                "how": how,
            }
        }


def _award(a: dict[str, Any], labels: dict[str, str]) -> str:
    """VP one rule gave, in words with its VP: "Monolith +3", "Objective 2 (die 4) +4"."""
    rule, what, die = a.get("rule"), a.get("what"), a.get("die")
    if rule == "objective-dice":
        said = say("{objective} (die {die})", objective=labels.get(str(what), str(what)), die=die)
    elif rule == "zone-dice":
        said = say("A zone held alone (die {die})", die=die)
    elif rule == "deal":
        said = say("Deal with {name}", name=what)
    elif rule == "destroyed":
        said = say("{unit} destroyed", unit=what)
    else:  # an objective held at the end of the turn: the rule is the objective's
        said = labels.get(str(rule), str(rule))
    return f"{said} {a['vp']:+d}"


def _history(
    loaded: Loaded, public: dict[str, Any], seat: int | None, names: list[str]
) -> list[dict[str, Any]]:
    """The entries in force as sentences, newest first, from the log as this seat may see them."""
    rules = loaded.pack.treachery
    in_force = set(loaded.state.effective)
    turns = {t["event"]: t for t in public["turns"]}
    cancelled = {pl["event"] for pl in public["plays"] if pl.get("cancelled_by")}
    labels = {o.id: o.label for o in loaded.state.scenario.objectives}
    purposes = {
        "order": say("turn order"),
        "ranking": say("ranking"),
        "deployment": say("deployment"),
        "other": say("other"),
    }

    def who(i: Any) -> str:
        return names[i] if isinstance(i, int) and 0 <= i < len(names) else "?"

    def ploy_name(ploy_id: Any) -> str:
        found = rules.ploy(ploy_id) if rules and isinstance(ploy_id, str) else None
        return found.name if found else str(ploy_id)

    out = []
    for e in visible_events(loaded.system, loaded.log, seat, loaded.state):
        if e.get("id") not in in_force:
            continue
        kind, vp, lines = e.get("type"), None, []
        player = e.get("player")
        if kind == "battle_round":
            text = say("Battle round {round} begins", round=e.get("round"))
            lines = [
                say(
                    "{objective}: D6 {die}, {position}",
                    objective=labels.get(str(a.get("objective")), a.get("objective")),
                    die=a.get("die"),
                    position=a.get("position"),
                )
                for a in e.get("arrivals", [])
            ]
        elif kind == "roll_off":
            rolls = ", ".join(f"{who(p)} {d}" for p, d in e.get("rolls", []))
            purpose = purposes.get(e.get("purpose"), e.get("purpose"))
            if e.get("next") is not None:
                text = say(
                    "Roll-off ({purpose}): {rolls}; {name} goes next",
                    purpose=purpose,
                    rolls=rolls,
                    name=who(e.get("next")),
                )
            else:
                text = say("Roll-off ({purpose}): {rolls}", purpose=purpose, rolls=rolls)
        elif kind == "deal":
            text = _deal_words(e, who, ploy_name)
            lines = [e["note"]] if e.get("note") else []
        elif kind in ("buy", "bonus_ploy", "discard"):
            text = _ploy_words(kind, e, who(player), ploy_name)
        elif kind == "enemy":
            phase = next(
                (ph["name"] for ph in public["phases"] if ph["id"] == e.get("phase")), e.get("phase")
            )
            text = say(
                "{name}, {phase} phase: enemy {enemy}",
                name=who(player),
                phase=phase,
                enemy=who(e.get("enemy")),
            )
        elif kind == "play":
            ploy = ploy_name(e.get("ploy"))
            if e.get("id") in cancelled:
                text = say("{name} played {ploy} (cancelled)", name=who(player), ploy=ploy)
            else:
                text = say("{name} played {ploy}", name=who(player), ploy=ploy)
        elif kind == "destroyed":
            text = say(
                "{name} destroyed {owner}'s {unit} ({points} pts)",
                name=who(e.get("by")),
                owner=who(e.get("owner")),
                unit=e.get("unit"),
                points=e.get("points"),
            )
            vp = next((d["vp"] for d in public["destroyed"] if d["event"] == e.get("id")), None)
        elif kind == "contingents":
            text = say("{name}'s contingents are set", name=who(player))
        elif kind == "turn":
            turn = turns.get(e.get("id"), {})
            text = say("Round {round}: {name}'s turn", round=e.get("round"), name=who(player))
            vp = turn.get("vp")
            lines = [_award(a, labels) for a in turn.get("breakdown", [])]
        elif kind == "end":
            text = say("The battle ends")
        elif kind == "roll":
            dice = ", ".join(str(d) for d in e.get("results", []))
            text = (
                say("Dice: {dice} ({purpose})", dice=dice, purpose=e["purpose"])
                if e.get("purpose")
                else say("Dice: {dice}", dice=dice)
            )
        else:
            continue
        out.append({"event": e.get("id"), "type": kind, "text": text, "vp": vp, "lines": lines})
    out.reverse()
    return out


def _deal_words(e: dict[str, Any], who: Callable[[Any], str], ploy_name: Callable[[Any], str]) -> str:
    """A deal as this screen may see it: which ploy only on the giver's and receiver's."""
    gives = [
        say("{cp} CP", cp=e["cp"]) if e.get("cp") else "",
        say("{vp} VP", vp=e["vp"]) if e.get("vp") else "",
    ]
    if e.get("ploy"):  # the giver's and the receiver's own screens
        gives.append(ploy_name(e["ploy"]))
    elif e.get("hidden"):
        gives.append(say("a ploy"))
    given = [g for g in gives if g]
    things = (
        given[0] if len(given) == 1 else say("{some} and {last}", some=", ".join(given[:-1]), last=given[-1])
    )
    blanks = {"name": who(e.get("from")), "to": who(e.get("to")), "given": things if given else ""}
    if e.get("ploy"):
        return say("Deal: {name} gives {to} {given} (only the two of you see which ploy)", **blanks)
    return say("Deal: {name} gives {to} {given}", **blanks)


def _ploy_words(kind: str, e: dict[str, Any], name: str, ploy_name: Callable[[Any], str]) -> str:
    """A ploy bought, discarded or gained: which, only on the holder's own screen."""
    if "ploy" in e:  # this seat's own secret
        ploy = ploy_name(e["ploy"])
        if kind == "bonus_ploy":
            return say(
                "{name} gained a bonus ploy (rolled {roll}): {ploy} (only you see which)",
                name=name,
                roll=e.get("roll"),
                ploy=ploy,
            )
        if kind == "buy":
            return say("{name} bought {ploy} (only you see which)", name=name, ploy=ploy)
        return say("{name} discarded {ploy} (only you see which)", name=name, ploy=ploy)
    if kind == "bonus_ploy":
        return say("{name} gained a bonus ploy (rolled {roll})", name=name, roll=e.get("roll"))
    if kind == "buy":
        return say("{name} bought a ploy", name=name)
    return say("{name} discarded a ploy", name=name)


SYSTEM = register(TreacheryWeb("treachery"))
