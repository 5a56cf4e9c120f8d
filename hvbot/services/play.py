"""Playing a started game: a person's action, an AI seat's, resigning."""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from engine import GameError, State
from engine.ai import choose as choose_action
from engine.ai import levels as ai_levels
from engine.errors import name_seats
from hvbot.infra import metrics, workers
from hvbot.services.access import (
    GameAccess,
    ai_turn,
    prompt_for,
    stand_in_goes_on,
    stand_in_level,
)
from hvbot.services.errors import BotError
from hvbot.services.outcomes import ActResult, Change
from hvbot.services.results import seat_results
from hvbot.services.seat_names import named
from hvbot.store import GameRow, VersionConflict, changes
from hvbot.store.duties import Owed

log = logging.getLogger(__name__)

MAX_AI_RETRIES = 5  # the game changed under a thinking AI this many times: give up for now

# Told a legal action before it is stored (see `Play.act`).
Acknowledge = Callable[[ActResult], Awaitable[None]]


class Play:
    """The moves of a game in play, each applied under the game's lock and stored with a
    compare-and-set on its version before it is returned."""

    def __init__(
        self,
        games: GameAccess,
        *,
        seed_source: random.Random | None = None,
        ai_budget_s: float = 1.0,
    ) -> None:
        self.games = games
        self.ai_budget_s = ai_budget_s
        # The name this process claims AI seats' thinking under (its aftermath's, which sets
        # it): a move that hands an AI seat its turn takes the claim in its own statement.
        self.ai_owner: str | None = None
        self._ai_rng = random.Random(seed_source.random() if seed_source else secrets.randbits(64))

    async def act(
        self,
        *,
        channel_id: int | None = None,
        game_id: int | None = None,
        user_id: int,
        action: str | Any,
        expected_version: int | None = None,
        acknowledge: Acknowledge | None = None,
        language: str | None = None,
    ) -> ActResult:
        """Apply one action of the player `user_id`, after checking it is their turn.

        `expected_version` comes from a button: a click on a prompt made for an older version
        of the game is refused rather than applied to a position the player did not see.
        `acknowledge` answers the person's interaction: it is called once the action is known
        to be legal and before it is saved (with the game as it was), since Discord wants an
        answer within seconds and a legal move can be acknowledged without waiting for the
        database. `language`: the player's now (their Discord client's), remembered for their
        seat if it changed.
        """
        games, store = self.games, self.games.store
        # Read again under the lock, checked against the stored version (a move of another
        # process), before it is acknowledged: a refusal or a database away is said
        # privately, and never after a public "thinking".
        game = await games.in_play(channel_id, game_id, user_id, fresh=False)
        async with store.lock(game.id):
            game = await games.reload(game.id)
            if expected_version is not None and game.version < expected_version:
                # A prompt from a version this process has not seen: another process moved
                # the game on, so the copy in memory is stale.
                store.forget(game.id)
                game = await games.reload(game.id)
            state, seat, pending = self._legal(game, user_id, action, expected_version)
            if acknowledge is not None:
                await acknowledge(pending)
            # The same position: a view built for the acknowledgement serves the announcement.
            saved, owed, claimed = await self._save(game, state, seat, pending.applied)
            result = replace(pending, game=saved, owed=owed, ai_claimed=claimed)
            if language is not None and game.seats[seat].language != language:
                await store.set_seat_language(game_id=game.id, seat=seat, language=language)
            return result

    def _legal(
        self, game: GameRow, user_id: int, action: str | Any, expected_version: int | None
    ) -> tuple[State, int, ActResult]:
        """The action applied to a copy of the game's state, or the BotError that says why it
        is refused: the state, the seat that acted, and the result to store."""
        if expected_version is not None and game.version != expected_version:
            raise BotError(
                "That prompt is out of date: the game has moved on since.",
                key="bot.error.stale_prompt",
            )
        state = self.games.load_state(game)
        seat = game.seat_of(user_id)
        if seat is None:
            raise BotError(
                "You are not playing in this game; you can watch it.", key="bot.error.watch"
            )
        current = state.current_seat()
        if current != seat:
            who = named(game.seats[current]) if current is not None else "nobody"
            raise BotError(
                f"It is not your turn: {who} is to move.",
                key="bot.error.not_your_turn",
                player=who,
            )
        done = len(state.history)
        try:
            state.apply(action)
        except GameError as exc:
            # The engine names seats by number; the people here know each other by name.
            names = [named(each) for each in game.seats]
            fields = {name: name_seats(value, names) for name, value in exc.fields.items()}
            raise BotError(str(exc), key=exc.key, **fields) from exc
        applied = tuple(state.history[done:])
        return (
            state,
            seat,
            ActResult(
                game=game, state=state, seat=seat, applied=applied, finished=state.is_terminal()
            ),
        )

    async def ai_step(self, *, game_id: int) -> ActResult | None:
        """Let the AI seat to move take one action; None when a person is to move.

        The AI thinks with the bot's long work (`workers.in_background`) from its own seat's
        view, outside the game's lock, so nobody waits for it; its answer is applied only if
        the game has not changed since.
        """
        games = self.games
        for _ in range(MAX_AI_RETRIES):
            # The AI thinks from the stored game: a copy another process's change overtook
            # might say a person is to move, and then no compare-and-set would ever find the
            # copy out. Fresh costs no read while the database's watch vouches for the copy.
            # A change made while the AI thinks is found by the move's compare-and-set.
            game = await games.find(game_id, fresh=True)
            if game is None:
                raise BotError("That game no longer exists.", key="bot.error.game_gone")
            if game.status != "active":
                return None
            state = games.load_state(game)
            seat = state.current_seat()
            if seat is None:
                return None
            if seat == game.stand_in_seat:
                level = stand_in_level(game.game_name)  # the person's clock ran out
            elif game.seats[seat].is_ai:
                level = game.seats[seat].ai_level or "random"
            else:
                return None
            if level not in ai_levels(game.game_name):
                level = ai_levels(game.game_name)[0]
            # Only the seat's own view goes to the worker: what this AI seat may know.
            text = await metrics.timed(
                metrics.AI_DECISION.labels(game.game_name, level),
                workers.in_background(
                    choose_action,
                    state.view(seat),
                    level=level,
                    seed=self._ai_rng.getrandbits(63),
                    budget_s=self.ai_budget_s,
                ),
            )
            async with games.store.lock(game_id):
                now = await games.find(game_id)
                if now is not None and now.version == game.version:
                    done = len(state.history)
                    state.apply(text)
                    applied = tuple(state.history[done:])
                    try:
                        saved, owed, claimed = await self._save(
                            now, state, seat, applied, conflict=False
                        )
                    except VersionConflict:
                        pass  # changed by another process: its copy in memory is dropped
                    else:
                        return ActResult(
                            game=saved,
                            state=state,
                            seat=seat,
                            applied=applied,
                            finished=state.is_terminal(),
                            owed=owed,
                            ai_claimed=claimed,
                        )
            # The game changed while the AI was thinking (a resignation, say): think again.
        return None

    async def resign(self, *, channel_id: int, user_id: int) -> Change:
        """A resigning player's seat is handed to an AI so the others can finish the game, and
        the game counts for them as a loss when it ends: the change, "resigned" (or "ended" if
        no other person is left: the game ends there, their loss)."""
        games = self.games
        game = await games.open_game(channel_id, user_id)
        async with games.store.lock(game.id):
            game = await games.reload(game.id)
            game, what, owed = await games.resign(game, _resigning_seat(game, user_id))
            return Change(game=game, owed=owed, what=what)

    async def may_resign(self, *, channel_id: int, user_id: int) -> None:
        """Refuse now, before asking whether they are sure, a person who could not resign."""
        _resigning_seat(await self.games.open_game(channel_id, user_id), user_id)

    async def _save(
        self,
        game: GameRow,
        state: State,
        seat: int,
        applied: tuple[str, ...],
        *,
        conflict: bool = True,
    ) -> tuple[GameRow, tuple[Owed, ...], bool]:
        """Store the actions `applied` to `state` (kept in memory with the game from now on,
        so it is never to change again); the game as stored then, the posts it owes, and
        whether it claimed the thinking of the AI seat it handed the turn to, for this process
        (`ai_owner`, see `AiClaim`).
        A VersionConflict is the BotError that tells the person so, or with `conflict` False
        is raised as it is, for the caller to try again from the stored game."""
        finished = state.is_terminal()
        stand_in = stand_in_goes_on(game, state, seat)
        to_ai = ai_turn(game, state, stand_in_seat=stand_in)
        owner = self.ai_owner
        claim = self.games.store.duties.ai_claim(owner) if to_ai and owner is not None else None
        try:
            recorded = changes.record_actions(
                game.id,
                game.version,
                state=state,
                actions=[(seat, text) for text in applied],
                at=self.games.store.clock(),
                status="finished" if finished else "active",
                prompt=prompt_for(game, state),
                wait=None if stand_in is not None else self.games.wait_for(game, state, seat),
                results=seat_results(state, game.seats) if finished else None,
                ai_turn=to_ai,
                stand_in_seat=stand_in,
                ai_claim=claim,
            )
            owed = await self.games.store.write(recorded)
        except VersionConflict as exc:
            if not conflict:
                raise
            # Another process changed the game between our read and our write.
            raise BotError(
                "The game changed at the same moment; look at the board and try again.",
                key="bot.error.conflict",
            ) from exc
        metrics.ACTIONS_STORED.labels(game.game_name).inc(len(applied))
        log.info("game %s: seat %s did %s", game.id, seat, "; ".join(applied))
        return await self.games.saved(game.id), tuple(owed), owed.ai_claimed


def _resigning_seat(game: GameRow, user_id: int) -> int:
    """The seat a person resigns from: theirs, in a game under way."""
    seat = game.seat_of(user_id)
    if seat is None:
        raise BotError("You are not playing in this game.", key="bot.error.not_playing")
    if game.status != "active":
        raise BotError(
            "The game has not started: use /game leave to leave the lobby.",
            key="bot.error.resign_lobby",
        )
    return seat
