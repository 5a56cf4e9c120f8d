"""A one-off picture (a drawn card, a secret, a result, a table) is written on 256 colours of
its own (`render.encode.flat_exact_palette`): its flat colours exactly, every other shade near
the one drawn, whatever the number of shades."""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageDraw

from render.encode import png_bytes
from render.standings import StandingLine, StandingsView, standings_image

# No shade of these pictures is further from the one drawn (median cut, used before, put some
# anti-aliased edges 48 levels away; the octree alone kept 12 but made no flat colour exact).
NEAR = 16
GROUND = (27, 31, 42)
# Two flat colours two levels apart, as a theme's silver and its shadow might be.
SILVER = (196, 204, 218)
SHADOW = (198, 206, 220)
GOLD = (255, 208, 71)
PIECES = ((230, 72, 76), (66, 118, 234), (44, 160, 96), (245, 200, 40), (150, 90, 200))


def _decoded(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.format == "PNG" and img.mode == "P"
    return img.convert("RGB")


def _many_shades() -> Image.Image:
    """Flat blocks, discs and text drawn large and reduced, as the pictures are: the edges
    blend every pair of colours into far more than 256 shades."""
    big = Image.new("RGB", (2400, 1200), GROUND)
    draw = ImageDraw.Draw(big)
    for i, colour in enumerate((SILVER, SHADOW, GOLD)):
        draw.rectangle((40 + 800 * i, 40, 760 + 800 * i, 360), fill=colour)
    for i, colour in enumerate(PIECES):
        draw.ellipse((60 + 300 * i, 420, 300 + 300 * i, 660), fill=colour, outline=SILVER, width=9)
        draw.text((100 + 300 * i, 480), "21", fill=GROUND, font_size=110)
    for i, colour in enumerate((GOLD, SILVER, *PIECES)):
        draw.text(
            (60, 700 + 70 * i % 420), "Annabelle-Sophie " * (i + 1), fill=colour, font_size=64
        )
    return big.reduce(4)


def _off(img: Image.Image, colour: tuple[int, ...]) -> Image.Image:
    """How far each pixel is from `colour`: the largest of its three differences."""
    red, green, blue = ImageChops.difference(img, Image.new("RGB", img.size, colour)).split()
    return ImageChops.lighter(ImageChops.lighter(red, green), blue)


def _flat_pixels_exact(drawn: Image.Image, written: Image.Image, colour: tuple[int, ...]) -> None:
    where = _off(drawn, colour).point(lambda v: 255 if v == 0 else 0)
    assert where.getbbox() is not None, f"{colour} is in the picture"
    wrong = ImageChops.darker(_off(written, colour).point(lambda v: 255 if v else 0), where)
    assert wrong.getbbox() is None, f"every pixel drawn {colour} is written so"


def _furthest(drawn: Image.Image, written: Image.Image) -> int:
    return max(high for _, high in ImageChops.difference(drawn, written).getextrema())


def test_a_picture_of_many_shades_keeps_its_flat_colours_exact_and_the_rest_near() -> None:
    drawn = _many_shades()
    assert len(drawn.getcolors(1 << 20) or []) > 1000, "more shades than a palette holds"
    written = _decoded(png_bytes(drawn))
    for colour in (GROUND, SILVER, SHADOW, GOLD):
        _flat_pixels_exact(drawn, written, colour)
    assert _furthest(drawn, written) <= NEAR


def test_the_podium_table_keeps_its_medal_colours_exact() -> None:
    lines = tuple(
        StandingLine(place=i + 1, name=name, points=str(3 - i), tiebreaks=("2½",), games=3)
        for i, name in enumerate(("Ada", "Bruno", "Chiara", "Dmitri", "Élodie"))
    )
    view = StandingsView(
        title="Pylons Swiss: standings",
        subtitle="After round 3 of 3",
        headings=("#", "Player", "Points", "Buchholz", "Games"),
        lines=lines,
        podium=True,
    )
    drawn = standings_image(view).convert("RGB")
    written = _decoded(png_bytes(drawn))
    flat = [c for n, c in drawn.getcolors(1 << 20) or [] if n >= 0.002 * drawn.width * drawn.height]
    assert len(flat) >= 4, "a ground, bands and accents"
    for colour in flat:
        _flat_pixels_exact(drawn, written, colour)
    assert _furthest(drawn, written) <= NEAR


def test_more_flat_colours_in_one_box_than_entries_kept_free_are_still_exact() -> None:
    """Twelve greys a level apart: the octree puts them in one box, with eight entries kept
    free for the others; the picture is then mapped by median cut, exact for so few colours."""
    drawn = Image.new("RGB", (480, 140), GROUND)
    draw = ImageDraw.Draw(drawn)
    greys = [(100, 110, 120 + i) for i in range(12)]
    for i, grey in enumerate(greys):
        draw.rectangle((i * 40, 0, i * 40 + 39, 99), fill=grey)
    written = _decoded(png_bytes(drawn))
    for colour in (GROUND, *greys):
        _flat_pixels_exact(drawn, written, colour)
