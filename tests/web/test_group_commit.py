"""Group commit (app/store/group_commit.py): writes that arrive together share one commit.

Real SQLite files, real threads: a first write holds its commit open until three more have
queued behind it; those three then go to disk together, in one commit, and a write that
fails in a batch undoes only itself.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from app.store import Store
from app.store.group_commit import GroupCommit


def _wait_for(condition: Any) -> None:
    deadline = time.monotonic() + 10
    while not condition():
        assert time.monotonic() < deadline, "the writers never queued"
        time.sleep(0.005)


def test_writes_queued_behind_a_commit_share_the_next_one(tmp_path: Path) -> None:
    path = tmp_path / "muster.sqlite"
    stores = [Store(path) for _ in range(4)]
    stores[0].connection.db.conn.execute("CREATE TABLE marks (n INTEGER PRIMARY KEY)")
    group = GroupCommit()
    release, writing = threading.Event(), threading.Event()
    answers: dict[int, Any] = {}

    def first(connection: Any) -> str:
        connection.db.conn.execute("INSERT INTO marks VALUES (0)")
        writing.set()
        release.wait(10)  # the others queue meanwhile
        return "first"

    def mark(n: int) -> Any:
        def write(connection: Any) -> int:
            connection.db.conn.execute("INSERT INTO marks VALUES (?)", [n])
            return n

        return write

    def send(i: int, write: Any) -> None:
        try:
            answers[i] = group.run(stores[i].connection, write)
        except sqlite3.Error as exc:
            answers[i] = exc

    threads = [threading.Thread(target=send, args=(0, first))]
    threads[0].start()
    # The leader has taken its batch (once it holds the lock) and is writing: later writes queue.
    assert writing.wait(10)
    # The third write repeats the first one's key: it fails alone.
    for i, n in ((1, 1), (2, 0), (3, 3)):
        threads.append(threading.Thread(target=send, args=(i, mark(n))))
        threads[-1].start()
    _wait_for(lambda: len(group._queue) == 3)
    release.set()
    for thread in threads:
        thread.join(10)
    assert answers[0] == "first" and answers[1] == 1 and answers[3] == 3
    assert isinstance(answers[2], sqlite3.IntegrityError)
    assert (group.commits, group.writes) == (2, 4)
    check = sqlite3.connect(path)
    assert [n for (n,) in check.execute("SELECT n FROM marks ORDER BY n")] == [0, 1, 3]
    for store in stores:
        store.close()


def test_a_write_is_answered_only_once_its_commit_is_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "muster.sqlite"
    store = Store(path)
    store.connection.db.conn.execute("CREATE TABLE marks (n INTEGER PRIMARY KEY)")
    group = GroupCommit()

    def write(connection: Any) -> int:
        connection.db.conn.execute("INSERT INTO marks VALUES (7)")
        return 7

    assert group.run(store.connection, write) == 7
    # Another connection, opened after the answer, sees the row: it was committed first.
    assert sqlite3.connect(path).execute("SELECT count(*) FROM marks").fetchone() == (1,)

    def broken(connection: Any) -> None:
        raise ValueError("not a write")

    with pytest.raises(ValueError, match="not a write"):
        group.run(store.connection, broken)
    assert group.run(store.connection, lambda c: "after") == "after"
    store.close()


def test_writes_queued_while_the_leader_waits_for_the_lock_share_its_commit(tmp_path: Path) -> None:
    """Another server process holds the write lock: the writes that queue behind this process's
    leader meanwhile go to disk in the leader's commit, not one commit after another."""
    path = tmp_path / "muster.sqlite"
    stores = [Store(path) for _ in range(4)]
    stores[0].connection.db.conn.execute("CREATE TABLE marks (n INTEGER PRIMARY KEY)")
    other = Store(path)  # the other process's connection, with its own lock file handle
    group = GroupCommit()
    answers: dict[int, Any] = {}

    def send(i: int) -> None:
        answers[i] = group.run(
            stores[i].connection, lambda c: c.db.conn.execute("INSERT INTO marks VALUES (?)", [i]).rowcount
        )

    with other.connection.writer():
        threads = [threading.Thread(target=send, args=(0,))]
        threads[0].start()
        _wait_for(lambda: group._leading)
        for i in (1, 2, 3):
            threads.append(threading.Thread(target=send, args=(i,)))
            threads[-1].start()
        _wait_for(lambda: len(group._queue) == 4)
    for thread in threads:
        thread.join(10)
    assert answers == {0: 1, 1: 1, 2: 1, 3: 1}
    assert (group.commits, group.writes) == (1, 4)
    check = sqlite3.connect(path)
    assert [n for (n,) in check.execute("SELECT n FROM marks ORDER BY n")] == [0, 1, 2, 3]
    for store in [*stores, other]:
        store.close()
