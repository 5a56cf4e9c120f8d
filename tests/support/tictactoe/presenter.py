"""Tic-tac-toe in Discord: what the bot says after each mark, the board, the status and the
mark each player is told at the start. The game has no secrets and no prompts: the defaults of
`Presenter` (one public action per turn) fit it."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from hvbot.messages.presenters.base import Presenter, View
from tictactoe import picture
from tictactoe.rules import MARKS, parse_action


class TicTacToePresenter(Presenter):
    game = "tic-tac-toe"

    def move_words(self, action: str) -> str:
        return self.texts("tictactoe.move.mark", cell=parse_action(action).cell)

    def describe(self, applied: Sequence[str], view: View, actor: str) -> list[str]:
        say = self.texts
        lines = []
        for text in applied:
            if text.startswith("mark "):
                mark = MARKS[view["last"]["seat"]]
                lines.append(say("tictactoe.action.mark", actor=actor, mark=mark, cell=text[5:]))
            else:
                lines.append(say("tictactoe.action.other", actor=actor, action=text))
        if view["line"]:
            lines.append(say("tictactoe.action.line", cells="-".join(view["line"])))
        return lines

    def scores(self, view: View, names: Sequence[str]) -> str:
        parts = [
            self.texts(
                "tictactoe.player_score", player=names[p["seat"]], mark=p["mark"], count=p["marks"]
            )
            for p in view["players"]
        ]
        free = self.texts("tictactoe.free", count=len(view["free"]))
        return self.texts("tictactoe.scores", scores=" · ".join(parts), free=free)

    def status(self, view: View, names: Sequence[str]) -> str:
        lines = [self.scores(view, names)]
        for p in view["players"]:
            marks = self.texts("tictactoe.marks", count=p["marks"])
            lines.append(
                self.texts(
                    "tictactoe.player_status", player=names[p["seat"]], mark=p["mark"], marks=marks
                )
            )
        return "\n".join(lines)

    def outcome(self, view: View, names: Sequence[str]) -> str:
        say = self.texts
        outcome = view["outcome"]
        winners = outcome["winners"]
        verdict = (
            say("tictactoe.outcome.winner", player=names[winners[0]])
            if len(winners) == 1
            else say("tictactoe.outcome.draw", first=names[0], second=names[1])
        )
        reason = self.word("tictactoe.end_reasons", outcome["reason"])
        return "\n".join((say("tictactoe.outcome.over", reason=reason), verdict))

    def headline(self, view: View, names: Sequence[str]) -> str:
        """The line written above the board: who is to play, or how the game ended."""
        outcome = view["outcome"]
        if outcome is None:
            seat = view["current_seat"]
            return self.texts(
                "picture.tictactoe.to_play", player=names[seat], mark=MARKS[seat], move=view["move"]
            )
        if len(outcome["winners"]) == 1:
            seat = outcome["winners"][0]
            return self.texts("picture.tictactoe.wins", player=names[seat], mark=MARKS[seat])
        return self.texts("picture.tictactoe.draw")

    def board_png(self, view: View, names: Sequence[str], *, clock: str | None = None) -> bytes:
        """The grid and its headline; `clock` is accepted like every game's and not drawn:
        the test game's picture has no panel to put it in."""
        return picture.board_png(view, self.headline(view, names))

    def board_image(self, view: View, names: Sequence[str]) -> Image.Image:
        return picture.board_image(view, self.headline(view, names))

    def secret(self, channel_id: int, view: View, seat: int) -> tuple[str, str, bytes]:
        mark = view["players"][seat]["mark"]
        return (
            self.texts("tictactoe.secret.title", mark=mark),
            self.texts("tictactoe.secret.text", channel=f"<#{channel_id}>", mark=mark),
            picture.mark_png(mark, self.texts("picture.tictactoe.you_play")),
        )
