"""A pack's own words in German and French: what they are, the translation files, and told()."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from app.rules import speech
from app.rules.pack import load_packs
from app.rules.pack_translations import own_words, parse_translation
from tests.conftest import ROOT

RULEPACKS = ROOT / "rulepacks"
SPOKEN = ("en", "de", "fr")
SHIPPED = ("de", "fr")
GHB = "aos-ghb-2021"
# Texts of the Pitched Battles pack: a battle tactic's summary (own words) and its name (a book's).
TACTIC_SUMMARY = "Done if the opposing general is slain this turn."
TACTIC_NAME = "Slay the Warlord"


@pytest.fixture(scope="module")
def shipped():
    packs, errors = load_packs(RULEPACKS, languages=SPOKEN)
    assert errors == []
    return packs


def test_every_text_of_every_shipped_pack_is_in_german_and_french(shipped) -> None:
    assert len(shipped) == 5
    for pack in shipped.values():
        texts = own_words(pack)
        assert texts, pack.id
        for language in SHIPPED:
            translated = pack.translations.get(language, {})
            missing = [t for t in texts if t not in translated]
            assert missing == [], f"{pack.id}.{language}.yaml lacks: {missing}"
            for english, said in translated.items():
                # A blank the rules fill in ("Round {round}: ...") is kept, and the text is translated.
                assert re.findall(r"\{\w+\}", said) == re.findall(r"\{\w+\}", english), said


@pytest.mark.parametrize(
    ("pack_id", "own", "names"),
    [
        # Summaries, readings and bonus lines are the pack's own words; names are the books'.
        (GHB, [TACTIC_SUMMARY, "Who is the attacker?", "Attacker"], [TACTIC_NAME, "Savage Gains", GHB]),
        # A game system's own sections: Tunnel Fighting's reminders, a siege's tactics.
        (
            "aos-conquest-unbound",
            ["No model flies.", "Starve the defenders out."],
            ["Cut Off Supplies", "Impenetrable Gloom"],
        ),
        # A scenario section declared by the system (renown), a ploy's summary, a phase's neutral rule.
        (
            "tow-triumph-treachery",
            [
                "1 renown for each of your units in an enemy territory when the battle ends.",
                "An enemy wizard's cast miscasts on any double.",
                "Neutral models count as enemy models while you move.",
            ],
            ["Allies of Convenience", "Warhammer The Old World"],
        ),
    ],
)
def test_own_words_are_the_packs_prose_and_never_its_names(shipped, pack_id, own, names) -> None:
    texts = own_words(shipped[pack_id])
    assert set(own) <= set(texts)
    assert not set(names) & set(texts)
    assert len(texts) == len(set(texts))  # each once


def _copy(tmp_path: Path, *pack_ids: str) -> Path:
    for pack_id in pack_ids:
        shutil.copy(RULEPACKS / f"{pack_id}.yaml", tmp_path / f"{pack_id}.yaml")
    shutil.copytree(RULEPACKS / "catalogues", tmp_path / "catalogues")
    (tmp_path / "translations").mkdir()
    return tmp_path


def test_a_translation_of_a_text_the_pack_no_longer_has_is_refused_and_the_rest_kept(tmp_path: Path) -> None:
    folder = _copy(tmp_path, GHB)
    german = (RULEPACKS / "translations" / f"{GHB}.de.yaml").read_text(encoding="utf-8")
    (folder / "translations" / f"{GHB}.de.yaml").write_text(german, encoding="utf-8")
    # The pack's author rewords a summary after it was translated.
    pack_text = (folder / f"{GHB}.yaml").read_text(encoding="utf-8")
    assert TACTIC_SUMMARY in pack_text
    reworded = "Done if the enemy general is slain this turn."
    (folder / f"{GHB}.yaml").write_text(pack_text.replace(TACTIC_SUMMARY, reworded), encoding="utf-8")
    packs, errors = load_packs(folder, languages=SPOKEN)
    assert [(e.file, e.message.split(":")[0]) for e in errors] == [
        (f"translations/{GHB}.de.yaml", f"{TACTIC_SUMMARY!r} is not a text of the pack {GHB!r} (any more)")
    ]
    assert str(errors[0]).startswith(f"translations/{GHB}.de.yaml: texts[")
    pack = packs[GHB]  # the pack loads; the reworded text is said in English until translated again
    assert reworded not in pack.translations["de"]
    assert pack.translations["de"]["Who is the attacker?"] == "Wer ist der Angreifer?"


@pytest.mark.parametrize(
    ("file", "text", "message"),
    [
        (f"{GHB}.pl.yaml", "texts: []\n", "is in 'pl', which Muster does not speak (it speaks en, de, fr)"),
        (f"{GHB}.en.yaml", "texts: []\n", "is in English, the language packs are written in"),
        ("next-season.de.yaml", "texts: []\n", "translates the pack 'next-season', which is not installed"),
        ("aos-ghb-2021-de.yaml", "texts: []\n", "must be named <pack id>.<language>.yaml"),
        (
            f"{GHB}.de.yaml",
            "- en: Attacker\n  de: Angreifer\n",
            "whose one key, texts, lists the translations",
        ),
        (
            f"{GHB}.de.yaml",
            "texts:\n- en: Attacker\n  fr: Attaquant\n",
            "exactly en (the pack's text) and de",
        ),
        (f"{GHB}.de.yaml", "texts:\n- en: Attacker\n  de: 3\n", "de must be a text"),
        (
            f"{GHB}.de.yaml",
            "texts:\n- {en: Attacker, de: Angreifer}\n- {en: Attacker, de: Der Angreifer}\n",
            "'Attacker' is translated twice",
        ),
        (f"{GHB}.de.yaml", "texts: [\n", "is not valid YAML"),
    ],
)
def test_a_translation_file_that_is_not_one_is_refused_in_one_sentence(
    tmp_path: Path, file: str, text: str, message: str
) -> None:
    folder = _copy(tmp_path, GHB)
    (folder / "translations" / file).write_text(text, encoding="utf-8")
    packs, errors = load_packs(folder, languages=SPOKEN)
    assert GHB in packs
    assert len(errors) == 1 and errors[0].file == f"translations/{file}"
    assert message in errors[0].message


def test_a_translation_file_is_read_with_the_packs_size_limit(shipped) -> None:
    huge = "texts:\n" + "- {en: Attacker, de: Angreifer}\n" * 30_000
    table, errors = parse_translation(huge, "translations/x.de.yaml", shipped[GHB], "de")
    assert table == {} and "is larger than 512 KB" in errors[0].message


def test_told_says_the_text_in_the_language_spoken_and_english_outside(shipped) -> None:
    german = shipped[GHB].translations["de"]
    assert speech.told(TACTIC_SUMMARY) == TACTIC_SUMMARY  # no request: English
    with speech.speaking(speech.catalogue(), german):
        assert (
            speech.told(TACTIC_SUMMARY) == "Erfüllt, wenn der gegnerische General in diesem Zug getötet wird."
        )
        assert speech.told(TACTIC_NAME) == TACTIC_NAME  # a name the pack does not translate
        assert speech.told(None) is None
        assert shipped[GHB].side_label("attacker") == "Angreifer"
    assert speech.told(TACTIC_SUMMARY) == TACTIC_SUMMARY
    assert shipped[GHB].side_label("attacker") == "Attacker"


def test_the_authors_tool_lists_what_a_translation_still_lacks(tmp_path: Path) -> None:
    from tools.pack_texts import lacking

    folder = _copy(tmp_path, GHB)
    german = (RULEPACKS / "translations" / f"{GHB}.de.yaml").read_text(encoding="utf-8")
    entry = "- en: Who is the attacker?\n  de: Wer ist der Angreifer?\n"
    assert entry in german
    (folder / "translations" / f"{GHB}.de.yaml").write_text(german.replace(entry, ""), encoding="utf-8")
    assert lacking(folder, "de", []) == ({GHB: ["Who is the attacker?"]}, [])
    assert lacking(folder, "fr", [])[0][GHB] == own_words(load_packs(folder)[0][GHB])
