"""The bot in several languages at once, through Discord: a French server where one player's
client is Italian and the other's German. Public posts follow the server, replies and refusals
their reader, the secret at the start the seat's person; a restart keeps all of it."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_harness import BotHarness, Table, lobby_button

from data.texts import texts_for
from hvbot.messages.presenters import presenter_for
from sandbox.emulator import DiscordEmulator, Record, User, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord

FR, IT, DE = texts_for("fr"), texts_for("it"), texts_for("de")
LANGUAGES = ("it", "fr", "de")


def localised(node: dict[str, Any], field: str) -> set[str]:
    return set(node.get(field) or {})


async def test_synced_commands_carry_italian_french_and_german_names(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    synced = emulator.commands[emulator.guild_id]
    assert {"game", "hv", "pylons", "s6", "stats"} <= set(synced)  # and any other game's
    missing = []

    def check(node: dict[str, Any], path: str) -> None:
        for field in ("name_localizations", "description_localizations"):
            if not set(LANGUAGES) <= localised(node, field):
                missing.append(f"{path} {field}")
        for option in node.get("options") or []:
            check(option, f"{path} {option['name']}")
            for choice in option.get("choices") or []:
                translatable = option["name"] not in (
                    "game",
                    "rotation",
                    "rotation_a",
                    "rotation_b",
                )
                if (translatable or path.startswith("/s6")) and not set(LANGUAGES) <= localised(
                    choice, "name_localizations"
                ):
                    missing.append(f"{path} {option['name']}={choice['value']}")

    for name, command in synced.items():
        check(command, f"/{name}")
    assert missing == []
    game = synced["game"]
    assert game["name_localizations"] == {"it": "partita", "fr": "partie", "de": "partie"}
    new = next(o for o in game["options"] if o["name"] == "new")
    assert new["name_localizations"]["de"] == "neu"


def only_to(reply: list[Record], user: User) -> Record:
    """The one private answer to `user` (the lobby message may be edited besides)."""
    private = [r for r in reply if r.visibility == Visibility.ephemeral_to(user)]
    posted = [r for r in reply if r.is_public and r.kind != "message_edit"]
    assert private and not posted, reply
    return private[-1]


async def test_each_person_is_answered_in_their_language_and_the_channel_in_the_server_s(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    emu.set_guild_locale("fr")
    ada = emu.add_user("Ada", locale="it")
    bo = emu.add_user("Bo", locale="de")

    reply = await emu.slash(ada, "game new", game="high-voltage")
    lobby = reply.where(kind="response", visibility="public")[0]
    assert "nouvelle partie" in lobby.text and "En attente de joueurs" in lobby.text
    assert FR("bot.button.join") in [b.label for b in lobby.components]

    joined = only_to(await emu.slash(bo, "game join"), bo)
    assert joined.text == DE("bot.lobby.joined")
    again = only_to(await emu.slash(bo, "game join"), bo)
    assert again.text == DE("bot.error.already_seated")
    early = only_to(await emu.slash(bo, "game start"), bo)
    assert early.text == DE("bot.error.only_creator_starts")

    await emu.click(ada, lobby_button(lobby, "start"), message=lobby)
    table = Table(emu, hv, [ada, bo])
    game, state = await table.wait_for_turn()
    assert game.language == "fr"
    assert [s.language for s in game.seats] == ["it", "de"]

    begins = [r for r in emu.messages(visibility="public") if "commence" in r.text]
    assert begins and FR("bot.board.next", player="", note="").split(":")[0] in begins[0].text

    # The secret goes to each person in their own language.
    for person, language in ((ada, "it"), (bo, "de")):
        seat = game.seat_of(person.id)
        assert seat is not None
        title, text, _ = presenter_for(game.game_name, language).secret(
            game.channel_id, state.view(seat), seat
        )
        dm = emu.messages(visibility=Visibility.dm_to(person))
        assert dm and dm[-1].text == f"### {title}\n{text}"

    # A refusal of a move, in the refused person's language.
    seat = state.current_seat()
    assert seat is not None
    mover = ada if game.seats[seat].user_id == ada.id else bo
    other = bo if mover is ada else ada
    down = next(c["cell"] for c in state.view(None)["cells"] if c["state"] == "down")
    refusal = only_to(await emu.slash(other, "hv draw", cell=down), other)
    texts = IT if other is ada else DE
    assert refusal.text == texts("bot.error.not_your_turn", player=mover.name)

    # The board shown again is public, so French.
    board = await emu.slash(other, "game board")
    assert any("Suivant" in r.text for r in board if r.is_public)

    # After a restart the stored languages still decide.
    await hv.restart()
    refusal = only_to(await emu.slash(other, "hv draw", cell=down), other)
    assert refusal.text == texts("bot.error.not_your_turn", player=mover.name)
    board = await emu.slash(mover, "game board")
    assert any("Suivant" in r.text for r in board if r.is_public)
    game = await hv.game()
    assert game.language == "fr" and [s.language for s in game.seats] == ["it", "de"]


async def test_a_player_who_switches_language_is_remembered_when_they_move(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada = emu.add_user("Ada", locale="it")
    bo = emu.add_user("Bo", locale="de")
    await emu.slash(ada, "game new", game="high-voltage")
    await emu.slash(bo, "game join")
    await emu.slash(ada, "game start")
    table = Table(emu, hv, [ada, bo])
    game, state = await table.wait_for_turn()
    assert game.language == "en"  # the emulated server prefers English unless told otherwise
    seat = state.current_seat()
    assert seat is not None
    mover = ada if game.seats[seat].user_id == ada.id else bo
    emu.set_locale(mover, "fr")
    await table.play(game, state)
    after = await emu.wait_for(
        lambda: _seat_language(hv, seat), message="the new language stored for the seat"
    )
    assert after == "fr"


async def _seat_language(hv: BotHarness, seat: int) -> str | None:
    game = await hv.game()
    language = game.seats[seat].language
    return language if language == "fr" else None


async def test_an_ai_seat_is_named_in_each_readers_language(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """A German server, an Italian player: the lobby post names the AI in German, Ada's own
    status in Italian, and neither says the English name."""
    emu = emulator
    emu.set_guild_locale("de")
    ada = emu.add_user("Ada", locale="it")
    await emu.slash(ada, "game new", game="pylons")
    await emu.slash(ada, "game addai", level="normal")
    lobby = await hv.game()
    assert [(s.ai_level, s.display_name) for s in lobby.seats[1:]] == [("normal", "AI 1 (normal)")]
    posts = [r for r in emu.messages(visibility="public") if "Ada" in r.text]
    assert posts and "KI 1 (normal)" in posts[-1].text, posts[-1].text
    await emu.slash(ada, "game start")
    status = only_to(await emu.slash(ada, "game status"), ada)
    assert "IA 1 (normale)" in status.text, status.text
    assert "AI 1" not in status.text and "KI 1" not in status.text
