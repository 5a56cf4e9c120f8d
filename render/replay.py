"""An animated replay of a whole game: one GIF frame per position, from the deal to the end.

Built from public views only (what `view(None)` returns): each view is checked to have been
made for no seat, so a face-down card, a drawn tile or a secret colour that only a seat knows
cannot reach a frame. The picture of each position is whatever the game's board picture is
(the caller passes it in), so the lines a move scored are highlighted exactly where the board
posted after that move highlights them.

Size: Discord refuses attachments over its limit, so the GIF must fit `REPLAY_BUDGET` bytes.
Frames are first written at the board picture's own size. If that is too large, they are
scaled down, but never below `MIN_SCALE` of the board picture, where labels stop being
readable on a phone. Only if that is still too large are intermediate positions left out,
evenly spread, always keeping the deal and the final position: a replay that skips a few
moves is still useful, one that cannot be read is not. In practice a whole High Voltage or
Pylons game takes about a fifth of the budget at full size and a long Sector 6 game (460
moves) about half, so the fallbacks are for the longest games only.

Frames: whatever the budget, at most `MAX_FRAMES` positions are drawn (evenly spread, the
deal and the end always among them). Each frame is a board drawn, so a very long game would
otherwise cost drawing time in proportion to its length, up to three times over as the size is
fitted, for a replay nobody watches to its end. A caller that knows a game is long can thin
its views before even making them, and say which positions they are (`positions`).

Speed and memory: frames are written one at a time as they are drawn, and only the rectangle
that changed since the previous frame is encoded (a move changes a few cells and the panel),
so a game of any length holds two pictures in memory at once and the GIF stays small. Every
frame is mapped onto the first frame's palette, which is the board's own fixed palette, so
colours are exact and no frame needs a palette of its own. The same views always give the
same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from math import sqrt
from typing import Any, TypeVar

from PIL import GifImagePlugin, Image, ImageChops

from render.encode import flat_exact_palette

# A view of whatever mapping type the caller has: its painter is handed the caller's own views.
View = TypeVar("View", bound=Mapping[str, Any])
Painter = Callable[[View], Image.Image]

REPLAY_BUDGET = 8 * 1024 * 1024  # bytes: Discord's attachment limit for a server without boosts
MIN_SCALE = 0.5  # of the board picture's size: below this its labels are hard to read
FIRST_MS = 1500  # the deal: long enough to see who sits where
MOVE_MS = 700  # one move: quick enough that a 150-move game lasts under two minutes
LAST_MS = 6000  # the final board: the result, before the replay loops
# Positions drawn at most: a 500-frame replay lasts six minutes, and Sector 6's long games
# (about 460 moves) are still drawn whole.
MAX_FRAMES = 500
# A new attempt aims this far under the budget, since sizes only roughly follow area and count.
MARGIN = 0.9
DO_NOT_DISPOSE = 1  # GIF disposal: each frame is drawn over the previous one (frames are deltas)


class ReplayTooLarge(ValueError):
    """Even the deal and the final position alone, at the smallest scale, exceed the budget."""


@dataclass(frozen=True)
class Replay:
    """The GIF and how it was made to fit, so a caption can say what it shows."""

    data: bytes
    positions: int  # positions given (the deal and one per action)
    shown: tuple[int, ...]  # indices of the positions that have a frame, in order
    scale: float  # of the board picture's size
    size: tuple[int, int]  # of every frame, in pixels

    @property
    def complete(self) -> bool:
        return len(self.shown) == self.positions


def replay_gif(
    views: Sequence[View],
    paint: Painter[View],
    *,
    budget: int = REPLAY_BUDGET,
    max_frames: int | None = None,
    positions: int | None = None,
) -> Replay:
    """The replay of a game whose public views after the deal and after each action are
    `views`; `paint` draws one view as the game's board picture (a 'P' image is fastest).
    At most `max_frames` of them are drawn (default `MAX_FRAMES`). `positions`: the game's
    number of positions when `views` are only those at `spread(positions, len(views))` (see
    `frames_of`).

    Raises ValueError for a view made for a seat, ReplayTooLarge if nothing fits."""
    if not views:
        raise ValueError("A replay needs at least the deal.")
    max_frames = MAX_FRAMES if max_frames is None else max_frames
    if max_frames < 2:
        raise ValueError("A replay draws at least the deal and the end.")
    for index, view in enumerate(views):
        if "viewer" not in view or view["viewer"] is not None:
            raise ValueError(f"Position {index} is not a public view: a replay shows no secret.")
    total = len(views) if positions is None else positions
    # The position of the game each view shows.
    at = tuple(range(total)) if positions is None else spread(total, len(views))
    if len(at) != len(views):
        raise ValueError(f"{len(views)} views cannot be spread over {total} positions.")
    replay = _fitted(views, paint, budget, spread(len(views), max_frames))
    return Replay(replay.data, total, tuple(at[i] for i in replay.shown), replay.scale, replay.size)


def frames_of(positions: int, max_frames: int | None = None) -> tuple[int, ...]:
    """The positions of a game of `positions` positions whose views a replay needs (at most
    `max_frames`, default `MAX_FRAMES`): the views to make and hand to `replay_gif` (with
    `positions`), for a game too long to draw whole."""
    return spread(positions, MAX_FRAMES if max_frames is None else max_frames)


def _fitted(
    views: Sequence[View], paint: Painter[View], budget: int, shown: tuple[int, ...]
) -> Replay:
    """The GIF of `views` at `shown` (indices of `views`), scaled down and then thinned until
    it fits `budget`; its `positions` and `shown` count views."""
    scale = 1.0
    data, size = _encode(views, shown, paint, scale)
    if len(data) > budget:
        scale = max(MIN_SCALE, round(sqrt(MARGIN * budget / len(data)), 3))
        data, size = _encode(views, shown, paint, scale)
    if len(data) > budget and scale > MIN_SCALE:
        scale = MIN_SCALE
        data, size = _encode(views, shown, paint, scale)
    while len(data) > budget:
        if len(shown) <= 2:
            raise ReplayTooLarge(f"Even two frames take {len(data)} bytes (budget {budget}).")
        count = min(len(shown) - 1, int(len(shown) * MARGIN * budget / len(data)))
        shown = spread(len(views), max(2, count))
        data, size = _encode(views, shown, paint, scale)
    return Replay(data, len(views), shown, scale, size)


def spread(total: int, count: int) -> tuple[int, ...]:
    """`count` indices of `range(total)` evenly spaced, always the first and the last."""
    if count >= total:
        return tuple(range(total))
    if count <= 1:
        return (total - 1,) if total else ()
    return tuple(sorted({round(i * (total - 1) / (count - 1)) for i in range(count)}))


def frame_durations(count: int) -> list[int]:
    """Milliseconds per frame: a pause on the deal, a steady pace, a long look at the end."""
    if count == 1:
        return [LAST_MS]
    return [FIRST_MS] + [MOVE_MS] * (count - 2) + [LAST_MS]


# ---------------------------------------------------------------------- writing


def _encode(
    views: Sequence[View], shown: Sequence[int], paint: Painter[View], scale: float
) -> tuple[bytes, tuple[int, int]]:
    """The GIF of the positions `shown`, frames scaled by `scale`, and its frame size."""
    out = io.BytesIO()
    durations = frame_durations(len(shown))
    first = _indexed(paint(views[shown[0]]), None, [])
    colours = first.getpalette() or []
    palette = _palette_image(colours)
    previous = _scaled(first, scale, palette)
    out.write(_header(previous))
    _write(out, previous, (0, 0), durations[0])
    for index, duration in zip(shown[1:], durations[1:], strict=True):
        frame = _scaled(_indexed(paint(views[index]), palette, colours), scale, palette)
        if frame.size != previous.size:
            raise ValueError("Every position of a game must be drawn at the same size.")
        _write_delta(out, frame, previous, duration)
        previous = frame
    out.write(b";")  # trailer
    return out.getvalue(), previous.size


def _indexed(image: Image.Image, palette: Image.Image | None, colours: list[int]) -> Image.Image:
    """`image` as a 'P' image on `palette`, whose colours are `colours` (the first frame gets
    a palette of its own unless it has one). A board drawn on its fixed palette passes as is."""
    if palette is None:
        if image.mode == "P":
            return image
        return flat_exact_palette(image.convert("RGB"))
    if image.mode == "P" and image.getpalette() == colours:
        return image
    return image.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)


def _palette_image(colours: list[int]) -> Image.Image:
    """A 1x1 image carrying the first frame's colours padded to 256, to map frames onto."""
    padded = (colours + colours[-3:] * 256)[:768] if colours else [0] * 768
    pal = Image.new("P", (1, 1))
    pal.putpalette(padded)
    return pal


def _scaled(frame: Image.Image, scale: float, palette: Image.Image) -> Image.Image:
    if scale == 1.0:
        return frame
    size = (max(1, round(frame.width * scale)), max(1, round(frame.height * scale)))
    # Hamming: nearly Lanczos' sharpness on labels at half the cost (8 ms against 17 ms).
    small = frame.convert("RGB").resize(size, Image.Resampling.HAMMING)
    return small.quantize(palette=palette, dither=Image.Dither.NONE)


def _header(first: Image.Image) -> bytes:
    """GIF89a with the first frame's palette as the one global colour table, looping forever."""
    width, height = first.size
    colours = bytes((first.getpalette() or [])[:768]).ljust(768, b"\0")
    screen = width.to_bytes(2, "little") + height.to_bytes(2, "little")
    # 0xF7: a global table of 256 colours (2 ** (7 + 1)), 8 bits per primary.
    netscape = b"!\xff\x0bNETSCAPE2.0\x03\x01" + (0).to_bytes(2, "little") + b"\0"
    return b"GIF89a" + screen + b"\xf7\x00\x00" + colours + netscape


def _write_delta(out: io.BytesIO, frame: Image.Image, previous: Image.Image, ms: int) -> None:
    """`frame` as the rectangle that changed since `previous`, its unchanged pixels made
    transparent (runs of one index compress to almost nothing) when the rectangle leaves a
    palette index unused to mean "transparent"."""
    changed = ImageChops.subtract_modulo(frame, previous)  # index 0 where a pixel is unchanged
    # An unchanged position still gets its own (one-pixel) frame: one frame per position.
    box = changed.getbbox() or (0, 0, 1, 1)
    patch = frame.crop(box)
    free = _unused_index(patch)
    if free is None:
        _write(out, patch, box[:2], ms)
        return
    unchanged = changed.crop(box).point([255, *(0,) * 255], "1")
    patch.paste(free, mask=unchanged)
    _write(out, patch, box[:2], ms, transparency=free)


def _unused_index(patch: Image.Image) -> int | None:
    """The highest palette index no pixel of `patch` uses, if any."""
    counts = patch.histogram()
    return next((i for i in range(255, -1, -1) if not counts[i]), None)


def _write(
    out: io.BytesIO, frame: Image.Image, offset: tuple[int, int], ms: int, **extra: int
) -> None:
    """One frame: its delay, its disposal and its LZW-coded pixels, with no local palette."""
    chunks = GifImagePlugin.getdata(frame, offset, duration=ms, disposal=DO_NOT_DISPOSE, **extra)
    for chunk in chunks:
        out.write(chunk)
