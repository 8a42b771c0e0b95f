"""HTTPS served by `python -m app serve` (issue 26 items 1 and 6): alone (gunicorn) and behind the
front server (nginx), the plain-HTTP redirect, a renewed certificate served without a failed
request, and the settings refused with one sentence each.
"""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app.web.assets import as_served
from tests.certs import Authority
from tests.console import english
from tests.server.conftest import ROOT, ServerProcess, free_port, https
from tests.server.refusals import Refusals
from tests.setups import pitched_battle

NAME = "club.muster.test"
MODES = ("gunicorn", "nginx")


def _client(ca: Path) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(ca))


def _server(tmp_path: Path, mode: str, cert: Path, key: Path, context: ssl.SSLContext) -> ServerProcess:
    env = {"MUSTER_TLS_CERT": str(cert), "MUSTER_TLS_KEY": str(key), "MUSTER_HTTP_PORT": str(free_port())}
    if mode == "nginx":
        env.update(MUSTER_FRONT="nginx", MUSTER_BACKEND_PORT=str(free_port()))
    else:
        env["MUSTER_FRONT"] = ""

    def ready(port: int) -> bool:
        return https(port, "GET", "/api/v1/packs", context)[0] == 200

    return ServerProcess(tmp_path / "muster.sqlite", tmp_path / "server.log", env=env, ready=ready)


@dataclass
class Https:
    """A Muster serving HTTPS, the test CA behind its certificate, and the serial it serves now."""

    server: ServerProcess
    ca: Authority
    context: ssl.SSLContext
    serial: int


@pytest.fixture(scope="module", params=MODES)
def served(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Https]:
    """Muster serving HTTPS with a test CA's certificate, alone or behind nginx.

    One server of each kind for this file's tests (a start is seconds of gunicorn, nginx and
    the packs loading): the renewal test renews its certificate and records the new serial."""
    folder = tmp_path_factory.mktemp(f"https-{request.param}")
    ca = Authority.make()
    cert, key, serial = ca.issue(folder / "tls")
    context = _client(ca.write(folder / "ca.pem"))
    server = _server(folder, request.param, cert, key, context)
    server.start()
    try:
        yield Https(server, ca, context, serial)
    finally:
        server.stop()


def test_https_with_secure_cookies_hsts_and_plain_http_sent_on(served: Https) -> None:
    server, context, serial = served.server, served.context, served.serial
    status, _made, game, served_serial = https(
        server.port, "POST", "/api/v1/games", context, pitched_battle()
    )
    assert status == 201 and served_serial == serial
    status, page, _body, _ = https(server.port, "GET", "/", context)
    assert status == 200
    assert page.getheader("Strict-Transport-Security") == "max-age=31536000"
    status, joined, _body, _ = https(
        server.port, "GET", f"/games/{game['id']}/join/{game['edit_token']}", context
    )
    assert status == 303 and "Secure" in (joined.getheader("Set-Cookie") or "")
    # Plain HTTP at the name is sent on to HTTPS there, path and query kept.
    plain_port = int(server.env["MUSTER_HTTP_PORT"])
    status, moved, _ = _plain(plain_port, f"/games/{game['id']}?paper=a4", f"{NAME}:{plain_port}")
    assert status == 301
    assert moved.getheader("Location") == f"https://{NAME}:{server.port}/games/{game['id']}?paper=a4"
    status, home, page = _plain(plain_port, "/", f"127.0.0.1:{plain_port}")
    if server.env.get("MUSTER_FRONT") == "nginx":
        # At the Pi's own address the club set-up answers as without HTTPS (a phone whose router
        # hides the name still plays), and the home page tells the phone the secure address.
        assert status == 200 and home.getheader("Strict-Transport-Security") is None
        assert f'href="https://{NAME}:{server.port}/"' in page.decode()
        assert "cannot install Muster or reopen a game with no connection" in page.decode()
    else:
        # gunicorn alone (make run) has no plain Muster to offer: every plain request goes on.
        assert status == 301 and home.getheader("Location") == f"https://{NAME}:{server.port}/"
    # A phone cannot claim another address or HTTPS through the front server's headers.
    status, page, _body, _ = https(server.port, "GET", "/", context, headers={"X-Forwarded-Proto": "http"})
    assert page.getheader("Strict-Transport-Security") == "max-age=31536000"
    # A PDF, and a file larger than the front server's buffers, come through whole.
    status, sheet, pdf, _ = https(server.port, "GET", f"/games/{game['id']}/scoresheet.pdf", context)
    assert status == 200 and sheet.getheader("Content-Type") == "application/pdf"
    assert pdf.startswith(b"%PDF") and pdf.rstrip().endswith(b"%%EOF")
    path = ROOT / "static" / "offline.js"
    script = as_served(str(path), path.read_bytes())  # as Muster serves it: without comments
    assert len(script) > 48 * 1024
    status, _r, body, _ = https(
        server.port, "GET", "/static/offline.js", context, headers={"Accept-Encoding": "identity"}
    )
    assert status == 200 and body == script
    # The start-up line names the address phones open, with a QR code of it to scan.
    log = server.log.read_text()
    assert f"Muster on https://{NAME}:{server.port} (database" in log
    qr = log.split(f"Phones open https://{NAME}:{server.port}\n", 1)[1].splitlines()[:5]
    assert all(line and set(line) <= set("█▀▄ ") for line in qr)


def _plain(port: int, path: str, host: str) -> tuple[int, http.client.HTTPResponse, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"Host": host})
        response = conn.getresponse()
        return response.status, response, response.read()
    finally:
        conn.close()


def _replace(target: Path, source: Path) -> None:
    """Put a new file in place in one step, as `python -m app renew` does."""
    temp = target.with_name(f".{target.name}.new")
    shutil.copyfile(source, temp)
    os.replace(temp, target)


def test_a_renewed_certificate_is_served_without_a_failed_request(served: Https, tmp_path: Path) -> None:
    server, context, old_serial = served.server, served.context, served.serial
    new_cert, new_key, new_serial = served.ca.issue(tmp_path / "renewed", stem="new-")
    tls = Path(server.env["MUSTER_TLS_CERT"]).parent
    served_serials: list[int] = []
    failures: list[str] = []
    stop = threading.Event()

    def phone() -> None:
        # A phone that keeps opening new connections: each is a new TLS handshake.
        while not stop.is_set():
            try:
                status, _r, _b, serial = https(server.port, "GET", "/api/v1/packs", context)
                served_serials.append(serial)
                if status != 200:
                    failures.append(f"HTTP {status}")
            except Exception as exc:  # any failure counts, and the phone goes on
                failures.append(repr(exc))

    threads = [threading.Thread(target=phone) for _ in range(3)]
    for thread in threads:
        thread.start()
    try:
        _wait(lambda: len(served_serials) >= 20, "the phones' first requests")
        # certbot writes the certificate, then the key: connections in between must not fail.
        _replace(tls / "fullchain.pem", new_cert)
        seen = len(served_serials)
        _wait(lambda: len(served_serials) >= seen + 20, "requests between the certificate and the key")
        _replace(tls / "privkey.pem", new_key)
        if server.env.get("MUSTER_FRONT") == "nginx":
            done = subprocess.run(
                [sys.executable, "-m", "app", "reload"],
                cwd=ROOT,
                env=english({**os.environ, "MUSTER_DB": str(server.db)}),
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert done.returncode == 0 and "front server" in done.stdout, done.stdout + done.stderr
        # For a moment after a reload nginx's old worker may still take a connection (with the
        # old certificate) while it winds down: the renewal is done once twenty in a row are new.
        _wait(
            lambda: served_serials[-20:] == [new_serial] * 20,
            "twenty requests in a row on the new certificate",
        )
        served.serial = new_serial  # what the file's other tests now meet
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    assert failures == []
    assert served_serials[0] == old_serial and set(served_serials) == {old_serial, new_serial}
    print(f"\n{len(served_serials)} requests on new connections, none failed, across the renewal")


def _wait(done: Any, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds:g} s for {what}")
        time.sleep(0.02)


# Root reads any file: the unreadable-file case drops the two capabilities that allow it.
WITHOUT_READ_ANYTHING = (
    ["setpriv", "--bounding-set=-dac_override,-dac_read_search"] if os.geteuid() == 0 else []
)


@pytest.fixture(scope="module")
def refusals(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Refusals]:
    """Runs this file's refusals of `serve`, each in a fork of one process that imported Muster once."""
    made = Refusals(tmp_path_factory.mktemp("refusals"), dict(os.environ))
    try:
        yield made
    finally:
        made.close()


def _serve_refusal(refusals: Refusals | None, env: dict[str, str], limited: bool = False) -> str:
    """Start `python -m app serve` with these settings; it must refuse: its one sentence.

    The unreadable-file case starts it as its own process (its capabilities dropped first);
    the others run in a fork of ``refusals``, the same command without a second's imports."""
    port = free_port()
    full = {
        **os.environ,
        "MUSTER_DB": "/nonexistent/not-reached.sqlite",
        "MUSTER_PORT": str(port),
        "MUSTER_HOST": "127.0.0.1",
        "MUSTER_SECRET_KEY": "server-tests",
        "PYTHONDONTWRITEBYTECODE": "1",
        **env,
    }
    if limited or refusals is None:
        done = subprocess.run(
            [*(WITHOUT_READ_ANYTHING if limited else []), sys.executable, "-m", "app", "serve"],
            cwd=ROOT,
            env=english(full),
            capture_output=True,
            text=True,
            timeout=60,
        )
        returncode, stderr = done.returncode, done.stderr
    else:
        refused = refusals.serve(full)
        returncode, stderr = refused.returncode, refused.stderr
    assert returncode == 1, stderr
    # Nothing listens: the refusal comes before the port is taken.
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0
    return stderr.strip()


def _one_sentence(text: str) -> None:
    assert "\n" not in text and text.endswith(".") and "Traceback" not in text, text


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path]:
    cert, key, _ = Authority.make().issue(tmp_path / "tls")
    return cert, key


def test_refused_a_certificate_file_that_is_missing(
    refusals: Refusals, pair: tuple[Path, Path], tmp_path: Path
) -> None:
    sentence = _serve_refusal(
        refusals, {"MUSTER_TLS_CERT": str(tmp_path / "nothing.pem"), "MUSTER_TLS_KEY": str(pair[1])}
    )
    _one_sentence(sentence)
    assert sentence.startswith(f"MUSTER_TLS_CERT names {tmp_path / 'nothing.pem'}, which does not exist")


def test_refused_a_key_file_muster_cannot_read(pair: tuple[Path, Path]) -> None:
    cert, key = pair
    key.chmod(0o000)
    sentence = _serve_refusal(None, {"MUSTER_TLS_CERT": str(cert), "MUSTER_TLS_KEY": str(key)}, limited=True)
    _one_sentence(sentence)
    assert sentence.startswith(f"MUSTER_TLS_KEY names {key}, which Muster cannot read")


def test_refused_a_key_that_is_not_the_certificates(
    refusals: Refusals, pair: tuple[Path, Path], tmp_path: Path
) -> None:
    _other_cert, other_key, _ = Authority.make().issue(tmp_path / "other")
    sentence = _serve_refusal(refusals, {"MUSTER_TLS_CERT": str(pair[0]), "MUSTER_TLS_KEY": str(other_key)})
    _one_sentence(sentence)
    assert sentence.startswith(f"MUSTER_TLS_KEY names {other_key}, which is not the key of the certificate")


def test_refused_a_certificate_file_with_no_certificate(refusals: Refusals, pair: tuple[Path, Path]) -> None:
    _cert, key = pair
    sentence = _serve_refusal(refusals, {"MUSTER_TLS_CERT": str(key), "MUSTER_TLS_KEY": str(key)})
    _one_sentence(sentence)
    assert "holds no certificate" in sentence and "MUSTER_TLS_CERT" in sentence


@pytest.mark.parametrize(
    ("env", "start"),
    [
        ({"MUSTER_TLS_CERT": "CERT"}, "MUSTER_TLS_KEY must be set too"),
        ({"MUSTER_TLS_KEY": "KEY"}, "MUSTER_TLS_CERT must be set too"),
        (
            {"MUSTER_TLS_CERT": "CERT", "MUSTER_TLS_KEY": "KEY", "MUSTER_HTTP_PORT": "eighty"},
            "MUSTER_HTTP_PORT must be a port number",
        ),
        ({"MUSTER_HTTP_PORT": "8080"}, "MUSTER_HTTP_PORT sends plain HTTP on to HTTPS"),
        ({"MUSTER_FRONT": "caddy"}, "MUSTER_FRONT must be nginx"),
        (
            {"MUSTER_FRONT": "nginx", "MUSTER_PROXY": "1"},
            "MUSTER_PROXY says a proxy of your own stands in front",
        ),
    ],
)
def test_refused_settings_that_do_not_fit(
    refusals: Refusals, pair: tuple[Path, Path], env: dict[str, str], start: str
) -> None:
    paths = {"CERT": str(pair[0]), "KEY": str(pair[1])}
    sentence = _serve_refusal(refusals, {key: paths.get(value, value) for key, value in env.items()})
    _one_sentence(sentence)
    assert sentence.startswith(start)


def test_muster_stops_when_its_nginx_does(tmp_path: Path) -> None:
    # systemd then restarts both: a Muster nobody can reach must not look alive.
    server = ServerProcess(
        tmp_path / "muster.sqlite",
        tmp_path / "server.log",
        env={"MUSTER_FRONT": "nginx", "MUSTER_BACKEND_PORT": str(free_port())},
    )
    server.start()
    try:
        assert server.proc is not None
        nginx = int((tmp_path / "front" / "nginx.pid").read_text())
        os.kill(nginx, signal.SIGKILL)
        server.proc.wait(timeout=60)
        assert "nginx stopped: Muster stops with it." in server.log.read_text()
    finally:
        server.stop()
