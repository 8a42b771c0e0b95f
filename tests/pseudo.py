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
from bs4 import Comment, NavigableString, Tag

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


_BRACKETED = re.compile(r"\[[^\[\]]*\]")
_WORD = re.compile(r"[A-Za-z]{2,}")
_DAY = re.compile(r"\b\d{1,2} \w{3,}\.? \d{4}\b")
_ADDRESS = re.compile(r"https?://\S+")
_SPACES = re.compile(r"\s+")
# Elements that sit inside a sentence (a catalogue's sentence may hold them, a link or a name
# built in the template too): their text is read with the block around them.
INLINE = frozenset(
    [
        "a",
        "abbr",
        "b",
        "bdi",
        "bdo",
        "br",
        "cite",
        "code",
        "data",
        "dfn",
        "em",
        "i",
        "kbd",
        "mark",
        "q",
        "s",
        "samp",
        "small",
        "span",
        "strong",
        "sub",
        "sup",
        "time",
        "u",
        "var",
        "wbr",
    ]
)
# Not read: what no page shows as text, and a textarea's typed text.
UNREAD = "script, style, template, textarea"


def _block(node: NavigableString, top: Tag) -> Tag:
    """The element whose text ``node`` is part of: its nearest ancestor that is not inline."""
    parent = node.parent
    while parent is not None and parent is not top and parent.name in INLINE:
        parent = parent.parent
    return parent if parent is not None else top


def english_left(main: Tag, allowed: set[str], skip: str = "") -> list[str]:
    """Every block of a page's part (a parsed element: ``<main>``, a fragment) whose text still
    holds a word outside the brackets, less ``allowed`` (what the test typed, the names from the
    packs' books), addresses and dates. A block's text is read whole, so a sentence with
    ``<code>`` or ``<strong>`` inside is one sentence, not pieces. Comments, scripts and a
    textarea's typed text are not read, nor what ``skip`` selects (``"code, .map-wrap"``)."""
    unread = {id(t) for t in main.select(", ".join(filter(None, (UNREAD, skip))))}
    blocks: dict[int, tuple[Tag, list[str]]] = {}
    for node in main.find_all(string=True):
        if not isinstance(node, NavigableString) or isinstance(node, Comment):
            continue
        if any(id(p) in unread for p in node.parents):
            continue
        block = _block(node, main)
        blocks.setdefault(id(block), (block, []))[1].append(str(node))
    left = []
    for _block_tag, pieces in blocks.values():
        said = "".join(pieces)
        text = said
        for name in sorted(allowed, key=len, reverse=True):
            text = text.replace(name, "")
        while _BRACKETED.search(text):
            text = _BRACKETED.sub("", text)
        text = _DAY.sub("", _ADDRESS.sub("", text))  # a date the |day filter wrote, as the language writes it
        if _WORD.search(text):
            left.append(_SPACES.sub(" ", said).strip())
    return left
