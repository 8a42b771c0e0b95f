"""Victory Phases on screen and paper: the tappable map, each player's part, the round sheet.

The web side of the ``rounds`` package, beside its screens (``templates/``) and its sheet
(``pdf/sheet.html``); the rules modules beside it never import it (only app/web/systems does).
"""

from __future__ import annotations

from typing import Any

from werkzeug.datastructures import MultiDict

from app.rules import grid
from app.rules.pack import Pack, Scenario
from app.rules.problems import field_name
from app.rules.speech import say
from app.rules.systems.rounds import scoring
from app.services.games import Loaded
from app.web.forms import number, numbers_named
from app.web.systems import WebSide, register


class RoundsWeb(WebSide):
    draws_maps = True

    def view(self, loaded: Loaded, draft: MultiDict[str, str], seat: int | None = None) -> dict[str, Any]:
        state = loaded.state
        names = [pl.name for pl in state.setup.players]
        shown = scoring.map_state(state)
        if draft:
            # A refused Victory Phase shows the map as the player had tapped it.
            for key, value in draft.items():
                if key.startswith("control.") and value != "":
                    shown.holders[key.removeprefix("control.")] = number(value)
        facts = {f.name for f in loaded.system.facts(loaded.pack, state.scenario)}
        # What a Victory Phase may record (who seized what, the markers each player may attack,
        # who slew a Character Regiment already) is the engine's answer: ``may``, on every page.
        return {
            "round": state.current_round,
            "names": names,
            "map_svg": grid.svg(state.scenario, loaded.pack.sides, names, shown, interactive=True),
            "facts": facts,
            "reinforcements": state.reinforcements(state.current_round),
        }

    def form_event(self, loaded: Loaded, form: MultiDict[str, str], event: dict[str, Any]) -> str | None:
        """A Victory Phase from the form: control per zone or point, then each player's part."""
        if event["type"] != "round":
            types = ", ".join([*loaded.system.event_types, "undo"])
            return say("type must be one of {types}.", types=types)
        event["round"] = number(form.get("round"))
        event["control"] = numbers_named(form, "control")
        players = []
        for i in range(len(loaded.setup.players)):
            prefix = f"p{i}."
            part: dict[str, Any] = {
                "markers_destroyed": form.getlist(prefix + "markers_destroyed"),
                "character_slain": form.get(prefix + "character_slain") in ("on", "true", "1"),
                "wiped_out": form.get(prefix + "wiped_out") in ("on", "true", "1"),
            }
            wounds = {}
            for key, value in form.items():
                if key.startswith(prefix + "wounds.") and value.strip():
                    n = number(value)
                    if n is None:
                        top = scoring.marker_wounds(loaded.pack)
                        return say(
                            "{field}: wounds must be a whole number from 0 to {top}.",
                            field=field_name(key),
                            top=top,
                        )
                    if n:
                        wounds[key.removeprefix(prefix + "wounds.")] = n
            part["marker_wounds"] = wounds
            for name in ("regiments_destroyed", "officers_slain"):
                raw = form.get(prefix + name, "").strip()
                if raw:
                    n = number(raw)
                    if n is None:
                        return say("{field} must be a whole number, 0 or more.", field=prefix + name)
                    part[name] = n
            players.append(part)
        event["players"] = players
        return None

    def sheet(
        self, pack: Pack, scenario: Scenario, loaded: Loaded | None, count: int | None = None
    ) -> dict[str, Any]:
        game = loaded.state if loaded else None
        names = [pl.name for pl in game.setup.players] if game else None
        state = scoring.map_state(game) if game else None
        return {"map_svg": grid.svg(scenario, pack.sides, names, state)}


SYSTEM = register(RoundsWeb("rounds"))
