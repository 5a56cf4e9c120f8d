"""A click on one of the bot's buttons reaches its handler from the custom id alone: the
clicked message is not rebuilt as a view on the way (discord.py would rebuild the whole card,
its container, text, gallery and buttons, to hang the clicked item in it), and a refusal or a
failure on the way is said or logged as before."""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest
from e2e_harness import BotHarness, lobby_button

from hvbot.handlers import buttons
from sandbox.emulator import DiscordEmulator
from sandbox.emulator.errors import InteractionFailed

pytestmark = pytest.mark.e2e  # the real bot against the emulated Discord


def views_rebuilt(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The views discord.py rebuilds from messages from now on, by kind."""
    rebuilt: list[str] = []

    def spy(kind: type[Any]) -> Any:
        original = kind.from_message.__func__  # type: ignore[attr-defined]  # a classmethod

        def from_message(cls: type[Any], *args: Any, **kwargs: Any) -> Any:
            rebuilt.append(cls.__name__)
            return original(cls, *args, **kwargs)

        return classmethod(from_message)

    for kind in (discord.ui.View, discord.ui.LayoutView):
        monkeypatch.setattr(kind, "from_message", spy(kind))
    return rebuilt


async def test_lobby_clicks_reach_their_handlers_without_the_card_rebuilt(
    emulator: DiscordEmulator, hv: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    emu = emulator
    ada, bo = emu.add_user("Ada"), emu.add_user("Bo")
    reply = await emu.slash(ada, "game new", game="high-voltage")
    lobby = reply.where(kind="response", visibility="public")[0]
    rebuilt = views_rebuilt(monkeypatch)
    await emu.click(bo, lobby_button(lobby, "join"), message=lobby)
    await emu.click(ada, lobby_button(lobby, "addai"), message=lobby)
    refused = await emu.click(bo, lobby_button(lobby, "start"), message=lobby)
    await emu.click(ada, lobby_button(lobby, "start"), message=lobby)
    assert rebuilt == [], f"the clicked messages were rebuilt as views: {rebuilt}"
    # Each click did what it does: Bo sat down, an AI too, Bo may not start, Ada did.
    said = " ".join(r.text for r in refused.where(visibility="ephemeral"))
    assert "creator" in said, said
    game = await hv.game()
    assert game.status == "active"
    assert [s.display_name for s in game.seats] == ["Ada", "Bo", "AI 1 (easy)"]


async def test_a_failing_click_is_logged_with_its_item(
    emulator: DiscordEmulator, hv: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A handler that fails unexpectedly is logged as discord.py logs it, naming the item."""
    emu = emulator
    ada = emu.add_user("Ada")
    reply = await emu.slash(ada, "game new", game="high-voltage")
    lobby = reply.where(kind="response", visibility="public")[0]

    async def broken(self: buttons.LobbyClick, interaction: discord.Interaction) -> None:
        raise RuntimeError("broken on purpose")

    monkeypatch.setattr(buttons.LobbyClick, "callback", broken)
    hv.allowed_errors.append("Ignoring exception in dynamic item callback")
    # Nobody will answer: Discord's window for it need not be three real seconds here.
    monkeypatch.setattr(emu, "interaction_window", 0.2)
    with pytest.raises(InteractionFailed):  # nobody answered it
        await emu.click(ada, lobby_button(lobby, "addai"), message=lobby)
    await emu.wait_for(
        lambda: any("dynamic item callback" in r.getMessage() for r in hv.errors.records),
        message="the failure logged",
    )
    logged = next(r for r in hv.errors.records if "dynamic item callback" in r.getMessage())
    assert logged.levelno == logging.ERROR and "LobbyClick" in logged.getMessage()
    assert logged.exc_info is not None and "broken on purpose" in str(logged.exc_info[1])


def test_a_discord_py_that_hands_a_click_otherwise_keeps_its_own_way(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The store's method is discord.py's own: if a release changes what it is handed, the
    bot's stand-in would fail every click, so it is left as discord.py made it."""

    class Store:
        async def schedule_dynamic_item_call(
            self, component_type: int, factory: Any, interaction: Any, custom_id: str
        ) -> None:
            """A release that no longer hands the match."""

    store = Store()
    own = store.schedule_dynamic_item_call
    with caplog.at_level(logging.WARNING, logger=buttons.__name__):
        assert not buttons.answer_clicks(store)  # type: ignore[arg-type]  # a stand-in store
    assert store.schedule_dynamic_item_call == own
    assert "rebuild their message" in caplog.text


def test_the_discord_py_installed_hands_a_click_as_the_bot_takes_it() -> None:
    """The installed discord.py's store takes the bot's stand-in (else every click would rebuild
    its message again, unnoticed but for the time it takes)."""
    store = discord.ui.view.ViewStore(None)  # type: ignore[arg-type]  # no state needed to look
    assert buttons.answer_clicks(store)
    assert store.schedule_dynamic_item_call is buttons.call_item
