"""Following a game one does not play, through Discord: a follower of a game played in its
channel gets each move once by DM and never a secret (a company, a card drawn face down);
a follower of a game played in a thread is added to the thread, and so is one who followed
its lobby, once it starts there; quiet hours hold a digest until they end, and then it comes
once; a digest on its way holds up no AI seat; Unfollow stops the digests; a person at the
table is refused."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from e2e_harness import (
    BotHarness,
    before_the_ai,
    board_posts,
    check_card,
    lobby_button,
    open_three_seat_game,
    racing_cell,
)
from moved_clock import MovedClock

from games import find_game
from sandbox.emulator import DiscordEmulator

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

CHANNEL_POSTS = "POST /channels/{channel_id}/messages"
MOST_PRIVATE = 12  # shorter private lines ("Your turn.") say nothing a follower could use


def _mark(emu: DiscordEmulator) -> int:
    return emu.records[-1].seq if emu.records else 0


def _digests(emu: DiscordEmulator, user, since: int = 0) -> list:
    return emu.messages(visibility="dm", user=user, since=since)


def _private_lines(emu: DiscordEmulator, people) -> set[str]:
    """Every line told to the players alone (their secrets by DM, their drawn cards and
    choices) that no public message ever said."""
    public = "\n".join(r.text for r in emu.messages(visibility="public"))
    lines: set[str] = set()
    for person in people:
        for visibility in ("dm", "ephemeral"):
            for record in emu.messages(visibility=visibility, user=person):
                lines.update(
                    line.strip()
                    for line in record.text.splitlines()
                    if len(line.strip()) >= MOST_PRIVATE and line.strip() not in public
                )
    return lines


async def test_a_follower_gets_each_move_once_by_dm_and_never_a_secret(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo, lobby, table = await open_three_seat_game(emu, hv)
    game = await hv.game()
    follow = f"follow:{game.id}"
    shown = [b.custom_id for b in emu.message(lobby.message_id).buttons]
    assert shown == [follow]  # on the lobby once started, alone

    refused = await emu.click(ada, follow, message=lobby)
    assert "you see all of it already" in refused[0].text and not refused.public

    cy = emu.add_user("Cy")
    answered = await emu.click(cy, follow, message=lobby)
    assert "by direct message" in answered[0].text and not answered.public
    mark = _mark(emu)
    await table.play_moves(8)
    await hv.caught_up()

    boards = board_posts(emu, since=mark)
    digests = _digests(emu, cy, since=mark)
    assert boards and digests
    told = "\n".join(d.text for d in digests)
    # Each move the channel was told is told to the follower once, no more.
    for board in boards:
        said = board.text.splitlines()[0]
        expected = sum(b.text.splitlines()[0] == said for b in boards)
        assert told.count(said) == expected, (said, told)
    for digest in digests:
        assert digest.custom_ids == [f"unfollow:{game.id}"]
        assert digest.text.startswith(f"**High Voltage** #{game.id} in <#{emu.channel.id}>")
        assert not digest.attachments and not digest.embeds
        check_card(emu, digest)  # a card, its Unfollow button inside
    # Nothing told to a player alone reaches the follower: no company, no card drawn face down.
    secrets = _private_lines(emu, [ada, bo])
    assert any("company" in line for line in secrets)  # the secrets were looked for
    for digest in digests:
        for secret in secrets:
            assert secret not in digest.text, (secret, digest.text)
        assert "Your company" not in digest.text

    # /me games lists what the follower follows; Unfollow stops the digests.
    listed = await emu.slash(cy, "me games")
    assert f"**High Voltage** #{game.id}" in listed[0].text
    stopped = await emu.click(cy, f"unfollow:{game.id}", message=digests[-1])
    assert "no longer follow" in stopped[0].text
    mark = _mark(emu)
    await table.play_moves(4)
    await hv.caught_up()
    assert board_posts(emu, since=mark) and _digests(emu, cy, since=mark) == []
    again = await emu.slash(cy, "game unfollow", game=game.id)
    assert "You do not follow that game" in again[0].text


async def test_a_follower_of_a_game_in_a_thread_is_added_to_the_thread(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    emu.allow_threads()
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    lobby = (await emu.slash(ada, "game new", game="high-voltage")).where(kind="response")[0]
    await emu.click(bo, lobby_button(lobby, "join"), message=lobby)
    await emu.click(ada, lobby_button(lobby, "start"), message=lobby)
    await emu.wait_for(lambda: board_posts(emu, channel=emu.threads()[0]) if emu.threads() else [])
    (thread,) = emu.threads(emu.channel)
    game = await hv.game()
    assert game.thread_id == thread.id
    # Board posts carry Follow beside what they had.
    assert all(f"follow:{game.id}" in b.custom_ids for b in board_posts(emu, channel=thread))

    cy = emu.add_user("Cy")
    refused = await emu.slash(bo, "game follow", channel=thread)
    assert "you see all of it already" in refused[0].text
    answered = await emu.slash(cy, "game follow", channel=thread)
    assert f"in its thread <#{thread.id}>" in answered.messages[0].text
    assert emu.channels[thread.id].members == {cy.id}
    await hv.caught_up()
    assert _digests(emu, cy) == []  # the thread tells them: no DM

    await emu.slash(cy, "game unfollow", channel=thread)
    assert emu.channels[thread.id].members == set()


async def test_quiet_hours_hold_a_digest_and_it_comes_once_after_they_end(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    assert hv.bot is not None
    clock = MovedClock(datetime(2026, 6, 1, 23, 0, tzinfo=UTC))
    hv.bot.service.clock = clock
    cy = emu.add_user("Cy")
    await emu.slash(cy, "me notify", quiet_from="22:00", quiet_to="07:00", zone="UTC")
    _, _, lobby, table = await open_three_seat_game(emu, hv)
    game = await hv.game()
    await emu.click(cy, f"follow:{game.id}", message=lobby)
    mark = _mark(emu)
    await table.play_moves(4)
    await hv.caught_up()
    boards = board_posts(emu, since=mark)
    assert boards and _digests(emu, cy) == []  # held through the quiet hours

    clock.now = datetime(2026, 6, 2, 7, 0, tzinfo=UTC)
    await hv.caught_up()
    (digest,) = _digests(emu, cy)
    for board in boards:
        assert board.text.splitlines()[0] in digest.text
    await hv.caught_up()
    assert len(_digests(emu, cy)) == 1


async def test_a_follower_of_a_lobby_is_added_to_the_thread_it_starts_in_and_gets_no_dm(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    emu.allow_threads()
    ada, cy = emu.add_user("Ada"), emu.add_user("Cy")
    lobby = (await emu.slash(ada, "game new", game="pylons")).public[0]
    game = await hv.game()
    answered = await emu.click(cy, f"follow:{game.id}", message=lobby)
    assert "I will add you to its thread" in answered[0].text and not answered.public
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    await emu.wait_for(lambda: board_posts(emu, channel=emu.threads()[0]) if emu.threads() else [])
    (thread,) = emu.threads(emu.channel)
    await emu.wait_for(
        lambda: cy.id in emu.channels[thread.id].members, message="the follower in the thread"
    )
    follow = await (await hv.reader()).follows.of(user_id=cy.id, game_id=game.id)
    assert follow is not None and not follow.by_dm  # a follow in the thread from now on

    # The game goes on in the thread: the follower reads it there, and gets no digest.
    (opening,) = board_posts(emu, channel=thread)
    await emu.click(ada, f"act:{game.id}:{(await hv.game()).version}:keep", message=opening)
    rng = random.Random(5)
    for _ in range(3):
        game = await emu.wait_for(lambda: _ada_to_move(hv), 30, message="Ada's turn")
        state = find_game(game.game_name).state_from_dict(game.state)
        if state.is_terminal():
            break
        await emu.slash(ada, "pylons place", cell=racing_cell(state, rng), channel=thread)
    await hv.caught_up()
    assert len(board_posts(emu, channel=thread)) > 2
    assert _digests(emu, cy) == []
    assert emu.channels[thread.id].members == {cy.id}


async def _ada_to_move(hv: BotHarness):
    """The game once it is the first seat's turn (or over), else None."""
    game = await hv.game()
    state = find_game(game.game_name).state_from_dict(game.state)
    return game if state.is_terminal() or state.current_seat() == 0 else None


async def test_an_ai_seat_moves_while_a_followers_digest_is_on_its_way(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    assert hv.bot is not None
    clock = MovedClock(datetime(2026, 6, 1, 23, 0, tzinfo=UTC))
    hv.bot.service.clock = clock
    cy = emu.add_user("Cy")
    await emu.slash(cy, "me notify", quiet_from="22:00", quiet_to="07:00", zone="UTC")
    _, _, lobby, table = await open_three_seat_game(emu, hv)
    game = await hv.game()
    await emu.click(cy, f"follow:{game.id}", message=lobby)
    mark = _mark(emu)
    await table.play_moves(1)
    game, state, ai_seat = await before_the_ai(table)
    ai_name = game.seats[ai_seat].display_name
    await hv.caught_up()
    assert _digests(emu, cy) == []  # held through the quiet hours: nothing owed yet

    # The quiet hours end: the digest is claimed, owed, and its DM held on its way.
    on_its_way = emu.faults.hold(CHANNEL_POSTS, starts=f"**High Voltage** #{game.id} in")
    clock.now = datetime(2026, 6, 2, 7, 0, tzinfo=UTC)
    await emu.wait_for(lambda: on_its_way.held == 1, 10, message="the digest on its way")

    # The person before the AI seat moves; the AI answers all the same.
    def ai_boards() -> list:
        return [b for b in board_posts(emu, since=mark) if b.text.startswith(ai_name)]

    before = len(ai_boards())
    for _ in range(4):
        game, state = await table.wait_for_turn()
        if len(ai_boards()) > before:
            break
        await table.play(game, state, settle=False)
    assert len(ai_boards()) > before, "the AI seat moved"
    assert _digests(emu, cy) == []  # the digest is still on its way

    on_its_way.release()
    await hv.caught_up()
    boards = board_posts(emu, since=mark)
    told = "\n".join(d.text for d in _digests(emu, cy))
    for board in boards:  # each move told once, the AI's too, whatever was held
        said = board.text.splitlines()[0]
        expected = sum(b.text.splitlines()[0] == said for b in boards)
        assert told.count(said) == expected, (said, told)
