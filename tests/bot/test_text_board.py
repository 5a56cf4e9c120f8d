"""`/game board text:True`: each game's position as text (`hvbot.messages.text_board`).

Games are played with fixed seeds through the engine, to their last positions: each message
fits Discord's 2,000 characters as one balanced code block, the board's rows are never cut,
the words are the reader's language, and the text says nothing its reader may not know: it is
the same when everything hidden from the reader is dealt again (`State.redeal`), and holds
neither the deal's seed nor another seat's secret.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from engine.core import State
from games import find_game
from games.high_voltage.rules import textboard as hv_textboard
from games.pylons.rules import textboard as pylons_textboard
from hvbot.messages.limits import CONTENT
from hvbot.messages.text_board import FENCE, code_blocks, text_board_messages
from hvbot.store import GameRow, SeatRow

# Long names, one with a backtick (which would end a code block) and one at Discord's 32.
NAMES = ["Annabelle-Sophie`s", "Bartholomew Fitzgerald-Wellingt", "Chiara", "Dieter"]
# (game, seats, seed): the most seats each game takes, where its text is longest.
SEED = 86_753_091_234  # long enough that its digits cannot turn up in a cell or a count
PLAYED = [("high-voltage", 4, SEED), ("pylons", 2, SEED), ("sector6", 4, SEED)]


@cache
def played(game: str, seats: int, seed: int) -> tuple[State, ...]:
    """Every position of a random game from a fixed seed, the deal first."""
    rules = find_game(game)
    state = rules.new_state(seats, seed, {})
    rng = random.Random(seed)
    states = [state.copy()]
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
        states.append(state.copy())
    return tuple(states)


def late(game: str, seats: int, seed: int) -> list[State]:
    """Positions late in the game: the last tenth before its end, and the end."""
    states = played(game, seats, seed)
    return [*states[len(states) * 9 // 10 :: max(1, len(states) // 40)], states[-1]]


def row(game: str, seats: int) -> GameRow:
    return GameRow(
        id=4207,
        game_name=game,
        guild_id=1,
        channel_id=2,
        creator_id=100,
        status="active",
        seed=None,
        options={},
        state_json=None,
        version=1,
        lobby_message_id=None,
        seats=tuple(SeatRow(s, 100 + s, None, NAMES[s]) for s in range(seats)),
    )


def assert_fits(messages: list[str]) -> None:
    assert messages, "no message"
    for message in messages:
        assert len(message) <= CONTENT, f"{len(message)} characters"
        assert message.startswith(FENCE + "\n") and message.endswith("\n" + FENCE), message
        assert message.count(FENCE) == 2, "a code block opened or closed inside the text"
        assert message[len(FENCE) + 1 : -len(FENCE) - 1].strip(), "an empty code block"


def lines_of(messages: list[str]) -> list[str]:
    return [line for m in messages for line in m.split("\n") if line != FENCE]


@pytest.mark.parametrize(("game", "seats", "seed"), PLAYED)
def test_every_late_position_fits_discord(game, seats, seed):
    """Each message under 2,000 characters, one code block each, for every reader."""
    longest = 0
    for state in late(game, seats, seed):
        for seat in (None, *range(seats)):
            messages = text_board_messages(row(game, seats), state, seat, "en")
            assert_fits(messages)
            longest = max(longest, sum(map(len, messages)))
    assert longest > 1500, "the late positions are the large ones"


def test_the_whole_of_a_sector6_game_fits():
    """Sector 6's maze grows all game: every position of a four-player game fits."""
    for state in played("sector6", 4, SEED)[::5]:
        assert_fits(text_board_messages(row("sector6", 4), state, None, "fr"))


@pytest.mark.parametrize(("game", "seats", "seed"), PLAYED[:2])
def test_board_rows_are_never_cut(game, seats, seed):
    """The grid arrives whole: each of its rows is one line of one message."""
    draw = {
        "high-voltage": hv_textboard.board_lines,
        "pylons": pylons_textboard.compact_board_lines,
    }[game]
    state = played(game, seats, seed)[-2]
    messages = text_board_messages(row(game, seats), state, None, "en")
    lines = lines_of(messages)
    grid = [line.rstrip() for line in draw(state.view(None))]
    start = lines.index(grid[0])
    assert lines[start : start + len(grid)] == grid
    within = next(m for m in messages if grid[0] in m.split("\n")).split("\n")
    assert grid[-1] in within, "the grid is in one message"


def test_pylons_is_narrow_enough_for_a_phone():
    """The Pylons grid, 24 columns, fits a phone held upright (about 40 characters)."""
    state = played("pylons", 2, SEED)[-1]
    grid = pylons_textboard.compact_board_lines(state.view(None))
    assert len(grid) == 24 + 4
    assert max(map(len, grid)) <= 34
    for seat, cells in enumerate(pylons_textboard.pylons_by_seat(state.view(None))):
        assert len(cells) == state.view(None)["players"][seat]["pylons"]


def test_sector6_lists_every_piece_with_its_open_sides():
    state = played("sector6", 4, SEED)[-1]
    view = state.view(None)
    lines = lines_of(text_board_messages(row("sector6", 4), state, None, "en"))
    for tile in view["tiles"]:
        (line,) = [x for x in lines if x.split(":")[0].rstrip("*") == tile["cell"]]
        assert len(line) <= 50 + 2 * 32, "a few words besides the names (32 at most)"
        opened = [s for s in ("N", "NE", "SE", "S", "SW", "NW") if s not in tile["walls"]]
        if tile["kind"] == "entry":
            assert "entry point of" in line
        else:
            assert f"open {', '.join(opened)}" in line
        if tile["prisoner"] is not None:
            name = NAMES[tile["prisoner"]].replace("`", "'")  # a backtick would end the block
            assert f"prisoner of {name}" in line


@pytest.mark.parametrize(
    ("game", "seats", "words"),
    [
        ("high-voltage", 4, ("das Spielfeld als Text", "Gesellschaft", "Kraftwerke", "ist dran")),
        ("pylons", 2, ("das Spielfeld als Text", "Strommasten von", "Sumpf", "Zeilen 1 und 24")),
        ("sector6", 4, ("das Spielfeld als Text", "Labyrinth", "offen nach", "Gefangener von")),
    ],
)
def test_labels_are_in_the_readers_language(game, seats, words):
    states = played(game, seats, SEED)
    state = states[len(states) * 9 // 10]
    german = "\n".join(text_board_messages(row(game, seats), state, 0, "de"))
    for word in words:
        assert word in german
    for english in ("the board as text", "to move", "Last turn", "pylons of", "open all"):
        assert english not in german
    french = "\n".join(text_board_messages(row(game, seats), state, None, "fr"))
    assert "le plateau en texte" in french and "Dernier tour" in french


@pytest.mark.parametrize(("game", "seats", "seed"), PLAYED)
def test_the_text_says_nothing_its_reader_may_not_know(game, seats, seed):
    """Dealing again everything hidden from the reader changes nothing in their text; no
    text carries the deal's seed; spectators never read a company or a drawn card."""
    states = played(game, seats, seed)
    rng = random.Random(seed)
    # Positions spread over the game, and every one where a card or tile is held drawn.
    picked = list(states[:: max(1, len(states) // 12)])
    picked += [s for s in states if s.view(None).get("drawn")][:6]
    assert picked
    for state in picked:
        for seat in (None, *range(seats)):
            text = "\n".join(text_board_messages(row(game, seats), state, seat, "en"))
            assert str(state.seed) not in text
            for _ in range(2):
                other = state.redeal(seat, rng)
                again = "\n".join(text_board_messages(row(game, seats), other, seat, "en"))
                assert again == text, f"seat {seat} reads what is hidden from it"
            if game == "high-voltage" and not state.is_terminal():
                mine = "Your company" in text
                assert mine is (seat is not None), text
                assert ("The card you drew" in text) is (
                    seat is not None
                    and (state.view(seat).get("drawn") or {}).get("paths") is not None
                )
            if game == "sector6":
                drawn = state.view(seat).get("drawn") or {}
                assert ("Your drawn tile" in text) is ("walls" in drawn)
                if seat is None:
                    assert "Your drawn tile" not in text


def test_a_drawn_card_is_shown_to_its_drawer_alone():
    """At least one High Voltage position has a card held drawn, shown to its drawer."""
    states = played("high-voltage", 4, SEED)
    holding = [s for s in states if s.view(None)["phase"] == "placing"]
    assert holding
    state = holding[0]
    drawer = state.current_seat()
    game = row("high-voltage", 4)
    assert "The card you drew" in "\n".join(text_board_messages(game, state, drawer, "en"))
    for seat in (None, *(s for s in range(4) if s != drawer)):
        assert "The card you drew" not in "\n".join(text_board_messages(game, state, seat, "en"))


def test_code_blocks_keep_sections_whole_and_cut_only_between_lines():
    small = [f"row {i:02d}" for i in range(10)]  # 10 lines of 6 characters
    big = [f"line {i:03d} " + "x" * 20 for i in range(30)]  # longer than one message
    messages = code_blocks([["heading"], small, big, ["end"]], limit=200)
    for message in messages:
        assert len(message) <= 200 and message.count(FENCE) == 2
    lines = lines_of(messages)
    assert [x for x in lines if x] == ["heading", *small, *big, "end"], "nothing lost or cut"
    holding = [m for m in messages if "row 00" in m]
    assert len(holding) == 1 and "row 09" in holding[0], "a section that fits stays whole"
    assert code_blocks([["a `tick` and **bold**"]]) == ["```\na 'tick' and bold\n```"]


def test_a_game_without_a_text_board_says_so():
    """A game whose presenter has no text board (the tests' tic-tac-toe) says where its
    picture is, in the reader's language, rather than sending an empty block."""
    state = find_game("tictactoe").new_state(2, SEED, {})
    (english,) = text_board_messages(row("tictactoe", 2), state, None, "en")
    assert english.startswith("Tic-tac-toe has no text board")
    (italian,) = text_board_messages(row("tictactoe", 2), state, None, "it")
    assert "non ha un tabellone come testo" in italian
