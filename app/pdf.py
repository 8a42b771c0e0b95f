"""HTML -> PDF with WeasyPrint, from the print templates in pdf/.

The print template is rendered here, in the web worker; WeasyPrint lays it out in a child
process (``python -m app.pdf``) that the worker starts on the first print and that leaves
after a quiet minute. WeasyPrint and its fonts take 50-60 MB in any process that has made a
PDF: a Raspberry Pi serving a club night should not keep that in every worker for the odd
print, yet a player printing a roster, then the score sheet, should not wait for WeasyPrint
to load twice (about a second on this machine, more on a Pi).
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

PDF_DIR = Path(__file__).resolve().parent.parent / "pdf"
PAPERS = {"a4": "A4", "letter": "letter"}
# The layout process leaves after this long without a print.
IDLE_SECONDS = float(os.environ.get("MUSTER_PDF_IDLE_SECONDS", "60"))
MAX_PDFS = 50  # ... or after this many, so what WeasyPrint keeps does not pile up
TIMEOUT_SECONDS = 120.0

_env = Environment(
    loader=FileSystemLoader(str(PDF_DIR)),
    autoescape=select_autoescape(default=True),
    trim_blocks=True,
    lstrip_blocks=True,
)


class PrintFailed(RuntimeError):
    """WeasyPrint could not make the PDF (its message is in the server log)."""


def render_html(template: str, context: dict[str, Any], paper: str = "a4") -> str:
    """The print template rendered to HTML (what WeasyPrint lays out)."""
    return _env.get_template(template).render(**context, paper=PAPERS[paper])


def render(template: str, context: dict[str, Any], paper: str = "a4") -> bytes:
    """Render a print template to PDF bytes on A4 or US Letter paper."""
    return _LAYOUT.pdf(render_html(template, context, paper), paper)


# --- the worker's side: one layout process, started when needed -------------------------------
def _send(stream: IO[bytes], *parts: bytes) -> None:
    for part in parts:
        stream.write(struct.pack(">I", len(part)))
        stream.write(part)
    stream.flush()


def _receive(stream: IO[bytes]) -> bytes:
    head = stream.read(4)
    if len(head) != 4:
        raise EOFError("the layout process closed its pipe")
    (size,) = struct.unpack(">I", head)
    data = stream.read(size)
    if len(data) != size:
        raise EOFError("the layout process stopped mid-answer")
    return data


class Layout:
    """A WeasyPrint child process shared by the threads of one web worker, one PDF at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._child: subprocess.Popen[bytes] | None = None
        self._made = 0
        self._last = 0.0
        self._reaper: threading.Thread | None = None

    def pdf(self, html: str, paper: str) -> bytes:
        """Lay out the HTML; start the child if there is none, and once more if it died."""
        with self._lock:
            for attempt in (1, 2):
                child = self._running()
                watchdog = threading.Timer(TIMEOUT_SECONDS, child.kill)
                watchdog.start()
                try:
                    assert child.stdin is not None and child.stdout is not None
                    _send(child.stdin, paper.encode(), html.encode("utf-8"))
                    status, body = _receive(child.stdout), _receive(child.stdout)
                except (OSError, EOFError) as exc:
                    self._stop()
                    if attempt == 2:
                        raise PrintFailed(f"the layout process failed: {exc}") from exc
                    continue
                finally:
                    watchdog.cancel()
                self._made += 1
                self._last = time.monotonic()
                if self._made >= MAX_PDFS:
                    self._stop()
                if status != b"ok":
                    raise PrintFailed(body.decode("utf-8", "replace"))
                return body
        raise PrintFailed("unreachable")  # pragma: no cover

    def _running(self) -> subprocess.Popen[bytes]:
        if self._child is None or self._child.poll() is not None:
            self._child = subprocess.Popen(
                [sys.executable, "-m", "app.pdf"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                cwd=str(PDF_DIR.parent),
                env={**os.environ, "PYTHONWARNINGS": "ignore"},
            )
            self._made = 0
            self._last = time.monotonic()
            if self._reaper is None or not self._reaper.is_alive():
                self._reaper = threading.Thread(target=self._reap, name="pdf-reaper", daemon=True)
                self._reaper.start()
        return self._child

    def _stop(self) -> None:
        child, self._child = self._child, None
        if child is None:
            return
        try:
            if child.stdin:
                child.stdin.close()  # the child leaves when its input ends
            child.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            child.kill()
            child.wait()

    def _reap(self) -> None:
        """Stop the child once it has been idle for a while (then this thread ends too)."""
        while True:
            time.sleep(min(IDLE_SECONDS / 4, 5.0))
            with self._lock:
                if self._child is None:
                    return
                if time.monotonic() - self._last >= IDLE_SECONDS:
                    self._stop()
                    return

    def close(self) -> None:
        """Stop the child now (tests, shutdown)."""
        with self._lock:
            self._stop()


_LAYOUT = Layout()


# --- the child's side --------------------------------------------------------------------------
def _local_fetcher() -> Any:
    """A WeasyPrint fetcher that lets print templates load files from pdf/ only.

    No network and nothing else on disk: a player's text that slipped an <img> or a stylesheet
    into a print could otherwise make the server read its own files into the PDF.
    """
    from weasyprint.urls import URLFetcher

    class LocalFetcher(URLFetcher):  # type: ignore[misc]
        def fetch(self, url: str, headers: Any = None) -> Any:
            if not url.startswith("file://"):
                raise ValueError(f"print templates may not fetch {url}")
            path = Path(url.removeprefix("file://").split("?")[0]).resolve()
            if PDF_DIR not in path.parents:
                raise ValueError(f"print templates may not read {path}")
            return super().fetch(url, headers)

    return LocalFetcher(allowed_protocols=["file"])


def write_pdf(html: str, paper: str = "a4", fonts: Any = None, fetcher: Any = None) -> bytes:
    """Lay out print HTML as a PDF with WeasyPrint, in this process."""
    from weasyprint import CSS, HTML

    fetcher = fetcher or _local_fetcher()
    page = CSS(string=f"@page {{ size: {PAPERS[paper]}; }}", font_config=fonts)
    sheet = CSS(filename=str(PDF_DIR / "print.css"), font_config=fonts)
    document = HTML(string=html, base_url=str(PDF_DIR) + "/", url_fetcher=fetcher)
    return document.write_pdf(stylesheets=[sheet, page], font_config=fonts)


def main() -> int:
    """The child: read (paper, HTML) requests on stdin, answer (status, PDF or error) on stdout."""
    import logging

    from weasyprint.text.fonts import FontConfiguration

    logging.getLogger("weasyprint").setLevel(logging.ERROR)  # not a line per font per PDF
    # One font configuration for every PDF: a new one per PDF keeps growing the memory.
    fonts = FontConfiguration()
    fetcher = _local_fetcher()
    # The answers travel on a private copy of stdout; anything a library prints goes to stderr.
    source, sink = sys.stdin.buffer, os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    while True:
        try:
            paper = _receive(source).decode()
            html = _receive(source).decode("utf-8")
        except EOFError:
            return 0
        try:
            if paper not in PAPERS:
                raise ValueError(f"paper must be one of {', '.join(PAPERS)}")
            _send(sink, b"ok", write_pdf(html, paper, fonts, fetcher))
        except Exception as exc:
            _send(sink, b"error", f"{type(exc).__name__}: {exc}".encode())


if __name__ == "__main__":
    sys.exit(main())
