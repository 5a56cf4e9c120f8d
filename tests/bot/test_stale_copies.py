"""A process's copy of a game in memory, when another process changed the game (PostgreSQL,
several processes): a move is judged on the stored game, and what knowing that costs. Each
"process" is a repository with connections of its own, and listens for the games' changes
(`hvbot.database.version_watch`): a copy no change was heard to overtake is used as it is, and
while a process cannot listen its copies are checked against the stored version."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from conftest import heard_so_far, new_postgres_database, services_sharing

from hvbot.database import VersionWatch
from hvbot.infra.metrics import DATABASE_ROUND_TRIPS
from hvbot.services import GameService
from hvbot.store import GameStore

GUILD, ADA, BO = 1, 101, 102


@pytest.fixture
async def processes(postgres) -> AsyncIterator[list[GameService]]:
    async with services_sharing(await new_postgres_database(postgres), 2) as services:
        yield services


async def _started(service: GameService, channel: int):
    await service.lobby.new_lobby(
        channel_id=channel, guild_id=GUILD, user_id=ADA, name="Ada", game_name="High Voltage"
    )
    await service.lobby.join(channel_id=channel, user_id=BO, name="Bo")
    started = await service.lobby.start(channel_id=channel, user_id=ADA, can_manage=False)
    return started.game, started.state


def _face_down(result_state) -> list[str]:
    return [c["cell"] for c in result_state.view(None)["cells"] if c["state"] == "down"]


async def _actions(service: GameService, game_id: int) -> list[str]:
    return [text for _, text in await service.repo.actions(game_id=game_id)]


async def test_a_turn_a_stale_copy_would_refuse_is_played_from_the_stored_game(processes):
    first, second = processes
    game, state = await _started(first, 100)
    await heard_so_far(second.repo, first.repo)
    await second.games.open_game(100)  # the second process keeps the game as it started
    assert second.repo.cache.row(game.id) is not None
    mover = game.seats[state.current_seat()].user_id
    other = BO if mover == ADA else ADA
    down = _face_down(state)
    heard = asyncio.ensure_future(_watch(second).heard_of(game.id, game.version + 1))
    await first.play.act(channel_id=100, user_id=mover, action=f"draw {down[0]} here r0")
    await heard
    # The second process's copy still has the first player to move: it would say "not your
    # turn". It heard of the change, and the move is played from the stored game.
    played = await second.play.act(channel_id=100, user_id=other, action=f"draw {down[1]} here r0")
    assert played.game.version == game.version + 2
    assert await _actions(first, game.id) == [f"draw {down[0]} here r0", f"draw {down[1]} here r0"]


async def test_an_ai_turn_another_process_handed_over_is_played_from_the_stored_game(
    processes,
):
    """A process taking over an AI seat's turn (the one whose person moved died, say) may hold
    a copy from before that move, with the person still to move: it thinks from the stored
    game, or it would let the turn go again and again, and no process would ever play it."""
    first, second = processes
    await first.lobby.new_lobby(
        channel_id=150, guild_id=GUILD, user_id=ADA, name="Ada", game_name="High Voltage"
    )
    await first.lobby.add_ai(channel_id=150, user_id=ADA, level="easy")
    started = await first.lobby.start(channel_id=150, user_id=ADA, can_manage=False)
    game = started.game
    if started.state.current_seat() != 0:  # the AI seat begins: it plays, Ada is to move
        assert await first.play.ai_step(game_id=game.id) is not None
    await heard_so_far(second.repo, first.repo)
    kept = await second.games.find(game.id, fresh=True)  # the second keeps Ada to move
    assert second.repo.cache.row(game.id) == kept
    assert kept is not None and not kept.seats[second.games.peek_state(kept).current_seat()].is_ai
    heard = asyncio.ensure_future(_watch(second).heard_of(game.id, kept.version + 1))
    cell = _face_down(second.games.peek_state(kept))[0]
    await first.play.act(game_id=game.id, user_id=ADA, action=f"draw {cell} here r0")
    await heard
    played = await second.play.ai_step(game_id=game.id)
    assert played is not None, "the AI seat's turn was let go: its copy had Ada to move"
    assert played.game.version == kept.version + 2
    assert [seat for seat, _ in await first.repo.actions(game_id=game.id)][-2:] == [0, 1]


async def _round_trips() -> float:
    await asyncio.sleep(0)  # asyncpg counts each request in a callback it schedules
    return DATABASE_ROUND_TRIPS.labels(backend="postgresql")._value.get()


def _watch(service: GameService) -> VersionWatch:
    watch = service.repo.db.watch
    assert watch is not None
    return watch


async def _moves_cost(service: GameService, channel: int, cells: list[str]) -> list[float]:
    """The round trips of each move by game id (as a click sends it), in turn."""
    costs = []
    reader = GameStore(service.repo.db, cache=False)  # the game as stored, to find the mover
    for cell in cells:
        game = await reader.open_game_in_channel(channel_id=channel)
        assert game is not None
        mover = game.seats[service.games.peek_state(game).current_seat()].user_id
        before = await _round_trips()
        await service.play.act(game_id=game.id, user_id=mover, action=f"draw {cell} here r0")
        costs.append(await _round_trips() - before)
    return costs


async def _cut_off(watching: GameService, reader: GameService) -> None:
    """The watch of `watching` loses its connection, as when the server restarts."""
    pid = _watch(watching).server_pid
    assert pid is not None
    assert await reader.repo.db.fetchval("SELECT pg_terminate_backend(?)", pid)


async def test_a_move_on_a_copy_no_change_overtook_is_one_statement(processes):
    """While a process listens, its copy of a game is known to be the stored one: the move
    is the change alone, one statement, with no read of the version before it."""
    first, _ = processes
    _, state = await _started(first, 300)
    assert _watch(first).listening
    costs = await _moves_cost(first, 300, _face_down(state)[:3])
    # (The first move of a connection asks the server about the statement's types too.)
    assert costs[1:] == [1, 1], costs


async def test_a_process_that_cannot_listen_checks_each_copy_until_it_listens_again(processes):
    """Announcements sent while a process was not listening are lost to it: meanwhile each
    move checks the stored version first (two round trips), and a copy from before is doubted
    until it is checked again, which finds a change made meanwhile by another process."""
    first, second = processes
    game, state = await _started(first, 400)
    down = _face_down(state)
    await _moves_cost(second, 400, down[:1])  # (teaches its connection the statement's types)
    watch = _watch(second)
    session = watch.session
    await _cut_off(second, first)
    await watch.not_listening()
    assert await _moves_cost(second, 400, down[1:2]) == [2]  # the check, then the change
    await watch.listening_again()
    assert watch.session == session + 1
    # The first process moves; the second's copy, from before it listened again, is checked,
    # found stale and read again, and its next move is played on the stored game.
    await _moves_cost(first, 400, down[2:3])
    await heard_so_far(second.repo, first.repo)  # (its read of the game is then kept)
    costs = await _moves_cost(second, 400, down[3:5])
    # The check, the game and its seats read again, and the change; then the change alone.
    assert costs == [4, 1], costs
    assert await _actions(first, game.id) == [f"draw {c} here r0" for c in down[:5]]


async def test_a_change_committed_while_the_watch_listened_again_leaves_its_copy_doubted(
    processes,
):
    """A process's own change leaves the version it committed, and a change by another
    process after that commit is known only if the watch listened all along. Here the watch
    loses its connection right after the first process's move commits, the second process
    moves meanwhile, unheard, and the watch listens again before the first stores its copy:
    that copy is not vouched for, and the first process's next move is judged on the stored
    game."""
    first, second = processes
    game, state = await _started(first, 450)
    down = _face_down(state)
    watch, db = _watch(first), first.repo.db
    transact = db.transact

    async def then_unheard(work):
        value = await transact(work)  # the first process's move commits...
        db.transact = transact
        await _cut_off(first, second)  # ...its watch loses its connection...
        await watch.not_listening()
        await _moves_cost(second, 450, down[1:2])  # ...the second moves, unheard...
        await watch.listening_again()  # ...and the watch listens again
        return value

    db.transact = then_unheard
    await _moves_cost(first, 450, down[:1])
    assert db.transact is transact
    assert not first.repo.cache.current(game.id)
    await _moves_cost(first, 450, down[2:3])
    assert await _actions(second, game.id) == [f"draw {c} here r0" for c in down[:3]]


async def test_a_game_another_process_deleted_leaves_the_copies_of_the_others(processes):
    """A game deleted by another process (a moderator's clean-up, say) is heard of too: its
    copy in memory goes, and the game is read afresh (and found gone) if it is asked for."""
    first, second = processes
    game, _ = await _started(first, 500)
    await heard_so_far(second.repo, first.repo)
    await second.games.open_game(500)
    assert second.repo.cache.row(game.id) is not None
    heard = asyncio.ensure_future(_watch(second).heard_of(game.id, game.version + 1))
    await first.repo.db.transact(lambda tx: tx.execute("DELETE FROM games WHERE id = ?", game.id))
    await heard
    assert second.repo.cache.row(game.id) is None
    assert await second.repo.game(game_id=game.id, fresh=True) is None


async def test_a_game_another_process_finished_leaves_its_channel_to_the_next(processes):
    """A game another process finished (a resignation there, say) is heard of as a newer
    version: its channel is not answered from the copy here, which still has it in play, but
    read afresh, and the lobby opened there since is found."""
    first, second = processes
    game, _ = await _started(first, 600)
    await heard_so_far(second.repo, first.repo)
    await second.games.open_game(600)
    assert second.repo.cache.in_channel(600) is not None
    heard = asyncio.ensure_future(_watch(second).heard_of(game.id, game.version + 2))
    await first.play.resign(channel_id=600, user_id=BO)  # an AI plays on for Bo
    ended = await first.play.resign(channel_id=600, user_id=ADA)  # no one left: it ends
    assert ended.game.status == "finished"
    await heard
    assert await second.repo.open_game_in_channel(channel_id=600) is None
    assert second.repo.cache.row(game.id) is None, "the stale copy let go: read once, not again"
    lobby = await first.lobby.new_lobby(
        channel_id=600, guild_id=GUILD, user_id=ADA, name="Ada", game_name="Pylons"
    )
    found = await second.repo.open_game_in_channel(channel_id=600)
    assert found is not None and found.id == lobby.id, found
