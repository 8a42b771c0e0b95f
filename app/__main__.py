"""Command line: ``python -m app serve`` runs Muster with waitress."""

from __future__ import annotations

import argparse
import logging
import os


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m app", description="Muster, the table-side companion.")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve Muster over HTTP with waitress")
    serve.add_argument("--host", default=os.environ.get("MUSTER_HOST", "0.0.0.0"))  # noqa: S104
    serve.add_argument("--port", type=int, default=int(os.environ.get("MUSTER_PORT", "5000")))
    serve.add_argument("--threads", type=int, default=int(os.environ.get("MUSTER_THREADS", "8")))
    args = parser.parse_args(argv)

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from waitress import serve as waitress_serve

    from app import create_app

    app = create_app()
    logging.getLogger("muster").info(
        "Muster on http://%s:%d (database %s)", args.host, args.port, app.config["DATABASE"]
    )
    waitress_serve(app, host=args.host, port=args.port, threads=args.threads)


if __name__ == "__main__":
    main()
