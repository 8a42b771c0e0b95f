"""A publicly trusted certificate for the club's Pi, with one command, and its renewal.

`python -m app https --domain NAME --dns PROVIDER` asks an ACME server (Let's Encrypt unless
``--acme-server`` says otherwise) for a certificate for NAME with certbot and its DNS-01
plugin for the provider: the proof is a TXT record the plugin writes at the provider, so the
Pi opens no port and needs the internet only while the certificate is issued or renewed.
The certificate lands in ``instance/tls/`` and the settings that serve it in
``instance/muster.env``; `python -m app renew` (the systemd timer `make service` installs)
renews it when due and has Muster serve the new one without a restart.
"""

from __future__ import annotations

import argparse
import getpass
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from app import ROOT
from app.rules.speech import listed, say, words
from app.serving import front

LETS_ENCRYPT = "https://acme-v02.api.letsencrypt.org/directory"
LINEAGE = "muster"  # certbot's name for the certificate, whatever the domain


@dataclass(frozen=True)
class Provider:
    """A DNS provider certbot can write the proof to: its plugin and the credentials it needs."""

    plugin: str
    fields: tuple[tuple[str, str], ...]
    suffix: str = ""  # a provider that only serves its own names (DuckDNS)


PROVIDERS: dict[str, Provider] = {
    "duckdns": Provider(
        "dns-duckdns",
        (("dns_duckdns_token", words("your DuckDNS token (at the top of your page on duckdns.org)")),),
        suffix=".duckdns.org",
    ),
    "cloudflare": Provider(
        "dns-cloudflare",
        (("dns_cloudflare_api_token", words("a Cloudflare API token that may edit the zone's DNS")),),
    ),
    "desec": Provider(
        "dns-desec", (("dns_desec_token", words("your deSEC token (desec.io, Token management)")),)
    ),
    "rfc2136": Provider(
        "dns-rfc2136",
        (
            ("dns_rfc2136_server", words("the address of your DNS server")),
            ("dns_rfc2136_port", words("its port (53)")),
            ("dns_rfc2136_name", words("the name of the TSIG key allowed to update the zone")),
            ("dns_rfc2136_secret", words("that key's secret (base64)")),
            ("dns_rfc2136_algorithm", words("that key's algorithm (HMAC-SHA512)")),
        ),
    ),
}

_LABEL = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$")


class SetupError(ValueError):
    """A set-up Muster cannot carry out, said in one sentence."""


def domain(value: str, provider: str | None = None) -> str:
    """The name the certificate is for, checked: a DNS name such as club.duckdns.org."""
    name = (value or "").strip().lower().rstrip(".")
    allowed = say(
        "--domain must be a name such as club.duckdns.org: letters, digits and hyphens in two or "
        "more parts joined by dots, not {value}.",
        value=repr(value),
    )
    labels = name.split(".")
    if (
        len(name) > 253
        or len(labels) < 2
        or not all(_LABEL.match(label) for label in labels)
        or labels[-1].isdigit()
    ):
        raise SetupError(allowed)
    suffix = PROVIDERS[provider].suffix if provider in PROVIDERS else ""
    if suffix and not (name.endswith(suffix) and name.count(".") >= 2):
        raise SetupError(
            say(
                "--domain must be a DuckDNS name ending in {suffix} with --dns duckdns, not {value}.",
                suffix=suffix,
                value=repr(value),
            )
        )
    return name


def provider(value: str) -> str:
    """The DNS provider, checked against those Muster sets up."""
    name = (value or "").strip().lower()
    if name not in PROVIDERS:
        raise SetupError(
            say(
                "--dns must be one of {names} (the DNS provider that serves the name), not {value}.",
                names=listed(sorted(PROVIDERS), either=True),
                value=repr(value),
            )
        )
    return name


def certbot_program() -> str:
    """certbot from this Python's environment (the `https` extra), else from the system."""
    beside = Path(sys.executable).parent / "certbot"
    if beside.is_file():
        return str(beside)
    found = shutil.which("certbot")
    if found is None:
        raise SetupError(
            say(
                "certbot is not installed: run `make https` (it installs it), or "
                "`.venv/bin/pip install -e '.[https]'` first."
            )
        )
    return found


def _write_private(path: Path, text: str) -> None:
    """Write a file readable by its owner only, in one step (a reader never sees half of it)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w") as out:
            out.write(text)
        os.chmod(temp, 0o600)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def credentials(name: str, tls: Path, given: str | None, ask: bool) -> Path:
    """The provider's credentials file in ``tls``: copied from ``given``, kept, or asked for."""
    kept = tls / f"{name}.ini"
    if given:
        source = Path(given)
        try:
            text = source.read_text()
        except OSError:
            raise SetupError(
                say("--credentials names {file}, which Muster cannot read.", file=given)
            ) from None
        missing = [
            key for key, _ in PROVIDERS[name].fields if not re.search(rf"^\s*{key}\s*=\s*\S", text, re.M)
        ]
        if missing:
            raise SetupError(
                say(
                    "--credentials names {file}, which lacks {key} (certbot's {provider} plugin needs it).",
                    file=given,
                    key=missing[0],
                    provider=name,
                )
            )
        _write_private(kept, text)
        return kept
    if kept.is_file():
        return kept
    if not ask:
        raise SetupError(
            say(
                "The {provider} credentials are needed: give --credentials FILE (certbot's {provider} "
                "plugin format), or run the command in a terminal to be asked for them.",
                provider=name,
            )
        )
    lines = []
    for key, meaning in PROVIDERS[name].fields:
        what = say(meaning)
        prompt = say("{what}: ", what=what)
        value = getpass.getpass(prompt) if "secret" in key or "token" in key else input(prompt)
        if not value.strip():
            raise SetupError(say("{what} is needed; nothing was given.", what=what[:1].upper() + what[1:]))
        lines.append(f"{key} = {value.strip()}")
    _write_private(kept, "\n".join(lines) + "\n")
    return kept


def set_settings(env_file: Path, values: dict[str, str]) -> None:
    """Write ``values`` into the settings file, replacing those lines and keeping every other."""
    try:
        lines = env_file.read_text().splitlines()
    except FileNotFoundError:
        lines = []
    left = dict(values)
    out = []
    for line in lines:
        key = line.split("=", 1)[0].strip()
        if "=" in line and not line.lstrip().startswith("#") and key in left:
            out.append(f"{key}={left.pop(key)}")
        else:
            out.append(line)
    if left:
        out.append("# HTTPS, written by `python -m app https` (docs/raspberry-pi.md).")
        out += [f"{key}={value}" for key, value in left.items()]
    _write_private(env_file, "\n".join(out) + "\n")


def _dirs(tls: Path) -> list[str]:
    base = tls / "certbot"
    return [
        "--config-dir",
        str(base / "config"),
        "--work-dir",
        str(base / "work"),
        "--logs-dir",
        str(base / "logs"),
    ]


def install(tls: Path) -> bool:
    """Copy certbot's newest certificate and key to ``tls``; whether they were new."""
    live = tls / "certbot" / "config" / "live" / LINEAGE
    changed = False
    for name in ("fullchain.pem", "privkey.pem"):
        data = (live / name).read_text()
        target = tls / name
        if not target.is_file() or target.read_text() != data:
            _write_private(target, data)
            changed = True
    return changed


def obtain(args: argparse.Namespace) -> None:
    """`python -m app https`: a certificate for the name, and the settings that serve it."""
    name_of_provider = provider(args.dns)
    name = domain(args.domain, name_of_provider)
    instance = Path(args.instance)
    tls = instance / "tls"
    ini = credentials(name_of_provider, tls, args.credentials, ask=sys.stdin.isatty())
    plugin = PROVIDERS[name_of_provider].plugin
    command = [
        certbot_program(),
        "certonly",
        "--non-interactive",
        "--agree-tos",
        "--cert-name",
        LINEAGE,
        "--domain",
        name,
        "--key-type",
        "ecdsa",
        "--authenticator",
        plugin,
        f"--{plugin}-credentials",
        str(ini.resolve()),
        "--server",
        args.acme_server or LETS_ENCRYPT,
        *_dirs(tls),
    ]
    command += ["--email", args.email] if args.email else ["--register-unsafely-without-email"]
    if args.propagation_seconds is not None:
        command += [f"--{plugin}-propagation-seconds", str(args.propagation_seconds)]
    server = args.acme_server or "Let's Encrypt"
    print(
        say(
            "Asking {server} for a certificate for {name} (DNS-01 through {provider})...",
            server=server,
            name=name,
            provider=name_of_provider,
        )
    )
    done = subprocess.run(command, check=False)  # noqa: S603 (certbot, arguments checked above)
    if done.returncode != 0:
        raise SetupError(
            say(
                "certbot could not get the certificate (exit {status}); its reason is above, "
                "and its log in {folder}.",
                status=done.returncode,
                folder=tls / "certbot" / "logs",
            )
        )
    install(tls)
    settings = {
        "MUSTER_TLS_CERT": str((tls / "fullchain.pem").resolve()),
        "MUSTER_TLS_KEY": str((tls / "privkey.pem").resolve()),
        "MUSTER_DOMAIN": name,
        "MUSTER_DNS": name_of_provider,
        "MUSTER_DNS_CREDENTIALS": str(ini.resolve()),
        "MUSTER_PORT": str(args.port),
        "MUSTER_HTTP_PORT": str(args.http_port),
    }
    set_settings(instance / "muster.env", settings)
    front.reload(front.folder_for(args.database))
    port = "" if args.port == 443 else f":{args.port}"
    print(
        say(
            "The certificate for {name} is in {folder}; the settings are in {settings}.",
            name=name,
            folder=tls,
            settings=instance / "muster.env",
        )
    )
    print(
        say(
            "Phones will open {address} once Muster restarts with them "
            "(`make service` installs or restarts the service, the front server and the renewal timer).",
            address=f"https://{name}{port}",
        )
    )


def renew(args: argparse.Namespace) -> None:
    """`python -m app renew`: renew the certificate when due, and serve the new one."""
    tls = Path(args.instance) / "tls"
    if not (tls / "certbot" / "config" / "renewal" / f"{LINEAGE}.conf").is_file():
        raise SetupError(say("There is no certificate to renew: get one with `python -m app https` first."))
    # The timer already starts at a random moment (RandomizedDelaySec): no second wait of certbot's.
    command = [
        certbot_program(),
        "renew",
        "--non-interactive",
        "--no-random-sleep-on-renew",
        "--cert-name",
        LINEAGE,
    ]
    command += _dirs(tls)
    if args.force:
        command.append("--force-renewal")
    done = subprocess.run(command, check=False)  # noqa: S603 (certbot, arguments made here)
    if done.returncode != 0:
        raise SetupError(
            say(
                "certbot could not renew the certificate (exit {status}); the one served stays, "
                "and the next run tries again.",
                status=done.returncode,
            )
        )
    if install(tls):
        served = front.reload(front.folder_for(args.database))
        if served:
            print(say("Renewed: the front server serves the new certificate."))
        else:
            print(say("Renewed: Muster serves it from its next connection."))
    else:
        print(say("The certificate is not due for renewal yet."))


def _run(step: Callable[[argparse.Namespace], None]) -> Callable[[argparse.Namespace], None]:
    """The command, with a refusal said as its one sentence (exit status 1)."""

    def run(args: argparse.Namespace) -> None:
        try:
            step(args)
        except SetupError as exc:
            sys.exit(str(exc))

    return run


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The `https` and `renew` commands of `python -m app`."""
    from app import database_path

    https = sub.add_parser("https", help=say("get a publicly trusted HTTPS certificate for NAME (DNS-01)"))
    https.add_argument("--domain", required=True, help=say("the name phones open, such as club.duckdns.org"))
    https.add_argument(
        "--dns", required=True, help=say("the DNS provider: {names}", names=", ".join(sorted(PROVIDERS)))
    )
    https.add_argument(
        "--credentials", help=say("the provider's credentials in certbot's format (asked for if not given)")
    )
    https.add_argument("--email", help=say("where Let's Encrypt writes about the certificate (optional)"))
    https.add_argument(
        "--acme-server", help=say("another ACME server's directory URL (a staging server, tests)")
    )
    https.add_argument(
        "--propagation-seconds", type=int, help=say("how long to wait for the DNS record to spread")
    )
    https.add_argument("--port", type=int, default=443, help=say("the HTTPS port phones use (443)"))
    https.add_argument(
        "--http-port", type=int, default=80, help=say("the plain HTTP port sent on to HTTPS (80)")
    )
    for command in (
        https,
        sub.add_parser("renew", help=say("renew the HTTPS certificate when due, and serve it")),
    ):
        command.add_argument(
            "--instance",
            default=str(ROOT / "instance"),
            help=say("the folder of tls/ and muster.env (instance/)"),
        )
        command.add_argument("--database", default=database_path(), help=argparse.SUPPRESS)
    https.set_defaults(run=_run(obtain))
    renew_parser = sub.choices["renew"]
    renew_parser.add_argument("--force", action="store_true", help=say("renew even if not due (a test)"))
    renew_parser.set_defaults(run=_run(renew))
