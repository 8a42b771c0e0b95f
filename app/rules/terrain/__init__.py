"""Terrain: pieces, battlefield checks, the line-of-sight helper and agreement state.

A pack names the terrain rules its battlefields are set up by (``terrain: {system: ...}``);
each kind (Conquest's zonal and garrison pieces with First Blood's battlefield limits; Age of
Sigmar's set-up distances, mysterious terrain and the siege fortress) is a module of this
package that registers one :class:`TerrainRules`: the pack section it reads, its checks and
what the terrain screens and the card show. Nothing outside a plug-in asks which kind it is.
Every problem names the rule (an id) and the pieces at fault. Distances are gaps between
footprints: axis-aligned rectangles centred on (x, y), in inches from the left edge and from
Player 1's (or the attacker's) table edge.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, field_validator

from app.rules.pack_base import Entry, Id, Model, Text
from app.rules.plugins import Registry
from app.rules.problems import Problem, checked_field
from app.rules.speech import say, say_plural
from app.rules.text import clean_text

if TYPE_CHECKING:
    from app.rules.pack import Pack, Scenario

MAX_PIECES = 60
# No table is this many inches across: a position beyond it is a mistake (or 1e308).
MAX_INCHES = 200


class TerrainPreset(Model):
    """A ready-made terrain piece (the rulebook's examples)."""

    name: Text
    kind: Literal["zonal", "garrison"] = "zonal"
    size: int = 0
    keywords: list[Id] = []
    ruins: bool = False
    obscuring: bool = False
    defense: int | None = None
    capacity: int | None = None
    elevation: int | None = None


class TerrainSection(Model):
    """The pack's ``terrain`` section as every kind has it; a kind's own section adds its numbers.

    ``system`` names the terrain rules (the plug-in).
    """

    system: str
    keywords: list[Entry] = []
    presets: list[TerrainPreset] = []
    checklist: list[Entry] = []
    rules: list[Entry] = []

    @property
    def card_note(self) -> str | None:
        """A line the terrain card's footer adds to the pack's source, if the kind has one."""
        return None


class Piece(BaseModel):
    """One terrain piece as the players describe it."""

    # Python's json reads 1e400 as infinity (and NaN too): no piece stands there, and NaN slips
    # past every comparison, so the numbers must be finite.
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True, allow_inf_nan=False)

    uid: str | None = Field(default=None, max_length=40)
    name: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=60)]
    kind: Literal["zonal", "garrison"] = "zonal"
    size: int = Field(default=0, ge=-20, le=20, strict=True)
    keywords: list[str] = Field(default_factory=list, max_length=12)
    ruins: bool = False
    obscuring: bool = False
    footprint: tuple[float, float] | None = None
    defense: int | None = Field(default=None, ge=0, le=10, strict=True)
    capacity: int | None = Field(default=None, ge=0, le=40, strict=True)
    # A garrison's Elevation: the Size a regiment volleying from inside it takes.
    elevation: int | None = Field(default=None, ge=0, le=20, strict=True)
    x: float | None = Field(default=None, ge=-MAX_INCHES, le=MAX_INCHES)
    y: float | None = Field(default=None, ge=-MAX_INCHES, le=MAX_INCHES)
    # Age of Sigmar.
    faction: bool = False
    warscroll: bool = False
    mysterious: int | None = Field(default=None, ge=1, le=6, strict=True)
    fortress: bool = False
    # The Relief Force: how far a feature outside the fortress stands from the defender's
    # territory, measured at the table (the battleplan gives no map to measure it on).
    defender_gap: float | None = Field(default=None, ge=0, le=MAX_INCHES)
    notes: Annotated[str, StringConstraints(strip_whitespace=True, max_length=300)] = ""

    @field_validator("name", mode="before")
    @classmethod
    def piece_name(cls, value: Any) -> Any:
        return clean_text(value) if isinstance(value, str) else value

    @field_validator("keywords")
    @classmethod
    def _keywords(cls, words: list[str]) -> list[str]:
        return list(dict.fromkeys(str(w).strip().lower() for w in words if str(w).strip()))

    @field_validator("footprint")
    @classmethod
    def _footprint(cls, value: tuple[float, float] | None) -> tuple[float, float] | None:
        if value is not None and (value[0] <= 0 or value[1] <= 0 or max(value) > 100):
            raise ValueError(say("must be two sizes in inches, each more than 0 and at most 100"))
        return value

    @property
    def placed(self) -> bool:
        return self.x is not None and self.y is not None

    def half(self) -> tuple[float, float]:
        if self.footprint is None:
            return 0.0, 0.0
        return self.footprint[0] / 2, self.footprint[1] / 2


def _path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def parse_pieces(pack: Pack, raw: Any) -> tuple[list[Piece] | None, str | None]:
    """Read a list of pieces; ``None`` and one sentence naming the field when it is not one."""
    if not isinstance(raw, list) or len(raw) > MAX_PIECES:
        return None, say("pieces must be a list of at most {most} terrain pieces.", most=MAX_PIECES)
    pieces = []
    known = {k.id for k in pack.terrain.keywords} if pack.terrain else set()
    for i, item in enumerate(raw):
        try:
            piece = Piece.model_validate(item)
        except ValidationError as exc:
            err = exc.errors(include_url=False)[0]
            where = _path(("pieces", i, *err["loc"]))
            return None, checked_field(where, err)
        unknown = [k for k in piece.keywords if k not in known]
        if unknown:
            allowed = ", ".join(sorted(known)) or say("none in this pack")
            return None, say(
                "pieces[{i}].keywords: {word} is not a terrain keyword here ({allowed}).",
                i=i,
                word=repr(unknown[0]),
                allowed=allowed,
            )
        if (piece.x is None) != (piece.y is None):
            return None, say("pieces[{i}]: give both x and y, or neither.", i=i)
        pieces.append(piece)
    return pieces, None


# --- geometry ----------------------------------------------------------------------------
def gap(a: Piece, b: Piece) -> float:
    """The clear distance between two placed pieces' footprints (0 when they overlap)."""
    assert a.x is not None and a.y is not None and b.x is not None and b.y is not None
    (aw, ah), (bw, bh) = a.half(), b.half()
    dx = max(0.0, abs(a.x - b.x) - aw - bw)
    dy = max(0.0, abs(a.y - b.y) - ah - bh)
    return math.hypot(dx, dy)


def gap_to_point(piece: Piece, x: float, y: float) -> float:
    """The distance from a placed piece's footprint to a point."""
    assert piece.x is not None and piece.y is not None
    w, h = piece.half()
    dx = max(0.0, abs(piece.x - x) - w)
    dy = max(0.0, abs(piece.y - y) - h)
    return math.hypot(dx, dy)


def gap_to_edge(piece: Piece, width: float, height: float) -> float:
    """The clear distance from a placed piece's footprint to the nearest table edge."""
    assert piece.x is not None and piece.y is not None
    w, h = piece.half()
    return min(piece.x - w, width - piece.x - w, piece.y - h, height - piece.y - h)


# --- verdicts ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Finding(Problem):
    """A broken rule (problem) or a recommendation (advice); ``where`` holds the pieces named."""

    @property
    def pieces(self) -> tuple[int, ...]:
        return tuple(self.where or ())

    def as_dict(self, pieces: list[Piece]) -> dict[str, Any]:  # type: ignore[override]
        return {
            "rule": self.rule,
            "message": self.message,
            "pieces": [pieces[i].name for i in self.pieces],
            "indices": list(self.pieces),
        }


@dataclass
class Verdict:
    problems: list[Finding] = field(default_factory=list)
    advice: list[Finding] = field(default_factory=list)
    checklist: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.problems

    def as_dict(self, pieces: list[Piece]) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "problems": [f.as_dict(pieces) for f in self.problems],
            "advice": [f.as_dict(pieces) for f in self.advice],
            "checklist": self.checklist,
        }


def piece_name(pieces: list[Piece], i: int) -> str:
    """A piece as a finding names it: its name and its place in the set."""
    return say("{name} (piece {number})", name=pieces[i].name, number=i + 1)


def inches(value: float) -> str:
    """A distance in inches as players write it (3\", 2.5\")."""
    return f'{value:.1f}"'.replace('.0"', '"')


def too_close(
    pieces: list[Piece],
    indices: list[int],
    need: Callable[[int, int], float | None],
    inclusive: bool,
) -> Iterator[tuple[int, int, float, int]]:
    """Each piece that stands too close to earlier ones, once: ``(nearest, piece, gap, others)``.

    A stack of n pieces has n(n-1)/2 close pairs; naming each piece once, with its nearest
    earlier neighbour and how many more are too close, keeps the verdict (and every page and
    card that shows it) linear in the number of pieces.
    """
    for b, j in enumerate(indices):
        close: list[tuple[float, int]] = []
        for i in indices[:b]:
            limit = need(i, j)
            if limit is None:
                continue
            d = gap(pieces[i], pieces[j])
            if d < limit - 1e-9 or (inclusive and d <= limit + 1e-9):
                close.append((d, i))
        if close:
            d, i = min(close)
            yield i, j, d, len(close) - 1


def also_close(pieces: list[Piece], j: int, more: int) -> str:
    """The aside naming how many more pieces stand too close to piece ``j``."""
    if not more:
        return ""
    return say_plural(
        " ({name} is too close to {count} more piece as well)",
        " ({name} is too close to {count} more pieces as well)",
        more,
        name=pieces[j].name,
    )


# --- the plug-ins ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class TerrainScreen:
    """What the terrain screen, the admin's club presets and the terrain card show for a kind.

    The kind's own partials live under ``templates/terrain/<kind>/`` (``_piece_fields.html``: the
    piece form's fields; ``_piece_tags.html``: a piece's tags and what it does;
    ``_preset_fields.html``: a club preset's fields) and ``pdf/terrain/<kind>/`` (``cells.html``:
    the card's two cells of a piece; ``rules.html``: what the card prints once after its table,
    when ``card_rules``).
    """

    kind: str
    #: Whether the card prints the kind's rules once after its table (the keywords' rules).
    card_rules: bool = False
    #: Whether the line-of-sight helper (Conquest's Size arithmetic) is offered.
    sight: bool = False

    @property
    def piece_fields(self) -> str:
        return f"terrain/{self.kind}/_piece_fields.html"

    @property
    def piece_tags(self) -> str:
        return f"terrain/{self.kind}/_piece_tags.html"

    @property
    def preset_fields(self) -> str:
        return f"terrain/{self.kind}/_preset_fields.html"

    @property
    def card_cells(self) -> str:
        return f"terrain/{self.kind}/cells.html"

    @property
    def card_rules_partial(self) -> str:
        return f"terrain/{self.kind}/rules.html"


@dataclass(frozen=True)
class TerrainRules:
    """One kind of terrain rules: the protocol every terrain plug-in fills in.

    ``kind`` is what a pack's ``terrain.system`` names; ``section`` the model of that section.
    """

    kind: str
    section: type[TerrainSection]
    screen: TerrainScreen
    #: Adds every problem and piece of advice for a battlefield to the verdict.
    check: Callable[[Pack, list[Piece], Scenario | None, bool, Verdict], None]
    #: Fills in what a typed piece leaves to the pack (a garrison's Defense and Capacity).
    complete: Callable[[Any, dict[str, Any]], None] = lambda rules, piece: None


REGISTRY: Registry[TerrainRules] = Registry("terrain rules")
register = REGISTRY.register
#: The pack's ``terrain`` section, read by the plug-in it names.
parse_section = REGISTRY.parse_section


def rules_for(pack: Pack) -> TerrainRules | None:
    """The terrain rules of a pack, or ``None`` when it has none."""
    return REGISTRY.get(pack.terrain.system) if pack.terrain is not None else None


def check(pack: Pack, pieces: list[Piece], scenario: Scenario | None = None, siege: bool = False) -> Verdict:
    """Every problem and piece of advice for a battlefield, by the pack's terrain rules."""
    verdict = Verdict()
    rules = rules_for(pack)
    if rules is not None:
        rules.check(pack, pieces, scenario, siege, verdict)
    return verdict


def complete(pack: Pack, piece: dict[str, Any]) -> dict[str, Any]:
    """A typed piece with what the pack's terrain rules fill in when the player leaves it out."""
    rules = rules_for(pack)
    if rules is not None:
        rules.complete(pack.terrain, piece)
    return piece


def mysterious_effect(pack: Pack, roll: int | None) -> Any:
    """The mysterious-terrain result for a roll, if the pack's terrain rules have the table."""
    if roll is None or pack.terrain is None:
        return None
    return next((e for e in getattr(pack.terrain, "mysterious", ()) if e.roll == roll), None)


# --- line of sight -------------------------------------------------------------------------
@dataclass(frozen=True)
class Sight:
    """Whether a shooter sees its target, and why."""

    shooter_size: int
    target_size: int
    clear: bool
    blocked_by: tuple[str, ...]
    cover: bool
    reasons: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "shooter_size": self.shooter_size,
            "target_size": self.target_size,
            "clear": self.clear,
            "blocked_by": list(self.blocked_by),
            "cover": self.cover,
            "reasons": list(self.reasons),
        }


def effective_size(size: int, elevated_on: int = 0) -> int:
    """A regiment's Size plus the Size of the Elevated terrain it stands on."""
    return size + max(0, elevated_on)


def _regiment_size(part: dict[str, Any], role: str) -> tuple[int, str | None]:
    """A regiment's Size for line of sight, and the sentence saying why when a garrison sets it.

    Occupiers of a garrison take its Size; a regiment volleying out of one takes its Elevation.
    """
    garrison = part.get("garrison")
    if isinstance(garrison, dict):
        if role == "shooter":
            value = int(garrison.get("elevation", 0) or 0)
            return (
                value,
                say(
                    "The shooter volleys from a garrison: it counts as Size {size}, the garrison's Elevation.",
                    size=value,
                ),
            )
        value = int(garrison.get("size", 0) or 0)
        occupies = {
            "target": say(
                "The target occupies a garrison: it counts as Size {size}, the garrison's Size.", size=value
            ),
            "regiment": say(
                "The regiment occupies a garrison: it counts as Size {size}, the garrison's Size.", size=value
            ),
        }
        return value, occupies[role]
    return effective_size(int(part.get("size", 0)), int(part.get("elevated_on", 0) or 0)), None


def line_of_sight(shooter: dict[str, Any], target: dict[str, Any], between: list[dict[str, Any]]) -> Sight:
    """The size arithmetic of Conquest's elevation rules.

    ``shooter`` and ``target``: ``{"size", "elevated_on", "garrison"}``: the Size of the Elevated
    piece they stand on (0 if none), or the garrison they occupy (``{"size", "elevation"}``):
    a volleying regiment inside one counts as its Elevation, an occupied one as its Size.
    ``between``: what the line crosses, each ``{"name", "kind": "regiment" | "terrain", "size",
    "elevated_on", "garrison", "obstructing", "cover", "shooter_on", "target_on"}``.
    A regiment or Obstructing terrain in the way blocks the line unless its Size is lower than
    the larger of the two regiments' Sizes; Obstructing terrain that either regiment stands on
    never blocks. Cover terrain crossed halves the Barrage of the volley, but only for a target
    whose Size is at most the Cover piece's.
    """
    a, why_a = _regiment_size(shooter, "shooter")
    b, why_b = _regiment_size(target, "target")
    reach = max(a, b)
    blocked: list[str] = []
    reasons = [r for r in (why_a, why_b) if r]
    reasons.insert(
        0,
        say(
            "Shooter Size {a}, target Size {b}: anything of Size {reach} or more in between blocks the line.",
            a=a,
            b=b,
            reach=reach,
        ),
    )
    cover = False
    for i, item in enumerate(between):
        name = str(item.get("name") or say("item {number}", number=i + 1))
        if item.get("kind") == "terrain":
            size = effective_size(int(item.get("size", 0)), int(item.get("elevated_on", 0) or 0))
            if item.get("cover") and not (item.get("shooter_on") and item.get("target_on")):
                if b <= size:
                    cover = True
                    reasons.append(
                        say(
                            "{name} is Cover of Size {size}: the volley's Barrage is halved (round up), "
                            "as the target (Size {b}) is no bigger.",
                            name=name,
                            size=size,
                            b=b,
                        )
                    )
                else:
                    reasons.append(
                        say(
                            "{name} is Cover of Size {size}, but the target (Size {b}) is bigger: it gains no cover.",
                            name=name,
                            size=size,
                            b=b,
                        )
                    )
            if not item.get("obstructing"):
                continue
            if item.get("shooter_on") or item.get("target_on"):
                reasons.append(
                    say("{name} is Obstructing, but a regiment stands on it: it does not block.", name=name)
                )
                continue
        else:
            size, _why = _regiment_size(item, "regiment")
        if size >= reach:
            blocked.append(name)
            reasons.append(
                say(
                    "{name} (Size {size}) blocks: it is not lower than Size {reach}.",
                    name=name,
                    size=size,
                    reach=reach,
                )
            )
        else:
            reasons.append(
                say(
                    "{name} (Size {size}) is lower than Size {reach}: the line passes over it.",
                    name=name,
                    size=size,
                    reach=reach,
                )
            )
    return Sight(a, b, not blocked, tuple(blocked), cover, tuple(reasons))


# --- agreement --------------------------------------------------------------------------------
@dataclass
class PieceState:
    uid: str
    piece: Piece
    agreed: set[int] = field(default_factory=set)
    changed_at: str = ""


@dataclass
class TerrainSet:
    """A game's terrain set as its events build it: pieces, who agreed, and when it locked.

    ``seats`` binds each player to the one phone that agrees for them (a phone is known by a
    hash of its id): the first phone to agree as a player, or to take the player's seat, holds
    it, and a phone holds one seat, so no single phone can agree as both and lock the set.
    """

    players: int
    pieces: dict[str, PieceState] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)
    locked_at: str | None = None
    reopened: list[str] = field(default_factory=list)
    seats: dict[int, str] = field(default_factory=dict)

    @property
    def ordered(self) -> list[PieceState]:
        return list(self.pieces.values())

    @property
    def agreed(self) -> bool:
        return bool(self.pieces) and all(len(s.agreed) == self.players for s in self.pieces.values())

    def waiting(self) -> list[PieceState]:
        return [s for s in self.pieces.values() if len(s.agreed) < self.players]

    def seat_of(self, phone: str | None) -> int | None:
        """The player this phone agrees for, if it holds a seat."""
        return next((p for p, held in self.seats.items() if held == phone), None) if phone else None

    def open_seats(self, phone: str | None) -> list[int]:
        """The players this phone may agree for: its own seat, or else every seat not yet held."""
        mine = self.seat_of(phone)
        if mine is not None:
            return [mine]
        return [p for p in range(self.players) if p not in self.seats]

    def seat_refusal(self, player: int, phone: str | None, names: list[str] | None = None) -> str | None:
        """Why this phone may not agree (or sit) as ``player``; ``None`` when it may."""
        who = (
            names[player] if names and 0 <= player < len(names) else say("Player {number}", number=player + 1)
        )
        if not phone:
            return say("This phone has no identity for agreeing yet; reload the terrain page and try again.")
        mine = self.seat_of(phone)
        if mine is not None and mine != player:
            other = (
                names[mine] if names and 0 <= mine < len(names) else say("Player {number}", number=mine + 1)
            )
            return say(
                "This phone agrees for {other}; {who} agrees on their own phone (join by the game's link).",
                other=other,
                who=who,
            )
        held = self.seats.get(player)
        if held is not None and held != phone:
            return say("{who} already agrees on another phone; only that phone can agree for {who}.", who=who)
        return None


def fold(players: int, events: list[dict[str, Any]], names: list[str] | None = None) -> TerrainSet:
    """Replay a terrain set's events: ``piece`` (add or change), ``remove``, ``seat`` and ``agree``.

    Any change to a piece clears its agreement; once every piece is agreed by every player
    the set is locked with the time of the last agreement, and a later change reopens it. An
    ``agree`` or ``seat`` carries the phone's hash and binds the player to that phone (events
    recorded before phones were told apart carry none and bind nothing).
    """
    state = TerrainSet(players=players)
    names = names or [say("Player {number}", number=i + 1) for i in range(players)]

    def who(player: Any) -> str:
        return names[player] if isinstance(player, int) and 0 <= player < len(names) else say("A player")

    for event in events:
        kind, uid, at = event.get("type"), event.get("piece_uid"), event.get("at", "")
        if kind == "piece":
            try:
                piece = Piece.model_validate(event["piece"])
            except (KeyError, ValidationError):
                # Written before today's limits (a piece dragged to 1e300"): it stays out of the set.
                continue
            existing = state.pieces.get(uid)
            if existing is not None and state.locked_at and existing.agreed:
                state.reopened.append(uid)
            if existing is None:
                state.pieces[uid] = PieceState(uid, piece, set(), at)
                what = say("Added {piece}", piece=piece.name)
            else:
                moved_only = existing.piece.model_dump(exclude={"x", "y"}) == piece.model_dump(
                    exclude={"x", "y"}
                )
                what = (
                    say("Moved {piece}", piece=piece.name)
                    if moved_only
                    else say("Changed {piece}", piece=piece.name)
                )
                existing.piece, existing.agreed, existing.changed_at = piece, set(), at
            if existing is not None and uid in state.reopened:
                what = say("{change} (agreement reopened)", change=what)
            state.history.append({"at": at, "what": what})
        elif kind == "remove" and uid in state.pieces:
            gone = state.pieces.pop(uid)
            state.history.append({"at": at, "what": say("Removed {piece}", piece=gone.piece.name)})
        elif kind == "seat":
            player, phone = event.get("player"), event.get("phone")
            free = isinstance(player, int) and player not in state.seats
            if free and phone and state.seat_refusal(player, phone) is None:
                state.seats[player] = phone
                state.history.append({"at": at, "what": say("{who} agrees on one phone", who=who(player))})
        elif kind == "agree" and uid in state.pieces:
            player, phone = event.get("player"), event.get("phone")
            if phone and isinstance(player, int):
                if state.seat_refusal(player, phone) is not None:
                    continue
                state.seats.setdefault(player, phone)
            state.pieces[uid].agreed.add(player)
            state.history.append(
                {
                    "at": at,
                    "what": say(
                        "{who} agreed to {piece}", who=who(player), piece=state.pieces[uid].piece.name
                    ),
                }
            )
        if state.agreed:
            state.locked_at = state.locked_at or at
        else:
            state.locked_at = None
    return state


# Every module here is a kind of terrain rules and registers itself: a new kind is a new module,
# and nothing else lists it. The plug-ins import only this module and the pack's building blocks.
Registry.discover(__name__, __path__)
