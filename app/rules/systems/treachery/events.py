"""Triumph & Treachery events: each checked against the rules, then folded into the state.

Every refusal is :class:`~app.rules.log.Refused` with one sentence naming the field and what
is allowed, and its ``rule`` naming the rule that refuses (``buy-limit``, ``same-table``...).
Readings Muster takes where the seeds leave room are in docs/api.md (Triumph & Treachery).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.rules import pack as p
from app.rules.contingents import part, roster_problems, split_problems
from app.rules.game import GameState, Setup
from app.rules.log import Refused
from app.rules.speech import listed, say, words
from app.rules.systems.treachery import allowed, section
from app.rules.systems.treachery.event_models import EVENTS, MAX_UNITS
from app.rules.systems.treachery.standing import buy_limits, ranking
from app.rules.systems.treachery.state import (
    Arrival,
    Award,
    Contingent,
    Deal,
    Destroyed,
    Discard,
    End,
    Gain,
    Pick,
    Play,
    Result,
    RollOff,
    RoundStart,
    TreacheryGame,
    Turn,
)

__all__ = ["EVENTS"]
#: The entry each event type belongs to (what may be recorded now is :mod:`.allowed`'s answer).
ENTRIES = allowed.ENTRIES

NO_RULES = section.Treachery(
    phases=[section.Phase(id="turn", name="Turn", neutral="No phase rules in this pack.")]
)


def new_game(pack: p.Pack, setup: Setup) -> TreacheryGame:
    """An empty game for that set-up: each player with the pack's command points and no ploys."""
    scenario = pack.scenario(setup.scenario)
    if scenario is None:
        raise ValueError(f"pack {pack.id} has no scenario {setup.scenario}")
    rules = pack.treachery or NO_RULES
    start = rules.command_points or 0
    return TreacheryGame(
        setup=setup, pack=pack, scenario=scenario, rules=rules, cp=[start] * len(setup.players)
    )


def apply_event(game: TreacheryGame, event: dict[str, Any], eid: str) -> None:
    """Change ``game`` by one event of its type (as :data:`EVENTS` read it); raise ``Refused``."""
    kind = event["type"]
    APPLY[kind](game, event, eid)
    # A bonus roll answers the enemy pick just made (a discard may make room for its ploy, a
    # dice roll may be the roll itself); Misheard Orders answers the play just made.
    if kind not in ("enemy", "bonus_ploy", "discard", "roll"):
        game.open_pick = None
    if kind != "play":
        game.just_played = None


# --- reading fields -------------------------------------------------------------------------
def _current_round(game: TreacheryGame, event: dict[str, Any]) -> int:
    """The event's round, which must be the battle round now being played."""
    value = int(event["round"])
    if game.turns_complete:
        raise Refused(
            say("round {round} is over: every turn of the battle is recorded.", round=value), "round"
        )
    if value != game.current_round:
        raise Refused(
            say("round must be {round}, the battle round being played.", round=game.current_round), "round"
        )
    return value


def _die(value: int, name: str, faces: int) -> int:
    """A die of VP within the faces the scenario names (the model allows up to 6)."""
    if value > faces:
        # The rule is the event's own field (zones, dice), not the item inside it.
        raise Refused(
            say("{field} must be a die from 1 to {faces}.", field=name, faces=faces),
            name.split("[")[0].split(".")[0],
        )
    return value


def _ploy(game: TreacheryGame, event: dict[str, Any]) -> section.Ploy:
    value = event.get("ploy")
    found = game.rules.ploy(value) if value is not None else None
    if found is None:
        if not game.rules.ploys:
            raise Refused(say("ploy: {pack} has no ploys.", pack=game.pack.name), "ploy")
        raise Refused(
            say("ploy must be the id of a ploy in {pack}, such as 'caltrops'.", pack=game.pack.name), "ploy"
        )
    return found


def _names(game: TreacheryGame, players: list[int]) -> str:
    return listed([game.name(i) for i in players])


# --- the round and its turns ------------------------------------------------------------
def _battle_round(game: TreacheryGame, event: dict[str, Any], eid: str) -> None:
    r = _current_round(game, event)
    if problem := allowed.round_problem(game, r):
        raise problem
    arrivals = event.get("arrivals", [])
    due = [o for o in game.scenario.objectives if o.placed_by_roll == "d6" and o.from_round == r]
    seen: set[str] = set()
    for i, raw in enumerate(arrivals):
        where = f"arrivals[{i}]"
        oid = raw["objective"]
        if oid not in {o.id for o in due} or oid in seen:
            ids = listed([o.id for o in due if o.id not in seen], either=True)
            said = (
                say(
                    "{field}.objective must be an objective arriving in round {round}: {ids}.",
                    field=where,
                    round=r,
                    ids=ids,
                )
                if ids
                else say(
                    "{field}.objective must be an objective arriving in round {round}: none.",
                    field=where,
                    round=r,
                )
            )
            raise Refused(said, "arrivals")
        seen.add(oid)
        game.arrivals.append(Arrival(eid, r, oid, raw["die"], raw.get("position", "")))
    standing = tuple(game.vp(i) for i in range(game.player_count))
    game.rounds[r] = RoundStart(eid, r, standing, buy_limits(game.rules, standing))


def _turn(game: TreacheryGame, event: dict[str, Any], eid: str) -> None:
    r = _current_round(game, event)
    player = event["player"]
    if problem := allowed.turn_problem(game, player):
        raise problem
    in_play = [o.id for o in game.scenario.objectives if o.from_round <= r]
    control = _control(event.get("control") or {}, in_play)
    dice = _dice(game, event.get("dice") or {}, control)
    zones = _zones(game, event.get("zones") or [])
    awards: list[Award] = []
    for block in game.scenario.scoring:
        if isinstance(block, section.TurnEndControl):
            who = control.get(block.objective)
            if who is not None:
                vp = r if block.vp == "round" else block.vp
                awards.append(Award(eid, r, who, block.objective, vp, block.objective))
        elif isinstance(block, section.ObjectiveDice):
            for oid, die in dice.items():
                holder = control[oid]
                assert holder is not None  # _dice takes dice only for objectives someone holds
                awards.append(Award(eid, r, holder, "objective-dice", die, oid, die))
        elif isinstance(block, section.ZoneDice):
            for holder, die in zones:
                awards.append(Award(eid, r, holder, "zone-dice", die, "border zone", die))
    turn = Turn(eid, r, player, control, dice, zones, tuple(awards))
    game.turns.append(turn)
    game.awards.extend(awards)
    game.active = None
    game.named = None
    game.tied = None


def _control(raw: dict[str, int | None], in_play: list[str]) -> dict[str, int | None]:
    out: dict[str, int | None] = {}
    for key, who in raw.items():
        if key not in in_play:
            ids = listed(in_play, either=True)
            said = (
                say("control: {key} is not an objective in play; use {ids}.", key=repr(key), ids=ids)
                if ids
                else say("control: {key} is not an objective in play; none is in play.", key=repr(key))
            )
            raise Refused(said, "control")
        out[key] = who
    return out


def _dice(game: TreacheryGame, raw: dict[str, int], control: dict[str, int | None]) -> dict[str, int]:
    block = next((b for b in game.scenario.scoring if isinstance(b, section.ObjectiveDice)), None)
    if block is None:
        if raw:
            raise Refused(
                say("dice: {scenario} scores no dice for objectives.", scenario=game.scenario.name), "dice"
            )
        return {}
    held = [oid for oid, who in control.items() if who is not None]
    for key in raw:
        if key not in held:
            raise Refused(
                say("dice.{key}: only an objective someone holds (in control) scores a die.", key=key), "dice"
            )
    out: dict[str, int] = {}
    for oid in held:
        if oid not in raw:
            raise Refused(
                say(
                    "dice.{key} must be the D{faces} rolled for the objective held.", key=oid, faces=block.die
                ),
                "dice",
            )
        out[oid] = _die(raw[oid], f"dice.{oid}", block.die)
    return out


def _zones(game: TreacheryGame, raw: list[dict[str, int]]) -> tuple[tuple[int, int], ...]:
    block = next((b for b in game.scenario.scoring if isinstance(b, section.ZoneDice)), None)
    if block is None:
        if raw:
            raise Refused(
                say("zones: {scenario} has no zones to score.", scenario=game.scenario.name), "zones"
            )
        return ()
    out = []
    for i, zone in enumerate(raw):
        out.append((zone["player"], _die(zone["die"], f"zones[{i}].die", block.die)))
    return tuple(out)


def _roll_off(game: TreacheryGame, event: dict[str, Any], eid: str) -> None:
    purpose, value = event["purpose"], event["round"]
    pairs: list[tuple[int, int]] = [(int(who), int(die)) for who, die in event["rolls"]]
    players = [who for who, _ in pairs]
    if len(set(players)) != len(players):
        raise Refused(say("rolls must name each player once."), "rolls")
    if purpose == "order":
        r = _current_round(game, event)
        if game.active is not None:
            raise Refused(
                say("rolls: {name} is already picked to take the next turn.", name=game.name(game.active)),
                "roll-off",
            )
        expected = sorted(game.waiting())
    else:
        r = int(value)
        expected = sorted(players)
    among = tuple(sorted(players))
    if game.tied is not None and game.tied[0] == purpose:
        expected = list(game.tied[1])
        if sorted(players) != expected:
            raise Refused(
                say("rolls: the tie is rolled again by {names} only.", names=_names(game, expected)),
                "roll-off",
            )
        # A throw after a tie decides the roll-off its first throw began.
        among = next(ro.among for ro in reversed(game.roll_offs) if ro.purpose == purpose)
    elif sorted(players) != expected:
        raise Refused(
            say("rolls: every player yet to take a turn rolls: {names}.", names=_names(game, expected)),
            "roll-off",
        )
    top = max(die for _, die in pairs)
    leaders = [who for who, die in pairs if die == top]
    winner = leaders[0] if len(leaders) == 1 else None
    chosen = event.get("next")
    if chosen is not None:
        if purpose != "order" or winner is None:
            raise Refused(say("next is named only by the winner of a turn-order roll-off."), "next")
        if chosen not in game.waiting():
            raise Refused(
                say(
                    "next must be one of the players yet to take a turn: {names}.",
                    names=_names(game, game.waiting()),
                ),
                "next",
            )
        game.active = game.named = int(chosen)
    game.tied = (purpose, tuple(sorted(leaders))) if winner is None else None
    game.roll_offs.append(RollOff(eid, r, purpose, tuple(pairs), winner, chosen, among))


def _enemy(game: TreacheryGame, event: dict[str, Any], eid: str) -> None:
    r = _current_round(game, event)
    player, phase, enemy = event["player"], event["phase"], event["enemy"]
    if game.rules.phase(phase) is None:
        phases = listed([ph.id for ph in game.rules.phases], either=True)
        raise Refused(say("phase must be {phases}.", phases=phases), "phase")
    if problem := allowed.pick_problem(game, player, phase, enemy):
        raise problem
    neutral = tuple(i for i in range(game.player_count) if i not in (player, enemy))
    game.picks.append(Pick(eid, r, player, phase, enemy, neutral, game.period()))
    game.active = player
    game.open_pick = eid


# --- command points, deals and ploys ------------------------------------------------------
def _deal(game: TreacheryGame, event: dict[str, Any], eid: str) -> None:
    if not game.rules.deals:
        raise Refused(say("type: {pack} has no deals.", pack=game.pack.name), "type")
    # The deal's entry first (:data:`allowed.ENTRIES`: the log asks it before the fields), then its fields.
    if problem := allowed.dealing(game):
        raise problem
    r = _current_round(game, event)
    giver, receiver = event["from"], event["to"]
    if giver == receiver:
        raise Refused(say("to must be another player than from."), "to")
    cp, vp = event.get("cp", 0), event.get("vp", 0)
    ploy = _ploy(game, event) if event.get("ploy") is not None else None
    if cp == 0 and vp == 0 and ploy is None:
        raise Refused(say("cp, vp or ploy must be given: a deal gives something."), "cp")
    if cp > game.cp[giver]:
        held = game.cp[giver]
        raise Refused(
            say(
                "cp must be at most {held}: {name} holds {held} command points.",
                held=held,
                name=game.name(giver),
            ),
            "cp",
        )
    if vp > game.vp(giver):
        held = game.vp(giver)
        raise Refused(
            say(
                "vp must be at most {held}: {name} holds {held} victory points.",
                held=held,
                name=game.name(giver),
            ),
            "vp",
        )
    if ploy is not None and (problem := allowed.give_problem(game, giver, receiver, ploy)):
        raise problem
    note = event.get("note", "")
    game.cp[giver] -= cp
    game.cp[receiver] += cp
    if vp:
        game.awards.append(Award(eid, r, giver, "deal", -vp, game.name(receiver)))
        game.awards.append(Award(eid, r, receiver, "deal", vp, game.name(giver)))
    if ploy is not None:
        # Gaining Ploys: by making a deal. The receiver holds it; which ploy stays theirs and the giver's.
        game.held[giver] = tuple(x for x in game.ploys(giver) if x != ploy.id)
        game.held[receiver] = (*game.ploys(receiver), ploy.id)
        game.gains.append(Gain(eid, r, receiver, ploy.id, "deal", game.period()))
    game.deals.append(Deal(eid, r, giver, receiver, cp, vp, note, ploy.id if ploy else None))


def _players_ploy(
    game: TreacheryGame,
    event: dict[str, Any],
    problem: Callable[[TreacheryGame, int, section.Ploy], Refused | None],
) -> tuple[int, int, section.Ploy]:
    """The event's round (the one being played), its player and the ploy it names, once the
    rules' ``problem`` with that player and ploy says nothing."""
    r = _current_round(game, event)
    player = event["player"]
    ploy = _ploy(game, event)
    if refused := problem(game, player, ploy):
        raise refused
    return r, player, ploy


def _buy(game: TreacheryGame, event: dict[str, Any], eid: str) -> None:
    r, player, ploy = _players_ploy(game, event, allowed.buy_problem)
    game.cp[player] -= ploy.cost
    game.held[player] = (*game.ploys(player), ploy.id)
    # The purchases before a round's first turn count as a turn of their own.
    game.gains.append(Gain(eid, r, player, ploy.id, "buy", (r, -1), cost=ploy.cost))


def _bonus_ploy(game: TreacheryGame, event: dict[str, Any], eid: str) -> None:
    bonus = game.rules.bonus_ploy
    if bonus is None:
        raise Refused(say("type: {pack} has no bonus ploys.", pack=game.pack.name), "type")
    r = _current_round(game, event)
    player = event["player"]
    if problem := allowed.bonus_problem(game, player):
        raise problem
    pick = allowed.open_pick(game)
    assert pick is not None  # bonus_problem refuses a bonus roll without an enemy pick
    roll = event["roll"]
    need = allowed.bonus_needs(bonus, game.player_count)
    if roll < need:
        raise Refused(
            say(
                "roll must be {need} or more to gain a bonus ploy with {players} players; {roll} gains none.",
                need=need,
                players=game.player_count,
                roll=roll,
            ),
            "bonus-roll",
        )
    ploy = _ploy(game, event)
    if problem := allowed.gaining(game, player, ploy, game.period()):
        raise problem
    game.held[player] = (*game.ploys(player), ploy.id)
    game.gains.append(Gain(eid, r, player, ploy.id, "bonus", game.period(), roll=roll, pick=pick.event))


def _discard(game: TreacheryGame, event: dict[str, Any], eid: str) -> None:
    if event.get("round") is not None:  # optional (the discard names no round), checked when given
        _current_round(game, event)
    player = event["player"]
    ploy = _ploy(game, event)
    held = game.ploys(player)
    if ploy.id not in held:
        raise Refused(
            say("ploy: {name} holds no {ploy} to discard.", name=game.name(player), ploy=ploy.name), "ploy"
        )
    game.held[player] = tuple(x for x in held if x != ploy.id)
    game.discards.append(Discard(eid, min(game.current_round, game.last_round), player, ploy.id))


def _play(game: TreacheryGame, event: dict[str, Any], eid: str) -> None:
    r, player, ploy = _players_ploy(game, event, allowed.play_problem)
    cancels = None
    if ploy.cancels:
        last = next(pl for pl in game.plays if pl.event == game.just_played)
        cancels = last.event
        game.cancelled[last.event] = eid
    pick = game.current_pick()
    game.held[player] = tuple(x for x in game.ploys(player) if x != ploy.id)
    game.plays.append(Play(eid, r, player, ploy.id, cancels, game.period(), pick.event if pick else None))
    game.just_played = eid


# --- scenario events ------------------------------------------------------------------------
def _destroyed(game: TreacheryGame, event: dict[str, Any], eid: str) -> None:
    block = next((b for b in game.scenario.scoring if isinstance(b, section.DestroyedPoints)), None)
    if block is None:
        raise Refused(
            say("type: {scenario} scores no VP for destroyed units.", scenario=game.scenario.name), "type"
        )
    r = _current_round(game, event)
    by, owner = event["by"], event["owner"]
    if by == owner:
        raise Refused(say("by must be another player than owner: VP come from another army's units."), "by")
    unit, points = event["unit"], event["points"]
    vp = points // block.per_points * block.vp
    game.destroyed.append(Destroyed(eid, r, by, owner, unit, int(points), vp))
    if vp:
        game.awards.append(Award(eid, r, by, "destroyed", vp, unit))


def _contingents(game: TreacheryGame, event: dict[str, Any], eid: str) -> None:
    rule = game.scenario.contingents
    if rule is None:
        raise Refused(say("type: {scenario} has no contingents.", scenario=game.scenario.name), "type")
    if key := next((k for k in ("vanguard", "reinforcements") if k in event and k not in rule.ids), None):
        raise Refused(
            say(
                "{key} is not part of contingents; it takes {fields}.",
                key=key,
                fields=listed(sorted(["player", *rule.ids])),
            ),
            key,
        )
    if game.turns:
        raise Refused(say("type: contingents are recorded before the first turn."), "contingents")
    player = event["player"]
    # Each contingent is a count (no roster attached: counted by hand) or its units' names;
    # the names are checked against the attached roster where the game has one (roster_problems).
    for cid in rule.ids:
        if event.get(cid) is None:
            raise Refused(
                say("{field} must be the number of units (0 to 200) or the list of their names.", field=cid),
                cid,
            )
    parts = [part(event[cid]) for cid in rule.ids]
    labels = [cid.replace("-", " ") for cid in rule.ids]
    problems = split_problems(rule, [n for n, _ in parts], labels)
    if problems:
        raise Refused(problems[0], rule.ids[0])
    named = [set(names) for _, names in parts]
    for i, names in enumerate(named):
        for other in named[i + 1 :]:
            if both := sorted(names & other):
                raise Refused(
                    say("{unit} is in two contingents; a unit is in one.", unit=both[0]), rule.ids[i]
                )
    game.contingents[player] = Contingent(
        eid, player, tuple(rule.ids), tuple(names for _, names in parts), tuple(n for n, _ in parts)
    )


def contingent_roster_problems(scenario: p.Scenario, event: dict[str, Any], roster: list[str]) -> list[str]:
    """What is wrong with a ``contingents`` event's named units against the player's attached roster.

    ``roster`` is the names of the roster's units (a name twice for two such units). The rules
    cannot see rosters; the caller that holds the attached roster asks this before appending
    the event. Counts (no names) are not checked; an unreadable event is left to the rules.
    """
    rule = scenario.contingents
    if rule is None:
        return []
    try:
        checked = EVENTS.fields("contingents", event)
    except Refused:
        return []
    parts = [part(checked[cid])[1] if checked.get(cid) is not None else () for cid in rule.ids]
    if not any(parts):
        return []
    return roster_problems(roster, parts, [cid.replace("-", " ") for cid in rule.ids])


def _end(game: TreacheryGame, event: dict[str, Any], eid: str) -> None:
    if game.end is not None:
        raise Refused(say("type: the battle has already ended."), "end")
    if not game.turns_complete:
        raise Refused(
            say("type: the battle ends after the last turn of round {round}.", round=game.last_round), "end"
        )
    checks = [c.check for c in game.pack.victory(game.scenario).order]
    # One model holds both ends; each scenario's end takes its own two fields.
    takes = ("monolith", "closest") if "monolith" in checks else ("tie_break", "renown")
    if key := next((k for k in sorted(event) if k not in ("id", "type", *takes)), None):
        fields = listed(list(takes))
        said = (
            say(
                "{key} is not part of the end of {scenario}; it takes {fields}.",
                key=key,
                scenario=game.scenario.name,
                fields=fields,
            )
            if "monolith" in checks
            else say("{key} is not part of the end; it takes {fields}.", key=key, fields=fields)
        )
        raise Refused(said, key)
    if "monolith" in checks:
        _end_monolith(game, event, eid)
    else:
        _end_ranking(game, event, eid)


def _end_ranking(game: TreacheryGame, event: dict[str, Any], eid: str) -> None:
    raw = event.get("tie_break", [])
    if len(set(raw)) != len(raw):
        raise Refused(say("tie_break must name each player once."), "tie_break")
    vp = [game.vp(i) for i in range(game.player_count)]
    tied = sorted(i for i in range(game.player_count) if vp.count(vp[i]) > 1)
    if sorted(raw) != tied:
        if not tied:
            raise Refused(say("tie_break must be empty: no players are tied on VP."), "tie_break")
        raise Refused(
            say("tie_break must list exactly the players tied on VP: {names}.", names=_names(game, tied)),
            "tie_break",
        )
    renown_raw = event.get("renown", [])
    if len(renown_raw) > MAX_UNITS * game.player_count:
        raise Refused(say("renown must be a list of {player, unit}, one per unit gaining renown."), "renown")
    renown = [(item["player"], item["unit"]) for item in renown_raw]
    if problem := allowed.tie_break_problem(game, list(raw)):
        raise problem
    order = ranking(vp, list(raw))
    game.end = End(eid, tie_break=tuple(raw), renown=tuple(renown))
    reason = words("{first} ranks first with {vp} VP, {second} second.")
    blanks = {"first": game.name(order[0]), "vp": vp[order[0]], "second": game.name(order[1])}
    game.result = Result("ranking", order[0], reason, tuple(order), order[1], blanks=blanks)


def _end_monolith(game: TreacheryGame, event: dict[str, Any], eid: str) -> None:
    monolith = event.get("monolith")
    closest = event.get("closest", [])
    if len(set(closest)) != len(closest):
        raise Refused(say("closest must name each player once."), "closest")
    if monolith is not None and closest:
        raise Refused(say("closest must be empty when a player controls the monolith."), "closest")
    game.end = End(eid, monolith=monolith, closest=tuple(closest))
    if monolith is not None:
        name = {"name": game.name(monolith)}
        game.result = Result("major", monolith, words("{name} controls the monolith."), blanks=name)
    elif len(closest) == 1:
        game.result = Result(
            "minor",
            closest[0],
            words("{name} has the model closest to the monolith."),
            blanks={"name": game.name(closest[0])},
        )
    else:
        why = (
            words("Nobody controls the monolith and models of several armies are equally close to it.")
            if closest
            else words("Nobody controls the monolith and no closest model was named.")
        )
        game.result = Result("draw", None, why)


APPLY: dict[str, Callable[[TreacheryGame, dict[str, Any], str], None]] = {
    "battle_round": _battle_round,
    "roll_off": _roll_off,
    "deal": _deal,
    "buy": _buy,
    "discard": _discard,
    "enemy": _enemy,
    "bonus_ploy": _bonus_ploy,
    "play": _play,
    "destroyed": _destroyed,
    "contingents": _contingents,
    "turn": _turn,
    "end": _end,
    "roll": GameState.add_roll,
}
