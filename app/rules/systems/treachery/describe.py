"""What a multiplayer game says about itself: the facts players record, the scoring lines, the summary.

The summary is public: a player's ploys appear only as ``ploys_held`` (a count) unless the
summary is asked for that player's seat, which adds their ``ploys`` (ids) and contingents
(everyone's once their reinforcements are on the table); a ploy given in a deal is named only
to its giver's and its receiver's seats.
"""

from __future__ import annotations

from typing import Any

from app.rules import pack as p
from app.rules.facts import FactSpec
from app.rules.speech import say, told
from app.rules.systems.treachery import section
from app.rules.systems.treachery.plan import reminder
from app.rules.systems.treachery.state import Deal, TreacheryGame


def facts(pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
    """Every fact a player records in this scenario, by event type (kinds in docs/api.md)."""
    out: list[FactSpec] = []
    arriving = [o for o in scenario.objectives if o.placed_by_roll == "d6"]
    if arriving:
        rounds = sorted({o.from_round for o in arriving})
        out.append(
            FactSpec(
                "arrivals",
                "battle_round",
                "arrivals",
                say("Objectives arriving: the die rolled and where each is set up"),
                from_round=rounds[0],
                until_round=rounds[-1],
            )
        )
    if scenario.objectives:
        out.append(
            FactSpec("control", "turn", "control", say("Who controls each objective at the end of the turn"))
        )
    for block in scenario.scoring:
        if isinstance(block, section.ObjectiveDice):
            out.append(
                FactSpec(
                    "dice",
                    "turn",
                    "dice",
                    say("The D{faces} of VP rolled for each objective held", faces=block.die),
                )
            )
        elif isinstance(block, section.ZoneDice):
            out.append(
                FactSpec(
                    "zones",
                    "turn",
                    "zones",
                    say("Each zone held alone: its holder and the D{faces} of VP", faces=block.die),
                )
            )
    checks = [c.check for c in pack.victory(scenario).order] if scenario.playable else []
    if "monolith" in checks:
        out.append(
            FactSpec(
                "monolith", "end", "player", say("Player controlling the monolith"), none_label=say("Nobody")
            )
        )
        out.append(
            FactSpec(
                "closest", "end", "players", say("Players with a model closest to the monolith (tied: each)")
            )
        )
    if "ranking" in checks:
        out.append(
            FactSpec(
                "tie_break",
                "end",
                "players",
                say("Players tied on VP, in the order their roll-off placed them"),
            )
        )
    if scenario.renown:
        out.append(
            FactSpec("renown", "end", "renown", say("Units gaining bonus renown"), hint=told(scenario.renown))
        )
    return out


def scoring(pack: p.Pack, scenario: p.Scenario) -> list[str]:
    """One short sentence per way the scenario gives VP or decides the battle."""
    lines: list[str] = []
    for block in scenario.scoring:
        if isinstance(block, section.DestroyedPoints):
            lines.append(
                say(
                    "Destroying a unit: {vp} VP per full {points} points it cost, to the destroyer.",
                    vp=block.vp,
                    points=block.per_points,
                )
            )
        elif isinstance(block, section.TurnEndControl):
            found = scenario.objective(block.objective)
            label = found.label if found else block.objective
            if block.vp == "round":
                line = say(
                    "End of every turn: VP equal to the battle round to the player controlling the {objective}.",
                    objective=label,
                )
            else:
                line = say(
                    "End of every turn: {vp} VP to the player controlling the {objective}.",
                    vp=block.vp,
                    objective=label,
                )
            lines.append(line)
        elif isinstance(block, section.ObjectiveDice):
            lines.append(
                say("End of every turn: a D{faces} of VP for each objective a player holds.", faces=block.die)
            )
        elif isinstance(block, section.ZoneDice):
            lines.append(
                say(
                    "End of every turn: a D{faces} of VP for each {zone}.",
                    faces=block.die,
                    zone=told(block.zones),
                )
            )
    if pack.treachery and pack.treachery.deals:
        lines.append(say("Deals may move VP from one player to another."))
    checks = [c.check for c in pack.victory(scenario).order] if scenario.playable else []
    if "ranking" in checks:
        lines.append(
            say(
                "At the end every player is ranked by VP (ties by roll-off): first wins a major victory, second a minor one."
            )
        )
    if "monolith" in checks:
        lines.append(
            say(
                "At the end the player controlling the monolith wins a major victory; else the single player "
                "with the closest model a minor one; else it is a draw."
            )
        )
    return lines


def _player(game: TreacheryGame, i: int, seat: int | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": game.name(i),
        "vp": game.vp(i),
        "cp": game.cp[i],
        "ploys_held": len(game.ploys(i)),
        "vp_breakdown": game.breakdown(i),
        "contingents": i in game.contingents,
    }
    if seat == i:
        out["ploys"] = list(game.ploys(i))
    if i in game.contingents and (seat == i or game.contingents_shown(i)):
        out["contingent_units"] = game.contingents[i].as_dict()
    return out


def _deal(game: TreacheryGame, d: Deal, seat: int | None) -> dict[str, Any]:
    """A deal as ``seat`` sees it: a ploy given shows which only to the giver and the receiver."""
    out: dict[str, Any] = {"event": d.event, "round": d.round, "from": d.giver, "to": d.receiver}
    out |= {"cp": d.cp, "vp": d.vp, "note": d.note, "gives_ploy": d.ploy is not None}
    if d.ploy is not None and seat in (d.giver, d.receiver):
        found = game.rules.ploy(d.ploy)
        out |= {"ploy": d.ploy, "ploy_name": found.name if found else d.ploy}
    return out


def _pick(game: TreacheryGame) -> dict[str, Any] | None:
    pick = game.current_pick()
    if pick is None:
        return None
    phase = game.rules.phase(pick.phase)
    return {
        "event": pick.event,
        "round": pick.round,
        "player": pick.player,
        "phase": pick.phase,
        "phase_name": phase.name if phase else pick.phase,
        "enemy": pick.enemy,
        "neutral": list(pick.neutral),
        "neutral_rule": phase.neutral if phase else None,
        "bonus_open": game.open_pick == pick.event,
    }


def summary(game: TreacheryGame, seat: int | None = None) -> dict[str, Any]:
    """The game as the API answers it (docs/api.md); ``seat`` adds that player's own secrets."""
    current = game.current_round
    last = game.last_round
    pick = _pick(game)
    plays = [
        {
            "event": pl.event,
            "round": pl.round,
            "player": pl.player,
            "ploy": pl.ploy,
            "name": (found.name if (found := game.rules.ploy(pl.ploy)) else pl.ploy),
            "cancels": pl.cancels,
            "cancelled_by": game.cancelled.get(pl.event),
        }
        for pl in game.plays
    ]
    out: dict[str, Any] = {
        "status": game.status,
        "battle_rounds": last,
        "round": min(current, last),
        "next": None if game.finished else {"round": current, "players": game.waiting()},
        "seated": True,
        "seat": seat,
        "players": [_player(game, i, seat) for i in range(game.player_count)],
        "active": game.active,
        "phase": pick["phase"] if pick else None,
        "enemy": pick,
        "reminder": reminder(game, current) if not game.turns_complete else None,
        "phases": [{"id": ph.id, "name": ph.name, "neutral": ph.neutral} for ph in game.rules.phases],
        "turn_order": [{"round": r, "order": game.order(r)} for r in range(1, min(current, last) + 1)],
        "rounds": [
            {"event": s.event, "round": s.round, "standing": list(s.standing), "buy_limits": list(s.limits)}
            for s in sorted(game.rounds.values(), key=lambda s: s.round)
        ],
        "turns": [
            {
                "event": t.event,
                "round": t.round,
                "player": t.player,
                "control": t.control,
                "dice": t.dice,
                "zones": [{"player": who, "die": die} for who, die in t.zones],
                "vp": t.vp,
                "breakdown": [a.as_dict() for a in t.awards],
            }
            for t in game.turns
        ],
        "awards": [a.as_dict() for a in game.awards],
        "deals": [_deal(game, d, seat) for d in game.deals],
        # Who gained a ploy and how, never which: that is the holder's secret until played.
        "gains": [
            {"event": g.event, "round": g.round, "player": g.player, "how": g.how, "roll": g.roll}
            for g in game.gains
        ],
        "discards": [{"event": d.event, "round": d.round, "player": d.player} for d in game.discards],
        "plays": plays,
        "picks": [
            {"event": pk.event, "round": pk.round, "player": pk.player, "phase": pk.phase, "enemy": pk.enemy}
            for pk in game.picks
        ],
        "roll_offs": [r.as_dict() for r in game.roll_offs],
        "destroyed": [
            {
                "event": d.event,
                "round": d.round,
                "by": d.by,
                "owner": d.owner,
                "unit": d.unit,
                "points": d.points,
                "vp": d.vp,
            }
            for d in game.destroyed
        ],
        "objectives": [
            {
                "id": o.id,
                "label": o.label,
                "from_round": o.from_round,
                "in_play": o.from_round <= min(current, last),
                "arrival": next(
                    (
                        {"round": a.round, "die": a.die, "position": a.position}
                        for a in game.arrivals
                        if a.objective == o.id
                    ),
                    None,
                ),
            }
            for o in game.scenario.objectives
        ],
        "renown": [{"player": who, "unit": unit} for who, unit in game.end.renown] if game.end else [],
        "rolls": [r.as_dict() for r in game.rolls],
        "result": game.result.as_dict() if game.result else None,
    }
    if seat is not None and 0 <= seat < game.player_count:
        out["gained"] = [
            {"event": g.event, "round": g.round, "ploy": g.ploy, "how": g.how, "cost": g.cost}
            for g in game.gains
            if g.player == seat
        ]
    return out
