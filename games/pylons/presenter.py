"""Pylons in Discord: what the bot says after each pylon, the board, the opening choice and the
side each player is told at the start. Pylons has no secrets; the start message only makes
every game begin the same way."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from games.pylons import pictures
from games.pylons.rules.actions import Place, parse_action
from hvbot.messages.post import Choice
from hvbot.messages.presenters.base import Presenter, View

if TYPE_CHECKING:
    from PIL import Image


class PylonsPresenter(Presenter):
    game = "pylons"

    def _direction(self, direction: str) -> str:
        return self.word("pylons.directions", direction)

    def move_words(self, action: str) -> str:
        move = parse_action(action)
        if isinstance(move, Place):
            return self.texts("pylons.move.place", cell=move.cell)
        return self.texts(f"pylons.move.{move.text()}")

    def last_moves(self, view: View) -> list[str]:
        """The last action in words: a Pylons view keeps only the last one."""
        action = (view.get("last") or {}).get("action")
        return [self.move_words(action)] if action else []

    def describe(self, applied: Sequence[str], view: View, actor: str) -> list[str]:
        say = self.texts
        lines = []
        for text in applied:
            if text == "keep":
                lines.append(say("pylons.action.keep", actor=actor))
            elif text == "mirror":
                lines.append(say("pylons.action.mirror", actor=actor))
            elif text.startswith("place "):
                last = view["last"]
                links = len(last.get("links") or [])
                blocked = len(last.get("blocked") or [])
                lines.append(
                    say(
                        "pylons.action.place",
                        actor=actor,
                        cell=parse_action(text).cell,
                        links=say("pylons.action.links", count=links),
                        blocked=say("pylons.action.blocked", count=blocked) if blocked else "",
                    )
                )
            else:
                lines.append(say("pylons.action.other", actor=actor, action=text))
        return lines

    def scores(self, view: View, names: Sequence[str]) -> str:
        parts = [
            self.texts(
                "pylons.player_score",
                player=names[p["seat"]],
                colour=self.colour(p["colour"]),
                score=p["score"],
            )
            for p in view["players"]
        ]
        return self.texts(
            "pylons.scores",
            scores=" · ".join(parts),
            left=self.texts("pylons.left", count=view["pylons_left"]),
        )

    def status(self, view: View, names: Sequence[str]) -> str:
        lines = [self.scores(view, names)]
        for p in view["players"]:
            lines.append(
                self.texts(
                    "pylons.player_status",
                    player=names[p["seat"]],
                    colour=self.colour(p["colour"]),
                    direction=self._direction(p["direction"]),
                    pylons=self.texts("pylons.pylons", count=p["pylons"]),
                )
            )
        return "\n".join(lines)

    def outcome(self, view: View, names: Sequence[str]) -> str:
        say = self.texts
        outcome = view["outcome"]
        why = self.word("pylons.end_reasons", outcome["reason"])
        scores = " · ".join(f"{names[s]} {v}" for s, v in enumerate(outcome["scores"]))
        winners = outcome["winners"]
        verdict = (
            say("pylons.outcome.winner", player=names[winners[0]])
            if len(winners) == 1
            else say("pylons.outcome.draw")
        )
        return "\n".join(
            (
                say("pylons.outcome.over", reason=why),
                say("pylons.outcome.scores", scores=scores),
                verdict,
            )
        )

    def waiting(self, view: View, who: str) -> str | None:
        if view["phase"] == "choose":
            return self.texts("pylons.waiting", player=who)
        return None

    def board_png(self, view: View, names: Sequence[str], *, clock: str | None = None) -> bytes:
        return pictures.pylons_board_png(
            view, names=names, language=self.language, clock=clock, moves=self.last_moves(view)
        )

    def board_image(self, view: View, names: Sequence[str]) -> Image.Image:
        return pictures.pylons_board_image(
            view, names=names, language=self.language, moves=self.last_moves(view)
        )

    def public_choices(self, view: View) -> tuple[Choice, ...]:
        """The opening choice hides nothing, so its buttons sit on the board for all to see;
        only the opening player's click is accepted."""
        if view["phase"] != "choose":
            return ()
        return (
            Choice("keep", self.texts("pylons.buttons.keep"), "primary"),
            Choice("mirror", self.texts("pylons.buttons.mirror"), "secondary"),
        )

    def secret(self, channel_id: int, view: View, seat: int) -> tuple[str, str, bytes]:
        player = view["players"][seat]
        colour = self.colour(player["colour"])
        direction = self._direction(player["direction"])
        return (
            self.texts("pylons.secret.title", colour=colour.upper()),
            self.texts(
                "pylons.secret.text",
                channel=f"<#{channel_id}>",
                colour=colour,
                direction=direction,
            ),
            pictures.pylons_seat_png(seat, player["colour"], direction, language=self.language),
        )
