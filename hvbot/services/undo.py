"""Taking back a game's last move, once every other person at the table accepts."""

from __future__ import annotations

import logging
from dataclasses import replace

from games import find_game
from hvbot.services.abandon import Abandon
from hvbot.services.access import GameAccess, ai_turn, prompt_for
from hvbot.services.errors import BotError
from hvbot.services.outcomes import UndoOutcome
from hvbot.store import GameRow, UndoRequest, VersionConflict

log = logging.getLogger(__name__)


def _too_late(kind: str = "undo") -> BotError:
    if kind == "abandon":
        return BotError(
            "Too late: the game has moved on since; /game abandon asks again.",
            key="bot.error.abandon_late",
        )
    return BotError(
        "Too late: the game has moved on since, so that move stands.", key="bot.error.undo_late"
    )


class Undo:
    """/game undo and the answers to it, and to /game abandon's question: one open request
    per game, for one version."""

    def __init__(self, games: GameAccess) -> None:
        self.games = games
        self.abandon = Abandon(games)

    async def request_undo(self, *, channel_id: int, user_id: int) -> UndoOutcome:
        """Ask to take back the game's last action: only its player may, only while it is
        still the last one, and only if it showed nobody anything hidden. Every other person
        at the table must accept (with nobody else, it is taken back at once)."""
        games, store = self.games, self.games.store
        game = await games.in_play(channel_id, None, user_id)
        async with store.lock(game.id):
            game = await games.reload(game.id)
            last = await store.last_action(game_id=game.id)
            if last is None:
                raise BotError(
                    "Nothing has been played yet, so there is nothing to take back.",
                    key="bot.error.nothing_to_undo",
                )
            n, seat, text = last
            if game.seats[seat].user_id != user_id:
                raise BotError(
                    "Only the player who made the last move can ask to take it back, and only "
                    "until the next player acts.",
                    key="bot.error.undo_only_last",
                )
            if not find_game(game.game_name).parse_action(text).undoable:
                raise BotError(
                    f"Your last move ({text}) showed something hidden, so it cannot be taken "
                    "back: nobody can unsee it.",
                    key="bot.error.undo_hidden",
                    action=text,
                    game_name=game.game_name,
                )
            await games.ask_the_table(game, user_id)
            request = await store.undo.open(
                game_id=game.id,
                version=game.version,
                n=n,
                requester_id=user_id,
                action=text,
                asked=game.people_but(user_id),
            )
            if not request.asked:
                return await self._take_back(game, request)
            # Nobody's time runs out while the others decide.
            await store.clocks.pause(game_id=game.id, version=game.version, now=self.games.clock())
            return UndoOutcome(request, game, "asked")

    async def set_message(self, request: UndoRequest, message_id: int) -> None:
        """The public message that asks for the request, edited as it is answered."""
        await self.games.store.undo.set_message(request_id=request.id, message_id=message_id)

    async def answer_undo(self, *, request_id: int, user_id: int, accept: bool) -> UndoOutcome:
        store = self.games.store
        async with self.games.open_request(
            lambda: store.undo.get(request_id=request_id),
            gone=BotError("That request no longer exists.", key="bot.error.request_gone"),
            settled=BotError(
                "That request has been settled already.", key="bot.error.request_settled"
            ),
        ) as (request, game):
            if user_id not in request.asked:
                raise BotError(
                    "Only the other players at the table answer this request.",
                    key="bot.error.others_answer",
                )
            if game.version != request.version or game.status != "active":
                await store.undo.answer(
                    request_id=request.id, accepted=request.accepted, status="void"
                )
                raise _too_late(request.kind)
            if request.kind == "abandon":
                return await self.abandon.answered(game, request, user_id, accept)
            if not accept:
                await store.undo.answer(
                    request_id=request.id, accepted=request.accepted, status="refused"
                )
                await store.clocks.resume(
                    game_id=game.id, version=game.version, now=self.games.clock()
                )
                return UndoOutcome(replace(request, status="refused"), game, "refused")
            accepted = tuple(sorted({*request.accepted, user_id}))
            request = replace(request, accepted=accepted)
            if request.waiting_for:
                await store.undo.answer(request_id=request.id, accepted=accepted)
                return UndoOutcome(request, game, "waiting")
            return await self._take_back(game, request)

    async def _take_back(self, game: GameRow, request: UndoRequest) -> UndoOutcome:
        """Rebuild the game from its deal without the action (the engine is deterministic) and
        save that as a new version, so every prompt and button of the old one is stale."""
        games, store = self.games, self.games.store
        if game.seed is None:
            raise BotError(
                "The game has not started yet: the creator can press Start.",
                key="bot.error.not_started",
            )
        texts = [text for _, text in await store.actions(game_id=game.id)][: request.n]
        state = find_game(game.game_name).replay(len(game.seats), game.seed, texts, game.options)
        told = {"player": request.requester_id, "action": request.action}
        try:
            _, owed = await store.take_back(
                game_id=game.id,
                expected_version=game.version,
                n=request.n,
                state=state.copy(),  # kept for the next move; the outcome's stays its own
                request_id=request.id,
                accepted=request.accepted,
                prompt=prompt_for(game, state),
                wait=games.wait_for(game, state),
                ai_turn=ai_turn(game, state),
                told=told,
            )
        except VersionConflict as exc:
            raise _too_late() from exc
        log.info("game %s: action %s taken back", game.id, request.n)
        done = replace(request, status="done")
        return UndoOutcome(done, await games.reload(game.id), "done", state, tuple(owed))
