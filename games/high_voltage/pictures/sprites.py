"""Card faces, card backs, tokens and score cards, drawn once per process and then pasted.

Drawing a card with anti-aliased curves takes milliseconds; pasting a cached one takes
microseconds, which is how a whole board renders in a few milliseconds. Every sprite is drawn
`theme.supersample` times larger and reduced, because Pillow's shapes have no anti-aliasing of
their own. Cache keys are small hashable tuples (theme, kind, paths, token...), never a view.
Caches whose keys combine freely (a card face with a token, a halo and a ring) are bounded, so
a bot that runs for months keeps a steady footprint; the rest have only a few dozen keys.

The board's cells and score cards are not cached here: the board pastes them through
`Canvas.sprite`, which keeps each one already mapped onto the board's palette. A second,
full-colour copy here would be three times its size and almost never read (about 8 MB in a
drawing process that has drawn a few thousand boards).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFilter

from games.high_voltage.pictures.layout import CORNER, EAST, NORTH, SOUTH, WEST, frame_place
from games.high_voltage.pictures.palette import DASHES, DOTS, PINSTRIPE, Company, HighVoltageTheme
from render.fonts import font, icon_font
from render.theme import RGB

Point = tuple[float, float]
PathKey = tuple[str, str, str]  # (edge, edge, colour), edges in a canonical order
EdgePair = tuple[str, str]

_EDGE_ORDER = "NESW"
_OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}

# Energy token sides, as the view names them.
NO_TOKEN, HIGH_VOLTAGE, DANGER = "none", "high_voltage", "danger"


def edge_pair(a: str, b: str) -> EdgePair:
    """Edges of a path in N, E, S, W order, so one path has one cache key."""
    return (a, b) if _EDGE_ORDER.index(a) <= _EDGE_ORDER.index(b) else (b, a)


def path_key(path: dict) -> PathKey:
    """Hashable form of a view path {edges: [a, b], colour}."""
    a, b = edge_pair(*path["edges"])
    return a, b, path["colour"]


# ----------------------------------------------------------------------------- geometry


def path_points(a: str, b: str, size: float, steps: int = 48) -> list[Point]:
    """Centre line of a path on a `size` square: straight between opposite edge midpoints,
    otherwise a quarter circle around the shared corner, so that every path meets its
    neighbour's path exactly at the middle of the common edge."""
    mid = {
        "N": (size / 2, 0.0),
        "E": (size, size / 2),
        "S": (size / 2, size),
        "W": (0.0, size / 2),
    }
    if _OPPOSITE[a] == b:
        return [mid[a], mid[b]]
    corner = {
        frozenset("NE"): (size, 0.0),
        frozenset("ES"): (size, size),
        frozenset("SW"): (0.0, size),
        frozenset("NW"): (0.0, 0.0),
    }[frozenset((a, b))]
    cx, cy = corner
    t0 = math.atan2(mid[a][1] - cy, mid[a][0] - cx)
    t1 = math.atan2(mid[b][1] - cy, mid[b][0] - cx)
    delta = (t1 - t0 + math.pi) % (2 * math.pi) - math.pi  # the quarter turn, signed
    r = size / 2
    return [
        (cx + r * math.cos(t0 + delta * i / steps), cy + r * math.sin(t0 + delta * i / steps))
        for i in range(steps + 1)
    ]


def _lengths(points: Sequence[Point]) -> list[float]:
    out = [0.0]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        out.append(out[-1] + math.hypot(x1 - x0, y1 - y0))
    return out


def _at(points: Sequence[Point], cum: Sequence[float], s: float) -> Point:
    """The point at arc length `s` along a polyline."""
    s = min(max(s, 0.0), cum[-1])
    for i in range(1, len(cum)):
        if cum[i] >= s:
            seg = cum[i] - cum[i - 1] or 1.0
            t = (s - cum[i - 1]) / seg
            (x0, y0), (x1, y1) = points[i - 1], points[i]
            return x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
    return points[-1]


def _sub(points: Sequence[Point], cum: Sequence[float], s0: float, s1: float) -> list[Point]:
    """The part of a polyline between arc lengths s0 and s1."""
    inner = [p for p, s in zip(points, cum, strict=True) if s0 < s < s1]
    return [_at(points, cum, s0), *inner, _at(points, cum, s1)]


def _symmetric(length: float, period: float, keep: float) -> list[float]:
    """Positions spaced by `period`, centred on the middle, at least `keep` from both ends:
    a pattern then looks the same whichever way the path is read."""
    mid = length / 2
    out = [mid]
    k = 1
    while mid - k * period >= keep:
        out += [mid - k * period, mid + k * period]
        k += 1
    return sorted(out)


def _shade(c: RGB, f: float) -> RGB:
    return (round(c[0] * f), round(c[1] * f), round(c[2] * f))


# ----------------------------------------------------------------------------- drawing


def draw_band(
    draw: ImageDraw.ImageDraw,
    points: Sequence[Point],
    company: Company,
    width: float,
    unit: float,
) -> None:
    """A company's path along `points`: dark rim, colour band, then its own pattern (dashes,
    dots, pinstripe or none) so the colour can be told without seeing hue. `unit` is the
    card pitch, which sets the pattern's rhythm."""
    pts = [(round(x), round(y)) for x, y in points]
    rim = max(2, round(width * 0.14))
    draw.line(pts, fill=_shade(company.fill, 0.55), width=round(width + 2 * rim), joint="curve")
    draw.line(pts, fill=company.fill, width=round(width), joint="curve")
    cum = _lengths(points)
    length = cum[-1]
    ink = company.pattern_ink
    if company.pattern == DASHES:
        dash, period = 0.11 * unit, 0.2 * unit
        for s in _symmetric(length, period, dash / 2):
            seg = _sub(points, cum, s - dash / 2, s + dash / 2)
            draw.line([(round(x), round(y)) for x, y in seg], fill=ink, width=round(width * 0.34))
    elif company.pattern == DOTS:
        r = width * 0.2
        for s in _symmetric(length, 0.16 * unit, r):
            x, y = _at(points, cum, s)
            draw.ellipse((x - r, y - r, x + r, y + r), fill=ink)
    elif company.pattern == PINSTRIPE:
        draw.line(pts, fill=ink, width=max(1, round(width * 0.2)), joint="curve")


def _glow(
    size: tuple[int, int], bands: Iterable[Sequence[Point]], width: float, theme: HighVoltageTheme
) -> Image.Image:
    """A soft halo layer under traced paths, so a scored line shows as lit up."""
    layer = Image.new("L", size, 0)
    d = ImageDraw.Draw(layer)
    for pts in bands:
        d.line([(round(x), round(y)) for x, y in pts], fill=255, width=round(width), joint="curve")
    layer = layer.filter(ImageFilter.GaussianBlur(width * 0.18))
    layer = layer.point(lambda v: min(255, v * 2))
    glow = Image.new("RGBA", size, (*theme.trace_glow, 0))
    glow.putalpha(layer)
    return glow


def bolt(cx: float, cy: float, r: float) -> list[Point]:
    """A lightning bolt inside a circle of radius r: the HIGH VOLTAGE mark."""
    shape = [(0.2, -0.85), (-0.42, 0.12), (-0.04, 0.12), (-0.2, 0.85), (0.44, -0.16), (0.05, -0.16)]
    return [(cx + x * r, cy + y * r) for x, y in shape]


def draw_energy_token(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, side: str, theme: HighVoltageTheme
) -> None:
    """HIGH VOLTAGE: a dark disc with a bright bolt. DANGER: an orange warning triangle with
    an exclamation mark. Shape and colour both differ, so neither depends on colour vision."""
    if side == HIGH_VOLTAGE:
        ring = r * 0.12
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=theme.hv_bolt)
        draw.ellipse(
            (cx - r + ring, cy - r + ring, cx + r - ring, cy + r - ring), fill=theme.hv_token
        )
        draw.polygon(bolt(cx, cy, r * 0.78), fill=theme.hv_bolt)
    elif side == DANGER:
        R = r * 1.18
        tri = [(cx, cy - R), (cx + R * 0.98, cy + R * 0.72), (cx - R * 0.98, cy + R * 0.72)]
        draw.polygon(tri, fill=theme.danger_ink)
        inner = [
            (cx, cy - R * 0.72),
            (cx + R * 0.74, cy + R * 0.56),
            (cx - R * 0.74, cy + R * 0.56),
        ]
        draw.polygon(inner, fill=theme.danger_token)
        w = R * 0.1
        draw.rounded_rectangle(
            (cx - w, cy - R * 0.36, cx + w, cy + R * 0.2), radius=w, fill=theme.danger_ink
        )
        draw.ellipse((cx - w, cy + R * 0.28, cx + w, cy + R * 0.48), fill=theme.danger_ink)


def draw_disc(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    r: float,
    company: Company,
    theme: HighVoltageTheme,
) -> None:
    """A company disc with its letter: markers, stations and colour chips all use it."""
    rim = max(2.0, r * 0.14)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=theme.ink)
    draw.ellipse((cx - r + rim, cy - r + rim, cx + r - rim, cy + r - rim), fill=company.fill)
    draw.text(
        (cx, cy + r * 0.04),
        company.letter,
        fill=company.letter_ink,
        font=icon_font(max(6, round(r * 1.15))),
        anchor="mm",
    )


def reduce_supersampled(img: Image.Image, size: tuple[int, int]) -> Image.Image:
    """`img`, drawn `size` times some whole factor, reduced to `size` by averaging each square
    of pixels: what a pixel would be if the shapes were drawn with exact coverage, as Pylons'
    and Sector 6's sprites are reduced. A Lanczos filter made edges no sharper to the eye and
    took about four times as long (3 ms a cell), and a process draws some hundreds of cells."""
    factor = img.width // size[0]
    if img.size != (size[0] * factor, size[1] * factor):
        raise ValueError(f"{img.size} is not {size} times a whole factor")
    return img.reduce(factor)


def _flatten(img: Image.Image, bg: RGB) -> Image.Image:
    out = Image.new("RGBA", img.size, (*bg, 255))
    out.alpha_composite(img)
    return out.convert("RGB")


# ----------------------------------------------------------------------------- grid cells


def _body(theme: HighVoltageTheme, k: int) -> tuple[int, int, int, int]:
    p = theme.cell * k
    g = theme.gutter * k // 2
    return g, g, p - g - 1, p - g - 1


def _draw_card_back(
    draw: ImageDraw.ImageDraw, img: Image.Image, theme: HighVoltageTheme, k: int
) -> None:
    body = _body(theme, k)
    r = theme.radius * k
    draw.rounded_rectangle(body, radius=r, fill=theme.card_back)
    lattice = Image.new("L", img.size, 0)
    ld = ImageDraw.Draw(lattice)
    p = theme.cell * k
    step = p / 7
    for i in range(-7, 15):
        x = i * step
        ld.line((x, 0, x + p, p), fill=255, width=max(1, k * 2))
        ld.line((x + p, 0, x, p), fill=255, width=max(1, k * 2))
    clip = Image.new("L", img.size, 0)
    inset = 7 * k
    ImageDraw.Draw(clip).rounded_rectangle(
        (body[0] + inset, body[1] + inset, body[2] - inset, body[3] - inset),
        radius=r // 2,
        fill=255,
    )
    lines = Image.new("RGBA", img.size, (*theme.card_back_line, 255))
    lines.putalpha(Image.composite(lattice, clip.point(lambda v: 0), clip))
    img.alpha_composite(lines)
    draw.rounded_rectangle(
        (body[0] + inset, body[1] + inset, body[2] - inset, body[3] - inset),
        radius=r // 2,
        outline=theme.card_back_line,
        width=2 * k,
    )
    c = p / 2
    rr = p * 0.2
    draw.ellipse((c - rr, c - rr, c + rr, c + rr), fill=theme.card_back)
    draw.ellipse((c - rr, c - rr, c + rr, c + rr), outline=theme.card_back_emblem, width=2 * k)
    draw.polygon(bolt(c, c, rr * 0.8), fill=theme.card_back_emblem)


def _draw_empty(draw: ImageDraw.ImageDraw, theme: HighVoltageTheme, k: int) -> None:
    x0, y0, x1, y1 = _body(theme, k)
    draw.rounded_rectangle((x0, y0, x1, y1), radius=theme.radius * k, fill=theme.empty_cell)
    dash, gap, w = 9 * k, 7 * k, 2 * k
    inset = 3 * k
    x0, y0, x1, y1 = x0 + inset, y0 + inset, x1 - inset, y1 - inset
    for a, b in (
        ((x0, y0), (x1, y0)),
        ((x1, y0), (x1, y1)),
        ((x1, y1), (x0, y1)),
        ((x0, y1), (x0, y0)),
    ):
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        s = gap / 2 + 6 * k
        while s < length - 6 * k:
            e = min(s + dash, length - 6 * k)
            t0, t1 = s / length, e / length
            draw.line(
                (
                    a[0] + (b[0] - a[0]) * t0,
                    a[1] + (b[1] - a[1]) * t0,
                    a[0] + (b[0] - a[0]) * t1,
                    a[1] + (b[1] - a[1]) * t1,
                ),
                fill=theme.empty_edge,
                width=w,
            )
            s += dash + gap


def _draw_danger_card(
    draw: ImageDraw.ImageDraw,
    img: Image.Image,
    theme: HighVoltageTheme,
    k: int,
    label: str = "DANGER",
) -> None:
    """A DANGER card: hazard stripes round a dark face with a big warning sign, unlike any
    line card even in greyscale."""
    body = _body(theme, k)
    r = theme.radius * k
    draw.rounded_rectangle(body, radius=r, fill=theme.danger_stripe_dark)
    stripes = Image.new("L", img.size, 0)
    sd = ImageDraw.Draw(stripes)
    p = theme.cell * k
    step = p / 6
    for i in range(-8, 16):
        x = i * step
        sd.polygon([(x, 0), (x + step / 2, 0), (x + step / 2 - p, p), (x - p, p)], fill=255)
    ring = Image.new("L", img.size, 0)
    rd = ImageDraw.Draw(ring)
    rd.rounded_rectangle(body, radius=r, fill=255)
    band = 11 * k
    rd.rounded_rectangle(
        (body[0] + band, body[1] + band, body[2] - band, body[3] - band), radius=r // 2, fill=0
    )
    layer = Image.new("RGBA", img.size, (*theme.danger_stripe, 255))
    layer.putalpha(Image.composite(stripes, ring.point(lambda v: 0), ring))
    img.alpha_composite(layer)
    draw.rounded_rectangle(
        (body[0] + band, body[1] + band, body[2] - band, body[3] - band),
        radius=r // 2,
        fill=theme.danger_card,
    )
    c = p / 2
    draw_energy_token(draw, c, c - p * 0.06, p * 0.2, DANGER, theme)
    size = round(theme.cell * k * 0.11)
    room = (body[2] - body[0] - 2 * band) * 0.9  # a longer word in another language shrinks
    while size > 1 and icon_font(size).getlength(label) > room:
        size -= 1
    # The card's printed word, sized to its stripes: the stripes and the sign say it too.
    draw.text((c, c + p * 0.25), label, fill=theme.danger_stripe, font=icon_font(size), anchor="mm")


def draw_face(
    img: Image.Image,
    theme: HighVoltageTheme,
    k: int,
    kind: str,
    paths: tuple[PathKey, ...],
    energy: str,
    glow: frozenset[EdgePair],
    danger: str = "DANGER",
) -> None:
    """A face-up card on a (cell * k) square RGBA canvas: paths reach the canvas edge, past the
    card body, so they join the neighbour's paths across the gutter. `danger` is the word
    printed on a danger card, in the picture's language."""
    draw = ImageDraw.Draw(img)
    p = theme.cell * k
    if kind == "danger":
        _draw_danger_card(draw, img, theme, k, danger)
    else:
        draw.rounded_rectangle(
            _body(theme, k),
            radius=theme.radius * k,
            fill=theme.card_face,
            outline=theme.card_edge,
            width=k,
        )
    width = theme.path_width * p
    lit = [path_points(a, b, p) for a, b, _ in paths if (a, b) in glow]
    if lit:
        img.alpha_composite(_glow(img.size, lit, width * 2.1, theme))
        draw = ImageDraw.Draw(img)
    for i, (a, b, colour) in enumerate(paths):
        pts = path_points(a, b, p)
        if i > 0 and kind == "crossing":
            cum = _lengths(pts)
            L = cum[-1]
            gap = _sub(pts, cum, L * 0.3, L * 0.7)
            draw.line(
                [(round(x), round(y)) for x, y in gap],
                fill=theme.bridge_gap,
                width=round(width * 1.9),
            )
        draw_band(draw, pts, theme.company(colour), width, p)
    if energy in (HIGH_VOLTAGE, DANGER):
        c = theme.token_centre * p
        draw_energy_token(draw, c, c, theme.token_radius * p, energy, theme)


def cell_sprite(
    theme: HighVoltageTheme,
    state: str,
    kind: str | None = None,
    paths: tuple[PathKey, ...] = (),
    energy: str = NO_TOKEN,
    glow: frozenset[EdgePair] = frozenset(),
    ring: RGB | None = None,
    danger: str = "DANGER",
) -> Image.Image:
    """One grid cell (face-up card, card back or the empty cell) as an RGB square of the cell
    pitch, already on the board background, with an optional highlight ring round it
    (`danger`: the word on a danger card)."""
    k = theme.supersample
    size = (theme.cell * k, theme.cell * k)
    img = Image.new("RGBA", size, (0, 0, 0, 0))
    if state == "down":
        _draw_card_back(ImageDraw.Draw(img), img, theme, k)
    elif state == "up":
        draw_face(img, theme, k, kind or "", paths, energy, glow, danger)
    else:
        _draw_empty(ImageDraw.Draw(img), theme, k)
    if ring is not None:
        _draw_ring(img, theme, k, ring)
    return _flatten(reduce_supersampled(img, (theme.cell, theme.cell)), theme.background)


def _draw_ring(img: Image.Image, theme: HighVoltageTheme, k: int, colour: RGB) -> None:
    """A rounded ring filling the gutter round a cell: 'this changed' or 'being drawn'."""
    p = theme.cell * k
    w = round(theme.gutter * 0.8 * k)
    layer = Image.new("RGBA", img.size, (*colour, 0))
    mask = Image.new("L", img.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (0, 0, p - 1, p - 1), radius=theme.radius * k + w // 2, outline=255, width=w
    )
    layer.putalpha(mask)
    img.alpha_composite(layer)


@lru_cache(maxsize=64)
def card_sprite(
    theme: HighVoltageTheme,
    kind: str,
    paths: tuple[PathKey, ...],
    size: int,
    bg: RGB,
    danger: str = "DANGER",
) -> Image.Image:
    """A larger face-up card for the drawn-card picture, on background `bg`."""
    k = theme.supersample
    scale = size / theme.cell
    big = replace(
        theme, cell=size, gutter=round(theme.gutter * scale), radius=round(theme.radius * scale)
    )
    img = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    draw_face(img, big, k, kind, paths, NO_TOKEN, frozenset(), danger)
    return _flatten(reduce_supersampled(img, (size, size)), bg)


# ----------------------------------------------------------------------------- frame


def frame_size(number: int, theme: HighVoltageTheme, n: int = 7) -> tuple[int, int]:
    side, _ = frame_place(number, n)
    if side == CORNER:
        return theme.frame, theme.frame
    if side in (NORTH, SOUTH):
        return theme.cell, theme.frame
    return theme.frame, theme.cell


def _marker_slots(side: str, w: float, h: float, r: float, count: int) -> list[Point]:
    """Where stacked company markers sit on a score card: along its outer strip, overlapping
    a little so four equal scores still fit and read as a stack."""
    step = r * 1.45
    if side == CORNER:
        y = h * 0.68
        x0 = w / 2 - step * (count - 1) / 2
        return [(x0 + i * step, y) for i in range(count)]
    outer = r * 1.3
    if side in (NORTH, SOUTH):
        y = outer if side == NORTH else h - outer
        x0 = w * 0.38 + r
        return [(x0 + i * step, y) for i in range(count)]
    x = w - outer if side == EAST else outer
    y0 = h * 0.38 + r
    return [(x, y0 + i * step) for i in range(count)]


def frame_sprite(
    theme: HighVoltageTheme,
    number: int,
    n: int,
    station: str | None,
    markers: tuple[str, ...],
    glow: bool,
) -> Image.Image:
    """One score card: its number, the station segment pointing into the grid (if any), the
    company markers standing on it, and a halo when a scored line starts there."""
    k = theme.supersample
    w, h = frame_size(number, theme, n)
    W, H = w * k, h * k
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    g = theme.gutter * k // 2
    side, _ = frame_place(number, n)
    fill = theme.frame_corner if side == CORNER else theme.frame_card
    draw.rounded_rectangle((g, g, W - g - 1, H - g - 1), radius=theme.radius * k, fill=fill)
    r_marker = theme.frame * k * 0.145
    num_font = font(round(theme.frame * 0.24 * k))
    if side == CORNER:
        draw.text((W / 2, H * 0.3), str(number), fill=theme.frame_text, font=num_font, anchor="mm")
    else:
        inset = theme.frame * k * 0.2
        pos = {
            NORTH: (inset, inset),
            SOUTH: (inset, H - inset),
            EAST: (W - inset, inset + g),
            WEST: (inset, inset + g),
        }[side]
        draw.text(pos, str(number), fill=theme.frame_text, font=num_font, anchor="mm")
    if station is not None and side != CORNER:
        company = theme.company(station)
        depth = 0.6
        centre = {
            NORTH: (W / 2, H * depth),
            SOUTH: (W / 2, H * (1 - depth)),
            EAST: (W * (1 - depth), H / 2),
            WEST: (W * depth, H / 2),
        }[side]
        inner = {
            NORTH: (W / 2, H),
            SOUTH: (W / 2, 0),
            EAST: (0, H / 2),
            WEST: (W, H / 2),
        }[side]
        width = theme.path_width * theme.cell * k
        disc = width * 1.05
        if glow:
            halo = _glow(img.size, [[centre, inner]], width * 2.1, theme)
            img.alpha_composite(halo)
            draw = ImageDraw.Draw(img)
            gl = Image.new("L", img.size, 0)
            ImageDraw.Draw(gl).ellipse(
                (
                    centre[0] - disc * 1.5,
                    centre[1] - disc * 1.5,
                    centre[0] + disc * 1.5,
                    centre[1] + disc * 1.5,
                ),
                fill=255,
            )
            gl = gl.filter(ImageFilter.GaussianBlur(disc * 0.3))
            layer = Image.new("RGBA", img.size, (*theme.trace_glow, 0))
            layer.putalpha(gl)
            img.alpha_composite(layer)
            draw = ImageDraw.Draw(img)
        # the band starts at the disc's rim, so its pattern is centred on the part one sees
        length = math.hypot(inner[0] - centre[0], inner[1] - centre[1])
        t = min(1.0, disc * 0.9 / length)
        rim = (centre[0] + (inner[0] - centre[0]) * t, centre[1] + (inner[1] - centre[1]) * t)
        draw_band(draw, [rim, inner], company, width, theme.cell * k)
        draw_disc(draw, centre[0], centre[1], disc, company, theme)
    for (x, y), colour in zip(
        _marker_slots(side, W, H, r_marker, len(markers)), markers, strict=True
    ):
        draw_disc(draw, x, y, r_marker, theme.company(colour), theme)
    return _flatten(reduce_supersampled(img, (w, h)), theme.background)


# ----------------------------------------------------------------------------- small icons


@cache
def token_icon(theme: HighVoltageTheme, side: str, size: int, bg: RGB) -> Image.Image:
    """An energy token alone, for the panel's supply count."""
    k = theme.supersample
    img = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    c = size * k / 2
    draw_energy_token(
        ImageDraw.Draw(img),
        c,
        c + (size * k * 0.06 if side == DANGER else 0),
        size * k * 0.42,
        side,
        theme,
    )
    return _flatten(reduce_supersampled(img, (size, size)), bg)


@cache
def disc_icon(theme: HighVoltageTheme, colour: str | None, size: int, bg: RGB) -> Image.Image:
    """A company disc with its letter, or a grey '?' when the colour is secret."""
    k = theme.supersample
    img = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    c = size * k / 2
    company = (
        theme.company(colour)
        if colour is not None
        else Company("?", theme.unknown, "?", theme.text, "solid", theme.ink)
    )
    draw_disc(ImageDraw.Draw(img), c, c, c - k, company, theme)
    return _flatten(reduce_supersampled(img, (size, size)), bg)


@cache
def back_icon(theme: HighVoltageTheme, size: int, bg: RGB) -> Image.Image:
    """A small card back, for the face-down count."""
    small = cell_sprite(theme, "down")
    icon = small.resize((size, size), Image.Resampling.LANCZOS)
    out = Image.new("RGB", (size, size), bg)
    mask = Image.new("L", (size, size), 0)
    g = round(theme.gutter * size / theme.cell / 2)
    ImageDraw.Draw(mask).rounded_rectangle(
        (g, g, size - g - 1, size - g - 1), radius=max(2, size // 10), fill=255
    )
    out.paste(icon, (0, 0), mask)
    return out


@cache
def pip_icon(theme: HighVoltageTheme, filled: bool, size: int, bg: RGB, colour: RGB) -> Image.Image:
    """A round pip: one per action token, so counts read at a glance."""
    k = theme.supersample
    img = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    m = k
    if filled:
        d.ellipse((m, m, size * k - m, size * k - m), fill=colour)
    else:
        d.ellipse((m, m, size * k - m, size * k - m), outline=colour, width=2 * k)
    return _flatten(reduce_supersampled(img, (size, size)), bg)


@cache
def star_icon(theme: HighVoltageTheme, size: int, bg: RGB, colour: RGB) -> Image.Image:
    """A five-pointed star: the special action token."""
    k = theme.supersample
    img = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    c = size * k / 2
    R, r = c - k, (c - k) * 0.45
    pts = []
    for i in range(10):
        rad = R if i % 2 == 0 else r
        t = -math.pi / 2 + i * math.pi / 5
        pts.append((c + rad * math.cos(t), c + rad * math.sin(t) + k))
    ImageDraw.Draw(img).polygon(pts, fill=colour)
    return _flatten(reduce_supersampled(img, (size, size)), bg)
