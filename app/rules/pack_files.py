"""A rulepack or unit catalogue file read safely, and the one shape of what is wrong with one.

Both files are YAML an admin may upload: they are read with a safe loader, refused when too
large or when their aliases would expand past :data:`MAX_NODES` items, and each problem names
the file and the path inside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from app.rules.problems import Problem

MAX_NODES = 200_000


@dataclass(frozen=True)
class PackError(Problem):
    """One problem with one pack file; ``where`` is ``(file, path inside it)``."""

    @classmethod
    def at(cls, file: str, path: str, message: str) -> PackError:
        return cls("pack", message, (file, path))

    @property
    def file(self) -> str:
        return str(self.where[0])

    @property
    def path(self) -> str:
        return str(self.where[1])

    def __str__(self) -> str:
        where = f"{self.file}: {self.path}" if self.path else self.file
        return f"{where}: {self.message}"


# libyaml's safe loader is five to ten times faster than the pure-Python one, and as safe.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _expanded_size(node: yaml.Node, memo: dict[int, int]) -> int:
    """How many items the node holds once every alias is expanded (shared nodes counted each time)."""
    key = id(node)
    if key in memo:
        return memo[key]
    memo[key] = 1  # a cycle (not valid in a pack) counts once instead of forever
    size = 1
    if isinstance(node, yaml.SequenceNode):
        size += sum(_expanded_size(child, memo) for child in node.value)
    elif isinstance(node, yaml.MappingNode):
        size += sum(_expanded_size(k, memo) + _expanded_size(v, memo) for k, v in node.value)
    memo[key] = min(size, MAX_NODES + 1)
    return memo[key]


def read_yaml(text: str, file: str, max_bytes: int) -> tuple[Any, list[PackError]]:
    """Read a YAML file safely: its data, or one problem (too large, aliases, not YAML)."""
    if len(text.encode()) > max_bytes:
        return None, [PackError.at(file, "", f"is larger than {max_bytes // 1024} KB")]
    loader = None
    try:
        loader = _SAFE_LOADER(text)  # a safe loader, libyaml's when present
        # The document is measured as aliases would expand it before anything is built: a
        # few hundred bytes of nested aliases ("billion laughs") expand into billions of items.
        # The measured nodes are then built (as yaml.load would), not read a second time.
        root = loader.get_single_node()
        if root is None:
            return None, []
        if _expanded_size(root, {}) > MAX_NODES:
            return None, [
                PackError.at(file, "", f"expands to more than {MAX_NODES} YAML items through its aliases")
            ]
        return loader.construct_document(root), []
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        return None, [PackError.at(file, where, f"is not valid YAML: {problem}")]
    finally:
        if loader is not None:
            loader.dispose()
