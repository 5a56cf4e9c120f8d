"""Sector 6 in Discord: what the bot says after each action, the maze picture, the drawn tile
shown to its drawer alone, the buttons for the decisions after a move, and the colour each
player is told at the start.

Only the drawn tile is private (the engine's public view says only that a tile is drawn), so
a bare `draw` gets no public post, like a High Voltage draw: its drawer gets the tile in a
private prompt and places it with `/s6 place`. Everything after a move hides nothing, so
those choices are buttons on the public board post. Everything here reads views and public
action text only, so nothing said in public can carry the drawn tile's face.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

import render
from data import load_text
from hvbot import views
from hvbot.posts import Post, render_off_loop
from hvbot.presenters.base import Presenter, View

if TYPE_CHECKING:
    from PIL import Image

    from hvbot.repository import GameRow

END_REASONS = {
    "all_oxygen_held": "every oxygen marker left lies under a prisoner",
    "no_one_can_move": "no prisoner can move any more",
    "turn_limit": "the turn limit was reached",
}
MODES = {
    "full": "full (life sentence): rotations turn meshing gears too",
    "veteran": "veteran: rotations without gears",
    "novice": "novice: no rotations, collect only",
}
WAYS = {"left": "anticlockwise", "right": "clockwise"}
MAX_BUTTONS = 25  # Discord's limit per message
PER_ROW = 5  # Discord's limit per row


def _plural(n: int, word: str) -> str:
    return f"{n} {word if n == 1 else word + 's'}"


def _tile_at(view: View, cell: str | None) -> Mapping[str, Any] | None:
    return next((t for t in view["tiles"] if t["cell"] == cell), None)


def _colours(view: View) -> dict[str, str]:
    """Marker colour by value, as the placed tiles show them (a marker has its tile's colour)."""
    return {str(t["value"]): t["colour"] for t in view["tiles"] if t["kind"] == "tile"}


def _markers(counts: Mapping[str, int], colours: Mapping[str, str]) -> str:
    """`2 blue, 1 red` from marker counts by value, most valuable first."""
    parts = [
        f"{n} {colours.get(value, value)}"
        for value, n in sorted(counts.items(), key=lambda kv: -int(kv[0]))
        if n
    ]
    return ", ".join(parts) or "none"


def _placing_rule(placed: int, *, galleries: bool) -> str:
    """Where the next piece may go, as the construction rules say (see sector6.md)."""
    if placed == 0:
        return "may go on any cell of the table"
    rule = "must touch the first piece" if placed == 1 else "must touch at least two pieces"
    if galleries:
        rule += ", and one of its open sides must meet an open side of a neighbour"
    return rule


def act_choices(view: View) -> list[tuple[str, str]]:
    """(action, button label) for each decision open to the seat to move after a move or when
    blocked, from the public view alone; mirrors the engine's legal actions in those steps."""
    step, rotations = view["step"], view["rules"]["rotations"]
    if view["phase"] != "play":
        return []
    if step == "act":
        cell = view["pending"]
        tile = _tile_at(view, cell) or {}
        out = []
        if tile.get("marker"):
            out.append(("collect", f"Collect the {tile['marker']} on {cell}"))
        if rotations:
            out += _turns(cell)
        return [*out, ("done", "Done")]
    if step == "blocked":
        if not rotations:
            return [("pass", "Pass")]
        cells = view["players"][view["current_seat"]]["prisoners"]
        return [choice for cell in sorted(cells) for choice in _turns(cell)]
    return []


def _turns(cell: str) -> list[tuple[str, str]]:
    return [
        (f"rotate {cell} left", f"Turn {cell} anticlockwise ⟲"),
        (f"rotate {cell} right", f"Turn {cell} clockwise ⟳"),
    ]


def buttons_fit(view: View) -> bool:
    """Whether the open choices fit on one message's buttons (else `/s6 rotate` with its
    cell autocomplete offers them; with two prisoners per player they always fit)."""
    return len(act_choices(view)) <= MAX_BUTTONS


class Sector6Presenter(Presenter):
    game = "sector6"
    rules = load_text("sector6/rules.md")
    modes = MODES

    def is_public(self, applied: Sequence[str], view: View) -> bool:
        """A bare draw shows a tile to its drawer only: nothing public has happened yet."""
        return not all(text == "draw" for text in applied)

    # ------------------------------------------------------------------ what happened

    def describe(self, applied: Sequence[str], view: View, actor: str) -> list[str]:
        lines = [line for text in applied if (line := self._describe_one(text, view, actor))]
        built = any(t.startswith("place ") for t in applied) and view["phase"] != "build"
        if built:
            lines.append(
                "The maze is complete: every tile has its oxygen marker and every prisoner "
                "stands on its entry point. The race for oxygen begins."
            )
        return lines

    def _describe_one(self, text: str, view: View, actor: str) -> str:
        words = text.split()
        verb, args = words[0], words[1:]
        if verb == "draw":
            return ""  # told with the placement, which shows the tile to everyone
        if verb == "place" and args[:1] == ["entry"]:
            return f"{actor} placed an entry point on {args[1]}."
        if verb == "place":
            tile = _tile_at(view, args[0]) or {}
            walls = len(tile.get("walls") or ())
            return (
                f"{actor} drew a {tile.get('colour', '')} tile "
                f"({_plural(walls, 'wall')}) and placed it on {args[0]}."
            )
        if verb == "move":
            return self._describe_move(args, view, actor)
        if verb == "collect":
            cell = view["last"]["collected"]
            tile = _tile_at(view, cell) or {}
            return (
                f"{actor} collected the {tile.get('colour', '')} oxygen marker worth "
                f"{tile.get('value', '?')} from {cell}."
            )
        if verb == "rotate":
            return self._describe_rotation(args, view, actor)
        if verb == "done":
            return f"{actor} left the tile as it was."
        if verb == "pass":
            return f"{actor} cannot move either prisoner and passes."
        return f"{actor}: {text}"

    @staticmethod
    def _describe_move(args: Sequence[str], view: View, actor: str) -> str:
        line = f"{actor} moved a prisoner from {args[0]} to {args[1]}."
        turn_over = view["phase"] == "play" and view["step"] != "act"
        if turn_over and view["last"]["actions"][-1:] == [f"move {args[0]} {args[1]}"]:
            line += f" Nothing to collect on {args[0]}, so the turn passes."
        return line

    @staticmethod
    def _describe_rotation(args: Sequence[str], view: View, actor: str) -> str:
        last = view["last"]
        # The engine logs the cell even when the player left it out ("rotate left").
        cell = args[0] if len(args) == 2 else (last["rotated"] or ["the tile"])[-1]
        way = args[-1]
        line = f"{actor} turned {cell} one side {WAYS.get(way, way)}."
        geared = list(last["geared"])
        if geared and len(last["rotated"]) <= 1:
            line += f" Its gears turned {', '.join(geared)} the other way."
        elif geared:
            line += f" Gears turned this turn: {', '.join(geared)}."
        return line

    # ------------------------------------------------------------------ scores and status

    def scores(self, view: View, names: Sequence[str]) -> str:
        parts = [f"{names[p['seat']]} ({p['colour']}) {p['score']}" for p in view["players"]]
        if view["phase"] == "build":
            extra = f"{_plural(view['pieces_to_place'], 'piece')} left to place"
        else:
            extra = f"{_plural(view['free_markers'], 'free marker')} on the board"
        return "Oxygen: " + " · ".join(parts) + f" · {extra}"

    def status(self, view: View, names: Sequence[str]) -> str:
        lines = [self.scores(view, names), f"Mode: {MODES.get(view['options']['mode'], '?')}."]
        colours = _colours(view)
        for p in view["players"]:
            who = f"• {names[p['seat']]}: {p['colour']} {p['shape']}s"
            if view["phase"] == "build":
                lines.append(
                    f"{who}, {_plural(p['supply_left'], 'tile')} and "
                    f"{_plural(p['entries_left'], 'entry point')} to place"
                )
            else:
                where = " and ".join(p["prisoners"]) or "nowhere"
                lines.append(f"{who} on {where}; collected {_markers(p['collected'], colours)}")
        return "\n".join(lines)

    def outcome(self, view: View, names: Sequence[str]) -> str:
        outcome = view["outcome"]
        details = outcome["details"]
        colours = _colours(view)
        rows = []
        for seat, score in enumerate(outcome["scores"]):
            held = details["taken_at_end"][seat]
            extra = f" (of which {', '.join(map(str, held))} held at the end)" if held else ""
            markers = _markers(details["collected"][seat], colours)
            rows.append(f"• {names[seat]}: **{score}**: {markers}{extra}")
        why = END_REASONS.get(outcome["reason"], outcome["reason"])
        if outcome["reason"] == "turn_limit":
            why += f" ({view['max_competition_turns']} turns)"
        return f"Game over: {why}.\n" + "\n".join(rows) + "\n" + self._verdict(outcome, names)

    @staticmethod
    def _verdict(outcome: Mapping[str, Any], names: Sequence[str]) -> str:
        winners = [names[s] for s in outcome["winners"]]
        decided = outcome["details"]["decided_by"]
        if len(winners) > 1:
            order = ", then ".join(outcome["details"]["tie_break"])
            return (
                "**Shared win: " + ", ".join(winners) + "!** (equal oxygen, and equal "
                f"markers of each colour compared: {order})"
            )
        if decided == "score":
            return f"**{winners[0]} wins!**"
        return f"**{winners[0]} wins** on the tie-break: equal oxygen, more {decided} markers."

    # ------------------------------------------------------------------ turns

    def waiting(self, view: View, who: str) -> str | None:
        if view["phase"] == "build" and view["step"] == "place":
            return f"{who} has drawn a tile and is placing it."
        return None

    def turn_note(self, view: View) -> str:
        step = view["step"]
        seat = view["current_seat"]
        if step == "draw":
            return ": " + self._build_choices(view["players"][seat], first=not view["tiles"])
        if step == "move":
            mine = " or ".join(view["players"][seat]["prisoners"])
            return f": `/s6 move` a prisoner (from {mine})"
        where = "below" if buttons_fit(view) else "with `/s6 rotate` (pick the cell)"
        if step == "act":
            return f": choose what to do with {view['pending']} below"
        if step == "blocked" and not view["rules"]["rotations"]:
            return ": neither of your prisoners can move, so press Pass"
        if step == "blocked":
            left = _plural(view["rotations_left"], "rotation")
            return f": neither of your prisoners can move; make {left} of their tiles {where}"
        return ""

    @staticmethod
    def _build_choices(player: Mapping[str, Any], *, first: bool) -> str:
        """The construction commands open to a player: drawing needs a tile left in the
        supply, `/s6 entry` an entry point not yet placed."""
        choices = []
        if player["supply_left"]:
            choices.append("`/s6 draw` a tile")
        if player["entries_left"]:
            choices.append("place an entry point with `/s6 entry`")
        text = " or ".join(choices)
        return text + (" (the first piece goes anywhere)" if first else "")

    def board_png(self, view: View, names: Sequence[str]) -> bytes:
        return render.sector6_board_png(view, names=names)

    def board_image(self, view: View, names: Sequence[str]) -> Image.Image:
        return render.sector6_board_image(view, names=names)

    def public_buttons(self, game: GameRow, view: View) -> discord.ui.View | None:
        """The choices after a move (and a blocked player's rotations) hide nothing, so they
        sit on the board post for all to see; only the player to move's click is accepted.
        No buttons for an AI seat, whose choice comes by itself."""
        seat = view["current_seat"]
        if seat is None or game.seats[seat].is_ai:
            return None
        choices = act_choices(view)
        if not choices or not buttons_fit(view):
            return None
        buttons = discord.ui.View(timeout=None)
        for i, (action, label) in enumerate(choices):
            style = (
                discord.ButtonStyle.success
                if action == "collect"
                else discord.ButtonStyle.secondary
                if action in ("done", "pass")
                else discord.ButtonStyle.primary
            )
            buttons.add_item(
                views.ActionButton(
                    game.id, game.version, action, label=label, style=style, row=i // PER_ROW
                )
            )
        return buttons

    async def prompt(self, game: GameRow, view: View) -> Post | None:
        """The drawn tile, for its drawer alone, with how to place it."""
        drawn = view.get("drawn") or {}
        if view["phase"] != "build" or view["step"] != "place" or "walls" not in drawn:
            return None
        picture = await render_off_loop(render.sector6_tile_png, drawn)
        rule = _placing_rule(len(view["tiles"]), galleries=view["rules"]["galleries"])
        walls = _plural(len(drawn["walls"]), "wall")
        return Post(
            f"Your tile (only you can see it): **{drawn['colour']}**, worth {drawn['value']}, "
            f"{walls}. Place it with `/s6 place cell:<cell> rotation:<turn>`, turned as one of "
            f"the pictures below. It {rule}; the cell option suggests where it fits.",
            files=[("tile.png", picture)],
        )

    def secret(self, game: GameRow, view: View, seat: int) -> tuple[str, str, bytes]:
        player = view["players"][seat]
        colour, shape = player["colour"], player["shape"]
        return (
            f"You play {colour.upper()}",
            f"In the Sector 6 game in <#{game.channel_id}> your prisoners are the **{colour} "
            f"{shape}s** numbered {seat + 1} on the board. Sector 6 hides nothing else: only "
            "the tile you draw is yours alone until you place it.",
            render.sector6_seat_png(view, seat),
        )
