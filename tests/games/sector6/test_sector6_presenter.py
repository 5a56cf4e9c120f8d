"""Sector 6 in Discord without Discord: the presenter's words and buttons, the drawn tile kept
private, the cog's autocomplete helpers, the /game new mode and the rules text."""

from __future__ import annotations

import asyncio
import random
import re
from datetime import UTC, datetime
from typing import Any

import discord
import pytest
from sector6_positions import position

from data.texts import texts_for
from games.sector6.commands import Sector6Cog, middle_first, move_cells, place_cells, turns_note
from games.sector6.presenter import Sector6Presenter, act_choices
from games.sector6.rules import GAME, Move, Place, Sector6State
from hvbot.cogs.game import mode_options
from hvbot.cogs.options import MODE_CHOICES
from hvbot.messages.game_posts import board_post
from hvbot.messages.presenters import playable_games, presenter_for
from hvbot.services import BotError, GameService
from hvbot.store import GameRow, SeatRow

NAMES = ["Ada", "Bo"]
LANGUAGES = ("en", "de", "fr", "it")
PRESENTER = Sector6Presenter()


def row(state: Sector6State, *, ai_seats: tuple[int, ...] = ()) -> GameRow:
    seats = tuple(
        SeatRow(s, None if s in ai_seats else 100 + s, "normal" if s in ai_seats else None, n)
        for s, n in enumerate(NAMES[: state.seats])
    )
    return GameRow(
        id=7,
        game_name="sector6",
        guild_id=1,
        channel_id=2,
        creator_id=100,
        status="active",
        seed=1,
        options={"mode": state.mode},
        state_json=None,
        version=12,
        lobby_message_id=None,
        seats=seats,
    )


def public_texts(state: Sector6State, applied: list[str]) -> str:
    """Everything the channel may read about the game now."""
    view = state.view(None)
    parts = [
        *PRESENTER.describe(applied, view, "Ada"),
        PRESENTER.scores(view, NAMES),
        PRESENTER.status(view, NAMES),
        PRESENTER.waiting(view, "Ada") or "",
        PRESENTER.turn_note(view),
        PRESENTER.board_alt(view, NAMES),
    ]
    return "\n".join(parts)


def button_actions(state: Sector6State, **kw: Any) -> list[str] | None:
    """The actions of the buttons on the board post of `state`, as the players get them."""
    post = asyncio.run(board_post(row(state, **kw), None, state, datetime.now(UTC)))
    assert post is not None
    if post.view is None:
        return None
    prefix = "act:7:12:"
    found = [
        item.custom_id.removeprefix(prefix).replace("_", " ")
        for item in post.view.children
        if isinstance(item, discord.ui.Button) and str(item.custom_id).startswith(prefix)
    ]
    # Beside the game's choices, a board post in play offers Follow (for those not playing).
    assert [i.custom_id for i in post.view.children if not str(i.custom_id).startswith(prefix)] == [
        "follow:7"
    ]
    return found or None


def legal(state: Sector6State) -> list[str]:
    return [a.text() for a in state.legal_actions()]


# ---------------------------------------------------------------------- the drawn tile


def test_a_drawn_tile_stays_private_until_it_is_placed() -> None:
    state = GAME.new_state(2, 5, {"mode": "full"})
    seat = state.current_seat()
    assert seat is not None
    state.apply("draw")
    public = state.view(None)
    mine = state.view(seat)
    assert "walls" not in public["drawn"] and "colour" not in public["drawn"]
    assert not PRESENTER.is_public(["draw"], public)
    # No tile is on the table yet, so the drawn tile's colour cannot appear for another reason.
    text = public_texts(state, ["draw"])
    assert mine["drawn"]["colour"] not in text
    assert "has drawn a tile and is placing it" in text

    prompt = asyncio.run(PRESENTER.prompt(mine))
    assert prompt is not None
    assert f"**{mine['drawn']['colour']}**, worth {mine['drawn']['value']}" in prompt.content
    assert "/s6 place" in prompt.content and "any cell" in prompt.content
    ((name, picture, alt),) = prompt.files
    assert name == "tile.png" and picture.startswith(b"\x89PNG")
    assert alt.startswith(f"Your drawn tile, for you alone: {mine['drawn']['colour']}, worth")
    assert asyncio.run(PRESENTER.prompt(public)) is None, "only its drawer sees it"

    cell, turn = legal(state)[0].split()[1:]
    state.apply(f"place {cell} {turn}")
    view = state.view(None)
    assert PRESENTER.is_public([f"place {cell} {turn}"], view)
    (line,) = PRESENTER.describe([f"place {cell} {turn}"], view, "Ada")
    walls = len(mine["drawn"]["walls"])
    assert line == (
        f"Ada drew a {mine['drawn']['colour']} tile ({walls} wall{'s' if walls > 1 else ''}) "
        f"and placed it on {cell}."
    )


def test_the_prompt_states_the_placing_rule_of_the_mode() -> None:
    for mode, galleries in (("full", False), ("veteran", True)):
        state = GAME.new_state(2, 5, {"mode": mode})
        for _ in range(4):  # two pieces each: from now on a piece must touch two
            state.apply("draw")
            state.apply(legal(state)[0])
        state.apply("draw")
        prompt = asyncio.run(PRESENTER.prompt(state.view(state.current_seat())))
        assert prompt is not None and "touch at least two pieces" in prompt.content
        assert ("open side of a neighbour" in prompt.content) is galleries


def test_the_turn_note_offers_only_the_construction_commands_left() -> None:
    state = GAME.new_state(2, 5, {"mode": "full"})
    assert "`/s6 draw` a tile or place an entry point" in PRESENTER.turn_note(state.view(None))
    assert "the first piece goes anywhere" in PRESENTER.turn_note(state.view(None))
    view = state.view(None)
    view["players"][view["current_seat"]]["supply_left"] = 0
    view["tiles"] = [{"cell": "J10"}]
    assert PRESENTER.turn_note(view) == ": place an entry point with `/s6 entry`"


def test_the_end_of_construction_is_announced() -> None:
    state = GAME.new_state(2, 9, {"mode": "novice"})
    while state.phase == "build":
        text = legal(state)[0]
        state.apply(text)
    lines = PRESENTER.describe([text], state.view(None), "Ada")
    assert lines[0].startswith("Ada ") and "The maze is complete" in lines[-1]


# ---------------------------------------------------------------------- the race

# C4 (walls N, SE, SW) meets C3 (walls N, S) and D4 (wall NW) wall to wall: turning C4 turns
# both the other way in full mode. D3 is an empty entry point to move onto.
GEARS = {
    "C4": ("alternating", 0),
    "C3": ("facing", 0),
    "D4": ("single", 5),
    "D3": ("entry", 0),
    "A1": ("entry", 1),
}


def test_the_buttons_after_a_move_are_the_legal_actions_for_the_person_only() -> None:
    for mode in ("full", "veteran", "novice"):
        state = position(GEARS, prisoners={0: ["C4"], 1: ["A1"]}, mode=mode)
        state.apply("move C4 D3")
        assert sorted(button_actions(state) or []) == sorted(legal(state)), mode
        assert [a for a, _ in act_choices(state.view(None))] == legal(state)
        assert button_actions(state, ai_seats=(0,)) is None, "no buttons for an AI's choice"
    assert "choose what to do with C4 below" in PRESENTER.turn_note(state.view(None))


def test_no_buttons_while_building_or_moving() -> None:
    state = position(GEARS, prisoners={0: ["C4"], 1: ["A1"]})
    assert button_actions(state) is None
    assert button_actions(GAME.new_state(2, 1)) is None


def test_moves_collections_and_gears_are_told_in_public_words() -> None:
    state = position(GEARS, prisoners={0: ["C4"], 1: ["A1"]})
    state.apply("move C4 D3")
    (line,) = PRESENTER.describe(["move C4 D3"], state.view(None), "Ada")
    assert line == "Ada moved a prisoner from C4 to D3."
    state.apply("rotate right")
    (line,) = PRESENTER.describe(["rotate C4 right"], state.view(None), "Ada")
    assert line.startswith("Ada turned C4 one side clockwise. Its gears turned ")
    assert sorted(re.findall(r"[A-Z]\d+", line.split("gears turned ")[1])) == ["C3", "D4"]

    state = position(GEARS, prisoners={0: ["C4"], 1: ["A1"]})
    state.apply("move C4 D3")
    state.apply("collect")
    (line,) = PRESENTER.describe(["collect"], state.view(None), "Ada")
    assert line == "Ada collected the green oxygen marker worth 3 from C4."
    assert "Ada (orange) 3" in PRESENTER.scores(state.view(None), NAMES)


def test_a_novice_move_with_nothing_to_collect_passes_the_turn_in_words() -> None:
    state = position(GEARS, prisoners={0: ["D3"], 1: ["A1"]}, mode="novice")
    state.apply("move D3 D4")
    (line,) = PRESENTER.describe(["move D3 D4"], state.view(None), "Ada")
    assert line.endswith("Nothing to collect on D3, so the turn passes.")


def boxed(mode: str) -> Sector6State:
    """Both of seat 0's prisoners (C4, E4) are walled in or face a gap or a prisoner."""
    tiles = {
        "C4": ("alternating", 0),
        "D3": ("single", 4),
        "C5": ("single", 0),
        "E4": ("bend", 4),
        "E5": ("entry", 1),
        "F4": ("entry", 1),
        "F5": ("single", 1),
    }
    return position(tiles, prisoners={0: ["C4", "E4"], 1: ["E5", "F4"]}, mode=mode)


def test_a_blocked_player_gets_a_button_per_rotation_or_pass() -> None:
    state = boxed("full")
    assert state.step == "blocked"
    assert sorted(button_actions(state) or []) == sorted(legal(state))
    assert len(legal(state)) == 4
    assert "make 2 rotations" in PRESENTER.turn_note(state.view(None))
    state.apply("rotate C4 right")
    assert sorted(button_actions(state) or []) == sorted(legal(state))
    assert "make 1 rotation " in PRESENTER.turn_note(state.view(None))

    state = boxed("novice")
    assert button_actions(state) == ["pass"] == legal(state)
    assert "press Pass" in PRESENTER.turn_note(state.view(None))
    state.apply("pass")
    (line,) = PRESENTER.describe(["pass"], state.view(None), "Ada")
    assert line == "Ada cannot move either prisoner and passes."


# ---------------------------------------------------------------------- the end


def outcome_view(scores: list[int], winners: list[int], decided: str) -> dict[str, Any]:
    collected = [{"1": 1, "2": 0, "3": 1, "4": 2}, {"1": 0, "2": 2, "3": 2, "4": 1}]
    return {
        "tiles": [
            {"kind": "tile", "value": v, "colour": c}
            for v, c in ((1, "red"), (2, "yellow"), (3, "green"), (4, "blue"))
        ],
        "max_competition_turns": 200,
        "outcome": {
            "reason": "all_oxygen_held",
            "scores": scores,
            "winners": winners,
            "details": {
                "collected": collected,
                "taken_at_end": [[4], []],
                "left_on_board": {"1": 0, "2": 0, "3": 0, "4": 0},
                "tie_break": ["blue", "green", "yellow"],
                "decided_by": decided,
            },
        },
    }


def test_the_result_names_the_rule_the_scores_and_the_tie_break() -> None:
    text = PRESENTER.outcome(outcome_view([12, 14], [1], "score"), NAMES)
    assert text.startswith("Game over: every oxygen marker left lies under a prisoner.")
    assert (
        "• Ada: **12**: 2 blue, 1 green, 1 red (of which under the prisoners at the end: 4)" in text
    )
    assert "• Bo: **14**: 1 blue, 2 green, 2 yellow" in text
    assert text.endswith("**Bo wins!**")
    text = PRESENTER.outcome(outcome_view([12, 12], [0], "blue"), NAMES)
    assert text.endswith("**Ada wins** on the tie-break: equal oxygen, more blue markers.")
    text = PRESENTER.outcome(outcome_view([12, 12], [0, 1], "shared"), NAMES)
    assert "**Shared win: Ada, Bo!**" in text and "blue, then green, then yellow" in text


def test_a_real_finished_game_is_told_with_its_reason() -> None:
    state = position(GEARS, prisoners={0: ["C4"], 1: ["A1"]}, markers={"C3": 0, "D4": 0})
    state.apply("move C4 D3")
    state.apply("collect")
    assert state.is_terminal()
    text = PRESENTER.outcome(state.view(None), NAMES)
    assert "Game over: every oxygen marker left" in text and "**Ada wins!**" in text


def ended_by(reason: str) -> Sector6State:
    """A finished game of two for each end reason, from small hand-built positions."""
    if reason == "rest_out_of_reach":  # C3 the last marker in reach; D3 sealed off
        tiles = {"C2": ("entry", 0), "C3": ("single", 2), "D3": ("single", 5)}
        state = position(tiles | {"H8": ("entry", 1)}, prisoners={0: ["C2"], 1: ["H8"]})
        state.gears = False  # veteran rules: without gears nothing can turn D3
        state.apply("move C2 C3")
        return state
    tiles = {f"C{row}": ("single", 1) for row in range(2, 8)} | {"A2": ("entry", 1)}
    state = position(tiles, prisoners={0: ["C2"], 1: ["A2"]})
    if reason == "turn_limit":
        state.max_turns = 2
    while not state.is_terminal():  # seat 0 steps between C2 and C3, seat 1 turns A2
        here = state.name(state.prisoners[state.seat][0])
        if state.seat == 0:
            state.apply(f"move {here} {'C3' if here == 'C2' else 'C2'}")
            state.apply("done")
        else:
            state.apply(f"rotate {here} left")
            state.apply(f"rotate {here} left")
    return state


@pytest.mark.parametrize(
    ("reason", "words"),
    [
        (
            "rest_out_of_reach",
            "every oxygen marker left lies under a prisoner or out of reach for good "
            "(1 marker out of reach goes to no one).",
        ),
        ("oxygen_clock", "the oxygen clock ran out (12 rounds without a collection)."),
        ("turn_limit", "the turn limit was reached (2 turns, a backstop"),
    ],
)
def test_the_result_says_why_the_game_ended(reason: str, words: str) -> None:
    state = ended_by(reason)
    assert state.end_reason == reason
    view = state.view(None)
    assert PRESENTER.outcome(view, NAMES).startswith("Game over: " + words)
    told = {
        language: presenter_for("sector6", language).outcome(view, NAMES) for language in LANGUAGES
    }
    assert len(set(told.values())) == len(LANGUAGES)  # each in its own words
    for language, text in told.items():
        first = text.splitlines()[0]
        assert "{" not in first and "end_reasons" not in first and "outcome." not in first, language
        assert re.search(r"\b(1|12|2)\b", first), (language, first)


def test_the_scores_line_counts_markers_and_shows_the_clock_when_it_runs() -> None:
    tiles = {f"C{row}": ("single", 1) for row in range(2, 8)} | {"A2": ("entry", 1)}
    state = position(tiles, prisoners={0: ["C2"], 1: ["A2"]})
    state.apply("move C2 C3")
    state.apply("done")
    line = PRESENTER.scores(state.view(None), NAMES)
    assert line.endswith("5 free, 1 under prisoners") and "clock" not in line
    state.quiet_since = state.play_turns - 7 * 2  # seven quiet rounds behind: the eighth runs
    line = PRESENTER.scores(state.view(None), NAMES)
    assert line.endswith("5 free, 1 under prisoners · oxygen clock: 5 rounds left")


# ---------------------------------------------------------------------- the start


def test_every_player_is_told_their_colour_and_shape() -> None:
    state = GAME.new_state(3, 2)
    title, text, picture = PRESENTER.secret(row(state).channel_id, state.view(1), 1)
    assert title == "You play PURPLE"
    # Told by shape and letter, as the pawns are drawn, never by a number a marker shares.
    assert "**purple** pawns" in text and "squares for heads" in text and "<#2>" in text
    assert "letter P" in text
    assert picture.startswith(b"\x89PNG")


def test_sector6_is_playable_and_offers_its_modes_at_game_new() -> None:
    assert "sector6" in playable_games() and presenter_for("sector6").modes
    assert [c.value for c in MODE_CHOICES] == list(GAME.options[0].choices)
    assert mode_options("sector6", "novice") == {"mode": "novice"}
    assert mode_options("sector6", None) is None
    with pytest.raises(
        BotError, match=r"Pylons has no modes: leave out mode\. Modes are for Sector 6\."
    ):
        mode_options("pylons", "novice")


async def test_the_mode_reaches_the_engine_and_a_wrong_one_is_refused(tmp_path) -> None:
    from hvbot.store import GameStore

    service = GameService(await GameStore.open(tmp_path / "s6.sqlite3"))
    try:
        game = await service.lobby.new_lobby(
            channel_id=1,
            guild_id=2,
            user_id=3,
            name="Ada",
            game_name="sector6",
            options=mode_options("sector6", "veteran"),
        )
        assert game.options == {"mode": "veteran"}
        await service.abandon.abandon(channel_id=1, user_id=3, can_manage=False)
        with pytest.raises(BotError, match="must be one of full, veteran, novice"):
            await service.lobby.new_lobby(
                channel_id=1,
                guild_id=2,
                user_id=3,
                name="Ada",
                game_name="sector6",
                options={"mode": "easy"},
            )
    finally:
        await service.repo.close()


async def test_a_drawn_tile_is_recorded_as_a_prompt_waiting_for_its_drawer(tmp_path) -> None:
    from hvbot.store import GameStore

    repo = await GameStore.open(tmp_path / "s6.sqlite3")
    service = GameService(repo)
    try:
        await service.lobby.new_lobby(
            channel_id=1, guild_id=2, user_id=3, name="Ada", game_name="sector6"
        )
        await service.lobby.join(channel_id=1, user_id=4, name="Bo")
        change = await service.lobby.start(channel_id=1, user_id=3, can_manage=False)
        game, state = change.game, change.state
        drawer = game.seats[state.current_seat()].user_id
        result = await service.play.act(channel_id=1, user_id=drawer, action="draw")
        assert await repo.open_prompts(game_id=game.id) == [
            {"id": 1, "kind": "place", "user_id": drawer, "version": result.game.version}
        ]
        place = legal(result.state)[0]
        result = await service.play.act(channel_id=1, user_id=drawer, action=place)
        assert await repo.open_prompts(game_id=game.id) == []
    finally:
        await repo.close()


# ---------------------------------------------------------------------- the cog's helpers


def played_until(done: Any, mode: str = "veteran") -> Sector6State:
    """A random 2-player game played until `done(state)`."""
    state = GAME.new_state(2, 4, {"mode": mode})
    rng = random.Random(4)
    while not done(state):
        state.apply(state.sample_action(rng))
    return state


def test_place_choices_are_the_legal_cells_with_their_turns() -> None:
    state = played_until(lambda s: s.prompt() == "place" and len(s.order) >= 4)
    seat = state.current_seat()
    places = [a for a in state.legal_actions() if isinstance(a, Place)]
    assert place_cells(state, seat, None) == list(dict.fromkeys(a.cell for a in places))
    some = places[-1].degrees
    turned = [a.cell for a in places if a.degrees == some]
    assert place_cells(state, seat, some) == turned
    for cell in place_cells(state, seat, None):
        turns = [f"{a.degrees}°" for a in places if a.cell == cell]
        note = turns_note(state, seat, cell)
        if len(turns) == 6:
            assert note == "any turn fits"
        elif len(turns) == 1:
            assert note == f"turned {turns[0]} clockwise"
        else:
            assert note == f"turned {', '.join(turns[:-1])} or {turns[-1]} clockwise"
    assert place_cells(state, 1 - seat, None) == [], "only the person to move is offered cells"
    first = played_until(lambda s: s.prompt() == "place", mode="full")
    assert turns_note(first, first.current_seat(), "K11") == "any turn fits"
    assert turns_note(first, first.current_seat(), "K11", texts_for("de")) == "jede Drehung passt"


def test_a_cell_suggestion_says_its_turns_in_words_in_every_language() -> None:
    """ "J8 (0°, 240°, 300°)" read as a code: the note says what the rotation option says."""
    state = played_until(lambda s: s.prompt() == "place" and len(s.order) >= 4)
    seat = state.current_seat()
    for language in ("en", "it", "fr", "de"):
        for cell in place_cells(state, seat, None):
            note = turns_note(state, seat, cell, texts_for(language))
            assert "°-" not in note and note.strip(), note
            assert len(f"{cell} ({note})") <= 100


def test_the_first_piece_is_suggested_in_the_middle_of_the_table() -> None:
    view = GAME.new_state(2, 1).view(None)
    assert middle_first(["A1", "T20", "K11", "J10", "C4"], view) == [
        "J10",
        "K11",
        "C4",
        "A1",
        "T20",
    ]
    view["tiles"] = [{"cell": "J10"}]
    assert middle_first(["A1", "K11"], view) == ["A1", "K11"], "later: the engine's order"


def test_move_choices_narrow_to_the_chosen_prisoner() -> None:
    state = played_until(
        lambda s: (
            s.phase == "play" and len({a.origin for a in s.legal_actions() if a.kind == "move"}) > 1
        )
    )
    seat = state.current_seat()
    moves = [a for a in state.legal_actions() if isinstance(a, Move)]
    froms, targets = move_cells(state, seat, None)
    assert froms == list(dict.fromkeys(m.origin for m in moves))
    assert targets == list(dict.fromkeys(m.target for m in moves))
    origin = froms[-1]
    assert move_cells(state, seat, origin.lower())[1] == [
        m.target for m in moves if m.origin == origin
    ]


def test_the_rules_text_fits_a_message_and_names_every_command() -> None:
    rules = PRESENTER.rules
    assert len(rules) <= 2000, "Discord refuses longer messages"
    for command in Sector6Cog.__cog_app_commands__:
        assert f"/s6 {command.name}" in rules, command.name
    clock = GAME.new_state(2, 1).rules.clock_rounds
    assert f"after {clock} rounds with no marker taken" in rules, "the summary follows the data"
    for mode in GAME.options[0].choices:
        assert f"**{mode}**" in rules


# ---------------------------------------------------------------------- placement buttons


def later_draw(mode: str = "veteran") -> Sector6State:
    """A tile drawn once four pieces are down: it fits in fewer ways than a message's 25."""
    state = GAME.new_state(2, 5, {"mode": mode})
    for _ in range(4):
        state.apply("draw")
        state.apply(legal(state)[0])
    state.apply("draw")
    return state


def test_a_drawn_tile_offers_a_button_for_each_legal_placement() -> None:
    state = later_draw()
    seat = state.current_seat()
    assert seat is not None
    view = state.view(seat)
    options = legal(state)
    assert len(options) <= 25
    assert "placements" not in state.view(None)["drawn"], "the turns that fit are the drawer's"
    prompt = asyncio.run(PRESENTER.prompt(view))
    assert prompt is not None
    actions = [c.action for c in prompt.choices]
    assert sorted(actions) == sorted(options), "every legal placement, and only those"
    by_cell = [(a.split()[1], int(a.split()[2][1:])) for a in actions]
    assert by_cell == sorted(by_cell, key=lambda p: (p[0][0], int(p[0][1:]), p[1]))
    assert [c.row for c in prompt.choices] == [i // 5 for i in range(len(actions))]
    assert "/s6 place" not in prompt.content and "button below" in prompt.content


def test_more_placements_than_buttons_show_whole_cells_and_say_how_to_reach_the_rest() -> None:
    state = GAME.new_state(2, 5, {"mode": "full"})
    state.apply("draw")  # the first tile goes anywhere: far more ways than 25
    options = set(legal(state))
    prompt = asyncio.run(PRESENTER.prompt(state.view(state.current_seat())))
    assert prompt is not None
    actions = [c.action for c in prompt.choices]
    assert 20 < len(actions) <= 25 and set(actions) <= options
    assert max(c.row or 0 for c in prompt.choices) <= 4
    assert all(sum(c.row == r for c in prompt.choices) <= 5 for r in range(5))
    cells = list(dict.fromkeys(a.split()[1] for a in actions))
    for cell in cells:  # a cell shown offers every turn that fits it
        assert {a for a in options if a.split()[1] == cell} <= set(actions)
    assert cells == ["J10", "J11", "K10", "K11"], "the middle of the table first"
    assert f"It fits in {len(options)} ways" in prompt.content
    assert f"the {len(actions)} below place it on J10, J11, K10 and K11" in prompt.content
    assert "`/s6 place cell:<cell> rotation:<turn>`" in prompt.content


@pytest.mark.parametrize(
    ("language", "label"),
    [
        ("en", "{cell} turned {degrees}°"),
        ("it", "{cell} ruotata di {degrees}°"),
        ("fr", "{cell}, tournée de {degrees}°"),
        ("de", "{cell}, um {degrees}° gedreht"),
    ],
)
def test_placement_buttons_and_their_prompt_read_in_the_readers_language(
    language: str, label: str
) -> None:
    english = Sector6Presenter("en")
    presenter = Sector6Presenter(language)
    for state in (later_draw(), GAME.new_state(2, 5, {"mode": "full"})):
        if state.view(None)["step"] == "draw":
            state.apply("draw")
        view = state.view(state.current_seat())
        prompt = asyncio.run(presenter.prompt(view))
        assert prompt is not None and prompt.choices
        for choice in prompt.choices:
            _, cell, turn = choice.action.split()
            assert choice.label == label.format(cell=cell, degrees=turn[1:])
            assert len(choice.label) <= 80  # Discord's limit on a button's label
        in_english = asyncio.run(english.prompt(view))
        assert in_english is not None
        assert (prompt.content == in_english.content) is (language == "en"), "its own words"
        assert "{" not in prompt.content and len(prompt.content) <= 2000
