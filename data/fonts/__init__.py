"""Fonts shipped with the pictures (DejaVu Sans, see LICENSE.txt): a package so that an
installed copy of the bot carries them along with the other data files."""
