"""The sandbox in a real browser: two people play High Voltage against an AI seat, each in their
own headless Chromium, on the page `python bot.py --sandbox` serves, as a newcomer would.

Ada opens a lobby with the command box, Bruno joins with the lobby's button, Ada seats an AI
and starts. Each reads their secret company in their DM. Then whoever's turn the deal makes it
plays: one card drawn with the command box (its cell picked from the bot's live autocomplete)
and placed with a button under the bot's private prompt, one drawn and placed with the command
box alone. The board picture must load in the page and decode as a PNG, and nothing Ada alone
may see (her company, her drawn card) may ever show on Bruno's page, in any channel or his DM.
Each new private message with a picture must come wholly into view once its picture has loaded,
and a list scrolled up to read must stay where it is when someone writes.

The `/` menu, in a sandbox of its own, must list every command the bot offers, each reachable
with the arrows, and filter as Discord's menu does while one types.
"""

from __future__ import annotations

import io
import json
import re
import signal
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import (
    BoardWatch,
    Person,
    Pick,
    Shown,
    button,
    missing_browser,
    open_game_channel,
    people,
    select,
    turn_of,
)
from PIL import Image
from sandbox_process import SandboxProcess, running_sandbox
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.keys import Keys

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.processes,
    pytest.mark.skipif(missing_browser() is not None, reason=str(missing_browser())),
]

TURNS = 12  # more than enough board posts for both people to have played once each


# The lines of a message that only its reader may see: a company, a drawn card, closed lines.
SECRET_LINE = re.compile(r"Your company|play for the|Your card from|You closed these lines")


# Whether the message list is far from its bottom (more than a message's height).
SCROLLED_UP = """
const box = document.getElementById('messages');
return box.scrollHeight - box.scrollTop - box.clientHeight > 200;
"""
# The list's scrollTop once the page has drawn twice more (its resize observers have run).
AFTER_TWO_FRAMES = """
const done = arguments[arguments.length - 1];
requestAnimationFrame(() => requestAnimationFrame(() =>
  done(document.getElementById('messages').scrollTop)));
"""


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[SandboxProcess]:
    with running_sandbox(tmp_path, "--port", "0") as running:
        yield running


class Game(BoardWatch):
    """The game as the people see it, and the ways they play their turns."""

    def __init__(self, watcher: Person, players: dict[str, Person]) -> None:
        super().__init__(watcher)
        self.players = players
        self.private: dict[str, list[Shown]] = {name: [] for name in players}

    def draw_then_press(self, player: Person) -> None:
        """Draw with the command box (cell from the bot's autocomplete), look at the card
        alone, then lay it where it was with the prompt's button."""
        before = {m.id for m in player.messages()}
        cell = player.command("hv draw", cell=Pick())["cell"]
        assert re.fullmatch(r"[A-G][1-7]", cell), f"the bot offered {cell!r} as a cell"
        prompt = player.wait_message(
            lambda m: m.id not in before and any(":place_here_r" in c for c in m.custom_ids),
            "the drawn card with its buttons",
        )
        assert prompt.visibility == "ephemeral", prompt
        assert cell in prompt.text and "only you can see it" in prompt.text, prompt
        self.private[player.name].append(prompt)
        player.wait_shown_whole(prompt.id, "the drawn card and its buttons come into view")
        player.press(button(prompt, ":place_here_r0"), prompt.id)

    def draw_and_place(self, player: Person) -> None:
        """Draw and place in one command, every option picked from the box's choices."""
        picked = player.command("hv draw", cell=Pick(), place=Pick("here"), rotation=Pick("90"))
        assert picked["place"] == "here" and picked["rotation"] == "90", picked

    def declare_none(self, player: Person) -> None:
        """Answer a declaring prompt with "Declare no more"."""
        prompt = player.wait_message(
            lambda m: (
                m.visibility == "ephemeral"
                and any(c.endswith(":declare_none") for c in m.custom_ids)
            ),
            "the prompt to declare lines",
        )
        self.private[player.name].append(prompt)
        player.press(button(prompt, ":declare_none"), prompt.id)


def page_text(person: Person) -> tuple[str, list[Shown]]:
    """Everything the person's page shows, channel after channel, DM included."""
    texts: list[str] = []
    messages: list[Shown] = []
    links = [link.get_attribute("data-channel-id") for link in person.channel_links()]
    for channel_id in links:
        person.go(f'#channels [data-channel-id="{channel_id}"]')
        shown = person.messages()
        messages += shown
        texts += [m.text for m in shown]
    return "\n".join(texts), messages


def test_two_people_and_an_ai_play_high_voltage_in_the_browser(sandbox: SandboxProcess) -> None:
    with people(sandbox.url, "Ada", "Bruno") as (ada, bruno):
        for person in (ada, bruno):
            person.open()
            person.channel("games")
            chosen = select(person.shown("#person-select")).first_selected_option
            assert chosen.text == person.name, "the page is opened as the person asked for"

        # Ada opens a lobby with the command box, the game picked from its choices.
        ada.command("game new", game=Pick("high-voltage"))
        lobby = ada.wait_message(
            lambda m: any(c.endswith(":join") for c in m.custom_ids), "the lobby with buttons"
        )
        assert lobby.visibility == "public" and "High Voltage" in lobby.text, lobby

        # Bruno, in his own browser, sees the same lobby and joins with its button.
        bruno.wait_message(lambda m: m.id == lobby.id, "the lobby reaches Bruno")
        bruno.press(button(lobby, ":join"), lobby.id)
        ada.wait_message(lambda m: m.id == lobby.id and "Bruno" in m.text, "Bruno is seated")

        # Ada seats an AI with the command box, then starts with the lobby's button.
        ada.command("game addai", level=Pick("easy"))
        seated = ada.wait_message(
            lambda m: m.id == lobby.id and "AI" in m.text, "the AI seat in the lobby"
        )
        ada.press(button(seated, ":start"), lobby.id)

        # Each reads their own company in their DM with the bot, picture included.
        secrets: dict[str, Shown] = {}
        for person in (ada, bruno):
            person.dm()
            secret = person.wait_message(
                lambda m: "Your company:" in m.text, "the secret company by DM"
            )
            assert secret.visibility == "dm", secret
            assert secret.images, "the company's picture"
            person.wait_shown_whole(
                secret.id, "the company's picture loads and the whole message is in view"
            )
            secrets[person.name] = secret
        company = re.search(r"Your company: (\w+)", secrets["Ada"].text)
        assert company is not None, secrets["Ada"]
        ada_colour = company.group(1).lower()

        for person in (ada, bruno):
            person.channel("games")
            open_game_channel(person)
        game = Game(ada, {"Ada": ada, "Bruno": bruno})

        # Ada asks for her secret again where the game is: it comes into view, picture and all.
        before = {m.id for m in ada.messages()}
        ada.command("game mysecret")
        again = ada.wait_message(
            lambda m: m.id not in before and "Your company:" in m.text, "her secret, privately"
        )
        assert again.visibility == "ephemeral" and again.images, again
        ada.wait_shown_whole(again.id, "her secret and its picture come into view")
        game.private["Ada"].append(again)

        # Whoever the deal puts first plays; the AI moves by itself in between.
        ways = [game.draw_then_press, game.draw_and_place]
        played: list[tuple[str, Shown]] = []
        post = game.next_board()
        for _ in range(TURNS):
            turn = turn_of(post)
            assert turn is not None, post
            player = game.players.get(turn.who)
            if player is not None and turn.what == "declaring":
                game.declare_none(player)
            elif player is not None and turn.what == "turn":
                if not ways:
                    break
                ways.pop(0)(player)
                post = game.next_board()
                assert f"{player.name} drew" in post.text, post
                played.append((player.name, post))
                continue
            else:
                assert turn.what == "thinking", f"{turn} awaits a person who is not here"
            post = game.next_board()
        assert not ways, f"only {len(played)} cards were played by people: {played}"

        # Scrolled up to read the game so far, Ada stays there when Bruno writes.
        listing = ada.shown("#messages")
        ActionChains(ada.driver).scroll_from_origin(
            ScrollOrigin.from_element(listing), 0, -600
        ).perform()
        ada.wait(lambda: ada.driver.execute_script(SCROLLED_UP), "Ada's list is scrolled up")
        reading_at = ada.driver.execute_script(
            "return document.getElementById('messages').scrollTop;"
        )
        bruno.say("Nice cable, Ada!")
        ada.wait_message(lambda m: "Nice cable, Ada!" in m.text, "Bruno's words reach Ada")
        assert ada.driver.execute_async_script(AFTER_TWO_FRAMES) == reading_at, "the list jumped"

        # The board is a picture the page shows, and its address serves a real PNG.
        board = game.latest_board()
        for url in board.images:
            ada.wait(lambda u=url: ada.image_loaded(u), f"the board picture {url} loads")
            with urllib.request.urlopen(url, timeout=10) as answer:
                picture = Image.open(io.BytesIO(answer.read()))
                picture.load()
            assert picture.format == "PNG" and picture.width > 200 and picture.height > 200

        # Nothing Ada alone may see ever shows on Bruno's page, in any channel or his DM.
        seen_by_bruno, bruno_messages = page_text(bruno)
        assert "Your company:" in seen_by_bruno, "Bruno's page was read, his DM included"
        ada_only = [secrets["Ada"], *game.private["Ada"]]
        ada_ids = {m.id for m in ada_only}
        assert not ada_ids & {m.id for m in bruno_messages}, "Ada's private messages leaked"
        bruno_buttons = {c for m in bruno_messages for c in m.custom_ids}
        for message in ada_only:
            for line in message.text.splitlines():
                if SECRET_LINE.search(line):
                    assert line.strip() not in seen_by_bruno, f"Bruno's page shows {line!r}"
            for url in message.images:
                assert not any(url in m.images for m in bruno_messages), url
            assert not bruno_buttons & set(message.custom_ids), "Ada's prompt's buttons"
        for words in (f"play for the {ada_colour} company", f"Your company: {ada_colour}"):
            assert words.lower() not in seen_by_bruno.lower(), words

        # Stopped as a service manager stops it, with both pages still open on it.
        stderr = sandbox.stop(signal.SIGTERM)
    assert sandbox.process.returncode == 0, stderr
    assert "Traceback" not in stderr, stderr


def every_command(sandbox_url: str, person: str) -> list[str]:
    """Every command the page offers `person` ("game new", "stats me"), read from the page's
    own view of the bot's command tree: each command's subcommands, its groups' subcommands."""
    with urllib.request.urlopen(f"{sandbox_url}sandbox/api/view?person={person}") as answer:
        tree = json.load(answer)["commands"]

    def leaves(nodes: list[dict[str, Any]], path: str) -> list[str]:
        out: list[str] = []
        for node in nodes:
            name = f"{path} {node['name']}".strip()
            subs = [o for o in node["options"] if o["type"] in ("subcommand", "group")]
            out += leaves(subs, name) if subs else [name]
        return out

    return leaves(tree, "")


# Whether the menu's active item is inside the menu's visible box (the list scrolled to it).
ACTIVE_ITEM_SHOWN = """
const menu = document.getElementById('command-menu');
const item = menu.querySelector('li[aria-selected="true"]');
if (!item) return null;
const box = menu.getBoundingClientRect(), at = item.getBoundingClientRect();
return at.top >= box.top - 1 && at.bottom <= box.bottom + 1 ? item.dataset.command : null;
"""


def test_the_command_menu_offers_every_command_and_filters_as_one_types(
    sandbox: SandboxProcess,
) -> None:
    with people(sandbox.url, "Ada") as (ada,):
        ada.open()
        ada.channel("games")
        offered = every_command(sandbox.url, "Ada")
        # Those a menu cut at 25 left out: the last ones in the menu's order.
        for command in (
            "stats me",
            "stats server",
            "s6 collect",
            "s6 rotate",
            "s6 done",
            "s6 pass",
        ):
            assert command in offered, offered
        assert len(offered) > 25, offered

        # "/" alone lists them all; the list scrolls to each as the arrows reach it.
        composer = ada.type_in_composer("/")
        ada.wait(lambda: sorted(ada.menu_commands()) == sorted(offered), "every command listed")
        composer.send_keys(Keys.ARROW_UP)  # from the first, round to the last
        last = ada.menu_commands()[-1]
        ada.wait(lambda: ada.driver.execute_script(ACTIVE_ITEM_SHOWN) == last, f"/{last} shown")

        # Typing filters as Discord's menu does: the start of each word, then anywhere.
        for typed, listed in (
            ("/s6 r", ["s6 rotate"]),
            ("/stats", ["stats me", "stats server"]),
            ("/sta s", ["stats server"]),
        ):
            ada.type_in_composer(typed)
            ada.wait(lambda t=listed: ada.menu_commands() == t, f"{typed} lists {listed}")
        ada.type_in_composer("/rot")
        ada.wait(
            lambda: {"hv rotate", "s6 rotate"} <= set(ada.menu_commands()),
            "/rot lists the rotate commands",
        )
        assert all("rot" in command for command in ada.menu_commands()), ada.menu_commands()

        # Enter picks the first: the form of /s6 rotate opens.
        ada.type_in_composer("/s6 r").send_keys(Keys.ENTER)
        ada.shown('#command-form[data-command="s6 rotate"]')
