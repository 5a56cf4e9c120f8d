"""The sandbox in a real browser, as the server's owner and in another language.

The owner, who is one of the page's people, changes a setting with /server settings, makes
Bruno a moderator in the page's roles dialog, and Bruno, in his own browser, ends the owner's
game with /game end: settings and moderation can be tried on the page as on a real server.

Ada plays in Italian: the page's own words are Italian, and every command mention the bot
writes is drawn with the command's Italian name, as Discord's client draws it, and opens that
command when clicked; a private answer she dismisses does not come back when she reloads.
"""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import Person, Pick, button, missing_browser, open_game_channel, people, select
from sandbox_process import SandboxProcess, running_sandbox
from selenium.webdriver.common.keys import Keys

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.processes,
    pytest.mark.skipif(missing_browser() is not None, reason=str(missing_browser())),
]

# Whether the page's own emoji font drew `arguments[0]`: the faces loaded for it.
EMOJI_FONT_LOADED = """
const done = arguments[arguments.length - 1];
document.fonts.load('16px "Sandbox Emoji"', arguments[0]).then((faces) => done(faces.length));
"""
MENTIONS = """
const node = document.querySelector(`.message[data-message-id="${arguments[0]}"]`);
return Array.from(node.querySelectorAll('.content .command-mention[data-command]'))
  .map((m) => [m.dataset.command, m.textContent]);
"""


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[SandboxProcess]:
    with running_sandbox(tmp_path, "--port", "0") as running:
        yield running


def view_of(sandbox: SandboxProcess, name: str) -> dict[str, Any]:
    query = urllib.parse.urlencode({"person": name})
    with urllib.request.urlopen(f"{sandbox.url}sandbox/api/view?{query}", timeout=10) as answer:
        return dict(json.load(answer))


def label_of(commands: list[dict[str, Any]], path: str) -> str:
    """A command's name in the reader's language, word by word from their command tree."""
    words, nodes = [], commands
    for word in path.split():
        node = next(n for n in nodes if n["name"] == word)
        words.append(node["label"])
        nodes = node["options"]
    return " ".join(words)


def start_pylons_against_an_ai(person: Person) -> str:
    """Open, fill with an AI and start a Pylons game; go where it is played; the lobby's id."""
    person.command("game new", game=Pick("pylons"))
    lobby = person.wait_message(
        lambda m: any(c.endswith(":start") for c in m.custom_ids), "the lobby with buttons"
    )
    person.command("game addai", level=Pick("easy"))
    seated = person.wait_message(lambda m: m.id == lobby.id and "AI" in m.text, "the AI seat")
    person.press(button(seated, ":start"), lobby.id)
    open_game_channel(person)
    return lobby.id


def test_the_owner_changes_a_setting_and_a_moderator_they_made_ends_a_game(
    sandbox: SandboxProcess,
) -> None:
    with people(sandbox.url, "Server Owner", "Bruno") as (owner, bruno):
        for person in (owner, bruno):
            person.open()
            person.channel("games")
        assert select(owner.shown("#person-select")).first_selected_option.text == "Server Owner"
        bruno.type_in_composer("/ser")
        assert not [c for c in bruno.menu_commands() if c.startswith("server")]
        bruno.type_in_composer(Keys.ESCAPE)

        # The owner changes a setting: reminders 30 minutes before.
        owner.command("server settings", reminder="30")
        saved = owner.wait_message(lambda m: "Saved." in m.text, "the settings are saved")
        assert saved.visibility == "ephemeral" and "30" in saved.text, saved

        # The owner makes Bruno a moderator in the roles dialog; Bruno's page sees it.
        owner.shown("#roles-button").click()
        owner.shown('#roles-table input[aria-label="Bruno: Moderator"]').click()
        box = '#roles-table input[aria-label="Bruno: Moderator"]'
        checked = f"return document.querySelector('{box}').checked"
        bruno.wait(lambda: bruno.driver.execute_script(checked), "Bruno holds Moderator")
        assert bruno.find("#roles-read-only").get_attribute("hidden") is None
        owner.shown("#roles-dialog form button").click()

        # The owner plays Pylons against an AI; Bruno, a moderator now, ends it.
        start_pylons_against_an_ai(owner)
        open_game_channel(bruno)
        bruno.command("game end")
        ended = bruno.wait_message(lambda m: "ended this game" in m.text, "the moderator's end")
        assert ended.visibility == "public" and "Bruno" in ended.text, ended
        owner.wait_message(lambda m: m.id == ended.id, "the end reaches the owner")
        assert [c for c, _ in owner.driver.execute_script(MENTIONS, ended.id)] == ["game new"]
        # Its 🛡 is drawn with the page's own emoji font, not left to the system's.
        assert owner.driver.execute_async_script(EMOJI_FONT_LOADED, "🛡️") >= 1


def test_a_game_in_italian_shows_the_pages_words_and_mentions_in_italian(
    sandbox: SandboxProcess,
) -> None:
    with people(sandbox.url, "Ada") as (ada,):
        ada.open()
        ada.channel("games")
        select(ada.shown("#locale-select")).select_by_value("it")
        ada.wait(
            lambda: ada.find(".channel-welcome h3").text == "Benvenuto in #games!",
            "the page's words in Italian",
        )
        assert ada.find("#composer").get_attribute("placeholder") == "Invia un messaggio a #games"
        lobby = start_pylons_against_an_ai(ada)
        commands = view_of(sandbox, "Ada")["commands"]
        ada.channel("games")
        line = ada.shown(f'.message[data-message-id="{lobby}"] .interaction-line').text
        # The avatar's initial, then the words around the command, each on its own line.
        assert line.split("\n")[1:] == ["Ada", "ha usato", f"/{label_of(commands, 'game new')}"]
        open_game_channel(ada)

        ada.command("help")
        helped = ada.wait_message(
            lambda m: m.visibility == "ephemeral" and "/" in m.text, "the help, in Italian"
        )
        mentions = ada.driver.execute_script(MENTIONS, helped.id)
        assert mentions, helped
        for command, shown in mentions:
            assert shown == f"/{label_of(commands, command)}", (command, shown)
        assert any(shown != f"/{command}" for command, shown in mentions), mentions
        note = ada.find(f'.message[data-message-id="{helped.id}"] .ephemeral-note').text
        assert " ".join(note.split()) == "Solo tu puoi vedere questo messaggio · Ignora messaggio"

        # A mention opens its command in the message box, as Discord fills it in.
        command = mentions[0][0]
        ada.find(f'.message[data-message-id="{helped.id}"] .content .command-mention').click()
        form = ada.shown("#command-form")
        assert form.get_attribute("data-command").startswith(command)
        ada.shown("#cancel-command").click()

        # Dismissed, the help does not come back with a reload.
        ada.find(f'.message[data-message-id="{helped.id}"] button[data-dismiss]').click()
        ada.wait(lambda: all(m.id != helped.id for m in ada.messages()), "the help is gone")
        ada.driver.refresh()
        ada.wait(lambda: ada.find('body[data-connected="true"]'), "the page reconnects")
        ada.wait(lambda: ada.messages(), "the channel is drawn again")
        assert all(m.id != helped.id for m in ada.messages())
