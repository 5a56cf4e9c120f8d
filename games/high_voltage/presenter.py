"""High Voltage in Discord: what the bot says after each action, the pictures, the private
prompts (a drawn card; the lines you may declare) and the secret colour.

Everything here reads views and public action text only, so nothing said here can carry a
secret that its reader may not know.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from data.texts import ENGLISH, Texts
from games.high_voltage import pictures
from games.high_voltage.pictures.card import company_legend, rotate_paths
from games.high_voltage.pictures.panel import line_words
from games.high_voltage.pictures.sprites import path_key
from games.high_voltage.rules import textboard
from games.high_voltage.rules.actions import (
    Declare,
    DeclareNone,
    Draw,
    Move,
    Place,
    Rotate,
    Swap,
    parse_action,
)
from hvbot.infra import workers
from hvbot.messages.post import Choice, Look, Picture, Post
from hvbot.messages.presenters.base import Presenter, View, alt_lines, rgb

if TYPE_CHECKING:
    from PIL import Image


ROTATIONS = (0, 90, 180, 270)
SIDES = {"N": "north", "E": "east", "S": "south", "W": "west"}


def _degrees(rotation: int | None) -> str:
    return f"{rotation}°"


def _word(texts: Texts, table: str, name: str) -> str:
    """A word of the game data in `texts`' language, or the name itself when unknown."""
    key = f"{table}.{name}"
    return texts(key) if texts.has(key) else name


def company_name(colour: str, texts: Texts = ENGLISH) -> str:
    """A company's name in sentences ("red", "Rossa", "Rot")."""
    return _word(texts, "high_voltage.companies", colour)


def as_public(view: View) -> dict[str, Any]:
    """A seat's view with what only that seat knows left out (its colour, a drawn card's
    face): a picture made for one player then shows the board as everyone sees it, and
    nothing in it is lost if the player shares it."""
    players = (
        view["players"] if view.get("outcome") else [{**p, "colour": None} for p in view["players"]]
    )
    drawn = view.get("drawn")
    return {
        **view,
        "viewer": None,
        "players": players,
        "drawn": drawn and {"cell": drawn["cell"]},
    }


def is_peek(action: str) -> bool:
    """`draw C3` alone: the drawer looks at a card; nothing public has happened yet."""
    move = parse_action(action)
    return isinstance(move, Draw) and move.place is None


def describe_action(
    action: str, actor: str, *, last_cells: Sequence[str] = (), texts: Texts = ENGLISH
) -> str:
    """One line saying what an action did, for the public post after it."""
    move = parse_action(action)
    special = ""
    kind = getattr(move, "special", None)
    if kind:
        special = texts(
            "high_voltage.action.special_double"
            if kind == "double"
            else "high_voltage.action.special"
        )
    said = {"actor": actor, "special": special}
    match move:
        case Draw(cell=cell, place=None):
            return texts("high_voltage.action.peek", cell=cell, **said)
        case Draw(cell=cell, place=str() as place, rotation=rotation):
            if place == "here":
                where = texts("high_voltage.action.where_here")
            elif place == "empty":
                dest = [c for c in last_cells if c != cell] if len(last_cells) == 2 else []
                where = (
                    texts("high_voltage.action.where_empty_cell", cell=dest[0])
                    if dest
                    else texts("high_voltage.action.where_empty")
                )
            else:
                where = place
            return texts(
                "high_voltage.action.drew",
                card=cell,
                where=where,
                degrees=_degrees(rotation),
                **said,
            )
        case Rotate(cell=cell, rotation=rotation):
            return texts(
                "high_voltage.action.rotate", cell=cell, degrees=_degrees(rotation), **said
            )
        case Move(cell=cell, rotation=rotation):
            # The card's two cells, where it was and the empty cell it went to, name the
            # latter, as a draw laid in the empty cell does.
            dest = [c for c in last_cells if c != cell] if cell in last_cells else []
            if len(dest) == 1:
                return texts(
                    "high_voltage.action_to.move",
                    cell=cell,
                    empty=dest[0],
                    degrees=_degrees(rotation),
                    **said,
                )
            return texts("high_voltage.action.move", cell=cell, degrees=_degrees(rotation), **said)
        case Swap(a=a, b=b, rotation_a=rotation_a, rotation_b=rotation_b):
            return texts(
                "high_voltage.action.swap",
                first=a,
                second=b,
                first_degrees=_degrees(rotation_a),
                second_degrees=_degrees(rotation_b),
                **said,
            )
        case DeclareNone():
            return texts("high_voltage.action.declare_none", actor=actor)
        case Declare():
            return texts(
                "high_voltage.action.declare", actor=actor, line=line_words(move.name, texts)
            )
    return texts("high_voltage.action.other", actor=actor, action=action)


def _points(points: Mapping[str, int], texts: Texts) -> str:
    return ", ".join(f"{company_name(c, texts)} +{p}" for c, p in points.items() if p)


def describe_line(record: Mapping[str, Any], texts: Texts = ENGLISH) -> str:
    tokens = record.get("point_tokens", 0)
    return texts(
        "high_voltage.line.summary",
        line=line_words(record["line"], texts),
        cards=texts("high_voltage.line.cards", count=len(record["cells"])),
        points=_points(record["points"], texts),
        tokens=texts("high_voltage.line.tokens", count=tokens) if tokens else "",
    )


class HighVoltagePresenter(Presenter):
    game = "high-voltage"

    def move_words(self, action: str) -> str:
        say = self.texts
        move = parse_action(action)
        special = ""
        used = getattr(move, "special", None)
        if used:
            kind = "special_double" if used == "double" else "special"
            special = say(f"high_voltage.action.{kind}")

        def where(place: str) -> str:
            if place in ("here", "empty"):
                return say(f"high_voltage.action.where_{place}")
            return place

        match move:
            case Draw(cell=cell, place=None):
                words = say("high_voltage.move.peek", cell=cell)
            case Draw(cell=cell, place=str(place), rotation=rotation):
                words = say(
                    "high_voltage.move.drew", cell=cell, where=where(place), degrees=rotation
                )
            case Place(place=place, rotation=rotation):
                words = say("high_voltage.move.place", where=where(place), degrees=rotation)
            case Rotate(cell=cell, rotation=rotation):
                words = say("high_voltage.move.rotate", cell=cell, degrees=rotation)
            case Move(cell=cell, rotation=rotation):
                words = say("high_voltage.move.move", cell=cell, degrees=rotation)
            case Swap(a=a, b=b):
                words = say("high_voltage.move.swap", first=a, second=b)
            case Declare():
                words = say("high_voltage.move.declare", line=line_words(move.name, say))
            case _:
                words = say("high_voltage.move.declare_none")
        return words + special

    def is_public(self, applied: Sequence[str], view: View) -> bool:
        return not (view["phase"] == "placing" and all(is_peek(t) for t in applied))

    def describe(self, applied: Sequence[str], view: View, actor: str) -> list[str]:
        last = view["last"]
        lines = []
        for text in applied:
            if is_peek(text):
                continue
            said = {"last_cells": last["cells"], "texts": self.texts}
            if text.startswith(("place ", "draw ")):
                # A two-step draw is told as one: the placement's summary names the card.
                summary = last["actions"][-1] if last["actions"] else text
                lines.append(describe_action(summary, actor, **said))
                continue
            lines.append(describe_action(text, actor, **said))
            record = next((r for r in last["lines"] if f"declare {r['line']}" == text), None)
            if record:
                lines.append(describe_line(record, self.texts))
        return lines

    def _company(self, colour: str) -> str:
        return company_name(colour, self.texts)

    def accent(self, seat: int) -> int | None:
        """The seat's public colour (`seat_accents`): a company's colour is secret until the
        end, so a card is never edged in one of those."""
        colours = pictures.THEME.seat_accents
        return rgb(colours[seat % len(colours)])

    def scores(self, view: View, names: Sequence[str]) -> str:
        companies = " · ".join(f"{self._company(c)} {v}" for c, v in view["company_scores"].items())
        return self.texts(
            "high_voltage.scores",
            companies=companies,
            energy=view["energy_supply"],
            face_down=view["face_down"],
        )

    def status(self, view: View, names: Sequence[str]) -> str:
        lines = [self.scores(view, names)]
        for player in view["players"]:
            lines.append(
                self.texts(
                    "high_voltage.player_tokens",
                    player=names[player["seat"]],
                    actions=player["action_tokens"],
                    special=player["special_tokens"],
                    points=player["point_tokens"],
                )
            )
        return "\n".join(lines)

    def outcome(self, view: View, names: Sequence[str]) -> str:
        outcome = view["outcome"]
        details = outcome["details"]
        say = self.texts
        rows = []
        for seat, score in enumerate(outcome["scores"]):
            colour = details["colours"][seat]
            rows.append(
                say(
                    "high_voltage.outcome.row",
                    player=names[seat],
                    company=self._company(colour),
                    company_score=details["company_scores"][colour],
                    tokens=details["point_tokens"][seat],
                    score=score,
                )
            )
        unowned = details.get("unowned") or []
        if unowned:
            companies = ", ".join(self._company(c) for c in unowned)
            rows.append(say("high_voltage.outcome.unowned", companies=companies))
        winners = [names[s] for s in outcome["winners"]]
        verdict = (
            say("high_voltage.outcome.winner", player=winners[0])
            if len(winners) == 1
            else say("high_voltage.outcome.shared", players=", ".join(winners))
        )
        why = self.word("high_voltage.end_reasons", outcome["reason"])
        return (
            say("high_voltage.outcome.over", reason=why) + "\n" + "\n".join(rows) + "\n" + verdict
        )

    def waiting(self, view: View, who: str) -> str | None:
        if view["phase"] == "declaring":
            return self.texts("high_voltage.waiting.declaring", player=who)
        if view["phase"] == "placing":
            return self.texts("high_voltage.waiting.placing", player=who)
        return None

    def turn_note(self, view: View) -> str:
        return self.texts("high_voltage.turn_note") if view["actions_taken"] else ""

    def text_board(self, view: View, names: Sequence[str]) -> list[list[str]]:
        """The engine's drawing of the grid as it is (5 x 3 characters a card, 59 wide): a
        card's paths need that much room to show their curves and crossings, and a narrower
        drawing would lose what the board is for, following a line from station to station.
        It fits one message; the legend and the scores follow it, in words a screen reader
        reads. A player also reads their own company, and the card they drew."""
        say = self.texts
        colours = ", ".join(f"{textboard.letter(c)} {self._company(c)}" for c in view["colours"])
        legend = [
            say("high_voltage.text.paths", colours=colours),
            say("high_voltage.text.marks"),
            say("high_voltage.text.cells"),
        ]
        status = self.status(view, names).splitlines()
        viewer = view.get("viewer")
        if viewer is not None and view["phase"] != "over":
            own = view["players"][viewer]["colour"]
            if own:
                status.append(say("high_voltage.text.yours", company=self._company(own)))
        sections = [textboard.board_lines(view), legend, status]
        drawn = view.get("drawn")
        if viewer is not None and drawn and "paths" in drawn:
            sections.append(self._drawn_lines(drawn))
        return sections

    def _drawn_lines(self, drawn: Mapping[str, Any]) -> list[str]:
        """The card the reader drew, turned each of the four ways it may be laid."""
        blocks = []
        for quarters in range(4):
            paths = [
                {
                    "edges": [textboard.rotate_edge(e, quarters) for e in p["edges"]],
                    "colour": p["colour"],
                }
                for p in drawn["paths"]
            ]
            blocks.append(textboard.card_block({"paths": paths}))
        gap = "   "
        titles = gap.join(_degrees(q * 90).center(textboard.CARD_WIDTH) for q in range(4))
        rows = [gap.join(block[line] for block in blocks) for line in range(textboard.CARD_HEIGHT)]
        return [self.texts("high_voltage.text.drawn", cell=drawn["cell"]), titles, *rows]

    def board_png(self, view: View, names: Sequence[str], *, clock: str | None = None) -> bytes:
        return pictures.hv_board_png(
            view, names=names, language=self.language, clock=clock, moves=self.last_moves(view)
        )

    def board_image(self, view: View, names: Sequence[str]) -> Image.Image:
        return pictures.hv_board_image(
            view, names=names, language=self.language, moves=self.last_moves(view)
        )

    def end_png(self, view: View, names: Sequence[str]) -> bytes:
        return pictures.hv_end_png(view, names=names, language=self.language)

    async def prompt(self, view: View, names: Sequence[str] | None = None) -> Post | None:
        say = self.texts
        if view["phase"] == "placing" and view["drawn"] and "paths" in view["drawn"]:
            drawn = view["drawn"]
            text = say(
                "high_voltage.prompt.card",
                cell=drawn["cell"],
                here=say("high_voltage.buttons.here"),
                empty=view["empty_cell"],
            )
            del view  # only the card is drawn: the seat's whole view need not wait with it
            picture = await workers.draw(pictures.hv_card_png, drawn, language=self.language)
            card = Picture("card.png", picture, self.card_alt(drawn))
            return Post(text, files=[card], choices=self._place_choices())
        if view["phase"] == "declaring" and view["closable"]:
            rows = []
            for line in view["closable"]:
                rows.append(
                    say(
                        "high_voltage.prompt.line",
                        line=line["line"],
                        cards=say("high_voltage.line.cards", count=line["length"]),
                        start=self.word("high_voltage.sides", line["sides"][0]),
                        end=self.word("high_voltage.sides", line["sides"][1]),
                        points=_points(line["points"], say),
                        tokens=say("high_voltage.prompt.tokens", count=line["point_tokens"]),
                    )
                )
            # Something declared in this step already: the rest may be left, "no more".
            more = bool(view["last"]["lines"])
            closable = view["closable"]
            public = as_public(view)
            seated = names or [
                say("picture.seat", number=seat + 1) for seat in range(int(view["seats"]))
            ]
            alt = self.board_alt(public, seated)
            picture = await workers.draw(
                pictures.hv_board_png,
                public,
                names=names,
                highlight=closable,
                language=self.language,
            )
            intro = say(
                "high_voltage.prompt.declare_more" if more else "high_voltage.prompt.declare"
            )
            return Post(
                intro + "\n" + "\n".join(rows),
                files=[Picture("lines.png", picture, alt)],
                choices=self._declare_choices(closable, more=more),
            )
        return None

    # ------------------------------------------------------------------ alt texts

    def board_details(self, view: View, names: Sequence[str]) -> list[str]:
        """The lines closed and waiting to be declared, the lines just scored, the empty cell
        and the tokens and DANGER cards on the grid: all on the public board."""
        say = self.texts
        out = []
        closable = view["closable"] if view["phase"] == "declaring" else []
        if closable:
            lines = ", ".join(
                say(
                    "high_voltage.alt.line",
                    line=line["line"],
                    cards=say("high_voltage.line.cards", count=line["length"]),
                    start=self.word("high_voltage.sides", line["sides"][0]),
                    end=self.word("high_voltage.sides", line["sides"][1]),
                )
                for line in closable
            )
            out.append(say("high_voltage.alt.closable", count=len(closable), lines=lines))
        out += [describe_line(record, say) for record in view["last"]["lines"]]
        if view.get("empty_cell"):
            out.append(say("high_voltage.alt.empty", cell=view["empty_cell"]))
        cells = view["cells"]
        for key, cells_of in (
            ("danger_cards", [c["cell"] for c in cells if c.get("kind") == "danger"]),
            ("energy", [c["cell"] for c in cells if c.get("energy") == "high_voltage"]),
            ("danger_tokens", [c["cell"] for c in cells if c.get("energy") == "danger"]),
        ):
            if cells_of:
                out.append(say(f"high_voltage.alt.{key}", cells=", ".join(cells_of)))
        return out

    def card_alt(self, drawn: Mapping[str, Any]) -> str:
        """The drawn card's picture in words, for its drawer alone: its kind and, in each of
        the four orientations the picture shows, which coloured path joins which sides."""
        say = self.texts
        paths = tuple(path_key(p) for p in drawn.get("paths", []))
        start = int(drawn.get("rotation", 0))
        turns = []
        for degrees in ROTATIONS:
            turned = rotate_paths(paths, (degrees - start) % 360)
            words = ", ".join(
                say(
                    "high_voltage.alt.path",
                    colour=self._company(colour),
                    start=self.word("high_voltage.sides", SIDES[a]),
                    end=self.word("high_voltage.sides", SIDES[b]),
                )
                for a, b, colour in turned
            )
            turns.append(
                say("high_voltage.alt.turned", degrees=degrees, paths=words)
                if words
                else say("high_voltage.alt.turned_bare", degrees=degrees)
            )
        kind = self.word("picture.hv.kinds", str(drawn.get("kind", "")))
        return alt_lines(say("high_voltage.alt.card", cell=drawn["cell"], kind=kind), *turns)

    def secret_alt(self, view: View, seat: int) -> str:
        """The seat's own company, its disc's letter and how its paths look."""
        colour = view["players"][seat]["colour"]
        return alt_lines(
            self.texts("high_voltage.alt.secret", company=self._company(colour)),
            _sentence(company_legend(colour, self.texts)),
        )

    def _place_choices(self) -> tuple[Choice, ...]:
        """Eight buttons: where the drawn card goes (row) and how it is turned (column)."""
        choices = []
        for row, place in enumerate(("here", "empty")):
            word = self.texts(f"high_voltage.buttons.{place}")
            for rotation in ROTATIONS:
                look: Look = "primary" if place == "here" else "success"
                label = f"{word} {rotation}°"
                choices.append(Choice(f"place {place} r{rotation}", label, look, row))
        return tuple(choices)

    def _declare_choices(
        self, lines: list[dict[str, Any]], *, more: bool = False
    ) -> tuple[Choice, ...]:
        """A button per closable line (Discord shows at most 25), then "none", or "no more"
        once a line of this step is declared (`more`): the rules let a player declare none
        of the lines they closed, and stop after any of them."""
        choices = [
            Choice(
                f"declare {line['line']}",
                self.texts("high_voltage.buttons.declare", line=line["line"]),
                "success",
                i // 5,
            )
            for i, line in enumerate(lines[:20])
        ]
        none = self.texts(
            "high_voltage.buttons.declare_no_more" if more else "high_voltage.buttons.declare_none"
        )
        choices.append(Choice("declare none", none, "secondary", min(4, (len(choices) + 4) // 5)))
        return tuple(choices)

    def secret(self, channel_id: int, view: View, seat: int) -> tuple[str, str, bytes]:
        colour = view["players"][seat]["colour"]
        company = self._company(colour)
        return (
            self.texts("high_voltage.secret.title", company=company.upper()),
            self.texts("high_voltage.secret.text", channel=f"<#{channel_id}>", company=company),
            pictures.hv_secret_png(colour, language=self.language),
        )


def _sentence(text: str) -> str:
    """A label ("plain paths, letter R", as the picture writes it under a name) as a line of
    alt text of its own: a sentence, so it begins with a capital."""
    return text[:1].upper() + text[1:]
