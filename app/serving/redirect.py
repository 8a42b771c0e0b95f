"""Plain HTTP on ``MUSTER_HTTP_PORT``, answered with a redirect to the HTTPS address.

A phone that types ``muster.example.org`` or follows an old ``http://`` link lands on HTTPS,
where it gets the service worker. Used when gunicorn serves HTTPS itself (`make run` with a
certificate); behind the front server (app/serving/front.py) nginx does the same.
"""

from __future__ import annotations

import logging
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

log = logging.getLogger("muster")

# A phone sends its request at once; one that trickles it in is dropped after this long.
READ_SECONDS = 10


class _Redirect(BaseHTTPRequestHandler):
    target = ""
    timeout = READ_SECONDS  # socket timeout for the request line and headers
    server_version = "Muster"
    sys_version = ""

    def _send(self, body: bool) -> None:
        # Only the path and query travel on: the name is always the certificate's.
        path = self.path if self.path.startswith("/") else "/"
        location = self.target + path
        self.send_response(308 if self.command not in ("GET", "HEAD") else 301)
        self.send_header("Location", location)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        text = f"Muster is at {location}\n".encode()
        self.send_header("Content-Length", str(len(text)))
        self.send_header("Connection", "close")
        self.end_headers()
        if body:
            self.wfile.write(text)

    def do_GET(self) -> None:
        self._send(body=True)

    def do_HEAD(self) -> None:
        self._send(body=False)

    do_POST = do_PUT = do_DELETE = do_PATCH = do_GET

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the redirect is not worth a log line per phone


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler]) -> None:
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        super().__init__(address, handler)


def start(host: str, port: int, target: str) -> ThreadingHTTPServer:
    """Listen on ``host:port`` and send every request on to ``target`` (an https:// address).

    Runs in a daemon thread of the calling process; returns the server (``shutdown()`` stops it).
    """
    parts = urlsplit(target)
    handler = type("Redirect", (_Redirect,), {"target": f"{parts.scheme}://{parts.netloc}"})
    server = _Server((host, port), handler)
    threading.Thread(target=server.serve_forever, name="muster-redirect", daemon=True).start()
    log.info("plain HTTP on port %d is sent on to %s", port, target)
    return server
