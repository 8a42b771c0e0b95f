"""Muster: the table-side companion for miniature wargames."""

from __future__ import annotations

import functools
import logging
import os
import secrets
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Flask is imported when an app is built, not by `python -m app.infra.pdf`
    from flask import Flask

ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger("muster")
# Muster runs from a checkout of its repository (README, "Running it"): the pages, the static
# files and the print layouts are read from these folders beside app/, not from the package.
CHECKOUT_FOLDERS = ("templates", "static", "pdf")


def checkout_problem(root: Path = ROOT) -> str | None:
    """Why Muster cannot run from ``root``, in one sentence, or ``None`` when it is a checkout.

    A wheel or an installed package holds the code of every game system but not the folders
    above; without this check such a copy would start and answer every page with a 500.
    """
    from app.rules.speech import say

    missing = [name for name in CHECKOUT_FOLDERS if not (root / name).is_dir()]
    if not missing:
        return None
    return say(
        "Muster runs from a checkout of its repository, and {root} has no {folders} beside app/: "
        "clone the repository and run `make run` in it (README, 'Running it').",
        root=root,
        folders=", ".join(f"{name}/" for name in missing),
    )


def _secret_key(instance: Path) -> str:
    """The session and CSRF key: from the environment, else made once and kept on disk."""
    from_env = os.environ.get("MUSTER_SECRET_KEY")
    if from_env:
        return from_env
    path = instance / "secret_key"
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        try:
            # Created readable by its owner only, and only once even if two processes race.
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_hex(32))
    return path.read_text().strip()


def _rulepack_files(folder: Path) -> tuple[tuple[str, int, int], ...]:
    files = []
    # A pack's catalogue (rulepacks/catalogues/) changing reloads the packs too.
    for path in [
        *folder.glob("*.yaml"),
        *folder.glob("catalogues/*.yaml"),
        *folder.glob("translations/*.yaml"),
    ]:
        try:
            stat = path.stat()
        except OSError:
            continue
        files.append((str(path.relative_to(folder)), stat.st_mtime_ns, stat.st_size))
    return tuple(sorted(files))


PACK_CHECK_SECONDS = 1.0
# Packs already parsed in this process, by folder and file listing: apps built on the same
# folder (each gunicorn thread's, each test's) share one parse instead of repeating it.
_LOADED: dict[tuple[str, Any], tuple[dict[str, Any], list[Any]]] = {}


def pack_folders(app: Flask) -> list[Path]:
    """Where the packs are read from: the rulepacks folder (the one an admin installs into),
    then each game system's own ``rulepacks/`` folder, in its package (app/infra/system_files.py)."""
    from app.infra.system_files import folders

    return [Path(app.config["RULEPACKS"]), *folders("rulepacks")]


def _load_packs(folders: list[Path], load: Any) -> tuple[dict[str, Any], list[Any]]:
    """Every folder's packs together; a pack id that an earlier folder has already is refused."""
    from app.rules.pack_files import PackError

    packs: dict[str, Any] = {}
    errors: list[Any] = []
    for folder in folders:
        found, problems = load(folder)
        errors += problems
        for pack_id, pack in found.items():
            if pack_id in packs:
                errors.append(
                    PackError.at(f"{pack_id}.yaml", "id", f"{pack_id!r} is already used by another pack")
                )
            else:
                packs[pack_id] = pack
    return packs, errors


def refresh_rulepacks(app: Flask) -> dict[str, Any]:
    """The installed rulepacks, loaded again whenever a file in the folder changed.

    An admin can install or remove a pack while Muster runs; every worker notices on its
    next request (a listing of a few files costs microseconds).
    """
    from app.rules.pack import load_packs
    from app.web.language import spoken

    # The folder is looked at no more than once a second: a listing costs a request 0.2 ms.
    checked = app.extensions.get("muster.pack_checked", 0.0)
    every = float(app.config.get("RULEPACKS_CHECK_SECONDS", PACK_CHECK_SECONDS))
    if time.monotonic() - checked < every and "muster.packs" in app.extensions:
        return app.extensions["muster.packs"]
    app.extensions["muster.pack_checked"] = time.monotonic()
    folders = pack_folders(app)
    # A pack's translations are read for the languages Muster speaks, and no other.
    languages = spoken(app)
    files = tuple((str(folder), _rulepack_files(folder)) for folder in folders)
    if app.extensions.get("muster.pack_files") != (files, languages):
        key = (str([str(f.resolve()) for f in folders]), files, languages)
        if key not in _LOADED:
            if len(_LOADED) >= 8:  # old listings are forgotten, oldest first
                del _LOADED[next(iter(_LOADED))]
            _LOADED[key] = _load_packs(folders, functools.partial(load_packs, languages=languages))
        packs, errors = _LOADED[key]
        for error in errors:
            log.error("rulepack refused: %s", error)
        app.extensions["muster.packs"] = packs
        app.extensions["muster.pack_errors"] = errors
        app.extensions["muster.pack_files"] = (files, languages)
    return app.extensions["muster.packs"]


def _behind_proxies(app: Flask, count: Any) -> None:
    """Trust ``count`` proxies in front of Muster for the phone's address and for HTTPS.

    Without a proxy nothing a client sends in ``X-Forwarded-*`` is believed: anyone on the
    club Wi-Fi could claim another address (and lock the organiser out of admin) or claim
    HTTPS. With ``MUSTER_PROXY=1`` (Caddy or nginx on the same Pi), Werkzeug's ProxyFix takes
    the address and scheme the nearest proxy wrote.
    """
    from werkzeug.middleware.proxy_fix import ProxyFix

    from app.rules.speech import say

    try:
        proxies = int(count)
    except (TypeError, ValueError):
        raise ValueError(
            say(
                "MUSTER_PROXY must be how many proxies stand in front of Muster (0 to 5), not {value}.",
                value=repr(count),
            )
        ) from None
    if not 0 <= proxies <= 5:
        raise ValueError(
            say(
                "MUSTER_PROXY must be how many proxies stand in front of Muster (0 to 5), not {value}.",
                value=repr(count),
            )
        )
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)  # type: ignore[method-assign]


def database_path() -> str:
    """The database file when nothing overrides it: ``MUSTER_DB``, else ``instance/muster.sqlite``.

    `serve` asks this before it hands itself to Litestream, without building an app for it.
    """
    return os.environ.get("MUSTER_DB") or str(ROOT / "instance" / "muster.sqlite")


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the Flask app: config, database, rulepacks, blueprints.

    ``config`` overrides the defaults; ``DATABASE`` names the SQLite file (default
    ``instance/muster.sqlite``) and the environment variable ``MUSTER_DB`` overrides it.
    """
    from flask import Flask

    problem = checkout_problem()
    if problem:  # `serve` says the sentence and stops
        raise ValueError(problem)
    app = Flask(
        __name__,
        instance_path=str(ROOT / "instance"),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.update(
        DATABASE=database_path(),
        RULEPACKS=str(ROOT / "rulepacks"),
        MAX_CONTENT_LENGTH=256 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        WTF_CSRF_TIME_LIMIT=None,
    )
    if config:
        app.config.update(config)
    if os.environ.get("MUSTER_DB"):
        app.config["DATABASE"] = os.environ["MUSTER_DB"]
    if os.environ.get("MUSTER_RULEPACKS"):
        app.config["RULEPACKS"] = os.environ["MUSTER_RULEPACKS"]
    # Game systems beyond the built-in ones: importable packages, each registering itself
    # (docs/architecture.md, "Adding a game system"), comma-separated in MUSTER_SYSTEMS.
    if os.environ.get("MUSTER_SYSTEMS"):
        app.config["SYSTEMS"] = [p.strip() for p in os.environ["MUSTER_SYSTEMS"].split(",") if p.strip()]
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))
    # HTTPS (app/serving/tls.py): the certificate served, the name phones open, how the name is kept.
    for key, variable in (
        ("TLS_CERT", "MUSTER_TLS_CERT"),
        ("TLS_KEY", "MUSTER_TLS_KEY"),
        ("HTTPS_NAME", "MUSTER_DOMAIN"),
        ("DNS_PROVIDER", "MUSTER_DNS"),
        ("DNS_CREDENTIALS", "MUSTER_DNS_CREDENTIALS"),
        ("DUCKDNS_URL", "MUSTER_DUCKDNS_URL"),
    ):
        if os.environ.get(variable):
            app.config[key] = os.environ[variable].strip()
    port = os.environ.get("MUSTER_PORT", "").strip()
    app.config.setdefault("HTTPS_PORT", int(port) if port.isdigit() else 443)
    if os.environ.get("MUSTER_PROXY"):
        app.config["PROXY_COUNT"] = os.environ["MUSTER_PROXY"]
    _behind_proxies(app, app.config.get("PROXY_COUNT") or 0)

    from app.rules import systems
    from app.store import Store
    from app.web import limits

    # Before the packs load: a pack names its system, and the loader asks which ones exist.
    systems.install(app.config.get("SYSTEMS") or ())
    Store.initialise(app.config["DATABASE"])
    limits.prepare(app.config["DATABASE"])
    refresh_rulepacks(app)

    from app.web import register

    register(app)
    return app
