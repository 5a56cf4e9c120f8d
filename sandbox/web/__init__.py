"""The sandbox's browser page: a Discord client for people, served next to the emulated
Discord, so anyone can play with the bot in a browser without a Discord account.

    emu = DiscordEmulator()
    page = SandboxPage(emu)          # Ada, Bruno, Chiara and Dieter join the server
    page.install()                   # before the emulator starts
    await emu.start(port=8642)       # then the bot connects; the page is at page.url

The server side (this package's Python) gives each person their view as JSON and a WebSocket
of live events, filtered here so that nobody's browser ever receives another person's
ephemeral answers or DMs; the page (`static/`) only draws what it is sent and acts through the
JSON API (`page.py` lists the routes). It knows nothing of the bot's games: it shows whatever
commands the bot registered, in each person's language.

Beyond the shared contract: a person may be named by id or by name (any case), and
`GET /sandbox/api/view` without `person` is the first person's view; `POST /sandbox/api/say`
answers `{"ok": true, "id": ...}` with the new message's id; autocomplete answers
`{"choices": [], "error": ...}` when the bot does not answer; the "interaction" of a message
is null unless it answers a slash command (a reply to a button press names no command);
`GET /favicon.ico` answers 204.
"""

from .page import DEFAULT_PEOPLE, SandboxPage
from .views import LOCALES

__all__ = ["DEFAULT_PEOPLE", "LOCALES", "SandboxPage"]
