"""The AI seat's claim costs no statement of its own: a person's move that hands it the turn
claims its thinking in the move's own statement (`AiClaim`), and once that move's board is out
the AI moves on the claim with no look at the outbox. Counted in the statements SQLite runs
while people play a game with an AI seat, as the load benchmark plays one."""

from __future__ import annotations

import pytest
from e2e_harness import BotHarness, Table, lobby_button

from sandbox.emulator import DiscordEmulator

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

# The statements that claimed the AI's thinking on their own (`Duties.claim_ai`, taken or
# renewed), and that looked whether a post it waits for is still owed (`Duties.owes`).
CLAIMS = "UPDATE games SET ai_until"
OWES = "SELECT 1 FROM announcements WHERE game_id = ? AND sent_at IS NULL AND kind IN"


async def test_the_ai_seat_moves_with_no_statement_of_its_own_to_claim_it(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    assert hv.bot is not None
    # The periodic check claims AI turns nobody holds; here none is left unheld.
    db = await hv.alone()
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    lobby = (await emu.slash(ada, "game new", game="high-voltage"))[0]
    await emu.click(bo, lobby_button(lobby, "join"), message=lobby)
    await emu.click(ada, lobby_button(lobby, "addai"), message=lobby)
    await emu.click(ada, lobby_button(lobby, "start"), message=lobby)
    await emu.settle()
    table = Table(emu, hv, [ada, bo])
    game, _ = await table.wait_for_turn()
    ai_seat = next(seat.seat for seat in game.seats if seat.is_ai)
    moved_before = sum(seat == ai_seat for seat, _ in await hv.actions(game))

    statements: list[str] = []
    await db.conn.set_trace_callback(statements.append)
    try:
        game, _ = await table.play_moves(6)  # two rounds of the table: the AI moves twice
    finally:
        await db.conn.set_trace_callback(None)

    moved = sum(seat == ai_seat for seat, _ in await hv.actions(game)) - moved_before
    assert moved >= 2, "the AI seat moved in each round"
    run = "\n".join(sql[:120] for sql in statements)
    assert not [sql for sql in statements if sql.startswith(CLAIMS)], run
    assert not [sql for sql in statements if sql.startswith(OWES)], run
