"""Keeping the server's memory near its idle size on a Pi, where glibc would let it creep up.

glibc's malloc gives each thread that allocates its own arena (up to eight per core), and
freed memory stays inside its arena until something asks for it back. Under sixty phones,
the server threads of each worker doubled its memory and never gave it back. Two
arenas, and a trim of the free pages every few seconds, keep a worker close to where it
started. On other C libraries (musl, macOS) none of this exists and nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading
import time
from typing import Any

M_ARENA_MAX = -8  # from glibc's malloc.h
TRIM_SECONDS = 5.0


def _libc() -> Any:
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None


def fewer_arenas(arenas: int = 2) -> None:
    """Cap malloc's arenas (before any thread starts; forked workers inherit it)."""
    libc = _libc()
    if libc is None or os.environ.get("MALLOC_ARENA_MAX") or not hasattr(libc, "mallopt"):
        return  # not glibc, or the administrator chose
    libc.mallopt(M_ARENA_MAX, arenas)


def trim_now_and_then(seconds: float = TRIM_SECONDS) -> threading.Thread | None:
    """Start a thread that hands freed heap pages back to the system every ``seconds``."""
    libc = _libc()
    trim = getattr(libc, "malloc_trim", None) if libc is not None else None
    if trim is None:
        return None

    def loop() -> None:
        while True:
            time.sleep(seconds)
            trim(0)  # ctypes lets go of the GIL meanwhile: requests carry on

    thread = threading.Thread(target=loop, name="malloc-trim", daemon=True)
    thread.start()
    return thread
