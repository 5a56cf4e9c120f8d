"""Replays through Discord: a Pylons game against an AI seat played to its end, its animated
replay posted in the channel right after the result, and /game replay showing it again; each
a card, the animation in its gallery with its alt text."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from e2e_harness import BotHarness, board_posts, check_card, names_of, racing_cell, replay
from moved_clock import MovedClock
from PIL import Image, ImageChops

from engine import State
from games import find_game
from hvbot.infra import workers
from hvbot.messages.presenters import presenter_for
from hvbot.store import GameRow
from sandbox.emulator import DiscordEmulator, Record, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

REPLAY = "replay.gif"


def replay_posts(emu: DiscordEmulator) -> list[Record]:
    return [
        r
        for r in emu.messages(visibility="public", channel=emu.channel)
        if r.has_attachment(REPLAY)
    ]


def gif_frames(record: Record) -> Image.Image:
    attachment = record.attachment(REPLAY)
    assert attachment.is_gif and attachment.content_type == "image/gif"
    picture = attachment.image
    assert picture is not None and picture.format == "GIF"
    return picture


async def test_no_finished_game_is_said_privately(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")
    assert await emu.autocomplete(ada, "game replay", "game", "") == []
    reply = await emu.slash(ada, "game replay")
    (answer,) = reply.messages
    assert answer.visibility == Visibility.ephemeral_to(ada)
    assert "No game has been finished in this channel" in answer.text
    # An open game is not an archived one.
    await emu.slash(ada, "game new", game="pylons")
    game = await hv.game()
    reply = await emu.slash(ada, "game replay", game=game.id)
    assert reply.messages[0].visibility == Visibility.ephemeral_to(ada)
    assert not replay_posts(emu)


@pytest.mark.drawing_processes(1)
async def test_a_finished_game_is_replayed_after_its_result_and_on_request(
    emulator: DiscordEmulator, hv: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the bot as deployed: the replay drawn by its worker for long work."""
    emu = emulator
    ada = emu.add_user("Ada")
    await emu.slash(ada, "game new", game="pylons")
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    game = await hv.game()
    await emu.wait_for(lambda: board_posts(emu))
    (opening,) = board_posts(emu)
    await emu.click(ada, f"act:{game.id}:{game.version}:keep", message=opening.message_id)
    # A click is acknowledged before its move is stored; the buttons go once it is.
    await emu.wait_for(
        lambda: all(
            (b.custom_id or "").startswith("follow:")
            for b in emu.message(opening.message_id).buttons
        )
    )

    async def adas_turn_or_the_end() -> tuple[GameRow, State] | None:
        """Once every stored move is announced: the game if Ada is to move or it is over."""
        game = await hv.game()
        if len(board_posts(emu)) < 1 + len(await hv.actions(game)):
            return None
        state = find_game(game.game_name).state_from_dict(game.state)
        return (game, state) if state.is_terminal() or state.current_seat() == 0 else None

    rng = random.Random(3)
    for _ in range(250):
        # Generous: an AI move is thought and drawn in worker processes, which a host slowing
        # the machine down ten-fold keeps longer than the usual ten seconds.
        game, state = await emu.wait_for(adas_turn_or_the_end, 60, message="Ada's turn or the end")
        if state.is_terminal():
            break
        assert not replay_posts(emu), "no replay while the game is on"
        await emu.slash(ada, "pylons place", cell=racing_cell(state, rng), settle=False)
    else:
        raise AssertionError("the game did not end")

    # The replay follows the result, in public, as a message of its own.
    (posted,) = await emu.wait_for(lambda: replay_posts(emu), timeout=60)
    game = await hv.game()
    assert game.status == "finished"
    actions = await hv.actions(game)
    result = board_posts(emu)[-1]
    assert "Game over" in result.text
    assert posted.seq > result.seq and posted.kind == "channel_message"
    # Nothing is posted between them (the lobby post above may be edited to say the game
    # ended: an edit, not a post).
    between = [
        r
        for r in emu.messages(visibility="public", channel=emu.channel)
        if result.seq < r.seq < posted.seq and r.kind != "message_edit"
    ]
    assert not between, f"the replay comes right after the result: {between}"
    assert posted.text == f"Replay of the game: {len(actions)} moves."
    check_card(emu, posted, pictures=1)  # the animation in its gallery, Rematch inside
    assert posted.custom_ids == [f"rematch:{game.id}:ask"]

    picture = gif_frames(posted)
    assert picture.n_frames == len(actions) + 1, "the deal and one frame per move"
    final = replay(game, actions)[-1]
    board = presenter_for("pylons").board_image(final.view(None), names_of(game))
    picture.seek(picture.n_frames - 1)
    last = picture.convert("RGB")
    assert last.size == board.size
    assert ImageChops.difference(last, board.convert("RGB")).getbbox() is None

    # /game replay: anyone in the channel gets the latest finished game's replay, in public.
    await emu.settle()
    cy = emu.add_user("Cy")
    choices = await emu.autocomplete(cy, "game replay", "game", "")
    (archived,) = await (await hv.reader()).finished_games(channel_id=emu.channel.id)
    assert archived.game.id == game.id and archived.ended_at is not None
    day = archived.ended_at[:10]
    players = " vs ".join(names_of(game))
    assert choices == [{"name": f"#{game.id} Pylons, {day}, {players}", "value": game.id}]
    assert await emu.autocomplete(cy, "game replay", "game", "sector") == []
    # A number no game can have (the databases store 64 bits) and digits that are not ASCII.
    for typed in ("9" * 19, "12345678901234567890123", "²"):
        assert await emu.autocomplete(cy, "game replay", "game", typed) == []
    assert await emu.autocomplete(cy, "game replay", "game", str(game.id)) == choices
    # Asked again, the replay drawn at the end is sent as it was kept, not drawn again.
    drawn: list[int] = []
    when_free = workers.when_free
    monkeypatch.setattr(workers, "when_free", lambda *a: drawn.append(1) or when_free(*a))
    assert hv.bot is not None
    clock = MovedClock(datetime.now(UTC))
    hv.bot.service.clock = clock
    for options in ({}, {"game": game.id}):
        reply = await emu.slash(cy, "game replay", wait_s=60, **options)
        (again,) = [r for r in reply.messages if r.has_attachment(REPLAY)]
        assert again.is_public, emu.describe(reply)
        check_card(emu, again, pictures=1)  # a card of its own, no Rematch on request
        assert not again.custom_ids
        assert again.text == (
            f"Replay of Pylons game #{game.id}, {players} ({day}): {len(actions)} moves."
        )
        assert again.attachment(REPLAY).data == posted.attachment(REPLAY).data, "same bytes"

    assert drawn == [], "answered from the replay kept"

    refusal = await emu.slash(cy, "game replay", game=game.id + 50)
    assert refusal.messages[0].visibility == Visibility.ephemeral_to(cy)
    assert f"Game #{game.id + 50} is not a finished game" in refusal.messages[0].text
    assert len(replay_posts(emu)) == 3
    # A third replay within the minute, then no more until a minute after the first.
    await emu.slash(cy, "game replay")
    clock.advance(seconds=20)
    limited = await emu.slash(cy, "game replay")
    assert not limited.public
    assert limited[0].text == (
        "You asked for 3 replays in the last minute: try again in 40 seconds."
    )
    assert len(replay_posts(emu)) == 4
    clock.advance(seconds=40)
    await emu.slash(cy, "game replay")
    assert len(replay_posts(emu)) == 5
    assert drawn == []
