"""Tournaments in a server: a Swiss or a round robin, played over days with turn clocks.

A moderator (or a member who may open games there) opens one in a channel with
`/tournament new`: the game and its options, the format, the table size, the turn clock and
what its running out does, an optional start time and a most of entrants. People sign up
with the Join and Leave buttons of its sign-up post, which lists them. The creator starts it
(or it starts by itself at its time): entrants are seeded by rating, and round 1 is paired.

Each table is an ordinary game (ratings count it as any game), opened already started in
the tournament's channel: its announcement names the seats with mentions, its thread is
started from that message and its boards go there, secrets by DM. Every game has a turn
clock whose running out ends the game as a loss for the one out of time, or gives their seat
to an AI, so no round waits forever. When every game of a round has ended, the next round is
paired from the finished results (`hvbot.services.pairing`), or the tournament ends and its
podium is posted. The round's row is the claim (`hvbot.store.tournaments`): of several
processes that see the last game end, one pairs it.

Withdrawals: a person may leave (before the start: off the list; after: not paired again,
their running game goes on; a round robin's remaining games against them are byes for their
opponents). A moderator may remove someone: as leaving, and their running game counts as
resigned. Pause: no new round is paired while paused (running games go on); the standings
after a round whose last game ends meanwhile are posted then, once (not again with the next
round's pairing); resume pairs a round that is due. Cancel: no more rounds; running games go
on as ordinary games.

Every change comes back as a `TournamentChange` with the posts it owes in the outbox, and
`hvbot.aftermath.Aftermath.follow` sends them (see docs/tournaments.md).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from itertools import combinations
from typing import Any

from data.texts import texts_for
from engine import State
from engine.registry import find_game
from hvbot.database import Duplicate, Transaction
from hvbot.services.access import GameAccess
from hvbot.services.errors import BotError, listed, said
from hvbot.services.lobby import CLOCK_LENGTHS, Lobby
from hvbot.services.outcomes import Change, TournamentChange
from hvbot.services.pairing import Round, round_robin, swiss_round
from hvbot.services.ratings import ORIGIN, Placing, ranks
from hvbot.services.server_settings import DEFAULT_REMIND_MINUTES
from hvbot.services.standings import Bye, Standing, TableResult, standings
from hvbot.services.stats import Stats
from hvbot.store import GameRow, SeatRow, TurnClock, VersionConflict
from hvbot.store import tournaments as rows
from hvbot.store.duties import Owed
from hvbot.store.sql import stamp
from hvbot.store.tournaments import (
    FORMATS,
    EntrantRow,
    Full,
    RoundRow,
    TableGameRow,
    TournamentRow,
)

# Entrants a tournament takes at most (and by default).
MOST_ENTRANTS = 64
# Swiss rounds at most.
MOST_ROUNDS = 12
# A round robin's entrants, at least and at most.
ROUND_ROBIN_FEWEST, ROUND_ROBIN_MOST = 3, 8
# What a tournament game's clock may do when it runs out: the game must end, so an AI playing
# single moves ("ai_move") is not one of them.
TOURNAMENT_TIMEOUTS = ("end", "ai_seat")
# How often a change that met another one made meanwhile is tried again on the new row.
TRIES = 3


@dataclass(frozen=True)
class Table:
    """A table of a round as it stands: its game, its players in seat order, the game's
    status, and the players' places once it finished (1 = first, ties share; None: still
    playing, or ended without a result)."""

    table: TableGameRow
    status: str
    places: tuple[int, ...] | None

    @property
    def is_open(self) -> bool:
        return self.status in ("lobby", "active")


@dataclass(frozen=True)
class TournamentStanding:
    """A tournament as it stands, for `/tournament standings` and the posts: its row, its
    entrants (seed order once started), its rounds as paired, its tables with their results,
    and the standings computed from the finished results up to `upto` rounds (best first;
    players are user ids)."""

    tournament: TournamentRow
    entrants: tuple[EntrantRow, ...]
    rounds: tuple[RoundRow, ...]
    tables: tuple[Table, ...]
    standings: tuple[Standing, ...]
    upto: int

    def entrant(self, user_id: int) -> EntrantRow | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    @property
    def by_tables(self) -> bool:
        """Played at tables of more than two: the tie-breaks are those of tables."""
        return self.tournament.largest > 2

    @property
    def round_robin(self) -> bool:
        return self.tournament.format == "round_robin"

    def open_tables(self, number: int) -> list[Table]:
        return [t for t in self.tables if t.table.round == number and t.is_open]


def _refused(message: str, key: str, **fields: Any) -> BotError:
    return BotError(message, key=f"bot.tournament.error.{key}", **fields)


def _table_choices(game_name: str) -> tuple[str, ...]:
    """The table sizes a game's tournament may have: "2" where two may play, "3", "4" and
    "3-4" where three or four may."""
    rules = find_game(game_name)
    found = [size for size in ("2", "3", "4") if rules.min_seats <= int(size) <= rules.max_seats]
    if "3" in found and "4" in found:
        found.append("3-4")
    return tuple(found)


def _fewest(format: str, smallest: int) -> int:
    """Entrants a tournament needs to start: two tables' worth (a round robin three)."""
    return ROUND_ROBIN_FEWEST if format == "round_robin" else 2 * smallest


def places_of(results: Sequence[Placing[int]]) -> tuple[int, ...]:
    """Each seat's place at a finished table, as the ratings read a game's results: a seat
    that left early last, then the winners sharing first, then by score."""
    return tuple(ranks(results))


class Tournaments:
    """Opening, joining, running and ending tournaments (reachable as
    `service.tournaments`). Every refusal is a `BotError` with a text key and an English
    message saying what would be allowed; all times come from the service's clock."""

    def __init__(self, games: GameAccess, lobby: Lobby, stats: Stats | None = None) -> None:
        self.games = games
        self.lobby = lobby
        self.stats = stats
        self.store = games.store
        self.table = games.store.tournaments

    @property
    def clock(self) -> Callable[[], datetime]:
        return self.games.clock

    # ------------------------------------------------------------------ sign-up

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        may_open: bool,
        game: str,
        options: Mapping[str, Any],
        format: str,
        rounds: int | None,
        table: str,
        turn_clock: timedelta,
        timeout: str,
        starts_at: datetime | None,
        most: int | None,
        name: str | None,
        language: str = "en",
    ) -> TournamentChange:
        """Open a tournament in `channel_id` (`may_open`: the person is a moderator, or may
        open games here by the server's settings: the caller decides, as /game new does).
        `format` "swiss" (`rounds` 1..12, None: ceil(log2(entrants)) at the start) or
        "round_robin" (3..8 entrants, tables of 2); `table` "2", "3", "4" or "3-4" (Pylons:
        "2" only); `turn_clock` one of the lengths /game new offers, `timeout` "end" or
        "ai_seat"; `starts_at` in the future or None; `most` up to 64 (None: 64, a round
        robin's 8). `name`: its title (None: the game's title and "tournament");
        `language`: of its posts. Owes the sign-up post (`what` "created")."""
        if not may_open:
            raise _refused(
                "On this server, tournaments are opened by moderators, or by members who may"
                " open games in this channel.",
                "not_allowed",
            )
        try:
            rules = find_game(game)
        except KeyError as exc:
            raise BotError(str(exc.args[0])) from exc
        try:
            resolved = rules.resolve_options(dict(options))
        except ValueError as exc:
            raise BotError(str(exc)) from exc
        if format not in FORMATS:
            raise _refused(
                "A tournament is a Swiss (swiss) or a round robin (round_robin).", "format"
            )
        choices = _table_choices(rules.name)
        if format == "round_robin" and table != "2":
            raise _refused("A round robin is played at tables of 2.", "round_robin_table")
        if table not in choices:
            shown = ", ".join(choices)
            raise _refused(
                f"{rules.title} is played at tables of {shown}.",
                "table",
                game=rules.title,
                tables=shown,
            )
        smallest, _, largest = table.partition("-")
        low, high = int(smallest), int(largest or smallest)
        if format == "round_robin" and rounds is not None:
            raise _refused(
                "A round robin plays everyone against everyone once: leave out the number of"
                " rounds.",
                "round_robin_rounds",
            )
        if rounds is not None and not 1 <= rounds <= MOST_ROUNDS:
            raise _refused(
                f"A Swiss plays 1 to {MOST_ROUNDS} rounds (or leave the number out: as many"
                " as its entrants need).",
                "rounds",
                most=MOST_ROUNDS,
            )
        minutes = int(turn_clock.total_seconds()) // 60
        if minutes not in CLOCK_LENGTHS:
            lengths = listed([said(f"commands.choices.clock.{m}") for m in CLOCK_LENGTHS])
            raise _refused(
                f"A tournament needs a turn clock of {lengths} a move, so that no round waits"
                " forever.",
                "clock",
                lengths=lengths,
            )
        if timeout not in TOURNAMENT_TIMEOUTS:
            raise _refused(
                "When a tournament game's clock runs out, the game ends as a loss for the"
                " player out of time (end), or an AI takes their seat (ai_seat): an AI"
                " playing only that move would let the game wait again.",
                "timeout",
            )
        now = self.clock()
        if starts_at is not None and starts_at <= now:
            raise _refused("The start time must be in the future.", "starts_at")
        fewest = _fewest(format, low)
        top = ROUND_ROBIN_MOST if format == "round_robin" else MOST_ENTRANTS
        most = top if most is None else most
        if not fewest <= most <= top:
            raise _refused(
                f"This tournament takes from {fewest} to {top} entrants at most.",
                "most",
                fewest=fewest,
                most=top,
            )
        title = name.strip() if name and name.strip() else None
        work = rows.create(
            guild_id=guild_id,
            channel_id=channel_id,
            creator_id=user_id,
            game=rules.name,
            options=resolved,
            format=format,
            rounds=rounds,
            smallest=low,
            largest=high,
            clock_minutes=minutes,
            timeout=timeout,
            starts_at=starts_at,
            most=most,
            name=title or texts_for(language)("bot.tournament.default_name", game=rules.title),
            language=language,
            at=now,
        )
        try:
            tournament_id, owed = await self.store.db.transact(work)
        except Duplicate as exc:
            raise _refused(
                "This channel has an open tournament already: one at a time in a channel.",
                "busy",
            ) from exc
        made = await self._get(tournament_id)
        return TournamentChange(tournament=made, owed=tuple(owed), what="created")

    async def join(
        self,
        tournament_id: int,
        user_id: int,
        *,
        name: str | None = None,
        language: str | None = None,
    ) -> TournamentChange:
        """Sign up (`name`: how the person is shown, their display name; `language`: their
        own, for their seats). Only in sign-up, once, up to its most. Owes the sign-up post's
        update (kind "signup": a Join button's answer may show it itself)."""
        for _ in range(TRIES):
            tournament = await self._get(tournament_id)
            if tournament.status != "signup":
                raise _refused(
                    "Sign-up is closed: the tournament has started or is over.", "not_signup"
                )
            step = rows.add_entrant(
                tournament.id,
                user_id,
                name or f"<@{user_id}>",
                language,
                tournament.most,
                self.clock(),
            )
            try:
                return await self._change(tournament, "joined", steps=(step,))
            except Duplicate as exc:
                raise _refused("You are signed up already.", "joined_already") from exc
            except Full as exc:
                raise _refused(
                    f"The tournament is full ({tournament.most} entrants).",
                    "full",
                    most=tournament.most,
                ) from exc
            except VersionConflict:
                continue
        raise _changed()

    async def leave(self, tournament_id: int, user_id: int) -> TournamentChange:
        """Leave: before the start, off the list; after, withdrawn (not paired again; their
        running game goes on; in a round robin their later games are byes for the others)."""
        return await self._withdraw(tournament_id, user_id, removed=False)

    async def leave_in(self, channel_id: int, user_id: int) -> TournamentChange:
        """`leave` of the one open tournament of `channel_id` (or of the channel a thread is
        in: pass that channel's id)."""
        tournament = await self.in_channel(channel_id)
        if tournament is None:
            raise _none_here()
        return await self.leave(tournament.id, user_id)

    async def remove(self, tournament_id: int, user_id: int, *, by: int) -> TournamentChange:
        """A moderator (`by`) removes `user_id`: withdrawn as by leaving, and their running
        game counts as resigned (`what` "removed"; the resignation is among its `games`). The
        caller checks that `by` moderates.

        The withdrawal and the resignation are two changes (one of the tournament, one of
        the game, each with its own compare-and-set): if this process dies between them, the
        periodic check (`due`) resigns the seat of a removed person still seated, once."""
        change = await self._withdraw(tournament_id, user_id, removed=True)
        resigned: list[Change] = []
        standing = await self.standing(tournament_id)
        told = texts_for(change.tournament.language)(
            "bot.tournament.removed_told", player=f"<@{user_id}>", moderator=f"<@{by}>"
        )
        for table in standing.open_tables(change.tournament.round):
            if user_id in table.table.players:
                done = await self._resign(table.table.game_id, user_id, told)
                if done is not None:
                    resigned.append(done)
        return replace(change, games=tuple(resigned))

    async def _resign(self, game_id: int, user_id: int, told: str) -> Change | None:
        """The seat of a removed person resigned, under the game's lock; None when the game
        is over or they sit there no more (resigned already, by this process or another)."""
        async with self.store.lock(game_id):
            game = await self.games.reload(game_id)
            seat = game.seat_of(user_id)
            if not game.is_open or seat is None:
                return None
            try:
                game, what, owed = await self.games.resign(game, seat, told=told)
            except VersionConflict:
                return None  # the game moved on meanwhile (it ended, or was resigned)
        return Change(game=game, owed=owed, what=what)

    async def _resign_removed(self) -> list[TournamentChange]:
        """The resignations a removal left undone (its process died after the withdrawal),
        each done once, by tournament (`what` "resigned", the games among its `games`)."""
        by_tournament: dict[int, list[Change]] = {}
        rows_of: dict[int, TournamentRow] = {}
        for game_id, tournament_id, user_id in await self.table.removed_still_seated():
            tournament = rows_of.get(tournament_id) or await self.table.get(tournament_id)
            if tournament is None:
                continue
            rows_of[tournament_id] = tournament
            told = texts_for(tournament.language)(
                "bot.tournament.table_notes.removed_told", player=f"<@{user_id}>"
            )
            done = await self._resign(game_id, user_id, told)
            if done is not None:
                by_tournament.setdefault(tournament_id, []).append(done)
        return [
            TournamentChange(tournament=rows_of[tid], owed=(), games=tuple(games), what="resigned")
            for tid, games in by_tournament.items()
        ]

    async def _withdraw(
        self, tournament_id: int, user_id: int, *, removed: bool
    ) -> TournamentChange:
        what = "removed" if removed else "left"
        for _ in range(TRIES):
            tournament = await self._get(tournament_id)
            if not tournament.is_open:
                raise _over()
            entrants = await self.table.entrants(tournament.id)
            mine = next((e for e in entrants if e.user_id == user_id), None)
            if mine is None:
                raise _refused("Not signed up for this tournament.", "not_entrant")
            if not mine.playing:
                raise _refused("Has left this tournament already.", "withdrawn_already")
            if tournament.status == "signup":
                step = rows.drop_entrant(tournament.id, user_id)
            else:
                step = rows.withdraw(tournament.id, user_id, tournament.round, removed=removed)
            try:
                return await self._change(tournament, what, steps=(step,))
            except VersionConflict:
                continue
        raise _changed()

    # ------------------------------------------------------------------ the organiser's

    async def start(
        self, tournament_id: int, user_id: int, *, can_manage: bool
    ) -> TournamentChange:
        """Start now (its creator, or a moderator: `can_manage`): entrants seeded by rating,
        round 1 paired, its games opened (`what` "started")."""
        tournament = await self._get(tournament_id)
        if user_id != tournament.creator_id and not can_manage:
            raise _refused(
                "Only the tournament's creator (or a moderator) can start it.", "only_creator"
            )
        try:
            return await self._start(tournament)
        except (Duplicate, VersionConflict) as exc:
            # Started meanwhile (another click, another process, its time), or changed.
            fresh = await self._get(tournament_id)
            if fresh.status != "signup":
                raise _refused("The tournament has started already.", "started_already") from exc
            raise _changed() from exc

    async def _start(self, tournament: TournamentRow) -> TournamentChange:
        if tournament.status != "signup":
            raise _refused("The tournament has started already.", "started_already")
        entrants = await self.table.entrants(tournament.id)
        fewest = _fewest(tournament.format, tournament.smallest)
        if len(entrants) < fewest:
            raise _refused(
                f"{len(entrants)} {'person' if len(entrants) == 1 else 'people'} signed up:"
                f" the tournament needs at least {fewest} to start.",
                "too_few",
                count=len(entrants),
                fewest=fewest,
            )
        rated = await self._ratings(tournament, [e.user_id for e in entrants])
        # Best rating first; equal ratings in the order they joined.
        order = sorted(enumerate(entrants), key=lambda pair: (-rated[pair[1].user_id], pair[0]))
        seeded = [replace(e, seed=n + 1, rating=rated[e.user_id]) for n, (_, e) in enumerate(order)]
        count = len(seeded)
        if tournament.format == "round_robin":
            number_of_rounds = len(round_robin([e.user_id for e in seeded]))
        else:
            number_of_rounds = tournament.rounds or max(1, math.ceil(math.log2(count)))
        running = replace(tournament, status="running", rounds=number_of_rounds)
        standing = TournamentStanding(running, tuple(seeded), (), (), (), 0)
        plan = self._plan(standing)
        seed_step = rows.seed(tournament.id, [(e.user_id, e.rating) for e in seeded])
        return await self._pair(
            tournament,
            standing,
            plan,
            what="started",
            sets="status = 'running', rounds = ?",
            values=(number_of_rounds,),
            before=(seed_step,),
        )

    async def _ratings(self, tournament: TournamentRow, users: Sequence[int]) -> dict[int, float]:
        """Each entrant's rating in the tournament's game on its server now (a newcomer's
        is the newcomer's 1000)."""
        found = {user: ORIGIN for user in users}
        if self.stats is None:
            return found
        summary = await self.stats.summary(guild_id=tournament.guild_id, game=tournament.game_name)
        for user in users:
            player = summary.players.get(user)
            if player is not None and player.rating is not None:
                found[user] = float(player.rating.shown)
        return found

    async def pause(self, tournament_id: int, *, by: int, can_manage: bool) -> TournamentChange:
        """No new round is paired until `resume` (running games go on)."""
        tournament = self._may_manage(await self._get(tournament_id), by, can_manage)
        if tournament.status != "running":
            raise _refused("Only a tournament under way can be paused.", "not_running")
        return await self._set_status(tournament, "paused", "paused")

    async def resume(self, tournament_id: int, *, by: int, can_manage: bool) -> TournamentChange:
        """Pairing goes on: a round that came due while paused is paired now (among the
        change's `games`... as a change of its own: `what` "paired" or "finished" when it
        did, else "resumed")."""
        tournament = self._may_manage(await self._get(tournament_id), by, can_manage)
        if tournament.status != "paused":
            raise _refused(
                "The tournament is not paused: /tournament pause pauses it.", "not_paused"
            )
        resumed = await self._set_status(tournament, "running", "resumed")
        advanced = await self._advance(resumed.tournament)
        if advanced is None:
            return resumed
        return replace(advanced, owed=resumed.owed + advanced.owed)

    async def cancel(self, tournament_id: int, *, by: int, can_manage: bool) -> TournamentChange:
        """No more rounds; running games go on as ordinary games; the sign-up post says
        cancelled."""
        tournament = self._may_manage(await self._get(tournament_id), by, can_manage)
        if not tournament.is_open:
            raise _over()
        return await self._set_status(tournament, "cancelled", "cancelled")

    def _may_manage(self, tournament: TournamentRow, by: int, can_manage: bool) -> TournamentRow:
        if by != tournament.creator_id and not can_manage:
            raise _refused(
                "Only the tournament's creator or a moderator can pause, resume or cancel it.",
                "only_manager",
            )
        return tournament

    async def _set_status(
        self, tournament: TournamentRow, status: str, what: str
    ) -> TournamentChange:
        ended = status in ("finished", "cancelled")
        sets = "status = ?" + (", finished_at = ?" if ended else "")
        values: tuple[Any, ...] = (status, stamp(self.clock())) if ended else (status,)
        try:
            return await self._change(tournament, what, sets=sets, values=values)
        except VersionConflict as exc:
            raise _changed() from exc

    # ------------------------------------------------------------------ reading

    async def in_channel(
        self, channel_id: int, parent_id: int | None = None
    ) -> TournamentRow | None:
        """The open tournament of a channel, or of the table whose thread it is (asked in
        another thread: `parent_id`, the channel it is in, counts too)."""
        ids = [channel_id] if parent_id is None else [channel_id, parent_id]
        return await self.table.open_in(ids)

    async def get(self, tournament_id: int) -> TournamentRow | None:
        """A tournament by id, as stored."""
        return await self.table.get(tournament_id)

    async def standing(self, tournament_id: int, upto: int | None = None) -> TournamentStanding:
        """The tournament as it stands now (see `TournamentStanding`); its standings count
        the rounds up to `upto` (None: every round paired)."""
        tournament = await self._get(tournament_id)
        entrants = await self.table.entrants(tournament.id)
        rounds = await self.table.rounds(tournament.id)
        results = await self.table.results(tournament.id)
        by_game: dict[int, dict[int, Placing[int]]] = {}
        for r in results:
            by_game.setdefault(r.game_id, {})[r.seat] = Placing(
                r.user_id, r.won, r.score, r.left_early
            )
        tables = []
        for table, status in await self.table.tables(tournament.id):
            seats = by_game.get(table.game_id)
            places = None
            if status == "finished" and seats is not None and len(seats) == len(table.players):
                places = places_of([seats[n] for n in sorted(seats)])
            tables.append(Table(table, status, places))
        last = tournament.round if upto is None else min(upto, tournament.round)
        computed = standings(
            [e.user_id for e in entrants],
            [
                TableResult(t.table.round, t.table.players, t.places)
                for t in tables
                if t.table.round <= last and not t.is_open
            ],
            [Bye(r.round, player) for r in rounds if r.round <= last for player in r.byes],
            withdrawn=[e.user_id for e in entrants if not e.playing],
            by_tables=tournament.largest > 2,
            round_robin=tournament.format == "round_robin",
        )
        return TournamentStanding(
            tournament, tuple(entrants), tuple(rounds), tuple(tables), tuple(computed), last
        )

    # ------------------------------------------------------------------ for the aftermath

    async def game_ended(self, game: GameRow) -> TournamentChange | None:
        """A table game ended: if it completed its round, the next round paired (once, across
        processes) or the tournament finished, or, while it is paused, the standings after
        the round owed; None when nothing more follows."""
        if game.tournament_id is None:
            return None
        tournament = await self.table.get(game.tournament_id)
        if tournament is None or tournament.status not in ("running", "paused"):
            return None
        return await self._advance(tournament)

    async def due(self) -> list[TournamentChange]:
        """The periodic duty: the seats of people removed but still seated resigned (a
        process died between the removal and the resignation), tournaments whose start time
        has come started (or cancelled, with too few entrants), and rounds complete but not
        paired (a process died in between) paired, or, while paused, the standings after
        them owed, each once."""
        done: list[TournamentChange] = await self._resign_removed()
        for tournament in await self.table.due_to_start(self.clock()):
            try:
                done.append(await self._start(tournament))
            except BotError as exc:
                # Too few signed up by its time: it cannot be played, and says so. Any other
                # refusal means another process changed it first.
                if exc.key == "bot.tournament.error.too_few":
                    cancelled = await self._quietly(tournament, "cancelled", "cancelled")
                    if cancelled is not None:
                        done.append(cancelled)
            except (Duplicate, VersionConflict):
                continue  # another process started it
        for tournament in [*await self.table.round_over(), *await self.table.standings_due()]:
            advanced = await self._advance(tournament)
            if advanced is not None:
                done.append(advanced)
        return done

    async def _quietly(
        self, tournament: TournamentRow, status: str, what: str
    ) -> TournamentChange | None:
        try:
            return await self._change(
                tournament,
                what,
                sets="status = ?, finished_at = ?",
                values=(status, stamp(self.clock())),
            )
        except VersionConflict:
            return None

    # ------------------------------------------------------------------ rounds

    async def _advance(self, tournament: TournamentRow) -> TournamentChange | None:
        """Pair the next round of a running tournament whose last round has no game open, or
        finish it after its last round (a paused one: the standings after that round owed,
        once, see `_standings_while_paused`); None when its round is still being played, or
        another process did it first."""
        for _ in range(TRIES):
            if tournament.status not in ("running", "paused"):
                return None
            standing = await self.standing(tournament.id)
            if standing.open_tables(tournament.round):
                return None
            plan = self._plan(standing)
            try:
                if tournament.status == "paused":
                    return await self._standings_while_paused(standing, bool(plan))
                if not plan:
                    return await self._finish(tournament)
                paired = await self._pair(tournament, standing, plan, what="paired")
                if paired.games:
                    return paired
                # Its last rounds had only byes to give (a round robin whose players left):
                # they are recorded, and the end follows at once.
                finished = await self._finish(paired.tournament)
                return replace(finished, owed=paired.owed + finished.owed)
            except Duplicate:
                return None  # paired by another process
            except VersionConflict:
                fresh = await self.table.get(tournament.id)
                if fresh is None or fresh.round != tournament.round:
                    return None  # paired or finished by another process
                tournament = fresh  # changed meanwhile (a withdrawal): once more
        return None

    async def _standings_while_paused(
        self, standing: TournamentStanding, more: bool
    ) -> TournamentChange | None:
        """A paused tournament's round is over: the standings after it are owed now, rather
        than with the next round's pairing at resume, marked owed in the same transaction so
        that neither the pairing nor another process owes them again. None when they are
        owed already, or when no round would follow (`more`): the podium at resume says it."""
        tournament = standing.tournament
        number = tournament.round
        row = next((r for r in standing.rounds if r.round == number), None)
        if not more or row is None or row.standings_at is not None:
            return None
        return await self._change(
            tournament,
            "standings",
            steps=(rows.owe_standings(tournament.id, number, self.clock()),),
            posts=(("standings", {"round": number}),),
        )

    async def _finish(self, tournament: TournamentRow) -> TournamentChange:
        return await self._change(
            tournament,
            "finished",
            sets="status = 'finished', finished_at = ?",
            values=(stamp(self.clock()),),
            posts=(("podium", {"round": tournament.round}), ("signup", {})),
        )

    def _plan(self, standing: TournamentStanding) -> list[tuple[int, Round]]:
        """The rounds to pair now, numbered: the next one and, while it has no table to play
        (a round robin whose games are all against people who left), the ones after it, up to
        one that has; empty when the tournament is over (its last round played, or too few
        people left)."""
        tournament = standing.tournament
        playing = [e.user_id for e in standing.entrants if e.playing]
        assert tournament.rounds is not None
        planned: list[tuple[int, Round]] = []
        number = tournament.round
        while number < tournament.rounds and len(playing) >= max(2, tournament.smallest):
            number += 1
            paired = self._paired(standing, number, playing)
            planned.append((number, paired))
            if paired.tables:
                break
        return planned

    def _paired(self, standing: TournamentStanding, number: int, playing: list[int]) -> Round:
        tournament = standing.tournament
        if tournament.format == "round_robin":
            # The schedule of every entrant, fixed at the start; a game against someone who
            # left is a bye for the one still playing.
            schedule = round_robin([e.user_id for e in standing.entrants])[number - 1]
            tables, byes = [], list(schedule.byes)
            for players in schedule.tables:
                staying = [p for p in players if p in playing]
                if len(staying) == len(players):
                    tables.append(players)
                else:
                    byes += staying
            return Round(tuple(tables), tuple(p for p in byes if p in playing))
        placed = {s.player: s for s in standing.standings}
        order = (
            [p for p in (s.player for s in standing.standings) if p in playing]
            if standing.standings
            else playing
        )
        met: Counter[frozenset[int]] = Counter()
        first: Counter[int] = Counter()
        for table in standing.tables:
            for pair in combinations(table.table.players, 2):
                met[frozenset(pair)] += 1
            if len(table.table.players) == 2:
                first[table.table.players[0]] += 1
        byes_had = Counter(p for r in standing.rounds for p in r.byes)
        return swiss_round(
            order,
            {p: placed[p].points if p in placed else 0 for p in order},
            met,
            byes_had,
            first,
            smallest=tournament.smallest,
            largest=tournament.largest,
            round_number=number,
        )

    async def _pair(
        self,
        tournament: TournamentRow,
        standing: TournamentStanding,
        plan: Sequence[tuple[int, Round]],
        *,
        what: str,
        sets: str = "",
        values: Sequence[Any] = (),
        before: Sequence[rows.Step] = (),
    ) -> TournamentChange:
        """The rounds of `plan` paired in one transaction with their games, started (each
        owes its announcement, posted in the tournament's channel, its first board and its
        secrets), and the round's posts: the standings after the round before, the round's
        tables, the sign-up post's update. Fails with `Duplicate` when another process
        paired the round first (its row is the claim), `VersionConflict` when the
        tournament changed meanwhile."""
        at = self.clock()
        last = plan[-1][0]
        names = {e.user_id: e for e in standing.entrants}
        settings = await self.lobby.settings_of(tournament.guild_id)
        remind = next(m for m in (settings.remind_minutes, DEFAULT_REMIND_MINUTES) if m is not None)
        opened: dict[int, tuple[int, State, list[Owed]]] = {}  # by table, once per try
        running = replace(tournament, status="running")

        def table_step(number: int, table_no: int, players: tuple[int, ...]) -> rows.Step:
            seats = [
                SeatRow(n, user, None, names[user].name, language=names[user].language)
                for n, user in enumerate(players)
            ]

            async def step(tx: Transaction) -> None:
                game_id = await rows.open_table(
                    tx,
                    running,
                    number=number,
                    table=table_no,
                    seats=seats,
                    remind_minutes=remind or None,
                    at=at,
                )
                game = self._table_game(running, game_id, seats, remind or None)
                body = {"tournament": tournament.id, "round": number, "table": table_no}
                started, state = self.lobby.dealt(game, lobby=body)
                opened[table_no] = (game_id, state, await started.work(tx))

            return step

        steps = list(before)
        for number, paired in plan:
            steps.append(rows.add_round(tournament.id, number, paired.byes, at))
            for table_no, players in enumerate(paired.tables, start=1):
                steps.append(table_step(number, table_no, players))
        posts: list[tuple[str, dict[str, Any]]] = []
        told = {r.round for r in standing.rounds if r.standings_at is not None}
        if tournament.round > 0 and last - 1 not in told:
            # Unless owed already, when the round ended while the tournament was paused.
            posts.append(("standings", {"round": last - 1}))
            steps.append(rows.owe_standings(tournament.id, last - 1, at))
        posts += [("round", {"round": last}), ("signup", {})]
        all_sets = "round = ?" + (f", {sets}" if sets else "")
        change = await self._change(
            tournament,
            what,
            sets=all_sets,
            values=(last, *values),
            steps=steps,
            posts=posts,
        )
        games = []
        for table_no in sorted(opened):
            game_id, state, owed = opened[table_no]
            game = await self.games.find(game_id, fresh=True)
            assert game is not None
            games.append(Change(game=game, state=state, owed=tuple(owed), what="started"))
        return replace(change, games=tuple(games))

    def _table_game(
        self, tournament: TournamentRow, game_id: int, seats: Sequence[SeatRow], remind: int | None
    ) -> GameRow:
        """A table's game as just made (in its lobby), to deal."""
        return GameRow(
            id=game_id,
            game_name=tournament.game_name,
            guild_id=tournament.guild_id,
            channel_id=tournament.channel_id,
            creator_id=seats[0].user_id or tournament.creator_id,
            status="lobby",
            seed=None,
            options=tournament.options,
            state_json=None,
            version=0,
            lobby_message_id=None,
            seats=tuple(seats),
            remind_minutes=remind,
            wants_thread=True,
            language=tournament.language,
            clock=TurnClock(tournament.clock_minutes, tournament.timeout),
            tournament_id=tournament.id,
        )

    # ------------------------------------------------------------------ changes

    async def _change(
        self,
        tournament: TournamentRow,
        what: str,
        *,
        sets: str = "",
        values: Sequence[Any] = (),
        steps: Sequence[rows.Step] = (),
        posts: Sequence[tuple[str, dict[str, Any]]] = (("signup", {}),),
    ) -> TournamentChange:
        work = rows.change(
            tournament, at=self.clock(), sets=sets, values=values, steps=steps, posts=posts
        )
        owed = await self.store.db.transact(work)
        return TournamentChange(
            tournament=await self._get(tournament.id), owed=tuple(owed), what=what
        )

    async def _get(self, tournament_id: int) -> TournamentRow:
        found = await self.table.get(tournament_id)
        if found is None:
            raise _refused("There is no such tournament.", "gone")
        return found


def _changed() -> BotError:
    return _refused(
        "The tournament changed meanwhile: see its sign-up post as it is now, and try again.",
        "changed",
    )


def _over() -> BotError:
    return _refused("This tournament is over.", "over")


def _none_here() -> BotError:
    return _refused("This channel has no open tournament.", "none_here")
