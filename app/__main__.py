"""Command line: serve Muster, back it up and restore it.

python -m app serve                 gunicorn, gthread workers (settings from MUSTER_* variables)
python -m app backup FILE           an SQLite copy, safe while the server runs
python -m app restore FILE          replace the database with a backup (stop the server first)
python -m app export-json FILE      every game, roster and terrain set as JSON
python -m app import-json FILE      load such a JSON file into a new, empty database
python -m app restore-replica FILE  the newest copy at MUSTER_REPLICA (Litestream) into a new FILE
python -m app https --domain NAME --dns PROVIDER   a publicly trusted certificate (app/serving/https.py)
python -m app renew                 renew it when due, and serve the new one (the systemd timer)
python -m app reload                serve a renewed certificate without a restart

With MUSTER_REPLICA set, `serve` runs under `litestream replicate -exec ...` (app/infra/replica.py).
What a command says to the admin is in the terminal's language (app/console_language.py).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import gc
import json
import logging
import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app import console_language
from app.rules import speech
from app.rules.speech import say, say_plural

if TYPE_CHECKING:
    from app.serving import tls


def _worker_started(_worker: Any) -> None:
    from app.infra import heap, pdf

    heap.trim_now_and_then()
    # The layout process loads WeasyPrint now, in the background, not on the first print
    # (a second here, more on a Pi); it leaves after a quiet minute like any other.
    pdf.start_layout()


def _port_free(host: str, port: int, wait: float = 5.0) -> bool:
    """Whether nothing listens on the port, waiting a few seconds for one that is going away.

    The workers share the port with SO_REUSEPORT, which would let a second Muster started by
    the same user share it too and take half the phones: a plain bind first makes sure the
    port is free. The wait lets the workers of a server just stopped let go of it.
    """
    deadline = time.monotonic() + wait
    while True:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            # As gunicorn binds: connections of a server just stopped (TIME_WAIT) do not count.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((host, port))
                return True
            except OSError as exc:
                if exc.errno != errno.EADDRINUSE or time.monotonic() > deadline:
                    return exc.errno != errno.EADDRINUSE
        time.sleep(0.25)


def _serve_under_litestream(args: argparse.Namespace) -> None:
    """With MUSTER_REPLICA set, become Litestream running this same command (no return).

    Litestream then starts the server as its child, forwards SIGTERM to it, makes a last sync
    once it has stopped, and exits with it: replication starts and stops with the server,
    under `make run` and the systemd unit alike. The server it starts sees CHILD_MARK and serves.
    Returns, to serve alone, when MUSTER_REPLICA is unset, or when Litestream is missing or
    cannot reach the replica (said in the log).
    """
    from app.infra import replica

    try:
        url = replica.replica_url(os.environ.get("MUSTER_REPLICA"))
    except replica.ReplicaError as exc:
        sys.exit(str(exc))
    if url is None or os.environ.get(replica.CHILD_MARK) == "1":
        return
    # Only the path: the server Litestream starts builds the app (and creates or migrates the
    # database), and Litestream takes the database up as soon as it is there.
    from app import database_path

    database = database_path()
    serve = [sys.executable, "-m", "app", "serve", "--host", args.host, "--port", str(args.port)]
    serve += ["--workers", str(args.workers), "--threads", str(args.threads)]
    if args.access_log:
        serve.append("--access-log")
    try:
        replica.write_config(database, url)
        command = replica.replicate_command(database, url, serve)
        problem = replica.unreachable(database, url)
    except replica.ReplicaError as exc:  # no litestream program
        problem = str(exc)
    if problem:
        # The games come first: serve without replication; /admin says it is not running.
        logging.getLogger("muster").error("%s Muster serves without replication until restarted.", problem)
        return
    logging.getLogger("muster").info("replicating %s to %s with Litestream", database, replica.shown(url))
    os.environ[replica.CHILD_MARK] = "1"
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(command[0], command)  # noqa: S606 (Litestream from the venv, arguments made here)


def _serving_plan(args: argparse.Namespace) -> tuple[tls.Settings, str | None, int]:
    """The HTTPS settings, the front server and gunicorn's port, checked; exits with a sentence."""
    from app.serving import front, tls
    from app.serving.certificate import CertificateError

    try:
        settings = tls.settings(args.host, args.port)
        kind = front.kind(os.environ.get("MUSTER_FRONT"))
        backend = front.backend_port(os.environ.get("MUSTER_BACKEND_PORT")) if kind else args.port
        if settings.on:
            tls.served(settings.cert, settings.key)
    except CertificateError as exc:
        sys.exit(exc.said())
    except (tls.SettingError, front.FrontError) as exc:
        sys.exit(str(exc))
    if kind and front.nginx_program() is None:
        sys.exit(
            say(
                "MUSTER_FRONT=nginx needs nginx: install it with `sudo apt install nginx` (make service does)."
            )
        )
    if kind and os.environ.get("MUSTER_PROXY", "0").strip() not in ("", "0"):
        sys.exit(
            say(
                "MUSTER_PROXY says a proxy of your own stands in front of Muster, and MUSTER_FRONT=nginx "
                "puts Muster's own there: keep one (MUSTER_FRONT= to keep yours, or remove MUSTER_PROXY)."
            )
        )
    if kind and backend in (args.port, settings.http_port):
        sys.exit(say("MUSTER_BACKEND_PORT ({port}) must differ from the ports phones use.", port=backend))
    return settings, kind, backend


def _startup_line(urls: list[str], app: Any) -> None:
    """Say where Muster is: each address phones may open, and a QR code of the first for the
    first phone to scan."""
    import segno

    logging.getLogger("muster").info(
        "Muster on %s (database %s, %d workers x %d threads)",
        ", ".join(urls),
        app.config["DATABASE"],
        app.config["SERVE_WORKERS"],
        app.config["SERVE_THREADS"],
    )
    with contextlib.suppress(OSError, ValueError):
        for url in urls:
            print(say("Phones open {address}", address=url), flush=True)
        if urls[0].startswith("http://127."):
            print(say("(No network found: only this machine can open it.)"), flush=True)
        segno.make(urls[0], error="l").terminal(out=sys.stdout, compact=True)
        sys.stdout.flush()


def _phone_addresses(settings: Any, https_address: str | None) -> list[str]:
    """The addresses phones should open: HTTPS when on, else each of this machine's LAN
    addresses (the one the default route leaves by first); never 0.0.0.0."""
    if https_address:
        return [https_address]
    from app.serving import lan

    hosts = [settings.host]
    if settings.host in ("", "0.0.0.0", "::"):  # noqa: S104 (all interfaces)
        hosts = lan.addresses() or ["127.0.0.1"]
    port = "" if settings.port == 80 else f":{settings.port}"
    return [f"http://{host}{port}" for host in hosts]


def _serve(args: argparse.Namespace) -> None:
    from gunicorn.app.base import BaseApplication
    from gunicorn.arbiter import Arbiter

    from app import create_app
    from app.infra import heap, pdf
    from app.serving import access_log, compiled_templates, duckdns, front, redirect, tls
    from app.web import systems as web_systems

    settings, front_kind, backend = _serving_plan(args)
    renewing = tls.RenewingContext(settings.cert, settings.key) if settings.on and not front_kind else None
    running: dict[str, Any] = {}

    def watch_front(nginx: Any) -> None:
        # Should nginx stop by itself, Muster stops too (systemd restarts both). This thread
        # only waits: it starts nothing, so no fork of a worker can catch a half-made child.
        nginx.wait()
        if running.get("nginx") is nginx:
            # (Not its exit status: the gunicorn master may reap it first, as it reaps any child.)
            logging.getLogger("muster").error("nginx stopped: Muster stops with it.")
            os.kill(os.getpid(), signal.SIGTERM)

    def when_ready(_arbiter: Any) -> None:
        # The master holds gunicorn's socket by now (no reuse_port behind the front server), so
        # requests nginx passes on wait in its queue for the workers: none meets "Bad Gateway".
        # nginx starts here, in the master's own thread, before any worker is forked.
        if not front_kind:
            return
        program = front.nginx_program()
        assert program is not None
        try:
            nginx = running["nginx"] = running["front"].start(program)
        except front.FrontError as exc:
            logging.getLogger("muster").error("%s", exc)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        threading.Thread(target=watch_front, args=(nginx,), name="muster-front", daemon=True).start()

    def post_fork(_arbiter: Any, _worker: Any) -> None:
        # The plain-HTTP redirect runs in the master only: a worker lets go of its socket.
        if running.get("redirect") is not None:
            running["redirect"].socket.close()

    def on_reload(_arbiter: Any) -> None:
        if running.get("nginx") is not None:
            front.reload(running["front"].folder)

    class Server(BaseApplication):  # type: ignore[misc]
        """gunicorn with gthread workers: it holds 64 keep-alive phones without stalling."""

        def load_config(self) -> None:
            options = {
                "bind": f"127.0.0.1:{backend}" if front_kind else f"{args.host}:{args.port}",
                "workers": args.workers,
                "threads": args.threads,
                "worker_class": "gthread",
                "preload_app": True,
                # Each worker listens on its own socket and the kernel spreads new connections
                # over them: on one shared socket, a burst of phones could all land on one
                # worker (one core) while the other idled. Behind the front server the master
                # holds one socket instead: requests wait in it while workers (re)start, and
                # nginx, not the phones, makes the connections.
                "reuse_port": not front_kind,
                # gunicorn's control socket lives at one path per user (~/.gunicorn): two
                # servers would fight over it, and Muster has no use for it.
                "control_socket_disable": True,
                # X-Forwarded-* headers are believed only through MUSTER_PROXY (ProxyFix in
                # create_app), never by gunicorn on its own for whoever connects from 127.0.0.1.
                "forwarded_allow_ips": "",
                "timeout": 60,
                "graceful_timeout": 10,
                "keepalive": 5,
                "accesslog": "-" if args.access_log else None,
                "logger_class": access_log.RedactingLogger,  # no token reaches the log
                "errorlog": "-",
                "post_worker_init": _worker_started,
                "when_ready": when_ready,
                "post_fork": post_fork,
                "on_reload": on_reload,
            }
            if renewing is not None:
                # gunicorn serves HTTPS itself; the context follows a renewed certificate.
                options.update(certfile=settings.cert, keyfile=settings.key, ssl_context=renewing.__call__)
            for key, value in options.items():
                if value is not None:
                    self.cfg.set(key, value)

        def load(self) -> Any:
            return app

        def run(self) -> None:
            MusterArbiter(self).run()

    class MusterArbiter(Arbiter):  # type: ignore[misc]
        def stop(self, graceful: bool = True) -> None:
            # The front first: nginx finishes the requests it passed on while gunicorn still answers.
            if running.get("nginx") is not None:
                front.stop(running.pop("nginx"), graceful_seconds=self.cfg.graceful_timeout)
            super().stop(graceful)

    _serve_under_litestream(args)
    ports = {"MUSTER_PORT": (args.host, args.port)}
    if settings.http_port:
        ports["MUSTER_HTTP_PORT"] = (args.host, settings.http_port)
    if front_kind:
        ports["MUSTER_BACKEND_PORT"] = ("127.0.0.1", backend)
    for setting, (host, port) in ports.items():
        if not _port_free(host, port):
            sys.exit(
                say(
                    "Port {port} is in use by another program (another Muster?): stop it, "
                    "or choose another port with {setting}.",
                    port=port,
                    setting=setting,
                )
            )
    if front_kind:
        os.environ["MUSTER_PROXY"] = "1"  # gunicorn hears only nginx, which writes the phone's address
    # Built once, in the master, before the workers fork: migrations run, the rulepacks are
    # checked, and the workers share the loaded code and packs instead of each holding a copy
    # (no database connection is open at the fork: each server thread opens its own).
    heap.fewer_arenas()  # before any thread starts; the workers inherit it
    try:
        app = create_app(
            {"HTTPS_PORT": args.port, "SERVE_WORKERS": args.workers, "SERVE_THREADS": args.threads}
        )
    except ValueError as exc:  # a setting Muster cannot use (MUSTER_PROXY): say which, and stop
        sys.exit(str(exc))
    access_log.learn(app)
    # Templates compiled here are shared by every worker instead of compiled again in each,
    # and kept on disk for the next start.
    instance = Path(app.instance_path)
    app.jinja_env.bytecode_cache = compiled_templates.cache(instance, "pages")
    for name in app.jinja_env.list_templates(extensions=("html",)):
        app.jinja_env.get_template(name)
    pdf.compile_templates(compiled_templates.cache(instance, "print"))
    web_systems.load_all()
    https_address = tls.address_of(app.config)
    if front_kind:
        running["front"] = front.Front(
            front.folder_for(app.config["DATABASE"]), settings, backend, https_address=https_address
        )
    elif settings.http_port and https_address:
        running["redirect"] = redirect.start(args.host, settings.http_port, https_address)
    if renewing is not None:
        renewing.current()  # loaded once here: a broken pair stops the start, not the first phone
    duckdns.start(app.config)
    gc.freeze()  # the collector then leaves the shared objects alone, so their pages stay shared
    _startup_line(_phone_addresses(settings, https_address), app)
    # The running server speaks each phone's language in its requests; what its processes say
    # outside one (its log, a replay in the background) stays English, as before the console
    # spoke the terminal's language. The workers fork from here and keep this.
    with speech.speaking(speech.ENGLISH):
        Server().run()


def _database() -> str:
    """The database file, created or migrated as the server would: the backup commands need
    neither the rulepacks nor the pages, whose loading took most of their second."""
    from app import database_path
    from app.store import Store

    path = database_path()
    Store.initialise(path)
    return path


def _backup(args: argparse.Namespace) -> None:
    from app.store import Store

    store = Store(_database())
    try:
        store.backups.backup(args.file)
    finally:
        store.close()
    print(say("backed up to {file}", file=args.file))


def _restore(args: argparse.Namespace) -> None:
    from app.store import Store
    from app.store.backups import check_backup

    problem = check_backup(args.file)
    if problem:
        sys.exit(problem)
    path = _database()
    store = Store(path)
    try:
        store.backups.restore(args.file)
    finally:
        store.close()
    Store.initialise(path)  # a backup from an older Muster is brought up to date
    print(say("restored {database} from {file}", database=path, file=args.file))


def _export(args: argparse.Namespace) -> None:
    from app.store import Store

    store = Store(_database())
    try:
        data = store.backups.export_all()
    finally:
        store.close()
    with open(args.file, "w", encoding="utf-8") as out:
        json.dump(data, out, ensure_ascii=False, indent=1)
    rows = sum(len(rows) for rows in data["tables"].values())
    print(
        say_plural("exported {count} row to {file}", "exported {count} rows to {file}", rows, file=args.file)
    )


def _import(args: argparse.Namespace) -> None:
    from app.store import Store

    with open(args.file, encoding="utf-8") as source:
        data = json.load(source)
    store = Store(_database())
    try:
        store.backups.import_all(data)
    except ValueError as exc:
        sys.exit(str(exc))
    finally:
        store.close()
    print(say("imported {file}", file=args.file))


def _restore_replica(args: argparse.Namespace) -> None:
    from app.infra import replica
    from app.store.backups import check_backup

    try:
        url = replica.replica_url(os.environ.get("MUSTER_REPLICA"))
        if url is None:
            sys.exit(
                say(
                    "MUSTER_REPLICA is not set: give the replica to restore from, for example {example}.",
                    example="MUSTER_REPLICA=file:///media/usb/muster",
                )
            )
        replica.restore(url, args.file)
    except replica.ReplicaError as exc:
        sys.exit(str(exc))
    problem = check_backup(args.file)
    if problem:
        sys.exit(problem)
    print(say("restored {file} from {replica}", file=args.file, replica=replica.shown(url)))


def _reload(_args: argparse.Namespace) -> None:
    """Serve a renewed certificate: the front server takes it on a reload, gunicorn at once."""
    from app import database_path
    from app.serving import front

    if front.reload(front.folder_for(database_path())):
        print(say("The front server (nginx) serves the renewed certificate; no connection was dropped."))
    else:
        print(say("No front server runs: gunicorn serves the renewed certificate from its next connection."))


def main(argv: list[str] | None = None) -> None:
    """Run the command ``argv`` asks for, saying everything in the console's language
    (app/console_language.py)."""
    with speech.speaking(console_language.catalogue(os.environ)):
        _command(argv)


def _command(argv: list[str] | None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m app", description=say("Muster, the table-side companion.")
    )
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help=say("serve Muster over HTTP (gunicorn)"))
    serve.add_argument("--host", default=os.environ.get("MUSTER_HOST", "0.0.0.0"))  # noqa: S104
    serve.add_argument("--port", type=int, default=int(os.environ.get("MUSTER_PORT", "5000")))
    serve.add_argument("--workers", type=int, default=int(os.environ.get("MUSTER_WORKERS", "2")))
    serve.add_argument("--threads", type=int, default=int(os.environ.get("MUSTER_THREADS", "8")))
    serve.add_argument(
        "--access-log", action="store_true", default=os.environ.get("MUSTER_ACCESS_LOG") == "1"
    )
    serve.set_defaults(run=_serve)
    sub.add_parser("reload", help=say("serve a renewed HTTPS certificate without a restart")).set_defaults(
        run=_reload
    )
    from app.serving import https

    https.add_commands(sub)
    for name, helptext, run in (
        ("backup", speech.words("copy the database to FILE (safe while serving)"), _backup),
        ("restore", speech.words("replace the database with the backup FILE"), _restore),
        ("export-json", speech.words("write every game, roster and terrain set to FILE as JSON"), _export),
        ("import-json", speech.words("load FILE (from export-json) into a new, empty database"), _import),
        (
            "restore-replica",
            speech.words("restore the newest copy at MUSTER_REPLICA into the new FILE"),
            _restore_replica,
        ),
    ):
        command = sub.add_parser(name, help=say(helptext))
        command.add_argument("file")
        command.set_defaults(run=run)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    args.run(args)


if __name__ == "__main__":
    main()
