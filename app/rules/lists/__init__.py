"""Army lists made by other tools, read into plain data: one module per format, and a detector.

:func:`read_list` takes what the player pasted or uploaded (text or bytes), tells the format
from the text itself (footers, headers, layout: the player is never asked) and returns a
:class:`~app.rules.lists.model.Reading`, or raises :class:`~app.rules.lists.files.Refused`
with one sentence. Nothing here knows a pack: app/rules/matching.py places the reading in one.
"""

from __future__ import annotations

import json

from app.rules.lists import (
    aos_app,
    battlescribe_ros,
    battlescribe_text,
    conquest,
    files,
    muster_text,
    old_world,
    warscroll_builder,
)
from app.rules.lists.files import Refused
from app.rules.lists.model import Line, Reading, Unit

__all__ = ["FORMAT_NAMES", "Line", "Reading", "Refused", "Unit", "read_list"]

# Every format Muster reads, by the id an import answers with, and the name a player knows.
FORMAT_NAMES = {
    aos_app.FORMAT: "the Age of Sigmar app's list text (2021-2022 layouts)",
    warscroll_builder.FORMAT: "Warscroll Builder text",
    battlescribe_text.FORMAT: "BattleScribe text",
    battlescribe_text.NEW_RECRUIT: "New Recruit text",
    battlescribe_ros.FORMAT: "BattleScribe .ros files",
    battlescribe_ros.ZIPPED: "BattleScribe .rosz files",
    old_world.JSON_FORMAT: "Old World Builder .owb.json files",
    old_world.TEXT_FORMAT: "Old World Builder text",
    conquest.FORMAT: "the Conquest army builder's text",
    muster_text.FORMAT: "Muster's own plain-text export",
}

# Text formats in the order they are tried: the most particular signs first.
_TEXT_READERS = (muster_text, old_world, aos_app, warscroll_builder, battlescribe_text, conquest)


def understood() -> str:
    """The formats understood, as one phrase for a refusal."""
    names = list(dict.fromkeys(FORMAT_NAMES.values()))
    return ", ".join(names[:-1]) + " or " + names[-1]


def not_a_list() -> Refused:
    """The refusal for text that is no list of any format Muster reads."""
    return Refused(f"text is not an army list Muster can read: paste or upload {understood()}.")


def read_list(data: bytes | str) -> Reading:
    """Read a list of any known format from what the player sent."""
    if isinstance(data, bytes):
        if files.is_zip(data):
            if len(data) > files.MAX_BYTES:
                raise Refused(f"file must be at most {files.MAX_BYTES // 1024} KB.")
            return _ros(files.unzip_ros(data), battlescribe_ros.ZIPPED)
        text = files.text_of(data)
    else:
        if len(data.encode("utf-8", "replace")) > files.MAX_BYTES:
            raise Refused(f"text must be at most {files.MAX_BYTES // 1024} KB.")
        text = data.removeprefix("\ufeff")
    head = text.lstrip()[:200]
    if not head.startswith(("<", "{")):
        files.lines_bounded(text)
    if head.startswith("<"):
        return _ros(text, battlescribe_ros.FORMAT)
    if head.startswith("{"):
        try:
            data_json = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise not_a_list() from exc
        if old_world.is_owb(data_json):
            return old_world.read_json(data_json)
        raise not_a_list()
    for reader in _TEXT_READERS:
        if reader.detect(text):
            reading = reader.read(text)
            if reading.units:
                return reading
    raise not_a_list()


def _ros(text: str, fmt: str) -> Reading:
    root = files.parse_xml(text)
    if not battlescribe_ros.is_roster(root):
        raise Refused("file is XML but not a BattleScribe roster (.ros): its root must be <roster>.")
    return battlescribe_ros.read(root, fmt)
