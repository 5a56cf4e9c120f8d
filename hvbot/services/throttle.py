"""How often one person may ask for work that costs the bot something each time.

A replay is a large upload and seconds of drawing; a board is a picture drawn; an export walks
a game's whole history; /stats reads every result of a server. None of them changes a game, so
nothing stops a person asking again and again, and a burst of them from one member (or a script
behind one account) would hold up everyone else's games. `Throttle` lets each person ask for
each kind of work a few times in any window (3 a minute by default) and says how long until
the next is allowed; the bot refuses the rest privately, saying when to try again.

One throttle serves every kind of work, counted apart: a person who looked at the board three
times may still read the log. It is kept by the process, as a server's interactions all come to
the process of its shard. Time is read from the clock it is handed, which tests move by hand.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from datetime import datetime, timedelta
from math import ceil

from data.texts import Command
from hvbot.services.errors import BotError

MOST = 3  # requests of one kind one person may make in WINDOW
WINDOW = timedelta(minutes=1)


class Throttle:
    """At most `most` requests of each kind per person in any `window`."""

    def __init__(
        self, clock: Callable[[], datetime], *, most: int = MOST, window: timedelta = WINDOW
    ) -> None:
        if most < 1 or window <= timedelta(0):
            raise ValueError("a throttle lets at least one request through in a window")
        self.clock = clock
        self.most = most
        self.window = window
        # When each person asked for each kind of work, within the last window.
        self._asked: dict[tuple[str, int], deque[datetime]] = {}
        # Every request counted, oldest first: what to forget as the window moves on, found
        # without looking over everyone who asked (thousands, on a bot with thousands of
        # games, and every request looked over them all).
        self._order: deque[tuple[datetime, tuple[str, int]]] = deque()

    def wait(self, kind: str, user_id: int) -> int | None:
        """None, and the request counted, if `user_id` may ask for `kind` now; else the whole
        seconds until they may (at least 1), and nothing counted."""
        now = self.clock()
        self._forget_before(now - self.window)
        asked = self._asked.setdefault((kind, user_id), deque())
        if len(asked) >= self.most:
            return max(1, ceil((asked[0] + self.window - now).total_seconds()))
        asked.append(now)
        self._order.append((now, (kind, user_id)))
        return None

    def check(self, command: str, user_id: int) -> None:
        """Count a use of the slash command `command` ("game board") by `user_id`, or refuse
        it with a BotError that says when to try again."""
        seconds = self.wait(command, user_id)
        if seconds is not None:
            raise too_often(command, self.most, seconds)

    def _forget_before(self, start: datetime) -> None:
        """Drop the requests older than the window, and the people with none left: what is
        kept is bounded by the requests of the last window."""
        order = self._order
        while order and order[0][0] <= start:
            _, key = order.popleft()
            times = self._asked.get(key)
            if times is None:
                continue
            while times and times[0] <= start:
                times.popleft()
            if not times:
                del self._asked[key]


def too_often(command: str, most: int, seconds: int) -> BotError:
    """The refusal of a command used `most` times in the last window: when to try again."""
    return BotError(
        f"You used /{command} {most} times in the last minute: try again in {seconds} "
        f"second{'' if seconds == 1 else 's'}.",
        key="bot.error.too_often",
        command=Command(command),
        most=most,
        count=seconds,
    )


__all__ = ["MOST", "WINDOW", "Throttle", "too_often"]
