"""/s6: the Sector 6 actions. Each command only builds the engine's action text; the rules,
the checks and the messages for bad input all come from the engine through the shared
handlers (`hvbot.handlers`).

The choices after a move (and a blocked player's rotations) are also buttons on the board
post, and a drawn tile's placements on its drawer's prompt; the commands here make every
action reachable by typing as well, and their cell options autocomplete with the cells where
the caller may act right now.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from data.texts import ENGLISH, Texts, texts_for
from engine import State
from games.sector6.presenter import middle_first
from games.sector6.rules.actions import DEGREES
from games.sector6.rules.state import Sector6State
from hvbot.cogs.moves import Choices, GameMoves, in_private_channels
from hvbot.handlers import moves
from hvbot.messages import game_posts, wording
from hvbot.messages.outgoing import send_private
from hvbot.messages.translator import choice

if TYPE_CHECKING:
    from hvbot.runtime.client import GameBot

GAME = "sector6"
ROTATION_CHOICES = [
    app_commands.Choice(
        name=app_commands.locale_str(
            f"{d}° clockwise from the tile as shown",
            key="commands.choices.tile_rotation",
            degrees=d,
        ),
        value=d,
    )
    for d in DEGREES
]
DIRECTION_CHOICES = [
    choice("left (anticlockwise)", "left", key="commands.choices.direction.left"),
    choice("right (clockwise)", "right", key="commands.choices.direction.right"),
]


def place_cells(state: State, seat: int | None, rotation: int | None) -> list[str]:
    """Cells where `seat`'s drawn tile may go now (turned `rotation` degrees, if chosen); none
    for a seat not to move, or for someone who does not play here (None)."""
    return state.targets(seat, "place.cell", {} if rotation is None else {"degrees": rotation})


def turns_note(state: State, seat: int | None, cell: str, texts: Texts = ENGLISH) -> str:
    """The rotations of `seat`'s drawn tile that fit on `cell`, as its choice notes them: in
    the words of the rotation option ("turned 0°, 240° or 300° clockwise"), or that any turn
    fits, in the reader's language (`texts`)."""
    turns = [f"{d}°" for d in state.targets(seat, "place.degrees", {"cell": cell})]
    if len(turns) == len(DEGREES):
        return texts("sector6.suggest.any_turn")
    if len(turns) == 1:
        return texts("sector6.suggest.turned", turns=turns[0])
    listed = texts("sector6.suggest.or", some=", ".join(turns[:-1]), last=turns[-1])
    return texts("sector6.suggest.turned", turns=listed)


def move_cells(state: State, seat: int | None, origin: str | None) -> tuple[list[str], list[str]]:
    """(prisoners that can move, cells they can reach); the reach from `origin` only, if
    the caller has chosen which prisoner moves. Both empty unless `seat` is to move."""
    chosen = (origin or "").strip().upper()
    targets = state.targets(seat, "move.target", {"origin": chosen} if chosen else {})
    return state.targets(seat, "move.origin"), targets


@in_private_channels  # played in DMs and group DMs too
class Sector6Cog(GameMoves, group_name="s6", group_description="Sector 6 moves"):
    game = GAME

    # Autocomplete answers only the person to move: others may watch, not act.

    def cell_names(self, state: State) -> Collection[str]:
        if not isinstance(state, Sector6State):
            raise TypeError(f"a Sector 6 command was given a {type(state).__name__}")
        return state.table.names

    async def _place_cells(self, interaction: discord.Interaction, current: str) -> Choices:
        rotation = self.filled(interaction, "rotation")
        language = wording.language(interaction)
        texts = texts_for(language)
        return await self.suggest(
            interaction,
            current,
            lambda state, seat: middle_first(place_cells(state, seat, rotation), state.view(None)),
            lambda state, seat, cell: turns_note(state, seat, cell, texts),
            turn_only=True,
            slow=("place", rotation, language),
        )

    async def _entry_cells(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self.suggest(
            interaction,
            current,
            lambda state, seat: middle_first(state.targets(seat, "entry.cell"), state.view(None)),
            turn_only=True,
            slow=("entry",),
        )

    async def _move_from(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self.suggest(
            interaction,
            current,
            lambda state, seat: move_cells(state, seat, None)[0],
            turn_only=True,
        )

    async def _move_to(self, interaction: discord.Interaction, current: str) -> Choices:
        origin = self.filled(interaction, "from")
        return await self.suggest(
            interaction,
            current,
            lambda state, seat: move_cells(state, seat, origin)[1],
            turn_only=True,
        )

    async def _rotate_cells(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self.suggest(
            interaction,
            current,
            lambda state, seat: state.targets(seat, "rotate.cell"),
            turn_only=True,
        )

    # ------------------------------------------------------------------ construction

    @app_commands.command(
        name="draw", description="Draw the top tile of your supply (only you see it)"
    )
    async def draw(self, interaction: discord.Interaction) -> None:
        """Asking again while holding a drawn tile shows it again instead of refusing."""
        if interaction.channel_id is None:
            # Discord sends every command from a channel; without one there is no game to
            # look at, and the draw is answered as any move is.
            await moves.act_from_command(interaction, "draw")
            return
        game = await self.bot.service.games.open_game(interaction.channel_id, interaction.user.id)
        if game.game_name == GAME and game.status == "active":
            state = self.bot.service.games.peek_state(game)
            prompt = await game_posts.prompt_post(
                game, state, interaction.user.id, wording.language(interaction)
            )
            if prompt is not None:
                await send_private(interaction, prompt)
                return
        await moves.act_from_command(interaction, "draw")

    @app_commands.command(name="place", description="Lay the tile you drew on a cell, turned")
    @app_commands.describe(
        cell="A free cell next to the maze, e.g. K10 (suggested: where the tile fits)",
        rotation="How far to turn the tile clockwise from the way it was shown to you",
    )
    @app_commands.choices(rotation=ROTATION_CHOICES)
    @app_commands.autocomplete(cell=_place_cells)
    async def place(self, interaction: discord.Interaction, cell: str, rotation: int) -> None:
        if await self.not_cells(
            interaction, (cell, lambda state, seat: place_cells(state, seat, rotation))
        ):
            return
        await moves.act_from_command(interaction, f"place {cell} r{rotation}")

    @app_commands.command(
        name="entry", description="Lay one of your entry points instead of drawing"
    )
    @app_commands.describe(cell="A free cell next to the maze, e.g. K10 (suggested: where it fits)")
    @app_commands.autocomplete(cell=_entry_cells)
    async def entry(self, interaction: discord.Interaction, cell: str) -> None:
        if await self.not_cells(
            interaction, (cell, lambda state, seat: state.targets(seat, "entry.cell"))
        ):
            return
        await moves.act_from_command(interaction, f"place entry {cell}")

    # ------------------------------------------------------------------ competition

    @app_commands.command(name="move", description="Move one of your prisoners in a straight line")
    @app_commands.rename(origin="from", target="to")
    @app_commands.describe(
        origin="The cell of the prisoner that moves",
        target="Where it stops: straight out through an open side, past no wall or prisoner",
    )
    @app_commands.autocomplete(origin=_move_from, target=_move_to)
    async def move(self, interaction: discord.Interaction, origin: str, target: str) -> None:
        if await self.not_cells(
            interaction,
            (origin, lambda state, seat: move_cells(state, seat, None)[0]),
            (target, lambda state, seat: move_cells(state, seat, origin)[1]),
        ):
            return
        await moves.act_from_command(interaction, f"move {origin} {target}")

    @app_commands.command(
        name="collect", description="Take the oxygen marker of the tile your prisoner just left"
    )
    async def collect(self, interaction: discord.Interaction) -> None:
        await moves.act_from_command(interaction, "collect")

    @app_commands.command(name="rotate", description="Turn a tile one side (60°)")
    @app_commands.describe(
        direction="Which way to turn it",
        cell="When blocked: the tile under one of your prisoners (after a move: the tile left)",
    )
    @app_commands.choices(direction=DIRECTION_CHOICES)
    @app_commands.autocomplete(cell=_rotate_cells)
    async def rotate(
        self, interaction: discord.Interaction, direction: str, cell: str | None = None
    ) -> None:
        if await self.not_cells(
            interaction, (cell, lambda state, seat: state.targets(seat, "rotate.cell"))
        ):
            return
        where = f" {cell}" if cell else ""
        await moves.act_from_command(interaction, f"rotate{where} {direction}")

    @app_commands.command(name="done", description="End your turn without collecting or turning")
    async def done(self, interaction: discord.Interaction) -> None:
        await moves.act_from_command(interaction, "done")

    @app_commands.command(
        name="pass", description="Novice mode: let your turn go when neither prisoner can move"
    )
    async def pass_(self, interaction: discord.Interaction) -> None:
        await moves.act_from_command(interaction, "pass")


async def setup(bot: GameBot) -> None:
    """Adds the cog to a bot as it starts (see `GameBot.setup_hook`)."""
    await bot.add_cog(Sector6Cog(bot))
