"""/help through Discord: what the bot does and how a game begins, with every command named as
a mention; in a channel with a game, that game's own commands; in the reader's language."""

from __future__ import annotations

import re

import pytest
from e2e_harness import BotHarness

from games import all_games
from sandbox.emulator import DiscordEmulator, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


def mention_ids(content: str) -> dict[str, str]:
    """The commands mentioned, by path: `</game new:123>` gives {"game new": "123"}."""
    return dict(re.findall(r"</([a-z0-9_ -]+):(\d+)>", content))


async def test_help_tells_a_newcomer_how_to_begin_and_the_commands_of_the_game_here(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada")
    (answer,) = await emu.slash(ada, "help")
    assert answer.visibility == Visibility.ephemeral_to(ada)
    assert all(f"**{game.title}**" in answer.content for game in all_games())
    ids = {name: command["id"] for name, command in emu.commands[emu.guild_id].items()}
    mentioned = mention_ids(answer.content)
    for path in ("game new", "game join", "game rules", "me games", "stats me"):
        assert mentioned.get(path) == ids[path.split()[0]], (path, answer.content)
    assert "/game new opens one" not in answer.content, "commands are mentions, not typed"
    assert "No game in this channel yet" in answer.content

    await emu.slash(ada, "game new", game="pylons")
    (answer,) = await emu.slash(ada, "help")
    assert "This channel plays **Pylons**" in answer.content
    mentioned = mention_ids(answer.content)
    assert mentioned.get("pylons place") == ids["pylons"]
    assert not any(path.startswith(("hv ", "s6 ")) for path in mentioned), "only this game's"
    assert f"</game board:{ids['game']}> text:True" in answer.content, "the board as text"

    emu.set_locale(ada, "it")
    (answer,) = await emu.slash(ada, "help")
    assert answer.content.startswith("Gestisco giochi da tavolo")
    assert "In questo canale si gioca a **Pylons**" in answer.content
    assert f"</game board:{ids['game']}> testo:True" in answer.content


@pytest.mark.parametrize(("mode", "listed", "left_out"), [("novice", "pass", "rotate")])
async def test_help_lists_only_the_commands_the_games_mode_takes(
    emulator: DiscordEmulator, hv: BotHarness, mode: str, listed: str, left_out: str
) -> None:
    """A novice Sector 6 game has no rotations: /help there does not offer /s6 rotate (the
    rules would refuse it), and a full game does not offer novice's /s6 pass."""
    emu = emulator
    ada = emu.add_user("Ada")
    ids = {name: command["id"] for name, command in emu.commands[emu.guild_id].items()}
    novice = emu.add_channel("novice")
    await emu.slash(ada, "game new", game="sector6", mode=mode, channel=novice)
    (answer,) = await emu.slash(ada, "help", channel=novice)
    mentioned = mention_ids(answer.content)
    assert mentioned.get("s6 place") == ids["s6"] and mentioned.get(f"s6 {listed}") == ids["s6"]
    assert f"s6 {left_out}" not in mentioned, answer.content

    full = emu.add_channel("full")
    await emu.slash(ada, "game new", game="sector6", channel=full)
    (answer,) = await emu.slash(ada, "help", channel=full)
    mentioned = mention_ids(answer.content)
    assert "s6 rotate" in mentioned and "s6 pass" not in mentioned, answer.content
