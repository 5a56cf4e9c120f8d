"""/hv: the High Voltage actions. Each command only builds the engine's action text; the rules,
the checks and the messages for bad input all come from the engine through the shared
handlers (`hvbot.handlers`)."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from engine import State
from games.high_voltage.rules.state import HighVoltageState
from hvbot.cogs.moves import Choices, GameMoves
from hvbot.handlers import answering, moves
from hvbot.messages import game_posts, wording
from hvbot.messages.outgoing import send_private
from hvbot.messages.translator import choice

if TYPE_CHECKING:
    from hvbot.runtime.client import GameBot

ROTATIONS = (0, 90, 180, 270)
ROTATION_CHOICES = [app_commands.Choice(name=f"{r}°", value=r) for r in ROTATIONS]
PLACE_CHOICES = [
    choice("here (where it was)", "here", key="commands.choices.place.here"),
    choice("the empty cell", "empty", key="commands.choices.place.empty"),
]
SPECIAL_CHOICES = [
    choice("no", "no", key="commands.choices.special.no"),
    choice("danger: move or swap a DANGER card", "danger", key="commands.choices.special.danger"),
    choice(
        "double: take a second action this turn", "double", key="commands.choices.special.double"
    ),
]


def _special(special: str) -> str:
    return "" if special in ("", "no") else f" special={special}"


def cells_for(state: State, kind: str) -> list[str]:
    """Cells where `kind` (draw, rotate, move or swap) is legal now for the player to move, as
    the engine lists them (anyone may look). While a drawn card waits, `draw` offers its cell:
    drawing it again shows the card again."""
    seat = state.current_seat()
    if kind == "draw" and state.prompt() == "place":
        return [state.view(None)["drawn"]["cell"]]
    if kind in ("draw", "rotate"):
        return state.targets(seat, f"{kind}.cell")
    found = state.targets(seat, f"{kind}.cell" if kind == "move" else "swap.a")
    if kind == "swap":
        found += state.targets(seat, "swap.b")
    return sorted(set(found), key=lambda name: (name[1:], name[0]))


def _swappable(state: State, _: int | None) -> list[str]:
    return cells_for(state, "swap")


class HighVoltageCog(GameMoves, group_name="hv", group_description="High Voltage moves"):
    game = "high-voltage"

    def cell_names(self, state: State) -> Collection[str]:
        if not isinstance(state, HighVoltageState):
            raise TypeError(f"a High Voltage command was given a {type(state).__name__}")
        return state.geo.names

    async def _draw_cells(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self.suggest(interaction, current, lambda state, _: cells_for(state, "draw"))

    async def _rotate_cells(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self.suggest(interaction, current, lambda state, _: cells_for(state, "rotate"))

    async def _move_cells(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self.suggest(interaction, current, lambda state, _: cells_for(state, "move"))

    async def _swap_cells(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self.suggest(interaction, current, lambda state, _: cells_for(state, "swap"))

    @app_commands.command(name="draw", description="Draw a face-down card (you alone see it)")
    @app_commands.describe(
        cell="A face-down card, e.g. C3",
        place="Where to put it: back where it was, or the empty cell (leave out to look first)",
        rotation="How to turn it (leave out to look first)",
        special="Use your special token for a double turn",
    )
    @app_commands.choices(place=PLACE_CHOICES, rotation=ROTATION_CHOICES, special=SPECIAL_CHOICES)
    @app_commands.autocomplete(cell=_draw_cells)
    async def draw(
        self,
        interaction: discord.Interaction,
        cell: str,
        place: str | None = None,
        rotation: int | None = None,
        special: str = "no",
    ) -> None:
        if await self.not_cells(interaction, (cell, lambda state, _: cells_for(state, "draw"))):
            return
        if (place is None) != (rotation is None):
            await answering.reply_error(
                interaction, wording.personal(interaction)("bot.hv.place_both")
            )
            return
        action = await self._draw_action(interaction, cell, place, rotation, special)
        if action is not None:
            await moves.act_from_command(interaction, action)

    async def _draw_action(
        self,
        interaction: discord.Interaction,
        cell: str,
        place: str | None,
        rotation: int | None,
        special: str,
    ) -> str | None:
        """The action `/hv draw` stands for; None once answered here instead: the person
        already holds the card drawn from `cell` and did not say where it goes, so it is shown
        again (any other cell is read as a draw, which the rules refuse while a card is held).

        Apart from `draw`, so that the game and its state read here are not held while the
        move is made and its pictures are drawn (at a few hundred games, every move waits
        a moment for its board)."""
        where = "" if place is None else f" {place} r{rotation}"
        drawing = f"draw {cell}{where}{_special(special)}"
        if interaction.channel_id is None:
            # Discord sends every command from a channel; without one there is no game to
            # look at, and the draw is answered as any move is.
            return drawing
        game = await self.bot.service.games.open_game(interaction.channel_id, interaction.user.id)
        state = self.bot.service.games.peek_state(game)
        seat = game.seat_of(interaction.user.id)
        if state.prompt() == "place" and state.current_seat() == seat:
            if place is not None:
                return f"place {place} r{rotation}"
            if cell.strip().upper() != state.view(None)["drawn"]["cell"]:
                return f"draw {cell}"
            prompt = await game_posts.prompt_post(
                game, state, interaction.user.id, wording.language(interaction)
            )
            if prompt is not None:
                await send_private(interaction, prompt)
                return None
        return drawing

    async def _rotate_turns(self, interaction: discord.Interaction, current: str) -> Choices:
        """The orientations the chosen card may be turned to: a card shows the same picture
        at some of them, and its own is never one (the rules refuse both). Before a card is
        chosen, the four; for a cell holding no card to rotate, none."""
        found = await self.in_play(interaction)
        if found is None:
            return []
        _, state = found
        cell = str(self.filled(interaction, "cell") or "").strip().upper()
        turns = (
            state.targets(state.current_seat(), "rotate.rotation", {"cell": cell})
            if cell
            else list(ROTATIONS)
        )
        typed = str(current or "").strip().rstrip("°")
        return [
            app_commands.Choice(name=f"{r}°", value=r)
            for r in sorted(turns)
            if str(r).startswith(typed)
        ]

    @app_commands.command(name="rotate", description="Turn a face-up card in place")
    @app_commands.describe(
        cell="A face-up card", rotation="Its new orientation", special="Special token use"
    )
    @app_commands.choices(special=SPECIAL_CHOICES)
    @app_commands.autocomplete(cell=_rotate_cells, rotation=_rotate_turns)
    async def rotate(
        self, interaction: discord.Interaction, cell: str, rotation: int, special: str = "no"
    ) -> None:
        if await self.not_cells(interaction, (cell, lambda state, _: cells_for(state, "rotate"))):
            return
        await moves.act_from_command(interaction, f"rotate {cell} r{rotation}{_special(special)}")

    @app_commands.command(
        name="move", description="Move a face-up card to the empty cell (an action token)"
    )
    @app_commands.describe(
        cell="A face-up card", rotation="Its orientation once moved", special="Special token use"
    )
    @app_commands.choices(rotation=ROTATION_CHOICES, special=SPECIAL_CHOICES)
    @app_commands.autocomplete(cell=_move_cells)
    async def move(
        self, interaction: discord.Interaction, cell: str, rotation: int, special: str = "no"
    ) -> None:
        if await self.not_cells(interaction, (cell, lambda state, _: cells_for(state, "move"))):
            return
        await moves.act_from_command(interaction, f"move {cell} r{rotation}{_special(special)}")

    @app_commands.command(name="swap", description="Swap two face-up cards (an action token)")
    @app_commands.describe(
        a="One face-up card",
        b="The other face-up card",
        rotation_a="Orientation of card a once it is on b's cell",
        rotation_b="Orientation of card b once it is on a's cell",
        special="Special token use",
    )
    @app_commands.choices(
        rotation_a=ROTATION_CHOICES, rotation_b=ROTATION_CHOICES, special=SPECIAL_CHOICES
    )
    @app_commands.autocomplete(a=_swap_cells, b=_swap_cells)
    async def swap(
        self,
        interaction: discord.Interaction,
        a: str,
        b: str,
        rotation_a: int,
        rotation_b: int,
        special: str = "no",
    ) -> None:
        if await self.not_cells(interaction, (a, _swappable), (b, _swappable)):
            return
        await moves.act_from_command(
            interaction, f"swap {a} {b} r{rotation_a} r{rotation_b}{_special(special)}"
        )


async def setup(bot: GameBot) -> None:
    """Adds the cog to a bot as it starts (see `GameBot.setup_hook`)."""
    await bot.add_cog(HighVoltageCog(bot))
