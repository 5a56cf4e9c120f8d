"""Where things sit on the High Voltage board picture, in final pixels.

Shared by the renderer and the tests (which sample pixels at these places), so a change of
layout moves both at once.
"""

from __future__ import annotations

from games.high_voltage.pictures.palette import HighVoltageTheme

Box = tuple[int, int, int, int]  # left, top, right (exclusive), bottom (exclusive)

NORTH, EAST, SOUTH, WEST, CORNER = "north", "east", "south", "west", "corner"
_SIDES = (NORTH, EAST, SOUTH, WEST)


def board_side(theme: HighVoltageTheme, n: int = 7) -> int:
    """Width and height of the square board part of the picture."""
    return 2 * theme.margin + 2 * theme.frame + n * theme.cell


def grid_origin(theme: HighVoltageTheme) -> int:
    """x (and y) of the north-west corner of cell A1."""
    return theme.margin + theme.frame


def cell_index(name: str, n: int = 7) -> int:
    """Row-major index of a cell name such as 'C3'."""
    return (int(name[1:]) - 1) * n + (ord(name[0].upper()) - 65)


def cell_box(cell: str | int, theme: HighVoltageTheme, n: int = 7) -> Box:
    """The pitch square of a cell (card body plus half a gutter on every side)."""
    index = cell_index(cell, n) if isinstance(cell, str) else cell
    row, col = divmod(index, n)
    o = grid_origin(theme)
    x, y = o + col * theme.cell, o + row * theme.cell
    return x, y, x + theme.cell, y + theme.cell


def token_centre(cell: str | int, theme: HighVoltageTheme, n: int = 7) -> tuple[int, int]:
    """Pixel at the centre of a cell's energy token."""
    x, y, _, _ = cell_box(cell, theme, n)
    d = round(theme.token_centre * theme.cell)
    return x + d, y + d


def frame_place(number: int, n: int = 7) -> tuple[str, int]:
    """(side, k) of a score card: k counts cells along that side from its start, clockwise;
    corners give (CORNER, 0..3) for north-west, north-east, south-east, south-west."""
    side, offset = divmod(number % (4 * (n + 1)), n + 1)
    if offset == 0:
        return CORNER, side
    return _SIDES[side], offset - 1


def frame_box(number: int, theme: HighVoltageTheme, n: int = 7) -> Box:
    """The pitch rectangle of one score card of the frame."""
    m, f, c = theme.margin, theme.frame, theme.cell
    o = m + f
    far = o + n * c  # where the east / south frame starts
    side, k = frame_place(number, n)
    if side == CORNER:
        x, y = ((m, m), (far, m), (far, far), (m, far))[k]
        return x, y, x + f, y + f
    if side == NORTH:
        return o + k * c, m, o + (k + 1) * c, m + f
    if side == EAST:
        return far, o + k * c, far + f, o + (k + 1) * c
    if side == SOUTH:
        col = n - 1 - k
        return o + col * c, far, o + (col + 1) * c, far + f
    row = n - 1 - k
    return m, o + row * c, m + f, o + (row + 1) * c


def station_facing(side: str, cell: str, n: int = 7) -> int:
    """Frame number of the station on `side` next to a border cell."""
    index = cell_index(cell, n)
    row, col = divmod(index, n)
    if side == NORTH:
        return 1 + col
    if side == EAST:
        return n + 2 + row
    if side == SOUTH:
        return 2 * n + 3 + (n - 1 - col)
    return 3 * n + 4 + (n - 1 - row)
