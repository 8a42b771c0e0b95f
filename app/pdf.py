"""HTML -> PDF with WeasyPrint, from the print templates in pdf/.

WeasyPrint is imported only when a PDF is asked for: it costs a third of a second and
50 MB, which a Raspberry Pi serving score pages should not pay at start-up.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

PDF_DIR = Path(__file__).resolve().parent.parent / "pdf"
PAPERS = {"a4": "A4", "letter": "letter"}

_env = Environment(
    loader=FileSystemLoader(str(PDF_DIR)),
    autoescape=select_autoescape(default=True),
    trim_blocks=True,
    lstrip_blocks=True,
)


def _fetch_local(url: str) -> dict[str, Any]:
    """Let print templates load files from pdf/ only: no network, nothing else on disk."""
    from weasyprint.urls import default_url_fetcher

    if not url.startswith("file://"):
        raise ValueError(f"print templates may not fetch {url}")
    path = Path(url.removeprefix("file://")).resolve()
    if PDF_DIR not in path.parents:
        raise ValueError(f"print templates may not read {path}")
    return default_url_fetcher(url)


def render_html(template: str, context: dict[str, Any], paper: str = "a4") -> str:
    """The print template rendered to HTML (what WeasyPrint lays out)."""
    return _env.get_template(template).render(**context, paper=PAPERS[paper])


def render(template: str, context: dict[str, Any], paper: str = "a4") -> bytes:
    """Render a print template to PDF bytes on A4 or US Letter paper."""
    from weasyprint import CSS, HTML

    html = render_html(template, context, paper)
    page = CSS(string=f"@page {{ size: {PAPERS[paper]}; }}")
    document = HTML(string=html, base_url=str(PDF_DIR) + "/", url_fetcher=_fetch_local)
    return document.write_pdf(stylesheets=[CSS(filename=str(PDF_DIR / "print.css")), page])
