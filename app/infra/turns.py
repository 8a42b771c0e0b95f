"""A lock that hands out its turns in the order they were asked for.

Python's own lock lets whichever thread asks at the moment it is released take it: a thread
that has waited long may lose it again and again to newcomers. For the layout process that
meant an honest phone's print waiting out its whole wait, while another address's prints,
each asked for the moment the last ended, took every turn (the one-phone soak, December 2026).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from types import TracebackType


class Turns:
    """A lock granted first come, first served (``with turns:`` or :meth:`acquire`)."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._line: deque[object] = deque()
        self._held = False

    def acquire(self, timeout: float | None = None) -> bool:
        """Wait for this thread's turn, at most ``timeout`` seconds (``None``: as long as it
        takes); whether the turn came."""
        ticket = object()
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            self._line.append(ticket)
            while self._held or self._line[0] is not ticket:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    self._line.remove(ticket)
                    self._cond.notify_all()  # the next in line may be first now
                    return False
                self._cond.wait(left)
            self._line.popleft()
            self._held = True
            return True

    def release(self) -> None:
        """End the turn; the longest waiting thread's comes next."""
        with self._cond:
            if not self._held:
                raise RuntimeError("release of a turn not held")
            self._held = False
            self._cond.notify_all()

    @property
    def waiting(self) -> int:
        """How many threads wait for a turn."""
        with self._cond:
            return len(self._line)

    def __enter__(self) -> Turns:
        self.acquire()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.release()
