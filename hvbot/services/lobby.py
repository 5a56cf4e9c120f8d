"""A game's lobby: opening it, taking and leaving seats, adding AI players, and the start."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from data.texts import DEFAULT as DEFAULT_LANGUAGE
from data.texts import texts_for
from engine import State
from engine.ai import levels as ai_levels
from engine.registry import find_game
from hvbot.plugins import in_private_channels, private_channel_games
from hvbot.services.access import GameAccess, ai_turn
from hvbot.services.errors import BotError, listed, said
from hvbot.services.outcomes import Change
from hvbot.services.seat_names import ai_name
from hvbot.services.server_settings import (
    DEFAULT_ABSENT_HOURS,
    DEFAULT_REMIND_MINUTES,
    check_waits,
    games_per_channel,
    is_moderator_role,
    lobby_hours,
    lobby_life,
    may_open,
    may_open_in,
    most_open,
)
from hvbot.store import (
    ANSWERS,
    CHANNEL,
    TIMEOUTS,
    ChannelBusy,
    GameRow,
    SeatRow,
    ServerSettings,
    TooManyOpen,
    TurnClock,
    VersionConflict,
    changes,
)
from hvbot.store.changes import Write
from hvbot.store.duties import Owed

AI_LEVELS = ("easy", "normal", "hard")
# The turn clocks a game may have: minutes per move, and how /game new names them.
CLOCK_LENGTHS = {60: "1 hour", 480: "8 hours", 1440: "1 day", 4320: "3 days", 10080: "7 days"}

SeatChange = Callable[[GameRow, list[SeatRow]], list[SeatRow]]


def may_open_here(
    settings: ServerSettings,
    places: tuple[int, ...],
    roles: frozenset[int],
    *,
    moderator: bool = False,
) -> None:
    """Refuse a new lobby where the server's settings do not open games (`places`: the
    channel and what holds it), or by a member without the role that opens them (a
    `moderator` may always)."""
    if not may_open_in(settings, places):
        where = ", ".join(f"<#{place}>" for place in settings.game_places)
        raise BotError(
            f"On this server, games are opened in {where}.",
            key="bot.error.not_a_game_place",
            places=where,
        )
    moderator = moderator or is_moderator_role(settings, roles)
    if not may_open(settings, roles, moderator=moderator):
        role = f"<@&{settings.opener_role}>"
        raise BotError(
            f"On this server, games are opened by members with the role {role}.",
            key="bot.error.opener_role",
            role=role,
        )


def channel_busy() -> BotError:
    return BotError(
        "This channel already has a game. Join it, wait for it to end, or ask its "
        "creator to /game abandon it.",
        key="bot.error.busy",
    )


def too_many_open(opened: int, most: int) -> BotError:
    return BotError(
        f"You have {opened} open games in this server already (at most "
        f"{most}): finish, start or /game abandon one first; /me games lists them.",
        key="bot.error.too_many_open",
        count=opened,
        most=most,
    )


def not_in_private_channels(title: str) -> BotError:
    """The refusal of a game that cannot be played in a DM or a group DM, naming those that
    can (see `hvbot.plugins.GamePlugin.in_private_channels`)."""
    games = listed([find_game(name).title for name in private_channel_games()])
    return BotError(
        f"{title} is played on a server only. In a DM or a group DM you can play {games}.",
        key="bot.private.not_here",
        game=title,
        games=games,
    )


class Lobby:
    """/game new, join, leave, addai and start."""

    def __init__(self, games: GameAccess, *, seed_source: random.Random | None = None) -> None:
        self.games = games
        # Seeds decide the deal, so they come from the OS's secure source unless a test injects one.
        self._seed_source = seed_source

    async def new_lobby(
        self,
        *,
        channel_id: int,
        guild_id: int | None,
        user_id: int,
        name: str,
        game_name: str,
        options: dict[str, Any] | None = None,
        remind_minutes: int | None = None,
        absent_hours: int | None = None,
        wants_thread: bool = False,
        language: str = DEFAULT_LANGUAGE,
        creator_language: str | None = None,
        clock: TurnClock | None = None,
        places: tuple[int, ...] = (),
        roles: frozenset[int] = frozenset(),
        moderator: bool = False,
        delivery: str = CHANNEL,
    ) -> GameRow:
        """`delivery`: how its posts reach its players (`GameRow.delivery`): ANSWERS for a
        game in a private channel (a DM, a group DM), refused for a game that cannot be
        played there (`hvbot.plugins.in_private_channels`).

        `language`: of the game's public posts, the server's own unless its settings name
        another; `creator_language`: the creator's own. `remind_minutes`: how long the person
        to move may take before they are mentioned again (then hourly); `absent_hours`: how
        long before the others may vote to let an AI play for them or to end the game; 0 turns
        either off for this game, None takes the server's default. `wants_thread`: play in a
        thread started from the lobby message, if the bot may start one. `clock`: how long
        each person has for a move, and what happens then (None: the server's default; a
        clock of 0 minutes: none, as long as they like).

        The server's settings decide the rest: `places` are the channel and what holds it
        (its category; a thread's channel and category), which must be where games may be
        opened; `roles` are the member's, one of which may have to be the server's role for
        opening games (a `moderator` may always)."""
        settings = await self.settings_of(guild_id)
        may_open_here(settings, places or (channel_id,), roles, moderator=moderator)
        language = settings.language or language
        # Given here, else the server's default, else the bot's.
        remind_minutes = next(
            m
            for m in (remind_minutes, settings.remind_minutes, DEFAULT_REMIND_MINUTES)
            if m is not None
        )
        absent_hours = next(
            h for h in (absent_hours, settings.absent_hours, DEFAULT_ABSENT_HOURS) if h is not None
        )
        clock = clock if clock is not None else settings.clock
        if clock is not None and clock.minutes == 0:  # no clock, whatever the server's default
            clock = None
        lengths = listed([said(f"commands.choices.clock.{m}") for m in CLOCK_LENGTHS])
        if clock is not None and not (clock.minutes in CLOCK_LENGTHS and clock.timeout in TIMEOUTS):
            raise BotError(
                f"A turn clock gives {lengths} a move, and when it runs out an AI plays the move,"
                " takes the seat, or the game ends.",
                key="bot.error.clock_choice",
                lengths=lengths,
            )
        check_waits(remind_minutes=remind_minutes, absent_hours=absent_hours)
        try:
            game = find_game(game_name)
        except KeyError as exc:
            raise BotError(str(exc.args[0])) from exc
        if delivery == ANSWERS and not in_private_channels(game.name):
            raise not_in_private_channels(game.title)
        try:
            resolved = game.resolve_options(options)
        except ValueError as exc:
            raise BotError(str(exc)) from exc
        store = self.games.store
        most = await self.room_for(
            settings, guild_id=guild_id, user_id=user_id, channel_id=channel_id
        )
        try:
            lobby = changes.create_lobby(
                game=game.name,
                guild_id=guild_id,
                channel_id=channel_id,
                creator_id=user_id,
                creator_name=name,
                options=resolved,
                at=store.clock(),
                remind_minutes=remind_minutes or None,
                absent_hours=absent_hours or None,
                wants_thread=wants_thread,
                language=language,
                creator_language=creator_language,
                clock=clock,
                lifetime=lobby_life(settings),
                most_open=most,
                postgresql=store.shared,
                delivery=delivery,
            )
            return await store.create(lobby)
        except ChannelBusy as exc:
            raise channel_busy() from exc
        except TooManyOpen as exc:
            raise too_many_open(exc.count, most) from exc

    async def room_for(
        self, settings: ServerSettings, *, guild_id: int | None, user_id: int, channel_id: int
    ) -> int:
        """Refuse a new lobby by `user_id` in `channel_id` that the server's limits leave no
        room for: as many open games of their own as they may have (returned, for the
        lobby's transaction to count again), a channel holding a game already, or all the
        games in threads it may."""
        most = most_open(settings)
        # The three limits read at once (one trip to the database), said in this order.
        opened, busy, in_threads = await self.games.store.room_for_lobby(
            guild_id=guild_id, user_id=user_id, channel_id=channel_id
        )
        if guild_id is not None and opened >= most:
            # Said first, before the channel's own limits; the lobby's transaction counts
            # again (see `changes.create_lobby`), so a burst of /game new stops there too.
            raise too_many_open(opened, most)
        if busy:
            # A lobby or a game played here (not in a thread): one at a time, as the database
            # itself insists.
            raise channel_busy()
        if in_threads >= games_per_channel(settings):
            raise BotError(
                "This channel holds all the games it may at once"
                f" ({games_per_channel(settings)}), each in its thread: join one, or open yours"
                " in another channel.",
                key="bot.error.channel_full",
                most=games_per_channel(settings),
            )
        return most

    async def settings_of(self, guild_id: int | None) -> ServerSettings:
        """A server's settings (a game outside any server has the defaults)."""
        if guild_id is None:
            return ServerSettings()
        return await self.games.store.server_settings.of(guild_id)

    async def close_expired(self, *, most: int = 10) -> list[Change]:
        """Close the lobbies whose day has passed without a start, each saying so in its
        channel: a versioned change, so of two processes that find one, one closes it."""
        store = self.games.store
        closed = []
        for lobby in await store.expired_lobbies(now=self.games.clock(), most=most):
            settings = await self.settings_of(lobby.guild_id)
            texts = texts_for(lobby.language)
            told = texts(
                "bot.lobby.expired", hours=texts("bot.time.hours", count=lobby_hours(settings))
            )
            try:
                at = store.clock()
                closed_lobby = changes.set_status(
                    lobby.id, lobby.version, "abandoned", at=at, told=told
                )
                owed = await store.write(closed_lobby)
            except VersionConflict:
                continue  # started, changed or closed by another process meanwhile
            closed.append(Change(game=await self.games.saved(lobby.id), owed=tuple(owed)))
        return closed

    async def join(
        self, *, channel_id: int, user_id: int, name: str, language: str | None = None
    ) -> Change:
        game = await self.games.open_game(channel_id)
        away = None
        if game.guild_id is not None:  # the others see who is away (/me away) as they sit
            away = await self.games.store.time_away.until(
                guild_id=game.guild_id, user_id=user_id, now=self.games.clock()
            )

        def change(game: GameRow, seats: list[SeatRow]) -> list[SeatRow]:
            if game.seat_of(user_id) is not None:
                raise BotError("You are in this game already.", key="bot.error.already_seated")
            limit = find_game(game.game_name).max_seats
            if len(seats) >= limit:
                raise BotError(
                    f"The game is full ({limit} seats). Wait for the next one.",
                    key="bot.error.full_wait",
                    count=limit,
                )
            seat = SeatRow(len(seats), user_id, None, name, language=language, away_until=away)
            return [*seats, seat]

        return await self._change_seats(channel_id, change)

    async def leave(self, *, channel_id: int, user_id: int) -> Change:
        def change(game: GameRow, seats: list[SeatRow]) -> list[SeatRow]:
            if game.seat_of(user_id) is None:
                raise BotError("You are not in this game's lobby.", key="bot.error.not_in_lobby")
            if user_id == game.creator_id:
                raise BotError(
                    "You created this game: to cancel it use /game abandon instead of leaving.",
                    key="bot.error.creator_leaves",
                )
            kept = [s for s in seats if s.user_id != user_id]
            return [replace(s, seat=i) for i, s in enumerate(kept)]

        return await self._change_seats(channel_id, change)

    async def add_ai(
        self, *, channel_id: int, user_id: int, level: str, moderator: bool = False
    ) -> Change:
        """An AI seat, added by a person seated in the lobby or by a moderator."""
        if level not in AI_LEVELS:
            raise BotError(
                f"AI level must be one of {', '.join(AI_LEVELS)}, not {level!r}.",
                key="bot.error.ai_level",
                levels=", ".join(AI_LEVELS),
                level=repr(level),
            )

        def change(game: GameRow, seats: list[SeatRow]) -> list[SeatRow]:
            if game.seat_of(user_id) is None and not moderator:
                raise BotError(
                    "Only players seated in the lobby can add AI players. Join first.",
                    key="bot.error.join_first",
                )
            limit = find_game(game.game_name).max_seats
            if len(seats) >= limit:
                raise BotError(
                    f"The game is full ({limit} seats).", key="bot.error.full", count=limit
                )
            offered = ai_levels(game.game_name)
            chosen = level if level in offered else offered[0]
            number = 1 + sum(1 for s in seats if s.is_ai)
            # Stored in English, said in each reader's language (`seat_names.said`).
            return [*seats, SeatRow(len(seats), None, chosen, ai_name(number, chosen))]

        return await self._change_seats(channel_id, change)

    async def start(self, *, channel_id: int, user_id: int, can_manage: bool) -> Change:
        """Deal the game from a new seed; the game as started, its first state, and the posts
        the start owes (held by this process: see `hvbot.store.duties`)."""
        game = await self.games.open_game(channel_id)
        async with self.games.store.lock(game.id):
            game = await self.games.reload(game.id)
            if game.status != "lobby":
                raise BotError("The game has started already.", key="bot.error.started_already")
            if user_id != game.creator_id and not can_manage:
                raise BotError(
                    "Only the game's creator (or a moderator) can start it.",
                    key="bot.error.only_creator_starts",
                )
            await self.refuse_while_invited(game)
            started, state = self.dealt(game)
            owed = await self.games.store.write(started)
            return Change(game=await self.games.saved(game.id), state=state, owed=tuple(owed))

    def dealt(
        self, game: GameRow, *, lobby: Mapping[str, Any] | None = None
    ) -> tuple[Write[list[Owed]], State]:
        """The start of the lobby `game` (read under its lock) from a new seed: the change
        to store, and the first state (the caller's; the change keeps a copy). `lobby`: the
        body of the lobby post it owes (see `changes.start`)."""
        rules = find_game(game.game_name)
        if len(game.seats) < rules.min_seats:
            raise BotError(
                f"{rules.title} needs at least {rules.min_seats} players: others can Join, "
                f"or add an AI player.",
                key="bot.error.too_few",
                game=rules.title,
                count=rules.min_seats,
            )
        seed = self._new_seed()
        state = rules.new_state(len(game.seats), seed, game.options)
        started = changes.start(
            game.id,
            game.version,
            seed=seed,
            state=state.copy(),  # kept for the next move; the caller's stays theirs
            seats=game.seats,
            at=self.games.store.clock(),
            wait=self.games.wait_for(game, state),
            ai_turn=ai_turn(game, state),
            in_thread=game.wants_thread and game.thread_id is None,
            lobby=lobby,
        )
        return started, state

    async def refuse_while_invited(self, game: GameRow) -> None:
        """A rematch's lobby waits for the people of the game before (see
        `hvbot.services.rematch`): until they have all accepted, or it became an ordinary
        lobby, nobody else sits down, no AI is added and nobody starts it."""
        invites = await self.games.store.rematches.invites(game.id)
        if not all(invite.accepted for invite in invites):
            raise BotError(
                "This lobby is a rematch, waiting for the players of the game before to"
                " accept: it starts once they all have. If one declines, it becomes an"
                " ordinary lobby.",
                key="bot.rematch.waiting_lobby",
            )

    async def _change_seats(self, channel_id: int, change: SeatChange) -> Change:
        game = await self.games.open_game(channel_id)
        async with self.games.store.lock(game.id):
            game = await self.games.reload(game.id)
            if game.status != "lobby":
                raise BotError(
                    "The game has started: seats can only change in the lobby.",
                    key="bot.error.lobby_only",
                )
            # A rematch's lobby waiting for its people changes through its own service
            # (`hvbot.services.rematch`: a leave there is a decline).
            await self.refuse_while_invited(game)
            seats = change(game, list(game.seats))
            at = self.games.store.clock()
            owed = await self.games.store.write(
                changes.set_seats(game.id, game.version, seats, at=at, in_lobby=True)
            )
            return Change(game=await self.games.open_game(channel_id), owed=tuple(owed))

    def _new_seed(self) -> int:
        if self._seed_source is not None:
            return self._seed_source.getrandbits(63)
        return secrets.randbits(63)
