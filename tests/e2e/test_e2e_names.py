"""Names that cannot ping or link: a display name full of markdown, a link and mentions is
shown as itself wherever the bot writes it, and no message the bot sends notifies anyone the
message does not mention on purpose. /game new works only in a server."""

from __future__ import annotations

import pytest
from e2e_harness import BotHarness, board_posts, confirmed

from sandbox.emulator import DiscordEmulator

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


async def test_a_name_with_markdown_a_link_and_mentions_reads_as_itself_and_pings_no_one(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")  # plays no part: nothing may ping her
    eve = emu.add_user(f"[Claim your prize](https://evil.example) <@{ada.id}> @everyone **big**")
    bo = emu.add_user("Bo")
    await emu.slash(eve, "game new", game="pylons", thread=False)
    await emu.slash(bo, "game join")
    await emu.slash(eve, "game start")
    await emu.wait_for(lambda: board_posts(emu))
    await emu.slash(bo, "game status")
    await confirmed(emu, bo, "game resign")
    await hv.caught_up()

    game = await hv.latest_game()
    assert game is not None
    lobby = emu.message(game.lobby_message_id or 0).content
    assert "\\[Claim your prize](https:\u200b//evil.example)" in lobby
    assert f"<@\u200b{ada.id}>" in lobby
    assert "\\*\\*big\\*\\*" in lobby and "@\u200beveryone" in lobby
    assert "https://" not in lobby, "no address Discord could link"
    sent = emu.messages()
    assert len(sent) > 5
    for record in sent:
        assert "everyone" not in record.pings, record
        assert str(ada.id) not in record.pings, record
        assert record.pings <= {str(eve.id), str(bo.id)}, record


async def test_a_game_is_opened_only_in_a_server(emulator: DiscordEmulator, hv: BotHarness) -> None:
    emu = emulator
    ada = emu.add_user("Ada")
    reply = await emu.slash(ada, "game new", game="pylons", channel=emu.dm_channel(ada.id))
    assert "Games are played in a server" in reply[0].content
    assert await hv.latest_game() is None
