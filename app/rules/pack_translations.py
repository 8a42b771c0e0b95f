"""A pack's own words in other languages: its translation files, read and checked against it.

A pack's summaries, readings, reminders and hints (its fields typed ``Prose``,
app/rules/pack_base.py) are Muster's own words; names from the books stay as the pack gives
them. A translation file sits in ``translations/`` beside the packs, one a pack and language,
``<pack id>.<language>.yaml``, and lists each text as the pack writes it in English with its
translation::

    texts:
      - en: Who is the attacker?
        de: Wer ist der Angreifer?

Keyed by the English text, a translation never describes an older rule: a text the pack no
longer has is refused (the pack's other texts keep theirs) and the changed text is said in
English until it is translated again. docs/rulepacks.md says how to write one.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Annotated, Any, get_args, get_origin

from pydantic import BaseModel

from app.rules import systems
from app.rules.pack_base import OWN_WORDS
from app.rules.pack_files import PackError, read_yaml

#: The folder, beside the packs, that holds their translation files.
FOLDER = "translations"
#: A translation file is no larger than a pack may be (app/rules/pack.py's MAX_PACK_BYTES).
MAX_TRANSLATION_BYTES = 512 * 1024
#: The language of every pack's own text, which a translation file translates from.
SOURCE = "en"
_NAME = re.compile(
    r"^(?P<pack>[a-z0-9]+(?:-[a-z0-9]+)*)\.(?P<language>[A-Za-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})?)$"
)
_LONGEST = 2000  # a translation is no longer than a pack's text may be (pack_base.Text)


def _is_prose(annotation: Any) -> bool:
    """Whether a field's type is (or holds) own words: ``Prose``, ``Prose | None``,
    ``list[Prose]``, ``dict[Id, Prose]``."""
    if get_origin(annotation) is Annotated:
        return OWN_WORDS in annotation.__metadata__ or _is_prose(get_args(annotation)[0])
    return any(_is_prose(arg) for arg in get_args(annotation))


def _found(value: Any, prose: bool) -> Iterator[str]:
    """The own words in a field's value: its strings when the field is prose (a mapping's
    values: its keys are ids), else those of every model inside it."""
    if isinstance(value, str):
        if prose:
            yield value
    elif isinstance(value, BaseModel):
        yield from _own_words(value)
    elif isinstance(value, (Mapping, list, tuple)):
        for item in value.values() if isinstance(value, Mapping) else value:
            yield from _found(item, prose)


def _own_words(model: BaseModel) -> Iterator[str]:
    for name, field in type(model).model_fields.items():
        value = getattr(model, name)
        yield from _found(value, OWN_WORDS in field.metadata or _is_prose(field.annotation))
    # A game system's own sections (WithSections' extra fields), typed by their declarations.
    extra = model.__pydantic_extra__ or {}
    level = getattr(type(model), "level", None)
    declared = systems.own_sections(level) if level and extra else {}
    for key, value in extra.items():
        yield from _found(value, _is_prose(declared.get(key, (None, None))[0]))


def own_words(pack: BaseModel) -> list[str]:
    """Every text of a pack in its own words, once each, in the order the pack gives them."""
    return list(dict.fromkeys(_own_words(pack)))


def _said(entry: Any, language: str) -> tuple[str, str] | str:
    """An entry's English and its translation, or why it is not one (a sentence)."""
    if not isinstance(entry, Mapping) or set(entry) != {SOURCE, language}:
        return f"must be a mapping of exactly {SOURCE} (the pack's text) and {language} (its translation)"
    english, said = entry[SOURCE], entry[language]
    for key, text in ((SOURCE, english), (language, said)):
        if not isinstance(text, str) or not text.strip():
            return f"{key} must be a text"
        if len(text.strip()) > _LONGEST:
            return f"{key} is longer than {_LONGEST} characters"
    return english.strip(), said.strip()


def parse_translation(
    text: str, file: str, pack: BaseModel, language: str
) -> tuple[dict[str, str], list[PackError]]:
    """One translation file of ``pack`` into ``language``: its English text to translation,
    and the problem of each entry refused (a text the pack no longer has, one given twice)."""
    data, errors = read_yaml(text, file, MAX_TRANSLATION_BYTES)
    if errors:
        return {}, errors
    if not isinstance(data, Mapping) or set(data) != {"texts"} or not isinstance(data["texts"], list):
        return {}, [
            PackError.at(file, "", "must be a YAML mapping whose one key, texts, lists the translations")
        ]
    known = set(own_words(pack))
    table: dict[str, str] = {}
    for i, entry in enumerate(data["texts"]):
        where = f"texts[{i}]"
        found = _said(entry, language)
        if isinstance(found, str):
            errors.append(PackError.at(file, where, found))
            continue
        english, said = found
        if english not in known:
            errors.append(
                PackError.at(
                    file,
                    f"{where}.{SOURCE}",
                    f"{english!r} is not a text of the pack {getattr(pack, 'id', '')!r} (any more): "
                    "translate its text as the pack writes it now, or remove the entry",
                )
            )
        elif english in table:
            errors.append(PackError.at(file, f"{where}.{SOURCE}", f"{english!r} is translated twice"))
        else:
            table[english] = said
    return table, errors


def load_translations(
    directory: Path, packs: Mapping[str, BaseModel], languages: Collection[str] | None = None
) -> tuple[dict[str, dict[str, dict[str, str]]], list[PackError]]:
    """Every translation file in ``directory/translations`` of a pack in ``packs``: by pack id,
    then language, the English text to its translation; and what was refused (a file for a
    language not in ``languages``, the languages Muster speaks; ``None`` takes any)."""
    found: dict[str, dict[str, dict[str, str]]] = {}
    errors: list[PackError] = []
    folder = directory / FOLDER
    if not folder.is_dir():
        return found, errors
    for path in sorted(folder.glob("*.yaml")):
        file = f"{FOLDER}/{path.name}"
        name = _NAME.match(path.stem)
        if name is None:
            errors.append(
                PackError.at(file, "", "must be named <pack id>.<language>.yaml (aos-ghb-2021.de.yaml)")
            )
            continue
        pack_id, language = name["pack"], name["language"]
        if language == SOURCE:
            errors.append(PackError.at(file, "", "is in English, the language packs are written in"))
            continue
        if languages is not None and language not in languages:
            errors.append(
                PackError.at(
                    file,
                    "",
                    f"is in {language!r}, which Muster does not speak (it speaks {', '.join(languages)})",
                )
            )
            continue
        pack = packs.get(pack_id)
        if pack is None:
            errors.append(PackError.at(file, "", f"translates the pack {pack_id!r}, which is not installed"))
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            errors.append(PackError.at(file, "", f"cannot be read: {exc}"))
            continue
        table, problems = parse_translation(text, file, pack, language)
        errors += problems
        if table:
            found.setdefault(pack_id, {})[language] = table
    return found, errors


def told_words(translations: Iterable[Mapping[str, Mapping[str, str]]], language: str) -> dict[str, str]:
    """One table of English text to ``language`` from many packs' translations (by language):
    where two packs translate the same text differently, the first pack's is said."""
    table: dict[str, str] = {}
    for by_language in translations:
        for english, said in by_language.get(language, {}).items():
            table.setdefault(english, said)
    return table
