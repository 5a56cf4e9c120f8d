"""Tournaments (`tournaments`, `tournament_entrants`, `tournament_rounds`,
`tournament_games`): a server's Swiss or round robin played over days, its games ordinary
games in threads of the tournament's channel (see `hvbot.services.tournaments`).

The row that makes a round happen once is `tournament_rounds`, keyed by (tournament, round):
the round's games, its byes and the posts it owes are written in the transaction that inserts
it, so of two processes that both see a round's last game end, one pairs the next round and
the other's insert fails as a `Duplicate` and changes nothing. A tournament's own changes
(join, leave, start, pause, ...) compare and bump its `version`, as a game's do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# A tournament's life: sign-up, then rounds (paused between them if a moderator says so),
# then finished, or cancelled at any time.
STATUSES = ("signup", "running", "paused", "finished", "cancelled")
OPEN_TOURNAMENT = ("signup", "running", "paused")
FORMATS = ("swiss", "round_robin")
TABLES = ("2", "3", "4", "3-4")


@dataclass(frozen=True)
class TournamentRow:
    """One tournament as stored. `rounds`: how many (Swiss: set at the start when not given;
    round robin: entrants - 1, or entrants when odd); `round`: the last round paired (0 in
    sign-up). `smallest`/`largest`: a table's seats. `clock_minutes`/`timeout`: every table
    game's turn clock. `starts_at`: when it starts by itself (a stamp, None: when its creator
    starts it). `most`: entrants at most. `signup_message_id`: the sign-up post, edited by
    every later change. `language`: of its public posts (the server's)."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    game_name: str
    options: dict[str, Any]
    format: str
    rounds: int | None
    smallest: int
    largest: int
    clock_minutes: int
    timeout: str
    starts_at: str | None
    most: int
    status: str
    round: int
    signup_message_id: int | None
    name: str
    language: str
    version: int
    created_at: str
    finished_at: str | None = None

    @property
    def is_open(self) -> bool:
        """Signing up or playing (a paused tournament is open: it resumes)."""
        return self.status in OPEN_TOURNAMENT

    @property
    def table(self) -> str:
        """The table size as /tournament new names it: "2", "3", "4" or "3-4"."""
        if self.smallest == self.largest:
            return str(self.largest)
        return f"{self.smallest}-{self.largest}"


@dataclass(frozen=True)
class EntrantRow:
    """A person signed up. `seed`: their place in the seed order, by rating at the start (0
    before it); `rating`: their rating then. `withdrawn_round`: they left (or were removed)
    after that many rounds had been paired (None: still playing; 0: before the start, which
    takes them off the list instead). `removed`: by a moderator."""

    tournament_id: int
    user_id: int
    name: str
    language: str | None
    seed: int
    rating: float | None
    joined_at: str
    withdrawn_round: int | None = None
    removed: bool = False

    @property
    def playing(self) -> bool:
        return self.withdrawn_round is None


@dataclass(frozen=True)
class RoundRow:
    """A round as paired, once: its byes (user ids), and when."""

    tournament_id: int
    round: int
    byes: tuple[int, ...]
    paired_at: str


@dataclass(frozen=True)
class TableGameRow:
    """One table of a round: its game (an ordinary game), and its players in seat order."""

    tournament_id: int
    round: int
    table: int
    game_id: int
    players: tuple[int, ...]
