"""Games the bot reaches only by answering interactions (a DM or a group DM, where a person
installed the app), on SQLite and PostgreSQL: stored as such and read back so by every
process; High Voltage refused there; their owed posts claimed by the interaction in hand from
whoever held them, fenced as every post is; their AI seats not held back by posts still owed
(those wait for the next interaction, and show the AI's moves with the rest, in order); a
DM refused owed to the next interaction instead; reminders by DM whatever the person chose
for the channel."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from conftest import heard_so_far, services_sharing

from hvbot.services import BotError, GameService
from hvbot.store import ANSWERS, CHANNEL, GameRow
from hvbot.store.duties import owe

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
ADA, BO = 101, 102
GROUP_DM = 5000


@pytest.fixture
async def processes(database_url: str) -> AsyncIterator[list[GameService]]:
    async with services_sharing(database_url, 2) as services:
        for service in services:
            service.clock = lambda: NOW
        yield services


async def _lobby(
    service: GameService, channel: int, delivery: str, game: str = "pylons"
) -> GameRow:
    return await service.lobby.new_lobby(
        channel_id=channel,
        guild_id=None if delivery == ANSWERS else 1,
        user_id=ADA,
        name="Ada",
        game_name=game,
        delivery=delivery,
    )


async def _started(service: GameService, channel: int, delivery: str, *, ai: bool) -> GameRow:
    await _lobby(service, channel, delivery)
    if ai:
        await service.lobby.add_ai(channel_id=channel, user_id=ADA, level="easy")
    else:
        await service.lobby.join(channel_id=channel, user_id=BO, name="Bo")
    started = await service.lobby.start(channel_id=channel, user_id=ADA, can_manage=False)
    return started.game


async def test_a_game_in_a_private_channel_is_stored_as_reached_only_by_answers(
    processes: list[GameService],
) -> None:
    first, second = processes
    private = await _lobby(first, GROUP_DM, ANSWERS)
    public = await _lobby(first, GROUP_DM + 1, CHANNEL)
    assert private.answers_only and private.delivery == ANSWERS
    assert not public.answers_only and public.delivery == CHANNEL
    await heard_so_far(second.games.store, first.games.store)
    read = await second.games.find(private.id, fresh=True)
    assert read is not None and read.answers_only and read.guild_id is None
    read = await second.games.find(public.id, fresh=True)
    assert read is not None and not read.answers_only
    # It stays so once started, as every change rewrites the game's row.
    await first.lobby.join(channel_id=GROUP_DM, user_id=BO, name="Bo")
    started = await first.lobby.start(channel_id=GROUP_DM, user_id=ADA, can_manage=False)
    assert started.game.answers_only
    stored = await second.games.store.db.fetchrow(
        "SELECT status, delivery FROM games WHERE id = ?", private.id
    )
    assert stored is not None and (stored["status"], stored["delivery"]) == ("active", ANSWERS)


async def test_high_voltage_is_refused_where_the_bot_only_answers(
    processes: list[GameService],
) -> None:
    first, _ = processes
    with pytest.raises(BotError) as refused:
        await _lobby(first, GROUP_DM, ANSWERS, game="high-voltage")
    assert refused.value.key == "bot.private.not_here"
    assert "Pylons" in str(refused.value) and "Sector 6" in str(refused.value)
    assert await first.games.store.open_game_in_channel(channel_id=GROUP_DM) is None
    # On a server it is played as ever.
    assert not (await _lobby(first, GROUP_DM, CHANNEL, game="high-voltage")).answers_only


async def test_the_interaction_in_hand_claims_every_post_owed_fenced_against_the_holder(
    processes: list[GameService],
) -> None:
    first, second = processes
    game = await _started(first, GROUP_DM, ANSWERS, ai=False)
    held = [
        await first.duties.db.transact(
            lambda tx, n=n: owe(
                tx,
                game_id=game.id,
                version=game.version,
                kind="text",
                body={"content": f"said {n}"},
                now=NOW,
            )
        )
        for n in range(3)
    ]
    # The posts of the start are owed and held too (its first board, the colours by DM).
    # The other process's interaction claims those before the second text, leases or not.
    claimed = await second.duties.claim_game(game.id, before=held[1].id)
    ids = [owed.id for owed in claimed]
    assert held[0].id in ids and held[1].id not in ids and ids == sorted(ids)
    # Whoever held them finds its token moved on, and sends nothing.
    assert await first.duties.take(held[0]) is None
    mine = next(owed for owed in claimed if owed.id == held[0].id)
    for owed in claimed:
        if owed.id != mine.id:
            await second.duties.made(owed)
    taken = await second.duties.take(mine)
    assert taken is not None
    await second.duties.made(taken, fenced=True)
    rest = await second.duties.claim_game(game.id)
    assert [owed.id for owed in rest] == [held[1].id, held[2].id]


async def test_a_dm_refused_is_owed_to_the_next_answer_instead(
    processes: list[GameService],
) -> None:
    first, second = processes
    game = await _started(first, GROUP_DM, ANSWERS, ai=False)
    body = {"content": "your turn", "user": BO}
    owed = await first.duties.db.transact(
        lambda tx: owe(tx, game_id=game.id, version=game.version, kind="text", body=body, now=NOW)
    )
    taken = await first.duties.take(owed)
    assert taken is not None
    # Only by the post's holder: a stale token changes nothing.
    assert not await second.duties.readdress(owed, {"content": "stale"})
    assert await first.duties.readdress(taken, {"content": f"<@{BO}> your turn"})
    (found,) = [o for o in await second.duties.claim_game(game.id) if o.id == owed.id]
    assert found.body == {"content": f"<@{BO}> your turn"}


async def test_an_ai_seat_is_not_held_back_by_posts_owed_where_the_bot_only_answers(
    processes: list[GameService],
) -> None:
    """On a server, an AI seat waits for the board before its move to be out, so the channel
    reads in order; where the bot only answers, the posts wait for an interaction, which shows
    them in order with the AI's, so the AI plays at once (a clock run out, say)."""
    first, _ = processes
    for channel, delivery in ((GROUP_DM, ANSWERS), (GROUP_DM + 1, CHANNEL)):
        game = await _started(first, channel, delivery, ai=True)
        await first.duties.db.transact(
            lambda tx, g=game: owe(
                tx,
                game_id=g.id,
                version=g.version,
                kind="text",
                body={"content": "ran out"},
                now=NOW,
            )
        )
        claimed = await first.duties.claim_ai(game.id, "me", unless_owed=("text",))
        assert claimed == (delivery == ANSWERS), delivery


async def test_a_reminder_where_the_bot_only_answers_goes_by_dm(
    processes: list[GameService],
) -> None:
    first, _ = processes
    game = await _started(first, GROUP_DM, ANSWERS, ai=False)
    later = NOW + timedelta(hours=2)
    first.clock = lambda: later
    (reminder,) = await first.reminders.due_reminders(lambda r: f"<@{r.user_id}>, your turn")
    assert reminder.game.id == game.id
    assert [owed.body.get("user") for owed in reminder.owed] == [reminder.user_id]
