"""One person alone plays a whole High Voltage game against two AI seats in the sandbox, from
the lobby to the result, the way `python bot.py --sandbox` offers it to a newcomer.

Ada acts only through the page's API (its slash commands, its button presses, the bot's
autocomplete) and decides only from what her socket shows her: the buttons of the bot's
prompts to her, the choices the command box offers (fixed ones from the command tree, cells
from the bot's autocomplete), and whose turn the latest board post names. She never reads the
database or the engine. Whatever the bot refuses must be a clear message after which the game
goes on; the game must end with its public result in its thread, a picture that decodes as a
PNG, and Ada's stats (a picture, and its alt text) counting the game.
"""

from __future__ import annotations

import io
import random
import re
import signal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from page_person import Message, PagePerson, live_buttons, pictures, text_of
from PIL import Image
from sandbox_process import sandbox

# A whole game, with an AI's pause before each of its moves.
pytestmark = [pytest.mark.e2e, pytest.mark.slow]

STEP_S = 90  # the longest wait for one thing to show: an AI move, a board, an answer
MOST_TURNS = 120  # a game has about 25 turns of Ada's; more means it is going round in circles
MOST_REFUSALS = 8
# Ada's turns, in turn: look at a drawn card then lay it with a button, draw and lay it at
# once with the command's options, turn a face-up card, move one into the empty cell.
PLAN = ("look", "look", "rotate", "look", "lay", "look", "move")
# What a person must never be shown.
BROKEN = re.compile(
    r"Traceback|interaction failed|did not respond|something went wrong", re.IGNORECASE
)


def is_board(message: Message, channel_id: str) -> bool:
    """A public post of the game with its board picture."""
    return (
        message["channel_id"] == channel_id
        and message["visibility"] == "public"
        and message["author"]["bot"]
        and not message["thinking"]
        and bool(pictures(message))
    )


def is_refusal(message: Message) -> bool:
    """A private answer with nothing to press that is neither a prompt nor "Done"."""
    return (
        message["visibility"] == "ephemeral"
        and not live_buttons(message)
        and not message["thinking"]
        and not text_of(message).startswith("Done")
    )


def readable(text: str) -> bool:
    """A sentence a person can act on, not an error's insides."""
    return len(text) >= 15 and bool(re.search(r"[A-Za-z]{3}", text)) and not BROKEN.search(text)


@dataclass
class Table:
    """Ada at the game's thread: what she has answered already, what was refused."""

    ada: PagePerson
    thread: str
    rng: random.Random
    turns: int = 0
    acted_on: set[str] = field(default_factory=set)  # board posts she has played after
    answered: set[tuple[str, tuple[str, ...]]] = field(default_factory=set)  # prompts pressed
    refusals: list[str] = field(default_factory=list)
    pressed: list[str] = field(default_factory=list)  # labels of the buttons she pressed
    commands: list[str] = field(default_factory=list)

    # What Ada sees

    def boards(self) -> list[Message]:
        return [m for m in self.ada.in_channel(self.thread) if is_board(m, self.thread)]

    def the_end(self) -> Message | None:
        return next((m for m in self.boards() if "Game over:" in text_of(m)), None)

    def open_prompt(self) -> Message | None:
        """Her newest private prompt with buttons, if she has not answered it as it stands."""
        prompts = [
            m
            for m in self.ada.in_channel(self.thread)
            if m["visibility"] == "ephemeral" and live_buttons(m)
        ]
        if prompts and key(prompts[-1]) not in self.answered:
            return prompts[-1]
        return None

    def her_turn(self) -> Message | None:
        """The latest board post, if it names Ada to play and she has not played after it."""
        boards = self.boards()
        if not boards or boards[-1]["id"] in self.acted_on:
            return None
        latest = boards[-1]
        return latest if f"Next: <@{self.ada.id}>, your turn" in text_of(latest) else None

    def next_thing(self) -> tuple[str, Message] | None:
        if (end := self.the_end()) is not None:
            return "over", end
        if (prompt := self.open_prompt()) is not None:
            return "prompt", prompt
        if (board := self.her_turn()) is not None:
            return "turn", board
        return None

    # What Ada does

    async def play_to_the_end(self) -> Message:
        for _ in range(MOST_TURNS * 4):
            what, message = await self.ada.wait(self.next_thing, "the game going on", STEP_S)
            if what == "over":
                return message
            if what == "prompt":
                await self.answer(message)
            else:
                await self.play_turn(message)
        raise AssertionError(f"the game did not end after {self.turns} turns of Ada's")

    async def answer(self, prompt: Message) -> None:
        """Press a button of her prompt: declare each line offered, else none; or lay the
        drawn card as one of the eight buttons says."""
        shown = live_buttons(prompt)
        lines = [b for b in shown if b.label.startswith("Declare ") and "no more" not in b.label]
        if lines:
            chosen = lines[0]
        else:
            chosen = next((b for b in shown if "no more" in b.label), None) or self.rng.choice(
                shown
            )
        self.answered.add(key(prompt))
        before = set(self.ada.messages)
        self.pressed.append(chosen.label)
        answer = await self.ada.click(prompt["id"], chosen.custom_id)
        assert answer == {"ok": True}, f"pressing {chosen.label!r}: {answer}"

        def answered() -> Message | None:
            now = self.ada.messages.get(prompt["id"])
            if now is None or key(now) != key(prompt):
                return now or prompt  # replaced by what comes next (or taken away)
            return next(
                (m for i, m in self.ada.messages.items() if i not in before and is_refusal(m)),
                None,
            )

        reply = await self.ada.wait(answered, f"an answer to {chosen.label!r}", STEP_S)
        if reply["id"] != prompt["id"]:
            self.refused(reply, f"pressing {chosen.label!r}")

    async def play_turn(self, board: Message) -> None:
        """One action of hers, chosen from what the command box offers."""
        way = PLAN[self.turns % len(PLAN)]
        self.turns += 1
        if self.turns > MOST_TURNS:
            raise AssertionError(f"Ada has played {MOST_TURNS} turns and the game goes on")
        command, options = await self.choose(way)
        self.commands.append(f"/{command} {options}")
        before = set(self.ada.messages)
        answer = await self.ada.command(self.thread, command, **options)
        assert answer == {"ok": True}, f"/{command} {options}: {answer}"

        def replied() -> Message | None:
            return next(
                (
                    m
                    for i, m in self.ada.messages.items()
                    if i not in before and m["author"]["bot"] and not m["thinking"]
                ),
                None,
            )

        reply = await self.ada.wait(replied, f"the bot's answer to /{command}", STEP_S)
        if is_refusal(reply):
            # Refused: the same board still names her, and her next try is another way.
            self.refused(reply, f"/{command} {options}")
            return
        self.acted_on.add(board["id"])

    async def choose(self, way: str) -> tuple[str, dict[str, Any]]:
        """The command and options of one action: cells (and a card's legal turns) from the
        bot's autocomplete, place and rotation from the command box's fixed choices."""
        ada, pick = self.ada, self.rng.choice
        if way in ("rotate", "move"):
            cells = await ada.autocomplete(self.thread, f"hv {way}", "cell")
            if cells:
                cell = pick(cells)["value"]
                # The turns come from the command box's fixed choices, or from the bot's
                # suggestions for that card where it offers only the legal ones.
                turns = ada.choices(f"hv {way}", "rotation") or await ada.autocomplete(
                    self.thread, f"hv {way}", "rotation", cell=cell
                )
                if turns:
                    return f"hv {way}", {"cell": cell, "rotation": pick(turns)["value"]}
        cells = await ada.autocomplete(self.thread, "hv draw", "cell")
        assert cells, "the bot offers no face-down card to draw on Ada's turn"
        options: dict[str, Any] = {"cell": pick(cells)["value"]}
        if way == "lay":
            options["place"] = pick(ada.choices("hv draw", "place"))["value"]
            options["rotation"] = pick(ada.choices("hv draw", "rotation"))["value"]
        return "hv draw", options

    def refused(self, message: Message, what: str) -> None:
        text = text_of(message)
        self.refusals.append(f"{what}: {text}")
        assert readable(text), f"{what} was refused without a clear message: {text!r}"


def key(message: Message) -> tuple[str, tuple[str, ...]]:
    """A prompt as it stands: its id and the buttons it offers (an edit changes them)."""
    return message["id"], tuple(b.custom_id for b in live_buttons(message))


def one_of(person: PagePerson, command: str, option: str, label: str) -> Any:
    """The value of the fixed choice of an option whose label reads `label`."""
    choices = person.choices(command, option)
    found = [c["value"] for c in choices if c["label"].lower() == label.lower()]
    assert found, f"/{command} {option} offers no {label!r}: {choices}"
    return found[0]


async def decoded_png(http: aiohttp.ClientSession, url: str) -> Image.Image:
    async with http.get(url) as answer:
        assert answer.status == 200, url
        picture = Image.open(io.BytesIO(await answer.read()))
        picture.load()
    return picture


async def test_one_person_plays_a_whole_high_voltage_game_against_two_ai_seats(
    tmp_path: Path,
) -> None:
    async with (
        sandbox(tmp_path, "--port", "0") as running,
        aiohttp.ClientSession() as http,
        PagePerson.opened(http, running.url, "Ada") as ada,
    ):
        games = ada.channel_id("games")

        # The lobby, opened with /game new and the game picked from its choices.
        high_voltage = one_of(ada, "game new", "game", "High Voltage")
        assert await ada.command(games, "game new", game=high_voltage) == {"ok": True}
        lobby = await ada.wait(
            lambda: next(
                (
                    m
                    for m in ada.in_channel(games)
                    if m["visibility"] == "public"
                    and any(b.label == "Start" for b in live_buttons(m))
                ),
                None,
            ),
            "the lobby with its buttons",
            STEP_S,
        )
        assert "High Voltage" in text_of(lobby)

        # Two AI seats with /game addai, then the lobby's Start button.
        easy = one_of(ada, "game addai", "level", "easy")
        for number in (1, 2):
            assert await ada.command(games, "game addai", level=easy) == {"ok": True}
            await ada.wait(
                lambda n=number: f"AI {n}" in text_of(ada.messages[lobby["id"]]) or None,
                f"AI {number} seated in the lobby",
                STEP_S,
            )
        start = next(b for b in live_buttons(ada.messages[lobby["id"]]) if b.label == "Start")
        assert await ada.click(lobby["id"], start.custom_id) == {"ok": True}

        # The game gets a thread of #games, and Ada her company by DM.
        thread = await ada.wait(
            lambda: next((t["id"] for t in ada.threads(games)), None), "the game's thread", STEP_S
        )
        dm = ada.view["dm_channel_id"]
        secret = await ada.wait(
            lambda: next((m for m in ada.in_channel(dm) if "Your company:" in text_of(m)), None),
            "her company by DM",
            STEP_S,
        )
        assert secret["visibility"] == "dm"

        table = Table(ada, thread, random.Random(7))
        end = await table.play_to_the_end()

        # The public result in the thread: every seat's score, the winner, the pictures.
        said = text_of(end)
        assert end["visibility"] == "public" and end["channel_id"] == thread
        assert said.count("= **") == 3, said  # a row per seat: company + tokens = score
        assert "Ada" in said and "AI 1" in said and "AI 2" in said, said
        assert re.search(r"\*\*.+ wins!\*\*|\*\*Shared win: .+!\*\*", said), said
        shown = pictures(end)
        assert len(shown) == 2, end["attachments"]  # the final board and the result
        for url in shown:
            picture = await decoded_png(http, ada.picture_url(url))
            assert picture.format == "PNG" and picture.width > 200 and picture.height > 200
        assert table.turns >= 5, f"Ada played only {table.turns} turns: {table.commands}"
        assert any(label.startswith(("Here", "Empty")) for label in table.pressed)

        # Refused choices were few, each a clear message, and the game went on past them.
        assert len(table.refusals) <= MOST_REFUSALS, "\n".join(table.refusals)

        # /stats me counts the game, privately.
        before = set(ada.messages)
        assert await ada.command(games, "stats me") == {"ok": True}
        stats = await ada.wait(
            lambda: next(
                (
                    m
                    for i, m in ada.messages.items()
                    if i not in before and pictures(m) and not m["thinking"]
                ),
                None,
            ),
            "her stats",
            STEP_S,
        )
        assert stats["visibility"] == "ephemeral"
        assert "High Voltage: Rating " in text_of(stats), text_of(stats)
        (record,) = stats["attachments"]
        assert re.search(r"\bGames finished 1\b", record["description"] or ""), record

        # Nothing the page ever showed her was an error's insides.
        for message in ada.shown:
            assert not BROKEN.search(text_of(message)), text_of(message)

        stderr = await running.stop_async(signal.SIGTERM)
    assert running.process.returncode == 0, stderr
    assert "Traceback" not in stderr, stderr
