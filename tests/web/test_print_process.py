"""PDFs are laid out by a WeasyPrint child process: kept out of the web worker, restarted
when it dies, gone when printing stops, and unable to read files outside pdf/."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time

import pytest

from app.infra import pdf
from tests.pdfs import pdf_text
from tests.setups import new_game
from tests.web.conftest import Api


def _text(data: bytes) -> str:
    return pdf_text(data, between=" ")


@pytest.fixture
def layout():
    """A layout process of the test's own (the test starts, kills or retires its child)."""
    made = pdf.Layout()
    yield made
    made.close()


@pytest.fixture(scope="module")
def shared_layout():
    """One layout process for the tests that only print with it: each start of its child is a
    second of loading WeasyPrint."""
    made = pdf.Layout()
    yield made
    made.close()


def test_weasyprint_stays_out_of_the_web_process(shared_layout) -> None:
    layout = shared_layout
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


def test_a_layout_process_started_ahead_serves_the_first_print(layout) -> None:
    """Issue 32: a served worker starts its layout process as it starts, so the first print
    does not wait for WeasyPrint to load; the print finds that process and no other."""
    layout.start()
    child = layout._child
    assert child is not None and child.poll() is None
    layout.start()  # one already runs: no second one
    assert layout._child is child
    assert "Lord Kroak 430" in _text(layout.pdf("<h1>Hammerfest</h1><p>Lord Kroak 430</p>", "a4"))
    assert layout._child is child


def test_the_next_layout_process_starts_as_one_retires(layout, monkeypatch) -> None:
    """After MAX_PDFS prints a layout process is replaced at once, not on the next print."""
    monkeypatch.setattr(pdf, "MAX_PDFS", 2)
    layout.pdf("<p>one</p>", "a4")
    first = layout._child
    layout.pdf("<p>two</p>", "a4")
    second = layout._child
    assert first.poll() is not None  # retired after its second PDF
    assert second is not None and second is not first and second.poll() is None
    assert "three" in _text(layout.pdf("<p>three</p>", "letter"))
    assert layout._child is second


def test_print_html_cannot_read_files_outside_pdf(shared_layout) -> None:
    layout = shared_layout
    html = (
        '<p>before</p><img src="file:///etc/passwd"><link rel="stylesheet" href="http://example.com/x.css">'
    )
    data = layout.pdf(html, "a4")  # the page prints; what it asked for is left out
    assert "before" in _text(data) and "root:" not in _text(data)


def test_a_layout_failure_is_a_plain_503(client, monkeypatch) -> None:
    def broken(html: str, paper: str, made=None, keep=None, spent=None, holder=None) -> bytes:
        raise pdf.PrintFailed("fonts missing")

    monkeypatch.setattr(pdf._LAYOUT, "pdf", broken)
    response = client.get("/packs/aos-ghb-2021/scenarios/savage-gains/scoresheet.pdf")
    assert response.status_code == 503
    assert "could not be made" in response.text


# --- club night: a cache by content, a bounded queue, a bounded layout --------------------------
BLANK = "/packs/aos-ghb-2021/scenarios/savage-gains/scoresheet.pdf"


@pytest.fixture
def layouts(monkeypatch) -> list[str]:
    """The HTML of every layout the app asks for (each still made by the real child)."""
    asked: list[str] = []
    real = pdf._LAYOUT.pdf

    def counted(html: str, paper: str, made=None, keep=None, spent=None, holder=None) -> bytes:
        asked.append(html)
        return real(html, paper, made, keep, spent, holder)

    monkeypatch.setattr(pdf._LAYOUT, "pdf", counted)
    return asked


def test_a_sheet_is_laid_out_once_until_what_it_shows_changes(client, layouts) -> None:
    first = client.get(BLANK)
    again = client.get(BLANK)
    assert first.status_code == again.status_code == 200
    assert again.data == first.data and len(layouts) == 1  # the second came from the cache
    assert client.get(f"{BLANK}?paper=letter").status_code == 200 and len(layouts) == 2
    # A game's sheet changes with the game: a recorded score is a new PDF, never the old one.
    game = new_game(client)
    url = f"/games/{game['id']}/scoresheet.pdf"
    before = client.get(url)
    Api(client, game).ok({"type": "turn", "round": 1, "player": 0, "control": {"west": 0}})
    after = client.get(url)
    assert len(layouts) == 4 and after.data != before.data
    assert client.get(url).data == after.data and len(layouts) == 4


def test_two_prints_of_one_new_sheet_at_once_make_one_layout(app, monkeypatch) -> None:
    laid_out: list[str] = []
    real = pdf._LAYOUT._lay_out
    both_queued = threading.Event()

    def held(html: str, paper: str) -> bytes:
        laid_out.append(html)
        both_queued.wait(10)  # the second print is waiting behind this one
        return real(html, paper)

    monkeypatch.setattr(pdf._LAYOUT, "_lay_out", held)
    answers: list = []
    # Two phones (two addresses: one phone holds one printing place) ask for the same sheet.
    prints = [
        threading.Thread(
            target=lambda n=n: answers.append(
                app.test_client().get(BLANK, environ_base={"REMOTE_ADDR": f"10.0.0.{n}"})
            )
        )
        for n in (1, 2)
    ]
    for t in prints:
        t.start()
    deadline = time.monotonic() + 10
    while pdf._LAYOUT._queued < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    both_queued.set()
    for t in prints:
        t.join(30)
    assert [a.status_code for a in answers] == [200, 200] and answers[0].data == answers[1].data
    assert len(laid_out) == 1


def test_the_cache_keeps_to_its_size_and_keeps_what_was_served_last(tmp_path) -> None:
    cache = pdf.Cache(tmp_path / "pdfs", max_bytes=10_000)
    for n in range(4):
        cache.put(f"k{n}", bytes([n]) * 3_000)
        time.sleep(0.01)  # distinct times for "served last"
    assert cache.size() <= 10_000
    assert cache.get("k3") == bytes([3]) * 3_000
    cache.get("k2")
    for n in range(4, 8):
        time.sleep(0.01)
        cache.put(f"k{n}", bytes([n]) * 3_000)
        time.sleep(0.01)  # file times tick in steps of a few milliseconds
        cache.get("k2")  # a sheet printed again and again stays
    assert cache.size() <= 10_000
    assert cache.get("k2") is not None and cache.get("k0") is None and cache.get("k7") is not None
    cache.put("huge", b"x" * 20_000)  # larger than the whole cache: not kept, nothing pushed out
    assert cache.get("huge") is None and cache.get("k7") is not None


@pytest.fixture
def stuck(monkeypatch):
    """The app's layout process held busy until the test lets it go."""
    release = threading.Event()
    started = threading.Event()

    def slow(html: str, paper: str) -> bytes:
        started.set()
        release.wait(30)
        return b"%PDF-1.7 held"

    monkeypatch.setattr(pdf._LAYOUT, "_lay_out", slow)
    yield started
    release.set()


def test_a_full_print_queue_answers_503_at_once_and_other_pages_still_answer(app, stuck, monkeypatch) -> None:
    monkeypatch.setattr(pdf, "QUEUE", 1)
    holder = threading.Thread(target=lambda: app.test_client().get(BLANK))
    holder.start()
    assert stuck.wait(10)
    client = app.test_client()
    busy = client.get("/packs/aos-ghb-2021/scenarios/savage-gains/map.pdf")
    assert busy.status_code == 503 and busy.headers["Retry-After"] == "10"
    assert "Other sheets are being printed just now; try again in 10 seconds." in busy.text
    assert client.get("/api/v1/packs").status_code == 200  # the worker's other threads are free
    assert pdf._LAYOUT._queued == 1  # the refused print never took a place


def test_a_print_waits_for_its_turn_only_so_long(monkeypatch) -> None:
    layout = pdf.Layout()
    release = threading.Event()
    monkeypatch.setattr(layout, "_lay_out", lambda html, paper: release.wait(30) and b"%PDF")
    monkeypatch.setattr(pdf, "QUEUE", 2)
    monkeypatch.setattr(pdf, "WAIT_SECONDS", 0.3)
    holder = threading.Thread(target=layout.pdf, args=("<p>first</p>", "a4"))
    holder.start()
    while layout._queued == 0:
        time.sleep(0.01)
    with pytest.raises(pdf.PrintBusy, match=re.escape("waited 0.3 s")):
        layout.pdf("<p>second</p>", "a4")
    release.set()
    holder.join(10)
    assert layout._queued == 0


def test_one_asker_holds_one_printing_place(monkeypatch) -> None:
    """Issue 27 item 7: a phone printing from many threads at once held both of a worker's
    places, and every other phone's print was turned away (503): it holds one."""
    layout = pdf.Layout()
    release = threading.Event()
    monkeypatch.setattr(layout, "_lay_out", lambda html, paper: release.wait(30) and b"%PDF")
    monkeypatch.setattr(pdf, "QUEUE", 2)
    first = threading.Thread(target=layout.pdf, args=("<p>first</p>", "a4"), kwargs={"holder": "10.0.0.2"})
    first.start()
    while layout._queued == 0:
        time.sleep(0.01)
    with pytest.raises(pdf.PrintBusy, match=re.escape("a print for 10.0.0.2 is already under way")):
        layout.pdf("<p>again</p>", "a4", holder="10.0.0.2")
    other: list[bytes] = []
    second = threading.Thread(target=lambda: other.append(layout.pdf("<p>mine</p>", "a4", holder="10.0.0.3")))
    second.start()
    while layout._queued < 2:  # the other phone took the second place, waiting its turn
        time.sleep(0.01)
    release.set()
    first.join(10)
    second.join(10)
    assert other == [b"%PDF"] and layout._queued == 0 and not layout._holders


def test_a_layout_past_its_time_is_stopped_and_the_next_print_works(layout, monkeypatch) -> None:
    layout.pdf("<p>warm</p>", "a4")
    first_child = layout._child
    monkeypatch.setattr(pdf, "LAYOUT_SECONDS", 1.0)
    rows = "".join(f"<tr><td>{n}</td><td>Saurus Warriors {n}</td></tr>" for n in range(40_000))
    started = time.monotonic()
    with pytest.raises(pdf.PrintTooSlow):
        layout.pdf(f"<table>{rows}</table>", "a4")
    assert time.monotonic() - started < 10  # stopped, not laid out to the end (minutes)
    assert first_child.poll() is not None  # the runaway child is gone
    monkeypatch.setattr(pdf, "LAYOUT_SECONDS", 60.0)
    assert "after" in _text(layout.pdf("<p>after</p>", "a4"))


def test_a_sheet_too_slow_to_lay_out_is_a_sentence_and_not_laid_out_again(
    client, layouts, monkeypatch
) -> None:
    monkeypatch.setattr(pdf, "LAYOUT_SECONDS", 0.001)  # any layout is too slow
    slow = client.get(BLANK)
    assert slow.status_code == 503
    assert "This sheet took longer than 0.001 seconds to lay out and was stopped" in slow.text
    again = client.get(BLANK)
    assert again.status_code == 503 and len(layouts) == 1  # refused from memory, no second layout
    monkeypatch.setattr(pdf, "LAYOUT_SECONDS", 60.0)
    assert client.get(f"{BLANK}?paper=letter").status_code == 200  # other sheets still print


def test_layouts_run_below_the_web_workers_priority(shared_layout) -> None:
    layout = shared_layout
    layout.pdf("<p>nice</p>", "a4")
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    assert os.getpriority(os.PRIO_PROCESS, layout._child.pid) == min(19, ours + pdf.NICENESS)


def test_a_300_letter_word_stays_inside_the_page(client) -> None:
    word = "Skink" * 60
    body = {
        "pack": "aos-ghb-2021",
        "name": "W" * 60,
        "points_limit": 2000,
        "faction": "Seraphon",
        "entries": [
            {"name": "M" * 60, "points": 100, "roles": ["Battleline"], "notes": word},
            {"name": "Saurus Guard", "points": 115, "roles": ["Battleline"], "notes": f"see {word[4:]}"},
        ],
    }
    made = client.post("/api/v1/rosters", json=body)
    assert made.status_code == 201, made.json
    for paper, width_pt in (("a4", 595.3), ("letter", 612.0)):
        data = client.get(f"/rosters/{made.json['id']}/roster.pdf?paper={paper}").data
        boxes = subprocess.run(
            ["pdftotext", "-bbox", "-", "-"], input=data, capture_output=True, check=True
        ).stdout.decode()
        words = re.findall(
            r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>', boxes
        )
        assert words
        right_margin = 12 / 25.4 * 72  # print.css: 12 mm
        assert max(float(x_max) for _, x_max, _ in words) <= width_pt - right_margin + 0.5
        # Every letter is printed: the word is wrapped, not cut.
        text = "".join(w for _, _, w in words).replace("\u200b", "")
        assert word in text and "M" * 60 in text and "W" * 60 in text


def test_print_templates_compile_and_speak_without_the_web_app() -> None:
    # A server whose app is not Muster's own (a benchmark's bare app) still compiles every print
    # before its workers fork; a sheet's numbers are written in the language it is said in.
    code = (
        "from babel.support import Translations\n"
        "from app.infra import pdf\n"
        "from app.rules import speech\n"
        "pdf.compile_templates()\n"
        "german = Translations.load('app/translations', ['de'])\n"
        "with speech.speaking(german):\n"
        "    html = pdf.render_html('sheet_base.html', {'points_limit': 2000, 'pack': {'name': 'Hammerfest'}, 'scenario': {'name': 'Border War'}, 'game': None, 'summary': None})\n"
        "print('2.000' in html, '<html lang=\"de\"' in html)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]


def test_a_layout_is_counted_in_the_processor_time_it_took() -> None:
    """A phone's layout budget counts the layout process's processor time: waiting while another
    phone's load holds the processor spends none of it (read from /proc on Linux)."""
    me = os.getpid()
    before = pdf.cpu_seconds(me)
    assert before is not None
    end = time.process_time() + 0.3
    while time.process_time() < end:
        pass  # busy: the processor works for this process
    busy = pdf.cpu_seconds(me)
    time.sleep(0.3)  # waiting: the processor is given to others
    idle = pdf.cpu_seconds(me)
    assert busy - before >= 0.2
    assert idle - busy <= 0.05
    assert pdf.cpu_seconds(2**22 + 1) is None  # no such process
