"""/stats through Discord, against the real bot and its database: nothing to show at first,
then a finished Pylons game shows in the caller's private record (a picture with its alt
text) and on the public leaderboard (a picture per game, with its text twin), and still does
after a restart."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from e2e_harness import BotHarness, check_card, confirmed
from PIL import Image
from played_games import finish_as_before_results, finished_pylons, schema_before_results

from games import find_game
from hvbot.store import GameStore, SeatRow, changes
from sandbox.emulator import DiscordEmulator, Record, User, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

# Commands are named as Discord mentions of the registered command, shown localised.
NOTHING = re.compile(r"No finished games on this server yet: start one with </game new:\d+>\.")


async def answer(emu: DiscordEmulator, user: User, command: str, **options: str) -> Record:
    """The bot's one message in reply to a /stats command (a picture comes after the bot
    said it is thinking)."""
    reply = await emu.slash(user, command, **options)
    (message,) = reply.messages
    assert message.kind in ("response", "followup"), emu.describe(reply)
    return message


def pictures(message: Record) -> dict[str, str]:
    """Each picture of the message, decoded (a broken one fails here), and its alt text."""
    out = {}
    for attachment in message.attachments:
        with Image.open(io.BytesIO(attachment.data)) as picture:
            picture.load()
            assert picture.width >= 600 and picture.height >= 200, attachment.filename
            assert max(high - low for low, high in picture.convert("RGB").getextrema()) > 100
        assert attachment.description, f"{attachment.filename} has no alt text"
        out[attachment.filename] = attachment.description
    return out


async def test_stats_before_and_after_a_finished_game(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo, cy = emu.add_user("Ada"), emu.add_user("Bo"), emu.add_user("Cy")
    for command in ("stats me", "stats server"):
        nothing = await answer(emu, ada, command)
        assert nothing.visibility == Visibility.ephemeral_to(ada)
        assert NOTHING.fullmatch(nothing.content), nothing.content

    assert hv.bot is not None
    game = await finished_pylons(
        hv.bot.service,
        channel_id=emu.channel.id,
        guild_id=emu.guild_id,
        players=[(ada.id, "Ada"), (bo.id, "Bo")],
    )
    rows = {
        r.user_id: r
        for r in await (await hv.reader()).results.of_kind(
            guild_id=emu.guild_id, game=game.game_name
        )
    }
    assert set(rows) == {ada.id, bo.id}
    ada_won = rows[ada.id].won

    mine = await answer(emu, ada, "stats me")
    assert mine.visibility == Visibility.ephemeral_to(ada)
    check_card(emu, mine, pictures=1)
    assert mine.text.startswith("**Your stats on this server**\nPylons: Rating ")
    (alt,) = pictures(mine).values()
    shared = rows[bo.id].won == ada_won
    # Openskill's defaults from a newcomer's 1000: a shared first place, or a win and a loss;
    # one game is far from settled ("?").
    rating = "1024?" if shared else ("1103?" if ada_won else "945?")
    assert alt.splitlines()[:2] == ["Your stats on this server", "Ada · all time"], alt
    assert alt.splitlines()[2].startswith(
        f"Pylons: Rating {rating}. Games finished 1 · Won {int(ada_won)} "
        f"({100 if ada_won else 0}%) · Games abandoned 0 · Median time to move "
    ), alt
    assert f"Best score {rows[ada.id].score} · Highest rating {rating.rstrip('?')}." in alt, alt

    board = await answer(emu, bo, "stats server")
    assert board.is_public
    assert not board.pings
    check_card(emu, board, pictures=1)
    best = max(r.score for r in rows.values())
    assert board.text.startswith(
        f"**Stats for this server**\nPylons: 1 game finished · Best score ever: **{best}** by "
    ), board.text
    ((name, alt),) = pictures(board).items()
    assert name == "leaderboard-pylons.png"
    lines = alt.splitlines()
    assert lines[:2] == [
        "Pylons: leaderboard",
        "All time · 1 game finished · trend over the last 30 days",
    ], alt
    assert len(lines) == 4 and lines[2].startswith("1. ") and lines[3].startswith("2. ")
    if not shared:
        first = "Ada" if ada_won else "Bo"
        # A first game: nobody had a rating 30 days ago, so no trend yet.
        assert lines[2] == f"1. {first} · Rating 1103? · Games 1"

    stranger = await answer(emu, cy, "stats me")
    assert stranger.visibility == Visibility.ephemeral_to(cy)
    assert stranger.content.startswith("You have not finished a game on this server yet")
    other_game = await answer(emu, bo, "stats server", game="high-voltage")
    assert other_game.visibility == Visibility.ephemeral_to(bo)
    assert other_game.content.startswith("No finished High Voltage games on this server yet")

    await hv.restart()
    again = await answer(emu, ada, "stats me", game="pylons")
    assert again.visibility == Visibility.ephemeral_to(ada)
    assert pictures(again) == pictures(mine)


async def test_games_finished_before_stats_existed_count_after_start_up(
    emulator: DiscordEmulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    path = tmp_path / "games.sqlite3"
    with schema_before_results(monkeypatch):
        old = await GameStore.open(path)
        lobby = await old.create(
            changes.create_lobby(
                game="pylons",
                guild_id=emu.guild_id,
                channel_id=emu.channel.id,
                creator_id=ada.id,
                creator_name="Ada",
                options={},
                at=old.clock(),
            )
        )
        seats = (SeatRow(0, ada.id, None, "Ada"), SeatRow(1, bo.id, None, "Bo"))
        dealt = find_game("pylons").new_state(2, 3).to_dict()
        await old.write(
            changes.start(
                lobby.id,
                lobby.version,
                seed=3,
                state=dealt,
                seats=seats,
                at=old.clock(),
            )
        )
        started = await old.game(game_id=lobby.id)
        assert started is not None
        await finish_as_before_results(old, started, seed=3)
        await old.close()

    harness = BotHarness(emu, path)
    await harness.start()
    try:
        board = await answer(emu, bo, "stats server")
        assert board.is_public
        assert "Pylons: 1 game finished" in board.text
        (alt,) = pictures(board).values()
        assert "Ada · Rating" in alt and "Bo · Rating" in alt
    finally:
        await harness.close()
    assert not harness.unexpected_errors(), harness.errors.summary()


async def test_a_game_against_ai_players_alone_is_rated_and_rates_the_ai(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")
    await emu.slash(ada, "game new", game="pylons", thread=False)
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    await confirmed(emu, ada, "game resign")  # the only person at the table: the game ends
    assert (await hv.game()).status == "finished"

    mine = await answer(emu, ada, "stats me")
    (alt,) = pictures(mine).values()
    assert re.search(r"Pylons: Rating \d+\?\. Games finished 1 · Won 0 \(0%\)", alt), alt
    assert mine.text.endswith("nor does anyone in a game stopped before its end."), mine.text
    assert '"?" marks one that is still uncertain.' in mine.text
    board = await answer(emu, ada, "stats server")
    assert re.search(r"^-# AI \(\w+\): \d+\? \(1 game, 1 win\)$", board.text, re.M), board.text
