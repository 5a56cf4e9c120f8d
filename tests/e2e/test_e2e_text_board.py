"""/game board text:True through Discord: the position as text, answered privately in code
blocks within Discord's limits, in the asker's language, with a player's own secret for the
player alone."""

from __future__ import annotations

import pytest
from e2e_harness import BotHarness, board_posts, colour_of

from games import find_game
from hvbot.messages.limits import CONTENT
from sandbox.emulator import DiscordEmulator, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

COMPANIES_DE = {"red": "Rot", "yellow": "Gelb", "green": "Grün", "blue": "Blau"}


def code_blocks_only(contents: list[str]) -> None:
    assert contents
    for content in contents:
        assert len(content) <= CONTENT
        assert content.startswith("```\n") and content.endswith("\n```"), content
        assert content.count("```") == 2, content


async def test_the_board_as_text_is_private_and_speaks_to_its_reader(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")
    bo = emu.add_user("Bo")
    await emu.slash(ada, "game new", game="high-voltage")
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    await emu.wait_for(lambda: board_posts(emu))
    await emu.settle()
    game = await hv.game()
    state = find_game(game.game_name).state_from_dict(game.state)
    colour = colour_of(state, 0)
    boards = len(board_posts(emu))

    # Ada plays: her text board, in code blocks, only to her, with her company.
    reply = await emu.slash(ada, "game board", text=True)
    texts = reply.messages
    assert texts and all(r.visibility == Visibility.ephemeral_to(ada) for r in texts), reply
    assert not any(r.attachments for r in texts), "text, no picture"
    contents = [r.content for r in texts]
    code_blocks_only(contents)
    whole = "\n".join(contents)
    assert f"High Voltage #{game.id}: the board as text" in whole
    assert f"Your company: {colour}" in whole
    assert "Paths by company: R red, Y yellow, G green, B blue." in whole
    for row in range(1, state.view(None)["grid_size"] + 1):
        assert any(f"\n{row:>2}  " in c for c in contents), f"row {row} of the grid"

    # Bo watches in German: the spectators' text, in his language, without Ada's company.
    emu.set_locale(bo, "de")
    reply = await emu.slash(bo, "game board", text=True)
    texts = reply.messages
    assert texts and all(r.visibility == Visibility.ephemeral_to(bo) for r in texts), reply
    contents = [r.content for r in texts]
    code_blocks_only(contents)
    whole = "\n".join(contents)
    assert f"High Voltage #{game.id}: das Spielfeld als Text" in whole
    assert "Wege nach Gesellschaft" in whole
    assert "Your company" not in whole and "Deine Gesellschaft" not in whole
    assert COMPANIES_DE[colour] in whole, "the legend names every company"
    assert f"Ada ({COMPANIES_DE[colour]})" not in whole

    # Neither answer posted a board in the channel.
    await emu.settle()
    assert len(board_posts(emu)) == boards
