"""What a server's moderators may do to any game in it: end it, and take a seat from someone.

A moderator's end is not a result: nobody wins or loses, and no rating moves, whatever the
board said. A seat taken in a lobby is freed; in a game under way an AI plays it to the end
for nobody (the person removed neither loses nor may come back to it), so the others can
finish. A seat taken in a rematch still waiting for its people is that person's decline
(`Rematches.kicked`): the lobby becomes an ordinary one instead of waiting for an answer
that can no longer come. Whether someone is a moderator is Discord's to say (see
`hvbot.handlers.lobby`).

Both are refused to a moderator in a game under way that they play themselves (their own
seat, or any game they hold a seat in for /game end: played, stood in for by an AI while
they are away, or resigned): that would let them void a loss they see coming, which nobody
else at the table can do. They are refused rather than counted as a resignation: a kick or
an end is not what they asked for, /game resign asks them to confirm a loss first, and an
end counted as their forfeit would hand everyone else a win they did not play for. The
refusal names what is fair instead: /game resign (a loss for them; an AI plays on for the
others), and another moderator to end the game if it must stop.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from data.texts import texts_for
from hvbot.services.access import GameAccess, stand_in_level
from hvbot.services.errors import BotError
from hvbot.services.outcomes import Change
from hvbot.services.rematch import Rematches
from hvbot.store import GameRow, SeatRow, changes

log = logging.getLogger(__name__)


class Moderation:
    """/game end and /game kick."""

    def __init__(self, games: GameAccess, rematch: Rematches | None = None) -> None:
        self.games = games
        # A seat taken in a rematch that waits for its people settles their invitation.
        self.rematch = rematch

    async def end(
        self,
        *,
        channel_id: int,
        moderator: str,
        game_id: int | None = None,
        user_id: int | None = None,
    ) -> Change:
        """End the channel's game (or the one of its games picked), in its lobby or under
        way, without a result; the channel is told who ended it (`moderator`: how to name
        them; `user_id`: who they are, refused a game under way that they play)."""
        games = self.games
        game = await games.open_game(channel_id, user_id, game_id)
        async with games.store.lock(game.id):
            game = await games.reload(game.id)
            if game.status == "active" and user_id is not None and _plays(game, user_id):
                raise BotError(
                    "You play in this game, so ending it as a moderator would leave your own"
                    " result out: /game resign gives up your seat (the game counts as your"
                    " loss), and another moderator can end the game.",
                    key="bot.error.end_own_game",
                )
            return await self._ended(game, moderator)

    async def kick(
        self,
        *,
        channel_id: int,
        seat_number: int,
        moderator: str,
        game_id: int | None = None,
        user_id: int | None = None,
    ) -> Change:
        """Take seat `seat_number` (counted from 1) from whoever has it: freed in a lobby, an
        AI's for the rest of a game under way (with no person left, the game ends without a
        result): the change, what happened ("freed", "ai" or "ended"). `user_id`: the
        moderator, refused their own seat in a game under way."""
        games = self.games
        game = await games.open_game(channel_id, user_id, game_id)
        async with games.store.lock(game.id):
            game = await games.reload(game.id)
            if not 1 <= seat_number <= len(game.seats):
                raise BotError(
                    f"This game has seats 1 to {len(game.seats)}: pick one of the suggestions.",
                    key="bot.error.no_such_seat",
                    count=len(game.seats),
                )
            seat = game.seats[seat_number - 1]
            texts = texts_for(game.language)
            if game.status == "lobby":
                if seat.user_id is not None and seat.user_id == game.creator_id:
                    raise BotError(
                        "That is the seat of the game's creator: /game end ends the game instead.",
                        key="bot.error.kick_creator",
                    )
                if seat.user_id is not None and self.rematch is not None:
                    declined = await self.rematch.kicked(game, seat.user_id, moderator)
                    if declined is not None:  # a rematch waiting: settled as their decline
                        return replace(declined, what="freed")
                kept = [s for s in game.seats if s.seat != seat.seat]
                seats = [replace(s, seat=i) for i, s in enumerate(kept)]
                at = games.store.clock()
                freed = changes.set_seats(game.id, game.version, seats, at=at, in_lobby=True)
                owed = tuple(await games.store.write(freed))
                return Change(game=await games.saved(game.id), owed=owed, what="freed")
            if seat.is_ai:
                raise BotError(
                    "An AI plays that seat already; /game end ends the game if it must stop.",
                    key="bot.error.kick_ai_in_play",
                )
            if user_id is not None and seat.user_id == user_id:
                raise BotError(
                    "That is your own seat: taking it as a moderator would leave your result"
                    " out. /game resign gives it to an AI and counts the game as your loss.",
                    key="bot.error.kick_own_seat",
                )
            name = texts("bot.seat.removed", player=seat.display_name)
            seats = list(game.seats)
            seats[seat.seat] = SeatRow(seat.seat, None, stand_in_level(game.game_name), name)
            if all(s.is_ai for s in seats):
                return await self._ended(game, moderator)
            told = texts("bot.moderation.kicked", player=f"<@{seat.user_id}>", moderator=moderator)
            game, owed = await games.seat_in_play(game, seats, told=told)
            log.info("game %s: seat %s removed by a moderator", game.id, seat.seat)
            return Change(game=game, owed=owed, what="ai")

    async def _ended(self, game: GameRow, moderator: str) -> Change:
        """The game ends without a result, the channel told who ended it (under its lock)."""
        told = texts_for(game.language)("bot.moderation.ended", moderator=moderator)
        store = self.games.store
        ended = changes.set_status(game.id, game.version, "abandoned", at=store.clock(), told=told)
        owed = await store.write(ended)
        log.info("game %s: ended by a moderator", game.id)
        return Change(game=await self.games.saved(game.id), owed=tuple(owed), what="ended")


def _plays(game: GameRow, user_id: int) -> bool:
    """Whether the game's result is partly `user_id`'s: they sit at a seat, an AI stands in
    for them, or they resigned one (see how results are credited, `hvbot.store.results`)."""
    return any(user_id in (s.user_id, s.away_user_id, s.resigned_user_id) for s in game.seats)
