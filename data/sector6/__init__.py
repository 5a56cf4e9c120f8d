"""Sector 6 components as data (tiles and their walls, supplies per player count, oxygen
markers, entry points, board size and limits): a package so an installed bot carries them."""
