"""Work that costs the bot each time, asked for too often: a few boards, logs, exports,
notification settings and stats a minute per person, the rest refused privately with when to
try again; an export made off the event loop and sent again as made; stats summed up once
until the server finishes another game."""

from __future__ import annotations

import re
import threading
from datetime import UTC, datetime
from typing import Any

import pytest
from e2e_harness import BotHarness
from moved_clock import MovedClock
from played_games import finished_pylons

from hvbot.messages import records
from hvbot.services import stats
from sandbox.emulator import DiscordEmulator, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

COMMANDS = ("game board", "game log", "game export", "me notify", "stats me")


def refusal_of(command: str, seconds: int) -> re.Pattern[str]:
    """The refusal, the command said as a Discord mention of the registered command."""
    return re.compile(
        rf"You used </{command}:\d+> 3 times in the last minute: try again in {seconds} seconds\."
    )


async def test_the_fourth_use_in_a_minute_is_refused_until_the_minute_has_passed(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")
    await emu.slash(ada, "game new", game="high-voltage")
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    assert hv.bot is not None
    clock = MovedClock(datetime.now(UTC))
    hv.bot.service.clock = clock
    for command in COMMANDS:
        for _ in range(3):
            reply = await emu.slash(ada, command, wait_s=30)
            assert not any("in the last minute" in r.content for r in reply.messages), emu.describe(
                reply
            )
        clock.advance(seconds=15)
        refused = await emu.slash(ada, command)
        (answer,) = refused.messages
        assert answer.visibility == Visibility.ephemeral_to(ada), emu.describe(refused)
        assert refusal_of(command, 45).fullmatch(answer.content), answer.content
        assert not answer.attachments
        clock.advance(seconds=45)
        again = await emu.slash(ada, command, wait_s=30)
        assert not any("in the last minute" in r.content for r in again.messages)
        clock.advance(seconds=60)  # the next command starts with a minute behind it


async def test_an_export_is_made_off_the_loop_once_per_game_version_and_reader(
    emulator: DiscordEmulator, hv: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")
    await emu.slash(ada, "game new", game="high-voltage")
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    game = await hv.game()
    made_in: list[int] = []
    record_file = records.record_file

    def counted(*args: Any) -> records.RecordFile:
        made_in.append(threading.get_ident())
        return record_file(*args)

    monkeypatch.setattr(records, "record_file", counted)
    filename = f"high-voltage-{game.id}.json"
    first = (await emu.slash(ada, "game export")).messages[0]
    again = (await emu.slash(ada, "game export")).messages[0]
    assert first.attachment(filename).data == again.attachment(filename).data
    assert len(made_in) == 1, "the same game, version and reader: made once"
    assert made_in[0] != threading.get_ident(), "made in a thread, not on the event loop"
    assert (await hv.game()).version == game.version


async def test_stats_are_summed_up_again_only_after_another_finished_game(
    emulator: DiscordEmulator, hv: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    assert hv.bot is not None
    service = hv.bot.service
    summed: list[tuple[str, int]] = []  # (game, results summed up before) at each summing up
    carried = stats.carried

    async def counted(tally: stats.Tally, *args: Any, **kwargs: Any) -> stats.Tally:
        summed.append((tally.game, tally.seats))
        return await carried(tally, *args, **kwargs)

    monkeypatch.setattr(stats, "carried", counted)
    players = [(ada.id, "Ada"), (bo.id, "Bo")]
    where = {"channel_id": emu.channel.id, "guild_id": emu.guild_id}
    await finished_pylons(service, **where, players=players)
    first = (await emu.slash(ada, "stats server")).messages[0]
    second = (await emu.slash(bo, "stats server")).messages[0]
    assert first.text == second.text and "1 game finished" in first.text
    mine = (await emu.slash(ada, "stats me")).messages[0]
    assert mine.visibility == Visibility.ephemeral_to(ada)
    assert summed == [("pylons", 0)], "read from the summary kept"

    await finished_pylons(service, **where, players=players, seed=2)
    third = (await emu.slash(bo, "stats server")).messages[0]
    # Another game finished: the kept summary (of the first game's two seats) carried forward.
    assert summed == [("pylons", 0), ("pylons", 2)]
    assert "2 games finished" in third.text
