"""High Voltage in Discord: what the bot says after each action, the pictures, the private
prompts (a drawn card; the lines you may declare) and the secret colour.

Everything here reads views and public action text only, so nothing said here can carry a
secret that its reader may not know.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import render
from data import load_text
from hvbot import views
from hvbot.posts import Post, render_off_loop
from hvbot.presenters.base import Presenter, View

if TYPE_CHECKING:
    from PIL import Image

    from hvbot.repository import GameRow

PLACE_WORDS = {"here": "where it was", "empty": "in the empty cell"}
END_REASONS = {
    "energy_tokens_exhausted": "the last energy token was placed",
    "last_card_placed": "the last face-down card was laid",
    "no_valid_line_possible": "no valid line can be made any more",
    "no_legal_action": "the player to move had no legal action",
}


def _degrees(word: str) -> str:
    return word.removeprefix("r") + "°"


def is_peek(action: str) -> bool:
    """`draw C3` alone: the drawer looks at a card; nothing public has happened yet."""
    words = [w for w in action.split() if not w.startswith("special=")]
    return len(words) == 2 and words[0] == "draw"


def describe_action(action: str, actor: str, *, last_cells: Sequence[str] = ()) -> str:
    """One line saying what an action did, for the public post after it."""
    words = action.split()
    special = ""
    if words and words[-1].startswith("special="):
        kind = words.pop().split("=", 1)[1]
        special = " (special token: double turn)" if kind == "double" else " (special token)"
    verb, args = words[0], words[1:]
    if verb == "draw" and len(args) == 3:
        target = args[1]
        where = PLACE_WORDS.get(target, target)
        if target == "empty" and len(last_cells) == 2:
            dest = [c for c in last_cells if c != args[0]]
            where = f"in the empty cell {dest[0]}" if dest else where
        return f"{actor} drew {args[0]} and laid it {where}, turned {_degrees(args[2])}{special}."
    if verb == "draw":
        return f"{actor} is looking at the card on {args[0]}{special}."
    if verb == "rotate":
        return f"{actor} turned {args[0]} to {_degrees(args[1])}{special}."
    if verb == "move":
        return f"{actor} moved {args[0]} into the empty cell, turned {_degrees(args[1])}{special}."
    if verb == "swap":
        return (
            f"{actor} swapped {args[0]} and {args[1]} "
            f"(turned {_degrees(args[2])} and {_degrees(args[3])}){special}."
        )
    if verb == "declare" and args == ["none"]:
        return f"{actor} declared no (more) lines."
    if verb == "declare":
        return f"{actor} declared the line {args[0]}."
    return f"{actor}: {action}"


def describe_line(record: Mapping[str, Any]) -> str:
    points = ", ".join(f"{c} +{p}" for c, p in record["points"].items() if p)
    tokens = record.get("point_tokens", 0)
    extra = f"; {tokens} point token{'s' if tokens != 1 else ''}" if tokens else ""
    return f"Line {record['line']} ({len(record['cells'])} cards): {points}{extra}."


class HighVoltagePresenter(Presenter):
    game = "high-voltage"
    rules = load_text("high_voltage/rules.md")

    def is_public(self, applied: Sequence[str], view: View) -> bool:
        return not (view["phase"] == "placing" and all(is_peek(t) for t in applied))

    def describe(self, applied: Sequence[str], view: View, actor: str) -> list[str]:
        last = view["last"]
        lines = []
        for text in applied:
            if is_peek(text):
                continue
            if text.startswith(("place ", "draw ")):
                # A two-step draw is told as one: the placement's summary names the card.
                summary = last["actions"][-1] if last["actions"] else text
                lines.append(describe_action(summary, actor, last_cells=last["cells"]))
                continue
            lines.append(describe_action(text, actor, last_cells=last["cells"]))
            record = next((r for r in last["lines"] if f"declare {r['line']}" == text), None)
            if record:
                lines.append(describe_line(record))
        return lines

    def scores(self, view: View, names: Sequence[str]) -> str:
        companies = " · ".join(f"{c} {v}" for c, v in view["company_scores"].items())
        return (
            f"Companies: {companies} · energy tokens left {view['energy_supply']} · "
            f"face-down cards {view['face_down']}"
        )

    def status(self, view: View, names: Sequence[str]) -> str:
        lines = [self.scores(view, names)]
        for player in view["players"]:
            lines.append(
                f"• {names[player['seat']]}: {player['action_tokens']} action, "
                f"{player['special_tokens']} special, {player['point_tokens']} point tokens"
            )
        return "\n".join(lines)

    def outcome(self, view: View, names: Sequence[str]) -> str:
        outcome = view["outcome"]
        details = outcome["details"]
        rows = []
        for seat, score in enumerate(outcome["scores"]):
            colour = details["colours"][seat]
            company = details["company_scores"][colour]
            tokens = details["point_tokens"][seat]
            rows.append(f"• {names[seat]}: {colour}, {company} + {tokens} tokens = **{score}**")
        unowned = details.get("unowned") or []
        if unowned:
            rows.append("• no one's: " + ", ".join(unowned))
        winners = [names[s] for s in outcome["winners"]]
        verdict = (
            f"**{winners[0]} wins!**"
            if len(winners) == 1
            else "**Shared win: " + ", ".join(winners) + "!**"
        )
        why = END_REASONS.get(outcome["reason"], outcome["reason"])
        return f"Game over: {why}.\n" + "\n".join(rows) + "\n" + verdict

    def waiting(self, view: View, who: str) -> str | None:
        if view["phase"] == "declaring":
            return f"{who} closed a line and is choosing what to declare."
        if view["phase"] == "placing":
            return f"{who} is placing the card they drew."
        return None

    def turn_note(self, view: View) -> str:
        return " (second action of a double turn)" if view["actions_taken"] else ""

    def board_png(self, view: View, names: Sequence[str]) -> bytes:
        return render.board_png(view, names=names)

    def board_image(self, view: View, names: Sequence[str]) -> Image.Image:
        return render.board_image(view, names=names)

    def end_png(self, view: View, names: Sequence[str]) -> bytes:
        return render.end_png(view, names=names)

    async def prompt(self, game: GameRow, view: View) -> Post | None:
        if view["phase"] == "placing" and view["drawn"] and "paths" in view["drawn"]:
            picture = await render_off_loop(render.card_png, view["drawn"])
            cell = view["drawn"]["cell"]
            return Post(
                f"Your card from **{cell}** (only you can see it). Put it back on {cell} "
                f"(**Here**) or into the empty cell {view['empty_cell']}, turned as shown:",
                files=[("card.png", picture)],
                view=views.place_view(game.id, game.version),
            )
        if view["phase"] == "declaring" and view["closable"]:
            rows = []
            for line in view["closable"]:
                points = ", ".join(f"{c} +{p}" for c, p in line["points"].items() if p)
                rows.append(
                    f"• **{line['line']}**: {line['length']} cards ({line['sides'][0]} to "
                    f"{line['sides'][1]}); {points}; you take {line['point_tokens']} "
                    "point token(s)"
                )
            return Post(
                "You closed these lines. Declare them in the order you choose (each one may "
                "change the others), or none:\n" + "\n".join(rows),
                view=views.declare_view(game.id, game.version, view["closable"]),
            )
        return None

    def secret(self, game: GameRow, view: View, seat: int) -> tuple[str, str, bytes]:
        colour = view["players"][seat]["colour"]
        return (
            f"Your company: {colour.upper()}",
            f"In the High Voltage game in <#{game.channel_id}> you play for the **{colour}** "
            "company. Keep it secret: the others only learn it at the end.",
            render.secret_png(colour),
        )
