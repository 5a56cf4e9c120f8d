"""What every game's move commands (/hv, /pylons, /s6) share: they act only in a channel that
plays their game, and their cell options autocomplete with the cells where the caller may act.

Each game's commands build that game's action text, and another game's rules would read it
in their own way (a Pylons cell typed in a High Voltage channel reads as placing a drawn card),
so the check comes before anything is parsed: a Discord check on every command of the group,
answered with one refusal that names the channel's game and its commands.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Collection, Hashable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from data.texts import Command
from engine import State
from engine.errors import Phrase, echo
from engine.registry import find_game
from hvbot.database import StoreUnavailable
from hvbot.handlers import answering
from hvbot.services import BotError, in_channel
from hvbot.store import GameRow

if TYPE_CHECKING:
    from hvbot.runtime.client import GameBot


MAX_CHOICES = 25  # Discord shows at most 25 autocomplete choices
WORKED_OUT_KEPT = 64  # slow cell lists kept: the options being typed in right now
Choices = list[app_commands.Choice[str]]
# The cells to offer for one option, from the game's state and the caller's seat (None: the
# caller does not play here), in the order to show them.
Cells = Callable[[State, int | None], Iterable[str]]
# What to say beside one offered cell (empty: nothing), from the state, the seat and the cell.
Note = Callable[[State, int | None, str], str]


class OtherGame(app_commands.CheckFailure):
    """A game's command used in a channel that plays another game. Like the bot's other
    refusals it carries a text key and its fields, to be said in the asker's language."""

    def __init__(self, game: str, used: str, group: str | None) -> None:
        """`group`: the commands of the channel's game (None if it has none)."""
        title = find_game(game).title
        where = Command(group) if group else Command("game board")
        super().__init__(f"This channel plays {title}: use /{where.path}, not /{used}.")
        self.key = "bot.error.other_game"
        self.fields = {"game": title, "commands": where, "used": Command(used)}


_Offered = TypeVar("_Offered")


def in_private_channels(target: _Offered) -> _Offered:
    """Offer a command (or a command group) wherever the app is: installed by a server, or by
    a person for their own account, and used on a server, in the bot's DM, or in a DM or a
    group DM between people. Only what works there is offered so: the games that can be
    played in a private channel, their moves, and /help; what needs a server (its settings,
    tournaments, seasons, moderation) stays on the server that installed the bot."""
    target = app_commands.allowed_installs(guilds=True, users=True)(target)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(target)


SHOWN_CELLS = 12  # legal cells a refusal lists before saying how many more


def not_a_cell(typed: str, legal: list[str]) -> BotError:
    """The refusal of an option that names no cell, with the cells it takes now."""
    said = echo(typed.strip())
    if not legal:
        return BotError(f"{said!r} is not a cell.", key="bot.error.not_a_cell_none", typed=said)
    cells = ", ".join(legal[:SHOWN_CELLS])
    more = len(legal) - SHOWN_CELLS
    shown: str = cells
    if more > 0:
        shown = Phrase(
            f"{cells} and {more} more", "bot.error.cells_and_more", cells=cells, count=more
        )
    return BotError(
        f"{said!r} is not a cell. Cells you can choose now: {shown}.",
        key="bot.error.not_a_cell",
        typed=said,
        cells=shown,
    )


def _listed(cells: Cells, state: State, seat: int) -> list[str]:
    return list(dict.fromkeys(cells(state, seat)))


def group_of(bot: commands.Bot | commands.AutoShardedBot, game: str) -> str | None:
    """The command group the bot plays `game` with: the group of its loaded cog."""
    for cog in bot.cogs.values():
        if isinstance(cog, GameMoves) and cog.game == game:
            return cog.group_name()
    return None


class GameMoves(commands.GroupCog):
    """The move commands of one game (`game`, its engine name)."""

    game: ClassVar[str]

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        # Cells worked out off the event loop, per game version, seat and option (see
        # `suggest`), with the notes said so far beside them: the least recently used go.
        self._worked_out: OrderedDict[Hashable, tuple[list[str], dict[str, str]]] = OrderedDict()
        super().__init__()

    @classmethod
    def group_name(cls) -> str:
        """The name of the cog's command group, as typed (a game's group is named in plain
        text, though discord.py allows one translated; its untranslated words, then)."""
        name = cls.__cog_group_name__
        return name if isinstance(name, str) else name.message

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Before any option is read: refuse in a channel whose game is another. With no game
        here, the command goes on and is told so by the service, as every command is; so it
        does with the store away, and is told that (discord.py would leave an error raised here
        unanswered)."""
        try:
            game = await self.bot.service.games.open_game(
                in_channel(interaction.channel_id), interaction.user.id
            )
        except (BotError, StoreUnavailable):
            return True
        if game.game_name != self.game:
            raise OtherGame(game.game_name, self.group_name(), self._group_of(game.game_name))
        return True

    async def in_play(self, interaction: discord.Interaction) -> tuple[GameRow, State] | None:
        """The channel's game and its state, for autocomplete: None if there is none here or it
        is another game (autocomplete answers quietly; a command would be told why)."""
        try:
            game = await self.bot.service.games.open_game(
                in_channel(interaction.channel_id), interaction.user.id
            )
            state = self.bot.service.games.peek_state(game)
        except (BotError, StoreUnavailable):
            return None
        return (game, state) if game.game_name == self.game else None

    @answering.quiet_autocomplete
    async def suggest(
        self,
        interaction: discord.Interaction,
        typed: str,
        cells: Cells,
        note: Note | None = None,
        *,
        turn_only: bool = False,
        slow: Hashable | None = None,
    ) -> Choices:
        """Autocomplete choices for a cell option: the cells `cells` lists for the caller in
        the channel's game, matching what is typed so far. None in another game's channel, nor
        (with `turn_only`) for anyone but the player to move.

        `slow`: the rules take long to list these cells (all the free cells of an empty
        table, each with the turns that fit): they are worked out in a thread, on a copy of
        the state, so no other game waits for them, and kept under this key (the option and
        what it depends on) for the next keystrokes of the same version of the game."""
        found = await self.in_play(interaction)
        if found is None:
            return []
        game, state = found
        seat = game.seat_of(interaction.user.id)
        if turn_only and (seat is None or state.current_seat() != seat):
            return []
        if slow is None:
            said = None if note is None else lambda cell: note(state, seat, cell)
            return self.offered(cells(state, seat), typed, said)
        key = (game.id, game.version, seat, slow)
        worked = self._worked_out.get(key)
        if worked is None:
            copy = state.copy()
            worked = (list(await asyncio.to_thread(cells, copy, seat)), {})
            self._worked_out[key] = worked
            while len(self._worked_out) > WORKED_OUT_KEPT:
                self._worked_out.popitem(last=False)
        self._worked_out.move_to_end(key)
        listed, notes = worked
        if note is not None:
            missing = [c for c in self.matching(listed, typed) if c not in notes]
            if missing:
                copy = state.copy()
                notes.update(
                    await asyncio.to_thread(lambda: {c: note(copy, seat, c) for c in missing})
                )
        return self.offered(listed, typed, None if note is None else lambda c: notes.get(c, ""))

    def cell_names(self, state: State) -> Collection[str]:
        """Every cell of the game's board as players name them (each game says its own)."""
        raise NotImplementedError

    async def not_cells(
        self, interaction: discord.Interaction, *options: tuple[str | None, Cells]
    ) -> bool:
        """True once a cell option whose value names no cell at all is refused here, with
        the cells that option takes now: what the rules would say of such a value is about
        typed actions, which players of the bot never type. A real cell goes on to the rules,
        which say why it will not do, if it will not."""
        found = await self.in_play(interaction)
        if found is None:
            return False  # the service says why there is nothing to play here
        game, state = found
        names = set(self.cell_names(state))
        for typed, cells in options:
            if typed is None or typed.strip().upper() in names:
                continue
            seat = game.seat_of(interaction.user.id)
            legal: list[str] = []
            if seat is not None and state.current_seat() == seat:
                # As autocomplete lists them, off the event loop: some lists take a while.
                legal = await asyncio.to_thread(_listed, cells, state.copy(), seat)
            await answering.reply_error(interaction, not_a_cell(typed, legal))
            return True
        return False

    @staticmethod
    def filled(interaction: discord.Interaction, name: str) -> Any:
        """An option the caller has filled in already (None if not yet), for narrowing the
        choices of another."""
        return getattr(interaction.namespace, name, None)

    @staticmethod
    def offered(
        names: Iterable[str], typed: str, note: Callable[[str], str] | None = None
    ) -> Choices:
        """Autocomplete choices: the distinct legal values starting with what is typed so far,
        in the order given, as many as Discord shows, each with its note (worked out only for
        the values shown)."""
        shown = GameMoves.matching(names, typed)
        out = []
        for name in shown:
            said = note(name) if note else ""
            out.append(app_commands.Choice(name=f"{name} ({said})" if said else name, value=name))
        return out

    @staticmethod
    def matching(names: Iterable[str], typed: str) -> list[str]:
        """The distinct values starting with what is typed so far, as many as Discord shows."""
        prefix = typed.strip().upper()
        return [name for name in dict.fromkeys(names) if name.startswith(prefix)][:MAX_CHOICES]

    def _group_of(self, game: str) -> str | None:
        return group_of(self.bot, game)
