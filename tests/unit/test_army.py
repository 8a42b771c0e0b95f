"""Army-building checks: one table per rule, at, just under and just over each limit.

Pitched Battles numbers (seed 002 with the BSData table in the pack):
1000 points: Leaders 1-3, Battleline 2+, Behemoths <=2, Artillery <=2, reinforced <=2,
allies <=200 points, endless spells and invocations <=2.
2000 points: Leaders 1-6, Battleline 3+, Behemoths <=4, Artillery <=4, reinforced <=4,
allies <=400 points, endless spells and invocations <=3.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import army

LIMITS = {
    1000: {
        "leaders": 3,
        "battleline": 2,
        "behemoths": 2,
        "artillery": 2,
        "reinforced": 2,
        "allies": 200,
        "endless": 2,
    },
    2000: {
        "leaders": 6,
        "battleline": 3,
        "behemoths": 4,
        "artillery": 4,
        "reinforced": 4,
        "allies": 400,
        "endless": 3,
    },
}
BOTH = [1000, 2000]


def unit(name: str, points: int = 10, roles: tuple[str, ...] = (), **extra: Any) -> dict[str, Any]:
    return {"name": name, "kind": "unit", "points": points, "roles": list(roles), **extra}


def legal(points: int) -> dict[str, Any]:
    """The smallest legal roster: a HERO Leader general and the minimum of Battleline."""
    entries = [unit("Lord", 100, ("Leader",), keywords=["HERO"], general=True, single_model=True)]
    entries += [unit(f"Warriors {i}", 100, ("Battleline",)) for i in range(LIMITS[points]["battleline"])]
    return {
        "pack": "aos-ghb-2021",
        "points_limit": points,
        "faction": "Seraphon",
        "grand_strategy": "hold-the-line",
        "entries": entries,
    }


def verdict(packs, roster: dict[str, Any]) -> army.Verdict:
    parsed, pack, problem = army.parse_roster(roster, packs)
    assert problem is None, problem
    return army.check(pack, parsed)


def rules_broken(packs, roster: dict[str, Any]) -> list[str]:
    return [p.rule for p in verdict(packs, roster).problems]


@pytest.mark.parametrize("points", BOTH)
def test_the_smallest_legal_roster_is_valid(packs, points):
    result = verdict(packs, legal(points))
    assert (
        result.valid and result.problems == [] and result.points == 100 + 100 * LIMITS[points]["battleline"]
    )


# --- points ---------------------------------------------------------------------------------
@pytest.mark.parametrize("points", BOTH)
@pytest.mark.parametrize(("delta", "broken"), [(-1, []), (0, []), (1, ["points-limit"])])
def test_points_limit(packs, points, delta, broken):
    roster = legal(points)
    spent = sum(e["points"] for e in roster["entries"])
    roster["entries"].append(unit("Filler", points - spent + delta))
    assert rules_broken(packs, roster) == broken


def test_points_limit_off_the_table(packs):
    roster = legal(2000)
    roster["points_limit"] = 1500
    result = verdict(packs, roster)
    assert [p.rule for p in result.problems] == ["points-limit"]
    assert "1500 has no row in the Pitched Battles table" in result.problems[0].message


# --- battlefield roles ------------------------------------------------------------------------
@pytest.mark.parametrize("points", BOTH)
@pytest.mark.parametrize(("extra", "broken"), [(-1, []), (0, []), (1, ["leaders-max"])])
def test_leaders_max(packs, points, extra, broken):
    roster = legal(points)
    roster["entries"] += [
        unit(f"Hero {i}", 10, ("Leader",)) for i in range(LIMITS[points]["leaders"] - 1 + extra)
    ]
    assert rules_broken(packs, roster) == broken


@pytest.mark.parametrize("points", BOTH)
def test_leaders_min(packs, points):
    roster = legal(points)
    roster["entries"][0]["roles"] = ["Other"]
    assert rules_broken(packs, roster) == ["leaders-min", "general-leader"]


@pytest.mark.parametrize("points", BOTH)
@pytest.mark.parametrize(("extra", "broken"), [(-1, ["battleline-min"]), (0, []), (1, [])])
def test_battleline_min(packs, points, extra, broken):
    roster = legal(points)
    roster["entries"] = roster["entries"][:1] + [
        unit(f"Warriors {i}", 10, ("Battleline",)) for i in range(LIMITS[points]["battleline"] + extra)
    ]
    assert rules_broken(packs, roster) == broken


@pytest.mark.parametrize("points", BOTH)
@pytest.mark.parametrize("how", [{"ally": True, "faction": "Stormcast Eternals"}, {"coalition": True}])
def test_allies_and_coalition_do_not_fill_battleline(packs, points, how):
    roster = legal(points)
    roster["entries"][-1].update(how)
    assert rules_broken(packs, roster) == ["battleline-min"]


@pytest.mark.parametrize("points", BOTH)
@pytest.mark.parametrize(("extra", "broken"), [(-1, []), (0, []), (1, ["behemoths-max"])])
def test_behemoths_max(packs, points, extra, broken):
    roster = legal(points)
    roster["entries"] += [
        unit(f"Beast {i}", 10, ("Behemoth",)) for i in range(LIMITS[points]["behemoths"] + extra)
    ]
    assert rules_broken(packs, roster) == broken


@pytest.mark.parametrize("points", BOTH)
def test_battleline_behemoth_is_not_counted_as_a_behemoth(packs, points):
    roster = legal(points)
    roster["entries"] += [unit(f"Beast {i}", 10, ("Behemoth",)) for i in range(LIMITS[points]["behemoths"])]
    roster["entries"].append(unit("Battleline beast", 10, ("Battleline", "Behemoth")))
    assert rules_broken(packs, roster) == []
    assert verdict(packs, roster).counts["behemoths"] == LIMITS[points]["behemoths"]


@pytest.mark.parametrize("points", BOTH)
def test_leader_behemoth_counts_as_one_of_each(packs, points):
    roster = legal(points)
    limits = LIMITS[points]
    roster["entries"] += [unit(f"Beast {i}", 10, ("Behemoth",)) for i in range(limits["behemoths"] - 1)]
    roster["entries"] += [unit(f"Hero {i}", 10, ("Leader",)) for i in range(limits["leaders"] - 2)]
    roster["entries"].append(unit("Monster lord", 10, ("Leader", "Behemoth")))
    counts = verdict(packs, roster).counts
    assert (counts["leaders"], counts["behemoths"]) == (limits["leaders"], limits["behemoths"])
    assert rules_broken(packs, roster) == []
    roster["entries"].append(unit("Second monster lord", 10, ("Leader", "Behemoth")))
    assert rules_broken(packs, roster) == ["leaders-max", "behemoths-max"]


@pytest.mark.parametrize("points", BOTH)
@pytest.mark.parametrize(("extra", "broken"), [(-1, []), (0, []), (1, ["artillery-max"])])
def test_artillery_max(packs, points, extra, broken):
    roster = legal(points)
    roster["entries"] += [
        unit(f"Cannon {i}", 10, ("Artillery",)) for i in range(LIMITS[points]["artillery"] + extra)
    ]
    assert rules_broken(packs, roster) == broken


@pytest.mark.parametrize("points", BOTH)
@pytest.mark.parametrize(
    ("role", "rule"),
    [("Leader", "leaders-max"), ("Behemoth", "behemoths-max"), ("Artillery", "artillery-max")],
)
def test_allies_count_toward_the_maximums(packs, points, role, rule):
    roster = legal(points)
    key = {"Leader": "leaders", "Behemoth": "behemoths", "Artillery": "artillery"}[role]
    have = 1 if role == "Leader" else 0
    roster["entries"] += [unit(f"{role} {i}", 10, (role,)) for i in range(LIMITS[points][key] - have)]
    assert rules_broken(packs, roster) == []
    roster["entries"].append(unit(f"Allied {role}", 10, (role,), ally=True, faction="Cities of Sigmar"))
    assert rules_broken(packs, roster) == [rule]


# --- the general and command traits ---------------------------------------------------------
@pytest.mark.parametrize(
    ("change", "broken"),
    [
        (lambda r: r["entries"][0].update(general=False), ["general-required"]),
        (lambda r: r["entries"][1].update(general=True), ["general-one", "general-leader"]),
        (lambda r: r["entries"].append(unit("Second lord", 10, ("Leader",), general=True)), ["general-one"]),
        (lambda r: r["entries"][0].update(command_trait="Ancient"), []),
        (lambda r: r["entries"][0].update(command_trait="Ancient", keywords=[]), ["command-trait-hero"]),
        (lambda r: r["entries"][1].update(command_trait="Ancient"), ["command-trait-general"]),
        (
            lambda r: (
                r["entries"][0].update(command_trait="Ancient"),
                r["entries"][1].update(command_trait="Bold"),
            ),
            ["command-trait-one", "command-trait-general"],
        ),
    ],
)
def test_general_and_command_trait(packs, change, broken):
    roster = legal(2000)
    change(roster)
    assert rules_broken(packs, roster) == broken


# --- allies never lead (seed 002: allies count toward the maxima only) ------------------------
ALLY = {"ally": True, "faction": "Cities of Sigmar"}


@pytest.mark.parametrize(
    ("change", "broken"),
    [
        # At the edge: an ally in the army, leading nothing, breaks nothing.
        (
            lambda r: r["entries"].append(
                unit("Freeguild General", 90, ("Leader",), keywords=["HERO"], **ALLY)
            ),
            [],
        ),
        # Beyond: the same ally made the general (the own Lord stepping down).
        (
            lambda r: (
                r["entries"][0].update(general=False),
                r["entries"].append(
                    unit("Freeguild General", 90, ("Leader",), keywords=["HERO"], general=True, **ALLY)
                ),
            ),
            ["ally-general"],
        ),
        # The ally as general with the army's command trait: both refused, nothing else.
        (
            lambda r: (
                r["entries"][0].update(general=False),
                r["entries"].append(
                    unit(
                        "Freeguild General",
                        90,
                        ("Leader",),
                        keywords=["HERO"],
                        general=True,
                        command_trait="Wise",
                        **ALLY,
                    )
                ),
            ),
            ["ally-general", "ally-enhancement"],
        ),
        # An artefact (or any other enhancement) on an ally that is not the general.
        (
            lambda r: r["entries"].append(
                unit("Freeguild General", 90, ("Leader",), keywords=["HERO"], enhancements=["Amulet"], **ALLY)
            ),
            ["ally-enhancement"],
        ),
        # Coalition units may take enhancements, and a coalition Leader may be the general.
        (
            lambda r: r["entries"].append(
                unit(
                    "Chaos Lord", 100, ("Leader",), keywords=["HERO"], enhancements=["Amulet"], coalition=True
                )
            ),
            [],
        ),
        (
            lambda r: (
                r["entries"][0].update(general=False),
                r["entries"].append(
                    unit(
                        "Chaos Lord",
                        100,
                        ("Leader",),
                        keywords=["HERO"],
                        general=True,
                        command_trait="Wise",
                        coalition=True,
                    )
                ),
            ),
            [],
        ),
    ],
)
def test_allies_never_lead(packs, change, broken):
    roster = legal(2000)
    change(roster)
    assert rules_broken(packs, roster) == broken


def test_an_allied_general_is_named_in_the_problem(packs):
    roster = legal(1000)
    roster["entries"][0].update(general=False)
    roster["entries"].append(
        unit("Freeguild General", 90, ("Leader",), general=True, enhancements=["Amulet"], **ALLY)
    )
    messages = [p.message for p in verdict(packs, roster).problems]
    assert messages == [
        "The general, 'Freeguild General' (entry 4), is an ally; pick a unit of the army's own faction.",
        "'Freeguild General' (entry 4) is an ally and has 'Amulet'; allies take no enhancements (coalition units may).",
    ]


@pytest.mark.parametrize("points", BOTH)
@pytest.mark.parametrize(
    ("how", "broken"),
    [
        ({}, []),  # the army's own Leader fills the minimum of 1
        (ALLY, ["leaders-min"]),  # an allied Leader counts toward the maximum only
        ({"coalition": True}, ["leaders-min"]),  # so does a coalition Leader
    ],
)
def test_only_the_armys_own_leaders_fill_the_minimum(packs, points, how, broken):
    roster = legal(points)
    roster["entries"][0].update(general=False)  # no general: only the Leader count is looked at
    roster["entries"][0].update(how)
    problems = [r for r in rules_broken(packs, roster) if r != "general-required"]
    assert problems == broken
    counts = verdict(packs, roster).counts
    assert (counts["leaders"], counts["own_leaders"]) == (1, 0 if how else 1)


# --- reinforced, understrength, single models -----------------------------------------------
@pytest.mark.parametrize("points", BOTH)
@pytest.mark.parametrize(("extra", "broken"), [(-1, []), (0, []), (1, ["reinforced-max"])])
def test_reinforced_max(packs, points, extra, broken):
    roster = legal(points)
    roster["entries"] += [
        unit(f"Big {i}", 10, ("Other",), size="reinforced")
        for i in range(LIMITS[points]["reinforced"] + extra)
    ]
    assert rules_broken(packs, roster) == broken


@pytest.mark.parametrize("points", BOTH)
@pytest.mark.parametrize(("offset", "broken"), [(-1, []), (0, []), (1, ["reinforced-max"])])
def test_reinforced_twice_counts_as_two(packs, points, offset, broken):
    roster = legal(points)
    roster["entries"][1]["size"] = "reinforced-twice"
    # The unit reinforced twice uses 2; max - 2 more reinforced units reach the limit exactly.
    roster["entries"] += [
        unit(f"Big {i}", 10, ("Other",), size="reinforced")
        for i in range(LIMITS[points]["reinforced"] - 2 + offset)
    ]
    assert rules_broken(packs, roster) == broken


@pytest.mark.parametrize(
    ("entry", "broken"),
    [
        (unit("Guard", 10, ("Battleline",), size="reinforced-twice"), []),
        (unit("Knights", 10, ("Other",), size="reinforced-twice"), ["reinforced-twice-battleline"]),
        (unit("Giant", 10, ("Behemoth",), single_model=True, size="reinforced"), ["single-model-reinforced"]),
        (unit("Giant", 10, ("Behemoth",), single_model=True), []),
        (unit("Rabble", 10, ("Other",), size="understrength"), ["understrength"]),
    ],
)
def test_unit_sizes(packs, entry, broken):
    roster = legal(2000)
    roster["entries"].append(entry)
    assert rules_broken(packs, roster) == broken


# --- allies and coalition ---------------------------------------------------------------------
@pytest.mark.parametrize("points", BOTH)
@pytest.mark.parametrize(("delta", "broken"), [(-1, []), (0, []), (1, ["allies-points"])])
def test_allies_points(packs, points, delta, broken):
    roster = legal(points)
    roster["entries"].append(
        unit(
            "Mercenaries", LIMITS[points]["allies"] + delta, ("Other",), ally=True, faction="Cities of Sigmar"
        )
    )
    assert rules_broken(packs, roster) == broken


def test_coalition_points_are_not_allies_points(packs):
    roster = legal(2000)
    roster["entries"].append(
        unit("Chaos Warriors", 500, ("Other",), coalition=True, faction="Slaves to Darkness")
    )
    assert rules_broken(packs, roster) == []


@pytest.mark.parametrize(
    ("extra", "broken"),
    [
        ({"faction": "Seraphon"}, []),
        ({"faction": "seraphon"}, []),
        ({"faction": "Stormcast Eternals"}, ["one-faction"]),
        ({"faction": "Stormcast Eternals", "ally": True}, []),
        ({"faction": "Slaves to Darkness", "coalition": True}, []),
    ],
)
def test_one_faction(packs, extra, broken):
    roster = legal(2000)
    roster["entries"].append(unit("Somebody", 10, ("Other",), **extra))
    result = verdict(packs, roster)
    assert [p.rule for p in result.problems] == broken
    if broken:
        assert result.problems[0].message.startswith("'Somebody' (entry 5) is from Stormcast Eternals")


# --- battalions and endless spells --------------------------------------------------------------
@pytest.mark.parametrize(
    ("kind", "broken"), [("core-battalion", []), ("warscroll-battalion", ["warscroll-battalion"])]
)
def test_battalions(packs, kind, broken):
    roster = legal(2000)
    roster["entries"].append({"name": "Battle Regiment", "kind": kind, "points": 0})
    assert rules_broken(packs, roster) == broken


@pytest.mark.parametrize(
    ("names", "advice"),
    [
        (["Battle Regiment", "Warlord"], []),
        (
            ["Battle Regiment", "battle regiment"],
            [
                "The core battalion 'Battle Regiment' is in the army 2 times (entries 5 and 6): the "
                "battlepack allows some core battalions only once, so check it against the list."
            ],
        ),
        (
            ["Warlord", "Warlord", "Warlord"],
            [
                "The core battalion 'Warlord' is in the army 3 times (entries 5, 6 and 7): the "
                "battlepack allows some core battalions only once, so check it against the list."
            ],
        ),
    ],
)
def test_the_same_core_battalion_twice_is_advice_not_a_problem(packs, names, advice):
    roster = legal(2000)
    roster["entries"] += [{"name": n, "kind": "core-battalion"} for n in names]
    # A unit sharing the battalion's name is not a second battalion.
    roster["entries"].append(unit("Warlord", 10, ("Other",)))
    result = verdict(packs, roster)
    assert result.valid and result.advice == advice


@pytest.mark.parametrize("points", BOTH)
@pytest.mark.parametrize(("extra", "broken"), [(-1, []), (0, []), (1, ["endless-spells-max"])])
def test_endless_spells_max(packs, points, extra, broken):
    roster = legal(points)
    kinds = ["endless-spell", "invocation"]
    roster["entries"] += [
        {"name": f"Spell {i}", "kind": kinds[i % 2], "points": 10}
        for i in range(LIMITS[points]["endless"] + extra)
    ]
    assert rules_broken(packs, roster) == broken


def test_no_endless_spell_twice(packs):
    roster = legal(2000)
    roster["entries"] += [
        {"name": "Emerald Lifeswarm", "kind": "endless-spell", "points": 60},
        {"name": "emerald lifeswarm", "kind": "endless-spell", "points": 60},
    ]
    result = verdict(packs, roster)
    assert [p.rule for p in result.problems] == ["endless-spells-unique"]
    assert result.problems[0].entry == 5


def test_grand_strategy(packs):
    roster = legal(2000)
    roster["grand_strategy"] = "take-whats-theirs"  # a later season's strategy
    assert rules_broken(packs, roster) == ["grand-strategy"]
    roster["grand_strategy"] = None
    result = verdict(packs, roster)
    assert result.valid and result.advice == [
        "Pick a grand strategy: the roster must name one before the battle."
    ]


def test_every_problem_names_a_rule_of_the_pack(packs, ghb):
    roster = {
        "pack": "aos-ghb-2021",
        "points_limit": 1000,
        "faction": "Seraphon",
        "grand_strategy": "nope",
        "entries": [
            unit(
                "A", 900, ("Other",), general=True, command_trait="x", size="understrength", faction="Khorne"
            ),
            unit("B", 300, ("Other",), command_trait="y", single_model=True, size="reinforced", ally=True),
            unit("C", 10, ("Other",), size="reinforced-twice"),
            {"name": "S", "kind": "endless-spell"},
            {"name": "S", "kind": "invocation"},
            {"name": "T", "kind": "endless-spell"},
            {"name": "W", "kind": "warscroll-battalion"},
            *[unit(f"Art {i}", 0, ("Artillery", "Behemoth")) for i in range(3)],
        ],
    }
    result = verdict(packs, roster)
    assert {p.rule for p in result.problems} >= {
        "points-limit",
        "one-faction",
        "leaders-min",
        "battleline-min",
        "behemoths-max",
        "artillery-max",
        "general-leader",
        "command-trait-one",
        "command-trait-general",
        "command-trait-hero",
        "reinforced-max",
        "single-model-reinforced",
        "reinforced-twice-battleline",
        "understrength",
        "allies-points",
        "warscroll-battalion",
        "endless-spells-max",
        "endless-spells-unique",
        "grand-strategy",
    }
    ids = {r.id for r in ghb.army_rules}
    assert all(p.rule in ids for p in result.problems)
    assert all(p.message.endswith(".") for p in result.problems)


# --- real lists from tests/data/lists ---------------------------------------------------------
def test_real_list_nurgle_with_360_points_of_allies_is_valid(packs):
    """Warscroll Builder export: 1995/2000, Reinforced 2/4, Allies 360/400."""
    roster = {
        "pack": "aos-ghb-2021",
        "points_limit": 2000,
        "faction": "Maggotkin of Nurgle",
        "grand_strategy": "hold-the-line",
        "entries": [
            unit(
                "Be'Lakor, the Dark Master",
                360,
                ("Leader",),
                ally=True,
                faction="Slaves to Darkness",
                keywords=["HERO", "WIZARD", "MONSTER"],
                single_model=True,
            ),
            unit(
                "Lord of Afflictions",
                210,
                ("Leader",),
                general=True,
                command_trait="Overpowering Stench",
                keywords=["HERO"],
                single_model=True,
            ),
            unit("Pusgoyle Blightlords", 440, ("Battleline",), size="reinforced", models=4),
            unit("Pusgoyle Blightlords", 440, ("Battleline",), size="reinforced", models=4),
            unit("Pusgoyle Blightlords", 220, ("Battleline",), models=2),
            unit("Pusgoyle Blightlords", 220, ("Battleline",), models=2),
            unit("Nurglings", 105, ("Other",), models=3),
            {"name": "Battle Regiment", "kind": "core-battalion", "points": 0},
        ],
    }
    result = verdict(packs, roster)
    assert (result.valid, result.points, result.counts["reinforced"], result.counts["allies_points"]) == (
        True,
        1995,
        2,
        360,
    )


def test_real_list_gloomspite_over_the_limit_is_invalid(packs):
    """Warhammer app export of 6260 points: far over 2000 and too many Leaders."""
    leaders = [
        ("Fungoid Cave-Shaman", 95),
        ("Dankhold Troggboss", 250),
        ("Gordrakk", 560),
        ("Loonboss", 75),
        ("Dankhold Troggboss", 250),
        ("Kragnos", 720),
        ("Madcap Shamans", 80),
        ("Madcap Shamans", 80),
        ("Zarbag", 185),
        ("Dankhold Troggboss", 250),
        ("Gordrakk", 560),
    ]
    entries = [unit(n, p, ("Leader",), keywords=["HERO"]) for n, p in leaders]
    entries[1]["general"] = True
    entries += [unit("Shootas", 140, ("Battleline",))]
    result = verdict(
        packs,
        {
            "pack": "aos-ghb-2021",
            "points_limit": 2000,
            "faction": "Gloomspite Gitz",
            "grand_strategy": "sever-the-head",
            "entries": entries,
        },
    )
    assert {"points-limit", "leaders-max", "battleline-min"} <= {p.rule for p in result.problems}


# --- parsing: what is not a roster at all ------------------------------------------------------
@pytest.mark.parametrize(
    ("data", "sentence"),
    [
        ([], "The body must be a JSON object"),
        (
            {"pack": "chess"},
            "pack must be one of the rulepacks that build armies: aos-conquest-unbound, aos-ghb-2021, conquest-first-blood, old-world-rosters, tow-triumph-treachery.",
        ),
        ({"pack": "aos-ghb-2021", "entries": []}, "points_limit is missing."),
        (
            {"pack": "aos-ghb-2021", "points_limit": 2000, "entries": {}},
            "entries must be a list.",
        ),
        (
            {"pack": "aos-ghb-2021", "points_limit": 2000, "entries": [{"points": 5}]},
            "entries[0].name is missing.",
        ),
        (
            {"pack": "aos-ghb-2021", "points_limit": 2000, "entries": [{"name": "x", "points": -5}]},
            "entries[0].points must be at least 0.",
        ),
        (
            {"pack": "aos-ghb-2021", "points_limit": 2000, "entries": [{"name": "x", "kind": "hero"}]},
            "entries[0].kind must be ",
        ),
        (
            {"pack": "aos-ghb-2021", "points_limit": 2000, "entries": [{"name": "x", "roles": ["Hero"]}]},
            "entries[0].roles: must each be one of Leader, Battleline, Behemoth, Artillery, Other.",
        ),
    ],
)
def test_what_is_not_a_roster(packs, data, sentence):
    roster, _pack, problem = army.parse_roster(data, packs)
    assert roster is None and problem.startswith(sentence)


# --- Conquest: First Blood -----------------------------------------------------------------------
def fb(*entries: dict[str, Any], limit: int | None = None) -> dict[str, Any]:
    roster: dict[str, Any] = {"pack": "conquest-first-blood", "entries": list(entries)}
    if limit is not None:
        roster["points_limit"] = limit
    return roster


def character(**extra: Any) -> dict[str, Any]:
    return {
        "name": "Noble Lord",
        "kind": "character",
        "type": "infantry",
        "points": 135,
        "models": 1,
        **extra,
    }


def regiment(
    name: str = "Militia", points: int = 90, models: int = 3, type_: str = "infantry", **extra: Any
) -> dict[str, Any]:
    return {"name": name, "kind": "regiment", "type": type_, "points": points, "models": models, **extra}


def test_first_blood_milestone_list_is_valid(packs):
    """Para Bellum's 520-point milestone list (reference/lists), at a 520-point limit."""
    roster = fb(
        character(),
        regiment(),
        regiment(),
        regiment(
            "Household Knights", 165, 3, "cavalry", officers=[{"name": "Tourney Champion", "points": 40}]
        ),
        limit=520,
    )
    result = verdict(packs, roster)
    assert (result.valid, result.points) == (True, 135 + 90 + 90 + 205)


@pytest.mark.parametrize(
    ("limit", "delta", "broken"),
    [
        (800, 0, []),
        (800, -1, []),
        (800, 1, ["points-limit"]),
        (None, 1, ["points-limit"]),
        (400, 1, ["points-limit"]),
    ],
)
def test_first_blood_points(packs, limit, delta, broken):
    target = limit or 800
    roster = fb(character(points=100), regiment(points=target - 100 + delta), limit=limit)
    result = verdict(packs, roster)
    assert [p.rule for p in result.problems] == broken and result.points_limit == target


@pytest.mark.parametrize(
    ("characters", "broken"), [(0, ["character-regiment"]), (1, []), (2, ["character-regiment"])]
)
def test_first_blood_one_character_regiment(packs, characters, broken):
    roster = fb(*[character(name=f"Lord {i}") for i in range(characters)], regiment())
    assert rules_broken(packs, roster) == broken


@pytest.mark.parametrize(("copies", "broken"), [(1, []), (2, []), (3, ["officer-max"])])
def test_first_blood_officer_at_most_twice(packs, copies, broken):
    officer = {"name": "Standard Bearer", "points": 20}
    roster = fb(character(), *[regiment(officers=[officer]) for _ in range(copies)])
    assert rules_broken(packs, roster) == broken


@pytest.mark.parametrize(("copies", "broken"), [(3, []), (4, []), (5, ["regiment-max"])])
def test_first_blood_regiment_at_most_four_times(packs, copies, broken):
    roster = fb(character(), *[regiment(points=10) for _ in range(copies)])
    assert rules_broken(packs, roster) == broken


@pytest.mark.parametrize(
    ("type_", "models", "officers", "broken"),
    [
        ("infantry", 12, 1, []),
        ("infantry", 13, 0, []),
        ("infantry", 12, 2, ["regiment-models"]),
        ("infantry", 14, 0, ["regiment-models"]),
        ("cavalry", 3, 1, []),
        ("cavalry", 4, 0, []),
        ("cavalry", 4, 1, ["regiment-models"]),
        ("brute", 4, 0, []),
        ("brute", 5, 0, ["regiment-models"]),
        ("monster", 2, 1, []),
    ],
)
def test_first_blood_regiment_size(packs, type_, models, officers, broken):
    entry = regiment(
        type_=type_,
        models=models,
        points=10,
        officers=[{"name": f"Officer {i}", "points": 1} for i in range(officers)],
    )
    assert rules_broken(packs, fb(character(), entry)) == broken


@pytest.mark.parametrize(("retinue", "broken"), [(12, []), (13, ["regiment-models"])])
def test_first_blood_character_retinue_counts_toward_size(packs, retinue, broken):
    entry = character(retinue=[{"name": "Retainer", "points": 5} for _ in range(retinue)])
    assert rules_broken(packs, fb(entry, regiment())) == broken


def test_first_blood_retinue_only_on_the_character(packs):
    roster = fb(character(), regiment(retinue=[{"name": "Retainer", "points": 5}]))
    assert rules_broken(packs, roster) == ["retinue-character"]


def test_first_blood_total_counts_officers_and_retinue(packs):
    roster = fb(
        character(points=100, retinue=[{"name": "R", "points": 15}]),
        regiment(points=90, officers=[{"name": "O", "points": 25}]),
    )
    assert verdict(packs, roster).points == 100 + 15 + 90 + 25


def test_army_summary_names_what_tactics_need(packs):
    roster = legal(2000)
    roster["entries"].append(unit("Stonehorn", 300, ("Behemoth",), keywords=["MONSTER"]))
    parsed, _pack, _ = army.parse_roster(roster, packs)
    summary = army.army_summary(parsed)
    assert (
        summary["general"] == "Lord"
        and summary["heroes"] == ["Lord"]
        and summary["monsters"] == ["Stonehorn"]
    )
    assert summary["battleline"] == ["Warriors 0", "Warriors 1", "Warriors 2"]


# --- what one roster may hold -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda r: r["entries"].extend(unit(f"U{i}") for i in range(100 - 4)), None),
        (
            lambda r: r["entries"].extend(unit(f"U{i}") for i in range(101 - 4)),
            "entries may hold at most 100 entries.",
        ),
        (lambda r: r.update(name="N" * 60), None),
        (lambda r: r.update(name="N" * 61), "name must be at most 60 characters."),
        (lambda r: r["entries"][1].update(name="W" * 60), None),
        (lambda r: r["entries"][1].update(name="W" * 61), "entries[1].name must be at most 60 characters."),
        (lambda r: r["entries"][1].update(notes="n" * 300), None),
        (
            lambda r: r["entries"][1].update(notes="n" * 301),
            "entries[1].notes must be at most 300 characters.",
        ),
        (
            lambda r: r["entries"][0].update(enhancements=["E"] * 7),
            "entries[0].enhancements may hold at most 6 items.",
        ),
        (lambda r: r["entries"][1].update(name=" \u202e\x00 "), "entries[1].name must not be blank."),
        # Characters that are stripped do not count toward the limit.
        (lambda r: r["entries"][1].update(name="\u202e" + "W" * 60 + "\u2066"), None),
    ],
)
def test_what_a_roster_may_hold(packs, change, problem):
    roster = legal(2000)
    change(roster)
    parsed, _pack, message = army.parse_roster(roster, packs)
    assert message == problem and (parsed is None) == (problem is not None)


def test_first_blood_names_and_notes_have_the_same_limits(packs):
    roster = {
        "pack": "conquest-first-blood",
        "entries": [{"name": "Lord", "kind": "character", "notes": "x" * 301}],
    }
    assert army.parse_roster(roster, packs)[2] == "entries[0].notes must be at most 300 characters."
    roster["entries"][0].update(notes="", officers=[{"name": "O" * 61}])
    assert army.parse_roster(roster, packs)[2] == "entries[0].officers[0].name must be at most 60 characters."


def test_names_lose_control_and_direction_characters(packs):
    roster = legal(1000)
    roster["name"] = "Ham\u202emerfest\x1b[2J"
    roster["entries"][0].update(
        name="Lord\u2066 \u2067Kroak\u2069\x00", notes="Line one\r\n\tLine two\u202e\x07"
    )
    parsed, _pack, _ = army.parse_roster(roster, packs)
    assert parsed.name == "Hammerfest[2J"
    assert (parsed.entries[0].name, parsed.entries[0].notes) == ("Lord Kroak", "Line one\n\tLine two")


# --- what a player reads when a maximum or a repeat cap is broken ------------------------------
def _over_reinforced() -> dict[str, Any]:
    roster = legal(2000)
    roster["entries"] += [unit(f"Big {i}", 10, ("Other",), size="reinforced") for i in range(5)]
    return roster


def _over_allies() -> dict[str, Any]:
    roster = legal(2000)
    roster["entries"].append(unit("Mercenaries", 401, ("Other",), ally=True, faction="Cities of Sigmar"))
    return roster


def _over_endless() -> dict[str, Any]:
    roster = legal(1000)
    roster["entries"] += [{"name": f"Spell {i}", "kind": "endless-spell", "points": 10} for i in range(3)]
    return roster


def _officer_thrice() -> dict[str, Any]:
    officer = {"name": "Standard Bearer", "points": 20}
    return fb(character(), *[regiment(officers=[officer]) for _ in range(3)])


def _regiment_five_times() -> dict[str, Any]:
    return fb(character(), *[regiment(points=10) for _ in range(5)])


@pytest.mark.parametrize(
    ("roster", "sentence"),
    [
        (
            _over_reinforced,
            "The army has 5 reinforced units (a unit reinforced twice counts as 2); 2000 points allows 4.",
        ),
        (_over_allies, "Allies cost 401 points; 2000 points allows at most 400."),
        (_over_endless, "The army has 3 endless spells and invocations; 1000 points allows at most 2."),
        (
            _officer_thrice,
            "The officer 'Standard Bearer' is in the army 3 times; each officer at most 2 times.",
        ),
        (
            _regiment_five_times,
            "The regiment 'Militia' is in the army 5 times; each regiment at most 4 times.",
        ),
    ],
)
def test_a_broken_maximum_says_the_count_and_the_limit(packs, roster, sentence):
    assert [p.message for p in verdict(packs, roster()).problems] == [sentence]
