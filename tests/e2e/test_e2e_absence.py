"""A player who is away: the others vote with buttons to let an AI play their seat, the AI
moves for them, and they take the seat back with /game return."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from e2e_harness import BotHarness, board_posts, late_answers

from games import find_game
from sandbox.emulator import DiscordEmulator, InteractionFailed, User

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


@dataclass
class Away:
    """A two-person game (two hours allowed a move) whose player to move has been silent
    for three."""

    seat: int
    away: User
    other: User


async def three_hours_away(emu: DiscordEmulator, hv: BotHarness) -> Away:
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    await emu.slash(ada, "game new", game="high-voltage", absent=2)
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game start")
    game = await hv.game()
    state = find_game(game.game_name).state_from_dict(game.state)
    seat = state.current_seat()
    away = emu.users[game.seats[seat].user_id]
    other = bo if away is ada else ada

    early = await emu.slash(other, "game takeover")
    assert early.where(kind="response")[0].visibility.kind == "ephemeral"
    assert "allows 2 hours" in early[0].content

    since = (datetime.now(UTC) - timedelta(hours=3)).isoformat(timespec="seconds")
    await hv.sql("UPDATE games SET turn_since = ? WHERE id = ?", since, game.id)
    return Away(seat, away, other)


async def test_an_ai_plays_for_a_player_who_is_away_until_they_return(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    table = await three_hours_away(emu, hv)
    seat, away, other = table.seat, table.away, table.other
    reply = await emu.slash(other, "game takeover")
    (vote,) = reply.where(kind="response", visibility="public")
    assert f"<@{other.id}>" in vote.content
    to_ai = next(i for i in vote.custom_ids if i.endswith(":ai"))
    # The player who is away has no say: told privately, and the vote stays open.
    (refusal,) = (await emu.click(away, to_ai, message=vote)).where(kind="response")
    assert refusal.visibility.kind == "ephemeral"
    assert "Only the other players of this game vote" in refusal.content
    assert emu.message(vote.message_id).buttons, "the vote is still open"
    boards = len(board_posts(emu))
    await emu.click(other, to_ai, message=vote)
    assert not emu.message(vote.message_id).buttons, "the vote is decided"

    # The AI standing in moves for the absent player.
    await emu.wait_for(lambda: len(board_posts(emu)) > boards)
    game = await hv.game()
    assert game.seats[seat].is_ai and game.seats[seat].away_user_id == away.id
    assert (await hv.actions(game))[0][0] == seat

    back = await emu.slash(away, "game return")
    assert back.where(kind="response", visibility="public")
    game = await hv.game()
    assert game.seats[seat].user_id == away.id


async def test_a_takeover_answered_too_late_is_still_voted_on_and_the_ai_still_moves(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """In a very busy moment Discord's window can close before /game takeover or a vote is
    answered: the vote still reaches the channel, and once it is decided the AI plays."""
    emu = emulator
    table = await three_hours_away(emu, hv)
    since = emu.last_seq
    with late_answers(emu):
        with pytest.raises(InteractionFailed):
            await emu.slash(table.other, "game takeover")
        vote = await emu.wait_for_message(lambda r: bool(r.custom_ids), since=since)
        assert vote.visibility.kind == "public" and f"<@{table.other.id}>" in vote.content
        boards = len(board_posts(emu))
        to_ai = next(i for i in vote.custom_ids if i.endswith(":ai"))
        with pytest.raises(InteractionFailed):
            await emu.click(table.other, to_ai, message=vote)
    await emu.wait_for(lambda: len(board_posts(emu)) > boards, message="the AI's move")
    assert not emu.message(vote.message_id).buttons, "the vote shows as decided"
    game = await hv.game()
    assert game.seats[table.seat].is_ai
    assert (await hv.actions(game))[0][0] == table.seat
