"""discord.py's rate-limit buckets are let go of in sweeps: a new one costs the same however
many the bot holds, and those unused for five minutes still go."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord.http
import pytest

from hvbot.infra.config import Settings
from hvbot.runtime import buckets
from hvbot.runtime.client import GameBot


@pytest.fixture
async def bot() -> AsyncIterator[GameBot]:
    settings = Settings(
        token="unused", database_url="sqlite:///unused.sqlite3", guild_id=None, log_level="INFO"
    )
    made = GameBot(settings)
    yield made
    await made.close()


def looked_over(http: discord.http.HTTPClient, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts every bucket looked over (in a one-item list)."""
    count = [0]
    original = discord.http.Ratelimit.is_inactive

    def counting(self: discord.http.Ratelimit) -> bool:
        count[0] += 1
        return original(self)

    monkeypatch.setattr(discord.http.Ratelimit, "is_inactive", counting)
    return count


async def test_new_buckets_cost_the_same_however_many_channels_the_bot_posts_in(
    bot: GameBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    count = looked_over(bot.http, monkeypatch)
    for channel in range(4000):  # a post in each of 4,000 channels, all within five minutes
        bot.http.get_ratelimit(f"POST /channels/{{channel_id}}/messages:{channel}")
    # discord.py alone looked over every bucket at each new one past 256: about 8 million.
    assert count[0] < 3 * 4000, count[0]
    assert len(bot.http._buckets) == 4000, "none was unused for five minutes: all are kept"


async def test_buckets_unused_for_five_minutes_are_still_let_go_of(
    bot: GameBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    http = bot.http
    for channel in range(300):
        http.get_ratelimit(f"old:{channel}")
    for bucket in http._buckets.values():
        bucket._last_request -= 301  # as if last used five minutes and a second ago
    clock = [0.0]
    monkeypatch.setattr(buckets.time, "monotonic", lambda: bot.bucket_sweep.at + clock[0])
    http.get_ratelimit("new:1")
    assert len(http._buckets) == 301, "within SWEEP_S of the last sweep, without doubling"
    clock[0] = buckets.SWEEP_S
    http.get_ratelimit("new:2")
    assert sorted(http._buckets) == ["new:1", "new:2"]
