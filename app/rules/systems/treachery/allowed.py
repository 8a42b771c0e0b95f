"""What may be recorded now in a multiplayer game, and why not the rest: each rule once.

Every rule on *when* an entry may be made and *by whom* lives here: :mod:`.events` asks it
before it changes a game (each answer a :class:`~app.rules.log.Refused` naming its rule), and
the table and seat screens render from :func:`open_entries`, so they offer only what the rules
take now, or say why not. Readings Muster takes are in docs/api.md (Triumph & Treachery).
"""

from __future__ import annotations

from typing import Any

from app.rules.log import Refused, open_entry
from app.rules.speech import listed, say, say_plural
from app.rules.systems.treachery import section
from app.rules.systems.treachery.state import Pick, Play, RollOff, TreacheryGame


def _ploy_name(game: TreacheryGame, ploy_id: str) -> str:
    found = game.rules.ploy(ploy_id)
    return found.name if found else ploy_id


# --- buying ploys: Start of Round Ploys -------------------------------------------------------
def open_pick(game: TreacheryGame) -> Pick | None:
    """The enemy pick whose bonus rolls may still be recorded, if any."""
    return next((pk for pk in game.picks if pk.event == game.open_pick), None)


def bonus_problem(game: TreacheryGame, player: int) -> Refused | None:
    """Why ``player`` may not roll for a bonus ploy now: right after an enemy pick, once, and
    only a neutral player (neither the one taking the turn nor their enemy)."""
    pick = open_pick(game)
    if pick is None:
        return Refused(
            say("type: a bonus ploy is rolled right after an enemy pick; record the pick first."),
            "bonus-after-pick",
        )
    who = game.name(player)
    if player == pick.player:
        return Refused(
            say("player: {name} is taking the turn and is not neutral, so rolls no bonus ploy.", name=who),
            "bonus-neutral",
        )
    if player == pick.enemy:
        return Refused(
            say("player: {name} is the enemy this phase, not neutral, so rolls no bonus ploy.", name=who),
            "bonus-neutral",
        )
    if any(g.pick == pick.event and g.player == player for g in game.gains):
        return Refused(
            say("player: {name} has already rolled for a bonus ploy after this enemy pick.", name=who),
            "bonus-once",
        )
    return None


def bonus_needs(bonus: section.BonusPloy, players: int) -> int:
    """The least D6 that wins a neutral player a bonus ploy at this many players."""
    return bonus.three_players if players == 3 else bonus.more_players


def buying(game: TreacheryGame, r: int) -> Refused | None:
    """Ploys are bought once the round has started and before the roll-off that decides who
    goes first; where none is recorded, the round's first enemy pick, play or turn ends buying."""
    if r not in game.rounds:
        return Refused(
            say(
                "round: ploys are bought once round {round} has started; record its battle_round first.",
                round=r,
            ),
            "round",
        )
    if game.turns_in(r):
        return Refused(
            say("round: ploys are bought before round {round}'s first turn, which is recorded.", round=r),
            "round",
        )
    if any(ro.round == r and ro.purpose == "order" for ro in game.roll_offs):
        return Refused(
            say(
                "round: ploys are bought before the roll-off for round {round}'s first turn, which is recorded.",
                round=r,
            ),
            "buy-before-roll-off",
        )
    if any(pk.round == r for pk in game.picks) or any(pl.round == r for pl in game.plays):
        return Refused(
            say(
                "round: ploys are bought before round {round}'s first roll-off, and its first turn is under way "
                "(an enemy pick or a ploy played is recorded).",
                round=r,
            ),
            "buy-before-roll-off",
        )
    return None


def gaining(game: TreacheryGame, player: int, ploy: section.Ploy, period: tuple[int, int]) -> Refused | None:
    """The restrictions on every ploy gained: not twice in a turn, not two held, not past the most held."""
    who = game.name(player)
    if any(g.player == player and g.ploy == ploy.id and g.period == period for g in game.gains):
        return Refused(
            say(
                "ploy: {name} has already gained {ploy} this turn; a ploy is gained once a turn.",
                name=who,
                ploy=ploy.name,
            ),
            "same-ploy",
        )
    held = game.ploys(player)
    if ploy.id in held:
        return Refused(
            say(
                "ploy: {name} already holds {ploy}; nobody holds two of the same ploy.",
                name=who,
                ploy=ploy.name,
            ),
            "held-twice",
        )
    most = game.rules.max_held or 0
    if len(held) >= most:
        return Refused(
            say_plural(
                "ploy: {name} already holds {count} ploy, the most allowed; discard it first.",
                "ploy: {name} already holds {count} ploys, the most allowed; discard one first.",
                most,
                name=who,
            ),
            "max-held",
        )
    return None


def buy_problem(game: TreacheryGame, player: int, ploy: section.Ploy) -> Refused | None:
    """Why ``player`` may not buy ``ploy`` now (its round's buying still open), or ``None``."""
    r = game.current_round
    closed = buying(game, r)
    if closed is not None:
        return closed
    who = game.name(player)
    bought = [g for g in game.gains if g.player == player and g.how == "buy" and g.round == r]
    limit = game.rounds[r].limits[player]
    if len(bought) >= limit:
        return Refused(
            say_plural(
                "ploy: {name} may buy {count} ploy this round by their standing at its start.",
                "ploy: {name} may buy {count} ploys this round by their standing at its start.",
                limit,
                name=who,
            ),
            "buy-limit",
        )
    table = next(t for t in game.rules.ploy_tables if t.id == ploy.table)
    tables = {found.table for g in bought if (found := game.rules.ploy(g.ploy))}
    if not table.repeatable and table.id in tables:
        again = listed([t.name for t in game.rules.ploy_tables if t.repeatable], either=True)
        said = (
            say(
                "ploy: {name} has already bought from the {table} table this turn; only {again} may be bought from twice.",
                name=who,
                table=table.name,
                again=again,
            )
            if again
            else say(
                "ploy: {name} has already bought from the {table} table this turn; no table may be bought from twice.",
                name=who,
                table=table.name,
            )
        )
        return Refused(said, "same-table")
    # The purchases before a round's first turn count as a turn of their own.
    gained = gaining(game, player, ploy, (r, -1))
    if gained is not None:
        return gained
    if ploy.cost > game.cp[player]:
        return Refused(
            say(
                "ploy: {ploy} costs {cost} CP and {name} holds {held}.",
                ploy=ploy.name,
                cost=ploy.cost,
                name=who,
                held=game.cp[player],
            ),
            "cp",
        )
    return None


# --- enemy picks and Allies of Convenience -----------------------------------------------------
def _had_turn(game: TreacheryGame, player: int) -> Refused:
    return Refused(
        say(
            "player: {name} has already had their turn in round {round}.",
            name=game.name(player),
            round=game.current_round,
        ),
        "player",
    )


def _repicks(game: TreacheryGame, pick: Pick) -> list[Play]:
    """The plays still in force that sent the active player to pick again after ``pick``."""
    out = []
    for pl in game.plays:
        found = game.rules.ploy(pl.ploy)
        if pl.pick == pick.event and found and found.repick and pl.event not in game.cancelled:
            out.append(pl)
    return out


def picking(game: TreacheryGame, player: int, phase: str) -> tuple[Refused | None, set[int]]:
    """Whether ``player`` may pick an enemy for ``phase`` now, and who may not be picked.

    One pick per phase of a turn, unless the enemy of that pick has just played a ploy that
    sends the active player to pick again (Allies of Convenience): then the new pick names
    someone who did not play it.
    """
    if player not in game.waiting():
        return _had_turn(game, player), set()
    if game.active is not None and game.active != player:
        return Refused(
            say(
                "player must be {name}, whose turn it is; record their turn first.",
                name=game.name(game.active),
            ),
            "player",
        ), set()
    earlier = [pk for pk in game.turn_picks() if pk.phase == phase]
    if not earlier:
        return None, set()
    current = game.current_pick()
    last = earlier[-1]
    name = game.rules.phase(phase).name if game.rules.phase(phase) else phase  # type: ignore[union-attr]
    if current is not last or not _repicks(game, last):
        redirect = next((pl for pl in game.rules.ploys if pl.repick), None)
        blanks = {"name": game.name(player), "enemy": game.name(last.enemy), "phase": name}
        said = (
            say(
                "phase: {name} has already picked {enemy} as the enemy for the {phase} phase of this turn; "
                "only {ploy} played by {enemy} lets them pick again.",
                ploy=redirect.name,
                **blanks,
            )
            if redirect
            else say(
                "phase: {name} has already picked {enemy} as the enemy for the {phase} phase of this turn.",
                **blanks,
            )
        )
        return Refused(said, "one-pick-per-phase"), set()
    refused = {pl.player for pk in earlier for pl in _repicks(game, pk)}
    return None, refused


def pick_problem(game: TreacheryGame, player: int, phase: str, enemy: int) -> Refused | None:
    """Why ``player`` may not pick ``enemy`` for ``phase`` now, or ``None`` (the fields are read)."""
    problem, barred = picking(game, player, phase)
    if problem is not None:
        return problem
    if enemy == player:
        return Refused(say("enemy must be another player than the one whose turn it is."), "enemy")
    if enemy in barred:
        ploy = next((pl.name for pl in game.rules.ploys if pl.repick), None) or say("their ploy")
        return Refused(
            say(
                "enemy: {enemy} played {ploy}, so {name} picks another player as the enemy this phase.",
                enemy=game.name(enemy),
                ploy=ploy,
                name=game.name(player),
            ),
            "allies-of-convenience",
        )
    return None


# --- playing ploys ---------------------------------------------------------------------------
def play_problem(game: TreacheryGame, player: int, ploy: section.Ploy) -> Refused | None:
    """Why ``player`` may not play ``ploy`` now, or ``None``: it must be held; Misheard Orders
    answers another's play just made; a ploy's ``who`` says who may play it."""
    who = game.name(player)
    if ploy.id not in game.ploys(player):
        return Refused(say("ploy: {name} holds no {ploy} to play.", name=who, ploy=ploy.name), "ploy")
    if ploy.cancels:
        last = next((pl for pl in game.plays if pl.event == game.just_played), None)
        if last is None or last.player == player:
            return Refused(
                say(
                    "ploy: {ploy} cancels a ploy another player has just played; record it right after that play.",
                    ploy=ploy.name,
                ),
                "cancel-just-played",
            )
    pick = game.current_pick()
    active = pick.player if pick is not None else game.active
    if ploy.who == "enemy":
        if pick is None:
            return Refused(
                say(
                    "ploy: {ploy} is played by the player just picked as the enemy, and no enemy pick is in force.",
                    ploy=ploy.name,
                ),
                "enemy-only",
            )
        if player != pick.enemy:
            return Refused(
                say(
                    "ploy: {ploy} is played by the player just picked as the enemy, {enemy}, not by {name}.",
                    ploy=ploy.name,
                    enemy=game.name(pick.enemy),
                    name=who,
                ),
                "enemy-only",
            )
        if _repicks(game, pick):
            return Refused(
                say("ploy: {ploy} has already been played against this enemy pick.", ploy=ploy.name),
                "enemy-only",
            )
    elif ploy.who == "neutral":
        if player == active:
            return Refused(
                say(
                    "ploy: {ploy} is for neutral players, and {name} is taking the turn.",
                    ploy=ploy.name,
                    name=who,
                ),
                "neutral-only",
            )
        if pick is not None and player == pick.enemy:
            return Refused(
                say(
                    "ploy: {ploy} is for neutral players, and {name} is the enemy this phase.",
                    ploy=ploy.name,
                    name=who,
                ),
                "neutral-only",
            )
    elif ploy.who == "active" and active is not None and player != active:
        return Refused(
            say(
                "ploy: {ploy} is for the player taking the turn, {active}, not {name}.",
                ploy=ploy.name,
                active=game.name(active),
                name=who,
            ),
            "active-only",
        )
    return None


# --- deals -----------------------------------------------------------------------------------
def dealing(game: TreacheryGame) -> Refused | None:
    """Deals are made at the start of a turn, before anything else: not once the turn has had
    an enemy pick or a ploy played (a ploy played before the round's first turn counts in it)."""
    if game.turn_picks():
        pick = game.turn_picks()[0]
        return Refused(
            say(
                "round: deals are made at the start of a turn, and {name}'s turn already has an enemy pick.",
                name=game.name(pick.player),
            ),
            "deal-start-of-turn",
        )
    if game.turn_plays():
        return Refused(
            say(
                "round: deals are made at the start of a turn, and a ploy has already been played in this turn."
            ),
            "deal-start-of-turn",
        )
    return None


def give_problem(game: TreacheryGame, giver: int, receiver: int, ploy: section.Ploy) -> Refused | None:
    """Why ``giver`` may not give ``ploy`` to ``receiver`` in a deal now, or ``None``: the giver
    holds it, and the receiver gains it under every restriction on gaining a ploy."""
    if ploy.id not in game.ploys(giver):
        return Refused(
            say("ploy: {name} holds no {ploy} to give.", name=game.name(giver), ploy=ploy.name), "ploy"
        )
    return gaining(game, receiver, ploy, game.period())


# --- rounds, turns and the end -----------------------------------------------------------------
#: The entry of :func:`open_entries` each event type belongs to: closed, it refuses the event.
ENTRIES = {"deal": "deal"}


def round_problem(game: TreacheryGame, r: int) -> Refused | None:
    """Why round ``r`` (the round being played) may not start now: once, before its first turn."""
    if r in game.rounds:
        return Refused(
            say("round {round} has already started: its battle_round is recorded.", round=r), "round"
        )
    if game.turns_in(r):
        return Refused(
            say("round {round} has already had a turn; a battle_round comes before the first.", round=r),
            "round",
        )
    return None


def turn_problem(game: TreacheryGame, player: int) -> Refused | None:
    """Why ``player``'s turn may not be recorded now, or ``None``: once a turn-order roll-off has
    named who goes next, only that player's turn comes next."""
    if player not in game.waiting():
        return _had_turn(game, player)
    if game.named is not None and game.named != player:
        return Refused(
            say(
                "player: the roll-off sent {name} to take the next turn; record {name}'s turn first.",
                name=game.name(game.named),
            ),
            "turn-order",
        )
    return None


def ranking_roll_offs(game: TreacheryGame) -> list[RollOff]:
    """The ranking roll-offs that place players tied on VP: for each group of tied players
    who rolled off, the latest decided throw (a throw after a tie decides its first throw's)."""
    vp = [game.vp(i) for i in range(game.player_count)]
    latest: dict[tuple[int, ...], RollOff] = {}
    for ro in game.roll_offs:
        if ro.purpose != "ranking" or ro.winner is None or len(ro.among) < 2:
            continue
        if len({vp[i] for i in ro.among}) == 1:
            latest[ro.among] = ro
    return list(latest.values())


def tie_break_problem(game: TreacheryGame, order: list[int]) -> Refused | None:
    """Why ``order`` (the tied players, first to last) contradicts a ranking roll-off, or ``None``."""
    place = {who: i for i, who in enumerate(order)}
    for ro in ranking_roll_offs(game):
        assert ro.winner is not None
        beaten = [i for i in ro.among if i != ro.winner and i in place and ro.winner in place]
        late = [i for i in beaten if place[i] < place[ro.winner]]
        if late:
            return Refused(
                say(
                    "tie_break: {winner} won the ranking roll-off against {others}, so {winner} comes before {late}.",
                    winner=game.name(ro.winner),
                    others=listed([game.name(i) for i in ro.among if i != ro.winner]),
                    late=listed([game.name(i) for i in late]),
                ),
                "tie-break-roll-off",
            )
    return None


def tie_order(game: TreacheryGame, tied: list[int]) -> list[int]:
    """The tied players in an order the recorded ranking roll-offs allow (by seat where they say nothing)."""
    above: dict[int, set[int]] = {i: set() for i in tied}  # who must come before each player
    for ro in ranking_roll_offs(game):
        for i in ro.among:
            if i != ro.winner and i in above and ro.winner in above:
                above[i].add(ro.winner)  # type: ignore[arg-type]
    order: list[int] = []
    left = list(tied)
    while left:
        free = next((i for i in left if not above[i] & set(left)), left[0])
        order.append(free)
        left.remove(free)
    return order


# --- what a screen offers ----------------------------------------------------------------------
def reason(problem: Refused | None) -> str | None:
    """A refusal as a screen shows it beside what it refuses (``None``: nothing refused)."""
    return problem.reason if problem is not None else None


def open_entries(game: TreacheryGame, seat: int | None) -> dict[str, Any]:
    """What may be recorded now from ``seat`` (``None``: the table screen), and why not the rest.

    ``deal``, ``enemy``, ``tie_order`` and ``bonus_needs`` are for every screen; ``buy``,
    ``bonus`` and ``hand`` only for a seat, whose own hand they read (nothing here reads another
    player's). Each ``why`` is the sentence the rules would refuse with (``None``: open); the
    buy's ``said`` is the one its screen shows, once the round has started (before, the step
    tells the players to start it).
    """
    playing = not game.finished and not game.turns_complete
    r = game.current_round
    done = Refused(say("Every battle round is played; record the end of the battle."), "round")
    out: dict[str, Any] = {
        "battle_round": open_entry(round_problem(game, r) if playing else done, round=r),
        # Who may take the next turn (``first``: the player a roll-off or an enemy pick named).
        "turn": {
            "open": playing,
            "round": r,
            "players": game.waiting() if playing else [],
            "first": game.active if playing else None,
        },
        "deal": _deal_entries(game, seat, playing),
        "enemy": _enemy_entries(game, playing),
    }
    vp = [game.vp(i) for i in range(game.player_count)]
    tied = [i for i in range(game.player_count) if vp.count(vp[i]) > 1]
    out["tie_order"] = tie_order(game, tied)
    bonus_ploy = game.rules.bonus_ploy
    out["bonus_needs"] = bonus_needs(bonus_ploy, game.player_count) if bonus_ploy is not None else None
    if seat is None or not 0 <= seat < game.player_count:
        return out
    closed = buying(game, r) if playing else Refused(say("The battle is over."), "end")
    if not game.rules.ploys:
        closed = Refused(say("This game has no ploys."), "ploy")
    out["buy"] = open_entry(
        closed,
        said=reason(closed) if r in game.rounds and game.rules.ploys else None,
        limit=game.rounds[r].limits[seat] if closed is None else None,
        ploys={pl.id: reason(buy_problem(game, seat, pl)) for pl in game.rules.ploys}
        if closed is None
        else {},
    )
    pick = open_pick(game)
    bonus = game.rules.bonus_ploy is not None and pick is not None and seat in pick.neutral
    out["bonus"] = {
        "open": game.rules.bonus_ploy is not None and bonus_problem(game, seat) is None,
        "ploys": {pl.id: reason(gaining(game, seat, pl, game.period())) for pl in game.rules.ploys}
        if bonus
        else {},
    }
    hand = {}
    for ploy_id in game.ploys(seat):
        found = game.rules.ploy(ploy_id)
        hand[ploy_id] = reason(play_problem(game, seat, found)) if found and playing else None
    out["hand"] = hand
    return out


def _deal_entries(game: TreacheryGame, seat: int | None, playing: bool) -> dict[str, Any]:
    if not game.rules.deals or not playing:
        return {"open": False, "why": None, "givers": [], "ploys": {}}
    closed = dealing(game)
    givers = list(range(game.player_count)) if seat is None else [seat]
    # A ploy is given from the giver's own seat only: the table never sees a hand.
    ploys = {}
    if seat is not None and 0 <= seat < game.player_count:
        ploys = {ploy_id: _ploy_name(game, ploy_id) for ploy_id in game.ploys(seat)}
    return open_entry(closed, givers=givers, ploys=ploys)


def _enemy_entries(game: TreacheryGame, playing: bool) -> dict[str, Any]:
    """Which phases an enemy may be picked for now, by whom, and who may be picked."""
    if not playing or not game.waiting():
        return {"open": False, "player": None, "phases": {}, "barred": [], "again": None}
    player = game.active
    phases: dict[str, str | None] = {}
    barred: set[int] = set()
    again = None
    for ph in game.rules.phases:
        problem, out = (None, set()) if player is None else picking(game, player, ph.id)
        phases[ph.id] = reason(problem)
        if problem is None and out:
            barred, again = out, ph.id
    current = game.current_pick()
    sent_back = _repicks(game, current) if current is not None and again else []
    return {
        "open": any(why is None for why in phases.values()),
        "player": player,
        "phases": phases,
        "barred": sorted(barred),
        # The phase whose pick a ploy just sent back (Allies of Convenience), by whom: pick again.
        "again": again,
        "again_by": sent_back[-1].player if sent_back else None,
        "again_ploy": _ploy_name(game, sent_back[-1].ploy) if sent_back else None,
    }
