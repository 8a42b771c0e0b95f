"""PDFs are laid out by a WeasyPrint child process: kept out of the web worker, restarted
when it dies, gone when printing stops, and unable to read files outside pdf/."""

from __future__ import annotations

import io
import sys
import time

import pytest
from pypdf import PdfReader

from app import pdf


def _text(data: bytes) -> str:
    return " ".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)


@pytest.fixture
def layout():
    made = pdf.Layout()
    yield made
    made.close()


def test_weasyprint_stays_out_of_the_web_process(layout) -> None:
    data = layout.pdf("<h1>Hammerfest</h1><p>Lord Kroak 430</p>", "a4")
    assert "Lord Kroak 430" in _text(data)
    assert "weasyprint" not in sys.modules
    assert layout._child is not None and layout._child.poll() is None


def test_a_dead_layout_process_is_replaced(layout) -> None:
    layout.pdf("<p>first</p>", "a4")
    layout._child.kill()
    layout._child.wait()
    assert "second" in _text(layout.pdf("<p>second</p>", "letter"))


def test_the_layout_process_leaves_when_printing_stops(layout, monkeypatch) -> None:
    monkeypatch.setattr(pdf, "IDLE_SECONDS", 0.4)
    layout.pdf("<p>one</p>", "a4")
    child = layout._child
    deadline = time.monotonic() + 10
    while child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert child.poll() == 0
    assert layout._child is None
    assert "again" in _text(layout.pdf("<p>again</p>", "a4"))


def test_print_html_cannot_read_files_outside_pdf(layout) -> None:
    html = (
        '<p>before</p><img src="file:///etc/passwd"><link rel="stylesheet" href="http://example.com/x.css">'
    )
    data = layout.pdf(html, "a4")  # the page prints; what it asked for is left out
    assert "before" in _text(data) and "root:" not in _text(data)


def test_a_layout_failure_is_a_plain_503(client, monkeypatch) -> None:
    def broken(html: str, paper: str) -> bytes:
        raise pdf.PrintFailed("fonts missing")

    monkeypatch.setattr(pdf._LAYOUT, "pdf", broken)
    response = client.get("/packs/aos-ghb-2021/scenarios/savage-gains/scoresheet.pdf")
    assert response.status_code == 503
    assert "could not be made" in response.text
