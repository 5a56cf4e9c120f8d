"""The texts read as sentences in every language once their fields are filled: each text is
rendered here as the bot fills it (the move in words, a count of one, an option named as the
reader's client names it) and read for the wording a player would otherwise meet, such as
"@Anna hat hat D3 … zurückgenommen", "1 partite concluse" or "1 tokens"."""

from __future__ import annotations

import pytest

from data.texts import (
    LANGUAGES,
    Command,
    Option,
    catalogue,
    fields_of,
    texts_for,
)
from engine.registry import all_games
from hvbot.cogs.game import mode_options
from hvbot.cogs.me import settings_text as notify_settings_text
from hvbot.cogs.server import settings_text
from hvbot.messages.presenters import presenter_for
from hvbot.services.errors import BotError
from hvbot.services.server_settings import Change, apply
from hvbot.store import NotifySettings, ServerSettings

GUILD = 5


# ------------------------------------------------------------------ taking a move back


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", ["bot.undo.taken_back", "bot.undo.refused", "bot.undo.accepted"])
def test_an_undo_names_the_move_in_parentheses_after_a_whole_sentence(
    language: str, key: str
) -> None:
    move = presenter_for("high-voltage", language).move_words("move D3 r90")
    said = texts_for(language)(key, player="@Anna", action=move)
    assert said.endswith(f"({move}).")
    for doubled in (
        "hat hat",
        "ha annullato ha",
        "a annulé a",
        "took back moved",
        "accepted: moved",
    ):
        assert doubled not in said


def test_an_undo_reads_as_the_review_of_each_language_asks() -> None:
    move = presenter_for("high-voltage", "de").move_words("move D3 r90")
    assert texts_for("de")("bot.undo.taken_back", player="@Anna", action=move) == (
        "@Anna hat den letzten Zug zurückgenommen "
        "(hat D3 auf das leere Feld verschoben, um 90° gedreht)."
    )
    move = presenter_for("high-voltage", "it").move_words("rotate C3 r90")
    assert texts_for("it")("bot.undo.taken_back", player="@Anna", action=move) == (
        "@Anna ha annullato la sua ultima mossa (ha ruotato C3 a 90°)."
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_done_move_is_said_in_parentheses(language: str) -> None:
    move = presenter_for("pylons", language).move_words("mirror")
    said = texts_for(language)("bot.reply.done_action", action=move)
    assert said.endswith(f" ({move}).")
    assert "fait :" not in said


def test_one_opponent_is_asked_in_the_singular() -> None:
    fields = {"player": "@Anna", "action": "x", "waiting": "@Bruno"}
    italian = texts_for("it")("bot.undo.asked", **fields)
    assert "@Bruno: d'accordo?" in italian and "accettate" not in italian
    german = texts_for("de")("bot.undo.asked", **fields)
    assert "@Bruno: Einverstanden?" in german and "Seid ihr" not in german


# ------------------------------------------------------------------ another game's commands


@pytest.mark.parametrize("language", LANGUAGES)
def test_another_games_commands_are_a_list_in_parentheses(mentioned: None, language: str) -> None:
    said = texts_for(language)(
        "bot.error.other_game", game="Pylons", commands=Command("pylons"), used=Command("hv")
    )
    used = "</hv draw:22>, </hv rotate:22>, </hv move:22>, </hv swap:22>"
    assert f"({used})" in said, said
    assert "belongs" not in said and "appartient" not in said and "gehört zu" not in said


# ------------------------------------------------------------------ per language


def test_the_vacated_tile_is_turned() -> None:
    said = texts_for("en")("sector6.move.rotate_behind", direction="clockwise")
    assert said == "turned the vacated tile clockwise"
    said = texts_for("it")("sector6.move.rotate_behind", direction="in senso orario")
    assert said == "ha ruotato in senso orario la tessera appena lasciata"


def test_tokens_are_counted_after_their_name() -> None:
    en = texts_for("en")
    said = en("high_voltage.player_tokens", player="Ada", actions=1, special=1, points=1)
    assert said == "• Ada: action tokens 1, special 1, point tokens 1"
    row = {"player": "Ada", "company": "red", "company_score": 7, "tokens": 1, "score": 8}
    expected = {
        "en": "+ point tokens 1 =",
        "it": "+ gettoni punto 1 =",
        "fr": "+ jetons points 1 =",
        "de": "+ Punktmarker 1 =",
    }
    for language, words in expected.items():
        said = texts_for(language)("high_voltage.outcome.row", **row)
        assert words in said, said
        assert "1 tokens" not in said and "1 gettoni" not in said and "1 jetons" not in said


@pytest.mark.parametrize(
    ("language", "count", "expected"),
    [
        ("en", 1, "Pylons: 1 game finished"),
        ("it", 1, "Pylons: 1 partita conclusa"),
        ("it", 3, "Pylons: 3 partite concluse"),
        ("fr", 1, "Pylons : 1 partie terminée"),
        ("fr", 0, "Pylons : 0 partie terminée"),
        ("fr", 2, "Pylons : 2 parties terminées"),
        ("de", 1, "Pylons: 1 Partie beendet"),
    ],
)
def test_finished_games_are_counted_in_the_right_number(
    language: str, count: int, expected: str
) -> None:
    assert texts_for(language)("bot.stats.finished", game="Pylons", count=count) == expected


def test_the_markers_held_at_the_end_follow_their_label() -> None:
    said = texts_for("it")("sector6.outcome.held", values="4")
    assert said == " (di cui sotto i prigionieri alla fine: 4)"
    said = texts_for("fr")("sector6.outcome.held", values="4")
    assert said == " (dont sous les prisonniers à la fin : 4)"


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", ", 1 blocked"), ("it", ", 1 bloccato"), ("fr", ", 1 bloquée"), ("de", ", 1 blockiert")],
)
def test_one_blocked_link_is_singular(language: str, expected: str) -> None:
    assert texts_for(language)("picture.pylons.blocked", count=1) == expected


def test_the_collect_button_names_the_marker() -> None:
    said = texts_for("it")("sector6.buttons.collect", marker=1, cell="R19")
    assert said == "Raccogli il segnapunti da 1 in R19"
    said = texts_for("de")("sector6.buttons.collect", marker=1, cell="R19")
    assert "einsammeln" in said and " sammeln" not in said


def test_french_turns_cards_and_says_danger_as_printed() -> None:
    fr = texts_for("fr")
    said = fr("high_voltage.action.rotate", actor="Ada", cell="C3", degrees="90°", special="")
    assert said == "Ada a tourné C3 à 90°."
    assert fr("picture.hv.kinds.danger") == "DANGER"
    said = fr("sector6.secret.text", channel="#x", colour="rouge", shapes="ronds", letter="A")
    assert "seule la tuile que vous piochez reste connue de vous seul jusqu'à" in said


def test_german_collects_moves_and_waits_in_its_own_words() -> None:
    de = texts_for("de")
    assert "nichts einzusammeln" in de("sector6.action.move_over", cell="C3")
    said = de("sector6.turn.blocked", where="unten", rotations="2 Drehungen")
    assert said.endswith("führe unten 2 Drehungen an ihren Plättchen aus")
    said = presenter_for("high-voltage", "de").move_words("move D3 r90")
    assert "auf das leere Feld" in said
    said = de("bot.game.reminder", player="@Ada", game="Pylons", waited="2 Stunden")
    assert "(Wartezeit: 2 Stunden)" in said and "wartet" not in said
    # a length is said in the nominative wherever it stands: "3 Tage pro Zug", "noch 5 Tage"
    assert de("bot.time.days", count=3) == "3 Tage"
    assert de("bot.time.under_hour") == "weniger als eine Stunde"
    assert "3 Tage pro Zug" in de("bot.clock.paused", length=de("bot.time.days", count=3))
    said = de("bot.game.reminder_dm", game="Pylons", where="#spiele", waited="3 Tage")
    assert said.endswith("Der Tisch wartet schon 3 Tage.")


# ------------------------------------------------------------------ option names


def test_a_game_without_modes_names_the_option_in_the_readers_language() -> None:
    with pytest.raises(BotError) as refused:
        mode_options("pylons", "novice")
    assert "leave out mode." in texts_for("en").explain(refused.value)
    assert "ometti modalità." in texts_for("it").explain(refused.value)
    assert "Lass modus weg." in texts_for("de").explain(refused.value)


def test_options_named_in_refusals_are_the_readers_own() -> None:
    it, de = texts_for("it"), texts_for("de")
    option = Option("game new absent")
    assert "(assenza:0)" in it("bot.error.no_absence_votes", option=option)
    assert "(abwesenheit:0)" in de("bot.error.no_absence_votes", option=option)
    with pytest.raises(BotError) as refused:
        apply(ServerSettings(), Change(moderator_role=GUILD), guild_id=GUILD)
    assert "`dimentica:`" in it.explain(refused.value)
    assert "`vergessen:`" in de.explain(refused.value)
    said = it("bot.error.not_finished_here", number=3, option=Option("game replay game"))
    assert "l'opzione partita" in said


def test_the_drawn_tile_prompt_names_the_place_options_in_the_readers_language(
    mentioned: None,
) -> None:
    fields = {"colour": "x", "value": 1, "walls": "", "rule": "", "option": Option("s6 place cell")}
    italian = texts_for("it")("sector6.prompt.tile", **fields)
    assert "</s6 place:44> `casella:<casella> rotazione:<rotazione>`" in italian
    assert "l'opzione casella" in italian
    german = texts_for("de")("sector6.prompt.tile", **fields)
    assert "</s6 place:44> `feld:<feld> drehung:<drehung>`" in german
    assert "die Option feld" in german
    assert " cell" not in italian + german and "<turn>" not in italian + german


def test_quiet_hours_are_shown_with_their_command(mentioned: None) -> None:
    said = texts_for("de")("bot.error.notify_quiet_incomplete")
    german = {catalogue("de")[f"commands.me.notify.{o}.name"] for o in ("quiet_from", "zone")}
    assert "</me notify:66>" in said
    assert all(f"{name}:" in said for name in german), said


# ------------------------------------------------------------------ counts of one


def _filled(template: str | dict[str, str], count: int) -> dict[str, object]:
    return {name: "x" for name in fields_of(template)} | {"count": count}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_plural_text_renders_for_one_and_for_more(language: str) -> None:
    texts = texts_for(language)
    for key, template in catalogue(language).items():
        if not isinstance(template, dict):
            continue
        one, two = texts(key, **_filled(template, 1)), texts(key, **_filled(template, 2))
        assert one == template["one"].format_map(_filled(template, 1)), (language, key)
        assert two == template["other"].format_map(_filled(template, 2)), (language, key)
    # French counts nothing in the singular ("0 partie"), the other languages in the plural
    form = "one" if language == "fr" else "other"
    games = catalogue(language)["bot.stats.games"]
    assert isinstance(games, dict)
    assert texts("bot.stats.games", count=0) == games[form].format(count=0)


@pytest.mark.parametrize("language", LANGUAGES)
def test_server_limits_of_one_are_said_in_the_singular(language: str) -> None:
    settings = apply(
        ServerSettings(),
        Change(most_open=1, lobby_hours=1, games_per_channel=1, reminder=1, absent=1),
        guild_id=GUILD,
    )
    said = settings_text(settings, texts_for(language), server_language=language)
    for plural in (
        "1 open games",
        "1 partite",
        "1 parties",
        "1 offene Spiele",
        "1 hours",
        "1 ore",
        "1 heures",
        "1 Stunden",
        "1 minutes",
        "1 minuti",
        "1 Minuten",
        "1 games",
    ):
        assert plural not in said, (plural, said)
    hour = texts_for(language)("bot.time.hours", count=1)
    assert hour in said


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_open_game_too_many_is_singular(language: str) -> None:
    said = texts_for(language)("bot.error.too_many_open", count=1, most=1)
    for plural in ("1 open games", "1 partite", "1 parties", "1 offene Spiele"):
        assert plural not in said


@pytest.mark.parametrize("language", ["it", "fr", "de"])
def test_me_help_names_the_clock_options_as_the_readers_client_shows_them(language: str) -> None:
    texts = texts_for(language)
    said = texts(
        "bot.me.help",
        most=14,
        clock=Option("game new clock"),
        timeout=Option("game new timeout"),
    )
    assert texts("commands.game.new.clock.name") in said
    assert texts("commands.game.new.timeout.name") in said
    assert "clock:" not in said and "timeout:" not in said


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_option_has_one_name_in_every_command(language: str) -> None:
    texts = texts_for(language)
    for option in ("timeout", "absent", "clock", "reminder"):
        assert texts(f"commands.game.new.{option}.name") == texts(
            f"commands.server.settings.{option}.name"
        ), option


def test_italian_says_a_company_s_colour_in_lower_case_mid_sentence() -> None:
    it = texts_for("it")
    assert [it(f"high_voltage.companies.{c}") for c in ("red", "yellow")] == ["rossa", "gialla"]


# ------------------------------------------------------------------ settings in the reader's words


@pytest.mark.parametrize(
    ("language", "italian", "own"),
    [
        ("en", "Public game posts in Italian.", "Public game posts in French (the server's own"),
        ("it", "Messaggi pubblici di gioco in italiano.", "di gioco in francese (la lingua del"),
        ("fr", "Messages publics de jeu en italien.", "de jeu en français (la langue du serveur)."),
        ("de", "Öffentliche Spielbeiträge auf Italienisch.", "auf Französisch (die Sprache des"),
    ],
)
def test_the_servers_language_is_named_in_the_readers_words(
    language: str, italian: str, own: str
) -> None:
    texts = texts_for(language)
    chosen = apply(ServerSettings(), Change(language="it"), guild_id=GUILD)
    assert italian in settings_text(chosen, texts, server_language="fr").splitlines()
    said = settings_text(ServerSettings(), texts, server_language="fr")
    assert own in said
    assert "Français" not in said and "Italiano" not in said


@pytest.mark.parametrize(
    ("language", "where", "every"),
    [
        ("en", "both (channel and direct message)", "every 3 hours"),
        ("it", "entrambi (canale e messaggio diretto)", "ogni 3 ore"),
        ("fr", "les deux (salon et message privé)", "toutes les 3 heures"),
        ("de", "beides (Kanal und Direktnachricht)", "alle 3 Stunden"),
    ],
)
def test_my_reminders_choices_say_what_they_mean(language: str, where: str, every: str) -> None:
    """The menu's "both" says both of what, and how often reads as a frequency; the settings
    say "Where:" as a sentence, as for the other places."""
    texts = texts_for(language)
    assert texts("commands.choices.where.both") == where
    assert texts("commands.choices.every.180") == every
    shown = notify_settings_text(NotifySettings("both", 180), texts)
    assert texts("bot.notify.where", where=texts("bot.notify_where.both")) in shown
    assert texts("bot.notify.every", every=every) in shown


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_games_rules_open_with_its_name_and_in_short(language: str) -> None:
    """Each language heads the rules of every game alike: "**<game> en bref**", the game's
    name as the bot says it everywhere, no edition's name beside it."""
    headings = {}
    for game in (g for g in all_games() if g.name in ("high-voltage", "pylons", "sector6")):
        headings[game.title] = presenter_for(game.name, language).rules.splitlines()[0]
    endings = {heading.removeprefix(f"**{title} ") for title, heading in headings.items()}
    assert len(endings) == 1 and all(h.endswith("**") for h in headings.values()), headings
    if language == "fr":
        assert headings["High Voltage"] == "**High Voltage en bref**"
