"""The terminal picture of Pylons: every cell where it belongs, marks that say what is there."""

from __future__ import annotations

from games.pylons.rules import GAME
from games.pylons.rules.textboard import board_lines, prompt_lines, status_lines, text_board


def cell_text(lines: list[str], name: str) -> str:
    """The three characters drawn for a cell, found through the header's column letters."""
    header = lines[0]
    column = header.index(f" {name[0]} ") + 1
    row = int(name[1:])
    line = next(line for line in lines[1:] if line[:4].strip() == str(row))
    return line[column - 1 : column + 2]


def test_pylons_links_swamps_and_the_last_move_are_marked():
    state = GAME.new_state(2, 31)
    state.apply("keep")
    for cell in ("K12", "L14", "M13", "D3"):
        state.apply(f"place {cell}")
    view = state.view(0)
    lines = board_lines(view)
    assert cell_text(lines, "K12") == " O "  # linked to M13
    assert cell_text(lines, "M13") == " O "
    assert cell_text(lines, "L14") == " x "  # red, not linked
    assert cell_text(lines, "D3") == "[x]"  # the last pylon
    assert cell_text(lines, "T20") == " . "
    assert cell_text(lines, "A1") == "   "
    swamp = view["swamp_cells"][0]
    assert cell_text(lines, swamp) == " ~ "
    assert len(lines) == 1 + 24 + 2 + 1


def test_status_says_who_moves_and_how_the_game_ended():
    state = GAME.new_state(2, 31)
    assert "keep" in status_lines(state.view(0))[-1]
    assert prompt_lines(state.view(0)) == ["Type keep or mirror."]
    state.apply("mirror")
    assert status_lines(state.view(0))[-1] == "Player 2 to place a pylon."
    text = text_board(state.view(0))
    assert "Last: player 1 mirror" in text
