"""What `pip wheel .` builds: every game system's code, and a copy that says it needs a checkout.

Muster runs from a checkout (README, "Running it"): its pages, static files and print layouts
are folders beside app/. The wheel is built and installed here offline, from a copy of the
code, so the test costs a few seconds and leaves the checkout as it was.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.conftest import ROOT
from tests.console import english

# Offline: nothing is fetched, the build uses the setuptools the test tools installed.
PIP = [sys.executable, "-m", "pip", "--no-input", "--quiet"]
PLAY = """
import sys
from pathlib import Path

import app
from app.rules import systems
from app.rules.pack import load_packs

assert Path(app.__file__).resolve().is_relative_to(Path(sys.argv[2]).resolve()), app.__file__
packs, errors = load_packs(Path(sys.argv[1]))
assert errors == [], errors
played = set()
for pack in sorted(packs.values(), key=lambda p: p.id):
    for scenario in pack.scenarios:  # each system's own rules, from the installed copy
        system = systems.system_for(pack, scenario)
        assert system.facts(pack, scenario) is not None and system.scoring(pack, scenario) is not None
        played.add(system.name)
print(" ".join(sorted(played)))
try:
    app.create_app({"DATABASE": sys.argv[3]})
except ValueError as exc:
    print(exc)
"""


def _wheel(tmp_path: Path) -> Path:
    source = tmp_path / "source"
    shutil.copytree(ROOT / "app", source / "app", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    subprocess.run(
        [
            *PIP,
            "wheel",
            "--no-index",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(tmp_path / "dist"),
            str(source),
        ],
        check=True,
        timeout=180,
        capture_output=True,
    )
    return next((tmp_path / "dist").glob("muster-*.whl"))


def test_the_wheel_holds_every_game_system_and_needs_a_checkout_to_serve(tmp_path):
    wheel = _wheel(tmp_path)
    inside = set(zipfile.ZipFile(wheel).namelist())
    modules = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "app").rglob("*.py")
        if "__pycache__" not in path.parts
    }
    assert modules - inside == set()
    assert {f"app/rules/systems/{name}/__init__.py" for name in ("siege", "treachery", "tunnels")} <= inside

    # Installed on its own (no checkout anywhere on its path), beside the test tools' packages.
    site = tmp_path / "site"
    subprocess.run(
        [*PIP, "install", "--no-index", "--no-deps", "--no-compile", "--target", str(site), str(wheel)],
        check=True,
        timeout=120,
        capture_output=True,
    )
    env = english({k: v for k, v in os.environ.items() if not k.startswith("MUSTER_")})
    env["PYTHONPATH"] = str(site)
    ran = subprocess.run(
        [sys.executable, "-c", PLAY, str(ROOT / "rulepacks"), str(site), str(tmp_path / "m.sqlite")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    systems_line, refusal = ran.stdout.splitlines()
    assert systems_line == "rounds siege treachery tunnels turns"
    # Serving needs the checkout's folders: the installed copy says so instead of answering 500s.
    assert refusal.startswith("Muster runs from a checkout of its repository")
    assert "templates/, static/, pdf/ beside app/" in refusal
    served = subprocess.run(
        [sys.executable, "-m", "app", "serve", "--port", "0"],
        cwd=tmp_path,
        env={**env, "MUSTER_DB": str(tmp_path / "m.sqlite")},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert served.returncode == 1
    assert "Muster runs from a checkout of its repository" in served.stderr


def test_the_readme_says_muster_runs_from_a_checkout_with_pinned_versions():
    readme = (ROOT / "README.md").read_text()
    assert "Muster runs from a checkout of this repository" in readme
    makefile = (ROOT / "Makefile").read_text()
    # make setup and make test install the versions CI tested, not whatever is newest that night.
    installs = [
        line
        for line in makefile.splitlines()
        if "pip install" in line and "-e " in line and "make constraints:" not in line
    ]
    assert installs and all("-c constraints.txt" in line for line in installs)
    pinned = [line for line in (ROOT / "constraints.txt").read_text().splitlines() if line and line[0] != "#"]
    assert all("==" in line for line in pinned)
    assert {"flask", "weasyprint", "pydantic", "pytest", "playwright", "certbot"} <= {
        line.split("==")[0].lower() for line in pinned
    }
