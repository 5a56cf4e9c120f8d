"""The words of a Sector 6 refusal: what was wrong, and what the seat may do instead.

Every refused action names the rule it broke and the actions that would be legal now, in
English and as texts of the language files (`Phrase`s inside an `IllegalActionError`), so a
player can act on it in their own language. Those words are built here from the position,
apart from the rules that decide, which only ask for them when they refuse.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import IllegalActionError, Phrase
from games.sector6.rules.actions import DEGREES, Place, PlaceEntry
from games.sector6.rules.board import SIDES, Grid, opposite
from games.sector6.rules.position import Sector6Position
from games.sector6.rules.steps import ACT_STEP, BLOCKED_STEP, BUILD, PLACE_STEP

# ---------------------------------------------------------------------- cells in words


def cell_of(table: Grid, label: str) -> int:
    """The cell a player named, or a refusal saying how the table's cells are named."""
    cell = table.index.get(label.upper())
    if cell is None:
        column, rows = table.names[-1][0], table.rows
        raise IllegalActionError(
            f"{label} is not on the table: columns run A-{column}, rows 1-{rows}.",
            key="engine.sector6.not_on_table",
            label=label,
            column=column,
            rows=rows,
        )
    return cell


def listed(table: Grid, cells: Sequence[int] | set[int], limit: int = 8) -> str:
    """Cell names in reading order, the first `limit` of them and how many more."""
    rows = table.rows
    ordered = sorted(cells, key=lambda c: (c % rows, c // rows))  # reading order
    shown = ", ".join(table.names[c] for c in ordered[:limit])
    more = len(ordered) - limit
    if more <= 0:
        return shown
    return Phrase(
        f"{shown} and {more} more", "engine.sector6.cells_and_more", cells=shown, count=more
    )


def joined(table: Grid, cells: Sequence[int], word: str) -> str:
    """Cell names joined with "and" or "or" (`word`), as a text of the language files."""
    names = [table.names[c] for c in cells]
    result = names[-1] if names else ""
    for name in reversed(names[:-1]):
        result = Phrase(
            f"{name} {word} {result}", f"engine.sector6.{word}", first=name, rest=result
        )
    return result


def refuse(phrase: Phrase) -> IllegalActionError:
    """The refusal saying `phrase`, in English and by its key."""
    return IllegalActionError(str(phrase), key=phrase.key, **phrase.fields)


# ---------------------------------------------------------------------- construction


def example_place(state: Sector6Position, piece: int) -> Phrase:
    """A legal placement of `piece`: the action text a player would type, which the bot says
    as its command."""
    cell, rotation = state.placements(piece)[0]
    name = state.name(cell)
    if state.rules.tiles[piece].layout == "entry":
        return Phrase(PlaceEntry(name).text(), "engine.sector6.example.entry", cell=name)
    return Phrase(
        Place(name, rotation).text(),
        "engine.sector6.example.tile",
        cell=name,
        degrees=DEGREES[rotation],
    )


def build_hint(state: Sector6Position) -> Phrase:
    """What the seat to move may do while the maze is being built."""
    if state.step == PLACE_STEP:
        example = example_place(state, state.drawn)
        return Phrase(
            f"The maze is being built: place your drawn tile, e.g. {example}.",
            "engine.sector6.building.place",
            example=example,
        )
    return Phrase(
        "The maze is being built: draw a tile or place an entry point.",
        "engine.sector6.building.draw",
    )


def why_not_placed(
    state: Sector6Position, piece: int, cell: int, rotation: int
) -> IllegalActionError:
    """Why `piece` may not go on `cell` turned `rotation`, and where it may."""
    legal = state.placements(piece)
    cells = sorted({c for c, _ in legal})
    where_listed = listed(state.table, cells)
    where = Phrase(
        f"Cells that would do: {where_listed}.",
        "engine.sector6.cells_that_would_do",
        cells=where_listed,
    )
    name = state.name(cell)
    key = "engine.sector6.cannot_place."
    if state.piece_at[cell] >= 0:
        return IllegalActionError(
            f"{name} has a piece on it already. {where}",
            key=key + "occupied",
            cell=name,
            where=where,
        )
    touching = state._touching(cell)
    if len(state.order) == 1 and touching == 0:
        return IllegalActionError(
            f"The second piece must touch the first, and {name} does not. {where}",
            key=key + "second_touches_first",
            cell=name,
            where=where,
        )
    if touching < 2 and len(state.order) >= 2 and cell not in cells:
        return IllegalActionError(
            f"{name} touches {touching} placed piece{'' if touching == 1 else 's'}; "
            f"from the third piece on, a piece must touch at least two. {where}",
            key=key + "touch_two",
            cell=name,
            count=touching,
            where=where,
        )
    if cell in cells:
        turns = [DEGREES[r] for c, r in legal if c == cell]
        return IllegalActionError(
            f"Turned r{DEGREES[rotation]}, no open side of the tile on {name} meets an open "
            f"side of a neighbour (the galleries rule). On {name} use "
            f"{', '.join(f'r{d}' for d in turns)}.",
            key=key + "galleries",
            degrees=DEGREES[rotation],
            cell=name,
            # Typed as r60 where actions are typed; said as 60°, as the command offers them.
            rotations=", ".join(f"{d}°" for d in turns),
        )
    return IllegalActionError(
        f"{name} cannot take this piece now. {where}",
        key=key + "other",
        cell=name,
        where=where,
    )


# ---------------------------------------------------------------------- competition


def why_not_move(state: Sector6Position, a: int, b: int) -> Phrase:
    """The first rule a move from `a` to `b` breaks."""
    table, walls = state.table, state.walls
    name_a, name_b = state.name(a), state.name(b)
    key = "engine.sector6.why_not_move."
    line = table.line(a, b)
    if a == b:
        return Phrase(
            f"A move must leave {name_a}: go at least one tile.", key + "stay", cell=name_a
        )
    if line is None:
        return Phrase(
            f"{name_b} is not in a straight line from {name_a} through one of its sides.",
            key + "not_in_line",
            target=name_b,
            origin=name_a,
        )
    side, distance = line
    if walls[a] >> side & 1:
        return wall(table, a, side, "wall")
    cell = a
    for step in range(1, distance + 1):
        n = table.neighbour[cell][side]
        if n < 0:
            return Phrase(
                "There is no tile on the edge of the table: prisoners cannot cross a gap.",
                key + "edge",
            )
        if state.piece_at[n] < 0:
            return Phrase(
                f"There is no tile on {state.name(n)}: prisoners cannot cross a gap.",
                key + "gap",
                cell=state.name(n),
            )
        if walls[n] >> opposite(side) & 1:
            return wall(table, n, opposite(side), "wall")
        if state.prisoner[n]:
            verb = "stop on" if step == distance else "pass through"
            return Phrase(
                f"A prisoner stands on {state.name(n)}: no prisoner may {verb} it.",
                key + ("stop_on" if step == distance else "pass_through"),
                cell=state.name(n),
            )
        if step < distance and walls[n] >> side & 1:
            return wall(table, n, side, "line_ends")
        cell = n
    return Phrase(  # pragma: no cover - reach() and the checks above agree
        f"{name_b} cannot be reached from {name_a}.",
        key + "unreachable",
        target=name_b,
        origin=name_a,
    )


def wall(table: Grid, cell: int, side: int, reason: str) -> Phrase:
    """A wall on `side` of `cell` stops the move (and the line ends there, for
    "line_ends")."""
    name, where = table.names[cell], SIDES[side]
    side_name = Phrase(where, f"engine.sector6.side.{where.lower()}")
    end = ": the line ends there." if reason == "line_ends" else "."
    return Phrase(
        f"{name} has a wall on its {side_name} side{end}",
        f"engine.sector6.why_not_move.{reason}",
        cell=name,
        side=side_name,
    )


def moves_text(state: Sector6Position) -> str:
    """Where each prisoner of the seat to move can go, as a text of the language files."""
    parts = []
    for cell in state.prisoners[state.seat]:
        reach = state.reach(cell)
        if reach:
            origin, cells = state.name(cell), listed(state.table, reach)
            parts.append(
                Phrase(
                    f"from {origin}: {cells}",
                    "engine.sector6.moves.from",
                    cell=origin,
                    cells=cells,
                )
            )
    if not parts:
        return Phrase("none", "engine.sector6.moves.none")
    result = parts[-1]
    for part in reversed(parts[:-1]):
        result = Phrase(f"{part}; {result}", "engine.sector6.moves.list", first=part, rest=result)
    return result


def act_hint(state: Sector6Position, lead: Phrase) -> Phrase:
    """`lead`, then what the seat may still do after its move."""
    name = state.name(state.pending)
    value = state.marker[state.pending]
    options = []
    if value:
        options.append(f"collect (the {value} on {name})")
    if state.rotations:
        options.append(f"rotate left or rotate right (turns {name})")
    options.append("done")
    which = ("collect_" if value else "") + ("rotate_" if state.rotations else "") + "done"
    choices = Phrase(
        ", ".join(options), f"engine.sector6.after_move.{which}", value=value, cell=name
    )
    return Phrase(f"{lead}: now {choices}.", "engine.sector6.act", lead=lead, choices=choices)


def blocked_hint(state: Sector6Position) -> Phrase:
    """What a seat whose prisoners cannot move does instead."""
    if not state.rotations:
        return Phrase("Neither of your prisoners can move: pass.", "engine.sector6.blocked.novice")
    cells = joined(state.table, state.prisoners[state.seat], "or")
    left = state.rotations_left
    return Phrase(
        f"Neither of your prisoners can move, so you make {left} more rotation"
        f"{'' if left == 1 else 's'} of a tile under them: rotate {cells} left or right.",
        "engine.sector6.blocked.rotate",
        count=left,
        cells=cells,
    )


def play_hint(state: Sector6Position, lead: Phrase) -> Phrase:
    """What the seat to move may do in the competition phase, after `lead`."""
    if state.step == ACT_STEP:
        return act_hint(state, lead)
    if state.step == BLOCKED_STEP:
        hint = blocked_hint(state)
        return Phrase(f"{lead}. {hint}", "engine.sector6.blocked.after", lead=lead, hint=hint)
    moves = moves_text(state)
    return Phrase(
        f"{lead}: move a prisoner. Moves: {moves}.",
        "engine.sector6.move_a_prisoner",
        lead=lead,
        moves=moves,
    )


def not_after_move(state: Sector6Position, verb: str, reason: str) -> Phrase:
    """Why the seat cannot `verb` before moving (`reason` names that text)."""
    if state.phase == BUILD:
        return build_hint(state)
    if state.step == BLOCKED_STEP:
        return blocked_hint(state)
    moves = moves_text(state)
    return Phrase(
        f"First move a prisoner; then you may {verb}. Moves: {moves}.",
        f"engine.sector6.move_first.{reason}",
        moves=moves,
    )


__all__ = [
    "act_hint",
    "blocked_hint",
    "build_hint",
    "cell_of",
    "example_place",
    "joined",
    "listed",
    "moves_text",
    "not_after_move",
    "play_hint",
    "refuse",
    "wall",
    "why_not_move",
    "why_not_placed",
]
