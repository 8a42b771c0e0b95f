"""Every pattern a pasted list meets runs in time linear in the text (issue 27, item 1).

A player's phone may paste anything, and Python's ``re`` backtracks: a pattern with adjacent
or nested repeats over the same characters took cubic time on a run of blanks (the Conquest
detector: 45 s for 4,000 blanks, both server workers stalled). The readers' patterns are
written so that no repeat can give back what the next one could take (possessive repeats,
horizontal blanks only in multi-line patterns, unanchored searches that open on a literal),
and this test holds them to it: each runs against 25 KB (100 KB in ``make soak``) made of the characters it repeats,
and must take at most RATIO times a plain scan of the same input, measured in the same run.
A backtracking blow-up takes thousands of times longer and is stopped by an alarm.

Every pattern is a module-level constant (the test finds them there), so no reader may call
``re.match`` and its kin on a pattern written inline.
"""

from __future__ import annotations

import ast
import functools
import importlib
import pkgutil
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import app.rules.lists
from tests import soak

# 25 KB in make test (a quadratic pattern already takes hundreds of times a scan), 100 KB in make soak.
SIZE = soak.size(25, 100) * 1024
# A linear pattern takes a few times a plain scan (it tries a match at every position, as the
# scan does); a quadratic one on 100 KB takes tens of thousands of times.
RATIO = 100
# The plain scan every pattern is measured against: a one-character match at every position.
SCAN = re.compile(r".", re.DOTALL)
MODULES = [
    *(f"app.rules.lists.{m.name}" for m in pkgutil.iter_modules(app.rules.lists.__path__)),
    "app.rules.lists",
    "app.rules.matching",
]
BASE_UNITS = [" ", "\t", "\n", " \n", "\u00a0", "1", "1,", "1 ", "a", "a ", "1 x "]


def patterns() -> Iterator[tuple[str, re.Pattern[str]]]:
    """Every compiled pattern of the list readers and the matching, by module and name."""
    for name in MODULES:
        module = importlib.import_module(name)
        short = name.rsplit(".", 1)[-1]
        for attr, value in vars(module).items():
            if isinstance(value, re.Pattern):
                yield f"{short}.{attr}", value
            elif isinstance(value, tuple | list):
                for i, item in enumerate(value):
                    if isinstance(item, tuple) and item and isinstance(item[0], re.Pattern):
                        yield f"{short}.{attr}[{i}]", item[0]


def worst_inputs(pattern: re.Pattern[str]) -> Iterator[str]:
    """100 KB of each character (or pair) the pattern might repeat, ended so it cannot match,
    and each literal the pattern holds followed by a run of what may come after it."""
    literals = sorted(
        {c for c in re.sub(r"\\[a-zA-Z]", "", pattern.pattern) if c.isprintable() and c != "\\"}
    )
    units = list(BASE_UNITS) + [u for c in literals for u in (c, c + " ")]
    seen = set()
    for unit in units:
        body = (unit * (SIZE // len(unit) + 1))[:SIZE]
        for text in (body + "!", body + "\n!"):
            if text not in seen:
                seen.add(text)
                yield text
    for c in [*literals, "2 x "]:
        for run in (" ", "1", "a"):
            yield c + run * SIZE + "!"


@functools.lru_cache(maxsize=512)
def _scan_seconds(text: str) -> float:
    """The plain scan's time on this text (the least of three runs), measured once a text."""
    return _seconds(lambda: SCAN.findall(text))


class Slow(Exception):
    pass


def _alarm(*_args: object) -> None:
    raise Slow


def _run(pattern: re.Pattern[str], text: str) -> None:
    # As the readers use them: match a line, search or findall a whole text, sub.
    pattern.match(text)
    pattern.search(text)
    if pattern.flags & re.MULTILINE:
        pattern.findall(text)


def _seconds(job, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        job()
        best = min(best, time.perf_counter() - started)
    return best


def _inline_calls(source: str) -> list[str]:
    """``re.<function>(...)`` calls anywhere but a module-level ``re.compile``."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
            and not (node.func.attr == "compile" and _at_module_level(tree, node))
        ):
            found.append(f"line {node.lineno}: re.{node.func.attr}")
    return found


def _at_module_level(tree: ast.Module, call: ast.Call) -> bool:
    """Whether the call is (inside) the value of a module-level assignment, not in a function."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(c is call for c in ast.walk(node.value)):
            return True
    return False


def test_no_reader_writes_a_pattern_inline() -> None:
    for name in MODULES:
        source = Path(importlib.import_module(name).__file__ or "").read_text(encoding="utf-8")
        assert _inline_calls(source) == [], f"{name} uses re inline: make each pattern a module constant"


@pytest.mark.soak
@pytest.mark.parametrize(("name", "pattern"), list(patterns()), ids=[n for n, _ in patterns()])
def test_every_pattern_is_linear_on_a_long_paste(name: str, pattern: re.Pattern[str]) -> None:
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for text in worst_inputs(pattern):
            scan = _scan_seconds(text)
            budget = RATIO * scan
            # Stopped well past the budget (a blow-up never ends by itself); a second's floor
            # keeps a busy machine's pause from stopping a pattern that is merely unlucky.
            signal.setitimer(signal.ITIMER_REAL, max(budget, 1.0))
            try:
                took = _seconds(lambda text=text: _run(pattern, text), repeat=1)
                if took > budget:  # once more, in case the machine was busy
                    took = min(took, _seconds(lambda text=text: _run(pattern, text), repeat=2))
            except Slow:
                took = float("inf")
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            assert took <= budget, (
                f"{name} took {took / scan:,.0f} times a plain scan on 100 KB of {text[:6]!r}... "
                f"(at most {RATIO} allowed)"
            )
    finally:
        signal.signal(signal.SIGALRM, previous)
