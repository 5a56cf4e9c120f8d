"""Sending what a change owes, exactly once: taken, sent, marked made.

A post owed by a stored change (`hvbot.store.duties.Owed`) is sent only by whoever holds its
claim, and only right after taking it with a compare-and-set on its fencing token: a process
whose lease ran out while it was paused, and whose post another process took over, finds the
token moved on and sends nothing. Messages to a channel or a DM carry the post's nonce, so
Discord itself refuses a second copy of one within its window: an owed post is never sent as
the answer to an interaction, which carries no nonce, but for a game the bot can reach only
that way (`GameRow.answers_only`: a DM or a group DM through a person's own installation),
whose posts go out as follow-ups of its latest interaction (`Reach`) while Discord still
takes them, and otherwise wait, owed, for the next one. Once sent, the post is marked
made; a mark that fails because the database is away is tried again until it lands, never
answered by a second post.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import discord

from hvbot.database import is_unreachable
from hvbot.messages.outgoing import send_kwargs
from hvbot.messages.post import Post
from hvbot.store import GameRow
from hvbot.store.duties import Duties, Owed

log = logging.getLogger(__name__)

MARK_RETRY_S = (0.2, 0.5, 1.0, 2.0)  # the pauses between tries of a mark, then the last again
# What Discord allows an interaction of an app a person installed: its token answers for 15
# minutes, and it may follow up 5 times. A follow-up is not tried in the last half minute,
# which it might not arrive within.
TOKEN_LIFE = timedelta(minutes=15) - timedelta(seconds=30)
MOST_FOLLOW_UPS = 5
# Discord's answers to a follow-up it will not take any more: the token expired (50027) or
# the interaction followed up as often as it may (40094). The post waits for the next one.
SPENT = (50027, 40094)


class Unreachable(discord.ClientException):
    """A post for a game the bot reaches only by answering, with no interaction alive to
    answer: it waits for the next one."""


@dataclass(eq=False)
class Reach:
    """The latest interaction in a game the bot reaches only by answering its players
    (`GameRow.answers_only`): its follow-up webhook (`webhook`), when Discord made it
    (`opened`, by the service's clock), and the follow-ups sent through it so far, counted,
    as Discord allows 5. `withdraw`: the interaction's answer so far is a private
    "thinking…", deleted before the first public post, which would otherwise replace it (and
    be private too; and a card with a new picture cannot replace it: discord-api-docs
    #7529)."""

    webhook: discord.Webhook
    opened: datetime
    withdraw: bool = False
    follow_ups: int = 0
    spent: bool = False  # Discord said it takes no more

    def alive(self, now: datetime, *, room: int = 1) -> bool:
        """Whether Discord would take `room` more follow-ups through it now."""
        if self.spent or now - self.opened >= TOKEN_LIFE:
            return False
        return self.follow_ups + room <= MOST_FOLLOW_UPS

    async def send(self, post: Post, *, ephemeral: bool = False) -> discord.Message:
        """`post` as a follow-up, counted; Discord's refusal of a spent token noted. A
        private post may replace the private "thinking…", unless it is a card with a picture
        (`withdraw`)."""
        if self.withdraw and (not ephemeral or (post.card and post.files)):
            self.withdraw = False
            with contextlib.suppress(discord.HTTPException):
                await self.webhook.delete_message("@original")  # type: ignore[arg-type]  # Discord takes "@original" for the first answer; discord.py types an id as int
        self.follow_ups += 1
        try:
            return await self.webhook.send(wait=True, ephemeral=ephemeral, **send_kwargs(post))
        except discord.HTTPException as exc:
            if exc.code in SPENT:
                self.spent = True
            raise


@dataclass(frozen=True, slots=True)
class Sent:
    """An owed post as it went out, and the message it made."""

    post: Post
    message: discord.Message | None


# DM channels of people DM'd lately kept by id (see `Sender.direct_message`): 50,000 people,
# a few MB, far more than the people seated in the games one process holds.
KEPT_DM_CHANNELS = 50_000


class Sender:
    """Takes, sends and marks the posts of one bot process (`client`, its connection to
    Discord; `duties`, the outbox it reads)."""

    def __init__(self, client: discord.Client, duties: Duties) -> None:
        self.client = client
        self.duties = duties
        self.stopping = False  # once closing, a mark is tried once more and then let go
        # The latest interaction of each game reached only by answering (see `Reach`).
        self.reaches: dict[int, Reach] = {}
        # The DM channel of each person DM'd lately, by their id, the latest last (see
        # `direct_message`): a few ints each, at most KEPT_DM_CHANNELS of them.
        self.dm_channels: dict[int, int] = {}

    def reach(self, game: GameRow, *, room: int = 1) -> Reach | None:
        """The interaction a post of `game` may go through now, if any (see `Reach`)."""
        found = self.reaches.get(game.id)
        if found is None or not found.alive(self.duties.clock(), room=room):
            return None
        return found

    async def take(self, owed: Owed) -> Owed | None:
        """The post, taken for sending now, or None if another process has it (see
        `Duties.take`). A database that cannot be reached leaves it owed, to whoever takes it
        once the database is back, and raises `StoreUnavailable`: the person waiting for the
        post is told, and a check that met it tries again at its next round."""
        try:
            return await self.duties.take(owed)
        except Exception as exc:
            if is_unreachable(exc):
                raise
            log.warning("%s: could not take a post owed; left for later", owed.owner)
            return None

    async def made(self, owed: Owed) -> None:
        """Mark the post made, trying again while the database is away: once sent, a post is
        never sent again because its mark was lost."""
        attempt = 0
        while True:
            try:
                await self.duties.made(owed)
                return
            except Exception:
                if self.stopping:
                    log.warning("%s: closing before post %s was marked made", owed.owner, owed.id)
                    return
                if attempt == 0:
                    log.warning(
                        "%s: post %s made, but not yet marked; trying again",
                        owed.owner,
                        owed.id,
                    )
                await asyncio.sleep(MARK_RETRY_S[min(attempt, len(MARK_RETRY_S) - 1)])
                attempt += 1

    async def send(
        self,
        owed: Owed,
        game: GameRow | None,
        post: Post | Callable[[], Awaitable[Post | None]],
        *,
        to_user: int | None = None,
        to_channel: int | None = None,
        then: Callable[[discord.Message], Awaitable[None]] | None = None,
        refused: Callable[[Owed], Awaitable[Any]] | None = None,
    ) -> Sent | None:
        """Send one owed post if this process may: to the game's thread or channel (for a
        game reached only by answering, as a follow-up of its latest interaction, or not yet:
        see `Reach`), to
        `to_user` by DM, or to the channel `to_channel` (a server's post, which has no game),
        with the post's nonce either way, so that Discord makes one message of it however
        many processes send it (one paused past its lease, say).

        `then`: what is kept of the message made (a rematch's lobby message, whose id later
        changes edit), done before the post is marked made: a process that dies (or fails)
        in between leaves the post owed, and whoever sends it again, with the same nonce, is
        answered with the message Discord made and keeps it then. Marked first, a death in
        between would lose the message for good.

        `refused`: what becomes of the post, taken, when Discord refuses it for good (a
        person's DMs closed), instead of its being marked made.

        `post` may be a function that builds it, called only once the post is taken. Returns
        what was sent (None: not this process's to send, or nothing to say any more); raises
        what Discord said if it refused."""
        answer = game is not None and game.answers_only and to_user is None and to_channel is None
        if answer and game is not None and self.reach(game) is None:
            await self.duties.put_off(owed)
            return None  # waits, owed, for the next interaction in the game
        taken = await self.take(owed)
        if taken is None:
            return None
        try:
            built = post if isinstance(post, Post) else await post()
        except Exception:
            await self.made(taken)  # a post that cannot be built would fail every time
            raise
        if built is None:
            await self.made(taken)  # nothing to say any more (a move taken back since, say)
            return None
        try:
            if to_user is not None:
                message = await self.direct_message(to_user, built, nonce=taken.discord_nonce)
            elif to_channel is not None:
                message = await self.to_channel(to_channel, built, nonce=taken.discord_nonce)
            else:
                assert game is not None, "a game's post, or a channel named"
                message = await self.to_game(game, built, nonce=taken.discord_nonce)
        except Unreachable:
            return None  # taken, left owed: the next interaction claims it again
        except discord.HTTPException as exc:
            if answer and exc.code in SPENT:
                return None  # the same: Discord takes no more through this interaction
            if refused is not None and exc.status < 500:
                await refused(taken)  # owed otherwise from now on
                raise
            if exc.status < 500:
                # Refused for good (a closed DM, a deleted channel): it would be again.
                await self.made(taken)
            # Else Discord may or may not have made it: left owed, for whoever takes it next
            # (with the same nonce, so that a copy Discord did make is not made twice).
            raise
        # Any other failure (the connection lost, the process stopping) leaves it owed too,
        # as does one of `then`.
        if then is not None:
            await then(message)
        await self.made(taken)
        return Sent(built, message)

    async def answer(self, game: GameRow, post: Post) -> discord.Message:
        """`post` as a follow-up of the game's latest interaction (see `Reach`); `Unreachable`
        when none is alive."""
        reach = self.reach(game)
        if reach is None:
            raise Unreachable(f"game {game.id}: no interaction to answer through")
        return await reach.send(post)

    async def to_game(
        self, game: GameRow, post: Post, *, nonce: str | None = None
    ) -> discord.Message:
        """Post to the game's thread if it has one, else to its channel; for a game reached
        only by answering, through its latest interaction (see `answer`)."""
        if game.answers_only:
            return await self.answer(game, post)
        channel = await self.game_channel(game)
        extra: dict[str, Any] = {"nonce": nonce} if nonce else {}
        return await channel.send(**send_kwargs(post), **extra)

    async def to_channel(
        self, channel_id: int, post: Post, *, nonce: str | None = None
    ) -> discord.Message:
        """Post to a channel named by id (a server's post: a season's end)."""
        found = self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)
        if not isinstance(found, discord.abc.Messageable):
            raise TypeError(f"channel {channel_id} takes no posts")
        extra: dict[str, Any] = {"nonce": nonce} if nonce else {}
        return await found.send(**send_kwargs(post), **extra)

    async def direct_message(
        self, user_id: int, post: Post, *, nonce: str | None = None
    ) -> discord.Message:
        # The person's DM channel, opened by their id the first time: the bot holds no users
        # (no members intent), and looking the person up first cost a request to Discord for
        # every secret. discord.py keeps only its latest 128 DM channels, so past them each DM
        # asked Discord for the channel again: a bot with thousands of games DMs thousands of
        # people, and their channels' ids are kept here instead.
        channel_id = self.dm_channels.pop(user_id, None)
        if channel_id is None:
            channel_id = (await self.client.create_dm(discord.Object(id=user_id))).id
        self.dm_channels[user_id] = channel_id
        if len(self.dm_channels) > KEPT_DM_CHANNELS:
            del self.dm_channels[next(iter(self.dm_channels))]  # the least lately DM'd
        channel = self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        extra: dict[str, Any] = {"nonce": nonce} if nonce else {}
        return await channel.send(**send_kwargs(post), **extra)

    async def game_channel(self, game: GameRow) -> discord.abc.Messageable:
        """The game's thread if it has one, else its channel."""
        where = game.post_channel_id
        found = self.client.get_channel(where) or await self.client.fetch_channel(where)
        if not isinstance(found, discord.abc.Messageable):  # a category or a forum: no posts
            raise TypeError(f"game {game.id}: channel {where} takes no posts")
        return found
