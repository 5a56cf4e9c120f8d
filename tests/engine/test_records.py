"""Game records for every registered game (`engine.records`): a record replays to its game's
result and, mid-game, to the position its reader sees; what never became public can be
filled in any way without changing that; and a record that is not one is refused."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.core import Game, State
from engine.records import RecordError, make_record, read_record, record_json, replay_record
from games import all_games, find_game
from games.cli import seat_rng
from games.high_voltage.rules.position import EMPTY


def played(game: Game, seed: int, moves: int | None = None) -> State:
    state = game.new_state(game.max_seats, seed)
    rng = seat_rng(seed)
    while not state.is_terminal() and (moves is None or len(state.history) < moves):
        state.apply(state.sample_action(rng))
    return state


def record_of(state: State, seat: int | None = None) -> dict:
    players = [{"seat": s, "name": f"P{s}", "ai": None} for s in range(state.seats)]
    return read_record(record_json(make_record(state, players=players, known_to=seat)))


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_every_game_s_record_replays_to_its_result(game: Game) -> None:
    for seed in range(3):
        state = played(game, seed)
        replayed = replay_record(record_of(state))
        assert replayed.outcome == state.outcome()
        assert replayed.view() == state.view(None)


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_a_record_mid_game_replays_to_what_its_reader_sees(game: Game) -> None:
    for seed in range(4):
        state = played(game, seed, moves=3 + 13 * seed)
        if state.is_terminal():
            continue  # a short game (tic-tac-toe) may be over already
        for seat in (None, *range(state.seats)):
            replayed = replay_record(record_of(state, seat))
            assert replayed.state.view(seat) == state.view(seat)
            assert not replayed.state.is_terminal()


def test_high_voltage_cards_never_shown_change_nothing_however_they_lie() -> None:
    """The claim the records rest on: cards never drawn may be any of the unseen ones."""
    game = find_game("high-voltage")
    for seed in range(6):
        state = played(game, seed)
        record = record_of(state)
        drawn = {d["cell"] for d in record["deal"]["draws"]}
        for shuffle in range(3):
            deal = game.deal_from_record(state.seats, {}, record["deal"])
            cells = [
                cell
                for cell, card in enumerate(deal.grid)  # type: ignore[attr-defined]
                if card != EMPTY
                and not deal.card_up[card]  # type: ignore[attr-defined]
                and deal.geo.names[cell] not in drawn  # type: ignore[attr-defined]
            ]
            cards = [deal.grid[c] for c in cells]  # type: ignore[attr-defined]
            random.Random(shuffle).shuffle(cards)
            for cell, card in zip(cells, cards, strict=True):
                deal.grid[cell] = card  # type: ignore[attr-defined]
                deal.pos[card] = cell  # type: ignore[attr-defined]
            for text in record["moves"]:
                deal.apply(text)
            assert deal.outcome() == state.outcome()


def test_what_is_not_a_record_is_refused_saying_why() -> None:
    state = played(find_game("pylons"), 1)
    good = record_of(state)
    with pytest.raises(RecordError, match="Not a JSON file"):
        read_record("{ no")
    with pytest.raises(RecordError, match="Not a game record"):
        replay_record({**good, "format": "high-voltage-state"})
    with pytest.raises(RecordError, match="No game called"):
        replay_record({**good, "game": "chess"})
    with pytest.raises(RecordError, match="but the record says it is playing"):
        replay_record({**good, "status": "playing", "result": None})
    with pytest.raises(RecordError, match="deal cannot be rebuilt"):
        replay_record({**good, "deal": {"swamps": [{"cell": "A1", "size": 3}]}})
    with pytest.raises(RecordError, match="own form"):
        replay_record({**good, "moves": [m.upper() for m in good["moves"]]})


def test_a_record_file_reads_back_as_written() -> None:
    state = played(find_game("sector6"), 2)
    record = make_record(state, players=[{"seat": s, "name": "Zoë"} for s in range(4)])
    text = record_json(record)
    assert json.loads(text) == record
    assert "Zoë" in text  # names as they are, not escaped
    assert text.count("\n") > len(record["moves"])  # a move a line


def test_the_documented_example_is_a_record_that_replays() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "records.md").read_text()
    example = docs.split("## Example", 1)[1].split("```json\n", 1)[1].split("```", 1)[0]
    replayed = replay_record(read_record(example))
    assert replayed.record["status"] == "playing" and replayed.record["known_to"] == 1
    assert replayed.state.prompt() == "place"
