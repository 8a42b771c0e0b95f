"""A club event's results for the outside world: the ranking sites' shape (JSON and CSV, one
line a player with every round) and a plain-text round-by-round summary for a club's website
or chat. Only what is public goes out: a list's faction once the list is revealed, no
sportsmanship ballots, no tokens. The shapes are documented in docs/api.md and stay stable:
fields may be added, never renamed.
"""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING, Any

from app.rules.speech import say
from app.store.club import Snapshot

if TYPE_CHECKING:
    from app.services.club import Events

RANKING_FORMAT = "muster-ranking/1"
ROUND_FIELDS = ("opponent", "table", "vp_for", "vp_against", "tp", "result")


def ranking(svc: Events, snap: Snapshot) -> dict[str, Any]:
    """Standings and results as ranking sites take them: the event, then one entry a player,
    in rank order, each with every round they have a result for."""
    settings = svc.settings(snap)
    pack = svc.packs.get(snap.event.pack)
    names = {p.id: p.name for p in snap.players}
    clubs = {p.id: p.club for p in snap.players}
    players = []
    for row in svc.public_rows(snap):
        rounds = [
            {
                "round": r["round"],
                "opponent": r["opponent"],
                "opponent_name": names.get(r["opponent"]) if r["opponent"] is not None else None,
                "table": r["table"],
                "vp_for": r["vp"][0],
                "vp_against": r["vp"][1],
                "tp": r["tp"],
                "tp_reason": r["tp_reason"],
                "result": r["result"],
            }
            for r in row["rounds"]
        ]
        players.append(
            {
                "rank": row["rank"],
                "player": row["player"],
                "name": row["name"],
                "club": clubs.get(row["player"]),
                "faction": row["faction"],
                "wins": row["wins"],
                "losses": row["losses"],
                "draws": row["draws"],
                "tp": row["total"],
                "vp_for": row["vp_for"],
                "vp_against": row["vp_against"],
                "vp_diff": row["vp_diff"],
                "sos": row["sos"],
                "tied": row["tied"],
                "dropped": row["dropped"],
                **({"soft": row["soft"]} if "soft" in row else {}),
                "rounds": rounds,
            }
        )
    return {
        "format": RANKING_FORMAT,
        "event": {
            "id": snap.event.id,
            "name": snap.event.name,
            "game": pack.name if pack else snap.event.pack,
            "pack": snap.event.pack,
            "points_limit": snap.event.points_limit,
            "rounds": snap.event.rounds,
            "rounds_paired": len(snap.rounds),
            "date": snap.event.created[:10],
            "scoring": settings.scoring.as_dict(),
            "tie_breaks": list(settings.tie_breaks),
            "order": settings.order_words(),
        },
        "players": players,
    }


def ranking_csv(svc: Events, snap: Snapshot) -> str:
    """The ranking as CSV: one line a player; for each round of the event (1 to its rounds),
    ``r<n>_opponent``, ``r<n>_table``, ``r<n>_vp_for``, ``r<n>_vp_against``, ``r<n>_tp``,
    ``r<n>_result`` (blank when there is none yet)."""
    data = ranking(svc, snap)
    head = [
        "rank",
        "player",
        "name",
        "club",
        "faction",
        "wins",
        "losses",
        "draws",
        "tp",
        "vp_for",
        "vp_against",
        "vp_diff",
        "sos",
        "dropped",
    ]
    numbers = range(1, snap.event.rounds + 1)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(head + [f"r{n}_{f}" for n in numbers for f in ROUND_FIELDS])
    for player in data["players"]:
        cells = [_cell(player[k] if k != "dropped" else ("yes" if player[k] else "no")) for k in head]
        by_round = {r["round"]: r for r in player["rounds"]}
        for n in numbers:
            r = by_round.get(n)
            if r is None:
                cells += [""] * len(ROUND_FIELDS)
                continue
            opponent = r["opponent_name"] or ("bye" if r["result"] == "bye" else "missed")
            cells += [_cell(opponent), r["table"] or "", r["vp_for"], r["vp_against"], r["tp"], r["result"]]
        writer.writerow(cells)
    return out.getvalue()


def _cell(value: Any) -> Any:
    """A CSV cell that a spreadsheet will not run as a formula (a name may start with =)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return "" if value is None else value


def summary(svc: Events, snap: Snapshot) -> str:
    """Round by round in plain text: each table's result and TP, the bye, then the standings."""
    pack = svc.packs.get(snap.event.pack)
    settings = svc.settings(snap)
    names = {p.id: p.name for p in snap.players}
    lines = [
        snap.event.name,
        say(
            "{pack} · {points:,} points · {rounds} rounds · {day}",
            pack=pack.name if pack else snap.event.pack,
            points=snap.event.points_limit,
            rounds=snap.event.rounds,
            day=snap.event.created[:10],
        ),
        say("Ranked by {order}.", order=settings.order_words()),
        settings.scoring.describe(),
    ]
    for paired in snap.rounds:
        found = pack.scenario(paired.scenario) if pack else None
        scenario = found.name if found else paired.scenario
        lines += ["", say("Round {number} · {scenario}", number=paired.number, scenario=scenario)]
        for table in svc.tables_of(snap, paired.number):
            if table.player_b is None:
                lines.append("  " + say("Bye: {name}", name=names.get(table.player_a)))
                continue
            a, b = names.get(table.player_a), names.get(table.player_b)
            result = svc.result_of(snap, table)
            if result is None:
                lines.append("  " + say("Table {number}: {a} v {b} · playing", number=table.number, a=a, b=b))
                continue
            given = svc.award(snap, result)
            if result.winner is None:
                who = say("draw")
            else:
                who = say("{name} wins", name=names.get(result.players[result.winner]))
            score = {
                "number": table.number,
                "a": a,
                "b": b,
                "vp_a": result.vp[0],
                "vp_b": result.vp[1],
                "outcome": who,
                "tp_a": given.tp[0],
                "tp_b": given.tp[1],
            }
            if result.final:
                said = say(
                    "Table {number}: {a} {vp_a:,} – {vp_b:,} {b} · {outcome} · TP {tp_a}–{tp_b}", **score
                )
            else:
                said = say(
                    "Table {number}: {a} {vp_a:,} – {vp_b:,} {b} · {outcome} · TP {tp_a}–{tp_b} (to confirm)",
                    **score,
                )
            lines.append("  " + said)
    rows = svc.public_rows(snap)
    if rows:
        done = len(snap.rounds)
        lines += ["", say("Standings after round {number}", number=done) if done else say("Players")]
        for row in rows:
            faction = f" ({row['faction']})" if row["faction"] else ""
            record = f"{row['wins']}-{row['losses']}-{row['draws']}"
            mark = "=" if row["tied"] and snap.results else ""
            line = {
                "rank": f"{row['rank']}{mark}",
                "name": f"{row['name']}{faction}",
                "record": record,
                "tp": row["total"],
                "diff": row["vp_diff"],
                "sos": row["sos"],
            }
            if row["dropped"]:
                said = say(
                    "{rank}. {name} · {record} · {tp} TP · VP {diff:+,} · SOS {sos:g} · dropped", **line
                )
            else:
                said = say("{rank}. {name} · {record} · {tp} TP · VP {diff:+,} · SOS {sos:g}", **line)
            lines.append("  " + said)
    return "\n".join(lines) + "\n"
