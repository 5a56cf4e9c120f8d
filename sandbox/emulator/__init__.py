"""A local stand-in for Discord's API and gateway, for end-to-end tests of the bot.

The bot talks to it with unmodified discord.py over real sockets on 127.0.0.1; tests act as
users through it (slash commands, button clicks, autocomplete) and read back everything the bot
sent, with who could see it. See `DiscordEmulator`.

    emu = await DiscordEmulator().start()
    discord.http.Route.BASE = emu.api_base  # and the gateway URL from GET /gateway/bot
    ...start the bot...
    ada = emu.add_user("Ada")
    reply = await emu.slash(ada, "game new", game="high-voltage")   # records, once settled
    lobby = reply.public[0]
    await emu.click(ada, lobby.custom_ids[0], message=lobby)
    choices = await emu.autocomplete(ada, "hv draw", "cell", "C")
    secret = emu.messages(visibility=Visibility.dm_to(ada))
    emu.faults.close_dms(ada.id)            # 403 / 50007, like a user who blocks DMs
    emu.faults.rate_limit("POST /channels/{channel_id}/messages")   # one 429, then fine
    await emu.gateway.drop()                # the bot reconnects and RESUMEs
    other = emu.add_guild("Chess club", shard=(1, 2))   # its events go to shard 1 of 2
    await emu.slash(ada, "game new", channel=emu.default_channel(other), game="pylons")
    await emu.wait_for(lambda: emu.gateway.connected_shards >= {0, 1})
    emu.install_for(ada)                    # Ada adds the app to her own account
    friends = emu.add_group_dm(ada, bo)     # a group DM the bot is no member of
    await emu.slash(ada, "play", channel=friends)   # context 2, owners {"1": Ada's id}
    emu.clock.advance(15 * 60)              # the interaction's token has expired now

Messages with the IS_COMPONENTS_V2 flag (Container, Section, Text Display, Media Gallery...)
are checked as Discord checks them (`rules`), returned as Discord returns them (`layout`), and
their buttons can be clicked wherever they sit; a record's `text` includes their text. Like
Discord (its open bug discord-api-docs #7529), it refuses an edit whose gallery shows a file
uploaded with it, and so the follow-up that replaces a deferral's "thinking…" with one.

The tests point the project's bot at it from `tests/e2e_harness.py`.
"""

from . import layout
from .errors import CommandNotShown, EmulatorUsageError, InteractionFailed
from .faults import Faults
from .models import (
    Attachment,
    Button,
    Change,
    Channel,
    Guild,
    Record,
    Rejection,
    Role,
    StoredMessage,
    User,
    Visibility,
    shard_of,
)
from .openapi import SpecValidator, locate_spec
from .replies import Reply
from .server import DiscordEmulator

__all__ = [
    "Attachment",
    "Button",
    "Change",
    "Channel",
    "CommandNotShown",
    "DiscordEmulator",
    "EmulatorUsageError",
    "Faults",
    "Guild",
    "InteractionFailed",
    "Record",
    "Rejection",
    "Reply",
    "Role",
    "SpecValidator",
    "StoredMessage",
    "User",
    "Visibility",
    "layout",
    "locate_spec",
    "shard_of",
]
