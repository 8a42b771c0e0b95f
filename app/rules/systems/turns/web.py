"""Player turns on screen and paper: round, turn, end-of-battle and claim forms.

The web side of the ``turns`` package, beside its screens (``templates/``) and its sheet
(``pdf/sheet.html``); the rules modules beside it never import it (only app/web/systems does).
"""

from __future__ import annotations

from typing import Any

from werkzeug.datastructures import MultiDict

from app.rules.problems import field_name
from app.rules.speech import say
from app.rules.systems.turns import scoring
from app.services.games import Loaded
from app.web.forms import number, numbers_named
from app.web.systems import WebSide, register


class TurnsWeb(WebSide):
    def view(self, loaded: Loaded, draft: MultiDict[str, str], seat: int | None = None) -> dict[str, Any]:
        state = loaded.state
        current = state.current_round
        last_turn = state.turns[-1] if state.turns else None
        facts = loaded.system.facts(loaded.pack, state.scenario)
        return {
            "round": current,
            "round_started": current in state.rounds,
            "next_players": state.next_players(),
            "in_play": state.in_play(min(current, state.scenario.battle_rounds)),
            "last_control": last_turn.control if last_turn else {},
            "turn_facts": [f for f in facts if f.event == "turn"],
            "round_facts": [f for f in facts if f.event == "battle_round"],
            # Which objectives a fact may name, asked of the block that declares it.
            "fact_choices": lambda fact, round_, who: scoring.fact_choices(state, fact, round_, who),
            "claim_flags": scoring.claim_flags(state),
            # Claim blocks from the round in play (or the next to start) to the last.
            "claim_from": state.round_in_play or min(current, state.scenario.battle_rounds),
        }

    def form_event(self, loaded: Loaded, form: MultiDict[str, str], event: dict[str, Any]) -> str | None:
        kind = event["type"]
        if kind == "end":
            event["player"] = number(form.get("player"))
            value = form.get("grand_strategy_completed")
            if value not in ("true", "false"):
                return say("grand_strategy_completed: choose completed or not completed.")
            event["grand_strategy_completed"] = value == "true"
            return None
        if kind == "claim":
            event.update(
                round=number(form.get("round")), player=number(form.get("player")), rule=form.get("rule", "")
            )
            return None
        if kind not in ("turn", "battle_round"):
            types = ", ".join([*loaded.system.event_types, "undo"])
            return say("type must be one of {types}.", types=types)
        event["round"] = number(form.get("round"))
        if kind == "turn":
            event["player"] = number(form.get("player"))
            event["control"] = numbers_named(form, "control")
            event["tactic"] = form.get("tactic") or None
        for spec in loaded.system.facts(loaded.pack, loaded.state.scenario):
            if spec.event != kind or spec.name in ("control", "tactic"):
                continue
            problem = _fact(spec, form, event)
            if problem:
                return problem
        return None


def _fact(spec: Any, form: MultiDict[str, str], event: dict[str, Any]) -> str | None:
    """Read one declared fact from the form by its kind."""
    if spec.kind == "flag":
        event[spec.name] = form.get(spec.name) in ("on", "true", "1")
    elif spec.kind in ("count", "player"):
        raw = form.get(spec.name)
        value = number(raw)
        if raw and raw.strip() and value is None:
            return say("{field} must be a whole number.", field=spec.name)
        if value is not None or spec.kind == "count":
            event[spec.name] = (value or 0) if spec.kind == "count" else value
    elif spec.kind == "objective":
        event[spec.name] = form.get(spec.name) or None
    elif spec.kind == "objectives":
        event[spec.name] = form.getlist(spec.name)
    elif spec.kind == "placements":
        placed = []
        for key, value in form.items():
            if key.startswith("placed.") and value.strip():
                roll = number(value)
                if roll is None:
                    return say(
                        "placed: the 2D6 roll for {objective} must be a number.",
                        objective=field_name(key.removeprefix("placed.")),
                    )
                placed.append({"objective": key.removeprefix("placed."), "roll": roll})
        if placed:
            event["placed"] = placed
    return None


SYSTEM = register(TurnsWeb("turns"))
