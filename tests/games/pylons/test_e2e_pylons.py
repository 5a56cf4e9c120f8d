"""A whole Pylons game through Discord: the opening choice on public buttons, pylons placed
with /pylons place against an AI seat, a board after every move, and the result. Played on a
German server by a person whose client speaks English: every picture is described, the
channel's in German and the person's own in English."""

from __future__ import annotations

import random

import pytest
from e2e_harness import BotHarness, board_posts, check_game_cards, heading, racing_cell, replay

from data.texts import texts_for
from games import find_game
from hvbot.messages.limits import ALT, fit_alt
from hvbot.messages.presenters import presenter_for
from hvbot.messages.presenters.base import plain
from hvbot.messages.wording import picture_names
from sandbox.emulator import DiscordEmulator, Record, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


def alt_of(record: Record, filename: str) -> str:
    """A picture's alt text, checked to be there and within Discord's limit."""
    alt = record.attachment(filename).description
    assert alt and len(alt) <= ALT, f"{filename} of {record} has no alt text"
    return alt


async def test_a_pylons_game_from_lobby_to_result(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    emu.set_guild_locale("de")
    ada = emu.add_user("Ada")
    lobby = (await emu.slash(ada, "game new", game="pylons")).public[0]
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    game = await hv.game()
    assert game.game_name == "pylons" and game.seats[0].user_id == ada.id

    # Ada is told her side privately; Pylons has no secret, but every game starts this way.
    await emu.wait_for(lambda: board_posts(emu) and emu.messages(visibility=Visibility.dm_to(ada)))
    (dm,) = emu.messages(visibility=Visibility.dm_to(ada))
    assert heading(dm) == "You play BLUE"
    assert alt_of(dm, "secret.png") == "You play blue: link west to east (columns A and X)."

    # The opening choice hides nothing: its buttons are on the public board post.
    (opening,) = board_posts(emu)
    keep = f"act:{game.id}:{game.version}:keep"
    assert keep in opening.custom_ids
    await emu.click(ada, keep, message=opening.message_id)
    # A click is acknowledged before its move is stored; the buttons go once it is.
    # (Follow, for those not playing, stays.)
    await emu.wait_for(
        lambda: (
            [b.custom_id for b in emu.message(opening.message_id).buttons] == [f"follow:{game.id}"]
        )
    )
    assert (await hv.actions())[0] == (0, "keep"), "the choice is made once"

    rng = random.Random(5)
    for _ in range(250):
        game = await hv.game()
        state = find_game(game.game_name).state_from_dict(game.state)
        if state.is_terminal():
            break
        if state.current_seat() != 0:
            # The AI seat moves by itself; wait for its board.
            seen = len(board_posts(emu))
            await emu.wait_for(lambda seen=seen: len(board_posts(emu)) > seen)
            continue
        reply = await emu.slash(ada, "pylons place", cell=racing_cell(state, rng))
        assert reply.public, emu.describe(reply)
    else:
        raise AssertionError("the game did not end")

    await emu.settle()
    game = await hv.game()
    assert game.status == "finished"
    actions = await hv.actions(game)
    states = replay(game, actions)
    assert states[-1] == state
    assert {seat for seat, _ in actions} == {0, 1}, "both Ada and the AI moved"
    posts = board_posts(emu)
    assert len(posts) == 1 + len(actions), "a board after the start and after every move"
    assert "Spielende" in posts[-1].text, "the channel's posts are in German"
    # Every one a card in the colour of the pylons of the player to move.
    check_game_cards(emu, game, posts, states)
    # Every board is described in the channel's language, from the public view it shows.
    german = presenter_for("pylons", "de")
    names = picture_names(game, texts_for("de"))
    for post, at in zip(posts, states, strict=True):
        assert alt_of(post, "board.png") == fit_alt(german.board_alt(at.view(None), names))
    assert alt_of(posts[0], "board.png").startswith("Bild des Spielfelds von Pylons.")
    assert "Die Partie ist vorbei." in alt_of(posts[-1], "board.png")
    # So is the replay that follows the result, drawn with the bot's long work.
    replays = await emu.wait_for(
        lambda: [r for r in emu.messages(visibility="public") if r.has_attachment("replay.gif")],
        60,
        message="the game's replay posted",
    )
    alt = alt_of(replays[0], "replay.gif")
    assert alt.startswith("Animierte Wiedergabe der Partie Pylons, Ada gegen ")
    assert plain(german.outcome(state.view(None), names)) in alt
    assert str(game.seed) not in alt
    # The lobby message no longer wishes good luck: it says the game is over.
    finished = texts_for("de")("bot.lobby.finished")
    assert emu.message(lobby.message_id or 0).text.endswith(finished)
    refusal = await emu.slash(ada, "pylons place", cell="K12")
    assert refusal[0].visibility == Visibility.ephemeral_to(ada)
