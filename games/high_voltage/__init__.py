"""High Voltage, all of it in this folder: its rules (`rules/`), AI levels (`ai/`), pictures
(`pictures/`), Discord presenter and slash commands, card set and setup constants
(`cards.json`, `setup.json`), texts in four languages (`locales/`) and rules summary
(`rules*.md`). `PLUGIN` is its manifest, registered by `games.register_all`."""

from __future__ import annotations

from hvbot.plugins import GamePlugin

PLUGIN = GamePlugin(
    name="high-voltage",
    rules="games.high_voltage.rules",
    ai="games.high_voltage.ai",
    presenter="games.high_voltage.presenter:HighVoltagePresenter",
    commands="games.high_voltage.commands",
    texts="games.high_voltage",
    # One rating whatever the table size: with two or three players the rules score the
    # companies nobody holds as "no one's", so every size is the same contest (read the others'
    # colours, close lines that pay yours), and a server's few games stay in one rating.
    rated_by_player_count=False,
    # Not in a DM or a group DM: a turn is a card drawn in secret and then placed, each step
    # shown to its player alone, and with AI seats one interaction would owe more answers
    # than Discord allows it (five follow-ups); a company's colour, dealt at the start,
    # would reach a player whose DMs are closed only once they act themselves.
    in_private_channels=False,
)

__all__ = ["PLUGIN"]
