"""A player who is away: the others vote with buttons to let an AI play their seat, the AI
moves for them, and they take the seat back with /game return."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from discord_emulator import DiscordEmulator
from e2e_harness import BotHarness, board_posts

from engine import find_game


async def test_an_ai_plays_for_a_player_who_is_away_until_they_return(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    await emu.slash(ada, "game new", game="high-voltage", absent=2)
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game start")
    game = await hv.game()
    state = find_game(game.game).state_from_dict(game.state)
    seat = state.current_seat()
    away = emu.users[game.seats[seat].user_id]
    other = bo if away is ada else ada

    early = await emu.slash(other, "game takeover")
    assert early.where(kind="response")[0].visibility.kind == "ephemeral"
    assert "allows 2 hours" in early[0].content

    # Three hours pass without a move.
    reader = await hv.reader()
    since = (datetime.now(UTC) - timedelta(hours=3)).isoformat(timespec="seconds")
    await reader._conn.execute("UPDATE games SET turn_since = ? WHERE id = ?", (since, game.id))
    reply = await emu.slash(other, "game takeover")
    (vote,) = reply.where(kind="response", visibility="public")
    assert f"<@{other.id}>" in vote.content
    boards = len(board_posts(emu))
    await emu.click(other, next(i for i in vote.custom_ids if i.endswith(":ai")), message=vote)
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
