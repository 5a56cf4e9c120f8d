"""Running a tournament through the emulated Discord, as its people would: a moderator opens it
with /tournament new, people press Join on its sign-up post, the tables' players play or
resign in their games' threads, and the test reads what was posted and what was stored.

The database is the truth the checks compare against (`tournaments`, `tournament_rounds`,
`tournament_games`): the rounds paired, their tables and byes, each table's game."""

from __future__ import annotations

import io
import re
from collections import Counter
from dataclasses import dataclass

from e2e_harness import BotHarness, board_posts, confirmed
from PIL import Image

from hvbot.store import GameRow
from sandbox.emulator import Channel, DiscordEmulator, Record, User

SIGNUP = re.compile(r"tour:(?P<id>[0-9]+):join")
# A standings line of the text twin: "3. Ada · Points 2½ · Buchholz 4 · Games 3".
STANDING = re.compile(r"^(?P<place>\d+)\. (?P<name>.+?) · Points (?P<points>\S+) · ", re.M)


@dataclass(frozen=True)
class TableGame:
    """One table of a round as stored: its number, its game, its players in seat order."""

    round: int
    table: int
    game: GameRow

    @property
    def players(self) -> list[int]:
        return [seat.user_id for seat in self.game.seats if seat.user_id is not None]


def with_custom_id(emu: DiscordEmulator, pattern: re.Pattern[str]) -> list[Record]:
    """Public messages (as first posted) carrying a button whose custom id matches."""
    return [
        r
        for r in emu.messages(visibility="public", kind=("channel_message", "response"))
        if any(pattern.fullmatch(c) for c in r.custom_ids)
    ]


async def open_tournament(
    emu: DiscordEmulator, moderator: User, channel: Channel, **options: object
) -> tuple[int, Record]:
    """/tournament new in `channel`; the tournament's id and its sign-up post."""
    reply = await emu.slash(moderator, "tournament new", channel=channel, **options)
    (answer,) = reply.where(kind="response")
    assert not answer.is_public, "the opener is answered privately: " + emu.describe(reply)
    (post,) = await emu.wait_for(
        lambda: with_custom_id(emu, SIGNUP), message="the sign-up post with its buttons"
    )
    found = next(SIGNUP.fullmatch(c) for c in post.custom_ids if SIGNUP.fullmatch(c))
    assert found is not None
    return int(found["id"]), post


async def sign_up(emu: DiscordEmulator, people: list[User], post: Record, tournament: int) -> None:
    """Each presses Join on the sign-up post; the click's answer is the post edited to list
    them, which is the update the change owes: it is not edited a second time."""
    for person in people:
        since = emu.last_seq
        click = await emu.click(person, f"tour:{tournament}:join", message=post)
        assert not click.ephemeral.where(kind="response"), emu.describe(click)
        assert f"<@{person.id}>" in emu.message(post.message_id or 0).text
        again = emu.messages(kind="message_edit", since=since)
        assert post.message_id not in [r.message_id for r in again], emu.describe(again)


async def tables(hv: BotHarness, tournament: int, number: int) -> list[TableGame]:
    """The tables of round `number`, as stored, in table order."""
    repo = await hv.reader()
    found = await repo.db.fetch(
        "SELECT table_no, game_id FROM tournament_games"
        " WHERE tournament_id = ? AND round = ? ORDER BY table_no",
        tournament,
        number,
    )
    games = []
    for row in found:
        game = await repo.game(game_id=int(row["game_id"]), fresh=True)
        assert game is not None
        games.append(TableGame(number, int(row["table_no"]), game))
    return games


async def byes(hv: BotHarness, tournament: int, number: int) -> list[int]:
    repo = await hv.reader()
    said = await repo.db.fetchval(
        "SELECT byes FROM tournament_rounds WHERE tournament_id = ? AND round = ?",
        tournament,
        number,
    )
    assert said is not None, f"round {number} is not paired"
    return [int(user) for user in str(said).split()]


async def rounds_paired(hv: BotHarness, tournament: int) -> int:
    repo = await hv.reader()
    count = await repo.db.fetchval(
        "SELECT COUNT(*) FROM tournament_rounds WHERE tournament_id = ?", tournament
    )
    return int(count or 0)


async def status(hv: BotHarness, tournament: int) -> str:
    repo = await hv.reader()
    return str(await repo.db.fetchval("SELECT status FROM tournaments WHERE id = ?", tournament))


async def wait_for_round(
    emu: DiscordEmulator, hv: BotHarness, tournament: int, number: int, timeout: float = 60.0
) -> list[TableGame]:
    """Round `number` once paired, with every table's game started in a thread and its first
    board posted there."""

    async def ready() -> list[TableGame] | None:
        if await rounds_paired(hv, tournament) < number:
            return None
        found = await tables(hv, tournament, number)
        if not all(t.game.status != "lobby" and t.game.thread_id for t in found):
            return None
        if not all(board_posts(emu, channel=thread_of(emu, t)) for t in found):
            return None  # each game's first board, in its thread
        return found

    return await emu.wait_for(ready, timeout, message=f"round {number} paired and started")


def thread_of(emu: DiscordEmulator, table: TableGame) -> Channel:
    assert table.game.thread_id is not None
    return emu.channels[table.game.thread_id]


async def resign(emu: DiscordEmulator, person: User, table: TableGame) -> None:
    """`person` resigns their table's game in its thread, confirming as a person sure of it."""
    said = await confirmed(emu, person, "game resign", channel=thread_of(emu, table))
    assert said.messages, emu.describe(said)


async def game_over(emu: DiscordEmulator, hv: BotHarness, table: TableGame) -> GameRow:
    repo = await hv.reader()

    async def ended() -> GameRow | None:
        game = await repo.game(game_id=table.game.id, fresh=True)
        return game if game is not None and game.status in ("finished", "abandoned") else None

    return await emu.wait_for(ended, 30, message=f"game #{table.game.id} over")


def pictures(emu: DiscordEmulator, channel: Channel) -> list[Record]:
    """The channel's posts with a PNG that decodes (the standings, the podium), oldest first."""
    found = []
    for record in emu.messages(visibility="public", kind="channel_message", channel=channel):
        pngs = [a for a in record.attachments if a.is_png]
        if pngs and "· Points " in (pngs[0].description or ""):
            Image.open(io.BytesIO(pngs[0].data)).load()  # a picture that decodes
            found.append(record)
    return found


def points_said(record: Record) -> dict[str, str]:
    """Each name's points as a standings post's text twin (its alt text) says them."""
    (picture,) = [a for a in record.attachments if a.is_png]
    return {m["name"]: m["points"] for m in STANDING.finditer(picture.description or "")}


def said_twice(emu: DiscordEmulator, channel: Channel) -> list[str]:
    """Posts of the channel said twice: the same words (and the same files) posted again."""
    seen = Counter(
        (r.text, tuple(a.filename for a in r.attachments))
        for r in emu.messages(visibility="public", kind="channel_message", channel=channel)
    )
    return [content for (content, _), times in seen.items() if times > 1]
