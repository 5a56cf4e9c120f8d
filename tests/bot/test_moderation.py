"""A moderator's end and kick on both databases: an end is no result for anyone; a seat taken
in a lobby is freed, in a game under way an AI plays it for nobody; what cannot be taken says
what can; a moderator who plays may neither take their own seat nor end their game."""

from __future__ import annotations

import random

import pytest
from played_games import started_game

from hvbot.services import BotError, GameService
from hvbot.store import GameStore

CHANNEL, GUILD = 970, 1
ADA, BO, CY = 601, 602, 603
MOD = "<@999>"


@pytest.fixture
async def service(database_url: str):
    store = await GameStore.open(database_url)
    yield GameService(store, seed_source=random.Random(4))
    await store.close()


async def test_a_moderators_end_is_no_result(service: GameService) -> None:
    game = await started_game(
        service, channel_id=CHANNEL, guild_id=GUILD, players=[(ADA, "Ada"), (BO, "Bo")]
    )
    change = await service.moderation.end(channel_id=CHANNEL, moderator=MOD)
    ended, owed = change.game, change.owed
    assert ended.status == "abandoned"
    said = [o.body["content"].split(":")[0] for o in owed if o.kind == "text"]
    assert said == ["🛡️ <@999> ended this game"]
    assert [o.kind for o in owed if o.kind != "text"] == ["lobby"], "the lobby says it ended"
    assert await service.repo.results.of_kind(guild_id=GUILD, game="pylons") == []
    assert game.id == ended.id


async def test_in_a_lobby_a_seat_is_freed_but_not_the_creators(service: GameService) -> None:
    await service.lobby.new_lobby(
        channel_id=CHANNEL, guild_id=GUILD, user_id=ADA, name="Ada", game_name="sector6"
    )
    await service.lobby.join(channel_id=CHANNEL, user_id=BO, name="Bo")
    await service.lobby.join(channel_id=CHANNEL, user_id=CY, name="Cy")
    with pytest.raises(BotError) as refused:
        await service.moderation.kick(channel_id=CHANNEL, seat_number=1, moderator=MOD)
    assert refused.value.key == "bot.error.kick_creator"
    with pytest.raises(BotError) as refused:
        await service.moderation.kick(channel_id=CHANNEL, seat_number=4, moderator=MOD)
    assert refused.value.key == "bot.error.no_such_seat" and refused.value.fields["count"] == 3
    change = await service.moderation.kick(channel_id=CHANNEL, seat_number=2, moderator=MOD)
    game, what = change.game, change.what
    assert what == "freed"
    assert [(s.seat, s.user_id) for s in game.seats] == [(0, ADA), (1, CY)]


async def test_under_way_an_ai_plays_the_seat_for_nobody(service: GameService) -> None:
    game = await started_game(
        service,
        channel_id=CHANNEL,
        guild_id=GUILD,
        players=[(ADA, "Ada"), (BO, "Bo"), (CY, "Cy")],
        game_name="sector6",
    )
    seat = game.seat_of(BO)
    assert seat is not None
    change = await service.moderation.kick(channel_id=CHANNEL, seat_number=seat + 1, moderator=MOD)
    game, what, owed = change.game, change.what, change.owed
    assert what == "ai" and game.seat_of(BO) is None
    taken = game.seats[seat]
    assert taken.is_ai and (taken.away_user_id, taken.resigned_user_id) == (None, None)
    assert taken.display_name == "Bo (removed, AI plays)"
    assert owed[0].body["content"].startswith(f"🛡️ {MOD} removed <@{BO}> from the game")
    with pytest.raises(BotError) as refused:
        await service.moderation.kick(channel_id=CHANNEL, seat_number=seat + 1, moderator=MOD)
    assert refused.value.key == "bot.error.kick_ai_in_play"
    with pytest.raises(BotError):
        await service.absence.return_seat(channel_id=CHANNEL, user_id=BO, name="Bo")


async def test_removing_the_last_person_ends_the_game_without_a_result(
    service: GameService,
) -> None:
    await service.lobby.new_lobby(
        channel_id=CHANNEL, guild_id=GUILD, user_id=ADA, name="Ada", game_name="pylons"
    )
    await service.lobby.add_ai(channel_id=CHANNEL, user_id=ADA, level="normal")
    await service.lobby.start(channel_id=CHANNEL, user_id=ADA, can_manage=False)
    change = await service.moderation.kick(channel_id=CHANNEL, seat_number=1, moderator=MOD)
    game, what = change.game, change.what
    assert what == "ended" and game.status == "abandoned"
    assert await service.repo.results.of_kind(guild_id=GUILD, game="pylons") == []


async def test_a_moderator_may_not_take_their_own_seat_under_way(service: GameService) -> None:
    """Their own seat given to an AI "for nobody" would void the loss they may be heading
    for: refused, and pointed to /game resign, which counts as the loss it is. Nothing
    changes; another seat is still theirs to take."""
    game = await started_game(
        service,
        channel_id=CHANNEL,
        guild_id=GUILD,
        players=[(ADA, "Ada"), (BO, "Bo"), (CY, "Cy")],
        game_name="sector6",
    )
    own = game.seat_of(ADA)
    assert own is not None
    with pytest.raises(BotError) as refused:
        await service.moderation.kick(
            channel_id=CHANNEL, seat_number=own + 1, moderator="<@601>", user_id=ADA
        )
    assert refused.value.key == "bot.error.kick_own_seat"
    assert "/game resign" in str(refused.value)
    unchanged = await service.games.reload(game.id)
    assert unchanged.version == game.version and unchanged.seat_of(ADA) == own
    other = game.seat_of(BO)
    assert other is not None
    change = await service.moderation.kick(
        channel_id=CHANNEL, seat_number=other + 1, moderator="<@601>", user_id=ADA
    )
    assert change.what == "ai"


async def test_a_moderator_may_not_end_a_game_they_play(service: GameService) -> None:
    """Ending a game under way that they play, even one they resigned, would leave their
    result out: refused, pointed to /game resign. A lobby they sit in, and a game they do
    not play, end as before, without a result."""
    game = await started_game(
        service,
        channel_id=CHANNEL,
        guild_id=GUILD,
        players=[(ADA, "Ada"), (BO, "Bo"), (CY, "Cy")],
        game_name="sector6",
    )
    with pytest.raises(BotError) as refused:
        await service.moderation.end(channel_id=CHANNEL, moderator="<@601>", user_id=ADA)
    assert refused.value.key == "bot.error.end_own_game"
    assert "/game resign" in str(refused.value)
    assert (await service.games.reload(game.id)).status == "active"
    await service.play.resign(channel_id=CHANNEL, user_id=ADA)
    with pytest.raises(BotError) as refused:
        await service.moderation.end(channel_id=CHANNEL, moderator="<@601>", user_id=ADA)
    assert refused.value.key == "bot.error.end_own_game"
    assert (await service.games.reload(game.id)).status == "active"
    # A moderator who does not play ends it as before: no result for anyone.
    change = await service.moderation.end(channel_id=CHANNEL, moderator=MOD, user_id=999)
    assert change.game.status == "abandoned"
    assert await service.repo.results.of_kind(guild_id=GUILD, game="sector6") == []
    # In a lobby nothing is at stake: its moderator ends it.
    await service.lobby.new_lobby(
        channel_id=CHANNEL + 1, guild_id=GUILD, user_id=ADA, name="Ada", game_name="pylons"
    )
    change = await service.moderation.end(channel_id=CHANNEL + 1, moderator="<@601>", user_id=ADA)
    assert change.game.status == "abandoned"
