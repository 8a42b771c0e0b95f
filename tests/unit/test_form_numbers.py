"""The numbers a scoring form sends under one name each (``control.<objective>``,
``dice.<objective>``) are read into the event by objective."""

from __future__ import annotations

import pytest
from werkzeug.datastructures import MultiDict

from app.web.forms import numbers_named

FORM = MultiDict(
    [("control.west", "0"), ("control.east", ""), ("dice.west", "5"), ("dice.east", " "), ("player", "1")]
)


@pytest.mark.parametrize(
    ("prefix", "skip_blank", "read"),
    [
        ("control", False, {"west": 0, "east": None}),  # an objective no one holds stays in, as None
        ("dice", True, {"west": 5}),  # a die not rolled is left out
        ("dice", False, {"west": 5, "east": None}),
        ("zone", False, {}),
    ],
)
def test_fields_are_read_by_the_name_after_the_prefix(
    prefix: str, skip_blank: bool, read: dict[str, int | None]
) -> None:
    assert numbers_named(FORM, prefix, skip_blank=skip_blank) == read
