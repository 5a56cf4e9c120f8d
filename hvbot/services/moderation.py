"""What a server's moderators may do to any game in it: end it, and take a seat from someone.

A moderator's end is not a result: nobody wins or loses, and no rating moves, whatever the
board said. A seat taken in a lobby is freed; in a game under way an AI plays it to the end
for nobody (the person removed neither loses nor may come back to it), so the others can
finish. Whether someone is a moderator is Discord's to say (see `hvbot.handlers.lobby`).
"""

from __future__ import annotations

import logging
from dataclasses import replace

from data.texts import texts_for
from hvbot.services.access import GameAccess, stand_in_level
from hvbot.services.errors import BotError
from hvbot.services.outcomes import Change
from hvbot.store import GameRow, SeatRow, changes

log = logging.getLogger(__name__)


class Moderation:
    """/game end and /game kick."""

    def __init__(self, games: GameAccess) -> None:
        self.games = games

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
        them)."""
        games = self.games
        game = await games.open_game(channel_id, user_id, game_id)
        async with games.store.lock(game.id):
            return await self._ended(await games.reload(game.id), moderator)

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
        result): the change, what happened ("freed", "ai" or "ended")."""
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
