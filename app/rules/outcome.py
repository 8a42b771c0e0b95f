"""What a game gives: VP awarded by one rule, and the result at the end."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Award:
    """VP given by one rule."""

    rule: str
    vp: int

    def as_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "vp": self.vp}


@dataclass(frozen=True)
class Result:
    kind: str  # "major" | "minor" | "draw"
    winner: int | None
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "winner": self.winner, "reason": self.reason}
