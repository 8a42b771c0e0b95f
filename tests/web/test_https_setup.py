"""The refusals of `python -m app https` (issue 26 item 2): one sentence each, before certbot
is asked anything: an unknown DNS provider, a domain that is not a name, credentials that lack
what the provider's plugin needs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.serving.https import SetupError, domain, provider
from tests.console import english

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("name", "dns", "refusal"),
    [
        ("ourclub.duckdns.org", "duckdns", None),
        ("muster.club.example.org", "cloudflare", None),
        ("a" * 63 + ".org", "desec", None),
        ("a" * 64 + ".org", "desec", "--domain must be a name such as club.duckdns.org"),
        ("192.168.1.20", "rfc2136", "--domain must be a name"),
        ("muster", "rfc2136", "--domain must be a name"),
        ("club..org", "rfc2136", "--domain must be a name"),
        ("-club.org", "rfc2136", "--domain must be a name"),
        ("*.club.org", "rfc2136", "--domain must be a name"),
        ("https://club.org", "rfc2136", "--domain must be a name"),
        ("club.example.org", "duckdns", "--domain must be a DuckDNS name ending in .duckdns.org"),
        ("duckdns.org", "duckdns", "--domain must be a DuckDNS name"),
    ],
)
def test_the_name_a_certificate_is_asked_for(name: str, dns: str, refusal: str | None) -> None:
    if refusal is None:
        assert domain(name, dns) == name
        return
    with pytest.raises(SetupError) as refused:
        domain(name, dns)
    assert str(refused.value).startswith(refusal) and str(refused.value).endswith(f"not {name!r}.")


@pytest.mark.parametrize("dns", ["route53", "", "DuckDNS "])
def test_the_dns_provider(dns: str) -> None:
    if dns.strip().lower() == "duckdns":
        assert provider(dns) == "duckdns"
        return
    with pytest.raises(SetupError) as refused:
        provider(dns)
    assert str(refused.value) == (
        f"--dns must be one of cloudflare, desec, duckdns or rfc2136 (the DNS provider that serves the name), not {dns!r}."
    )


def _https(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app", "https", *args, "--instance", str(tmp_path / "instance")],
        cwd=ROOT,
        env=english({**os.environ, "MUSTER_DB": str(tmp_path / "muster.sqlite")}),
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize(
    ("args", "sentence"),
    [
        (
            ["--domain", "ourclub.duckdns.org", "--dns", "route53"],
            "--dns must be one of cloudflare, desec, duckdns or rfc2136 (the DNS provider that serves the name), not 'route53'.",
        ),
        (
            ["--domain", "192.168.1.20", "--dns", "rfc2136"],
            "--domain must be a name such as club.duckdns.org: letters, digits and hyphens in two or more parts "
            "joined by dots, not '192.168.1.20'.",
        ),
        (
            ["--domain", "ourclub.duckdns.org", "--dns", "duckdns"],
            "The duckdns credentials are needed: give --credentials FILE (certbot's duckdns plugin format), "
            "or run the command in a terminal to be asked for them.",
        ),
    ],
)
def test_the_command_refuses_with_one_sentence(tmp_path: Path, args: list[str], sentence: str) -> None:
    done = _https(tmp_path, *args)
    assert done.returncode == 1
    assert done.stderr.strip() == sentence
    assert not (tmp_path / "instance" / "muster.env").exists()


def test_credentials_that_lack_the_token_are_refused(tmp_path: Path) -> None:
    given = tmp_path / "duckdns.ini"
    given.write_text("dns_duckdns_tokn = abc\n")
    done = _https(
        tmp_path, "--domain", "ourclub.duckdns.org", "--dns", "duckdns", "--credentials", str(given)
    )
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"--credentials names {given}, which lacks dns_duckdns_token (certbot's duckdns plugin needs it)."
    )
