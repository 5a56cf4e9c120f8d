"""What a bot owes the games started already comes before new games: while it is behind on
their posts, a new lobby shows Discord's "thinking…" and opens once it has caught up, as it is
by then; the people already at a table (a click in a lobby open already, a /game join) are
answered at once all the same. Where Discord no longer takes the lobby in place of the
"thinking…", or took no deferral at all, the lobby is posted in the channel instead."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from e2e_harness import (
    BotHarness,
    before_the_ai,
    late_answers,
    lobby_button,
    open_three_seat_game,
)
from metric_samples import sampler

from engine import State
from games import find_game
from hvbot.infra import metrics
from sandbox.emulator import DiscordEmulator, Record
from sandbox.emulator.faults import HeldRoute
from sandbox.emulator.interactions import TOKEN_LIFETIME, InteractionState

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

CHANNEL_POSTS = "POST /channels/{channel_id}/messages"


async def behind(emu: DiscordEmulator, hv: BotHarness) -> HeldRoute:
    """The bot behind: a game started in a channel of its own whose first board cannot go
    out yet (until the hold returned is released), and new games waiting behind one change
    under way."""
    assert hv.bot is not None
    backlog = hv.bot.aftermath.backlog
    backlog.most = 0
    ada, started = emu.add_user("Ada"), emu.add_channel("started")
    reply = await emu.slash(ada, "game new", channel=started, game="pylons")
    lobby = reply.where(kind="response", visibility="public")[0]
    await emu.click(ada, lobby_button(lobby, "addai"), message=lobby)
    first_board = emu.faults.hold(CHANNEL_POSTS, says="begins!")
    await emu.click(ada, lobby_button(lobby, "start"), message=lobby, settle=False)
    await emu.wait_for(lambda: first_board.held == 1, 10, message="the first board on its way")
    assert backlog.behind
    return first_board


async def deferral(emu: DiscordEmulator, since: int) -> InteractionState:
    """The interaction the bot answered with "thinking…" since record `since`."""
    found = await emu.wait_for(
        lambda: [r for r in emu.records[since:] if r.kind == "deferred"],
        10,
        message="a new lobby's deferral",
    )
    return emu.interactions[found[0].interaction_id or 0]


def lobbies_posted(emu: DiscordEmulator, since: int, channel_id: int) -> list[Record]:
    """The lobby messages posted in the channel since record `since` (not given as answers)."""
    return [
        r
        for r in emu.records[since:]
        if r.kind == "channel_message"
        and r.channel_id == channel_id
        and any(c.startswith("lobby:") for c in r.custom_ids)
    ]


async def test_a_new_lobby_waits_while_a_started_games_first_board_is_owed(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    assert hv.bot is not None
    sample = sampler(metrics.CHANGES_UNDER_WAY, metrics.LOBBIES_DEFERRED)
    deferred_before = sample("hvbot_lobbies_deferred_total")
    bo, cy = emu.add_user("Bo"), emu.add_user("Cy")
    waiting, joining = emu.add_channel("waiting"), emu.add_channel("joining")
    # A lobby open already, in a channel of its own.
    reply = await emu.slash(cy, "game new", channel=joining, game="pylons")
    open_lobby = reply.where(kind="response", visibility="public")[0]

    first_board = await behind(emu, hv)
    assert sample("hvbot_changes_under_way") >= 1
    try:
        # A new lobby elsewhere: "thinking…", and no lobby yet.
        since = emu.last_seq
        opening = asyncio.create_task(emu.slash(bo, "game new", channel=waiting, game="pylons"))
        state = await deferral(emu, since)
        assert state.placeholder_pending
        assert not [r for r in emu.records[since:] if r.channel_id == waiting.id and r.custom_ids]

        # ...while a click in the lobby open already is answered at once.
        join = lobby_button(open_lobby, "join")
        reply = await emu.click(bo, join, message=open_lobby, settle=False)
        assert reply.where(kind="update"), emu.describe(reply.records)
        assert not opening.done() and state.placeholder_pending
        # ...and so is a person who joins the waiting lobby by typing /game join.
        await emu.slash(cy, "game join", channel=waiting, settle=False)
        assert not opening.done() and state.placeholder_pending
    finally:
        # The first board goes out: the bot has caught up, and the lobby replaces "thinking…".
        first_board.release()
    reply = await opening
    assert not state.placeholder_pending
    assert sample("hvbot_lobbies_deferred_total") == deferred_before + 1
    shown = emu.messages_by_id[state.original_message_id or 0]
    lobby = reply.where(kind="edit_original")[0]
    assert lobby.message_id == shown.id and "Cy" in lobby.text, "the lobby as it is by then"
    game = await hv.game(waiting.id)
    assert game.lobby_message_id == shown.id, "the lobby is known by the message shown"
    assert [seat.user_id for seat in game.seats] == [bo.id, cy.id]

    # It is a lobby like any other: its Start button starts the game.
    await emu.click(bo, lobby_button(lobby, "start"), message=shown)
    assert (await hv.game(waiting.id)).status == "active"
    await emu.settle()
    assert not hv.bot.aftermath.backlog.behind and hv.bot.aftermath.backlog.under_way == 0


async def test_a_lobby_started_while_it_waited_opens_as_the_game_started(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    bo, cy, waiting = emu.add_user("Bo"), emu.add_user("Cy"), emu.add_channel("waiting")
    first_board = await behind(emu, hv)
    try:
        since = emu.last_seq
        opening = asyncio.create_task(emu.slash(bo, "game new", channel=waiting, game="pylons"))
        await deferral(emu, since)
        await emu.slash(cy, "game join", channel=waiting, settle=False)
        await emu.slash(bo, "game start", channel=waiting, settle=False)
        assert not opening.done()
    finally:
        first_board.release()
    lobby = (await opening).where(kind="edit_original")[0]
    assert (await hv.game(waiting.id)).status == "active"
    offered = {c.rsplit(":", 1)[-1] for c in lobby.custom_ids if c.startswith("lobby:")}
    assert offered == set(), f"no Join or Start on a game started: {lobby.custom_ids}"


async def test_a_lobby_that_waited_longer_than_its_interaction_lives_is_posted_instead(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """The bot was behind for longer than Discord keeps an interaction (fifteen minutes):
    the lobby can no longer replace its "thinking…", and is posted in the channel instead,
    the game's lobby message."""
    emu = emulator
    bo, waiting = emu.add_user("Bo"), emu.add_channel("waiting")
    first_board = await behind(emu, hv)
    since = emu.last_seq
    try:
        opening = asyncio.create_task(emu.slash(bo, "game new", channel=waiting, game="pylons"))
        state = await deferral(emu, since)
        emu.clock.advance(TOKEN_LIFETIME)
    finally:
        first_board.release()
    await emu.wait_for(
        lambda: lobbies_posted(emu, since, waiting.id), 10, message="the lobby posted instead"
    )
    state.expired = True  # its person was told the application did not respond
    await opening
    refused = {(r.status, r.body.get("code")) for r in emu.rejections}
    assert refused == {(401, 50027)}, "the lobby was tried in place of the thinking first"
    emu.rejections.clear()
    posted = lobbies_posted(emu, since, waiting.id)
    assert len(posted) == 1, emu.describe(posted)
    assert (await hv.game(waiting.id)).lobby_message_id == posted[0].message_id


async def test_a_lobby_whose_deferral_came_too_late_is_posted_in_the_channel(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    bo, waiting = emu.add_user("Bo"), emu.add_channel("waiting")
    first_board = await behind(emu, hv)
    since = emu.last_seq
    with late_answers(emu):
        try:
            opening = asyncio.create_task(
                emu.slash(bo, "game new", channel=waiting, game="pylons", settle=False)
            )
            await emu.wait_for(
                lambda: [r for r in emu.rejections if r.body.get("code") == 10062],
                10,
                message="the deferral refused as too late",
            )
        finally:
            first_board.release()
        with contextlib.suppress(Exception):
            await opening  # the person saw "The application did not respond"
        await emu.settle()
    posted = lobbies_posted(emu, since, waiting.id)
    assert len(posted) == 1, emu.describe(posted)
    assert (await hv.game(waiting.id)).lobby_message_id == posted[0].message_id


async def test_an_ai_seat_pausing_before_its_move_holds_up_no_new_lobby(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """An AI seat waits a moment before its move, as a person would. The process has nothing
    to carry out meanwhile, so a new game opens at once rather than waiting out the pause."""
    emu = emulator
    assert hv.bot is not None
    aftermath = hv.bot.aftermath
    _, _, _, table = await open_three_seat_game(emu, hv)
    # A move that hands the AI seat its turn. Not every position has one: a peek at a card
    # keeps the turn, and so may a placing (a line to declare next), for every choice.
    for _ in range(30):
        game, state, ai_seat = await before_the_ai(table)
        handing = [a.text() for a in state.legal_actions() if _after(state, a.text()) == ai_seat]
        if handing:
            break
        await table.play(game, state)
    else:
        raise AssertionError("no position with a move handing the AI seat its turn")
    action = handing[0]
    aftermath.backlog.most = 0
    aftermath.ai_pause = 3600.0  # longer than the test: the bot's closing cancels the pause
    await table.play(game, state, action, settle=False)
    await emu.wait_for(
        lambda: aftermath.busy() and aftermath.backlog.under_way == 0,
        10,
        message="the move followed, and the AI seat pausing before its own",
    )
    cy, elsewhere = emu.add_user("Cy"), emu.add_channel("elsewhere")
    since = emu.last_seq
    reply = await emu.slash(cy, "game new", channel=elsewhere, game="pylons", settle=False)
    assert reply.where(kind="response", visibility="public"), emu.describe(reply.records)
    assert not [r for r in emu.records[since:] if r.kind == "deferred"], "no thinking…"
    paused = await hv.game(game.channel_id)
    now = find_game(paused.game_name).state_from_dict(paused.state)
    assert now.current_seat() == ai_seat, "the AI seat is still to move"


def _after(state: State, action: str) -> int | None:
    """Whose turn it is after `action`."""
    trial = state.copy()
    trial.apply(action)
    return trial.current_seat()
