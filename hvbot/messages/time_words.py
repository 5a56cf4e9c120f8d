"""How the bot speaks of time: how long someone has waited (the turn reminders), and what the
turn clocks say (the warning to the person to move, the channel told their time ran out, the
clock on the board and in /game status).

A deadline is written as Discord's own time stamp (`<t:…:R>`): every reader's client shows
it in their own words and time zone, counting down, however long after it was posted.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from data.texts import ENGLISH, Texts, texts_for
from engine.registry import find_game
from hvbot.messages.wording import mention
from hvbot.services.outcomes import Reminder
from hvbot.services.time_away import mark
from hvbot.store import GameRow, SeatRow, TurnClock
from hvbot.store.sql import stamp


def waited_words(waited: timedelta, texts: Texts = ENGLISH) -> str:
    minutes = max(1, round(waited.total_seconds() / 60))
    if minutes < 120:
        return texts("bot.time.minutes", count=minutes)
    hours = round(minutes / 60)
    if hours < 48:
        return texts("bot.time.hours", count=hours)
    return texts("bot.time.days", count=round(hours / 24))


def reminder_text(reminder: Reminder) -> str:
    """A public post: in the game's language."""
    texts = texts_for(reminder.game.language)
    return texts(
        "bot.game.reminder",
        player=f"<@{reminder.user_id}>",
        game=find_game(reminder.game.game_name).title,
        waited=waited_words(reminder.waited, texts),
    )


def reminder_dm(reminder: Reminder) -> str:
    """A reminder by DM, in the person's own language as last seen: it says where to play."""
    game = reminder.game
    texts = texts_for(game.seats[reminder.seat].language or game.language)
    return texts(
        "bot.game.reminder_dm",
        game=find_game(game.game_name).title,
        where=f"<#{game.post_channel_id}>",
        waited=waited_words(reminder.waited, texts),
    )


def deadline_mark(game: GameRow) -> str | None:
    """The deadline of the person to move as a Discord time stamp that counts down (`in 42
    minutes`); None if no clock is running (none, or one standing still for a request)."""
    if game.clock_deadline is None or game.clock_paused_at is not None:
        return None
    return f"<t:{int(datetime.fromisoformat(game.clock_deadline).timestamp())}:R>"


def time_left(game: GameRow, now: datetime, texts: Texts) -> str | None:
    """The board picture's word on the clock of the person to move ("42 minutes left"): a
    picture cannot count down as Discord's time stamps do, so it says what was left when it
    was drawn. None if no clock runs."""
    if game.clock_deadline is None or game.clock_paused_at is not None:
        return None
    left = max(timedelta(0), datetime.fromisoformat(game.clock_deadline) - now)
    return texts("picture.clock_left", left=waited_words(left, texts))


def length_words(minutes: int, texts: Texts) -> str:
    """A clock's length as its choice at /game new names it ("1 hour", "3 days")."""
    if minutes % (24 * 60) == 0:
        return texts("bot.time.days", count=minutes // (24 * 60))
    if minutes % 60 == 0:
        return texts("bot.time.hours", count=minutes // 60)
    return texts("bot.time.minutes", count=minutes)


def warning(game: GameRow, seat: int, left: timedelta) -> str:
    """A DM, in the person's own language as last seen."""
    texts = texts_for(game.seats[seat].language or game.language)
    assert game.clock is not None
    return texts(
        "bot.clock.warning",
        left=waited_words(left, texts),
        game=find_game(game.game_name).title,
        where=f"<#{game.post_channel_id}>",
        then=texts(f"bot.clock.then_{game.clock.timeout}"),
    )


def ran_out(game: GameRow, seat: int) -> str:
    """A public post, in the game's language."""
    assert game.clock is not None
    return texts_for(game.language)(f"bot.clock.{game.clock.timeout}", player=mention(game, seat))


def stand_in_name(game: GameRow, seat: SeatRow) -> str:
    return texts_for(game.language)("bot.seat.out_of_time", player=seat.display_name)


def clock_terms(clock: TurnClock, texts: Texts) -> str:
    """The lobby's word on a game's clock: how long a move may take, and what happens then."""
    return texts(
        "bot.clock.terms",
        length=length_words(clock.minutes, texts),
        then=texts(f"bot.clock.then_{clock.timeout}_them"),
    )


def clock_line(game: GameRow, texts: Texts) -> str | None:
    """The board's and the status's word on the clock of the person to move (None: no
    clock, or none running)."""
    if game.clock is None or game.clock_deadline is None:
        return None
    length = length_words(game.clock.minutes, texts)
    when = deadline_mark(game)
    if when is None:
        return texts("bot.clock.paused", length=length)
    return texts("bot.clock.running", length=length, when=when)


def clock_left_line(game: GameRow, seat: int, now: datetime, texts: Texts) -> str | None:
    """The clock of the person to move (at `seat`) in words that need no Discord time stamp,
    for the text board: a code block shows `<t:…>` as it is typed, and a screen reader reads
    it so. How long a move may take, and what is left at `now`, or why it stands still (a
    request waits for answers, or the person is away). None: no clock."""
    if game.clock is None or game.clock_deadline is None:
        return None
    length = length_words(game.clock.minutes, texts)
    if game.clock_paused_at is not None:
        return texts("bot.clock.paused", length=length)
    player = game.seats[seat].display_name
    if game.seats[seat].away_at(stamp(now)) is not None:
        return texts("bot.text_board.clock.away", length=length, player=player)
    left = max(timedelta(0), datetime.fromisoformat(game.clock_deadline) - now)
    return texts(
        "bot.text_board.clock.running", length=length, player=player, left=waited_words(left, texts)
    )


def away_mark(seat: SeatRow, now: datetime, texts: Texts) -> str:
    """After a seat's name: that its person is away (/me away) at `now`, and until when."""
    until = seat.away_at(stamp(now))
    return texts("bot.away.mark", until=mark(datetime.fromisoformat(until))) if until else ""


def away_line(game: GameRow, seat: int, now: datetime, texts: Texts) -> str | None:
    """The board's and the status's word on a person to move who is away (/me away)."""
    until = game.seats[seat].away_at(stamp(now))
    if until is None:
        return None
    until_mark = mark(datetime.fromisoformat(until))
    return texts("bot.away.line", player=mention(game, seat, texts), until=until_mark)
