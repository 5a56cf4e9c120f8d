"""What follows a stored change, in one place: its posts sent exactly once, the buttons it made
stale taken off, the AI seat that is to move, the reminders, and the replay at the end.

A change and what it owes are stored together (see `hvbot.store.duties`): the board post of a
move, the first board and each person's secret at the start, the lobby's update, a move taken
back, a reminder's words, a finished game's replay, a follower's digest, a lobby's followers
joined to the game's thread. The process that made the change sends
them at once, from what it has in hand; whatever it could not send (it died, or was paused
past its lease) another process sends later, built from the database, through `do_duties`.
Either way a post is taken with a compare-and-set right before it is sent, so it is sent once,
and it goes where Discord's nonce guards it (a channel, a DM), never as the answer to an
interaction, so that not even a paused process's late copy is ever seen; but for a game the
bot reaches only by answering (a DM or a group DM through a person's own installation), whose
posts are the follow-ups of its players' interactions and wait, owed, for the next one (see
`follow`, and "Exactly once" in docs/architecture.md). An AI seat moves only
once every post its game owes is out, so the channel reads what happened in order.

Every change, whoever makes it (a handler, an AI seat, a clock, a reminder), comes here as a
`Change` through one door, `follow`, which decides from the change alone what comes next: a
new kind of consequence (a tournament's next round, a season's end) is one case in `_next`.
Nothing here calls back into the bot: it needs of the bot only its connection to Discord (a
`discord.Client`) and the game service.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable, Set
from dataclasses import replace
from functools import partial
from typing import Any

import discord

from data.texts import language_of, texts_for
from engine import State
from hvbot.aftermath import owed_posts
from hvbot.aftermath.backlog import Backlog
from hvbot.aftermath.board_buttons import BoardButtons
from hvbot.aftermath.sending import Reach, Sender, Sent, Unreachable
from hvbot.database import failed
from hvbot.infra import metrics
from hvbot.messages import cards, game_posts, seasons, tournaments
from hvbot.messages.outgoing import edit_kwargs
from hvbot.messages.post import Post
from hvbot.services import GameService
from hvbot.services.access import ai_turn
from hvbot.services.clocks import RanOutWords, WarningWords
from hvbot.services.outcomes import ActResult, Change, Reminder, SeasonEnd, TournamentChange
from hvbot.services.reminders import REMIND_BATCH
from hvbot.services.seasons import season_named
from hvbot.store import GameRow, SeatRow
from hvbot.store.duties import AI_WAITS_FOR, TOURNAMENT_KINDS, Owed
from hvbot.store.tournaments import TournamentRow
from hvbot.web import Hub

__all__ = ["Aftermath", "Reach", "Sent"]

log = logging.getLogger(__name__)
SWEEP_S = 3600.0  # how often posts made long ago are dropped from the outbox
MOST_AI_MOVES = 256  # AI moves in a row before the AI seats let another process go on
# Rounds of due turn clocks claimed in one check, at most: the next check finds the rest.
MOST_CLOCK_ROUNDS = 20
# Rounds of followers' digests claimed in one check, at most: the next check finds the rest.
MOST_DIGEST_ROUNDS = 4
# How a run of AI moves ended (`_play_ai`).
LET_GO, HELD, STOPPED = "let go", "held", "stopped"


def _hold(tasks: set[asyncio.Task[None]], task: asyncio.Task[None]) -> None:
    """Keep `task` in `tasks` until it ends: the event loop keeps only a weak reference."""
    tasks.add(task)
    task.add_done_callback(tasks.discard)


def in_their_place(user: int, post: Post) -> str:
    """A text meant for one person's DM, said where their game is instead (their DMs closed),
    mentioning them so that it still reaches them."""
    return f"<@{user}> {post.content}"


class Aftermath:
    """What follows the changes made by one bot process (`client`, its connection to
    Discord), and the duties it takes over from others. `owner` names this process in the
    claims it holds; `ai_pause` is how long an AI seat waits before it moves, as a person
    would."""

    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        *,
        ai_pause: float = 1.5,
        owner: str | None = None,
    ) -> None:
        self.client = client
        self.service = service
        self.games = service.games
        self.duties = service.duties
        self.owner = owner or secrets.token_hex(8)
        # A move that hands an AI seat its turn claims its thinking for this process itself.
        service.play.ai_owner = self.owner
        self.ai_pause = ai_pause
        self.sender = Sender(client, self.duties)
        # The changes being followed here, which new lobbies wait behind (see `backlog`).
        self.backlog = Backlog()
        self._kept: set[asyncio.Task[None]] = set()  # see `keep`
        self.buttons = BoardButtons(client, service.buttons, self.keep)
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._replays: set[asyncio.Task[None]] = set()
        self._lobby_edits: set[asyncio.Task[None]] = set()
        # A person's board held for the AI's card that answers it, by game (see `_fold`).
        self._folded: dict[int, tuple[Owed, list[str], ActResult]] = {}
        self._rounds: set[asyncio.Task[None]] = set()  # tournaments' next rounds being paired
        self._swept = float("-inf")  # when posts made long ago were last dropped
        self.stopping = False  # once closing: no AI move or replay is started any more
        # The live boards on the web, when this process serves them: told of every change
        # followed here, as it comes (see `hvbot.web.hub`).
        self.web: Hub | None = None

    async def carry_on(self) -> None:
        """Carry on where the bot's processes left off, reading only the games that need it:
        the posts with buttons they have moved past lose their buttons. An AI seat to move,
        and a post a change owes, are each process's duties now and then anyway (the first
        check is at once), found by index (see `do_duties`). A game is read when someone
        plays it: at start-up no process reads every game."""
        for game_id in await self.service.buttons.stale_games():
            game = await self.games.find(game_id)
            if game is not None:
                self.buttons.moved_on(game)

    def keep(self, task: asyncio.Task[None]) -> None:
        """Hold a task that finishes an answer until it ends (closing waits for such tasks
        by their names)."""
        _hold(self._kept, task)

    def busy(self) -> list[asyncio.Task[None]]:
        """The AI seats moving and the replays being posted, now."""
        running = (*self._ai_tasks.values(), *self._replays, *self._lobby_edits, *self._rounds)
        return [t for t in running if not t.done()]

    async def close(self) -> None:
        """Start nothing more, and stop the AI seats and replays under way: what they had not
        sent stays owed, for this process after a restart or for another."""
        self.stopping = self.sender.stopping = True
        tasks = self.busy()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------------ what follows

    async def follow(
        self,
        change: Change | SeasonEnd | TournamentChange,
        *,
        answered: Iterable[str] = (),
        reach: Reach | None = None,
    ) -> None:
        """What follows a stored change, all of it: the posts it owes sent in the order owed
        (each to the game's channel or a person's DMs, where Discord's nonce guards it), then
        what comes next, decided from the change itself (`_next`): the buttons it made stale
        taken off, an AI seat's move, a finished game's replay and its lobby message.

        `answered`: kinds of post the interaction's own answer showed already (an edit of the
        lobby message, which shows the same however often it is made): marked made, not sent.
        What comes next happens even when sending failed (the change is stored); the failure
        is raised for the handler to answer.

        The live boards (`web`) are told first: their viewers see the change while its posts
        are still being drawn and sent.

        A server's change (a season's end) owes server posts: its leaderboards and its rank
        roles, sent the same way (`_send_server_post`). A tournament's change owes its own
        posts (its sign-up post, a round's, the standings, the podium: `_send_tournament_post`;
        `answered` "signup" when a Join or Leave click's answer showed the sign-up post), and
        then each table game it opened is followed as any game's change.

        `reach`: the interaction that made the change, for a game the bot reaches only by
        answering (`GameRow.answers_only`: a DM or a group DM through a person's own
        installation). Its posts go out as that interaction's follow-ups (`Reach`): first
        what the game owed from before (a clock that ran out while nobody was there, and the
        AI's move after it), then the change's own, then the AI seats' moves, played at once
        so that the same interaction shows them (`_answer_ai`). Without an interaction alive
        they wait, owed, for the next one.

        While it runs, the change counts as under way (`backlog`): new lobbies wait while too
        many are."""
        with self.backlog.working():
            await self._follow(change, frozenset(answered), reach)

    async def _follow(
        self,
        change: Change | SeasonEnd | TournamentChange,
        answered: frozenset[str],
        reach: Reach | None,
    ) -> None:
        if isinstance(change, TournamentChange):
            await self._follow_tournament(change, answered)
            return
        if self.web is not None and not isinstance(change, SeasonEnd):
            self.web.changed(change.game.id)
        # What comes next follows the game as its posts left it: a lobby post may have
        # started the game's thread, where its buttons are taken off from then on.
        went_on: list[Change | SeasonEnd] = [change]
        out: set[int] = set()  # the ids of the posts the change owes that went out here
        if reach is not None and not isinstance(change, SeasonEnd) and change.game.answers_only:
            self.sender.reaches[change.game.id] = reach
            await self._catch_up(change)
            change = went_on[0] = self._fold(change)
        try:
            if isinstance(change, SeasonEnd):
                for owed in change.owed:
                    await self._send_server_post(owed)
            else:
                await self._send_owed(change, answered, went_on, out)
        finally:
            self._next(went_on[-1], out)
        if reach is not None and not isinstance(change, SeasonEnd) and change.game.answers_only:
            await self._answer_ai(change.game.id)
            await self._unfold(change.game.id)

    def _fold(self, change: Change) -> Change:
        """A person's move in a game reached only by answers, to which an AI seat answers at
        once: its board is not sent on its own; the AI's card shows the board after both
        moves, with both in words (`_send_board`), and the person's is marked made as that
        card goes. The change, without the board thus held."""
        game = change.game
        if not isinstance(change, ActResult) or not game_posts.is_public(change):
            return change
        if not ai_turn(game, change.state, stand_in_seat=game.stand_in_seat):
            return change
        boards = [owed for owed in change.owed if owed.kind == "move"]
        if len(boards) != 1 or self.sender.reach(game, room=1) is None:
            return change
        self._folded[game.id] = (boards[0], game_posts.move_lines(game, change), change)
        return replace(change, owed=tuple(o for o in change.owed if o is not boards[0]))

    async def _unfold(self, game_id: int) -> None:
        """A board held for the AI's card (`_fold`) that no AI card took (the AI did not
        move here: another process thinks for it, say): sent on its own after all."""
        folded = self._folded.pop(game_id, None)
        if folded is not None:
            owed, _, change = folded
            await self._send_board(owed, change)

    async def catch_up(self, game: GameRow, reach: Reach) -> None:
        """An interaction in a game reached only by answering that changed nothing (a
        refusal, a board asked for again): what the game owes from before is shown through
        it all the same, and the AI seats move on if it is theirs to."""
        self.sender.reaches[game.id] = reach
        await self._catch_up(Change(game=game))
        await self._answer_ai(game.id)

    async def _catch_up(self, change: Change) -> None:
        """What a game reached only by answering owed from before `change` (a turn's clock
        run out while nobody interacted, the AI's move after it), claimed from whoever held
        it and sent in order through the interaction in hand (see `follow`)."""
        first = min((owed.id for owed in change.owed), default=None)
        for owed in await self.duties.claim_game(change.game.id, before=first):
            try:
                await self.deliver(owed)
            except Exception as exc:
                failed(log, exc, "game %s: could not show a post owed before", change.game.id)

    async def _answer_ai(self, game_id: int) -> None:
        """The AI seats' moves of a game reached only by answering, awaited here, so that
        the interaction in hand answers with them (they are played at once: `_next`)."""
        task = self._ai_tasks.get(game_id)
        if task is not None and not task.done() and task is not asyncio.current_task():
            await asyncio.shield(task)

    async def _follow_tournament(self, change: TournamentChange, answered: frozenset[str]) -> None:
        """A tournament's posts, then its table games' (see `follow`)."""
        try:
            for owed in change.owed:
                if owed.kind in answered:
                    await self.sender.made(owed)
                else:
                    await self._send_server_post(owed)
        finally:
            for game in change.games:
                await self.follow(game)

    async def _send_owed(
        self,
        change: Change,
        answered: frozenset[str],
        went_on: list[Change | SeasonEnd],
        out: set[int],
    ) -> None:
        """Send what a game's change owes; `went_on` gets the change as its game is after each
        post that moved it (a thread started from its lobby post), `out` the ids of the boards
        that went out here (sent, or marked made: only the mover saw it)."""
        game, closed = change.game, []
        for owed in change.owed:
            if owed.kind in answered:
                await self.sender.made(owed)
            elif owed.kind == "replay" or (owed.kind == "lobby" and not game.is_open):
                continue  # after the end, in the background (`_next`)
            elif owed.kind == "secret":
                if not await self._send_secret(owed, game, self._state(change)):
                    closed.append(int(owed.body["user"]))
            elif owed.kind == "text":
                await self.send_text(owed, game)
            elif owed.kind == "digest":
                await self._send_digest(owed, game)
            elif owed.kind == "followers":
                await self._join_followers(owed, game)
            elif owed.kind == "lobby" and game.answers_only:
                await self._answer_lobby(owed, game)
            elif owed.kind == "lobby":
                # A rematch started at once, or a tournament's table, may have its thread
                # now: what follows goes there.
                game = await self._update_lobby(owed, game)
                change = replace(change, game=game)
                went_on.append(change)
            elif await self._send_board(owed, change):
                out.add(owed.id)
        if closed:
            await self._closed_dms(game, closed)

    async def _send_board(self, owed: Owed, change: Change) -> Sent | bool | None:
        """A board post: a move's, the first one, or one a move taken back left. What was
        sent, or True when only its player saw the move (marked made, nothing to post); None
        when it is not out (another process sends it)."""
        game, state, now = change.game, self._state(change), self.games.clock()
        post: Callable[[], Awaitable[Post | None]]
        if owed.kind == "start":
            post = partial(owed_posts.start_post, game, state, now)
        elif owed.kind == "undo":
            body = owed.body
            post = partial(
                owed_posts.taken_back_post,
                game,
                state,
                int(body["player"]),
                str(body["action"]),
                now,
                int(body.get("ai", 0)),
            )
        elif isinstance(change, ActResult):
            if not game_posts.is_public(change):
                await self.sender.made(owed)  # only its player saw something: nothing to post
                return True
            before: list[str] = []
            folded = self._folded.pop(game.id, None) if game.answers_only else None
            if folded is not None and folded[0].id != owed.id:
                # The person's move this AI answers, told by this card: marked made first,
                # as the posts of a game go out in order. A process that dies before this
                # card is sent leaves it owed, shown at the game's next interaction.
                await self.sender.made(folded[0])
                before = folded[1]
            post = partial(game_posts.board_post, game, change, state, now, before=before)
        else:
            raise ValueError(f"game {game.id}: a {owed.kind!r} post owed by no move")
        return await self.send(owed, game, post)

    def _state(self, change: Change) -> State:
        return change.state if change.state is not None else self.games.peek_state(change.game)

    def _next(self, change: Change | SeasonEnd, out: Set[int] = frozenset()) -> None:
        """What comes next after a change, from the change alone: a game ended has its replay
        and its lobby message's update (in the background: a replay takes seconds to draw);
        a game in play moves on with the AI seat to move, if one is and none is moving for it
        here. The buttons the change made stale are taken off either way. A change the
        process is too late for (closing) leaves these owed, for a restart or another
        process (`do_duties`). `out`: the ids of the posts the change owed that went out here.

        A move that handed an AI seat its turn may have claimed its thinking for this process
        (`ActResult.ai_claimed`); once every post the AI waits for went out here, the AI moves
        on that claim with no look at the outbox."""
        if self.stopping:
            return
        if isinstance(change, SeasonEnd):
            return  # a season's end leads to nothing more: what it owes is all it does
        game = change.game
        if game.status == "lobby":
            return
        self.buttons.moved_on(game)
        if not game.is_open:
            for one in change.owed:
                if one.kind == "replay":
                    work = self.send(one, game, partial(owed_posts.replay_post, self.games, game))
                    task = asyncio.create_task(self._quietly(game, work, "the replay"))
                    _hold(self._replays, task)
                elif one.kind == "lobby":
                    update = self._answer_lobby if game.answers_only else self._update_lobby
                    edit = self._quietly(game, update(one, game), "the lobby's update")
                    _hold(self._lobby_edits, asyncio.create_task(edit))
            if game.tournament_id is not None:
                # A tournament's table ended: its round may be complete, and the next one
                # due (paired once, whichever process sees it: `Tournaments.game_ended`).
                work = self._next_round(game)
                _hold(self._rounds, asyncio.create_task(self._quietly(game, work, "a round")))
            return
        if ai_turn(game, self._state(change), stand_in_seat=game.stand_in_seat):
            claimed = isinstance(change, ActResult) and change.ai_claimed
            told = claimed and all(
                owed.id in out for owed in change.owed if owed.kind in AI_WAITS_FOR
            )
            # Where the bot only answers, the AI answers within the same interaction.
            pause = 0.0 if game.answers_only else None
            self._start_ai(game.id, claimed=claimed, told=told, pause=pause)

    # ------------------------------------------------------------------ sending

    async def send(
        self,
        owed: Owed,
        game: GameRow,
        post: Post | Callable[[], Awaitable[Post | None]],
        *,
        to_user: int | None = None,
        then: Callable[[discord.Message], Awaitable[None]] | None = None,
        refused: Callable[[Owed], Awaitable[Any]] | None = None,
    ) -> Sent | None:
        """Send one owed post if it is still this process's to send (see `Sender.send`, and
        `then` and `refused` there); a board post's buttons are then looked after (see
        `BoardButtons`)."""
        sent = await self.sender.send(owed, game, post, to_user=to_user, then=then, refused=refused)
        if sent is not None:
            self.buttons.shown(game, sent.post, sent.message)
        return sent

    async def deliver(self, owed: Owed) -> None:
        """Send an owed post built from what is stored, then carry its game on from it: how
        another process's unsent posts are sent (see `do_duties`)."""
        if owed.game_id is None:
            await self._send_server_post(owed)
            return
        game = await self.games.find(owed.game_id, fresh=True)
        if game is None:
            taken = await self.sender.take(owed)
            if taken is not None:
                await self.sender.made(taken)  # the game is gone: nothing to tell
            return
        after: State | None = None
        if owed.kind == "secret":
            state = await owed_posts.dealt_again(self.games, game, 0)
            if state is not None and not await self._send_secret(owed, game, state):
                await self._closed_dms(game, [int(owed.body["user"])])
            return
        if owed.kind == "lobby" and game.answers_only:
            await self._answer_lobby(owed, game)
            return
        if owed.kind == "lobby":
            await self._update_lobby(owed, game)
            return
        if owed.kind == "digest":
            await self._send_digest(owed, game)
            return
        if owed.kind == "followers":
            await self._join_followers(owed, game)
            return
        if owed.kind == "text":
            await self.send_text(owed, game)
        else:

            async def build() -> Post | None:
                nonlocal after
                post, after = await owed_posts.rebuilt(self.games, game, owed)
                return post

            await self.send(owed, game, build)
        # The game goes on from the change if it has not moved on since (the AI seat to move,
        # which waited for this post); a finished game's replay is owed on its own.
        goes_on = after is None or not after.is_terminal()
        if game.status == "active" and game.version == owed.version and goes_on:
            self._next(Change(game=game, state=after))

    async def _send_secret(self, owed: Owed, game: GameRow, state: Any) -> bool:
        """One person's secret by DM; False if their DMs are closed."""
        seat, user_id = int(owed.body["seat"]), int(owed.body["user"])
        try:
            await self.send(
                owed,
                game,
                lambda: game_posts.secret_post(game, state, seat),
                to_user=user_id,
            )
        except discord.HTTPException:
            return False
        return True

    async def _closed_dms(self, game: GameRow, user_ids: list[int]) -> None:
        """Tell the channel who should ask for their secret with /game mysecret."""
        notice = game_posts.dms_closed_post(game, user_ids)
        try:
            await self.sender.to_game(game, notice)
        except (discord.HTTPException, Unreachable):
            log.warning("game %s: could not say that DMs are closed", game.id)

    async def _next_round(self, game: GameRow) -> None:
        """What a tournament's table that ended leads to: the next round, or the end."""
        change = await self.service.tournaments.game_ended(game)
        if change is not None:
            await self.follow(change)

    async def run_tournaments(self) -> int:
        """The tournaments' periodic duty: the seat of a person removed still seated
        resigned (the removal's process died before resigning it), those whose start time
        has come started, and a round complete but not paired (its process died in between)
        paired, each once (see `Tournaments.due`). Returns how many changes this process
        made."""
        changed = await self.service.tournaments.due()
        for change in changed:
            await self.follow(change)
        return len(changed)

    async def _send_tournament_post(self, owed: Owed) -> None:
        """A tournament's post, built from what is stored when it is sent: its sign-up post
        (posted once, with its nonce, and remembered before it is marked made; every later
        one is an edit of it, which shows the same however often it is made), a round's
        tables, the standings after a round, the podium."""
        tournament_id = int(owed.body["tournament"])
        service = self.service.tournaments
        tournament = await service.get(tournament_id)
        if tournament is None:
            taken = await self.sender.take(owed)
            if taken is not None:
                await self.sender.made(taken)  # gone: nothing to tell
            return
        channel = tournament.channel_id
        if owed.kind == "signup":
            await self._signup(owed, tournament_id, channel)
            return

        async def build() -> Post:
            number = int(owed.body.get("round", 0))
            standing = await service.standing(tournament_id, upto=number)
            if owed.kind == "round":
                return tournaments.round_post(standing, number)
            texts = texts_for(standing.tournament.language)
            return await tournaments.standings_post(standing, texts, podium=owed.kind == "podium")

        try:
            await self.sender.send(owed, None, build, to_channel=channel)
        except discord.HTTPException as exc:
            if exc.status >= 500:
                raise  # left owed: Discord may have made it, and the nonce guards a retry
            log.warning("tournament %s: its channel refused a post", tournament_id)

    async def _signup(self, owed: Owed, tournament_id: int, channel: int) -> None:
        service = self.service.tournaments

        async def build() -> Post:
            standing = await service.standing(tournament_id)
            return tournaments.signup_post(standing.tournament, standing.entrants)

        async def remember(message: discord.Message) -> None:
            await service.table.set_signup_message(tournament_id, message.id)

        if owed.body.get("first"):
            sent = await self.sender.send(owed, None, build, to_channel=channel, then=remember)
            if sent is None or sent.message is None:
                return
            now = await build()
            if not cards.says(sent.message, now.content):
                # A change made meanwhile found no message to edit: it is brought up to date.
                await self._edit_signup(channel, sent.message.id, now)
            return
        taken = await self.sender.take(owed)
        if taken is None:
            return
        tournament = await service.get(tournament_id)
        if tournament is not None and tournament.signup_message_id is not None:
            await self._edit_signup(channel, tournament.signup_message_id, await build())
        # Else its first post is still to be made, and shows the tournament as it is then.
        await self.sender.made(taken)

    async def _edit_signup(self, channel: int, message_id: int, post: Post) -> None:
        message = self.client.get_partial_messageable(channel).get_partial_message(message_id)
        try:
            await message.edit(**edit_kwargs(post))
        except discord.HTTPException as exc:
            if exc.status >= 500:
                raise
            log.warning("channel %s: could not update a tournament's sign-up post", channel)

    async def _post_table(self, owed: Owed, game: GameRow) -> GameRow:
        """A tournament's table announced in its channel (seats mentioned), where Discord's
        nonce guards it, and remembered as the game's lobby message; its thread is then
        started from it, and the game's first board and everything after go there, as for
        a game started from its lobby. The game as it is after.

        The thread is started before the announcement is marked made: the game's first board
        waits for the announcement (see `hvbot.store.duties.A_TABLE`), so whichever process
        sends the board finds the thread there, or none because Discord would not start one
        (the game is then played in the channel, and the announcement says so)."""
        body = owed.body
        tournament = await self.service.tournaments.get(int(body["tournament"]))
        if tournament is None:
            return game
        number, table = int(body["round"]), int(body["table"])
        name = tournaments.thread_name(tournament, number, table)

        async def remember(message: discord.Message) -> None:
            await self.games.set_lobby_message(game.id, message.id)
            now = await self.games.find(game.id, fresh=True) or game
            if now.thread_id is None:
                thread_id = await game_posts.start_thread(self.client, now, name)
                if thread_id is not None:
                    await self.games.set_thread(now, thread_id)

        # As first posted: not yet a message a thread could be started from.
        first = replace(game, lobby_message_id=None)
        post = tournaments.table_post(tournament, first, number, table)
        sent = await self.send(owed, game, post, then=remember)
        now = await self.games.find(game.id, fresh=True) or game
        if sent is None or now.lobby_message_id is None:
            return now
        # It says where the game is played, as a lobby does after Start.
        await self._show_table(tournament, now, number, table, shown=sent.post.content)
        return now

    async def _refresh_table(self, game: GameRow) -> None:
        """A tournament table's announcement (its lobby message) edited as the game is now:
        the tournament's words, and once over, that it is."""
        service = self.service.tournaments
        table = await service.table.of_game(game.id)
        tournament = await service.get(game.tournament_id or 0)
        if table is not None and tournament is not None:
            await self._show_table(tournament, game, table.round, table.table)

    async def _show_table(
        self,
        tournament: TournamentRow,
        game: GameRow,
        number: int,
        table: int,
        *,
        shown: str | None = None,
    ) -> None:
        """The table's announcement edited to read as the game is now, unless it already
        does (`shown`: what it says). It is edited as the card it is; one posted as plain
        text before the bot's posts were cards becomes one, its text cleared as Discord
        requires (`Post.edit_kwargs`)."""
        post = tournaments.table_post(tournament, game, number, table)
        if game.lobby_message_id is None or post.content == shown:
            return
        channel = self.client.get_partial_messageable(game.channel_id)
        try:
            await channel.get_partial_message(game.lobby_message_id).edit(**edit_kwargs(post))
        except discord.HTTPException:
            log.warning("game %s: could not update its table's announcement", game.id)

    async def _update_lobby(self, owed: Owed, game: GameRow) -> GameRow:
        """An edit: made twice, it shows the same, so it needs no nonce. A rematch's lobby
        (its body names the game before) is a post instead, made where Discord's nonce
        guards it, and the lobby message from then on. The game as it is after (in its
        thread, for a rematch that started at once: see `_post_lobby`)."""
        if "rematch_of" in owed.body:
            return await self._post_lobby(owed, game)
        if "tournament" in owed.body:
            return await self._post_table(owed, game)
        taken = await self.sender.take(owed)
        if taken is None:
            return game
        if game.tournament_id is not None:
            await self._refresh_table(game)
            await self.sender.made(taken)
            return game
        standing = await self.service.rematch.standing(game.id) if game.is_open else None
        await game_posts.refresh_lobby(self.client, game, self.games.clock(), standing)
        await self.sender.made(taken)
        return game

    async def _post_lobby(self, owed: Owed, game: GameRow) -> GameRow:
        """A rematch's lobby message, as it stands when it is sent, remembered as the lobby
        message that later changes edit, before the post is marked made (see `Sender.send`):
        a process that dies in between leaves it owed, and whoever posts it again is answered
        by Discord (the same nonce) with the message made, and remembers that one. That
        message says what the lobby was then: a change made meanwhile (an acceptance) found
        no message to edit, so it is brought up to date.

        A rematch against AI seats alone has started by the time its lobby message is
        posted (the asker accepted by asking): when the game before was played in a thread,
        this one's thread is started from that message now, as Start does from a lobby's,
        so that its first board and everything after go there. The game as it is after."""

        async def build() -> Post | None:
            now = self.games.clock()
            return game_posts.lobby_post(game, now, await self.service.rematch.standing(game.id))

        async def remember(message: discord.Message) -> None:
            await self.games.set_lobby_message(game.id, message.id)

        sent = await self.send(owed, game, build, then=remember)
        if sent is None or sent.message is None:
            return game
        now = await self.games.find(game.id, fresh=True) or game
        if sent.message.content != sent.post.content:
            # The message made by a process that died, as the lobby was then.
            standing = await self.service.rematch.standing(now.id) if now.is_open else None
            await game_posts.refresh_lobby(self.client, now, self.games.clock(), standing)
        if now.status == "active" and now.wants_thread and now.thread_id is None:
            before = await self.games.find(int(owed.body["rematch_of"]))
            if before is not None and before.thread_id is not None:
                thread_id = await game_posts.start_thread(self.client, now)
                if thread_id is not None:
                    now = await self.games.set_thread(now, thread_id)
                    # The lobby message says where the game is played, as after Start.
                    await game_posts.refresh_lobby(self.client, now, self.games.clock())
        return now

    async def _quietly(self, game: GameRow, work: Awaitable[Any], what: str) -> None:
        try:
            await work
        except Exception as exc:
            failed(log, exc, "game %s: could not post %s", game.id, what)

    def _start_ai(
        self,
        game_id: int,
        *,
        claimed: bool = False,
        told: bool = False,
        pause: float | None = None,
    ) -> None:
        running = self._ai_tasks.get(game_id)
        if running is not None and not running.done():
            return
        work = self._run_ai(game_id, claimed=claimed, told=told, pause=pause)
        self._ai_tasks[game_id] = task = asyncio.create_task(work)
        self.backlog.track(task)

    async def _run_ai(
        self, game_id: int, *, claimed: bool = False, told: bool = False, pause: float | None = None
    ) -> None:
        """Play the AI seats of a game while one is to move, holding the claim of their
        thinking: another process does not think for them meanwhile, and takes over if this
        one dies. A claim this one could not take or let go of (the database away) runs out,
        and whichever process sees it then plays on (`do_duties`). `claimed`: the claim is
        held already (by the periodic check, or the change that handed the AI its turn);
        `told`: and nothing the AI waits for is owed any more (the change's own posts went
        out here, and the change claimed only if nothing was owed from before)."""
        try:
            await self._ai_turns(game_id, claimed=claimed, told=told, pause=pause)
        except Exception as exc:
            failed(log, exc, "game %s: the AI seats could not go on", game_id)

    async def _ai_turns(
        self, game_id: int, *, claimed: bool, told: bool, pause: float | None
    ) -> None:
        await self.client.wait_until_ready()
        duties = self.duties
        # While a change before the AI's is still to be told (its process died, say), the
        # AI plays only once it is (`deliver`), so the channel reads them in order: the claim
        # is not taken (or let go of), and whoever delivers that post starts the AI. A game
        # reached only by answering does not wait: its posts wait for its next interaction,
        # which shows them all in order (see `hvbot.store.duties`).
        game = await self.games.find(game_id)
        answers = game is not None and game.answers_only
        if answers:
            pause = 0.0
        if claimed:
            if not answers and not told and await duties.owes(game_id, AI_WAITS_FOR):
                await duties.release_ai(game_id, self.owner)
                return
        elif not await duties.claim_ai(game_id, self.owner, unless_owed=AI_WAITS_FOR):
            return  # another process is thinking for this game, or a post is owed first
        while (played := await self._play_ai(game_id, pause)) != STOPPED:
            if played == HELD:
                await duties.release_ai(game_id, self.owner)
            # A person may have moved while this task was letting go, handing the turn to an
            # AI again: `follow` left that to this task, so look once more (at the
            # stored game: the move may have been another process's).
            game = await self.games.find(game_id, fresh=True)
            if game is None:
                return
            if not ai_turn(game, self.games.peek_state(game), stand_in_seat=game.stand_in_seat):
                return
            if not await duties.claim_ai(game_id, self.owner):
                return

    async def _play_ai(self, game_id: int, pause: float | None = None) -> str:
        """Play the AI seats' moves in a row, until a person is to move (or the game is
        over): LET_GO when the AI's last move handed them the turn, which let go of the
        claim with it (a change that leaves no AI to move does), HELD when there was no AI
        move to make, the claim still held; STOPPED if the AI failed or played the most moves
        in a row allowed. The claim was just taken for the first move; it is renewed before
        each one after."""
        for moves in range(MOST_AI_MOVES):
            with self.backlog.idle():  # a pause is no work: new lobbies need not wait for it
                await asyncio.sleep(self.ai_pause if pause is None else pause)
            try:
                if moves and not await self.duties.claim_ai(game_id, self.owner):  # renewed
                    return STOPPED  # taken over by another process: this one was too slow
                result = await self.service.play.ai_step(game_id=game_id)
            except Exception as exc:
                failed(log, exc, "game %s: the AI seat failed to move", game_id)
                return STOPPED
            if result is None:
                return HELD
            try:
                # While this task runs no other AI task starts for the game: what comes next
                # matters here only when the AI's move ended the game (its replay).
                await self.follow(result)
            except Exception as exc:
                failed(log, exc, "game %s: could not post the AI's move", game_id)
            game = result.game
            if not ai_turn(game, result.state, stand_in_seat=game.stand_in_seat):
                return LET_GO
        return STOPPED

    # ------------------------------------------------------------------ duties

    async def remind(
        self,
        words: Callable[[Reminder], str],
        dm_words: Callable[[Reminder], str] | None = None,
    ) -> int:
        """Post the turn reminders due now, claimed a few at a time, each sent as any owed
        post is (taken right before): a reminder another process took over while this one
        was slow is left to it. A DM to someone who accepts none goes to the channel
        instead. Returns how many this process posted."""
        posted = 0
        while due := await self.service.reminders.due_reminders(
            words, most=REMIND_BATCH, dm_words=dm_words
        ):
            for reminder in due:
                await self.follow(reminder)
                posted += len(reminder.owed)
        return posted

    async def run_clocks(
        self,
        warning: WarningWords,
        ran_out: RanOutWords,
        stand_in_name: Callable[[GameRow, SeatRow], str] | None = None,
    ) -> int:
        """Send what the turn clocks due now owe, claimed a few at a time (as reminders are):
        a warning by DM to the person to move (in the channel if their DMs are closed), or
        the channel told that their time ran out, and then the AI's move. Returns how many
        clocks this process handled."""
        handled = 0
        for _ in range(MOST_CLOCK_ROUNDS):
            events = await self.service.clocks.due(warning, ran_out, stand_in_name=stand_in_name)
            if not events:
                break
            for event in events:
                handled += 1
                # The warning or the time run out told first, then the AI's move (or the
                # game's end by it, and its replay).
                await self.follow(event)
        return handled

    async def end_seasons(self) -> int:
        """Announce the seasons that ended on any server since the last check, each recorded
        by one process only (see `SeasonEnds.due`), and give their rank roles. Returns how
        many this process recorded."""
        ended = await self.service.seasons.due()
        for change in ended:
            await self.follow(change)
        return len(ended)

    async def _send_server_post(self, owed: Owed) -> None:
        """A server's post: a season's final leaderboards to the channel its server named
        (with the post's nonce, as every owed post), or its rank roles given and taken."""
        if owed.kind == "ranks":
            await self._give_ranks(owed)
            return
        if owed.kind in TOURNAMENT_KINDS:
            await self._send_tournament_post(owed)
            return
        body = owed.body
        season = season_named(str(body["label"]))
        assert owed.guild_id is not None and season is not None
        guild_id = owed.guild_id
        channel = int(body["channel"])

        async def build() -> Post:
            texts = texts_for(body.get("language") or self._server_language(guild_id))
            boards = await self.service.seasons.boards(guild_id, season)
            return await seasons.season_post(season, boards, texts)

        try:
            await self.sender.send(owed, None, build, to_channel=channel)
        except discord.HTTPException as exc:
            if exc.status >= 500:
                raise  # left owed: Discord may have made it, and the nonce guards a retry
            log.warning("server %s: the season channel %s refused its post", guild_id, channel)

    def _server_language(self, guild_id: int) -> str:
        guild = self.client.get_guild(guild_id)
        return language_of(guild.preferred_locale) if guild is not None else "en"

    async def _give_ranks(self, owed: Owed) -> None:
        """A season's rank role: taken off last season's holders who are not among the best
        any more, and given to the best. Giving a role twice (another process took the duty
        over after this one died mid-way) leaves the member as once, so it needs no nonce.
        Without Manage Roles (or with the role above the bot's own), Discord refuses: said
        once in the log, and the server's settings say why; nothing else fails."""
        taken = await self.sender.take(owed)
        if taken is None:
            return
        body, guild_id = owed.body, owed.guild_id
        assert guild_id is not None
        role, reason = int(body["role"]), f"season {body['label']}"
        http = self.client.http  # by id: the members need not be in this process's cache
        try:
            for user in body["taken"]:
                with contextlib.suppress(discord.NotFound):  # left the server since
                    await http.remove_role(guild_id, int(user), role, reason=reason)
            for user in body["given"]:
                with contextlib.suppress(discord.NotFound):
                    await http.add_role(guild_id, int(user), role, reason=reason)
        except discord.Forbidden:
            log.warning("server %s: no permission to give the rank role %s", guild_id, role)
        await self.sender.made(taken)

    async def close_expired_lobbies(self) -> int:
        """Close the lobbies left unstarted for a day: each says so in its channel, and its
        lobby message shows it closed. Returns how many this process closed."""
        closed = await self.service.lobby.close_expired()
        for change in closed:
            await self.follow(change)
        return len(closed)

    async def send_text(self, owed: Owed, game: GameRow) -> Sent | None:
        """An owed text post: to the game's channel, or by DM to the person its body names
        (in the channel instead, mentioning them, if they accept no DMs)."""
        post = owed_posts.text_post(owed)
        user = owed.body.get("user")
        if user is not None and game.answers_only:
            return await self._dm_or_wait(owed, game, post, int(user))
        try:
            if user is None:
                return await self.send(owed, game, post)
            return await self.send(owed, game, post, to_user=int(user))
        except discord.HTTPException as exc:
            if user is None or exc.status >= 500:
                log.warning("game %s: could not post %r", game.id, post.content[:40])
                return None
        try:
            await self.sender.to_game(game, Post(in_their_place(int(user), post)))
        except discord.HTTPException:
            log.warning("game %s: could not tell a person in the channel either", game.id)
        return None

    async def _dm_or_wait(self, owed: Owed, game: GameRow, post: Post, user: int) -> Sent | None:
        """A text for one person of a game reached only by answering (a reminder, a clock's
        warning), by DM; if Discord refuses it (their DMs closed), it is owed from then on to
        the game's next interaction, mentioning them, as the bot cannot post there itself."""

        async def readdress(taken: Owed) -> None:
            body = {"content": in_their_place(user, post)}
            if not await self.duties.readdress(taken, body):
                log.info("game %s: a DM refused was taken over meanwhile", game.id)

        try:
            return await self.send(owed, game, post, to_user=user, refused=readdress)
        except discord.HTTPException as exc:
            log.info("game %s: a DM waits for the next interaction: %s", game.id, exc)
            return None

    async def _answer_lobby(self, owed: Owed, game: GameRow) -> None:
        """A lobby's update in a game reached only by answering: the lobby as it is now, a
        new card through the interaction in hand (the lobby message cannot be edited but by
        the interaction that made it); or, with none, nothing to do until the next one. A
        game started since shows its board instead: its update is made."""
        if game.status != "lobby":
            taken = await self.sender.take(owed)
            if taken is not None:
                await self.sender.made(taken)
            return

        async def remember(message: discord.Message) -> None:
            await self.games.set_lobby_message(game.id, message.id)

        def build() -> Awaitable[Post | None]:
            return self._lobby_now(game)

        await self.send(owed, game, build, then=remember)

    async def _lobby_now(self, game: GameRow) -> Post | None:
        now = await self.games.find(game.id, fresh=True) or game
        if now.status != "lobby":
            return None  # started or closed since: its board or its end says so
        standing = await self.service.rematch.standing(now.id)  # a rematch's, if it is one
        return game_posts.lobby_post(now, self.games.clock(), standing)

    async def _send_digest(self, owed: Owed, game: GameRow) -> Sent | None:
        """A follower's digest by DM (see `owed_posts.digest_post`), built when taken. A
        follower who accepts no DMs is not told in the channel instead: the channel saw it
        all already, and they chose to follow it by DM."""
        build = partial(owed_posts.digest_post, self.games, game, owed)
        try:
            return await self.send(owed, game, build, to_user=int(owed.body["user"]))
        except discord.HTTPException:
            log.info("game %s: a follower's digest could not be sent", game.id)
            return None

    async def _join_followers(self, owed: Owed, game: GameRow) -> None:
        """The followers of a lobby joined to the game's thread at its start, their follow by
        DM become a follow in the thread (see `Followers.to_thread`); a game that stayed in
        its channel leaves them their digests. Adding a member twice leaves them a member
        once (another process took the duty over), so this needs no nonce. One who cannot be
        added (they left the server) is said once in the log; the others are added."""
        taken = await self.sender.take(owed)
        if taken is None:
            return
        users = [int(user) for user in owed.body.get("users", ())]
        thread = game.thread_id
        for user in await self.service.follows.to_thread(game, users):
            assert thread is not None
            try:
                await self.client.http.add_user_to_thread(thread, user)
            except discord.HTTPException as exc:
                if exc.status >= 500:
                    raise  # left owed: whoever takes it next adds them all again
                log.info("game %s: could not add a follower to its thread: %s", game.id, exc)
        await self.sender.made(taken)

    async def send_digests(self) -> int:
        """Send the followers' digests due now (see `hvbot.services.follows`), claimed a few
        at a time, each sent as any owed post is (taken right before, with its nonce).
        Returns how many this process claimed."""
        sent = 0
        for _ in range(MOST_DIGEST_ROUNDS):
            due = await self.service.follows.due_digests()
            for change in due:
                await self.follow(change)
                sent += len(change.owed)
            if not due:
                break
        return sent

    async def do_duties(self) -> None:
        """Take over what another process left undone (it died, say): posts owed by stored
        changes, and AI seats nobody is thinking for. Every process runs this now and then."""
        duties = self.duties
        for owed in await duties.claim_owed():
            metrics.DUTIES_TAKEN_OVER.labels(owed.kind).inc()
            try:
                await self.deliver(owed)
            except Exception as exc:
                failed(log, exc, "%s: could not make an owed post", owed.owner)
        if not self.stopping:
            for game_id in await duties.claim_ai_turns(self.owner, unless_owed=AI_WAITS_FOR):
                metrics.DUTIES_TAKEN_OVER.labels("ai").inc()
                self._start_ai(game_id, claimed=True)
        now = asyncio.get_running_loop().time()
        if now >= self._swept + SWEEP_S:
            self._swept = now
            await duties.forget_made()
