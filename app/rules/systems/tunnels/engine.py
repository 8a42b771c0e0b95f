"""A Tunnel Wars series' events -> contingents, battles, the denizen, the tunnels' dangers.

Each army is split into three contingents; before each of the three battles both players
pick one in secret (each is used once) and name its general. Once both picks are shown,
neither is taken back: both players may agree to pick again (a ``repick`` from each seat)
before the battle is under way. Inside a battle the rounds,
the denizen's roll-offs, unstable surroundings and Cunning Traps are recorded with every
die; a battle ends when one contingent is destroyed (or both at once: nobody wins it).
"""

from __future__ import annotations

from typing import Any

from app.rules import contingents
from app.rules import pack as p
from app.rules.game import GameState, Setup
from app.rules.log import Refused, by_type, open_entry
from app.rules.speech import say
from app.rules.systems.tunnels.event_models import EVENTS
from app.rules.systems.tunnels.state import (
    BattleResult,
    BattleRound,
    BeastChange,
    Pick,
    RollOff,
    Split,
    Trap,
    TunnelGame,
    Unstable,
)

__all__ = ["EVENTS"]
#: A contingent's pick (and the battle's general) is hidden until both picks are in.
SECRET_TYPES = {"contingent": ("contingent", "general")}
#: Public events only the seat of their ``player`` records: each player's own agreement to pick again.
SIGNED_TYPES = ("repick",)
#: The last step of the plan: every battle is fought.
OVER = "over"
#: The entry of :func:`open_entries` each event type belongs to: closed, it refuses the event.
ENTRIES = {
    kind: "series"
    for kind in (
        "contingent",
        "repick",
        "battle_round",
        "denizen",
        "denizen_attack",
        "tame",
        "unstable",
        "trap",
        "battle_result",
    )
}


def new_game(pack: p.Pack, setup: Setup) -> TunnelGame:
    """An empty series for that set-up."""
    scenario = pack.scenario(setup.scenario)
    if scenario is None or scenario.tunnel_fighting is None:
        raise ValueError(f"pack {pack.id} has no tunnel scenario {setup.scenario}")
    return TunnelGame(setup=setup, pack=pack, scenario=scenario, fighting=scenario.tunnel_fighting)


def over_problem(game: TunnelGame) -> Refused | None:
    """Why nothing of a battle may be recorded now (every battle is fought), or ``None``."""
    if game.finished:
        return Refused(
            say("All {battles} battles are fought; undo the last entry to change them.", battles=game.battles)
        )
    return None


def _battle(game: TunnelGame, event: dict[str, Any], started: bool = True) -> int:
    """The battle an event names: the one being fought now; ``started``: both contingents are in."""
    if problem := over_problem(game):
        raise problem
    now = game.current_battle
    b = int(event["battle"])
    if b != now:
        raise Refused(
            say("battle: battle {now} is being fought now, not battle {battle}.", now=now, battle=b)
        )
    if started and not game.revealed(b):
        raise Refused(
            say("battle: battle {battle} starts once both players have picked their contingent.", battle=b)
        )
    return b


# ---------------------------------------------------------------------------------------
# Contingents
# ---------------------------------------------------------------------------------------
def _apply_split(game: TunnelGame, event: dict[str, Any], eid: str) -> None:
    rules = game.scenario.contingents
    if rules is None:
        raise Refused(say("{battleplan} has no contingents to record.", battleplan=game.scenario.name))
    player = event["player"]
    if player in game.splits:
        raise Refused(
            say(
                "{name}'s contingents are already recorded; undo that entry to change them.",
                name=game.name(player),
            )
        )
    if game.used(player):
        raise Refused(
            say("{name}'s army is split before their first contingent is picked.", name=game.name(player))
        )
    if len(event["contingents"]) != len(rules.ids):
        raise Refused(
            say("contingents must be a list of {count} entries, one per contingent.", count=len(rules.ids))
        )
    parts = [contingents.part(v) for v in event["contingents"]]
    labels = [f"contingent {i + 1}" for i in range(len(parts))]
    problems = contingents.split_problems(rules, [n for n, _ in parts], labels)
    if problems:
        raise Refused(f"contingents: {problems[0]}")
    game.splits[player] = Split(eid, player, tuple(n for n, _ in parts), tuple(u for _, u in parts))


def roster_problems(event: dict[str, Any], roster: list[str]) -> list[str]:
    """What is wrong with an army's named contingents against its attached roster's units.

    Counts (no names) are not checked; an unreadable event is left to :func:`_apply_split`.
    """
    try:
        parts = [contingents.part(v)[1] for v in EVENTS.fields("contingents", event)["contingents"]]
    except Refused:
        return []
    if not any(parts):
        return []
    return contingents.roster_problems(roster, parts, [f"contingent {i + 1}" for i in range(len(parts))])


def _apply_pick(game: TunnelGame, event: dict[str, Any], eid: str) -> None:
    b = _battle(game, event, started=False)
    player, c = event["player"], event["contingent"]
    if player in game.picks_in(b):
        if game.revealed(b):
            raise Refused(
                say(
                    "{name} has already picked a contingent for battle {battle}, and both are shown; "
                    "to pick again, both players ask for it on their own phones.",
                    name=game.name(player),
                    battle=b,
                ),
                "secret-pick",
            )
        raise Refused(
            say(
                "{name} has already picked a contingent for battle {battle}; undo it to change it.",
                name=game.name(player),
                battle=b,
            )
        )
    used = game.used(player)
    if c in used:
        raise Refused(
            say(
                "contingent {number} already fought in battle {battle}; each contingent fights in one battle only.",
                number=c,
                battle=used[c],
            )
        )
    general = event.get("general") or None
    game.picks.append(Pick(eid, b, player, c, general))


def repick_problem(game: TunnelGame, battle: int, player: int) -> Refused | None:
    """Why ``player`` may not ask to pick the contingents of ``battle`` again, or ``None``: only
    once both are shown and before the battle is under way, once each; when both have asked,
    both pick again."""
    if not game.revealed(battle):
        return Refused(
            say(
                "battle: the contingents for battle {battle} are not both in yet; a player takes back "
                "their own pick with undo.",
                battle=battle,
            ),
            "repick",
        )
    if game.under_way(battle):
        return Refused(
            say(
                "battle: battle {battle} is under way; undo its entries before the contingents are picked again.",
                battle=battle,
            ),
            "repick",
        )
    asked = game.repick_asked(battle)
    if player in asked:
        waiting = [game.name(i) for i in range(game.player_count) if i not in asked]
        return Refused(
            say(
                "player: {name} has already asked to pick again; waiting for {waiting}.",
                name=game.name(player),
                waiting=" & ".join(waiting),
            ),
            "repick",
        )
    return None


def _apply_repick(game: TunnelGame, event: dict[str, Any], eid: str) -> None:
    b = _battle(game, event, started=False)
    player = event["player"]
    if problem := repick_problem(game, b, player):
        raise problem
    game.repick.append((b, player, eid))
    if len(game.repick_asked(b)) == game.player_count:  # both agree: both contingents go back in secret
        game.picks = [k for k in game.picks if k.battle != b]
        game.repick = [x for x in game.repick if x[0] != b]


def undo_problem(game: TunnelGame, event: dict[str, Any]) -> Refused | None:
    """A contingent's pick stays once both of its battle are shown: the second pick (the last
    entry then) is not taken back, so nobody changes theirs knowing the other's."""
    b = event.get("battle")
    if event.get("type") == "contingent" and isinstance(b, int) and game.revealed(b):
        return Refused(
            say(
                "event: both contingents for battle {battle} are shown, so neither may be taken back; to pick "
                "again, both players ask for it on their own phones.",
                battle=b,
            ),
            "secret-pick",
        )
    return None


def open_entries(game: TunnelGame, seat: int | None) -> dict[str, Any]:
    """What may be recorded now from ``seat`` (``None``: the table screen), and why not the rest:
    the seat's contingent for the battle and its agreement to pick again (taking back the last
    entry is the registry's :func:`app.rules.systems.undo_entry`, built on :func:`undo_problem`)."""
    b = game.current_battle
    out: dict[str, Any] = {
        # The series: the entries of a battle, until every battle is fought.
        "series": open_entry(over_problem(game)),
        # Whose contingent for the battle being fought is still to pick (hidden until both are in).
        "picks": {
            "open": not game.finished,
            "battle": b,
            "players": []
            if game.finished
            else [i for i in range(game.player_count) if i not in game.picks_in(b)],
        },
        # ``offered``: both picks are shown and the battle is not under way, so both may ask.
        "repick": {
            "asked": sorted(game.repick_asked(b)),
            "offered": not game.finished and game.revealed(b) and not game.under_way(b),
        },
    }
    # Who may still split their army (before their first pick): a seat, only its own player.
    out["contingents"] = {
        "players": [i for i in range(game.player_count) if seat in (None, i) and game.may_split(i)]
    }
    out["battle"] = battle_entries(game, seat) if not game.finished else None
    if seat is not None and 0 <= seat < game.player_count and not game.finished:
        free = sorted(set(range(1, game.contingent_count + 1)) - set(game.used(seat)))
        out["contingent"] = {"open": seat not in game.picks_in(b), "free": free}
        problem = repick_problem(game, b, seat)
        out["repick"] |= open_entry(problem)
    return out


def round_in_play(game: TunnelGame, battle: int) -> int:
    """The battle round the entries of ``battle`` have reached (0 before its first round).

    A round is under way once it is started, its denizen roll-off is in, or anything is
    recorded in it: the rounds themselves need not be recorded.
    """
    seen = [len(game.rounds_in(battle))]
    seen += [x.round for x in game.roll_offs if x.battle == battle]
    seen += [c.round for c in game.changes if c.battle == battle]
    seen += [u.round for u in game.unstable if u.battle == battle]
    seen += [t.round for t in game.traps if t.battle == battle and t.round is not None]
    return max(seen)


def battle_entries(game: TunnelGame, seat: int | None) -> dict[str, Any]:
    """Which entries of the battle being fought are open from ``seat``, and for which round.

    ``now`` is the round in play; the denizen's roll-off is open for it until it is in, then
    for the next round; the first turn likewise for the next round the log expects (not at
    all when the players keep no rounds). A seat records its own player's dice and attack.
    """
    b = game.current_battle
    now = round_in_play(game, b)
    recorded = len(game.rounds_in(b))
    rolled = {x.round for x in game.roll_offs if x.battle == b}
    commander = game.commander(b, now) if now else None
    attacked = {c.player for c in game.changes if (c.battle, c.round, c.kind) == (b, now, "attack")}
    rolled_unstable = {u.player for u in game.unstable if (u.battle, u.round) == (b, now)}
    players = range(game.player_count)
    unstable = [i for i in players if i not in rolled_unstable and (seat is None or i == seat)]
    return {
        "now": now,
        "setup_roll": now == 0 and 0 not in rolled,
        "roll_round": now if now >= 1 and now not in rolled else now + 1,
        "first_round": recorded + 1 if recorded + 1 >= now else None,
        "commander": commander,
        "attack": commander is not None and commander not in attacked and seat in (None, commander),
        "unstable": unstable if now else [],
    }


# ---------------------------------------------------------------------------------------
# Inside a battle
# ---------------------------------------------------------------------------------------
def _apply_round(game: TunnelGame, event: dict[str, Any], eid: str) -> None:
    b = _battle(game, event)
    r, first = event["round"], event.get("first")
    expected = len(game.rounds_in(b)) + 1
    if r != expected:
        raise Refused(
            say("round: the next battle round of battle {battle} is {expected}.", battle=b, expected=expected)
        )
    game.rounds.append(BattleRound(eid, b, r, first))


def roll_off_winner(pairs: list[tuple[int, int]]) -> int | None:
    """The winner of a two-player roll-off given each pair of dice in turn (ties roll again)."""
    if not pairs:
        return None
    *tied, (a, c) = pairs
    if any(x != y for x, y in tied) or a == c:
        return None
    return 0 if a > c else 1


def _apply_denizen(game: TunnelGame, event: dict[str, Any], eid: str) -> None:
    b = _battle(game, event, started=False)
    r, pairs = event["round"], event["dice"]
    winner = roll_off_winner([(x[0], x[1]) for x in pairs])
    if winner is None:
        raise Refused(
            say("dice: every pair but the last must be a tie (rolled again), and the last must not be.")
        )
    if any((x.battle, x.round) == (b, r) for x in game.roll_offs):
        if r == 0:
            raise Refused(
                say("The denizen's roll-off for the set-up of battle {battle} is already recorded.", battle=b)
            )
        raise Refused(
            say(
                "The denizen's roll-off for battle round {round} of battle {battle} is already recorded.",
                round=r,
                battle=b,
            )
        )
    game.roll_offs.append(RollOff(eid, b, r, tuple((x[0], x[1]) for x in pairs), winner))


def _apply_change(game: TunnelGame, event: dict[str, Any], eid: str, kind: str) -> None:
    b = _battle(game, event)
    r, player = event["round"], event["player"]
    commander = game.commander(b, r)
    if kind == "attack" and commander != player:
        raise Refused(
            say(
                "player: only the denizen's commanding player may attack it, and {name} "
                "does not command it in battle round {round}.",
                name=game.name(player),
                round=r,
            )
        )
    if kind == "attack" and any(
        (c.battle, c.round, c.player, c.kind) == (b, r, player, "attack") for c in game.changes
    ):
        raise Refused(
            say(
                "{name} has already turned on the denizen in battle round {round}.",
                name=game.name(player),
                round=r,
            )
        )
    game.changes.append(BeastChange(eid, b, r, player, kind))


def _apply_attack(game: TunnelGame, event: dict[str, Any], eid: str) -> None:
    _apply_change(game, event, eid, "attack")


def _apply_tame(game: TunnelGame, event: dict[str, Any], eid: str) -> None:
    _apply_change(game, event, eid, "tame")


def _apply_unstable(game: TunnelGame, event: dict[str, Any], eid: str) -> None:
    b = _battle(game, event)
    r, player = event["round"], event["player"]
    if any((u.battle, u.round, u.player) == (b, r, player) for u in game.unstable):
        raise Refused(
            say(
                "{name}'s unstable surroundings die for battle round {round} is already recorded.",
                name=game.name(player),
                round=r,
            )
        )
    die = event["die"]
    choice = event.get("choice")
    need = game.fighting.unstable_on
    if choice is not None and die < need:
        raise Refused(say("choice must be left out: the die needed {need} or more.", need=need))
    point = d3 = None
    units: list[tuple[str, int, int]] = []
    if choice == "cave-in":
        point = event.get("point") or None
        if point is None:
            raise Refused(say("point must be a name of 1 to 120 characters: where the cave-in is."))
    elif event.get("point"):
        raise Refused(say("point is only noted for a cave-in."))
    if choice == "stalactites":
        d3 = event.get("d3")
        if d3 is None:
            raise Refused(say("d3 must be a D3 as it landed, 1 to 3: how many enemy units may be picked."))
        picked = event.get("units") or []
        if not 1 <= len(picked) <= d3:
            raise Refused(say("units must be a list of 1 to {d3} entries.", d3=d3))
        for item in picked:
            unit, roll = item["unit"], item["die"]
            units.append((unit, roll, 1 if roll >= game.fighting.stalactite_on else 0))
        if len({u for u, _, _ in units}) != len(units):
            raise Refused(say("units must name different enemy units."))
    elif event.get("d3") is not None or event.get("units"):
        raise Refused(say("d3 and units are only recorded for falling stalactites."))
    game.unstable.append(Unstable(eid, b, r, player, die, choice, point, d3, tuple(units)))


def _apply_trap(game: TunnelGame, event: dict[str, Any], eid: str) -> None:
    b = _battle(game, event)
    r, player = event.get("round"), event["player"]
    reach = game.fighting.trap_range
    distance = event["distance"]
    if not 0 < distance <= reach:
        raise Refused(
            say(
                'distance must be the measured distance in inches, more than 0 and at most {reach}".',
                reach=f"{reach:g}",
            )
        )
    target = event.get("target") or None
    a, c = event["dice"]
    wounds = event.get("mortal_wounds")
    if a + c >= distance and not wounds:
        raise Refused(say("mortal_wounds must be a D3 as it landed, 1 to 3: the roll reached the distance."))
    if a + c < distance and wounds:
        raise Refused(
            say(
                'mortal_wounds must be left out: the roll ({roll}) did not reach {distance}".',
                roll=a + c,
                distance=f"{distance:g}",
            )
        )
    game.traps.append(Trap(eid, b, r, player, target, float(distance), (a, c), wounds or 0))


def _apply_result(game: TunnelGame, event: dict[str, Any], eid: str) -> None:
    b = _battle(game, event)
    winner = event["winner"]
    game.results.append(BattleResult(eid, b, winner))


APPLY = {
    "contingents": _apply_split,
    "contingent": _apply_pick,
    "repick": _apply_repick,
    "battle_round": _apply_round,
    "denizen": _apply_denizen,
    "denizen_attack": _apply_attack,
    "tame": _apply_tame,
    "unstable": _apply_unstable,
    "trap": _apply_trap,
    "battle_result": _apply_result,
    "roll": GameState.add_roll,
}

#: Change a game by one event of its type (as :data:`EVENTS` read it); raise ``Refused``.
apply_event = by_type(APPLY)


def next_steps(game: TunnelGame) -> dict[str, Any]:
    """The steps to come: each remaining battle's contingent picks, then its result. Built on
    :func:`open_entries` (the table's): the picks still open for the battle being fought come first."""
    if game.finished:
        return {"plan": [OVER], "in_play": None, "steps": {OVER: {}}}
    picks = open_entries(game, None)["picks"]
    now = picks["battle"]
    plan = [f"contingent-{now}-{i}" for i in picks["players"]] + [f"battle-{now}"]
    for b in range(now + 1, game.battles + 1):
        plan += [f"contingent-{b}-{i}" for i in range(game.player_count)]
        plan.append(f"battle-{b}")
    plan.append(OVER)
    return {"plan": plan, "in_play": None, "steps": {step: {} for step in plan}}
