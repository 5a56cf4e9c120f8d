"""The animated replay of a finished game, for any game the bot plays.

A game is dealt again from its seed and its stored actions, and every position is shown as
the spectators saw it (`view(None)`), drawn by the game's own presenter: the replay is written
once for all games, and cannot show what the channel never saw. The dealt-again game must
end in the stored final state; if it does not (a game saved by an engine whose rules have
changed since), no replay is better than a wrong one.

Drawing a replay takes a second or more, so it is drawn with the bot's long work
(`workers.when_free`), never where the boards after moves are drawn: those never wait behind a
replay, and when several games end at once their replays queue instead of competing for the
processor, behind the AI seats' thinking that games wait for. The game is dealt again here, in a
thread; the worker receives only the views the replay shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Collection, Iterator, Sequence
from typing import Any

import render
from data.texts import ENGLISH, Texts, texts_for
from engine.registry import find_game
from hvbot.infra import metrics, workers
from hvbot.messages.post import Picture, Post
from hvbot.messages.presenters import presenter_for
from hvbot.messages.wording import shown
from hvbot.services.seat_names import said
from hvbot.store import ArchivedGame, GameRow
from hvbot.store.replays import KeptReplay, Replays

FILENAME = "replay.gif"


class NoReplay(Exception):
    """The stored game cannot be dealt again to its stored end; the message says why (in
    English; `key` and `fields` name the same text in every language)."""

    def __init__(self, message: str, *, key: str | None = None, **fields: Any) -> None:
        super().__init__(message)
        self.key = key
        self.fields = fields


def public_views(
    game: GameRow,
    actions: Sequence[tuple[int, str]],
    *,
    keep: Collection[int] | None = None,
) -> list[dict[str, Any]]:
    """The spectators' view after the deal and after each stored action; with `keep`, only
    the views of those positions (0: the deal), though every action is still played and
    checked: a long game's replay draws only some of them (`render.frames_of`), and a view
    is tens of kB."""
    if game.seed is None or game.state is None:
        raise NoReplay(
            f"Game #{game.id} never started, so it has nothing to replay.",
            key="bot.replay.never_started",
            number=game.id,
        )
    rules = find_game(game.game_name)
    state = rules.new_state(len(game.seats), game.seed, game.options)
    views = [state.view(None)] if keep is None or 0 in keep else []
    try:
        for position, (_, text) in enumerate(actions, start=1):
            state.apply(text)
            if keep is None or position in keep:
                views.append(state.view(None))
    except Exception as exc:  # any engine error: the log no longer fits these rules
        raise NoReplay(
            f"Game #{game.id} cannot be replayed by this version: {exc}",
            key="bot.replay.outdated",
            number=game.id,
            reason=str(exc),
        ) from exc
    if json.loads(json.dumps(state.to_dict())) != game.state:  # as stored: tuples are lists
        raise NoReplay(
            f"Game #{game.id} cannot be replayed: its moves no longer lead to its end.",
            key="bot.replay.diverged",
            number=game.id,
        )
    return views


def build(game: GameRow, actions: Sequence[tuple[int, str]]) -> render.Replay:
    """The replay GIF of a game (slow: a second or more; run it off the event loop)."""
    positions = len(actions) + 1
    keep = frozenset(render.frames_of(positions))
    return draw(game, public_views(game, actions, keep=keep), positions)


def draw(game: GameRow, views: list[dict[str, Any]], positions: int | None = None) -> render.Replay:
    """The replay GIF of `views`, the spectators' views of `game` in order: every position,
    or those `render.frames_of(positions)` names of a game of `positions` positions."""
    with _fitting(game):
        return presenter_for(game.game_name, game.language).replay_gif(
            views, _names(game), positions
        )


def _names(game: GameRow, language: str | None = None) -> list[str]:
    """The players' names as the replay shows them, in `language` (the game's by default)."""
    shown_in = game.language if language is None else language
    return [said(seat, texts_for(shown_in)) for seat in game.seats]


@contextlib.contextmanager
def _fitting(game: GameRow) -> Iterator[None]:
    """A replay too large for Discord however it is cut is no replay (NoReplay)."""
    try:
        yield
    except render.ReplayTooLarge as exc:
        raise NoReplay(
            f"Game #{game.id} is too long to replay in one picture.",
            key="bot.replay.too_long",
            number=game.id,
        ) from exc


def caption(heading: str, replay: KeptReplay | render.Replay, texts: Texts = ENGLISH) -> str:
    """`heading`, the number of moves, and what was left out if the GIF had to be cut."""
    moves = texts("bot.replay.moves", count=replay.positions - 1)
    if len(replay.shown) == replay.positions:
        return texts("bot.replay.caption", heading=heading, moves=moves)
    return texts(
        "bot.replay.caption_cut",
        heading=heading,
        moves=moves,
        shown=len(replay.shown),
        positions=replay.positions,
    )


def archived_heading(archived: ArchivedGame, texts: Texts = ENGLISH) -> str:
    """The caption's start for a game looked back at: the reader may not remember it, so it
    names the game, its players and its day, e.g. `Replay of Pylons game #12, Ada vs Bo
    (2026-11-20)`."""
    return texts("bot.replay.of", game=describe(archived, with_id=False, texts=texts))


def describe(archived: ArchivedGame, *, with_id: bool = True, texts: Texts = ENGLISH) -> str:
    """A finished game in a few words. With its number first for the autocomplete list,
    where people pick by number (`#12 Pylons, 2026-11-20, Ada vs Bo`); as a phrase for a
    caption otherwise (`Pylons game #12, Ada vs Bo (2026-11-20)`)."""
    game = archived.game
    title = find_game(game.game_name).title
    names = [said(seat, texts) for seat in game.seats]
    day = (archived.ended_at or "")[:10]
    if with_id:  # a choice's name: plain text, shown as it is
        players = texts("bot.replay.versus").join(names)
        return ", ".join(part for part in (f"#{game.id} {title}", day, players) if part)
    players = texts("bot.replay.versus").join(shown(name) for name in names)
    when = f" ({day})" if day else ""
    return texts("bot.replay.described", game=title, number=game.id, players=players, when=when)


async def replay_post(
    game: GameRow,
    actions: Sequence[tuple[int, str]],
    *,
    heading: str,
    texts: Texts = ENGLISH,
    kept: Replays | None = None,
) -> Post:
    """The replay of a game from its stored `actions` as a card (its caption, the animation
    in its gallery with its alt text), drawn with the long work (raises NoReplay), or as it
    was drawn before and `kept`; its caption in `texts`."""
    replay = await kept.get(game_id=game.id, language=game.language) if kept else None
    if replay is None:
        # A long game's frames are thinned before any view is made (`render.frames_of`).
        positions = len(actions) + 1
        keep = frozenset(render.frames_of(positions))
        views = await asyncio.to_thread(public_views, game, actions, keep=keep)
        # The drawing is sent what its pictures show alone: the views, the names, the game
        # and its language (the presenter travels as these two), never the game's seed or
        # its whole state with the hidden cards.
        presenter = presenter_for(game.game_name, game.language)
        with _fitting(game):
            drawn = await metrics.timed(
                metrics.REPLAY_DRAWING.labels(game.game_name),
                workers.when_free(presenter.replay_gif, views, _names(game), positions),
            )
        replay = KeptReplay(drawn.data, drawn.positions, drawn.shown)
        if kept is not None:
            await kept.keep(game_id=game.id, language=game.language, replay=replay)
    alt = replay_alt(game, replay, texts.language)
    return Post(
        caption(heading, replay, texts), files=[Picture(FILENAME, replay.gif, alt)], card=True
    )


def replay_alt(game: GameRow, replay: KeptReplay | render.Replay, language: str) -> str:
    """The replay in words, in `language`: the game, its players, its moves and its end as
    the spectators saw it (the stored final state's public view)."""
    presenter = presenter_for(game.game_name, language)
    final: dict[str, Any] = {}
    if game.state is not None:
        final = find_game(game.game_name).state_from_dict(game.state).view(None)
    return presenter.replay_alt(
        final,
        _names(game, language),
        moves=replay.positions - 1,
        shown=len(replay.shown),
        positions=replay.positions,
    )
