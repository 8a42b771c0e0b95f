"""Standings: how many ploys each player may buy by their VP, and the final ranking.

Reading taken (issue 15): players tied for the most VP count as "most", players tied for the
fewest as "fewest"; when every player is tied, each may buy the pack's ``all_tied`` number.
"""

from __future__ import annotations

from app.rules.systems.treachery import section


def buy_limits(rules: section.Treachery, standing: tuple[int, ...]) -> tuple[int, ...]:
    """How many ploys each player may buy, from every player's VP at the start of the round."""
    limits = rules.buy_limits
    if limits is None or not standing:
        return tuple(0 for _ in standing)
    most, fewest = max(standing), min(standing)
    if most == fewest:
        return tuple(limits.all_tied for _ in standing)
    return tuple(
        limits.most if vp == most else limits.fewest if vp == fewest else limits.others for vp in standing
    )


def ranking(vp: list[int], tie_break: list[int]) -> list[int]:
    """Every player, first to last: most VP first; players tied on VP in their ``tie_break`` order."""
    place = {player: i for i, player in enumerate(tie_break)}
    return sorted(range(len(vp)), key=lambda i: (-vp[i], place.get(i, 0), i))
