"""AI seats are named the same way in every game ("AI 1 (easy)"), stored in English, and
said in the reader's language wherever the bot names them: posts, the lobby, refusals."""

from __future__ import annotations

import random

import pytest

from data.texts import ENGLISH, texts_for
from engine.ai import levels
from engine.errors import IllegalActionError, Phrase, name_seats
from games.pylons.rules.refusals import seat
from hvbot.messages.game_posts import lobby_text
from hvbot.messages.wording import explain, mention, names_of, picture_names, shown
from hvbot.services import BotError, GameService
from hvbot.services.seat_names import ai_name, named, said
from hvbot.store import GameStore, SeatRow

CHANNEL, GUILD = 700, 1
ADA = 101
GAMES = ("High Voltage", "Pylons", "Sector 6")
ENGINE_NAMES = ("high-voltage", "pylons", "sector6")


@pytest.fixture
async def service(database_url):
    repo = await GameStore.open(database_url)
    yield GameService(repo, seed_source=random.Random(7), ai_budget_s=0.2)
    await repo.close()


@pytest.mark.parametrize("game", ENGINE_NAMES)
def test_every_game_offers_easy_normal_and_hard(game: str) -> None:
    assert {"easy", "normal", "hard"} <= set(levels(game))


async def test_add_ai_names_the_seat_the_same_way_in_every_game(service: GameService) -> None:
    for title in GAMES:
        await service.lobby.new_lobby(
            channel_id=CHANNEL,
            guild_id=GUILD,
            user_id=ADA,
            name="Ada",
            game_name=title,
            language="it",
        )
        game = (await service.lobby.add_ai(channel_id=CHANNEL, user_id=ADA, level="easy")).game
        seat = game.seats[1]
        # Stored in English whatever the game's language...
        assert (seat.ai_level, seat.display_name) == ("easy", "AI 1 (easy)"), title
        # ...and said in it: the Italian game's lobby post says the Italian name.
        assert "IA 1 (facile)" in lobby_text(game, service.clock()), title
        assert names_of(game)[1] == "IA 1 (facile)"
        assert names_of(game, texts_for("de"))[1] == "KI 1 (leicht)"
        assert picture_names(game, texts_for("fr"))[1] == "IA 1 (facile)"
        assert mention(game, 1, texts_for("en")) == "**AI 1 (easy)**"
        await service.abandon.abandon(channel_id=CHANNEL, user_id=ADA, can_manage=False)


@pytest.mark.parametrize(
    ("language", "name"),
    [
        ("en", "AI 2 (normal)"),
        ("it", "IA 2 (normale)"),
        ("fr", "IA 2 (normal)"),
        ("de", "KI 2 (normal)"),
    ],
)
def test_an_ai_seat_is_said_in_the_readers_language(language: str, name: str) -> None:
    seat = SeatRow(1, None, "normal", ai_name(2, "normal"))
    assert said(seat, texts_for(language)) == name


def test_names_stored_in_another_language_are_said_again() -> None:
    """Games stored before names were kept in English hold their server's words."""
    old = SeatRow(2, None, "hard", "IA 3 (difficile)")
    assert said(old, texts_for("en")) == "AI 3 (hard)"
    assert said(old, texts_for("de")) == "KI 3 (schwer)"
    resigned = SeatRow(1, None, "easy", "Ada_b (resigned, AI plays)", resigned_user_id=5)
    assert said(resigned, texts_for("it")) == "Ada_b (ritirato, gioca l'IA)"
    escaped = said(resigned, texts_for("de"), lambda name: name.replace("_", "\\_"))
    assert escaped == "Ada\\_b (aufgegeben, KI spielt)"


def test_a_persons_name_is_never_changed() -> None:
    person = SeatRow(0, ADA, None, "AI 1 (easy)", language="it")
    assert said(person, texts_for("it")) == "AI 1 (easy)"
    unknown = SeatRow(1, None, "easy", "Robo")
    assert said(unknown, texts_for("it")) == "Robo"


async def test_a_refusal_names_the_ai_to_move_in_the_askers_language(
    service: GameService,
) -> None:
    await service.lobby.new_lobby(
        channel_id=CHANNEL, guild_id=GUILD, user_id=ADA, name="Ada", game_name="High Voltage"
    )
    await service.lobby.add_ai(channel_id=CHANNEL, user_id=ADA, level="normal")
    change = await service.lobby.start(channel_id=CHANNEL, user_id=ADA, can_manage=False)
    game, state = change.game, change.state
    ada = game.seat_of(ADA)
    if state.current_seat() == ada:
        cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
        await service.play.act(channel_id=CHANNEL, user_id=ADA, action=f"draw {cell} here r0")
    cell = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "up")
    with pytest.raises(BotError) as refused:
        await service.play.act(channel_id=CHANNEL, user_id=ADA, action=f"rotate {cell} r90")
    assert refused.value.key == "bot.error.not_your_turn"
    assert "AI 1 (normal)" in explain(texts_for("en"), refused.value)
    assert "IA 1 (normale)" in explain(texts_for("it"), refused.value)
    assert "KI 1 (normal)" in explain(texts_for("de"), refused.value)
    assert "AI 1 (normal)" not in explain(texts_for("it"), refused.value)


EVIL = "[Claim your prize](https://evil.example) <@123456789012345678>"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_an_engine_refusal_escapes_the_names_people_chose(language: str) -> None:
    """A refusal naming seats (the engine says "player 1", the bot a name, as `Play` does)
    shows every name a person chose escaped, also inside a name the bot made and inside a
    part of the refusal with its own words; the bot's own name is still said in the reader's
    language."""
    texts = texts_for(language)
    resigned = SeatRow(0, None, "easy", ENGLISH("bot.seat.resigned", player=EVIL))
    names = [named(resigned), named(SeatRow(1, ADA, None, EVIL))]
    # A real refusal's fields (player 1 has kept the board; a pylon suggested), one of them a
    # part with its own words naming a seat too.
    example = Phrase("place player 2", "engine.pylons.example", cell=seat(1))
    engine = IllegalActionError(
        "kept", key="engine.pylons.board_kept", example=example, player=seat(0)
    )
    fields = {k: name_seats(v, names) for k, v in engine.fields.items()}
    words = explain(texts, BotError(str(engine), key=engine.key, **fields))
    assert words == texts(
        "engine.pylons.board_kept",
        player=texts("bot.seat.resigned", player=shown(EVIL)),
        example=texts("engine.pylons.example", cell=shown(EVIL)),
    )
    assert "https://" not in words and "<@123456789012345678>" not in words
