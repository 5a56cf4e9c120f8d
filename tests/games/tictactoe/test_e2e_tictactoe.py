"""Tic-tac-toe through Discord, the fourth game, which exists only as its own folder and one
registry line: the lobby offers it by its title, two people play it with /ttt mark (with free
cells to pick from, a board picture after every move, a refusal that changes nothing), its
result is stored and counted in /stats, and a game against an AI seat ends by itself."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from e2e_harness import BOARD, BotHarness, board_posts, heading
from PIL import Image

from engine.core import State
from games import find_game
from sandbox.emulator import DiscordEmulator, Record, User, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

TITLE = "Tic-tac-toe"


def game_choice(emu: DiscordEmulator, title: str) -> str:
    """The value of the /game new `game` choice a person picks by its title."""
    command = emu.commands[emu.guild_id]["game"]
    new = next(o for o in command["options"] if o["name"] == "new")
    game = next(o for o in new["options"] if o["name"] == "game")
    (value,) = [c["value"] for c in game["choices"] if c["name"] == title]
    return str(value)


def board_of(post: Record) -> Image.Image:
    """The board picture of a post, decoded: a real PNG."""
    attachment = post.attachment(BOARD)
    assert attachment.is_png
    picture = Image.open(io.BytesIO(attachment.data))
    assert picture.format == "PNG"
    picture.load()
    return picture


async def offered(emu: DiscordEmulator, user: User, typed: str) -> list[str]:
    choices: list[dict[str, Any]] = await emu.autocomplete(user, "ttt mark", "cell", typed)
    return [str(c["value"]) for c in choices]


async def state_now(hv: BotHarness) -> State:
    game = await hv.game()
    return find_game(game.game_name).state_from_dict(game.state)


async def test_two_people_play_tic_tac_toe_to_a_win_that_is_counted(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    await emu.slash(ada, "game new", game=game_choice(emu, TITLE))
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game start")
    game = await hv.game()
    assert game.game_name == "tic-tac-toe" and [s.user_id for s in game.seats] == [ada.id, bo.id]

    # Each player is told their mark privately, as every game starts.
    for user, mark in ((ada, "X"), (bo, "O")):
        dm = await emu.wait_for_message(visibility=Visibility.dm_to(user))
        assert heading(dm) == f"You play {mark}"
        assert dm.attachment("secret.png").is_png
        # A game that says nothing more of it has its secret described by its title.
        assert dm.attachment("secret.png").description == f"You play {mark}."
    (opening,) = await emu.wait_for(lambda: board_posts(emu))
    size = board_of(opening).size

    # Only the player to move is offered cells: every free one, as typed so far.
    assert await offered(emu, ada, "") == ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"]
    assert await offered(emu, bo, "") == []

    reply = await emu.slash(ada, "ttt mark", cell="b2")
    assert reply.public, emu.describe(reply)
    assert "Ada put X on B2." in board_posts(emu)[-1].text
    # Every game's board is described as the common presenter says it: the last move, whose
    # turn, the status.
    alt = board_posts(emu)[-1].attachment("board.png").description or ""
    assert alt.startswith(f"Picture of the {TITLE} board.\nLast move: Ada marked B2.\nBo to move")
    assert await offered(emu, bo, "b") == ["B1", "B3"], "B2 is taken"
    assert await offered(emu, ada, "") == [], "not Ada's turn"
    # The move log and the status speak in the game's own words.
    (log,) = (await emu.slash(bo, "game log")).messages
    assert "marked B2" in log.text and "mark B2" not in log.text
    (status,) = (await emu.slash(bo, "game status")).messages
    assert "marking cells" in status.text and "Bo plays O: 0 marks on the board" in status.text

    # A taken cell is refused to its player alone, naming the free cells, and nothing changes.
    before, posts = await hv.game(), len(board_posts(emu))
    refusal = await emu.slash(bo, "ttt mark", cell="B2")
    assert [r.visibility for r in refusal.messages] == [Visibility.ephemeral_to(bo)]
    assert "B2 already holds X: mark a free cell (A1, B1, C1, A2, C2, A3, B3, C3)." in (
        refusal.messages[0].text
    )
    after = await hv.game()
    assert after.version == before.version and after.state == before.state
    assert len(board_posts(emu)) == posts

    # X forks with A3 and wins on C1; a board picture follows every mark.
    pictures = [board_of(board_posts(emu)[-1])]
    for user, cell in (
        (bo, "B1"),
        (ada, "A1"),
        (bo, "C3"),
        (ada, "A3"),
        (bo, "A2"),
        (ada, "C1"),
    ):
        seen = len(board_posts(emu))
        reply = await emu.slash(user, "ttt mark", cell=cell)
        assert reply.public, emu.describe(reply)
        assert len(board_posts(emu)) == seen + 1
        pictures.append(board_of(board_posts(emu)[-1]))
    assert len({p.tobytes() for p in pictures}) == len(pictures), "each board shows its mark"
    assert {p.size for p in pictures} == {size}

    await emu.settle()
    game = await hv.game()
    assert game.status == "finished"
    state = await state_now(hv)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert [text for _, text in await hv.actions(game)] == state.history
    final = board_posts(emu)[-1]
    assert "Game over: three marks in a row." in final.text and "**Ada wins!**" in final.text

    # The result is stored (it outlives a restart) and counted under the game's title.
    await hv.restart()
    (mine,) = (await emu.slash(ada, "stats me")).messages
    (record,) = mine.attachments
    assert f"{TITLE}: Rating 1103?. Games finished 1 · Won 1 (100%)" in (record.description or "")
    (board,) = (await emu.slash(bo, "stats server")).messages
    assert f"{TITLE}: 1 game finished" in board.text
    (leaderboard,) = board.attachments
    assert "1. Ada · Rating 1103? · Games 1" in (leaderboard.description or "")

    # The rules come from the game's own folder.
    (rules,) = (await emu.slash(bo, "game rules", game=game_choice(emu, TITLE))).messages
    assert rules.text.startswith("**Tic-tac-toe in short**")


async def test_a_game_against_the_ai_seat_ends_and_the_ai_never_loses(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")
    await emu.slash(ada, "game new", game=game_choice(emu, TITLE))
    await emu.slash(ada, "game addai", level="normal")
    await emu.slash(ada, "game start")
    game = await hv.game()
    assert game.seats[1].is_ai and game.seats[1].ai_level == "normal"

    rng = random.Random(3)
    for _ in range(9):
        state = await state_now(hv)
        if state.is_terminal():
            break
        if state.current_seat() != 0:
            seen = len(board_posts(emu))
            await emu.wait_for(lambda seen=seen: len(board_posts(emu)) > seen)
            continue
        cells = await offered(emu, ada, "")
        assert cells == state.view(0)["free"]
        reply = await emu.slash(ada, "ttt mark", cell=rng.choice(cells))
        assert reply.public, emu.describe(reply)
    await emu.wait_for(lambda: state_now(hv), message="the game has a state")
    await emu.settle()
    game = await hv.game()
    state = await state_now(hv)
    assert game.status == "finished" and state.is_terminal()
    actions = await hv.actions(game)
    assert {seat for seat, _ in actions} == {0, 1}, "both Ada and the AI marked cells"
    assert len(board_posts(emu)) == 1 + len(actions), "a board after the start and every mark"
    outcome = state.outcome()
    assert outcome is not None and 1 in outcome.winners, "the normal AI never loses"
    assert board_of(board_posts(emu)[-1]).format == "PNG"
