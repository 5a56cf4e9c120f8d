"""/stats beside the seasons, through Discord: with monthly seasons, a game finished in October
and one in November; in November /stats server shows each game's board of this season just
before its all-time one and /stats me the season's rating, games and wins beside all time;
`season:` offers the seasons with games, latest first, and reads October alone; names that are
not seasons, a season without games and seasons turned off are answered privately with what
would be legal."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime

import pytest
from e2e_harness import BotHarness, check_card
from moved_clock import MovedClock
from PIL import Image
from played_games import finished_pylons

from sandbox.emulator import DiscordEmulator, Record, User, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

PLACED = re.compile(r"\d+\. (.+?) · ")  # "1. Ada · Rating 1103? · Games 1"


async def answer(emu: DiscordEmulator, user: User, command: str, **options: str) -> Record:
    """The bot's one message in reply to a /stats command (the games' own posts may still be
    going out beside it, a few a round under a clock that stands still)."""
    reply = await emu.slash(user, command, **options)
    answers = [m for m in reply.messages if m.kind in ("response", "followup")]
    assert len(answers) == 1, emu.describe(reply)
    return answers[0]


def pictures(message: Record) -> dict[str, list[str]]:
    """Each picture of the message, decoded, by name: its alt text's lines."""
    out = {}
    for attachment in message.attachments:
        with Image.open(io.BytesIO(attachment.data)) as picture:
            picture.load()
            assert picture.width >= 600 and picture.height >= 200, attachment.filename
        assert attachment.description, f"{attachment.filename} has no alt text"
        out[attachment.filename] = attachment.description.splitlines()
    return out


def named(lines: list[str]) -> set[str]:
    """The people on a leaderboard's text twin."""
    return {found[1] for line in lines if (found := PLACED.match(line))}


async def test_stats_show_this_season_beside_all_time_and_read_a_past_season(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    assert hv.bot is not None
    clock = MovedClock(datetime(2026, 10, 15, 12, 0, tzinfo=UTC))
    hv.bot.service.clock = clock
    ada, bo, cy = emu.add_user("Ada"), emu.add_user("Bo"), emu.add_user("Cy")
    (saved,) = await emu.slash(emu.owner, "server settings", season="month")
    assert "the current one is 2026-10" in saved.content
    await finished_pylons(
        hv.bot.service,
        channel_id=emu.channel.id,
        guild_id=emu.guild_id,
        players=[(ada.id, "Ada"), (bo.id, "Bo")],
    )
    clock.now = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)  # past October's end
    await finished_pylons(
        hv.bot.service,
        channel_id=emu.channel.id,
        guild_id=emu.guild_id,
        players=[(ada.id, "Ada"), (cy.id, "Cy")],
        seed=2,
    )
    await emu.settle()

    # This month's season beside all time: its board first, counting November's game only.
    board = await answer(emu, bo, "stats server")
    assert board.is_public and not board.pings
    check_card(emu, board, pictures=2)
    lines = board.text.splitlines()
    assert lines[:2] == [
        "**Stats for this server**",
        "This season, 2026-11: 1 game finished so far. Each game's season leaderboard comes"
        " just before its all-time one.",
    ]
    shown = pictures(board)
    assert list(shown) == ["season-2026-11-pylons.png", "leaderboard-pylons.png"]
    season, all_time = shown.values()
    assert season[:2] == ["Pylons: season 2026-11", "1 game finished · trend: since last season"]
    assert named(season) == {"Ada", "Cy"}, "October's game is not this season's"
    assert all_time[1].startswith("All time · 2 games finished")
    assert named(all_time) == {"Ada", "Bo", "Cy"}

    (mine,) = pictures(await answer(emu, ada, "stats me")).values()
    assert mine[1] == "Ada · all time"
    assert mine[2].startswith("Pylons: Rating ") and "Games finished 2 · " in mine[2]
    assert "Season 2026-11: Rating " in mine[2] and " · Games finished 1 · Won " in mine[2]
    (bos,) = pictures(await answer(emu, bo, "stats me")).values()
    assert "Season 2026-11: Rating – · Games finished 0 · Won 0." in bos[2]

    # The seasons with games, latest first, as typed.
    offered = await emu.autocomplete(bo, "stats server", "season", "")
    assert [(c["name"], c["value"]) for c in offered] == [
        ("2026-11", "2026-11"),
        ("2026-10", "2026-10"),
    ]
    assert [c["value"] for c in await emu.autocomplete(ada, "stats me", "season", "-10")] == [
        "2026-10"
    ]

    # October read alone: its own game, as its end would post it.
    october = await answer(emu, cy, "stats server", season="2026-10")
    assert october.is_public
    check_card(emu, october, pictures=1)
    assert october.text.startswith("**Stats for this server · season 2026-10**\nPylons: 1 game")
    ((name, lines),) = pictures(october).items()
    assert name == "season-2026-10-pylons.png"
    assert lines[0] == "Pylons: season 2026-10" and named(lines) == {"Ada", "Bo"}
    record = await answer(emu, bo, "stats me", season="2026-10")
    assert record.visibility == Visibility.ephemeral_to(bo)
    check_card(emu, record, pictures=1)
    (bo_october,) = pictures(record).values()
    assert bo_october[1] == "Bo · season 2026-10"
    assert bo_october[2].startswith("Pylons: Rating ") and "Games finished 1 · " in bo_october[2]
    not_cy = await answer(emu, cy, "stats me", season="2026-10")
    assert not_cy.visibility == Visibility.ephemeral_to(cy)
    assert not_cy.content == "You did not finish a game on this server in season 2026-10."

    # Bad input: said to the asker alone, with what would be legal; nothing posted.
    refusals = {
        "2026-09": "No game was finished on this server in season 2026-09. Seasons with games"
        " here: 2026-11, 2026-10.",
        "soon": "'soon' is not a season: seasons are named by their UTC month or quarter, like"
        " 2026-11. Seasons with games here: 2026-11, 2026-10.",
    }
    for typed, said in refusals.items():
        refused = await answer(emu, ada, "stats server", season=typed)
        assert refused.visibility == Visibility.ephemeral_to(ada)
        assert refused.content == said
    in_high_voltage = await answer(emu, ada, "stats server", game="high-voltage", season="2026-10")
    assert in_high_voltage.visibility == Visibility.ephemeral_to(ada)
    assert in_high_voltage.content == (
        "No High Voltage game was finished on this server in season 2026-10."
    )

    # Seasons off: no season beside all time, none offered, and a season asked for is refused.
    await emu.slash(emu.owner, "server settings", season="off")
    plain = await answer(emu, bo, "stats server")
    assert list(pictures(plain)) == ["leaderboard-pylons.png"]
    assert "This season" not in plain.text and "Stats for this server" in plain.text
    assert await emu.autocomplete(bo, "stats server", "season", "") == []
    off = await answer(emu, bo, "stats me", season="2026-10")
    assert off.visibility == Visibility.ephemeral_to(bo)
    assert off.content.startswith("Seasons are off on this server, so there is no season to read")
    assert re.search(r"turn seasons on with </server settings:\d+> `season:`\.$", off.content)
