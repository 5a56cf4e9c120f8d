"""Every text within the limits Discord sets where it goes, in every language: each key of the
bot's and every game's files rendered with every count form of its language, with commands
said as mentions (19-digit ids) and its fields at their longest realistic values (19-digit
ids, 32-character names, four players); and the messages composed of several texts (/me games,
/me help, /server settings, a 4-player board's description) rendered by the bot's own
functions at their longest. Discord refuses a whole message with one part too long, and cuts
nothing itself: what is over is either refused or cut by the bot, and both lose words."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

import pytest

import data.texts
from data.texts import LANGUAGES, catalogue, fields_of, mention_commands, texts_for
from games import find_game
from hvbot.cogs.me import MOST_GAMES, games_reply, help_text
from hvbot.cogs.server import settings_text
from hvbot.messages.limits import ALT, CONTENT, CUT, fit_alt, fit_sections
from hvbot.messages.presenters import presenter_for
from hvbot.services.server_settings import MOST_PLACES
from hvbot.store import GameRow, SeatRow, ServerSettings, TurnClock

NAME_LIMIT = 32  # a command's or an option's name
DESCRIPTION_LIMIT = 100  # a command's or an option's description
CHOICE_LIMIT = 100  # a choice's name
# A command's or option's name: lowercase letters (of any script), digits, - and _.
_NAME = re.compile(r"^[-_\w]{1,32}$")

ID = 1234567890123456789  # 19 digits, as Discord's ids now are
NAME = "W" * 32  # the longest display name Discord allows
NAMES = [letter * 32 for letter in "WXYZ"]
# Counts that take every plural form of the four languages (French says 0 in the singular).
COUNTS = (0, 1, 2, 5, 21)
LONGEST_TITLE = max((find_game(g).title for g in ("high-voltage", "pylons", "sector6")), key=len)
# Fields at their longest realistic value; any other field is a word or a number of the
# texts themselves, given here as long as a name.
LONGEST: dict[str, str] = {
    **dict.fromkeys(
        ("player", "creator", "moderator", "actor", "owner", "accepted", "first", "last"), NAME
    ),
    **dict.fromkeys(("players", "voters", "waiting"), ", ".join(NAMES[:3])),
    **dict.fromkeys(("where", "channel", "thread"), f"<#{ID}>"),
    "threads": ", ".join([f"<#{ID}>"] * 10),
    "places": ", ".join([f"<#{ID}>"] * MOST_PLACES),
    "role": f"<@&{ID}>",
    **dict.fromkeys(("until", "when"), "<t:1750000000:F>"),
    **dict.fromkeys(("game", "title"), LONGEST_TITLE),
    "number": "99999",
}
DEFAULT_VALUE = "w" * 32


def where_it_goes(key: str) -> tuple[str, int]:
    """The part of a message a text is, and Discord's limit there."""
    parts = key.split(".")
    if parts[0] == "commands" and parts[1] == "choices":
        return "choice", CHOICE_LIMIT
    if parts[0] == "commands" and parts[-1] == "name":
        return "name", NAME_LIMIT
    if parts[0] == "commands" and parts[-1] == "description":
        return "description", DESCRIPTION_LIMIT
    if "alt" in parts or parts[-1].endswith("_alt"):
        return "alt text", ALT
    return "message", CONTENT


def faults(rendered: Iterable[tuple[str, str, int, str]]) -> list[str]:
    """What breaks a limit among texts (where, part, limit, text): over the limit, empty, or a
    name Discord would refuse (upper case, a space, a character it does not allow)."""
    found = []
    for where, part, limit, text in rendered:
        if not text or len(text) > limit:
            found.append(f"{where}: {part} of {len(text)} characters (at most {limit}): {text!r}")
        elif part == "name" and (text != text.lower() or not _NAME.match(text)):
            found.append(f"{where}: {text!r} is not a name Discord allows")
    return found


def values(template: str | dict[str, str], count: int) -> dict[str, object]:
    return {f: LONGEST.get(f, DEFAULT_VALUE) for f in fields_of(template)} | {"count": count}


@pytest.fixture
def mentioned() -> Iterator[None]:
    """Commands said as mentions with 19-digit ids, as once the bot knows its commands."""
    groups = data.texts._command_tree()
    mention_commands(dict.fromkeys(groups, ID))
    yield
    mention_commands({})


def every_text(language: str) -> Iterator[tuple[str, str, int, str]]:
    texts = texts_for(language)
    for key, template in catalogue(language).items():
        part, limit = where_it_goes(key)
        for count in COUNTS if isinstance(template, dict) else (2,):
            yield (
                f"{language} {key} (count {count})",
                part,
                limit,
                texts(key, **values(template, count)),
            )


# -------------------------------------------------------------------------- the checker


def test_the_checker_finds_a_text_over_its_limit_and_a_name_discord_refuses() -> None:
    assert faults([("ok", "message", CONTENT, "x" * CONTENT)]) == []
    assert faults([("long", "message", CONTENT, "x" * (CONTENT + 1))])
    assert faults([("alt", "alt text", ALT, "x" * (ALT + 1))])
    assert faults([("choice", "choice", CHOICE_LIMIT, "x" * 101)])
    assert faults([("empty", "message", CONTENT, "")])
    for refused in ("Game", "new game", "x" * 33, "why?"):
        assert faults([("name", "name", NAME_LIMIT, refused)]), refused
    assert faults([("name", "name", NAME_LIMIT, "temps_écoulé")]) == []


def test_a_key_goes_where_its_name_says() -> None:
    assert where_it_goes("commands.game.new.clock.name") == ("name", NAME_LIMIT)
    assert where_it_goes("commands.game.new.description") == ("description", 100)
    assert where_it_goes("commands.choices.clock.60") == ("choice", 100)
    assert where_it_goes("sector6.alt.tile") == ("alt text", ALT)
    assert where_it_goes("bot.leaderboard.chart_alt") == ("alt text", ALT)
    assert where_it_goes("bot.me.help") == ("message", CONTENT)


# ------------------------------------------------------------------- every key, every form


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_fits_where_it_goes_at_its_longest(mentioned: None, language: str) -> None:
    assert faults(every_text(language)) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_option_has_one_name_in_every_command_that_has_it(language: str) -> None:
    """The same option in two commands (`absent` in /game new and /server settings) is
    listed under one name by the client: a reader told to use one finds it in the other.
    "game" names two things (a kind of game, a game being played), each under one name."""
    english, own = catalogue("en"), catalogue(language)
    names: dict[tuple[str, bool], set[str]] = {}
    for key, name in english.items():
        parts = key.split(".")
        if len(parts) == 5 and parts[0] == "commands" and parts[-1] == "name":
            kind = (
                parts[1:3] in (["game", "new"], ["game", "rules"], ["tournament", "new"])
                or parts[1] == "stats"
            )
            names.setdefault((str(name), kind), set()).add(str(own[key]))
    assert {k: v for k, v in names.items() if len(v) > 1} == {}


# ---------------------------------------------------------------- messages of several texts


def game_row(number: int, status: str, seats: int = 4) -> GameRow:
    return GameRow(
        id=10_000 + number,
        game_name="high-voltage",
        guild_id=ID,
        channel_id=ID,
        creator_id=ID,
        status=status,
        seed=1,
        options={},
        state_json=None,
        version=99,
        lobby_message_id=ID,
        seats=tuple(SeatRow(s, ID - s, None, NAMES[s]) for s in range(seats)),
        thread_id=ID,
        clock=TurnClock(10080, "end"),
        clock_deadline="2025-06-12T15:00:00+00:00",
    )


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("followed", [0, 20])
def test_me_games_fits_a_message_at_its_longest(language: str, followed: int) -> None:
    """As many games as /me games lists, each with the longest names and links, and as many
    followed: the reply fits, in whole lines, ending with how many more there are."""
    texts = texts_for(language)
    # every other game waits for this person (with its clock), the others for a long name
    own = [(game_row(n, "active"), n % 2) for n in range(MOST_GAMES)]
    follows = [game_row(100 + n, "active") for n in range(followed)]
    reply = games_reply(own, follows, ID, texts)
    assert faults([(f"{language} /me games", "message", CONTENT, reply)]) == []
    assert not reply.endswith(CUT)
    lines = reply.splitlines()
    shown = sum(line.startswith("- ") for line in lines)
    said_more = {texts("bot.me_games.more", count=n): n for n in range(1, 41)}
    left_out = sum(said_more[line] for line in lines if line in said_more)
    assert shown + left_out == MOST_GAMES + followed, reply
    assert lines[1].startswith("- "), "the person's own games come first"


def test_a_list_too_long_loses_its_last_lines_and_says_how_many() -> None:
    sections = [("Yours:", [f"- game {n} " + "x" * 90 for n in range(30)]), ("Followed:", [])]
    text = fit_sections(sections, lambda count: f"…and {count} more", limit=1000)
    assert len(text) <= 1000
    lines = text.splitlines()
    assert lines[0] == "Yours:" and lines[-1] == "Followed:"
    assert lines[-2] == f"…and {30 - (len(lines) - 3)} more"


@pytest.mark.parametrize("language", LANGUAGES)
def test_me_help_and_full_server_settings_fit_a_message(mentioned: None, language: str) -> None:
    texts = texts_for(language)
    settings = ServerSettings(
        game_places=tuple(ID - n for n in range(MOST_PLACES)),
        opener_role=ID,
        moderator_role=ID,
        language="de",
        remind_minutes=1440,
        absent_hours=168,
        clock=TurnClock(10080, "ai_seat"),
        most_open=10,
        lobby_hours=168,
        games_per_channel=25,
        season_length="quarter",
        season_since="2025-01-01T00:00:00+00:00",
        season_channel=ID,
        rank_role=ID,
    )
    composed = [
        ("/me help", help_text(texts)),
        ("/server settings", settings_text(settings, texts, server_language="it")),
        ("/server settings", settings_text(ServerSettings(), texts, server_language="it")),
    ]
    assert faults((f"{language} {name}", "message", CONTENT, text) for name, text in composed) == []


def positions(game: str, seats: int, seeds: range) -> Iterator[Any]:
    for seed in seeds:
        rules = find_game(game)
        state = rules.new_state(seats, seed)
        rng = random.Random(seed)
        while True:
            yield state
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))


@cache
def whole_games(game: str, seats: int) -> tuple[tuple[Any, bool], ...]:
    """The view of every position of three whole games (and whether it ends its game), played
    once per test process for the four languages' tests: playing them is most of their time."""
    return tuple(
        (state.view(None), state.is_terminal()) for state in positions(game, seats, range(3))
    )


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("game", "seats"), [("high-voltage", 4), ("pylons", 2), ("sector6", 4)])
def test_a_boards_description_fits_with_the_most_players_and_longest_names(
    language: str, game: str, seats: int
) -> None:
    """Every position of whole games with the most players, each with a 32-character name:
    High Voltage and Pylons fit whole; a Sector 6 board at the start of its race may be cut,
    but only between two markers (see its presenter), so every description sent fits."""
    presenter = presenter_for(game, language)
    names = NAMES[:seats]
    clock = texts_for(language)("bot.time.days", count=7)
    for view, over in whole_games(game, seats):
        alt = presenter.board_alt(view, names, clock=clock)
        sent = fit_alt(alt)
        assert faults([(f"{language} {game}", "alt text", ALT, sent)]) == []
        if game != "sector6":
            assert sent == alt, f"{len(alt)} characters"
        if over:
            end = presenter.end_alt(view, names)
            assert faults([(f"{language} {game} result", "alt text", ALT, end)]) == []
