"""Finishing games quickly for the tests of results and statistics: Pylons between two people,
through the service, so every move is stored as a real one would be.

A Pylons game of random moves runs to its 200-pylon limit (some 200 moves, each stored, and a
replay of as many frames); here one player links their borders with 13 pylons instead, some
26 moves in all: a game won by a connection, by the rules."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from engine import State
from games import find_game
from games.pylons.rules.board import LAST, NAMES, SIZE, cell_of
from games.pylons.rules.state import PylonsState
from hvbot.database import base
from hvbot.services import GameService
from hvbot.store import GameRow, GameStore, changes

MAX_MOVES = 2000


async def play_to_the_end(service: GameService, game_id: int, rng: random.Random) -> GameRow:
    """Play the game to its end: Pylons by a line across the board (`line_across`, which of
    the two wins and where drawn from `rng`), any other game by random legal moves."""
    plan: dict[int, list[str]] | None = None  # made once, on the board as dealt
    for _ in range(MAX_MOVES):
        game = await service.repo.game(game_id=game_id)
        assert game is not None
        if game.status != "active":
            return game
        state = service.games.load_state(game)
        seat = state.current_seat()
        assert seat is not None
        user = game.seats[seat].user_id
        assert user is not None, "only games between people are played out here"
        action: Any = None
        if isinstance(state, PylonsState):
            legal = {a.text() for a in state.legal_actions()}
            if KEEP in legal:  # the board as dealt, its chooser first
                action = KEEP
            else:
                plan = line_across(state, rng) if plan is None else plan
                action = next_planned(plan, seat, legal)
        if action is None:
            action = state.sample_action(rng)
        await service.play.act(game_id=game_id, user_id=user, action=action)
    raise AssertionError("the game did not end")


KEEP = "keep"


def line_across(state: PylonsState, rng: random.Random) -> dict[int, list[str]]:
    """Each seat's moves in turn: the winner's pylons a knight's move apart from one of their
    borders to the other, in a band of the board with no swamp; the loser's in one line far
    from it, no two a knight's move apart, so never linked and never in the winner's way.
    Empty (random moves then) if no band is clear."""
    winner = rng.randrange(2)
    bands = list(range(2, SIZE - 6))
    rng.shuffle(bands)
    for band in bands:
        # Down the board (seat 1 links north and south): (i, j) with j from 0 to 23.
        line = [(band + (j // 2) % 2, j) for j in range(0, LAST, 2)] + [(band + 3, LAST)]
        far = band + 8 if band + 8 < LAST else band - 6
        other = [(far, j) for j in range(1, LAST)]
        if winner == 0:  # seat 0 links west and east: the same, across
            line, other = [(j, i) for i, j in line], [(j, i) for i, j in other]
        if any(state.swamp[cell_of(i, j)] for i, j in line):
            continue
        clear = [(i, j) for i, j in other if not state.swamp[cell_of(i, j)]]
        if len(clear) >= len(line):
            return {winner: _placements(line), 1 - winner: _placements(clear)}
    return {}


def next_planned(plan: dict[int, list[str]], seat: int, legal: set[str]) -> str | None:
    """The first of `seat`'s planned moves that is `legal` now, if any is."""
    return next((action for action in plan.get(seat, ()) if action in legal), None)


def _placements(cells: list[tuple[int, int]]) -> list[str]:
    return [f"place {NAMES[cell_of(i, j)]}" for i, j in cells]


async def started_game(
    service: GameService,
    *,
    channel_id: int,
    guild_id: int,
    players: Sequence[tuple[int, str]],
    game_name: str = "pylons",
    **options: Any,
) -> GameRow:
    """A game the first of `players` (user id, name) opened with `options` (a clock, a
    reminder), the others joined, and started."""
    (creator, name), *others = players
    await service.lobby.new_lobby(
        channel_id=channel_id,
        guild_id=guild_id,
        user_id=creator,
        name=name,
        game_name=game_name,
        **options,
    )
    for user_id, other_name in others:
        await service.lobby.join(channel_id=channel_id, user_id=user_id, name=other_name)
    started = await service.lobby.start(channel_id=channel_id, user_id=creator, can_manage=False)
    return started.game


async def finished_pylons(
    service: GameService,
    *,
    channel_id: int,
    guild_id: int,
    players: list[tuple[int, str]],
    seed: int = 1,
) -> GameRow:
    """A Pylons game between `players` (user id, name), from lobby to the end."""
    game = await started_game(service, channel_id=channel_id, guild_id=guild_id, players=players)
    return await play_to_the_end(service, game.id, random.Random(seed))


RESULTS_MIGRATION = 3  # the migration that began keeping results
RATED_RESULTS_MIGRATION = 23  # the columns it added later, for ratings: no table, no columns


@contextlib.contextmanager
def schema_before_results(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Open repositories as the bot did before results were kept: without that migration, nor
    the one that added to its table (the others, older or newer, as the code of today needs
    them)."""

    every_migration = base.migrations

    def without_results(backend: str) -> list[tuple[int, str]]:
        left_out = (RESULTS_MIGRATION, RATED_RESULTS_MIGRATION)
        return [m for m in every_migration(backend) if m[0] not in left_out]

    with monkeypatch.context() as patched:
        patched.setattr(base, "migrations", without_results)
        yield


def played_out(seed: int) -> State:
    """A whole two-player Pylons game played by the engine alone, dealt from `seed`."""
    state = find_game("pylons").new_state(2, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
    return state


async def finish_as_before_results(repo: GameStore, game: GameRow, seed: int) -> State:
    """Store a started two-player Pylons game, dealt from `seed`, as finished the way the bot
    did before results were kept: the finishing move and nothing more."""
    final = played_out(seed)
    await repo.write(
        changes.record_actions(
            game.id,
            game.version,
            state=final.to_dict(),
            actions=[(0, text) for text in final.history],
            status="finished",
            at=repo.clock(),
        )
    )
    return final
