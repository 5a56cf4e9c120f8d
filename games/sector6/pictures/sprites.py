"""The pieces the Sector 6 pictures paste: every drawing of `tiles`,
`tokens` and `overlays` reduced and mapped onto the board's palette, cached
once per process and size.

A board is mostly these pieces pasted through their one-bit masks, so caching them keeps a
render at a few milliseconds. They live above both the drawings and the palette, because the
palette is itself built from the drawings (`palette`): the imports point one
way, from the board, panel and private pictures down to here, the palette and the drawings.
"""

from __future__ import annotations

from functools import cache, lru_cache

from games.sector6.pictures.overlays import turn_rgb
from games.sector6.pictures.palette import Piece, finish
from games.sector6.pictures.style import Sector6Theme
from games.sector6.pictures.tiles import cog_rgb, free_rgb, ring_rgb, supply_rgb, tile_rgb
from games.sector6.pictures.tokens import door_rgb, marker_rgb, prisoner_rgb
from render.theme import RGB

# ---------------------------------------------------------------------- hexagons


@lru_cache(maxsize=1024)  # up to ~30 kB a piece: a few radii of every tile kept
def tile_piece(theme: Sector6Theme, radius: int, kind: int, mask: int, gears: bool = True) -> Piece:
    """A hexagon: kind 0-3 an entry point ringed in that seat's colour, 4-7 a maze tile
    worth 1-4 tinted by value; `mask` has a bit per closed side (N first, clockwise);
    `gears`: its walls carry gear teeth (full mode)."""
    return finish(theme, *tile_rgb(theme, radius, kind, mask, gears))


@cache
def supply_piece(theme: Sector6Theme, radius: int) -> Piece:
    """A maze tile as the panel counts the tiles left to place (see `tiles.supply_rgb`)."""
    return finish(theme, *supply_rgb(theme, radius))


@lru_cache(maxsize=256)
def ring_piece(theme: Sector6Theme, radius: int, ring: int) -> Piece:
    """An outline just inside a hexagon's edge: 0 the last move or placement, 1 a tile the
    player turned, 2 a tile turned by gears."""
    return finish(theme, *ring_rgb(theme, radius, ring))


@cache
def free_piece(theme: Sector6Theme, radius: int) -> Piece:
    """A dashed outline of a cell where the next piece may go."""
    return finish(theme, *free_rgb(theme, radius))


@cache
def cog_piece(theme: Sector6Theme, size: int) -> Piece:
    """A cog wheel: pasted on the middle of a side where two gears meet (full mode)."""
    return finish(theme, *cog_rgb(theme, size))


@cache
def turn_piece(theme: Sector6Theme, radius: int, who: int, ways: frozenset[bool]) -> Piece:
    """A curved arrow round a tile's middle: clockwise (True in `ways`), anticlockwise
    (False), or both heads for a tile turned both ways in one turn; `who` PLAYER or GEARS
    (`overlays`)."""
    return finish(theme, *turn_rgb(theme, radius, who, ways))


# ---------------------------------------------------------------------- tokens


@cache
def marker_piece(
    theme: Sector6Theme, size: int, value: int, bg: RGB | None = None, dead: bool = False
) -> Piece:
    """An oxygen marker: a disc of radius `size` in its value's colour with the value on it
    (`bg`: drawn on that ground, for the panel; the mask is the disc either way); `dead`, out
    of reach for good: grey, so the eye skips it, its value still readable."""
    return finish(theme, *marker_rgb(theme, size, value, bg, dead))


@cache
def prisoner_piece(
    theme: Sector6Theme, size: int, seat: int, letter: str, bg: RGB | None = None
) -> Piece:
    """A prisoner: a pawn in the seat's colour, its head in the seat's shape, `letter` on its
    body (`bg`: drawn on that ground, for the panel; the mask is the pawn either way)."""
    return finish(theme, *prisoner_rgb(theme, size, seat, letter, bg))


@cache
def door_piece(theme: Sector6Theme, size: int, seat: int) -> Piece:
    """An empty entry point: the outline of its owner's pawn."""
    return finish(theme, *door_rgb(theme, size, seat))
