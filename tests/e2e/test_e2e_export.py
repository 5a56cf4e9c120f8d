"""/game export through Discord: a player's record of their own game under way comes to them
alone with their own company and nobody else's, a person not playing is refused privately,
and once the game has ended anyone in the channel gets its public record."""

from __future__ import annotations

import json
from typing import Any

import pytest
from e2e_harness import BotHarness, confirmed

from games import find_game
from hvbot.store import GameRow
from sandbox.emulator import DiscordEmulator, Record, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


def record_of(answer: Record, filename: str) -> dict[str, Any]:
    attachment = answer.attachment(filename)
    record = json.loads(attachment.data)
    assert isinstance(record, dict)
    return record


async def test_export_is_private_and_only_for_players_until_the_end(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, cy = emu.add_user("Ada"), emu.add_user("Cy")
    await emu.slash(ada, "game new", game="high-voltage")
    await emu.slash(ada, "game addai")
    await emu.slash(ada, "game start")
    game: GameRow = await hv.game()
    filename = f"high-voltage-{game.id}.json"

    # The game option suggests the asker's own game under way, and nothing to Cy yet.
    (choice,) = await emu.autocomplete(ada, "game export", "game", "")
    assert choice["value"] == game.id and choice["name"].startswith(f"#{game.id} High Voltage")
    assert await emu.autocomplete(cy, "game export", "game", "") == []

    # Cy plays no part: the game under way is not theirs to export.
    reply = await emu.slash(cy, "game export")
    (refusal,) = reply.messages
    assert refusal.visibility == Visibility.ephemeral_to(cy)
    assert not refusal.attachments
    assert f"Game #{game.id} is still being played, and you are not playing in it" in (
        refusal.content
    )

    # Ada gets her own record, privately: her company, not the AI's; never the seed.
    reply = await emu.slash(ada, "game export", game=game.id)
    (answer,) = reply.messages
    assert answer.visibility == Visibility.ephemeral_to(ada)
    assert f"your High Voltage game #{game.id}" in answer.content
    assert "keep it to yourself" in answer.content
    assert "python" not in answer.content, "a player is told what the file is for, not a command"
    record = record_of(answer, filename)
    assert record["game"] == "high-voltage" and record["status"] == "playing"
    assert record["known_to"] == 0 and record["result"] is None
    state = find_game(game.game_name).state_from_dict(game.state)
    ada_colour = state.setup.colours[state.seat_colour[0]]
    assert record["deal"]["colours"] == [ada_colour, None]
    assert "seed" not in json.dumps(record)
    assert [p["ai"] for p in record["players"]] == [None, "easy"]
    assert record["players"][0]["name"] == "Ada"

    # Ada resigns, the last person at the table: the game ends (a forfeit). Its record is
    # now anyone's, and holds no company at all: the rules never showed them.
    await confirmed(emu, ada, "game resign")
    await emu.wait_for(lambda: _finished(hv), message="the game to end")
    (choice,) = await emu.autocomplete(cy, "game export", "game", "")
    assert choice["value"] == game.id
    reply = await emu.slash(cy, "game export")
    (answer,) = reply.messages
    assert answer.visibility == Visibility.ephemeral_to(cy)
    assert f"The record of High Voltage game #{game.id}" in answer.content
    assert "python" not in answer.content and "shows the game as pictures" in answer.content
    record = record_of(answer, filename)
    assert record["game"] == "high-voltage" and record["status"] == "stopped"
    assert record["moves"] == [text for _, text in await hv.actions(await hv.game())]
    assert record["known_to"] is None and record["result"] is None
    assert record["deal"]["colours"] == [None, None]
    assert "seed" not in json.dumps(record)


async def _finished(hv: BotHarness) -> bool:
    return (await hv.game()).status == "finished"
