"""What a pack's translations still lack: each own-words text without a translation, as entries
to paste into ``rulepacks/translations/<pack>.<language>.yaml`` and fill in.

    python tools/pack_texts.py de                  # every pack's German still to write
    python tools/pack_texts.py fr aos-ghb-2021     # one pack's French

Exits 1 when something lacks a translation or a translation file is refused (its problems are
printed first), so a script can run it before a pack is shipped. docs/rulepacks.md,
"Translations", says how a translation file is written.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app.rules import systems  # noqa: E402 (the checkout's app, wherever this runs from)
from app.rules.pack import load_packs  # noqa: E402
from app.rules.pack_translations import own_words  # noqa: E402


def lacking(folder: Path, language: str, only: list[str]) -> tuple[dict[str, list[str]], list[str]]:
    """By pack id, the texts not yet translated into ``language``; and the refused files' problems."""
    systems.install(())
    packs, errors = load_packs(folder)
    missing = {
        pack_id: [text for text in own_words(pack) if text not in pack.translations.get(language, {})]
        for pack_id, pack in sorted(packs.items())
        if not only or pack_id in only
    }
    problems = [str(e) for e in errors if e.file.startswith("translations/")]
    return {k: v for k, v in missing.items() if v}, problems


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip())
        return 2
    language, only = argv[0], argv[1:]
    missing, problems = lacking(ROOT / "rulepacks", language, only)
    for problem in problems:
        print(f"# refused: {problem}")
    for pack_id, texts in missing.items():
        print(f"# rulepacks/translations/{pack_id}.{language}.yaml lacks {len(texts)}:")
        entries = [{"en": text, language: ""} for text in texts]
        print(yaml.safe_dump(entries, allow_unicode=True, sort_keys=False, width=100))
    return 1 if missing or problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
