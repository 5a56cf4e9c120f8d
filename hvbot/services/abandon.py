"""Ending a game without a result (`/game abandon`), so that no result is lost unfairly.

Before the first move, or with nobody else at the table, the creator (or a member who manages
the channel) ends it at once: nothing is lost. Once it is under way the others' results are at
stake, so the creator asks them, as for taking back a move: if everyone agrees it ends without
a result; if anyone refuses it goes on without the creator, whose leaving counts as resigning
(an AI plays their seat, a loss for them). A member who manages the channel without playing
in the game ends it at once: that is moderation, not a player leaving.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from data.texts import texts_for
from hvbot.services.access import GameAccess
from hvbot.services.errors import BotError
from hvbot.services.outcomes import Change, UndoOutcome
from hvbot.store import GameRow, UndoRequest, changes

log = logging.getLogger(__name__)


class Abandon:
    """/game abandon, and the others' answers to it (see `Undo.answer_undo`)."""

    def __init__(self, games: GameAccess) -> None:
        self.games = games

    async def abandon(self, *, channel_id: int, user_id: int, can_manage: bool) -> Change:
        """End the channel's game, or ask the others first: the change that ended it (`what`
        "abandoned"), or the request that asks them (an `UndoOutcome`, "asked")."""
        games, store = self.games, self.games.store
        game = await games.open_game(channel_id, user_id)
        async with store.lock(game.id):
            game = await games.reload(game.id)
            _may_abandon(game, user_id, can_manage)
            seated = game.seat_of(user_id) is not None
            others = game.people_but(user_id) if game.status == "active" and seated else []
            last = await store.last_action(game_id=game.id) if others else None
            if last is None:
                owed = await store.write(
                    changes.set_status(game.id, game.version, "abandoned", at=store.clock())
                )
                return Change(game=await games.reload(game.id), owed=tuple(owed), what="abandoned")
            await games.ask_the_table(game, user_id)
            request = await store.undo.open(
                game_id=game.id,
                version=game.version,
                n=last[0],
                requester_id=user_id,
                action="",
                asked=others,
                kind="abandon",
            )
            # Nobody's time runs out while the others decide.
            await store.clocks.pause(game_id=game.id, version=game.version, now=games.clock())
            return UndoOutcome(request=request, game=game, status="asked")

    async def may_abandon(self, *, channel_id: int, user_id: int, can_manage: bool) -> None:
        """Refuse now, before asking whether they are sure, a person who could not abandon
        the channel's game."""
        _may_abandon(await self.games.open_game(channel_id, user_id), user_id, can_manage)

    async def answered(
        self, game: GameRow, request: UndoRequest, user_id: int, accept: bool
    ) -> UndoOutcome:
        """`user_id`'s answer to a request to abandon (the request open, for this version of
        the game, under its lock): "waiting" for others, "refused" (the creator resigned) or
        "done" (abandoned)."""
        store = self.games.store
        if not accept:
            await store.undo.answer(
                request_id=request.id, accepted=request.accepted, status="refused"
            )
            await store.clocks.resume(game_id=game.id, version=game.version, now=self.games.clock())
            game = await self.games.reload(game.id)
            seat = game.seat_of(request.requester_id)
            if seat is None:  # they left their seat meanwhile: nothing more to do
                return UndoOutcome(
                    request=replace(request, status="refused"), game=game, status="refused"
                )
            game, _, owed = await self.games.resign(game, seat)
            log.info("game %s: abandon refused, seat %s resigned", game.id, seat)
            return UndoOutcome(
                request=replace(request, status="refused"), game=game, status="refused", owed=owed
            )
        accepted = tuple(sorted({*request.accepted, user_id}))
        request = replace(request, accepted=accepted)
        if request.waiting_for:
            await store.undo.answer(request_id=request.id, accepted=accepted)
            return UndoOutcome(request=request, game=game, status="waiting")
        told = texts_for(game.language)("bot.abandon.agreed")
        ended = changes.set_status(game.id, game.version, "abandoned", at=store.clock(), told=told)
        owed = tuple(await store.write(ended))
        await store.undo.answer(request_id=request.id, accepted=accepted, status="done")
        log.info("game %s: abandoned with everyone's consent", game.id)
        done = replace(request, status="done")
        return UndoOutcome(
            request=done, game=await self.games.saved(game.id), status="done", owed=owed
        )


def _may_abandon(game: GameRow, user_id: int, can_manage: bool) -> None:
    if user_id != game.creator_id and not can_manage:
        raise BotError(
            "Only the game's creator or a member with Manage Channels can abandon it.",
            key="bot.error.only_creator_abandons",
        )
