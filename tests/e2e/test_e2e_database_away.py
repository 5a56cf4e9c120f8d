"""The database going away: a real bot process on the tests' real PostgreSQL server, which is
stopped mid-game (as a crash or a restart of its machine cuts every connection at once) and
started again, and a bot started while the server is down.

While the server is away, a move is answered privately, in the mover's language, "the game
store is unavailable just now: try again in a moment", and nothing changes; once it is back,
the next move works without restarting the bot, and every move stored before is there and
posted once. The bot's log says once that the database went away and once that it is back,
without a traceback. How long the bot takes to recover is printed (run with `-s` to see it),
never asserted: it depends on the machine.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
from bot_processes import BotProcess, bot_processes, start_bot_process
from conftest import new_postgres_database
from e2e_harness import BotHarness, Table, board_posts, is_peek, lobby_button
from postgres_server import PostgresServer, database_name

from data.texts import texts_for
from engine import State
from hvbot.store import GameRow
from sandbox.emulator import DiscordEmulator, Record, User, Visibility

# A real bot process, and the PostgreSQL server stopped and started under it: its own tier.
pytestmark = [pytest.mark.e2e, pytest.mark.processes]

AWAY = "bot.error.store_unavailable"
WENT_AWAY = re.compile(r"WARNING hvbot\.database: PostgreSQL at \S+ cannot be reached")
QUIET_ROUND = re.compile(r"DEBUG hvbot\.cogs\.periodic: .*: PostgreSQL at \S+ cannot be reached")
BACK = re.compile(r"INFO hvbot\.database: PostgreSQL at \S+ answers again, after [\d.]+ s away")


def live(emu: DiscordEmulator, records: list[Record]) -> list[Record]:
    return [r for r in records if r.message_id in emu.messages_by_id]


class Game:
    """Ada (German) and Bo (French) and an AI at a game of High Voltage, played by one bot
    process on a database of the test server."""

    def __init__(
        self, emu: DiscordEmulator, reader: BotHarness, bot: BotProcess, people: list[User]
    ) -> None:
        self.emu = emu
        self.reader = reader
        self.bot = bot
        self.people = {person.id: person for person in people}
        self.table = Table(emu, reader, people, seed=5)

    async def turn(self) -> tuple[GameRow, State]:
        return await self.emu.wait_for(self.table.settled, 60, message="a person's turn")

    def mover(self, game: GameRow, state: State) -> User:
        seat = state.current_seat()
        assert seat is not None
        user_id = game.seats[seat].user_id
        assert user_id is not None
        return self.people[user_id]

    async def shown(self, game: GameRow) -> list[str]:
        """The stored actions that show something in public: each has one board post."""
        return [text for _, text in await self.reader.actions(game) if not is_peek(text)]


async def durable_database(server: PostgresServer) -> str:
    """A fresh database whose commits are written before they are acknowledged, as on a
    server with PostgreSQL's defaults. The test server acknowledges them earlier for speed
    (`synchronous_commit=off`), and a server stopped at once then forgets the last few: a
    move the bot had stored would vanish with the server, which is not the bot's doing."""
    url = await new_postgres_database(server)
    conn = await asyncpg.connect(server.database_url("postgres"))
    try:
        await conn.execute(f'ALTER DATABASE "{database_name(url)}" SET synchronous_commit = on')
    finally:
        await conn.close()
    return url


@pytest.fixture
async def game(
    emulator: DiscordEmulator, tmp_path: Path, postgres: PostgresServer
) -> AsyncIterator[Game]:
    """A game under way, a person to move, everything told."""
    emu = emulator
    url = await durable_database(postgres)
    reader = BotHarness(emu, url)  # reads the games from PostgreSQL; runs no bot itself
    try:
        # At DEBUG, to see each round of the checks fail quietly while the server is away.
        async with bot_processes(emu, tmp_path, url, 1, settings={"LOG_LEVEL": "DEBUG"}) as (bot,):
            ada, bo = emu.add_user("Ada", locale="de"), emu.add_user("Bo", locale="fr")
            lobby = (await emu.slash(ada, "game new", game="high-voltage", settle=False))[0]
            await emu.click(bo, lobby_button(lobby, "join"), message=lobby, settle=False)
            await emu.click(ada, lobby_button(lobby, "addai"), message=lobby, settle=False)
            await emu.click(ada, lobby_button(lobby, "start"), message=lobby, settle=False)
            played = Game(emu, reader, bot, [ada, bo])
            for _ in range(3):
                await played.table.play(*await played.turn())
            # On to a person's turn that begins with a command (not a prompt's buttons).
            while (await played.turn())[1].view(None)["phase"] != "action":
                await played.table.play(*await played.turn())
            yield played
    finally:
        await reader.close()


async def test_a_move_while_postgresql_is_stopped_is_refused_privately_and_the_next_works(
    game: Game, postgres: PostgresServer
) -> None:
    emu, bot = game.emu, game.bot
    before, state = await game.turn()
    shown_before = await game.shown(before)
    mover = game.mover(before, state)
    # A typed command (`/hv draw`) whose board is posted: checked before it is acknowledged.
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    action = f"draw {cell} here r90"
    words = texts_for(emu.locale_of(mover))(AWAY)
    assert words != texts_for("en-US")(AWAY), "said in the mover's language, not English"

    postgres.stop()
    try:
        since = emu.last_seq
        reply = await game.table.play(before, state, action, settle=False)
        told = await emu.wait_for(
            lambda: [
                r
                for r in emu.messages(visibility=Visibility.ephemeral_to(mover), since=since)
                if r.text == words
            ],
            30,
            message="the mover told privately that the store is away",
        )
        assert len(told) == 1, emu.describe(told)
        # Answered in time (else `play` raised InteractionFailed: "did not respond"), and
        # nothing said in public.
        assert not reply.public and not emu.messages(visibility="public", since=since)
        await emu.wait_for(lambda: WENT_AWAY.search(bot.logged()), 30, message="the warning")
        # Several rounds of the periodic checks (every 0.2 s here) meet the server away: each
        # is one DEBUG line, never a warning or a traceback of its own.
        await emu.wait_for(
            lambda: len(QUIET_ROUND.findall(bot.logged())) >= 5, 30, message="checks failing"
        )
    finally:
        postgres.start()
    loop = asyncio.get_running_loop()
    back = loop.time()

    # Nothing changed while it was away: the same version, the same moves.
    after = await game.reader.game()
    assert after.version == before.version
    assert await game.shown(after) == shown_before

    # The same move, at once, without restarting the bot: it works.
    reply = await game.table.play(after, state, action, settle=False)
    assert words not in [r.text for r in reply.messages], emu.describe(list(reply))

    async def stored_and_told() -> bool:
        moved = await game.reader.game()
        return moved.version > before.version and await game.table.settled() is not None

    await emu.wait_for(stored_and_told, 60, message="the move after the restart stored and told")
    answered = loop.time() - back
    await emu.wait_for(lambda: BACK.search(bot.logged()), 60, message="the bot says it is back")
    logged_back = loop.time() - back
    print(
        f"\nPostgreSQL back: the next move answered {answered:.2f} s after the server was "
        f"started again; the bot logged it back {logged_back:.2f} s after"
    )

    # Every move stored before and since is posted once, and the game goes on.
    game_now, _ = await game.table.play_moves(2)
    shown = await game.shown(game_now)
    assert shown[: len(shown_before)] == shown_before
    assert action in [text for _, text in await game.reader.actions(game_now)]
    posts = live(emu, board_posts(emu))
    assert len(posts) == 1 + len(shown), emu.describe(posts)
    texts = [r.text for r in posts]
    assert len(texts) == len(set(texts)), "nothing posted twice"
    log = bot.logged()
    assert len(WENT_AWAY.findall(log)) == 1 and len(BACK.findall(log)) == 1, log[-3000:]
    assert "Traceback" not in log, log[-3000:]


async def test_a_bot_started_while_postgresql_is_down_waits_and_connects_once_it_is_up(
    emulator: DiscordEmulator, tmp_path: Path, postgres: PostgresServer
) -> None:
    """One clear line, tries again with growing pauses (no line or traceback per try), and
    serves once the server answers."""
    emu = emulator
    url = await new_postgres_database(postgres)
    postgres.stop()
    bot: BotProcess | None = None
    try:
        bot = await start_bot_process(
            emu, tmp_path, database_url=url, shard_ids=(0,), shard_count=1, wait=False
        )
        waiting = re.compile(
            r"WARNING hvbot\.database\.postgres: cannot reach PostgreSQL at \S+ \(.+\); trying "
            r"again, with pauses growing from 1 s to 30 s, for up to 600 s \(DATABASE_WAIT\)"
        )
        await emu.wait_for(lambda: waiting.search(bot.logged()), 60, message="the one line")
        assert bot.alive and not emu.gateway.connected_shards, bot.logged()
    finally:
        postgres.start()
    loop = asyncio.get_running_loop()
    back = loop.time()
    await emu.wait_for(lambda: 0 in emu.gateway.connected_shards, 90, message="connected")
    connected = loop.time() - back
    print(f"\nPostgreSQL up: the waiting bot connected {connected:.2f} s after it was started")
    try:
        ada = emu.add_user("Ada")
        reply = await emu.slash(ada, "game new", game="high-voltage", settle=False)
        assert reply.public, "the bot serves games"
        log = bot.logged()
        assert len(re.findall(r"cannot reach PostgreSQL", log)) == 1, log
        assert re.search(r"PostgreSQL at \S+ answered after [\d.]+ s and \d+ tries", log), log
        assert "Traceback" not in log and " ERROR " not in log, log
    finally:
        await bot.stop()
