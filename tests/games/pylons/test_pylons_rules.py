"""Pylons rules on hand-built positions: links and crossings, borders, corners and swamps,
the board choice, scores, the connection win, the pylon limit and the saved game."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import ActionSyntaxError, IllegalActionError
from games import find_game
from games.pylons.rules import GAME, Keep, Mirror, Place, PylonsState, parse_action
from games.pylons.rules.board import (
    CELL_INDEX,
    CELLS,
    CROSSES,
    LINK_A,
    LINK_B,
    LINKS,
    NAMES,
    SWAMP_MAX,
    SWAMP_MIN,
    USABLE,
    cell_of,
    link_between,
    segments_cross,
)
from games.pylons.rules.state import END_CONNECTED, END_LIMIT, END_STUCK, MAX_PYLONS

ROOT = Path(__file__).resolve().parents[3]


def name(i: int, j: int) -> str:
    return NAMES[cell_of(i, j)]


def open_game(seed: int = 1) -> PylonsState:
    """A game without swamps: no choice, player 1 (seat 0) places first."""
    return GAME.new_state(2, seed, {"swamps": "off"})


def play(state: PylonsState, *cells: str) -> PylonsState:
    for cell in cells:
        state.apply(f"place {cell}")
    return state


def links_of(state: PylonsState) -> set[frozenset[str]]:
    return {frozenset(link["cells"]) for link in state.view(None)["links"]}


# ---------------------------------------------------------------------- registry and actions


@pytest.mark.parametrize("alias", ["pylons", "Pylons", "twixt", " PYLONS "])
def test_pylons_is_registered_under_its_aliases(alias):
    assert find_game(alias) is GAME


def test_pylons_is_for_two_players_only():
    for seats in (1, 3, 4):
        with pytest.raises(ValueError, match="for 2-2 players"):
            GAME.new_state(seats, 1)


def test_the_swamps_option_takes_on_or_off():
    assert GAME.new_state(2, 1).phase == "choose"
    assert GAME.new_state(2, 1, {"swamps": "off"}).phase == "play"
    with pytest.raises(ValueError, match="must be one of on, off"):
        GAME.new_state(2, 1, {"swamps": "maybe"})


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("place K12", Place("K12")),
        ("  PLACE   k12 ", Place("K12")),
        ("k12", Place("K12")),
        ("place A1", Place("A1")),
        ("place X24", Place("X24")),
        ("keep", Keep()),
        ("Mirror", Mirror()),
    ],
)
def test_actions_parse_and_round_trip(text, action):
    parsed = parse_action(text)
    assert parsed == action
    assert parse_action(parsed.text()) == parsed


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("", "empty"),
        ("place Y3", "A1 to X24"),
        ("place A25", "A1 to X24"),
        ("place A0", "A1 to X24"),
        ("place", "one cell"),
        ("place K12 K13", "one cell"),
        ("jump K12", "not an action"),
        ("keep K12", "nothing after"),
    ],
)
def test_unreadable_text_is_a_syntax_error_with_examples(text, hint):
    with pytest.raises(ActionSyntaxError, match=hint) as caught:
        parse_action(text)
    assert "place K12" in str(caught.value)


# ---------------------------------------------------------------------- geometry


def test_every_link_crosses_at_most_nine_others_and_crossing_is_symmetric():
    assert max(len(c) for c in CROSSES) == 9
    for link in range(LINKS):
        for other in CROSSES[link]:
            assert link in CROSSES[other]
            assert not {LINK_A[link], LINK_B[link]} & {LINK_A[other], LINK_B[other]}


def test_links_sharing_an_end_never_cross():
    centre = CELL_INDEX["K12"]
    spokes = [link_between(centre, CELL_INDEX[n]) for n in ("L14", "M13", "M11", "L10")]
    for a in spokes:
        for b in spokes:
            assert b not in CROSSES[a]
    assert not segments_cross((0, 0), (1, 2), (1, 2), (2, 4))  # one line, a shared end


# ---------------------------------------------------------------------- placing


def test_player_1_may_not_build_on_player_2s_border():
    state = open_game()
    with pytest.raises(IllegalActionError, match="north and south borders") as caught:
        state.apply("place K1")
    message = str(caught.value)
    assert "only player 2 (red)" in message and "place J2" in message
    assert state.history == [] and state.current_seat() == 0


def test_player_2_may_not_build_on_player_1s_border():
    state = play(open_game(), "K12")
    with pytest.raises(IllegalActionError, match="west and east borders") as caught:
        state.apply("place X7")
    assert "only player 1 (blue)" in str(caught.value)
    play(state, "K1")  # its own border is fine
    play(state, "X7")  # and player 1 builds on X
    assert [p["cell"] for p in state.view(None)["pylons"]] == ["K12", "K1", "X7"]


@pytest.mark.parametrize("corner", ["A1", "X1", "A24", "X24"])
def test_corners_are_refused_for_both_players(corner):
    state = open_game()
    for _ in range(2):
        with pytest.raises(IllegalActionError, match="corner"):
            state.apply(f"place {corner}")
        play(state, "K12" if state.current_seat() == 0 else "M12")


def test_a_taken_cell_is_refused_with_a_free_one_nearby():
    state = play(open_game(), "K12")
    with pytest.raises(IllegalActionError, match=r"K12 has a pylon already \(player 1"):
        state.apply("place K12")
    play(state, "L12")
    with pytest.raises(IllegalActionError, match="yours"):
        state.apply("K12")


def test_swamps_are_refused():
    state = GAME.new_state(2, 4)
    state.apply("keep")
    swamp = state.view(None)["swamp_cells"][0]
    with pytest.raises(IllegalActionError, match=f"{swamp} is swamp") as caught:
        state.apply(f"place {swamp}")
    assert "A free cell near it: place" in str(caught.value)


def test_swamps_are_dealt_inside_the_board_in_the_four_sizes():
    for seed in range(200):
        view = GAME.new_state(2, seed).view(None)
        assert sorted(s["size"] for s in view["swamps"]) == [1, 2, 2, 3]
        for cell in view["swamp_cells"]:
            i, j = ord(cell[0]) - 65, int(cell[1:]) - 1
            assert SWAMP_MIN <= i <= SWAMP_MAX and SWAMP_MIN <= j <= SWAMP_MAX
        assert 1 + 4 <= len(view["swamp_cells"]) <= 1 + 4 + 4 + 9


def test_the_same_seed_deals_the_same_swamps():
    assert GAME.new_state(2, 9).view(None) == GAME.new_state(2, 9).view(None)
    layouts = {tuple(GAME.new_state(2, s).view(None)["swamp_cells"]) for s in range(20)}
    assert len(layouts) > 15


# ---------------------------------------------------------------------- the board choice


def test_keep_lets_player_1_move_first_on_the_dealt_board():
    state = GAME.new_state(2, 7)
    dealt = state.view(None)["swamp_cells"]
    assert state.current_seat() == 0 and state.legal_actions() == [Keep(), Mirror()]
    state.apply("keep")
    view = state.view(None)
    assert view["swamp_cells"] == dealt and view["mirrored"] is False
    assert state.current_seat() == 0 and view["first_seat"] == 0


def test_mirror_reflects_the_swamps_and_player_2_moves_first():
    state = GAME.new_state(2, 7)
    dealt = state.view(None)["swamp_cells"]
    state.apply("mirror")
    view = state.view(None)
    mirrored = sorted(name(int(c[1:]) - 1, ord(c[0]) - 65) for c in dealt)
    assert sorted(view["swamp_cells"]) == mirrored and mirrored != sorted(dealt)
    assert state.current_seat() == 1 and view["first_seat"] == 1 and view["mirrored"] is True
    assert state.history == ["mirror"]
    with pytest.raises(IllegalActionError, match="swamp"):
        state.apply(f"place {view['swamp_cells'][0]}")


def test_a_pylon_before_the_choice_is_refused():
    state = GAME.new_state(2, 7)
    with pytest.raises(IllegalActionError, match=r"keep .* or mirror"):
        state.apply("place K12")
    assert state.phase == "choose"


def test_the_choice_is_made_once_and_not_at_all_without_swamps():
    state = GAME.new_state(2, 7)
    state.apply("keep")
    with pytest.raises(IllegalActionError, match="kept the board already"):
        state.apply("mirror")
    with pytest.raises(IllegalActionError, match="no swamps"):
        open_game().apply("keep")


# ---------------------------------------------------------------------- links


def test_own_pylons_a_knight_apart_are_linked():
    state = play(open_game(), "C3", "P20", "D5")
    assert links_of(state) == {frozenset({"C3", "D5"})}
    assert state.view(None)["last"]["links"] == [["C3", "D5"]]


def test_a_link_crossing_the_opponents_link_is_not_made():
    # Blue links C3-D5; red's D3-C5 would cross it in the middle.
    state = play(open_game(), "C3", "D3", "D5", "C5")
    assert links_of(state) == {frozenset({"C3", "D5"})}
    last = state.view(None)["last"]
    assert last["links"] == [] and last["blocked"] == [["D3", "C5"]]
    assert state.scores == [1, 0]


def test_a_link_crossing_an_own_link_is_not_made():
    state = play(open_game(), "C3", "P20", "D5", "R20", "D3", "T20", "C5")
    assert frozenset({"D3", "C5"}) not in links_of(state)
    assert state.view(None)["last"]["blocked"] == [["D3", "C5"]]


def test_a_blocked_link_stays_unmade_even_once_its_pylons_have_other_links():
    state = play(open_game(), "C3", "D3", "D5", "C5", "P10", "B7")  # B7 links to C5
    assert frozenset({"B7", "C5"}) in links_of(state)
    assert frozenset({"D3", "C5"}) not in links_of(state)


def test_links_that_only_share_a_pylon_are_made():
    # E3-D5 and C3-D5 meet at D5 only.
    state = play(open_game(), "C3", "P20", "D5", "R20", "E3")
    assert links_of(state) == {frozenset({"C3", "D5"}), frozenset({"E3", "D5"})}


def test_a_pylon_links_to_all_eight_knight_neighbours_at_once():
    around = ["L14", "M13", "M11", "L10", "J10", "I11", "I13", "J14"]
    red = ["B2", "D2", "F2", "H2", "B22", "D22", "F22", "H22", "T22"]
    state = open_game()
    for blue, filler in zip([*around, "K12"], red, strict=True):
        play(state, blue, filler)
    made = [link for link in state.view(None)["links"] if "K12" in link["cells"]]
    assert len(made) == 8
    assert state.scores[0] == 4  # I..M


def test_links_follow_the_rules_for_player_2_too():
    state = play(open_game(), "B2", "K10", "C20", "L12")
    assert links_of(state) == {frozenset({"K10", "L12"})}
    assert state.scores == [0, 2]  # red scores along rows


# ---------------------------------------------------------------------- scores and the end


def test_the_score_is_the_largest_span_of_one_network_not_a_sum():
    blue = ["C6", "E7", "G6", "I7", "M16", "O17", "P19"]  # spans C-I (6) and M-P (3)
    red = ["B22", "D22", "F22", "H22", "J22", "L22", "N22"]
    state = open_game()
    for b, r in zip(blue, red, strict=True):
        play(state, b, r)
    assert state.scores == [6, 0]
    assert state.view(None)["players"][0]["score"] == 6


def winning_chain() -> list[str]:
    cells = [(0, 10), (2, 11), (4, 10), (6, 11), (8, 10), (10, 11), (12, 10), (14, 11)]
    cells += [(16, 10), (18, 11), (20, 10), (22, 11), (23, 13)]
    return [name(i, j) for i, j in cells]


def test_linking_both_borders_wins_at_once():
    chain = winning_chain()
    red = [name(i, 20) for i in range(1, 13)]
    state = open_game()
    for b, r in zip(chain[:-1], red, strict=True):
        play(state, b, r)
    assert not state.is_terminal() and state.scores[0] == 22
    play(state, chain[-1])
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == END_CONNECTED
    assert outcome.winners == (0,) and outcome.scores == (23, 0)
    assert sorted(outcome.details["network"]) == sorted(chain)
    assert state.current_seat() is None and state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        state.apply("place K14")


def test_player_2_wins_by_linking_north_and_south():
    chain = [name(10 + (k % 2), 2 * k) for k in range(12)] + [name(13, 23)]
    blue = [name(1, j) for j in range(3, 22, 2)] + [name(3, 3), name(3, 5), name(3, 7)]
    state = open_game()
    for b, r in zip(blue, chain, strict=True):
        play(state, b, r)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,) and outcome.reason == END_CONNECTED


def unlinked_cells(seat: int) -> list[str]:
    """Cells of one chessboard colour a seat may use: a knight always changes colour, so
    pylons placed only here never link."""
    cells = []
    for j in range(24):
        for i in range(24):
            if (i + j) % 2 or (i in (0, 23) and j in (0, 23)):
                continue
            if (seat == 0 and j in (0, 23)) or (seat == 1 and i in (0, 23)):
                continue
            cells.append(name(i, j))
    return cells


def test_after_200_pylons_equal_scores_are_a_draw():
    blue = unlinked_cells(0)
    red = [c for c in unlinked_cells(1) if c not in blue[:100]]
    state = open_game()
    for k in range(100):
        assert not state.is_terminal()
        play(state, blue[k], red[-1 - k])
    assert len(state.order) == MAX_PYLONS
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == END_LIMIT
    assert outcome.scores == (0, 0) and outcome.winners == (0, 1) and outcome.details["draw"]


def test_after_200_pylons_the_higher_score_wins():
    blue = unlinked_cells(0)[:99]
    odd = [name(i, j) for j in range(1, 23) for i in range(1, 23) if (i + j) % 2]
    extra = next(
        c for c in odd if any(link_between(CELL_INDEX[c], CELL_INDEX[b]) for b in blue)
    )  # the first odd cell a knight away from one of blue's pylons
    red = [c for c in unlinked_cells(1) if c not in blue]
    state = open_game()
    for k in range(99):
        play(state, blue[k], red[-1 - k])
    assert state.scores == [0, 0]
    play(state, extra, red[-100])
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == END_LIMIT
    assert outcome.scores[0] > 0 == outcome.scores[1]
    assert outcome.winners == (0,) and not outcome.details["draw"]


def test_a_player_without_a_legal_cell_is_skipped_and_it_shows_in_the_view():
    """Cannot happen within 200 pylons on a real board, so swamp is laid by hand over every
    cell but the ones the test plays, and the legal cells are recounted."""
    state = play(open_game(), "K12", "M12")
    for c in state.free_cells(1):
        state.swamp[c] = c != CELL_INDEX["K14"]
    state._count_free()
    assert state.free_cells(1) == [CELL_INDEX["K14"]]
    play(state, "K14")
    assert state.current_seat() == 0
    view = state.view(None)
    assert view["skipped"] == [{"seat": 1, "after": 3}]
    assert view["history"] == ["place K12", "place M12", "place K14"]
    for c in state.free_cells(0):
        state.swamp[c] = c != CELL_INDEX["A9"]
    state._count_free()
    assert [a.text() for a in state.legal_actions()] == ["place A9"]  # then none at all
    state.apply(state.legal_actions()[0])
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == END_STUCK


# ---------------------------------------------------------------------- views and saves


VIEW_KEYS = {
    "game", "view_version", "viewer", "seats", "size", "options", "phase", "current_seat",
    "prompt", "move", "mirrored", "first_seat", "swamps", "swamp_cells", "players", "scores",
    "pylons", "links", "max_pylons", "pylons_left", "last", "skipped", "history", "outcome",
}  # fmt: skip


def test_the_view_has_everything_but_the_seed_and_is_the_same_for_every_seat():
    state = GAME.new_state(2, 31)
    state.apply("keep")
    play(state, "K12", "L14", "M13")
    views = [state.view(seat) for seat in (None, 0, 1)]
    assert set(views[0]) == VIEW_KEYS
    assert "seed" not in json.dumps(views[0])
    for view in views[1:]:
        assert {**view, "viewer": None} == views[0]
    assert views[0]["players"][0] == {
        "seat": 0, "colour": "blue", "direction": "horizontal", "borders": ["A", "X"],
        "score": 2, "pylons": 2,
    }  # fmt: skip
    assert views[0]["links"] == [{"cells": ["K12", "M13"], "seat": 0}]
    with pytest.raises(ValueError, match="No seat"):
        state.view(2)


def test_a_save_round_trips_and_replays():
    state = GAME.new_state(2, 5)
    state.apply("mirror")
    play(state, "K12", "L14", "M13", "J9")
    data = json.loads(json.dumps(state.to_dict()))
    assert GAME.state_from_dict(data) == state
    assert GAME.replay(2, 5, state.history) == state


def test_a_save_loads_without_reading_its_placements_words(monkeypatch):
    """Every saved game is replayed when it is loaded (each turn the bot plays): the
    placements in its history are the placements' own texts, taken as they are."""
    state = GAME.new_state(2, 41)
    rng = random.Random(41)
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
    data = json.loads(json.dumps(state.to_dict()))
    read: list[str] = []

    def counted(text: str):
        read.append(text)
        return parse_action(text)

    monkeypatch.setattr(GAME, "parse_action", counted)
    assert GAME.state_from_dict(data) == state
    assert read == [data["history"][0]], "only the board choice is read"
    assert read[0] in ("keep", "mirror")
    with pytest.raises(IllegalActionError):  # a placement's text on a taken cell
        PylonsState.from_dict(data).apply(data["history"][-1])


@pytest.mark.parametrize("choice", [None, "keep", "mirror"])
def test_the_legal_cells_are_the_usable_cells_free_of_swamps_and_pylons(choice):
    state = GAME.new_state(2, 12, {"swamps": "on" if choice else "off"})
    if choice:
        state.apply(choice)
    play(state, "K12", "L14")
    for seat in (0, 1):
        expected = [
            c for c in range(CELLS) if USABLE[seat][c] and not state.swamp[c] and not state.owner[c]
        ]
        assert state.free_cells(seat) == expected
        assert state.moves[seat] == [Place(NAMES[c]) for c in expected]
    assert sum(state.swamp) > 0 if choice else not any(state.swamp)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=99), "version 99"),
        (lambda d: d.update(format="chess"), "Not a Pylons state"),
        (lambda d: d["pylons"].pop(), "disagrees with its history on 'pylons'"),
        (lambda d: d.update(scores=[9, 9]), "disagrees"),
        (lambda d: d["history"].append("place B5"), "does not replay"),
        (lambda d: d.pop("links"), "incomplete"),
        (
            lambda d: d.update(dealt_swamps=[[0, 0, 3], [5, 5, 2], [9, 9, 2], [12, 12, 1]]),
            "allowed area",
        ),
    ],
)
def test_a_damaged_save_is_refused(change, message):
    state = GAME.new_state(2, 5)
    state.apply("keep")
    play(state, "B5", "E2")  # column B and row 2 are never swamp
    data = json.loads(json.dumps(state.to_dict()))
    change(data)
    with pytest.raises(ValueError, match=message):
        PylonsState.from_dict(data)


def test_an_illegal_action_changes_nothing():
    state = play(open_game(), "C3", "D3", "D5")
    before = state.to_dict()
    for text in ("place D5", "place A1", "place A7", "keep"):
        with pytest.raises(IllegalActionError):
            state.apply(text)
    assert state.to_dict() == before


def test_simulate_on_the_command_line_plays_pylons():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "games", "simulate", "--game", "pylons", "--games", "5",
         "--seed", "1"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.splitlines()[-1])
    assert summary["game"] == "pylons" and summary["players"] == 2 and summary["failures"] == 0


def test_every_link_on_a_finished_random_board_is_between_own_pylons_a_knight_apart():
    state = GAME.new_state(2, 77)
    rng = random.Random(77)
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
    for link in state.links:
        a, b = LINK_A[link], LINK_B[link]
        assert state.owner[a] == state.owner[b] == state.link_on[link]
