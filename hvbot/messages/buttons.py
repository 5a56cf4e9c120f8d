"""The bot's buttons as a message draws them: labels, styles and custom ids.

Every button's custom id names what it is for (a game and, for an action, the game version it
was made for and the engine action itself; a request and the answer), so a click works after a
restart, and a click on a button made for an older version of the game is refused instead of
applied to a position the player did not see. What a click does is the handlers' (see
`hvbot.handlers.buttons`, whose `DynamicItem`s discord.py finds by these ids): this module only
draws, so the presenters and posts that offer buttons need nothing of the code that answers.

The views made here are stopped as they are made: discord.py then keeps nothing of a view it
sends (a thousand board posts would otherwise hold a thousand views in memory), and a click
reaches its handler by its custom id alone.

Labels are in the language of whoever sees the button: a public post's in the game's, a
private prompt's in its person's. The custom id never depends on the language.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord

from data.texts import ENGLISH, Texts
from hvbot.messages.post import Choice

LOBBY_ACTIONS = {  # what -> style; the label is the text bot.button.<what>
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "addai": discord.ButtonStyle.secondary,
    # The one action the lobby leads to, in Discord's primary colour: red is for what
    # destroys, and starting destroys nothing.
    "start": discord.ButtonStyle.primary,
}
UNDO_ANSWERS = {"yes": discord.ButtonStyle.success, "no": discord.ButtonStyle.danger}
VOTE_ANSWERS = {"ai": discord.ButtonStyle.primary, "end": discord.ButtonStyle.danger}

STYLES = {  # a Choice's look -> Discord's button style
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

# The custom ids, as the handlers' `DynamicItem` templates read them back.
LOBBY_ID = r"lobby:(?P<game>[0-9]+):(?P<what>join|leave|addai|start)"
ACTION_ID = r"act:(?P<game>[0-9]+):(?P<ver>[0-9]+):(?P<action>[A-Za-z0-9_=-]+)"
UNDO_ID = r"undo:(?P<request>[0-9]+):(?P<choice>yes|no)"
VOTE_ID = r"away:(?P<request>[0-9]+):(?P<choice>ai|end)"
# The Rematch button of a finished game's result, and the answers to the rematch's invitation
# on its lobby message (`game`: the finished game, then the rematch's lobby).
REMATCH_ID = r"rematch:(?P<game>[0-9]+):(?P<choice>ask|yes|no)"
REMATCH_ANSWERS = {"yes": discord.ButtonStyle.success, "no": discord.ButtonStyle.secondary}
# Follow (on a lobby message or a board post) and Unfollow (under a follower's digest).
FOLLOW_ID = r"(?P<what>follow|unfollow):(?P<game>[0-9]+)"
# Discord's limit on a message's rows of buttons (of five each).
MOST_ROWS = 5


def encode_action(text: str) -> str:
    return text.replace(" ", "_")


def decode_action(token: str) -> str:
    return token.replace("_", " ")


def lobby_id(game_id: int, what: str) -> str:
    return f"lobby:{game_id}:{what}"


def action_id(game_id: int, version: int, action: str) -> str:
    return f"act:{game_id}:{version}:{encode_action(action)}"


def follow_id(game_id: int) -> str:
    return f"follow:{game_id}"


def unfollow_id(game_id: int) -> str:
    return f"unfollow:{game_id}"


def answer_id(prefix: str, request_id: int, choice: str) -> str:
    """An answer to a request waiting in the database: `undo` (a take-back or an abandon)
    or `away` (a vote on the seat of a person away)."""
    return f"{prefix}:{request_id}:{choice}"


def drawn(view: discord.ui.View) -> discord.ui.View:
    """`view`, stopped: sent, it only draws its buttons (see the module's docstring)."""
    view.stop()
    return view


def lobby_view(
    game_id: int, texts: Texts = ENGLISH, *, open_: bool = True, followable: bool | None = None
) -> discord.ui.View:
    """The lobby's buttons, labelled in the game's language (`texts`): while it is open, its
    own and Follow; once the game has started, Follow alone (`followable`, by default while
    the lobby is open); once it is over, none."""
    view = discord.ui.View(timeout=None)
    if open_:
        for what, style in LOBBY_ACTIONS.items():
            label = texts(f"bot.button.{what}")
            view.add_item(
                discord.ui.Button(label=label, style=style, custom_id=lobby_id(game_id, what))
            )
    if open_ if followable is None else followable:
        with_follow(view, game_id, texts)
    return drawn(view)


def follow_button(game_id: int, texts: Texts = ENGLISH) -> discord.ui.Button[discord.ui.View]:
    """Follow the game without playing it (see `hvbot.services.follows`)."""
    return discord.ui.Button(
        label=texts("bot.follow.button"),
        style=discord.ButtonStyle.secondary,
        custom_id=follow_id(game_id),
    )


def with_follow(view: discord.ui.View, game_id: int, texts: Texts = ENGLISH) -> discord.ui.View:
    """`view` with a Follow button added where Discord's five rows of five leave room (its
    last row if it can, out of the way of a game's choices, else the first with room), its
    own buttons kept as they were; unchanged when it is full. discord.py checks the limits
    as each button is added (a full row or view is a `ValueError`)."""
    for row in (MOST_ROWS - 1, None):
        button = follow_button(game_id, texts)
        button.row = row
        try:
            view.add_item(button)
        except ValueError:
            continue
        return view
    return view


def board_view(
    game_id: int,
    choices: discord.ui.View | None,
    texts: Texts = ENGLISH,
    link: str | None = None,
) -> discord.ui.View:
    """A board post's buttons: the game's choices, if any, and Follow; with `link`, the
    "Live board" link to the game's page on the web beside it."""
    view = choices if choices is not None else discord.ui.View(timeout=None)
    with_follow(view, game_id, texts)
    if link is not None:
        with_link(view, link, texts)
    return drawn(view)


def link_button(link: str, texts: Texts = ENGLISH) -> discord.ui.Button[discord.ui.View]:
    """The "Live board" button: a link (Discord opens it in the browser; no click reaches
    the bot)."""
    return discord.ui.Button(label=texts("bot.web.button"), url=link)


def with_link(view: discord.ui.View, link: str, texts: Texts = ENGLISH) -> discord.ui.View:
    """`view` with the "Live board" link added where Discord's rows leave room (beside
    Follow if it can), as `with_follow` adds Follow; unchanged when it is full."""
    for row in (MOST_ROWS - 1, None):
        button = link_button(link, texts)
        button.row = row
        try:
            view.add_item(button)
        except ValueError:
            continue
        return view
    return view


def link_view(link: str, texts: Texts = ENGLISH) -> discord.ui.View:
    """The "Live board" link alone (under a board shown to someone not at the table)."""
    view = discord.ui.View(timeout=None)
    view.add_item(link_button(link, texts))
    return drawn(view)


def unfollow_view(game_id: int, texts: Texts = ENGLISH) -> discord.ui.View:
    """Under each digest a follower gets: stop following."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label=texts("bot.follow.unfollow_button"),
            style=discord.ButtonStyle.secondary,
            custom_id=unfollow_id(game_id),
        )
    )
    return drawn(view)


def choice_view(game_id: int, version: int, choices: Iterable[Choice]) -> discord.ui.View | None:
    """The buttons of a game's choices, made for the game's `version` (None if it offers none)."""
    view = discord.ui.View(timeout=None)
    for choice in choices:
        view.add_item(
            discord.ui.Button(
                label=choice.label or choice.action,
                style=STYLES[choice.look],
                custom_id=action_id(game_id, version, choice.action),
                row=choice.row,
            )
        )
    return drawn(view) if view.children else None


def _answer_view(
    prefix: str, answers: dict[str, discord.ButtonStyle], request_id: int, texts: Texts
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for choice, style in answers.items():
        view.add_item(
            discord.ui.Button(
                label=texts(f"bot.button.{prefix}_{choice}"),
                style=style,
                custom_id=answer_id(prefix, request_id, choice),
            )
        )
    return drawn(view)


def undo_view(request_id: int, texts: Texts = ENGLISH) -> discord.ui.View:
    """Accept or refuse a request to take back a move (or to abandon the game)."""
    return _answer_view("undo", UNDO_ANSWERS, request_id, texts)


def vote_view(vote_id: int, texts: Texts = ENGLISH) -> discord.ui.View:
    """A vote on a seat whose person is away: let an AI play it, or end the game."""
    return _answer_view("away", VOTE_ANSWERS, vote_id, texts)


def rematch_id(game_id: int, choice: str) -> str:
    return f"rematch:{game_id}:{choice}"


def rematch_view(game_id: int, texts: Texts = ENGLISH) -> discord.ui.View:
    """The Rematch button of the finished game `game_id`'s result."""
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label=texts("bot.rematch.button"),
            style=discord.ButtonStyle.primary,
            custom_id=rematch_id(game_id, "ask"),
        )
    )
    return drawn(view)


def invitation_view(lobby_id: int, texts: Texts = ENGLISH) -> discord.ui.View:
    """Accept or decline the rematch whose lobby is `lobby_id`."""
    view = discord.ui.View(timeout=None)
    for choice, style in REMATCH_ANSWERS.items():
        view.add_item(
            discord.ui.Button(
                label=texts(f"bot.rematch.{choice}"),
                style=style,
                custom_id=rematch_id(lobby_id, choice),
            )
        )
    return drawn(with_follow(view, lobby_id, texts))
