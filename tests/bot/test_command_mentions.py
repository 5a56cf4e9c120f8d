"""Texts name commands as Discord mentions once the bot knows their ids: each client shows a
mention in its own language, clickable. Until then (and in the CLI), as typed."""

from __future__ import annotations

from data.texts import Command, Option, catalogue, texts_for
from hvbot.cogs.stats import StatsCog
from hvbot.services.errors import BotError


def test_commands_are_typed_until_their_ids_are_known() -> None:
    texts = texts_for("de")
    assert "/game board" in texts("bot.apology_after_move")
    assert texts.command(Command("game board")) == "/game board"


def test_commands_in_texts_become_mentions(mentioned: None) -> None:
    for language in ("en", "it", "fr", "de"):
        said = texts_for(language)("bot.apology_after_move")
        assert "</game board:11>" in said and "/game board " not in said, said


def test_options_after_a_mention_are_named_in_the_readers_language(mentioned: None) -> None:
    fields = {"colour": "x", "value": 1, "walls": "", "rule": "", "option": Option("s6 place cell")}
    said = texts_for("de")("sector6.prompt.tile", **fields)
    assert "</s6 place:44>" in said
    german = {catalogue("de")[f"commands.s6.place.{o}.name"] for o in ("cell", "rotation")}
    assert all(f"`{name}:" in said or f" {name}:" in said for name in german), said


def test_a_group_is_named_as_all_its_commands(mentioned: None) -> None:
    said = texts_for("en").command(Command("hv"))
    assert said == "</hv draw:22>, </hv rotate:22>, </hv move:22>, </hv swap:22>"


def test_a_group_in_prose_is_left_as_typed(mentioned: None) -> None:
    said = texts_for("en")("bot.season_stats.off", option=Option("server settings season"))
    assert "/stats without" in said


def test_stats_outside_a_server_mentions_the_command_to_use(mentioned: None) -> None:
    """The refusal names /stats me as a mention, so an Italian or German reader sees their
    client's "/statistiche", "/statistik" rather than the English group typed."""
    for language in ("en", "it", "fr", "de"):
        texts = texts_for(language)
        said = texts.explain(stats_outside_a_server())
        assert "</stats me:55>" in said and said.count("/stats") == 1, (language, said)


def test_no_mention_is_left_in_a_code_span(mentioned: None) -> None:
    for language in ("en", "it", "fr", "de"):
        for key, template in catalogue(language).items():
            if isinstance(template, str) and "/" in template:
                said = texts_for(language).template(key)
                assert "`</" not in said, (language, key, said)


def test_an_option_is_found_by_the_name_english_discord_shows(mentioned: None) -> None:
    """/s6 move's options are `from` and `to` in English and `origin`, `target` in the code;
    a text writes what English players see, and other languages get their own names."""
    said = texts_for("de")._mention_in("/s6 move from:C4 to:C6 and /hv draw cell:C3 place:here")
    assert said == "</s6 move:44> von:C4 nach:C6 and </hv draw:22> feld:C3 wohin:here"


def test_refusals_name_commands_with_the_readers_option_names(mentioned: None) -> None:
    said = texts_for("fr")("engine.high_voltage.face_down", cell="B7")
    assert said == "B7 est face cachée : piochez-la d'abord avec </hv draw:22> case:B7."


def stats_outside_a_server() -> BotError:
    """What /stats answers in a direct message, as its command raises it."""

    class _Direct:
        guild_id = None

    try:
        StatsCog._guild(_Direct())  # type: ignore[arg-type]  # only guild_id is read
    except BotError as error:
        return error
    raise AssertionError("/stats was answered outside a server")
