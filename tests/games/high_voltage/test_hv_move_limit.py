"""The move limit, a house rule: a game of rotations that the rulebook would let run for ever
ends after `MAX_MOVES` moves, scored as at any other end, and its outcome says why."""

from __future__ import annotations

import re

import pytest
from hv_positions import GAME

from engine import IllegalActionError
from games.high_voltage.rules.state import END_LIMIT, MAX_MOVES, HighVoltageState
from hvbot.messages.presenters import presenter_for

LANGUAGES = ("en", "it", "fr", "de")


def a_rotation(state: HighVoltageState) -> str:
    """The first legal rotation of a face-up card: what two players turning cards back and
    forth would play, never drawing, moving or swapping."""
    for cell, card in enumerate(state.grid):
        if card < 0 or not state.card_up[card] or state._is_danger(card):
            continue
        for target in state.cards.legal_turns[card][state.rot[card]]:
            return f"rotate {state.geo.names[cell]} r{target * 90}"
    raise AssertionError("no card can be turned")


def rotate_until_the_end(state: HighVoltageState) -> None:
    """Rotations only, declaring nothing, until a rule ends the game."""
    while not state.is_terminal():
        state.apply("declare none" if state.phase == "declaring" else a_rotation(state))


@pytest.fixture(scope="module")
def ended() -> HighVoltageState:
    state = GAME.new_state(2, 7)
    rotate_until_the_end(state)
    return state


def test_a_game_of_rotations_ends_at_the_move_limit(ended: HighVoltageState) -> None:
    assert ended.is_terminal() and ended.phase == "over"
    # The limit is checked once an action is finished: a rotation that closed a line ends
    # the game after its "declare none", one move later.
    assert MAX_MOVES <= len(ended.history) <= MAX_MOVES + 1
    assert ended.face_down > 0  # the rulebook's ends were nowhere near
    outcome = ended.outcome()
    assert outcome is not None and outcome.reason == END_LIMIT == "move_limit"
    # Scored by the rules' normal scoring: company points plus point tokens, best wins.
    assert list(outcome.scores) == ended.final_scores()
    best = max(outcome.scores)
    assert outcome.winners == tuple(s for s, v in enumerate(outcome.scores) if v == best)
    assert ended.current_seat() is None and ended.legal_actions() == []
    with pytest.raises(IllegalActionError, match="The game is over"):
        ended.apply(a_rotation(ended))


def test_one_move_before_the_limit_the_game_goes_on() -> None:
    state = GAME.new_state(2, 7)
    while len(state.history) < MAX_MOVES - 1:
        state.apply("declare none" if state.phase == "declaring" else a_rotation(state))
    assert not state.is_terminal()


def test_the_limit_survives_saving_replaying_and_views(ended: HighVoltageState) -> None:
    assert HighVoltageState.from_dict(ended.to_dict()) == ended
    replayed = GAME.replay(2, 7, ended.history)
    assert replayed == ended and replayed.outcome() == ended.outcome()
    assert ended.view(None)["outcome"]["reason"] == "move_limit"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_outcome_names_the_limit_in_every_language(
    ended: HighVoltageState, language: str
) -> None:
    presenter = presenter_for("high-voltage", language)
    said = presenter.outcome(ended.view(None), ["Ada", "Bo"])
    reason = presenter.word("high_voltage.end_reasons", "move_limit")
    assert reason != "move_limit" and reason in said  # a sentence, not the data name
    digits = re.sub(r"\D", "", reason)
    assert digits == str(MAX_MOVES)
    picture = presenter.texts("picture.hv.end.reason_move_limit")
    assert re.sub(r"\D", "", picture) == str(MAX_MOVES)
    rules = presenter.rules
    assert f"{MAX_MOVES:,}".replace(",", "") in re.sub(r"[,. \u00a0]", "", rules)
