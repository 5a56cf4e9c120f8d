"""A move waits for its board picture and for its post to go out, and at a few hundred games
most moves are waiting at any moment: meanwhile a move holds what finishing it needs, not the
interaction discord.py received it in (with its person, its frames and its message)."""

from __future__ import annotations

import gc

import discord
import pytest
from e2e_harness import (
    BotHarness,
    before_the_ai,
    board_posts,
    move_with_post_held,
    open_three_seat_game,
)

from data.texts import texts_for
from sandbox.emulator import DiscordEmulator

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


def interactions_alive(hv: BotHarness, interaction_id: int) -> list[discord.Interaction]:
    """The interactions of that id still held. The bot's collector freezes what outlives a
    full pass, and the frozen are in no list the garbage collector gives: so it is stopped,
    and everything unfrozen, while this looks, and started again after."""
    assert hv.bot is not None
    hv.bot.collector.stop()
    gc.unfreeze()
    try:
        gc.collect()
        return [
            o
            for o in gc.get_objects()
            if isinstance(o, discord.Interaction) and o.id == interaction_id
        ]
    finally:
        hv.bot.collector.start()


async def test_a_move_waiting_to_be_announced_holds_no_interaction(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    move = await move_with_post_held(emu, hv, pause=1.0)
    sent = list(emu.interactions.values())[-1]
    assert sent.user.id == move.mover.user_id and sent.acknowledged_at is not None

    assert interactions_alive(hv, sent.id) == []

    # ...and the move is announced all the same, in the game's channel.
    posts = await move.announced(emu)
    assert len(posts) == 1 and posts[0].kind == "channel_message"
    assert f"drew {move.cell}" in posts[0].text


async def test_a_move_whose_board_post_fails_is_logged_apologised_for_and_played_on(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    _, _, _, table = await open_three_seat_game(emu, hv)
    game, state, ai_seat = await before_the_ai(table)
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    refused = emu.faults.fail(
        "POST /channels/{channel_id}/messages", status=400, code=50035, message="Invalid"
    )
    hv.allowed_errors.append(f"game {game.id}: unexpected error handling an interaction")
    since = emu.last_seq
    await table.play(game, state, f"draw {cell} here r90")

    # Discord refused the board post: the failure is logged with its game...
    await emu.wait_for(lambda: refused.fired == 1, 10, message="the board post refused")
    await emu.wait_for(lambda: hv.errors.records, 10, message="the failure logged")
    assert [f"game {game.id}:" in r.getMessage() for r in hv.errors.records] == [True]
    # ...its mover is told the move stands though it could not be shown (not to try again)...
    told = texts_for("en")("bot.apology_after_move")
    answers = await emu.wait_for(
        lambda: [r for r in emu.messages(kind="followup", since=since) if r.text == told],
        10,
        message="the apology",
    )
    assert len(answers) == 1
    # ...and the move stands: the AI seat, next, plays on and its board is posted.
    moved = await hv.game()
    assert moved.version > game.version
    await emu.wait_for(
        lambda: any(
            r.text.startswith(moved.seats[ai_seat].display_name)
            for r in board_posts(emu, since=since)
        ),
        20,
        message="the AI seat's move",
    )
