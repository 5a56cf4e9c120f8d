"""Commands people get wrong, autocomplete, and the commands that only look: through Discord,
against the real bot and database."""

from __future__ import annotations

from typing import Any

import pytest
from e2e_harness import (
    BOARD,
    BotHarness,
    Table,
    board_posts,
    confirmed,
    heading,
    open_three_seat_game,
)

from data.texts import catalogue
from games import plugins
from hvbot.messages import translator
from hvbot.messages.translator import Translator
from hvbot.runtime.client import EXTENSIONS
from sandbox.emulator import DiscordEmulator, Record, User, Visibility

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


async def only_private_answer(
    emu: DiscordEmulator, hv: BotHarness, user: User, command: str, **options: Any
) -> Record:
    """Run a command that must be refused: one ephemeral answer to its author, nothing public,
    and the stored game unchanged."""
    game = await hv.game()
    actions = await hv.actions(game)
    reply = await emu.slash(user, command, **options)
    assert [r.kind for r in reply] == ["response"], emu.describe(reply)
    assert reply[0].visibility == Visibility.ephemeral_to(user)
    assert not reply.public and not reply.dms
    after = await hv.game()
    assert after.version == game.version, "a refused command changed the game"
    assert await hv.actions(after) == actions
    return reply[0]


async def test_bad_commands_are_answered_privately_and_change_nothing(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    cy = emu.add_user("Cy")
    await emu.slash(ada, "game new", game="high-voltage")
    await emu.slash(bo, "game join")
    refusal = await only_private_answer(emu, hv, bo, "game join")
    assert "already" in refusal.text
    refusal = await only_private_answer(emu, hv, bo, "game start")
    assert "creator" in refusal.text
    await emu.slash(ada, "game addai", level="normal")
    await emu.slash(ada, "game start")
    table = Table(emu, hv, [ada, bo])
    game, state = await table.wait_for_turn()
    seat = state.current_seat()
    assert seat is not None
    mover = emu.users[game.seats[seat].user_id or 0]
    other = bo if mover == ada else ada
    view = state.view(None)
    down = next(c["cell"] for c in view["cells"] if c["state"] == "down")
    up = next(c["cell"] for c in view["cells"] if c["state"] == "up")

    cases: list[tuple[User, str, dict[str, Any], str]] = [
        (other, "hv draw", {"cell": down}, "not your turn"),
        (mover, "hv rotate", {"cell": down, "rotation": 90}, "face down"),
        (mover, "hv draw", {"cell": "Z9"}, "not a cell"),
        (mover, "hv draw", {"cell": up}, "face up already"),
        (mover, "hv draw", {"cell": down, "place": "here"}, "both place and rotation"),
        (cy, "hv draw", {"cell": down}, "not playing"),
        (cy, "game mysecret", {}, "not playing"),
        (bo, "game join", {}, "started"),
    ]
    for user, command, options, expected in cases:
        refusal = await only_private_answer(emu, hv, user, command, **options)
        assert expected in refusal.text, f"/{command} {options}: {refusal.text!r}"


async def test_draw_autocomplete_offers_only_face_down_cells(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo, _, table = await open_three_seat_game(emu, hv)
    game, state = await table.wait_for_turn()
    view = state.view(None)
    down = [c["cell"] for c in view["cells"] if c["state"] == "down"]
    assert len(down) > 25, "more face-down cells than Discord shows choices"

    everything = await emu.autocomplete(ada, "hv draw", "cell", "")
    assert [c["value"] for c in everything] == down[:25]
    for typed in ("c", "D", "b7"):
        choices = await emu.autocomplete(bo, "hv draw", "cell", typed)
        expected = [cell for cell in down if cell.startswith(typed.upper())]
        assert [c["value"] for c in choices] == expected
        assert all(c["name"] == c["value"] for c in choices)
    spectator = emu.add_user("Cy")
    assert [c["value"] for c in await emu.autocomplete(spectator, "hv draw", "cell", "A")] == [
        cell for cell in down if cell.startswith("A")
    ]
    rotatable = await emu.autocomplete(ada, "hv rotate", "cell", "")
    assert rotatable and not {c["value"] for c in rotatable} & set(down)
    # The rotation offered for a card: only the orientations the rules take for it (not
    # its own, nor one showing the same picture), each of which is then legal.
    for choice in rotatable:
        cell = choice["value"]
        legal = sorted(state.targets(state.current_seat(), "rotate.rotation", {"cell": cell}))
        turns = await emu.autocomplete(ada, "hv rotate", "rotation", "", cell=cell)
        assert [t["value"] for t in turns] == legal and 0 < len(legal) < 4, (cell, turns)
        assert [t["name"] for t in turns] == [f"{r}°" for r in legal]
    before = await emu.autocomplete(ada, "hv rotate", "rotation", "")
    assert [t["value"] for t in before] == [0, 90, 180, 270], "no card chosen yet: the four"

    # Once a person has drawn, only the card they hold can be 'drawn' (shown again).
    seat = state.current_seat()
    assert seat is not None
    mover = emu.users[game.seats[seat].user_id or 0]
    await table.play(game, state, f"draw {down[3]}")
    assert [c["value"] for c in await emu.autocomplete(mover, "hv draw", "cell", "")] == [down[3]]
    assert not any(r.is_public for r in emu.records if r.kind == "autocomplete")

    # Drawn again without a place, the card is shown again to its holder alone; with one,
    # it is laid.
    held, done = await hv.game(), len(await hv.actions())
    reply = await emu.slash(mover, "hv draw", cell=down[3])
    (shown,) = reply.messages
    assert shown.visibility == Visibility.ephemeral_to(mover) and shown.has_attachment("card.png")
    assert (await hv.game()).version == held.version
    await emu.slash(mover, "hv draw", cell=down[3], place="here", rotation=90)
    assert (await hv.actions())[done] == (seat, "place here r90")


async def test_looking_commands(emulator: DiscordEmulator, hv: BotHarness) -> None:
    emu = emulator
    ada, _, _, table = await open_three_seat_game(emu, hv)
    await table.wait_for_turn()
    spectator = emu.add_user("Cy")

    for command in ("game status", "game rules", "game log"):
        reply = await emu.slash(spectator, command)
        (answer,) = reply.messages
        assert answer.kind == "response" and answer.visibility == Visibility.ephemeral_to(spectator)
        assert answer.text

    # Someone not seated at the table sees the board privately: the channel stays the
    # table's, however often a spectator asks.
    before = len(board_posts(emu))
    reply = await emu.slash(spectator, "game board")
    assert len(board_posts(emu)) == before and not reply.public, emu.describe(reply)
    (mine,) = [r for r in reply.messages if r.has_attachment(BOARD)]
    assert mine.visibility == Visibility.ephemeral_to(spectator)
    assert not mine.components, "the table's buttons are for the table"

    # A player's board is posted for the table again.
    reply = await emu.slash(ada, "game board")
    assert len(board_posts(emu)) == before + 1
    (post,) = [r for r in reply.public if r.has_attachment(BOARD)]
    assert post.kind == "followup", "the deferred 'thinking' reply becomes the board"

    reply = await emu.slash(ada, "game mysecret")
    (secret,) = reply.messages
    assert secret.visibility == Visibility.ephemeral_to(ada)
    assert heading(secret).startswith("Your company: ")


async def test_a_bot_started_again_sets_up_the_same_command_modules(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    """The command modules are imported once a process, as any module, and each start adds
    their cogs: a bot started again has cogs of the very classes the first had (not of the
    modules executed anew), and answers its commands."""
    assert hv.bot is not None
    first = {type(cog) for cog in hv.bot.cogs.values()}
    assert len(first) == len(EXTENSIONS) + len(plugins())
    bot = await hv.restart()
    assert {type(cog) for cog in bot.cogs.values()} == first
    reply = await emulator.slash(emulator.add_user("Ada"), "game new", game="pylons")
    assert reply.public


def _as_synced(commands: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The commands as the bot gave them, without what Discord numbers anew at each sync."""
    return {
        name: {k: v for k, v in command.items() if k != "version"}
        for name, command in commands.items()
    }


def translations_asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the bot's translator is asked for from now on, in order."""
    asked: list[str] = []
    translate = Translator.translate

    async def counted(self: Translator, string: Any, locale: Any, context: Any) -> str | None:
        asked.append(string.message)
        return await translate(self, string, locale, context)

    monkeypatch.setattr(Translator, "translate", counted)
    return asked


async def test_a_bot_started_again_gives_discord_the_same_translations_without_translating(
    emulator: DiscordEmulator, hv: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Translating the commands into thirty-odd locales is most of a sync's work: a process
    that starts its bot again sends the same translated commands, translated once; and
    translates anew when its texts are new ones."""
    assert translator._sync_is_known(), (
        "discord.py's sync is not the one Tree.sync repeats the end of: compare them, then "
        "update _KNOWN_SYNC"
    )
    first = _as_synced(emulator.commands[emulator.guild_id])
    assert first["game"]["name_localizations"]["fr"] == "partie", first["game"]
    asked = translations_asked(monkeypatch)
    await hv.restart()
    assert _as_synced(emulator.commands[emulator.guild_id]) == first
    assert asked == [], "the same commands and texts were translated again"

    catalogue.cache_clear()  # the texts read again: new catalogues, maybe with new words
    await hv.restart()
    assert _as_synced(emulator.commands[emulator.guild_id]) == first
    assert asked, "texts the translations were not made from were not translated"


async def test_a_discord_py_whose_sync_is_not_the_one_known_syncs_as_it_does_itself(
    emulator: DiscordEmulator, hv: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kept translations go through lines taken from discord.py's own sync: with another
    discord.py, its sync is left to do it all, translating at every start, the same commands."""
    first = _as_synced(emulator.commands[emulator.guild_id])
    monkeypatch.setattr(translator, "_sync_is_known", lambda: False)
    asked = translations_asked(monkeypatch)
    await hv.restart()
    assert _as_synced(emulator.commands[emulator.guild_id]) == first
    assert asked, "discord.py's own sync translates at every start"


@pytest.mark.parametrize("scoped", [True, False], ids=["guild-commands", "global-commands"])
async def test_commands_are_registered_once_per_start(
    emulator: DiscordEmulator, tmp_path: Any, scoped: bool
) -> None:
    harness = BotHarness(emulator, tmp_path / "games.sqlite3", guild_scoped=scoped)
    await harness.start()
    try:
        scope = emulator.guild_id if scoped else None
        registered = emulator.commands[scope]
        # The bot's own five groups, /help, and one group per registered game: these three,
        # and any other.
        own = {"game", "stats", "me", "server", "tournament", "help"}
        assert own | {"hv", "pylons", "s6"} <= set(registered)
        assert len(registered) == len(own) + len(plugins())
        # /tournament is for servers only.
        tournament = registered["tournament"]
        assert tournament.get("contexts") == [0] or tournament.get("dm_permission") is False
        # /server is shown to those who may manage the server, and only in servers.
        server = registered["server"]
        assert int(server["default_member_permissions"]) == 1 << 5  # Manage Server
        assert server.get("contexts") == [0] or server.get("dm_permission") is False
        game_subcommands = {o["name"] for o in registered["game"]["options"]}
        assert {"new", "join", "leave", "addai", "start", "board", "status"} <= game_subcommands
        assert {"mysecret", "rules", "log", "resign", "abandon", "replay"} <= game_subcommands
        new = next(o for o in registered["game"]["options"] if o["name"] == "new")
        thread = next(o for o in new["options"] if o["name"] == "thread")
        assert thread["type"] == 5 and not thread.get("required"), "a boolean, on by default"
        hv_subcommands = {o["name"] for o in registered["hv"]["options"]}
        assert hv_subcommands == {"draw", "rotate", "move", "swap"}
        s6_subcommands = {o["name"] for o in registered["s6"]["options"]}
        assert s6_subcommands == {
            "draw",
            "place",
            "entry",
            "move",
            "collect",
            "rotate",
            "done",
            "pass",
        }
        stats_subcommands = {o["name"]: o for o in registered["stats"]["options"]}
        assert set(stats_subcommands) == {"me", "server"}
        for subcommand in stats_subcommands.values():
            game_option, season_option = subcommand["options"]
            assert game_option["name"] == "game" and not game_option.get("required")
            assert {c["value"] for c in game_option["choices"]} == {g.name for g in plugins()}
            assert season_option["name"] == "season" and not season_option.get("required")
            assert season_option["autocomplete"], "the server's seasons with games, offered"
        ada = emulator.add_user("Ada")
        reply = await emulator.slash(ada, "game new", game="high-voltage")
        assert reply.public
    finally:
        await harness.close()
    assert not harness.unexpected_errors(), harness.errors.summary()


async def test_resign_hands_the_seat_to_an_ai_and_abandon_needs_the_right(
    emulator: DiscordEmulator, hv: BotHarness
) -> None:
    emu = emulator
    ada, bo, _, table = await open_three_seat_game(emu, hv)
    await table.wait_for_turn()
    reply = await confirmed(emu, bo, "game resign")
    (notice,) = reply.where(kind="response")
    assert notice.is_public and "an AI plays their seat" in notice.text
    game = await hv.game()
    seat = next(s for s in game.seats if s.display_name.startswith("Bo"))
    assert seat.is_ai and game.status == "active"

    # The AI now playing Bo's seat may post its move meanwhile: look at the answer only.
    refusal = (await confirmed(emu, emu.add_user("Cy"), "game abandon")).where(kind="response")
    assert [r.visibility.kind for r in refusal] == ["ephemeral"]
    assert "Manage Channels" in refusal[0].text

    moderator = emu.add_user("Mod", manage_channels=True)
    reply = await confirmed(emu, moderator, "game abandon")
    assert any(r.is_public and "abandoned" in r.text for r in reply)
    assert (await hv.game()).status == "abandoned"
    reply = await emu.slash(ada, "game new", game="high-voltage")
    assert reply.where(kind="response", visibility="public"), "the channel is free again"
