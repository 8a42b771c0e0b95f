"""The suite's two tiers, in one place.

``make test`` runs every test, and the randomised or fault-injecting ones (each marked
``soak``) at a small size, so the whole suite stays within a few minutes on two cores.
``make soak`` runs only those, at full size; ``MUSTER_SOAK=1 make test`` runs everything at
full size. Each soak test prints the seed (or the size) it ran with, to be replayed.
"""

from __future__ import annotations

import os
from typing import TypeVar

T = TypeVar("T")

SOAK = os.environ.get("MUSTER_SOAK", "") not in ("", "0")


def size(small: T, full: T) -> T:
    """The small size under ``make test``, the full one under ``MUSTER_SOAK=1``."""
    return full if SOAK else small
