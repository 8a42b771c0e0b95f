"""Draw Muster's app icons (static/icons/*.png) with Pillow (it comes with WeasyPrint): `make icons`, or `python -m app.icons`.

A shield with an M on the dark theme's background. The "any" icons have rounded corners;
the maskable ones fill the square and keep the shield inside the 80 % safe zone.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
BG = (20, 23, 28, 255)  # --bg, dark theme
ACCENT = (240, 164, 90, 255)  # --accent, dark theme
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
SCALE = 4  # draw large, then shrink: smooth edges without an anti-aliasing renderer


def shield(draw: ImageDraw.ImageDraw, size: int, fill_ratio: float) -> None:
    """The shield and its M, centred, as wide as ``fill_ratio`` of the icon."""
    w = size * fill_ratio
    h = w * 1.18
    left, top = (size - w) / 2, (size - h) / 2
    shoulder = top + h * 0.52
    points = [
        (left, top),
        (left + w, top),
        (left + w, shoulder),
        (left + w * 0.5, top + h),
        (left, shoulder),
    ]
    draw.polygon(points, fill=ACCENT)
    font = ImageFont.truetype(FONT, int(h * 0.52))
    draw.text((size / 2, top + h * 0.40), "M", font=font, fill=BG, anchor="mm")


def icon(px: int, maskable: bool) -> Image.Image:
    size = px * SCALE
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:
        draw.rectangle((0, 0, size, size), fill=BG)
        shield(draw, size, 0.46)
    else:
        draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=size * 0.18, fill=BG)
        shield(draw, size, 0.58)
    return image.resize((px, px), Image.Resampling.LANCZOS)


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for px in (192, 512):
        icon(px, maskable=False).save(OUT / f"icon-{px}.png", optimize=True)
        icon(px, maskable=True).save(OUT / f"maskable-{px}.png", optimize=True)
    icon(180, maskable=True).convert("RGB").save(OUT / "apple-touch-icon.png", optimize=True)
    icon(48, maskable=False).save(OUT / "favicon-48.png", optimize=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
