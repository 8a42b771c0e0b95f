"""Why a request is refused: one plain sentence, and whether it conflicts with what exists."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Refusal:
    """One plain sentence naming the field and what is allowed; ``conflict`` for taken ids."""

    message: str
    conflict: bool = False
