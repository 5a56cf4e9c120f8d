"""Pylons in Discord: what the bot says after each pylon, the board, the opening choice and the
side each player is told at the start. Pylons has no secrets; the start message only makes
every game begin the same way."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

import render
from data import load_text
from hvbot import views
from hvbot.presenters.base import Presenter, View

if TYPE_CHECKING:
    from PIL import Image

    from hvbot.repository import GameRow

DIRECTIONS = {
    "horizontal": "west to east (columns A and X)",
    "vertical": "north to south (rows 1 and 24)",
}
END_REASONS = {
    "connected": "a player connected their two edges",
    "pylon_limit": "all 200 pylons are placed",
    "no_legal_cell": "no player can place a pylon any more",
}


class PylonsPresenter(Presenter):
    game = "pylons"
    rules = load_text("pylons/rules.md")

    def describe(self, applied: Sequence[str], view: View, actor: str) -> list[str]:
        lines = []
        for text in applied:
            if text == "keep":
                lines.append(f"{actor} keeps the board and moves first.")
            elif text == "mirror":
                lines.append(f"{actor} mirrors the swamps; the other player moves first.")
            elif text.startswith("place "):
                last = view["last"]
                links = len(last.get("links") or [])
                blocked = len(last.get("blocked") or [])
                made = f"{links} new link{'s' if links != 1 else ''}"
                extra = f", {blocked} blocked by crossings" if blocked else ""
                lines.append(f"{actor} placed a pylon on {text.split()[1]} ({made}{extra}).")
            else:
                lines.append(f"{actor}: {text}")
        return lines

    def scores(self, view: View, names: Sequence[str]) -> str:
        parts = [f"{names[p['seat']]} ({p['colour']}) {p['score']}" for p in view["players"]]
        return "Scores: " + " · ".join(parts) + f" · {view['pylons_left']} pylons left"

    def status(self, view: View, names: Sequence[str]) -> str:
        lines = [self.scores(view, names)]
        for p in view["players"]:
            lines.append(
                f"• {names[p['seat']]}: {p['colour']}, links {DIRECTIONS[p['direction']]}, "
                f"{p['pylons']} pylons"
            )
        return "\n".join(lines)

    def outcome(self, view: View, names: Sequence[str]) -> str:
        outcome = view["outcome"]
        why = END_REASONS.get(outcome["reason"], outcome["reason"])
        scores = " · ".join(f"{names[s]} {v}" for s, v in enumerate(outcome["scores"]))
        winners = outcome["winners"]
        verdict = f"**{names[winners[0]]} wins!**" if len(winners) == 1 else "**A draw!**"
        return f"Game over: {why}.\nScores: {scores}\n{verdict}"

    def waiting(self, view: View, who: str) -> str | None:
        if view["phase"] == "choose":
            return f"{who} chooses: keep the board and move first, or mirror the swamps."
        return None

    def board_png(self, view: View, names: Sequence[str]) -> bytes:
        return render.pylons_board_png(view, names=names)

    def board_image(self, view: View, names: Sequence[str]) -> Image.Image:
        return render.pylons_board_image(view, names=names)

    def public_buttons(self, game: GameRow, view: View) -> discord.ui.View | None:
        """The opening choice hides nothing, so its buttons sit on the board for all to see;
        only the opening player's click is accepted."""
        if view["phase"] != "choose":
            return None
        choice = discord.ui.View(timeout=None)
        for action, label, style in (
            ("keep", "Keep and move first", discord.ButtonStyle.primary),
            ("mirror", "Mirror the swamps", discord.ButtonStyle.secondary),
        ):
            choice.add_item(
                views.ActionButton(game.id, game.version, action, label=label, style=style)
            )
        return choice

    def secret(self, game: GameRow, view: View, seat: int) -> tuple[str, str, bytes]:
        player = view["players"][seat]
        colour = player["colour"]
        return (
            f"You play {colour.upper()}",
            f"In the Pylons game in <#{game.channel_id}> you are **{colour}**: link "
            f"{DIRECTIONS[player['direction']]} with one network of pylons.",
            render.pylons_seat_png(seat, colour, DIRECTIONS[player["direction"]]),
        )
