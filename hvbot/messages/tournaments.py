"""What a tournament says in its channel: the sign-up post (its entrants, and the Join and
Leave buttons), each round's announcement and its tables' announcements (the seats with
mentions; each table's thread starts from its announcement), the standings after each round
(a picture with its text twin) and the final podium. All in the server's language.

The sign-up post, a round's, the standings and the podium are cards, as a game's posts are
(`hvbot.messages.cards`): the sign-up's buttons inside it, the standings' picture in its
gallery with the text twin as its alt text. A table's announcement is its game's lobby
message, edited by its words alone, and stays plain text.

The Join and Leave buttons' custom ids are `tour:<id>:join` and `tour:<id>:leave`
(`signup_id`): the handlers find them by that pattern, after a restart too."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import discord

from data.texts import ENGLISH, Texts, texts_for
from engine.registry import find_game
from hvbot.infra import workers
from hvbot.messages.buttons import drawn
from hvbot.messages.leaderboards import safe_name
from hvbot.messages.post import Picture, Post
from hvbot.messages.time_words import clock_terms
from hvbot.services.standings import shown_points, shown_tiebreaks, tiebreak_names
from hvbot.services.tournaments import TournamentStanding
from hvbot.store import GameRow, TurnClock
from hvbot.store.tournaments import EntrantRow, TournamentRow
from render.standings import (
    MOST_LINES,
    StandingLine,
    StandingsView,
    standings_alt,
    standings_png,
)

SIGNUP_CHOICES = ("join", "leave")


def signup_id(tournament_id: int, choice: str) -> str:
    """A sign-up button's custom id: `tour:<id>:join` or `tour:<id>:leave`."""
    return f"tour:{tournament_id}:{choice}"


def signup_view(tournament_id: int, texts: Texts = ENGLISH) -> discord.ui.View:
    """The sign-up post's Join and Leave buttons."""
    view = discord.ui.View(timeout=None)
    for choice, style in (
        ("join", discord.ButtonStyle.success),
        ("leave", discord.ButtonStyle.secondary),
    ):
        view.add_item(
            discord.ui.Button(
                label=texts(f"bot.tournament.{choice}"),
                style=style,
                custom_id=signup_id(tournament_id, choice),
            )
        )
    return drawn(view)


def _format_words(tournament: TournamentRow, texts: Texts) -> str:
    if tournament.format == "round_robin":
        return texts("bot.tournament.format.round_robin")
    if tournament.rounds is None:
        return texts("bot.tournament.format.swiss_open")
    return texts("bot.tournament.format.swiss", count=tournament.rounds)


def _title(tournament: TournamentRow, texts: Texts) -> str:
    return texts(
        "bot.tournament.title",
        name=safe_name(tournament.name),
        game=find_game(tournament.game_name).title,
        format=_format_words(tournament, texts),
    )


def _when(moment: str) -> str:
    """A stored stamp as Discord's own time stamp: each reader sees it in their time."""
    return f"<t:{int(datetime.fromisoformat(moment).timestamp())}:f>"


def signup_text(tournament: TournamentRow, entrants: Sequence[EntrantRow], texts: Texts) -> str:
    """The sign-up post: what the tournament is, who starts it and when, where it stands,
    and its entrants (seed order once started; those who left marked)."""
    terms = texts(
        "bot.tournament.terms",
        table=tournament.table,
        clock=clock_terms(TurnClock(tournament.clock_minutes, tournament.timeout), texts),
    )
    creator = f"<@{tournament.creator_id}>"
    if tournament.status == "signup":
        if tournament.starts_at is not None:
            state = texts(
                "bot.tournament.starts_at", when=_when(tournament.starts_at), creator=creator
            )
        else:
            state = texts("bot.tournament.starts_by_hand", creator=creator)
    elif tournament.status in ("running", "paused"):
        state = texts(
            f"bot.tournament.status.{tournament.status}",
            round=tournament.round,
            rounds=tournament.rounds or tournament.round,
        )
    else:
        state = texts(f"bot.tournament.status.{tournament.status}")
    listed = []
    for number, entrant in enumerate(entrants, start=1):
        line = f"{number}. <@{entrant.user_id}>"
        if entrant.removed:
            line += f" ({texts('bot.tournament.note.removed')})"
        elif not entrant.playing:
            line += f" ({texts('bot.tournament.note.withdrew')})"
        listed.append(line)
    people = (
        texts("bot.tournament.entrants", count=len(entrants), most=tournament.most)
        + "\n"
        + "\n".join(listed)
        if listed
        else texts("bot.tournament.nobody")
    )
    return "\n".join((_title(tournament, texts), terms, state, "", people))


def signup_post(tournament: TournamentRow, entrants: Sequence[EntrantRow]) -> Post:
    """The sign-up post, in the tournament's language: with Join and Leave while it is
    open to sign up (a button clicked after that is answered that sign-up is closed)."""
    texts = texts_for(tournament.language)
    view = signup_view(tournament.id, texts) if tournament.status == "signup" else None
    return Post(signup_text(tournament, entrants, texts), view=view, card=True)


def round_post(standing: TournamentStanding, number: int) -> Post:
    """A round paired: how many tables (each announced below, with its thread), and who has
    a bye."""
    tournament = standing.tournament
    texts = texts_for(tournament.language)
    tables = [t for t in standing.tables if t.table.round == number]
    lines = [
        texts(
            "bot.tournament.round",
            name=safe_name(tournament.name),
            round=number,
            rounds=tournament.rounds or number,
        ),
        texts("bot.tournament.tables", count=len(tables)),
    ]
    for round_row in standing.rounds:
        if round_row.round == number and round_row.byes:
            byes = ", ".join(f"<@{user}>" for user in round_row.byes)
            lines.append(texts("bot.tournament.byes", players=byes))
    return Post("\n".join(lines), card=True)


def table_post(tournament: TournamentRow, game: GameRow, number: int, table: int) -> Post:
    """A table's announcement, from which its thread starts, as a card: the round and
    table, its players in seat order (mentioned: they are told to play, and a card's text
    pings as a message's does), and where it is played; once the game is over, that it is
    (the announcement is the game's lobby message, edited as a lobby message is). A table
    announced whose thread Discord would not start says it is played in the channel, and
    how to name it."""
    texts = texts_for(tournament.language)
    seats = "\n".join(f"{s.seat + 1}. <@{s.user_id}>" for s in game.seats if s.user_id)
    lines = [
        texts(
            "bot.tournament.table",
            name=safe_name(tournament.name),
            round=number,
            table=table,
        ),
        seats,
    ]
    if not game.is_open:
        lines.append(texts(f"bot.lobby.{game.status}"))
    if game.thread_id is not None:
        where = "bot.tournament.in_thread" if game.is_open else "bot.lobby.ended_in_thread"
        lines.append(texts(where, thread=f"<#{game.thread_id}>"))
    elif game.is_open and game.lobby_message_id is not None:
        # Announced, and no thread: Discord would not start one (no permission, say). Its
        # players' commands typed in the channel find it by their seat; anyone else names it.
        lines.append(texts("bot.tournament.table_notes.no_thread", game=f"#{game.id}"))
    return Post("\n".join(lines), card=True)


def thread_name(tournament: TournamentRow, number: int, table: int) -> str:
    """A table's thread's name: the tournament, the round and the table (a thread's name
    shows no markdown, and is cut to Discord's length by the caller)."""
    texts = texts_for(tournament.language)
    return texts("bot.tournament.thread", name=tournament.name, round=number, table=table)


def standings_view(
    standing: TournamentStanding, texts: Texts, *, podium: bool = False
) -> StandingsView:
    """The standings as the picture and its text twin show them, in `texts`' language."""
    tournament = standing.tournament
    names = {e.user_id: e.name for e in standing.entrants}
    removed = {e.user_id for e in standing.entrants if e.removed}
    kind = {"by_tables": standing.by_tables, "round_robin": standing.round_robin}
    lines = []
    for line in standing.standings:
        note = ""
        if line.player in removed:
            note = texts("bot.tournament.note.removed")
        elif line.withdrawn:
            note = texts("bot.tournament.note.withdrew")
        lines.append(
            StandingLine(
                place=line.place,
                name=safe_name(names.get(line.player, str(line.player))),
                points=shown_points(line.points),
                tiebreaks=shown_tiebreaks(line.tiebreaks, **kind),
                games=line.games,
                note=note,
            )
        )
    heads = (
        texts("bot.tournament.heading.place"),
        texts("bot.tournament.heading.player"),
        texts("bot.tournament.heading.points"),
        *(texts(f"bot.tournament.heading.{name}") for name in tiebreak_names(**kind)),
        texts("bot.tournament.heading.games"),
    )
    if podium:
        title = texts("bot.tournament.podium_title", name=tournament.name)
    else:
        title = texts("bot.tournament.standings_title", name=tournament.name, round=standing.upto)
    subtitle = f"{find_game(tournament.game_name).title} · {_format_words(tournament, texts)}"
    return StandingsView(title, subtitle, heads, tuple(lines[:MOST_LINES]), podium=podium)


async def standings_post(
    standing: TournamentStanding, texts: Texts, *, podium: bool = False
) -> Post:
    """The standings after a round (or the final podium, which names the winner first): the
    picture, drawn off the event loop, and its text twin as the message and its alt text."""
    view = standings_view(standing, texts, podium=podium)
    alt = standings_alt(view)
    png = await workers.draw(standings_png, view)
    content = alt
    if podium and standing.standings:
        first = [s for s in standing.standings if s.place == 1]
        winners = ", ".join(f"<@{s.player}>" for s in first)
        content = texts("bot.tournament.winner", players=winners, count=len(first)) + "\n" + alt
    name = f"tournament-{standing.tournament.id}-{'podium' if podium else standing.upto}.png"
    return Post(content, files=[Picture(name, png, alt)], card=True)
