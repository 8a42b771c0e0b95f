"""Age of Sigmar's terrain: Pitched Battles' set-up distances, mysterious terrain, the siege
fortress, and a siege battleplan's own distances for the features outside the fortress."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from app.rules import terrain
from app.rules.pack_base import Model, Prose, Text
from app.rules.speech import say

if TYPE_CHECKING:
    from app.rules.pack import Board, Objective, Pack, Scenario
    from app.rules.systems.siege.section import SiegeTerrain

KIND = "aos"


class TableEntry(Model):
    """One result of a dice table (mysterious terrain)."""

    roll: int = Field(ge=1)
    name: Text
    summary: Prose


class Section(terrain.TerrainSection):
    """The pack's ``terrain`` section: set-up distances, the fortress and mysterious terrain."""

    edge_gap: float | None = None
    terrain_gap: float | None = None
    objective_gap: float | None = None
    faction_gap: float | None = None
    fortress_min: int | None = None
    mysterious: list[TableEntry] = []
    mysterious_note: Prose | None = None

    @property
    def card_note(self) -> str | None:
        """Where the mysterious terrain table comes from."""
        return self.mysterious_note


def _objectives_at_start(scenario: Scenario) -> list[Objective]:
    return [o for o in scenario.objectives if o.from_round == 1 and o.x is not None and o.y is not None]


def check(
    pack: Pack, pieces: list[terrain.Piece], scenario: Scenario | None, siege: bool, v: terrain.Verdict
) -> None:
    """Set-up distances from edges, features and objectives, and the siege fortress."""
    rules = pack.terrain
    placed = [i for i, p in enumerate(pieces) if p.placed]
    board = scenario.board if scenario else None
    if scenario is not None and scenario.siege_terrain is not None:
        # A siege battleplan sets its own distances in place of Pitched Battles' (the fortress's
        # walls may touch); it is always a siege.
        _check_siege_battleplan(scenario.siege_terrain, pieces, board, v)
        v.checklist = [e.summary for e in rules.checklist if e.id != "without-positions"]
        return
    if rules.edge_gap is not None and board is not None:
        for i in placed:
            d = terrain.gap_to_edge(pieces[i], board.width, board.height)
            if d <= rules.edge_gap + 1e-9:
                v.problems.append(
                    terrain.Finding(
                        "edge-gap",
                        say(
                            '{piece} is {gap} from the battlefield edge; it must be more than {need}".',
                            piece=terrain.piece_name(pieces, i),
                            gap=terrain.inches(max(d, 0)),
                            need=f"{rules.edge_gap:g}",
                        ),
                        (i,),
                    )
                )

    def aos_need(i: int, j: int) -> float | None:
        return rules.faction_gap if pieces[i].faction or pieces[j].faction else rules.terrain_gap

    for i, j, d, more in terrain.too_close(pieces, placed, aos_need, inclusive=True):
        faction = pieces[i].faction or pieces[j].faction
        rule = "faction-gap" if faction else "terrain-gap"
        words = {
            "a": terrain.piece_name(pieces, i),
            "b": terrain.piece_name(pieces, j),
            "gap": terrain.inches(d),
            "more": terrain.also_close(pieces, j, more),
            "need": f"{aos_need(i, j):g}",
        }
        v.problems.append(
            terrain.Finding(
                rule,
                say(
                    '{a} and {b} are {gap} apart{more}; faction terrain and another feature must be more than {need}" apart.',
                    **words,
                )
                if faction
                else say(
                    '{a} and {b} are {gap} apart{more}; terrain features must be more than {need}" apart.',
                    **words,
                ),
                (i, j),
            )
        )
    if scenario is not None:
        for i in placed:
            need = rules.faction_gap if pieces[i].faction else rules.objective_gap
            if need is None:
                continue
            for o in _objectives_at_start(scenario):
                assert o.x is not None and o.y is not None
                d = terrain.gap_to_point(pieces[i], o.x, o.y)
                if d <= need + 1e-9:
                    v.problems.append(
                        terrain.Finding(
                            "objective-gap",
                            say(
                                '{piece} is {gap} from objective {objective}; it must be more than {need}".',
                                piece=terrain.piece_name(pieces, i),
                                gap=terrain.inches(d),
                                objective=o.label,
                                need=f"{need:g}",
                            ),
                            (i,),
                        )
                    )
    if siege and rules.fortress_min is not None:
        v.problems.extend(_fortress_short(pieces, rules.fortress_min))
    unplaced = len(pieces) - len(placed)
    v.checklist = [e.summary for e in rules.checklist if e.id != "without-positions" or unplaced]


def _fortress_short(pieces: list[terrain.Piece], least: int) -> list[terrain.Finding]:
    """The finding when fewer than ``least`` pieces are marked ``fortress`` (none when enough)."""
    inside = [i for i, p in enumerate(pieces) if p.fortress]
    if len(inside) >= least:
        return []
    sentence = say(
        "The fortress has {count} terrain features wholly within the defender's territory; "
        "a siege needs at least {least}.",
        count=len(inside),
        least=least,
    )
    return [terrain.Finding("fortress-min", sentence, tuple(inside))]


def _check_siege_battleplan(
    rules: SiegeTerrain, pieces: list[terrain.Piece], board: Board | None, v: terrain.Verdict
) -> None:
    """The fortress (pieces marked ``fortress``) and the features outside it, by the battleplan."""
    outside = [i for i, p in enumerate(pieces) if not p.fortress]
    v.problems.extend(_fortress_short(pieces, rules.fortress_min))
    if rules.outside_max is not None and len(outside) > rules.outside_max:
        v.problems.append(
            terrain.Finding(
                "outside-max",
                say(
                    "{count} terrain features stand outside the fortress; at most {most} may.",
                    count=len(outside),
                    most=rules.outside_max,
                ),
                tuple(outside),
            )
        )
    unmeasured = False
    for i in outside:
        p = pieces[i]
        if rules.territory_gap is not None:
            if p.defender_gap is None:
                unmeasured = True
            elif p.defender_gap <= rules.territory_gap + 1e-9:
                v.problems.append(
                    terrain.Finding(
                        "territory-gap",
                        say(
                            "{piece} is {gap} from the defender's territory; "
                            'a feature outside the fortress must be more than {need}" away.',
                            piece=terrain.piece_name(pieces, i),
                            gap=terrain.inches(p.defender_gap),
                            need=f"{rules.territory_gap:g}",
                        ),
                        (i,),
                    )
                )
        if not p.placed:
            unmeasured = True
            continue
        if rules.edge_gap is not None and board is not None:
            d = terrain.gap_to_edge(p, board.width, board.height)
            if d <= rules.edge_gap + 1e-9:
                v.problems.append(
                    terrain.Finding(
                        "edge-gap",
                        say(
                            "{piece} is {gap} from the battlefield edge; a feature "
                            'outside the fortress must be more than {need}".',
                            piece=terrain.piece_name(pieces, i),
                            gap=terrain.inches(max(d, 0)),
                            need=f"{rules.edge_gap:g}",
                        ),
                        (i,),
                    )
                )
        if rules.terrain_gap is not None:
            others = [j for j, q in enumerate(pieces) if j != i and q.placed]
            close = [
                (terrain.gap(p, pieces[j]), j)
                for j in others
                if terrain.gap(p, pieces[j]) <= rules.terrain_gap + 1e-9
            ]
            # A pair of outside features is named once, by the later of the two.
            close = [(d, j) for d, j in close if pieces[j].fortress or j < i]
            if close:
                d, j = min(close)
                v.problems.append(
                    terrain.Finding(
                        "outside-gap",
                        say(
                            "{a} and {b} are {gap} apart{more}; "
                            'a feature outside the fortress must be more than {need}" from every other.',
                            a=terrain.piece_name(pieces, j),
                            b=terrain.piece_name(pieces, i),
                            gap=terrain.inches(d),
                            more=terrain.also_close(pieces, i, len(close) - 1),
                            need=f"{rules.terrain_gap:g}",
                        ),
                        (j, i),
                    )
                )
    if unmeasured:
        v.advice.append(
            terrain.Finding(
                "measure-outside",
                say(
                    "Measure by hand what Muster cannot: each feature outside the fortress more than "
                    '{edge}" from the edge, more than {territory}" from the '
                    "defender's territory and more than {gap}\" from every other feature.",
                    edge=f"{rules.edge_gap or 0:g}",
                    territory=f"{rules.territory_gap or 0:g}",
                    gap=f"{rules.terrain_gap or 0:g}",
                ),
                tuple(i for i in outside if not pieces[i].placed or pieces[i].defender_gap is None),
            )
        )


RULES = terrain.register(
    terrain.TerrainRules(
        kind=KIND,
        section=Section,
        screen=terrain.TerrainScreen(KIND),
        check=check,
    )
)
