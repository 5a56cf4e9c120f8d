"""A local Discord: the emulated API and gateway (`sandbox.emulator`) that the real bot runs
against in the tests, and a browser page (`sandbox.web`) where people can play with the bot
without a Discord account.

Nothing here knows the bot: the emulator speaks Discord's protocol to any discord.py client,
and the page is a Discord client for people. `sandbox_bot.py`, beside `bot.py`, puts the three
together for `python bot.py --sandbox`.
"""

# The page's port on 127.0.0.1 unless told another (`bot.py --sandbox --port`), or any free one
# if that is taken. Here, where `bot.py` reads it for its help without importing the sandbox.
DEFAULT_PORT = 8642
