"""What a tournament says in its channel: the sign-up post (its entrants, and the Join and
Leave buttons), each round's announcement and its tables' announcements (the seats with
mentions; each table's thread starts from its announcement), the standings after each round
(a picture with its text twin) and the final podium. All in the server's language.

The Join and Leave buttons' custom ids are `tour:<id>:join` and `tour:<id>:leave`
(`signup_id`): the handlers find them by that pattern, after a restart too."""

from __future__ import annotations

import discord

from data.texts import ENGLISH, Texts
from hvbot.messages.buttons import drawn

SIGNUP_CHOICES = ("join", "leave")


def signup_id(tournament_id: int, choice: str) -> str:
    """A sign-up button's custom id: `tour:<id>:join` or `tour:<id>:leave`."""
    return f"tour:{tournament_id}:{choice}"


def signup_view(tournament_id: int, texts: Texts = ENGLISH) -> discord.ui.View:
    """The sign-up post's Join and Leave buttons."""
    view = discord.ui.View(timeout=None)
    for choice, style in (
        ("join", discord.ButtonStyle.success),
        ("leave", discord.ButtonStyle.secondary),
    ):
        view.add_item(
            discord.ui.Button(
                label=texts(f"bot.tournament.{choice}"),
                style=style,
                custom_id=signup_id(tournament_id, choice),
            )
        )
    return drawn(view)
