"""The facts a player records: their name, the event that carries them, and their kind.

Templates and forms dispatch on a fact's kind only; its name, label, hint and choices come
from the pack and the scoring block that declares it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class FactSpec:
    """A fact a player records, for the API description and the screens."""

    name: str
    event: str  # "turn" | "battle_round" | "end"
    kind: str  # "flag" | "count" | "objective" | "objectives" | "tactic" | "control" | "placements"
    label: str
    required: bool = False
    max: int | None = None
    from_round: int | None = None
    # The last round it is asked in (Seismic Shift's one round), a line of help under it,
    # what an objective choice says when nothing is chosen, and the scoring block asking it.
    until_round: int | None = None
    hint: str | None = None
    none_label: str | None = None
    block: str | None = None

    def applies(self, round_: int) -> bool:
        """Whether the fact is asked in that round."""
        return (self.from_round is None or round_ >= self.from_round) and (
            self.until_round is None or round_ <= self.until_round
        )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "label": self.label}
        if self.required:
            out["required"] = True
        if self.max is not None:
            out["max"] = self.max
        if self.from_round is not None:
            out["from_round"] = self.from_round
        if self.until_round is not None:
            out["until_round"] = self.until_round
        if self.hint:
            out["hint"] = self.hint
        return out
