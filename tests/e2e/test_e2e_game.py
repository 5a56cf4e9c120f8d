"""Whole games through Discord: the real bot, real discord.py over sockets to the emulator, a
real SQLite file and real pictures.

The people play legal moves the way users do (slash commands, and the buttons of the private
prompts the bot shows them); the tests then check every message against the game as stored,
replayed from its seed: each public board picture is exactly the public view, and nothing public
gives away a company colour before the end.

A picture is compared by what it shows, its decoded pixels, not by its file's bytes: a board's
PNG is compressed with ISA-L's deflate, whose bytes are not promised to be the same from one
compression of the same pixels to the next, and the pictures are what the tests are about.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re

import pytest
from e2e_harness import (
    BOARD,
    BotHarness,
    board_posts,
    button_id,
    check_game_cards,
    colour_of,
    heading,
    is_peek,
    names_of,
    open_three_seat_game,
    prompt_for,
    replay,
)
from same_pictures import same_picture

from games.high_voltage import pictures as hv_pictures
from hvbot.infra.config import WIRE_LOGGERS, JsonLines, configure_logging
from hvbot.messages.limits import ALT, fit_alt
from hvbot.messages.presenters import presenter_for
from hvbot.store import GameRow
from sandbox.emulator import DiscordEmulator, Record, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

PUBLIC_FILES = {"board.png", "result.png", "replay.gif"}
# How long the bot may take to post a finished game's replay, a whole game drawn frame by frame
# (the longest piece of work it does): it is waited for as the bot's own "nothing under way",
# and this bound only ends a test whose bot never gets there.
REPLAY_BOUND_S = 600.0


def leaks(text: str, name: str, colour: str) -> bool:
    """Does a public text tie `name` to `colour` (within a few words on one line), or speak of
    someone's own company?"""
    if "your company" in text.lower():
        return True
    near = r"(?:\W+\w+){0,3}\W+"
    who, what = re.escape(name), re.escape(colour)
    pattern = rf"\b{who}\b{near}{what}\b|\b{what}\b{near}{who}\b"
    return any(re.search(pattern, line, re.IGNORECASE) for line in text.splitlines())


async def check_public_boards(
    emu: DiscordEmulator, game: GameRow, actions: list[tuple[int, str]], *, since: int = 0
) -> list[Record]:
    """One public board after the deal and after every public action, each one pixel for
    pixel the picture of the public view at that moment, its last move in the presenter's words
    (so it cannot carry anything secret)."""
    states = replay(game, actions)
    presenter = presenter_for("high-voltage", game.language)
    names = names_of(game)
    shown = [0] + [i + 1 for i, (_, text) in enumerate(actions) if not is_peek(text)]
    posts = board_posts(emu, since=since)
    assert len(posts) == len(shown), (
        f"{len(posts)} public boards for {len(shown)} public moments:\n{emu.describe(posts)}"
    )
    presenter = presenter_for(game.game_name, game.language)
    for post, index in zip(posts, shown, strict=True):
        view = states[index].view(None)
        expected = presenter.board_png(view, names)
        picture = post.attachment(BOARD)
        assert picture.image is not None
        assert same_picture(picture.data, expected), (
            f"{post} is not the public board after {index} actions"
        )
        # Its alt text too says what the public view shows, and nothing more.
        alt = fit_alt(presenter.board_alt(view, names))
        assert picture.description == alt, f"{post} does not describe the board after {index}"
    return posts


def described(record: Record) -> dict[str, str]:
    """Each picture of a message and its alt text, checked to be there and within Discord's
    limit."""
    out = {}
    for attachment in record.attachments:
        alt = attachment.description
        assert alt and len(alt) <= ALT, f"{attachment.filename} of {record} has no alt text"
        out[attachment.filename] = alt
    return out


class EveryLine(logging.Handler):
    """Keeps every log line, at every level, so a test can look for secrets in them: as text,
    and as the JSON line LOG_FORMAT=json writes."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.name}: {record.getMessage()}")
        if record.exc_info:
            self.lines.append(logging.Formatter().formatException(record.exc_info))
        self.lines.append(JsonLines("all").format(record))


@pytest.fixture
def debug_log():
    """The bot's logging as `LOG_LEVEL=DEBUG` sets it up, with every line kept."""
    root = logging.getLogger()
    saved = {name: logging.getLogger(name).level for name in ("", *WIRE_LOGGERS)}
    handler = EveryLine()
    configure_logging("DEBUG")
    root.addHandler(handler)
    yield handler
    root.removeHandler(handler)
    for name, level in saved.items():
        logging.getLogger(name).setLevel(level)


@pytest.mark.drawing_processes(1)
async def test_a_complete_game_from_lobby_to_reveal(
    emulator: DiscordEmulator, hv: BotHarness, debug_log: EveryLine
) -> None:
    """Played with the bot as deployed, drawing its pictures in a worker process."""
    emu = emulator
    assert hv.bot is not None
    assert await hv.bot.pictures.run(os.getpid) != os.getpid(), "drawn in another process"
    assert await hv.bot.background.run(os.getpid) not in (os.getpid(), None)
    ada, bo, lobby, table = await open_three_seat_game(emu, hv, with_buttons=True)
    started = await hv.game()
    assert [s.display_name for s in started.seats] == ["Ada", "Bo", "AI 1 (easy)"]
    # The lobby's message is known from Discord's answer to /game new itself: no request more
    # for it, as every game opened would make.
    assert started.lobby_message_id == lobby.message_id
    assert not emu.requests_to("GET", "/messages/@original"), "the lobby asked for again"
    assert started.seats[2].is_ai
    left = [b.custom_id for b in emu.message(lobby.message_id or 0).buttons]
    assert left == [f"follow:{started.id}"], "the lobby closes at the start: Follow stays"

    game, state = await table.play_to_end()
    assert game.status == "finished" and state.is_terminal()
    # The game's replay follows its result: a whole game drawn frame by frame, the longest
    # piece of work the bot does, which takes its time on a busy machine. It is waited for as
    # the bot being done with everything the last move caused, not for a number of seconds.
    await emu.settle(timeout=REPLAY_BOUND_S)
    assert [r for r in emu.messages(visibility="public") if r.has_attachment("replay.gif")], (
        "the game's replay is posted once the bot is done"
    )
    actions = await hv.actions(game)
    states = replay(game, actions)
    assert states[-1] == state, "the stored game is exactly its seed plus its logged actions"
    assert any(text.startswith("declare S") for _, text in actions), "a line was declared"
    assert any(seat == 2 for seat, _ in actions), "the AI seat moved by itself"

    # A board picture after every action, each one the public view and nothing more.
    posts = await check_public_boards(emu, game, actions)
    # Each of them a card, edged in the public colour of the seat to move (never a company's).
    moments = [states[0]] + [states[i + 1] for i, (_, t) in enumerate(actions) if not is_peek(t)]
    check_game_cards(emu, game, posts, moments)
    names = names_of(game)
    final = posts[-1]
    assert same_picture(
        final.attachment("result.png").data, hv_pictures.hv_end_png(state.view(None), names=names)
    ), "the end picture shows the final view"
    for seat in game.seats:
        colour = colour_of(state, seat.seat)
        assert f"{seat.display_name}: {colour}" in final.text, "every colour is revealed"

    # The result and the replay are described too, once every colour is revealed.
    presenter = presenter_for(game.game_name, game.language)
    assert described(final)["result.png"] == fit_alt(presenter.end_alt(state.view(None), names))
    (replayed,) = [r for r in emu.messages(visibility="public") if r.has_attachment("replay.gif")]
    replay_alt = described(replayed)["replay.gif"]
    assert replay_alt.startswith("Animated replay of the High Voltage game, Ada vs Bo vs AI 1")
    for seat in game.seats:
        assert f"{seat.display_name}: {colour_of(state, seat.seat)}," in replay_alt

    # Colours only ever reach their owner, by DM.
    colours = {seat.seat: colour_of(states[0], seat.seat) for seat in game.seats}
    for person in (ada, bo):
        seat = game.seat_of(person.id)
        assert seat is not None
        dms = emu.messages(visibility=Visibility.dm_to(person))
        assert len(dms) == 1, f"{person.name} gets exactly one DM: {emu.describe(dms)}"
        # Sent to a DM channel opened by their id: the bot holds no user to send it to, and a
        # look-up of the user first would be one more request to Discord for every secret.
        assert not emu.requests_to("GET", f"/users/{person.id}"), "no look-up of the user"
        dm = dms[0]
        assert heading(dm) == f"Your company: {colours[seat].upper()}"
        others = set(state.view(None)["colours"]) - {colours[seat]}
        assert not any(re.search(rf"\b{c}\b", dm.text) for c in others)
        assert same_picture(
            dm.attachment("secret.png").data, hv_pictures.hv_secret_png(colours[seat])
        )
        alt = described(dm)["secret.png"]
        assert alt.startswith(f"Your company: {colours[seat]}.")
        assert not any(re.search(rf"\b{c}\b", alt, re.IGNORECASE) for c in others)

    # Nothing public before the reveal ties anyone to a colour, in words, pictures or their
    # alt texts; and nothing public carries the deal's seed.
    public = emu.messages(visibility="public")
    assert all(r.channel_id == emu.channel.id for r in public)
    for record in public:
        assert {a.filename for a in record.attachments} <= PUBLIC_FILES, record
        assert not record.embeds and "your company" not in record.text.lower()
        alts = described(record)
        assert not any(str(game.seed) in alt for alt in alts.values()), record
        if record.seq >= final.seq:
            continue
        for seat in game.seats:
            assert not leaks(record.text, seat.display_name, colours[seat.seat]), record
            for alt in alts.values():
                assert not leaks(alt, seat.display_name, colours[seat.seat]), alt

    # No log line, even at DEBUG, carries a colour, the deal's seed or a saved state.
    assert len(debug_log.lines) > len(actions), "the game was logged"
    for line in debug_log.lines:
        assert not re.search(r"\b(red|yellow|green|blue)\b", line, re.IGNORECASE), line
        assert str(game.seed) not in line, line
        assert '"card_up"' not in line, line

    # A drawn card is shown to its drawer alone, as the card they drew (AI seats look alone).
    peeks = [
        i for i, (seat, text) in enumerate(actions) if is_peek(text) and not game.seats[seat].is_ai
    ]
    # Sent as the reply itself or as the first follow-up of a private deferral.
    cards = [
        r
        for r in emu.messages()
        if r.kind in ("response", "followup") and r.has_attachment("card.png")
    ]
    assert len(cards) == len(peeks) > 0
    for record, index in zip(cards, peeks, strict=True):
        seat = actions[index][0]
        user_id = game.seats[seat].user_id
        assert record.visibility == Visibility.ephemeral_to(user_id or 0)
        drawn = states[index + 1].view(seat)["drawn"]
        assert same_picture(record.attachment("card.png").data, hv_pictures.hv_card_png(drawn))
        # Its alt text describes the card drawn, in its drawer's language, for them alone.
        spoken = presenter_for(game.game_name, game.seats[seat].language)
        assert described(record)["card.png"] == fit_alt(spoken.card_alt(drawn))
        assert str(game.seed) not in described(record)["card.png"]

    # The channel is free again.
    reply = await emu.slash(bo, "game new", game="high-voltage")
    (new_lobby,) = reply.where(kind="response", visibility="public")
    assert new_lobby.custom_ids == [
        *(f"lobby:{game.id + 1}:{w}" for w in ("join", "leave", "addai", "start")),
        f"follow:{game.id + 1}",
    ]


async def test_a_restart_mid_game_loses_nothing_and_old_buttons_still_work(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    _, _, _, table = await open_three_seat_game(emu, hv, with_buttons=False)
    game, state = await table.wait_for_turn()
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    since = emu.last_seq
    await table.play(game, state, f"draw {cell}")
    # The drawn card follows a private deferral, once its "thinking…" is withdrawn: Discord
    # refuses a card with a new picture as the follow-up that replaces the thinking.
    prompt = await emu.wait_for_message(kind="followup", visibility="ephemeral", since=since)
    drawer = emu.users[prompt.visibility.user_id or 0]
    looked = await hv.game()
    looked_actions = await hv.actions(looked)
    old_button = button_id(looked, "place empty r90")
    assert old_button in prompt.custom_ids

    await hv.restart()
    assert hv.starts == 2 and emu.gateway.identifies == 2

    reply = await emu.click(drawer, old_button, message=prompt)
    placed_actions = await hv.actions(await hv.game())
    seat = looked.seat_of(drawer.id)
    assert placed_actions[len(looked_actions)] == (seat, "place empty r90"), (
        "the click on a button made before the restart was applied"
    )
    edits = reply.where(kind="edit_original")
    assert edits and not edits[-1].components and not edits[-1].attachments
    assert any(r.has_attachment(BOARD) for r in reply.public)

    # The game goes on with the new bot: people and the AI keep moving.
    for _ in range(6):
        game, state = await table.wait_for_turn()
        if state.is_terminal():
            break
        await table.play(game, state)
    game, state = await table.wait_for_turn()
    actions = await hv.actions(game)
    assert len(actions) > len(placed_actions) + 3, "the game went on after the restart"
    await check_public_boards(emu, game, actions)


async def test_simultaneous_clicks_and_commands_are_applied_one_after_the_other(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    _, _, _, table = await open_three_seat_game(emu, hv)
    game, state = await table.wait_for_turn()
    down = [c["cell"] for c in state.view(None)["cells"] if c["state"] == "down"]
    await table.play(game, state, f"draw {down[0]}")
    game = await hv.game()
    seat = state.current_seat()
    assert seat is not None
    drawer = emu.users[game.seats[seat].user_id or 0]
    prompt = prompt_for(emu, drawer, game)
    assert prompt is not None
    before = len(await hv.actions(game))
    since = emu.last_seq

    choices = ("place here r0", "place empty r90")
    await asyncio.gather(
        *(emu.click(drawer, button_id(game, c), message=prompt.id, settle=False) for c in choices)
    )
    game, _ = await table.wait_for_turn()
    new = [text for s, text in (await hv.actions(game))[before:] if s == seat]
    assert len(new) == 1 and new[0] in choices, f"exactly one placement applied: {new}"
    refusals = [
        r
        for r in emu.messages(kind="response", since=since)
        if "out of date" in r.text and r.visibility == Visibility.ephemeral_to(drawer)
    ]
    assert len(refusals) == 1, emu.describe(emu.records[since:])

    # Two commands typed at the same moment by the person to move.
    game, state = await table.wait_for_turn()
    seat = state.current_seat()
    assert seat is not None
    mover = emu.users[game.seats[seat].user_id or 0]
    down = [c["cell"] for c in state.view(None)["cells"] if c["state"] == "down"]
    before = len(await hv.actions(game))
    since = emu.last_seq
    commands = [f"draw {down[0]} here r0", f"draw {down[1]} here r90"]
    await asyncio.gather(
        *(
            emu.slash(
                mover,
                "hv draw",
                settle=False,
                cell=text.split()[1],
                place="here",
                rotation=int(text.split()[3][1:]),
            )
            for text in commands
        )
    )
    game, _ = await table.wait_for_turn()
    new = [text for s, text in (await hv.actions(game))[before:] if s == seat]
    assert len(new) == 1 and new[0] in commands, f"exactly one command applied: {new}"
    refused = [
        r for r in emu.messages(kind="response", since=since) if r.visibility.kind == "ephemeral"
    ]
    assert len(refused) == 1 and refused[0].visibility.user_id == mover.id
    await check_public_boards(emu, game, await hv.actions(game))


async def test_the_lobby_leads_to_start_in_discords_primary_colour(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """Join in green, Start in blurple (the one action the lobby leads to); nothing in the red
    Discord keeps for what destroys."""
    emu = emulator
    reply = await emu.slash(emu.add_user("Ada"), "game new", game="pylons")
    (lobby,) = reply.where(kind="response", visibility="public")
    shown = emu.message(lobby.message_id or 0).buttons
    styles = {b.custom_id.rsplit(":", 1)[-1]: b.style for b in shown if b.custom_id}
    follow = next(b for b in shown if b.custom_id and b.custom_id.startswith("follow:"))
    styles.pop(follow.custom_id.rsplit(":", 1)[-1])
    assert styles == {"join": 3, "leave": 2, "addai": 2, "start": 1}
    assert follow.style == 2  # Follow, for those not playing, in grey
