"""The duel's web side: a bout's form read into the event the API takes; its screen and sheet
are this folder's ``templates/_game.html`` and ``pdf/sheet.html``."""

from __future__ import annotations

from typing import Any

from werkzeug.datastructures import MultiDict

from app.services.games import Loaded
from app.web.forms import number
from app.web.systems import WebSide, register


class DuelWeb(WebSide):
    def view(self, loaded: Loaded, draft: MultiDict[str, str], seat: int | None = None) -> dict[str, Any]:
        return {}

    def form_event(self, loaded: Loaded, form: MultiDict[str, str], event: dict[str, Any]) -> str | None:
        """A bout from the form: its round and its winner (the button pressed)."""
        if event["type"] != "bout":
            return "type must be one of bout, concede, undo."
        event["round"] = number(form.get("round"))
        event["player"] = number(form.get("winner"))
        return None


SYSTEM = register(DuelWeb("duel"))
