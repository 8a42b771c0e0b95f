"""This machine's address on the club's network, as phones reach it."""

from __future__ import annotations

import contextlib
import socket

# A documentation address (RFC 5737): connecting a UDP socket towards it only asks the routing
# table which interface would be used; no packet is sent.
_PROBE = ("192.0.2.1", 9)


def address() -> str | None:
    """The IPv4 address of the interface the default route leaves by; None with no network."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(_PROBE)
        found = probe.getsockname()[0]
        if found and not found.startswith("0."):
            return found
    return None
