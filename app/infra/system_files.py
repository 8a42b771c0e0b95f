"""A game system's own files, in its package's folder: screens, print sheet and packs.

A system is one package (``app.rules.systems.turns``, or one living outside app/ that the
app's ``SYSTEMS`` names). Its package may carry ``templates/`` (its screens), ``pdf/`` (its
score sheet) and ``rulepacks/`` (its packs) beside its code. A template named
``systems/<name>/<file>`` is read from ``<package>/templates/<file>`` (a print from
``<package>/pdf/<file>``) when that file is there, else from the checkout's ``templates/`` or
``pdf/`` as before: a new system touches no folder but its own.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from jinja2 import BaseLoader, ChoiceLoader, Environment, FileSystemLoader, TemplateNotFound

from app.rules import systems


def package_folder(name: str) -> Path | None:
    """The folder of the package the game system ``name`` registered from, if it has one."""
    package = systems.package_of(name)
    module = sys.modules.get(package) if package else None
    paths = list(getattr(module, "__path__", []) or [])
    return Path(paths[0]) if paths else None


def folders(kind: str) -> list[Path]:
    """Every system package's ``kind`` folder (``rulepacks``) that exists, built-in ones first."""
    found = []
    for name in systems.names():
        folder = package_folder(name)
        if folder is not None and (folder / kind).is_dir() and folder / kind not in found:
            found.append(folder / kind)
    return found


class SystemFolders(BaseLoader):
    """Jinja templates named ``systems/<name>/<file>``, read from that system's package folder
    ``kind`` (``templates`` or ``pdf``); any other name, or a file the package lacks, is not
    found here (a ``ChoiceLoader`` then asks the checkout's folder)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def get_source(
        self, environment: Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        head, _, rest = template.partition("/")
        name, _, file = rest.partition("/")
        folder = package_folder(name) if head == "systems" and name and file else None
        if folder is None or not (folder / self.kind).is_dir():
            raise TemplateNotFound(template)
        # FileSystemLoader keeps the name inside the folder (no "..") and watches the file.
        return FileSystemLoader(str(folder / self.kind)).get_source(environment, file)

    def list_templates(self) -> list[str]:
        found: list[str] = []
        for name in systems.names():
            folder = package_folder(name)
            if folder is not None and (folder / self.kind).is_dir():
                found += [
                    f"systems/{name}/{t}" for t in FileSystemLoader(str(folder / self.kind)).list_templates()
                ]
        return sorted(found)


def loader(kind: str, checkout: BaseLoader) -> ChoiceLoader:
    """The loader of a Jinja environment: a system package's own files first, then ``checkout``."""
    return ChoiceLoader([SystemFolders(kind), checkout])
