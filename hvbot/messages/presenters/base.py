"""What a game presenter provides; the defaults suit a game with one public action per turn
and no private prompts."""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from PIL import Image

import render
from data.texts import DEFAULT, language_of, long_text, texts_for
from engine.registry import find_game
from hvbot.plugins import plugin

if TYPE_CHECKING:
    from hvbot.messages.post import Choice, Post

View = dict[str, Any]

# A command mention (`</game board:123>`) as words: an alt text is read, never clicked.
_MENTION = re.compile(r"</([^:>]+):\d+>")
_BULLET = re.compile(r"^[•\-*]\s*")


def plain(text: str) -> str:
    """A text of the bot's messages as alt text: no markdown emphasis, commands as typed,
    one sentence per line (a line without an end gets a full stop), so a screen reader pauses
    where a sighted reader's eye would."""
    text = _MENTION.sub(r"/\1", text).replace("**", "").replace("__", "")
    lines = []
    for line in text.splitlines():
        line = _BULLET.sub("", line.strip())
        if line:
            lines.append(line if line[-1] in ".!?:…" else line + ".")
    return "\n".join(lines)


def alt_lines(*parts: str | None) -> str:
    """Parts of an alt text, each made plain, one after the other; empty ones left out."""
    return "\n".join(plain(part) for part in parts if part)


class Presenter:
    """The defaults suit a game with one public action per turn and no private prompts."""

    game: ClassVar[str]
    # The game's modes as /game new offers them (engine option "mode"): value -> label.
    modes: ClassVar[dict[str, str]] = {}

    def __init__(self, language: str = DEFAULT) -> None:
        self.texts = texts_for(language)

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        """Sent to a drawing process as its game and language, not as its texts: the process
        has its own presenters (see `hvbot.infra.workers`)."""
        return presenter_for, (self.game, self.language)

    @property
    def language(self) -> str:
        """The language code this presenter speaks, handed to the pictures it draws."""
        return self.texts.language

    @property
    def rules(self) -> str:
        """The game's rules in this presenter's language (English until translated):
        `rules.md` in the game's texts package, its translations beside it, with its typed
        commands said as mentions as in every other text."""
        return self.texts.with_mentions(
            long_text("rules.md", self.texts.language, plugin(self.game).texts)
        )

    def word(self, table: str, name: str) -> str:
        """A game word by its data name (a colour, a shape, an end reason) in this language;
        a name the texts do not know (edited game data) is shown as it is."""
        key = f"{table}.{name}"
        return self.texts(key) if self.texts.has(key) else name

    def colour(self, name: str) -> str:
        """A colour's name as the pictures label it ("red", "rosso", "Rot")."""
        return self.word("picture.colours", name)

    def is_public(self, applied: Sequence[str], view: View) -> bool:
        """Whether these actions get a public post (not when only their player saw something)."""
        return True

    def describe(self, applied: Sequence[str], view: View, actor: str) -> list[str]:
        """Lines saying what just happened, from public information only."""
        raise NotImplementedError

    @property
    def table(self) -> str:
        """The game's table in the texts ("high_voltage"), named like its texts package."""
        return plugin(self.game).texts.rpartition(".")[2]

    def commands_left_out(self, options: dict[str, Any]) -> tuple[str, ...]:
        """The game's commands (by their English names) that a game opened with `options`
        never takes, left out where its commands are listed (/help); none by default."""
        return ()

    def phase_words(self, view: View) -> str:
        """What the game is at, in words ("placing a drawn card"), for /game status."""
        return self.word(f"{self.table}.phase", view["phase"])

    def secret_words(self) -> str:
        """What each player is told privately at the start ("your company")."""
        return self.texts(f"{self.table}.secret.what")

    def move_words(self, action: str) -> str:
        """A stored action in words, without who made it ("rotated E4 to 90°"), for the
        move log, undo requests and confirmations: never the engine's typed form."""
        raise NotImplementedError

    def last_moves(self, view: View) -> list[str]:
        """The last turn's actions in words ("rotated E4 to 90°"), for the board picture's
        last line: the pictures draw words they are given and never read an action's typed
        form. Only the actions the public view lists, which say nothing of a face-down card
        or a drawn tile that the public post after them does not say too."""
        last = view.get("last") or {}
        return [self.move_words(action) for action in last.get("actions") or ()]

    def scores(self, view: View, names: Sequence[str]) -> str:
        raise NotImplementedError

    def status(self, view: View, names: Sequence[str]) -> str:
        raise NotImplementedError

    def outcome(self, view: View, names: Sequence[str]) -> str:
        raise NotImplementedError

    def waiting(self, view: View, who: str) -> str | None:
        """What the channel is told while the player to move answers a private prompt."""
        return None

    def turn_note(self, view: View) -> str:
        """Added to "your turn", e.g. for the second action of a double turn."""
        return ""

    def text_board(self, view: View, names: Sequence[str]) -> list[list[str]] | None:
        """The position as text, for `/game board text:True` (screen readers, small phones):
        sections of lines in this presenter's language, each section kept in one message
        where it fits (see `hvbot.messages.text_board`), built from the game's own text
        board (`games/<game>/rules/textboard.py`). `view` is the asker's own (a player's,
        or the spectators'), so nothing here can say what they may not know; `names` are the
        seats' names as typed. None for a game without a text board."""
        return None

    def board_png(self, view: View, names: Sequence[str], *, clock: str | None = None) -> bytes:
        """The board picture posted after every move. `clock` is the time the person to move
        has left, as a short text already in this presenter's language ("⏳ 42 minutes
        left", up to ~40 characters), for the picture's panel to show beside whose turn it
        is, since a picture is also seen apart from its message. None when no clock runs, and
        then the picture is exactly what it was without clocks. A plain string, so it goes
        to a drawing process as it is; a picture cannot count down like a Discord
        timestamp, so its words hold as of the post. Characters the picture font has no
        glyph for (the emoji) are left out, a text too long for its place is cut."""
        raise NotImplementedError

    def board_image(self, view: View, names: Sequence[str]) -> Image.Image:
        """The board picture as an image, for pictures made of many boards (the replay).

        Decoding `board_png` works for any game; a game whose renderer can hand over its
        palette image before encoding overrides this and saves an encode and a decode per
        frame."""
        picture = Image.open(io.BytesIO(self.board_png(view, names)))
        picture.load()
        return picture

    def end_png(self, view: View, names: Sequence[str]) -> bytes | None:
        """A picture of the result, or None when the final board says it all."""
        return None

    def replay_gif(
        self, views: list[View], names: Sequence[str], positions: int | None = None
    ) -> render.Replay:
        """The animated replay of `views`, the spectators' views of a game in order (every
        position, or those `render.frames_of(positions)` names of a game of `positions`
        positions), each frame this game's board (raises `render.ReplayTooLarge`). A worker
        draws it from these alone: the views, the names and this presenter's game and
        language."""
        return render.replay_gif(
            views, lambda view: self.board_image(view, names), positions=positions
        )

    # ------------------------------------------------------------------ alt texts
    # What a picture says in words (Discord's attachment description), for people who use a
    # screen reader. Built from the same view as the picture and in this presenter's language;
    # `names` are the names as the pictures draw them. Cut to Discord's limit when sent.

    @property
    def title(self) -> str:
        """The game's name ("High Voltage"), as the lobby and the replay name it."""
        return find_game(self.game).title

    def last_move(self, view: View) -> tuple[int, str] | None:
        """(seat, action) of the last move the board shows, as public text; None before any.
        A game whose view keeps the last turn's actions (`last.actions`) names the latest."""
        last = view.get("last") or {}
        actions = last.get("actions") or [last.get("action")]
        if last.get("seat") is None or not actions[-1]:
            return None
        return last["seat"], actions[-1]

    def board_details(self, view: View, names: Sequence[str]) -> list[str]:
        """What else the board shows that matters to the players (a game's lines, links or
        prisoners), one sentence each. Besides the status the picture's panel shows."""
        return []

    def board_alt(self, view: View, names: Sequence[str], *, clock: str | None = None) -> str:
        """The board picture in words: the game, the last move, whose turn (or the end), the
        scores and status, and what matters on the board (`board_details`)."""
        say = self.texts
        last = self.last_move(view)
        if last is None:
            moved = say("alt.no_move")
        else:
            mover, action = last
            moved = say("alt.last", player=names[mover], move=self.move_words(action))
        seat = view.get("current_seat")
        turn: str | None
        if view.get("outcome") is not None or seat is None:
            turn = say("alt.over")
        else:
            turn = self.waiting(view, names[seat])
            if not turn:
                phase = self.phase_words(view)
                if "turn" in view:
                    turn = say(
                        "bot.status.turn", number=view["turn"], player=names[seat], phase=phase
                    )
                else:
                    turn = say("bot.status.to_move", player=names[seat], phase=phase)
        return alt_lines(
            say("alt.board", game=self.title),
            moved,
            turn,
            clock,
            self.status(view, names),
            *self.board_details(view, names),
        )

    def end_alt(self, view: View, names: Sequence[str]) -> str:
        """The result picture in words: the game's outcome as the result post says it."""
        return alt_lines(self.texts("alt.result", game=self.title), self.outcome(view, names))

    def secret_alt(self, view: View, seat: int) -> str:
        """The picture of what a seat is told privately at the start, in words (from the
        seat's own view, so it says only what the seat may know). Empty: the picture is
        described by the secret's title (see `secret`)."""
        return ""

    def replay_alt(
        self, final: View, names: Sequence[str], *, moves: int, shown: int, positions: int
    ) -> str:
        """The replay in words: the game, its players, how many moves and positions it shows,
        and how the game ended (`final`, the spectators' view at its end)."""
        say = self.texts
        players = say("bot.replay.versus").join(names)
        frames = (
            say("alt.replay_all", moves=say("bot.replay.moves", count=moves))
            if shown == positions
            else say("alt.replay_cut", moves=say("bot.replay.moves", count=moves), shown=shown)
        )
        outcome = self.outcome(final, names) if final.get("outcome") is not None else None
        return alt_lines(say("alt.replay", game=self.title, players=players), frames, outcome)

    def accent(self, seat: int) -> int | None:
        """The colour a card edges itself in while `seat` is to move (and for a lone
        winner's result), as an RGB int: the seat's colour as everyone sees it on the board,
        never one the rules keep secret. None: Discord's plain edge."""
        return None

    def public_choices(self, view: View) -> tuple[Choice, ...]:
        """Buttons on the public board post, for decisions that hide nothing (asked only when
        a person is to move: an AI seat's choice comes by itself)."""
        return ()

    async def prompt(self, view: View, names: Sequence[str] | None = None) -> Post | None:
        """The private decision waiting for the seat whose view this is, if any (its buttons
        as `Post.choices`); `names` are the seats' names as pictures draw them."""
        return None

    def secret(self, channel_id: int, view: View, seat: int) -> tuple[str, str, bytes]:
        """(title, text, picture) of what a seat is told privately at the start, pointing to
        the game's channel. Drawn in a worker, so it is sent only the seat's own view and the
        channel, never the game's row (which holds the deal's seed)."""
        raise NotImplementedError


def rgb(colour: tuple[int, int, int]) -> int:
    """An RGB colour as the int Discord's accent colours are."""
    red, green, blue = colour
    return (red << 16) | (green << 8) | blue


def presenter_for(game: str, language: object | None = None) -> Presenter:
    """The presenter of a game speaking a language (a code or a Discord locale; English for
    any other): public posts use the server's language, private ones the person's."""
    return _presenter(game, language_of(language))


@functools.cache
def _presenter(game: str, language: str) -> Presenter:
    presenter: Presenter = plugin(game).presenter_class()(language)
    return presenter
