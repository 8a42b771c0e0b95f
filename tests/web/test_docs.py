"""Docs are checked like code: every API route and every pack field is documented."""

from __future__ import annotations

import re

from app.rules import army, terrain
from app.rules import pack as p
from app.rules.systems.siege import section as siege
from app.rules.systems.treachery import section as treachery
from app.rules.systems.tunnels import section as tunnels
from tests.conftest import ROOT


def test_every_api_route_is_in_docs_api_md(app):
    doc = (ROOT / "docs" / "api.md").read_text()
    routes = {
        (method, re.sub(r"<(?:\w+:)?(\w+)>", r"<\1>", rule.rule))
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    documented = set(re.findall(r"\| (GET|POST|PUT) \| `([^`]+)` \|", doc))
    # Path parameter names are free in the docs: compare shapes.
    shape = lambda path: re.sub(r"<[^>]+>", "<>", path)  # noqa: E731
    assert {(m, shape(r)) for m, r in routes} == {(m, shape(r)) for m, r in documented}


def test_every_rulepack_field_is_in_docs_rulepacks_md():
    doc = (ROOT / "docs" / "rulepacks.md").read_text()
    models = [
        p.Pack,
        p.Source,
        p.SourceRef,
        p.Points,
        p.PointsLimit,
        p.Entry,
        p.Tactic,
        p.Bonus,
        p.BattleplanRoll,
        p.RollTable,
        p.RollEntry,
        p.ScenarioRoll,
        p.Scenario,
        p.Reinforcement,
        p.Board,
        p.Objective,
        p.Move,
        p.RoundFact,
        p.Victory,
        p.VictoryCheck,
        p.ImmediateVictory,
        p.Contingents,
        p.HomeCard,
    ]
    # The game systems' own sections, and the army and terrain plug-ins', are fields of the pack too.
    models += [
        siege.SiegeRules,
        siege.SiegeTactic,
        siege.SiegeCell,
        siege.Relief,
        siege.EdgeRoll,
        siege.SiegeTerrain,
    ]
    models += [siege.ObjectiveResult, tunnels.SeriesResult, tunnels.TunnelFighting, treachery.Treachery]
    models += [treachery.Phase, treachery.PloyTable, treachery.Ploy, treachery.BuyLimits, treachery.BonusPloy]
    models += [army.REGISTRY.get(kind).section for kind in army.REGISTRY.kinds()]
    models += [terrain.REGISTRY.get(kind).section for kind in terrain.REGISTRY.kinds()]
    missing = [f"{m.__name__}.{name}" for m in models for name in m.model_fields if f"`{name}`" not in doc]
    assert missing == []
    # Scoring blocks are each system's own models, in its section.py.
    sources = [
        ROOT / "app" / "rules" / "pack.py",
        *sorted((ROOT / "app" / "rules" / "systems").glob("*/section.py")),
    ]
    # A block model may take several names (blocks that need only their VP share one model).
    named = [names for f in sources for names in re.findall(r"block: Literal\[([^\]]+)\]", f.read_text())]
    blocks = [b for names in named for b in re.findall(r'"([a-z-]+)"', names)]
    assert "control-count" in blocks and "zone-dice" in blocks
    assert [b for b in blocks if f"`{b}`" not in doc] == []


def test_every_path_docs_architecture_md_names_exists():
    # The map of the code is only useful while it is true: each file or folder it names in
    # backticks (app/..., static/..., templates/..., pdf/...) must exist.
    doc = (ROOT / "docs" / "architecture.md").read_text()
    named = set(re.findall(r"`((?:app|static|templates|pdf|rulepacks|docs|tests)/[\w./<>-]*)`", doc))
    assert len(named) > 15
    missing = [path for path in sorted(named) if "<" not in path and not (ROOT / path).exists()]
    assert missing == []
    # Dotted names (app.rules.systems.system_for) must import and hold what they name.
    import importlib

    for dotted in set(re.findall(r"`(app(?:\.\w+)+)\(", doc)):
        module, _, attr = dotted.rpartition(".")
        assert hasattr(importlib.import_module(module), attr), dotted


def test_docs_architecture_md_lists_every_protocol_member_and_capability():
    # The registry's tables are how the next system learns what to implement: each member of
    # the core protocol and of every capability is in them, and nothing they list is gone.
    from app.rules import systems

    doc = (ROOT / "docs" / "architecture.md").read_text()
    section = doc[doc.index("## The registry") : doc.index("## Army rules and terrain rules")]
    protocols = [systems.GameSystem, systems.Seats, systems.RosterChecks, systems.TerrainChecks]
    names = {p.__name__ for p in protocols}
    rows = [line.split("|") for line in section.splitlines() if line.startswith("| ")]
    listed = {
        name
        for cells in rows
        for cell in cells[1 : len(cells) - 2]  # the member columns, not what it gives
        for name in re.findall(r"`(\w+)[`(]", cell)
        if name not in names
    }
    for protocol in protocols:
        assert f"`{protocol.__name__}`" in section, protocol.__name__
        own = {n for n in vars(protocol) if not n.startswith("_")} | set(protocol.__annotations__)
        assert sorted(own - listed) == [], protocol.__name__
        listed -= own
    assert listed == set()  # nothing listed that no protocol has
    for found in ("seats", "roster_checks", "terrain_checks"):
        assert f"`{found}(system)`" in section and callable(getattr(systems, found))
