"""How fast and how large the board pictures are, against the product's bars and against the
way a Discord chess bot posts its board.

    python bench/render.py [--runs N] [--chess-size PX]

For each game (High Voltage, Pylons, Sector 6) it draws the boards of an early, a middle and a
late phase of a seeded random game: `--runs` boards in a row, one after each move, exactly as
the bot posts them (the game's presenter's `board_png`: board and panel, names, the last move in
words, PNG encoding included). The first board a process draws builds the palette and the
sprites; that cold cost is printed apart. Then each phase's boards are drawn once untimed, so
that every card, tile and pylon has its sprite, as in a process that has drawn many games.

Timed, each board is drawn as the bot draws it after the board of the move before: the words
of the panel are new to the process at the phase's start (each move's words are new when they
are drawn), the bands of rows the move left unchanged are reused (see `render.encode`), and a
High Voltage or Sector 6 board is drawn over the one before (`games.high_voltage.pictures.board`,
`games.sector6.pictures.board`). Then
the phase again, with no band and no board kept from any earlier board and the words new at
its start: a drawing process that has not drawn this game lately. (Drawing one position over
and over, as this benchmark did before, would now time nothing but reuse.)

Beside ours, in the same loop, one of theirs before each of ours, so that both meet the same load
of the machine: a chess bot's board, python-chess's `chess.svg.board` of the position after
each move of a seeded random game, the last move highlighted and drawn as an arrow,
`--chess-size` pixels square, made a PNG by `cairosvg.svg2png`. The ratio is their median over
ours, in wall-clock time and in CPU time (on a busy machine a short task waits for a core
longer, for its length, than a long one); the aim is 30x. Without chess and cairosvg
installed (the `bench` extra) only ours is printed. The bars: median under 10 ms, PNG under
150 kB, at 900-1100 pixels wide.

Then the pictures drawn once for a post rather than after every move (a High Voltage result,
drawn card and secret, and the longest tournament standings table), each drawn `--runs` times
from nothing, their medians and sizes.

Prints a table for people, then as its last line one JSON object for scripts and CI history.
It reports figures only: it never fails because a machine is slow.
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

# Run as a script, this file's folder comes first on the import path, and this file's own name
# would hide the `render` package; look up packages from the project folder instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import argparse  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Iterator  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from typing import Any  # noqa: E402

from PIL import Image  # noqa: E402

from engine.core import State  # noqa: E402
from games import find_game, register_all  # noqa: E402
from games.high_voltage.pictures import hv_card_png, hv_secret_png  # noqa: E402
from games.high_voltage.pictures.board import forget_boards  # noqa: E402
from games.high_voltage.pictures.card import _card_png  # noqa: E402
from games.high_voltage.rules import Declare  # noqa: E402
from games.pylons.pictures.board import forget_boards as forget_pylons_boards  # noqa: E402
from games.sector6.pictures.board import forget_boards as forget_sector6_boards  # noqa: E402
from hvbot.messages.presenters import Presenter, presenter_for  # noqa: E402
from render.canvas import forget_texts  # noqa: E402
from render.encode import BANDS  # noqa: E402
from render.standings import MOST_LINES, StandingLine, StandingsView, standings_png  # noqa: E402

register_all()  # the games this benchmark plays, as `bot.py` registers them

MEDIAN_TARGET_MS = 10.0
SIZE_TARGET_KB = 150.0
RATIO_TARGET = 30.0
NAMES = ("Ada", "Bruno", "Chiara", "Dmitri")


@dataclass(frozen=True)
class Board:
    """One game's board in the benchmark: its phases as (label, seed, moves before it)."""

    game: str
    title: str
    seats: int
    phases: tuple[tuple[str, int, int], ...]


# High Voltage's late phase has energy tokens of both sides on it; Sector 6's maze has spread
# and shrunk its tiles by then.
BOARDS = (
    Board(
        "high-voltage", "High Voltage", 4, (("early", 7, 8), ("middle", 7, 60), ("late", 4, 150))
    ),
    Board("pylons", "Pylons", 2, (("early", 3, 5), ("middle", 3, 60), ("late", 3, 150))),
    Board("sector6", "Sector 6", 4, (("early", 3, 5), ("middle", 3, 60), ("late", 3, 200))),
)


def a_move(board: Board, state: State, rng: random.Random) -> Any:
    """A random move, but for High Voltage a line that can be declared, which is."""
    legal = state.legal_actions() if board.game == "high-voltage" else []
    declare = [a for a in legal if isinstance(a, Declare)]
    return declare[0] if declare else state.sample_action(rng)


def boards_in_a_row(board: Board, seed: int, start: int, count: int) -> list[dict[str, Any]]:
    """The public views after each of `count` moves from move `start` on of one seeded random
    game (High Voltage: every closable line declared); a game that ends sooner gives its last
    `count` positions."""
    state = find_game(board.game).new_state(board.seats, seed)
    rng = random.Random(seed)
    views = [state.view(None)]
    while len(views) <= start + count and not state.is_terminal():
        state.apply(a_move(board, state, rng))
        views.append(state.view(None))
    return views[start + 1 : start + 1 + count] if len(views) > start + count else views[-count:]


def chess_boards(size: int, count: int) -> list[Callable[[], bytes]] | str:
    """`count` chess bot posts, each a call drawing the position after one move of a seeded
    random game; or why they cannot be drawn here."""
    try:
        import cairosvg
        import chess
        import chess.svg
    except (ImportError, OSError) as missing:  # OSError: cairosvg without the cairo library
        return f"python-chess and cairosvg are not installed ({missing}): pip install '.[bench]'"
    rng = random.Random(1)
    board = chess.Board()
    posts: list[Callable[[], bytes]] = []
    while len(posts) < count:
        if board.is_game_over():
            board = chess.Board()
        move = rng.choice(list(board.legal_moves))
        board.push(move)
        position = board.copy()

        def post(position: Any = position, move: Any = move) -> bytes:
            svg = chess.svg.board(
                position,
                lastmove=move,
                arrows=[chess.svg.Arrow(move.from_square, move.to_square)],
                size=size,
            )
            return cairosvg.svg2png(bytestring=svg.encode())

        posts.append(post)
    return posts


def forget_earlier_boards() -> None:
    """Keep nothing of the boards drawn so far but their sprites: no compressed band, no
    board to draw over (any game's), as in a process that has not drawn the
    game lately."""
    BANDS.clear()
    forget_boards()
    forget_sector6_boards()
    forget_pylons_boards()


def pixels(png: bytes) -> tuple[tuple[int, int], list[int] | None, bytes]:
    """A PNG's size, palette and pixels."""
    img = Image.open(io.BytesIO(png))
    return img.size, img.getpalette(), img.tobytes()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def timed(draw: Callable[[], bytes]) -> tuple[float, bytes]:
    """Milliseconds of wall-clock time `draw` takes, and what it drew."""
    ms, _, out = clocked(draw)
    return ms, out


def clocked(draw: Callable[[], bytes]) -> tuple[float, float, bytes]:
    """Milliseconds of wall-clock and of this process's CPU time `draw` takes, and what it
    drew. On a busy machine the wall clock counts the waits for a core too, which weigh
    more on a short task than on a long one; the CPU time counts only the work."""
    start, cpu = time.perf_counter(), time.process_time()
    out = draw()
    return (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000, out


def verdict(ratio: float) -> str:
    if ratio >= RATIO_TARGET:
        return f"{RATIO_TARGET:g}x target: met"
    return f"{RATIO_TARGET:g}x target: short, at {ratio:.2f}x"


def bench_board(
    board: Board, runs: int, theirs: list[Callable[[], bytes]] | None
) -> dict[str, Any]:
    """Time one game's boards (ours in a row, ours with no band reused, theirs between) and
    print its table; returns its figures."""
    presenter = presenter_for(board.game)
    names = list(NAMES[: board.seats])
    phases = [
        (label, boards_in_a_row(board, seed, start, runs)) for label, seed, start in board.phases
    ]
    forget_earlier_boards()
    cold_ms, _ = timed(lambda: presenter.board_png(phases[0][1][0], names))
    ours_all: list[float] = []
    fresh_all: list[float] = []
    chess_all: list[float] = []
    ours_cpu: list[float] = []
    chess_cpu: list[float] = []
    rows = []
    for label, views in phases:
        for view in views:  # every sprite of the phase, as a process that drew many games
            presenter.board_png(view, names)
        forget_earlier_boards()
        forget_texts()
        ours: list[float] = []
        chess: list[float] = []
        pngs: list[bytes] = []
        for i, view in enumerate(views):
            if theirs is not None:
                ms, cpu, _ = clocked(theirs[(len(chess_all) + i) % len(theirs)])
                chess.append(ms)
                chess_cpu.append(cpu)
            ms, cpu, png = clocked(partial(presenter.board_png, view, names))
            ours.append(ms)
            ours_cpu.append(cpu)
            pngs.append(png)
        forget_texts()
        fresh: list[float] = []
        for view, png in zip(views, pngs, strict=True):
            forget_earlier_boards()
            ms, fresh_png = timed(partial(presenter.board_png, view, names))
            fresh.append(ms)
            if png != fresh_png and pixels(png) != pixels(fresh_png):
                # (Not always the same bytes: ISA-L's deflate now and then writes the same
                # rows in other deflate blocks. Always the same picture.)
                raise SystemExit(f"{board.title} {label}: a reused part changed the picture")
        width, height = Image.open(io.BytesIO(pngs[-1])).size
        ours_all += ours
        fresh_all += fresh
        chess_all += chess
        rows.append((label, ours, fresh, chess, max(len(png) for png in pngs) / 1024))

    print(f"{board.title} board {width}x{height}, {len(ours_all)} boards in 3 phases")
    print(f"  first board in this process (builds palette and sprites): {cold_ms:.0f} ms")
    header = [("phase", 9), ("ours ms", 9), ("p95", 7), ("no reuse", 10), ("PNG kB", 8)]
    if theirs is not None:
        header += [("chess ms", 10), ("ratio", 8)]
    print("  " + "".join(f"{n:<{w}}" if i == 0 else f"{n:>{w}}" for i, (n, w) in enumerate(header)))
    for label, ours, fresh, chess, kb in rows:
        line = (
            f"  {label:<9}{statistics.median(ours):>9.2f}{percentile(ours, 0.95):>7.2f}"
            f"{statistics.median(fresh):>10.2f}{kb:>8.1f}"
        )
        if chess:
            ratio = statistics.median(chess) / statistics.median(ours)
            line += f"{statistics.median(chess):>10.1f}{ratio:>7.1f}x"
        print(line)
    median = statistics.median(ours_all)
    fresh_median = statistics.median(fresh_all)
    kb_max = max(r[4] for r in rows)
    figures: dict[str, Any] = {
        "ms_median": round(median, 3),
        "ms_p95": round(percentile(ours_all, 0.95), 3),
        "ms_no_reuse": round(fresh_median, 3),
        "ms_cold": round(cold_ms, 1),
        "png_kb_max": round(kb_max, 1),
        "width": width,
        "height": height,
    }
    time_verdict = "within" if median < MEDIAN_TARGET_MS else "OVER"
    size_verdict = "within" if kb_max < SIZE_TARGET_KB else "OVER"
    print(
        f"  median {median:.2f} ms ({fresh_median:.2f} ms with no band reused): {time_verdict}"
        f" the {MEDIAN_TARGET_MS:g} ms bar; largest PNG {kb_max:.1f} kB: {size_verdict} the"
        f" {SIZE_TARGET_KB:g} kB bar"
    )
    if chess_all:
        chess_median = statistics.median(chess_all)
        ratio = chess_median / median
        fresh_ratio = chess_median / fresh_median
        print(
            f"  chess bot {chess_median:.1f} ms: ours {ratio:.1f}x faster ({fresh_ratio:.1f}x with"
            f" no band reused); {verdict(ratio)}"
        )
        cpu, their_cpu = statistics.median(ours_cpu), statistics.median(chess_cpu)
        print(
            f"  in CPU time: ours {cpu:.2f} ms, the chess bot's {their_cpu:.1f} ms:"
            f" {their_cpu / cpu:.1f}x; {verdict(their_cpu / cpu)}"
        )
        figures |= {
            "chess_ms_median": round(chess_median, 1),
            "ratio": round(ratio, 1),
            "ratio_no_reuse": round(fresh_ratio, 1),
            "cpu_ms_median": round(cpu, 3),
            "chess_cpu_ms_median": round(their_cpu, 1),
            "cpu_ratio": round(their_cpu / cpu, 1),
        }
    return figures


def finished(board: Board, seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The public view at the end of one seeded random game, and every card a seat drew in
    it as its drawer saw it (High Voltage's; none in the other games)."""
    state = find_game(board.game).new_state(board.seats, seed)
    rng = random.Random(seed)
    drawn = []
    while not state.is_terminal():
        seat = state.current_seat()
        state.apply(a_move(board, state, rng))
        card = state.view(seat).get("drawn") if board.game == "high-voltage" else None
        if card:
            drawn.append(card)
    return state.view(None), drawn


def result_png(presenter: Presenter, end: dict[str, Any], names: list[str]) -> bytes:
    return presenter.end_png(end, names) or b""


def a_new_card(faces: Iterator[dict[str, Any]]) -> bytes:
    """The next drawn card's picture, drawn anew (the bot keeps the last 256 it drew)."""
    _card_png.cache_clear()
    return hv_card_png(next(faces))


def a_new_secret() -> bytes:
    hv_secret_png.cache_clear()
    return hv_secret_png("red")


def bench_one_off(runs: int) -> dict[str, Any]:
    """Time the pictures drawn once for a post rather than after every move: a drawn card (a
    different face each time), a secret, each game's result and the longest standings table,
    each drawn from nothing (no cached picture)."""
    pictures: dict[str, Callable[[], bytes]] = {}
    for board in BOARDS:
        presenter = presenter_for(board.game)
        end, drawn = finished(board, 11)
        names = list(NAMES[: board.seats])
        if presenter.end_png(end, names) is not None:  # Pylons and Sector 6 draw none
            pictures[f"{board.title} result"] = partial(result_png, presenter, end, names)
        if drawn:
            pictures["High Voltage drawn card"] = partial(a_new_card, iter(drawn * (runs + 1)))
    pictures["High Voltage secret"] = a_new_secret
    table = StandingsView(
        title="Pylons Swiss: standings",
        subtitle="After round 6 of 6",
        headings=("#", "Player", "Points", "Buchholz", "Wins", "Games"),
        lines=tuple(
            StandingLine(i + 1, f"Player {i + 1}", str(6 - i // 11), ("19½", "3"), 6)
            for i in range(MOST_LINES)
        ),
    )
    pictures[f"standings, {MOST_LINES} lines"] = partial(standings_png, table)
    print(f"One-off pictures, each drawn from nothing, {runs} times:")
    print(f"  {'picture':<30}{'ms':>8}{'CPU ms':>8}{'kB':>8}")
    figures: dict[str, Any] = {}
    for name, draw in pictures.items():
        draw()  # fonts and sprites, as a process that has drawn them before
        wall: list[float] = []
        cpu: list[float] = []
        for _ in range(runs):
            ms, cpu_ms, png = clocked(draw)
            wall.append(ms)
            cpu.append(cpu_ms)
        ms, cpu_ms, kb = statistics.median(wall), statistics.median(cpu), len(png) / 1024
        print(f"  {name:<30}{ms:>8.2f}{cpu_ms:>8.2f}{kb:>8.1f}")
        figures[name] = {"ms_median": round(ms, 2), "kb": round(kb, 1)}
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="boards in a row per phase")
    parser.add_argument("--chess-size", type=int, default=800, help="the chess board's pixels")
    args = parser.parse_args(argv)

    theirs = chess_boards(args.chess_size, 9 * args.runs)
    if isinstance(theirs, str):
        print(f"no chess bot to compare with: {theirs}")
        posts = None
    else:
        posts = theirs
        timed(posts[0])  # cairosvg's first drawing loads its fonts and caches
        print(
            f"the chess bot's board: python-chess SVG {args.chess_size}x{args.chess_size} with"
            " the last move, through cairosvg, one before each of ours"
        )
    figures = {board.game: bench_board(board, args.runs, posts) for board in BOARDS}
    one_off = bench_one_off(args.runs)
    hv = figures["high-voltage"]
    summary: dict[str, Any] = {
        "render_ms_median": hv["ms_median"],
        "render_ms_p95": hv["ms_p95"],
        "render_ms_cold": hv["ms_cold"],
        "png_kb_max": hv["png_kb_max"],
        "width": hv["width"],
        "height": hv["height"],
        "runs_per_position": args.runs,
        "chess_size": args.chess_size if posts is not None else None,
        "ratio_target": RATIO_TARGET,
        "games": figures,
        "one_off": one_off,
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
