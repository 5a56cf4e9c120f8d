"""A move stored by a bot process that died before announcing it is announced by the bot that
carries on (here: the same bot restarted), once, in the game's channel, and the game goes on;
a game it finished gets its last board and its replay."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from e2e_harness import BOARD, BotHarness, board_posts, open_three_seat_game
from played_games import finished_pylons

from hvbot.messages.limits import fit_alt
from hvbot.messages.presenters import presenter_for
from hvbot.messages.replays import FILENAME as REPLAY
from hvbot.services import GameService
from hvbot.store import GameStore
from sandbox.emulator import DiscordEmulator

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


async def test_a_move_whose_process_died_before_its_post_is_posted_once_by_another(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    _, _, _, table = await open_three_seat_game(emu, hv)
    game, state = await table.wait_for_turn()
    mover = game.seats[state.current_seat() or 0]
    down = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    await hv.stop()

    # Another process stores the person's move, and dies before it can post anything.
    dying = await GameStore.open(hv.database)
    stored = await GameService(dying, seed_source=random.Random(1)).play.act(
        game_id=game.id, user_id=mover.user_id or 0, action=f"draw {down} here r90"
    )
    await dying.close()
    since = emu.last_seq
    await hv.start()
    # Its lease has not run out: the bot leaves the post to it meanwhile.
    await hv.bot.aftermath.do_duties()  # type: ignore[union-attr]
    assert board_posts(emu, since=since) == []
    # It has (as if 30 s went by): the bot posts the move, once.
    past = (datetime.now(UTC) - timedelta(seconds=1)).isoformat(timespec="milliseconds")
    await hv.sql("UPDATE announcements SET claimed_until = ? WHERE sent_at IS NULL", past)
    posts = await emu.wait_for(
        lambda: [p for p in board_posts(emu, since=since) if p.text.startswith(mover.display_name)],
        10,
        message="the dead process's move announced",
    )
    (post,) = posts
    assert down in post.text and post.channel_id == emu.channel.id
    # Built again from what is stored, its picture's alt text is what the move's own would be.
    presenter = presenter_for(game.game_name, game.language)
    names = [seat.display_name for seat in game.seats]
    alt = fit_alt(presenter.board_alt(stored.state.view(None), names))
    assert post.attachment(BOARD).description == alt
    reader = await hv.reader()

    async def made() -> bool:
        row = await reader.db.fetchrow(
            "SELECT sent_at FROM announcements WHERE kind = 'move' AND version = ?",
            stored.game.version,
        )
        return row is not None and row["sent_at"] is not None

    await emu.wait_for(made, 10, message="the owed post marked as made")
    # The game goes on from there (the AI seat, if it is next, moves), and nothing twice.
    game, state = await table.wait_for_turn()
    assert game.version >= stored.game.version
    await hv.caught_up()
    assert (
        len([p for p in board_posts(emu, since=since) if p.text.startswith(mover.display_name)])
        == 1
    )


async def test_a_game_finished_by_a_process_that_died_gets_its_last_move_and_replay_once(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """The finishing move's post and the game's replay are both owed with the move: the bot
    that carries on posts the last board, then the replay, each once."""
    emu = emulator
    await hv.stop()
    dying = await GameStore.open(hv.database)
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    finished = await finished_pylons(
        GameService(dying, seed_source=random.Random(2)),
        channel_id=emu.channel.id,
        guild_id=emu.guild_id,
        players=[(ada.id, "Ada"), (bo.id, "Bo")],
    )
    await dying.close()
    assert finished.status == "finished"
    # Only the last move's post and the replay are left owed (every earlier one was made).
    await hv.sql(
        "UPDATE announcements SET sent_at = created_at WHERE kind <> 'replay' AND version < ?",
        finished.version,
    )
    past = (datetime.now(UTC) - timedelta(seconds=1)).isoformat(timespec="milliseconds")
    await hv.sql("UPDATE announcements SET claimed_until = ? WHERE sent_at IS NULL", past)
    since = emu.last_seq
    await hv.start()

    def replays() -> list:
        return [
            r for r in emu.messages(visibility="public", since=since) if r.has_attachment(REPLAY)
        ]

    (replay,) = await emu.wait_for(replays, 60, message="the replay")
    (last,) = board_posts(emu, since=since)
    assert last.seq < replay.seq, "the last board first, then the replay"
    assert "The game is archived" in last.text, "the last board tells the result"
    assert "The game is over." in (last.attachment(BOARD).description or "")
    described = replay.attachment(REPLAY).description or ""
    assert described.startswith("Animated replay of the Pylons game, Ada vs Bo.")
    reader = await hv.reader()

    async def nothing_owed() -> bool:
        return not await reader.db.fetch("SELECT id FROM announcements WHERE sent_at IS NULL")

    await emu.wait_for(nothing_owed, 10, message="both marked as made")
    await hv.caught_up()
    assert len(replays()) == 1 and len(board_posts(emu, since=since)) == 1
