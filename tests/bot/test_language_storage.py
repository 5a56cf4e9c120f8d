"""Which language to speak, stored with the game (on both backends): the game's (for its public
posts) and each seat's (for what its person is told alone), kept across a restart and updated
only when a person's language changes."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hvbot.database import Database, Transaction
from hvbot.messages.wording import names_of
from hvbot.services import GameService
from hvbot.store import GameStore

CHANNEL, ADA, BO = 10, 100, 200


class WriteCounter:
    """Counts the rows the database's transactions change, whatever the backend."""

    def __init__(self, db: Database) -> None:
        self.rows = 0
        transact = db.transact

        async def counted(work: Any) -> Any:
            async def counting(tx: Transaction) -> Any:
                return await work(_Counting(tx, self))

            return await transact(counting)

        db.transact = counted  # type: ignore[method-assign]


class _Counting:
    def __init__(self, tx: Transaction, counter: WriteCounter) -> None:
        self._tx, self._counter = tx, counter

    async def execute(self, sql: str, *args: Any) -> int:
        changed = await self._tx.execute(sql, *args)
        self._counter.rows += changed
        return changed

    async def executemany(self, sql: str, rows: Any) -> None:
        await self._tx.executemany(sql, rows)
        self._counter.rows += len(rows)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tx, name)


@pytest.fixture
async def service(database_url):
    repo = await GameStore.open(database_url)
    yield GameService(repo, seed_source=random.Random(3))
    await repo.close()


async def started(service: GameService) -> None:
    await service.lobby.new_lobby(
        channel_id=CHANNEL,
        guild_id=1,
        user_id=ADA,
        name="Ada",
        game_name="high-voltage",
        language="fr",
        creator_language="it",
    )
    await service.lobby.join(channel_id=CHANNEL, user_id=BO, name="Bo", language="de")
    await service.lobby.add_ai(channel_id=CHANNEL, user_id=ADA, level="easy")
    await service.lobby.start(channel_id=CHANNEL, user_id=ADA, can_manage=False)


async def test_the_game_keeps_the_server_s_language_and_each_seat_its_person_s(
    service: GameService, database_url: str
) -> None:
    await started(service)
    game = await service.games.open_game(CHANNEL)
    assert game.language == "fr"
    assert [s.language for s in game.seats] == ["it", "de", None]
    # Stored in English, said in the game's language where the game's posts name it.
    assert game.seats[2].display_name == "AI 1 (easy)"
    assert names_of(game)[2] == "IA 1 (facile)"
    # A second connection reads the same from the file, as a restarted bot would.
    reopened = await GameStore.open(database_url, cache=False)
    try:
        again = await reopened.open_game_in_channel(channel_id=CHANNEL)
    finally:
        await reopened.close()
    assert again is not None
    assert again.language == "fr" and [s.language for s in again.seats] == ["it", "de", None]


async def test_a_move_stores_a_new_language_and_writes_nothing_more_when_it_is_the_same(
    service: GameService, database_url: str
) -> None:
    await started(service)
    writes = WriteCounter(service.repo.db)

    async def move(language: str) -> int:
        game = await service.games.open_game(CHANNEL)
        state = service.games.load_state(game)
        seat = state.current_seat()
        assert seat is not None and game.seats[seat].user_id is not None
        action = next(a.text() for a in state.legal_actions() if a.text().startswith("rotate"))
        before = writes.rows
        await service.play.act(
            channel_id=CHANNEL,
            user_id=game.seats[seat].user_id,
            action=action,
            language=language,
        )
        return writes.rows - before

    game = await service.games.open_game(CHANNEL)
    mover = service.games.load_state(game).current_seat()
    assert mover is not None
    same = await move(game.seats[mover].language or "")
    # Play on until the same person is to move again, then move in another language.
    while True:
        game = await service.games.open_game(CHANNEL)
        state = service.games.load_state(game)
        seat = state.current_seat()
        if seat == mover:
            break
        if game.seats[seat].is_ai:
            await service.play.ai_step(game_id=game.id)
        else:
            await move(game.seats[seat].language or "")
    changed = await move("en")
    assert changed == same + 1, "one more row written: the seat's language"
    game = await service.games.open_game(CHANNEL)
    assert game.seats[mover].language == "en"
    reopened = await GameStore.open(database_url, cache=False)
    try:
        stored = await reopened.open_game_in_channel(channel_id=CHANNEL)
    finally:
        await reopened.close()
    assert stored is not None and stored.seats[mover].language == "en"
