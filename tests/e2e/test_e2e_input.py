"""What people type, through Discord against the real bot: a game's commands in a channel of
another game, input longer than any move, and text in other scripts. Each gets a short private
refusal that changes nothing; the fixtures fail the test if Discord would have refused an
answer (a message over 2,000 characters, say) or the bot logged an error."""

from __future__ import annotations

import random
from typing import Any

import pytest
from e2e_harness import BotHarness, Table, open_three_seat_game

from hvbot.messages.limits import CONTENT
from sandbox.emulator import DiscordEmulator, Record, User, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


async def refused(
    emu: DiscordEmulator, hv: BotHarness, user: User, command: str, **options: Any
) -> Record:
    """Run a command that must be refused: one private answer within Discord's limits, and
    the game in the channel unchanged."""
    game = await hv.game()
    actions = await hv.actions(game)
    reply = await emu.slash(user, command, settle=False, **options)
    assert [r.kind for r in reply] == ["response"], emu.describe(reply)
    (answer,) = reply
    assert answer.visibility == Visibility.ephemeral_to(user)
    assert 0 < len(answer.content) <= CONTENT
    after = await hv.game()
    assert after.version == game.version, f"/{command} {options} changed the game"
    assert await hv.actions(after) == actions
    return answer


async def high_voltage_turn(emu: DiscordEmulator, hv: BotHarness) -> tuple[User, Table, Any]:
    """A started High Voltage game and the person to move."""
    _, _, _, table = await open_three_seat_game(emu, hv)
    game, state = await table.wait_for_turn()
    seat = state.current_seat()
    assert seat is not None
    return emu.users[game.seats[seat].user_id or 0], table, state


def face_down(state: Any) -> list[str]:
    return [c["cell"] for c in state.view(None)["cells"] if c["state"] == "down"]


async def holding_a_card(emu: DiscordEmulator, hv: BotHarness) -> tuple[User, str]:
    """A started High Voltage game whose person to move has drawn a card (from the cell
    returned) and holds it, to be placed."""
    mover, table, state = await high_voltage_turn(emu, hv)
    cell = face_down(state)[0]
    await table.play(await hv.game(), state, f"draw {cell}")
    return mover, cell


async def test_another_games_commands_are_refused_in_a_high_voltage_channel(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    mover, cell = await holding_a_card(emu, hv)

    for command, options in [
        ("pylons place", {"cell": "here r90"}),
        ("s6 entry", {"cell": "C3"}),
        ("s6 place", {"cell": "here", "rotation": 60}),
        ("s6 done", {}),
    ]:
        answer = await refused(emu, hv, mover, command, **options)
        assert "High Voltage" in answer.content, answer.content
        # The channel's own commands, as mentions each client shows in its language.
        assert "</hv draw:" in answer.content and "</hv swap:" in answer.content, answer.content

    # The card is still held, to be placed with the game's own command.
    assert (await hv.actions())[-1][1] == f"draw {cell}"


async def test_another_games_commands_are_refused_in_a_sector6_channel(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")
    await emu.slash(ada, "game new", game="sector6", mode="full")
    await emu.slash(ada, "game addai", level="easy")
    await emu.slash(ada, "game start")
    await emu.wait_for(lambda: emu.messages(visibility=Visibility.dm_to(ada)))
    for command, options in [
        ("pylons place", {"cell": "entry J10"}),
        ("hv draw", {"cell": "C3"}),
        ("hv rotate", {"cell": "C3", "rotation": 90}),
    ]:
        answer = await refused(emu, hv, ada, command, **options)
        assert "Sector 6" in answer.content and "s6 entry" in answer.content, answer.content


async def test_a_lobby_refuses_another_games_commands_too(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")
    await emu.slash(ada, "game new", game="pylons")
    answer = await refused(emu, hv, ada, "hv draw", cell="C3")
    assert "Pylons" in answer.content and "pylons place" in answer.content


async def test_long_and_foreign_input_gets_a_short_refusal(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    mover, _, state = await high_voltage_turn(emu, hv)
    cell = face_down(state)[0]
    answer = await refused(emu, hv, mover, "hv rotate", cell="C" * 900, rotation=90)
    assert "C" * 100 not in answer.content, "a long input is not quoted whole"
    for typed in [f"{cell} empty r\u00b2", f"{cell} here r\u0669\u0660", "D\u00b3", "9" * 5000]:
        answer = await refused(emu, hv, mover, "hv draw", cell=typed)
        assert len(answer.content) < 600, answer.content


async def test_a_held_card_is_not_shown_again_for_another_cell(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    mover, cell = await holding_a_card(emu, hv)
    answer = await refused(emu, hv, mover, "hv draw", cell="Z9")
    assert cell in answer.content and not answer.has_attachment("card.png"), answer.content


async def test_an_option_that_names_no_cell_is_told_the_cells_it_takes(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """A mistyped cell gets "not a cell" and the cells that option takes now, in the
    person's language, never the rules' words about typed actions."""
    emu = emulator
    mover, _, state = await high_voltage_turn(emu, hv)
    answer = await refused(emu, hv, mover, "hv rotate", cell="xyz", rotation=90)
    rotatable = state.targets(state.current_seat(), "rotate.cell")
    assert answer.content.startswith("'xyz' is not a cell."), answer.content
    assert all(cell in answer.content for cell in rotatable[:12]), answer.content
    assert "can't read" not in answer.content and "r90" not in answer.content

    channel = emu.add_channel("pylons")
    ada, bo = emu.add_user("Ada", locale="de"), emu.add_user("Bo")
    await emu.slash(ada, "game new", channel=channel, game="pylons")
    await emu.slash(bo, "game join", channel=channel)
    await emu.slash(ada, "game start", channel=channel)
    game = await hv.game(channel.id)
    first = emu.users[game.seats[0].user_id or 0]
    (answer,) = await emu.slash(first, "pylons place", channel=channel, settle=False, cell="Y25")
    assert answer.visibility == Visibility.ephemeral_to(first)
    said = answer.content
    assert said.startswith("'Y25' " + ("ist kein Feld" if first is ada else "is not a cell")), said
    # A real cell goes to the rules, which name the player who chooses the board first.
    (answer,) = await emu.slash(first, "pylons place", channel=channel, settle=False, cell="K12")
    chooses = "Zuerst wählt Ada das Spielfeld" if first is ada else "First Bo chooses the board"
    assert answer.content.startswith(chooses), answer.content
    assert (await hv.game(channel.id)).version == game.version
    # A watcher is told it is not a cell, and no cells to choose.
    carla = emu.add_user("Carla")
    (answer,) = await emu.slash(carla, "pylons place", channel=channel, settle=False, cell="Q0")
    assert answer.content == "'Q0' is not a cell.", answer.content


def random_inputs(rng: random.Random, count: int) -> list[str]:
    """Text a person could paste into an option: any script, digits of other scripts,
    superscripts, combining marks, control characters, and very long runs."""
    alphabet = (
        "ACDKXZacr0123456789 -=°²³¹٠١٩०९ＣＲ０９\u0301\u200b\u2003\t\néßøΩЖ中文🙂<>@#`*_~|/\\'\"{}"
    )
    out = []
    for _ in range(count):
        size = rng.choice([1, 3, 8, 20, 90, 101, 400, 6000])
        out.append("".join(rng.choice(alphabet) for _ in range(size)).strip() or "x")
    return out


async def test_random_input_to_every_option_is_refused_privately_or_read(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """Random text to every free-text option of every game's commands, in a channel of that
    game: either a move is made, or a private refusal within Discord's limits with nothing
    changed. No error may be logged (the fixture checks)."""
    emu = emulator
    rng = random.Random(2026)
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    games = {
        "high-voltage": ["hv draw cell", "hv rotate cell", "hv move cell", "hv swap a"],
        "pylons": ["pylons place cell"],
        "sector6": ["s6 place cell", "s6 entry cell", "s6 move from", "s6 rotate cell"],
    }
    fixed = {
        "hv rotate": {"rotation": 90},
        "hv move": {"rotation": 0},
        "hv swap": {"b": "C3", "rotation_a": 0, "rotation_b": 0},
        "s6 place": {"rotation": 60},
        "s6 move": {"to": "C4"},
        "s6 rotate": {"direction": "left"},
    }
    for game, options in games.items():
        channel = emu.add_channel(f"play-{game}")
        await emu.slash(ada, "game new", channel=channel, game=game)
        await emu.slash(bo, "game join", channel=channel)
        await emu.slash(ada, "game start", channel=channel)
        row = await hv.game(channel.id)
        for each in options:
            command, option = each.rsplit(" ", 1)
            for typed in random_inputs(rng, 12):
                for user in (ada, bo):
                    before = await hv.game(channel.id)
                    reply = await emu.slash(
                        user,
                        command,
                        channel=channel,
                        settle=False,
                        **{option: typed, **fixed.get(command, {})},
                    )
                    after = await hv.game(channel.id)
                    if after.version != before.version:
                        continue  # read as a move (a lucky cell): fine
                    (answer,) = reply
                    assert answer.visibility == Visibility.ephemeral_to(user), answer.content
                    assert 0 < len(answer.content) <= CONTENT
        assert row.game_name == game
