"""The front server: Debian's nginx in front of gunicorn, so that no slow phone holds the door.

gunicorn's gthread worker gives a thread to a connection at its first byte and waits for the
rest of the request with no deadline: sixteen phones trickling their headers in hold every
thread, and every other phone waits. nginx reads each request whole (headers and body, with
deadlines) before Muster sees it, keeps any number of slow connections for the price of a few
kilobytes each, and terminates HTTPS with Muster's certificate.

With ``MUSTER_FRONT=nginx`` (set by the systemd service), `python -m app serve` starts nginx
as its own child on ``MUSTER_HOST:MUSTER_PORT`` (and ``MUSTER_HTTP_PORT``), with a config
generated into ``instance/front/`` each start, and gunicorn on ``127.0.0.1:MUSTER_BACKEND_PORT``
behind it, trusting it as its one proxy. A renewed certificate is taken by ``nginx -s reload``
(`python -m app reload`): nginx starts new workers with it and lets the old ones finish their
requests, so no connection is dropped.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from app.rules.speech import say
from app.serving.tls import Settings

log = logging.getLogger("muster")

KINDS = ("nginx",)
DEFAULT_BACKEND_PORT = 5080
# A whole request line and headers must arrive within this; a body may pause this long.
HEADER_SECONDS = 10
BODY_SECONDS = 10
# Muster refuses bodies over 256 KB with its own sentence; nginx stops only far larger ones.
MAX_BODY = "1m"
NGINX_PATHS = ("/usr/sbin/nginx", "/usr/bin/nginx")


# How every request is passed on to gunicorn. Muster trusts exactly this one proxy: what a
# phone wrote in the X-Forwarded-* headers is replaced.
_PASS_ON = [
    "        location / {",
    "            proxy_pass http://muster;",
    '            proxy_set_header Connection "";',
    "            proxy_set_header Host $http_host;",
    "            proxy_set_header X-Forwarded-For $remote_addr;",
    "            proxy_set_header X-Forwarded-Proto $scheme;",
    "            proxy_set_header X-Forwarded-Host $http_host;",
    "        }",
]


class FrontError(ValueError):
    """A front server setting Muster cannot use, or an nginx that will not start, in one sentence."""


def kind(value: str | None) -> str | None:
    """``MUSTER_FRONT`` checked: ``nginx``, or None when unset or empty (gunicorn alone)."""
    value = (value or "").strip().lower()
    if not value or value in ("0", "off", "none"):
        return None
    if value not in KINDS:
        raise FrontError(
            say("MUSTER_FRONT must be nginx (or empty for none), not {value}.", value=repr(value))
        )
    return value


def backend_port(value: str | None) -> int:
    """``MUSTER_BACKEND_PORT`` checked: the loopback port gunicorn listens on behind nginx."""
    value = (value or "").strip()
    if not value:
        return DEFAULT_BACKEND_PORT
    if not value.isdigit() or not 1024 <= int(value) <= 65535:
        raise FrontError(
            say(
                "MUSTER_BACKEND_PORT must be a port number from 1024 to 65535, not {value}.",
                value=repr(value),
            )
        )
    return int(value)


def nginx_program() -> str | None:
    """The nginx program, if installed (Debian's package `nginx`)."""
    found = shutil.which("nginx")
    if found:
        return found
    return next((p for p in NGINX_PATHS if os.access(p, os.X_OK)), None)


@dataclass(frozen=True)
class Front:
    """One nginx in front of one gunicorn, its files in ``folder``."""

    folder: Path
    settings: Settings
    backend: int
    https_address: str | None = None

    @property
    def config_path(self) -> Path:
        """The config Muster writes at each start."""
        return self.folder / "nginx.conf"

    @property
    def pid_path(self) -> Path:
        """Where nginx writes its master's pid (read by `python -m app reload`)."""
        return self.folder / "nginx.pid"

    def config(self) -> str:
        """The nginx config: HTTPS (or plain HTTP) on the public port, the redirect, gunicorn behind."""
        s = self.settings
        temp = self.folder / "temp"
        listen = _listen(s.host, s.port)
        lines = [
            "# Made by Muster (app/serving/front.py) at each start: edits here are overwritten.",
            "worker_processes 1;",
            f"pid {self.pid_path};",
            "error_log stderr warn;",
            "daemon off;",
            "events { worker_connections 4096; }",
            "http {",
            "    access_log off;",
            "    server_tokens off;",
            f"    client_body_temp_path {temp}/body;",
            f"    proxy_temp_path {temp}/proxy;",
            f"    fastcgi_temp_path {temp}/fastcgi;",
            f"    uwsgi_temp_path {temp}/uwsgi;",
            f"    scgi_temp_path {temp}/scgi;",
            "    # The deadlines that keep a slow phone from holding Muster: nginx, not gunicorn, waits.",
            f"    client_header_timeout {HEADER_SECONDS}s;",
            f"    client_body_timeout {BODY_SECONDS}s;",
            "    send_timeout 30s;",
            "    keepalive_timeout 30s;",
            # Whole requests and answers are held in memory, never in temporary files: a body
            # is at most MAX_BODY, and an answer larger than the buffers (a PDF) is passed on as
            # it comes.
            f"    client_max_body_size {MAX_BODY};",
            f"    client_body_buffer_size {MAX_BODY};",
            "    proxy_max_temp_file_size 0;",
            "    proxy_request_buffering on;",
            "    proxy_http_version 1.1;",
            "    # A print may take Muster up to 50 s (its queue and layout limits).",
            "    proxy_read_timeout 90s;",
            f"    upstream muster {{ server 127.0.0.1:{self.backend}; keepalive 16; }}",
            "    server {",
            f"        listen {listen}{' ssl' if s.on else ''} default_server;",
        ]
        if s.on:
            lines += [
                f"        ssl_certificate {Path(s.cert).resolve()};",
                f"        ssl_certificate_key {Path(s.key).resolve()};",
                "        ssl_protocols TLSv1.2 TLSv1.3;",
                "        ssl_session_cache shared:muster:1m;",
            ]
        lines += [*_PASS_ON, "    }"]
        if s.on and s.http_port is not None:
            # Plain HTTP at the certificate's name goes on to HTTPS. At any other address (the
            # Pi's, muster.local) Muster answers as without HTTPS, and its home page tells the
            # phone the secure address once: a phone whose router will not resolve the name
            # (rebinding protection) still plays.
            target = self.https_address or "https://$host"
            name = urlsplit(target).hostname if self.https_address else None
            lines += ["    server {", f"        listen {_listen(s.host, s.http_port)} default_server;"]
            lines += [*_PASS_ON, "    }"]
            if name:
                lines += [
                    "    server {",
                    f"        listen {_listen(s.host, s.http_port)};",
                    f"        server_name {name};",
                    f"        location / {{ return 301 {target}$request_uri; }}",
                    "    }",
                ]
        lines.append("}")
        return "\n".join(lines) + "\n"

    def write(self) -> None:
        """Write the config and make nginx's folders (readable by this user only)."""
        for sub in ("", "temp"):
            (self.folder / sub).mkdir(parents=True, exist_ok=True, mode=0o700)
        self.config_path.write_text(self.config())

    def _command(self, program: str, *extra: str) -> list[str]:
        return [program, "-e", "stderr", "-p", str(self.folder), "-c", str(self.config_path), *extra]

    def check(self, program: str) -> None:
        """``nginx -t`` on the written config; FrontError with nginx's own reason."""
        done = subprocess.run(  # noqa: S603 (nginx, with a config Muster wrote)
            self._command(program, "-t", "-q"), capture_output=True, text=True, timeout=30
        )
        if done.returncode != 0:
            reason = " ".join(line for line in done.stderr.splitlines() if "[emerg]" in line) or done.stderr
            raise FrontError(
                say(
                    "nginx refused the front server's config ({path}): {reason}",
                    path=self.config_path,
                    reason=reason.strip(),
                )
            )

    def start(self, program: str, timeout: float = 15) -> subprocess.Popen[bytes]:
        """Start nginx as a child that ends with this process; wait until it listens."""
        self.write()
        self.check(program)
        # setpriv (util-linux) has nginx end when the thread that started it (the master's main
        # thread) does, however Muster ends.
        ending = ["setpriv", "--pdeathsig", "TERM"] if shutil.which("setpriv") else []
        proc = subprocess.Popen([*ending, *self._command(program)])  # noqa: S603 (nginx, with a config Muster wrote)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise FrontError(
                    say(
                        "nginx stopped at once (exit {status}): its reason is in the log above.",
                        status=proc.returncode,
                    )
                )
            if _listening(self.settings.host, self.settings.port):
                return proc
            time.sleep(0.05)
        proc.terminate()
        raise FrontError(
            say(
                "nginx did not listen on port {port} within {seconds} s.",
                port=self.settings.port,
                seconds=f"{timeout:g}",
            )
        )


def reload(folder: Path) -> bool:
    """Tell the running nginx to take its certificate again (SIGHUP); False when none runs."""
    try:
        pid = int((folder / "nginx.pid").read_text().strip())
        os.kill(pid, signal.SIGHUP)
    except (OSError, ValueError):
        return False
    return True


def stop(proc: subprocess.Popen[bytes], graceful_seconds: float) -> None:
    """Stop nginx: finish the requests under way (SIGQUIT), then make sure it is gone."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGQUIT)
        try:
            proc.wait(timeout=graceful_seconds)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def _listen(host: str, port: int) -> str:
    if host in ("", "0.0.0.0"):  # noqa: S104 (all interfaces is the club's choice)
        return str(port)
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _listening(host: str, port: int) -> bool:
    probe_host = "127.0.0.1" if host in ("", "0.0.0.0") else ("::1" if host == "::" else host)  # noqa: S104
    with socket.socket(socket.AF_INET6 if ":" in probe_host else socket.AF_INET) as probe:
        probe.settimeout(0.5)
        return probe.connect_ex((probe_host, port)) == 0


def folder_for(database: str) -> Path:
    """Where the front server's config, pid and temporary files live: beside the database."""
    return Path(database).resolve().parent / "front"
