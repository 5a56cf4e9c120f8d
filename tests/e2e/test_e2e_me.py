"""/me games: a person's open games in this server, privately, those waiting for them first,
each with a link to the channel or thread it is played in."""

from __future__ import annotations

from e2e_harness import BotHarness

from hvbot.store import GameRow
from sandbox.emulator import DiscordEmulator, Visibility


async def test_my_games_in_two_channels_and_a_thread_those_waiting_for_me_first(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo, cy = emu.add_user("Ada"), emu.add_user("Bo"), emu.add_user("Cy")
    second, third = emu.add_channel("second"), emu.add_channel("third")
    # Cy's game, in the first channel, waits for Cy (who opened it) to choose.
    await emu.slash(cy, "game new", game="pylons", thread=False)
    await emu.slash(ada, "game join")
    await emu.slash(cy, "game start")
    # Bo's lobby in the second channel, Ada seated.
    await emu.slash(bo, "game new", game="high-voltage", channel=second, thread=False)
    await emu.slash(ada, "game join", channel=second)
    # Ada's own game, played in a thread of the third channel, waits for her.
    emu.allow_threads()
    await emu.slash(ada, "game new", game="pylons", channel=third, clock=1440)
    await emu.slash(ada, "game addai", channel=third)
    await emu.slash(ada, "game start", channel=third)

    async def started_in_its_thread() -> GameRow | None:
        game = await hv.latest_game(third.id)
        return game if game and game.thread_id and game.status == "active" else None

    mine = await emu.wait_for(started_in_its_thread, message="Ada's game started")
    assert mine.thread_id is not None

    reply = await emu.slash(ada, "me games")
    (answer,) = reply.where(kind="response")
    assert answer.visibility == Visibility.ephemeral_to(ada)
    lines = answer.content.splitlines()
    assert lines[0] == "Your 3 open games here, those waiting for you first:"
    assert lines[1].startswith(f"- **Pylons** in <#{mine.thread_id}>: your turn; your time")
    assert "<t:" in lines[1]
    rest = sorted(lines[2:])
    assert rest[0] == f"- **High Voltage** in <#{second.id}>: in its lobby, 2 seated."
    assert rest[1] == f"- **Pylons** in <#{emu.channel.id}>: Cy to move."

    nobody = await emu.slash(emu.add_user("Di"), "me games")
    assert "no open game in this server" in nobody[0].content
