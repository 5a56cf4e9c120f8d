"""Games between friends in DMs and group DMs, where people installed the app themselves.

There the bot may only answer interactions: it is no member of a group DM, and Discord
refuses (403 / 50001) whatever it posts there on its own. So every post a game owes goes out
as the answer to an interaction in that game (its response or a follow-up, within the
token's 15 minutes and 5 follow-ups), the AI seats answer within the same interaction, a
clock that runs out while nobody is there is shown at the next interaction, and reminders
and warnings go to the person by DM. The bot runs with global commands, as it does in
production, so that they reach DMs at all.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from conftest import running
from e2e_harness import BOARD, BotHarness, card_of, check_board_card, racing_cell, replay
from moved_clock import MovedClock

from engine import State
from games import find_game
from hvbot.messages.replays import FILENAME as REPLAY
from hvbot.store import GameRow
from sandbox.emulator import (
    Channel,
    CommandNotShown,
    DiscordEmulator,
    Record,
    User,
    Visibility,
)
from sandbox.emulator.interactions import TOKEN_LIFETIME

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


@pytest.fixture
async def bot(emulator: DiscordEmulator, tmp_path: Path) -> AsyncIterator[BotHarness]:
    """The bot with global commands (guild commands never reach a DM)."""
    harness = BotHarness(emulator, tmp_path / "games.sqlite3", guild_scoped=False)
    async with running(harness):
        yield harness


def boards_in(emu: DiscordEmulator, channel: Channel) -> list[Record]:
    """The public messages sent to `channel` that carry a board picture, oldest first (not
    the edits of a card clicked)."""
    sent = emu.messages(visibility="public", channel=channel, kind=("response", "followup"))
    return [r for r in sent if r.has_attachment(BOARD)]


def posted_on_its_own(emu: DiscordEmulator, channel: Channel) -> list[Record]:
    """What the bot sent to `channel` other than as an interaction's answer."""
    return [r for r in emu.messages(channel=channel) if r.kind == "channel_message"]


def refused_alone(emu: DiscordEmulator) -> list[object]:
    """Discord's refusals of a post the bot tried on its own where it is no member."""
    return [r for r in emu.rejections if r.body.get("code") == 50001]


def choosing(state: State) -> bool:
    """Whether the player to move has Pylons' opening choice (keep or mirror), a button."""
    return "keep" in [a.text() for a in state.legal_actions()]


async def state_of(bot: BotHarness, channel: Channel) -> tuple[GameRow, State]:
    game = await bot.game(channel.id)
    assert game.state is not None
    return game, find_game(game.game_name).state_from_dict(game.state)


async def friends_with_pylons(
    emu: DiscordEmulator, bot: BotHarness, ada: User, bo: User, **options: object
) -> tuple[Channel, GameRow]:
    """Ada opens a Pylons game in a group DM with Bo, who joins with the lobby's button;
    Ada starts it with the button. (the group DM, the game) once started."""
    group = emu.add_group_dm(ada, bo, name="Friday games")
    (lobby,) = (await emu.slash(ada, "game new", channel=group, game="pylons", **options)).public
    card_of(lobby)
    game = await bot.game(group.id)
    assert game.answers_only and game.guild_id is None
    joined = await emu.click(bo, f"lobby:{game.id}:join", message=lobby)
    assert [r.kind for r in joined.messages] == ["update"], joined
    started = await emu.click(ada, f"lobby:{game.id}:start", message=lobby)
    # The lobby closed in the click's answer, the first board as its follow-up; each
    # person's colour by DM, as on a server.
    kinds = [r.kind for r in started.messages]
    assert [k for k in kinds if k != "dm"] == ["update", "followup"], started
    assert {r.visibility for r in started.messages if r.kind == "dm"} == {
        Visibility.dm_to(ada),
        Visibility.dm_to(bo),
    }
    return group, await bot.game(group.id)


async def friends_on_the_clock(
    emu: DiscordEmulator, bot: BotHarness, **options: object
) -> tuple[MovedClock, User, User, Channel]:
    """The bot's clock put in the test's hand, then Ada and Bo, who installed the app, at a
    Pylons game started in their group DM (`friends_with_pylons`, with `options`): (the
    clock, Ada, Bo, the group DM)."""
    assert bot.bot is not None
    clock = MovedClock(datetime.now(UTC))
    bot.bot.service.clock = clock
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    emu.install_for(ada)
    emu.install_for(bo)
    group, _ = await friends_with_pylons(emu, bot, ada, bo, **options)
    return clock, ada, bo, group


async def to_move(
    emu: DiscordEmulator, bot: BotHarness, group: Channel
) -> tuple[GameRow, int, User]:
    """The game in `group`, the seat to move, and the person in it."""
    game, state = await state_of(bot, group)
    seat = state.current_seat()
    assert seat is not None
    return game, seat, emu.users[game.seats[seat].user_id or 0]


async def test_two_friends_play_pylons_to_the_end_in_a_group_dm(
    emulator: DiscordEmulator, bot: BotHarness
) -> None:
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    emu.install_for(ada)
    emu.install_for(bo)
    group, game = await friends_with_pylons(emu, bot, ada, bo)
    people = {ada.id: ada, bo.id: bo}
    rng = random.Random(5)
    for _ in range(200):
        game, state = await state_of(bot, group)
        if state.is_terminal():
            break
        seat = state.current_seat()
        assert seat is not None
        mover = people[game.seats[seat].user_id or 0]
        if choosing(state):
            # The opening choice is a button on the latest board, answered by the update of
            # that card (its choices taken off) and the new board as a follow-up.
            latest = boards_in(emu, group)[-1]
            choice = f"act:{game.id}:{game.version}:keep"
            assert choice in latest.custom_ids
            reply = await emu.click(mover, choice, message=latest)
        else:
            reply = await emu.slash(
                mover, "pylons place", channel=group, cell=racing_cell(state, rng)
            )
        shown = [r for r in reply.messages if r.kind == "followup" and r.has_attachment(BOARD)]
        assert len(shown) == 1 and shown[0].is_public, reply
    game, state = await state_of(bot, group)
    assert state.is_terminal() and game.status == "finished"
    await bot.caught_up()
    # The card clicked lost its choices in the click's own answer (Discord's UPDATE).
    first = emu.message(boards_in(emu, group)[0].message_id or 0)
    assert [b.custom_id for b in first.buttons] == [f"follow:{game.id}"]
    actions = await bot.actions(game)
    boards = boards_in(emu, group)
    assert len(boards) == 1 + len(actions)  # the first board, then one per move, once each
    for post in boards:
        check_board_card(emu, post)
    assert len(replay(game, actions)) == len(boards)
    # Never on its own: no refusal provoked, nothing sent outside the interactions.
    assert not refused_alone(emu) and not posted_on_its_own(emu, group)
    assert not emu.rejections, emu.rejections


async def test_an_ai_seat_answers_within_the_same_interaction(
    emulator: DiscordEmulator, bot: BotHarness
) -> None:
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    emu.install_for(ada)
    group = emu.add_group_dm(ada, bo, name="Against the machine")
    (lobby,) = (await emu.slash(ada, "game new", channel=group, game="pylons")).public
    game = await bot.game(group.id)
    await emu.click(ada, f"lobby:{game.id}:addai", message=lobby)
    started = await emu.click(ada, f"lobby:{game.id}:start", message=lobby)
    assert len([r for r in started.messages if r.has_attachment(BOARD)]) == 1
    rng = random.Random(9)
    answered_together = 0
    for _ in range(4):
        game, state = await state_of(bot, group)
        assert state.current_seat() == 0, "the AI answered before the interaction ended"
        before = len(await bot.actions(game))
        if choosing(state):
            latest = boards_in(emu, group)[-1]
            reply = await emu.click(ada, f"act:{game.id}:{game.version}:keep", message=latest)
        else:
            cell = racing_cell(state, rng)
            reply = await emu.slash(ada, "pylons place", channel=group, cell=cell)
        boards = [r for r in reply.messages if r.kind == "followup" and r.has_attachment(BOARD)]
        after = await bot.actions(await bot.game(group.id))
        new = after[before:]
        assert all(r.is_public for r in boards), reply
        if {seat for seat, _ in new} == {0, 1}:
            # The AI answered in this interaction: its card shows the board after both
            # moves, with Ada's in words too, and hers has no card of its own.
            answered_together += 1
            ai = [action for seat, action in new if seat == 1]
            assert len(boards) == len(ai), reply
            cell = new[0][1].split()[-1]
            assert new[0][1].startswith("place") and cell in boards[0].text, boards[0].text
            assert ai[0].split()[-1] in boards[0].text, boards[0].text
        else:
            assert len(boards) == len(new), reply
    assert answered_together >= 2
    await bot.caught_up()
    assert not refused_alone(emu) and not posted_on_its_own(emu, group)
    assert not emu.rejections, emu.rejections


async def test_a_clock_that_runs_out_alone_is_shown_at_the_next_interaction(
    emulator: DiscordEmulator, bot: BotHarness
) -> None:
    emu = emulator
    clock, ada, bo, group = await friends_on_the_clock(emu, bot, clock=60)
    game, seat, mover = await to_move(emu, bot, group)
    other = bo if mover is ada else ada
    boards_before = len(boards_in(emu, group))

    # The mover's warning goes by DM; then their hour runs out, and nobody interacts.
    clock.advance(minutes=45)
    await emu.wait_for(
        lambda: [m for m in emu.messages(visibility=Visibility.dm_to(mover)) if "left" in m.text],
        message="the warning by DM",
    )
    clock.advance(minutes=16)
    emu.clock.advance(TOKEN_LIFETIME)  # the start's interaction is long expired
    await bot.caught_up()
    game, state = await state_of(bot, group)
    assert state.current_seat() != seat, "the AI played the move that ran out, at once"
    assert len(boards_in(emu, group)) == boards_before, "but nothing was shown yet"
    assert not refused_alone(emu) and not posted_on_its_own(emu, group)

    # The next interaction in the game shows it all, in order, before its own answer.
    played = len(await bot.actions(game))
    reply = await emu.slash(other, "game board", channel=group)
    public = [r for r in reply.messages if r.is_public]
    (ran_out,) = [i for i, r in enumerate(public) if "ran out of time" in r.text]
    assert f"<@{mover.id}>" in public[ran_out].text
    boards = [i for i, r in enumerate(public) if r.has_attachment(BOARD)]
    # Said first, then a board for each of the AI's actions, then the board asked for.
    assert ran_out < boards[0], reply
    # Nobody had moved before the clock ran out: every action stored is the AI's.
    assert played and {seat for seat, _ in await bot.actions(game)} == {game.seat_of(mover.id)}
    assert len(boards) == played + 1, reply
    await bot.caught_up()
    assert len(boards_in(emu, group)) == boards_before + len(boards), "each shown once"
    assert not refused_alone(emu) and not posted_on_its_own(emu, group)
    assert not emu.rejections, emu.rejections


async def test_a_reminder_goes_by_dm_and_a_dm_refused_waits_for_the_next_interaction(
    emulator: DiscordEmulator, bot: BotHarness
) -> None:
    emu = emulator
    clock, ada, bo, group = await friends_on_the_clock(emu, bot, reminder=10)
    _, _, mover = await to_move(emu, bot, group)
    other = bo if mover is ada else ada

    def reminded(user: User) -> list[Record]:
        return [m for m in emu.messages(visibility=Visibility.dm_to(user)) if "your turn" in m.text]

    clock.advance(minutes=11)
    (first,) = await emu.wait_for(lambda: reminded(mover), message="the reminder by DM")
    assert "Pylons" in first.text
    await bot.caught_up()
    assert not posted_on_its_own(emu, group) and not refused_alone(emu)

    # The next hour's reminder finds the mover's DMs closed: it waits for the game's next
    # interaction, and is said there, mentioning them.
    emu.faults.close_dms(mover.id)
    clock.advance(minutes=61)
    reader = await bot.reader()

    async def waiting() -> bool:
        owed = await reader.db.fetchval(
            "SELECT COUNT(*) FROM announcements WHERE sent_at IS NULL AND body LIKE ?",
            f"%<@{mover.id}>%",
        )
        return bool(owed)

    await emu.wait_for(waiting, message="the reminder refused, owed to the game's answers")
    await bot.caught_up()
    assert len(reminded(mover)) == 1
    assert not posted_on_its_own(emu, group) and not refused_alone(emu)
    # Even a move refused (it is not Bo's turn) shows it, after the refusal.
    game, _ = await state_of(bot, group)
    reply = await emu.slash(other, "pylons place", channel=group, cell="M12")
    refused, *rest = reply.messages
    assert refused.visibility == Visibility.ephemeral_to(other) and "turn" in refused.text
    told = [r for r in rest if r.is_public and f"<@{mover.id}>" in r.text]
    assert told and "your turn" in told[0].text, reply
    assert (await state_of(bot, group))[0].version == game.version, "nothing changed"
    await bot.caught_up()
    said = emu.messages(channel=group, visibility="public")
    assert [r.text for r in said if "⏰" in r.text] == [told[0].text], "said there once"
    assert not await waiting()
    assert not emu.rejections, emu.rejections


async def test_high_voltage_is_refused_in_a_group_dm_naming_the_games_played_there(
    emulator: DiscordEmulator, bot: BotHarness
) -> None:
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    emu.install_for(ada)
    group = emu.add_group_dm(ada, bo)
    (answer,) = await emu.slash(ada, "game new", channel=group, game="high-voltage")
    assert answer.visibility == Visibility.ephemeral_to(ada)
    assert "High Voltage is played on a server only" in answer.text
    assert "Pylons" in answer.text and "Sector 6" in answer.text
    assert await bot.latest_game(group.id) is None
    emu.set_locale(ada, "fr")
    (answer,) = await emu.slash(ada, "game new", channel=group, game="high-voltage")
    assert "se joue uniquement sur un serveur" in answer.text

    (answer,) = await emu.slash(ada, "help", channel=group)
    assert "En message privé ou en groupe" in answer.text and "**Sector 6**" in answer.text
    # What needs a server is not offered there at all.
    for command in ("server settings", "tournament join", "stats me"):
        with pytest.raises(CommandNotShown):
            await emu.slash(ada, command, channel=group)


def sector6_command(action: str) -> tuple[str, dict[str, object]]:
    """The /s6 command (and its options) for a Sector 6 action text."""
    words = action.split()
    if words[0] == "place" and words[1] == "entry":
        return "s6 entry", {"cell": words[2]}
    if words[0] == "place":
        return "s6 place", {"cell": words[1], "rotation": int(words[2][1:])}
    if words[0] == "move":
        return "s6 move", {"from": words[1], "to": words[2]}
    if words[0] == "rotate":
        options: dict[str, object] = {"direction": words[-1]}
        if len(words) == 3:
            options["cell"] = words[1]
        return "s6 rotate", options
    return f"s6 {words[0]}", {}


async def test_sector6_against_an_ai_in_the_bots_dm_by_commands_alone(
    emulator: DiscordEmulator, bot: BotHarness
) -> None:
    """A person alone with the bot: the lobby's changes by command come as new lobby cards
    (the first cannot be edited but by its own interaction), each public action's board as
    the command's follow-up, a drawn tile privately, and the AI's whole turn before the
    command's answers end."""
    emu = emulator
    ada = emu.add_user("Ada")
    emu.install_for(ada)
    dm = emu.dm_channel(ada.id)
    await emu.slash(ada, "game new", channel=dm, game="sector6")
    added = await emu.slash(ada, "game addai", channel=dm)
    note, lobby = added.messages  # the note to Ada, then the lobby as it is now
    assert note.kind == "response" and lobby.kind == "followup", added
    assert "AI" in lobby.text and card_of(lobby), added
    started = await emu.slash(ada, "game start", channel=dm)
    assert [r for r in started.messages if r.has_attachment(BOARD)], started
    rng = random.Random(4)
    turns = 0
    for _ in range(40):
        game, state = await state_of(bot, dm)
        if state.is_terminal() or turns >= 4:
            break
        assert state.current_seat() == 0, "the AI played its turn within Ada's interaction"
        legal = [a.text() for a in state.legal_actions()]
        plain = [a for a in legal if not a.startswith("rotate")] or legal
        # A prisoner moved when one can be (its board offers what may follow), else a draw.
        moving = [a for a in plain if a.startswith("move")]
        action = moving[0] if moving else "draw" if "draw" in plain else rng.choice(plain)
        command, options = sector6_command(action)
        before = len(await bot.actions(game))
        reply = await emu.slash(ada, command, channel=dm, **options)
        after = await bot.actions(await bot.game(dm.id))
        assert len(after) > before, reply
        if {seat for seat, _ in after[before:]} == {0, 1}:
            turns += 1
        assert all(r.kind != "channel_message" for r in reply), reply
    assert turns >= 1
    await bot.caught_up()
    # An older card keeps its choices (the bot cannot edit it there): a click on one is
    # refused privately, by its version, and changes nothing.
    game = await bot.game(dm.id)
    stale = [
        (post, custom_id)
        for post in emu.messages(channel=dm, kind="followup")  # all Ada's to see there
        for custom_id in [b.custom_id or "" for b in emu.message(post.message_id or 0).buttons]
        if custom_id.startswith(f"act:{game.id}:") and int(custom_id.split(":")[2]) < game.version
    ]
    assert stale, "a card with choices of a version past"
    post, custom_id = stale[0]
    (refused,) = (await emu.click(ada, custom_id, message=post)).messages
    assert refused.kind == "response" and "moved on" in refused.text, refused
    assert (await bot.game(dm.id)).version == game.version
    assert not posted_on_its_own(emu, dm) and not emu.rejections, emu.rejections


async def test_the_periodic_check_answers_through_an_interaction_still_alive(
    emulator: DiscordEmulator, bot: BotHarness
) -> None:
    """Within its 15 minutes and 5 follow-ups, the latest interaction in the game carries
    what falls due meanwhile (a reminder whose DM was refused), with nobody interacting."""
    emu = emulator
    clock, _, _, group = await friends_on_the_clock(emu, bot, reminder=2)
    _, _, mover = await to_move(emu, bot, group)
    emu.faults.close_dms(mover.id)
    clock.advance(minutes=3)

    def told() -> list[Record]:
        return [
            r
            for r in emu.messages(channel=group, visibility="public", kind="followup")
            if "⏰" in r.text and f"<@{mover.id}>" in r.text
        ]

    (said,) = await emu.wait_for(told, message="the reminder through the Start click")
    assert "Pylons" in said.text
    await bot.caught_up()
    assert len(told()) == 1
    assert not posted_on_its_own(emu, group) and not refused_alone(emu)
    assert not emu.rejections, emu.rejections


async def test_a_game_lost_on_time_alone_is_told_when_the_channel_is_used_next(
    emulator: DiscordEmulator, bot: BotHarness
) -> None:
    emu = emulator
    clock, ada, _, group = await friends_on_the_clock(emu, bot, clock=60, timeout="end")
    clock.advance(minutes=61)
    emu.clock.advance(TOKEN_LIFETIME)

    async def over() -> bool:
        return (await bot.game(group.id)).status == "finished"

    await emu.wait_for(over, message="the game lost on time")
    await bot.caught_up()
    assert not [r for r in emu.messages(channel=group) if "ran out of time" in r.text]
    # The next game opened there is answered first, then what the last one owed follows.
    reply = await emu.slash(ada, "game new", channel=group, game="pylons")
    lobby, *owed = [r for r in reply.messages if r.is_public]
    assert card_of(lobby) and lobby.kind == "response", reply
    assert any("ran out of time" in r.text for r in owed), reply
    await bot.caught_up()
    assert len([r for r in emu.messages(channel=group) if "ran out of time" in r.text]) == 1
    assert not posted_on_its_own(emu, group) and not refused_alone(emu)
    assert not emu.rejections, emu.rejections


async def test_a_game_against_the_ai_ends_with_its_replay_and_a_rematch_in_the_group_dm(
    emulator: DiscordEmulator, bot: BotHarness
) -> None:
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    emu.install_for(ada)
    group = emu.add_group_dm(ada, bo)
    (lobby,) = (await emu.slash(ada, "game new", channel=group, game="pylons")).public
    game = await bot.game(group.id)
    await emu.click(ada, f"lobby:{game.id}:addai", message=lobby)
    await emu.click(ada, f"lobby:{game.id}:start", message=lobby)
    rng = random.Random(2)
    for _ in range(150):
        game, state = await state_of(bot, group)
        if state.is_terminal():
            break
        if choosing(state):
            latest = boards_in(emu, group)[-1]
            await emu.click(ada, f"act:{game.id}:{game.version}:keep", message=latest)
        else:
            cell = racing_cell(state, rng)
            await emu.slash(ada, "pylons place", channel=group, cell=cell)
    assert state.is_terminal()

    def replays() -> list[Record]:
        return [r for r in emu.messages(channel=group, kind="followup") if r.has_attachment(REPLAY)]

    (replay_post,) = await emu.wait_for(replays, timeout=30, message="the replay, as a follow-up")
    again = f"rematch:{game.id}:ask"
    assert again in replay_post.custom_ids
    reply = await emu.click(ada, again, message=replay_post)
    # Against the AI alone it starts at once: its first board comes as the click's follow-up.
    assert [r for r in reply.messages if r.kind == "followup" and r.has_attachment(BOARD)], reply
    rematch = await bot.game(group.id)
    assert rematch.id != game.id and rematch.answers_only and rematch.status == "active"
    await bot.caught_up()
    assert not posted_on_its_own(emu, group) and not refused_alone(emu)
    assert not emu.rejections, emu.rejections


async def test_anyone_there_clicks_the_cards_but_only_those_who_installed_type_commands(
    emulator: DiscordEmulator, bot: BotHarness
) -> None:
    emu = emulator
    ada, cy = emu.add_user("Ada"), emu.add_user("Cy")
    emu.install_for(ada)  # Cy never added the app
    group = emu.add_group_dm(ada, cy)
    (lobby,) = (await emu.slash(ada, "game new", channel=group, game="pylons")).public
    game = await bot.game(group.id)
    joined = await emu.click(cy, f"lobby:{game.id}:join", message=lobby)
    assert [r.kind for r in joined.messages] == ["update"] and "Cy" in joined.messages[0].text
    with pytest.raises(CommandNotShown):
        await emu.slash(cy, "game board", channel=group)
    started = await emu.click(cy, f"lobby:{game.id}:start", message=lobby)
    refused = [r for r in started.messages if r.visibility == Visibility.ephemeral_to(cy)]
    assert refused and "creator" in refused[0].text, started  # only Ada starts it
    started = await emu.click(ada, f"lobby:{game.id}:start", message=lobby)
    assert [r for r in started.messages if r.has_attachment(BOARD)], started
    assert not posted_on_its_own(emu, group) and not emu.rejections, emu.rejections
