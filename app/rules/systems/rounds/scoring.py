"""Round-scored games (Conquest: First Blood): one Victory Phase event a round -> VP and result.

Like the turns system, a game is its set-up plus an append-only event list; this
module folds the events into a :class:`RoundGame` every time and checks one more event. A
Victory Phase records who seized each zone or point, and for each player the markers they
destroyed (or the wounds they dealt), whether they slew the enemy Character Regiment, and the
regiments and officers they destroyed where the scenario scores them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.rules import grid
from app.rules import pack as p
from app.rules.facts import FactSpec
from app.rules.game import GameState, Setup
from app.rules.log import Refused, open_entry
from app.rules.outcome import Award, Result
from app.rules.speech import plural_words, say, told, words
from app.rules.systems.rounds.event_models import EVENTS
from app.rules.systems.turns.sentence import Sentence, said

__all__ = ["EVENTS"]


@dataclass
class PlayerPhase:
    """One player's part of a Victory Phase."""

    markers_destroyed: list[str] = field(default_factory=list)
    marker_wounds: dict[str, int] = field(default_factory=dict)
    character_slain: bool = False
    regiments_destroyed: int = 0
    officers_slain: int = 0
    wiped_out: bool = False
    awards: list[Award] = field(default_factory=list)

    @property
    def vp(self) -> int:
        return sum(a.vp for a in self.awards)

    def as_dict(self) -> dict[str, Any]:
        return {
            "vp": self.vp,
            "breakdown": [{**a.as_dict(), "rule": said(a.rule)} for a in self.awards],
            "markers_destroyed": self.markers_destroyed,
            "marker_wounds": self.marker_wounds,
            "character_slain": self.character_slain,
            "regiments_destroyed": self.regiments_destroyed,
            "officers_slain": self.officers_slain,
            "wiped_out": self.wiped_out,
        }


@dataclass
class VictoryPhase:
    """A round's Victory Phase as recorded, with what it scored."""

    event: str
    round: int
    control: dict[str, int | None]
    players: list[PlayerPhase]
    seized: dict[str, int]


@dataclass
class RoundGame(GameState):
    """Everything a round-scored game's events say, computed afresh on every replay."""

    phases: list[VictoryPhase] = field(default_factory=list)
    destroyed: dict[str, tuple[int, int]] = field(default_factory=dict)  # marker -> (round, by player)
    wounds: dict[tuple[str, int], int] = field(default_factory=dict)  # (marker, player) -> wounds dealt
    holders: dict[str, int | None] = field(default_factory=dict)  # points: who holds each now
    moved: dict[str, grid.Point] = field(default_factory=dict)  # moving markers: where they stand now
    ended: Result | None = None
    won_outright: bool = False  # a win that ignores VP (Tug-of-War's chain from A to B)

    # --- who and what ----------------------------------------------------------------------
    def owner(self, objective: p.Objective) -> int | None:
        """The index of the player an objective is friendly to, if any."""
        if objective.friendly_to is None:
            return None
        for i, player in enumerate(self.setup.players):
            if player.side == objective.friendly_to:
                return i
        return (
            self.pack.sides.index(objective.friendly_to) if objective.friendly_to in self.pack.sides else None
        )

    def objective(self, objective_id: str) -> p.Objective | None:
        return self.scenario.objective(objective_id)

    def kind(self, kind: str) -> list[p.Objective]:
        return [o for o in self.scenario.objectives if o.kind == kind]

    def where(self, objective: p.Objective) -> grid.Point | None:
        return self.moved.get(objective.id, grid.position(objective))

    def marker_reach(self) -> float:
        return self.pack.markers.base_half_width if self.pack.markers else 1.0

    def standing_enemy_markers(self, zone: p.Objective, player: int) -> list[p.Objective]:
        """Markers of the player's enemies still standing in range of the zone (it is contested)."""
        out = []
        for marker in self.kind("marker"):
            owner = self.owner(marker)
            if owner is None or owner == player or marker.id in self.destroyed:
                continue
            if grid.in_zone(self.where(marker), zone, self.marker_reach()):
                out.append(marker)
        return out

    # --- rounds, totals and the end -------------------------------------------------------------
    @property
    def current_round(self) -> int:
        return len(self.phases) + 1

    @property
    def last_round(self) -> int:
        return self.scenario.battle_rounds or 0

    @property
    def result(self) -> Result | None:
        return self.ended

    def vp(self, player: int) -> int:
        return sum(ph.players[player].vp for ph in self.phases)

    def threshold(self) -> int | None:
        victory = self.pack.victory(self.scenario)
        return victory.threshold

    def reinforcements(self, round_: int) -> str | None:
        """The pack's reinforcement rule in force in that round, in a sentence (``None``: none)."""
        found = next((r for r in self.pack.reinforcements if r.covers(round_)), None)
        return told(found.summary).replace("{round}", str(round_)) if found else None

    def end_reminder(self, round_: int) -> str | None:
        """Before the last Victory Phase: the VP that regiments never brought on change.

        Regiments still in reinforcements when the game ends count as destroyed in its final
        round (seed 004), which scores where the scenario pays for destroyed regiments, slain
        officers or the enemy Character Regiment. ``None`` before the last round, or where none
        of those score.
        """
        if round_ != self.last_round:
            return None
        parts = self._off_table_scores()
        if not parts:
            return None
        return say(
            "Round {round} is the last: regiments that never came on from reinforcements are "
            "destroyed now. Record them in this Victory Phase: {scores}.",
            round=round_,
            scores="; ".join(parts),
        )

    def early_end_reminder(self) -> str | None:
        """After a game ended before its last round (a VP threshold): the same reminder.

        Nobody knows beforehand which Victory Phase reaches the threshold, so the players are
        told once it has: undo it and record the regiments never brought on if they change VP.
        """
        if self.ended is None or not self.phases or self.phases[-1].round >= self.last_round:
            return None
        if self.won_outright or any(ph.wiped_out for ph in self.phases[-1].players):
            return None
        parts = self._off_table_scores()
        if not parts:
            return None
        return say(
            "The game ended in round {round}: regiments that never came on count as "
            "destroyed in it. If any did not, undo that Victory Phase and record them: {scores}.",
            round=self.phases[-1].round,
            scores="; ".join(parts),
        )

    def _off_table_scores(self) -> list[str]:
        parts = []
        order = ("regiments-destroyed", "officers-slain", "character-slain")
        for block in sorted(
            (b for b in self.scenario.scoring if b.block in order), key=lambda b: order.index(b.block)
        ):
            if block.block == "regiments-destroyed":
                parts.append(say("each counts as an enemy regiment destroyed ({vp} VP each)", vp=block.vp))
            elif block.block == "officers-slain":
                parts.append(say("count their officers as slain ({vp} VP each)", vp=block.vp))
            elif block.block == "character-slain":
                parts.append(
                    say("an enemy Character Regiment among them counts as slain ({vp} VP)", vp=block.vp)
                )
        return parts


def marker_wounds(pack: p.Pack) -> int:
    """The wounds that destroy an objective marker (the pack's; 5 where it names none)."""
    return pack.markers.wounds if pack.markers else 5


# ---------------------------------------------------------------------------------------
# Scoring blocks for a Victory Phase
# ---------------------------------------------------------------------------------------
@dataclass
class Context:
    """What a block needs to score one player's part of a Victory Phase."""

    game: RoundGame
    phase: VictoryPhase
    player: int

    @property
    def mine(self) -> PlayerPhase:
        return self.phase.players[self.player]

    def zones_seized(self) -> list[p.Objective]:
        return [z for z in self.game.kind("zone") if self.phase.seized.get(z.id) == self.player]

    def destroyed_now(self) -> list[p.Objective]:
        return [
            m
            for m in self.game.kind("marker")
            if self.game.destroyed.get(m.id) == (self.phase.round, self.player)
        ]

    def enemy(self, objective: p.Objective) -> bool:
        owner = self.game.owner(objective)
        return owner is not None and owner != self.player


COUNT_WORDS = {1: words("one"), 2: words("two"), 3: words("three"), 4: words("four")}


def _count_word(n: int) -> str | Sentence:
    """A small count as a word ("two"), said in the reader's language when read."""
    return Sentence(COUNT_WORDS[n]) if n in COUNT_WORDS else str(n)


def _zone_seized(b: Any, c: Context) -> list[Award]:
    return [
        Award(
            Sentence(words('Seizes {zone} ({size}" zone)'), zone=z.label, size=f"{z.diameter:g}")
            if b.diameter
            else Sentence(words("Seizes {zone}"), zone=z.label),
            b.vp,
        )
        for z in c.zones_seized()
        if b.diameter is None or z.diameter == b.diameter
    ]


def _zones_held_bonus(b: Any, c: Context) -> list[Award]:
    if len(c.zones_seized()) >= b.count:
        return [Award(Sentence(words("Seizes {count} or more zones"), count=_count_word(b.count)), b.vp)]
    return []


def _enemy_zone(b: Any, c: Context) -> list[Award]:
    return [
        Award(Sentence(words("Seizes the enemy zone {zone}"), zone=z.label), b.vp)
        for z in c.zones_seized()
        if c.enemy(z)
    ]


def _marker_counts(b: Any, c: Context, marker: p.Objective) -> bool:
    if b.whose == "enemy" and not c.enemy(marker):
        return False
    if b.outside_zones:
        reach = c.game.marker_reach()
        return not any(grid.in_zone(c.game.where(marker), z, reach) for z in c.game.kind("zone"))
    return True


def _marker_destroyed(b: Any, c: Context) -> list[Award]:
    return [
        Award(Sentence(words("Destroyed marker {marker}"), marker=m.label), b.vp)
        for m in c.destroyed_now()
        if _marker_counts(b, c, m)
    ]


def _markers_destroyed_bonus(b: Any, c: Context) -> list[Award]:
    if len(c.destroyed_now()) >= b.count:
        return [
            Award(
                Sentence(words("Destroyed {count} or more markers this round"), count=_count_word(b.count)),
                b.vp,
            )
        ]
    return []


def _zone_bonus_after_marker(b: Any, c: Context) -> list[Award]:
    # The fold is in order, so ``destroyed`` holds only markers down by this Victory Phase.
    down = any(
        c.enemy(m) and c.game.destroyed.get(m.id, (0, None))[1] == c.player for m in c.game.kind("marker")
    )
    if not down:
        return []
    return [
        Award(Sentence(words("Enemy marker down: extra VP for seizing {zone}"), zone=z.label), b.vp)
        for z in c.zones_seized()
    ]


def _character_slain(b: Any, c: Context) -> list[Award]:
    return (
        [Award(Sentence(words("Slew the enemy Character Regiment")), b.vp)] if c.mine.character_slain else []
    )


def _regiments_destroyed(b: Any, c: Context) -> list[Award]:
    n = c.mine.regiments_destroyed
    return [Award(Sentence(words("Enemy regiments destroyed: {count}"), count=n), n * b.vp)] if n else []


def _officers_slain(b: Any, c: Context) -> list[Award]:
    n = c.mine.officers_slain
    return [Award(Sentence(words("Enemy officers slain: {count}"), count=n), n * b.vp)] if n else []


def _moving_markers(c: Context) -> list[p.Objective]:
    return [m for m in c.game.kind("marker") if m.moves_toward_friendly_zone]


def _marker_seized(b: Any, c: Context) -> list[Award]:
    return [
        Award(Sentence(words("Seizes the marker {marker}"), marker=m.label), b.vp)
        for m in _moving_markers(c)
        if c.phase.seized.get(m.id) == c.player
    ]


def _enemy_zone_and_marker(b: Any, c: Context) -> list[Award]:
    marker = any(c.phase.seized.get(m.id) == c.player for m in _moving_markers(c))
    enemy_zone = any(c.enemy(z) for z in c.zones_seized())
    return (
        [Award(Sentence(words("Seizes both the enemy zone and the marker")), b.vp)]
        if marker and enemy_zone
        else []
    )


def _marker_home(b: Any, c: Context) -> list[Award]:
    out = []
    reach = c.game.marker_reach()
    for m in _moving_markers(c):
        for z in c.game.kind("zone"):
            if c.game.owner(z) == c.player and grid.in_zone(c.game.where(m), z, reach):
                out.append(
                    Award(Sentence(words("The marker is in range of your zone {zone}"), zone=z.label), b.vp)
                )
    return out


def _points_held(b: Any, c: Context) -> list[Award]:
    held = [o for o in c.game.kind("point") if c.game.holders.get(o.id) == c.player]
    return (
        [
            Award(
                Sentence.plural(plural_words("Holds {count} point", "Holds {count} points"), len(held)),
                len(held) * b.vp,
            )
        ]
        if held
        else []
    )


def _held_chains(game: RoundGame, player: int) -> list[set[str]]:
    points = game.kind("point")
    where = {o.id: pos for o in points if (pos := grid.position(o)) is not None}
    held = [o.id for o in points if game.holders.get(o.id) == player]
    return grid.chains(held, where, game.scenario.grid or 12)


def _chain_bonus(b: Any, c: Context) -> list[Award]:
    longest = max((len(ch) for ch in _held_chains(c.game, c.player)), default=0)
    return (
        [
            Award(
                Sentence(
                    words("A chain of {length} or more points ({longest})"), length=b.length, longest=longest
                ),
                b.vp,
            )
        ]
        if longest >= b.length
        else []
    )


ROUND_RULES: dict[str, Callable[[Any, Context], list[Award]]] = {
    "zone-seized": _zone_seized,
    "zones-held-bonus": _zones_held_bonus,
    "enemy-zone": _enemy_zone,
    "marker-destroyed": _marker_destroyed,
    "markers-destroyed-bonus": _markers_destroyed_bonus,
    "zone-bonus-after-marker": _zone_bonus_after_marker,
    "character-slain": _character_slain,
    "regiments-destroyed": _regiments_destroyed,
    "officers-slain": _officers_slain,
    "marker-seized": _marker_seized,
    "enemy-zone-and-marker": _enemy_zone_and_marker,
    "marker-home": _marker_home,
    "points-held": _points_held,
    "chain-bonus": _chain_bonus,
}

# Which markers score when destroyed (whose, and whether one in range of a zone counts).
_MARKER_DESTROYED = {
    (True, False): words("{vp} VP for each enemy marker you destroy, in the round it falls."),
    (True, True): words(
        "{vp} VP for each enemy marker you destroy that is not in range of a zone, in the round it falls."
    ),
    (False, False): words("{vp} VP for each marker you destroy, in the round it falls."),
    (False, True): words(
        "{vp} VP for each marker you destroy that is not in range of a zone, in the round it falls."
    ),
}

DESCRIBE: dict[str, Callable[[Any], str]] = {
    "zone-seized": lambda b: (
        say("{vp} VP for each {size}-inch zone you seize.", vp=b.vp, size=f"{b.diameter:g}")
        if b.diameter
        else say("{vp} VP for each zone you seize.", vp=b.vp)
    ),
    "zones-held-bonus": lambda b: say(
        "{vp} VP more for seizing {count} or more zones.", vp=b.vp, count=said(_count_word(b.count))
    ),
    "enemy-zone": lambda b: say("{vp} VP more for seizing the enemy's zone.", vp=b.vp),
    "marker-destroyed": lambda b: say(
        _MARKER_DESTROYED[(b.whose == "enemy", bool(b.outside_zones))], vp=b.vp
    ),
    "markers-destroyed-bonus": lambda b: say(
        "{vp} VP more for destroying {count} or more markers in a round.",
        vp=b.vp,
        count=said(_count_word(b.count)),
    ),
    "zone-bonus-after-marker": lambda b: say(
        "{vp} VP more for each zone you seize once the enemy marker is destroyed.", vp=b.vp
    ),
    "character-slain": lambda b: say(
        "{vp} VP once, in the round you slay the enemy Character Regiment.", vp=b.vp
    ),
    "regiments-destroyed": lambda b: say("{vp} VP for each enemy regiment destroyed in the round.", vp=b.vp),
    "officers-slain": lambda b: say("{vp} VP for each enemy officer slain.", vp=b.vp),
    "marker-seized": lambda b: say("{vp} VP for seizing the marker.", vp=b.vp),
    "enemy-zone-and-marker": lambda b: say(
        "{vp} VP more for seizing both the enemy zone and the marker.", vp=b.vp
    ),
    "marker-home": lambda b: say(
        "{vp} VP each Victory Phase the marker is in range of your own zone.", vp=b.vp
    ),
    "points-held": lambda b: say("{vp} VP for each point you hold.", vp=b.vp),
    "chain-bonus": lambda b: say(
        "{vp} VP more for a chain of {length} or more points.", vp=b.vp, length=b.length
    ),
}


def describe_scoring(pack: p.Pack, scenario: p.Scenario) -> list[str]:
    """One short sentence per scoring block, then how the game ends."""
    lines = [DESCRIBE[b.block](b) for b in scenario.scoring if b.block in DESCRIBE]
    victory = pack.victory(scenario)
    if victory.immediate and victory.immediate.check == "chain" and victory.immediate.link:
        a, b = (scenario.objective(x) for x in victory.immediate.link)
        if a and b:
            lines.append(
                say(
                    "A chain of your points joining {a} and {b} wins at once (counting as {vp} VP).",
                    a=a.label,
                    b=b.label,
                    vp=victory.immediate.counts_as_vp,
                )
            )
    if victory.threshold:
        end = say(
            "The game ends after round {rounds}, or at the end of the round in which a player reaches "
            "{threshold} VP; the most VP wins, level is a draw.",
            rounds=scenario.battle_rounds,
            threshold=victory.threshold,
        )
    else:
        end = say(
            "The game ends after round {rounds}; the most VP wins, level is a draw.",
            rounds=scenario.battle_rounds,
        )
    lines.append(end)
    return lines


def round_facts(pack: p.Pack, scenario: p.Scenario) -> list[FactSpec]:
    """What a Victory Phase records in this scenario."""
    blocks = {b.block for b in scenario.scoring}
    facts = [
        FactSpec(
            "control", "round", "control", say("Who seized each zone or point this round"), required=True
        )
    ]
    if any(o.kind == "marker" and not o.moves_toward_friendly_zone for o in scenario.objectives):
        facts += [
            FactSpec(
                "markers_destroyed", "player", "objectives", say("Markers this player destroyed this round")
            ),
            FactSpec(
                "marker_wounds", "player", "wounds", say("Wounds this player dealt to each marker this round")
            ),
        ]
    facts.append(
        FactSpec("character_slain", "player", "flag", say("Slew the enemy Character Regiment this round"))
    )
    if "regiments-destroyed" in blocks:
        facts.append(
            FactSpec("regiments_destroyed", "player", "count", say("Enemy regiments destroyed this round"))
        )
    if "officers-slain" in blocks:
        facts.append(FactSpec("officers_slain", "player", "count", say("Enemy officers slain this round")))
    facts.append(FactSpec("wiped_out", "player", "flag", say("This player's army is wiped out")))
    return facts


# ---------------------------------------------------------------------------------------
# Events
# ---------------------------------------------------------------------------------------
def new_game(pack: p.Pack, setup: Setup) -> RoundGame:
    """An empty game for that set-up."""
    scenario = pack.scenario(setup.scenario)
    if scenario is None:
        raise ValueError(f"pack {pack.id} has no scenario {setup.scenario}")
    game = RoundGame(setup=setup, pack=pack, scenario=scenario)
    for o in scenario.objectives:
        if o.kind == "point":
            start = None
            if o.controlled_by is not None:
                start = next((i for i, pl in enumerate(setup.players) if pl.side == o.controlled_by), None)
            game.holders[o.id] = start
    return game


def _parse_player(raw: dict[str, Any] | None) -> PlayerPhase:
    """One player's part as :data:`EVENTS` read it (left out: nothing happened to them)."""
    if raw is None:
        return PlayerPhase()
    return PlayerPhase(
        markers_destroyed=list(raw.get("markers_destroyed") or []),
        marker_wounds={k: v or 0 for k, v in (raw.get("marker_wounds") or {}).items()},
        character_slain=bool(raw.get("character_slain")),
        regiments_destroyed=raw.get("regiments_destroyed") or 0,
        officers_slain=raw.get("officers_slain") or 0,
        wiped_out=bool(raw.get("wiped_out")),
    )


def _check_marker(game: RoundGame, field_name: str, marker_id: Any, player: int, round_: int) -> p.Objective:
    marker = game.objective(marker_id) if isinstance(marker_id, str) else None
    if marker is None or marker.kind != "marker" or marker.moves_toward_friendly_zone:
        ids = ", ".join(m.id for m in game.kind("marker") if not m.moves_toward_friendly_zone) or "none"
        raise Refused(
            say(
                "{field} names {id}, which is not a marker that can be destroyed here (markers: {ids}).",
                field=field_name,
                id=repr(marker_id),
                ids=ids,
            )
        )
    if round_ == 1:
        raise Refused(say("{field}: markers cannot be damaged or destroyed in round 1.", field=field_name))
    if why := attack_problem(game, marker, player):
        raise Refused(say("{field}: {why}", field=field_name, why=why))
    return marker


def attack_problem(game: RoundGame, marker: p.Objective, player: int) -> str | None:
    """Why ``player`` may not damage or destroy ``marker``: it fell already, or it is theirs."""
    if marker.id in game.destroyed:
        rnd, by = game.destroyed[marker.id]
        return say(
            "marker {marker} was already destroyed by {name} in round {round}.",
            marker=marker.label,
            name=game.name(by),
            round=rnd,
        )
    if game.owner(marker) == player:
        return say(
            "marker {marker} is friendly to {name}, who cannot attack it.",
            marker=marker.label,
            name=game.name(player),
        )
    return None


def seizable(game: RoundGame) -> list[p.Objective]:
    """The objectives a Victory Phase says who seized: zones, points and moving markers."""
    return [
        o for o in game.scenario.objectives if o.kind in ("zone", "point") or o.moves_toward_friendly_zone
    ]


def slew_character(game: RoundGame, player: int) -> bool:
    """Whether ``player`` has slain the enemy Character Regiment already (once a game)."""
    return any(ph.players[player].character_slain for ph in game.phases)


def over_problem(game: RoundGame) -> Refused | None:
    """Why nothing more may be recorded: the game is over (``None`` while it is not)."""
    if game.finished:
        return Refused(
            say(
                "The game is over ({reason}); undo the last entry to change it.",
                reason=said(game.ended.reason) if game.ended else "",
            )
        )
    return None


def phase_problem(game: RoundGame, round_: int) -> Refused | None:
    """Why round ``round_``'s Victory Phase may not be recorded now: one a round, in order."""
    now = game.current_round
    if round_ < now:
        return Refused(
            say("Round {round}'s Victory Phase is already recorded; undo it to change it.", round=round_)
        )
    if round_ > now:
        return Refused(
            say("Round {round} cannot be recorded yet: round {now} comes first.", round=round_, now=now)
        )
    return None


#: The entry of :func:`open_entries` each event type belongs to: closed, it refuses the event.
ENTRIES = {"round": "battle"}


def open_entries(game: RoundGame, seat: int | None = None) -> dict[str, Any]:
    """What may be recorded now, and why not (``seat`` changes nothing: a Victory Phase is
    recorded from any phone of the game): ``round``, the Victory Phase of the round now being
    played, with ``why`` the sentence the rules would refuse it with (``None``: open), and its
    choices: the objectives to say who seized, each player's markers to attack, and the
    players who slew the enemy Character Regiment already (once a game)."""
    r = game.current_round
    problem = over_problem(game) or phase_problem(game, r)
    markers = [m for m in game.kind("marker") if not m.moves_toward_friendly_zone]
    return {
        # The battle: its Victory Phases, until it is over.
        "battle": open_entry(over_problem(game)),
        "round": open_entry(
            problem,
            round=r,
            seizable=seizable(game),
            attackable={
                i: [m for m in markers if attack_problem(game, m, i) is None]
                for i in range(game.player_count)
            },
            slain=[i for i in range(game.player_count) if slew_character(game, i)],
        ),
    }


def _apply_round(game: RoundGame, event: dict[str, Any], eid: str) -> None:
    if problem := over_problem(game):
        raise problem
    round_ = event["round"]
    if problem := phase_problem(game, round_):
        raise problem
    raw_players = event.get("players") or []
    if len(raw_players) > game.player_count:
        raise Refused(
            say(
                "players must be a list of up to {count} objects, one per player in game order.",
                count=game.player_count,
            )
        )
    players = [
        _parse_player(raw_players[i] if i < len(raw_players) else None) for i in range(game.player_count)
    ]
    control = event.get("control") or {}

    # Markers fall during the round, before the Victory Phase: first the wounds, then the list.
    fallen: dict[str, int] = {}
    for i, part in enumerate(players):
        for marker_id, n in part.marker_wounds.items():
            marker = _check_marker(game, f"players[{i}].marker_wounds", marker_id, i, round_)
            if n and game.wounds.get((marker.id, i), 0) + n >= (marker_wounds(game.pack)):
                fallen.setdefault(marker.id, i)
        for marker_id in part.markers_destroyed:
            marker = _check_marker(game, f"players[{i}].markers_destroyed", marker_id, i, round_)
            if marker.id in fallen and fallen[marker.id] != i:
                raise Refused(
                    say("marker {marker} can only be destroyed by one player.", marker=marker.label)
                )
            fallen[marker.id] = i
    for i, part in enumerate(players):
        if part.character_slain and slew_character(game, i):
            raise Refused(
                say(
                    "{field}: {name} already slew the enemy Character Regiment.",
                    field=f"players[{i}].character_slain",
                    name=game.name(i),
                )
            )

    seized = _check_control(game, control, round_, fallen)

    # Apply: wounds, fallen markers, captured points, the moving marker.
    for i, part in enumerate(players):
        for marker_id, n in part.marker_wounds.items():
            game.wounds[(marker_id, i)] = game.wounds.get((marker_id, i), 0) + n
    for marker_id, by in fallen.items():
        game.destroyed[marker_id] = (round_, by)
        if marker_id not in players[by].markers_destroyed:
            players[by].markers_destroyed.append(marker_id)
    for oid, who in seized.items():
        obj = game.objective(oid)
        assert obj is not None
        if obj.kind == "point":
            game.holders[oid] = who
        elif obj.moves_toward_friendly_zone:
            home = next((z for z in game.kind("zone") if game.owner(z) == who), None)
            start, target = game.where(obj), grid.position(home) if home else None
            if start is not None and target is not None:
                game.moved[oid] = grid.step_toward(start, target, obj.moves_toward_friendly_zone)

    phase = VictoryPhase(eid, round_, {k: control.get(k) for k in control}, players, seized)
    for i in range(game.player_count):
        context = Context(game, phase, i)
        for block in game.scenario.scoring:
            rule = ROUND_RULES.get(block.block)
            if rule is not None:
                players[i].awards.extend(rule(block, context))
    game.phases.append(phase)
    _check_end(game, phase)


def _check_control(
    game: RoundGame, control: dict[str, Any], round_: int, fallen: dict[str, int]
) -> dict[str, int]:
    seized: dict[str, int] = {}
    for oid, who in control.items():
        obj = game.objective(oid) if isinstance(oid, str) else None
        if obj is None or obj not in seizable(game):
            ids = ", ".join(o.id for o in seizable(game))
            raise Refused(
                say(
                    "control names {id}, which is not a zone or point of {scenario} (these are: {ids}).",
                    id=repr(oid),
                    scenario=game.scenario.name,
                    ids=ids,
                )
            )
        assert obj is not None
        if who is None:
            continue
        if round_ == 1:
            raise Refused(say("{field}: nothing can be seized in round 1.", field=f"control[{oid!r}]"))
        if obj.kind == "point":
            # A point stays with whoever took it until an opponent seizes it: A and B too.
            # "Friendly" only says who holds them at the start; it never bars retaking one.
            if game.holders.get(oid) == who:
                continue  # already theirs: nothing is captured
            seized[oid] = who
            continue
        if game.owner(obj) == who:
            raise Refused(
                say(
                    "{field}: {objective} is friendly to {name}, who cannot seize it.",
                    field=f"control[{oid!r}]",
                    objective=obj.label,
                    name=game.name(who),
                )
            )
        if obj.kind == "zone":
            contested = [m for m in game.standing_enemy_markers(obj, who) if m.id not in fallen]
            if contested:
                raise Refused(
                    say(
                        "{field}: {objective} is contested for {name} while the enemy marker {marker} "
                        "stands in range of it.",
                        field=f"control[{oid!r}]",
                        objective=obj.label,
                        name=game.name(who),
                        marker=contested[0].label,
                    )
                )
        seized[oid] = who
    return seized


def _check_end(game: RoundGame, phase: VictoryPhase) -> None:
    victory = game.pack.victory(game.scenario)
    n = game.player_count
    immediate = victory.immediate
    if immediate and immediate.check == "chain" and immediate.link and phase.round >= immediate.from_round:
        a, b = immediate.link
        for i in range(n):
            if any(a in ch and b in ch for ch in _held_chains(game, i)):
                target = immediate.counts_as_vp or 0
                short = max(0, target - game.vp(i))
                if short:
                    phase.players[i].awards.append(
                        Award(
                            Sentence(words("Chain joining the two end points: counts as {vp} VP"), vp=target),
                            short,
                        )
                    )
                game.won_outright = True
                game.ended = Result(
                    "win",
                    i,
                    Sentence(
                        words(
                            "{name}'s points form a chain from A to B in round {round}, which wins at once."
                        ),
                        name=game.name(i),
                        round=phase.round,
                    ),
                )
                return
    out = [i for i in range(n) if phase.players[i].wiped_out]
    if out:
        standing = [i for i in range(n) if i not in out]
        if len(standing) == 1:
            game.ended = Result(
                "win",
                standing[0],
                Sentence(
                    words("{names}'s army was wiped out in round {round}."),
                    names=", ".join(game.name(i) for i in out),
                    round=phase.round,
                ),
            )
        else:
            game.ended = Result(
                "draw", None, Sentence(words("Every army was wiped out in round {round}."), round=phase.round)
            )
        return
    totals = [game.vp(i) for i in range(n)]
    ordered = sorted(totals, reverse=True)
    score: str | Sentence = str(ordered[0])
    for value in ordered[1:]:
        score = Sentence(words("{high} to {low}"), high=score, low=value)
    threshold = victory.threshold
    if threshold is not None and max(totals) >= threshold:
        why = Sentence(words("{vp} VP reached in round {round}"), vp=threshold, round=phase.round)
        game.ended = _most(totals, why, score, game)
    elif phase.round >= game.last_round:
        game.ended = _most(
            totals, Sentence(words("End of round {round}, the last"), round=phase.round), score, game
        )


def _most(totals: list[int], why: Sentence, score: str | Sentence, game: RoundGame) -> Result:
    best = max(totals)
    leaders = [i for i, v in enumerate(totals) if v == best]
    if len(leaders) == 1:
        most = words("{why}: {name} has the most VP ({score}).")
        return Result("win", leaders[0], Sentence(most, why=why, name=game.name(leaders[0]), score=score))
    return Result("draw", None, Sentence(words("{why}: level on VP ({score})."), why=why, score=score))


def apply_event(game: RoundGame, event: dict[str, Any], eid: str) -> None:
    """Change ``game`` by one event of its type (as :data:`EVENTS` read it); raise ``Refused``."""
    if event["type"] == "roll":
        game.add_roll(event, eid)
    else:
        _apply_round(game, event, eid)


def map_state(game: RoundGame) -> grid.MapState:
    """What the map shows now: zones seized in the last Victory Phase, points held, markers down."""
    holders: dict[str, int | None] = dict(game.holders)
    if game.phases:
        for oid, who in game.phases[-1].seized.items():
            obj = game.objective(oid)
            if obj is not None and obj.kind != "point":
                holders[oid] = who
    return grid.MapState(holders=holders, destroyed=set(game.destroyed), moved=dict(game.moved))


# ---------------------------------------------------------------------------------------
# Next steps: what a phone may record without asking the server (docs/offline.md)
# ---------------------------------------------------------------------------------------
OVER = "over"


def next_steps(game: RoundGame) -> dict[str, Any]:
    """The steps a phone may record next, as plain data for the offline layer.

    The same shape as the turns engine's: ``plan`` (the Victory Phase the server expects now,
    then every later one and ``over``), ``in_play`` (always ``None``: nothing is claimed
    between phases) and ``steps`` (each ``phase-R`` and ``over``; no form here chooses what
    follows). A threshold may end the game sooner: the server says so when the phases arrive.
    Built on :func:`open_entries`: the Victory Phase open now is the plan's first step.
    """
    now = open_entries(game)["round"]
    if not now["open"]:
        return {"plan": [OVER], "in_play": None, "steps": {OVER: {}}}
    plan = [f"phase-{r}" for r in range(now["round"], game.last_round + 1)] + [OVER]
    return {"plan": plan, "in_play": None, "steps": {key: {} for key in plan}}
