"""User installs in the emulated Discord, spoken to by the real discord.py: commands that say
where they may be installed and used (`app_commands.allowed_installs` / `allowed_contexts`),
offered only through an installation that reaches the channel; interactions that say their
context and the installations behind them; and the limits of an app a person installed rather
than a server: its token lives 15 minutes, it may follow up 5 times, and it cannot post in a
group DM on its own. Each refusal is Discord's, so a bot that relies on more fails here first.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

import discord
import pytest
from conftest import running_emulator
from discord import app_commands, ui
from e2e_harness import ready_when_guilds_arrive

from sandbox.emulator import CommandNotShown, DiscordEmulator
from sandbox.emulator.interactions import TOKEN_LIFETIME

pytestmark = pytest.mark.e2e  # the emulated Discord that the end-to-end tests stand on

Handler = Callable[[discord.Interaction], Awaitable[None]]


class Pass(ui.LayoutView):
    """A small card with one button, as a game's answer in a group DM would carry."""

    def __init__(self, bot: InstallBot) -> None:
        super().__init__(timeout=None)
        button = ui.Button[Pass](label="Pass", custom_id="card:pass")

        async def pressed(interaction: discord.Interaction) -> None:
            bot.seen.append(interaction)
            await interaction.response.send_message("passed", ephemeral=True)

        button.callback = pressed  # type: ignore[method-assign] # discord.py lets a button take any callback
        self.add_item(ui.Container(ui.Section("Ada to move", accessory=button)))


class InstallBot(discord.Client):
    """A bot with three commands: /play for user installs only, /club for server installs
    only, /both for either; each allowed in every context. What a command does is `handler`,
    which a test sets; every interaction it got is in `seen`."""

    def __init__(self) -> None:
        # Ready once READY's guild has arrived, as the harness's bots are: discord.py would
        # wait `guild_ready_timeout` after it for more, at every test's start.
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        ready_when_guilds_arrive(self)
        self.tree = app_commands.CommandTree(self)
        self.seen: list[discord.Interaction] = []
        self.handler: Handler = self.answer_ok
        everywhere = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)

        @self.tree.command(name="play", description="Play with friends")
        @app_commands.allowed_installs(guilds=False, users=True)
        @everywhere
        async def play(interaction: discord.Interaction) -> None:
            await self.handle(interaction)

        @self.tree.command(name="club", description="Play on the server")
        @app_commands.allowed_installs(guilds=True, users=False)
        @everywhere
        async def club(interaction: discord.Interaction) -> None:
            await self.handle(interaction)

        @self.tree.command(name="both", description="Play anywhere")
        @app_commands.allowed_installs(guilds=True, users=True)
        @everywhere
        async def both(interaction: discord.Interaction) -> None:
            await self.handle(interaction)

    async def handle(self, interaction: discord.Interaction) -> None:
        self.seen.append(interaction)
        await self.handler(interaction)

    @staticmethod
    async def answer_ok(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok")

    async def setup_hook(self) -> None:
        await self.tree.sync()


@contextlib.asynccontextmanager
async def connected(emu: DiscordEmulator) -> AsyncIterator[InstallBot]:
    bot = InstallBot()
    await bot.login(emu.token)
    task = asyncio.create_task(bot.connect(reconnect=False))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 15)
        yield bot
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 10)


@pytest.fixture
async def emu() -> AsyncIterator[DiscordEmulator]:
    async with running_emulator() as emulator:
        yield emulator


@pytest.fixture
async def bot(emu: DiscordEmulator) -> AsyncIterator[InstallBot]:
    async with connected(emu) as client:
        yield client


def owners(interaction: discord.Interaction) -> dict[int, int]:
    """The interaction's authorizing_integration_owners, as discord.py read them."""
    return dict(interaction._integration_owners)


async def test_installs_and_contexts_are_kept_as_discord_py_registers_them(
    emu: DiscordEmulator, bot: InstallBot
) -> None:
    registered = emu.commands[None]
    assert registered["play"]["integration_types"] == [1]
    assert registered["club"]["integration_types"] == [0]
    assert sorted(registered["both"]["integration_types"]) == [0, 1]
    assert all(sorted(c["contexts"]) == [0, 1, 2] for c in registered.values())
    # Read back, they are what was registered.
    fetched = {c["name"]: c for c in await bot.http.get_global_commands(bot.application_id or 0)}
    assert fetched["play"]["integration_types"] == [1]
    assert sorted(fetched["play"]["contexts"]) == [0, 1, 2]


async def test_a_user_installed_command_runs_in_a_group_dm(
    emu: DiscordEmulator, bot: InstallBot
) -> None:
    ada, bruno = emu.add_user("Ada"), emu.add_user("Bruno")
    emu.install_for(ada)
    group = emu.add_group_dm(ada, bruno, name="Friday games")
    reply = await emu.slash(ada, "play", channel=group)
    (interaction,) = bot.seen
    assert interaction.context.private_channel and not interaction.context.guild
    assert owners(interaction) == {1: ada.id}
    assert interaction.is_user_integration() and not interaction.is_guild_integration()
    assert interaction.guild is None
    assert isinstance(interaction.channel, discord.GroupChannel)
    assert {u.id for u in interaction.channel.recipients} == {ada.id, bruno.id}
    (answer,) = reply
    assert (answer.kind, answer.channel_id, answer.content) == ("response", group.id, "ok")
    assert answer.is_public  # everyone in the group DM sees it


async def test_a_command_is_offered_only_through_an_installation_that_reaches_there(
    emu: DiscordEmulator, bot: InstallBot
) -> None:
    ada, bruno = emu.add_user("Ada"), emu.add_user("Bruno")
    group = emu.add_group_dm(ada, bruno)
    emu.install_for(ada)
    # Bruno did not install the app: nothing of it reaches him in the group DM.
    for command in ("play", "both", "club"):
        with pytest.raises(CommandNotShown):
            await emu.slash(bruno, command, channel=group)
    # The server's installation never reaches a group DM, even for Ada.
    with pytest.raises(CommandNotShown):
        await emu.slash(ada, "club", channel=group)
    await emu.slash(ada, "both", channel=group)
    assert owners(bot.seen[-1]) == {1: ada.id}

    # On the server: /play only for those who installed it, /club for everyone.
    with pytest.raises(CommandNotShown):
        await emu.slash(bruno, "play")
    await emu.slash(ada, "play")
    assert bot.seen[-1].context.guild and owners(bot.seen[-1]) == {1: ada.id}
    await emu.slash(ada, "both")
    assert owners(bot.seen[-1]) == {0: emu.guild_id, 1: ada.id}
    assert bot.seen[-1].is_guild_integration() and bot.seen[-1].is_user_integration()
    await emu.slash(bruno, "club")
    assert owners(bot.seen[-1]) == {0: emu.guild_id}

    # In the bot's DM the server's installation says "0" for its server.
    await emu.slash(bruno, "club", channel=emu.dm_channel(bruno.id))
    assert bot.seen[-1].context.dm_channel and owners(bot.seen[-1]) == {0: 0}
    # A person's own installation reaches the bot's DM too: there it is theirs alone.
    await emu.slash(ada, "play", channel=emu.dm_channel(ada.id))
    assert bot.seen[-1].context.dm_channel and owners(bot.seen[-1]) == {1: ada.id}
    await emu.slash(ada, "both", channel=emu.dm_channel(ada.id))
    assert owners(bot.seen[-1]) == {0: 0, 1: ada.id}
    emu.uninstall_for(ada)
    with pytest.raises(CommandNotShown):
        await emu.slash(ada, "play", channel=group)


async def test_a_button_in_a_group_dm_carries_the_installation_of_its_command(
    emu: DiscordEmulator, bot: InstallBot
) -> None:
    ada, bruno = emu.add_user("Ada"), emu.add_user("Bruno")
    emu.install_for(ada)
    group = emu.add_group_dm(ada, bruno)

    async def card(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=Pass(bot))

    bot.handler = card
    (posted,) = await emu.slash(ada, "play", channel=group)
    # Bruno never installed the app, but the card came through Ada's installation.
    reply = await emu.click(bruno, "card:pass", message=posted)
    pressed = bot.seen[-1]
    assert pressed.user.id == bruno.id and pressed.context.private_channel
    assert owners(pressed) == {1: ada.id}
    (answer,) = reply
    assert answer.visibility.kind == "ephemeral" and answer.visibility.user_id == bruno.id


async def test_a_user_installed_app_cannot_post_in_a_group_dm_on_its_own(
    emu: DiscordEmulator, bot: InstallBot
) -> None:
    ada, bruno = emu.add_user("Ada"), emu.add_user("Bruno")
    emu.install_for(ada)
    group = emu.add_group_dm(ada, bruno)
    refused: list[discord.HTTPException] = []

    async def post_alone(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok")
        assert interaction.channel is not None
        try:
            await interaction.channel.send("posted on my own")  # type: ignore[union-attr] # a group DM is messageable
        except discord.HTTPException as error:
            refused.append(error)

    bot.handler = post_alone
    await emu.slash(ada, "play", channel=group)
    (error,) = refused
    assert isinstance(error, discord.Forbidden)
    assert (error.status, error.code) == (403, 50001)
    with pytest.raises(discord.Forbidden):
        await bot.fetch_channel(group.id)
    assert [r.content for r in emu.records if r.channel_id == group.id] == ["ok"]
    emu.rejections.clear()  # refused on purpose


async def test_five_follow_ups_then_discord_refuses_a_user_installed_app(
    emu: DiscordEmulator, bot: InstallBot
) -> None:
    ada, bruno = emu.add_user("Ada"), emu.add_user("Bruno")
    emu.install_for(ada)
    group = emu.add_group_dm(ada, bruno)
    refused: list[discord.HTTPException] = []

    async def follow_up_six_times(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("move 0")
        for n in range(1, 7):
            try:
                await interaction.followup.send(f"move {n}")
            except discord.HTTPException as error:
                refused.append(error)

    bot.handler = follow_up_six_times
    reply = await emu.slash(ada, "play", channel=group)
    assert [r.content for r in reply] == [f"move {n}" for n in range(6)]
    (error,) = refused
    assert (error.status, error.code) == (400, 40094)
    emu.rejections.clear()  # refused on purpose

    # Where the server installed the app, the limit does not apply.
    refused.clear()
    reply = await emu.slash(bruno, "club")
    assert [r.content for r in reply] == [f"move {n}" for n in range(7)] and not refused


async def test_an_interactions_token_lives_fifteen_minutes(
    emu: DiscordEmulator, bot: InstallBot
) -> None:
    ada, bruno = emu.add_user("Ada"), emu.add_user("Bruno")
    emu.install_for(ada)
    group = emu.add_group_dm(ada, bruno)
    await emu.slash(ada, "play", channel=group)
    (interaction,) = bot.seen

    emu.clock.advance(TOKEN_LIFETIME - 2)
    late = await interaction.followup.send("still in time", wait=True)
    await interaction.edit_original_response(content="edited in time")
    emu.clock.advance(3)
    with pytest.raises(discord.HTTPException) as expired:
        await interaction.followup.send("too late")
    assert (expired.value.status, expired.value.code) == (401, 50027)
    with pytest.raises(discord.HTTPException) as expired:
        await late.edit(content="too late")
    assert (expired.value.status, expired.value.code) == (401, 50027)
    assert emu.message(late.id).content == "still in time"
    emu.rejections.clear()  # refused on purpose
    with pytest.raises(ValueError):
        emu.clock.advance(-1)


async def test_where_a_server_turned_external_apps_off_a_users_app_answers_privately(
    emu: DiscordEmulator, bot: InstallBot
) -> None:
    ada = emu.add_user("Ada")
    emu.install_for(ada)
    emu.allow_external_apps(False)
    (answer,) = await emu.slash(ada, "play")
    assert answer.visibility.kind == "ephemeral" and answer.visibility.user_id == ada.id
    # An app the server installed too answers as it asks, and so does any once allowed again.
    (answer,) = await emu.slash(ada, "both")
    assert answer.is_public
    emu.allow_external_apps(True)
    (answer,) = await emu.slash(ada, "play")
    assert answer.is_public
