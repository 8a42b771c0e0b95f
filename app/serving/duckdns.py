"""A DuckDNS name kept pointing at this machine's address on the club's network.

Phones find the Pi by its certificate's name: with DuckDNS (``MUSTER_DNS=duckdns``), Muster
sets the name's address to the Pi's current LAN address when it starts, and again whenever
that address changes (a new network, a router that hands out another). The token is the one
certbot's DuckDNS plugin uses, read from ``MUSTER_DNS_CREDENTIALS``.
"""

from __future__ import annotations

import logging
import threading
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from app.serving import lan

log = logging.getLogger("muster")

UPDATE_URL = "https://www.duckdns.org/update"
CHECK_SECONDS = 60.0
SUFFIX = ".duckdns.org"


def token(credentials: str) -> str | None:
    """The DuckDNS token in certbot's credentials file (``dns_duckdns_token = ...``)."""
    try:
        lines = Path(credentials).read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        key, _, value = line.partition("=")
        if key.strip() == "dns_duckdns_token" and value.strip():
            return value.strip()
    return None


def subdomain(domain: str) -> str:
    """The part of ``club.duckdns.org`` DuckDNS calls the domain: ``club``."""
    return domain.removesuffix(SUFFIX).rsplit(".", 1)[-1]


def update(domain: str, secret: str, address: str, url: str = UPDATE_URL, timeout: float = 10) -> bool:
    """Point the name at ``address``; whether DuckDNS said OK."""
    query = urllib.parse.urlencode({"domains": subdomain(domain), "token": secret, "ip": address})
    if not url.startswith(("https://", "http://")):
        return False
    with urllib.request.urlopen(f"{url}?{query}", timeout=timeout) as answer:  # noqa: S310 (checked above)
        return answer.read(64).strip() == b"OK"


class Keeper:
    """The thread that sets the name's address at start and whenever the LAN address changes."""

    def __init__(self, domain: str, secret: str, url: str, every: float) -> None:
        self.domain, self.secret, self.url, self.every = domain, secret, url, every
        self.sent: str | None = None
        self.stopped = threading.Event()

    def once(self) -> None:
        """Send the address if it changed since DuckDNS last took it."""
        address = lan.address()
        if address is None or address == self.sent:
            return
        try:
            ok = update(self.domain, self.secret, address, self.url)
        except OSError as exc:  # no internet just now: try again at the next check
            log.warning("could not tell DuckDNS that %s is at %s: %s", self.domain, address, exc)
            return
        if ok:
            self.sent = address
            log.info("DuckDNS: %s now points at %s", self.domain, address)
        else:
            log.error(
                "DuckDNS refused to point %s at %s: check the token in MUSTER_DNS_CREDENTIALS",
                self.domain,
                address,
            )

    def run(self) -> None:
        while not self.stopped.is_set():
            self.once()
            self.stopped.wait(self.every)


def start(config: dict[str, Any]) -> Keeper | None:
    """Keep the DuckDNS name at this machine's address, when the settings ask for it."""
    if (config.get("DNS_PROVIDER") or "") != "duckdns" or not config.get("HTTPS_NAME"):
        return None
    secret = token(config.get("DNS_CREDENTIALS") or "")
    if secret is None:
        log.error(
            "MUSTER_DNS is duckdns but MUSTER_DNS_CREDENTIALS holds no dns_duckdns_token: the name is not kept at this machine's address."
        )
        return None
    keeper = Keeper(
        config["HTTPS_NAME"],
        secret,
        config.get("DUCKDNS_URL") or UPDATE_URL,
        float(config.get("DUCKDNS_CHECK_SECONDS") or CHECK_SECONDS),
    )
    threading.Thread(target=keeper.run, name="muster-duckdns", daemon=True).start()
    return keeper
