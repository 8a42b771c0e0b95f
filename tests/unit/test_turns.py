"""The layout process's turns go first come, first served (app/infra/turns.py): a phone that
has waited for its print is not passed by another phone's next print, asked for the moment the
last one ended."""

from __future__ import annotations

import threading
import time

import pytest

from app.infra.turns import Turns


def _wait_until(check, seconds: float = 5.0) -> None:
    stop = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < stop, "the waiting thread never queued"
        time.sleep(0.005)


def test_a_thread_that_waited_goes_before_one_that_asks_after_the_release() -> None:
    turns = Turns()
    order: list[str] = []
    assert turns.acquire()  # the flood's print, laying out

    def honest() -> None:
        assert turns.acquire(timeout=5)
        order.append("honest")
        turns.release()

    waiter = threading.Thread(target=honest)
    waiter.start()
    _wait_until(lambda: turns.waiting == 1)
    # The flood's print ends and its next one asks at once: it queues behind the honest phone.
    turns.release()
    assert turns.acquire(timeout=5)
    order.append("flood")
    turns.release()
    waiter.join(5)
    assert order == ["honest", "flood"]


def test_a_wait_that_runs_out_leaves_the_line_and_the_next_goes_on() -> None:
    turns = Turns()
    turns.acquire()
    assert turns.acquire(timeout=0.05) is False
    assert turns.waiting == 0
    got: list[bool] = []
    later = threading.Thread(target=lambda: got.append(turns.acquire(timeout=5)))
    later.start()
    _wait_until(lambda: turns.waiting == 1)
    turns.release()
    later.join(5)
    assert got == [True]
    turns.release()
    with turns:  # free again, and usable as a context manager
        assert turns.waiting == 0


def test_releasing_a_turn_nobody_holds_is_an_error() -> None:
    with pytest.raises(RuntimeError):
        Turns().release()
