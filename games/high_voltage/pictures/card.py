"""Pictures sent to one player only: the card they drew, and their secret company colour.

Both go out as ephemeral or direct messages; they take the slower, smaller PNG encoding and an
adaptive palette. There are only so many cards and colours, and many games deal the same ones,
so each picture is drawn once per process and kept (bytes are immutable, and rendering is pure).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from data.texts import DEFAULT, Texts, texts_for
from games.high_voltage.pictures.palette import (
    DASHES,
    DOTS,
    PINSTRIPE,
    SOLID,
    THEME,
    HighVoltageTheme,
)
from games.high_voltage.pictures.sprites import (
    PathKey,
    card_sprite,
    draw_band,
    draw_disc,
    path_key,
    reduce_supersampled,
)
from render.canvas import fit, shrink
from render.encode import png_bytes
from render.fonts import font

ROTATIONS = (0, 90, 180, 270)
_PATTERN_WORDS = {SOLID: "solid", DASHES: "dashes", DOTS: "dots", PINSTRIPE: "pinstripe"}
_TURN = {"N": "E", "E": "S", "S": "W", "W": "N"}  # one quarter turn clockwise


def rotate_paths(paths: tuple[PathKey, ...], degrees: int) -> tuple[PathKey, ...]:
    """Paths after turning the card clockwise by `degrees` (a multiple of 90)."""
    out = []
    for a, b, colour in paths:
        for _ in range((degrees // 90) % 4):
            a, b = _TURN[a], _TURN[b]
        out.append(path_key({"edges": [a, b], "colour": colour}))
    return tuple(out)


def _look(paths: tuple[PathKey, ...]) -> frozenset[PathKey]:
    return frozenset(paths)


PAD, GAP, TITLE_H, LABEL_H = 28, 26, 52, 64
CARD_SIZE = 190
SAME_SIZE = 18  # "same as 90°": 18 pixels on a picture 894 wide read as 11 in Discord


def card_slot(i: int, size: int = CARD_SIZE) -> tuple[int, int, int, int]:
    """The box of the i-th orientation (0 = 0° ... 3 = 270°) in the drawn-card picture."""
    x, y = PAD + i * (size + GAP), PAD + TITLE_H
    return x, y, x + size, y + size


def _word(texts: Texts, table: str, name: str) -> str:
    """A word of the game data in `texts`' language, or the name itself when unknown."""
    key = f"{table}.{name}"
    return texts(key) if texts.has(key) else name.replace("_", " ")


def hv_card_png(
    face: Mapping[str, Any],
    *,
    theme: HighVoltageTheme = THEME,
    size: int = CARD_SIZE,
    language: str = DEFAULT,
) -> bytes:
    """The drawn card in its four orientations 0°, 90°, 180°, 270°, side by side and labelled
    as the buttons under it are, so its drawer can pick one. An orientation that looks
    exactly like an earlier one says so."""
    paths = tuple(path_key(p) for p in face.get("paths", []))
    kind = str(face.get("kind", ""))
    return _card_png(paths, int(face.get("rotation", 0)), kind, theme, size, language)


@lru_cache(maxsize=256)  # 64 faces in a deck, any orientation, a few languages; ~13 kB each
def _card_png(
    paths: tuple[PathKey, ...],
    start: int,
    kind: str,
    theme: HighVoltageTheme,
    size: int,
    language: str,
) -> bytes:
    texts = texts_for(language)
    pad = PAD
    width = 2 * pad + 4 * size + 3 * GAP
    height = pad + TITLE_H + size + LABEL_H
    img = Image.new("RGB", (width, height), theme.background)
    draw = ImageDraw.Draw(img)
    if kind:
        title = texts("picture.hv.card", kind=_word(texts, "picture.hv.kinds", kind))
    else:
        title = texts("picture.hv.card_plain")
    choose = texts("picture.hv.choose")
    room = width - 2 * pad - font(20, False).getlength(choose) - 24
    title = fit(title, 30, room)
    draw.text((pad, pad - 4), title, fill=theme.text, font=font(30))
    draw.text(
        (width - pad, pad + 4),
        choose,
        fill=theme.text_dim,
        font=font(20, False),
        anchor="ra",
    )
    seen: dict[frozenset[PathKey], int] = {}
    for i, degrees in enumerate(ROTATIONS):
        turned = rotate_paths(paths, (degrees - start) % 360)
        x, y, _, _ = card_slot(i, size)
        danger = texts("picture.hv.danger_card")
        img.paste(card_sprite(theme, kind, turned, size, theme.background, danger), (x, y))
        label_y = y + size + 12
        draw.text(
            (x + size / 2, label_y), f"{degrees}°", fill=theme.text, font=font(30), anchor="ma"
        )
        same = seen.setdefault(_look(turned), degrees)
        if same != degrees:
            draw.text(
                (x + size / 2, label_y + 34),
                texts("picture.same_as", degrees=same),
                fill=theme.text_dim,
                font=font(SAME_SIZE, False),
                anchor="ma",
            )
    return png_bytes(img)


def company_legend(colour: str, texts: Texts, theme: HighVoltageTheme = THEME) -> str:
    """How a company's paths look and the letter on its disc ("dashed paths, letter B"), as
    the secret picture says it under the company's name (and its alt text too)."""
    company = theme.company(colour)
    pattern = _word(texts, "picture.hv.patterns", _PATTERN_WORDS.get(company.pattern, "other"))
    return texts("picture.hv.pattern", pattern=pattern, letter=company.letter)


SECRET_SIZE = (560, 250)
SECRET_DISC = (118, 125, 78)  # centre x, centre y, radius of the company disc


@lru_cache(maxsize=64)
def hv_secret_png(
    colour: str, *, theme: HighVoltageTheme = THEME, language: str = DEFAULT
) -> bytes:
    """A player's company: its disc and letter, its name, and how its paths look."""
    texts = texts_for(language)
    company = theme.company(colour)
    width, height = SECRET_SIZE
    k = theme.supersample
    big = Image.new("RGB", (width * k, height * k), theme.background)
    draw = ImageDraw.Draw(big)
    cx, cy, r = (v * k for v in SECRET_DISC)
    draw_disc(draw, cx, cy, r, company, theme)
    x0 = cx + r + 36 * k
    room = (width - 36) * k - x0
    heading = fit(texts("picture.hv.your_company"), 22 * k, room, bold=False)
    draw.text((x0, 44 * k), heading, fill=theme.text_dim, font=font(22 * k, False))
    name = _word(texts, "picture.hv.companies", company.name)
    name, name_size = shrink(name[:1].upper() + name[1:], 46 * k, room)
    draw.text((x0, 76 * k), name, fill=company.fill, font=font(name_size))
    band_y = 170 * k
    draw_band(draw, [(x0, band_y), ((width - 36) * k, band_y)], company, 18 * k, 104 * k)
    legend = company_legend(colour, texts, theme)
    legend, legend_size = shrink(legend, 16 * k, room, bold=False)
    draw.text((x0, band_y + 24 * k), legend, fill=theme.text_dim, font=font(legend_size, False))
    return png_bytes(reduce_supersampled(big, (width, height)))
