"""Tournaments through the emulated Discord, on SQLite and on PostgreSQL.

A moderator opens a 9-player Pylons Swiss of 3 rounds; nine people press Join on its sign-up
post and the moderator starts it. Round 1 has four tables and a bye: one game is played to its
end with the board's buttons and /pylons place, two end by resignation, and at the fourth
nobody ever moves, so the turn clock (moved by hand) ends it as a loss for the one to move.
The moderator pauses before that: the round ends, nothing is paired; one player leaves; the
moderator resumes, and round 2 pairs the eight left, with no bye. Rounds 2 and 3 end by
resignations. Every round's tables are posted once, each game in a thread of its own, the
standings come after each round as a picture that decodes with its text twin, the points are
those the results give, and the podium names the winner.

A 12-player High Voltage Swiss with tables of 3 or 4: three tables of four, then (one player
having left) tables of three and four, the games ended by resignation.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from fractions import Fraction

import pytest
from e2e_harness import BotHarness, board_posts, button_id, racing_cell
from moved_clock import MovedClock
from tournament_play import (
    TableGame,
    byes,
    game_over,
    open_tournament,
    pictures,
    points_said,
    resign,
    rounds_paired,
    said_twice,
    sign_up,
    status,
    thread_of,
    wait_for_round,
)

from games import find_game
from hvbot.store import GameRow
from sandbox.emulator import DiscordEmulator, Record, User

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

NAMES = ("Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu")


@pytest.fixture
async def hv_on(emulator: DiscordEmulator, database_url: str) -> AsyncIterator[BotHarness]:
    """The bot on each backend in turn, its clock moved by hand."""
    harness = BotHarness(emulator, database_url)
    await harness.start()
    try:
        yield harness
    finally:
        await harness.close()
    assert not harness.unexpected_errors(), "the bot logged errors:\n" + harness.errors.summary()


async def winners_of(hv: BotHarness, game: GameRow) -> set[int]:
    repo = await hv.reader()
    found = await repo.db.fetch(
        "SELECT user_id FROM results WHERE game_id = ? AND won = 1", game.id
    )
    return {int(row["user_id"]) for row in found}


async def play_pylons_to_the_end(
    emu: DiscordEmulator, hv: BotHarness, table: TableGame, people: dict[int, User]
) -> GameRow:
    """The people at a table play its game through Discord to the end: the opening's Keep
    button on the board, then each pylon with /pylons place in the game's thread, racing to
    join their edges; an AI seat (one who resigned) moves by itself."""
    repo = await hv.reader()
    thread = thread_of(emu, table)
    rng = random.Random(table.game.id)
    for _ in range(400):
        game = await repo.game(game_id=table.game.id, fresh=True)
        assert game is not None
        if game.status != "active":
            return game
        state = find_game("pylons").state_from_dict(game.state)
        seat = state.current_seat()
        assert seat is not None
        user = game.seats[seat].user_id
        if user is None:
            pass  # the AI seat is moving
        elif "keep" in {a.text() for a in state.legal_actions()}:
            keep = button_id(game, "keep")

            def opening(keep: str = keep) -> list[Record]:
                return [p for p in board_posts(emu, channel=thread) if keep in p.custom_ids]

            if not opening():
                # The board that offered it has lost its buttons (a resignation moved the game
                # on): the board asked for again offers them.
                await emu.slash(people[user], "game board", channel=thread)
            shown = await emu.wait_for(opening, message="the opening's Keep button")
            await emu.click(people[user], keep, message=shown[-1].message_id)
        else:
            cell = racing_cell(state, rng)
            await emu.slash(people[user], "pylons place", channel=thread, cell=cell)

        async def moved(version: int = game.version) -> bool:
            now = await repo.game(game_id=table.game.id, fresh=True)
            return now is not None and now.version > version

        await emu.wait_for(moved, 30, message="the next move stored")
    raise AssertionError("the game did not end")


async def timed_out(
    emu: DiscordEmulator, hv: BotHarness, clock: MovedClock, tables: list[TableGame]
) -> dict[int, int]:
    """Nobody moves at these tables: the turn clock (moved past its hour) ends each game as a
    loss for the one to move. Their losers, by game."""
    await hv.caught_up()  # an AI seat to move has moved: a person is to move at each
    repo = await hv.reader()
    losers, seated = {}, {}
    for table in tables:
        game = await repo.game(game_id=table.game.id, fresh=True)
        assert game is not None and game.status == "active"
        state = find_game(game.game_name).state_from_dict(game.state)
        losers[game.id] = game.seats[state.current_seat() or 0].user_id or 0
        assert losers[game.id], "a person is to move"
        seated[game.id] = {s.user_id for s in game.seats if s.user_id is not None}
    clock.advance(minutes=61)
    for table in tables:
        ended = await game_over(emu, hv, table)
        won = await winners_of(hv, ended)
        # A win for every other person still at the table (not for one who left it).
        assert won == seated[ended.id] - {losers[ended.id]}
    return losers


def assert_round_posted(emu: DiscordEmulator, found: list[TableGame]) -> None:
    """Each table of a round has its thread, started from its announcement in the channel,
    naming its players; its first board is in the thread, once."""
    for table in found:
        thread = thread_of(emu, table)
        assert thread.parent_id == emu.channel.id
        announcement = emu.message(thread.id)  # a thread started from a message has its id
        for user in table.players:
            assert f"<@{user}>" in announcement.text, announcement.text
        assert len(board_posts(emu, channel=thread)) >= 1
    threads = [t.game.thread_id for t in found]
    assert len(set(threads)) == len(found), "a thread of its own for each game"


@pytest.mark.usefixtures("mentioned")
async def test_a_nine_player_pylons_swiss_with_a_bye_a_withdrawal_and_a_no_show(
    emulator: DiscordEmulator, hv_on: BotHarness
) -> None:
    emu, hv = emulator, hv_on
    assert hv.bot is not None
    clock = MovedClock(datetime.now(UTC))
    hv.bot.service.clock = clock
    emu.allow_threads()
    mo = emu.add_user("Mo", manage_guild=True)
    people = [emu.add_user(name) for name in NAMES[:9]]
    by_id = {p.id: p for p in people}
    rank = {p.id: i for i, p in enumerate(people)}

    tid, post = await open_tournament(
        emu, mo, emu.channel, game="pylons", clock=60, rounds=3, name="Autumn Pylons"
    )
    await sign_up(emu, people, post, tid)
    again = await emu.click(people[0], f"tour:{tid}:join", message=post)
    (refused,) = again.ephemeral
    assert "signed up already" in refused.text
    # Leaving before the start takes one off the list; they join again.
    await emu.click(people[8], f"tour:{tid}:leave", message=post)
    assert f"<@{people[8].id}>" not in emu.message(post.message_id or 0).text
    await emu.click(people[8], f"tour:{tid}:join", message=post)

    # Nobody but its creator or a moderator starts it.
    (no,) = (await emu.slash(people[1], "tournament start")).ephemeral
    assert "moderator" in no.text, no.text
    assert not await rounds_paired(hv, tid)
    started = await emu.slash(mo, "tournament start")
    assert "has started" in started.where(kind="response")[0].text, emu.describe(started)

    # Round 1: four tables and a bye.
    first = await wait_for_round(emu, hv, tid, 1)
    assert len(first) == 4 and all(len(t.players) == 2 for t in first)
    (bye,) = await byes(hv, tid, 1)
    assert bye not in {u for t in first for u in t.players}
    assert_round_posted(emu, first)
    played, resigned, no_shows = first[0], first[1], first[2:]
    game = await play_pylons_to_the_end(emu, hv, played, by_id)
    assert game.status == "finished"
    # At the second table the worse-ranked resigns: an AI plays on for them, and the other
    # plays that game to its end.
    quitter = by_id[max(resigned.players, key=rank.__getitem__)]
    await resign(emu, quitter, resigned)
    ended = await play_pylons_to_the_end(emu, hv, resigned, by_id)
    assert quitter.id not in await winners_of(hv, ended)

    # Paused before its last games end: the round ends, and nothing more is paired; the
    # standings after it are posted as it ends.
    paused = await emu.slash(mo, "tournament pause")
    assert "paused" in paused.ephemeral[0].text
    await timed_out(emu, hv, clock, no_shows)  # nobody moved at the last two tables
    await hv.caught_up()
    assert await rounds_paired(hv, tid) == 1, "paused: no round 2"
    (after_one,) = await emu.wait_for(lambda: pictures(emu, emu.channel), 30)
    assert "after round 1" in after_one.text, "the standings after round 1, while paused"

    # One who finished round 1 leaves between rounds, then the moderator resumes.
    leaver = quitter
    left = await emu.slash(leaver, "tournament leave")
    assert "You left" in left.ephemeral[0].text
    await emu.slash(mo, "tournament resume")
    second = await wait_for_round(emu, hv, tid, 2)
    await hv.caught_up()
    assert pictures(emu, emu.channel) == [after_one], "round 2 comes without them again"
    assert len(second) == 4 and await byes(hv, tid, 2) == []
    assert leaver.id not in {u for t in second for u in t.players}
    assert_round_posted(emu, second)
    met_before = {frozenset(t.players) for t in first}
    assert not met_before & {frozenset(t.players) for t in second}, "nobody meets again"
    await timed_out(emu, hv, clock, second)

    third = await wait_for_round(emu, hv, tid, 3)
    assert len(third) == 4
    assert_round_posted(emu, third)
    await timed_out(emu, hv, clock, third)

    async def finished() -> bool:
        return await status(hv, tid) == "finished"

    await emu.wait_for(finished, 30, message="the tournament over")
    await hv.caught_up()

    # The points are the results': a win or a bye 1, a loss 0.
    # (A game's winners as its results say: a resigner, or one out of time, never wins.)
    expected = dict.fromkeys((p.id for p in people), 0)
    expected[bye] += 1
    for table in (*first, *second, *third):
        for user in await winners_of(hv, table.game):
            expected[user] += 1
    shown = pictures(emu, emu.channel)
    assert len(shown) == 3, "standings after rounds 1 and 2, then the final standings"
    final = points_said(shown[-1])
    assert final == {by_id[u].name: str(points) for u, points in expected.items()}, final
    best = max(expected.values())
    leaders = [u for u, points in expected.items() if points == best]
    assert any(f"<@{u}>" in shown[-1].text for u in leaders), shown[-1].text
    assert "final standings" in shown[-1].text
    assert "withdrew" in (shown[-1].attachments[0].description or "")
    assert await rounds_paired(hv, tid) == 3
    assert len(emu.threads(emu.channel)) == 12
    assert said_twice(emu, emu.channel) == []


def points_of(said: str) -> Fraction:
    """Points as the standings write them: "2", "⅔", "1½"."""
    whole = said.rstrip("".join(GLYPHS))
    return Fraction(int(whole or 0)) + sum((GLYPHS[c] for c in said[len(whole) :]), Fraction(0))


GLYPHS = {"½": Fraction(1, 2), "⅓": Fraction(1, 3), "⅔": Fraction(2, 3)}
GLYPHS |= {"⅙": Fraction(1, 6), "⅚": Fraction(5, 6)}


@pytest.mark.usefixtures("mentioned")
async def test_a_twelve_player_high_voltage_swiss_at_tables_of_three_and_four(
    emulator: DiscordEmulator, hv_on: BotHarness
) -> None:
    emu, hv = emulator, hv_on
    assert hv.bot is not None
    clock = MovedClock(datetime.now(UTC))
    hv.bot.service.clock = clock
    emu.allow_threads()
    mo = emu.add_user("Mo", manage_guild=True)
    people = [emu.add_user(name) for name in NAMES]
    by_id = {p.id: p for p in people}
    tid, post = await open_tournament(
        emu,
        mo,
        emu.channel,
        game="high-voltage",
        clock=60,
        table="3-4",
        rounds=2,
        name="Winter Voltage",
    )
    await sign_up(emu, people, post, tid)
    await emu.slash(mo, "tournament start")

    # Round 1: twelve players, three tables of four.
    first = await wait_for_round(emu, hv, tid, 1)
    assert sorted(len(t.players) for t in first) == [4, 4, 4]
    assert await byes(hv, tid, 1) == []
    assert_round_posted(emu, first)
    # A moderator takes one out: their game goes on with an AI in their seat, as resigned.
    removed = by_id[first[0].players[-1]]
    said = await emu.slash(mo, "tournament remove", member=removed)
    assert "is out of" in said.ephemeral[0].text
    await hv.caught_up()
    game = await (await hv.reader()).game(game_id=first[0].game.id, fresh=True)
    assert game is not None and game.seat_of(removed.id) is None
    await timed_out(emu, hv, clock, first)

    # Round 2: the eleven left, at tables of four, four and three.
    second = await wait_for_round(emu, hv, tid, 2)
    assert sorted(len(t.players) for t in second) == [3, 4, 4]
    assert removed.id not in {u for t in second for u in t.players}
    assert_round_posted(emu, second)
    await timed_out(emu, hv, clock, second)

    async def finished() -> bool:
        return await status(hv, tid) == "finished"

    await emu.wait_for(finished, 30, message="the tournament over")
    await hv.caught_up()
    shown = pictures(emu, emu.channel)
    assert len(shown) == 2, "standings after round 1, then the final standings"
    final = points_said(shown[-1])
    assert set(final) == {p.name for p in people}
    # A table of n shares out n/2 points (place p: (n-p)/(n-1) of a point; places shared
    # share their points), but for two sharing a place at a table of three, whose ¾ and ¼
    # are rounded up to whole sixths: ⅙ more at such a table, at most.
    tables_played = [*first, *second]
    exact = sum(Fraction(len(t.game.seats), 2) for t in tables_played)
    threes = sum(len(t.game.seats) == 3 for t in tables_played)
    given = sum(points_of(v) for v in final.values())
    assert exact <= given <= exact + Fraction(threes, 6), (given, exact)
    assert "removed" in (shown[-1].attachments[0].description or "")
    assert len(emu.threads(emu.channel)) == 6
    assert said_twice(emu, emu.channel) == []
