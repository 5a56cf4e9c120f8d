"""Boards drawn over the last board of their look: only what a move changed is drawn again.

A board is a ground (a cached picture: frame, grid, empty panel) with pieces pasted on it in
order, each piece a cached sprite at a place. A move changes a few of a board's hundreds of
pieces, so drawing every piece afresh for every post is mostly wasted. Each board is described
as its list of pieces (`Op`: a key naming everything its pixels depend on, the box holding
every pixel it may touch, the sprite and its mask); the last board drawn in a look (theme,
language) is kept (`Boards`), and the next board of that look is drawn over it: the boxes of
the pieces drawn in only one of the two boards are laid back to the ground and every piece
reaching into them is drawn again in the board's order (`redraw`). The panel below the
pieces is drawn afresh on its ground every time.

A piece's pixels depend on its key alone and the pieces are drawn on the ground one after
another, so a pixel no changed piece reaches is the same in both boards: the board drawn over
the last one is the board drawn from the ground, pixel for pixel (tests compare them byte for
byte). Every board of a look draws over the same kept board whatever its game: where two
boards differ all is drawn afresh from the view, so nothing of one game's or viewer's board
shows in another's.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from render.canvas import paste
from render.encode import Encoded

Box = tuple[int, int, int, int]  # left, top, right, bottom (exclusive), in pixels
# One piece: its key (all its pixels depend on: what is drawn, how and where), the box
# holding every pixel it may touch, then a cached piece and its mask pasted at the box's
# corner (the mask None for a label), or None and a function drawing it on a picture.
Op = tuple[tuple[Any, ...], Box, Any, Any]


def draw(image: Image.Image, op: Op) -> None:
    _, box, piece, how = op
    if piece is None:
        how(image)
    else:
        paste(image, piece, (box[0], box[1]), how)


def piece_op(
    key: tuple[Any, ...], piece: tuple[Image.Image, Image.Image | None], at: tuple[int, int]
) -> Op:
    """A cached piece pasted through its mask at `at`; `key` names the piece."""
    sprite, mask = piece
    x, y = at
    w, h = sprite.size
    return ((*key, x, y), (x, y, x + w, y + h), sprite, mask)


@dataclass(frozen=True)
class Drawn:
    """A board drawn last in its look, and the pieces it was drawn from, in order; `scratch`
    is where changed boxes are drawn (see `redraw`)."""

    image: Image.Image
    keys: tuple[tuple[Any, ...], ...]
    boxes: dict[tuple[Any, ...], Box]
    look: Hashable
    scratch: Image.Image | None
    # The board's PNG bands once it is encoded (`render.encode.banded_png` fills it), and
    # those of the board it was drawn over that it shares: bands above the panel that no
    # box drawn again reaches.
    encoded: Encoded = field(default_factory=dict)
    known: Encoded | None = None


class Boards:
    """The last board drawn in each look, at most `kept` looks (the least recently drawn go).

    A board is taken out while a board is drawn over it and put back once that board is
    encoded (`keep`): no other thread draws on it meanwhile."""

    def __init__(self, kept: int) -> None:
        self.kept = kept
        self._drawn: OrderedDict[Hashable, Drawn] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, look: Hashable) -> Drawn | None:
        with self._lock:
            return self._drawn.pop(look, None)

    def keep(self, drawn: Drawn) -> None:
        """Put a board back once it is encoded, to draw the next one over."""
        with self._lock:
            self._drawn[drawn.look] = drawn
            self._drawn.move_to_end(drawn.look)
            while len(self._drawn) > self.kept:
                self._drawn.popitem(last=False)

    def forget(self) -> None:
        """Forget every board kept (benchmarks: a process that has not drawn lately; tests)."""
        with self._lock:
            self._drawn.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._drawn)


def draw_pieces(
    ops: Sequence[Op],
    ground: Image.Image,
    panel_ground: Image.Image,
    look: Hashable,
    boards: Boards,
    *,
    keep: bool,
) -> tuple[Image.Image, Drawn]:
    """The pieces `ops` drawn on `ground`, over the last board of `look` in `boards` when
    there is one and `keep` (the caller then puts the new board back with `boards.keep` once
    it is encoded), else from the ground; and what to keep of it. Below the pieces is the
    panel's ground (`panel_ground`: the ground's rows from the bottom of the pieces' part
    down), laid afresh for the panel to be drawn on."""
    board_height = ground.height - panel_ground.height
    before = boards.take(look) if keep else None
    boxes = {op[0]: op[1] for op in ops}
    dirty = None if before is None else changed_boxes(before, ops, boxes, board_height)
    known = None
    if before is None or dirty is None:
        image = ground.copy()
        for op in ops:
            draw(image, op)
        scratch = None if before is None else before.scratch
    else:
        # Only a board taken out of the store is drawn on, and its scratch with it.
        image, scratch = before.image, before.scratch
        if dirty:
            scratch = redraw(image, scratch, ops, dirty, ground)
        paste(image, panel_ground, (0, board_height))
        known = {
            rows: part
            for rows, part in before.encoded.items()
            if rows[1] <= board_height and not any(b[1] < rows[1] and rows[0] < b[3] for b in dirty)
        }
    keys = tuple(op[0] for op in ops)
    return image, Drawn(image, keys, boxes, look, scratch, known=known)


def changed_boxes(
    before: Drawn, ops: Sequence[Op], boxes: dict[tuple[Any, ...], Box], board_height: int
) -> list[Box] | None:
    """The boxes to draw again over `before` (the pieces drawn in only one of the two boards;
    `boxes`: the new pieces' boxes by key), or None when the board is better drawn whole:
    most pieces changed, a piece is drawn twice, the pieces both boards share are drawn in
    another order, or a piece reaches the panel."""
    old = before.boxes
    if len(boxes) != len(ops) or len(old) != len(before.keys):
        return None
    if any(op[1][3] > board_height for op in ops):
        return None
    gone: list[tuple[Any, ...]] = []
    shared_before: list[tuple[Any, ...]] = []
    for key in before.keys:
        (shared_before if key in boxes else gone).append(key)
    came: list[Box] = []
    shared: list[tuple[Any, ...]] = []
    for key, box, *_ in ops:
        if key in old:
            shared.append(key)
        else:
            came.append(box)
    if 2 * (len(gone) + len(came)) > len(ops) or shared != shared_before:
        return None
    return [old[key] for key in gone] + came


def redraw(
    image: Image.Image,
    scratch: Image.Image | None,
    ops: Sequence[Op],
    dirty: Sequence[Box],
    ground: Image.Image,
) -> Image.Image:
    """Draw the `dirty` boxes of `image` again: within them the scratch picture is laid back
    to the ground, every piece that reaches into one is drawn on it in the board's order (so
    a box holds the pixels of the board drawn whole), and the boxes are copied over. The
    pieces also draw on the scratch outside the boxes, which is never read; returns the
    scratch to keep (it holds nothing but this look's ground and pieces)."""
    # The boxes are copied through Pillow's pictures' cores: `Image.crop` and `Image.paste`
    # make and check a whole picture (its palette copied) for each box, which took longer
    # than copying the box's pixels.
    if scratch is None:
        scratch = ground.copy()
    else:
        for box in dirty:
            scratch.im.paste(ground.im.crop(box), box)
    left = min(b[0] for b in dirty)
    top = min(b[1] for b in dirty)
    right = max(b[2] for b in dirty)
    bottom = max(b[3] for b in dirty)
    for op in ops:
        x0, y0, x1, y1 = op[1]
        if (
            x0 < right
            and left < x1
            and y0 < bottom
            and top < y1
            and any(x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1 for b in dirty)
        ):
            draw(scratch, op)
    for box in dirty:
        image.im.paste(scratch.im.crop(box), box)
    return scratch


__all__ = ["Boards", "Box", "Drawn", "Op", "draw", "draw_pieces", "piece_op", "redraw"]
