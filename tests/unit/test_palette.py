"""Both themes' colours are readable: every text-on-surface pair the stylesheet uses passes
WCAG AA, worked out here from the palette in static/muster.css.

The browser sweep (tests/browser/test_accessibility.py) runs axe on every screen in the light
theme, and in the dark theme on the screens that paint more than the palette's surfaces (the
game, the dice, the import preview). Every other dark screen is drawn from the same custom
properties, so checking the pairs here covers them without opening Chromium; a colour added to
the palette, or a pair the stylesheet starts to use, belongs in PAIRS.
"""

from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT

CSS = (ROOT / "static" / "muster.css").read_text(encoding="utf-8")

# (text, surface, least contrast): text needs 4.5:1 (WCAG 1.4.3), the focus ring 3:1 (1.4.11).
PAIRS = [
    ("fg", "bg", 4.5),
    ("fg", "card", 4.5),
    ("muted", "bg", 4.5),
    ("muted", "card", 4.5),
    ("accent", "bg", 4.5),  # links and text buttons
    ("accent", "card", 4.5),
    ("accent-fg", "accent", 4.5),  # a chosen segment, the running clock, strong tags
    ("alert", "bg", 4.5),  # problems and refusals
    ("alert", "card", 4.5),
    ("alert", "alert-bg", 4.5),  # the alert box, a refused entry's badge
    ("bg", "fg", 4.5),  # a scenario cycle held by the second player
    ("warn-fg", "warn-bg", 4.5),
    ("ok", "bg", 4.5),
    ("ok", "card", 4.5),
    ("focus", "bg", 3.0),
    ("focus", "card", 3.0),
]


def _declarations(body: str) -> dict[str, str]:
    return {name: value.strip().lower() for name, value in re.findall(r"--([a-z-]+)\s*:\s*([^;]+);", body)}


def _blocks(css: str) -> list[tuple[str, str]]:
    """Each innermost rule as (selector, body), the media queries' own rules included."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    return [(sel.strip(), body) for sel, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css)]


def palette(theme: str) -> dict[str, str]:
    """The custom properties a page in ``theme`` chosen on the theme switch gets."""
    found: dict[str, str] = {}
    for selector, body in _blocks(CSS):
        selector = selector.split("}")[-1].strip()
        if (selector == ":root" and theme == "light") or selector == f':root[data-theme="{theme}"]':
            found.update(_declarations(body))
    return found


def os_dark_palette() -> dict[str, str]:
    """What a phone set to dark gets before anyone touches the switch (the media query's rules)."""
    found: dict[str, str] = {}
    for media in re.finditer(r"@media \(prefers-color-scheme: dark\)\s*\{", CSS):
        depth, start = 1, media.end()
        end = start
        while depth:
            depth += {"{": 1, "}": -1}.get(CSS[end], 0)
            end += 1
        for selector, body in _blocks(CSS[start : end - 1]):
            if selector.startswith(":root"):
                found.update(_declarations(body))
    return found


def _luminance(colour: str) -> float:
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    channels = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two #rrggbb colours, from 1 to 21."""
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_contrast_is_worked_out_as_wcag_does() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # just fails AA
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)  # just passes


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_text_on_its_surface_is_readable(theme: str) -> None:
    colours = palette(theme)
    used = {name for pair in PAIRS for name in pair[:2]}
    assert used <= colours.keys(), f"{theme} lacks {sorted(used - colours.keys())}"
    poor = [
        f"{text} on {surface}: {contrast(colours[text], colours[surface]):.2f} (needs {least})"
        for text, surface, least in PAIRS
        if contrast(colours[text], colours[surface]) < least
    ]
    assert poor == []


def test_a_phone_set_to_dark_gets_the_dark_theme_the_switch_gives() -> None:
    dark, os_dark = palette("dark"), os_dark_palette()
    assert os_dark, "no dark palette under prefers-color-scheme"
    assert {name: os_dark[name] for name in dark if name in os_dark} == {
        name: dark[name] for name in dark if name in os_dark
    }
    assert dark.keys() - {"radius", "tap"} <= os_dark.keys()


def test_every_colour_the_stylesheet_paints_text_with_is_in_the_pairs() -> None:
    painted = set(re.findall(r"(?<![-\w])color:\s*var\(--([a-z-]+)\)", CSS))
    checked = {text for text, _surface, least in PAIRS if least >= 4.5}
    assert painted - checked == set()
