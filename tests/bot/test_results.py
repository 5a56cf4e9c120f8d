"""Results of finished games on a real SQLite file: stored with the finishing move, never for
abandoned games, filled once for games that finished before results were kept, and summed up
into the numbers /stats shows."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from played_games import finish_as_before_results, finished_pylons, schema_before_results

from data.texts import ENGLISH, texts_for
from games import find_game
from hvbot.messages.leaderboards import NAME_LIMIT, best_ever_line, rating_note, server_post
from hvbot.messages.outgoing import send_kwargs
from hvbot.services import GameService, seat_results
from hvbot.services.stats import summaries, summarise
from hvbot.store import GameRow, GameStore, ResultRow, SeatResult, SeatRow, VersionConflict, changes

GUILD, OTHER_GUILD = 1, 2
ADA, BO = 100, 200
SEATS = (SeatRow(0, ADA, None, "Ada"), SeatRow(1, BO, None, "Bo"), SeatRow(2, None, "easy", "AI 1"))


@pytest.fixture
async def repo(database_url: str):
    repository = await GameStore.open(database_url)
    yield repository
    await repository.close()


async def _started(
    repo: GameStore,
    *,
    channel: int = 10,
    guild: int = GUILD,
    state: dict | None = None,
    seats: tuple[SeatRow, ...] = SEATS,
) -> GameRow:
    game = await repo.create(
        changes.create_lobby(
            game="pylons",
            guild_id=guild,
            channel_id=channel,
            creator_id=ADA,
            creator_name="Ada",
            options={},
            at=repo.clock(),
        )
    )
    await repo.write(
        changes.start(
            game.id,
            game.version,
            seed=42,
            state=state or {"x": 0},
            seats=seats,
            at=repo.clock(),
        )
    )
    started = await repo.game(game_id=game.id)
    assert started is not None
    return started


FINAL = [SeatResult(0, 9, True), SeatResult(1, 4, False), SeatResult(2, 9, True)]


async def test_results_are_stored_with_the_finishing_move(repo: GameStore) -> None:
    game = await _started(repo)
    move = changes.record_actions(
        game.id,
        game.version,
        state={"x": 1},
        actions=[(0, "a")],
        at=repo.clock(),
    )
    await repo.write(move)
    version = move.version
    assert await repo.results.of_kind(guild_id=GUILD, game="pylons") == []
    await repo.write(
        changes.record_actions(
            game.id,
            version,
            state={"x": 2},
            actions=[(1, "b")],
            status="finished",
            results=FINAL,
            at=repo.clock(),
        )
    )
    rows = await repo.results.of_kind(guild_id=GUILD, game="pylons")
    assert [(r.seat, r.user_id, r.display_name, r.score, r.won) for r in rows] == [
        (0, ADA, "Ada", 9, True),
        (1, BO, "Bo", 4, False),
        (2, None, "AI 1", 9, True),
    ]
    assert {(r.game_id, r.game_name, r.guild_id) for r in rows} == {(game.id, "pylons", GUILD)}
    assert len({r.finished_at for r in rows}) == 1 and rows[0].finished_at
    assert rows[2].is_ai and not rows[0].is_ai
    assert await repo.results.of_kind(guild_id=OTHER_GUILD, game="pylons") == []
    assert await repo.results.of_kind(guild_id=GUILD, game="high-voltage") == []


async def test_a_seat_an_ai_played_for_a_person_counts_for_them_and_a_resignation_as_a_loss(
    repo: GameStore,
) -> None:
    game = await _started(repo)
    # Ada resigned (an AI played on, and its seat won); Bo was away (an AI stood in for him).
    seats = (
        SeatRow(0, None, "easy", "Ada (resigned, AI plays)", resigned_user_id=ADA),
        SeatRow(1, None, "normal", "Bo (away, AI plays)", BO),
        SeatRow(2, None, "easy", "AI 1"),
    )
    await repo.write(changes.set_seats(game.id, game.version, seats=seats, at=repo.clock()))
    await repo.write(
        changes.record_actions(
            game.id,
            game.version + 1,
            state={"x": 2},
            actions=[(1, "b")],
            status="finished",
            results=[SeatResult(0, 9, True), SeatResult(1, 8, True), SeatResult(2, 1, False)],
            at=repo.clock(),
        )
    )
    rows = await repo.results.of_kind(guild_id=GUILD, game="pylons")
    assert [(r.seat, r.user_id, r.score, r.won) for r in rows] == [
        (0, ADA, 9, False),  # a resignation is a loss, whatever the AI did with the seat
        (1, BO, 8, True),
        (2, None, 1, False),
    ]
    summary = summarise("pylons", rows)
    ada, bo = summary.players[ADA], summary.players[BO]
    assert (ada.played, ada.wins, bo.played, bo.wins) == (1, 0, 1, 1)
    assert ada.rating is not None and bo.rating is not None
    assert ada.rating.mu < bo.rating.mu, "the resigner lost rating to the winner"
    assert [(r.left_early, r.ai_level) for r in rows] == [
        (True, "easy"),  # resigned: ranks last, whatever the seat's AI scored
        (False, "normal"),
        (False, "easy"),
    ]
    assert list(summary.ais) == ["easy"], "only the AI that played from the start is rated"
    assert summary.ais["easy"].rating is not None
    assert ada.rating.mu < summary.ais["easy"].rating.mu, "the resigner ranks below the AI"


async def test_a_refused_finishing_move_stores_no_results(repo: GameStore) -> None:
    game = await _started(repo)
    with pytest.raises(VersionConflict):
        await repo.write(
            changes.record_actions(
                game.id,
                game.version + 3,
                state={"x": 2},
                actions=[(1, "b")],
                status="finished",
                results=FINAL,
                at=repo.clock(),
            )
        )
    assert await repo.results.of_kind(guild_id=GUILD, game="pylons") == []
    with pytest.raises(ValueError, match="finished"):
        await repo.write(
            changes.record_actions(
                game.id,
                game.version,
                state={"x": 2},
                actions=[(1, "b")],
                results=FINAL,
                at=repo.clock(),
            )
        )
    assert (await repo.game(game_id=game.id)).version == game.version


async def test_abandoned_games_have_no_results(repo: GameStore) -> None:
    game = await _started(repo)
    await repo.write(changes.set_status(game.id, game.version, status="abandoned", at=repo.clock()))
    assert await repo.results.of_kind(guild_id=GUILD, game="pylons") == []
    assert await repo.finished_games_without_results() == []
    assert await repo.results.kinds_played(guild_id=GUILD) == []


async def test_results_survive_a_restart_and_are_found_per_person(database_url: str) -> None:
    path = database_url
    repo = await GameStore.open(path)
    game = await _started(repo)
    await repo.write(
        changes.record_actions(
            game.id,
            game.version,
            state={"x": 1},
            actions=[(0, "a")],
            status="finished",
            results=FINAL,
            at=repo.clock(),
        )
    )
    await repo.close()

    again = await GameStore.open(path)
    try:
        assert len(await again.results.of_kind(guild_id=GUILD, game="pylons")) == 3
        assert await again.results.kinds_played(guild_id=GUILD) == ["pylons"]
        assert await again.results.kinds_played(guild_id=GUILD, user_id=BO) == ["pylons"]
        assert await again.results.kinds_played(guild_id=GUILD, user_id=999) == []
        assert await again.results.kinds_played(guild_id=OTHER_GUILD, user_id=BO) == []
        assert await again.finished_games_without_results() == []
    finally:
        await again.close()


# ---------------------------------------------------------------------- the service


async def test_a_finished_game_gets_its_results_from_the_service(database_url: str) -> None:
    repo = await GameStore.open(database_url)
    try:
        service = GameService(repo, seed_source=random.Random(4))
        game = await finished_pylons(
            service, channel_id=10, guild_id=GUILD, players=[(ADA, "Ada"), (BO, "Bo")]
        )
        assert game.status == "finished"
        outcome = service.games.load_state(game).outcome()
        assert outcome is not None
        rows = await repo.results.of_kind(guild_id=GUILD, game="pylons")
        assert [r.score for r in rows] == list(outcome.scores)
        assert [r.seat for r in rows if r.won] == list(outcome.winners)
        assert [r.user_id for r in rows] == [ADA, BO]
        # A second game on the server, finished later, comes after the first.
        second = await finished_pylons(
            service, channel_id=10, guild_id=GUILD, players=[(BO, "Bo"), (ADA, "Ada")], seed=2
        )
        rows = await repo.results.of_kind(guild_id=GUILD, game="pylons")
        assert [r.game_id for r in rows] == [game.id, game.id, second.id, second.id]
        # What tells /stats whether the summary it keeps is still true.
        assert await repo.results.count_of_kind(guild_id=GUILD, game="pylons") == 4
        assert await repo.results.count_of_kind(guild_id=OTHER_GUILD, game="pylons") == 0
        (summary,) = await summaries(repo, guild_id=GUILD)
        assert summary.finished == 2
        assert {p.played for p in summary.players.values()} == {2}
        assert all(p.rating is not None and p.rating.games == 2 for p in summary.players.values())
        assert await summaries(repo, guild_id=GUILD, game="high-voltage") == []
        assert await summaries(repo, guild_id=OTHER_GUILD) == []
    finally:
        await repo.close()


async def test_games_finished_before_results_were_kept_are_filled_once(
    empty_database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = empty_database_url
    with schema_before_results(monkeypatch):
        old = await GameStore.open(path)
        assert "results" not in await old.db.columns()
        dealt = find_game("pylons").new_state(2, 8).to_dict()
        finished = await _started(old, channel=10, state=dealt, seats=SEATS[:2])
        final = await finish_as_before_results(old, finished, seed=8)
        abandoned = await _started(old, channel=11)
        await old.write(
            changes.set_status(
                abandoned.id,
                abandoned.version,
                status="abandoned",
                at=old.clock(),
            )
        )
        unreadable = await _started(old, channel=12)
        await old.write(
            changes.record_actions(
                unreadable.id,
                unreadable.version,
                state={"format": "something else"},
                actions=[],
                status="finished",
                at=old.clock(),
            )
        )
        await old.close()

    repo = await GameStore.open(path)
    try:
        assert await repo.schema_version() >= 3
        service = GameService(repo)
        assert await service.results.backfill_results() == 1
        rows = await repo.results.of_kind(guild_id=GUILD, game="pylons")
        expected = seat_results(final)
        assert [SeatResult(r.seat, r.score, r.won) for r in rows] == expected
        assert {r.game_id for r in rows} == {finished.id}, "abandoned and unreadable: none"
        # Only the unreadable game is left waiting, and filling again changes nothing.
        assert [g.id for g in await repo.finished_games_without_results()] == [unreadable.id]
        assert await service.results.backfill_results() == 0
        assert await repo.results.of_kind(guild_id=GUILD, game="pylons") == rows
    finally:
        await repo.close()

    reopened = await GameStore.open(path)
    try:
        assert await GameService(reopened).results.backfill_results() == 0
        assert await reopened.results.of_kind(guild_id=GUILD, game="pylons") == rows
    finally:
        await reopened.close()


# ---------------------------------------------------------------------- summing up


def _row(
    game_id: int,
    seat: int,
    user_id: int | None,
    name: str,
    score: int,
    won: bool,
    *,
    ai_level: str | None = None,
    left_early: bool = False,
):
    return ResultRow(
        game_id=game_id,
        seat=seat,
        game_name="pylons",
        guild_id=GUILD,
        user_id=user_id,
        display_name=name,
        score=score,
        won=won,
        finished_at=f"2025-01-0{game_id}T10:00:00+00:00",
        left_early=left_early,
        ai_level=ai_level,
    )


def test_a_summary_counts_people_and_rates_games_against_ai_seats_too() -> None:
    rows = [
        _row(1, 0, ADA, "Ada", 10, True),
        _row(1, 1, None, "AI 1 (hard)", 30, False, ai_level="hard"),  # nobody's record
        _row(2, 0, ADA, "Ada", 3, False),
        _row(2, 1, BO, "Bo", 12, True),
        _row(3, 0, None, "AI 1", 2, False, ai_level="easy"),
        _row(3, 1, ADA, "Ada Lovelace", 7, True),
        _row(3, 2, BO, "Bo", 7, True),
    ]
    summary = summarise("pylons", rows)
    assert summary.finished == 3
    assert set(summary.players) == {ADA, BO}
    ada, bo = summary.players[ADA], summary.players[BO]
    assert (ada.name, ada.played, ada.wins, ada.best) == ("Ada Lovelace", 3, 2, 10)
    assert ada.win_rate == pytest.approx(2 / 3)
    assert (bo.played, bo.wins, bo.best, bo.win_rate) == (2, 2, 12, 1.0)
    assert (summary.best, summary.best_by) == (12, BO)
    # Every game is rated: Ada's first, against the hard AI, too.
    assert ada.rating is not None and bo.rating is not None
    assert (ada.rating.games, bo.rating.games) == (3, 2)
    assert [f for f, _ in ada.history] == [r.finished_at for r in rows if r.seat == 0][:3]
    assert [shown for _, shown in ada.history][-1] == ada.rating.shown
    assert len(bo.history) == 2
    assert set(summary.ais) == {"hard", "easy"}
    hard, easy = summary.ais["hard"], summary.ais["easy"]
    assert (hard.played, hard.wins, easy.played, easy.wins) == (1, 0, 1, 0)
    assert hard.rating is not None and easy.rating is not None
    assert [ai.level for ai in summary.ai_lines()] == ["hard", "easy"], "strongest first"
    assert [p.user_id for p in summary.top(5)] == [p.user_id for p in summary.top(2)]
    assert {p.user_id for p in summary.top(5)} == {ADA, BO}, "people only"


def test_people_with_no_rated_opponent_are_unrated_and_ranked_last() -> None:
    """An AI seat whose level was never known (a result older than levels were kept) is
    rated for nobody."""
    rows = [
        _row(1, 0, 300, "Cy", 5, True),
        _row(1, 1, None, "AI 1", 1, False),
        _row(2, 0, ADA, "Ada", 3, False),
        _row(2, 1, BO, "Bo", 4, True),
    ]
    summary = summarise("pylons", rows)
    assert summary.players[300].rating is None and summary.players[300].history == []
    assert [p.user_id for p in summary.top(3)] == [BO, ADA, 300]
    assert (summary.best, summary.best_by) == (5, 300)
    assert summary.ais == {}


def test_a_seat_a_moderator_removed_ranks_last_for_nobody() -> None:
    rows = [
        _row(1, 0, ADA, "Ada", 3, False),
        _row(1, 1, None, "Bo (removed, AI plays)", 50, True, ai_level="easy", left_early=True),
        _row(1, 2, 300, "Cy", 2, False),
    ]
    summary = summarise("pylons", rows)
    assert summary.ais == {}, "the AI that played the seat's end is not rated for it"
    assert BO not in summary.players
    ada, cy = summary.players[ADA].rating, summary.players[300].rating
    assert ada is not None and cy is not None and ada.mu > cy.mu, "Ada scored more than Cy"


def test_a_score_counts_as_best_only_for_a_game_played_to_its_end() -> None:
    """A seat that left early has no final score (it ranks last, as the ratings have it),
    and a game stopped by a forfeit has none for anyone: /stats' best scores leave both out
    and say why, rather than crowning a resignation's 0."""
    rows = [
        # Bo resigned, the last person at the table: the game stopped, every score 0.
        _row(1, 0, BO, "Bo", 0, False, left_early=True),
        _row(1, 1, None, "AI 1 (easy)", 0, True, ai_level="easy"),
    ]
    summary = summarise("pylons", rows)
    assert summary.players[BO].best is None and summary.players[BO].played == 1
    assert summary.best is None and summary.best_by is None
    assert best_ever_line(summary, texts_for("en")) is None
    assert "whoever leaves early has no final score" in rating_note(texts_for("en"))
    # Ada resigns and an AI plays her seat on; Cy plays to the end.
    rows += [
        _row(2, 0, ADA, "Ada", 9, False, left_early=True),
        _row(2, 1, 300, "Cy", 4, True),
    ]
    summary = summarise("pylons", rows)
    assert summary.players[ADA].best is None
    assert (summary.best, summary.best_by) == (4, 300)


async def test_the_public_board_stays_within_discord_limits_whatever_the_names() -> None:
    """Names full of markdown grow when escaped; six of the longest still fit the message and
    the picture's alt text, and ping nobody."""
    name = "@everyone *_~`|>" * 10
    rows = [
        _row(1, seat, 1000 + seat, f"{name}{seat}", 10**6 + seat, seat == 0) for seat in range(6)
    ]
    post = await server_post(
        [summarise("pylons", rows)],
        now=datetime(2025, 2, 1, tzinfo=UTC),
        titles={"pylons": "Pylons"},
        texts=ENGLISH,
    )
    sent = send_kwargs(post)
    (picture,) = sent["files"]
    alt = picture.description
    (card,) = sent["view"].to_components()  # a card: its words are its Text Display's
    text = card["components"][0]["content"]
    assert "content" not in sent and len(text) <= 4000 and len(alt) <= 1024
    assert "Best score ever: **1000005** by " in text
    top = [line for line in alt.splitlines() if line[0].isdigit()]
    assert len(top) == 6, "every player of the game, up to ten"
    for said in (text, alt):
        assert "@everyone" not in said, "names never ping anyone"
    assert all(len(line) < 2 * NAME_LIMIT + 60 for line in top)


async def test_the_last_person_to_resign_ends_the_game_as_their_loss(database_url: str) -> None:
    """Against AI seats only, a resignation ends the game at once (nobody is left to watch the
    AIs play on), and it still counts: a loss for the resigner, a win for the AI's seat."""
    repo = await GameStore.open(database_url)
    try:
        service = GameService(repo, seed_source=random.Random(4))
        await service.lobby.new_lobby(
            channel_id=10, guild_id=GUILD, user_id=ADA, name="Ada", game_name="pylons"
        )
        await service.lobby.add_ai(channel_id=10, user_id=ADA, level="normal")
        await service.lobby.start(channel_id=10, user_id=ADA, can_manage=False)
        change = await service.play.resign(channel_id=10, user_id=ADA)
        game, what, owed = change.game, change.what, change.owed
        assert (what, game.status) == ("ended", "finished")
        assert [o.kind for o in owed] == ["replay", "lobby"]
        assert game.clock_deadline is None
        rows = await repo.results.of_kind(guild_id=GUILD, game="pylons")
        assert [(r.seat, r.user_id, r.won) for r in rows] == [(0, ADA, False), (1, None, True)]
        (summary,) = await summaries(repo, guild_id=GUILD)
        assert summary.players[ADA].played == 1 and summary.players[ADA].wins == 0
        assert await repo.open_game_in_channel(channel_id=10) is None
    finally:
        await repo.close()
