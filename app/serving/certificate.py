"""The HTTPS certificate Muster serves: read, checked against its key, and described.

``MUSTER_TLS_CERT`` and ``MUSTER_TLS_KEY`` name two PEM files (the certificate with its chain,
and its private key). Muster refuses to start with files it cannot serve, saying which file
and why in one sentence, rather than start and have every phone's browser refuse it.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.x509.oid import ExtensionOID, NameOID

from app.rules.speech import say, words

# The admin page warns this many days before the certificate ends (a renewal runs from 30).
WARN_DAYS = 20


class CertificateError(ValueError):
    """A certificate or key Muster cannot serve, said in one sentence: in English as the
    exception's text (the console's), in the reader's language by :meth:`said` (the admin page's)."""

    def __init__(self, sentence: str, **blanks: Any) -> None:
        super().__init__(sentence.format(**blanks))
        self.sentence, self.blanks = sentence, blanks

    def said(self) -> str:
        """The sentence in the language it is read in now."""
        return say(self.sentence, **self.blanks)


@dataclass(frozen=True)
class Certificate:
    """What a phone's browser checks of the certificate: its names and its dates."""

    names: tuple[str, ...]
    not_after: datetime
    issuer: str

    @property
    def name(self) -> str:
        """The name phones open: the first that is not a wildcard."""
        plain = [name for name in self.names if not name.startswith("*.")]
        return (plain or list(self.names) or [""])[0]

    def days_left(self, now: datetime | None = None) -> int:
        """Whole days until the certificate ends (negative once it has)."""
        return (self.not_after - (now or datetime.now(UTC))).days

    def ends_soon(self, now: datetime | None = None) -> bool:
        """Whether the admin page should warn that it ends within WARN_DAYS."""
        return self.days_left(now) <= WARN_DAYS


# Why a setting's file cannot be read, by what it names.
_EMPTY = {
    "certificate": words("{setting} must name the certificate file (a PEM file); it is empty."),
    "private key": words("{setting} must name the private key file (a PEM file); it is empty."),
}
_MISSING = {
    "certificate": words("{setting} names {path}, which does not exist: give the certificate file."),
    "private key": words("{setting} names {path}, which does not exist: give the private key file."),
}


def _readable(path: str, setting: str, what: str) -> bytes:
    if not path:
        raise CertificateError(_EMPTY[what], setting=setting)
    file = Path(path)
    if not file.is_file():
        raise CertificateError(_MISSING[what], setting=setting, path=path)
    try:
        return file.read_bytes()
    except OSError:
        raise CertificateError(
            words("{setting} names {path}, which Muster cannot read: let the user Muster runs as read it."),
            setting=setting,
            path=path,
        ) from None


def read(cert_path: str, key_path: str) -> Certificate:
    """The certificate in ``cert_path``, checked to be servable with the key in ``key_path``.

    Raises CertificateError naming the setting at fault: a missing or unreadable file, a file
    that holds no certificate or no key, or a key that is not the certificate's.
    """
    data = _readable(cert_path, "MUSTER_TLS_CERT", "certificate")
    _readable(key_path, "MUSTER_TLS_KEY", "private key")
    try:
        leaf = x509.load_pem_x509_certificates(data)[0]
    except ValueError:
        raise CertificateError(
            words(
                "MUSTER_TLS_CERT names {path}, which holds no certificate: give the PEM file "
                "that begins with BEGIN CERTIFICATE (fullchain.pem)."
            ),
            path=cert_path,
        ) from None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(cert_path, key_path)
    except ssl.SSLError as exc:
        if "KEY_VALUES_MISMATCH" in str(exc):
            raise CertificateError(
                words(
                    "MUSTER_TLS_KEY names {path}, which is not the key of the certificate in "
                    "{cert}: give the key that was made with it (privkey.pem)."
                ),
                path=key_path,
                cert=cert_path,
            ) from None
        raise CertificateError(
            words(
                "MUSTER_TLS_KEY names {path}, which holds no private key Muster can use: give the "
                "PEM file that begins with BEGIN PRIVATE KEY (privkey.pem)."
            ),
            path=key_path,
        ) from None
    return describe(leaf)


def describe(leaf: x509.Certificate) -> Certificate:
    """The names, end and issuer of a certificate."""
    try:
        names = tuple(
            leaf.extensions.get_extension_for_oid(
                ExtensionOID.SUBJECT_ALTERNATIVE_NAME
            ).value.get_values_for_type(x509.DNSName)
        )
    except x509.ExtensionNotFound:
        names = ()
    if not names:
        names = tuple(str(a.value) for a in leaf.subject.get_attributes_for_oid(NameOID.COMMON_NAME))
    issuer = [str(a.value) for a in leaf.issuer.get_attributes_for_oid(NameOID.ORGANIZATION_NAME)]
    issuer = issuer or [str(a.value) for a in leaf.issuer.get_attributes_for_oid(NameOID.COMMON_NAME)]
    return Certificate(names=names, not_after=leaf.not_valid_after_utc, issuer=(issuer or [""])[0])


def address(name: str, port: int) -> str:
    """The HTTPS address phones open: no port when it is HTTPS's own, 443."""
    return f"https://{name}" if port == 443 else f"https://{name}:{port}"
