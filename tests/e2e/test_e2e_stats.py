"""/stats through Discord, against the real bot and its database: nothing to show at first,
then a finished Pylons game shows in the caller's private record and on the public board, and
still does after a restart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from e2e_harness import BotHarness, confirmed
from played_games import finish_as_before_results, finished_pylons, schema_before_results

from games import find_game
from hvbot.store import GameStore, SeatRow, changes
from sandbox.emulator import DiscordEmulator, Record, User, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

# Commands are named as Discord mentions of the registered command, shown localised.
NOTHING = re.compile(r"No finished games on this server yet: start one with </game new:\d+>\.")


async def answer(emu: DiscordEmulator, user: User, command: str, **options: str) -> Record:
    """The bot's one message in reply to a /stats command."""
    reply = await emu.slash(user, command, **options)
    (message,) = reply.messages
    assert message.kind == "response", emu.describe(reply)
    return message


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
    (embed,) = mine.embeds
    assert embed["title"] == "Your stats on this server"
    (field,) = embed["fields"]
    assert field["name"] == "Pylons"
    assert f"Played 1 · won {int(ada_won)} ({100 if ada_won else 0}%)" in field["value"]
    assert f"Best score {rows[ada.id].score}" in field["value"]
    shared = rows[bo.id].won == ada_won
    # Openskill's defaults from a newcomer's 1000: a shared first place, or a win and a loss;
    # one game is far from settled ("?").
    rating = "1024?" if shared else ("1103?" if ada_won else "945?")
    assert f"rating **{rating}**" in field["value"]

    board = await answer(emu, bo, "stats server")
    assert board.is_public
    (embed,) = board.embeds
    (field,) = embed["fields"]
    assert field["name"] == "Pylons: 1 game finished"
    best = max(r.score for r in rows.values())
    assert f"Best score ever: **{best}** by " in field["value"]
    top = [line for line in field["value"].splitlines() if line[0].isdigit()]
    assert len(top) == 2 and top[0].startswith("1. ") and top[1].startswith("2. ")
    if not shared:
        first = "Ada" if ada_won else "Bo"
        assert top[0] == f"1. {first}: 1103? (1 game, 1 win)"

    stranger = await answer(emu, cy, "stats me")
    assert stranger.visibility == Visibility.ephemeral_to(cy)
    assert stranger.content.startswith("You have not finished a game on this server yet")
    other_game = await answer(emu, bo, "stats server", game="high-voltage")
    assert other_game.visibility == Visibility.ephemeral_to(bo)
    assert other_game.content.startswith("No finished High Voltage games on this server yet")

    await hv.restart()
    again = await answer(emu, ada, "stats me", game="pylons")
    assert again.visibility == Visibility.ephemeral_to(ada)
    assert again.embeds[0]["fields"] == mine.embeds[0]["fields"]


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
        (field,) = board.embeds[0]["fields"]
        assert field["name"] == "Pylons: 1 game finished"
        assert "Ada" in field["value"] and "Bo" in field["value"]
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
    (field,) = mine.embeds[0]["fields"]
    assert "Played 1 · won 0 (0%)" in field["value"], field["value"]
    assert re.search(r"rating \*\*\d+\?\*\*$", field["value"]), field["value"]
    board = await answer(emu, ada, "stats server")
    (field,) = board.embeds[0]["fields"]
    assert re.search(r"^AI \(\w+\): \d+\? \(1 game, 1 win\)$", field["value"], re.M), field["value"]
