"""A request's JSON body, read once for the game API and the club events' API alike.

Refused with 400 and one sentence naming where when it is not JSON Muster can take: not
JSON at all, nested deeper than any body Muster sends, or holding half a character.
"""

from __future__ import annotations

from typing import Any

from flask import abort, request

from app.rules.problems import field_name
from app.rules.speech import say

# Muster's own bodies nest a handful of levels; deeper is not a body Muster sent.
MAX_DEPTH = 64


def _too_deep() -> str:
    return say("The body nests more than {most} levels deep; JSON here nests at most {most}.", most=MAX_DEPTH)


def read_json() -> Any:
    """The request's JSON body; 400 with one sentence when it is not JSON Muster can take."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        # The json module gives up on deep nesting with RecursionError, which is not a ValueError.
        abort(400, description=_too_deep())
    if data is None:
        abort(400, description=say("The body must be JSON (Content-Type: application/json)."))
    problem = _unreadable(data)
    if problem:
        abort(400, description=problem)
    return data


def json_field(name: str) -> Any:
    """One field of the request's JSON body (checked as ``read_json`` checks it); ``None`` when
    the body is not an object or has no such field."""
    data = read_json()
    return data.get(name) if isinstance(data, dict) else None


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _field(path: str, key: str) -> str:
    """A field's name as the refusals write it: players[0].name, control['north-west']."""
    if not path:
        return field_name(key)  # a key the client made up is named on one line, cut short
    return f"{path}.{key}" if key.isidentifier() else f"{path}[{key!r}]"


def _unreadable(data: Any) -> str | None:
    """Why parsed JSON cannot be taken, naming where, or ``None``.

    JSON may escape half a character ("\\ud800" without its pair): Python reads it, but such a
    string cannot be written to SQLite or to a page, so a stored one would break every screen
    that shows it. The walk is iterative so that depth is counted rather than recursed into.
    """
    stack: list[tuple[Any, str, int]] = [(data, "", 1)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            return _too_deep()
        if isinstance(value, str) and not _is_text(value):
            if not path:
                return say(
                    "The body holds half a character (a lone surrogate such as {example}): send whole characters.",
                    example="\\ud800",
                )
            return say(
                "{field} holds half a character (a lone surrogate such as {example}): send whole characters.",
                field=path,
                example="\\ud800",
            )
        if isinstance(value, dict):
            for key, item in value.items():
                if not _is_text(key):
                    if not path:
                        return say(
                            "A key of the body holds half a character (a lone surrogate such as {example}): send whole characters.",
                            example="\\ud800",
                        )
                    return say(
                        "A key of {field} holds half a character (a lone surrogate such as {example}): send whole characters.",
                        field=path,
                        example="\\ud800",
                    )
                stack.append((item, _field(path, key), depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value))
    return None
