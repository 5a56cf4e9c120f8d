"""Exactly once under faults: real bot processes sharing a real PostgreSQL, against the emulated
Discord, each fault made for real (a process killed with SIGKILL, paused with SIGSTOP past its
lease, the database server stopped) at the moment a post is on its way. Every post, DM and
message that stays is counted: exactly one each.

Discord's requests are held at the emulator (`faults.hold`) to reach the moment: a request
held there has left its process, as one does on a slow network. The processes' leases are a
few seconds (20 in production), long enough that a busy machine alone never makes one process
take over from another, short enough that the tests see it happen.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from bot_processes import BotProcess, bot_processes
from conftest import new_postgres_database
from e2e_harness import BotHarness, Table, board_posts, is_peek, lobby_button
from postgres_server import PostgresServer

from engine import State
from games import find_game
from hvbot.store import GameRow, GameStore, SeatRow
from sandbox.emulator import DiscordEmulator, Record, User, Visibility, shard_of
from sandbox.emulator.faults import HeldRoute

# Real processes killed, paused and outlived, a server stopped mid-game: their own tier.
pytestmark = [pytest.mark.e2e, pytest.mark.processes]

LEASE_S = 4.0
CHANNEL_POSTS = "POST /channels/{channel_id}/messages"


def live(emu: DiscordEmulator, records: list[Record]) -> list[Record]:
    """The records whose message is still there (not deleted since)."""
    return [r for r in records if r.message_id in emu.messages_by_id]


@dataclass(frozen=True)
class AnswerOnItsWay:
    """A person's move, stored, whose board post Discord holds back."""

    mover: SeatRow
    cell: str  # the face-down card drawn and placed where it lay
    since: int  # the last record before the move
    answer: HeldRoute


class TwoProcesses:
    """Two bot processes, one per shard, on one PostgreSQL database; `here` runs the shard of
    the emulator's server, where the game is played."""

    def __init__(
        self, emu: DiscordEmulator, url: str, processes: list[BotProcess], reader: BotHarness
    ) -> None:
        self.emu = emu
        self.url = url
        self.processes = processes
        self.reader = reader
        self.here = processes[shard_of(emu.guild_id, 2)]
        self.other = processes[1 - shard_of(emu.guild_id, 2)]

    async def three_seat_game(self) -> tuple[User, User, Record]:
        """Ada and Bo and an AI in a lobby; returns the lobby message, ready to start."""
        emu = self.emu
        ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
        lobby = (await emu.slash(ada, "game new", game="high-voltage", settle=False))[0]
        await emu.click(bo, lobby_button(lobby, "join"), message=lobby, settle=False)
        await emu.click(ada, lobby_button(lobby, "addai"), message=lobby, settle=False)
        return ada, bo, lobby

    def storer_of_last_move(self, seat: int) -> BotProcess:
        """The process that stored the seat's latest move (any process may move an AI seat:
        whichever claims its turn first)."""
        line = re.compile(
            rf"^(\S+ \S+) INFO hvbot\.services\.play: game \d+: seat {seat} did", re.M
        )

        def latest(process: BotProcess) -> str:
            return max(line.findall(process.logged()), default="")

        return max(self.processes, key=latest)

    async def answer_on_its_way(self) -> tuple[Table, GameRow, AnswerOnItsWay]:
        """A game of Ada, Bo and an AI, where the person to move draws a card and places it,
        and the board post of their move is held on its way."""
        emu = self.emu
        ada, bo, lobby = await self.three_seat_game()
        await emu.click(ada, lobby_button(lobby, "start"), message=lobby, settle=False)
        table = Table(emu, self.reader, [ada, bo])
        game, state = await settle(table)
        mover = game.seats[state.current_seat() or 0]
        cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
        answer = emu.faults.hold(CHANNEL_POSTS, starts=f"{mover.display_name} drew {cell}")
        since = emu.last_seq
        await table.play(game, state, f"draw {cell} here r90")
        await emu.wait_for(lambda: answer.held == 1, 10, message="the answer on its way")
        return table, game, AnswerOnItsWay(mover, cell, since, answer)

    async def shown_since(self, game: GameRow, before: int) -> list[str]:
        """The stored actions after the first `before` that show something in public."""
        actions = await self.reader.actions(game)
        return [text for _, text in actions[before:] if not is_peek(text)]


@pytest.fixture
async def two(
    request: pytest.FixtureRequest,
    emulator: DiscordEmulator,
    tmp_path: Path,
    postgres: PostgresServer,
) -> AsyncIterator[TwoProcesses]:
    """Two processes whose claims last `LEASE_S` seconds (or the test's own, indirectly)."""
    lease_s = getattr(request, "param", LEASE_S)
    url = await new_postgres_database(postgres)
    reader = BotHarness(emulator, url)  # reads the games from PostgreSQL; runs no bot itself
    try:
        async with bot_processes(emulator, tmp_path, url, 2, lease_s=lease_s) as processes:
            yield TwoProcesses(emulator, url, processes, reader)
            emulator.faults.clear()  # nothing left held when the processes stop
            for process in processes:
                process.resume()
    finally:
        await reader.close()


async def settle(table: Table) -> tuple[GameRow, State]:
    return await table.emu.wait_for(table.settled, 60, message="everything told")


async def test_a_process_killed_right_after_start_leaves_the_first_board_and_secrets_to_another(
    two: TwoProcesses,
) -> None:
    """The start is acknowledged (the lobby shows it), then its process dies before it can
    post anything: the other process posts the first board and sends each person their
    secret, once, and the game goes on."""
    emu = two.emu
    ada, bo, lobby = await two.three_seat_game()
    first_board = emu.faults.hold(CHANNEL_POSTS, says="begins!")
    await emu.click(ada, lobby_button(lobby, "start"), message=lobby, settle=False)
    await emu.wait_for(lambda: first_board.held == 1, 10, message="the first board on its way")
    assert (await two.reader.game()).status == "active", "the start is stored"
    two.here.kill()
    await two.here.process.wait()
    first_board.release()  # the connection it came on is gone: Discord never sees it

    table = Table(emu, two.reader, [ada, bo])
    game, _ = await settle(table)
    begins = live(emu, [r for r in board_posts(emu) if "begins!" in r.text])
    assert len(begins) == 1, emu.describe(begins)
    for person in (ada, bo):
        secrets = emu.messages(visibility=Visibility.dm_to(person))
        assert len(secrets) == 1, f"{person.name}: {emu.describe(secrets)}"
    assert len(live(emu, board_posts(emu))) == 1 + len(await two.shown_since(game, 0))


async def test_a_process_paused_past_its_lease_sends_nothing_another_took_over(
    two: TwoProcesses,
) -> None:
    """The process moving the AI seat is paused (SIGSTOP) with the AI's board post on its way,
    past its lease; the other process posts that move and plays on. Woken, the paused
    process's post reaches Discord with the same nonce, and Discord refuses it as a
    duplicate: every move is in the channel once, and the woken process says nothing of a
    turn long gone."""
    emu = two.emu
    ada, bo, lobby = await two.three_seat_game()
    await emu.click(ada, lobby_button(lobby, "start"), message=lobby, settle=False)
    table = Table(emu, two.reader, [ada, bo])
    game, _ = await settle(table)
    before, posts_before = len(await two.reader.actions(game)), len(board_posts(emu))
    ai_post = emu.faults.hold(CHANNEL_POSTS, starts="AI 1 ")

    async def ai_post_held_or_turn() -> str | tuple[GameRow, State] | None:
        return "held" if ai_post.held else await table.settled()

    # People play until an AI seat moves, its post on its way.
    while (found := await emu.wait_for(ai_post_held_or_turn, 60)) != "held":
        assert not isinstance(found, str)
        # Not settled: the bot is never done while the AI's post is held.
        await table.play(*found, settle=False)
    ai_seat = next(s.seat for s in game.seats if s.is_ai)
    sender = two.storer_of_last_move(ai_seat)
    sender.pause()
    try:
        # The other process takes the AI's move over once the lease has run out.
        posted = len(board_posts(emu))
        await emu.wait_for(
            lambda: len(board_posts(emu)) > posted,
            30,
            message="the paused process's post made by the other",
        )
    finally:
        sender.resume()
    ai_post.release()
    await emu.wait_for(lambda: emu.duplicates_refused == 1, 30, message="the woken post")
    game, _ = await settle(table)
    shown = await two.shown_since(game, before)
    assert len(live(emu, board_posts(emu)[posts_before:])) == len(shown), "each move once"
    texts = [r.text for r in board_posts(emu)[posts_before:]]
    assert len(texts) == len(set(texts)), "nothing said twice"


async def test_a_board_sent_by_a_process_paused_past_its_lease_is_never_seen_twice(
    two: TwoProcesses,
) -> None:
    """A person's move is stored and its board post is on its way when the process is paused
    past its lease; the other process takes the post over and posts it. Woken, the paused
    process's own copy reaches Discord too, with the same nonce: Discord answers it with the
    message already made, so the channel shows the move once, and never showed a second copy
    even for a moment (nothing was posted and then deleted)."""
    emu = two.emu
    table, _, move = await two.answer_on_its_way()
    mover, cell, since, held = move.mover, move.cell, move.since, move.answer
    refused_before = emu.duplicates_refused
    two.here.pause()
    try:
        await emu.wait_for(
            lambda: [
                r for r in board_posts(emu, since=since) if r.text.startswith(mover.display_name)
            ],
            30,
            message="the move posted by the other process",
        )
    finally:
        two.here.resume()
    held.release()
    await emu.wait_for(
        lambda: emu.duplicates_refused > refused_before, 30, message="the late copy refused"
    )
    await settle(table)
    moves = [r for r in board_posts(emu, since=since) if r.text.startswith(mover.display_name)]
    assert len(moves) == 1 and cell in moves[0].text, emu.describe(moves)
    assert moves[0].message_id in emu.messages_by_id
    assert not [r for r in emu.records[since:] if r.kind == "delete" and r.visibility == "public"]


async def test_a_process_that_dies_before_saying_time_ran_out_leaves_it_said_before_the_ai_moves(
    two: TwoProcesses,
) -> None:
    """A person's turn clock runs out, and the process that hands their move to an AI dies
    (SIGKILL) with "… ran out of time" on its way to the channel. The other process says it
    once the lease is over, and only then does the AI play the move: the channel reads the
    two in the order they happened, each once."""
    emu = two.emu
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    opened = await emu.slash(
        ada, "game new", game="high-voltage", clock=60, timeout="ai_move", settle=False
    )
    lobby = opened[0]
    await emu.click(bo, lobby_button(lobby, "join"), message=lobby, settle=False)
    await emu.click(ada, lobby_button(lobby, "start"), message=lobby, settle=False)
    table = Table(emu, two.reader, [ada, bo])
    game, state = await settle(table)
    out = game.seats[state.current_seat() or 0]
    ran_out = emu.faults.hold(CHANNEL_POSTS, says="ran out of time")
    since = emu.last_seq
    # The clock falls due now, for whichever process looks first.
    await two.reader.sql(
        "UPDATE games SET clock_deadline = ?, clock_warn_at = NULL WHERE id = ?",
        "2000-01-01T00:00:00+00:00",
        game.id,
    )
    await emu.wait_for(lambda: ran_out.held == 1, 30, message="the words on their way")
    teller = next(p for p in two.processes if f"game {game.id}: seat" in p.logged())
    teller.kill()

    def said_and_moved() -> tuple[list[Record], list[Record]]:
        records = emu.messages(kind="channel_message", visibility="public", since=since)
        told = [r for r in records if "ran out of time" in r.text]
        moved = [r for r in records if r.has_attachment("board.png")]
        return (told, moved) if told and moved else ([], [])

    told, moved = await emu.wait_for(
        lambda: said_and_moved()[0] and said_and_moved(), 60, message="said, then moved"
    )
    ran_out.release()
    assert len(told) == 1 and f"<@{out.user_id}>" in told[0].text
    assert told[0].seq < moved[0].seq, "the time ran out before the AI played the move"


# A lease longer than the database is away, as in production (20 s against a restart's few):
# the mark lands before another process could take the post over.
@pytest.mark.parametrize("two", [30.0], indirect=True)
async def test_a_post_made_while_the_database_is_away_is_marked_once_it_is_back(
    two: TwoProcesses, postgres: PostgresServer
) -> None:
    """PostgreSQL stops between a move's post and its mark as made: the process tries the
    mark again until the server is back, and nobody posts the move a second time."""
    emu = two.emu
    table, game, move = await two.answer_on_its_way()
    mover, since, answer = move.mover, move.since, move.answer
    postgres.stop()
    try:
        answer.release()
        await emu.wait_for(
            lambda: "not yet marked" in two.here.logged(), 30, message="the mark tried again"
        )
    finally:
        postgres.start()
    store = await GameStore.open(two.url)

    async def marked() -> bool:
        rows = await store.db.fetch(
            "SELECT sent_at FROM announcements WHERE game_id = ? AND kind = 'move'"
            " ORDER BY id DESC LIMIT 1",
            game.id,
        )
        return bool(rows) and rows[0]["sent_at"] is not None

    try:
        await emu.wait_for(marked, 30, message="the mark made")
    finally:
        await store.close()
    await settle(table)
    moves = [r for r in board_posts(emu, since=since) if r.text.startswith(mover.display_name)]
    assert len(moves) == 1 and moves[0].message_id in emu.messages_by_id, emu.describe(moves)


def _handing_to_the_ai(table: Table, game: GameRow, state: State) -> str | None:
    """An action of the person to move after which the game's AI seat is to move, if one of
    those the table would pick comes to it."""
    ai_seat = next(s.seat for s in game.seats if s.is_ai)
    for _ in range(40):
        action = table.choose(state)
        after = find_game(game.game_name).state_from_dict(game.state)
        try:
            after.apply(action)
        except Exception:
            continue  # not legal after all: the table tries it no more than a person would
        if not after.is_terminal() and after.current_seat() == ai_seat:
            return action
    return None


async def test_a_process_killed_after_its_move_claimed_the_ai_leaves_the_ai_to_another(
    two: TwoProcesses,
) -> None:
    """A person's move hands the turn to the AI seat, and claims the AI's thinking for the
    process that stored it in the move's own statement; that process dies (SIGKILL) with the
    move's board on its way. The other posts the board and, once the claim's lease has run
    out, plays the AI's move: once, after the board."""
    emu = two.emu
    ada, bo, lobby = await two.three_seat_game()
    await emu.click(ada, lobby_button(lobby, "start"), message=lobby, settle=False)
    table = Table(emu, two.reader, [ada, bo])
    for _ in range(30):
        game, state = await settle(table)
        action = _handing_to_the_ai(table, game, state)
        if action is not None:
            break
        await table.play(game, state)
    else:
        raise AssertionError("no move handed the turn to the AI")
    ai_seat = next(s.seat for s in game.seats if s.is_ai)
    ai_name = game.seats[ai_seat].display_name
    mover = game.seats[state.current_seat() or 0]
    shown_before = len(await two.shown_since(game, 0))
    board = emu.faults.hold(CHANNEL_POSTS)  # the channel's next post: the move's board
    since = emu.last_seq
    # Its answer waits for the board (a command's "thinking…" becomes the next decision).
    moving = asyncio.create_task(table.play(game, state, action, settle=False))
    await emu.wait_for(lambda: board.held == 1, 10, message="the move's board on its way")
    repo = await two.reader.reader()
    claim = await repo.db.fetchrow(
        "SELECT version, ai_turn, ai_by FROM games WHERE id = ?", game.id
    )
    assert claim is not None and claim["version"] == game.version + 1 and claim["ai_turn"]
    assert claim["ai_by"] is not None, "claimed by the move itself"
    two.here.kill()
    await two.here.process.wait()
    board.release()  # the connection it came on is gone: Discord never sees it
    await asyncio.gather(moving, return_exceptions=True)  # its answer never comes

    game, _ = await settle(table)
    assert len(await two.shown_since(game, 0)) > shown_before
    assert two.storer_of_last_move(ai_seat) is two.other
    posts = live(emu, board_posts(emu, since=since))
    moved = [r for r in posts if r.text.startswith(f"{mover.display_name} ")]
    answered = [r for r in posts if r.text.startswith(f"{ai_name} ")]
    assert len(moved) == 1, emu.describe(moved)
    assert answered and all(r.seq > moved[0].seq for r in answered), emu.describe(posts)
    texts = [r.text for r in posts]
    assert len(texts) == len(set(texts)), "nothing said twice"
