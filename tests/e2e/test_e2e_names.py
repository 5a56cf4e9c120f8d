"""Names that cannot ping or link: a display name full of markdown, a link and mentions is
shown as itself wherever the bot writes it, refusals included, and no message the bot sends
notifies anyone the message does not mention on purpose. /game new works only in a server."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from e2e_harness import BotHarness, Table, board_posts, command_for, confirmed

from sandbox.emulator import DiscordEmulator, Record

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


async def test_a_name_with_markdown_a_link_and_mentions_reads_as_itself_and_pings_no_one(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")  # plays no part: nothing may ping her
    eve = emu.add_user(f"[Claim your prize](https://evil.example) <@{ada.id}> @everyone **big**")
    bo = emu.add_user("Bo")
    await emu.slash(eve, "game new", game="pylons", thread=False)
    await emu.slash(bo, "game join")
    await emu.slash(eve, "game start")
    await emu.wait_for(lambda: board_posts(emu))
    await emu.slash(bo, "game status")
    await confirmed(emu, bo, "game resign")
    await hv.caught_up()

    game = await hv.latest_game()
    assert game is not None
    lobby = emu.message(game.lobby_message_id or 0).text
    assert "\\[Claim your prize](https:\u200b//evil.example)" in lobby
    assert f"<@\u200b{ada.id}>" in lobby
    assert "\\*\\*big\\*\\*" in lobby and "@\u200beveryone" in lobby
    assert "https://" not in lobby, "no address Discord could link"
    sent = emu.messages()
    assert len(sent) > 5
    for record in sent:
        assert "everyone" not in record.pings, record
        assert str(ada.id) not in record.pings, record
        assert record.pings <= {str(eve.id), str(bo.id)}, record


def shows_the_name_as_itself(record: Record, ada_id: int) -> None:
    """The name of `test_a_refusal_...` escaped: no masked link, no address, no mention."""
    assert "\\[Claim your prize](https:\u200b//evil.example)" in record.text, record
    assert f"<@\u200b{ada_id}>" in record.text, record
    assert "https://" not in record.text and f"<@{ada_id}>" not in record.text, record


async def test_a_refusal_naming_another_player_shows_the_name_as_itself_and_pings_no_one(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """A refusal is the bot's voice too: the name of the player it is about cannot turn it
    into a link or a ping, and a private answer pings nobody whatever it holds."""
    emu = emulator
    ada = emu.add_user("Ada")  # plays no part: nothing may ping her
    eve = emu.add_user(f"[Claim your prize](https://evil.example) <@{ada.id}>")
    bo = emu.add_user("Bo")
    await emu.slash(eve, "game new", game="high-voltage", absent=2, thread=False)
    await emu.slash(bo, "game join")
    await emu.slash(eve, "game start")
    table = Table(emu, hv, [eve, bo])
    game, state = await table.wait_for_turn()
    while game.seats[state.current_seat() or 0].user_id != eve.id:
        await table.play(game, state)
        game, state = await table.wait_for_turn()

    action = state.sample_action(random.Random(3)).text()
    command, options = command_for(action)
    refusals = [(await emu.slash(bo, command, **options))[0]]
    assert "It is not your turn" in refusals[0].text
    refusals.append((await emu.slash(bo, "game takeover"))[0])
    assert "allows 2 hours" in refusals[1].text
    for refusal in refusals:
        assert refusal.visibility.kind == "ephemeral"
        shows_the_name_as_itself(refusal, ada.id)
        assert refusal.pings == frozenset(), refusal
        assert refusal.payload["data"]["allowed_mentions"]["parse"] == [], "pings nobody"

    # The channel told that an AI plays for her names her as herself too.
    since = (datetime.now(UTC) - timedelta(hours=3)).isoformat(timespec="seconds")
    await hv.sql("UPDATE games SET turn_since = ? WHERE id = ?", since, game.id)
    (vote,) = (await emu.slash(bo, "game takeover")).where(kind="response", visibility="public")
    before = emu.last_seq
    await emu.click(bo, next(i for i in vote.custom_ids if i.endswith(":ai")), message=vote)
    told = await emu.wait_for_message(
        lambda r: r.text.startswith("Decided: an AI plays for"),
        since=before,
        visibility="public",
    )
    shows_the_name_as_itself(told, ada.id)
    assert str(ada.id) not in told.pings, told


async def test_a_game_opened_in_the_bots_dm_is_played_through_its_answers(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")
    dm = emu.dm_channel(ada.id)
    reply = await emu.slash(ada, "game new", game="pylons", channel=dm)
    assert "Pylons" in reply[0].text and reply[0].kind == "response"
    game = await hv.latest_game(dm.id)
    assert game is not None and game.answers_only and game.guild_id is None
