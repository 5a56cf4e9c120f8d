"""`/game board text:True`: the position as text, for screen readers and small phones.

The answer is private, so it is built from the asker's own view: a player reads what they may
know (their company, the tile they drew), anyone else the spectators' view; the deal's seed
and the others' secrets are never in a view, so they cannot be in the text.

A message holds at most 2,000 characters, and one game's text can be longer (Pylons' board and
its lists of pylons, a large Sector 6 maze): the text comes as a reply and follow-ups, each its
own code block, cut only between lines, and a section (the board, the legend, the scores) is
kept in one message whenever it fits in one. The words are the reader's language; the board's
own letters (R, o, x, N) are the game's, explained by the legend in that language.

Each game's layout is its presenter's choice (`Presenter.text_board`), from what its engine's
terminal drawings measure at their largest:
- High Voltage: the 7 x 7 grid is 59 characters wide and about 1,750 long whatever the
  position. It is kept as drawn, in a message of its own: a card's curves and crossings need
  5 x 3 characters, and following a line is what the board is for.
- Pylons: the terminal's 24 x 24 board is 81 wide and 2,270 long, which a phone held upright
  wraps. One character a cell makes it 32 wide and about 900 long, with column letters and
  row numbers; each player's pylons follow as a list of cells for a screen reader.
- Sector 6: four players' maze late in a game draws 60-70 wide and up to 1,900 long in
  hexagons. It comes as a list instead, a piece a line (its cell, colour and value, open
  sides, marker, prisoner): about 40 lines, one or two messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from data.texts import texts_for
from engine.core import State
from engine.registry import find_game
from hvbot.messages.limits import CONTENT
from hvbot.messages.presenters import presenter_for
from hvbot.messages.time_words import clock_left_line
from hvbot.messages.wording import picture_names
from hvbot.store import GameRow

FENCE = "```"
# What a code block adds around its lines: the fences and their line breaks.
FENCE_COST = len(FENCE) * 2 + 2


def clean(line: str) -> str:
    """A line as it can stand inside a code block: without backticks (a name or a text with
    one would end the block early) and without the bold marks a code block shows as stars."""
    return line.replace("`", "'").replace("**", "").rstrip()


def code_blocks(sections: Sequence[Sequence[str]], limit: int = CONTENT) -> list[str]:
    """The sections as messages of at most `limit` characters, each one code block.

    Sections follow each other with a blank line between them. A section that does not fit
    in what is left of a message starts the next one; one longer than a whole message is cut
    between two of its lines, never inside one (a line longer than a message, which no board
    has, is shortened)."""
    room = limit - FENCE_COST
    messages: list[list[str]] = [[]]

    def size(lines: list[str]) -> int:
        return sum(len(line) + 1 for line in lines) - 1 if lines else 0

    def add(line: str) -> None:
        current = messages[-1]
        if current and size(current) + 1 + len(line) > room:
            messages.append([])
        messages[-1].append(line)

    for section in sections:
        lines = [clean(line)[:room] for line in section]
        if not lines:
            continue
        current = messages[-1]
        gap = [""] if current else []
        if current and size([*current, *gap, *lines]) > room and size(lines) <= room:
            messages.append([])
            gap = []
        for line in gap + lines:
            add(line)
    out = []
    for lines in messages:
        while lines and not lines[-1]:
            lines.pop()
        while lines and not lines[0]:
            lines.pop(0)
        if lines:
            out.append(f"{FENCE}\n" + "\n".join(lines) + f"\n{FENCE}")
    return out


def text_board_messages(
    game: GameRow, state: State, seat: int | None, language: str, now: datetime | None = None
) -> list[str]:
    """The messages answering `/game board text:True` for the person at `seat` (None: not
    playing here) in `language`: a heading, whose turn it is (or how the game ended) with the
    clock of the person to move as it stands at `now` (as the picture and /game status say
    it), the last turn, then the game's own text board."""
    presenter = presenter_for(game.game_name, language)
    texts = texts_for(language)
    view = state.view(seat)
    names = picture_names(game, texts)
    sections = presenter.text_board(view, names)
    if sections is None:
        return [texts("bot.text_board.none", game=find_game(game.game_name).title)]
    head = [texts("bot.text_board.heading", game=find_game(game.game_name).title, number=game.id)]
    if view.get("outcome"):
        head.extend(presenter.outcome(view, names).splitlines())
    else:
        current = view.get("current_seat")
        who = names[current] if current is not None else "?"
        phase = presenter.phase_words(view)
        if "turn" in view:
            head.append(texts("bot.status.turn", number=view["turn"], player=who, phase=phase))
        else:
            head.append(texts("bot.status.to_move", player=who, phase=phase))
        if now is not None and current is not None:
            clock = clock_left_line(game, int(current), now, texts)
            if clock:
                head.append(clock)
    last = view.get("last") or {}
    moves = last.get("actions") or ([last["action"]] if last.get("action") else [])
    if moves and last.get("seat") is not None:
        head.append(
            texts(
                "bot.text_board.last",
                player=names[int(last["seat"])],
                moves="; ".join(presenter.move_words(move) for move in moves),
            )
        )
    return code_blocks([head, *sections])
