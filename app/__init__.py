"""Muster: the table-side companion for miniature wargames."""

from __future__ import annotations

import logging
import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger("muster")


def _secret_key(instance: Path) -> str:
    """The session and CSRF key: from the environment, else made once and kept on disk."""
    from_env = os.environ.get("MUSTER_SECRET_KEY")
    if from_env:
        return from_env
    path = instance / "secret_key"
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the Flask app: config, database, rulepacks, blueprints.

    ``config`` overrides the defaults; ``DATABASE`` names the SQLite file (default
    ``instance/muster.sqlite``) and the environment variable ``MUSTER_DB`` overrides it.
    """
    app = Flask(
        __name__,
        instance_path=str(ROOT / "instance"),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.update(
        DATABASE=str(Path(app.instance_path) / "muster.sqlite"),
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
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))

    from app.rules.pack import load_packs
    from app.store import Store

    Store.initialise(app.config["DATABASE"])
    packs, errors = load_packs(Path(app.config["RULEPACKS"]))
    for error in errors:
        log.error("rulepack refused: %s", error)
    app.extensions["muster.packs"] = packs
    app.extensions["muster.pack_errors"] = errors

    from app.web import register

    register(app)
    return app
