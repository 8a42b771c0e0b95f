"""From no certificate to an installable Muster at https://NAME (issue 26, done-when 1).

A real ACME exchange on this machine: Debian's pebble (Let's Encrypt's test server) as the
ACME server, Debian's knot as the club's own DNS server taking RFC 2136 updates, and a real
`python -m app https --dns rfc2136` run (certbot and its plugin) proving the name with a TXT
record. Muster then serves the certificate behind its front server (nginx), and Chromium,
trusting pebble's root (an NSS database in its own HOME) and mapping the name to 127.0.0.1,
opens https://NAME:PORT as a phone at the club would: the service worker registers, the app is
installable, and a game page reopens with the network off. Last, `python -m app renew` gets a
new certificate and Muster serves it without a restart.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserType, expect

from tests.browser.conftest import CHROMIUM_ARGS, PHONE
from tests.browser.helpers import picture
from tests.certs import Authority
from tests.console import english
from tests.server.conftest import ROOT, ServerProcess, free_port
from tests.setups import pitched_battle

pytestmark = pytest.mark.browser

NAME = "club.muster.test"
ZONE = "muster.test"
PROGRAMS = ("pebble", "knotd", "nginx", "certutil")


def _program(name: str) -> str:
    found = shutil.which(name) or next(
        (p for p in (f"/usr/sbin/{name}", f"/usr/bin/{name}") if os.access(p, os.X_OK)), None
    )
    if found is None:
        pytest.fail(
            f"{name} is not installed: `make test` installs it (Debian packages pebble, knot, nginx, libnss3-tools)"
        )
    return found


def _wait_port(port: int, proc: subprocess.Popen[bytes], log: Path, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} stopped: {log.read_text()}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"{proc.args[0]} did not listen on {port}: {log.read_text()}")


class Daemons:
    """knot (the DNS server, with a TSIG key allowed to update the zone) and pebble (ACME)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.procs: list[subprocess.Popen[bytes]] = []
        self.dns_port = free_port()
        self.acme_port, self.management_port = free_port(), free_port()
        self.secret = base64.b64encode(os.urandom(32)).decode()
        self.ca = Authority.make("ACME listener CA")  # pebble's own HTTPS, trusted by certbot
        self.ca_file = self.ca.write(folder / "acme-ca.pem")

    def _start(self, command: list[str], name: str, port: int, env: dict[str, str] | None = None) -> None:
        log = self.folder / f"{name}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})}
            )
        self.procs.append(proc)
        _wait_port(port, proc, log)

    def start(self) -> None:
        knot = self.folder / "knot"
        knot.mkdir()
        (self.folder / f"{ZONE}.zone").write_text(
            f"$ORIGIN {ZONE}.\n$TTL 60\n@ SOA ns.{ZONE}. admin.{ZONE}. 1 60 60 600 60\n@ NS ns\nns A 127.0.0.1\n"
            f"club A 127.0.0.1\n"
        )
        (self.folder / "knot.conf").write_text(
            f'server:\n    rundir: "{knot}"\n    listen: 127.0.0.1@{self.dns_port}\n'
            f"key:\n  - id: muster\n    algorithm: hmac-sha256\n    secret: {self.secret}\n"
            "acl:\n  - id: update\n    key: muster\n    action: update\n"
            f'database:\n    storage: "{knot}"\n'
            f'zone:\n  - domain: {ZONE}\n    file: "{self.folder}/{ZONE}.zone"\n    acl: update\n'
            "    zonefile-sync: -1\n    journal-content: changes\n"
        )
        self._start([_program("knotd"), "-c", str(self.folder / "knot.conf")], "knot", self.dns_port)
        cert, key, _ = self.ca.issue(self.folder / "acme", name="localhost")
        config = {
            "pebble": {
                "listenAddress": f"127.0.0.1:{self.acme_port}",
                "managementListenAddress": f"127.0.0.1:{self.management_port}",
                "certificate": str(cert),
                "privateKey": str(key),
                "httpPort": free_port(),
                "tlsPort": free_port(),
                "ocspResponderURL": "",
                "externalAccountBindingRequired": False,
            }
        }
        (self.folder / "pebble.json").write_text(json.dumps(config))
        self._start(
            [
                _program("pebble"),
                "-config",
                str(self.folder / "pebble.json"),
                "-dnsserver",
                f"127.0.0.1:{self.dns_port}",
            ],
            "pebble",
            self.acme_port,
            env={"PEBBLE_VA_NOSLEEP": "1", "PEBBLE_WFE_NONCEREJECT": "0", "PEBBLE_AUTHZREUSE": "0"},
        )

    @property
    def directory(self) -> str:
        return f"https://127.0.0.1:{self.acme_port}/dir"

    def root(self) -> str:
        """Pebble's root certificate (made anew each start): what the phones trust in this test."""
        context = ssl.create_default_context(cafile=str(self.ca_file))
        url = f"https://127.0.0.1:{self.management_port}/roots/0"
        with urllib.request.urlopen(url, context=context, timeout=30) as answer:
            return answer.read().decode()

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


@pytest.fixture
def daemons(tmp_path: Path) -> Iterator[Daemons]:
    for name in PROGRAMS:
        _program(name)
    started = Daemons(tmp_path)
    try:
        started.start()
        yield started
    finally:
        started.stop()


def _app(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app", *command],
        cwd=ROOT,
        env=english({**os.environ, **env}),
        capture_output=True,
        text=True,
        timeout=180,
    )


def _settings(env_file: Path) -> dict[str, str]:
    pairs = (
        line.split("=", 1)
        for line in env_file.read_text().splitlines()
        if "=" in line and not line.startswith("#")
    )
    return {key.strip(): value.strip() for key, value in pairs}


def _served_serial(port: int, root: Path) -> int:
    """The certificate Muster serves for NAME, verified against pebble's root and the name."""
    context = ssl.create_default_context(cafile=str(root))
    with (
        socket.create_connection(("127.0.0.1", port), timeout=30) as raw,
        context.wrap_socket(raw, server_hostname=NAME) as tls,
    ):
        return int(tls.getpeercert()["serialNumber"], 16)


def test_a_club_gets_a_trusted_certificate_and_phones_install_muster(
    daemons: Daemons, tmp_path: Path, browser_type: BrowserType, browser_type_launch_args: dict[str, Any]
) -> None:
    instance = tmp_path / "instance"
    database = instance / "muster.sqlite"
    credentials = tmp_path / "rfc2136.ini"
    credentials.write_text(
        f"dns_rfc2136_server = 127.0.0.1\ndns_rfc2136_port = {daemons.dns_port}\ndns_rfc2136_name = muster\n"
        f"dns_rfc2136_secret = {daemons.secret}\ndns_rfc2136_algorithm = HMAC-SHA256\n"
    )
    port, http_port = free_port(), free_port()
    acme_env = {"REQUESTS_CA_BUNDLE": str(daemons.ca_file), "MUSTER_DB": str(database)}
    started = time.monotonic()
    done = _app(
        [
            "https",
            "--domain",
            NAME,
            "--dns",
            "rfc2136",
            "--credentials",
            str(credentials),
            "--acme-server",
            daemons.directory,
            "--propagation-seconds",
            "1",
            "--port",
            str(port),
            "--http-port",
            str(http_port),
            "--instance",
            str(instance),
        ],
        acme_env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    print(f"\ncertificate issued in {time.monotonic() - started:.1f} s")
    settings = _settings(instance / "muster.env")
    assert settings["MUSTER_TLS_CERT"] == str(instance / "tls" / "fullchain.pem")
    assert settings["MUSTER_TLS_KEY"] == str(instance / "tls" / "privkey.pem")
    assert settings["MUSTER_DOMAIN"] == NAME and settings["MUSTER_PORT"] == str(port)
    assert (instance / "tls" / "privkey.pem").stat().st_mode & 0o077 == 0
    assert f"https://{NAME}:{port}" in done.stdout

    root = tmp_path / "pebble-root.pem"
    root.write_text(daemons.root())
    server = ServerProcess(
        database,
        tmp_path / "server.log",
        env={**settings, "MUSTER_FRONT": "nginx", "MUSTER_BACKEND_PORT": str(free_port())},
        ready=lambda p: _served_serial(p, root) > 0,
    )
    server.port = port
    server.start()
    try:
        first_serial = _served_serial(port, root)
        _phone_installs_and_reopens_offline(tmp_path, root, port, browser_type, browser_type_launch_args)

        # The renewal the timer runs: a new certificate from the ACME server, served at once.
        renewed = _app(["renew", "--force", "--instance", str(instance)], acme_env)
        assert renewed.returncode == 0, renewed.stdout + renewed.stderr
        assert "front server serves the new certificate" in renewed.stdout
        # nginx's old worker may take a connection or two while it winds down after the reload:
        # the new certificate is in place once five connections in a row get it.
        deadline = time.monotonic() + 30
        served = [_served_serial(port, root)]
        while served[-5:] != [served[-1]] * 5 or served[-1] == first_serial:
            assert time.monotonic() < deadline, f"the renewed certificate was not served: {served}"
            time.sleep(0.05)
            served.append(_served_serial(port, root))
    finally:
        server.stop()
    print(f"whole exchange, browser and renewal: {time.monotonic() - started:.1f} s")


def _phone_installs_and_reopens_offline(
    tmp_path: Path, root: Path, port: int, browser_type: BrowserType, launch_args: dict[str, Any]
) -> None:
    # Chromium on Linux trusts the roots in $HOME/.pki/nssdb: pebble's root goes there, as a
    # club's phone already trusts Let's Encrypt's.
    home = tmp_path / "phone-home"
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run([_program("certutil"), "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run(
        [_program("certutil"), "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "pebble", "-i", str(root)],
        check=True,
    )
    browser = browser_type.launch(
        **{
            **launch_args,
            "args": [*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1"],
            "env": {**os.environ, "HOME": str(home)},
        }
    )
    try:
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
        page = context.new_page()
        address = f"https://{NAME}:{port}"
        response = page.goto(address + "/")
        assert response is not None and response.ok
        assert page.evaluate("window.isSecureContext") is True
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        scope = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)")
        assert scope == address + "/"
        cdp = context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []
        cdp.detach()

        # A game started from this phone (through its own network stack, at the name).
        game = page.evaluate(
            """setup => fetch('/api/v1/games', {method: 'POST', headers: {'Content-Type': 'application/json'},
                body: JSON.stringify(setup)}).then(r => r.json())""",
            pitched_battle(),
        )
        assert game["join_url"].startswith(address + "/games/")
        page.goto(game["join_url"])
        expect(page.locator(".scorebar")).to_be_visible()
        expect(page.locator("#offline-ready")).to_have_text(
            "Kept on this phone: this game can go on offline."
        )
        picture(page, "https-club-game", full_page=True)

        context.set_offline(True)
        reopened = page.reload()
        assert reopened is not None and reopened.from_service_worker
        expect(page.locator(".scorebar")).to_be_visible()
        expect(page.locator(".note-net")).to_contain_text("Offline")
        context.set_offline(False)
        context.close()
    finally:
        browser.close()
