"""What a bot owes the games started already comes before new games: while it is behind on
their posts, a new lobby shows Discord's "thinking…" and opens once it has caught up, and the
people already at a table (a click in a lobby open already) are answered at once all the same.
"""

from __future__ import annotations

import asyncio

import pytest
from e2e_harness import BotHarness, lobby_button
from prometheus_client import CollectorRegistry

from hvbot.infra import metrics
from sandbox.emulator import DiscordEmulator

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

CHANNEL_POSTS = "POST /channels/{channel_id}/messages"


async def test_a_new_lobby_waits_while_a_started_games_first_board_is_owed(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    assert hv.bot is not None
    registry = CollectorRegistry()
    for metric in (metrics.CHANGES_UNDER_WAY, metrics.LOBBIES_DEFERRED):
        registry.register(metric)

    def sample(name: str) -> float:
        return registry.get_sample_value(name) or 0.0

    deferred_before = sample("hvbot_lobbies_deferred_total")
    backlog = hv.bot.aftermath.backlog
    backlog.most = 0  # one change followed at a time is as far behind as new games wait for
    ada, bo, cy = emu.add_user("Ada"), emu.add_user("Bo"), emu.add_user("Cy")
    started, waiting, joining = (emu.add_channel(name) for name in ("one", "two", "three"))

    # A lobby open already, in a channel of its own.
    reply = await emu.slash(cy, "game new", channel=joining, game="pylons")
    open_lobby = reply.where(kind="response", visibility="public")[0]

    # A game starts whose first board cannot go out yet: the bot is behind.
    reply = await emu.slash(ada, "game new", channel=started, game="pylons")
    lobby = reply.where(kind="response", visibility="public")[0]
    await emu.click(ada, lobby_button(lobby, "addai"), message=lobby)
    first_board = emu.faults.hold(CHANNEL_POSTS, says="begins!")
    await emu.click(ada, lobby_button(lobby, "start"), message=lobby, settle=False)
    await emu.wait_for(lambda: first_board.held == 1, 10, message="the first board on its way")
    assert backlog.behind and sample("hvbot_changes_under_way") >= 1

    try:
        # A new lobby elsewhere: "thinking…", and no lobby yet.
        since = emu.last_seq
        opening = asyncio.create_task(emu.slash(bo, "game new", channel=waiting, game="pylons"))
        deferred = await emu.wait_for(
            lambda: [r for r in emu.records[since:] if r.kind == "deferred"],
            10,
            message="the new lobby's deferral",
        )
        state = emu.interactions[deferred[0].interaction_id or 0]
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
    assert not backlog.behind and backlog.under_way == 0
