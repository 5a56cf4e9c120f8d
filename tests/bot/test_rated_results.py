"""What ratings read of a result beyond its score and win, on both databases: whether the seat
left the game early and which AI level held it, stored with new results and filled in by the
migration that added them for results stored before."""

from __future__ import annotations

import random

import pytest

from hvbot.database import base
from hvbot.services import GameService
from hvbot.services.stats import summarise
from hvbot.store import GameRow, GameStore, SeatResult, SeatRow, changes

GUILD = 1
ADA, BO, CY, DI = 100, 200, 300, 400
RATED_RESULTS = 23


async def _started(repo: GameStore, channel: int, seats: tuple[SeatRow, ...]) -> GameRow:
    game = await repo.create(
        changes.create_lobby(
            game="pylons",
            guild_id=GUILD,
            channel_id=channel,
            creator_id=ADA,
            creator_name="Ada",
            options={},
            at=repo.clock(),
        )
    )
    await repo.write(
        changes.start(game.id, game.version, seed=1, state={"x": 0}, seats=seats, at=repo.clock())
    )
    started = await repo.game(game_id=game.id)
    assert started is not None
    return started


# At the end of the game: Ada resigned, Bo was removed by a moderator (the game's posts were in
# French), Cy was away (an AI stood in), an AI played from the start, Di played to the end.
END_SEATS = (
    SeatRow(0, None, "easy", "Ada (resigned, AI plays)", resigned_user_id=ADA),
    SeatRow(1, None, "normal", "Bo (retiré, l'IA joue)"),
    SeatRow(2, None, "normal", "Cy (away, AI plays)", CY),
    SeatRow(3, None, "hard", "AI 1 (hard)"),
    SeatRow(4, DI, None, "Di"),
)


async def test_the_migration_fills_in_results_stored_before_it(
    empty_database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    every_migration = base.migrations
    with monkeypatch.context() as patched:
        patched.setattr(
            base, "migrations", lambda b: [m for m in every_migration(b) if m[0] < RATED_RESULTS]
        )
        old = await GameStore.open(empty_database_url)
        assert await old.schema_version() == RATED_RESULTS - 1
        start = tuple(SeatRow(s.seat, 1000 + s.seat, None, f"P{s.seat}") for s in END_SEATS)
        game = await _started(old, 10, start)
        await old.write(changes.set_seats(game.id, game.version, seats=END_SEATS, at=old.clock()))
        # Stored as the bot stored them then: no column for either.
        await old.db.transact(
            lambda tx: tx.executemany(
                "INSERT INTO results (game_id, seat, game, guild_id, user_id, display_name,"
                " score, won, finished_at) VALUES (?, ?, 'pylons', ?, ?, ?, ?, ?, ?)",
                [
                    (game.id, 0, GUILD, ADA, END_SEATS[0].display_name, 30, 0, "2025-01-01"),
                    (game.id, 1, GUILD, None, END_SEATS[1].display_name, 40, 1, "2025-01-01"),
                    (game.id, 2, GUILD, CY, END_SEATS[2].display_name, 20, 0, "2025-01-01"),
                    (game.id, 3, GUILD, None, END_SEATS[3].display_name, 10, 0, "2025-01-01"),
                    (game.id, 4, GUILD, DI, "Di", 5, 0, "2025-01-01"),
                ],
            )
        )
        await old.close()

    repo = await GameStore.open(empty_database_url)
    try:
        assert await repo.schema_version() >= RATED_RESULTS
        rows = await repo.results.of_kind(guild_id=GUILD, game="pylons")
        assert [(r.seat, r.left_early, r.ai_level) for r in rows] == [
            (0, True, "easy"),  # resigned
            (1, True, "normal"),  # removed by a moderator (named in French)
            (2, False, "normal"),  # away: the result is Cy's, as the AI made it
            (3, False, "hard"),  # an AI seat from the start
            (4, False, None),  # a person to the end
        ]
        summary = summarise("pylons", rows, levels=["easy", "normal", "hard"])
        assert set(summary.ais) == {"hard"}
        ada, cy, di = (summary.players[u].rating for u in (ADA, CY, DI))
        assert ada is not None and cy is not None and di is not None
        assert ada.mu < di.mu < cy.mu, "the resigner last, below Di's five points"
    finally:
        await repo.close()


async def test_new_results_say_who_left_early_and_which_ai_played(database_url: str) -> None:
    repo = await GameStore.open(database_url)
    try:
        game = await _started(
            repo, 11, tuple(SeatRow(s.seat, 9 + s.seat, None, "x") for s in END_SEATS)
        )
        await repo.write(changes.set_seats(game.id, game.version, seats=END_SEATS, at=repo.clock()))
        results = [SeatResult(s.seat, 10 * s.seat, s.seat == 1) for s in END_SEATS]
        await repo.write(
            changes.record_actions(
                game.id,
                game.version + 1,
                state={"x": 1},
                actions=[(4, "a")],
                status="finished",
                results=results,
                at=repo.clock(),
            )
        )
        rows = await repo.results.of_kind(guild_id=GUILD, game="pylons")
        # The store marks a resignation itself; the service marks the rest (next test).
        assert [(r.left_early, r.ai_level) for r in rows] == [
            (True, "easy"),
            (False, "normal"),
            (False, "normal"),
            (False, "hard"),
            (False, None),
        ]
    finally:
        await repo.close()


async def test_a_finished_game_marks_removed_seats_and_a_forfeit_its_loser(
    database_url: str,
) -> None:
    """Through the service: a moderator removes Bo, then Ada resigns, the last person at the
    table, and the game ends as her forfeit (as when a clock runs out with `end`): both left
    early; the AI added in the lobby did not."""
    repo = await GameStore.open(database_url)
    try:
        service = GameService(repo, seed_source=random.Random(4))
        await service.lobby.new_lobby(
            channel_id=10, guild_id=GUILD, user_id=ADA, name="Ada", game_name="sector6"
        )
        await service.lobby.join(channel_id=10, user_id=BO, name="Bo")
        await service.lobby.add_ai(channel_id=10, user_id=ADA, level="hard")
        await service.lobby.start(channel_id=10, user_id=ADA, can_manage=False)
        kicked = await service.moderation.kick(channel_id=10, seat_number=2, moderator="Mod")
        assert kicked.what == "ai"
        change = await service.play.resign(channel_id=10, user_id=ADA)
        assert change.what == "ended"
        rows = await repo.results.of_kind(guild_id=GUILD, game="sector6")
        assert [(r.seat, r.user_id, r.won, r.left_early, r.ai_level) for r in rows] == [
            (0, ADA, False, True, None),
            (1, None, True, True, "normal"),
            (2, None, True, False, "hard"),
        ]
    finally:
        await repo.close()
