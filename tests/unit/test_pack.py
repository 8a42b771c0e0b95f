"""The rulepack loader and the GHB 2021 pack's facts."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from app.rules.pack import load_packs, parse_pack
from app.rules.pack_files import PackError
from tests.conftest import ROOT

GOOD = ROOT / "rulepacks" / "aos-ghb-2021.yaml"


def test_a_broken_pack_is_reported_and_the_others_still_load(tmp_path: Path):
    shutil.copy(GOOD, tmp_path / "aos-ghb-2021.yaml")
    shutil.copytree(ROOT / "rulepacks" / "catalogues", tmp_path / "catalogues")  # the catalogue it names
    broken = GOOD.read_text().replace("battle_rounds: 5", "battle_rounds: five", 1)
    (tmp_path / "next-season.yaml").write_text(broken.replace("id: aos-ghb-2021", "id: next-season", 1))
    packs, errors = load_packs(tmp_path)
    assert list(packs) == ["aos-ghb-2021"]
    assert len(errors) == 1
    error = errors[0]
    assert error.file == "next-season.yaml"
    assert error.path == "scenarios[0].battle_rounds"
    assert "integer" in error.message
    assert str(error).startswith("next-season.yaml: scenarios[0].battle_rounds: ")


@pytest.mark.parametrize(
    ("change", "path", "message"),
    [
        (
            ("block: control-count, count: 1", "block: control-lots, count: 1"),
            "scenarios[2].scoring[0]",
            "control-lots",
        ),
        (("{roll: 2, scenario: savage-gains}", "{roll: 2, scenario: savage-loss}"), "", "savage-loss"),
        (("{id: west, label: W", "{id: attacker-border, label: W"), "scenarios[1]", "appears twice"),
        (("id: broken-ranks", "id: Broken Ranks"), "tactics[0].id", "pattern"),
        (("players: {min: 2, max: 2}", "players: {min: 3, max: 2}"), "players", "greater than max"),
        (("game: Warhammer", "gaem: Warhammer"), "gaem", "Extra inputs"),
        # Army and terrain rules are plug-ins: the section names one, which reads the rest.
        (("system: aos-pitched-battles", "system: aos-open-play"), "army", "one of the army rules"),
        (
            ("terrain:\n  system: aos\n", "terrain:\n  system: aos\n  min_gap: 3\n"),
            "terrain.min_gap",
            "Extra inputs",
        ),
    ],
)
def test_pack_errors_name_the_path_and_the_problem(change, path, message):
    errors = _refused(GOOD, change)
    assert any(e.path.startswith(path) and message in e.message for e in errors), errors


def _refused(file: Path, change: tuple[str, str]) -> list[PackError]:
    """What is wrong with the pack in ``file`` after one change to its text (it must not load)."""
    old, new = change
    text = file.read_text()
    assert old in text
    pack, errors = parse_pack(text.replace(old, new, 1), "x.yaml")
    assert pack is None
    return errors


SECTIONED = ROOT / "rulepacks" / "aos-conquest-unbound.yaml"


@pytest.mark.parametrize(
    ("change", "path", "message"),
    [
        # A game system's own sections are read with its model, each error at its place.
        (("      target: 11", "      target: eleven"), "scenarios[1].relief.target", "integer"),
        (("    battles: 3", "    battles: 12"), "scenarios[2].battles", "less than or equal to 9"),
        # A key no system declares is refused as any unknown key, at the pack or in a scenario.
        (("siege:\n", "siegecraft:\n"), "siegecraft", "Extra inputs are not permitted"),
        (
            ("    battles: 3", "    battle_count: 3"),
            "scenarios[2].battle_count",
            "Extra inputs are not permitted",
        ),
        # A victory check no system decides: the sentence lists those that are.
        (
            ("{check: attacker-objectives, kind: major}", "{check: attacker-wins, kind: major}"),
            "scenarios[1].victory.order[0].check",
            "must be one of the victory checks the game systems decide: most-vp, attacker-objectives,",
        ),
    ],
)
def test_a_game_systems_own_sections_and_checks_are_checked(change, path, message):
    errors = _refused(SECTIONED, change)
    assert [(e.path, message in e.message) for e in errors] == [(path, True)], errors


def test_a_game_systems_sections_read_as_fields_of_the_pack():
    pack, errors = parse_pack(SECTIONED.read_text(), "aos-conquest-unbound.yaml")
    assert errors == []
    relief = pack.scenario("the-relief-force")
    assert relief.relief.target == 11 and pack.siege.tactic(1) is not None
    # A section the pack leaves out has its system's value for "none" (a list: empty).
    assert pack.scenario("tunnel-wars").relief is None and relief.series == []
    assert set(pack.sections) == {"siege", "treachery"}
    assert {"relief", "battles", "series", "renown"} <= set(relief.sections)


def test_yaml_syntax_errors_and_unsafe_tags_are_refused():
    pack, errors = parse_pack("id: [unclosed", "bad.yaml")
    assert pack is None and "not valid YAML" in errors[0].message and errors[0].path.startswith("line")
    # Safe loading: Python object tags are never constructed.
    pack, errors = parse_pack("!!python/object/apply:os.system ['true']", "evil.yaml")
    assert pack is None and "not valid YAML" in errors[0].message


def test_pack_id_must_match_its_file(tmp_path: Path):
    shutil.copy(GOOD, tmp_path / "other-name.yaml")
    packs, errors = load_packs(tmp_path)
    assert packs == {} and errors[0].path == "id" and "other-name" in errors[0].message


def test_pitched_battles_table_from_bsdata(ghb):
    small, large = ghb.limit(1000), ghb.limit(2000)
    assert (small.leaders.min, small.leaders.max, large.leaders.min, large.leaders.max) == (1, 3, 1, 6)
    assert (small.battleline.min, large.battleline.min) == (2, 3)
    assert (small.behemoths.max, large.behemoths.max) == (2, 4)
    assert (small.artillery.max, large.artillery.max) == (2, 4)
    assert (small.reinforced_units.max, large.reinforced_units.max) == (2, 4)
    assert (small.allies_points.max, large.allies_points.max) == (200, 400)
    assert (small.endless_spells_and_invocations.max, large.endless_spells_and_invocations.max) == (2, 3)
    assert any("BSData" in ref.where for ref in ghb.source.extra)


def test_battleplan_tables_hold_all_twelve(ghb):
    tables = {t.id: [e.scenario for e in t.entries] for t in ghb.battleplan_roll.tables}
    assert tables["table-1"] == [
        "marking-territory",
        "savage-gains",
        "first-blood",
        "power-struggle",
        "survival-of-the-fittest",
        "tectonic-interference",
    ]
    assert tables["table-2"] == [
        "apex-predators",
        "the-vice",
        "tooth-and-nail",
        "feral-foray",
        "power-in-numbers",
        "the-veins-of-ghur",
    ]
    assert all(s.battle_rounds == 5 for s in ghb.scenarios)


def test_tactics_strategies_and_bonuses(ghb):
    assert len(ghb.tactics) == 8 and len(ghb.grand_strategies) == 8
    with_bonus = {t.id for t in ghb.tactics if t.bonus}
    assert with_bonus == {
        "broken-ranks",
        "slay-the-warlord",
        "ferocious-advance",
        "bring-it-down",
        "savage-spearhead",
    }


def test_savage_gains_border_objectives_carry_their_territory(ghb):
    territories = {o.id: o.territory for o in ghb.scenario("savage-gains").objectives}
    assert territories == {
        "attacker-border": "attacker",
        "west": None,
        "east": None,
        "defender-border": "defender",
    }


def test_hostile_yaml_is_refused_before_it_is_built():
    bomb = "a: &a ['x','x','x','x','x','x','x','x','x']\n"
    for i in range(1, 9):
        bomb += f"{chr(97 + i)}: &{chr(97 + i)} [" + ",".join([f"*{chr(96 + i)}"] * 9) + "]\n"
    pack, errors = parse_pack(bomb, "bomb.yaml")
    assert pack is None and "expands to more than" in errors[0].message
    pack, errors = parse_pack("x" * (600 * 1024), "big.yaml")
    assert pack is None and "larger than 512 KB" in errors[0].message
    pack, errors = parse_pack("- just\n- a list\n", "list.yaml")
    assert pack is None and "mapping" in errors[0].message


def test_a_scenario_roll_needs_a_playable_scenario_on_its_die():
    text = (GOOD.parent / "conquest-first-blood.yaml").read_text()
    assert "  die: 12\n" in text
    pack, errors = parse_pack(text, "conquest-first-blood.yaml")
    assert pack is not None and pack.scenario_roll.die == 12
    # Edge: a D1 cannot be; a D2 shows One (playable); Scenario Twelve alone is not playable.
    pack, errors = parse_pack(text.replace("  die: 12\n", "  die: 1\n"), "conquest-first-blood.yaml")
    assert pack is None and any("die" in e.path for e in errors)
    assert parse_pack(text.replace("  die: 12\n", "  die: 2\n"), "conquest-first-blood.yaml")[0] is not None
    # Beyond: no playable scenario numbered 1 or 2 on a D2 is refused, with a sentence.
    text = text.replace("  die: 12\n", "  die: 2\n").replace("    number: 1\n", "    number: 31\n")
    pack, errors = parse_pack(
        text.replace("    number: 2\n", "    number: 32\n"), "conquest-first-blood.yaml"
    )
    assert pack is None and any("no playable scenario is numbered 1 to 2" in e.message for e in errors)
