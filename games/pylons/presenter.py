"""Pylons in Discord: what the bot says after each pylon, the board, the opening choice and the
side each player is told at the start. Pylons has no secrets; the start message only makes
every game begin the same way."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from games.pylons import pictures
from games.pylons.rules import textboard
from games.pylons.rules.actions import Place, parse_action
from hvbot.messages.post import Choice
from hvbot.messages.presenters.base import Presenter, View, alt_lines, rgb

if TYPE_CHECKING:
    from PIL import Image


def _place(cell: str, direction: str) -> int:
    """How far along a player's way a cell lies: its column (A = 0) for a player linking west
    to east, its row for one linking north to south."""
    return ord(cell[0]) - ord("A") if direction == "horizontal" else int(cell[1:])


def widest_network(view: View, seat: int) -> tuple[list[str], int] | None:
    """A player's network that reaches furthest along their way (its pylons, from one end to
    the other, and its links; the most pylons among equals), or None with no link yet. Its
    reach is the player's score."""
    direction = view["players"][seat]["direction"]
    parent: dict[str, str] = {}

    def root(cell: str) -> str:
        while parent.setdefault(cell, cell) != cell:
            cell = parent[cell]
        return cell

    links = [link["cells"] for link in view["links"] if link["seat"] == seat]
    for a, b in links:
        parent[root(a)] = root(b)
    networks: dict[str, list[str]] = {}
    for cell in parent:
        networks.setdefault(root(cell), []).append(cell)
    if not networks:
        return None

    def reach(cells: list[str]) -> tuple[int, int]:
        places = [_place(c, direction) for c in cells]
        return max(places) - min(places), len(cells)

    widest = max(networks.values(), key=reach)
    widest.sort(key=lambda c: _place(c, direction))
    members = set(widest)
    return widest, sum(a in members for a, _ in links)


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
            elif text.startswith("place ") and isinstance(placed := parse_action(text), Place):
                last = view["last"]
                links = len(last.get("links") or [])
                blocked = len(last.get("blocked") or [])
                lines.append(
                    say(
                        "pylons.action.place",
                        actor=actor,
                        cell=placed.cell,
                        links=say("pylons.action.links", count=links),
                        blocked=say("pylons.action.blocked", count=blocked) if blocked else "",
                    )
                )
            else:
                lines.append(say("pylons.action.other", actor=actor, action=text))
        return lines

    def accent(self, seat: int) -> int | None:
        """The colour of the seat's pylons on the board."""
        colours = pictures.PYLONS_THEME.seat_fill
        return rgb(colours[seat % len(colours)])

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

    def text_board(self, view: View, names: Sequence[str]) -> list[list[str]]:
        """The board one character a cell (32 wide, so a phone held upright shows whole
        rows), its legend, then each player's pylons as a list of cells, which a screen
        reader reads where a grid of dots would be noise, and the scores. Pylons hides
        nothing, so every reader gets the same text."""
        say = self.texts
        players = view["players"]
        who = [
            say("pylons.text.player", player=names[p["seat"]], colour=self.colour(p["colour"]))
            for p in players
        ]
        across = next((who[p["seat"]] for p in players if p["direction"] == "horizontal"), "")
        down = next((who[p["seat"]] for p in players if p["direction"] == "vertical"), "")
        legend = [
            say("pylons.text.marks", first=who[0], second=who[1]),
            say("pylons.text.borders", across=across, down=down),
        ]
        lists = [
            say(
                "pylons.text.pylons",
                player=who[seat],
                cells=", ".join(cells) or say("pylons.text.none"),
                count=len(cells),
            )
            for seat, cells in enumerate(textboard.pylons_by_seat(view))
        ]
        return [
            [*textboard.compact_board_lines(view), *legend],
            lists,
            self.status(view, names).splitlines(),
        ]

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

    def board_details(self, view: View, names: Sequence[str]) -> list[str]:
        """Each player's network that reaches furthest along their way (their score): where
        it starts and ends, its pylons and links; all on the public board."""
        say = self.texts
        out = []
        for player in view["players"]:
            seat = player["seat"]
            found = widest_network(view, seat)
            if found is None:
                out.append(say("pylons.alt.no_network", player=names[seat]))
                continue
            cells, links = found
            out.append(
                say(
                    "pylons.alt.network",
                    player=names[seat],
                    start=cells[0],
                    end=cells[-1],
                    pylons=say("pylons.pylons", count=len(cells)),
                    links=say("pylons.alt.links", count=links),
                )
            )
        return out

    def secret_alt(self, view: View, seat: int) -> str:
        player: dict[str, Any] = view["players"][seat]
        return alt_lines(
            self.texts(
                "pylons.alt.secret",
                colour=self.colour(player["colour"]),
                direction=self._direction(player["direction"]),
            )
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
