"""A person's own reminders on both databases (/me notify): where they go, how often, and no
reminder in their quiet hours, held to the moment those end on their own wall clock, across a
daylight saving change (Europe/Rome on 2026-03-29, America/New_York on 2026-11-01)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from moved_clock import MovedClock
from played_games import started_game

from data.texts import texts_for
from hvbot.services import BotError, GameService
from hvbot.services.notify import plan
from hvbot.store import GameRow, GameStore, NotifySettings

CHANNEL, GUILD = 900, 1
ADA, BO = 401, 402
PLAYERS = [(ADA, "Ada"), (BO, "Bo")]


def words(reminder) -> str:
    return f"<@{reminder.user_id}>, your turn"


def dm_words(reminder) -> str:
    return "your turn, privately"


async def reminded_game(service: GameService, minutes: int = 10) -> tuple[GameRow, int]:
    """Ada and Bo in a Pylons game that reminds after `minutes`; (game, the person to move)."""
    game = await started_game(
        service, channel_id=CHANNEL, guild_id=GUILD, players=PLAYERS, remind_minutes=minutes
    )
    seat = service.games.peek_state(game).current_seat()
    assert seat is not None and game.seats[seat].user_id is not None
    return game, game.seats[seat].user_id


@pytest.fixture
async def opened(database_url: str):
    stores: list[GameStore] = []

    async def open_service(clock: MovedClock) -> GameService:
        store = await GameStore.open(database_url)
        stores.append(store)
        return GameService(store, seed_source=random.Random(7), clock=clock)

    yield open_service
    for store in stores:
        await store.close()


async def sent(service: GameService) -> list[dict]:
    """The bodies of the reminders due now, as `Aftermath.remind` would send them."""
    due = await service.reminders.due_reminders(words, dm_words=dm_words)
    return [owed.body for reminder in due for owed in reminder.owed]


@pytest.mark.parametrize(
    ("zone", "start", "morning"),
    [
        # 23:00 in Rome, whose clocks go forward that night: 07:00 is 05:00 UTC, not 06:00.
        ("Europe/Rome", datetime(2026, 3, 28, 22, 0, tzinfo=UTC), (2026, 3, 29, 5, 0)),
        # 22:00 in New York, whose clocks go back: 07:00 is 12:00 UTC, not 11:00.
        ("America/New_York", datetime(2026, 11, 1, 2, 0, tzinfo=UTC), (2026, 11, 1, 12, 0)),
    ],
)
async def test_no_reminder_in_my_quiet_hours_across_a_clock_change(
    opened, zone: str, start: datetime, morning: tuple[int, ...]
) -> None:
    clock = MovedClock(start)
    service = await opened(clock)
    game, mover = await reminded_game(service)
    settings = await service.notify.change(
        mover, where="both", quiet_from="22:00", quiet_to="07:00", zone=zone.lower()
    )
    assert settings == NotifySettings("both", None, f"{zone} 22:00-07:00")

    clock.advance(minutes=10)  # due, and quiet
    assert await sent(service) == []
    row = await service.repo.db.fetchrow("SELECT remind_at FROM games WHERE id = ?", game.id)
    assert row is not None
    assert datetime.fromisoformat(row["remind_at"]) == datetime(*morning, tzinfo=UTC)

    clock.now = datetime(*morning, tzinfo=UTC) - timedelta(seconds=1)
    assert await sent(service) == [], "still quiet a second before"
    clock.advance(seconds=1)
    assert await sent(service) == [
        {"content": f"<@{mover}>, your turn"},
        {"content": "your turn, privately", "user": mover},
    ]


async def test_where_and_how_often_are_mine(opened) -> None:
    clock = MovedClock()
    service = await opened(clock)
    _, mover = await reminded_game(service)
    await service.notify.change(mover, where="dm", every=180)
    clock.advance(minutes=10)  # the game's first reminder: too soon for every 3 hours
    assert await sent(service) == []
    clock.advance(hours=2, minutes=50)
    assert await sent(service) == [{"content": "your turn, privately", "user": mover}]
    clock.advance(hours=2, minutes=59)
    assert await sent(service) == []
    clock.advance(minutes=1)
    assert len(await sent(service)) == 1

    await service.notify.change(mover, where="none")
    clock.advance(hours=3)
    assert await sent(service) == []
    clock.advance(days=1)
    assert await sent(service) == [], "no more reminders for this turn"


async def test_bad_settings_say_what_is_legal_and_change_nothing(opened) -> None:
    service = await opened(MovedClock())
    before = await service.notify.change(ADA, where="dm")
    cases = [
        ({"zone": "Mars/Olympus"}, "bot.error.notify_zone"),
        ({"quiet_from": "25:00", "quiet_to": "07:00", "zone": "UTC"}, "bot.error.notify_time"),
        ({"quiet_from": "22:00"}, "bot.error.notify_quiet_incomplete"),
        ({"quiet_from": "7", "quiet_to": "07:00", "zone": "UTC"}, "bot.error.notify_quiet_empty"),
        ({"every": 7}, "bot.error.notify_every"),
        ({"where": "pigeon"}, "bot.error.notify_where"),
    ]
    for options, key in cases:
        with pytest.raises(BotError) as refused:
            await service.notify.change(ADA, **options)
        assert refused.value.key == key, options
        assert await service.notify.of(ADA) == before
    # Quiet hours set in parts: the zone first given is kept when only the times change.
    await service.notify.change(ADA, quiet_from="23:30", quiet_to="6:15", zone="Asia/Tokyo")
    changed = await service.notify.change(ADA, quiet_to="08:00")
    assert changed.quiet == "Asia/Tokyo 23:30-08:00" and changed.where == "dm"
    assert (await service.notify.change(ADA, quiet_off=True)).quiet is None


async def test_bad_settings_are_refused_in_the_readers_words(opened) -> None:
    """A refusal offers the places as the reader's menu names them, and says how to type a
    time in the reader's language: not the code's values ("dm") nor English words."""
    service = await opened(MovedClock())
    with pytest.raises(BotError) as nowhere:
        await service.notify.change(ADA, where="pigeon")
    with pytest.raises(BotError) as no_time:
        await service.notify.change(ADA, quiet_from="25:00", quiet_to="07:00", zone="UTC")
    en, it = texts_for("en"), texts_for("it")
    assert en.explain(nowhere.value) == (
        "Reminders go to one of: in the game's channel, by direct message,"
        " both (channel and direct message), nowhere."
    )
    assert it.explain(nowhere.value) == (
        "I promemoria vanno a uno tra: nel canale della partita, in messaggio diretto,"
        " entrambi (canale e messaggio diretto), da nessuna parte."
    )
    assert en.explain(no_time.value) == (
        "'25:00' is not a time of day: use HH:MM, from 00:00 to 23:59."
    )
    assert str(no_time.value) == en.explain(no_time.value)
    forms = {"it": "da 00:00 a 23:59", "fr": "de 00:00 à 23:59", "de": "00:00 bis 23:59"}
    for language, form in forms.items():
        said = texts_for(language).explain(no_time.value)
        assert said.endswith(f"HH:MM, {form}."), said


def test_the_plan_for_a_reminder_that_falls_due() -> None:
    now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
    assert plan(NotifySettings(), now=now, turn_since=now).next_at == now + timedelta(hours=1)
    assert plan(NotifySettings(where="none"), now=now, turn_since=now).next_at is None
    mine = plan(NotifySettings(every_minutes=30), now=now, turn_since=now - timedelta(hours=2))
    assert mine.send and mine.next_at == now + timedelta(minutes=30)
    # A stored value that can no longer be read (a zone renamed) stops no reminder.
    broken = plan(NotifySettings(quiet="Nowhere/Gone 00:00-23:59"), now=now, turn_since=now)
    assert broken.send
