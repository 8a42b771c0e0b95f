"""A siege's events -> the siege phase, the battle rounds, the relief force and the result.

The order is the seed's: both players hide a siege tactic; once both are in, they are shown
(neither may be taken back: both players may agree to pick again, each with a ``repick`` from
their own seat, before the batter rolls) and the siege table gives the modifiers; the attacker rolls batter, then starve, then tunnel; then the
battle rounds and turns are recorded as in Pitched Battles, scoring no VP. Inside the
defender's turn a relief roll may bring the relief force; the end records how many
objectives the attacker holds. Every die is recorded as it landed.
"""

from __future__ import annotations

from typing import Any

from app.rules import contingents
from app.rules import pack as p
from app.rules.army import RosterUnit
from app.rules.battle_rounds import RoundStart, Turn
from app.rules.game import GameState, Setup
from app.rules.log import Refused, by_type, open_entry
from app.rules.outcome import Result
from app.rules.speech import say, say_plural, words
from app.rules.systems.siege import section
from app.rules.systems.siege.event_models import EVENTS
from app.rules.systems.siege.state import (
    Edge,
    Ending,
    FeatureRoll,
    Pick,
    Placement,
    ReliefRoll,
    SiegeGame,
    Split,
    TunnelRoll,
    UnitRoll,
)
from app.rules.terrain import Piece

__all__ = ["EVENTS"]
#: Events that hold a secret until both are in, and the fields the other seats do not see.
SECRET_TYPES = {"siege_tactic": ("tactic",)}
#: Public events only the seat of their ``player`` records: each player's own agreement to pick again.
SIGNED_TYPES = ("repick",)
#: The entry of :func:`open_entries` each event type belongs to: closed, it refuses the event.
ENTRIES = {
    "contingents": "contingents",
    "batter": "batter",
    "starve": "starve",
    "tunnel": "tunnel",
    "tunnel_party": "tunnel_party",
    "relief_edge": "relief_edge",
    "end": "end",
}
MOUNTED = ("MOUNT", "MOUNTED")


def sides(setup: Setup) -> tuple[int, int]:
    """The attacker and the defender: the attacker is the player whose side is ``attacker``
    (the first player when the set-up names no sides)."""
    named = [pl.side for pl in setup.players]
    attacker = named.index("attacker") if "attacker" in named else 0
    return attacker, 1 - attacker


def new_game(pack: p.Pack, setup: Setup) -> SiegeGame:
    """An empty siege for that set-up (see :func:`sides` for who attacks)."""
    scenario = pack.scenario(setup.scenario)
    if scenario is None or pack.siege is None:
        raise ValueError(f"pack {pack.id} has no siege scenario {setup.scenario}")
    attacker, defender = sides(setup)
    return SiegeGame(
        setup=setup, pack=pack, scenario=scenario, rules=pack.siege, attacker=attacker, defender=defender
    )


OVER_NOW = words("The battle is over; undo the last entry to change it.")


def _open(game: SiegeGame) -> None:
    if game.finished:
        raise Refused(say(OVER_NOW))


# ---------------------------------------------------------------------------------------
# The siege phase
# ---------------------------------------------------------------------------------------
def _apply_tactic(game: SiegeGame, event: dict[str, Any], eid: str) -> None:
    _open(game)
    player = event["player"]
    side = game.side(player)
    allowed = game.rules.dice(side)
    die = event["tactic"]
    if die not in allowed:
        names = ", ".join(f"{d} ({t.name})" for d in allowed if (t := game.rules.tactic(d)))
        raise Refused(
            say("tactic must be the attacker's die: {tactics}.", tactics=names)
            if side == "attacker"
            else say("tactic must be the defender's die: {tactics}.", tactics=names)
        )
    if player in game.picks:
        if game.revealed:
            raise Refused(
                say(
                    "{name} has already picked a siege tactic, and both are shown; to pick again, "
                    "both players ask for it on their own phones.",
                    name=game.name(player),
                ),
                "secret-pick",
            )
        raise Refused(
            say(
                "{name} has already picked a siege tactic; undo that entry to change it.",
                name=game.name(player),
            )
        )
    game.picks[player] = Pick(eid, player, die)


def repick_problem(game: SiegeGame, player: int) -> Refused | None:
    """Why ``player`` may not ask to pick the siege tactics again now, or ``None``: only once
    both are shown and before the batter rolls, once each; when both have asked, both pick again."""
    if game.finished:
        return Refused(say(OVER_NOW), "repick")
    if not game.revealed:
        return Refused(
            say(
                "player: the siege tactics are not both in yet; a player takes back their own pick with undo."
            ),
            "repick",
        )
    if game.stage != "batter":
        return Refused(
            say("player: the siege rolls have begun; undo them before the siege tactics are picked again."),
            "repick",
        )
    if player in game.repick:
        waiting = [game.name(i) for i in range(game.player_count) if i not in game.repick]
        return Refused(
            say(
                "player: {name} has already asked to pick again; waiting for {waiting}.",
                name=game.name(player),
                waiting=" & ".join(waiting),
            ),
            "repick",
        )
    return None


def _apply_repick(game: SiegeGame, event: dict[str, Any], eid: str) -> None:
    player = event["player"]
    if problem := repick_problem(game, player):
        raise problem
    game.repick[player] = eid
    if len(game.repick) == game.player_count:  # both agree: both tactics go back behind the hand
        game.picks = {}
        game.repick = {}


def undo_problem(game: SiegeGame, event: dict[str, Any]) -> Refused | None:
    """A siege tactic stays once both are shown: the second pick (the last entry then) is not
    taken back, so nobody changes theirs knowing the other's; both may agree to pick again."""
    if event.get("type") == "siege_tactic" and game.revealed:
        return Refused(
            say(
                "event: both siege tactics are shown, so neither may be taken back; to pick again, both "
                "players ask for it on their own phones."
            ),
            "secret-pick",
        )
    return None


def open_entries(game: SiegeGame, seat: int | None) -> dict[str, Any]:
    """What may be recorded now from ``seat`` (``None``: the table screen), and why not the rest:
    the entries beside the steps (the defender's contingents, the tunnel party, the relief roll
    and its edge), the seat's own siege tactic and its agreement to pick again (taking back the
    last entry is the registry's :func:`app.rules.systems.undo_entry`, on :func:`undo_problem`)."""
    r = game.current_round
    # The screens offer the relief roll once the round is under way (begun, or a turn recorded
    # in it): before, the defender's turn may not have come yet.
    under_way = r in game.rounds or bool(game.turns_in(r))
    played = (
        Refused(say("Every battle round is played; record the end of the battle."))
        if r > game.battle_rounds
        else None
    )
    out: dict[str, Any] = {
        # The siege phase's steps, in order: each seat's hidden tactic, then the attacker's rolls.
        "tactics": {
            "open": game.stage == "tactics" and not game.finished,
            "players": [i for i in range(game.player_count) if i not in game.picks],
        },
        "batter": open_entry(stage_problem(game, "batter", words("The batter rolls"))),
        "starve": open_entry(stage_problem(game, "starve", words("The starve rolls"))),
        "tunnel": open_entry(stage_problem(game, "tunnel", words("The tunnel roll"))),
        "battle_round": open_entry(
            stage_problem(game, "battle", words("A battle round")) or played or round_problem(game, r),
            round=r,
        ),
        "turn": open_entry(
            stage_problem(game, "battle", words("A turn")) or played, round=r, players=game.next_players()
        ),
        "end": open_entry(stage_problem(game, "battle", words("The end"))),
        "contingents": open_entry(split_problem(game)),
        "tunnel_party": open_entry(party_problem(game)),
        "relief_roll": open_entry(
            relief_problem(game, r)
            if under_way
            else Refused(
                say("round: the relief roll waits until battle round {round} is under way.", round=r)
            )
        )
        | {"round": r},
        "relief_edge": open_entry(edge_problem(game)),
        # ``offered``: both tactics are shown and no siege roll is in, so both may ask.
        "repick": {
            "asked": sorted(game.repick),
            "offered": game.revealed and game.stage == "batter" and not game.finished,
        },
    }
    if seat is not None and 0 <= seat < game.player_count:
        out["tactic"] = {"open": not game.finished and seat not in game.picks}
        problem = repick_problem(game, seat)
        out["repick"] |= open_entry(problem)
    return out


STAGES = ("tactics", "batter", "starve", "tunnel", "battle")
# What an entry waits for while the siege phase is at each step (``what``: the entry).
_WAIT = {
    "tactics": words("{what} must wait until both siege tactics are picked."),
    "batter": words("{what} must wait until the batter rolls are recorded."),
    "starve": words("{what} must wait until the starve rolls are recorded."),
    "tunnel": words("{what} must wait until the tunnel roll is recorded."),
}


def stage_problem(game: SiegeGame, stage: str, what: str) -> Refused | None:
    """Why ``what`` (an entry of the siege phase's ``stage``, or of the battle) may not be
    recorded now, or ``None``: the siege phase's steps come in order, then the battle."""
    if game.finished:
        return Refused(say(OVER_NOW))
    now = game.stage
    if STAGES.index(now) < STAGES.index(stage):
        return Refused(say(_WAIT[now], what=say(what)))
    if STAGES.index(now) > STAGES.index(stage):
        return Refused(
            say(
                "{what}: the siege phase has passed this step; undo the later entries to change it.",
                what=say(what),
            )
        )
    return None


def _need_stage(game: SiegeGame, stage: str, what: str) -> None:
    if problem := stage_problem(game, stage, what):
        raise problem


def batter_outcome(rules: section.SiegeRules, defensible: bool, modified: int) -> str:
    """What a batter die does: demolish a defensible feature, strip cover from another, or nothing."""
    if modified < rules.batter_on:
        return "stands"
    return "demolished" if defensible else "no-cover"


def _apply_batter(game: SiegeGame, event: dict[str, Any], eid: str) -> None:
    _need_stage(game, "batter", words("The batter rolls"))
    cell = game.modifiers
    assert cell is not None
    rolls = []
    for item in event["features"]:
        feature, die = item["feature"], item["die"]
        defensible = bool(item.get("defensible"))
        modified = die + cell.batter
        rolls.append(
            FeatureRoll(feature, defensible, die, modified, batter_outcome(game.rules, defensible, modified))
        )
    game.batter = tuple(rolls)


def starved(rules: section.SiegeRules, modifier: int, die: int, hero: bool) -> tuple[int, bool]:
    """A starve die modified (the table's modifier, and -1 for a HERO) and whether it starves."""
    modified = die + modifier + (rules.starve_hero if hero else 0)
    return modified, modified >= rules.starve_on


def _apply_starve(game: SiegeGame, event: dict[str, Any], eid: str) -> None:
    _need_stage(game, "starve", words("The starve rolls"))
    cell = game.modifiers
    assert cell is not None
    rolls = []
    for i, item in enumerate(event["units"]):
        where = f"units[{i}]"
        unit, die = item["unit"], item["die"]
        hero = bool(item.get("hero"))
        modified, hit = starved(game.rules, cell.starve, die, hero)
        wounds = item.get("mortal_wounds")
        if hit and not wounds:
            raise Refused(
                say("{where}.mortal_wounds must be a D3 as it landed, 1 to 3: the unit starves.", where=where)
            )
        if not hit and wounds:
            raise Refused(
                say(
                    "{where}.mortal_wounds must be left out: the die ({modified} after modifiers) needed {need} or more.",
                    where=where,
                    modified=modified,
                    need=game.rules.starve_on,
                )
            )
        rolls.append(UnitRoll(unit, hero, die, modified, hit, wounds or 0))
    game.starve = tuple(rolls)


def _apply_tunnel(game: SiegeGame, event: dict[str, Any], eid: str) -> None:
    _need_stage(game, "tunnel", words("The tunnel roll"))
    cell = game.modifiers
    assert cell is not None
    attacker, defender = event["dice"]
    game.tunnel = TunnelRoll(eid, attacker, defender, attacker + cell.tunnel)


def party_unit(item: dict[str, Any]) -> dict[str, Any]:
    """A unit named for the tunnel (as the model read it), with what decides whether it may go:
    HERO, MONSTER, a mount."""
    keywords = [w.strip().upper() for w in item.get("keywords") or [] if w.strip()]
    mounted = bool(item.get("mounted")) or any(w in MOUNTED for w in keywords)
    return {
        "name": item["name"],
        "hero": "HERO" in keywords,
        "monster": "MONSTER" in keywords,
        "mounted": mounted,
    }


def unfit(unit: dict[str, Any]) -> str | None:
    """Why a unit may not go through a tunnel ("a MONSTER", "mounted"), or ``None`` if it may."""
    if unit["monster"]:
        return words("a MONSTER")
    return words("mounted") if unit["mounted"] else None


def roster_party(rules: section.SiegeRules, roster: list[RosterUnit]) -> dict[str, Any]:
    """What of the attacker's attached roster may go through a completed tunnel, read from
    its keywords: the HEROES and the other units that may, each with its keywords, how many
    of each may go, and the units that may not with why (a roster unit twice is listed twice)."""
    fit: dict[str, list[RosterUnit]] = {"heroes": [], "others": []}
    out: list[dict[str, str]] = []
    for u in roster:
        unit = _roster_unit(u)
        if why := unfit(unit):
            out.append({"name": u.name, "why": why})
        else:
            fit["heroes" if unit["hero"] else "others"].append(u)
    return {**fit, "unfit": out, "max_heroes": rules.tunnel_heroes, "max_others": rules.tunnel_others}


def _roster_unit(u: RosterUnit) -> dict[str, Any]:
    words = {w.strip().upper() for w in u.keywords}
    return {
        "name": u.name,
        "hero": "HERO" in words,
        "monster": "MONSTER" in words,
        "mounted": bool(words & set(MOUNTED)),
    }


def party_roster_problems(event: dict[str, Any], roster: list[RosterUnit]) -> list[str]:
    """What is wrong with the units sent into the tunnel against the attacker's attached
    roster, one sentence (none: fine): each must be in it (no more often than it holds it),
    and it is its keywords there that say whether a unit is a HERO, a MONSTER or mounted.
    An unreadable event is left to :func:`_apply_party`."""
    try:
        items = EVENTS.fields("tunnel_party", event)["units"]
    except Refused:
        return []
    known = {_plain(u.name): u for u in roster}
    held = [_plain(u.name) for u in roster]
    sent: list[str] = []
    for i, item in enumerate(items):
        unit = party_unit(item)
        name = _plain(unit["name"])
        sent.append(name)
        found = known.get(name)
        if found is None:
            return [
                say("units[{i}]: {name} is not in the attacker's attached roster.", i=i, name=unit["name"])
            ]
        if sent.count(name) > held.count(name):
            times = held.count(name)
            return [_holds(i, unit["name"], times)]
        listed = _roster_unit(found)
        if why := unfit(listed):
            return [
                say(
                    "units[{i}]: {name} is {why} in the attacker's attached roster; only units "
                    "without mounts that are not MONSTERS go through the tunnel.",
                    i=i,
                    name=found.name,
                    why=say(why),
                )
            ]
        if unit["hero"] != listed["hero"]:
            if listed["hero"]:
                return [
                    say(
                        "units[{i}].keywords: {name} is a HERO in the attacker's attached roster.",
                        i=i,
                        name=found.name,
                    )
                ]
            return [
                say(
                    "units[{i}].keywords: {name} is not a HERO in the attacker's attached roster.",
                    i=i,
                    name=found.name,
                )
            ]
    return []


def _plain(name: str) -> str:
    return " ".join(name.split())


def _holds(i: int, name: str, times: int) -> str:
    """How often the attacker's roster holds a unit sent into the tunnel more often than that."""
    if times == 1:
        return say("units[{i}]: the attacker's attached roster holds {name} once.", i=i, name=name)
    if times == 2:
        return say("units[{i}]: the attacker's attached roster holds {name} twice.", i=i, name=name)
    return say(
        "units[{i}]: the attacker's attached roster holds {name} {count} times.", i=i, name=name, count=times
    )


def tunnel_candidates(rules: section.SiegeRules, units: list[dict[str, Any]]) -> dict[str, Any]:
    """Which units may go through a completed tunnel: HEROES and other units without mounts
    that are not MONSTERS, and how many of each may go."""
    fit = [u for u in units if not u["monster"] and not u["mounted"]]
    return {
        "heroes": [u["name"] for u in fit if u["hero"]],
        "others": [u["name"] for u in fit if not u["hero"]],
        "max_heroes": rules.tunnel_heroes,
        "max_others": rules.tunnel_others,
    }


def party_problem(game: SiegeGame) -> Refused | None:
    """Why no tunnel party may be recorded now (a completed tunnel lets one through), or ``None``."""
    if game.finished:
        return Refused(say(OVER_NOW))
    if game.tunnel is None or not game.tunnel.completed:
        return Refused(
            say("units: only a completed tunnel lets units through; the tunnel roll did not complete one.")
        )
    if game.party is not None:
        return Refused(
            say("The units sent into the tunnel are already recorded; undo that entry to change it.")
        )
    return None


def _apply_party(game: SiegeGame, event: dict[str, Any], eid: str) -> None:
    if problem := party_problem(game):
        raise problem
    rules = game.rules
    units = [party_unit(u) for u in event["units"]]
    for u in units:
        if why := unfit(u):
            raise Refused(
                say(
                    "units: {name} is {why}; only units without mounts that are not MONSTERS go through.",
                    name=u["name"],
                    why=say(why),
                )
            )
    heroes = [u for u in units if u["hero"]]
    if len(heroes) > rules.tunnel_heroes or len(units) - len(heroes) > rules.tunnel_others:
        raise Refused(
            say(
                "units: at most {heroes} HERO and {others} other units go through the tunnel.",
                heroes=rules.tunnel_heroes,
                others=rules.tunnel_others,
            )
        )
    game.party = tuple(units)


def split_problem(game: SiegeGame) -> Refused | None:
    """Why the defender's contingents may not be recorded now (once, before the first battle
    round), or ``None``."""
    if game.finished:
        return Refused(say(OVER_NOW))
    if game.scenario.contingents is None:
        return Refused(say("{battleplan} has no contingents to record.", battleplan=game.scenario.name))
    if game.turns or game.rounds:
        return Refused(say("The contingents are set before the first battle round."))
    if game.split is not None:
        return Refused(say("The contingents are already recorded; undo that entry to change them."))
    return None


def _apply_contingents(game: SiegeGame, event: dict[str, Any], eid: str) -> None:
    if problem := split_problem(game):
        raise problem
    rules = game.scenario.contingents
    assert rules is not None  # split_problem refuses a scenario without contingents
    # A name may come twice (two units of one warscroll, as rosters list them): the attached
    # roster, where there is one, is checked before the event reaches the rules (roster_problems).
    garrison, g_units = contingents.part(event["garrison"])
    relief, r_units = contingents.part(event["relief"])
    sizes = [garrison, relief]
    problems = contingents.split_problems(rules, sizes, ["garrison", "relief force"])
    if problems:
        raise Refused(f"relief: {problems[0]}")
    game.split = Split(eid, garrison, relief, g_units, r_units)


def roster_problems(event: dict[str, Any], roster: list[str]) -> list[str]:
    """What is wrong with the defender's named contingents against their attached roster, in
    one sentence naming every unit at fault (none: fine).

    ``roster`` is the names of the roster's units, a name twice for two such units. Counts (no
    names) are not checked; an unreadable event is left to :func:`_apply_contingents`. (The
    units sent into a tunnel are checked by :func:`party_roster_problems`.)
    """
    try:
        checked = EVENTS.fields("contingents", event)
        parts = [contingents.part(checked[name])[1] for name in ("garrison", "relief")]
    except Refused:
        return []
    if not any(parts):
        return []
    placed = [n for part in parts for n in part]
    unknown = [n for n in placed if n not in roster]
    missing = list(roster)
    for name in placed:
        if name in missing:
            missing.remove(name)
    faults = []
    if unknown:
        faults.append(
            say_plural(
                "{names} is not in it", "{names} are not in it", len(set(unknown)), names=_names(unknown)
            )
        )
    for name in dict.fromkeys(n for n in placed if n in roster and placed.count(n) > roster.count(n)):
        faults.append(
            say(
                "{name} is named {named} times and it holds {held}",
                name=name,
                named=placed.count(name),
                held=roster.count(name),
            )
        )
    if missing:
        faults.append(
            say_plural(
                "{names} is left out", "{names} are left out", len(set(missing)), names=_names(missing)
            )
        )
    if not faults:
        return []
    return [
        say(
            "garrison and relief must name each unit of the defender's attached roster once: {faults}.",
            faults="; ".join(faults),
        )
    ]


def _names(names: list[str]) -> str:
    """Names as a sentence lists them: each once, with how many when more than one."""
    counted = [(n, names.count(n)) for n in dict.fromkeys(names)]
    words = [f"{n} (x{c})" if c > 1 else n for n, c in counted]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])}, {words[-1]}"


# ---------------------------------------------------------------------------------------
# The objectives, placed in turn on terrain features in the defender's territory
# ---------------------------------------------------------------------------------------
# An objective's place in the order (1st, 2nd), as the reader's language writes it.
def _ordinal(n: int) -> str:
    known = {1: words("1st"), 2: words("2nd"), 3: words("3rd")}
    return say(known[n]) if n in known else say("{number}th", number=n)


def _apply_objective(game: SiegeGame, event: dict[str, Any], eid: str) -> None:
    _open(game)
    if game.turns or game.rounds:
        raise Refused(say("The objectives are set up with the battlefield, before the first battle round."))
    player = event["player"]
    total = game.objective_count
    placer = game.next_placer
    if placer is None:
        raise Refused(say("All {total} objectives are set up; undo the last one to move it.", total=total))
    number = len(game.objectives) + 1
    if player != placer:
        raise Refused(
            say(
                "player: {name} places the {ordinal} objective of {total}; the players take turns, the attacker first.",
                name=game.name(placer),
                ordinal=_ordinal(number),
                total=total,
            )
        )
    feature = event["feature"]
    taken = next((o for o in game.objectives if _same(o.feature, feature)), None)
    if taken is not None:
        raise Refused(
            say(
                "feature: {feature} already holds the {ordinal} objective; each objective goes on a different terrain feature.",
                feature=taken.feature,
                ordinal=_ordinal(taken.number),
            )
        )
    game.objectives.append(Placement(eid, number, player, feature))


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def terrain_problems(game: SiegeGame, event: dict[str, Any], pieces: list[Piece]) -> list[str]:
    """What is wrong with an objective's feature against the game's terrain set, one sentence
    (none: fine, or the set does not know the battlefield).

    ``feature`` names a piece of the set by its id or its name. Where the set has a fortress
    (pieces marked wholly within the defender's territory), the feature must be one of its
    pieces and wholly within that territory, and not a piece that already holds an objective
    under its other name. A malformed event is left to :func:`_apply_objective`.
    """
    feature = event.get("feature")
    fortress = [p for p in pieces if p.fortress]
    if not isinstance(feature, str) or not feature.strip() or not fortress:
        return []
    piece = find_piece(pieces, feature)
    if piece is None:
        return [
            say(
                "feature: {feature} is not in this game's terrain set; an objective goes on a feature of the "
                "fortress ({fortress}).",
                feature=" ".join(feature.split()),
                fortress=", ".join(p.name for p in fortress),
            )
        ]
    if not piece.fortress:
        return [
            say(
                "feature: {feature} is not wholly within the defender's territory in this game's terrain set; "
                "an objective goes on a feature of the fortress.",
                feature=piece.name,
            )
        ]
    taken = _placed_on(game, pieces, piece)
    if taken is not None:
        return [
            say(
                "feature: {feature} already holds the {ordinal} objective; each objective goes on a different terrain feature.",
                feature=piece.name,
                ordinal=_ordinal(taken.number),
            )
        ]
    return []


def _placed_on(game: SiegeGame, pieces: list[Piece], piece: Piece) -> Placement | None:
    """The objective already on ``piece`` (named by its id or its name), if any."""
    return next((o for o in game.objectives if find_piece(pieces, o.feature) is piece), None)


def free_features(game: SiegeGame, pieces: list[Piece]) -> list[Piece]:
    """The fortress's pieces an objective may still go on (none when the set has no fortress)."""
    return [p for p in pieces if p.fortress and _placed_on(game, pieces, p) is None]


def find_piece(pieces: list[Piece], feature: str) -> Piece | None:
    """The terrain piece a feature names: by its id, else by its name (letter case aside)."""
    found = next((p for p in pieces if p.uid and p.uid == feature.strip()), None)
    return found or next((p for p in pieces if _same(p.name, feature)), None)


# ---------------------------------------------------------------------------------------
# Battle rounds and the relief force
# ---------------------------------------------------------------------------------------
def round_problem(game: SiegeGame, r: int) -> Refused | None:
    """Why battle round ``r`` may not start now (once, in order, before its first turn)."""
    now = game.current_round
    if r in game.rounds:
        return Refused(
            say("Battle round {round} has already been started; undo that entry to change it.", round=r)
        )
    if r < now or game.turns_in(r):
        return Refused(
            say(
                "Battle round {round} is already under way; its start is recorded before its first turn.",
                round=r,
            )
        )
    if r > now:
        return Refused(
            say(
                "Battle round {round} cannot start yet: battle round {now} is not finished.", round=r, now=now
            )
        )
    return None


def _apply_battle_round(game: SiegeGame, event: dict[str, Any], eid: str) -> None:
    _need_stage(game, "battle", words("A battle round"))
    r, first = event["round"], event.get("first")
    if problem := round_problem(game, r):
        raise problem
    game.rounds[r] = RoundStart(eid, r, first)


def turn_problem(game: SiegeGame, r: int, player: int) -> Refused | None:
    """Why ``player``'s turn of battle round ``r`` may not be recorded now: each player's turn
    once a round, the rounds in order, the first player's turn first."""
    now = game.current_round
    if r < now or any(t.player == player for t in game.turns_in(r)):
        return Refused(
            say(
                "{name} has already taken their turn in battle round {round}.",
                name=game.name(player),
                round=r,
            )
        )
    if r > now:
        return Refused(
            say(
                "Battle round {round} cannot be recorded yet: battle round {now} is not finished.",
                round=r,
                now=now,
            )
        )
    if player not in game.next_players():
        first = game.next_players()[0]
        return Refused(
            say(
                "{name} takes the first turn in battle round {round}, so their turn is recorded first.",
                name=game.name(first),
                round=r,
            )
        )
    return None


def _apply_turn(game: SiegeGame, event: dict[str, Any], eid: str) -> None:
    _need_stage(game, "battle", words("A turn"))
    r, player = event["round"], event["player"]
    if problem := turn_problem(game, r, player):
        raise problem
    game.turns.append(Turn(eid, r, player))


def relief_total(dice: tuple[int, int], round_: int) -> int:
    """The relief roll's score: both dice plus the battle round."""
    return dice[0] + dice[1] + round_


def relief_problem(game: SiegeGame, r: int | None) -> Refused | None:
    """Why no relief roll may be recorded for battle round ``r`` now (``None``: the round is
    checked later, as the event's), or ``None``: it is made inside the defender's turn, once a
    round, until the relief force arrives."""
    if game.scenario.relief is None:
        return Refused(say("{battleplan} has no relief force.", battleplan=game.scenario.name))
    try:
        _need_stage(game, "battle", words("A relief roll"))
    except Refused as exc:
        return exc
    if game.arrived is not None:
        return Refused(
            say(
                "The relief force arrived in battle round {round}; there are no more relief rolls.",
                round=game.arrived,
            )
        )
    if r is None:
        return None
    defender = game.defender
    if r != game.current_round or defender not in game.next_players():
        return Refused(
            say(
                "round: the relief roll is made at the end of the defender's movement phase, inside {name}'s "
                "turn, and battle round {round} is not in it.",
                name=game.name(defender),
                round=r,
            )
        )
    if any(x.round == r for x in game.relief_rolls):
        return Refused(
            say("The relief roll of battle round {round} is already recorded; undo it to change it.", round=r)
        )
    return None


def _apply_relief_roll(game: SiegeGame, event: dict[str, Any], eid: str) -> None:
    relief = game.scenario.relief
    if problem := relief_problem(game, None):
        raise problem
    assert relief is not None  # relief_problem refuses a scenario without a relief force
    r = event["round"]
    dice = event["dice"]
    if problem := relief_problem(game, r):
        raise problem
    total = relief_total((dice[0], dice[1]), r)
    game.relief_rolls.append(ReliefRoll(eid, r, (dice[0], dice[1]), total, total >= relief.target))


def edge_problem(game: SiegeGame) -> Refused | None:
    """Why the relief force's edge may not be rolled now (once, after it arrived), or ``None``."""
    if game.scenario.relief is None:
        return Refused(say("{battleplan} has no relief force.", battleplan=game.scenario.name))
    if game.finished:
        return Refused(say(OVER_NOW))
    if game.arrived is None:
        return Refused(say("die: the edge is rolled once the relief force has arrived."))
    if game.edge is not None:
        return Refused(say("The relief force's edge is already recorded; undo that entry to change it."))
    return None


def _apply_relief_edge(game: SiegeGame, event: dict[str, Any], eid: str) -> None:
    relief = game.scenario.relief
    if problem := edge_problem(game):
        raise problem
    assert relief is not None  # edge_problem refuses a scenario without a relief force
    die = event["die"]
    game.edge = Edge(eid, die, relief.edge(die))


# ---------------------------------------------------------------------------------------
# The end
# ---------------------------------------------------------------------------------------
def siege_result(game: SiegeGame, held: int) -> Result:
    """The result when the attacker controls ``held`` objectives at the end."""
    row = next(r for r in game.scenario.objective_results if r.count == held)
    winner = game.of_side(row.side)
    # The stored reason stays in English (the API's); a screen says it with :func:`reason`.
    return Result(row.kind, winner, _ENDS[(row.kind, row.side)][1].format(**_reason_blanks(game, held)))


# Each result a battleplan may give (its kind, the side it favours), in whole sentences: how
# the battleplan says it ends, and why a battle ended so.
_ENDS = {
    ("major", "attacker"): (
        words("Attacker holds {count} of {total} objectives: major victory for the attacker."),
        words(
            "The attacker controls {held} of {total} objectives: a major victory for the attacker, {name}."
        ),
    ),
    ("minor", "attacker"): (
        words("Attacker holds {count} of {total} objectives: minor victory for the attacker."),
        words(
            "The attacker controls {held} of {total} objectives: a minor victory for the attacker, {name}."
        ),
    ),
    ("major", "defender"): (
        words("Attacker holds {count} of {total} objectives: major victory for the defender."),
        words(
            "The attacker controls {held} of {total} objectives: a major victory for the defender, {name}."
        ),
    ),
    ("minor", "defender"): (
        words("Attacker holds {count} of {total} objectives: minor victory for the defender."),
        words(
            "The attacker controls {held} of {total} objectives: a minor victory for the defender, {name}."
        ),
    ),
}


def holds(kind: str, side: str, count: int, total: int) -> str:
    """How the battleplan ends when the attacker holds ``count`` of ``total`` objectives."""
    return say(_ENDS[(kind, side)][0], count=count, total=total)


def _reason_blanks(game: SiegeGame, held: int) -> dict[str, Any]:
    row = next(r for r in game.scenario.objective_results if r.count == held)
    total = max(r.count for r in game.scenario.objective_results)
    return {"held": held, "total": total, "name": game.name(game.of_side(row.side))}


def reason(game: SiegeGame) -> str | None:
    """Why the battle ended as it did, in the reader's language (``None`` before the end)."""
    if game.ending is None:
        return None
    row = next(r for r in game.scenario.objective_results if r.count == game.ending.attacker_objectives)
    return say(_ENDS[(row.kind, row.side)][1], **_reason_blanks(game, game.ending.attacker_objectives))


def _apply_end(game: SiegeGame, event: dict[str, Any], eid: str) -> None:
    _need_stage(game, "battle", words("The end"))
    counts = sorted(r.count for r in game.scenario.objective_results)
    held = event["attacker_objectives"]
    if not counts[0] <= held <= counts[-1]:
        raise Refused(
            say(
                "attacker_objectives must be a whole number from {low} to {high}.",
                low=counts[0],
                high=counts[-1],
            )
        )
    game.ending = Ending(eid, held, siege_result(game, held))


APPLY = {
    "siege_tactic": _apply_tactic,
    "repick": _apply_repick,
    "contingents": _apply_contingents,
    "objective": _apply_objective,
    "batter": _apply_batter,
    "starve": _apply_starve,
    "tunnel": _apply_tunnel,
    "tunnel_party": _apply_party,
    "battle_round": _apply_battle_round,
    "turn": _apply_turn,
    "relief_roll": _apply_relief_roll,
    "relief_edge": _apply_relief_edge,
    "end": _apply_end,
    "roll": GameState.add_roll,
}

#: Change a game by one event of its type (as :data:`EVENTS` read it); raise ``Refused``.
apply_event = by_type(APPLY)


# ---------------------------------------------------------------------------------------
# Next steps
# ---------------------------------------------------------------------------------------
OVER = "over"
SIEGE_STEPS = ("batter", "starve", "tunnel")


def _after_round(game: SiegeGame, round_: int) -> list[str]:
    """The steps that follow the last turn of a battle round."""
    return [f"round-{round_ + 1}"] if round_ < game.battle_rounds else ["end", OVER]


def _turn_order(game: SiegeGame, round_: int, first: int | None, done: set[int]) -> list[str]:
    """The turns still to come in a round: the first player's, then the others by seat."""
    order = [first] if first is not None and first not in done else []
    order += [i for i in range(game.player_count) if i not in done and i not in order]
    return [f"turn-{round_}-{i}" for i in order]


def next_steps(game: SiegeGame) -> dict[str, Any]:
    """The steps a phone may record next, as plain data for the offline layer (docs/offline.md).

    ``plan``: the step the server expects now, then those that follow it as far as the next
    step whose choice decides the rest; ``steps``: every step from now on, with ``choice`` and
    ``plans`` where a field of its form decides what follows (who takes the first turn).
    Steps are ``tactics`` (each seat's secret pick: what follows needs both, so the server),
    ``batter``, ``starve`` and ``tunnel``, then ``round-R`` and ``turn-R-P`` as in Pitched
    Battles, ``end`` and ``over``. The contingents, the objectives, the tunnel party, the relief
    roll (inside the defender's turn) and its edge are entries beside the steps: they leave the
    plan as it is. ``in_play``: the battle round being played, once the battle has begun.
    """
    if game.finished:
        return {"plan": [OVER], "in_play": None, "steps": {OVER: {}}}
    entries = open_entries(game, None)
    stage = game.stage
    current = game.current_round
    last = game.battle_rounds
    steps: dict[str, dict[str, Any]] = {}
    if stage == "tactics":
        steps["tactics"] = {}
    for step in SIEGE_STEPS[SIEGE_STEPS.index(stage) :] if stage in SIEGE_STEPS else ():
        steps[step] = {}
    for r in range(current, last + 1):
        done = {t.player for t in game.turns_in(r)} if r == current else set()
        if r > current or (r not in game.rounds and not done):
            plans = {
                str(i): _turn_order(game, r, i, done) + _after_round(game, r)
                for i in range(game.player_count)
                if i not in done
            }
            steps[f"round-{r}"] = {"in_play": r, "choice": "first", "plans": plans}
        for i in range(game.player_count):
            if i not in done:
                steps[f"turn-{r}-{i}"] = {"in_play": r}
    steps.update({"end": {"in_play": None}, OVER: {}})
    rolls = [step for step in SIEGE_STEPS if entries[step]["open"]]
    if entries["tactics"]["open"]:
        plan = ["tactics"]
    elif rolls:
        plan = [*SIEGE_STEPS[SIEGE_STEPS.index(rolls[0]) :], "round-1"]
    elif entries["battle_round"]["open"]:
        plan = [f"round-{current}"]
    elif not entries["turn"]["open"]:
        plan = ["end", OVER]
    else:
        done = {t.player for t in game.turns_in(current)}
        start = game.rounds.get(current)
        plan = _turn_order(game, current, start.first if start else None, done) + _after_round(game, current)
        waiting = entries["turn"]["players"]
        if len(waiting) > 1:  # nobody named the first player: the turn form asks whose turn it is
            steps[plan[0]] = {
                "in_play": current,
                "choice": "player",
                "plans": {
                    str(i): _turn_order(game, current, None, done | {i}) + _after_round(game, current)
                    for i in waiting
                },
            }
    in_play = current if stage == "battle" and current <= last else None
    return {"plan": plan, "in_play": in_play, "steps": steps}
