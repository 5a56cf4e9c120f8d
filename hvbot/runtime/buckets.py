"""discord.py's rate-limit buckets, let go of in sweeps rather than looked over on every new one.

discord.py keeps a bucket per route and channel (and per DM channel), and each time it makes a
new one with 256 or more held, it looks over every bucket for those unused for five minutes.
A bot with thousands of games makes a new bucket for nearly every channel it posts in, and at
ten thousand games each new one looked over tens of thousands: the cost of a post grew with
the games (the whole set-up of n games with n squared). Here the look-over runs when the
buckets held have doubled since the last one, or `SWEEP_S` after it: what is let go of is
the same (unused for five minutes, nothing waiting), only a little later, and the cost of a
new bucket stays the same however many games the bot holds.
"""

from __future__ import annotations

import time

import discord.http

# discord.py's own threshold: below it, nothing is looked over.
FEW = 256
# At most this long between two look-overs while buckets are being made.
SWEEP_S = 30.0


class BucketSweep:
    """Stands in for `HTTPClient._try_clear_expired_ratelimits` (see the module)."""

    def __init__(self, http: discord.http.HTTPClient) -> None:
        self.http = http
        self.held_after = 0  # buckets held after the last look-over
        self.at = time.monotonic()

    def __call__(self) -> None:
        buckets = self.http._buckets
        held = len(buckets)
        if held < FEW:
            return
        if held < 2 * self.held_after and time.monotonic() - self.at < SWEEP_S:
            return
        for key in [key for key, bucket in buckets.items() if bucket.is_inactive()]:
            del buckets[key]
        self.held_after, self.at = len(buckets), time.monotonic()


def sweep_buckets(http: discord.http.HTTPClient) -> BucketSweep:
    """Have `http` let go of its unused buckets in sweeps (see the module); the sweep."""
    sweep = BucketSweep(http)
    # discord.py calls it on the instance whenever it makes a bucket (`get_ratelimit`).
    http._try_clear_expired_ratelimits = sweep  # type: ignore[method-assign]  # see above
    return sweep
