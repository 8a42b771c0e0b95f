"""Commands of `python -m app` run in English in tests, whatever language the contributor's
terminal speaks (the console follows LANG and its kin: app/console_language.py)."""

from __future__ import annotations

from collections.abc import Mapping

from app.console_language import VARIABLES


def english(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` with the console's language set to English: ``LANG=C.UTF-8``, and none of the
    variables that would outrank it."""
    pinned = {key: value for key, value in env.items() if key not in VARIABLES}
    pinned["LANG"] = "C.UTF-8"
    return pinned
