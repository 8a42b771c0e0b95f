"""A list as bytes made into text, or refused with one sentence: size, encoding, zip, XML.

Files come from players' phones: a pasted text, an app's ``.txt``, a BattleScribe ``.ros``
(XML) or ``.rosz`` (a zip holding one ``.ros``). Each is bounded before it is read: the
upload's size, the zip's entry count and the uncompressed size it claims *and* the bytes it
really gives, and XML goes through defusedxml with no DTD at all (so no entities and no
external references).
"""

from __future__ import annotations

import io
import zipfile
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

# A 2000-point list is 1-5 KB of text and a .ros 20-200 KB of XML (a .rosz 5-20 KB). The upload
# bound sits under the app's request limit (256 KB), so that the refusal names the file.
MAX_BYTES = 200 * 1024
MAX_ROS_BYTES = 4 * 1024 * 1024
MAX_ZIP_ENTRIES = 4
# What reading one .ros may cost, counted while it is parsed (a .rosz of 14 KB unpacked to
# 41,000 selections: 1.7 s of a worker's time). A 2,000-point roster holds 1,000-5,000
# elements nested a dozen deep; a text list holds a few hundred lines.
MAX_ELEMENTS = 20_000
MAX_DEPTH = 64
MAX_LINES = 2_000


class Refused(Exception):
    """The file cannot be read as a list; ``str(exc)`` is one sentence saying why."""


def is_zip(data: bytes) -> bool:
    """Whether the bytes are a zip archive (a ``.rosz``)."""
    return data[:4] == b"PK\x03\x04"


def text_of(data: bytes) -> str:
    """The bytes as text: UTF-8 (with or without a BOM), UTF-16 with a BOM, or Windows-1252."""
    if len(data) > MAX_BYTES:
        raise Refused(f"file must be at most {MAX_BYTES // 1024} KB; this one is {len(data) // 1024} KB.")
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise Refused("file starts as UTF-16 text but is not: export the list again as text.") from exc
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            # Older Windows tools save lists in Windows-1252; anything else is not text.
            try:
                text = data.decode("cp1252")
            except UnicodeDecodeError as exc:
                raise Refused(
                    "file must be text in UTF-8 (or Windows-1252): this one is neither; export the list as text again."
                ) from exc
    if "\x00" in text:
        raise Refused("file must be text, a .ros or a .rosz: this one holds binary data.")
    return text


def unzip_ros(data: bytes) -> str:
    """The one ``.ros`` inside a ``.rosz``, bounded against zip bombs."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        entries = [i for i in archive.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise Refused("file looks like a .rosz but is not a readable zip archive.") from exc
    if len(entries) > MAX_ZIP_ENTRIES or not entries:
        raise Refused(f"a .rosz must hold one .ros file; this one holds {len(entries)} files.")
    ros = [i for i in entries if i.filename.lower().endswith(".ros")] or entries[:1]
    if len(ros) != 1:
        raise Refused(f"a .rosz must hold one .ros file; this one holds {len(ros)}.")
    info = ros[0]
    if info.file_size > MAX_ROS_BYTES:
        raise Refused(
            f"the .ros inside the .rosz must be at most {MAX_ROS_BYTES // 1024 // 1024} MB unpacked."
        )
    try:
        with archive.open(info) as inner:
            # The size in the zip's directory can lie: read no more than the bound, then check.
            content = inner.read(MAX_ROS_BYTES + 1)
    except (zipfile.BadZipFile, OSError, ValueError, RuntimeError, NotImplementedError) as exc:
        raise Refused(
            "the .rosz could not be unpacked: save it again from BattleScribe or New Recruit."
        ) from exc
    if len(content) > MAX_ROS_BYTES:
        raise Refused(
            f"the .ros inside the .rosz must be at most {MAX_ROS_BYTES // 1024 // 1024} MB unpacked."
        )
    return text_of_xml(content)


def text_of_xml(data: bytes) -> str:
    """XML bytes as text (UTF-8 as BattleScribe writes it), within the size bound."""
    if len(data) > MAX_ROS_BYTES:
        raise Refused(f"a .ros must be at most {MAX_ROS_BYTES // 1024 // 1024} MB.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Refused("the .ros must be UTF-8 XML, as BattleScribe writes it.") from exc


def parse_xml(text: str) -> Element:
    """The XML's root; a DTD, an entity or an external reference is refused, not expanded.

    The elements are counted as they are read, and the reading stops at the first past
    MAX_ELEMENTS or deeper than MAX_DEPTH: the cost of a refusal is bounded too.
    """
    root: Element | None = None
    count = depth = 0
    try:
        source = io.BytesIO(text.encode("utf-8"))
        events = iterparse(
            source, ("start", "end"), forbid_dtd=True, forbid_entities=True, forbid_external=True
        )
        for event, element in events:
            if event == "end":
                depth -= 1
                continue
            count, depth = count + 1, depth + 1
            root = element if root is None else root
            if count > MAX_ELEMENTS:
                raise Refused(
                    f"the roster file holds more than {MAX_ELEMENTS:,} entries and options; "
                    "a whole army holds a few thousand: is it one roster?"
                )
            if depth > MAX_DEPTH:
                raise Refused(
                    f"the roster file nests its entries more than {MAX_DEPTH} deep; "
                    "a roster nests a dozen: save it again from BattleScribe or New Recruit."
                )
    except DefusedXmlException as exc:
        raise Refused(
            "the .ros declares a DTD or entities, which rosters never need: it is refused."
        ) from exc
    except (ParseError, ValueError) as exc:
        raise Refused(
            "the .ros is not well-formed XML: save it again from BattleScribe or New Recruit."
        ) from exc
    if root is None:
        raise Refused("the .ros is not well-formed XML: save it again from BattleScribe or New Recruit.")
    return root


def lines_bounded(text: str) -> str:
    """The text, if it has at most MAX_LINES lines (a list has a few hundred)."""
    lines = text.count("\n") + text.count("\r") - text.count("\r\n") + 1
    if lines > MAX_LINES:
        raise Refused(
            f"text must be at most {MAX_LINES:,} lines; this one has {lines:,}: paste one army list."
        )
    return text
