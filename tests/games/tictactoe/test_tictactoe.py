"""Tic-tac-toe, the tests' own fourth game: its rules, refusals, saved form, AI levels and
presenter, on their own. The game is registered by the conftest, like any game by its
manifest; tests that go over every registered game check the rest."""

from __future__ import annotations

import io
import json
import random

import pytest
from PIL import Image
from tictactoe import PLUGIN
from tictactoe.ai import best_moves
from tictactoe.rules import CELLS, GAME, Mark, TicTacToeState

from data.texts import ENGLISH, LANGUAGES, catalogue, texts_for
from engine.ai import choose, levels
from engine.errors import ActionSyntaxError, GameError, IllegalActionError
from games import find_game, plugin
from hvbot.messages.presenters import presenter_for

NAMES = ["Ada", "Bruno"]


def played(*cells: str) -> TicTacToeState:
    state = GAME.new_state(2, 7)
    for cell in cells:
        state.apply(f"mark {cell}")
    return state


def test_the_game_is_registered_by_its_manifest() -> None:
    assert plugin("tic-tac-toe") is PLUGIN
    assert find_game("Tic-tac-toe") is GAME and find_game("ttt") is GAME
    assert levels("tic-tac-toe") == ["random", "easy", "normal", "hard"]


@pytest.mark.parametrize(
    ("cells", "winner", "line"),
    [
        (("A1", "A2", "B1", "B2", "C1"), 0, ["A1", "B1", "C1"]),
        (("A1", "B1", "A2", "B2", "C3", "B3"), 1, ["B1", "B2", "B3"]),
        (("A1", "B1", "B2", "C1", "C3"), 0, ["A1", "B2", "C3"]),
        (("A1", "A3", "B1", "B2", "A2", "C1"), 1, ["C1", "B2", "A3"]),
    ],
)
def test_three_in_a_row_wins_at_once(cells: tuple[str, ...], winner: int, line: list[str]) -> None:
    state = played(*cells)
    outcome = state.outcome()
    assert state.is_terminal() and state.current_seat() is None
    assert outcome is not None and outcome.winners == (winner,)
    assert outcome.reason == "three_in_a_row" and sorted(outcome.details["line"]) == sorted(line)
    assert outcome.scores[winner] == 1 and outcome.scores[1 - winner] == 0
    assert state.view(None)["phase"] == "over" and state.legal_actions() == []


def test_a_full_board_without_a_line_is_a_draw_shared_by_both() -> None:
    state = played("A1", "B2", "C3", "B1", "B3", "A3", "C1", "C2", "A2")
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "board_full"
    assert outcome.winners == (0, 1) and outcome.scores == (0, 0)


def test_the_players_take_turns_x_first() -> None:
    state = played()
    assert state.current_seat() == 0 and state.view(1)["players"][0]["mark"] == "X"
    state.apply("B2")  # a bare cell is a mark
    assert state.current_seat() == 1 and state.history == ["mark B2"]
    assert state.targets(1, "mark.cell") == [c for c in CELLS if c != "B2"]
    assert state.targets(0, "mark.cell") == [], "only the seat to move is offered cells"


def check_said_everywhere(error: GameError) -> None:
    """The refusal's key and fields say its English message word for word, and every
    language says it with no field left unfilled."""
    message = str(error)
    if error.key == "engine.core.unreadable":
        # Said without the examples of typed actions: the bot's players use its commands.
        message = message.split(" Examples: ")[0]
    assert error.key and ENGLISH.explain(error) == message
    for language in LANGUAGES:
        said = texts_for(language).explain(error)
        assert said and "{" not in said, (language, said)


def test_a_taken_cell_is_refused_naming_the_free_ones_and_nothing_changes() -> None:
    state = played("B2", "A1")
    before = state.to_dict()
    with pytest.raises(IllegalActionError) as caught:
        state.apply("mark a1")
    assert str(caught.value) == "A1 already holds O: mark a free cell (B1, C1, A2, C2, A3, B3, C3)."
    check_said_everywhere(caught.value)
    assert state.to_dict() == before


@pytest.mark.parametrize(
    ("typed", "reason"),
    [("", "empty"), ("mark", "mark"), ("mark D4", "cell"), ("place B2", "verb"), ("B2 B3", "verb")],
)
def test_text_that_is_not_a_mark_is_refused_with_examples(typed: str, reason: str) -> None:
    with pytest.raises(ActionSyntaxError) as caught:
        GAME.parse_action(typed)
    assert caught.value.fields["why"].key == f"engine.tictactoe.unreadable.{reason}"
    assert "mark B2" in str(caught.value)
    check_said_everywhere(caught.value)


def test_every_refusal_text_of_the_game_is_reached() -> None:
    """Each engine.tictactoe text is a refusal some input gets (the other games' refusal test
    plays only their own games)."""
    found: set[str] = set()
    state = played("B2")
    tries: list[object] = ["", "mark", "mark Z9", "jump", "mark B2", Mark("Z9"), object()]
    for action in tries:
        with pytest.raises(GameError) as caught:
            state.apply(action)
        check_said_everywhere(caught.value)
        found.add(caught.value.key or "")
        why = caught.value.fields.get("why")
        found.add(getattr(why, "key", ""))
    own = {key for key in catalogue("en") if key.startswith("engine.tictactoe.")}
    assert own <= found, sorted(own - found)


def test_the_saved_game_loads_and_a_tampered_one_is_refused() -> None:
    state = played("B2", "A1", "C3")
    saved = json.loads(json.dumps(state.to_dict()))
    assert GAME.state_from_dict(saved) == state
    for key, value in (("board", "X" * 9), ("seat", 0), ("version", 2), ("format", "pylons")):
        with pytest.raises(ValueError):
            GAME.state_from_dict({**saved, key: value})
    copy = state.copy()
    copy.apply("A3")
    assert state.history == ["mark B2", "mark A1", "mark C3"], "a copy is independent"


def test_a_view_hides_nothing_but_the_seed_and_is_the_same_for_every_seat() -> None:
    state = played("B2", "A1")
    views = [state.view(seat) for seat in (None, 0, 1)]
    assert all(dict(v, viewer=None) == views[0] for v in views)
    assert "seed" not in json.dumps(views[0])
    assert GAME.from_view(views[1], random.Random(1)) == GAME.replay(2, 0, state.history)


def _never_loses(level: str, ai_seat: int) -> int:
    """Play every game the opponent can choose against `level` (each of the AI's equally good
    moves followed too); the number of finished games, after checking none was lost.

    Games that reach the same board go on alike (what either side may play and how a game
    ends depend on the board alone), so the games from a board are played once and counted
    again wherever another order of the same moves reaches it; the AI is asked for its move
    on every board where it moves."""
    games_from: dict[tuple[int, ...], int] = {}

    def finished(state: TicTacToeState) -> int:
        board = tuple(state.board)
        if board in games_from:
            return games_from[board]
        if state.is_terminal():
            outcome = state.outcome()
            assert outcome is not None and ai_seat in outcome.winners, state.history
            games_from[board] = 1
            return 1
        seat = state.current_seat()
        if seat == ai_seat:
            cells = [CELLS[c] for c in best_moves(board, seat)]
            chosen = choose(state.view(seat), level=level, seed=len(games_from))
            assert chosen.split()[1] in cells
        else:
            cells = state.free_cells()
        count = 0
        for cell in cells:
            after = state.copy()
            after.apply(f"mark {cell}")
            count += finished(after)
        games_from[board] = count
        return count

    return finished(GAME.new_state(2, 0))


@pytest.mark.parametrize("ai_seat", [0, 1])
def test_the_normal_ai_never_loses(ai_seat: int) -> None:
    assert _never_loses("normal", ai_seat) > 100


def test_the_hard_ai_never_loses_either() -> None:
    assert _never_loses("hard", 1) > 100


def test_the_easy_ai_wins_or_blocks_when_it_sees_a_line() -> None:
    state = played("A1", "B1", "A2")  # X threatens A3; O has nothing yet
    assert choose(state.view(1), level="easy", seed=1) == "mark A3"
    state = played("A1", "B1", "A2", "B2", "C3")  # O completes B3 rather than block
    assert choose(state.view(1), level="easy", seed=1) == "mark B3"


def decode(png: bytes) -> Image.Image:
    picture = Image.open(io.BytesIO(png))
    assert picture.format == "PNG"
    picture.load()
    return picture


def test_the_board_picture_shows_each_mark_and_its_result() -> None:
    presenter = presenter_for("tic-tac-toe")
    empty = decode(presenter.board_png(played().view(None), NAMES))
    one = decode(presenter.board_png(played("B2").view(None), NAMES))
    won = decode(presenter.board_png(played("A1", "A2", "B1", "B2", "C1").view(None), NAMES))
    assert empty.size == one.size == won.size
    centre = (empty.width // 2, empty.height - empty.width // 2)
    assert empty.getpixel(centre) != one.getpixel(centre), "the X in B2 is drawn"
    assert one.tobytes() != won.tobytes()


def test_the_presenter_says_moves_scores_and_the_result_in_words() -> None:
    presenter = presenter_for("tic-tac-toe")
    state = played("A1", "A2", "B1", "B2", "C1")
    view = state.view(None)
    assert presenter.describe(["mark C1"], view, "Ada") == [
        "Ada put X on C1.",
        "Three in a row: A1-B1-C1.",
    ]
    assert presenter.move_words("mark C1") == "marked C1"
    assert presenter.scores(view, NAMES) == "Marks: Ada (X) 3 · Bruno (O) 2 · 4 cells free"
    assert presenter.outcome(view, NAMES) == "Game over: three marks in a row.\n**Ada wins!**"
    assert presenter.phase_words(view) == "game over"
    assert presenter.secret_words() == "your mark"
    assert "`/ttt mark`" in presenter.rules
    italian = presenter_for("tic-tac-toe", "it")
    assert italian.outcome(view, NAMES).startswith("Partita finita: tre segni in fila.")
    assert "tabellone" in italian.rules
