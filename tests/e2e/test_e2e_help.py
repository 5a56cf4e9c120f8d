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
