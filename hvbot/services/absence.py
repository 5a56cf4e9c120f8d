"""A person to move who is away: the others' vote to let an AI play for them or to end the
game, and the person's return to their seat."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

from data.texts import Option, texts_for
from hvbot.services.access import GameAccess
from hvbot.services.errors import BotError
from hvbot.services.outcomes import Change, VoteOutcome
from hvbot.services.seat_names import named
from hvbot.services.time_away import mark
from hvbot.store import AbsenceVote, GameRow, SeatRow, changes
from hvbot.store.duties import Owed
from hvbot.store.sql import stamp

log = logging.getLogger(__name__)

CHOICES = ("ai", "end")


def _hours(span: timedelta) -> str:
    hours = span.total_seconds() / 3600
    return f"{hours:.0f} hour{'s' if round(hours) != 1 else ''}" if hours >= 1 else "under an hour"


class Absence:
    """Votes about an absent person (one open vote per game, for one version) and returns."""

    def __init__(self, games: GameAccess) -> None:
        self.games = games

    async def request_takeover(self, *, channel_id: int, user_id: int) -> VoteOutcome:
        """Open the others' vote on a person to move who has been away past the game's limit."""
        games, store = self.games, self.games.store
        game = await games.in_play(channel_id, None, user_id)
        async with store.lock(game.id):
            game = await games.reload(game.id)
            if game.seat_of(user_id) is None:
                raise BotError(
                    "Only the players of this game can ask for a vote.",
                    key="bot.error.vote_players_only",
                )
            seat = games.peek_state(game).current_seat()
            if seat is None or game.seats[seat].is_ai:
                raise BotError(
                    "Nobody is being waited for: an AI is to move.", key="bot.error.ai_to_move"
                )
            absent = game.seats[seat]
            if absent.user_id == user_id:
                raise BotError(
                    "It is your own turn: play, or /game resign to leave the game.",
                    key="bot.error.own_turn",
                )
            away = absent.away_at(stamp(games.clock()))
            if away is not None:
                raise BotError(
                    f"{absent.display_name} is away until {away}: their clock and reminders "
                    "stand still until then.",
                    key="bot.error.away_no_vote",
                    player=named(absent),
                    until=mark(datetime.fromisoformat(away)),
                )
            if game.absent_hours is None:
                raise BotError(
                    "This game was opened without absence votes (absent:0).",
                    key="bot.error.no_absence_votes",
                    option=Option("game new absent"),
                )
            since = await store.reminders.turn_since(game_id=game.id)
            waited = games.clock() - since if since else timedelta(0)
            limit = timedelta(hours=game.absent_hours)
            if waited < limit:
                raise BotError(
                    f"{absent.display_name} has been waited for {_hours(waited)}; this game "
                    f"allows {_hours(limit)} before a vote. Try again after that.",
                    key="bot.error.too_early",
                    player=named(absent),
                    waited=waited,
                    limit=limit,
                )
            await games.ask_the_table(game, user_id)
            vote = await store.votes.open(
                game_id=game.id,
                version=game.version,
                seat=seat,
                asked=game.people_but(absent.user_id),
            )
            # The clock of the person away stands still while the others decide.
            await store.clocks.pause(game_id=game.id, version=game.version, now=games.clock())
            return VoteOutcome(vote=vote, game=game, status="open")

    async def cast_vote(
        self, *, vote_id: int, user_id: int, choice: str, escape: Callable[[str], str] = str
    ) -> VoteOutcome:
        """Count a vote; a choice wins once more than half of those asked made it, or, when
        everyone has voted without that, the gentler one (an AI plays: the game goes on and
        the person can come back). The channel's post names the person away through `escape`
        (how a message shows a name a person chose, as `seat_names.said`)."""
        if choice not in CHOICES:
            raise ValueError(choice)
        store = self.games.store
        async with self.games.open_request(
            lambda: store.votes.get(vote_id=vote_id),
            gone=BotError("That vote no longer exists.", key="bot.error.vote_gone"),
            settled=BotError("That vote has been decided already.", key="bot.error.vote_decided"),
        ) as (vote, game):
            if user_id not in vote.asked:
                raise BotError(
                    "Only the other players of this game vote.", key="bot.error.others_vote"
                )
            if game.version != vote.version or game.status != "active":
                await store.votes.record(vote_id=vote.id, votes=vote.votes, status="void")
                raise BotError(
                    "Too late: the game has moved on since (they may be back).",
                    key="bot.error.vote_late",
                )
            votes = {**vote.votes, user_id: choice}
            counts = {c: sum(1 for v in votes.values() if v == c) for c in CHOICES}
            decided = next((c for c, n in counts.items() if 2 * n > len(vote.asked)), None)
            if decided is None and len(votes) == len(vote.asked):
                decided = "ai"
            vote = replace(vote, votes=votes, status=decided or "open")
            owed: tuple[Owed, ...] = ()
            if decided == "ai":
                game, owed = await self._stand_in(game, vote, escape)
            elif decided == "end":
                told = texts_for(game.language)("bot.vote.end")
                at = store.clock()
                ended = changes.set_status(game.id, game.version, "abandoned", at=at, told=told)
                owed = tuple(await store.write(ended))
                game = await self.games.reload(game.id)
            await store.votes.record(vote_id=vote.id, votes=votes, status=vote.status)
            return VoteOutcome(vote=vote, game=game, status=vote.status, owed=owed)

    async def return_seat(
        self, *, channel_id: int, user_id: int, name: str, language: str | None = None
    ) -> Change:
        """A person an AI stood in for takes their seat back."""
        games = self.games
        game = await games.in_play(channel_id, None, user_id)
        async with games.store.lock(game.id):
            game = await games.reload(game.id)
            seats = list(game.seats)
            seat = next((s for s in seats if s.away_user_id == user_id), None)
            if seat is None:
                raise BotError(
                    "No AI is playing a seat of yours in this game.", key="bot.error.not_away"
                )
            seats[seat.seat] = SeatRow(
                seat.seat, user_id, None, name, language=language or seat.language
            )
            returned, owed = await games.seat_in_play(game, seats)
            return Change(game=returned, owed=owed)

    async def _stand_in(
        self, game: GameRow, vote: AbsenceVote, escape: Callable[[str], str]
    ) -> tuple[GameRow, tuple[Owed, ...]]:
        """An AI plays the seat of the person away; the channel is told so, in the same
        change (the person's name in it through `escape`; the seat's stored name as it is)."""
        texts = texts_for(game.language)
        person = game.seats[vote.seat].display_name
        name = texts("bot.seat.away", player=person)
        told = texts("bot.vote.ai", player=texts("bot.seat.away", player=escape(person)))
        stood_in = await self.games.stand_in(game, vote.seat, name=name, told=told)
        log.info("game %s: an AI plays seat %s while its player is away", game.id, vote.seat)
        return stood_in
