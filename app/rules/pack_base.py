"""What every part of a rulepack is made of: the strict model, ids, texts and named entries.

The core pack (app/rules/pack.py) and the sections a plug-in parses for itself (army rules in
app/rules/army/, terrain rules in app/rules/terrain/, a game system's own sections and scoring
blocks in its section.py) build on these, so neither imports the other's models.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

Id = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=64)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=2000)]


class OwnWords:
    """Marks a pack field whose text is the pack's own words (a summary, a reading, a reminder),
    which a pack's translation files may translate; a plain :data:`Text` is a name from the
    books (a battleplan, a unit, a ploy) and stays as the pack gives it."""

    def __repr__(self) -> str:
        return "OwnWords()"


OWN_WORDS = OwnWords()
#: A text in the pack's own words: translated where the pack's translation files give it
#: (app/rules/pack_translations.py; told in the reader's language by app/rules/speech.py).
Prose = Annotated[Text, OWN_WORDS]

# A fact a pack asks players to record: a snake_case name that is not a key every event has.
RESERVED_FACTS = frozenset(
    {"id", "type", "round", "player", "players", "first", "control", "tactic", "event", "rule", "facts"}
)


def _fact_name(name: str) -> str:
    if name in RESERVED_FACTS:
        raise ValueError(f"{name!r} is a field every event has; name the fact otherwise")
    return name


FactName = Annotated[
    str,
    StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=40),
    AfterValidator(_fact_name),
]


class Model(BaseModel):
    """Base for pack models: unknown keys are errors, values are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Target(Model):
    """Units of an army a tactic or strategy is about, shown from the attached rosters."""

    whose: Literal["own", "opponent"]
    what: Literal["general", "heroes", "monsters", "battleline", "wizards", "priests"]


class Entry(Model):
    """A named rule with a short summary in our own words."""

    id: Id
    name: Text
    summary: Prose
    # Where the source can be read two ways: the reading Muster takes, and why.
    reading: Prose | None = None
    targets: list[Target] = []


class VpBlock(Model):
    """A scoring block (of any system's ``BLOCKS``) that gives ``vp``; each names itself with a
    ``block`` literal of its own."""

    vp: int = Field(ge=0)


class CountBlock(VpBlock):
    """A scoring block that gives ``vp`` for ``count`` of something (objectives held, zones)."""

    count: int = Field(ge=1)


def unique(values: list[str], what: str) -> None:
    """Refuse a list of ids in which one appears twice (a pack's error, naming it)."""
    seen: set[str] = set()
    for v in values:
        if v in seen:
            raise ValueError(f"{what} {v!r} appears twice")
        seen.add(v)
