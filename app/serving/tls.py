"""HTTPS as Muster serves it: the settings, the address phones open, a certificate that renews.

With ``MUSTER_TLS_CERT`` and ``MUSTER_TLS_KEY`` set, `python -m app serve` answers HTTPS on
``MUSTER_PORT`` (gunicorn itself, or the front server, app/serving/front.py); with
``MUSTER_HTTP_PORT`` set too, plain HTTP on that port is sent on to the HTTPS address.
"""

from __future__ import annotations

import logging
import os
import ssl
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.rules.speech import say
from app.serving import certificate
from app.serving.certificate import Certificate, CertificateError

log = logging.getLogger("muster")

# How often a served certificate's files are looked at for a renewal (a stat of two files).
RELOAD_CHECK_SECONDS = 2.0


class SettingError(ValueError):
    """HTTPS settings that do not fit together, said in one sentence."""


@dataclass(frozen=True)
class Settings:
    """Where Muster answers and with which certificate; ``cert`` empty when HTTPS is off."""

    host: str
    port: int
    cert: str = ""
    key: str = ""
    http_port: int | None = None

    @property
    def on(self) -> bool:
        """Whether HTTPS is asked for (both files named)."""
        return bool(self.cert or self.key)


def http_port(value: str | None) -> int | None:
    """``MUSTER_HTTP_PORT`` checked: a port number, or None when unset (SettingError otherwise)."""
    value = (value or "").strip()
    if not value:
        return None
    if not value.isdigit() or not 1 <= int(value) <= 65535:
        raise SettingError(
            say(
                "MUSTER_HTTP_PORT must be a port number from 1 to 65535 (80 for plain http://), not {value}.",
                value=repr(value),
            )
        )
    return int(value)


def settings(host: str, port: int, environ: dict[str, str] | None = None) -> Settings:
    """The HTTPS settings from the environment; SettingError for ones that do not fit together."""
    env = os.environ if environ is None else environ
    cert, key = env.get("MUSTER_TLS_CERT", "").strip(), env.get("MUSTER_TLS_KEY", "").strip()
    if bool(cert) != bool(key):
        missing = "MUSTER_TLS_KEY" if cert else "MUSTER_TLS_CERT"
        raise SettingError(
            say(
                "{setting} must be set too: HTTPS needs both the certificate and its private key.",
                setting=missing,
            )
        )
    plain = http_port(env.get("MUSTER_HTTP_PORT"))
    if plain is not None and not cert:
        raise SettingError(
            say(
                "MUSTER_HTTP_PORT sends plain HTTP on to HTTPS: set MUSTER_TLS_CERT and MUSTER_TLS_KEY too, "
                "or leave it unset."
            )
        )
    if plain is not None and plain == port:
        raise SettingError(
            say("MUSTER_HTTP_PORT must differ from MUSTER_PORT ({port}), which answers HTTPS.", port=port)
        )
    return Settings(host=host, port=port, cert=cert, key=key, http_port=plain)


def served(cert: str, key: str) -> Certificate:
    """The certificate to serve, checked with its key (CertificateError when it cannot be)."""
    return certificate.read(cert, key)


def address_of(config: dict[str, Any]) -> str | None:
    """The HTTPS address phones should open, from the app's config; None when HTTPS is off.

    Read from the certificate (its name), at most once per its files' change.
    """
    cert, key = config.get("TLS_CERT") or "", config.get("TLS_KEY") or ""
    if not cert:
        return None
    status = status_of(cert, key)
    if isinstance(status, str):
        return None
    return certificate.address(config.get("HTTPS_NAME") or status.name, int(config.get("HTTPS_PORT") or 443))


_status: dict[tuple[str, str], tuple[tuple[Any, ...], Certificate | CertificateError]] = {}


def status_of(cert: str, key: str) -> Certificate | str:
    """The served certificate, or the sentence saying why it cannot be served (for the admin card)."""
    stamp = (_stamp(cert), _stamp(key))
    known = _status.get((cert, key))
    if known is None or known[0] != stamp:
        try:
            result: Certificate | CertificateError = certificate.read(cert, key)
        except CertificateError as exc:
            result = exc
        known = _status[(cert, key)] = (stamp, result)
    # The refusal is kept and said in the language of whoever reads it.
    return known[1].said() if isinstance(known[1], CertificateError) else known[1]


def _stamp(path: str) -> tuple[int, int, int] | None:
    try:
        stat = Path(path).stat()
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino)


class RenewingContext:
    """gunicorn's ``ssl_context`` hook: one TLS context, loaded again when the files change.

    A renewal replaces the certificate and the key one after the other: a handshake between the
    two would pair a new certificate with the old key. A pair that does not load is therefore
    not taken; the context in use stays until both files agree, so no phone meets a failed
    handshake while the certificate is renewed, and no restart or signal is needed.
    """

    def __init__(self, cert: str, key: str) -> None:
        self.cert, self.key = cert, key
        self._lock = threading.Lock()
        self._checked = 0.0
        self._stamp: tuple[Any, ...] | None = None
        self._context: ssl.SSLContext | None = None

    def _load(self) -> ssl.SSLContext:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(self.cert, self.key)
        return context

    def current(self) -> ssl.SSLContext:
        """The context for the next connection: the files' newest pair that loads."""
        now = time.monotonic()
        if self._context is not None and now - self._checked < RELOAD_CHECK_SECONDS:
            return self._context
        with self._lock:
            self._checked = now
            stamp = (_stamp(self.cert), _stamp(self.key))
            if stamp != self._stamp or self._context is None:
                try:
                    self._context = self._load()
                    if self._stamp is not None:
                        log.info("serving the renewed certificate from %s", self.cert)
                    self._stamp = stamp
                except (OSError, ssl.SSLError):
                    if self._context is None:
                        raise
                    # Half renewed (or mid-copy): keep serving the pair that loaded last.
        return self._context  # type: ignore[return-value]

    def __call__(self, _config: Any, _default_factory: Any) -> ssl.SSLContext:
        return self.current()
