"""This machine's address on the club's network, as phones reach it."""

from __future__ import annotations

import contextlib
import fcntl
import socket
import struct

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


# Linux's ioctl for an interface's IPv4 address (SIOCGIFADDR); the address sits at bytes 20-24.
_SIOCGIFADDR = 0x8915


def _interface_address(probe: socket.socket, name: str) -> str | None:
    with contextlib.suppress(OSError):
        answer = fcntl.ioctl(probe.fileno(), _SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
        return socket.inet_ntoa(answer[20:24])
    return None


def addresses() -> list[str]:
    """Every IPv4 address phones on a network may reach this machine at: the default route's
    first, then each other interface's; never a loopback, link-local or unspecified address."""
    found = [a for a in (address(),) if a]
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _index, name in socket.if_nameindex():
            here = _interface_address(probe, name)
            if here and here not in found and not here.startswith(("127.", "169.254.", "0.")):
                found.append(here)
    return found
