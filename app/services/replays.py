"""Replayed games kept in memory between requests, brought up to date from the log.

A game's state is the fold of its event log through its game system. Folding the whole log
again on every request was a third of an event POST and most of the club home's time on a
busy night. Each server process keeps the states it last computed, keyed by game, with the
ids of the events each has folded; a request folds only the events recorded since (by any
process) onto a copy, or replays from the start when the log no longer extends what was
folded (an undo, a pack reloaded, a set-up changed).

The log stays the only truth: an entry is used only when the event ids it folded are exactly
the start of the stored log, or when the game row still holds the log version the entry was
folded at (m018: a mark the database changes with every event the game takes, from any
process); then neither the log nor its ids are read, and the entry's events, decoded once,
are handed out as the log. States and kept events are never changed once made (applying an
event makes a new state, appending a new list), so any number of requests may read them at
once. Only the games service (app/services/games.py) uses this cache.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.rules import log, speech
from app.rules.game import Setup
from app.rules.pack import Pack
from app.rules.systems import GameSystem

# How much each process keeps, counted in folded events. A kept game takes a few KB and more
# for each event it folded (tracemalloc, December 2026: a Savage Gains game 5 KB after 2
# events and 31 KB after all 17, 1.7 KB an event; a First Blood game 16 KB after 4 rounds,
# 4.6 KB a round, which records a whole battle round at once): this bound is about 16 MB a
# process of Pitched Battles games, 40 MB at most of First Blood rounds. That is a club night's
# thirty tables many times over, or a tournament of 500 games half played. Keeping only 100
# games, a server taking events for more tables (800 in the benchmark) replayed nearly every
# game from its log on every event; a game beyond the bound still is, as before.
SIZE = 9000
# What a kept game weighs besides its events: its set-up, its empty state, the entry itself.
GAME_WEIGHT = 3
# A game nobody has asked about for this long is let go (its next request replays it), so a
# server left running between club nights holds only the games of the last one.
IDLE_SECONDS = 6 * 3600.0


@dataclass
class Entry:
    """A folded state and what it was folded from."""

    pack: Pack
    setup: Setup
    ids: list[str]  # every event folded, undo events included, in log order
    state: Any
    used: float = 0.0  # when a request last asked for it (the clock of :class:`Replays`)
    events: list[dict[str, Any]] = field(default_factory=list)  # the log folded, shared read-only
    version: str | None = None  # the log version it was folded at (None: unknown)


class Replays:
    """The states of recently used games; a state handed out is never changed."""

    def __init__(self, size: int = SIZE, clock: Callable[[], float] = time.monotonic) -> None:
        self.size = size  # the most folded events kept, each game counted GAME_WEIGHT more
        self._clock = clock
        # Least recently asked first: a game is moved to the end whenever it is asked for.
        self._entries: OrderedDict[tuple[str, str], Entry] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()
        self.hits = 0  # states reused (folding only newer events, if any)
        self.misses = 0  # states replayed from the start

    def current(self, game_id: str, pack: Pack, setup: Setup, version: str | None) -> Entry | None:
        """The kept entry of a game whose log is at ``version`` (read with its row), or ``None``.

        Its ``events`` are then the game's whole stored log and its ``state`` their fold.
        """
        if version is None:
            return None
        key = self._key(game_id)
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry.version != version or entry.pack is not pack or entry.setup != setup:
                return None
            entry.used = self._clock()
            self._entries.move_to_end(key)
        self.hits += 1
        return entry

    def state(
        self,
        game_id: str,
        system: GameSystem,
        pack: Pack,
        setup: Setup,
        events: list[dict[str, Any]],
        version: str | None = None,
    ) -> Any:
        """The state of the game after ``events`` (its whole stored log, at log version
        ``version`` when known), kept for next time."""
        key = self._key(game_id)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                entry.used = self._clock()
                self._entries.move_to_end(key)
        if entry is not None and self._extends(entry, pack, setup, events):
            self.hits += 1
            if len(events) == len(entry.ids):
                if version is not None and entry.version != version:
                    self.keep(game_id, pack, setup, events, entry.state, version)
                return entry.state
            state = log.fold(system, log.clone(entry.state), events[len(entry.ids) :])
        else:
            self.misses += 1
            state = log.replay(system, pack, setup, events)
        self.keep(game_id, pack, setup, events, state, version)
        return state

    def keep(
        self,
        game_id: str,
        pack: Pack,
        setup: Setup,
        events: list[dict[str, Any]],
        state: Any,
        version: str | None = None,
    ) -> None:
        """Hold ``state`` as the fold of ``events`` (the log at ``version``, when known) for the
        next request on this game; ``events`` is kept as it is and must not change after."""
        now = self._clock()
        entry = Entry(pack, setup, [str(e.get("id")) for e in events], state, now, events, version)
        key = self._key(game_id)
        with self._lock:
            known = self._entries.get(key)
            # A state kept with its log version is the log at that moment (a database restored
            # from a backup may hold a shorter log again): it replaces a longer one.
            if (
                known is not None
                and version is None
                and len(known.ids) > len(entry.ids)
                and known.ids[: len(entry.ids)] == entry.ids
            ):
                return  # another request already kept a later state of the same log
            if known is not None:
                self._weight -= _weight(known)
            self._entries[key] = entry
            self._entries.move_to_end(key)
            self._weight += _weight(entry)
            while len(self._entries) > 1:
                oldest = next(iter(self._entries.values()))
                if self._weight <= self.size and now - oldest.used < IDLE_SECONDS:
                    break
                self._entries.popitem(last=False)
                self._weight -= _weight(oldest)

    @staticmethod
    def _key(game_id: str) -> tuple[str, str]:
        # A fold may say sentences (a result's reason, a refusal) in the reader's language: a
        # state is kept per language, so no phone reads another's language from the cache.
        return game_id, speech.language()

    @staticmethod
    def _extends(entry: Entry, pack: Pack, setup: Setup, events: list[dict[str, Any]]) -> bool:
        """Whether ``events`` are the folded events followed only by new ones that fold on top."""
        if entry.pack is not pack or entry.setup != setup or len(events) < len(entry.ids):
            return False
        if any(str(e.get("id")) != i for e, i in zip(events, entry.ids, strict=False)):
            return False
        # An undo changes which earlier events are in force: only a replay gets that right.
        return all(e.get("type") != "undo" for e in events[len(entry.ids) :])


def _weight(entry: Entry) -> int:
    """What a kept game counts against :data:`SIZE`: its events and a game's own weight."""
    return len(entry.ids) + GAME_WEIGHT
