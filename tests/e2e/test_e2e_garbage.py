"""Moves leave nothing for the garbage collector: what a move makes (its interaction and
response, its cards, its pictures' files, its write) is freed as soon as it is done with,
never by a collection.

At ten thousand open games the bot makes a few moves a second, each once a few hundred objects
tied in reference cycles: only the collector's full passes freed them, each walking every
object the process holds (a few hundred thousand, half a second with the event loop stopped),
and between passes the garbage waited, pictures and all. `gc.DEBUG_SAVEALL` keeps what a
collection finds, so a test sees exactly what the moves left."""

from __future__ import annotations

import gc

import pytest
from cyclic_garbage import cyclic_garbage, kinds
from e2e_harness import BotHarness, open_three_seat_game

from sandbox.emulator import DiscordEmulator

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

# Before: about 1,050 objects for these six moves of the people and the AI's between them
# (cards, interactions, files, the write queue's batches); after: none. A few are allowed for
# what the emulated Discord's server, in the same process, may leave.
LEFT_AT_MOST = 20
OURS = ("discord.", "hvbot.", "games.", "engine.", "_io.")


def ours(garbage: list[object]) -> list[str]:
    """The kinds of what was left that the bot or discord.py made."""
    return sorted(kind for kind in kinds(garbage) if kind.startswith(OURS))


async def test_moves_by_command_and_button_leave_no_cycles(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    _, _, _, table = await open_three_seat_game(emu, hv)
    await table.play_moves(3)  # the first of everything made once a process
    await emu.settle()
    with cyclic_garbage() as garbage:
        await table.play_moves(6)  # slash commands and the buttons of private prompts
        await emu.settle()
    assert ours(garbage) == [], kinds(garbage)
    assert len(garbage) <= LEFT_AT_MOST, kinds(garbage)


async def test_refused_moves_leave_no_cycles(emulator: DiscordEmulator, hv: BotHarness) -> None:
    emu = emulator
    ada, bo, _, table = await open_three_seat_game(emu, hv)
    game, state = await table.wait_for_turn()
    mover = table.people[game.seats[state.current_seat() or 0].user_id or 0]
    other = bo if mover is ada else ada
    await emu.slash(other, "hv rotate", cell="C3", rotation=90)
    await emu.settle()
    with cyclic_garbage() as garbage:
        for _ in range(3):
            refused = await emu.slash(other, "hv rotate", cell="C3", rotation=90)
            assert refused.where(kind="response", visibility="ephemeral"), "not their turn"
            refused = await emu.slash(mover, "hv draw", cell="Z9")
            assert refused.where(kind="response", visibility="ephemeral"), "no such cell"
        await emu.settle()
    assert ours(garbage) == [], kinds(garbage)
    assert len(garbage) <= LEFT_AT_MOST, kinds(garbage)


async def test_what_outlives_a_full_pass_is_frozen_in_the_bot(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """The bot's collector (`hvbot.infra.collector`) is in place from its start: the game kept
    in memory, once a full pass has gone by, is no longer walked by the next."""
    emu = emulator
    _, _, _, table = await open_three_seat_game(emu, hv)
    game, _ = await table.play_moves(2)
    assert hv.bot is not None
    collector = hv.bot.collector
    state = hv.bot.service.repo.cache._states[game.id]
    passes = collector.passes
    gc.collect()
    assert collector.passes == passes + 1
    assert not any(each is state for each in gc.get_objects()), "the game's state is frozen"
    # Moves go on as before, and leave nothing waiting.
    with cyclic_garbage() as garbage:
        await table.play_moves(2)
        await emu.settle()
    assert ours(garbage) == [], kinds(garbage)
