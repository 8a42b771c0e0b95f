"""Tunnel Wars on screen and paper: the secret contingent picks, each battle, the series sheet.

A contingent is picked on its player's own seat; every other screen sees only that it was
picked until both picks of the battle are in. Everything shown comes from the engine's
summary for this screen's seat.
"""

from __future__ import annotations

from typing import Any

from werkzeug.datastructures import MultiDict

from app.games import Loaded, summary
from app.rules.pack import Pack, Scenario
from app.web.forms import number
from app.web.systems import WebSide, register
from app.web.systems.siege import can_undo


class TunnelsWeb(WebSide):
    def view(self, loaded: Loaded, draft: MultiDict[str, str], seat: int | None = None) -> dict[str, Any]:
        g = loaded.state
        s = summary(loaded, seat)
        battle = g.current_battle
        return {
            "s": s,
            "names": [p.name for p in g.setup.players],
            "battle": battle,
            "started": not g.finished and g.revealed(battle),
            "my_pick": seat is not None and seat in g.picks_in(battle),
            "free": sorted(set(range(1, g.contingent_count + 1)) - set(g.used(seat)))
            if seat is not None
            else [],
            "next_round": len(g.rounds_in(battle)) + 1,
            "can_undo": can_undo(loaded, seat),
        }

    def form_event(self, loaded: Loaded, form: MultiDict[str, str], event: dict[str, Any]) -> str | None:
        """Each form of the Tunnel Wars screens as the event the JSON API takes."""
        kind = event["type"]
        if kind not in loaded.system.event_types:
            return f"type must be one of {', '.join([*loaded.system.event_types, 'undo'])}."
        event["battle"] = number(form.get("battle"))
        if kind == "contingent":
            event.update(player=number(form.get("player")), contingent=number(form.get("contingent")))
            if form.get("general", "").strip():
                event["general"] = form.get("general", "").strip()
        elif kind == "battle_round":
            event.update(round=number(form.get("round")), first=number(form.get("first")))
        elif kind == "denizen":
            event.update(
                round=number(form.get("round")), dice=[[number(form.get("die.0")), number(form.get("die.1"))]]
            )
        elif kind in ("denizen_attack", "tame"):
            event.update(round=number(form.get("round")), player=number(form.get("player")))
        elif kind == "battle_result":
            raw = form.get("winner", "")
            event["winner"] = None if raw in ("", "none") else number(raw)
        else:
            return f"type: {kind} is recorded through the API (docs/api.md) on this screen."
        return None

    def sheet(
        self, pack: Pack, scenario: Scenario, loaded: Loaded | None, count: int | None = None
    ) -> dict[str, Any]:
        return {"battles": scenario.battles or 3}


SYSTEM = register(TunnelsWeb("tunnels"))
