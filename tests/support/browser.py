"""The sandbox as a newcomer meets it: `python bot.py --sandbox` run as its own process (see
`sandbox_process`), and a real headless Chromium (Debian's, driven through its chromedriver by
selenium) per person.

Everything a person does here goes through the page, as a person would do it: clicking
channels and buttons, typing in the command box, picking from the choices it offers. Every wait
is a `WebDriverWait` on something the page shows (or a line the sandbox prints), never a pause.
The page's ids and classes are the sandbox's DOM contract (see the page's own module).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webelement import WebElement

if TYPE_CHECKING:
    # selenium's waits and <select> helpers import its whole remote driver, a tenth of a
    # second: every test process collects the browser tests (`-m` leaves them out after), so
    # they are imported where a browser test uses them (see `select`, `page_wait`).
    from selenium.webdriver.remote.webdriver import WebDriver
    from selenium.webdriver.support.ui import Select, WebDriverWait

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
CHROMIUM_ARGS = (
    "--headless=new",
    "--no-sandbox",  # tests may run as root, where Chromium's own sandbox refuses to start
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,900",
)
POLL = 0.05  # how often a wait looks at the page again

T = TypeVar("T")


def missing_browser() -> str | None:
    """Why a real browser cannot run here, or None when it can."""
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not os.access(path, os.X_OK):
            return f"{path} is missing: install Debian's {package} (CI does)"
    return None


def select(element: WebElement) -> Select:
    """selenium's helper for the <select> `element` (imported when a browser test runs)."""
    from selenium.webdriver.support.ui import Select

    return Select(element)


def page_wait(driver: WebDriver, timeout: float, **options: Any) -> WebDriverWait[WebDriver]:
    """selenium's wait on `driver`'s page (imported when a browser test runs)."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, **options)


@dataclass(frozen=True)
class Shown:
    """One message as the page shows it."""

    id: str
    visibility: str
    text: str
    custom_ids: tuple[str, ...]  # of its buttons that can still be pressed
    images: tuple[str, ...]  # addresses of its pictures (attachments, embed images)


# Reads the open channel's messages in one round trip (elements would go stale between calls).
READ_MESSAGES = """
return Array.from(document.querySelectorAll('#messages .message')).map(m => ({
  id: m.dataset.messageId || '',
  visibility: m.dataset.visibility || '',
  text: m.innerText,
  custom_ids: Array.from(m.querySelectorAll('button.component-button[data-custom-id]'))
    .filter(b => !b.disabled).map(b => b.dataset.customId),
  images: Array.from(m.querySelectorAll('img')).map(i => i.src),
}));
"""


# Whether a message is loaded and scrolled into view: its pictures decoded, its bottom edge
# within the message list's visible box (a tall message may begin above it, as in Discord).
# Why a message is not wholly in view yet ('' once it is): a picture not loaded, or its bottom
# outside the visible part of the message list.
NOT_WHOLE = """
const message = document.querySelector(`#messages .message[data-message-id="${arguments[0]}"]`);
if (!message) return 'no such message on the page';
const waiting = Array.from(message.querySelectorAll('img'))
  .filter(i => !(i.complete && i.naturalWidth > 0))
  .map(i => `picture ${i.src} not loaded (complete=${i.complete}, width=${i.naturalWidth})`);
if (waiting.length) return waiting.join('; ');
const list = document.getElementById('messages');
const box = list.getBoundingClientRect();
const bottom = message.getBoundingClientRect().bottom;
if (bottom <= box.bottom + 1 && bottom > box.top) return '';
return `its bottom at ${bottom}, the list shows ${box.top} to ${box.bottom} ` +
  `(scrollTop ${list.scrollTop} of ${list.scrollHeight - list.clientHeight})`;
"""


class Person:
    """One person at the sandbox, in their own headless Chromium (own profile, own tab)."""

    def __init__(self, sandbox_url: str, name: str, timeout: float = 15.0) -> None:
        self.url = sandbox_url
        self.name = name
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix=f"sandbox-{name.lower()}-")
        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for arg in CHROMIUM_ARGS:
            options.add_argument(arg)
        options.add_argument(f"--user-data-dir={self.profile}")
        self.driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.driver.quit()
        shutil.rmtree(self.profile, ignore_errors=True)

    # Waiting on the page

    def wait(self, condition: Callable[[], T], message: str, timeout: float | None = None) -> T:
        """The first truthy value of `condition`, looked at again whenever it cannot be told
        yet (an element replaced while being read counts as "not yet")."""
        waiter = page_wait(
            self.driver,
            timeout or self.timeout,
            poll_frequency=POLL,
            ignored_exceptions=(StaleElementReferenceException,),
        )
        try:
            return waiter.until(lambda _: condition(), message=f"{self.name}: {message}")
        except TimeoutException as exc:
            raise AssertionError(f"{exc.msg}\n{self.describe()}") from None

    def find(self, selector: str) -> WebElement | None:
        found = self.driver.find_elements(By.CSS_SELECTOR, selector)
        return found[0] if found else None

    def shown(self, selector: str) -> WebElement:
        """The element, once it is there and visible."""

        def visible() -> WebElement | None:
            element = self.find(selector)
            return element if element is not None and element.is_displayed() else None

        return self.wait(visible, f"{selector} is shown")

    def describe(self) -> str:
        """What the page shows, for a failing test's message."""
        try:
            title = self.driver.find_element(By.ID, "channel-title").text
            lines = [f"{m.visibility} {m.id}: {m.text!r} {m.custom_ids}" for m in self.messages()]
            error = self.find("#composer-error")
            if error is not None and error.text:
                lines.append(f"composer error: {error.text}")
            return f"{self.name}'s page, {title}:\n" + "\n".join(lines[-15:])
        except Exception as exc:  # the page itself may be what is broken
            return f"{self.name}'s page cannot be read: {exc!r}"

    # Where the person is

    def open(self, **query: str) -> None:
        """Load the sandbox as this person, and wait until it is connected and drawn."""
        self.driver.get(self.url + "?" + urllib.parse.urlencode({"as": self.name, **query}))
        self.wait(lambda: self.find('body[data-connected="true"]'), "the page connects and draws")

    def go(self, link: WebElement | str) -> None:
        """Open a channel (or the DM) from the sidebar, and wait until it is the open one."""
        if isinstance(link, str):
            link = self.shown(link)
        channel_id = link.get_attribute("data-channel-id")
        link.click()
        self.wait(
            lambda: self.find(f'#channels [data-channel-id="{channel_id}"].active'),
            f"channel {channel_id} is open",
        )

    def channel(self, name: str) -> None:
        self.go(f'#channels a.channel[data-name="{name}"]')

    def dm(self) -> None:
        self.go("#dm-link")

    def channel_links(self) -> list[WebElement]:
        """Every channel, thread and DM link in the sidebar."""
        return self.driver.find_elements(By.CSS_SELECTOR, "#channels a.channel, #dm-link")

    def messages(self) -> list[Shown]:
        """The open channel's messages, oldest first."""
        return [
            Shown(
                id=m["id"],
                visibility=m["visibility"],
                text=m["text"],
                custom_ids=tuple(m["custom_ids"]),
                images=tuple(m["images"]),
            )
            for m in self.driver.execute_script(READ_MESSAGES)
        ]

    def wait_message(
        self, check: Callable[[Shown], bool], message: str, timeout: float | None = None
    ) -> Shown:
        """The newest message of the open channel that passes `check`, once there is one."""

        def found() -> Shown | None:
            return next((m for m in reversed(self.messages()) if check(m)), None)

        return self.wait(found, message, timeout)

    # Doing things

    def press(self, custom_id: str, message_id: str) -> None:
        """Press a bot's button, as shown under one of its messages."""
        button = self.shown(
            f'.message[data-message-id="{message_id}"] '
            f'button.component-button[data-custom-id="{custom_id}"]'
        )
        self.wait(button.is_enabled, f"button {custom_id} can be pressed")
        button.click()

    def command(self, command: str, **options: Any) -> dict[str, str]:
        """Type `/command` in the command box, pick it from the menu, fill its options, send.

        An option's value is typed as text, unless it is `pick(...)` (chosen from the choices
        the box offers: fixed ones, or the bot's live autocomplete). Returns the value each
        picked option got. Waits until the form is sent and closed; a refusal fails the test.
        """
        composer = self.shown("#composer")
        composer.click()
        composer.clear()
        composer.send_keys("/" + command)
        item = self.shown(f'#command-menu li.command-item[data-command="{command}"]')
        item.click()
        self.shown(f'#command-form[data-command="{command}"]')
        picked: dict[str, str] = {}
        for option, value in options.items():
            picked[option] = self.fill(option, value)
        self.shown("#send-command").click()
        self.wait(lambda: self._sent(command), f"/{command} is sent")
        return picked

    def _sent(self, command: str) -> bool:
        error = self.find("#composer-error")
        if error is not None and error.is_displayed() and error.text.strip():
            raise AssertionError(f"{self.name}: /{command} was refused: {error.text}")
        form = self.find(f'#command-form[data-command="{command}"]')
        return form is None or not form.is_displayed()

    def fill(self, option: str, value: Any) -> str:
        """Fill one option of the open command form; returns the value it got."""
        field = self.shown(f'#command-form .option-field[data-option="{option}"]')
        entry = field.find_element(By.CSS_SELECTOR, ".option-input")
        if entry.tag_name == "select":
            chosen = value.value if isinstance(value, Pick) else str(value)
            if chosen is None:
                chosen = select(entry).options[0].get_attribute("value") or ""
            select(entry).select_by_value(chosen)
            return chosen
        entry.click()
        if not isinstance(value, Pick):
            entry.send_keys(str(value))
            return str(value)
        if value.typed:
            entry.send_keys(value.typed)
        selector = "#choices li.choice[data-value]"
        if value.value is not None:
            selector = f'#choices li.choice[data-value="{value.value}"]'
        choice = self.shown(selector)
        chosen = choice.get_attribute("data-value") or ""
        choice.click()
        self.wait(
            lambda: (entry.get_attribute("value") or "").strip(),
            f"option {option} shows the choice picked",
        )
        return chosen

    def say(self, text: str) -> None:
        """A plain chat message in the open channel."""
        composer = self.shown("#composer")
        composer.click()
        composer.send_keys(text, Keys.ENTER)

    def pictures_loaded(self) -> bool:
        """Whether every picture on the page is decoded (before a screenshot, say)."""
        return bool(
            self.driver.execute_script(
                "return Array.from(document.images).every(i => i.complete && i.naturalWidth > 0);"
            )
        )

    def not_whole(self, message_id: str) -> str:
        """Why the message is not wholly in view yet: its pictures must all be loaded and its
        last line (its buttons, say) inside the visible part of the message list, not below
        it. Empty once it is."""
        return str(self.driver.execute_script(NOT_WHOLE, message_id))

    def wait_shown_whole(self, message_id: str, what: str) -> None:
        """Wait until the message is wholly in view; failing, say why it is not."""
        try:
            self.wait(lambda: not self.not_whole(message_id), what)
        except AssertionError as exc:
            raise AssertionError(f"{exc}\nnot in view: {self.not_whole(message_id)}") from None

    def menu_commands(self) -> list[str]:
        """The commands the open `/` menu lists, in order (their `data-command`)."""
        return [
            str(item.get_attribute("data-command"))
            for item in self.driver.find_elements(By.CSS_SELECTOR, "#command-menu li.command-item")
        ]

    def type_in_composer(self, text: str) -> WebElement:
        """Type `text` into an emptied message box, as a person would; the box is returned."""
        composer = self.shown("#composer")
        composer.click()
        composer.clear()
        composer.send_keys(text)
        return composer

    def image_loaded(self, url: str) -> bool:
        """Whether the page holds a decoded picture from `url` (its naturalWidth is known)."""
        return bool(
            self.driver.execute_script(
                "return Array.from(document.images)"
                ".some(i => i.src === arguments[0] && i.complete && i.naturalWidth > 0);",
                url,
            )
        )


@dataclass(frozen=True)
class Pick:
    """An option picked from the choices the command box offers: the one whose value is
    `value`, or (with no value) the first one offered, after typing `typed`."""

    value: str | None = None
    typed: str = ""


# High Voltage as the page shows it


@dataclass(frozen=True)
class Turn:
    """What the latest board post says is awaited: `who` (a name as shown) and `what`:
    "turn" (a person acts), "thinking" (an AI acts), "declaring" or "placing" (a person
    answers their private prompt)."""

    who: str
    what: str


TURN_WORDS = (
    (re.compile(r"Next: @?(?P<who>.+?), your turn"), "turn"),
    (re.compile(r"Next: @?(?P<who>.+?) is thinking"), "thinking"),
    (re.compile(r"@?(?P<who>\S+) closed a line and is choosing"), "declaring"),
    (re.compile(r"@?(?P<who>\S+) is placing the card they drew"), "placing"),
)


def turn_of(post: Shown) -> Turn | None:
    for pattern, what in TURN_WORDS:
        if found := pattern.search(post.text):
            return Turn(found.group("who").strip(), what)
    return None


def is_board_post(message: Shown) -> bool:
    """A public post of the game with its board picture and what is awaited next."""
    return message.visibility == "public" and bool(message.images) and turn_of(message) is not None


def button(message: Shown, ending: str) -> str:
    """The custom_id of the message's button whose id ends with `ending`."""
    found = [c for c in message.custom_ids if c.endswith(ending)]
    assert found, f"no button ending {ending!r} under {message}"
    return found[0]


def open_game_channel(person: Person) -> None:
    """Follow the game to where its boards are posted: a thread of #games if the bot opened
    one, else #games itself."""
    person.wait(
        lambda: (
            person.find("#channels a.channel.thread")
            or any(is_board_post(m) for m in person.messages())
        ),
        "the game's first board, in #games or in a thread",
        timeout=20,
    )
    thread = person.find("#channels a.channel.thread")
    if thread is not None:
        person.go(thread)


class BoardWatch:
    """One person's page watching the game's public board posts, taken in order."""

    def __init__(self, watcher: Person) -> None:
        self.watcher = watcher
        self.seen: set[str] = set()

    def next_board(self, timeout: float = 20.0) -> Shown:
        """The oldest board post not seen yet (once there is one): posts are taken in order,
        so a person's move is not skipped when the AI's follows it at once."""
        self.watcher.wait_message(
            lambda m: is_board_post(m) and m.id not in self.seen, "a new board post", timeout
        )
        post = next(
            m for m in self.watcher.messages() if is_board_post(m) and m.id not in self.seen
        )
        self.seen.add(post.id)
        return post

    def latest_board(self) -> Shown:
        return self.watcher.wait_message(is_board_post, "a board post")


@contextlib.contextmanager
def people(url: str, *names: str) -> Iterator[list[Person]]:
    """One browser per person, each closed afterwards."""
    opened: list[Person] = []
    try:
        for name in names:
            opened.append(Person(url, name))
        yield opened
    finally:
        for person in opened:
            person.close()
