"""What a game's live page says: its board as the spectators see it, in the reader's language.

Everything here is drawn from the public view (`state.view(None)`, the one the channel's board
posts are drawn from) and the seats' names, through the game's presenter, as strings: the page
and its updates carry words and a picture, never the view itself, so nothing a view keeps for
its own use can reach a browser by accident. The stored moves are said in the presenter's words
(as `/game log` says them to anyone).

`board_words` is what an update carries (JSON); `page_html` is the first answer, the same
words in HTML, so the page reads whole without its script (and to a screen reader).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from html import escape
from typing import Any

from data.texts import DEFAULT, LANGUAGES, Texts, texts_for
from engine.core import State
from engine.registry import find_game
from hvbot.messages.presenters import presenter_for
from hvbot.messages.presenters.base import plain
from hvbot.messages.wording import picture_names
from hvbot.store import GameRow

SCRIPT = "/live.js"
STYLE = "/live.css"


def language_from(accept: str | None) -> str:
    """The bot's language the browser prefers most (`Accept-Language`, with its weights),
    English when it names none of them."""
    best, weight = DEFAULT, 0.0
    for order, part in enumerate((accept or "").split(",")):
        tag, _, params = part.strip().partition(";")
        code = tag.strip().lower().split("-", 1)[0]
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        q -= order * 1e-6  # equal weights: the first named wins
        if code in LANGUAGES and q > weight:
            best, weight = code, q
    return best


def deadline_ms(game: GameRow, state: State) -> int | None:
    """When the person to move runs out of time (milliseconds since the epoch), if their
    clock runs: the page counts down to it itself. None when no clock runs, it stands still,
    or an AI is to move."""
    seat = None if state.is_terminal() else state.current_seat()
    if seat is None or game.clock_deadline is None or game.clock_paused_at is not None:
        return None
    if game.seats[seat].is_ai or seat == game.stand_in_seat:
        return None
    return int(datetime.fromisoformat(game.clock_deadline).timestamp() * 1000)


@dataclass(frozen=True)
class Moment:
    """One version of a game as its page shows it, whatever the language: the stored row,
    its state, its moves so far (seat, action) and the address of its picture."""

    game: GameRow
    state: State
    moves: Sequence[tuple[int, str]]
    picture: str


def board_words(moment: Moment, language: str) -> dict[str, Any]:
    """The page's words for one version of a game in `language`: what an update carries."""
    game, state = moment.game, moment.state
    texts = texts_for(language)
    presenter = presenter_for(game.game_name, language)
    view = state.view(None)
    names = picture_names(game, texts)
    seat = None if state.is_terminal() else state.current_seat()
    over = state.is_terminal()
    turn: str | None
    if over:
        turn = plain(presenter.outcome(view, names))
    else:
        turn = presenter.waiting(view, names[seat]) if seat is not None else None
        if not turn:
            who = names[seat] if seat is not None else "?"
            phase = presenter.phase_words(view)
            if "turn" in view:
                turn = texts("bot.status.turn", number=view["turn"], player=who, phase=phase)
            else:
                turn = texts("bot.status.to_move", player=who, phase=phase)
        turn = plain(turn)  # the page shows what the picture does: no mentions, no markdown
    sections = presenter.text_board(view, names) or []
    return {
        "version": game.version,
        "over": over,
        "picture": moment.picture,
        "alt": presenter.board_alt(view, names),
        "seats": [
            {"name": names[s.seat], "ai": s.is_ai, "to_move": s.seat == seat} for s in game.seats
        ],
        "turn": turn,
        "deadline": deadline_ms(game, state),
        "scores": "" if over else plain(presenter.scores(view, names)),
        "result": plain(presenter.outcome(view, names)) if over else None,
        "moves": [
            texts("bot.web.move", player=names[s], move=presenter.move_words(a))
            for s, a in moment.moves
        ],
        "text_board": [list(section) for section in sections],
    }


def title_of(game: GameRow, texts: Texts) -> str:
    return texts("bot.web.title", game=find_game(game.game_name).title, number=game.id)


def page_html(
    moment: Moment, language: str, events: str, now_ms: int, words: dict[str, Any] | None = None
) -> str:
    """The page, whole: the words of `board_words` in HTML, the script that keeps it live
    (`events`: where its updates come from; `now_ms`: the bot's time as it was answered,
    for the clock), and nothing inline for a Content-Security-Policy to refuse."""
    texts = texts_for(language)
    said = words if words is not None else board_words(moment, language)
    title = title_of(moment.game, texts)

    def seat_item(seat: dict[str, Any]) -> str:
        marks = ' class="to-move" aria-current="true"' if seat["to_move"] else ""
        return f"<li{marks}>{escape(seat['name'])}</li>"

    seats = "".join(seat_item(seat) for seat in said["seats"])
    moves = "".join(f"<li>{escape(move)}</li>" for move in said["moves"])
    board = "".join(f"<pre>{escape(chr(10).join(section))}</pre>" for section in said["text_board"])
    deadline = "" if said["deadline"] is None else str(said["deadline"])
    result = said["result"] or ""
    live, away = escape(texts("bot.web.live")), escape(texts("bot.web.reconnecting"))
    clock = escape(texts("bot.web.clock"))
    none = escape(texts("bot.web.no_moves"))
    moves = moves or f'<li class="none">{none}</li>'
    parts = [
        f'<h1 id="title">{escape(title)}</h1>',
        f'<p id="live" role="status" data-live="{live}" data-away="{away}">{live}</p>',
        f'<figure><img id="picture" src="{escape(said["picture"])}" '
        f'alt="{escape(said["alt"])}"></figure>',
        _section("seats", texts("bot.web.seats"), f'<ol id="seats">{seats}</ol>'),
        f'<p id="turn" aria-live="polite">{escape(said["turn"])}</p>',
        f'<p id="clock" data-deadline="{deadline}" data-label="{clock}"'
        f"{'' if deadline else ' hidden'}></p>",
        f'<p id="scores">{escape(said["scores"])}</p>',
        _section(
            "result",
            texts("bot.web.result"),
            f'<p id="result">{escape(result)}</p>',
            box="result-box",
            hidden=not result,
        ),
        _section(
            "moves", texts("bot.web.moves"), f'<ol id="moves" data-none="{none}">{moves}</ol>'
        ),
        _section("text", texts("bot.web.text_board"), f'<div id="text-board">{board}</div>'),
    ]
    body = "\n".join(parts)
    return f"""<!doctype html>
<html lang="{language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{escape(title)}</title>
<link rel="stylesheet" href="{STYLE}">
<script src="{SCRIPT}" defer></script>
</head>
<body data-events="{escape(events)}" data-version="{said["version"]}" data-now="{now_ms}">
<main>
{body}
</main>
</body>
</html>
"""


def _section(
    name: str, heading: str, inside: str, *, box: str | None = None, hidden: bool = False
) -> str:
    """A part of the page under its heading (named for screen readers' lists of regions)."""
    box_id = f' id="{box}"' if box else ""
    shut = " hidden" if hidden else ""
    return (
        f'<section{box_id} aria-labelledby="{name}-heading"{shut}>'
        f'<h2 id="{name}-heading">{escape(heading)}</h2>{inside}</section>'
    )


def event_data(words_json: str, now_ms: int) -> bytes:
    """One server-sent event: the bot's time as it is sent (for the clock), and the words of
    a version (JSON, made once per version and language)."""
    return f'data: {{"now":{now_ms},"board":{words_json}}}\n\n'.encode()


def as_json(words: dict[str, Any]) -> str:
    return json.dumps(words, ensure_ascii=False, separators=(",", ":"))
