"""One Muster per port: a second server started on a busy port says so and leaves.

The workers share their port with SO_REUSEPORT (so the kernel spreads phones over them); a
second Muster of the same user could otherwise join in silently and answer half the phones
from another database.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.console import english
from tests.server.conftest import ROOT, ServerProcess, new_game, request
from tests.setups import pitched_battle


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One production server for both tests (each leaves it running): a start is seconds."""
    folder = tmp_path_factory.mktemp("port")
    proc = ServerProcess(folder / "muster.sqlite", folder / "server.log")
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def test_a_second_muster_on_a_busy_port_refuses_to_start(server: ServerProcess, tmp_path) -> None:
    game_id, _token = new_game(server.port, pitched_battle())
    env = {
        **os.environ,
        "MUSTER_DB": str(tmp_path / "other.sqlite"),
        "MUSTER_PORT": str(server.port),
        "MUSTER_HOST": "127.0.0.1",
        "MUSTER_SECRET_KEY": "server-tests",
    }
    second = subprocess.run(
        [sys.executable, "-m", "app", "serve"],
        cwd=ROOT,
        env=english(env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert second.returncode == 1
    assert f"Port {server.port} is in use by another program" in second.stderr
    # Every request still reaches the first server and its database.
    statuses = {request(server.port, "GET", f"/api/v1/games/{game_id}")[0] for _ in range(40)}
    assert statuses == {200}


def test_the_port_is_free_again_once_the_server_stopped(server: ServerProcess) -> None:
    game_id, _token = new_game(server.port, pitched_battle())
    server.stop()
    server.start(timeout=30)
    assert request(server.port, "GET", f"/api/v1/games/{game_id}")[0] == 200
