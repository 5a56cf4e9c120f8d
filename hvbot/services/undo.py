"""Taking back a person's last move, once every other person at the table accepts.

A person's move is their last actions in a row (a drawn card and where it went, a move and
the lines declared after it), and what the AI seats played after it goes with it: an AI never
refuses, and never stands between the people and their agreement. Alone with AI seats, a person
takes back as from a chess program: at once, and even a move that showed the others something
of theirs (a declared line's hint at their colour), since no other person saw it; the AI seats
then play on from there when it is their turn.

What showed the person themselves something hidden (a card drawn) stays, alone too: taken back,
it would let them draw elsewhere knowing the card, and choose among the cards to come, in a
game that counts for /stats and the server's best scores as any other. Refusing is the fair
choice over keeping the take-back and leaving the game out of the records: a result against AI
seats is then always one everyone else could have played for, the rule is the table's own
("nobody can unsee it"), and a person learns it when they ask, from a refusal that says what
they may still take back, rather than finding a game they won missing from /stats.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.registry import find_game
from hvbot.services.abandon import Abandon
from hvbot.services.access import GameAccess, ai_turn, prompt_for
from hvbot.services.errors import BotError
from hvbot.services.outcomes import UndoOutcome
from hvbot.store import GameRow, UndoRequest, VersionConflict, changes

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


@dataclass(frozen=True)
class OwnMove:
    """What one undo takes back of the stored actions: from number `first` to the latest,
    the person's own last move (its last action `action`, named to the table) and the
    `ai_after` actions the AI seats played after it."""

    first: int
    action: str
    ai_after: int


def own_move(
    game: GameRow, actions: Sequence[tuple[int, str]], user_id: int, *, alone: bool
) -> OwnMove:
    """The person's last move and the AI seats' actions after it, as one undo takes them back
    (`actions`: the stored (seat, text) of the game, numbered from 0). Refused if another
    person has acted since, and if their move showed something hidden: to anyone (the others
    could not unsee it), or, when the person is `alone` with AI seats, to the person."""
    if game.seat_of(user_id) is None:
        raise BotError(
            "You are not playing in this game, so you have no move here to take back; only "
            "its players can ask, each for their own last move.",
            key="bot.error.undo_by.not_playing",
        )
    if not actions:
        raise BotError(
            "Nothing has been played yet, so there is nothing to take back.",
            key="bot.error.nothing_to_undo",
        )
    seat = game.seat_of(user_id)
    end = len(actions)
    while end > 0 and actions[end - 1][0] != seat and game.seats[actions[end - 1][0]].is_ai:
        end -= 1
    if seat is None or end == 0 or actions[end - 1][0] != seat:
        raise BotError(
            "Only the player who made the last move can ask to take it back, and only "
            "until the next player acts.",
            key="bot.error.undo_only_last",
        )
    rules = find_game(game.game_name)

    def undoable(text: str) -> bool:
        action = rules.parse_action(text)
        return not action.shows_its_player if alone else action.undoable

    last = actions[end - 1][1]
    if alone and not undoable(last):
        raise BotError(
            f"Your last move ({last}) showed you something hidden, so it cannot be taken"
            " back, even against AI players: you could then choose knowing what is to come,"
            " and this game counts for /stats. Play on from here; a move that shows nothing"
            " is still taken back at once.",
            key="bot.error.undo_hidden_alone",
            action=last,
            game_name=game.game_name,
        )
    if not undoable(last):
        raise BotError(
            f"Your last move ({last}) showed something hidden, so it cannot be taken "
            "back: nobody can unsee it.",
            key="bot.error.undo_hidden",
            action=last,
            game_name=game.game_name,
        )
    first = end - 1
    while first > 0 and actions[first - 1][0] == seat and undoable(actions[first - 1][1]):
        first -= 1
    return OwnMove(first, last, len(actions) - end)


def alone_with_ai(game: GameRow, user_id: int) -> bool:
    """Whether every other seat is an AI's for good: a person away, for whom an AI plays
    until they return, still counts as someone who could not unsee what a move showed."""
    return all(seat.user_id in (None, user_id) and seat.away_user_id is None for seat in game.seats)


class Undo:
    """/game undo and the answers to it, and to /game abandon's question: one open request
    per game at a time."""

    def __init__(self, games: GameAccess) -> None:
        self.games = games
        self.abandon = Abandon(games)

    async def request_undo(self, *, channel_id: int, user_id: int) -> UndoOutcome:
        """Ask to take back the person's last move and the AI seats' actions after it: only
        while no other person has acted since, and only if it showed nobody anything hidden.
        Every other person at the table must accept; with nobody else, it is taken back at
        once."""
        games, store = self.games, self.games.store
        game = await games.in_play(channel_id, None, user_id)
        async with store.lock(game.id):
            game = await games.reload(game.id)
            others = game.people_but(user_id)
            actions = await store.actions(game_id=game.id)
            move = own_move(game, actions, user_id, alone=alone_with_ai(game, user_id))
            if others:
                # Alone with AI seats, nobody is asked anything: nobody to flood.
                await games.ask_the_table(game, user_id)
            request = await store.undo.open(
                game_id=game.id,
                version=game.version,
                n=move.first,
                requester_id=user_id,
                action=move.action,
                asked=others,
            )
            if not request.asked:
                return await self._take_back(game, request, actions)
            # Nobody's time runs out while the others decide.
            await store.clocks.pause(game_id=game.id, version=game.version, now=self.games.clock())
            return UndoOutcome(request=request, game=game, status="asked")

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
            actions = await store.actions(game_id=game.id)
            if not await self._still_asked(game, request, actions):
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
                return UndoOutcome(
                    request=replace(request, status="refused"), game=game, status="refused"
                )
            accepted = tuple(sorted({*request.accepted, user_id}))
            request = replace(request, accepted=accepted)
            if request.waiting_for:
                await store.undo.answer(request_id=request.id, accepted=accepted)
                return UndoOutcome(request=request, game=game, status="waiting")
            return await self._take_back(game, request, actions)

    async def _still_asked(
        self, game: GameRow, request: UndoRequest, actions: Sequence[tuple[int, str]]
    ) -> bool:
        """Whether the request still stands: the game is on and, for an undo, only AI seats
        have acted since it was asked (they never hold it up), the same people at the table;
        a request to abandon stands for the version it was asked for."""
        if game.status != "active":
            return False
        if game.version == request.version:
            return True
        if request.kind != "undo" or set(game.people_but(request.requester_id)) != set(
            request.asked
        ):
            return False
        try:
            move = own_move(game, actions, request.requester_id, alone=False)
        except BotError:
            return False
        return move.first == request.n and move.action == request.action

    async def _take_back(
        self, game: GameRow, request: UndoRequest, actions: Sequence[tuple[int, str]]
    ) -> UndoOutcome:
        """Rebuild the game from its deal without the actions from `request.n` on (the engine
        is deterministic) and save that as a new version, so every prompt and button of the
        old one is stale; if an AI seat is then to move, it is stored with the change, so an
        AI plays on from there however the bot is stopped."""
        games, store = self.games, self.games.store
        if game.seed is None:
            raise BotError(
                "The game has not started yet: the creator can press Start.",
                key="bot.error.not_started",
            )
        texts = [text for _, text in actions][: request.n]
        state = find_game(game.game_name).replay(len(game.seats), game.seed, texts, game.options)
        ai_after = sum(1 for seat, _ in actions[request.n :] if game.seats[seat].is_ai)
        told = {"player": request.requester_id, "action": request.action, "ai": ai_after}
        try:
            taken_back = changes.take_back(
                game.id,
                game.version,
                n=request.n,
                taken=len(actions) - request.n,
                state=state.copy(),  # kept for the next move; the outcome's stays its own
                request_id=request.id,
                at=store.clock(),
                accepted=request.accepted,
                prompt=prompt_for(game, state),
                wait=games.wait_for(game, state),
                ai_turn=ai_turn(game, state),
                told=told,
            )
            owed = await store.write(taken_back)
        except VersionConflict as exc:
            raise _too_late() from exc
        log.info("game %s: actions from %s on taken back", game.id, request.n)
        done = replace(request, status="done")
        return UndoOutcome(
            request=done,
            game=await games.saved(game.id),
            status="done",
            state=state,
            owed=tuple(owed),
        )
