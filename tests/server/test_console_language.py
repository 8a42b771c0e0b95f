"""`python -m app` speaks to the club's admin in the terminal's language (LANG and its kin)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.console_language import VARIABLES
from tests.server.conftest import ROOT


def _muster(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m app ARGS` with only ``env``'s language settings (none of the caller's)."""
    full = {key: value for key, value in os.environ.items() if key not in VARIABLES}
    full.update(MUSTER_DB=str(tmp_path / "muster.sqlite"), MUSTER_SECRET_KEY="console-tests", **env)
    return subprocess.run(
        [sys.executable, "-m", "app", *args], cwd=ROOT, env=full, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("env", "sentence"),
    [
        ({"LANG": "de_DE.UTF-8"}, "{path} ist keine Datei."),
        ({"LANG": "fr_FR.UTF-8"}, "{path} n'est pas un fichier."),
        ({"LANG": "C.UTF-8"}, "{path} is not a file."),
        ({"LANGUAGE": "fr:de", "LANG": "de_DE.UTF-8"}, "{path} n'est pas un fichier."),
    ],
)
def test_a_refused_restore_is_said_in_the_terminals_language(
    tmp_path: Path, env: dict[str, str], sentence: str
) -> None:
    missing = tmp_path / "no-such-backup.sqlite"
    done = _muster(tmp_path, "restore", str(missing), **env)
    assert done.returncode == 1
    assert done.stderr.strip() == sentence.format(path=missing)  # the path itself is never translated


def test_a_setting_muster_cannot_use_is_said_in_german(tmp_path: Path) -> None:
    done = _muster(tmp_path, "serve", LANG="de_DE.UTF-8", MUSTER_HTTP_PORT="achtzig")
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "MUSTER_HTTP_PORT muss eine Portnummer von 1 bis 65535 sein (80 für einfaches http://), "
        "nicht 'achtzig'."
    )


def test_a_backup_is_reported_in_french(tmp_path: Path) -> None:
    target = tmp_path / "copie.sqlite"
    done = _muster(tmp_path, "backup", str(target), LANG="fr_FR.UTF-8")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"sauvegardé dans {target}"
    restored = _muster(tmp_path, "restore", str(target), LANG="fr_FR.UTF-8")
    assert restored.stdout.strip() == f"{tmp_path / 'muster.sqlite'} restaurée depuis {target}"


def test_the_help_describes_the_commands_in_german(tmp_path: Path) -> None:
    done = _muster(tmp_path, "--help", LANG="de_DE.UTF-8")
    assert done.returncode == 0
    assert "Muster, der Begleiter am Spieltisch." in done.stdout
    assert "die Datenbank durch die Sicherung FILE ersetzen" in done.stdout
