"""A pseudo-language for the tests: every string of the catalogues accented, 40% longer, bracketed.

German words are long and French sentences longer than English; a screen that holds the
pseudo-language at 390 px holds both. A string left out of the catalogues shows up as plain
English among the brackets. The pseudo-language goes by the code ``eo`` (a language Babel knows
and Muster does not ship), from a folder the test app names in ``TRANSLATION_FOLDERS``.
"""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

CODE = "eo"
TRANSLATIONS = Path(__file__).resolve().parent.parent / "app" / "translations"
_ACCENTED = str.maketrans(
    "AaCcDdEeGgHhIiJjKkLlNnOoRrSsTtUuWwYyZz",
    "ÅåÇçĐđÉéĜĝĤĥÎîĴĵĶķĽľÑñÖöŘřŠšŢţÜüŴŵÝýŽž",
)
# Left as they are: {blanks}, %(name)s and %s, HTML tags and entities.
_KEEP = re.compile(r"(\{[^{}]*\}|%\([^)]*\)[sdif]|%[sdif]|<[^>]*>|&[a-z]+;|&#\d+;)")
OPEN, CLOSE = "[", "]"


def pseudo(text: str) -> str:
    """``text`` accented and 40% longer, in brackets, with its blanks and markup untouched."""
    parts = _KEEP.split(text)
    said = "".join(p if i % 2 else p.translate(_ACCENTED) for i, p in enumerate(parts))
    letters = sum(len(p) for i, p in enumerate(parts) if not i % 2)
    pad = "·" * max(1, round(letters * 0.4))
    # Padded in words of four, as a long sentence would be: a line may break between them.
    return f"{OPEN}{said}{' '.join(pad[i : i + 4] for i in range(0, len(pad), 4))}{CLOSE}"


def build(folder: Path) -> Path:
    """Write the pseudo-language's compiled catalogues (both domains) under ``folder``."""
    for domain in ("messages", "scripts"):
        with (TRANSLATIONS / f"{domain}.pot").open("rb") as handle:
            template = read_po(handle)
        catalogue = Catalog(locale=CODE, domain=domain)
        for message in template:
            if not message.id:
                continue
            if isinstance(message.id, tuple):
                string = tuple(pseudo(form) for form in message.id)
            else:
                string = pseudo(message.id)
            catalogue.add(message.id, string, flags=message.flags - {"fuzzy"})
        out = folder / CODE / "LC_MESSAGES" / f"{domain}.mo"
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("wb") as handle:
            write_mo(handle, catalogue)
    return folder
