"""Ratings v2 through Discord, against the real bot: a resignation ranks last at a table of
four, and a game against an AI seat moves both the person's rating and the AI level's, which
/stats server shows."""

from __future__ import annotations

import pytest
from e2e_harness import BotHarness, Table, confirmed

from engine.ai import levels
from hvbot.services.ratings import ORIGIN, SCALE, prior
from hvbot.services.stats import summarise
from sandbox.emulator import DiscordEmulator

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


async def test_a_four_player_game_with_a_resignation_rates_the_resigner_last(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo, cy, di = (emu.add_user(name) for name in ("Ada", "Bo", "Cy", "Di"))
    await emu.slash(ada, "game new", game="high-voltage")
    for person in (bo, cy, di):
        await emu.slash(person, "game join")
    await emu.slash(ada, "game start")
    table = Table(emu, hv, [ada, bo, cy, di], seed=3)
    await table.play_moves(6)
    await confirmed(emu, cy, "game resign")
    del table.people[cy.id]
    game, state = await table.play_to_end()
    assert state.is_terminal() and game.status == "finished"
    await hv.caught_up()

    reader = await hv.reader()
    rows = await reader.results.of_kind(guild_id=emu.guild_id, game="high-voltage")
    assert {r.user_id: r.left_early for r in rows} == {
        ada.id: False,
        bo.id: False,
        cy.id: True,
        di.id: False,
    }
    summary = summarise("high-voltage", rows)
    mus = {user: stats.rating.mu for user, stats in summary.players.items() if stats.rating}
    assert min(mus, key=mus.__getitem__) == cy.id, "the resigner is rated as last"
    assert summary.ais == {}, "the AI that played Cy's seat on is rated for nobody"

    board = (await emu.slash(bo, "stats server")).messages[0]
    (leaderboard,) = board.attachments
    top = [line for line in (leaderboard.description or "").splitlines() if line[:1].isdigit()]
    assert len(top) == 4 and top[-1].startswith("4. Cy "), top  # named as at the end
    assert all("?" in line for line in top), "one game settles no rating"
    assert "?" in board.text.splitlines()[-1], "the small print says what the ? means"


async def test_a_game_against_a_hard_ai_moves_the_persons_rating_and_the_ais(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")
    await emu.slash(ada, "game new", game="high-voltage")
    await emu.slash(ada, "game addai", level="hard")
    await emu.slash(ada, "game start")
    await hv.caught_up()
    # Against AI seats alone, a resignation ends the game at once as Ada's loss.
    await confirmed(emu, ada, "game resign")
    await hv.caught_up()
    assert (await hv.game()).status == "finished"

    hard_before = prior(levels("high-voltage"))["hard"] - 3 * 25 / 3
    shown_before = round(ORIGIN + SCALE * hard_before)
    board = (await emu.slash(ada, "stats server")).messages[0]
    (leaderboard,) = board.attachments
    lines = (leaderboard.description or "").splitlines()
    (mine,) = [line for line in lines if line.startswith("1. Ada · Rating ")]
    (ai,) = [line for line in board.text.splitlines() if line.startswith("-# AI (hard): ")]
    ada_shown = int(mine.removeprefix("1. Ada · Rating ").split("?")[0])
    ai_shown = int(ai.removeprefix("-# AI (hard): ").split("?")[0])
    assert ada_shown < ORIGIN, mine
    assert ai_shown > shown_before, (ai, shown_before)
    assert ai.endswith("(1 game, 1 win)")

    mine_private = (await emu.slash(ada, "stats me")).messages[0]
    (record,) = mine_private.attachments
    assert f"High Voltage: Rating {ada_shown}?." in (record.description or "")
