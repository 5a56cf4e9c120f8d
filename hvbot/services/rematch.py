"""A rematch: the same table again, asked for with one click on a finished game's result.

Someone who played a finished game asks for its rematch (the Rematch button on its result,
the replay post). That opens at once a new lobby with the same game, options, reminders,
absence votes, turn clock and AI seats (the same levels), in the game's channel (a game
played in a thread had its lobby there; the rematch asks for a thread as the game did), its
seats taken already and rotated by one (`rotated`). Every other person who played is
invited; the asker accepted by asking. Each accepts with one click, and the game starts with
the last acceptance, as if its creator had pressed Start (at once, for a game its asker
played against AI seats alone). Until then nobody else sits down,
no AI is added and nobody starts it (`Lobby.refuse_while_invited`). The lobby lives the
server's lobby hours, like any lobby, and closes by itself after them (`Lobby.close_expired`):
a click on it after that is answered that the rematch is over.

A decline (its button, or /game leave) ends the rematch as such, and the lobby goes on as an
ordinary lobby: a player who wants to play again with the others expects their game to
survive one person saying no, especially at three or four, where one seat is easily filled
again with Join or an AI. So the one who declined leaves their seat, and so does anyone who
had not accepted yet (nobody is left seated in a game they did not say yes to; one click on
Join seats them again), while the asker, those who accepted and the AI seats keep theirs,
in the rotated order; the channel is told, and the lobby message offers the ordinary
buttons. When the one who asked declines, they withdraw their rematch: the lobby closes, as
/game abandon closes the lobby of its creator.

One rematch per game: the rematch's row is keyed by the game before, written in the
transaction that opens its lobby, so of two clicks at once, in one process or two, one opens
it and the other is answered that it is open already; later clicks say where it is or that
it is over. Everything the rematch owes (its lobby message, posted where Discord's nonce
guards it; its updates; the start's board and secrets) is owed in the outbox with the change
and sent by `hvbot.aftermath.Aftermath.follow`, as every change's posts are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from data.texts import texts_for
from hvbot.services.access import GameAccess
from hvbot.services.errors import BotError
from hvbot.services.lobby import (
    Lobby,
    channel_busy,
    may_open_here,
    too_many_open,
)
from hvbot.services.outcomes import Change
from hvbot.services.seat_names import ai_name, recognised, was_removed
from hvbot.services.server_settings import lobby_life
from hvbot.store import ChannelBusy, GameRow, SeatRow, TooManyOpen, VersionConflict, changes
from hvbot.store.rematches import (
    AnsweredAlready,
    Invite,
    RematchRow,
    accept,
    accept_and_start,
    made_ordinary,
    open_rematch,
)


@dataclass(frozen=True)
class Standing:
    """Where a rematch waiting for its people stands: the game before (`of`), who has
    accepted (the asker first among them) and who is still to."""

    of: int
    accepted: tuple[int, ...]
    waiting: tuple[int, ...]


def person_of(seat: SeatRow) -> int | None:
    """The person who played a seat: the one sitting there, or the one an AI stood in for
    (away) or took over from (resigned). None for an AI seat from the start."""
    for person in (seat.user_id, seat.away_user_id, seat.resigned_user_id):
        if person is not None:
            return person
    return None


def people_of(game: GameRow) -> list[int]:
    """The people who played `game`, in the order of their seats, each once."""
    people: list[int] = []
    for seat in game.seats:
        person = person_of(seat)
        if person is not None and person not in people:
            people.append(person)
    return people


def rotated(seats: Sequence[SeatRow]) -> list[SeatRow]:
    """The seats of a rematch: each player moves one seat towards the front, and the first
    seat's player goes to the last (seat k of the game before is seat k-1, seat 0 is the
    last). In Pylons seat 1 moves first, so whoever moved second last time begins, and after
    as many rematches as there are players everyone has begun once; High Voltage and Sector
    6 draw who begins from the seed, and the rotation keeps everyone's neighbours, so the
    order of play around the table is the same. That is what players of a board game do at
    the table (the first player passes to the left), and it is the one rotation that never
    seats two people next to someone new.

    People sit again as themselves (an AI that stood in for one, away or resigned, is gone:
    the person is invited instead); an AI seat from the start keeps its level and name.

    A seat a moderator removed ("Cy (removed, AI plays)") records no person, so nobody is
    invited to it: it is kept, as an ordinary AI seat at the level that played it to the end,
    named as an AI seat added to the lobby is ("AI 2 (normal)", numbered after the table's
    other AI seats). Kept rather than left out, because the same table is the same number of
    seats (High Voltage and Sector 6 play differently at three and four, and a game whose
    other seats were all people would be a seat short of its minimum), and nobody can fill a
    seat while the rematch waits for its people; the name of a person who was removed, on a
    seat they no longer hold, is dropped, as it would be misleading at a new table."""
    order = [*seats[1:], *seats[:1]]
    numbers = [_ai_number(s) for s in seats if s.is_ai and not was_removed(s)]
    last = max((n for n in numbers if n is not None), default=0)
    again = []
    for number, seat in enumerate(order):
        person = person_of(seat)
        if person is None and was_removed(seat):
            assert seat.ai_level is not None, "an AI plays a removed seat"
            last += 1
            again.append(SeatRow(number, None, seat.ai_level, ai_name(last, seat.ai_level)))
        elif person is None:
            again.append(SeatRow(number, None, seat.ai_level, seat.display_name))
        else:
            # A seat an AI took over is named "Ada (resigned, AI plays)": Ada sits again.
            found = recognised(seat.display_name) if seat.is_ai else None
            name = found[1].get("player", seat.display_name) if found else seat.display_name
            again.append(SeatRow(number, person, None, name, language=seat.language))
    return again


def _ai_number(seat: SeatRow) -> int | None:
    """The number in an AI seat's name as the bot made it ("AI 2 (hard)": 2), if it is one."""
    found = recognised(seat.display_name)
    if found is None or found[0] != "ai":
        return None
    return int(found[1]["number"])


class Rematches:
    """Asking for a finished game's rematch, and answering its invitation."""

    def __init__(self, games: GameAccess, lobby: Lobby) -> None:
        self.games = games
        self.lobby = lobby

    async def offer(
        self,
        *,
        game_id: int,
        user_id: int,
        name: str,
        language: str | None = None,
        places: tuple[int, ...] = (),
        roles: frozenset[int] = frozenset(),
        moderator: bool = False,
    ) -> Change:
        """`user_id` (`name`, speaking `language`) asks for the rematch of the finished game
        `game_id`: its lobby as opened, and the lobby message it owes (`what` "asked"). The
        server's limits hold as for /game new (where games are opened, by whom: `places`,
        `roles`, `moderator`; how many open games a member may have; a channel that holds
        one). Refused, changing nothing, to someone who did not play it, for a game that did
        not finish, and for a game that had its rematch asked for already."""
        store = self.games.store
        game = await self.games.find(game_id, fresh=True)
        if game is None or game.status != "finished":
            raise BotError(
                "Only a finished game can have a rematch.", key="bot.rematch.not_finished"
            )
        people = people_of(game)
        if user_id not in people:
            raise BotError(
                "Only the players of this game can ask for its rematch: /game new opens a"
                " game of your own.",
                key="bot.rematch.not_played",
            )
        known = await store.rematches.of_game(game.id)
        if known is not None:
            raise await self._asked_already(known)
        settings = await self.lobby.settings_of(game.guild_id)
        may_open_here(settings, places or (game.channel_id,), roles, moderator=moderator)
        try:
            most = await self.lobby.room_for(
                settings, guild_id=game.guild_id, user_id=user_id, channel_id=game.channel_id
            )
        except BotError as exc:
            # The lobby holding the channel may be this game's rematch, opened meanwhile.
            known = await store.rematches.of_game(game.id)
            if known is not None:
                raise await self._asked_already(known) from exc
            raise
        seats = [
            replace(s, display_name=name, language=language or s.language)
            if s.user_id == user_id
            else s
            for s in rotated(game.seats)
        ]
        work = open_rematch(
            of=game,
            channel_id=game.channel_id,
            creator_id=user_id,
            seats=seats,
            invited=[p for p in people if p != user_id],
            at=store.clock(),
            wants_thread=game.wants_thread,
            lifetime=lobby_life(settings),
            most_open=most,
            postgresql=store.shared,
        )
        try:
            lobby, owed = await store.create_rematch(work)
        except ChannelBusy as exc:
            # Another click opened it first (its key), or the channel has a game now.
            known = await store.rematches.of_game(game.id)
            if known is not None:
                raise await self._asked_already(known) from exc
            raise channel_busy() from exc
        except TooManyOpen as exc:
            raise too_many_open(exc.count, most) from exc
        if len(people) > 1:
            return Change(game=lobby, owed=tuple(owed), what="asked")
        # Nobody else to wait for (a game against AI seats alone): everyone has accepted.
        async with store.lock(lobby.id):
            lobby = await self.games.reload(lobby.id)
            started, state = self.lobby.dealt(lobby)
            owed += await store.write(started)
            saved = await self.games.saved(lobby.id)
            return Change(game=saved, state=state, owed=tuple(owed), what="started")

    async def _asked_already(self, known: RematchRow) -> BotError:
        """The answer to a second Rematch click: where the rematch waits, or that it is over."""
        lobby = await self.games.find(known.lobby_id, fresh=True)
        if lobby is not None and lobby.status == "lobby":
            return BotError(
                "This game's rematch is open already: accept it on its lobby message in"
                f" <#{lobby.channel_id}>.",
                key="bot.rematch.asked_already",
                channel=f"<#{lobby.channel_id}>",
            )
        return BotError(
            "This game has had its rematch already (one per game): /game new opens another game.",
            key="bot.rematch.had",
        )

    async def standing(self, lobby_id: int) -> Standing | None:
        """Where the rematch `lobby_id` stands while it waits for its people (None: it is no
        rematch, or an ordinary lobby now)."""
        store = self.games.store
        invites = await store.rematches.invites(lobby_id)
        if not invites or all(i.accepted for i in invites):
            return None
        rematch = await store.rematches.of_lobby(lobby_id)
        if rematch is None:
            return None
        first = [rematch.user_id]
        accepted = first + [i.user_id for i in invites if i.accepted and i.user_id not in first]
        waiting = [i.user_id for i in invites if not i.accepted]
        return Standing(rematch.game_id, tuple(accepted), tuple(waiting))

    async def answer(
        self,
        *,
        lobby_id: int,
        user_id: int,
        accept_it: bool,
        name: str | None = None,
        language: str | None = None,
    ) -> Change:
        """`user_id` accepts (`accept_it`) or declines the rematch `lobby_id`. `what` says
        how it went: "accepted" (others still to), "started" (the last acceptance: the game
        dealt, its board and secrets owed, the state handed over), "ordinary" (a decline:
        see the module), or "withdrawn" (the asker declined: the lobby closed). Refused,
        changing nothing, to someone not invited, to an answer given already, and once the
        rematch is over (started, closed, expired, or an ordinary lobby now)."""
        games = self.games
        store = games.store
        async with store.lock(lobby_id):
            lobby = await games.reload(lobby_id)
            invites = await store.rematches.invites(lobby_id)
            self._check_open(lobby, invites)
            mine = next((i for i in invites if i.user_id == user_id), None)
            if mine is None:
                raise BotError(
                    "Only the previous game's players can answer this rematch: once it is an"
                    " ordinary lobby, anyone can Join.",
                    key="bot.rematch.not_invited",
                )
            try:
                if accept_it:
                    return await self._accept(lobby, invites, mine, name, language)
                return await self._decline(lobby, invites, user_id)
            except (VersionConflict, AnsweredAlready) as exc:
                raise BotError(
                    "The rematch has changed in the meantime: see its lobby message as it is now.",
                    key="bot.rematch.changed",
                ) from exc

    async def leave(self, *, channel_id: int, user_id: int) -> Change:
        """/game leave (or the lobby's Leave): in a rematch still waiting, the same as
        declining it; in any other lobby, leaving it (`Lobby.leave`)."""
        game = await self.games.open_game(channel_id)
        if game.status == "lobby" and await self.standing(game.id) is not None:
            return await self.answer(lobby_id=game.id, user_id=user_id, accept_it=False)
        return await self.lobby.leave(channel_id=channel_id, user_id=user_id)

    def _check_open(self, lobby: GameRow, invites: Sequence[Invite]) -> None:
        if lobby.status != "lobby":
            if lobby.status == "active" or lobby.status == "finished":
                raise BotError(
                    "This rematch has started already.", key="bot.rematch.started_already"
                )
            raise BotError(
                "This rematch is over: its lobby has closed (its time ran out, or it was"
                " withdrawn). /game new opens another game.",
                key="bot.rematch.over",
            )
        if not invites or all(i.accepted for i in invites):
            raise BotError(
                "This rematch is an ordinary lobby now: Join it to play.",
                key="bot.rematch.ordinary_now",
            )

    async def _accept(
        self,
        lobby: GameRow,
        invites: Sequence[Invite],
        mine: Invite,
        name: str | None,
        language: str | None,
    ) -> Change:
        store = self.games.store
        if mine.accepted:
            raise BotError(
                "You have accepted already: the game starts once everyone has.",
                key="bot.rematch.accepted_already",
            )
        seats = [
            replace(s, display_name=name or s.display_name, language=language or s.language)
            if s.user_id == mine.user_id
            else s
            for s in lobby.seats
        ]
        lobby = replace(lobby, seats=tuple(seats))
        others = [i for i in invites if not i.accepted and i.user_id != mine.user_id]
        if others:
            owed = await store.write(accept(lobby, mine.user_id, seats, at=store.clock()))
            return Change(game=await self.games.saved(lobby.id), owed=tuple(owed), what="accepted")
        started, state = self.lobby.dealt(lobby)
        owed = await store.write(accept_and_start(lobby, mine.user_id, started))
        saved = await self.games.saved(lobby.id)
        return Change(game=saved, state=state, owed=tuple(owed), what="started")

    async def kicked(self, lobby: GameRow, user_id: int, moderator: str) -> Change | None:
        """A moderator (`moderator`: how to name them) took the seat of `user_id` in the
        lobby `lobby`, read under its lock: in a rematch still waiting for its people, that
        settles their invitation as their decline (see the module), whether they had accepted
        or not, so the lobby does not wait for an answer that can no longer come; the channel
        is told who removed whom. None when `lobby` is no rematch waiting for `user_id` (an
        ordinary lobby: the caller frees the seat as in any lobby). The asker's seat is not
        taken this way: /game end closes a lobby instead."""
        invites = await self.games.store.rematches.invites(lobby.id)
        if all(i.accepted for i in invites) or user_id not in {i.user_id for i in invites}:
            return None
        told = texts_for(lobby.language)(
            "bot.rematch.kicked.told", player=f"<@{user_id}>", moderator=moderator
        )
        try:
            return await self._decline(lobby, invites, user_id, told=told)
        except VersionConflict as exc:
            raise BotError(
                "The rematch has changed in the meantime: see its lobby message as it is now.",
                key="bot.rematch.changed",
            ) from exc

    async def _decline(
        self, lobby: GameRow, invites: Sequence[Invite], user_id: int, *, told: str | None = None
    ) -> Change:
        """`user_id` declines (`told`: what the channel is told instead of their decline)."""
        store = self.games.store
        texts = texts_for(lobby.language)
        if user_id == lobby.creator_id:
            told = texts("bot.rematch.told_withdrawn", player=f"<@{user_id}>")
            closed = changes.set_status(
                lobby.id, lobby.version, "abandoned", at=store.clock(), told=told
            )
            owed = await store.write(closed)
            return Change(game=await self.games.saved(lobby.id), owed=tuple(owed), what="withdrawn")
        accepted = {i.user_id for i in invites if i.accepted and i.user_id != user_id}
        kept = [s for s in lobby.seats if s.user_id is None or s.user_id in accepted]
        seats = [replace(s, seat=number) for number, s in enumerate(kept)]
        told = told or texts("bot.rematch.told_declined", player=f"<@{user_id}>")
        owed = await store.write(made_ordinary(lobby, seats, told=told, at=store.clock()))
        return Change(game=await self.games.saved(lobby.id), owed=tuple(owed), what="ordinary")
