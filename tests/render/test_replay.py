"""The animated replay: real games dealt from a seed, drawn into a GIF, decoded back with
Pillow and compared frame by frame with the board pictures the bot posts.

Secrets are checked where they would show: a face-down card's cell and a player's colour
disc in the panel are compared, position by position, with what the public board and a
seat's own board look like there.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import Any

import pytest
from PIL import GifImagePlugin, Image, ImageChops, ImageStat

from engine import State
from games import find_game
from games.high_voltage.pictures import THEME, hv_board_image
from games.high_voltage.pictures.layout import cell_box
from games.high_voltage.rules import Declare
from hvbot.messages import replays as replays
from hvbot.messages.presenters import playable_games, presenter_for
from hvbot.messages.presenters.base import Presenter
from hvbot.store import ArchivedGame, GameRow, SeatRow
from render import REPLAY_BUDGET, Replay, ReplayTooLarge, replay_gif
from render.replay import FIRST_MS, LAST_MS, MIN_SCALE, MOVE_MS, spread

View = dict[str, Any]
NAMES = ("Ada", "Bo", "Cy", "Di")


# ----------------------------------------------------------------------------- games


@cache
def played(game: str, seats: int, seed: int, limit: int = 1000) -> tuple[State, ...]:
    """Every state of a seeded random game, from the deal to its end (or `limit` actions).
    High Voltage declares every line it can, so scored lines appear in the replay."""
    state = find_game(game).new_state(seats, seed)
    rng = random.Random(seed)
    states = [state.copy()]
    while not state.is_terminal() and len(states) <= limit:
        declare = [a for a in state.legal_actions() if isinstance(a, Declare)]
        state.apply(declare[0] if declare else state.sample_action(rng))
        states.append(state.copy())
    return tuple(states)


def public(states: Sequence[State]) -> list[View]:
    return [s.view(None) for s in states]


def hv_said(view: View) -> list[str]:
    """The last turn in words, as the bot's pictures say it."""
    return presenter_for("high-voltage").last_moves(view)


def hv_paint(view: View) -> Image.Image:
    """The board as the bot draws it, its last line in the presenter's words."""
    return hv_board_image(view, names=NAMES[: view["seats"]], moves=hv_said(view))


@cache
def hv_game() -> tuple[tuple[State, ...], list[View], bytes]:
    """A whole 4-player High Voltage game and its replay, made once for the module, through
    the bot's own path: dealt again from the stored seed and actions (the replay of the
    public views, as `test_the_bots_replay_is_the_replay_of_the_public_views` checks)."""
    states = played("high-voltage", 4, 4)
    assert states[-1].is_terminal()
    row, actions = game_row("high-voltage", states, seed=4)
    return states, public(states), replays.build(row, actions).data


@pytest.fixture(autouse=True, scope="module")
def frames_on_their_palette() -> Iterator[None]:
    """Frames decoded on the GIF's one palette, as it holds them, instead of each turned into
    RGB as it is decoded: the same pixels (the comparisons below turn what they compare into
    RGB), in half the time of the many whole replays this module decodes."""
    strategy = GifImagePlugin.LOADING_STRATEGY
    GifImagePlugin.LOADING_STRATEGY = (
        GifImagePlugin.LoadingStrategy.RGB_AFTER_DIFFERENT_PALETTE_ONLY
    )
    yield
    GifImagePlugin.LOADING_STRATEGY = strategy


def frames(gif: bytes, until: int | None = None) -> Iterator[Image.Image]:
    """Every frame as a viewer shows it (each delta drawn over the frames before it), one at
    a time: a whole game decoded at once would take half a gigabyte. With `until`, the frames
    up to that index only."""
    picture = Image.open(io.BytesIO(gif))
    for index in range(picture.n_frames if until is None else until + 1):
        picture.seek(index)
        yield picture.copy()


def pick(gif: bytes, indices: Iterable[int]) -> dict[int, Image.Image]:
    """The frames at `indices`, decoding the GIF no further than the last of them."""
    wanted = set(indices)
    return {i: frame for i, frame in enumerate(frames(gif, max(wanted))) if i in wanted}


def last_frame(gif: bytes) -> Image.Image:
    picture = Image.open(io.BytesIO(gif))
    return pick(gif, [picture.n_frames - 1])[picture.n_frames - 1]


def durations(gif: bytes) -> list[int]:
    picture = Image.open(io.BytesIO(gif))
    out = []
    for index in range(picture.n_frames):
        picture.seek(index)
        out.append(picture.info["duration"])
    return out


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    """Average difference per channel (0-255) between two pictures of the same size."""
    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean) / 3


def game_row(game: str, states: Sequence[State], *, seed: int) -> tuple[GameRow, list]:
    """The stored form of a played game (as the bot keeps it) and its action log."""
    final = states[-1]
    seats = tuple(
        SeatRow(seat, 100 + seat if seat == 0 else None, None if seat == 0 else "easy", name)
        for seat, name in enumerate(NAMES[: final.seats])
    )
    row = GameRow(
        id=12,
        game_name=game,
        guild_id=1,
        channel_id=2,
        creator_id=100,
        status="finished" if final.is_terminal() else "active",
        seed=seed,
        options={},
        state_json=json.dumps(final.to_dict()),
        version=len(states),
        lobby_message_id=None,
        seats=seats,
    )
    return row, [(0, text) for text in final.history]


# ----------------------------------------------------------------------------- the GIF


def test_one_frame_per_position_at_the_board_size_with_a_long_last_look() -> None:
    states, views, gif = hv_game()
    picture = Image.open(io.BytesIO(gif))
    assert picture.format == "GIF"
    assert picture.n_frames == len(views) == len(states[-1].history) + 1
    assert picture.size == hv_paint(views[0]).size
    assert picture.info["loop"] == 0, "loops forever"
    shown = durations(gif)
    assert shown[0] == FIRST_MS and shown[-1] == LAST_MS
    assert set(shown[1:-1]) == {MOVE_MS}
    assert LAST_MS > FIRST_MS > MOVE_MS


def test_every_frame_is_the_board_posted_after_that_move() -> None:
    _, views, gif = hv_game()
    last = len(views) - 1
    decoded = pick(gif, (0, 1, 2, last // 2, last - 1, last))
    for index in (0, 1, 2, last // 2, last - 1):
        assert same(decoded[index], hv_paint(views[index])), f"frame {index}"
    assert same(decoded[last], hv_paint(views[last])), "the last frame is the final board"


def test_the_lines_a_move_scored_are_highlighted_in_its_frame() -> None:
    _, views, gif = hv_game()
    scored = [i for i, v in enumerate(views) if (v.get("last") or {}).get("lines")]
    assert scored, "the game scored lines"
    decoded = pick(gif, scored[:3])
    for index in scored[:3]:
        unlit = json.loads(json.dumps(views[index]))
        unlit["last"]["lines"] = []
        assert same(decoded[index], hv_paint(views[index]))
        assert not same(decoded[index], hv_paint(unlit)), f"no highlight in frame {index}"


def test_the_same_game_gives_the_same_bytes() -> None:
    states = played("high-voltage", 3, 9, limit=25)
    views = public(states)
    assert replay_gif(views, hv_paint).data == replay_gif(public(states), hv_paint).data


def test_the_bots_replay_is_the_replay_of_the_public_views() -> None:
    states = played("high-voltage", 3, 9, limit=25)
    row, actions = game_row("high-voltage", states, seed=9)
    names = [s.display_name for s in row.seats]
    drawn = replay_gif(
        public(states), lambda view: hv_board_image(view, names=names, moves=hv_said(view))
    )
    assert replays.build(row, actions).data == drawn.data


def test_a_long_game_stays_under_the_budget() -> None:
    _, views, gif = hv_game()
    assert len(views) > 120
    assert len(gif) <= REPLAY_BUDGET


# ----------------------------------------------------------------------------- fitting


@cache
def short_game() -> list[View]:
    return public(played("high-voltage", 4, 4, limit=32))


@cache
def short_boards() -> dict[int, Image.Image]:
    """The short game's boards by the id of their view, drawn once for the module: fitting a
    replay draws every board again at each size it tries, and what these tests check is how
    the replay is fitted, not the drawing (the tests above check that)."""
    return {id(view): hv_paint(view) for view in short_game()}


def short_paint(view: View) -> Image.Image:
    """`hv_paint` for a view of the short game: its board as drawn once, a copy of it."""
    return short_boards()[id(view)].copy()


@cache
def short_replay() -> Replay:
    """The short game's replay at full size, with no budget: what the fitting starts from."""
    return replay_gif(short_game(), short_paint)


def test_too_large_at_full_size_is_scaled_down_but_not_below_half() -> None:
    views = short_game()
    full = short_replay()
    budget = len(full.data) * 2 // 3
    fitted = replay_gif(views, short_paint, budget=budget)
    assert len(fitted.data) <= budget
    assert MIN_SCALE <= fitted.scale < 1.0
    assert fitted.complete, "scaling alone was enough: every position is kept"
    picture = Image.open(io.BytesIO(fitted.data))
    assert picture.n_frames == len(views)
    assert picture.size == fitted.size
    assert picture.width == round(full.size[0] * fitted.scale)
    last = last_frame(fitted.data)
    final = short_paint(views[-1]).convert("RGB").resize(last.size, Image.Resampling.HAMMING)
    assert mean_difference(last, final) < 6, "the last frame is the final board, smaller"


def test_too_large_at_half_size_keeps_fewer_positions_with_the_first_and_last() -> None:
    views = short_game()
    half = replay_gif(views, short_paint, budget=len(short_replay().data) // 4)
    assert half.scale == MIN_SCALE
    budget = len(half.data) * 2 // 3
    fitted = replay_gif(views, short_paint, budget=budget)
    assert len(fitted.data) <= budget
    assert fitted.scale == MIN_SCALE, "positions are dropped only at the smallest scale"
    assert not fitted.complete
    assert fitted.shown[0] == 0 and fitted.shown[-1] == len(views) - 1
    decoded = list(frames(fitted.data))
    assert len(decoded) == len(fitted.shown)
    small = fitted.size
    for frame, index in zip(decoded, fitted.shown, strict=True):
        board = short_paint(views[index]).convert("RGB").resize(small, Image.Resampling.HAMMING)
        assert mean_difference(frame, board) < 6, f"frame of position {index}"


def test_a_budget_nothing_fits_is_refused() -> None:
    with pytest.raises(ReplayTooLarge):
        replay_gif(short_game()[:5], short_paint, budget=1000)


def test_spread_keeps_the_ends_and_spaces_the_rest_evenly() -> None:
    assert spread(10, 3) == (0, 4, 9) or spread(10, 3) == (0, 5, 9)
    assert spread(10, 2) == (0, 9)
    assert spread(5, 9) == (0, 1, 2, 3, 4)
    assert spread(101, 11) == tuple(range(0, 101, 10))


# ----------------------------------------------------------------------------- secrets


def test_a_view_made_for_a_seat_is_refused() -> None:
    states = played("high-voltage", 2, 3, limit=5)
    views = public(states)
    views[3] = states[3].view(0)
    with pytest.raises(ValueError, match="not a public view"):
        replay_gif(views, hv_paint)


def inside(cell: str) -> tuple[int, int, int, int]:
    """The middle of a cell's card, clear of the outlines drawn round a changed cell."""
    x0, y0, x1, y1 = cell_box(cell, THEME)
    margin = (x1 - x0) // 4
    return x0 + margin, y0 + margin, x1 - margin, y1 - margin


def test_a_face_down_card_shows_its_back_until_it_is_turned_up() -> None:
    _, views, gif = hv_game()
    decoded = frames(gif)
    first_down = next(c["cell"] for c in views[0]["cells"] if c["state"] == "down")
    back = hv_paint(views[0]).convert("RGB").crop(inside(first_down))
    turned = 0
    before: dict[str, str] = {}
    for index, (frame, view) in enumerate(zip(decoded, views, strict=True)):
        for cell in view["cells"]:
            face = frame.crop(inside(cell["cell"]))
            if cell["state"] == "down":
                assert same(face, back), f"{cell['cell']} shows a face in frame {index}"
            elif cell["state"] == "up" and index and before[cell["cell"]] == "down":
                turned += 1
                assert not same(face, back), f"{cell['cell']} turned up in frame {index}"
        before = {c["cell"]: c["state"] for c in view["cells"]}
    assert turned > 10, "cards were turned up during the game"


def test_no_frame_before_the_end_shows_a_players_secret_colour() -> None:
    """Through the bot's own path (dealt again from the stored seed and actions): each frame
    before the end looks like the public board where a seat's own board shows its colour."""
    states, _, gif = hv_game()
    row, _ = game_row("high-voltage", states, seed=4)
    last = len(states) - 1
    decoded = pick(gif, [*range(0, last, 7), last])
    names = [s.display_name for s in row.seats]
    checked = 0
    for index in range(0, last, 7):
        state = states[index]
        seen = hv_board_image(state.view(None), names=names).convert("RGB")
        for seat in range(state.seats):
            own = hv_board_image(state.view(seat), names=names).convert("RGB")
            where = ImageChops.difference(seen, own).getbbox()
            assert where is not None, "a seat's own board shows its colour"
            assert same(decoded[index].crop(where), seen.crop(where)), (index, seat)
            checked += 1
    assert checked >= 80
    final = states[-1].view(None)
    final_board = hv_board_image(final, names=names, moves=hv_said(final))
    assert same(decoded[last], final_board), "colours are revealed at the end, as on the board"


# ----------------------------------------------------------------------------- every game

# Every registered game at its smallest table; High Voltage at three seats.
GAMES = {game: find_game(game).min_seats for game in playable_games()} | {"high-voltage": 3}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_replays_through_its_presenter(game: str) -> None:
    states = played(game, GAMES[game], 5, limit=30)
    row, actions = game_row(game, states, seed=5)
    replay = replays.build(row, actions)
    assert replay.complete and replay.positions == len(states)
    middle, last = len(states) // 2, len(states) - 1
    assert Image.open(io.BytesIO(replay.data)).n_frames == len(states)
    decoded = pick(replay.data, (0, middle, last))
    presenter = presenter_for(game)
    names = [s.display_name for s in row.seats]
    for index in (0, middle, last):
        board = presenter.board_image(states[index].view(None), names)
        assert same(decoded[index], board), f"{game} frame {index}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_presenters_board_image_is_its_board_png_decoded(game: str) -> None:
    """The fast hook each game overrides draws what the default (decoding the PNG) gives."""
    states = played(game, GAMES[game], 6, limit=12)
    view = states[-1].view(None)
    presenter = presenter_for(game)
    names = list(NAMES[: states[-1].seats])
    assert same(presenter.board_image(view, names), Presenter.board_image(presenter, view, names))


def test_a_stored_game_that_no_longer_leads_to_its_end_has_no_replay() -> None:
    states = played("pylons", 2, 8, limit=10)
    row, actions = game_row("pylons", states, seed=8)
    with pytest.raises(replays.NoReplay, match="no longer lead"):
        replays.build(row, actions[:-1])
    with pytest.raises(replays.NoReplay, match="cannot be replayed"):
        replays.build(row, [*actions[:3], (0, "place Z99")])


def test_captions_say_how_many_moves_and_what_was_left_out() -> None:
    states = played("pylons", 2, 8, limit=10)
    row, actions = game_row("pylons", states, seed=8)
    replay = replays.build(row, actions)
    assert replays.caption("Replay of the game", replay) == "Replay of the game: 10 moves."
    archived = ArchivedGame(row, "2026-11-20T10:00:00+00:00")
    assert replays.describe(archived) == "#12 Pylons, 2026-11-20, Ada vs Bo"
    assert replays.archived_heading(archived) == "Replay of Pylons game #12, Ada vs Bo (2026-11-20)"
    cut = Replay(replay.data, positions=11, shown=(0, 5, 10), scale=MIN_SCALE, size=(9, 9))
    assert replays.caption("Replay of the game", cut) == (
        "Replay of the game: 10 moves (too many for one picture: 3 positions of 11 shown, "
        "evenly spread)."
    )


# ----------------------------------------------------------------------------- long games


def test_a_long_games_replay_draws_at_most_the_bound_of_frames(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game longer than `MAX_FRAMES` positions is thinned before anything is drawn, or
    even viewed: the deal, the end and evenly spread positions between, and the caption's
    count of moves is still the whole game's."""
    monkeypatch.setattr("render.replay.MAX_FRAMES", 8)
    states = played("pylons", 2, 5, limit=40)
    assert len(states) == 41
    row, actions = game_row("pylons", states, seed=5)
    presenter_class = type(presenter_for("pylons"))
    painted: list[int] = []
    board_image = presenter_class.board_image

    def counted(self: Presenter, view: View, names: Sequence[str]) -> Image.Image:
        painted.append(1)
        return board_image(self, view, names)

    monkeypatch.setattr(presenter_class, "board_image", counted)
    made: list[int] = []
    public_views = replays.public_views

    def viewed(*args: Any, **kwargs: Any) -> list[View]:
        views = public_views(*args, **kwargs)
        made.append(len(views))
        return views

    monkeypatch.setattr(replays, "public_views", viewed)
    replay = replays.build(row, actions)
    assert replay.positions == 41 and not replay.complete
    assert replay.shown == spread(41, 8) and replay.shown[0] == 0 and replay.shown[-1] == 40
    assert made == [8], "only the views drawn are made"
    assert 8 <= len(painted) <= 8 * 3  # the bound per pass (fitting the size takes up to 3)
    assert Image.open(io.BytesIO(replay.data)).n_frames == 8


def test_replay_gif_draws_at_most_max_frames_of_the_views_it_is_given() -> None:
    views = public(played("high-voltage", 2, 3, limit=30))
    painted: list[int] = []

    def paint(view: View) -> Image.Image:
        painted.append(1)
        return hv_paint(view)

    replay = replay_gif(views, paint, max_frames=5)
    assert replay.shown == spread(len(views), 5) and replay.positions == len(views)
    assert len(painted) == 5
