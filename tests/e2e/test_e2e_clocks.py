"""Turn clocks through Discord: a game opened with `clock:1 hour`, whose player to move goes
silent. They are warned privately when a quarter of their time is left; when it has run out,
the channel is told and an AI plays that move for them (or takes their seat, with
`timeout:`), once, and the next player is told it is their turn.

The bot's clock is moved by hand: the test waits for no real hour.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from bot_processes import bot_processes
from conftest import new_postgres_database
from e2e_harness import BotHarness, board_posts, racing_cell
from moved_clock import MovedClock
from postgres_server import PostgresServer

from engine import State
from games import find_game
from hvbot.messages.presenters import presenter_for
from hvbot.messages.replays import FILENAME as REPLAY
from hvbot.store import GameRow
from sandbox.emulator import DiscordEmulator, Record, User, Visibility, shard_of

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

WARNED = "left for your move"
RAN_OUT = "ran out of time"


async def silent_mover(
    emu: DiscordEmulator, hv: BotHarness, clock: MovedClock, **options: object
) -> tuple[GameRow, State, User, User]:
    """Ada and Bo start a Pylons game with a one-hour clock; (game, state, the person to
    move, the other) once its first board is posted."""
    assert hv.bot is not None
    hv.bot.service.clock = clock
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    await emu.slash(ada, "game new", game="pylons", clock=60, **options)
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game start")
    await emu.wait_for(lambda: board_posts(emu))
    game = await hv.game()
    state = find_game(game.game_name).state_from_dict(game.state)
    seat = state.current_seat()
    assert seat is not None
    mover = emu.users[game.seats[seat].user_id or 0]
    return game, state, mover, (bo if mover is ada else ada)


def said_to(emu: DiscordEmulator, user: User, words: str) -> list[Record]:
    return [m for m in emu.messages(visibility=Visibility.dm_to(user)) if words in m.text]


def said_in_public(emu: DiscordEmulator, words: str) -> list[Record]:
    return [m for m in emu.messages(visibility="public") if words in m.text]


async def test_a_silent_player_is_warned_then_an_ai_plays_their_move_once(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    clock = MovedClock(datetime.now(UTC))
    game, state, mover, other = await silent_mover(emu, hv, clock)
    assert game.clock is not None and game.clock.minutes == 60
    (first,) = board_posts(emu)
    assert "Clock: 1 hour a move" in first.text and "<t:" in first.text
    # The picture says it too, as it was when drawn (a picture cannot count down).
    drawn = presenter_for("pylons").board_png(
        state.view(None), [s.display_name for s in game.seats], clock="60 minutes left"
    )
    assert first.attachment("board.png").data == drawn
    lobby = emu.message(game.lobby_message_id or 0)
    assert "Clock: 1 hour a move; when a player's time runs out, an AI plays" in lobby.text
    status = await emu.slash(other, "game status")
    assert "Clock: 1 hour a move" in status[0].text

    clock.advance(minutes=44)
    await hv.caught_up()
    assert not said_to(emu, mover, WARNED), "no warning before a quarter is left"

    clock.advance(minutes=1)
    (warning,) = await emu.wait_for(lambda: said_to(emu, mover, WARNED), message="the warning")
    assert "15 minutes left" in warning.text and "Pylons" in warning.text
    assert not said_in_public(emu, WARNED), "the warning is private"

    clock.advance(minutes=15)
    (told,) = await emu.wait_for(lambda: said_in_public(emu, RAN_OUT), message="the timeout")
    assert f"<@{mover.id}>" in told.text and "an AI plays this move" in told.text
    # Pylons opens with a choice, and whoever keeps the board places the first pylon too: the
    # AI plays the whole turn, and then the next player is told it is theirs.
    await emu.wait_for(
        lambda: [p for p in board_posts(emu) if f"Next: <@{other.id}>" in p.text],
        message="the next player told",
    )

    await hv.caught_up()
    game = await hv.game()
    actions = await hv.actions(game)
    seat = game.seat_of(mover.id)
    assert seat is not None, "the seat is still theirs"
    assert {s for s, _ in actions} == {seat}, "their move, played for them"
    assert actions[0][1] in ("keep", "mirror")
    posts = board_posts(emu)
    assert len(posts) == 1 + len(actions), "each action of it posted once"
    assert game.stand_in_seat is None
    assert len(said_to(emu, mover, WARNED)) == 1 and len(said_in_public(emu, RAN_OUT)) == 1
    # The next player's own hour starts from the AI's move.
    assert game.clock_deadline is not None
    assert datetime.fromisoformat(game.clock_deadline) - clock() > game.clock.length * 0.99


async def test_with_timeout_ai_seat_an_ai_takes_the_seat_until_they_return(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    clock = MovedClock(datetime.now(UTC))
    _, _, mover, other = await silent_mover(emu, hv, clock, timeout="ai_seat")

    clock.advance(minutes=61)
    (told,) = await emu.wait_for(lambda: said_in_public(emu, RAN_OUT), message="the timeout")
    assert "plays their seat from now on" in told.text
    await emu.wait_for(lambda: [p for p in board_posts(emu) if p.seq > told.seq])
    await hv.caught_up()
    game = await hv.game()
    assert game.seat_of(mover.id) is None
    (stand_in,) = [s for s in game.seats if s.away_user_id == mover.id]
    assert stand_in.ai_level == "normal" and "out of time" in stand_in.display_name
    # The seat's next moves are the AI's too, and the one who ran out may take it back.
    back = await emu.slash(mover, "game return")
    assert back.public, emu.describe(back)
    assert (await hv.game()).seat_of(mover.id) == stand_in.seat
    assert len(said_in_public(emu, RAN_OUT)) == 1
    assert other.id in [s.user_id for s in game.seats]


async def test_a_move_in_time_starts_the_next_players_clock(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    clock = MovedClock(datetime.now(UTC))
    game, _, mover, other = await silent_mover(emu, hv, clock)
    deadline = game.clock_deadline
    clock.advance(minutes=50)
    await emu.wait_for(lambda: said_to(emu, mover, WARNED), message="the warning")
    # Pylons opens with a choice on the board's buttons. Keeping the board, the mover places
    # the first pylon too: the same move, on the same clock.
    opening = board_posts(emu)[0]
    keep = next(i for i in opening.custom_ids if i.endswith(":keep"))
    await emu.click(mover, keep, message=opening.message_id)
    await emu.wait_for(lambda: len(board_posts(emu)) == 2)
    game = await hv.game()
    assert game.clock_deadline == deadline and game.clock_warn_at is None
    state = find_game(game.game_name).state_from_dict(game.state)
    await emu.slash(mover, "pylons place", cell=racing_cell(state, random.Random(3)))
    await emu.wait_for(lambda: len(board_posts(emu)) == 3)
    # The next player has a whole hour from now, and is warned at its last quarter.
    game = await hv.game()
    assert game.clock is not None and game.clock_deadline is not None
    left = datetime.fromisoformat(game.clock_deadline) - clock()
    assert abs(left - game.clock.length) < timedelta(milliseconds=1)  # stored to the ms
    clock.advance(minutes=59)
    await emu.wait_for(lambda: said_to(emu, other, WARNED), message="the next player's warning")
    await hv.caught_up()
    assert not said_in_public(emu, RAN_OUT), "nobody ran out"
    assert len(said_to(emu, mover, WARNED)) == 1


async def test_a_timeout_due_while_its_process_is_dead_is_acted_on_once_by_another(
    emulator: DiscordEmulator, tmp_path: Path, postgres: PostgresServer
) -> None:
    """Two bot processes on PostgreSQL; the one running the game's server dies (SIGKILL) with
    the clock of the person to move about to run out. The other finds it due, tells the
    channel once and plays the move once."""
    emu = emulator
    url = await new_postgres_database(postgres)
    here = shard_of(emu.guild_id, 2)
    reader = BotHarness(emu, url)  # reads the games from PostgreSQL; runs no bot itself
    try:
        async with bot_processes(emu, tmp_path, url, 2) as processes:
            ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
            opened = await emu.slash(ada, "game new", game="pylons", clock=60, settle=False)
            assert opened.public, emu.describe(opened)
            joined = await emu.slash(bo, "game join", settle=False)
            assert "You joined" in joined[0].text
            await emu.slash(ada, "game start", settle=False)
            await emu.wait_for(lambda: board_posts(emu), message="the first board")
            game = await reader.game()
            state = find_game(game.game_name).state_from_dict(game.state)
            mover = game.seats[state.current_seat() or 0].user_id
            other = bo.id if mover == ada.id else ada.id

            dying = processes[here]
            dying.kill()
            await dying.process.wait()
            await emu.wait_for(lambda: here not in emu.gateway.connected_shards, 10)
            # The hour has gone by while the process was dead.
            past = (datetime.now(UTC) - timedelta(seconds=1)).isoformat(timespec="milliseconds")
            await reader.sql(
                "UPDATE games SET clock_deadline = ?, clock_warn_at = NULL WHERE id = ?",
                past,
                game.id,
            )
            await emu.wait_for(
                lambda: [p for p in board_posts(emu) if f"Next: <@{other}>" in p.text],
                60,
                message="the AI's move for the one out of time, by the other process",
            )
            repo = await reader.reader()

            async def nothing_owed() -> bool:
                return not await repo.db.fetch("SELECT id FROM announcements WHERE sent_at IS NULL")

            await emu.wait_for(nothing_owed, 30, message="every post marked as made")
            told = said_in_public(emu, RAN_OUT)
            assert len(told) == 1 and f"<@{mover}>" in told[0].text
            game = await reader.game()
            actions = await reader.actions(game)
            assert {s for s, _ in actions} == {game.seat_of(mover)}
            assert len(board_posts(emu)) == 1 + len(actions), "each action posted once"
    finally:
        await reader.close()


async def test_with_timeout_end_the_game_ends_as_their_loss_and_the_ratings_say_so(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    clock = MovedClock(datetime.now(UTC))
    game, _, mover, other = await silent_mover(emu, hv, clock, timeout="end")
    lobby = emu.message(game.lobby_message_id or 0)
    assert "the game ends there, a loss for them and a win for everyone else" in lobby.text

    clock.advance(minutes=61)
    (told,) = await emu.wait_for(lambda: said_in_public(emu, RAN_OUT), message="the timeout")
    assert f"<@{mover.id}>" in told.text and "the game ends here" in told.text
    (replay,) = await emu.wait_for(
        lambda: [r for r in emu.messages(visibility="public") if r.has_attachment(REPLAY)],
        message="the replay",
    )
    assert told.seq < replay.seq
    await hv.caught_up()
    game = await hv.game()
    assert game.status == "finished" and game.clock_deadline is None
    assert await hv.actions(game) == [], "nobody moved for them"
    assert len(said_in_public(emu, RAN_OUT)) == 1

    (mine,) = (await emu.slash(other, "stats me")).messages
    (record,) = mine.attachments
    assert "Games finished 1 · Won 1 (100%)" in (record.description or "")
    (board,) = (await emu.slash(mover, "stats server")).messages
    (leaderboard,) = board.attachments
    said = leaderboard.description or ""
    assert f"1. {other.name} · Rating 1103? · Games 1" in said
    assert f"2. {mover.name} · Rating 945? · Games 1" in said
    # The channel is free for the next game.
    await emu.slash(other, "game new", game="pylons")
    assert (await hv.game()).status == "lobby"


async def test_time_away_stops_my_clock_and_everyone_sees_until_when(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """/me away: the clock of my turn stands still however long I am away, the others see
    until when (/game status, the board, a lobby I join), and /me back gives me the time I
    had left."""
    emu = emulator
    clock = MovedClock(datetime.now(UTC))
    _, _, mover, other = await silent_mover(emu, hv, clock)
    # A lobby elsewhere that the mover sat down in before going away.
    before = emu.add_channel("before")
    await emu.slash(other, "game new", game="pylons", channel=before)
    await emu.slash(mover, "game join", channel=before)
    lobby_before = await hv.latest_game(before.id)
    assert lobby_before is not None and lobby_before.lobby_message_id is not None
    clock.advance(minutes=20)
    (answer,) = (await emu.slash(mover, "me away", days=2)).where(kind="response")
    assert answer.visibility == Visibility.ephemeral_to(mover)
    assert answer.text.startswith("You are away until <t:")
    assert "The clocks and reminders of your 2 open games here wait" in answer.text
    await emu.wait_for(
        lambda: "(away until <t:" in emu.message(lobby_before.lobby_message_id or 0).text,
        message="the lobby saying so",
    )

    status = await emu.slash(other, "game status")
    assert f"💤 <@{mover.id}> is away until <t:" in status[0].text
    # /me games tells the mover their clock stands still, not when it would run out.
    (mine,) = (await emu.slash(mover, "me games")).where(kind="response")
    assert "runs out" not in mine.text, mine.text
    assert "your turn; you are away until <t:" in mine.text
    assert "so your clock stands still until then" in mine.text
    # The text board says so too.
    text = "\n".join(r.text for r in (await emu.slash(other, "game board", text=True)).messages)
    assert f"it stands still while {mover.name} is away" in text, text
    boards = len(board_posts(emu))
    await emu.slash(other, "game board")
    shown = await emu.wait_for(lambda: board_posts(emu)[boards:], message="the board again")
    assert f"💤 <@{mover.id}> is away until <t:" in shown[0].text
    clock.advance(hours=20)  # far past the hour, short of the lobby's day
    await hv.caught_up()
    assert not said_in_public(emu, RAN_OUT) and not said_to(emu, mover, WARNED)
    refused = await emu.slash(other, "game takeover")
    assert "is away until" in refused[0].text and not refused.public

    # Someone away who joins a lobby elsewhere is shown as away there.
    lobby_channel = emu.add_channel("lobby-room")
    await emu.slash(other, "game new", game="pylons", channel=lobby_channel)
    await emu.slash(mover, "game join", channel=lobby_channel)
    lobby = await hv.latest_game(lobby_channel.id)
    assert lobby is not None
    assert f"{mover.name} (away until <t:" in emu.message(lobby.lobby_message_id or 0).text

    (welcome,) = (await emu.slash(mover, "me back")).where(kind="response")
    assert welcome.text.startswith("Welcome back")
    await emu.wait_for(
        lambda: "(away until" not in emu.message(lobby_before.lobby_message_id or 0).text,
        message="the lobby no longer saying so",
    )
    clock.advance(minutes=39)
    await hv.caught_up()
    assert not said_in_public(emu, RAN_OUT), "40 minutes were left"
    (warning,) = said_to(emu, mover, WARNED)
    clock.advance(minutes=1)
    (told,) = await emu.wait_for(lambda: said_in_public(emu, RAN_OUT), message="the timeout")
    assert f"<@{mover.id}>" in told.text and warning.seq < told.seq


async def test_the_text_board_says_the_time_left_as_the_picture_does(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """/game board text:True, meant for screen readers, tells the clock too: how long a move
    may take and what is left, in words (a code block cannot count down a time stamp)."""
    emu = emulator
    clock = MovedClock(datetime.now(UTC))
    _, _, mover, other = await silent_mover(emu, hv, clock)
    clock.advance(minutes=7)
    reply = await emu.slash(other, "game board", text=True)
    whole = "\n".join(r.text for r in reply.messages)
    assert f"Clock: 1 hour a move; {mover.name} has 53 minutes left." in whole, whole
    assert "<t:" not in whole
