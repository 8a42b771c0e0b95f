"""How often one address may create, import or print: counted per minute, shared by all workers.

One phone on the club Wi-Fi must not fill the disk with imports or keep the PDF layout busy
for everyone. Each kind of costly request has a number allowed per address per minute; the
next one that minute gets a 429 with a sentence and ``Retry-After``.

The counts live in their own small SQLite file next to the database, so both gunicorn workers
see the same numbers. They are disposable (a lost minute of counts harms nothing), so that
file is written without fsync and never waits on the game database's write lock: a count
costs a request 25 µs (median on the busy development machine).
"""

from __future__ import annotations

import functools
import math
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from flask import abort, current_app, jsonify, make_response, render_template, request

from app.rules.speech import say, words

F = TypeVar("F", bound=Callable[..., Any])

WINDOW_SECONDS = 60
# Where counting reads the time: tests hold it still, so a count never straddles two minutes.
clock: Callable[[], float] = time.time
# Per address per minute. A club's busiest minute (an organiser setting up six tables, a
# player fixing a roster and printing it on both paper sizes) stays well under these.
# Imports count every list read (each preview, and the read again when it is saved): a
# player fixing a pasted list's lines previews it a few times.
DEFAULTS = {"games": 6, "rosters": 6, "imports": 10, "terrain": 12, "pdfs": 12, "layout": 20}
# Budgets: what is counted is an amount, not requests: "layout" is the seconds of PDF layout
# one address may take a minute (the layout process's processor time where the system tells
# it, so another phone's load does not spend it; a print served from the PDF cache takes
# none). Two layout places a worker: 20 s leaves the rest of the minute to every other phone.
BUDGETS = {
    "layout": words("Too much printing from this device: at most {most} seconds of page layout a minute.")
}
WHAT = {
    "games": words("Too many new games from this device: at most {most} a minute."),
    "rosters": words("Too many new rosters from this device: at most {most} a minute."),
    "imports": words("Too many imports from this device: at most {most} a minute."),
    "terrain": words("Too many saved terrain sets from this device: at most {most} a minute."),
    "pdfs": words("Too many PDFs from this device: at most {most} a minute."),
}

_local = threading.local()


def allowed(kind: str) -> int:
    """How many requests of this kind one address may make a minute (0: no limit).

    From the app config ``LIMIT_<KIND>``, else the environment ``MUSTER_LIMIT_<KIND>``, else
    the default above.
    """
    key = f"LIMIT_{kind.upper()}"
    configured = current_app.config.get(key, os.environ.get(f"MUSTER_{key}"))
    return int(configured) if configured not in (None, "") else DEFAULTS[kind]


def counts_file(database: str | Path) -> Path:
    """Where the counts are kept: ``<database>.limits.sqlite`` beside the database."""
    return Path(database).with_suffix(".limits.sqlite")


def _counts(path: str) -> sqlite3.Connection:
    """This thread's connection to the counts file."""
    db: sqlite3.Connection | None = getattr(_local, "db", None)
    if db is None or getattr(_local, "path", None) != path:
        if db is not None:
            db.close()
        db = sqlite3.connect(path, timeout=5, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA synchronous=OFF")  # counts need not survive a power cut
        _prepare(db)
        _local.db, _local.path = db, path
    return db


def prepare(database: str | Path) -> None:
    """Make the counts file beside the database once, at start-up, before any request counts."""
    db = sqlite3.connect(str(counts_file(database)), timeout=5, isolation_level=None)
    try:
        _prepare(db)
    finally:
        db.close()


def _prepare(db: sqlite3.Connection) -> None:
    # Switching a file to WAL does not wait on SQLite's busy timeout: two threads opening a new
    # counts file at once would make one fail ("database is locked"), so that step is retried.
    for attempt in range(100):
        try:
            if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                db.execute("PRAGMA journal_mode=WAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS counts (kind TEXT, address TEXT, window INTEGER,"
                " n INTEGER NOT NULL, PRIMARY KEY (kind, address, window)) WITHOUT ROWID"
            )
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or attempt == 99:
                raise
            time.sleep(0.05)


def count(path: str | Path, kind: str, address: str, now: float | None = None) -> tuple[int, float]:
    """Count one request of this kind from this address in the counts file at ``path``: its
    number this minute, and the seconds until the minute ends."""
    now = clock() if now is None else now
    window = int(now // WINDOW_SECONDS)
    db = _counts(str(path))
    # One statement: two workers counting at once can never both read the same number.
    (n,) = db.execute(
        "INSERT INTO counts VALUES (?, ?, ?, 1) ON CONFLICT DO UPDATE SET n = n + 1 RETURNING n",
        (kind, address, window),
    ).fetchone()
    if n == 1:  # the first count of a minute clears the minutes before it
        db.execute("DELETE FROM counts WHERE kind = ? AND window < ?", (kind, window - 1))
    return n, (window + 1) * WINDOW_SECONDS - now


def add(path: str | Path, kind: str, address: str, amount: int, now: float | None = None) -> int:
    """Add ``amount`` to this address's count of ``kind`` this minute; the new total."""
    now = clock() if now is None else now
    window = int(now // WINDOW_SECONDS)
    db = _counts(str(path))
    (n,) = db.execute(
        "INSERT INTO counts VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n RETURNING n",
        (kind, address, window, amount),
    ).fetchone()
    if n == amount:  # the first count of a minute clears the minutes before it
        db.execute("DELETE FROM counts WHERE kind = ? AND window < ?", (kind, window - 1))
    return int(n)


def spent(path: str | Path, kind: str, address: str, now: float | None = None) -> tuple[int, float]:
    """This address's count of ``kind`` this minute, and the seconds until the minute ends."""
    now = clock() if now is None else now
    window = int(now // WINDOW_SECONDS)
    row = (
        _counts(str(path))
        .execute(
            "SELECT n FROM counts WHERE kind = ? AND address = ? AND window = ?", (kind, address, window)
        )
        .fetchone()
    )
    return (int(row[0]) if row else 0), (window + 1) * WINDOW_SECONDS - now


def check_budget(kind: str) -> None:
    """Past this address's budget of ``kind`` this minute (see BUDGETS), answer 429."""
    most = allowed(kind)
    if most <= 0:
        return
    used, left = spent(counts_file(current_app.config["DATABASE"]), kind, request.remote_addr or "unknown")
    if used < most * 1000:
        return
    _refuse(say(BUDGETS[kind], most=most), left)


def spend(kind: str, seconds: float) -> None:
    """Count ``seconds`` of ``kind`` against this address's budget (kept in milliseconds)."""
    if allowed(kind) > 0:
        add(
            counts_file(current_app.config["DATABASE"]),
            kind,
            request.remote_addr or "unknown",
            round(seconds * 1000),
        )


def limited(kind: str) -> Callable[[F], F]:
    """Refuse a view with 429 once this address has made more requests of ``kind`` this minute
    than :func:`allowed` lets it."""

    def decorate(view: F) -> F:
        @functools.wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            check(kind)
            return view(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate


def check(kind: str) -> None:
    """Count this request; past the limit, answer 429 with a sentence and ``Retry-After``."""
    most = allowed(kind)
    if most <= 0:
        return
    n, left = count(counts_file(current_app.config["DATABASE"]), kind, request.remote_addr or "unknown")
    if n <= most:
        return
    _refuse(say(WHAT[kind], most=most), left)


def _refuse(sentence: str, left: float) -> None:
    """Answer 429 with the sentence, when to try again, and ``Retry-After``."""
    wait = max(1, math.ceil(left))
    message = f"{sentence} Try again in {wait} seconds."
    if request.path.startswith("/api/"):
        response = make_response(jsonify(error=message), 429)
    else:
        response = make_response(render_template("error.html", message=message, code=429), 429)
    response.headers["Retry-After"] = str(wait)
    abort(response)
