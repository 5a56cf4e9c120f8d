"""Sector 6 in Discord: what the bot says after each action, the maze picture, the drawn tile
shown to its drawer alone, the buttons for the decisions after a move, and the colour each
player is told at the start.

Only the drawn tile is private (the engine's public view says only that a tile is drawn), so
a bare `draw` gets no public post, like a High Voltage draw: its drawer gets the tile in a
private prompt, with a button for each place and turn it fits (as many as Discord shows),
and places it with one of them or with `/s6 place`. Everything after a move hides nothing, so
those choices are buttons on the public board post. Everything here reads views and public
action text only, so nothing said in public can carry the drawn tile's face.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from data.texts import ENGLISH, Option, Texts
from games.sector6 import pictures
from games.sector6.pictures.pieces import TURNS, turned_mask
from games.sector6.pictures.tokens import seat_letters
from games.sector6.rules import textboard
from games.sector6.rules.actions import (
    Collect,
    Done,
    Draw,
    Move,
    Pass,
    Place,
    PlaceEntry,
    Rotate,
    parse_action,
)
from games.sector6.rules.steps import FULL, NOVICE
from hvbot.infra import workers
from hvbot.messages.post import Choice, Look, Picture, Post
from hvbot.messages.presenters.base import Presenter, View, alt_lines, rgb

if TYPE_CHECKING:
    from PIL import Image


MODES = {
    "full": "full (life sentence): rotations turn meshing gears too",
    "veteran": "veteran: rotations without gears",
    "novice": "novice: no rotations, collect only",
}
MAX_BUTTONS = 25  # Discord's limit per message
PER_ROW = 5  # Discord's limit per row
# How a choice's button looks: collecting stands out, ending the turn is quiet; moves are blue.
_LOOKS: dict[str, Look] = {"collect": "success", "done": "secondary", "pass": "secondary"}
SIDES = ("N", "NE", "SE", "S", "SW", "NW")  # a tile's sides, clockwise from the top


def _reading_order(cell: str) -> tuple[str, int]:
    """A cell's place in a list read aloud: by column, then row ("G18" before "G20", "H17")."""
    column = cell.rstrip("0123456789")
    return column, int(cell[len(column) :] or 0)


def _tile_at(view: View, cell: str | None) -> Mapping[str, Any] | None:
    return next((t for t in view["tiles"] if t["cell"] == cell), None)


def _colours(view: View) -> dict[str, str]:
    """Marker colour by value, as the placed tiles show them (a marker has its tile's colour)."""
    return {str(t["value"]): t["colour"] for t in view["tiles"] if t["kind"] == "tile"}


def _word(texts: Texts, table: str, name: str) -> str:
    """A word of the game data in `texts`' language, or the name itself when unknown."""
    key = f"{table}.{name}"
    return texts(key) if texts.has(key) else name


def _markers(counts: Mapping[str, int], colours: Mapping[str, str], texts: Texts) -> str:
    """`2 blue, 1 red` from marker counts by value, most valuable first."""
    parts = [
        texts(
            "sector6.marker_count",
            count=n,
            colour=_word(texts, "picture.colours", colours.get(value, value)),
        )
        for value, n in sorted(counts.items(), key=lambda kv: -int(kv[0]))
        if n
    ]
    return ", ".join(parts) or texts("sector6.markers_none")


def _joined(items: Sequence[str], word: str, texts: Texts) -> str:
    """Two or more items joined with "and"/"or" between the last two, as the texts say it."""
    if len(items) < 2:
        return "".join(items)
    return texts(f"sector6.{word}", first=", ".join(items[:-1]), second=items[-1])


def _placing_rule(placed: int, *, galleries: bool, texts: Texts = ENGLISH) -> str:
    """Where the next piece may go, as the construction rules say (see sector6.md)."""
    if placed == 0:
        return texts("sector6.placing.anywhere")
    rule = texts("sector6.placing.first" if placed == 1 else "sector6.placing.two")
    if galleries:
        rule = texts("sector6.placing.galleries", rule=rule)
    return rule


def act_choices(view: View, texts: Texts = ENGLISH) -> list[tuple[str, str]]:
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
            label = texts("sector6.buttons.collect", marker=tile["marker"], cell=cell)
            out.append(("collect", label))
        if rotations:
            out += _turns(cell, texts)
        return [*out, ("done", texts("sector6.buttons.done"))]
    if step == "blocked":
        if not rotations:
            return [("pass", texts("sector6.buttons.pass"))]
        cells = view["players"][view["current_seat"]]["prisoners"]
        return [choice for cell in sorted(cells) for choice in _turns(cell, texts)]
    return []


def _turns(cell: str, texts: Texts) -> list[tuple[str, str]]:
    return [
        (f"rotate {cell} left", texts("sector6.buttons.left", cell=cell)),
        (f"rotate {cell} right", texts("sector6.buttons.right", cell=cell)),
    ]


def middle_first(cells: Sequence[str], view: View) -> list[str]:
    """The first piece may go on any cell: the middle of the table first (where the picture
    shows free cells), not its corner. Later pieces keep the order given."""
    if view["tiles"]:
        return list(cells)
    mid_col, mid_row = (view["table"]["columns"] - 1) / 2, (view["table"]["rows"] - 1) / 2

    def off_centre(cell: str) -> tuple[float, str]:
        column, row = _reading_order(cell)
        return (ord(column[0]) - ord("A") - mid_col) ** 2 + (row - 1 - mid_row) ** 2, cell

    return sorted(cells, key=off_centre)


def placements_shown(fits: Mapping[str, Sequence[int]], view: View) -> dict[str, list[int]]:
    """The drawn tile's placements (cell -> turns in degrees) that get a button: all of them
    if they fit on one message's 25, else whole cells, so that a cell shown offers every turn
    that fits it, as many as fit, taken in reading order (the first piece: from the middle of
    the table out). Shown by cell in reading order, then by turn."""
    chosen: dict[str, list[int]] = {}
    room = MAX_BUTTONS
    for cell in middle_first(sorted(fits, key=_reading_order), view):
        turns = sorted(fits[cell])
        if len(turns) > room:
            break
        chosen[cell] = turns
        room -= len(turns)
    return {cell: chosen[cell] for cell in sorted(chosen, key=_reading_order)}


def buttons_fit(view: View) -> bool:
    """Whether the open choices fit on one message's buttons (else `/s6 rotate` with its
    cell autocomplete offers them; with two prisoners per player they always fit)."""
    return len(act_choices(view)) <= MAX_BUTTONS


class Sector6Presenter(Presenter):
    game = "sector6"
    modes = MODES

    def commands_left_out(self, options: dict[str, Any]) -> tuple[str, ...]:
        """Novice mode has no rotations, so `/s6 rotate` is never taken; the other modes
        rotate a blocked player's tiles, so `/s6 pass` (novice's) is never taken there."""
        return ("rotate",) if options.get("mode", FULL) == NOVICE else ("pass",)

    def is_public(self, applied: Sequence[str], view: View) -> bool:
        """A bare draw shows a tile to its drawer only: nothing public has happened yet."""
        return not all(text == "draw" for text in applied)

    def _shapes(self, shape: str) -> str:
        return self.word("sector6.shapes", shape)

    # ------------------------------------------------------------------ what happened

    def move_words(self, action: str) -> str:
        say = self.texts
        move = parse_action(action)
        match move:
            case Place(cell=cell):
                return say("sector6.move.place", cell=cell)
            case PlaceEntry(cell=cell):
                return say("sector6.move.entry", cell=cell)
            case Move(origin=origin, target=target):
                return say("sector6.move.move", origin=origin, target=target)
            case Rotate(cell=cell, clockwise=clockwise):
                direction = say("sector6.move.right" if clockwise else "sector6.move.left")
                if cell is None:
                    return say("sector6.move.rotate_behind", direction=direction)
                return say("sector6.move.rotate", cell=cell, direction=direction)
            case _:
                return say(f"sector6.move.{move.text()}")

    def describe(self, applied: Sequence[str], view: View, actor: str) -> list[str]:
        lines = [line for text in applied if (line := self._describe_one(text, view, actor))]
        built = any(t.startswith("place ") for t in applied) and view["phase"] != "build"
        if built:
            lines.append(self.texts("sector6.maze_complete"))
        return lines

    def _describe_one(self, text: str, view: View, actor: str) -> str:
        say = self.texts
        action = parse_action(text)
        match action:
            case Draw():
                return ""  # told with the placement, which shows the tile to everyone
            case PlaceEntry(cell=cell):
                return say("sector6.action.entry", actor=actor, cell=cell)
            case Place(cell=cell):
                tile = _tile_at(view, cell) or {}
                walls = len(tile.get("walls") or ())
                return say(
                    "sector6.action.place",
                    actor=actor,
                    colour=self.colour(tile.get("colour", "")),
                    walls=self.walls(walls),
                    cell=cell,
                )
            case Move():
                return self._describe_move(action, view, actor)
            case Collect():
                cell = view["last"]["collected"]
                tile = _tile_at(view, cell) or {}
                return say(
                    "sector6.action.collect",
                    actor=actor,
                    colour=self.colour(tile.get("colour", "")),
                    value=tile.get("value", "?"),
                    cell=cell,
                )
            case Rotate():
                return self._describe_rotation(action, view, actor)
            case Done():
                return say("sector6.action.done", actor=actor)
            case Pass():
                return say("sector6.action.pass", actor=actor)
        return say("sector6.action.other", actor=actor, action=text)

    def _describe_move(self, move: Move, view: View, actor: str) -> str:
        line = self.texts("sector6.action.move", actor=actor, start=move.origin, end=move.target)
        turn_over = view["phase"] == "play" and view["step"] != "act"
        if turn_over and view["last"]["actions"][-1:] == [move.text()]:
            line += self.texts("sector6.action.move_over", cell=move.origin)
        return line

    def _describe_rotation(self, rotation: Rotate, view: View, actor: str) -> str:
        say = self.texts
        last = view["last"]
        # The engine logs the cell even when the player left it out ("rotate left").
        if rotation.cell is not None:
            cell = rotation.cell
        else:
            cell = (last["rotated"] or [say("sector6.action.the_tile")])[-1]
        way = "right" if rotation.clockwise else "left"
        line = say(
            "sector6.action.rotate", actor=actor, cell=cell, way=self.word("sector6.action", way)
        )
        geared = list(last["geared"])
        if geared and len(last["rotated"]) <= 1:
            line += say("sector6.action.geared_one", cells=", ".join(geared))
        elif geared:
            line += say("sector6.action.geared_many", cells=", ".join(geared))
        return line

    # ------------------------------------------------------------------ scores and status

    def accent(self, seat: int) -> int | None:
        """The colour of the seat's token on the board."""
        colours = pictures.SECTOR6_THEME.seat_fill
        return rgb(colours[seat % len(colours)])

    def scores(self, view: View, names: Sequence[str]) -> str:
        say = self.texts
        parts = [
            say(
                "sector6.player_score",
                player=names[p["seat"]],
                colour=self.colour(p["colour"]),
                score=p["score"],
            )
            for p in view["players"]
        ]
        if view["phase"] == "build":
            extra = say("sector6.pieces_left", count=view["pieces_to_place"])
        else:
            extra = self._markers_left(view)
        return say("sector6.scores", scores=" · ".join(parts), extra=extra)

    def _markers_left(self, view: View) -> str:
        """Markers free, held and out of reach, and the oxygen clock once the board shows it."""
        say = self.texts
        counts = view["markers"]
        key = "sector6.markers_dead" if counts["dead"] else "sector6.markers"
        text = say(key, free=counts["free"], held=counts["held"], dead=counts["dead"])
        clock = view["oxygen_clock"]
        if clock["shown"]:
            text += " · " + say("sector6.clock", count=clock["rounds_left"])
        return text

    def status(self, view: View, names: Sequence[str]) -> str:
        say = self.texts
        mode = self.word("sector6.modes", view["options"]["mode"])
        lines = [self.scores(view, names), say("sector6.mode", mode=mode)]
        colours = _colours(view)
        for p in view["players"]:
            who = {
                "player": names[p["seat"]],
                "colour": self.colour(p["colour"]),
                "shapes": self._shapes(p["shape"]),
            }
            if view["phase"] == "build":
                lines.append(
                    say(
                        "sector6.status_build",
                        tiles=say("sector6.tiles", count=p["supply_left"]),
                        entries=say("sector6.entries", count=p["entries_left"]),
                        **who,
                    )
                )
            else:
                where = _joined(p["prisoners"], "and", say) or say("sector6.nowhere")
                markers = _markers(p["collected"], colours, say)
                lines.append(say("sector6.status_play", cells=where, markers=markers, **who))
        return "\n".join(lines)

    def outcome(self, view: View, names: Sequence[str]) -> str:
        say = self.texts
        outcome = view["outcome"]
        details = outcome["details"]
        colours = _colours(view)
        rows = []
        for seat, score in enumerate(outcome["scores"]):
            held = details["taken_at_end"][seat]
            extra = say("sector6.outcome.held", values=", ".join(map(str, held))) if held else ""
            markers = _markers(details["collected"][seat], colours, say)
            rows.append(
                say(
                    "sector6.outcome.row",
                    player=names[seat],
                    score=score,
                    markers=markers,
                    held=extra,
                )
            )
        over = say("sector6.outcome.over", reason=self._why(view, outcome))
        return over + "\n" + "\n".join(rows) + "\n" + self._verdict(outcome, names)

    def _why(self, view: View, outcome: Mapping[str, Any]) -> str:
        """Why the game ended, with what the reason leaves open: how many markers out of
        reach went to no one, how long the clock ran, or that the backstop was hit."""
        say = self.texts
        reason = outcome["reason"]
        why = self.word("sector6.end_reasons", reason)
        if reason == "rest_out_of_reach":
            count = outcome["details"].get("out_of_reach", 0)
            return say("sector6.outcome.out_of_reach", reason=why, count=count)
        if reason == "oxygen_clock":
            return say(
                "sector6.outcome.oxygen_clock", reason=why, count=view["oxygen_clock"]["rounds"]
            )
        if reason == "turn_limit":
            return say(
                "sector6.outcome.turn_limit", reason=why, count=view["max_competition_turns"]
            )
        return why

    def _verdict(self, outcome: Mapping[str, Any], names: Sequence[str]) -> str:
        say = self.texts
        winners = [names[s] for s in outcome["winners"]]
        decided = outcome["details"]["decided_by"]
        if len(winners) > 1:
            order = say("sector6.outcome.then").join(
                self.colour(c) for c in outcome["details"]["tie_break"]
            )
            return say("sector6.outcome.shared", players=", ".join(winners), order=order)
        if decided == "score":
            return say("sector6.outcome.winner", player=winners[0])
        return say("sector6.outcome.tie_break", player=winners[0], colour=self.colour(decided))

    # ------------------------------------------------------------------ turns

    def waiting(self, view: View, who: str) -> str | None:
        if view["phase"] == "build" and view["step"] == "place":
            return self.texts("sector6.waiting", player=who)
        return None

    def turn_note(self, view: View) -> str:
        say = self.texts
        step = view["step"]
        seat = view["current_seat"]
        if step == "draw":
            return self._build_choices(view["players"][seat], first=not view["tiles"])
        if step == "move":
            mine = _joined(view["players"][seat]["prisoners"], "or", say)
            return say("sector6.turn.move", cells=mine)
        if step == "act":
            return say("sector6.turn.act", cell=view["pending"])
        if step == "blocked" and not view["rules"]["rotations"]:
            return say("sector6.turn.blocked_pass", button=say("sector6.buttons.pass"))
        if step == "blocked":
            where = say("sector6.turn.below" if buttons_fit(view) else "sector6.turn.command")
            left = say("sector6.turn.rotations", count=view["rotations_left"])
            return say("sector6.turn.blocked", rotations=left, where=where)
        return ""

    def _build_choices(self, player: Mapping[str, Any], *, first: bool) -> str:
        """The construction commands open to a player: drawing needs a tile left in the
        supply, `/s6 entry` an entry point not yet placed."""
        say = self.texts
        choices = []
        if player["supply_left"]:
            choices.append(say("sector6.turn.draw"))
        if player["entries_left"]:
            choices.append(say("sector6.turn.entry"))
        text = _joined(choices, "or", say)
        return say("sector6.turn.build_first" if first else "sector6.turn.build", choices=text)

    def text_board(self, view: View, names: Sequence[str]) -> list[list[str]]:
        """The maze as a list of its pieces, one a line, column by column, not as the
        engine's hexagons: four players' maze late in a game draws 60-70 characters wide
        and over 1,900 long, which a phone held upright wraps into noise and a screen reader
        reads as a run of slashes, while a line such as "F3: blue 4, open S, NW, prisoner of
        Anna" says where a prisoner can go in a few words. The scores and each player's
        prisoners follow; the drawer alone also reads the tile they drew."""
        say = self.texts
        building = view["phase"] == "build"
        rows = textboard.tile_rows(view)
        tiles = [say("sector6.text.heading", count=len(rows))] if rows else []
        for row in rows:
            fields = {
                "cell": row["cell"],
                "last": "*" if row["last"] else "",
                "sides": self._sides(row["open"]),
                "prisoner": (
                    say("sector6.text.prisoner", player=names[int(row["prisoner"])])
                    if row["prisoner"] is not None
                    else ""
                ),
            }
            if row["kind"] == "entry":
                owner = names[int(row["owner"])] if row["owner"] is not None else "?"
                tiles.append(say("sector6.text.entry", player=owner, **fields))
                continue
            taken = not building and row["marker"] is None
            tiles.append(
                say(
                    "sector6.text.tile",
                    colour=self.colour(row["colour"]),
                    value=row["value"],
                    marker=say("sector6.text.taken") if taken else "",
                    **fields,
                )
            )
        if not rows:
            tiles.append(say("sector6.text.empty"))
        status = self.status(view, names).splitlines()
        drawn = view.get("drawn") or {}
        if "walls" in drawn and view.get("viewer") is not None:
            sides = [side for side in textboard.SIDES if side not in set(drawn["walls"])]
            status.append(
                say(
                    "sector6.text.drawn",
                    colour=self.colour(drawn["colour"]),
                    value=drawn["value"],
                    sides=self._sides(sides),
                )
            )
        elif building and view.get("step") == "place" and view.get("current_seat") is not None:
            status.append(say("sector6.waiting", player=names[int(view["current_seat"])]))
        return [tiles, status]

    def _sides(self, sides: Sequence[str]) -> str:
        """Open sides as compass letters in the reader's language ("N, SE")."""
        if len(sides) == len(textboard.SIDES):
            return self.texts("sector6.text.every_side")
        if not sides:
            return self.texts("sector6.text.no_side")
        return ", ".join(self.texts(f"sector6.text.side.{side.lower()}") for side in sides)

    def board_png(self, view: View, names: Sequence[str], *, clock: str | None = None) -> bytes:
        return pictures.sector6_board_png(
            view, names=names, language=self.language, clock=clock, moves=self.last_moves(view)
        )

    def board_image(self, view: View, names: Sequence[str]) -> Image.Image:
        return pictures.sector6_board_image(
            view, names=names, language=self.language, moves=self.last_moves(view)
        )

    def public_choices(self, view: View) -> tuple[Choice, ...]:
        """The choices after a move (and a blocked player's rotations) hide nothing, so they
        sit on the board post for all to see; only the player to move's click is accepted."""
        choices = act_choices(view, self.texts)
        if not choices or not buttons_fit(view):
            return ()
        return tuple(
            Choice(action, label, _LOOKS.get(action, "primary"), i // PER_ROW)
            for i, (action, label) in enumerate(choices)
        )

    async def prompt(self, view: View, names: Sequence[str] | None = None) -> Post | None:
        """The drawn tile, for its drawer alone, with how to place it."""
        drawn = view.get("drawn") or {}
        if view["phase"] != "build" or view["step"] != "place" or "walls" not in drawn:
            return None
        say = self.texts
        fits = drawn.get("placements") or {}
        shown = placements_shown(fits, view)
        count, offered = sum(map(len, fits.values())), sum(map(len, shown.values()))
        said = {
            "colour": self.colour(drawn["colour"]),
            "value": drawn["value"],
            "walls": self.walls(len(drawn["walls"])),
            "rule": _placing_rule(
                len(view["tiles"]), galleries=view["rules"]["galleries"], texts=say
            ),
            "option": Option("s6 place cell"),
        }
        if offered == count:
            text = say("sector6.place_buttons.all", **said)
        else:
            cells = _joined(list(shown), "and", say)
            text = say(
                "sector6.place_buttons.some", count=count, shown=offered, cells=cells, **said
            )
        del view  # only the tile is drawn: the seat's whole view need not wait with it
        picture = await workers.draw(pictures.sector6_tile_png, drawn, language=self.language)
        return Post(
            text,
            files=[Picture("tile.png", picture, self.tile_alt(drawn))],
            choices=self.place_choices(shown),
        )

    def place_choices(self, shown: Mapping[str, Sequence[int]]) -> tuple[Choice, ...]:
        """A button for each placement shown (`placements_shown`), five a row in reading
        order, labelled with the cell and the turn as the pictures of the tile show it; the
        cells' colours alternate, so that where one cell's turns end is seen at a glance."""
        choices: list[Choice] = []
        for n, (cell, turns) in enumerate(shown.items()):
            look: Look = "primary" if n % 2 == 0 else "success"
            for degrees in turns:
                label = self.texts("sector6.place_buttons.label", cell=cell, degrees=degrees)
                choices.append(
                    Choice(f"place {cell} r{degrees}", label, look, len(choices) // PER_ROW)
                )
        return tuple(choices)

    # ------------------------------------------------------------------ alt texts

    def board_details(self, view: View, names: Sequence[str]) -> list[str]:
        """The pieces on the table while the maze is built; once it is, where the oxygen
        markers lie free and which are out of reach: all on the public board."""
        say = self.texts
        if view["phase"] == "build":
            return [say("sector6.alt.placed", count=len(view["tiles"]))] if view["tiles"] else []
        # Grouped by value, one sentence each, the most worth first: a marker's colour goes
        # with its value, and naming both for each of up to 32 markers made a 4-player
        # board's description too long for Discord's 1,024 characters. Should it still be
        # too long (four long names), it is cut between markers, losing the least worth.
        free: dict[int, list[Mapping[str, Any]]] = {}
        for t in view["tiles"]:
            if t.get("marker") and t.get("prisoner") is None:
                free.setdefault(t["marker"], []).append(t)
        out = [
            say(
                "sector6.free_markers.worth",
                value=value,
                colour=self.colour(tiles[0]["colour"]),
                cells=", ".join(sorted((t["cell"] for t in tiles), key=_reading_order)),
            )
            for value, tiles in sorted(free.items(), reverse=True)  # the most worth first
        ]
        dead = view["markers"].get("dead_cells") or []
        if dead:
            out.append(say("sector6.alt.dead", cells=", ".join(dead)))
        return out

    def tile_alt(self, drawn: Mapping[str, Any]) -> str:
        """The drawn tile's picture in words, for its drawer alone: its colour, worth and
        walls, and on which sides the walls stand in each of the six turns shown."""
        say = self.texts
        walls = list(drawn.get("walls") or ())
        turns = []
        for degrees in TURNS:
            mask = turned_mask(walls, degrees)
            sides = [
                self.word("sector6.alt.sides", side.lower())
                for i, side in enumerate(SIDES)
                if mask >> i & 1
            ]
            turns.append(
                say("sector6.alt.turned", degrees=degrees, sides=", ".join(sides))
                if sides
                else say("sector6.alt.turned_open", degrees=degrees)
            )
        head = say(
            "sector6.alt.tile",
            colour=self.colour(str(drawn.get("colour") or "")),
            value=drawn.get("value", 0),
            walls=self.walls(len(walls)),
        )
        return alt_lines(head, *turns)

    def walls(self, count: int) -> str:
        """A tile's walls counted as a sentence says them: "no walls", not "0 walls"."""
        if count == 0:
            return self.texts("sector6.tile_walls.none")
        return self.texts("sector6.action.walls", count=count)

    def secret_alt(self, view: View, seat: int) -> str:
        player = view["players"][seat]
        letters = seat_letters([p["colour"] for p in view["players"]], self.texts)
        return alt_lines(
            self.texts(
                "sector6.alt.secret",
                colour=self.colour(player["colour"]),
                shapes=self._shapes(player["shape"]),
                letter=letters[seat],
            )
        )

    def secret(self, channel_id: int, view: View, seat: int) -> tuple[str, str, bytes]:
        player = view["players"][seat]
        colour = self.colour(player["colour"])
        return (
            self.texts("sector6.secret.title", colour=colour.upper()),
            self.texts(
                "sector6.secret.text",
                channel=f"<#{channel_id}>",
                colour=colour,
                shapes=self._shapes(player["shape"]),
                letter=seat_letters([p["colour"] for p in view["players"]], self.texts)[seat],
            ),
            pictures.sector6_seat_png(view, seat, language=self.language),
        )
