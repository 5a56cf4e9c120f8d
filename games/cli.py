"""The games' command line: random simulations, a game in the terminal, and the upkeep of
the games' stored board palettes.

    python -m games simulate --game high-voltage --players 4 --games 100 --seed 7
    python -m games play --game high-voltage --players 2 --seed 3 --seat 0
    python -m games games
    python -m games palettes
    python -m games replay game-42.json --picture final.png

`simulate` is the quickest check that a rules change still lets every game end by a rule:
it plays random legal games and prints one JSON line per game, then a JSON summary, and exits
non-zero if any game raised or ran past the action cap. `play` lets a person try the rules
against random seats. Both use only the common `State` interface, so a new game registered
by `games.register_all` works here without changing this file; `play` draws a game's
board with the `text_board` of its package's `textboard` module when it has one.
`palettes` rebuilds each game's board palette from its drawing code and rewrites the file it
is kept in (see `render.encode.StoredPalette`), after a change of the art.
`replay` checks a game record (`engine.records`, what the bot's /game export gives: see
docs/records.md): its format and version, a deal rebuilt from what it says was public,
every move legal in turn, and for a game over its result; it prints the result, and with
`--picture` draws the final board with the game's own pictures (the `board_png` of the
`pictures` package in the game's folder).
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, TextIO

from engine.core import Game, State
from engine.errors import GameError
from engine.records import (
    MAX_RECORD_BYTES,
    OVER,
    RecordError,
    Replayed,
    read_record,
    replay_record,
)
from games import all_games, find_game, plugins, register_all

if TYPE_CHECKING:
    from render.encode import StoredPalette

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
# Random High Voltage games take about 150-250 actions; a game still running after this many
# is stuck in a loop, which is a rules bug worth a non-zero exit.
DEFAULT_MAX_ACTIONS = 10_000


class UsageError(Exception):
    """Something the person typed on the command line cannot work; exit 2 with the message."""


# ---------------------------------------------------------------------- random games


def seat_rng(seed: int) -> random.Random:
    """The dice of the random seats in the game dealt from `seed`.

    Separate from the deal's own generator, so that changing how random seats choose never
    changes the cards dealt, and derived from the seed alone, so a reported seed replays the
    whole game.
    """
    return random.Random(f"random-seats:{seed}")


@dataclass(frozen=True)
class GameRun:
    """What one random game did, as one line of `simulate` output."""

    seed: int
    turns: int
    lines: int
    actions: int
    scores: tuple[int, ...] | None
    winners: tuple[int, ...] | None
    end_reason: str | None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seed": self.seed,
            "turns": self.turns,
            "lines": self.lines,
            "scores": list(self.scores) if self.scores is not None else None,
            "winners": list(self.winners) if self.winners is not None else None,
            "end_reason": self.end_reason,
            "actions": self.actions,
        }
        if self.error is not None:
            data["error"] = self.error
        return data


def turns_of(state: State) -> int:
    """Turns played, for games that count turns; otherwise the number of actions."""
    return int(getattr(state, "turns_played", len(state.history)))


def lines_of(state: State) -> int:
    """Lines scored so far, for games that score lines; zero for the others."""
    return len(getattr(state, "declared", ()))


def play_random_game(
    game: Game,
    players: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    max_actions: int = DEFAULT_MAX_ACTIONS,
) -> GameRun:
    """Deal from `seed` and let every seat play random legal actions until a rule ends it.

    Any exception is caught and reported in the result rather than raised, because a
    simulation exists to find exactly those; the seed alone reproduces the game.
    """
    rng = seat_rng(seed)
    state: State | None = None
    actions = 0
    try:
        state = game.new_state(players, seed, options)
        while not state.is_terminal():
            if actions >= max_actions:
                return _failed_run(
                    state, seed, actions, f"no rule ended the game in {max_actions} actions"
                )
            state.apply(state.sample_action(rng))
            actions += 1
        outcome = state.outcome()
        if outcome is None or not outcome.reason:
            return _failed_run(
                state, seed, actions, "the game is over but gives no outcome or reason"
            )
        return GameRun(
            seed=seed,
            turns=turns_of(state),
            lines=lines_of(state),
            actions=actions,
            scores=tuple(outcome.scores),
            winners=tuple(outcome.winners),
            end_reason=outcome.reason,
        )
    except Exception as exc:
        last = f" after {state.history[-1]!r}" if state is not None and state.history else ""
        return _failed_run(
            state, seed, actions, f"{type(exc).__name__} at action {actions + 1}{last}: {exc}"
        )


def _failed_run(state: State | None, seed: int, actions: int, error: str) -> GameRun:
    """A failed game's record: as much as is known, and the error."""
    return GameRun(
        seed=seed,
        turns=turns_of(state) if state is not None else 0,
        lines=lines_of(state) if state is not None else 0,
        actions=actions,
        scores=None,
        winners=None,
        end_reason=None,
        error=error,
    )


def summarise(runs: Sequence[GameRun], elapsed: float) -> dict[str, Any]:
    """The closing JSON line of `simulate`: how games ended and how long they took."""
    finished = [run for run in runs if run.ok]
    count = len(runs)
    return {
        "summary": True,
        "games": count,
        "failures": count - len(finished),
        "end_reasons": dict(sorted(Counter(run.end_reason for run in finished).items())),
        "mean_turns": round(sum(run.turns for run in finished) / len(finished), 2)
        if finished
        else None,
        "mean_lines": round(sum(run.lines for run in finished) / len(finished), 3)
        if finished
        else None,
        "ms_per_game": round(1000 * elapsed / count, 3) if count else None,
    }


# ---------------------------------------------------------------------- argument checks


def _game(name: str) -> Game:
    try:
        return find_game(name)
    except KeyError as exc:
        raise UsageError(exc.args[0]) from exc


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    """Read `name=value` options; values are JSON when they parse (numbers, true), else text."""
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise UsageError(f"--option takes name=value, not {pair!r}.")
        try:
            options[name] = json.loads(text)
        except json.JSONDecodeError:
            options[name] = text
    return options


def _players(game: Game, args: argparse.Namespace) -> int:
    """The seats asked for; without --players the command's default, brought into the game's
    range, so a two-player game runs without naming its only seat count."""
    if args.players is not None:
        return int(args.players)
    return min(max(args.default_players, game.min_seats), game.max_seats)


def _check_table(game: Game, players: int, seed: int, options: Mapping[str, Any]) -> None:
    """Let the game itself judge the player count and options, by dealing once."""
    try:
        game.new_state(players, seed, options)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc


# ---------------------------------------------------------------------- simulate


def run_simulate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    game = _game(args.game)
    options = _options(args.option)
    if args.games < 1:
        raise UsageError("--games must be at least 1.")
    args.players = _players(game, args)
    _check_table(game, args.players, args.seed, options)
    runs = []
    elapsed = 0.0
    for i in range(args.games):
        started = time.perf_counter()
        run = play_random_game(game, args.players, args.seed + i, options, args.max_actions)
        elapsed += time.perf_counter() - started
        runs.append(run)
        print(json.dumps(run.to_json()), file=out, flush=True)
        if not run.ok:
            print(
                f"game with seed {run.seed} failed: {run.error} (replay it with "
                f"--seed {run.seed} --games 1)",
                file=err,
            )
    summary = summarise(runs, elapsed)
    summary = {"summary": True, "game": game.name, "players": args.players, **summary}
    print(json.dumps(summary), file=out, flush=True)
    if summary["failures"]:
        print(f"{summary['failures']} of {len(runs)} games did not end by a rule.", file=err)
        return EXIT_FAILED
    return EXIT_OK


# ---------------------------------------------------------------------- play


def optional_module(name: str) -> ModuleType | None:
    """The module `name` if a game has one (None if it has not); a module that exists but
    fails to import raises: that is shown, not hidden."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        return None


@dataclass(frozen=True)
class TextUI:
    """How a game shows itself in a terminal: found by convention, with a plain fallback."""

    board: Callable[[Mapping[str, Any]], str]
    prompt: Callable[[Mapping[str, Any]], list[str]]
    forms: str

    @classmethod
    def for_state(cls, state: State) -> TextUI:
        """The `textboard` module next to the game's state class, if the game has one."""
        package = type(state).__module__.rpartition(".")[0]
        module = optional_module(f"{package}.textboard")
        return cls(
            board=getattr(module, "text_board", _plain_board),
            prompt=getattr(module, "prompt_lines", lambda view: []),
            forms=getattr(module, "ACTION_FORMS", "Type an action as the game writes it."),
        )


def _plain_board(view: Mapping[str, Any]) -> str:
    """A game without a text board still shows its view, minus the long history."""
    return json.dumps({k: v for k, v in view.items() if k != "history"}, indent=1)


def _examples(state: State, per_kind: int = 2) -> list[str]:
    """A few legal actions now, of every kind, so `help` shows real cells and orientations."""
    seen: Counter[str] = Counter()
    picked = []
    for action in state.legal_actions():
        text = action.text() if hasattr(action, "text") else str(action)
        kind = text.split()[0]
        if seen[kind] < per_kind:
            seen[kind] += 1
            picked.append(text)
    return picked


class TerminalGame:
    """One person against random seats, reading actions from a text stream."""

    def __init__(
        self, state: State, human: int, rng: random.Random, inp: TextIO, out: TextIO
    ) -> None:
        self.state = state
        self.human = human
        self.rng = rng
        self.inp = inp
        self.out = out
        self.ui = TextUI.for_state(state)

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)
        self.out.flush()

    def view(self) -> dict[str, Any]:
        """Everything shown to the person comes from here: their own seat's view."""
        return self.state.view(self.human)

    def run(self, max_actions: int = DEFAULT_MAX_ACTIONS) -> int:
        self.say(f"You are seat {self.human}. Type 'help' for the actions, 'quit' to leave.")
        self.show_board()
        while True:
            if self.state.is_terminal():
                self.show_end()
                return EXIT_OK
            if len(self.state.history) > max_actions:
                self.say(f"The game ran past {max_actions} actions without ending; stopping.")
                return EXIT_FAILED
            if self.state.current_seat() != self.human:
                self.play_random_seats()
                if not self.state.is_terminal():
                    self.show_board()
                continue
            self.say(*self.ui.prompt(self.view()))
            line = self.ask()
            if line is None:
                self.say("", "End of input: leaving the game.")
                return EXIT_OK
            if not self.handle(line):
                self.say("You left the game.")
                return EXIT_OK

    def ask(self) -> str | None:
        """The next non-empty line, or None at the end of input."""
        while True:
            self.out.write(f"seat {self.human}> ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                return None
            if not self.inp.isatty():
                self.out.write(line if line.endswith("\n") else line + "\n")
            if line.strip():
                return line.strip()

    def handle(self, line: str) -> bool:
        """Act on one line from the person; False when they want to stop."""
        word = line.lower()
        if word in ("quit", "exit", "q"):
            return False
        if word in ("help", "?", "h"):
            self.say(self.ui.forms, "Legal now, for example: " + " · ".join(_examples(self.state)))
            return True
        if word == "board":
            self.show_board()
            return True
        try:
            self.state.apply(line)
        except GameError as exc:
            self.say(str(exc))
            return True
        if self.state.current_seat() == self.human and not self.state.is_terminal():
            self.show_board()
        return True

    def play_random_seats(self) -> None:
        """Random seats act until it is the person's turn; one printed line per seat's turn."""
        seat = self.state.current_seat()
        done: list[str] = []
        while not self.state.is_terminal() and self.state.current_seat() != self.human:
            if self.state.current_seat() != seat:
                self.say(f"Seat {seat}: {', '.join(done)}")
                seat, done = self.state.current_seat(), []
            action = self.state.sample_action(self.rng)
            self.state.apply(action)
            done.append(action.text() if hasattr(action, "text") else str(action))
        if done:
            self.say(f"Seat {seat}: {', '.join(done)}")

    def show_board(self) -> None:
        self.say("", self.ui.board(self.view()), "")

    def show_end(self) -> None:
        outcome = self.state.outcome()
        self.show_board()
        if outcome is None:
            return
        self.say(f"Game over: {outcome.reason.replace('_', ' ')}.")
        colours = list(outcome.details.get("colours", ()))
        for seat, score in enumerate(outcome.scores):
            who = " (you)" if seat == self.human else ""
            colour = f", {colours[seat]}" if seat < len(colours) else ""
            self.say(f"  seat {seat}{who}{colour}: {score} points")
        unowned = outcome.details.get("unowned")
        if unowned:
            self.say(f"  no one's: {', '.join(unowned)}")
        winners = ", ".join(f"seat {s}" for s in outcome.winners)
        shared = " (a shared win)" if len(outcome.winners) > 1 else ""
        self.say(f"Winner: {winners}{shared}.")


def run_play(args: argparse.Namespace, inp: TextIO, out: TextIO) -> int:
    game = _game(args.game)
    options = _options(args.option)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    args.players = _players(game, args)
    _check_table(game, args.players, seed, options)
    if not 0 <= args.seat < args.players:
        raise UsageError(f"--seat must be 0-{args.players - 1} for {args.players} players.")
    state = game.new_state(args.players, seed, options)
    result = TerminalGame(state, args.seat, seat_rng(seed), inp, out).run()
    if state.is_terminal():
        print(f"This deal was seed {seed}.", file=out)
    return result


def run_games(out: TextIO) -> int:
    for game in all_games():
        aliases = ", ".join(game.aliases)
        print(
            f"{game.name}: {game.title}, {game.min_seats}-{game.max_seats} players ({aliases})",
            file=out,
        )
    return EXIT_OK


# ---------------------------------------------------------------------- palettes


def stored_palettes() -> list[StoredPalette]:
    """Every game's stored board palette: the `STORED_PALETTE` of the `pictures` package in
    the game's folder (where its rules sit), for the games whose pictures keep one."""
    found = []
    for plugin in plugins():
        folder = plugin.rules.rpartition(".")[0]
        if not folder:
            continue
        module = optional_module(f"{folder}.pictures")
        if module is None:
            continue
        stored = getattr(module, "STORED_PALETTE", None)
        if stored is not None:
            found.append(stored)
    return found


def run_palettes(out: TextIO) -> int:
    for stored in stored_palettes():
        done = "rewritten" if stored.refresh() else "unchanged"
        print(f"{_shown(stored.path)}: {done}", file=out)
    return EXIT_OK


def _shown(path: Path) -> Path:
    """`path` from the working directory when it is below it (the usual run, from the
    repository), else in full."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


# ---------------------------------------------------------------------- replay


def run_replay(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Check the record in `args.file`; what is wrong with it is one line on `err` and exit 1.

    The file may come from anyone: no more of it is read than a record may hold (a larger
    one is refused before it is parsed), and everything printed of it is `terminal_text`."""
    try:
        with Path(args.file).open("rb") as file:
            raw = file.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {args.file}: {exc.strerror or exc}") from exc
    try:
        replayed = replay_record(read_record(raw))
    except RecordError as exc:
        print(terminal_text(f"{args.file}: not a valid game record: {exc}"), file=err)
        return EXIT_FAILED
    if args.json:
        print(json.dumps(replay_summary(replayed)), file=out)
    else:
        for line in replay_lines(replayed):
            print(terminal_text(line), file=out)
    if args.picture is not None:
        try:
            Path(args.picture).write_bytes(record_picture(replayed))
        except OSError as exc:
            raise UsageError(f"cannot write {args.picture}: {exc.strerror or exc}") from exc
    return EXIT_OK


# Characters that steer a terminal or the direction of the text rather than show: control
# characters (the escape that starts a terminal's commands among them), line and paragraph
# separators, lone surrogates, and the marks that reorder text (a name could turn the rest of
# the line around).
_UNSHOWN = frozenset(("Cc", "Cs", "Zl", "Zp"))
_REORDERING = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def terminal_text(text: str) -> str:
    """`text` as it may be printed: a name in a record is anyone's text, and a terminal acts on
    the control characters in what it shows (set its title, clear the screen). Those, and the
    marks that reorder a line, are written as Python escapes (`\\x1b`); the rest as it is."""
    return "".join(
        ascii(c)[1:-1] if c in _REORDERING or unicodedata.category(c) in _UNSHOWN else c
        for c in text
    )


def _names(record: Mapping[str, Any]) -> list[str]:
    """The record's names by seat (checked by `replay_record`: texts of at most 100
    characters), the seat's number where a name is missing."""
    return [str(p.get("name") or f"seat {p.get('seat')}") for p in record["players"]]


def replay_summary(replayed: Replayed) -> dict[str, Any]:
    """What `replay --json` prints: the checked record's game, moves and result."""
    record = replayed.record
    outcome = replayed.outcome
    return {
        "game": record["game"],
        "seats": record["seats"],
        "players": _names(record),
        "status": record["status"],
        "moves": len(record["moves"]),
        "legal": True,
        "result": outcome.to_dict() if outcome is not None else None,
    }


def replay_lines(replayed: Replayed) -> list[str]:
    """The checked record in words: the table, the moves, and the result or who is to move."""
    record, state = replayed.record, replayed.state
    names = _names(record)
    lines = [
        f"{state.game.title}, {state.seats} players: {len(record['moves'])} moves, all legal "
        "from a deal that shows what the record says was shown."
    ]
    outcome = replayed.outcome
    if record["status"] == OVER and outcome is not None:
        lines.append(f"Game over: {outcome.reason.replace('_', ' ')}; the recorded result holds.")
        colours = list(outcome.details.get("colours", ()))
        for seat, score in enumerate(outcome.scores):
            colour = f" ({colours[seat]})" if seat < len(colours) else ""
            won = "  winner" if seat in outcome.winners else ""
            lines.append(f"  {names[seat]}{colour}: {score} points{won}")
        return lines
    current = state.current_seat()
    to_move = names[current] if current is not None and 0 <= current < len(names) else "nobody"
    if record["status"] == "stopped":
        lines.append("Stopped before the rules ended it (a forfeit): no result is recorded.")
    else:
        lines.append(f"Still being played: {to_move} to move.")
    return lines


def record_picture(replayed: Replayed) -> bytes:
    """The final board as a PNG, drawn by the game's own pictures from its reader's view."""
    module = None
    for found in plugins():
        if found.name == replayed.state.game.name:
            module = optional_module(f"{found.rules.rpartition('.')[0]}.pictures")
    draw = getattr(module, "board_png", None)
    if draw is None:
        raise UsageError(f"{replayed.state.game.title} has no pictures to draw its board with.")
    return bytes(draw(replayed.view(), names=_names(replayed.record)))


# ---------------------------------------------------------------------- entry point


@cache
def build_parser() -> argparse.ArgumentParser:
    """The command line's parser, built once a process: `main` may run many times in one (a
    caller of `main`, the tests), and building it is most of the cost of a short command
    (argparse looks up the translation of each of its messages on the disk)."""
    parser = argparse.ArgumentParser(
        prog="python -m games", description="Run the game rules from the command line."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def table(sub: argparse.ArgumentParser, players: int) -> None:
        sub.add_argument("--game", default="high-voltage", help="game name or alias")
        sub.add_argument(
            "--players",
            type=int,
            default=None,
            help=f"seats at the table (default {players}, or the nearest the game allows)",
        )
        sub.set_defaults(default_players=players)
        sub.add_argument(
            "--option", action="append", default=[], metavar="NAME=VALUE", help="a game option"
        )
        sub.add_argument(
            "--mode",
            dest="option",
            action="append",
            type="mode={}".format,
            metavar="MODE",
            help="short for --option mode=MODE, for games with a mode",
        )

    simulate = commands.add_parser("simulate", help="play random games and report how they end")
    table(simulate, 4)
    simulate.add_argument("--games", type=int, default=100, help="how many games")
    simulate.add_argument("--seed", type=int, default=0, help="game i is dealt from seed + i")
    simulate.add_argument(
        "--max-actions",
        type=int,
        default=DEFAULT_MAX_ACTIONS,
        help="a game still running after this many actions counts as failed",
    )

    play = commands.add_parser("play", help="play in the terminal against random seats")
    table(play, 2)
    play.add_argument("--seed", type=int, default=None, help="deal (default: a random one)")
    play.add_argument("--seat", type=int, default=0, help="your seat")

    replay = commands.add_parser(
        "replay", help="check a game record (/game export) and print its result"
    )
    replay.add_argument("file", help="the record's JSON file")
    replay.add_argument(
        "--picture", metavar="OUT.png", default=None, help="draw the final board to this PNG"
    )
    replay.add_argument("--json", action="store_true", help="print the result as one JSON object")

    commands.add_parser("games", help="list the games")
    commands.add_parser(
        "palettes", help="rebuild the stored board palettes after a change of the art"
    )
    return parser


def main(
    argv: Sequence[str] | None = None,
    inp: TextIO | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Run one command; returns the exit status (0 fine, 1 a game failed, 2 bad arguments)."""
    register_all()  # the games this command line knows, as the bot does
    inp, out, err = inp or sys.stdin, out or sys.stdout, err or sys.stderr
    args = build_parser().parse_args(argv)
    try:
        if args.command == "simulate":
            return run_simulate(args, out, err)
        if args.command == "play":
            return run_play(args, inp, out)
        if args.command == "palettes":
            return run_palettes(out)
        if args.command == "replay":
            return run_replay(args, out, err)
        return run_games(out)
    except UsageError as exc:
        print(f"python -m games {args.command}: error: {exc}", file=err)
        return EXIT_USAGE
