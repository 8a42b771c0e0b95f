"""`python -m app serve` refusing its settings, many times over, for the price of one start.

A refusal is about a second of processor time, nearly all of it Python importing Muster, Flask
and gunicorn. ``Refusals`` imports them once, in a process of its own (it runs no thread, so
forking it is safe), and runs each refusal in a fork of it: the same ``main()`` that
``python -m app`` runs, with the case's environment, its standard error in a file, and its exit
status as Python's own exit would give it (a message: printed, status 1).
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.console import english

ROOT = Path(__file__).resolve().parent.parent.parent

# What the fork does with a case: the modules `serve` imports before it checks its settings are
# imported once beforehand, so each fork starts where a refusal begins.
FORKER = r"""
import json, os, sys, time, traceback
import app.__main__ as cli
from gunicorn.app.base import BaseApplication
from gunicorn.arbiter import Arbiter
from app import create_app
from app.infra import heap, pdf
from app.serving import access_log, compiled_templates, duckdns, front, https, redirect, tls
from app.web import systems

def run(env, errors):
    os.environ.clear()
    os.environ.update(env)
    os.dup2(os.open(errors, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    status = 0
    try:
        cli.main(["serve"])
    except SystemExit as exc:  # as the interpreter ends on one
        if isinstance(exc.code, int) or exc.code is None:
            status = exc.code or 0
        else:
            print(exc.code, file=sys.stderr)
            status = 1
    except BaseException:
        traceback.print_exc()
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)

print("ready", flush=True)
for line in sys.stdin:
    case = json.loads(line)
    sys.stdout.flush()
    child = os.fork()
    if child == 0:
        run(case["env"], case["errors"])
    deadline = time.monotonic() + case["timeout"]
    while True:
        done, status = os.waitpid(child, os.WNOHANG)
        if done:
            print(json.dumps(os.waitstatus_to_exitcode(status)), flush=True)
            break
        if time.monotonic() > deadline:  # it did not refuse: it serves, and is stopped
            os.kill(child, 9)
            os.waitpid(child, 0)
            print(json.dumps("timeout"), flush=True)
            break
        time.sleep(0.01)
"""


@dataclass
class Refused:
    """How a `serve` ended: its exit status and what it wrote to standard error."""

    returncode: int | str
    stderr: str


class Refusals:
    """A process that runs `python -m app serve` refusals in forks of itself (see above)."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        self.folder = folder
        self.proc = subprocess.Popen(
            [sys.executable, "-c", FORKER],
            cwd=ROOT,
            env=english(env),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.runs = 0
        assert self._answer() == "ready"

    def _answer(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, "the process that runs the refusals ended"
        return line.strip()

    def serve(self, env: dict[str, str], timeout: float = 60) -> Refused:
        """`python -m app serve` with exactly ``env`` (the console's language made English)."""
        assert self.proc.stdin is not None
        self.runs += 1
        errors = self.folder / f"serve-{self.runs}.stderr"
        case = {"env": english(env), "errors": str(errors), "timeout": timeout}
        self.proc.stdin.write(json.dumps(case) + "\n")
        self.proc.stdin.flush()
        returncode = json.loads(self._answer())
        return Refused(returncode, errors.read_text() if errors.exists() else "")

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)
