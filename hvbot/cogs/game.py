"""/game: the commands every game shares (lobby, board, status, secrets, rules, log, the end,
replays of finished games)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from data.texts import ENGLISH, Option, language_of
from engine.core import State
from engine.registry import find_game
from hvbot.cogs.moves import in_private_channels
from hvbot.cogs.options import (
    CLOCK_CHOICES,
    GAME_CHOICES,
    GAMES_WITH_MODES,
    LEVEL_CHOICES,
    MODE_CHOICES,
    TIMEOUT_CHOICES,
)
from hvbot.handlers import answering, confirm, lobby, requests
from hvbot.handlers.follow import follow_game, unfollow_game
from hvbot.messages import (
    buttons,
    game_posts,
    records,
    replays,
    text_board,
    time_words,
    wording,
)
from hvbot.messages.limits import fitted
from hvbot.messages.outgoing import ALLOWED, PRIVATE, send_kwargs, send_private, upload
from hvbot.messages.presenters import presenter_for
from hvbot.services import (
    MAX_ABSENT_HOURS,
    MAX_REMIND_MINUTES,
    BotError,
    in_channel,
)
from hvbot.services.seat_names import said
from hvbot.store import ANSWERS, CHANNEL, ArchivedGame, GameRow, TurnClock

if TYPE_CHECKING:
    from hvbot.runtime.client import GameBot

LOG_INLINE_LIMIT = 1800
MAX_CHOICES = 25  # Discord's limit on autocomplete choices
MOST_GAME_ID = 2**63 - 1  # game ids are 64-bit integers in both databases
CHOICE_NAME_LIMIT = 100  # Discord's limit on a choice's name
NO_FINISHED_GAME = ENGLISH("bot.error.no_finished_game")


# The `game` option of the commands that look at or moderate a game: a channel whose games
# are played in threads may hold several.
PICK_GAME = "Which of this channel's games (where several are played in threads)"


def mode_options(game: str, mode: str | None) -> dict[str, str] | None:
    """The engine options for a mode picked in /game new.

    A mode given for a game that has none is refused rather than ignored: whoever picked
    "novice" expects a gentler game, and silently starting the full one would surprise them
    mid-game, while a refusal costs one retype and names the games that have modes. Whether
    the mode is one of the game's own is checked by the engine's option rules.
    """
    if mode is None:
        return None
    if not presenter_for(game).modes:
        raise BotError(
            f"{find_game(game).title} has no modes: leave out mode. "
            f"Modes are for {GAMES_WITH_MODES}.",
            key="bot.error.no_modes",
            game=find_game(game).title,
            option=Option("game new mode"),
            games=GAMES_WITH_MODES,
        )
    return {"mode": mode}


# Offered in DMs and group DMs too (a person's own installation): a game there is played
# through the bot's answers alone (`GameRow.answers_only`); what only a server has (its
# moderators, threads) is refused there by the commands themselves.
@in_private_channels
class GameCog(commands.GroupCog, group_name="game", group_description="Play board games here"):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        # The records /game export made last, to send again without making them again.
        self._records = records.KeptRecords()
        super().__init__()

    @app_commands.command(name="new", description="Open a lobby for a new game in this channel")
    @app_commands.describe(
        game="Which game to play",
        mode=app_commands.locale_str(
            f"{GAMES_WITH_MODES} only: how much of the rules to use", games=GAMES_WITH_MODES
        ),
        reminder="Minutes before the player to move is reminded, then hourly (0: never)",
        absent="Hours before the others may vote to replace a player who is away (0: never)",
        thread="Play in a thread started from the lobby message, if I may create threads here",
        clock="Time each player has for a move (default: no clock)",
        timeout="What happens when a player's time runs out (default: an AI plays that move)",
    )
    @app_commands.choices(
        game=GAME_CHOICES, mode=MODE_CHOICES, clock=CLOCK_CHOICES, timeout=TIMEOUT_CHOICES
    )
    async def new(
        self,
        interaction: discord.Interaction,
        game: str = "high-voltage",
        mode: str | None = None,
        reminder: app_commands.Range[int, 0, MAX_REMIND_MINUTES] | None = None,
        absent: app_commands.Range[int, 0, MAX_ABSENT_HOURS] | None = None,
        thread: bool = True,
        clock: int | None = None,
        timeout: str = "ai_move",
    ) -> None:
        if interaction.channel_id is None:
            raise BotError(
                "Games are played in a server: use /game new in one of its channels.",
                key="bot.error.new_server_only",
            )
        # In a DM or a group DM (a person's own installation of the app), and on a server
        # that did not install it, the bot may only answer interactions: the game's posts
        # are then its answers (`GameRow.answers_only`).
        answers_only = interaction.guild_id is None or not interaction.is_guild_integration()
        try:
            row = await self.bot.service.lobby.new_lobby(
                channel_id=interaction.channel_id,
                guild_id=interaction.guild_id,
                user_id=interaction.user.id,
                name=interaction.user.display_name,
                game_name=game,
                options=mode_options(game, mode),
                remind_minutes=reminder,
                absent_hours=absent,
                wants_thread=thread,
                # Not given: the server's default clock (0: none here, whatever that is).
                clock=TurnClock(clock, timeout) if clock is not None else None,
                places=lobby.places_of(interaction),
                roles=lobby.role_ids(interaction),
                moderator=await lobby.is_moderator(interaction),
                # The server's language for the game's public posts (the creator's own
                # outside a server), the creator's own for what is said to them alone.
                language=language_of(interaction.guild_locale or interaction.locale),
                creator_language=wording.language(interaction),
                delivery=ANSWERS if answers_only else CHANNEL,
            )
        except BotError as exc:
            await answering.reply_error(interaction, exc)
            return
        # While the bot is behind on what the games started already owe, this one waits.
        row = await answering.after_catching_up(interaction, row)
        message = await answering.ask_publicly(
            interaction,
            row,
            view=game_posts.lobby_card(
                row, self.bot.service.clock(), game_posts.lobby_buttons(row)
            ),
            allowed_mentions=ALLOWED,
        )
        await self.bot.service.games.set_lobby_message(row.id, message.id)
        if row.answers_only:
            # What the channel's game before owed (it ended while nobody was there), after.
            await answering.show_owed(interaction)

    @app_commands.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: discord.Interaction) -> None:
        await lobby.lobby_action(interaction, "join", from_button=False)

    @app_commands.command(name="leave", description="Leave this channel's lobby")
    async def leave(self, interaction: discord.Interaction) -> None:
        await lobby.lobby_action(interaction, "leave", from_button=False)

    @app_commands.command(name="addai", description="Seat an AI player in the lobby")
    @app_commands.describe(level="How strong the AI plays")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addai(self, interaction: discord.Interaction, level: str = "easy") -> None:
        await lobby.lobby_action(interaction, "addai", from_button=False, level=level)

    @app_commands.command(name="start", description="Start the game (creator or moderators)")
    async def start(self, interaction: discord.Interaction) -> None:
        await lobby.start_game(interaction, from_button=False)

    @app_commands.command(
        name="undo",
        description=(
            "Take back your last move, with the AI moves after it; other people at the table "
            "agree first"
        ),
    )
    async def undo(self, interaction: discord.Interaction) -> None:
        await requests.request_undo(interaction)

    @app_commands.command(
        name="takeover", description="Vote on a player who is away: an AI plays, or the game ends"
    )
    async def takeover(self, interaction: discord.Interaction) -> None:
        await requests.request_takeover(interaction)

    @app_commands.command(name="return", description="Take your seat back from the AI")
    async def return_(self, interaction: discord.Interaction) -> None:
        await requests.return_seat(interaction)

    @app_commands.command(name="board", description="Show the current board again")
    @app_commands.rename(game_id="game")
    @app_commands.describe(
        game_id=PICK_GAME,
        text="As text, only to you: for screen readers and small screens",
    )
    async def board(
        self, interaction: discord.Interaction, game_id: int | None = None, text: bool = False
    ) -> None:
        game = await self._picked(interaction, game_id)
        self.bot.service.throttle.check("game board", interaction.user.id)
        state = self.bot.service.games.peek_state(game)
        if text:
            await self._text_board(interaction, game, state)
            return
        # The board is posted for the table to see again; someone not seated at it is
        # answered privately, so a spectator cannot fill the channel with boards.
        seated = _player_seat(game, interaction.user.id) is not None
        public = seated and game_posts.posts_here(interaction, game)
        await interaction.response.defer(thinking=True, ephemeral=not public)
        reach = answering.FollowUp.of(interaction).reach(withdraw=True)
        if game.answers_only:
            # What the game owes from before (a clock run out while nobody was there) is
            # shown first, through this interaction: the bot cannot post there on its own.
            await self.bot.aftermath.catch_up(game, reach)
            game = await self.bot.service.games.find(game.id) or game
            state = self.bot.service.games.peek_state(game)
        post = await game_posts.board_post(game, None, state, self.bot.service.clock())
        assert post is not None
        if not seated:  # the picture alone (and its live board): the buttons are the table's
            link = await game_posts.live_link(game)
            texts = wording.public(game)
            view = buttons.link_view(link, texts) if link is not None else None
            await answering.make_way(interaction.followup, post)
            await send_private(interaction, dataclasses.replace(post, view=view))
            return
        if game.answers_only and public:
            await reach.send(post)  # after what it owed, through the same interaction
        else:
            await answering.publish(interaction, game, post)
        prompt = await game_posts.prompt_post(
            game, state, interaction.user.id, wording.language(interaction)
        )
        if prompt is not None:
            await send_private(interaction, prompt)

    async def _text_board(
        self, interaction: discord.Interaction, game: GameRow, state: State
    ) -> None:
        """The board as text, privately, in the asker's language: from their own view when
        they play here (their company, the tile they drew), else from the spectators'. No
        picture is drawn, so it answers at once, in as many messages as it needs; the
        asker's waiting decision, if any, follows as with the picture."""
        parts = text_board.text_board_messages(
            game,
            state,
            game.seat_of(interaction.user.id),
            wording.language(interaction),
            self.bot.service.clock(),
        )
        none = discord.AllowedMentions.none()
        await interaction.response.send_message(parts[0], ephemeral=True, allowed_mentions=none)
        for part in parts[1:]:
            await interaction.followup.send(part, ephemeral=True, allowed_mentions=none)
        prompt = await game_posts.prompt_post(
            game, state, interaction.user.id, wording.language(interaction)
        )
        if prompt is not None:
            await send_private(interaction, prompt)

    @app_commands.command(name="status", description="Whose turn it is and where the game stands")
    @app_commands.rename(game_id="game")
    @app_commands.describe(game_id=PICK_GAME)
    async def status(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        game = await self._picked(interaction, game_id)
        state = self.bot.service.games.peek_state(game)
        view = state.view(None)
        seat = state.current_seat()
        if seat is None:  # its last move was made since it was looked up
            raise BotError(
                "The game is over: no more actions can be taken.", key="engine.core.game_over"
            )
        texts = wording.personal(interaction)
        who = wording.mention(game, seat, texts)
        # Not every game's view counts turns (Pylons and Sector 6 do not).
        presenter = presenter_for(game.game_name, interaction.locale)
        phase = presenter.phase_words(view)
        if "turn" in view:
            turn = texts("bot.status.turn", number=view["turn"], player=who, phase=phase)
        else:
            turn = texts("bot.status.to_move", player=who, phase=phase)
        await interaction.response.send_message(
            **fitted(
                content="\n".join(
                    line
                    for line in (
                        turn,
                        time_words.away_line(game, seat, self.bot.service.clock(), texts),
                        time_words.clock_line(game, texts),
                        presenter.status(view, wording.names_of(game, texts)),
                    )
                    if line
                ),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        )

    @app_commands.command(
        name="mysecret", description="Show what you were told privately at the start (only to you)"
    )
    async def mysecret(self, interaction: discord.Interaction) -> None:
        game = await self.bot.service.games.open_game(
            in_channel(interaction.channel_id), interaction.user.id
        )
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            raise BotError(
                "You are not playing in this game, so you have no secret here.",
                key="bot.error.no_secret",
            )
        state = self.bot.service.games.peek_state(game)
        post = await game_posts.secret_post(game, state, seat, wording.language(interaction))
        await send_private(interaction, post)

    @app_commands.command(name="rules", description="The rules in short")
    @app_commands.describe(game="Which game (default: the one in this channel)")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        if game is None:
            row = await self.bot.service.games.in_channel(
                interaction.channel_id, interaction.user.id
            )
            game = row.game_name if row else GAME_CHOICES[0].value
        await interaction.response.send_message(
            **fitted(content=presenter_for(game, interaction.locale).rules, ephemeral=True)
        )

    @app_commands.command(name="log", description="The moves so far")
    @app_commands.rename(game_id="game")
    @app_commands.describe(game_id=PICK_GAME)
    async def log(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        game = await self._picked(interaction, game_id)
        self.bot.service.throttle.check("game log", interaction.user.id)
        texts = wording.personal(interaction)
        names = wording.names_of(game, texts)
        moves = await self.bot.service.games.actions(game.id)
        if not moves:
            await interaction.response.send_message(
                texts("bot.log.none"), ephemeral=True, allowed_mentions=PRIVATE
            )
            return
        words = presenter_for(game.game_name, interaction.locale).move_words
        lines = [f"{i + 1}. {names[seat]}: {words(text)}" for i, (seat, text) in enumerate(moves)]
        body = "\n".join(lines)
        if len(body) <= LOG_INLINE_LIMIT:
            await interaction.response.send_message(
                f"```\n{body}\n```", ephemeral=True, allowed_mentions=PRIVATE
            )
        else:
            await interaction.response.send_message(
                texts("bot.log.count", count=len(lines)),
                file=upload(body.encode(), "moves.txt"),
                ephemeral=True,
                allowed_mentions=PRIVATE,
            )

    @app_commands.command(name="resign", description="Give up your seat; an AI finishes for you")
    async def resign(self, interaction: discord.Interaction) -> None:
        await self.bot.service.play.may_resign(
            channel_id=in_channel(interaction.channel_id), user_id=interaction.user.id
        )
        texts = wording.personal(interaction)
        await confirm.ask(
            interaction,
            texts("bot.confirm.resign"),
            texts("bot.confirm.resign_button"),
            requests.resign,
        )

    @app_commands.command(
        name="abandon",
        description="End this channel's game without a result; once under way, the others "
        "agree first",
    )
    async def abandon(self, interaction: discord.Interaction) -> None:
        await self.bot.service.abandon.may_abandon(
            channel_id=in_channel(interaction.channel_id),
            user_id=interaction.user.id,
            can_manage=lobby.can_manage(interaction),
        )
        texts = wording.personal(interaction)
        await confirm.ask(
            interaction,
            texts("bot.confirm.abandon"),
            texts("bot.confirm.abandon_button"),
            requests.abandon,
        )

    @app_commands.command(name="end", description="Moderators: end this channel's game, no result")
    @app_commands.rename(game_id="game")
    @app_commands.describe(game_id=PICK_GAME)
    async def end(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        await _moderator_only(interaction)
        await requests.end_game(interaction, game_id)

    @app_commands.command(name="kick", description="Moderators: free a seat, or give it to an AI")
    @app_commands.rename(game_id="game")
    @app_commands.describe(seat="The seat, as the lobby numbers it", game_id=PICK_GAME)
    async def kick(
        self, interaction: discord.Interaction, seat: int, game_id: int | None = None
    ) -> None:
        await _moderator_only(interaction)
        await requests.kick_seat(interaction, seat, game_id)

    @app_commands.command(
        name="follow",
        description="Follow a game you do not play: its thread, or its moves by direct message",
    )
    @app_commands.rename(game_id="game")
    @app_commands.describe(game_id=PICK_GAME)
    async def follow(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        await follow_game(interaction, game_id)

    @app_commands.command(name="unfollow", description="Stop following a game")
    @app_commands.rename(game_id="game")
    @app_commands.describe(game_id="Which game you follow")
    async def unfollow(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        await unfollow_game(interaction, game_id)

    @unfollow.autocomplete("game_id")
    @answering.quiet_autocomplete
    async def unfollow_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The games the person follows."""
        typed = str(current or "").strip().lower()
        choices = []
        for game in await self.bot.service.follows.followed(interaction.user.id):
            label = f"{find_game(game.game_name).title} #{game.id}"
            if typed and typed not in label.lower():
                continue
            choices.append(app_commands.Choice(name=label[:CHOICE_NAME_LIMIT], value=game.id))
        return choices[:MAX_CHOICES]

    async def _picked(self, interaction: discord.Interaction, game_id: int | None) -> GameRow:
        """The game the command means: the one picked, or the channel's (see `open_game`)."""
        return await self.bot.service.games.open_game(
            in_channel(interaction.channel_id), interaction.user.id, game_id
        )

    @board.autocomplete("game_id")
    @status.autocomplete("game_id")
    @log.autocomplete("game_id")
    @end.autocomplete("game_id")
    @kick.autocomplete("game_id")
    @follow.autocomplete("game_id")
    @answering.quiet_autocomplete
    async def game_here_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The channel's open games (those played in its threads too), the asker's first."""
        if interaction.channel_id is None:
            return []
        games = await self.bot.service.games.games_here(interaction.channel_id, interaction.user.id)
        typed = str(current or "").strip().lower()
        choices = []
        texts = wording.personal(interaction)
        for game in games:
            people = ", ".join(said(seat, texts) for seat in game.seats)
            label = f"{find_game(game.game_name).title} #{game.id}: {people}"
            if typed and typed not in label.lower():
                continue
            choices.append(app_commands.Choice(name=label[:CHOICE_NAME_LIMIT], value=game.id))
        return choices[:MAX_CHOICES]

    @kick.autocomplete("seat")
    @answering.quiet_autocomplete
    async def kick_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The seats of the channel's game (or of the game picked), as the lobby numbers
        them."""
        picked = _picked_id(interaction)
        if picked is not None and not 0 < picked <= MOST_GAME_ID:
            return []  # no game has such a number, and the database could not even compare it
        try:
            game = await self._picked(interaction, picked)
        except BotError:
            return []
        texts = wording.personal(interaction)
        names = [f"{s.seat + 1}. {said(s, texts)}" for s in game.seats]
        typed = str(current or "").strip().lower()
        return [
            app_commands.Choice(name=name[:CHOICE_NAME_LIMIT], value=number)
            for number, name in enumerate(names, start=1)
            if typed in name.lower()
        ][:MAX_CHOICES]

    @app_commands.command(name="replay", description="An animated replay of a finished game here")
    @app_commands.describe(game="Which finished game of this channel (default: the latest)")
    async def replay_game(self, interaction: discord.Interaction, game: int | None = None) -> None:
        # Looked up before deferring: a refusal must stay private, and after a public
        # deferral the first follow-up is public whatever it asks.
        archived = await self._archived(interaction.channel_id, game)
        self._may_replay(interaction.user.id)
        # A public post: in the game's language, like everything it posted while played.
        texts = wording.public(archived.game)
        await interaction.response.defer(thinking=True)
        try:
            post = await replays.replay_post(
                archived.game,
                await self.bot.service.games.actions(archived.game.id),
                heading=replays.archived_heading(archived, texts),
                texts=texts,
                kept=self.bot.service.replays,
            )
        except replays.NoReplay as exc:
            await interaction.followup.send(texts.explain(exc))
            return
        # A card with a new picture: the thinking goes first, the card comes on its own.
        await answering.make_way(interaction.followup, post)
        await interaction.followup.send(**send_kwargs(post))

    def _may_replay(self, user_id: int) -> None:
        """A few replays a minute per person (the service's `throttle`): each is a large
        upload to the channel, and the first of a game a second or more of drawing."""
        throttle = self.bot.service.throttle
        seconds = throttle.wait("game replay", user_id)
        if seconds is not None:
            raise BotError(
                f"You asked for {throttle.most} replays in the last minute: try again in "
                f"{seconds} second{'' if seconds == 1 else 's'}.",
                key="bot.error.replay_limit",
                most=throttle.most,
                count=seconds,
            )

    async def _archived(self, channel_id: int | None, game_id: int | None) -> ArchivedGame:
        """The finished game asked for (default: the channel's latest), or a BotError."""
        assert channel_id is not None
        found = await self.bot.service.games.finished(channel_id, game_id=game_id, limit=1)
        if found:
            return found[0]
        none = BotError(NO_FINISHED_GAME, key="bot.error.no_finished_game")
        if game_id is None:
            raise none
        if not await self.bot.service.games.finished(channel_id, limit=1):
            raise none
        raise BotError(
            f"Game #{game_id} is not a finished game of this channel: pick one from the "
            "suggestions of the game option, or leave it out for the latest.",
            key="bot.error.not_finished_here",
            number=game_id,
            option=Option("game replay game"),
        )

    @replay_game.autocomplete("game")
    @answering.quiet_autocomplete
    async def replay_game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """This channel's finished games, latest first, matching what was typed (a number or
        any part of the label: a game, a day, a player)."""
        if interaction.channel_id is None:
            return []
        typed = str(current or "").strip().lstrip("#").lower()
        number = typed.isascii() and typed.isdigit()
        if number and int(typed) > MOST_GAME_ID:
            return []  # no game has such a number, and the database could not even compare it
        finished = self.bot.service.games.finished
        games = await finished(interaction.channel_id)
        if number and all(a.game.id != int(typed) for a in games):
            # An older game than the latest 25, asked for by its number.
            games = [
                *await finished(interaction.channel_id, game_id=int(typed)),
                *games,
            ]
        choices = []
        for archived in games:
            label = replays.describe(archived, texts=wording.personal(interaction))
            if typed and typed not in label.lower():
                continue
            choices.append(
                app_commands.Choice(name=label[:CHOICE_NAME_LIMIT], value=archived.game.id)
            )
        return choices[:MAX_CHOICES]

    @app_commands.command(
        name="export",
        description=(
            "A game's record as a JSON file, only to you: a finished game, or your own under way"
        ),
    )
    @app_commands.rename(game_id="game")
    @app_commands.describe(
        game_id="Which game of this channel (default: yours under way, else the latest finished)"
    )
    async def export(self, interaction: discord.Interaction, game_id: int | None = None) -> None:
        game, reader = await self._exported(interaction, game_id)
        self.bot.service.throttle.check("game export", interaction.user.id)
        games = self.bot.service.games
        moves = await games.actions(game.id)
        state = games.peek_state(game)
        if [text for _, text in moves] != state.history:
            # A move was stored between the two reads: read both again, now in step.
            game = await games.reload(game.id)
            moves = await games.actions(game.id)
            state = games.peek_state(game)
        texts = wording.personal(interaction)
        try:
            made = await records.exported_file(self._records, game, state, moves, reader, texts)
        except ValueError as exc:  # a game stored by rules that have changed since
            raise BotError(
                f"Game #{game.id} cannot be exported by this version: its moves no longer "
                "lead to where it stands.",
                key="bot.error.export_outdated",
                number=game.id,
            ) from exc
        said_key = "bot.export.done" if reader is None else "bot.export.own"
        await interaction.response.send_message(
            texts(
                said_key,
                game=find_game(game.game_name).title,
                number=game.id,
                count=made.moves,
                file=made.filename,
            ),
            file=upload(made.data, made.filename),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _exported(
        self, interaction: discord.Interaction, game_id: int | None
    ) -> tuple[GameRow, int | None]:
        """The game /game export means, and the asker's seat if its record is theirs (a game
        under way they play): the game picked, else the asker's game under way here, else
        the channel's latest finished game. A game under way is its players' alone."""
        assert interaction.channel_id is not None
        games = self.bot.service.games
        user = interaction.user.id
        if game_id is not None:
            # As stored: another process may have ended it (no read while the watch vouches).
            game = await games.find(game_id, fresh=True)
            if game is None or interaction.channel_id not in game.channels:
                raise BotError(
                    "That is not one of this channel's games: pick one of the suggestions.",
                    key="bot.error.not_a_game_here",
                )
        else:
            here = await games.games_here(interaction.channel_id, user)
            under_way = [g for g in here if g.status == "active"]
            mine = [g for g in under_way if _player_seat(g, user) is not None]
            finished = await games.finished(interaction.channel_id, limit=1)
            picked = mine or [a.game for a in finished] or under_way
            if not picked:
                raise BotError(
                    "This channel has no game to export yet: a finished game, or one you are "
                    "playing.",
                    key="bot.error.export_nothing",
                )
            game = picked[0]
        if game.status == "finished":
            return game, None
        if game.status == "active":
            seat = _player_seat(game, user)
            if seat is None:
                raise BotError(
                    f"Game #{game.id} is still being played, and you are not playing in it: "
                    "its record is for its players until it ends, then for everyone with "
                    "/game export.",
                    key="bot.error.export_not_yours",
                    number=game.id,
                )
            return game, seat
        raise BotError(
            f"Game #{game.id} never started or was abandoned, so it has no record.",
            key="bot.error.export_no_record",
            number=game.id,
        )

    @export.autocomplete("game_id")
    @answering.quiet_autocomplete
    async def export_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The asker's games under way here, then the channel's finished games, latest
        first, matching what was typed."""
        if interaction.channel_id is None:
            return []
        user = interaction.user.id
        texts = wording.personal(interaction)
        typed = str(current or "").strip().lstrip("#").lower()
        labels = []
        for game in await self.bot.service.games.games_here(interaction.channel_id, user):
            if game.status == "active" and _player_seat(game, user) is not None:
                people = ", ".join(said(seat, texts) for seat in game.seats)
                labels.append((game.id, f"#{game.id} {find_game(game.game_name).title}: {people}"))
        for archived in await self.bot.service.games.finished(interaction.channel_id):
            labels.append((archived.game.id, replays.describe(archived, texts=texts)))
        return [
            app_commands.Choice(name=label[:CHOICE_NAME_LIMIT], value=number)
            for number, label in labels
            if not typed or typed in label.lower()
        ][:MAX_CHOICES]


def _player_seat(game: GameRow, user_id: int) -> int | None:
    """The seat `user_id` plays in `game`, theirs too while an AI plays it for them (they are
    away, and may take it back): their own secrets are theirs to know either way."""
    seat = game.seat_of(user_id)
    if seat is not None:
        return seat
    return next((s.seat for s in game.seats if s.away_user_id == user_id), None)


def _picked_id(interaction: discord.Interaction) -> int | None:
    """The game option as typed so far (autocomplete sends it raw, possibly unfinished)."""
    raw = getattr(interaction.namespace, "game", None)
    try:
        return int(raw) if raw not in (None, "") else None
    except (TypeError, ValueError):
        return None


async def setup(bot: GameBot) -> None:
    """Adds the cog to a bot as it starts (see `GameBot.setup_hook`)."""
    await bot.add_cog(GameCog(bot))


async def _moderator_only(interaction: discord.Interaction) -> None:
    if not await lobby.is_moderator(interaction):
        raise lobby.moderators_only()
