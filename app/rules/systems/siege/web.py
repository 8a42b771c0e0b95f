"""Sieges on screen and paper: the siege phase's forms, the battle, the relief force, the card.

A siege tactic is picked on its player's own seat (the server takes it only with that seat's
token); every other screen sees only that it was picked until both are in. Everything shown
comes from the engine's summary for this screen's seat.

The web side of the ``siege`` package, beside its screens (``templates/``) and its sheet
(``pdf/sheet.html``); the rules modules beside it never import it (only app/web/systems does).
"""

from __future__ import annotations

from typing import Any

from werkzeug.datastructures import MultiDict

from app.rules.army import RosterUnit
from app.rules.pack import Pack, Scenario
from app.rules.speech import say
from app.rules.systems.siege import engine
from app.services.games import Loaded, summary
from app.web.forms import number
from app.web.services import games_service
from app.web.systems import WebSide, register

# Rows the batter and starve forms offer (blank rows are left out of the event).
FEATURE_ROWS = 8
UNIT_ROWS = 12


def _units(raw: str) -> list[str] | int:
    """A contingent typed as a count, or as units' names separated by commas."""
    text = raw.strip()
    if text.isdigit():
        return int(text)
    return [part.strip() for part in text.split(",") if part.strip()]


def army_units(loaded: Loaded, player: int) -> list[RosterUnit] | None:
    """The units of a player's attached roster, or ``None`` when none is attached."""
    attached = loaded.armies.get(player)
    return attached.get("roster_units") if attached else None


def _split(form: MultiDict[str, str]) -> tuple[list[str], list[str]]:
    """The contingents picked unit by unit from the roster: each row's name and its side."""
    garrison: list[str] = []
    relief: list[str] = []
    for key in sorted((k for k in form if k.startswith("unit.")), key=lambda k: number(k[5:]) or 0):
        part = form.get(f"part.{key[5:]}", "")
        name = form.get(key, "").strip()
        if name and part in ("garrison", "relief"):
            (garrison if part == "garrison" else relief).append(name)
    return garrison, relief


def _objective_choices(loaded: Loaded) -> dict[str, Any]:
    """The fortress features of the game's terrain set still free for an objective (none when
    the set has no fortress: the form asks for a name), and every piece's name by its id."""
    pieces = games_service().terrain_pieces(loaded.row)
    return {
        "fortress_free": [p.name for p in engine.free_features(loaded.state, pieces)],
        "feature_names": {p.uid: p.name for p in pieces if p.uid},
    }


def _party_choices(loaded: Loaded) -> dict[str, Any] | None:
    """What of the attacker's attached roster may go through a completed tunnel (``None``
    without a roster: the form asks for names)."""
    units = army_units(loaded, loaded.state.attacker)
    rules = loaded.pack.siege
    return engine.roster_party(rules, units) if units and rules else None


class SiegeWeb(WebSide):
    def view(self, loaded: Loaded, draft: MultiDict[str, str], seat: int | None = None) -> dict[str, Any]:
        g = loaded.state
        s = summary(loaded, seat)
        rules = loaded.pack.siege
        # What may be recorded now from this screen, and why not the rest, is the engine's
        # answer: ``may``, which every game's page has.
        return {
            "s": s,
            "names": [p.name for p in g.setup.players],
            "stage": g.stage,
            "round": g.current_round,
            "shown_round": min(g.current_round, g.battle_rounds),
            "next_players": g.next_players(),
            "round_started": g.current_round in g.rounds,
            "seat_side": g.side(seat) if seat is not None else None,
            "tactic_choices": {
                side: [rules.tactic(d) for d in rules.dice(side)] for side in ("attacker", "defender")
            }
            if rules
            else {},
            "feature_rows": FEATURE_ROWS,
            "unit_rows": UNIT_ROWS,
            "defender_units": army_units(loaded, g.defender),
            **_objective_choices(loaded),
            "party_choices": _party_choices(loaded),
            # The result's reason in the reader's language (the state keeps it in English).
            "reason": engine.reason(g),
        }

    def form_event(self, loaded: Loaded, form: MultiDict[str, str], event: dict[str, Any]) -> str | None:
        """Each form of the siege screens as the event the JSON API takes."""
        kind = event["type"]
        if kind not in loaded.system.event_types:
            return say("type must be one of {types}.", types=", ".join([*loaded.system.event_types, "undo"]))
        if kind == "siege_tactic":
            event.update(player=number(form.get("player")), tactic=number(form.get("tactic")))
        elif kind == "repick":
            event["player"] = number(form.get("player"))
        elif kind == "contingents":
            if any(k.startswith("unit.") for k in form):  # picked from the defender's roster
                garrison, relief = _split(form)
                event.update(garrison=garrison, relief=relief)
            else:
                event.update(garrison=_units(form.get("garrison", "")), relief=_units(form.get("relief", "")))
        elif kind == "batter":
            event["features"] = [
                {
                    "feature": form.get(f"feature.{i}", "").strip(),
                    "defensible": form.get(f"defensible.{i}") in ("on", "true"),
                    "die": number(form.get(f"die.{i}")),
                }
                for i in range(FEATURE_ROWS)
                if form.get(f"feature.{i}", "").strip() or form.get(f"die.{i}", "").strip()
            ]
        elif kind == "starve":
            units = []
            for i in range(UNIT_ROWS):
                if not (form.get(f"unit.{i}", "").strip() or form.get(f"die.{i}", "").strip()):
                    continue
                unit: dict[str, Any] = {
                    "unit": form.get(f"unit.{i}", "").strip(),
                    "hero": form.get(f"hero.{i}") in ("on", "true"),
                    "die": number(form.get(f"die.{i}")),
                }
                if form.get(f"wounds.{i}", "").strip():
                    unit["mortal_wounds"] = number(form.get(f"wounds.{i}"))
                units.append(unit)
            event["units"] = units
        elif kind == "tunnel":
            event["dice"] = [number(form.get("attacker_die")), number(form.get("defender_die"))]
        elif kind == "tunnel_party":
            if any(k.startswith("send.") for k in form):  # picked from the attacker's roster
                event["units"] = [
                    {
                        "name": form.get(f"unit.{key[5:]}", "").strip(),
                        "keywords": [w for w in form.get(f"keywords.{key[5:]}", "").split(",") if w.strip()],
                    }
                    for key in sorted(
                        (k for k in form if k.startswith("send.")), key=lambda k: number(k[5:]) or 0
                    )
                    if form.get(key) in ("on", "true")
                ]
            else:
                event["units"] = [
                    {"name": name.strip(), "keywords": ["HERO"] if i == 0 else []}
                    for i, name in enumerate([form.get("hero", ""), *form.get("others", "").split(",")])
                    if name.strip()
                ]
        elif kind in ("battle_round", "turn"):
            event["round"] = number(form.get("round"))
            key = "first" if kind == "battle_round" else "player"
            event[key] = number(form.get(key))
        elif kind == "relief_roll":
            event.update(
                round=number(form.get("round")), dice=[number(form.get("die.0")), number(form.get("die.1"))]
            )
        elif kind == "objective":
            event.update(player=number(form.get("player")), feature=form.get("feature", "").strip())
        elif kind == "relief_edge":
            event["die"] = number(form.get("die"))
        elif kind == "end":
            event["attacker_objectives"] = number(form.get("attacker_objectives"))
        return None

    def sheet(
        self, pack: Pack, scenario: Scenario, loaded: Loaded | None, count: int | None = None
    ) -> dict[str, Any]:
        names = _objective_choices(loaded)["feature_names"] if loaded else {}
        return {
            "siege_rules": pack.siege,
            "feature_rows": FEATURE_ROWS,
            "unit_rows": UNIT_ROWS,
            "feature_names": names,
        }


SYSTEM = register(SiegeWeb("siege"))
