"""What a PDF Muster printed says, as text the tests can search."""

from __future__ import annotations

import io

from pypdf import PdfReader


def pdf_text(data: bytes, between: str = "\n") -> str:
    """The text of every page of a PDF, the pages joined by ``between``."""
    return between.join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
