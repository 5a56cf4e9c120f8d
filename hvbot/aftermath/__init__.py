"""What follows a stored change, in one place: its posts sent exactly once, the buttons it made
stale taken off, the AI seat that is to move, the reminders, and the replay at the end.

A change and what it owes are stored together (see `hvbot.store.duties`): the board post of a
move, the first board and each person's secret at the start, the lobby's update, a move taken
back, a reminder's words, a finished game's replay. The process that made the change sends
them at once, from what it has in hand, through `send`; whatever it could not send (it died,
or was paused past its lease) another process sends later, built from the database, through
`do_duties`. Either way a post is taken with a compare-and-set right before it is sent, so it
is sent once.

The handlers call this after a change and nothing here calls back into the bot: it needs of
the bot only its connection to Discord (a `discord.Client`) and the game service.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable
from functools import partial
from typing import Any

import discord

from engine import State
from hvbot.aftermath import owed_posts
from hvbot.aftermath.board_buttons import BoardButtons
from hvbot.aftermath.sending import Sender, Sent, Via
from hvbot.database import failed, is_unreachable
from hvbot.infra import metrics
from hvbot.messages import game_posts
from hvbot.messages.post import Post
from hvbot.services import GameService
from hvbot.services.access import ai_turn
from hvbot.services.clocks import RanOutWords, WarningWords
from hvbot.services.outcomes import ActResult, Reminder
from hvbot.services.reminders import REMIND_BATCH
from hvbot.store import GameRow, SeatRow
from hvbot.store.duties import Owed

__all__ = ["Aftermath", "Sent", "Via"]

log = logging.getLogger(__name__)
SWEEP_S = 3600.0  # how often posts made long ago are dropped from the outbox
MOST_AI_MOVES = 256  # AI moves in a row before the AI seats let another process go on
# Rounds of due turn clocks claimed in one check, at most: the next check finds the rest.
MOST_CLOCK_ROUNDS = 20
ON_WAY_KINDS = ("move", "start", "undo")  # posts an AI seat waits for before it moves
# How a run of AI moves ended (`_play_ai`).
LET_GO, HELD, STOPPED = "let go", "held", "stopped"


def _hold(tasks: set[asyncio.Task[None]], task: asyncio.Task[None]) -> None:
    """Keep `task` in `tasks` until it ends: the event loop keeps only a weak reference."""
    tasks.add(task)
    task.add_done_callback(tasks.discard)


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
        self.ai_pause = ai_pause
        self.sender = Sender(client, self.duties)
        self._kept: set[asyncio.Task[None]] = set()  # see `keep`
        self.buttons = BoardButtons(client, service.buttons, self.keep)
        self._ai_tasks: dict[int, asyncio.Task[None]] = {}
        self._replays: set[asyncio.Task[None]] = set()
        self._lobby_edits: set[asyncio.Task[None]] = set()
        self._swept = float("-inf")  # when posts made long ago were last dropped
        self.stopping = False  # once closing: no AI move or replay is started any more

    def keep(self, task: asyncio.Task[None]) -> None:
        """Hold a task that finishes an answer until it ends (closing waits for such tasks
        by their names)."""
        _hold(self._kept, task)

    def busy(self) -> list[asyncio.Task[None]]:
        """The AI seats moving and the replays being posted, now."""
        running = (*self._ai_tasks.values(), *self._replays, *self._lobby_edits)
        return [t for t in running if not t.done()]

    async def close(self) -> None:
        """Start nothing more, and stop the AI seats and replays under way: what they had not
        sent stays owed, for this process after a restart or for another."""
        self.stopping = self.sender.stopping = True
        tasks = self.busy()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------------ sending

    async def send(
        self,
        owed: Owed,
        game: GameRow,
        post: Post | Callable[[], Awaitable[Post | None]],
        *,
        via: Via | None = None,
        to_user: int | None = None,
    ) -> Sent | None:
        """Send one owed post if it is still this process's to send (see `Sender.send`); a
        board post's buttons are then looked after (see `BoardButtons`)."""
        sent = await self.sender.send(owed, game, post, via=via, to_user=to_user)
        if sent is not None and not sent.withdrawn:
            self.buttons.shown(game, sent.post, sent.message)
        return sent

    async def send_move(
        self, result: ActResult, *, via: Via | None = None, shown: bool = True
    ) -> Sent | None:
        """A stored move's board post (`shown`: it has one; a drawn card has none)."""
        owed = next((o for o in result.owed if o.is_move), None)
        if owed is None:
            return None  # stored without a post owed (a test's own moves)
        if not shown:
            await self.sender.made(owed)  # nothing to post: nobody owes it any more
            return None
        return await self.send(
            owed,
            result.game,
            lambda: game_posts.board_post(result.game, result, result.state, self.games.clock()),
            via=via,
        )

    async def send_start(self, game: GameRow, state: State, owed: Iterable[Owed]) -> None:
        """What a start owes: the lobby's update, the first board, then each person's secret
        by DM (one notice in the channel for those whose DMs are closed, saying nothing
        secret); then what follows, as after any change."""
        closed: list[int] = []
        for one in owed:
            if one.kind == "secret":
                if not await self._send_secret(one, game, state):
                    closed.append(int(one.body["user"]))
            elif one.kind == "start":
                first = partial(owed_posts.start_post, game, state, self.games.clock())
                await self.send(one, game, first)
            elif one.kind == "lobby":
                await self._update_lobby(one, game)
        if closed:
            await self._closed_dms(game, closed)
        self.after_change(game, state)

    async def lobby_shown(self, game: GameRow) -> None:
        """The lobby message shows the game as it is: the updates it owed are made."""
        try:
            await self.duties.lobby_shown(game.id)
        except Exception as exc:
            # Left owed: another process edits the lobby again, to the same words.
            log.warning(
                "game %s: could not mark the lobby updated",
                game.id,
                exc_info=not is_unreachable(exc),
            )

    async def deliver(self, owed: Owed) -> None:
        """Send an owed post built from what is stored, then carry its game on from it: how
        another process's unsent posts are sent (see `do_duties`)."""
        game = await self.games.find(owed.game_id, fresh=True)
        if game is None:
            taken = await self.sender.take(owed)
            if taken is not None:
                await self.sender.made(taken)  # the game is gone: nothing to tell
            return
        if owed.kind == "secret":
            state = await owed_posts.dealt_again(self.games, game, 0)
            if state is not None and not await self._send_secret(owed, game, state):
                await self._closed_dms(game, [int(owed.body["user"])])
            return
        if owed.kind == "lobby":
            await self._update_lobby(owed, game)
            return
        if owed.kind == "text":
            await self.send_text(owed, game)
            return
        after: State | None = None

        async def build() -> Post | None:
            nonlocal after
            post, after = await owed_posts.rebuilt(self.games, game, owed)
            return post

        await self.send(owed, game, build)
        # The game goes on from the move if it has not moved on since (the AI seat to move);
        # a finished game's replay is owed on its own, after the last move's post.
        goes_on = after is not None and not after.is_terminal()
        if goes_on and game.version == owed.version and game.is_open:
            assert after is not None
            self.after_change(game, after)

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
        except discord.HTTPException:
            log.warning("game %s: could not say that DMs are closed", game.id)

    async def _update_lobby(self, owed: Owed, game: GameRow) -> None:
        """An edit: made twice, it shows the same, so it needs no nonce."""
        taken = await self.sender.take(owed)
        if taken is None:
            return
        await game_posts.refresh_lobby(self.client, game, self.games.clock())
        await self.sender.made(taken)

    # ------------------------------------------------------------------ what follows

    def after_change(self, game: GameRow, state: State, owed: Iterable[Owed] = ()) -> None:
        """What follows a change once it is told: the buttons it made stale taken off, the
        replay and the lobby message's update if the game is over (`owed` holds them), else
        the AI seat's move if an AI is to move and none is moving for this game."""
        if self.stopping:
            return
        self.after_ending(game, owed)
        if game.status != "active" or not ai_turn(game, state, stand_in_seat=game.stand_in_seat):
            return
        self._start_ai(game.id)

    def after_ending(self, game: GameRow, owed: Iterable[Owed] = ()) -> None:
        """What follows a change once its own words are told, with no position to go on from
        (a game ended by a vote or a moderator): the buttons it made stale taken off, and what
        else it owes (`owed`): a finished game's replay, the lobby message's update saying the
        game has ended."""
        if self.stopping:
            return  # left owed: sent after a restart, or by another process
        self.buttons.moved_on(game)
        for one in owed:
            if one.kind == "replay":
                work = self.send(one, game, partial(owed_posts.replay_post, self.games, game))
                _hold(self._replays, asyncio.create_task(self._quietly(game, work, "the replay")))
            elif one.kind == "lobby":
                edit = self._quietly(game, self._update_lobby(one, game), "the lobby's update")
                _hold(self._lobby_edits, asyncio.create_task(edit))

    async def show_lobby(self, game: GameRow) -> None:
        """Edit the lobby message to show the game as it is, and mark the updates it owed
        made (a change whose answer edits it at once, rather than leaving it to the outbox)."""
        await game_posts.refresh_lobby(self.client, game, self.games.clock())
        await self.lobby_shown(game)

    async def _quietly(self, game: GameRow, work: Awaitable[Any], what: str) -> None:
        try:
            await work
        except Exception as exc:
            failed(log, exc, "game %s: could not post %s", game.id, what)

    def _start_ai(self, game_id: int, *, claimed: bool = False) -> None:
        running = self._ai_tasks.get(game_id)
        if running is not None and not running.done():
            return
        self._ai_tasks[game_id] = asyncio.create_task(self._run_ai(game_id, claimed=claimed))

    async def _run_ai(self, game_id: int, *, claimed: bool = False) -> None:
        """Play the AI seats of a game while one is to move, holding the claim of their
        thinking: another process does not think for them meanwhile, and takes over if this
        one dies. A claim this one could not take or let go of (the database away) runs out,
        and whichever process sees it then plays on (`do_duties`)."""
        try:
            await self._ai_turns(game_id, claimed=claimed)
        except Exception as exc:
            failed(log, exc, "game %s: the AI seats could not go on", game_id)

    async def _ai_turns(self, game_id: int, *, claimed: bool) -> None:
        await self.client.wait_until_ready()
        duties = self.duties
        # While a change before the AI's is still to be told (its process died, say), the
        # AI plays only once it is (`deliver`), so the channel reads them in order: the claim
        # is not taken (or let go of), and whoever delivers that post starts the AI.
        if claimed:
            if await duties.owes(game_id, ON_WAY_KINDS):
                await duties.release_ai(game_id, self.owner)
                return
        elif not await duties.claim_ai(game_id, self.owner, unless_owed=ON_WAY_KINDS):
            return  # another process is thinking for this game, or a post is owed first
        while (played := await self._play_ai(game_id)) != STOPPED:
            if played == HELD:
                await duties.release_ai(game_id, self.owner)
            # A person may have moved while this task was letting go, handing the turn to an
            # AI again: `after_change` left that to this task, so look once more (at the
            # stored game: the move may have been another process's).
            game = await self.games.find(game_id, fresh=True)
            if game is None:
                return
            if not ai_turn(game, self.games.peek_state(game), stand_in_seat=game.stand_in_seat):
                return
            if not await duties.claim_ai(game_id, self.owner):
                return

    async def _play_ai(self, game_id: int) -> str:
        """Play the AI seats' moves in a row, until a person is to move (or the game is
        over): LET_GO when the AI's last move handed them the turn, which let go of the
        claim with it (a change that leaves no AI to move does), HELD when there was no AI
        move to make, the claim still held; STOPPED if the AI failed or played the most moves
        in a row allowed. The claim was just taken for the first move; it is renewed before
        each one after."""
        for moves in range(MOST_AI_MOVES):
            await asyncio.sleep(self.ai_pause)
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
                await self.send_move(result)
            except Exception as exc:
                failed(log, exc, "game %s: could not post the AI's move", game_id)
            # While this task runs no other AI task starts for the game: this only matters
            # when the AI's move ended the game.
            self.after_change(result.game, result.state, result.owed)
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
                for owed in reminder.owed:
                    posted += await self.send_text(owed, reminder.game) is not None
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
                for owed in event.owed:
                    if owed.kind == "text":
                        await self.send_text(owed, event.game)
                if event.ran_out:  # an AI's move, or a game ended by it and its replay
                    self.after_change(event.game, self.games.peek_state(event.game), event.owed)
        return handled

    async def close_expired_lobbies(self) -> int:
        """Close the lobbies left unstarted for a day: each says so in its channel, and its
        lobby message shows it closed. Returns how many this process closed."""
        closed = await self.service.lobby.close_expired()
        for game, owed in closed:
            for one in owed:
                if one.kind == "text":
                    await self.send_text(one, game)
            self.buttons.moved_on(game)
            await self.show_lobby(game)
        return len(closed)

    async def send_text(self, owed: Owed, game: GameRow) -> Sent | None:
        """An owed text post: to the game's channel, or by DM to the person its body names
        (in the channel instead, mentioning them, if they accept no DMs)."""
        post = owed_posts.text_post(owed)
        user = owed.body.get("user")
        try:
            if user is None:
                return await self.send(owed, game, post)
            return await self.send(owed, game, post, to_user=int(user))
        except discord.HTTPException as exc:
            if user is None or exc.status >= 500:
                log.warning("game %s: could not post %r", game.id, post.content[:40])
                return None
        try:
            await self.sender.to_game(game, Post(f"<@{int(user)}> {post.content}"))
        except discord.HTTPException:
            log.warning("game %s: could not tell a person in the channel either", game.id)
        return None

    async def do_duties(self) -> None:
        """Take over what another process left undone (it died, say): posts owed by stored
        changes, and AI seats nobody is thinking for. Every process runs this now and then."""
        duties = self.duties
        for owed in await duties.claim_owed():
            metrics.DUTIES_TAKEN_OVER.labels(owed.kind).inc()
            try:
                await self.deliver(owed)
            except Exception as exc:
                failed(log, exc, "game %s: could not make an owed post", owed.game_id)
        if not self.stopping:
            for game_id in await duties.claim_ai_turns(self.owner, unless_owed=ON_WAY_KINDS):
                metrics.DUTIES_TAKEN_OVER.labels("ai").inc()
                self._start_ai(game_id, claimed=True)
        now = asyncio.get_running_loop().time()
        if now >= self._swept + SWEEP_S:
            self._swept = now
            await duties.forget_made()
