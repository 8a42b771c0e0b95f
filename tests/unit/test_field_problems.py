"""A roster's or a terrain piece's bad field is refused in one sentence of Muster's words, in
the reader's language, whatever kind of mistake pydantic found (app/rules/problems.py)."""

from __future__ import annotations

import gettext
from enum import Enum
from pathlib import Path
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.rules import speech
from app.rules.problems import checked_field

TRANSLATIONS = Path(__file__).resolve().parent.parent.parent / "app" / "translations"


class Side(Enum):
    ATTACKER = "attacker"
    DEFENDER = "defender"


class Piece(BaseModel):
    model_config = ConfigDict(extra="forbid")

    height: float = 1.0
    name: Annotated[str, Field(min_length=1, max_length=5)] = "Ruin"
    code: Annotated[str, Field(min_length=3, pattern=r"^[a-z]+$")] = "abc"
    tags: Annotated[list[str], Field(min_length=1, max_length=2)] = ["a"]
    weight: Annotated[int, Field(gt=0, lt=10)] = 1
    side: Side = Side.ATTACKER
    kind: Literal["wall", "ruin"] = "wall"


def refused(**fields: object) -> str:
    with pytest.raises(ValidationError) as caught:
        Piece(**fields)
    error = caught.value.errors()[0]
    return checked_field(".".join(str(p) for p in error["loc"]), error)


@pytest.mark.parametrize(
    ("fields", "sentence"),
    [
        ({"height": "tall"}, "height must be a number."),
        ({"name": ""}, "name must not be empty."),
        ({"name": "Wizard Tower"}, "name must be at most 5 characters long."),
        ({"code": "ab"}, "code must be at least 3 characters long."),
        ({"code": "ABC"}, "code is not written the way Muster takes it."),
        ({"tags": []}, "tags must hold at least 1 item."),
        ({"tags": ["a", "b", "c"]}, "tags must hold at most 2 items."),
        ({"weight": 0}, "weight must be more than 0."),
        ({"weight": 10}, "weight must be less than 10."),
        ({"side": "neutral"}, "side must be 'attacker' or 'defender'."),
        ({"kind": "hill"}, "kind must be 'wall' or 'ruin'."),
        ({"colour": "red"}, "colour is not a field Muster takes here."),
    ],
)
def test_each_kind_of_mistake_is_said_in_one_plain_sentence(fields: dict, sentence: str) -> None:
    assert refused(**fields) == sentence


def test_the_sentence_is_in_the_readers_language() -> None:
    german = gettext.translation("messages", str(TRANSLATIONS), ["de"])
    french = gettext.translation("messages", str(TRANSLATIONS), ["fr"])
    with speech.speaking(german):
        said = refused(name="Wizard Tower")
        assert "name" in said and "5" in said and "characters" not in said
        assert refused(height="tall") != "height must be a number."
    with speech.speaking(french):
        assert "tags" in refused(tags=[]) and "item" not in refused(tags=[])
