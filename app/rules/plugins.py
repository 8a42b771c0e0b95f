"""A registry of plug-ins of one sort (army rules, terrain rules), keyed by the name a pack gives.

A pack section names its plug-in (``army: {system: conquest-first-blood, ...}``); the plug-in,
one module of its package that registers itself, reads the rest of the section with its own
model. Nothing lists the plug-ins: the package imports each of its modules when it loads.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from typing import Any, Generic, Protocol, TypeVar


class Plugin(Protocol):
    """What the registry needs of a plug-in: the name packs give it and its section's model."""

    @property
    def kind(self) -> str: ...

    @property
    def section(self) -> Any: ...


P = TypeVar("P", bound=Plugin)


class Registry(Generic[P]):
    """The plug-ins of one sort; ``noun`` names them in a pack author's error ("army rules")."""

    def __init__(self, noun: str) -> None:
        self.noun = noun
        self.found: dict[str, P] = {}

    def register(self, plugin: P) -> P:
        """Add a plug-in under its kind."""
        self.found[plugin.kind] = plugin
        return plugin

    def kinds(self) -> list[str]:
        """The kinds a pack may name."""
        return sorted(self.found)

    def get(self, kind: str) -> P:
        """The plug-in of that kind (a loaded pack names only registered kinds)."""
        return self.found[kind]

    def parse_section(self, data: Any) -> Any:
        """A pack section read by the plug-in its ``system`` names (pydantic checks the rest)."""
        if not isinstance(data, dict):
            return data
        found = self.found.get(data.get("system"))  # type: ignore[arg-type]
        if found is None:
            raise ValueError(f"system must be one of the {self.noun}: {', '.join(self.kinds())}")
        return found.section.model_validate(data)

    @staticmethod
    def discover(package: str, path: Iterable[str]) -> None:
        """Import every module of a plug-in package: each registers itself."""
        for found in pkgutil.iter_modules(path):
            importlib.import_module(f"{package}.{found.name}")
