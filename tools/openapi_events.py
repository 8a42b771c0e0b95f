"""Write the event schemas of docs/openapi.yaml from the game systems' event models.

Every game system describes its events as pydantic models (``app/rules/event_models.py`` and
each system's ``event_models.py``); the server checks events with them, and this tool writes
the same models into the description, between two marker lines, so the two never disagree.
Each system's events become one union (``TurnsEvents``, ``SiegeEvents``...; one schema per
event type, told apart by ``type``), ``GameEvent`` is any system's event, and
``LoggedEvent``'s types are every type there is. A clock tap (``ClockTap``) is written alike. The output depends only on the models.

    python tools/openapi_events.py          # rewrite docs/openapi.yaml's event schemas
    python tools/openapi_events.py --check  # exit 1 if they are stale

tests/web/test_openapi.py fails while the file is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.rules import systems  # noqa: E402 (the checkout's app, wherever this runs from)
from app.rules.clock import ClockTap  # noqa: E402
from app.rules.event_models import REF, SAYS, UndoEvent  # noqa: E402

SPEC = ROOT / "docs" / "openapi.yaml"
BEGIN = "    # --- events: written by tools/openapi_events.py from the event models; do not edit ---"
END = "    # --- end of the events written by tools/openapi_events.py ---"
INDENT = "    "


def union_name(name: str) -> str:
    """The schema of one system's events: ``TurnsEvents``, ``SiegeEvents``..."""
    return f"{name.title()}Events"


def _models(system: Any) -> list[type[BaseModel]]:
    """The system's models in its own order (a model of two types once), then undo."""
    return [*dict.fromkeys(system.events.models.values()), UndoEvent]


def _tidy(node: Any) -> Any:
    """The schema as the description writes it: without pydantic's titles (a field's name is
    its key) or the refusals' words, and a value that may be null as one schema of both types
    (``type: [integer, "null"]``), which is where the fuzz test looks for its ids."""
    if isinstance(node, list):
        return [_tidy(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {k: _tidy(v) for k, v in node.items() if k != SAYS and (k != "title" or not isinstance(v, str))}
    parts = out.get("anyOf", [])
    values = [p for p in parts if p != {"type": "null"}]
    if len(parts) == 2 and len(values) == 1 and isinstance(values[0].get("type"), str):
        rest = {k: v for k, v in out.items() if k != "anyOf"}
        out = {**values[0], "type": [values[0]["type"], "null"], **rest}
    return out


def schemas() -> dict[str, Any]:
    """Every event schema, each system's union, ``GameEvent`` and ``LoggedEvent``."""
    found = [systems.REGISTRY[name] for name in systems.names()]
    # The clock's taps are not a game's events, but their model is checked and written alike.
    models = [*dict.fromkeys(m for system in found for m in _models(system)), ClockTap]
    _, defs = models_json_schema([(m, "validation") for m in models], ref_template=REF)
    out: dict[str, Any] = {name: _tidy(schema) for name, schema in defs["$defs"].items()}
    for system in found:
        refs = {m.__name__: f"#/components/schemas/{m.__name__}" for m in _models(system)}
        mapping = {kind: refs[model.__name__] for kind, model in system.events.models.items()}
        mapping["undo"] = refs["UndoEvent"]
        out[union_name(system.name)] = {
            "description": f"An event of a game the {system.name} system plays; `type` says which.",
            "oneOf": [{"$ref": ref} for ref in refs.values()],
            "discriminator": {"propertyName": "type", "mapping": mapping},
        }
    out["GameEvent"] = {
        "description": "An event of any game: its game's system says which types it takes (docs/api.md).",
        "anyOf": [{"$ref": f"#/components/schemas/{union_name(s.name)}"} for s in found],
    }
    kinds = sorted({kind for s in found for kind in s.events.models} | {"undo"})
    out["LoggedEvent"] = {
        "type": "object",
        "description": "An event as it was sent (see GameEvent), plus the time it was recorded.",
        "required": ["id", "type"],
        "properties": {
            "id": {"type": "string"},
            "type": {"type": "string", "enum": kinds},
            "recorded": {"type": "string"},
        },
    }
    return out


def block() -> str:
    """The lines between (and with) the markers, as docs/openapi.yaml holds them."""
    text = yaml.safe_dump(schemas(), sort_keys=False, width=100, allow_unicode=True, default_flow_style=None)
    body = "".join(f"{INDENT}{line}\n" if line else "\n" for line in text.splitlines())
    return f"{BEGIN}\n{body}{END}\n"


def written(spec: str) -> str:
    """``spec`` (docs/openapi.yaml's text) with its event schemas as the models say."""
    start = spec.index(BEGIN)
    end = spec.index(END, start) + len(END) + 1
    return spec[:start] + block() + spec[end:]


def main(argv: list[str]) -> int:
    text = SPEC.read_text()
    fresh = written(text)
    if "--check" in argv:
        if fresh != text:
            print("docs/openapi.yaml's event schemas are stale: run python tools/openapi_events.py")
            return 1
        return 0
    SPEC.write_text(fresh)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
