"""Events as pydantic models: what each event type takes, checked once, refused in one sentence.

Every game system describes its events as models (one per ``type``) gathered in an
:class:`EventSet`. The set checks an incoming event before the rules see it, and the same
models write the event schemas of docs/openapi.yaml (``tools/openapi_events.py``), so what
the server takes and what the description says are one thing.

A model checks the shape: the fields an event takes, their kinds, their bounds. Bounds that
depend on the game (how many players, how many battle rounds) come from the game as the
validation's context (:meth:`EventSet.limits`). What depends on the game as it stands (whose
turn it is, what is already recorded) is the rules' to judge.

A refusal names the field and says what it may be, in the words of :func:`allowed`: the
wording comes from the field's schema, so every system refuses the same mistake alike and no
pydantic message ("Input should be a valid integer") reaches a player.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
)
from pydantic_core import PydanticCustomError

from app.rules.log import Refused
from app.rules.problems import field_name
from app.rules.speech import catalogue, say, say_plural, words
from app.rules.text import clean_text

MAX_PLAYERS = 6
MAX_ROUNDS = 20
MAX_NAME = 60
SAYS = "x-muster-says"
VOCABULARY = "x-muster-vocabulary"
REF = "#/components/schemas/{model}"


class EventModel(BaseModel):
    """One event type: its fields, nothing more (an unknown field is refused), nothing coerced.

    ``what`` names the event in a refusal of a field it does not take ("a siege tactic"): the
    subject of a sentence (marked with ``words``; German and French say it in the nominative).
    """

    model_config = ConfigDict(strict=True, extra="forbid", populate_by_name=True)
    what: ClassVar[str] = words("this event")

    id: Annotated[str, Field(json_schema_extra={"format": "uuid"}, description="A UUID made by the client.")]


class Part(BaseModel):
    """An object inside an event (a unit's roll, a zone held): closed and strict like an event."""

    model_config = ConfigDict(strict=True, extra="forbid", populate_by_name=True)


# --- bounds that depend on the game ----------------------------------------------------------
def within(limit: str, offset: int = 0) -> AfterValidator:
    """Refuse a value above the game's own bound ``limit`` (its context), plus ``offset``."""

    def check(value: Any, info: ValidationInfo) -> Any:
        top = (info.context or {}).get(limit)
        if isinstance(value, int) and top is not None and value > top + offset:
            raise PydanticCustomError("beyond_game", "beyond the game's bound")
        return value

    return AfterValidator(check)


def _name(limit: int, notes: bool = False) -> AfterValidator:
    """A name as a player typed it: cleaned of controls, on one line, 1 to ``limit`` characters."""

    def check(value: str) -> str:
        text = clean_text(value, notes=notes)
        if not text or len(text) > limit:
            raise PydanticCustomError("name_length", "not a name of the right length")
        return text

    return AfterValidator(check)


def name(limit: int = MAX_NAME, empty: bool = False) -> Any:
    """A short name a player typed (a unit, a terrain feature), 1 to ``limit`` characters;
    ``empty``: or nothing at all (an empty name is as good as none)."""
    if empty:
        says = {SAYS: words("a name of at most {most} characters, or left out")}
        return Annotated[str, Field(max_length=limit, json_schema_extra=says), AfterValidator(clean_text)]
    return Annotated[str, Field(min_length=1, max_length=limit), _name(limit)]


def text(limit: int, notes: bool = False) -> Any:
    """Free text of at most ``limit`` characters (a note, a purpose); may be empty."""
    return Annotated[
        str,
        Field(max_length=limit, json_schema_extra={SAYS: words("text of at most {most} characters")}),
        AfterValidator(lambda v: clean_text(v, notes=notes)),
    ]


def _unique(value: list[Any] | None) -> list[Any] | None:
    if value is not None and len(set(value)) != len(value):
        raise PydanticCustomError("not_unique", "an id twice")
    return value


def ids(vocabulary: str, says: str) -> Any:
    """A list of different ids of one kind (objectives, markers); left out: none."""
    item = Annotated[str, Field(json_schema_extra={VOCABULARY: vocabulary})]
    return Annotated[
        list[item] | None,
        Field(json_schema_extra={"uniqueItems": True, SAYS: says}),
        AfterValidator(_unique),
    ]


def whole(low: int, high: int | None = None, says: str | None = None) -> Any:
    """A whole number from ``low`` to ``high``."""
    extra = {SAYS: says} if says else {}
    return Annotated[int, Field(ge=low, le=high, json_schema_extra=extra)]


Player = Annotated[
    int,
    Field(ge=0, le=MAX_PLAYERS - 1, json_schema_extra={VOCABULARY: "players"}),
    within("players", -1),
]
Round = Annotated[
    int,
    Field(ge=1, le=MAX_ROUNDS, json_schema_extra={VOCABULARY: "rounds"}),
    within("rounds"),
]
Battle = Annotated[
    int, Field(ge=1, le=3, json_schema_extra={SAYS: words("a battle from 1 to {battles}")}), within("battles")
]
Die = Annotated[int, Field(ge=1, le=6, json_schema_extra={SAYS: words("the die as it landed, 1 to 6")})]
D3 = Annotated[int, Field(ge=1, le=3, json_schema_extra={SAYS: words("a D3 as it landed, 1 to 3")})]
Dice2 = Annotated[
    list[Die],
    Field(
        min_length=2,
        max_length=2,
        json_schema_extra={SAYS: words("a list of the 2 dice as they landed, each 1 to 6")},
    ),
]
#: True or false; left out (or sent empty) counts as false.
Flag = Annotated[bool | None, Field(json_schema_extra={SAYS: words("true or false")})]
ObjectiveId = Annotated[str, Field(json_schema_extra={VOCABULARY: "objectives"})]


# --- the events every system takes ---------------------------------------------------------
class RollEvent(EventModel):
    """A dice roll that decided something (any game, any time); it scores nothing."""

    what: ClassVar[str] = words("a roll")
    type: Literal["roll"]
    dice: Literal["d3", "d6", "d12", "2d6", "roll-off"]
    results: Annotated[
        list[Annotated[int, Field(ge=1, le=12)]],
        Field(
            min_length=1,
            max_length=24,
            description="The dice as they fell, each from 1 to the die's faces (two for 2d6).",
            json_schema_extra={SAYS: words("a list of 1 to 24 dice, each from 1 to 12 (the die's faces)")},
        ),
    ]
    purpose: Annotated[
        str | None,
        Field(max_length=120, json_schema_extra={SAYS: words("text of at most {most} characters")}),
    ] = None
    winner: Player | None = None


class UndoEvent(EventModel):
    """Undo the last entry still in force (both stay in the log)."""

    what: ClassVar[str] = words("an undo")
    type: Literal["undo"]
    event: Annotated[str, Field(description="The id of the last entry still in force.")]


# --- what a battle round of turns records in every system that plays one ----------------------
class BattleRoundStart(EventModel):
    """A battle round starts, before its first turn: its number, and who takes the first turn
    when the players said. A system's own start adds what its rules record then."""

    what: ClassVar[str] = words("a battle round's start")
    type: Literal["battle_round"]
    round: Round
    first: Player | None = None


class PlayerInRound(EventModel):
    """An event one player makes in a battle round (their turn's end, a ploy they play): the
    round and the player, each checked against the game's. A subclass names its ``type``."""

    type: str
    round: Round
    player: Player


class TurnEnd(PlayerInRound):
    """The end of a player's turn in a battle round; a system's own turn adds what it scores."""

    what: ClassVar[str] = words("a turn")
    type: Literal["turn"]


class PickAgain(EventModel):
    """A player asks to pick the shown secret picks again (from their own seat, X-Seat-Token);
    when every player has asked, all pick again. A system adds what the picks were for."""

    what: ClassVar[str] = words("an agreement to pick again")
    type: Literal["repick"]
    player: Player


# --- a system's set of events --------------------------------------------------------------
class EventSet:
    """A game system's events: one model per type, the game's bounds, and the check of one event.

    ``limits(state)`` gives the bounds a game sets (``players``, ``rounds``...) for the fields
    that name them; ``name`` is the system's, for the schema of its union in docs/openapi.yaml.
    """

    def __init__(
        self, name: str, *models: type[EventModel], limits: Callable[[Any], dict[str, int]] | None = None
    ) -> None:
        self.name = name
        self.models: dict[str, type[EventModel]] = {}
        for model in (*models, RollEvent):
            for kind in _types(model):
                self.models[kind] = model
        self._limits = limits

    @property
    def types(self) -> tuple[str, ...]:
        """The event types the system folds, in the order its models were given."""
        return tuple(self.models)

    def limits(self, state: Any) -> dict[str, int]:
        """The bounds this game sets: its players (and whatever the system adds)."""
        found = {"players": len(state.setup.players)} if state is not None else {}
        if self._limits is not None and state is not None:
            found |= self._limits(state)
        return found

    def read(self, event: dict[str, Any], state: Any = None) -> dict[str, Any]:
        """The event checked against its type's model (and the game's bounds), as plain data:
        the fields sent, names cleaned; raises :class:`Refused` with one sentence when it is wrong.
        """
        kind = event.get("type")
        if not isinstance(kind, str) or kind not in self.models:
            raise Refused(
                say("type must be one of {types}.", types=", ".join([*self.models, "undo"])), "type"
            )
        return check(self.models[kind], event, self.limits(state))

    def fields(self, kind: str, event: dict[str, Any]) -> dict[str, Any]:
        """An event's fields read as that type's (a roster check reads them before the rules):
        the event need not carry its id or type yet."""
        return self.read({"id": "", **event, "type": kind})


def _types(model: type[BaseModel]) -> tuple[str, ...]:
    annotation = model.model_fields["type"].annotation
    return tuple(str(a) for a in getattr(annotation, "__args__", ()))


def check(
    model: type[BaseModel], event: dict[str, Any], limits: dict[str, int] | None = None
) -> dict[str, Any]:
    """``event`` validated by ``model`` and dumped again, or :class:`Refused` in one sentence."""
    limits = limits or {}
    try:
        found = model.model_validate(event, context=limits)
    except ValidationError as exc:
        raise refusal(model, exc.errors(include_url=False)[0], limits) from None
    return found.model_dump(by_alias=True, exclude_unset=True)


# --- refusals in player words ----------------------------------------------------------------
@cache
def _schema(model: type[BaseModel]) -> dict[str, Any]:
    return TypeAdapter(model).json_schema(ref_template="#/$defs/{model}")


def refusal(model: type[BaseModel], error: Any, limits: dict[str, int]) -> Refused:
    """The one sentence for a pydantic error: the field, and what it may be."""
    schema = _schema(model)
    defs = schema.get("$defs", {})
    loc = list(error["loc"])
    if error["type"] == "extra_forbidden":
        # The key is the last part of the location; the object it is in says what it takes.
        holder, path = _walk(schema, defs, loc[:-1])
        key = field_name(loc[-1])
        where = _path(path) if path else say(getattr(model, "what", "this event"))
        takes = sorted(k for k in _resolve(holder, defs).get("properties", {}) if k not in ("id", "type"))
        if not takes:
            return Refused(
                say("{key} is not part of {where}; it takes nothing more.", key=key, where=where), key
            )
        return Refused(
            say(
                "{key} is not part of {where}; it takes {fields}.",
                key=key,
                where=where,
                fields=", ".join(takes),
            ),
            key,
        )
    node, path = _walk(schema, defs, loc)
    # An item of a list that says what it holds ("a list of different marker ids") is refused
    # as that list, unless the item has words of its own.
    for depth in range(len(path) - 1, 0, -1):
        if SAYS in _resolve(node, defs) or not isinstance(path[depth], int):
            break
        outer, _ = _walk(schema, defs, path[:depth])
        if SAYS in _resolve(outer, defs):
            node, path = outer, path[:depth]
            break
    rule = str(path[0]) if path else "refused"
    what = allowed(node, defs, limits)
    if not path:
        return Refused(say("The event must be {allowed}.", allowed=what), rule)
    if _may_be_left_out(node, defs):
        return Refused(say("{field} must be {allowed}, or left out.", field=_path(path), allowed=what), rule)
    return Refused(say("{field} must be {allowed}.", field=_path(path), allowed=what), rule)


def _walk(schema: dict[str, Any], defs: dict[str, Any], loc: list[Any]) -> tuple[dict[str, Any], list[Any]]:
    """The schema of the field at ``loc``, and the part of ``loc`` that names fields and items
    (pydantic adds the branch of a union it tried, which a player never sees)."""
    node, path = schema, []
    for part in loc:
        here = _resolve(node, defs)
        props = here.get("properties", {})
        if isinstance(part, str) and part in props:
            node = props[part]
        elif isinstance(part, int) and part < len(here.get("prefixItems", [])):
            node = here["prefixItems"][part]
        elif isinstance(part, int) and isinstance(here.get("items"), dict):
            node = here["items"]
        elif isinstance(part, str) and isinstance(here.get("additionalProperties"), dict):
            node = here["additionalProperties"]  # a value of an object keyed by ids (control)
        else:
            break
        path.append(part)
    return node, path


def _path(parts: list[Any]) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """The node itself, its ``$ref`` followed, and a nullable ``anyOf`` reduced to its value."""
    while True:
        if "$ref" in node:
            node = {**defs[node["$ref"].rsplit("/", 1)[1]], **{k: v for k, v in node.items() if k != "$ref"}}
            continue
        parts = [p for p in node.get("anyOf", []) if p.get("type") != "null"]
        if len(parts) == 1 and len(node.get("anyOf", [])) == 2:
            node = {**parts[0], **{k: v for k, v in node.items() if k != "anyOf"}}
            continue
        return node


class _Bounds(dict[str, Any]):
    """The game's bounds for a field's words; one the game does not give is the schema's own."""

    top: Any = None

    def __missing__(self, key: str) -> Any:
        return self.top


def _nullable(node: dict[str, Any]) -> bool:
    return any(p.get("type") == "null" for p in node.get("anyOf", []))


def _may_be_left_out(raw: dict[str, Any], defs: dict[str, Any]) -> bool:
    """Whether a refusal adds that the field may be left out: a nullable field, unless its own
    words (or true or false) say all there is."""
    node = _resolve(raw, defs)
    return _nullable(raw) and SAYS not in node and node.get("type") != "boolean"


def _either(items: list[str]) -> str:
    if len(items) == 2:
        return say("{first} or {second}", first=items[0], second=items[1])
    return "".join(items)


def allowed(raw: dict[str, Any], defs: dict[str, Any], limits: dict[str, int]) -> str:
    """What a field may be, in player words, from its schema (and the game's bounds): a phrase
    in the reader's language that completes "{field} must be ..." (a refusal adds ", or left
    out" for a field that may be)."""
    node = _resolve(raw, defs)
    if SAYS in node:  # the field's own words, whole (with the game's bounds filled in)
        bounds = _Bounds(limits, last_player=limits.get("players", MAX_PLAYERS) - 1)
        bounds.top = node.get("maximum")
        if node.get("maxLength") is not None:
            bounds["most"] = node["maxLength"]
        return catalogue().gettext(str(node[SAYS])).format_map(bounds)
    vocabulary = node.get(VOCABULARY)
    if vocabulary == "players":
        return say("a player's index in this game, 0 to {last}", last=limits.get("players", MAX_PLAYERS) - 1)
    if vocabulary == "rounds":
        top = limits.get("rounds", node.get("maximum", MAX_ROUNDS))
        return say("a battle round from 1 to {last}", last=top)
    if "const" in node:
        return str(node["const"])
    if "enum" in node:
        values = [str(v) for v in node["enum"] if v is not None]
        return say("one of {values}", values=", ".join(values)) if len(values) > 2 else _either(values)
    kind = node.get("type")
    if kind == "boolean":
        return say("true or false")
    if kind in ("integer", "number"):
        return _number(kind == "integer", node.get("minimum", node.get("exclusiveMinimum")), node)
    if kind == "string":
        most = node.get("maxLength")
        if most and node.get("minLength"):
            return say("a name of {least} to {most} characters", least=node["minLength"], most=most)
        return say("text of at most {most} characters", most=most) if most else say("text")
    if kind == "array":
        low, high = node.get("minItems", 0), node.get("maxItems")
        if low == high:
            return say_plural("a list of {count} entry", "a list of {count} entries", low)
        if high is None:
            return say("a list of {least} or more entries", least=low)
        if low:
            return say("a list of {least} to {most} entries", least=low, most=high)
        return say("a list of at most {most} entries", most=high)
    if kind == "object":
        return say("an object of the fields it takes")
    return say("as described in docs/openapi.yaml")


def _number(whole: bool, low: Any, node: dict[str, Any]) -> str:
    """A number's bounds in words (a whole number or any)."""
    high = node.get("maximum")
    if "exclusiveMinimum" in node:
        if whole:
            return say("a whole number above {least} and at most {most}", least=low, most=high)
        return say("a number above {least} and at most {most}", least=low, most=high)
    if low is not None and high is not None:
        if whole:
            return say("a whole number from {least} to {most}", least=low, most=high)
        return say("a number from {least} to {most}", least=low, most=high)
    if low is not None:
        return (
            say("a whole number of {least} or more", least=low)
            if whole
            else say("a number of {least} or more", least=low)
        )
    return say("a whole number") if whole else say("a number")
