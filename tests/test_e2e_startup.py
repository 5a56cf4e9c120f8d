"""Starting `bot.py` for real: a token Discord rejects gives one line and exit status 2."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from discord_emulator import DiscordEmulator

ROOT = Path(__file__).resolve().parent.parent

# bot.py as a user runs it, with only discord.py's API address pointed at the emulator.
LAUNCH = (
    "import sys, discord.http; discord.http.Route.BASE = sys.argv[1]; "
    "import bot; sys.exit(bot.main())"
)


async def test_a_rejected_token_prints_one_line_and_exits_2(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": "not-the-right-token",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'games.sqlite3'}",
        "LOG_LEVEL": "WARNING",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        LAUNCH,
        emulator.api_base,
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, stderr = await asyncio.wait_for(process.communicate(), timeout=60)
    text = stderr.decode()
    assert process.returncode == 2, text
    assert "Traceback" not in text
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    assert "rejected DISCORD_TOKEN" in lines[0]
    # Discord refused the login, exactly as expected here; nothing else was refused.
    assert [(r.path, r.status) for r in emulator.rejections] == [("/api/v10/users/@me", 401)]
    emulator.rejections.clear()
