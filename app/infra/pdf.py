"""HTML -> PDF with WeasyPrint, from the print templates in pdf/.

The print template is rendered here, in the web worker; WeasyPrint lays it out in a child
process (``python -m app.infra.pdf``) that the worker starts on the first print and that leaves
after a quiet minute. WeasyPrint and its fonts take 50-60 MB in any process that has made a
PDF: a Raspberry Pi serving a club night should not keep that in every worker for the odd
print, yet a player printing a roster, then the score sheet, should not wait for WeasyPrint
to load twice (about a second on this machine, more on a Pi).

So that the first print need not wait for that second either, a served worker starts its
layout process as it starts (``Layout.start``, from the server's worker hook) and again when
one leaves after MAX_PDFS; a child that finds no print waiting lays out a small sheet with
print.css while it waits, so fonts and the stylesheet are loaded before the first print asks.
A child still leaves after a quiet IDLE_SECONDS: a print after that waits for a new one.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from jinja2 import BytecodeCache, Environment, FileSystemLoader, TemplateNotFound, select_autoescape
from markupsafe import Markup

from app.infra.turns import Turns
from app.rules import speech

PDF_DIR = Path(__file__).resolve().parents[2] / "pdf"
PAPERS = {"a4": "A4", "letter": "letter"}
# The layout process leaves after this long without a print.
IDLE_SECONDS = float(os.environ.get("MUSTER_PDF_IDLE_SECONDS", "60"))
IDLE_GRACE_SECONDS = 30.0  # how long an idle child may take to leave before it is killed
MAX_PDFS = 50  # ... or after this many, so what WeasyPrint keeps does not pile up
# A layout is stopped after this long, and a print waits at most this long for its turn: the
# two together (50 s) stay inside gunicorn's 60-second timeout, which gthread workers do not
# enforce on a running request. The largest roster a player can store (100 entries, notes of
# 300 characters, 10 pages) took 9-15 s on a busy 2-core x86 machine: a Pi needs the room.
LAYOUT_SECONDS = float(os.environ.get("MUSTER_PDF_LAYOUT_SECONDS", "30"))
WAIT_SECONDS = float(os.environ.get("MUSTER_PDF_WAIT_SECONDS", "20"))
# Request threads of one worker allowed to print at once (one laying out, the others
# waiting): the rest of its threads stay free for everyone else's pages and API calls.
QUEUE = int(os.environ.get("MUSTER_PDF_QUEUE", "2"))
# Layouts run at a lower CPU priority than the web workers, so that pages stay quick while a
# PDF is being made. Measured with 24 clients looping on a 100-entry roster (cache off, on a
# development machine busy with other work): an API read took a median 110 ms at nice 10
# against 238 ms at nice 0 (p95 0.9 s and 1.0 s), while the roster alone took 15 s against 8 s.
NICENESS = 10
# A sheet that was stopped for taking too long is refused at once for this long when asked
# again unchanged, instead of taking the layout process for another LAYOUT_SECONDS.
SLOW_MEMORY_SECONDS = 120.0

# A word longer than this, in text a player typed, gets a place to break every BREAK_EVERY
# characters: a 300-letter note or a pasted link then wraps in its table cell instead of
# pushing the table off the page. (CSS `overflow-wrap: anywhere` does the same, but WeasyPrint
# took 3.4 s more for a single 300-letter note; a zero-width space costs nothing.)
LONGEST_WORD = 24  # longer than Muster's own ids (22 characters), which stay whole
BREAK_EVERY = 12
_LONG_WORD = re.compile(rf"[^\s\u200b]{{{LONGEST_WORD + 1},}}")


def breakable(value: Any) -> Any:
    """Text with a zero-width space every BREAK_EVERY characters of any over-long word."""
    if not isinstance(value, str) or isinstance(value, Markup):
        return value  # numbers, and HTML the templates built (the map's SVG) as they are
    return _LONG_WORD.sub(
        lambda m: "\u200b".join(m[0][i : i + BREAK_EVERY] for i in range(0, len(m[0]), BREAK_EVERY)),
        value,
    )


_env = Environment(
    loader=None,  # set on first use (_environment): the layout process renders none
    autoescape=select_autoescape(default=True),
    trim_blocks=True,
    lstrip_blocks=True,
    finalize=breakable,  # every {{ value }} in a print template
    extensions=["jinja2.ext.i18n"],
)
# A sheet's words are said in the language of the request that prints it (app/rules/speech.py).
_env.install_gettext_callables(  # type: ignore[attr-defined]
    lambda text: speech.catalogue().gettext(text),
    lambda one, many, count: speech.catalogue().ngettext(one, many, count),
    newstyle=True,
)


# The filters and globals the print templates use, registered with the environment itself so
# that it compiles and renders wherever it is built (a served worker, a script, a bench's bare
# server): each says its words in the language sentences are said in now (app/rules/speech.py,
# the printing request's language).
_env.filters.update(
    number=speech.number, signed=speech.signed, when=speech.when, day=speech.day, told=speech.told
)
_env.globals["language"] = speech.language


class PrintFailed(RuntimeError):
    """WeasyPrint could not make the PDF (its message is in the server log)."""


class PrintBusy(PrintFailed):
    """Every printing place of this worker is taken: the print should be asked again later."""

    retry_after = 10


class PrintTooSlow(PrintFailed):
    """The layout took longer than ``seconds`` and was stopped."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the layout ran past {seconds:g} s and was stopped")
        self.seconds = seconds


def compile_templates(cache: BytecodeCache | None = None) -> None:
    """Compile every print template now (the server does, before its workers fork): compiling
    the score sheet's on its first print took 60-70 ms of that print, in every worker.
    With ``cache``, compiled code is kept there and taken from there."""
    env = _environment()
    if cache is not None:
        env.bytecode_cache = cache
    for name in env.list_templates(extensions=("html",)):
        env.get_template(name)


def _environment() -> Environment:
    """The print templates' environment, its loader set on first use: the layout process,
    which imports this module too, renders none and needs no game system."""
    if _env.loader is None:
        from app.infra.system_files import loader

        _env.loader = loader("pdf", FileSystemLoader(str(PDF_DIR)))
    return _env


#: The page footer's words (print.css lays them in every page's bottom-right margin box).
PAGE_OF = speech.words("Page {page} of {pages}")


def _css_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("<", "\\3c ")
    return f'"{escaped}"'


def page_footer() -> str:
    """The footer of every page ("Page 1 of 2") in the printing page's language, as a style
    that puts it in the margin box print.css holds it in: the counters are CSS's, the words
    around them the catalogue's."""
    said = speech.catalogue().gettext(PAGE_OF)
    parts = [p for p in re.split(r"(\{pages?\})", said) if p]
    content = " ".join(f"counter({p[1:-1]})" if p in ("{page}", "{pages}") else _css_string(p) for p in parts)
    return f"@page {{ @bottom-right {{ content: {content}; }} }}"


def render_html(template: str, context: dict[str, Any], paper: str = "a4") -> str:
    """The print template rendered to HTML (what WeasyPrint lays out).

    ``systems/<name>/sheet.html`` is read from that system's package when it carries a
    ``pdf/`` folder (app/infra/system_files.py), else from pdf/ like every other print. A
    stylesheet of the same name beside the template (a system's ``pdf/sheet.css``) is laid
    after print.css: it goes into the HTML's head, since the layout process reads pdf/ only.
    """
    env = _environment()
    html = env.get_template(template).render(**context, paper=PAPERS[paper])
    style = "\n".join(s for s in (page_footer(), _own_style(env, template)) if s)
    return html.replace("</head>", f"<style>{style}</style></head>", 1)


def _own_style(env: Environment, template: str) -> str | None:
    """The stylesheet beside a print template (``sheet.css`` beside ``sheet.html``), if any."""
    assert env.loader is not None
    try:
        source, _, _ = env.loader.get_source(env, template.rpartition(".")[0] + ".css")
    except TemplateNotFound:
        return None
    return source


def render(
    template: str,
    context: dict[str, Any],
    paper: str = "a4",
    cache: Cache | None = None,
    spent: Callable[[float], None] | None = None,
    before_layout: Callable[[], None] | None = None,
    holder: str | None = None,
) -> bytes:
    """Render a print template to PDF bytes on A4 or US Letter paper.

    With a ``cache``, a sheet made before from the same template, data and paper is served
    from it without a layout; a sheet whose layout was stopped recently is refused at once.
    ``before_layout`` is called when a layout is needed (it may refuse by raising), ``spent``
    told the seconds the layout took: a PDF from the cache meets neither. ``holder`` (the
    asking address) may hold one of a worker's printing places at a time.
    """
    html = render_html(template, context, paper)
    if cache is None:
        if before_layout:
            before_layout()
        return _LAYOUT.pdf(html, paper, spent=spent, holder=holder)
    key = cache.key(template, paper, html)
    kept = cache.get(key)
    if kept is not None:
        return kept
    if cache.was_slow(key):
        raise PrintTooSlow(LAYOUT_SECONDS)  # a moment ago: not tried again so soon
    if before_layout:
        before_layout()
    try:
        # A print of the same sheet that was ahead in the queue may have made it meanwhile.
        return _LAYOUT.pdf(
            html,
            paper,
            made=lambda: cache.get(key),
            keep=lambda data: cache.put(key, data),
            spent=spent,
            holder=holder,
        )
    except PrintTooSlow:
        cache.mark_slow(key)
        raise


# --- PDFs kept by what they are made from --------------------------------------------------------
_css_versions: dict[float, str] = {}


def _css_version() -> str:
    """A hash of print.css, so that a new stylesheet makes new PDFs."""
    path = PDF_DIR / "print.css"
    mtime = path.stat().st_mtime
    if mtime not in _css_versions:
        _css_versions[mtime] = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    return _css_versions[mtime]


class Cache:
    """Finished PDFs in a folder, named by a hash of what they were made from.

    A change to the roster, game or stylesheet changes the hash, so nothing is ever stale; the
    folder is shared by every worker and kept under ``max_bytes`` by removing the PDFs served
    least recently.
    """

    def __init__(self, folder: str | Path, max_bytes: int) -> None:
        self.folder = Path(folder)
        self.max_bytes = max_bytes

    @staticmethod
    def key(template: str, paper: str, html: str) -> str:
        """The name a PDF is kept under: template, paper, stylesheet and the exact HTML laid out."""
        digest = hashlib.sha256()
        for part in (template, paper, _css_version(), html):
            digest.update(part.encode("utf-8"))
            digest.update(b"\0")
        return digest.hexdigest()

    def get(self, key: str) -> bytes | None:
        """The PDF kept under this key, if any (marked as just served)."""
        path = self.folder / f"{key}.pdf"
        try:
            data = path.read_bytes()
            os.utime(path)  # served now: the last to be removed
        except OSError:
            return None
        return data

    def put(self, key: str, data: bytes) -> None:
        """Keep a PDF, then remove the least recently served ones past the size bound."""
        if self.max_bytes <= 0 or len(data) > self.max_bytes:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        # Written whole under a temporary name, then renamed: another worker reads all or nothing.
        temporary = self.folder / f"{key}.{os.getpid()}.{threading.get_ident()}.tmp"
        temporary.write_bytes(data)
        os.replace(temporary, self.folder / f"{key}.pdf")
        self._prune()

    def was_slow(self, key: str) -> bool:
        """Whether this sheet's layout was stopped for taking too long, not long ago."""
        try:
            marked = (self.folder / f"{key}.slow").stat().st_mtime
        except OSError:
            return False
        return time.time() - marked < SLOW_MEMORY_SECONDS

    def mark_slow(self, key: str) -> None:
        """Remember that this sheet's layout was stopped."""
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / f"{key}.slow").touch()

    def _prune(self) -> None:
        files = []
        for path in self.folder.iterdir():
            try:
                stat = path.stat()
            except OSError:
                continue  # another worker removed it just now
            files.append((stat.st_mtime, stat.st_size, path))
        total = sum(size for _, size, _ in files)
        if total <= self.max_bytes:
            return
        now = time.time()
        for mtime, size, path in sorted(files):
            if path.suffix == ".tmp" and now - mtime < 60:
                continue  # being written
            path.unlink(missing_ok=True)
            total -= size
            if total <= self.max_bytes * 3 // 4:  # room for a while, not a prune per PDF
                return

    def size(self) -> int:
        """Bytes kept now."""
        if not self.folder.is_dir():
            return 0
        return sum(p.stat().st_size for p in self.folder.iterdir() if p.is_file())


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
        self._lock = Turns()  # first come, first served: see app/infra/turns.py
        self._child: subprocess.Popen[bytes] | None = None
        self._made = 0
        self._last = 0.0
        self._cpu: float | None = None  # the processor seconds of the last layout (under _lock)
        self._reaper: threading.Thread | None = None
        self._queued = 0  # request threads printing now, laying out or waiting
        self._holders: set[str] = set()  # who they print for
        self._queue_lock = threading.Lock()

    def pdf(
        self,
        html: str,
        paper: str,
        made: Callable[[], bytes | None] | None = None,
        keep: Callable[[bytes], None] | None = None,
        spent: Callable[[float], None] | None = None,
        holder: str | None = None,
    ) -> bytes:
        """Lay out the HTML; start the child if there is none, and once more if it died.

        At most QUEUE threads print at once and each waits at most WAIT_SECONDS for its turn
        (else PrintBusy); a layout running past LAYOUT_SECONDS is killed (PrintTooSlow).
        ``made``, asked once this print's turn has come, gives the PDF if it exists by now;
        ``keep`` is given a new PDF before the next print's turn comes, so that it finds it.
        """
        with self._queue_lock:
            if self._queued >= QUEUE:
                raise PrintBusy(f"{QUEUE} prints are already under way in this worker")
            # One place per asker: a phone sending prints from eight threads at once would
            # otherwise hold every place, and everyone else's print would be turned away.
            if holder is not None and holder in self._holders:
                raise PrintBusy(f"a print for {holder} is already under way in this worker")
            self._queued += 1
            if holder is not None:
                self._holders.add(holder)
        try:
            if not self._lock.acquire(timeout=WAIT_SECONDS):
                raise PrintBusy(f"waited {WAIT_SECONDS:g} s for the layout process")
            try:
                done = made() if made else None
                if done is not None:
                    return done
                started = time.monotonic()
                self._cpu = None
                try:
                    data = self._lay_out(html, paper)
                finally:
                    if spent:
                        # What the layout itself took of the processor: a phone's budget is not
                        # eaten by the wait another phone's load makes. A layout stopped for its
                        # time (no figure then) took all that time.
                        spent(self._cpu if self._cpu is not None else time.monotonic() - started)
                if keep:
                    keep(data)
                return data
            finally:
                self._lock.release()
        finally:
            with self._queue_lock:
                self._queued -= 1
                self._holders.discard(holder or "")

    def _lay_out(self, html: str, paper: str) -> bytes:
        deadline = time.monotonic() + LAYOUT_SECONDS  # for both attempts together
        for attempt in (1, 2):
            child = self._running()
            stopped = threading.Event()

            def stop(child: subprocess.Popen[bytes] = child, stopped: threading.Event = stopped) -> None:
                stopped.set()
                child.kill()

            watchdog = threading.Timer(max(0.0, deadline - time.monotonic()), stop)
            watchdog.start()
            try:
                assert child.stdin is not None and child.stdout is not None
                before = cpu_seconds(child.pid)
                _send(child.stdin, paper.encode(), html.encode("utf-8"))
                status, body = _receive(child.stdout), _receive(child.stdout)
                after = cpu_seconds(child.pid)
                self._cpu = after - before if before is not None and after is not None else None
            except (OSError, EOFError) as exc:
                self._stop()
                if stopped.is_set():
                    raise PrintTooSlow(LAYOUT_SECONDS) from exc
                if attempt == 2:
                    raise PrintFailed(f"the layout process failed: {exc}") from exc
                continue
            finally:
                watchdog.cancel()
            self._made += 1
            self._last = time.monotonic()
            if self._made >= MAX_PDFS:
                self._stop()
                self._running()  # the next one loads while nobody waits for it
            if status != b"ok":
                raise PrintFailed(body.decode("utf-8", "replace"))
            return body
        raise PrintFailed("unreachable")  # pragma: no cover

    def start(self) -> None:
        """Start the layout process now, unless one runs, so that it is ready for the first print.

        It loads WeasyPrint and warms itself in the background (this returns at once) and
        leaves after IDLE_SECONDS without a print, like one started by a print.
        """
        with self._lock:
            self._running()

    def _running(self) -> subprocess.Popen[bytes]:
        if self._child is None or self._child.poll() is not None:
            self._child = subprocess.Popen(
                [sys.executable, "-m", "app.infra.pdf"],
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

    def _stop(self, grace: float = 5.0) -> None:
        child, self._child = self._child, None
        _end(child, grace)

    def _reap(self) -> None:
        """Stop the child once it has been idle for a while (then this thread ends too)."""
        while True:
            time.sleep(min(IDLE_SECONDS / 4, 5.0))
            with self._lock:
                if self._child is None:
                    return
                if time.monotonic() - self._last < IDLE_SECONDS:
                    continue
                child, self._child = self._child, None
            # Outside the lock: a print asked for meanwhile starts a new child at once, and an idle
            # child on a loaded Pi may take a while to unload WeasyPrint before it leaves.
            _end(child, IDLE_GRACE_SECONDS)
            return

    def close(self) -> None:
        """Stop the child now (tests, shutdown)."""
        with self._lock:
            self._stop()


def _end(child: subprocess.Popen[bytes] | None, grace: float) -> None:
    """Close the child's input (it leaves when its input ends); kill it if it has not left in time."""
    if child is None:
        return
    try:
        if child.stdin:
            child.stdin.close()
        child.wait(timeout=grace)
    except (OSError, subprocess.TimeoutExpired):
        child.kill()
        child.wait()


_LAYOUT = Layout()


def start_layout() -> None:
    """Start this worker's layout process now, so that it is ready before the first print
    (unless MUSTER_PDF_START_EARLY is 0: the server tests start many short-lived servers)."""
    if os.environ.get("MUSTER_PDF_START_EARLY", "1") != "0":
        _LAYOUT.start()


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


# The stylesheets parsed once per process and paper, by print.css's modification time: parsing
# print.css took about 12 ms of each PDF.
_stylesheets: dict[tuple[str, float, int], list[Any]] = {}


def _sheets(paper: str, fonts: Any) -> list[Any]:
    from weasyprint import CSS

    path = PDF_DIR / "print.css"
    key = (paper, path.stat().st_mtime, id(fonts))
    sheets = _stylesheets.get(key)
    if sheets is None:
        page = CSS(string=f"@page {{ size: {PAPERS[paper]}; }}", font_config=fonts)
        sheets = [CSS(filename=str(path), font_config=fonts), page]
        if fonts is None:
            return sheets  # a font configuration made per PDF: nothing to keep it with
        # One process, one font configuration: those of an older print.css or another font
        # configuration go, each paper's stay. The warm-up lays out both papers: keeping only
        # the last one's made the first A4 print parse print.css again.
        for old in [k for k in _stylesheets if k[1:] != key[1:]]:
            del _stylesheets[old]
        _stylesheets[key] = sheets
    return sheets


_SIZED_ARRAY = re.compile(r"(\w+)\[(\d+)\]")


class _ArraysTypedOnce:
    """WeasyPrint's C interface, except that an array it makes with its length in the type
    (``hb_codepoint_t[412]``, the glyphs a PDF's font keeps) is made from the open array type
    (``hb_codepoint_t[]``), parsed once: cffi parses each new length's type anew, 3-5 ms each
    here (more on a Pi), and every PDF's fonts bring new lengths (four to six a print)."""

    def __init__(self, ffi: Any) -> None:
        self._ffi = ffi
        self._open: dict[str, Any] = {}

    def new(self, cdecl: Any, init: Any = None) -> Any:
        """``ffi.new``, an array of ``len(init)`` items made without parsing its type again."""
        sized = _SIZED_ARRAY.fullmatch(cdecl) if isinstance(cdecl, str) else None
        if sized and isinstance(init, (list, tuple)) and int(sized[2]) == len(init):
            item = sized[1]
            if item not in self._open:
                self._open[item] = self._ffi.typeof(f"{item}[]")
            return self._ffi.new(self._open[item], init)
        return self._ffi.new(cdecl, init)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ffi, name)


def _type_arrays_once() -> None:
    """Give WeasyPrint's font subsetting the C interface that parses an array type once."""
    from weasyprint.pdf import fonts

    if hasattr(fonts, "ffi") and not isinstance(fonts.ffi, _ArraysTypedOnce):
        fonts.ffi = _ArraysTypedOnce(fonts.ffi)


def cpu_seconds(pid: int) -> float | None:
    """The processor time process ``pid`` has used so far (user and system), or ``None`` where
    the system does not say (no /proc: not Linux) or the process is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # After the command name (in parentheses, which may hold spaces): state is field 3, and
    # utime and stime fields 14 and 15, in clock ticks.
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def write_pdf(html: str, paper: str = "a4", fonts: Any = None, fetcher: Any = None) -> bytes:
    """Lay out print HTML as a PDF with WeasyPrint, in this process."""
    from weasyprint import HTML

    fetcher = fetcher or _local_fetcher()
    document = HTML(string=html, base_url=str(PDF_DIR) + "/", url_fetcher=fetcher)
    return document.write_pdf(stylesheets=_sheets(paper, fonts), font_config=fonts)


# What a child lays out while no print waits: the sheets' own parts (their classes in
# print.css; the flex row, a First Blood sheet's own style, inline), so that the fonts in every
# weight and style, tables, flex rows, two columns and an inline map are loaded before the
# first real print asks.
WARM_UP = (
    "<header><h1>Muster</h1><p class='subtitle'>Hammerfest <span class='first'>1st</span></p></header>"
    "<div class='sheet-grid' style='display: flex'><div class='map-small'><svg viewBox='0 0 60 44'><rect width='60' height='44'/>"
    "<circle cx='30' cy='22' r='3'/><text x='2' y='8'>1</text></svg></div><table class='round-table'>"
    "<tr><th class='c'>1</th><td><span class='slot'>a</span></td></tr></table></div>"
    "<section class='side side-1'><h2>Lord Kroak</h2><table class='meta'><tr><th>Side</th>"
    "<td class='write'><span class='write-inline'>b</span></td></tr></table>"
    "<table class='turns filled'><thead><tr><th>Round</th><th class='r'>VP</th></tr></thead><tbody>"
    "<tr><td class='how'>c</td><td class='vp'><span class='box'>&#10003;</span> 5</td></tr></tbody></table>"
    "<div class='result'><p class='reason'>Major victory</p></div></section>"
    "<div class='roster-sheet'><table class='units'><thead><tr><th class='n'>#</th><th>Unit</th>"
    "<th class='pts'>Pts</th></tr></thead><tbody><tr><td class='n'>1</td><td><strong>Saurus</strong>"
    "<br><span class='small'>Battleline</span></td><td class='pts'>200</td></tr></tbody></table>"
    "<p class='verdict-line'>2,000 / 2,000</p><ul class='problems'><li>d</li></ul></div>"
    "<div class='howto two-columns'><h2>How</h2><ul><li>e</li></ul><p>f</p></div><footer>g</footer>"
)


def _warm(source: IO[bytes], fonts: Any, fetcher: Any) -> None:
    """Lay out WARM_UP for each paper unless a print is already waiting on ``source``."""
    import select

    for paper in PAPERS:
        try:
            waiting, _, _ = select.select([source], [], [], 0)
        except (OSError, ValueError):
            return
        if waiting:
            return  # a print came first: it is not kept waiting behind a warm-up
        with contextlib.suppress(Exception):
            write_pdf(WARM_UP, paper, fonts, fetcher)


def main() -> int:
    """The child: read (paper, HTML) requests on stdin, answer (status, PDF or error) on stdout."""
    import logging

    from weasyprint.text.fonts import FontConfiguration

    logging.getLogger("weasyprint").setLevel(logging.ERROR)  # not a line per font per PDF
    os.nice(NICENESS)
    _type_arrays_once()
    # One font configuration for every PDF: a new one per PDF keeps growing the memory.
    fonts = FontConfiguration()
    fetcher = _local_fetcher()
    # The answers travel on a private copy of stdout; anything a library prints goes to stderr.
    source, sink = sys.stdin.buffer, os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    _warm(source, fonts, fetcher)
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
