"""A game's set-up (pack, scenario, points limit and players, checked against the pack), and
:class:`GameState`, what every game system's state holds beside its own entries."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from app.rules.rolls import parse_roll
from app.rules.speech import say, say_plural
from app.rules.text import clean_text

if TYPE_CHECKING:
    # Only for annotations: the pack models import the game systems, which import this module.
    from app.rules.pack import Pack, Scenario
    from app.rules.rolls import Roll

MAX_NAME = 40
MAX_POINTS = 100_000


@dataclass(frozen=True)
class Player:
    """One player of a game: a name, their side (attacker/defender) and grand strategy."""

    name: str
    side: str | None = None
    grand_strategy: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "side": self.side, "grand_strategy": self.grand_strategy}


@dataclass(frozen=True)
class Setup:
    """Everything fixed before the first event: what is played, by whom."""

    pack: str
    scenario: str
    points_limit: int
    players: tuple[Player, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "pack": self.pack,
            "scenario": self.scenario,
            "points_limit": self.points_limit,
            "players": [p.as_dict() for p in self.players],
        }

    def player_name(self, index: int) -> str:
        """The player's name, or a placeholder when the index is out of range."""
        if 0 <= index < len(self.players):
            return self.players[index].name
        return say("player {number}", number=index)


@dataclass
class GameState:
    """What every system's state holds and answers, whatever it plays.

    Each system's state is a subclass with its own entries (turns, Victory Phases, siege
    rolls, ploys); the log (:mod:`app.rules.log`) fills ``effective``, ``skipped`` and
    ``last_event`` for all of them. ``vp``, ``result`` and ``current_round`` are the
    questions the club home's card asks every game; a system answers them its own way.
    """

    setup: Setup
    pack: Pack
    scenario: Scenario
    #: The dice rolled at the table (the roll events), in order.
    rolls: list[Roll] = field(default_factory=list, kw_only=True)
    #: The ids of the events in force, in order (the log appends each one it applied).
    effective: list[str] = field(default_factory=list, kw_only=True)
    #: Stored events that no longer fit (the pack changed since): (id, why), kept, not lost.
    skipped: list[tuple[str, str]] = field(default_factory=list, kw_only=True)
    #: The last event in force (the one an undo would take back), or ``None`` with none.
    last_event: dict[str, Any] | None = field(default=None, kw_only=True, repr=False, compare=False)

    @property
    def player_count(self) -> int:
        return len(self.setup.players)

    def name(self, player: int) -> str:
        return self.setup.player_name(player)

    def add_roll(self, event: dict[str, Any], eid: str) -> None:
        """Keep a roll event's dice, as rolled at the table (every system takes ``roll``)."""
        self.rolls.append(parse_roll(event, eid, self.player_count))

    @property
    def result(self) -> Any:
        """The game's result once it is over (``None`` before)."""
        return None

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def status(self) -> str:
        return "finished" if self.finished else "in_progress"

    def vp(self, player: int) -> int:
        """A player's victory points (a system that scores none, such as a siege, says 0)."""
        return 0


def _words(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return say("{items} or {last}", items=", ".join(items[:-1]), last=items[-1])


def parse_setup(data: Any, packs: dict[str, Pack]) -> tuple[Setup | None, str | None]:
    """Check a new game's set-up against the installed packs.

    Returns the set-up, or ``None`` and one plain sentence naming the field that is wrong
    and what is allowed.
    """
    if not isinstance(data, dict):
        return None, say("The body must be a JSON object with pack, scenario, points_limit and players.")
    playable = sorted(k for k, v in packs.items() if v.playable)
    pack_id = data.get("pack")
    if not isinstance(pack_id, str) or pack_id not in playable:
        return None, say(
            "pack must be one of the installed rulepacks with scenarios: {packs}.", packs=_words(playable)
        )
    pack = packs[pack_id]
    scenario_id = data.get("scenario")
    scenario = pack.scenario(scenario_id) if isinstance(scenario_id, str) else None
    if scenario is None:
        return (
            None,
            say(
                "scenario must be the id of a scenario in {pack}, such as {example}.",
                pack=pack.name,
                example=repr(pack.playable[0].id),
            ),
        )
    if not scenario.playable:
        return None, say(
            "scenario {name} cannot be played: {reason}",
            name=scenario.name,
            reason=scenario.not_playable_reason,
        )
    points = data.get("points_limit")
    # Decimal digits only ("²" is a digit int() refuses) and few of them (int() refuses past 4,300).
    if isinstance(points, str) and points.strip().isdecimal() and len(points.strip()) <= 9:
        points = int(points)
    if isinstance(points, bool) or not isinstance(points, int) or not 0 < points <= MAX_POINTS:
        return None, say("points_limit must be a whole number from 1 to {most}.", most=MAX_POINTS)
    if pack.points.presets_only and points not in pack.points.presets:
        allowed = _words([str(p) for p in pack.points.presets])
        return None, say("points_limit must be {allowed} in {pack}.", allowed=allowed, pack=pack.name)
    raw_players = data.get("players")
    # A scenario may take its own number of players (a two-player siege in a multiplayer pack).
    counts = pack.players_for(scenario)
    low = counts.min or 1
    high = counts.max or 4
    if not isinstance(raw_players, list) or not low <= len(raw_players) <= high:
        if low == high:
            return None, say_plural(
                "players must be a list of {count} player for {pack}.",
                "players must be a list of {count} players for {pack}.",
                low,
                pack=pack.name,
            )
        return None, say(
            "players must be a list of {low} to {high} players for {pack}.",
            low=low,
            high=high,
            pack=pack.name,
        )
    players: list[Player] = []
    for i, raw in enumerate(raw_players):
        player, problem = _parse_player(raw, i, pack, pack.sides_for(scenario))
        if problem:
            return None, problem
        players.append(player)
    if pack.sides_for(scenario):
        sides = [p.side for p in players]
        if len(set(sides)) != len(sides):
            return (
                None,
                say(
                    "players[*].side must differ: one player each is {sides}.",
                    sides=_words(pack.sides_for(scenario)),
                ),
            )
    return Setup(pack.id, scenario.id, points, tuple(players)), None


def _parse_player(raw: Any, i: int, pack: Pack, sides: list[str]) -> tuple[Player, str | None]:
    blank = Player(name="")
    if not isinstance(raw, dict):
        return blank, say("players[{i}] must be an object with name, side and grand_strategy.", i=i)
    name = clean_text(raw["name"]) if isinstance(raw.get("name"), str) else None
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
        return blank, say("players[{i}].name must be 1 to {most} characters.", i=i, most=MAX_NAME)
    side = raw.get("side")
    if sides:
        if side not in sides:
            return blank, say("players[{i}].side must be {sides}.", i=i, sides=_words(sides))
    elif side is not None:
        return blank, say("players[{i}].side must be left out: {pack} has no sides.", i=i, pack=pack.name)
    strategy = raw.get("grand_strategy") or None
    if strategy is not None and (not isinstance(strategy, str) or pack.grand_strategy(strategy) is None):
        if not pack.grand_strategies:
            return blank, say(
                "players[{i}].grand_strategy must be left out: {pack} has none.", i=i, pack=pack.name
            )
        ids = [g.id for g in pack.grand_strategies]
        return blank, say("players[{i}].grand_strategy must be one of {ids}.", i=i, ids=_words(ids))
    return Player(name=" ".join(name.split()), side=side, grand_strategy=strategy), None
