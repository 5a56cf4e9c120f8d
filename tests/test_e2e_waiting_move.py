"""A move waits for its board picture and for its post to go out, and at a few hundred games
most moves are waiting at any moment: meanwhile a move holds what finishing it needs, not the
interaction discord.py received it in (with its person, its frames and its message)."""

from __future__ import annotations

import asyncio
import gc

import discord
from discord_emulator import DiscordEmulator
from e2e_harness import BotHarness, board_posts, open_three_seat_game


def interactions_alive(interaction_id: int) -> list[discord.Interaction]:
    gc.collect()
    return [
        o for o in gc.get_objects() if isinstance(o, discord.Interaction) and o.id == interaction_id
    ]


async def test_a_move_waiting_to_be_announced_holds_no_interaction(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    _, _, _, table = await open_three_seat_game(emu, hv)
    game, state = await table.wait_for_turn()
    mover = game.seats[state.current_seat() or 0]
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    # The board's follow-up is held back, so the move is stored and acknowledged, its picture
    # drawn, and its post waiting to go out.
    held = emu.faults.rate_limit("POST /webhooks/{application_id}/{token}", retry_after=1.0)
    since = emu.last_seq
    moving = asyncio.create_task(table.play(game, state, f"draw {cell} here r90"))
    await emu.wait_for(lambda: held.fired == 1, 5, message="the board's follow-up held back")
    move = list(emu.interactions.values())[-1]
    assert move.user.id == mover.user_id and move.acknowledged_at is not None

    assert interactions_alive(move.id) == []

    # ...and the move is announced all the same, as the answer to its command.
    await moving
    await emu.wait_for(
        lambda: any(
            r.content.startswith(mover.display_name) for r in board_posts(emu, since=since)
        ),
        10,
        message="the move's board post",
    )
    posts = [r for r in board_posts(emu, since=since) if r.content.startswith(mover.display_name)]
    assert len(posts) == 1 and posts[0].kind == "followup"
    assert f"drew {cell}" in posts[0].content
