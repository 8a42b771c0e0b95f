"""Page and print templates compiled once and kept on disk, for the next start of the server.

`serve` compiles every template before its workers fork (a second and a half here, several on
a Pi); kept in the instance folder, the compiled code lets the next start skip that. Jinja
checks each kept entry against its template's source, so an edited template is compiled anew;
the folder's name changes with Muster's code and the versions of Python and the template
packages, so code that sets the templates up differently never meets entries made before.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import os
import shutil
import sys
from pathlib import Path

from jinja2 import FileSystemBytecodeCache
from jinja2.bccache import Bucket

APP = Path(__file__).resolve().parent.parent
FOLDER = "compiled-templates"
# What the compiled code depends on besides the templates themselves.
PACKAGES = ("jinja2", "flask", "flask-babel", "markupsafe")


class KeptTemplates(FileSystemBytecodeCache):
    """Jinja's cache in a folder, which never stops a start: an entry it cannot write is skipped."""

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


def _fingerprint() -> str:
    """A digest of Muster's code and of the versions the compiled templates depend on."""
    digest = hashlib.sha256(sys.version.encode())
    for package in PACKAGES:
        try:
            digest.update(f"{package} {importlib.metadata.version(package)}".encode())
        except importlib.metadata.PackageNotFoundError:
            digest.update(package.encode())
    for path in sorted(APP.rglob("*.py")):
        digest.update(str(path.relative_to(APP)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache(instance: Path, kind: str) -> KeptTemplates | None:
    """Where the ``kind`` of templates ("pages", "print") keep their compiled code, or ``None``
    (compile in memory, as without it) when the instance folder cannot be written.

    Folders made for other code are removed: only the running code's entries are of use."""
    root = instance / FOLDER
    current = root / _fingerprint()
    folder = current / kind
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK):
        return None
    for old in root.iterdir():
        if old != current:
            shutil.rmtree(old, ignore_errors=True)
    return KeptTemplates(str(folder))
