"""Values a worker works out once and keeps for its later requests (a signature checked, a
token signed), in the app, up to a bound.

Past the bound every value is let go at once: each is cheap to make again, and a plain dict
read without a lock stays safe with any number of request threads (two threads letting go at
the same moment only make a little work twice).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

from flask import current_app

T = TypeVar("T")


def remembered(name: str, key: Hashable, make: Callable[[], T], most: int) -> T:
    """``make()``'s value for ``key``, made once per worker and kept under ``name`` in the
    current app; at most ``most`` values are kept. An exception from ``make`` keeps nothing."""
    kept: dict[Hashable, T] = current_app.extensions.setdefault(name, {})
    found = kept.get(key)
    if found is None:
        if len(kept) >= most:
            kept.clear()
        found = kept[key] = make()
    return found
