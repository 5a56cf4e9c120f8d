"""Retake the sandbox's screenshots in this folder from a short game played in a real browser.

    python docs/make_sandbox_screenshots.py

Needs Debian's chromium and chromium-driver, and selenium (the `test` extra). Runs
`bot.py --sandbox` on a free port, opens it in headless Chromium as Ada and Bruno, and plays as
the tests do: Ada opens a High Voltage lobby, Bruno joins, Ada seats an AI and starts. Then it
saves, at 1400x900:

- sandbox-command.png: the command box, `/hv draw` with the bot's suggested cells open;
- sandbox-channel.png: the game channel with the board and the drawn card's private buttons;
- sandbox-dm.png: Ada's DM with the bot, her secret company.

The deal is random, so the board differs from one run to the next.
"""

from __future__ import annotations

import signal
import sys
import tempfile
from pathlib import Path

_HERE = Path(__file__).resolve().parent
# The browser and the sandbox process are started as the sandbox's browser test starts them.
sys.path.insert(0, str(_HERE.parent / "tests" / "support"))

import io  # noqa: E402

from browser import (  # noqa: E402
    BoardWatch,
    Person,
    Pick,
    Shown,
    button,
    missing_browser,
    open_game_channel,
    people,
    turn_of,
)
from PIL import Image  # noqa: E402
from sandbox_process import running_sandbox  # noqa: E402

WIDTH, HEIGHT = 1400, 900  # the page's size in every screenshot
MOST_BYTES = 350_000  # above this a screenshot is reduced to a 256-colour palette


def save(person: Person, name: str) -> None:
    """The person's window as a PNG next to this script, kept small."""
    person.wait(person.pictures_loaded, "every picture on the page is drawn")
    picture = Image.open(io.BytesIO(person.driver.get_screenshot_as_png())).convert("RGB")
    out = io.BytesIO()
    picture.save(out, "PNG", optimize=True)
    if out.tell() > MOST_BYTES:
        out = io.BytesIO()
        picture.quantize(256, method=Image.Quantize.MEDIANCUT).save(out, "PNG", optimize=True)
    path = _HERE / name
    path.write_bytes(out.getvalue())
    print(f"{path.name}: {picture.width}x{picture.height}, {out.tell() // 1000} kB")


def full_view(person: Person) -> None:
    """Make the page itself (not the window round it) 1400x900."""
    inner = person.driver.execute_script("return [window.innerWidth, window.innerHeight];")
    outer = person.driver.get_window_size()
    person.driver.set_window_size(
        outer["width"] + WIDTH - inner[0], outer["height"] + HEIGHT - inner[1]
    )


def open_game(ada: Person, bruno: Person) -> None:
    """Ada's lobby, Bruno seated by its button, an AI seated, the game started."""
    for person in (ada, bruno):
        person.open()
        full_view(person)
        person.channel("games")
    ada.command("game new", game=Pick("high-voltage"))
    lobby = ada.wait_message(lambda m: any(c.endswith(":join") for c in m.custom_ids), "lobby")
    bruno.wait_message(lambda m: m.id == lobby.id, "the lobby")
    bruno.press(button(lobby, ":join"), lobby.id)
    ada.wait_message(lambda m: m.id == lobby.id and "Bruno" in m.text, "Bruno is seated")
    ada.command("game addai", level=Pick("easy"))
    seated = ada.wait_message(lambda m: m.id == lobby.id and "AI" in m.text, "the AI seat")
    ada.press(button(seated, ":start"), lobby.id)
    for person in (ada, bruno):
        open_game_channel(person)


def first_person_to_move(watch: BoardWatch, players: dict[str, Person]) -> Person:
    """Whoever the deal (and the AI's moves) make the first person to act."""
    while True:
        turn = turn_of(watch.next_board())
        if turn is not None and turn.what == "turn" and turn.who in players:
            return players[turn.who]


def drawn_card(player: Person) -> Shown:
    """The player opens `/hv draw`, shows the bot's cells (screenshot), picks one and sends:
    the card comes back to them alone, with its buttons."""
    before = {m.id for m in player.messages()}
    composer = player.shown("#composer")
    composer.click()
    composer.send_keys("/hv draw")
    player.shown('#command-menu li.command-item[data-command="hv draw"]').click()
    field = player.shown('#command-form .option-field[data-option="cell"] .option-input')
    field.click()
    choice = player.shown("#choices li.choice[data-value]")
    save(player, "sandbox-command.png")
    choice.click()
    player.shown("#send-command").click()
    return player.wait_message(
        lambda m: m.id not in before and any(":place_here_r" in c for c in m.custom_ids),
        "the drawn card with its buttons",
    )


def main() -> int:
    if reason := missing_browser():
        print(reason, file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary) / "sandbox"  # its TMPDIR is made beside it, in `temporary`
        folder.mkdir()
        with running_sandbox(folder, "--port", "0") as sandbox:
            take_screenshots(sandbox.url)
            stderr = sandbox.stop(signal.SIGTERM)
    if sandbox.process.returncode != 0:
        print(stderr, file=sys.stderr)
        return 1
    return 0


def take_screenshots(url: str) -> None:
    """The short game, with a screenshot at each moment worth showing."""
    with people(url, "Ada", "Bruno") as (ada, bruno):
        open_game(ada, bruno)
        player = first_person_to_move(BoardWatch(ada), {"Ada": ada, "Bruno": bruno})
        drawn_card(player)
        save(player, "sandbox-channel.png")
        ada.dm()
        secret = ada.wait_message(lambda m: "Your company:" in m.text, "Ada's company")
        ada.wait(lambda: ada.image_loaded(secret.images[0]), "the company's picture")
        save(ada, "sandbox-dm.png")


if __name__ == "__main__":
    sys.exit(main())
