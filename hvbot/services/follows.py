"""Following a game one does not play (`/game follow`, the Follow button): a game played in a
thread has its follower joined to the thread (a follower of its lobby too, once it starts in
one: the start owes that); any other is told by DM, in digests that keep
to the follower's own settings (`/me notify`): none in their quiet hours, held until those
end and then sent once; with `every`, no more often than that. A follower learns only what the
channel saw: a digest is built from the public view (see `hvbot.aftermath.owed_posts`).

Who may follow: not a person at the table (they see it all already), not a game that is
over, and at most `MOST_FOLLOWED` open games a person. Where: the command is typed, or the
button clicked, in the game's channel or its thread, so the person can see the game already
(the cog checks too that Discord lets them view it); a follower is never shown a channel they
could not read.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from hvbot.services.access import GameAccess
from hvbot.services.errors import BotError
from hvbot.services.notify import quiet_hours
from hvbot.services.outcomes import Change
from hvbot.store import GameRow, NotifySettings
from hvbot.store.follows import DueDigest

log = logging.getLogger(__name__)

# Open games one person may follow at once: enough for a server's friends, few enough that a
# digest never becomes a flood, and a bound on the rows each person adds.
MOST_FOLLOWED = 10
# Digests claimed in one round of the periodic check; the next round finds the rest.
DIGEST_BATCH = 25


@dataclass(frozen=True)
class Following:
    """A follow as it stands after `/game follow`: the game, how its moves reach the
    follower (`by_dm`, else the game's thread), and whether it is new."""

    game: GameRow
    by_dm: bool
    new: bool

    @property
    def thread_later(self) -> bool:
        """Followed by DM from a lobby that asked for a thread: once the game starts in one,
        the follower is joined to it instead (see `Followers.to_thread`)."""
        return self.by_dm and self.game.status == "lobby" and self.game.wants_thread


def digest_wait(settings: NotifySettings, now: datetime) -> datetime | None:
    """When a digest due `now` may go: None at once, else the end of the follower's quiet
    hours (a stored value that no longer reads counts as none, as for reminders)."""
    quiet = quiet_hours(settings)
    if quiet is not None and quiet.contains(now):
        return quiet.next_allowed(now)
    return None


def next_digest(settings: NotifySettings, now: datetime) -> datetime | None:
    """After a digest at `now`, no other before: the follower's `every`, if they set one."""
    if settings.every_minutes:
        return now + timedelta(minutes=settings.every_minutes)
    return None


def seated(game: GameRow, user_id: int) -> bool:
    """Whether `user_id` is at the table: in a seat, or with an AI playing theirs meanwhile."""
    return game.seat_of(user_id) is not None or any(
        s.away_user_id == user_id or s.resigned_user_id == user_id for s in game.seats
    )


class Followers:
    """Following and unfollowing, and the digests due, claimed once across processes."""

    def __init__(self, games: GameAccess) -> None:
        self.games = games

    async def follow(
        self, *, game: GameRow, user_id: int, channel_id: int | None, language: str
    ) -> Following:
        """`user_id` follows `game`, asked in `channel_id`; refused with what would work."""
        if channel_id not in game.channels:
            raise BotError(
                "That is not one of this channel's games: pick one of the suggestions.",
                key="bot.error.not_a_game_here",
            )
        if not game.is_open:
            raise BotError(
                "That game is over: there is nothing more to follow. /game replay shows how"
                " it went.",
                key="bot.follow.over",
            )
        if seated(game, user_id):
            raise BotError(
                "You are at this game's table: you see all of it already.",
                key="bot.follow.playing",
            )
        by_dm = game.thread_id is None
        added = await self.games.store.follows.add(
            user_id=user_id,
            game_id=game.id,
            by_dm=by_dm,
            language=language,
            now=self.games.clock(),
            most=MOST_FOLLOWED,
        )
        if added is None:
            raise BotError(
                f"You follow {MOST_FOLLOWED} games already: /game unfollow one first"
                " (/me games lists them).",
                key="bot.follow.too_many",
                most=MOST_FOLLOWED,
            )
        if not added:
            found = await self.games.store.follows.of(user_id=user_id, game_id=game.id)
            by_dm = found.by_dm if found is not None else by_dm
        return Following(game, by_dm, bool(added))

    async def unfollow(self, *, game_id: int, user_id: int) -> Following:
        """`user_id` stops following the game; refused if they did not follow it."""
        gone = await self.games.store.follows.remove(user_id=user_id, game_id=game_id)
        game = await self.games.find(game_id)
        if gone is None or game is None:
            raise BotError(
                "You do not follow that game. /me games lists the games you follow.",
                key="bot.follow.not_following",
            )
        return Following(game, gone.by_dm, False)

    async def to_thread(self, game: GameRow, user_ids: list[int]) -> list[int]:
        """At the start of a game followed from its lobby (the start's `followers` duty):
        if it is played in a thread, its followers by DM `user_ids` follow it there from now
        on, and no digest comes by DM any more. Who of them is to be added to the thread
        (none when the game stayed in its channel: they keep their digests)."""
        if game.thread_id is None:
            return []
        return await self.games.store.follows.to_thread(game_id=game.id, user_ids=user_ids)

    async def followed(self, user_id: int) -> list[GameRow]:
        """The open games `user_id` follows, oldest follow first."""
        found = []
        for game_id in await self.games.store.follows.games_of(user_id):
            game = await self.games.find(game_id)
            if game is not None:
                found.append(game)
        return found

    async def due_digests(self, *, most: int = DIGEST_BATCH) -> list[Change]:
        """The digests due now, each claimed so no other process sends it too, its post owed
        in the outbox in the same transaction (a `digest`, whose body says which moves to
        tell, built when sent from what is stored, and which moves told before were taken
        back since). A digest that falls in its follower's quiet
        hours is held until they end, with nothing owed; a game over is told one last time
        and the follow goes; a follower who has since sat down at the table is told nothing
        more. Returns the changes that owe a post."""
        store, now = self.games.store, self.games.clock()
        found = []
        for due in await store.follows.due(now=now, most=most):
            follow = due.follow
            game = await store.game(game_id=follow.game_id, fresh=True)
            if game is None:
                continue
            if seated(game, follow.user_id):
                await store.follows.claim(due, now=now, next_at=None, body=None, last=True)
                continue
            settings = await store.notify.of(follow.user_id)
            until = digest_wait(settings, now)
            if until is not None:
                await store.follows.hold(due, until=until)
                continue
            over = not game.is_open
            body: dict[str, Any] | None = None
            news = due.moves > follow.seen_moves or bool(follow.taken_back)
            if news or (over and game.seed is not None):
                body = {
                    "user": follow.user_id,
                    "first": follow.seen_moves,
                    "count": max(0, due.moves - follow.seen_moves),
                    "language": follow.language,
                    "over": over,
                    "taken_back": list(follow.taken_back),
                }
            owed = await store.follows.claim(
                due,
                now=now,
                next_at=next_digest(settings, now) if body is not None else None,
                body=body,
                last=over,
            )
            if owed:
                log.info("game %s: a digest claimed for a follower (post %s)", game.id, owed[0].id)
                found.append(Change(game=game, owed=owed, what="digest"))
        return found


__all__ = ["DIGEST_BATCH", "MOST_FOLLOWED", "DueDigest", "Followers", "Following"]
