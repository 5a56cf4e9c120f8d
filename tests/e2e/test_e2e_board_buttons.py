"""Buttons on a public board post go once the game has moved past them, however it moved on:
a slash command instead of the buttons, an AI seat standing in, a resignation that ends the
game, across a restart. The post keeps its words and picture; only its buttons go, so nobody
is offered a public button that can only be refused as out of date."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from e2e_harness import BOARD, BotHarness, board_posts, confirmed

from engine import State
from games import find_game
from hvbot.aftermath import board_buttons
from hvbot.handlers import answering
from hvbot.store import GameRow, GameStore, changes
from sandbox.emulator import DiscordEmulator, Record, User

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


def _only_follow(buttons) -> bool:
    """No button left but Follow (for those not playing), which a board post keeps."""
    return all((b.custom_id or "").startswith("follow:") for b in buttons)


async def wait_without_buttons(emu: DiscordEmulator, post: Record, why: str) -> None:
    """Until the stored message has no buttons left; then its picture is still there."""
    await emu.wait_for(
        lambda: _only_follow(emu.message(post.message_id).buttons), message=f"no buttons {why}"
    )
    kept = emu.message(post.message_id)
    assert kept.text == post.text, "the post keeps its words"
    names = [a.filename for a in kept.attachments]
    assert BOARD in names and names == [a.filename for a in post.attachments], "and picture"


async def build_the_maze(hv: BotHarness, game: GameRow) -> State:
    """Play Sector 6's construction through the bot's own service (no board posts: the maze is
    not what these tests look at), until a person is to move a prisoner."""
    assert hv.bot is not None
    service, rng = hv.bot.service, random.Random(2)
    for _ in range(500):
        game = await service.repo.game(game_id=game.id) or game
        state = service.games.load_state(game)
        view = state.view(None)
        if view["phase"] == "play" and view["step"] == "move":
            return state
        seat = state.current_seat()
        assert seat is not None and game.seats[seat].user_id is not None
        result = await service.play.act(
            game_id=game.id, user_id=game.seats[seat].user_id, action=state.sample_action(rng)
        )
        for owed in result.owed:  # nobody owes these moves' posts
            await service.duties.made(owed)
    raise AssertionError("the maze was never finished")


async def sector6_between(emu: DiscordEmulator, hv: BotHarness) -> tuple[User, User]:
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    await emu.slash(ada, "game new", game="sector6")
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game start")
    await emu.wait_for(lambda: board_posts(emu), message="the first board")
    return ada, bo


async def move_a_prisoner(emu: DiscordEmulator, mover: User, state: State) -> Record:
    """Move one of the mover's prisoners with /s6 move: the board post offers what may follow."""
    text = next(a.text() for a in state.legal_actions())
    _, origin, target = text.split()
    reply = await emu.slash(mover, "s6 move", **{"from": origin, "to": target})
    (post,) = [r for r in reply.public if r.kind == "channel_message"]
    assert post.custom_ids, "the choices after a move are on the board post"
    return post


async def test_sector6_choices_go_when_the_turn_is_ended_by_command(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    people = await sector6_between(emu, hv)
    state = await build_the_maze(hv, await hv.game())
    mover = people[state.current_seat() or 0]
    moved = await move_a_prisoner(emu, mover, state)

    reply = await emu.slash(mover, "s6 done")
    (done,) = [r for r in reply.public if r.kind == "channel_message"]
    await wait_without_buttons(emu, moved, "after /s6 done")
    assert (await hv.actions())[-1][1] == "done"
    assert done.has_attachment(BOARD) and _only_follow(done.components), (
        "the next player moves first"
    )


@pytest.fixture
async def hv_on(emulator: DiscordEmulator, database_url: str) -> AsyncIterator[BotHarness]:
    """The bot on each backend in turn (SQLite, PostgreSQL as several processes share it)."""
    harness = BotHarness(emulator, database_url)
    await harness.start()
    try:
        yield harness
    finally:
        await harness.close()
    assert not harness.unexpected_errors(), "the bot logged errors:\n" + harness.errors.summary()


async def test_sector6_choices_go_when_the_next_player_moves_in_another_process(
    emulator: DiscordEmulator, hv_on: BotHarness
) -> None:
    """What carries live buttons is stored with the game: a process that did not make the
    post (here the bot started again, its memory empty) still takes them off."""
    emu, hv = emulator, hv_on
    people = await sector6_between(emu, hv)
    state = await build_the_maze(hv, await hv.game())
    first = people[state.current_seat() or 0]
    moved = await move_a_prisoner(emu, first, state)
    await hv.restart()
    await emu.slash(first, "s6 done")
    await wait_without_buttons(emu, moved, "after /s6 done in another process")

    # The second player moves (buttons again) and moves on by clicking one of them: the
    # post clicked loses its buttons as ever, once.
    state = await hv.state()
    second = people[state.current_seat() or 0]
    assert second is not first
    moved = await move_a_prisoner(emu, second, state)
    done = next(c for c in moved.custom_ids if c.endswith(":done"))
    since = emu.last_seq
    await emu.click(second, done, message=moved.message_id)
    await wait_without_buttons(emu, moved, "after a click")
    edits = emu.messages(kind="message_edit", since=since)
    assert moved.message_id not in [r.message_id for r in edits], "taken off once, by the click"


async def pylons_opening(emu: DiscordEmulator, hv: BotHarness, **options: object) -> Record:
    """Ada and Bo start Pylons; the opening post offers Ada (player 1) keep or mirror."""
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    await emu.slash(ada, "game new", game="pylons", **options)
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game start")
    await emu.wait_for(lambda: board_posts(emu), message="the opening board")
    (opening,) = board_posts(emu)
    assert any(c.endswith(":keep") for c in opening.custom_ids)
    return opening


async def test_pylons_opening_choice_goes_when_an_ai_stands_in_and_chooses(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    opening = await pylons_opening(emu, hv, absent=2)
    game = await hv.game()
    bo = emu.users[game.seats[1].user_id]
    since = (datetime.now(UTC) - timedelta(hours=3)).isoformat(timespec="seconds")
    await hv.sql("UPDATE games SET turn_since = ? WHERE id = ?", since, game.id)

    reply = await emu.slash(bo, "game takeover")
    (vote,) = reply.where(kind="response", visibility="public")
    to_ai = next(i for i in vote.custom_ids if i.endswith(":ai"))
    await emu.click(bo, to_ai, message=vote)
    # The AI standing in for Ada makes the opening choice: a new board, the old one bare.
    await emu.wait_for(lambda: len(board_posts(emu)) > 1, message="the AI's choice")
    assert (await hv.actions())[0][1] in ("keep", "mirror")
    await wait_without_buttons(emu, opening, "once the AI has chosen")


async def test_pylons_opening_choice_goes_when_player_one_resigns(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    opening = await pylons_opening(emu, hv)
    ada = emu.users[(await hv.game()).seats[0].user_id]
    await confirmed(emu, ada, "game resign")
    await wait_without_buttons(emu, opening, "after player 1 resigned")


async def test_pylons_opening_choice_goes_when_the_game_is_abandoned(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    opening = await pylons_opening(emu, hv)
    ada = emu.users[(await hv.game()).seats[0].user_id]
    await confirmed(emu, ada, "game abandon")
    assert (await hv.game()).status == "abandoned"
    await wait_without_buttons(emu, opening, "once the game is abandoned")


async def test_sector6_choices_go_when_the_move_is_taken_back(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    people = await sector6_between(emu, hv)
    state = await build_the_maze(hv, await hv.game())
    mover = people[state.current_seat() or 0]
    other = people[1 - (state.current_seat() or 0)]
    moved = await move_a_prisoner(emu, mover, state)

    reply = await emu.slash(mover, "game undo")
    (ask,) = reply.where(kind="response", visibility="public")
    accept = next(i for i in ask.custom_ids if i.endswith(":yes"))
    await emu.click(other, accept, message=ask.message_id)
    await wait_without_buttons(emu, moved, "once the move is taken back")
    assert await hv.state() == state, "the move is taken back"


async def test_a_post_deleted_meanwhile_is_let_be(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """Someone deleted the post with the old buttons: the game goes on, nothing is logged as
    an error (the `hv` fixture fails the test on any), and the next post is made as ever."""
    emu = emulator
    people = await sector6_between(emu, hv)
    state = await build_the_maze(hv, await hv.game())
    mover = people[state.current_seat() or 0]
    moved = await move_a_prisoner(emu, mover, state)
    del emu.messages_by_id[moved.message_id]

    reply = await emu.slash(mover, "s6 done")
    assert [r for r in reply.public if r.kind == "channel_message"], "the next board is posted"
    path = f"/messages/{moved.message_id}"
    # A card is read before it is edited (its layout is sent again without the choices).
    await emu.wait_for(
        lambda: emu.requests_to("GET", path) or emu.requests_to("PATCH", path),
        message="tried to read or edit it",
    )
    await emu.settle()
    assert [(r.status, r.body["code"]) for r in emu.rejections] == [(404, 10008)]
    emu.rejections.clear()  # Discord's answer to an edit of a deleted message: expected here


def test_closing_waits_for_buttons_being_taken_off() -> None:
    """GameBot.close lets the tasks answering interactions finish, found by their names."""
    assert board_buttons.TASK.startswith(answering.ANSWER_TASK)


async def test_a_bot_started_again_reads_a_game_only_when_it_is_played(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """Start-up reads no game that needs nothing: a lobby, a game waiting for a person. The
    one whose post still shows buttons it has moved past is read, and they come off; the
    others are read when someone plays them. (The same code reads either database.)"""
    emu = emulator
    people = await sector6_between(emu, hv)
    state = await build_the_maze(hv, await hv.game())
    first = people[state.current_seat() or 0]
    moved = await move_a_prisoner(emu, first, state)
    played = await hv.game()
    waiting = emu.add_channel("waiting")
    await emu.slash(first, "game new", channel=waiting, game="pylons")
    lobby = await hv.game(waiting.id)

    # The game moves on in a process that stops before it takes the buttons off.
    await hv.stop()
    store = await GameStore.open(hv.database)
    try:
        state = find_game(played.game_name).state_from_dict(played.state)
        state.apply("done")
        await store.write(
            changes.record_actions(
                played.id,
                played.version,
                state=state,
                actions=[(played.seat_of(first.id) or 0, "done")],
                announce=False,
                at=store.clock(),
            )
        )
    finally:
        await store.close()

    await hv.start()
    await wait_without_buttons(emu, moved, "taken off by the bot started again")
    held = hv.bot.service.repo.cache.held()
    assert played.id in held and lobby.id not in held, held
    await emu.slash(first, "game status", channel=waiting)
    assert lobby.id in hv.bot.service.repo.cache.held()
